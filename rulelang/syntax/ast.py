"""The abstract syntax tree of a rule file.

Every node is a frozen attrs class with a ``span``: where in which file it was written.  The
parser (:mod:`rulelang.syntax.parser`) builds these from Lark's parse tree; the checker reads them and
reports diagnostics against their spans; the compiler turns them into Python functions.  Nodes hold
only data; nothing here knows what a name means.  A statement may declare the kind of each of its
parts (:func:`part`), its signature: the checker checks such a statement by those declarations
alone, so a plain new statement needs no checking code of its own.
"""
from __future__ import annotations

from typing import Any, Optional, TypeVar, dataclass_transform

import attrs

from rulelang.kinds import Kind

T = TypeVar("T")


@attrs.frozen
class Span:
    """A region of a source file: 1-based line and column of its start and end."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"




def part(kind: Kind, what: str) -> Any:
    """A statement's part that must be a value of ``kind`` (a ``player`` part must name a seat);
    ``what`` names it in a message ("what to shuffle must be a zone, but this is a card")."""
    return attrs.field(metadata={"kind": kind, "what": what})


def parts(cls: type) -> list[tuple[str, Kind, str]]:
    """``(field name, kind, what)`` for each part of the statement class ``cls`` that declares
    its kind."""
    return [(f.name, f.metadata["kind"], f.metadata["what"]) for f in attrs.fields(cls)
            if "kind" in f.metadata]


@dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(attrs.field, part))
def node(cls: type[T]) -> type[T]:
    """Class decorator: a frozen attrs node whose identity is its object (nodes are keys in the
    checker's tables, and two identical expressions at different places are different nodes)."""
    return attrs.frozen(eq=False)(cls)


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


# ---------------------------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------------------------

class Stmt:
    """Base class of statements."""


@node
class Shuffle(Stmt):
    """``shuffle Z``."""
    zone: Expr = part(Kind.ZONE, "what to shuffle")
    span: Span


@node
class Deal(Stmt):
    """``deal N from Z to hand of each player [from P]`` / ``deal all from ...`` (count is
    None).  The first card goes to ``start`` (default: the current player)."""
    count: Optional[Expr]
    source: Expr
    zone: str
    zone_span: Span
    span: Span
    start: Optional[Expr] = None


@node
class Selection:
    """Which cards a ``move`` takes: ``top card``, ``bottom card``, ``random card``,
    ``all cards``, ``all but top card``, ``all cards where C``, ``N cards`` (from the top) or
    one particular card (``c``)."""
    kind: str            # top, bottom, random, all, all_but_top, where, count, card, and
    #                      top_n / bottom_n (``top N cards``: lifted together, `expr` the count)
    expr: Optional[Expr]
    span: Span
    # Counted conditional moves: kinds "count_where" (``N cards where C``,
    # exactly N), "upto_where" (``up to N cards where C``) with the condition here, and
    # "and_above" (``c and every card on top of it``, `expr` the card).
    condition: Optional[Expr] = None


@node
class Move(Stmt):
    """``move SELECTION from Z to Z [turned over]``; ``to bottom of Z`` puts the cards under."""
    selection: Selection
    source: Expr
    dest: Expr
    to_bottom: bool
    turned_over: bool
    span: Span
    # ``move c from A to B under d`` / ``above d``: "under" or "above", and the card d of B
    place: str = ""
    beside: Optional[Expr] = None


@node
class Assign(Stmt):
    """``set X to V`` (op "set"), ``add V to X`` (op "add"), ``subtract V from X`` (op "sub")."""
    op: str
    target: Expr
    value: Expr
    span: Span


@node
class SetChange(Stmt):
    """``add X to S`` (op "add", once checked: the parser makes an ``Assign``), ``remove X from
    S`` ("remove") and ``remove all from S`` ("clear", ``item`` None): a variable that holds a set
    of values changed (docs/language.md, "Sets of values")."""
    op: str
    item: Optional[Expr]
    target: Expr
    span: Span


@node
class Let(Stmt):
    """``let x = V``: a name local to the rule."""
    name: str
    value: Expr
    span: Span


@node
class Simple(Stmt):
    """A statement of one word or phrase: ``stop``, ``return``, ``pass``, ``end turn``,
    ``skip next player``, ``reverse direction``."""
    word: str
    span: Span


@node
class EndGame(Stmt):
    """``end game with winner P`` / ``with loser P`` / ``with no winner`` /
    ``by highest score`` / ``by lowest score``."""
    kind: str            # winner, loser, draw, highest, lowest, where
    player: Optional[Expr]
    span: Span
    winners: Optional[Expr] = None     # `with winners where W[, losers where L]`: about `player`
    losers: Optional[Expr] = None


@node
class NextTurn(Stmt):
    """``next turn goes to P``."""
    player: Expr = part(Kind.PLAYER, "whose turn is next")
    span: Span


@node
class CallRule(Stmt):
    """``refill`` / ``transfer(n, t)`` / ``refill for p``: run a rule."""
    name: str
    args: tuple[Expr, ...]
    for_player: Optional[Expr]
    span: Span


@node
class Say(Stmt):
    """``say "text", expr, ...``: a line in the game's transcript."""
    parts: tuple[str | Expr, ...]         # str or Expr
    span: Span


@node
class Reveal(Stmt):
    """``reveal c``: show a card to every player (it appears in the transcript)."""
    card: Expr = part(Kind.CARD, "the card to reveal")
    span: Span


@node
class Show(Stmt):
    """``show c to P``: P sees the card, and remembers it while it stays in the zone it is in."""
    card: Expr = part(Kind.CARD, "the card to show")
    player: Expr = part(Kind.PLAYER, "who is shown the card")
    span: Span


@node
class Leave(Stmt):
    """``P leaves the game``: P is out; turn order, dealing and ``each player`` skip them."""
    player: Expr = part(Kind.PLAYER, "who leaves the game")
    span: Span


@node
class JoinTeam(Stmt):
    """``set the team of P to T``: P leaves their team for team number T (in a game whose teams
    are formed in play); partners are worked out again."""
    player: Expr = part(Kind.PLAYER, "who changes team")
    team: Expr = part(Kind.NUMBER, "the team joined")
    span: Span


@node
class If(Stmt):
    """``if C: ... else if D: ... else: ...``."""
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]      # of (condition, body)
    otherwise: Optional[tuple[Stmt, ...]]
    span: Span


