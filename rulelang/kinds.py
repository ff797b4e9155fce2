"""The kinds of values the checker gives every expression (its types), and the layout of a
rule's frame.

Shared by the checker, which works the kinds out, the compiler and the runtime, which reads the
kinds of a rule's local slots (to know which hold cards); here so that neither imports the other.

A kind is a member of :class:`Kind`, a ``str`` enum whose value is the word that messages show
(``FLAG`` is shown as ``yes/no``): it compares equal to that word, and formats as it.
"""
from __future__ import annotations

import enum


class Kind(enum.StrEnum):
    NUMBER = "number"
    FLAG = "yes/no"
    CARD = "card"
    PLAYER = "player"
    SUIT = "suit"
    ZONE = "zone"
    PLAYERS = "players"
    SYMBOL = "symbol"
    NONE = "none"
    ANY = "any"
    TEXT = "text"
    CARDS = "cards"     # only in `say`: the cards of a zone, said by name
    RANK = "rank"       # only how `say` shows a number that is a rank
    # A variable that holds a set of values (`var named: set of suits`): kept as a number, one
    # bit for each value (a suit's index, a rank's number, a seat, a named value's id).
    SET_SUITS = "set of suits"
    SET_RANKS = "set of ranks"
    SET_PLAYERS = "set of players"
    SET_VALUES = "set of values"


NUMBER, FLAG, CARD, PLAYER, SUIT, ZONE, PLAYERS, SYMBOL, NONE, ANY = (
    Kind.NUMBER, Kind.FLAG, Kind.CARD, Kind.PLAYER, Kind.SUIT, Kind.ZONE, Kind.PLAYERS,
    Kind.SYMBOL, Kind.NONE, Kind.ANY)
TEXT, CARDS, RANK = Kind.TEXT, Kind.CARDS, Kind.RANK
SET_KINDS = (Kind.SET_SUITS, Kind.SET_RANKS, Kind.SET_PLAYERS, Kind.SET_VALUES)

# The name, among a compiled game's variables, of who played each card (docs/language.md, "Who
# played a card"): one value per card, the seat or -1, after the game's own variables, only in a
# game that reads `who played c`.  A name no rule file can write (a space first: it is none of
# the game's variables to show).
PLAYED_BY = " played by"


class Frame:
    """A rule's frame on ``g.stack``: the list ``[rule, position, you, slot 0, slot 1, ...]``.

    The offsets are named here; a local slot ``i`` is at :meth:`Frame.slot` ``(i)``, and slot -1,
    the ``you_slot`` of a rule's own body, is the frame's ``you``."""
    RULE = 0            # the rule's number in ``g.procs``
    POSITION = 1        # where the rule resumes (its block number)
    YOU = 2             # the player who is ``you`` in the rule
    SLOTS = 3           # the first local slot

    @staticmethod
    def slot(i: int) -> int:
        """The index of local slot ``i`` in a frame (slot -1 is :attr:`YOU`)."""
        return Frame.SLOTS + i
