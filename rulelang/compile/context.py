"""What a rule's function is being written for: one immutable value, not flags set and reset.

:class:`RuleMode` holds how :class:`~rulelang.compile.rulegen.RuleGen` writes one rule's function
(the API's function or its playout variant, the turn that goes on from turn to turn, whether the
state's most read parts and the step budget are held in locals, whether moves are logged).  It
is made once per function (``RuleGen.compile_rule``, ``attrs.evolve`` of the generator's own)
and given to the statement writer for that function (``StatementGen.mode``), which reads it and
never changes it; a function of another kind is written with another value.  (The other modes of
the generators, which change inside a function's writing, are still attributes of the writers:
see docs/internals.md.)
"""
from __future__ import annotations

import attrs


@attrs.frozen
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

    @property
    def logged(self) -> bool:
        """Whether moves and reversals are recorded in a logged game's log (rulelang/engine/
        events.py): not in the playout variants, which never log."""
        return not self.playout


# The mode of code written outside any rule's function, and of the API's functions.
API = RuleMode()