@node
class Loop(Stmt):
    """``repeat while C``, ``repeat until C``, ``repeat N times``, ``repeat`` (until ``stop``)."""
    kind: str            # while, until, times, forever
    expr: Optional[Expr]
    body: tuple[Stmt, ...]
    span: Span


@node
class ForPlayer(Stmt):
    """``for each player p [from P]:`` in the order of play, over the players still in the game.
    (``... where C:`` is parsed as the loop with its body under ``if C:``.)"""
    name: str
    start: Optional[Expr]
    body: tuple[Stmt, ...]
    span: Span


@node
class ForCard(Stmt):
    """``for each card c in Z:`` over the cards as they were when the loop began, bottom first."""
    name: str
    zone: Expr
    body: tuple[Stmt, ...]
    span: Span


@node
class ForValue(Stmt):
    """``for each suit s:`` / ``for each rank r:``: every suit (rank) of the deck, in order;
    ``for each bid b:`` every value of the set of named values ``bid``, lowest first."""
    kind: str            # suit, rank, or the name of a set of named values
    name: str
    body: tuple[Stmt, ...]
    span: Span


@node
class Param:
    """What an alternative is chosen with: ``card c from Z where C``, ``player p from S``,
    ``suit s``, ``rank r``, ``number n from A to B``, ``unseen card c from Z`` (kind "unseen":
    the chooser chooses a place in Z, bottom first, and c is the card there)."""
    kind: str
    name: str
    source: Optional[Expr]
    high: Optional[Expr]
    where: Optional[Expr]
    span: Span


@node
class CardsParam:
    """Several cards chosen as one step of the rules: ``N cards c [of one rank|suit] from Z to
    D [where C]`` (``N or more cards ...``).  The language asks for them one at a time, in the
    order of the deck, and moves them from Z to D together once the last is chosen."""
    name: str
    count: Expr
    or_more: bool
    same: Optional[str]  # "rank", "suit" or None
    source: Expr
    dest: Expr
    where: Optional[Expr]
    span: Span
    kind: str = "cards"
    high: Optional[Expr] = None


@node
class SetParam:
    """A set of cards chosen in one action: ``a set of N [to M | or more] cards c [of one rank |
    of one suit | in a run] from Z to D [where C] [whose total A is E | in groups whose total A
    is E]`` (``up to M``).  Each set that meets the conditions is one action; the chosen set
    moves from Z to D together, and ``c`` is its first card (docs/language.md, "A set of cards
    in one choice")."""
    name: str
    fewest: Expr
    most: Optional[Expr]       # None: as many as there are (``or more``)
    shape: Optional[str]       # "rank", "suit", "run" or None
    source: Expr
    dest: Expr
    where: Optional[Expr]
    total_mode: Optional[str]  # "is", "most", "least", "groups" or None
    total_attr: Optional[str]
    total: Optional[Expr]
    span: Span
    kind: str = "set"
    high: Optional[Expr] = None


