"""The run loop's vocabulary: what a rule's code returns to the loop that runs it (a position, or
one of the codes ``SUSPEND``, ``CALL``, ``RETURN``, ``HALT``, ``END_TURN``), the default step
budget, :class:`GameProblem`, which stops a game that cannot go on, and the decision a suspended
game waits for (:class:`Decision`, :class:`Simultaneous`, ``NO_DECISION``).  Shared by the state
(:mod:`rulelang.engine.runtime`), the helpers the generated code calls and the compiler.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Optional

try:        # the accessor namedtuple's fields use: a C descriptor, read as fast as a slot
    from _collections import _tuplegetter as _field  # type: ignore[import-not-found]  # no stub
except ImportError:                     # (another Python: the same, through a property)
    def _field(i: int, doc: str) -> Any:
        return property(itemgetter(i), doc=doc)

SUSPEND, CALL, RETURN, HALT, END_TURN = -1, -2, -3, -4, -5
DEFAULT_MAX_STEPS = 200_000


class GameProblem(Exception):
    """Raised inside a rule when the game cannot go on (a card that is not where the rule says,
    a decision with no legal choice, the step budget spent).  The state records it and ends."""

    def __init__(self, code: str, message: str, span: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span


# ---- the decision a suspended game waits for ---------------------------------------------------
# A rule that stops for a decision (SUSPEND) leaves one of these in ``State.decision``; a game
# over holds NO_DECISION.  Every kind answers the same questions: who decides (``seat``, the first
# seat still to choose, -1 when nobody; ``seats``), whether several seats decide at once
# (``simultaneous``), and what a seat may do (``actions_of``).  ``one_seat`` is true only for
# :class:`Decision`, the common case, which ``State.apply_action`` serves first.

class Decision(tuple[int, list[int]]):
    """One seat decides among ``actions`` (ints, see :mod:`rulelang.engine.runtime`).  Frozen:
    a tuple ``(seat, actions)``, so that the generated code builds one with a single call that
    runs no Python code (``Decision((seat, actions))``); the list of actions is never changed in
    place once the decision is made."""

    __slots__ = ()
    one_seat = True
    simultaneous = False
    seat = _field(0, "The seat (0-based) that decides.")
    actions = _field(1, "Its legal actions, every copy of a card included.")

    @property
    def seats(self) -> tuple[int, ...]:
        return (self[0],)

    def actions_of(self, seat: int) -> list[int]:
        return self[1] if seat == self[0] else []

    def copy(self) -> "Decision":
        return self                     # frozen: shared by clones

    def __repr__(self) -> str:
        return f"Decision(seat={self[0]}, actions={self[1]!r})"


class Simultaneous:
    """Several seats decide at once (``choose together``): each seat in ``order`` chooses among
    ``offers[seat]``, secretly; ``chosen`` holds the choices made so far and ``waiting`` the seats
    still to choose.  When nobody is left, the frame's slot ``slot`` gets the choices in ``order``
    and the rule resumes at ``dispatch``."""

    __slots__ = ("order", "offers", "slot", "dispatch", "waiting", "chosen")
    one_seat = False
    simultaneous = True

    def __init__(self, order: list[int], offers: dict[int, list[int]], slot: int, dispatch: int,
                 waiting: Optional[list[int]] = None, chosen: Optional[dict[int, int]] = None) -> None:
        self.order = order
        self.offers = offers
        self.slot = slot
        self.dispatch = dispatch
        self.waiting = list(order) if waiting is None else waiting
        self.chosen = {} if chosen is None else chosen

    @property
    def seat(self) -> int:
        return self.waiting[0]

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(self.waiting)

    def actions_of(self, seat: int) -> list[int]:
        return self.offers[seat] if seat in self.waiting else []

    def copy(self) -> "Simultaneous":
        """A copy whose choices to come are its own (the offers are never changed in place)."""
        return Simultaneous(self.order, dict(self.offers), self.slot, self.dispatch,
                            list(self.waiting), dict(self.chosen))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Simultaneous and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __repr__(self) -> str:
        return (f"Simultaneous(order={self.order}, waiting={self.waiting}, "
                f"chosen={self.chosen}, offers={self.offers})")


class _NoDecision:
    """What a game over waits for: nobody, nothing."""

    __slots__ = ()
    one_seat = False
    simultaneous = False
    seat = -1
    seats = ()

    def actions_of(self, seat: int) -> list[int]:
        return []

    def copy(self) -> "_NoDecision":
        return self

    def __repr__(self) -> str:
        return "NO_DECISION"

    def __reduce__(self) -> str:
        return "NO_DECISION"            # one of it: pickled and copied as itself


NO_DECISION = _NoDecision()
