"""What code is being written for: immutable values, not flags set and reset.

:class:`RuleMode` holds how :class:`~rulelang.compile.rulegen.RuleGen` writes one rule's function
(the API's function or its playout variant, the turn that goes on from turn to turn, whether the
state's most read parts and the step budget are held in locals, whether moves are logged) and
what part of it is being written (the structured turn, a rule copied or written in place of its
call).  It is made once per function (``RuleGen.compile_rule``) and given to the statement writer
for that function (``StatementGen.mode``), which reads it and never changes it.

:class:`ExprMode` holds how :class:`~rulelang.compile.codegen.ExprGen` writes a value where it
is being written: the state's parts held in locals or not, a plain part of a statement's value,
the define values kept, the rule copied in place whose slots are Python locals, the loop its
parts may be computed before, the structured turn's locals.

Neither is ever changed: a nested construct writes under a new value (``RuleGen.within``,
``ExprGen.within``: ``attrs.evolve`` of the value around it, given back when the construct is
written), so what a part of the generator sees is one value, made where the construct is.
(A value may name a table that the code written meanwhile fills in: the define values kept, the
zones' locals, the parts moved before a loop; the table is the construct's, not a mode.)
"""
from __future__ import annotations

import contextlib
from typing import Optional

import attrs


@attrs.frozen(slots=False)
class RuleMode:
    """How one rule's function is written."""
    # the playout variant (PlayoutGen): decisions taken in place, nothing logged
    playout: bool = False
    # the turn that goes on from turn to turn (RuleGen.compile_rule's ``next_turn``)
    looping: bool = False
    # the state's most read parts held in locals (ExprGen.state; the optimisation held_state)
    held: bool = False
    # the steps of the budget counted in locals (RuleGen.step; the optimisation steps_held)
    steps_held: bool = False
    # the decisions and choices of a playout counted in locals (PlayoutGen.policy_pick; the
    # optimisation counts_held: in the looping turn of a playout)
    counts_held: bool = False
    # writing the structured turn (PlayoutGen.structured_turn): a rule written in place is
    # counted against its own budget of statements
    structuring: bool = False
    # ... its `you`, slots and zones in Python locals (the optimisation turn_locals)
    turn_locals: bool = False
    # ... its turns counted in a local (the optimisation turns_held)
    turns_held: bool = False
    # inside a rule copied in place of its call (RuleGen.copy_rule): how many, one in another
    copying: int = 0
    # inside a rule that may decide written in place of its call (RuleGen.inline_call)
    inlining: int = 0

    @property
    def logged(self) -> bool:
        """Whether moves and reversals are recorded in a logged game's log (rulelang/engine/
        events.py): not in the playout variants, which never log."""
        return not self.playout


# The mode of code written outside any rule's function, and of the API's functions.
API = RuleMode()


@attrs.frozen(slots=False)
class ExprMode:
    """How ExprGen writes a value where it is being written."""
    # the state's most read parts read from the locals a rule's function binds (RuleMode.held;
    # never in a function of its own: a define's, a card search's)
    hold: bool = False
    # a plain part of a statement's value (an `if`'s test, the value set: ExprGen.gen_plain),
    # where a choice between values may keep what its first condition computes
    plain: bool = False
    # the define values kept (exprnodes.kept_by_first, RuleGen.first_define): id -> [copy, name]
    kept: Optional[dict] = None
    # the structured turn's slots are Python locals: code that needs the frame raises NeedsFrame
    frameless: bool = False
    # the zones whose lists the structured turn holds in locals (index -> name, filled in as
    # code reads them), or None
    zone_locals: Optional[dict] = None
    # a rule's body written in place of a call of it (ExprGen.you_as): the code of its `you`
    # and of its slots (frame index -> code); ``base_frame``: that `you` is a slot of the frame
    base_env: dict = attrs.field(factory=dict)
    base_frame: bool = False
    # slots read as another slot's code while a statement is written (ChoiceGen.sus_Choose)
    alias: dict = attrs.field(factory=dict)
    # the loop whose parts that do not depend on its item are computed before it
    # (Hoisting.gen_hoisting): (loop names, hoisted, binds, card slot, lines), or None
    hoist: Optional[tuple] = None
    # the tops of shared zones computed once before that loop (Hoisting.shared_tops), or None
    tops: Optional[dict] = None
    # the code written runs for each item of a loop: a loop in it is charged (ExprGen.charged)
    charging: bool = False
    # what holds wherever the code being written is computed, of the values computed before
    # that loop (Hoisting.guard): (the loop's hoisted list, ((hoisted name, true?), ...)), or None
    guard: Optional[tuple] = None
    # the comparisons known to be false there (exprnodes.ExprNodes.g_BoolOp: their shapes,
    # ExprGen.shape), or None
    false: Optional[frozenset] = None
    # in a define's function (ExprGen.helper): the calls of other defines' functions it makes
    # first, once (name, code), filled in as its body is written; None elsewhere
    prelude: Optional[list] = None
    # ... the names those calls may be given as arguments (the function's own)
    prelude_args: frozenset = frozenset()


class Modal:
    """A writer with a current immutable mode (``mode``), replaced while a construct is
    written under another (:meth:`within`), never changed."""
    mode: object

    @contextlib.contextmanager
    def within(self, **changes):
        saved = self.mode
        self.mode = evolve(saved, changes)
        try:
            yield self.mode
        finally:
            self.mode = saved


def evolve(mode, changes: dict):
    """A copy of the mode ``mode`` with ``changes`` (attrs.evolve, without running __init__:
    the generator makes one for each part of a value written inside a loop)."""
    fields = mode.__dict__
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(mode).__name__} has no field {name!r}")
    new = object.__new__(type(mode))
    new.__dict__.update(fields)
    new.__dict__.update(changes)
    return new