@node
class Alternative:
    """One line of a ``choose``: a label, optionally a parameter, optionally ``if C``, a body."""
    label: str
    param: Optional[Param]
    condition: Optional[Expr]
    body: tuple[Stmt, ...]
    span: Span
    display: Optional[str] = None    # ``LABEL "words for people" ...``


@node
class Choose(Stmt):
    """``choose [by P]:`` one decision of one player, or ``simultaneously choose by P, Q:``,
    one secret decision of each of several players, revealed together."""
    by: tuple[Expr, ...]            # of Expr; empty means ``you``
    simultaneous: bool
    alternatives: tuple[Alternative, ...]
    span: Span
    # ``any opponent may choose [from P]:``: a simultaneous choice (``by`` is one PlayerQuery of
    # kind "each"/"others") where only the first claim, in order of play from ``claim_from``,
    # runs; its last alternative is the ``no claim`` the language adds.
    claim: bool = False
    claim_from: Optional[Expr] = None


@node
class Auction(Stmt):
    """``auction of SET [from P] sets CONTRACT and HOLDER:`` a round of bidding over the values of
    a set (docs/language.md, "Auctions"): round the table from P, each player still in it bids
    a value above the contract or passes (or makes another call: the other alternatives) until
    an ending holds; then CONTRACT is the highest bid and HOLDER its bidder.  The checker writes
    it as plain statements (check/auctions.py), so every backend plays it as such."""
    values: str                     # the set's name
    values_span: Span
    start: Optional[Expr]           # the first to call (None: ``you``)
    contract: str
    holder: str
    names_span: Span
    # each line: ("after", N expr) / ("round", None) / ("all_but_one", None) / ("at", value
    # name) / ("drops", None) / ("pass_is", value name), with its span
    clauses: tuple[tuple[str, Any, Span], ...]
    alternatives: tuple[Alternative, ...]
    span: Span


# ---------------------------------------------------------------------------------------------
# Declarations
# ---------------------------------------------------------------------------------------------

class Decl:
    """Base class of top-level declarations.  ``replace`` marks a declaration in a variant
    file that replaces the one of the same name in the file it extends."""


@node
class Extends(Decl):
    path: str
    span: Span


@node
class GameName(Decl):
    name: str
    span: Span


@node
class Players(Decl):
    low: int
    high: int
    span: Span


@node
class Option(Decl):
    """``option NAME = DEFAULT [from A to B | one of X, Y] ["what it means"]``."""
    name: str
    default: object      # int, bool or str (a symbol)
    low: Optional[int]
    high: Optional[int]
    choices: Optional[tuple[object, ...]]
    doc: Optional[str]
    replace: bool
    span: Span
    display: Optional[str] = None    # ``option NAME "how players call it" = ...``


@node
class ValueSet(Decl):
    """``values NAME: A, B "Its Name", C``: an ordered set of named values, lowest first."""
    name: str
    values: tuple[tuple[str, Optional[str], Span], ...]     # (name, text shown or None, span)
    span: Span


@node
class Teams(Decl):
    """``teams: players 1 and 3, players 2 and 4`` (kind "fixed", ``seats`` the teams' seats,
    counted from 1), ``teams: partners sit opposite`` ("opposite") or ``teams: formed in play``
    ("formed")."""
    kind: str
    seats: tuple[tuple[int, ...], ...]
    span: Span


@node
class SuitDef:
    name: str
    symbol: Optional[str]
    span: Span


@node
class RankDef:
    name: str
    number: int
    symbol: Optional[str]
    span: Span


@node
class DeckType(Decl):
    """``deck type NAME:`` the suits, ranks and extra cards of a kind of deck."""
    name: str
    suits: tuple[SuitDef, ...]         # of SuitDef, sharing ``ranks``
    ranks: tuple[RankDef, ...]         # of RankDef
    own_suits: tuple[tuple[SuitDef, tuple[RankDef, ...]], ...]     # of (SuitDef, tuple of RankDef)
    extras: tuple[tuple[str, tuple[tuple[str, Span], ...], RankDef], ...]        # of (group name, tuple of (card name, span), RankDef)
    replace: bool
    span: Span
    display: tuple[tuple[str, str], ...] = ()  # of (extra card name, how players call it)
    copies: tuple[DeckCopies, ...] = ()   # of DeckCopies: `copies 2 of 1 to 9, skip`
    shown_as: Optional[str] = None   # `cards shown as "{suit} {rank}"`
    shown_span: Optional[Span] = None


