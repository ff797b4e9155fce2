"""The abstract syntax tree of a rule file.

Every node is a frozen attrs class with a ``span``: where in which file it was written.  The
parser (:mod:`rulelang.syntax.parser`) builds these from Lark's parse tree; the checker reads them and
reports diagnostics against their spans; the compiler turns them into Python functions.  Nodes hold
only data; nothing here knows what a name means.  A statement may declare the kind of each of its
parts (:func:`part`), its signature: the checker checks such a statement by those declarations
alone, so a plain new statement needs no checking code of its own.
"""
from __future__ import annotations

from typing import Any, Optional


from rulelang.kinds import Kind
from rulelang.syntax.ast_base import Span, node, part, parts  # noqa: F401 (the tree's names)
from rulelang.syntax.ast_expr import *  # noqa: F401,F403 (the expressions, as A.Int, ...)
from rulelang.syntax.ast_expr import Expr


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
    call: bool = False               # a call of an auction (check/auctions.py): told "bids 3"


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
    # ``var NAME per team``: one value for each team (docs/language.md, "Variables of a team"),
    # kept as a variable of each player is (``per_player`` is true too) but read and set only
    # as `NAME of the team of P`: team T's value is the place of seat T.
    per_team: bool = False


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
