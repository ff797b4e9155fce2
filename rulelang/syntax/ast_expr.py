"""The expressions of the abstract syntax tree (:mod:`rulelang.syntax.ast`, which holds them all
by name: ``A.Int``, ``A.CardQuery``, ...)."""
from __future__ import annotations

from typing import Optional

from rulelang.syntax.ast_base import Span, node


# ---------------------------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------------------------

class Expr:
    """Base class of expressions."""


# The name `return VALUE` sets (no rule file can write it: it begins with a space).
RESULT = " result"
# The per-player values a game with teams keeps (docs/language.md, "Partnerships"): the number of
# each player's team, and each player's partner (none unless the team has two players).  `the
# team of P` is read as ``Of(TEAM, P)`` and `partner of P` as ``Of(PARTNER, P)``; no rule file
# can write these names.
TEAM = "(team)"
PARTNER = "(partner)"


@node
class Int(Expr):
    """A whole number: ``7``."""
    value: int
    span: Span


@node
class Text(Expr):
    """A text in double quotes, as a value: ``"gin!"``."""
    value: str
    span: Span


@node
class CardsIn:
    """``the cards in ZONE``, a part of ``say``: the cards of a zone, named."""
    zone: Expr
    span: Span


@node
class Bool(Expr):
    """``yes`` or ``no``."""
    value: bool
    span: Span


@node
class NoneLit(Expr):
    """``none``: no card, no player, no suit."""
    span: Span


@node
class Keyword(Expr):
    """A word that names something the runtime knows: ``you``, ``current player``,
    ``next player``, ``previous player``, ``random player``, ``players``, ``opponents``,
    ``number of players``."""
    word: str
    span: Span


@node
class Seat(Expr):
    """``player 2``: a seat, counted from 1."""
    number: int
    span: Span


@node
class Unary(Expr):
    """A prefix form applied to one expression: ``player after X``, ``player before X``,
    ``rank after X``, ``rank before X``, ``top of Z``, ``bottom of Z``, ``size of Z``,
    ``score of P``, ``random card of Z``, ``not X``, ``- X``."""
    op: str
    operand: Expr
    span: Span


@node
class TotalOf(Expr):
    """``total value of Z``: the sum of a card attribute over the cards of a zone."""
    attribute: str
    zone: Expr
    span: Span


@node
class MeldLeft(TotalOf):
    """``least total points of Z outside sets and runs``: the least sum of a card attribute over
    the cards of a zone left outside non-overlapping sets (three or more cards of one rank) and
    runs (three or more cards of one suit with consecutive ranks).
    ``... laying off on Y``: the cards may also join the sets and runs of zone Y."""
    lay_off: Optional[Expr] = None


@node
class Combos(TotalOf):
    """A count over the combinations of a zone's cards (docs/language.md, "Combinations"):
    ``kind`` is ``sum`` (``number of combinations of cards in Z whose total A is N``: the sets
    of one or more cards whose attribute ``attribute`` adds up to ``target``), ``run`` (``longest
    run in Z``: the most consecutive ranks held), ``runs`` (``number of longest runs in Z``: the
    sets of cards that make a run that long), ``pairs`` (``number of pairs in Z``: the pairs of
    cards of one rank), ``rank`` / ``suit`` (``most cards of one rank/suit in Z``)."""
    kind: str = "sum"
    target: Optional[Expr] = None


@node
class Roll(Expr):
    """``roll d6``: a die roll from the game's seeded generator."""
    sides: int
    span: Span


@node
class CardQuery(Expr):
    """``any card in Z where C``, ``no card in Z where C`` and ``number of cards in Z where C``.
    Inside the condition the card is called ``card``."""
    kind: str            # "any", "no", "count"
    zone: Expr
    condition: Optional[Expr]
    span: Span


@node
class IsOut(Expr):
    """``P is out`` / ``P is not out``: whether a player has left the game."""
    player: Expr
    negate: bool
    span: Span


@node
class AnyNumber(Expr):
    """``any number n from A to B where C``: whether C holds for some whole number n from A to
    B; inside C the number is called ``n``."""
    name: str
    low: Expr
    high: Expr
    condition: Expr
    span: Span


@node
class PlayerQuery(Expr):
    """Over the players still in the game, in the order of play from ``you``:
    ``any player where C``, ``no player where C``, ``number of players where C``,
    ``next player where C`` (the first after ``you``, or none), ``highest V among players
    [where C]``, ``lowest ...`` and ``total of V among players [where C]`` (a sum).  Inside C (or V) the player is called ``player``.  Who decides
    in ``simultaneously choose by each player [where C]`` is one of kind "each", ``... by each
    opponent`` one of kind "others" (the players, a list)."""
    kind: str            # "any", "no", "count", "next", "highest", "lowest", "total", "each",
    condition: Expr      # "others"; for "highest", "lowest" and "total" the value V
    span: Span
    where: Optional[Expr] = None     # `highest V among players where C`: the players counted


@node
class Holder(Expr):
    """``player who has c``: the player one of whose own zones holds the card, or none."""
    card: Expr
    span: Span


