"""What the checker produces and the names it works with: the kinds of values a declaration may
name (:data:`TYPE_NAMES`) and which fit where (:func:`compatible`); the nodes it puts in place
of the uses of a ``define`` (:class:`Expanded`, :class:`Arg`); the :class:`Model` the compiler
reads, with its infos (options, variables, rules, contexts); the :class:`Scope` of the names
visible at a point of a rule."""
from __future__ import annotations

from typing import Optional

import attrs

from rulelang.kinds import ANY, CARD, FLAG, NONE, NUMBER, PLAYER, PLAYERS, SUIT, SYMBOL, TEXT, ZONE
from rulelang.check.ir import (ChooseSlotsTable, LabelsTable, NodeSet, PicksTable, Refs, SayAsTable,
                               TypesTable, UnseenTable, SetsTable)
from rulelang.syntax import ast as A


TYPE_NAMES = {"number": NUMBER, "flag": FLAG, "card": CARD, "player": PLAYER, "suit": SUIT,
              "rank": NUMBER, "zone": ZONE, "text": TEXT}
NULLABLE = {CARD, PLAYER, SUIT, SYMBOL}

BUILTIN_ATTRIBUTES = ("rank", "suit")


def compatible(want: str, got: str) -> bool:
    if want == ANY or got == ANY or want == got:
        return True
    if got == NONE and want in NULLABLE:
        return True
    if want == NUMBER and got == PLAYERS:
        return True
    return False


@attrs.frozen(eq=False)
class Expanded(A.Expr):
    """A use of a ``define``: its body, copied, with the arguments in place of the parameters."""
    name: str
    body: A.Expr
    span: A.Span


@attrs.frozen(eq=False)
class Arg(A.Expr):
    """An argument placed inside a define's body; it is resolved where the define was used."""
    expr: A.Expr
    span: A.Span


@attrs.define
class OptionInfo:
    decl: A.Option
    type: str
    value: object


@attrs.define
class VarInfo:
    decl: A.Var
    type: str


@attrs.define
class RuleInfo:
    decl: A.Rule
    param_types: list
    nslots: int = 0
    used: bool = False
    slot_types: dict = attrs.field(factory=dict)   # local slot -> its type (for determinizing)


@attrs.define
class Context:
    """An expression evaluated outside any rule (an ending, the score, an attribute, a variable's
    first value): how many local slots it needs."""
    nslots: int = 0
    slot_types: dict = attrs.field(factory=dict)   # local slot -> its type


@attrs.define
class Model:
    """Everything the compiler needs, resolved and typed."""
    file: str
    name: str
    players: tuple
    options: dict                 # name -> OptionInfo (value = the value in force)
    deck_types: dict
    deck: Optional[A.Deck]        # the first `deck` line
    ranks: dict                   # rank name -> number
    rank_symbols: dict            # number -> short display
    suits: list                   # suit names in order
    suit_symbols: dict
    card_names: dict              # extra card name -> (group, rank number)
    zones: dict                   # name -> A.Zone
    vars: dict                    # name -> VarInfo
    attributes: dict              # name -> (A.Attribute, type)
    symbols: dict                 # symbol value name -> id
    rules: dict                   # name -> RuleInfo
    endings: list                 # (A.Ending, Context, nslots)
    score: Optional[A.Score]
    score_ctx: Context
    var_ctx: Context
    attr_ctx: Context
    refs: Refs                    # node -> its resolved reference (check/ir.py)
    types: TypesTable             # expression -> its Kind (check/ir.py)
    labels: LabelsTable           # alternative -> its AltId, the global alternative number
    alternatives: list            # global alternative number -> (A.Alternative, A.Choose)
    choose_slots: ChooseSlotsTable  # choose -> its ChooseSlots (chooser, params, extra)
    digest: Optional[str] = None  # of the rule file's text, all layers (set by the loader)
    texts: list = attrs.field(factory=list)       # the texts used as values; a text is its index
    say_as: SayAsTable = attrs.field(factory=SayAsTable)  # part of a `say` -> how to show it (RANK)
    players_leave: bool = False   # the game has `P leaves the game` (the per-player flag `out`)
    # the name of that flag among the variables: `out`, unless the file names a variable of its
    # own so (then its `out` is that variable, and the flag has a name no file can declare)
    out_var: str = "out"
    # `values NAME: A, B, C`: set name -> (the id of its lowest value, its values' names in order);
    # a value is a symbol, and the ids of a set's values are consecutive, lowest first
    value_sets: dict = attrs.field(factory=dict)
    value_texts: dict = attrs.field(factory=dict)     # value name -> the text it is shown as
    # a variable that holds a set of named values (`var said: set of bids`) -> that `values` set
    set_values: dict = attrs.field(factory=dict)
    # the `auction` statements as written, each as (the statement, the first of the statements
    # it stands for in the rules, how many they are): check/auctions.py
    auctions: tuple = ()
    # some rule reads `who played c`: the game keeps who played each card (compile/layout.py)
    reads_played: bool = False
    picks: PicksTable = attrs.field(factory=PicksTable)    # alternative -> PickSlots (several cards)
    unseen: UnseenTable = attrs.field(factory=UnseenTable)  # alternative -> Slot of c (unseen card c)
    sets: SetsTable = attrs.field(factory=SetsTable)  # alternative -> SetSlots (a set in one choice)
    shows: dict = attrs.field(factory=dict)   # zone name -> (A.ShowWith, Context, type): shown beside it
    # the expressions used as a player (whose hand, who chooses, the winner...) that may be `none`
    # when the game is played: the compiled game stops there with RL912 rather than use seat -1
    seat_uses: NodeSet = attrs.field(factory=NodeSet)
    # the names of a player that is always a seat (the player of a loop over players or of a
    # choice of a player, that no `set` changes): a use of one, even through a define's
    # argument, needs no test for `none` (compile/fold.py, never_none)
    always_seats: NodeSet = attrs.field(factory=NodeSet)
    decks: tuple = ()             # every `deck` line, in order (a game may have several)
    teams: Optional[A.Teams] = None   # the `teams:` line (check/teams.py), or None
    suit_texts: dict = attrs.field(factory=dict)  # suit name -> how players call it (a long text)
    rank_texts: dict = attrs.field(factory=dict)  # rank name -> how players call it (a long text)
    # `progress: EXPR`: how far a player has got (`you`), for the measures of `stats` only
    progress: Optional[A.Progress] = None
    progress_ctx: Context = attrs.field(factory=Context)
    returns: Optional[A.Returns] = None
    returns_ctx: Context = attrs.field(factory=Context)


class Scope:
    """Names visible at a point in a rule: locals by name, and where ``you`` is."""

    def __init__(self, owner, parent=None, you_slot=-1):
        self.owner = owner                # the object counting slots (RuleInfo or Context)
        self.parent = parent
        self.names: dict = {}
        self.you_slot = you_slot if parent is None else parent.you_slot
        # The `choose by` (or simultaneous choice, or claim) whose chooser ``you`` is here, or
        # None where ``you`` is the rule's own (RL198 names it for a plain ``choose:`` inside).
        self.you_by = None if parent is None else parent.you_by
        self.loops = 0 if parent is None else parent.loops
        self.global_only = False

    def child(self):
        return Scope(self.owner, self)

    def new_slot(self, name, typ):
        slot = self.owner.nslots
        self.owner.nslots += 1
        self.names[name] = (slot, typ)
        types = getattr(self.owner, "slot_types", None)
        if types is not None:
            types[slot] = typ
        return slot

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            if s.global_only:
                return None
            s = s.parent
        return None