@node
class DeckCopies:
    """``copies N of A to B, C in S, T`` in a deck type: the cards of those ranks (and suits, or
    the extra cards named) come N times in one deck."""
    count: int
    parts: tuple[tuple[str, Optional[str], Span], ...]         # of (first name, last name or None, span)
    in_suits: tuple[tuple[str, Span], ...]      # of (suit name, span); () for every suit
    span: Span


@node
class Deck(Decl):
    """``deck NAME [with GROUP [if C]], copies N, into Z`` or ``..., one per player into Z``."""
    name: str
    with_group: Optional[str]
    with_condition: Optional[Expr]
    copies: Optional[Expr]
    into: Optional[Expr]
    per_player_into: Optional[str]
    replace: bool
    span: Span


@node
class Attribute(Decl):
    """``attribute NAME:`` a value for every card, by rank, suit or card name."""
    name: str
    entries: tuple[tuple[tuple[tuple[Any, Span], ...], Expr], ...]       # of (tuple of (selector, span), Expr)
    otherwise: Optional[Expr]
    replace: bool
    span: Span


@node
class Zone(Decl):
    """``zone NAME: per player | shared, face up | face down | top face up | seen by owner``."""
    name: str
    per_player: bool
    visibility: str      # everyone, owner, nobody, top
    size_hidden: bool
    replace: bool
    span: Span
    display: Optional[str] = None    # ``zone NAME "Its Name": ...``
    shown: str = "yes"               # "no" (``not shown``) or "in use" (``shown when not empty``)
    # ``zone column 1 to 7: ...``: (family name, this zone's number, first,
    # last); the zone is named ``column_3`` and used as ``column(k)``.
    family: Optional[tuple[str, int, int, int]] = None
    # ``zone foundation per suit: ...``: "suit" or "rank"; the parser makes one zone named as
    # the family, which the checker turns into one zone for each suit (rank) of the deck,
    # ``foundation_hearts``, each with ``family`` (name, the suit's index or rank's number, first,
    # last) as a numbered family's zones have
    keyed: Optional[str] = None


@node
class Var(Decl):
    """``var NAME[: TYPE] [per player] = VALUE``."""
    name: str
    type: Optional[str]
    per_player: bool
    init: Expr
    replace: bool
    span: Span
    display: Optional[str] = None    # ``var NAME "Its Name" ...``: shown to the players


@node
class Define(Decl):
    """``define NAME(PARAMS) = EXPR``: a named expression, used like ``NAME(args)``."""
    name: str
    params: tuple[tuple[str, Optional[str]], ...]        # of (name, type or None)
    body: Expr
    replace: bool
    span: Span


@node
class Score(Decl):
    """``score: EXPR``: a player's score (``you`` is the player scored)."""
    expr: Expr
    replace: bool
    span: Span


@node
class Returns(Decl):
    """``returns: EXPR``: what each player (``you``) gets at the end of the game for search and
    learning programs (``State.returns``, the adapters' rewards), in place of +1 for a win and
    -1 otherwise: a game scored by points says its returns are its scores."""
    expr: Expr
    replace: bool
    span: Span


@node
class Progress(Decl):
    """``progress: EXPR``: how far a player has got, higher is further (``you`` is the player
    measured).  Only the measures of ``rulelang stats`` read it: it never changes play."""
    expr: Expr
    replace: bool
    span: Span


@node
class ShowWith(Decl):
    """``show "LABEL" with ZONE: EXPR``: a value shown beside a zone in the table, while it holds
    cards (``you`` is the zone's owner; the current player for a shared zone)."""
    label: str
    zone: str
    expr: Expr
    replace: bool
    span: Span


@node
class Rule(Decl):
    """``rule NAME(PARAMS):``, ``setup:`` and ``turn:``."""
    name: str
    params: tuple[Any, ...]
    body: tuple[Stmt, ...]
    replace: bool
    span: Span


@node
class Ending(Decl):
    """``game ends when C:`` checked for each player (as ``you``) before every decision and
    after every turn."""
    condition: Expr
    body: tuple[Stmt, ...]
    span: Span


@node
class Program:
    """A parsed rule file."""
    file: str
    decls: tuple[Decl, ...]
    source: str