@node
class PlayedBy(Expr):
    """``who played c`` (``the player who played c``): the player from one of whose own zones
    the card came into the shared zones, or none (docs/language.md, "Who played a card")."""
    card: Expr
    span: Span


@node
class PilePlace(Expr):
    """A card by its place in a zone (docs/language.md, "Positions in a pile"): ``card N from
    top of Z`` (kind "from top", ``at`` the number N, 1 the top), ``card N from bottom of Z``
    ("from bottom"), ``card under c in Z`` ("under", ``at`` the card c) and ``card above c in Z``
    ("above"); none when there is no such card."""
    kind: str
    at: Expr
    zone: Expr
    span: Span


@node
class CardLit(Expr):
    """``Q♠``: one card of the deck by its rank and suit as they are shown."""
    text: str
    span: Span


@node
class AmongCards(Expr):
    """Over the cards of a zone: ``highest V among cards in Z [where C]`` and
    ``lowest ...`` (numbers), ``total of V among cards in Z [where C]`` (a sum), and
    ``highest card in Z by V [where C]`` / ``lowest card ...`` (the card itself).  In V and C the
    card is called ``card``."""
    kind: str            # "highest", "lowest", "total", "highest card", "lowest card", and
    #                      "first card" / "last card" (``first card in Z where C``: no value)
    value: Optional[Expr]
    zone: Expr
    condition: Optional[Expr]
    span: Span


@node
class ArgBest(Expr):
    """``suit s with highest V``, ``rank r with lowest V``: the suit (rank) of the deck whose V
    is the highest (lowest), the first in the deck's order among equals."""
    kind: str            # "highest", "lowest"
    of: str              # "suit", "rank"
    name: str
    value: Expr
    span: Span


@node
class PickValue(Expr):
    """``highest rank r where C``, ``lowest rank r where C`` and ``highest number n from A to B
    where C``: the highest (lowest) value for which C holds, or 0."""
    kind: str            # "highest", "lowest"
    of: str              # "rank", "number"
    name: str
    low: Optional[Expr]
    high: Optional[Expr]
    condition: Expr
    span: Span


@node
class Name(Expr):
    """A bare name: a zone, variable, option, local, rank, suit, card or attribute value."""
    name: str
    span: Span


@node
class Of(Expr):
    """``NAME of X``: an attribute of a card (``rank of c``), a player's zone (``hand of p``) or
    a player's variable (``debt of p``)."""
    name: str
    name_span: Span
    operand: Expr
    span: Span


@node
class Call(Expr):
    """``follows(c, d)``: use of a ``define``; ``pile(k) of p``: a zone of a family per player
    (``owner``: the player written after ``of``)."""
    name: str
    args: tuple[Expr, ...]
    span: Span
    owner: Optional[Expr] = None


@node
class BoolOp(Expr):
    """``A and B and C`` / ``A or B``."""
    op: str
    items: tuple[Expr, ...]
    span: Span


@node
class Compare(Expr):
    """``A is B``, ``A is not B``, ``A < B`` ..."""
    op: str              # "==", "!=", "<", ">", "<=", ">="
    left: Expr
    right: Expr
    span: Span


@node
class InSet(Expr):
    """``X in S`` / ``X not in S``: a suit, rank, player or named value in a variable that holds
    a set of them (docs/language.md, "Sets of values")."""
    item: Expr
    coll: Expr
    negate: bool
    span: Span


@node
class SetSize(Expr):
    """``number of suits in S`` (and, once checked, ``size of S`` and ``S is empty``): how many
    values a set holds."""
    coll: Expr
    span: Span


@node
class IsEmpty(Expr):
    """``Z is empty`` / ``Z is not empty``."""
    zone: Expr
    negate: bool
    span: Span


@node
class Arith(Expr):
    """``A + B``, ``A - B``, ``A * B``, ``A / B`` (whole division), ``A mod B``."""
    op: str
    left: Expr
    right: Expr
    span: Span


@node
class Cases(Expr):
    """``(A if C else B)`` and ``(A if C, B if D, E otherwise)``."""
    cases: tuple[tuple[Expr, Expr], ...]         # of (value, condition)
    default: Expr
    span: Span


# ---- whole sets of values (docs/language.md, "Writing and combining sets") -----------------

@node
class SetWhole(Expr):
    """``no suits`` (``which`` "none") and ``every suit`` ("every"): the empty set and the set of
    every value of a kind (``word``: suit(s), rank(s), player(s) or the name of a `values` set)."""
    which: str
    word: str
    span: Span


@node
class SetOfCards(Expr):
    """``the suits of the cards in Z`` (``word`` suits or ranks): the values the cards of a zone
    show, each once."""
    word: str
    zone: Expr
    span: Span


@node
class SetCombine(Expr):
    """``S together with T`` (``op`` "together": the values in either), ``S shared with T``
    ("shared": in both), ``S without T`` ("without": in S, not in T); each side a set or, once
    checked, one value (a set of one)."""
    op: str
    left: Expr
    right: Expr
    span: Span

