"""The reference interpreter: the test oracle that the generated code is checked against.

A :class:`ReferenceGame` is a :class:`rulelang.compile.compiler.CompiledGame` whose rules and
values are compiled to closures only, one per node, written plainly (``x_<Node>`` for a value in
:mod:`reference.closure_values`, ``s_<Node>`` for a statement in
:mod:`reference.closure_statements` and :mod:`reference.closure_control`, with the labels and jumps
of :mod:`reference.closures`), and never to generated code.  Each rule's list of instruction
closures is wrapped in one function ``f(state, frame, position)``, so the engine runs it as it
runs a generated rule.  ``tests/closures.py`` (``closures_only``) makes a test's games load as
reference games; tests/test_vocabulary.py requires an ``x_`` or ``s_`` method here for every kind
of value and statement.
"""
from reference.game import ReferenceGame

__all__ = ["ReferenceGame"]
