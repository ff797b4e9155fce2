"""The run loop's vocabulary: what a rule's code returns to the loop that runs it (a position, or
one of the codes ``SUSPEND``, ``CALL``, ``RETURN``, ``HALT``, ``END_TURN``), the default step
budget, and :class:`GameProblem`, which stops a game that cannot go on.  Shared by the state
(:mod:`rulelang.engine.runtime`), the helpers the generated code calls and the compiler.
"""
from __future__ import annotations

SUSPEND, CALL, RETURN, HALT, END_TURN = -1, -2, -3, -4, -5
DEFAULT_MAX_STEPS = 200_000


class GameProblem(Exception):
    """Raised inside a rule when the game cannot go on (a card that is not where the rule says,
    a decision with no legal choice, the step budget spent).  The state records it and ends."""

    def __init__(self, code: str, message: str, span=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
