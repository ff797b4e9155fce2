"""The reference interpreter: the test oracle that the generated code is checked against.

A :class:`ReferenceGame` plays a checked model (:mod:`rulelang.check`) with every rule and
value compiled to closures, one per node, written plainly (``x_<Node>`` for a value in
:mod:`reference.closure_values`, ``s_<Node>`` for a statement in
:mod:`reference.closure_statements` and :mod:`reference.closure_control`, with the labels and jumps
of :mod:`reference.closures`), never to generated code.  Each rule's list of instruction
closures is wrapped in one function ``f(state, frame, position)``, so the engine's state runs it
as it runs a generated rule.  ``tests/closures.py`` (``closures_only``) makes a test's games load
as reference games; tests/test_vocabulary.py requires an ``x_`` or ``s_`` method here for every
kind of value and statement.

It shares nothing with the compiler: it imports nothing from ``rulelang/compile/``
(tests/test_reference_independent.py scans its imports).  What it uses, and where the line is:

- the checked model (``rulelang/check/``: the tree, the resolved references, the deck's cards
  as the checker lists them), which is what both backends are given;
- the engine (``rulelang/engine/``): the ``State`` and its API (legal actions, observations,
  saves, the playout driver), the run loop's codes, ``GameProblem``, the random generator, the
  log's events, the bookkeeping of what players remember (``players.py``: ``seen_go``,
  ``show_card``, ...) and the meld search.  These are the runtime every backend runs on: the
  differential tests check what a backend makes of the rules, not the runtime under both;
- nothing else.  Its layout of zones, variables and cards, its game loop (setup, the turns, the
  endings tested one by one), its step budget, its dealing, its ends of the game, which moves
  players remember, and its words are its own (:mod:`reference.game`, :mod:`reference.rules`),
  written from docs/language.md without the compiler's special cases: no rule is called as a
  Python function or copied in place of its call, no ending has a fast test, no value is folded
  before the game, a deal is one card at a time.
"""
from reference.game import ReferenceGame

__all__ = ["ReferenceGame"]
