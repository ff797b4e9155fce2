"""Stage 2: check a parsed rule file and resolve what every name means.

:func:`merge` lays a variant over the file it ``extends``; :func:`check` then walks every
declaration, collecting *all* diagnostics (it never stops at the first), and produces a
:class:`Model`: the declarations by name, the deck, and for every expression node what it refers
to and its type.  The compiler reads only the model.

A use of a ``define`` refers to a checked copy of the body in which the parameters are the
arguments (:class:`Expanded` and :class:`Arg` keep track of whose names are whose); uses with the
same arguments in the same place share one copy (:meth:`Checker.expand`).
"""
from __future__ import annotations

from typing import Optional

import re

import attrs

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, WARNING, Diagnostic
from rulelang.syntax.diagnostics import did_you_mean as _closest
from rulelang.limits import MAX_EXPR_DEPTH, MAX_NUMBER, MAX_PLAYERS, no_gc
from rulelang.limits import VALUE_MASK as MAX_CARDS
from rulelang.syntax.vocabulary import RESERVED_WORDS
from rulelang.limits import MAX_RANGE

# A "did you mean" hint compares a name with every known name: for a file with thousands of
# unknown names and thousands of known ones that is quadratic.  Each check gets this many name
# comparisons for its hints (a file of a few hundred names with a hundred mistakes needs a
# tenth of it); the diagnostics after that come without a hint.
HINT_BUDGET = 50_000

# A rule is checked at its first call, inside the check of the caller (so that its parameters'
# types are learnt from that call); a chain deeper than this is checked from a loop instead.
RULE_CHECK_DEPTH = 4
_hint_budget = [HINT_BUDGET]


def did_you_mean(name, candidates):
    if len(name) > 64:                      # nobody misspells a name that long
        return None
    if not hasattr(candidates, "__len__"):
        candidates = list(candidates)
    if _hint_budget[0] < len(candidates):
        return None
    _hint_budget[0] -= len(candidates)
    return _closest(name, candidates)

# ---- types -----------------------------------------------------------------------------------
from rulelang.kinds import (ANY, CARD, CARDS, FLAG, NONE, NUMBER, PLAYER, PLAYERS, RANK,  # noqa: E402
                    SUIT, SYMBOL, TEXT, ZONE)
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


# ---- the model -------------------------------------------------------------------------------
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
    deck: Optional[A.Deck]
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
    refs: dict                    # id(node) -> resolution tuple
    types: dict                   # id(node) -> type
    labels: dict                  # id(alternative) -> global alternative number
    alternatives: list            # global alternative number -> (A.Alternative, A.Choose)
    choose_slots: dict            # id(choose) -> (chooser slot, [param slot per alternative])
    digest: Optional[str] = None  # of the rule file's text, all layers (set by the loader)
    texts: list = attrs.field(factory=list)       # the texts used as values; a text is its index
    say_as: dict = attrs.field(factory=dict)      # id(part of a `say`) -> how to show it (RANK)
    players_leave: bool = False   # the game has `P leaves the game` (the per-player flag `out`)
    picks: dict = attrs.field(factory=dict)   # id(alternative) -> several cards: (slots, done id)
    unseen: dict = attrs.field(factory=dict)  # id(alternative) -> slot of the card chosen unseen
    shows: dict = attrs.field(factory=dict)   # zone name -> (A.ShowWith, Context, type): shown beside it
    # id(expression) used as a player (whose hand, who chooses, the winner...) that may be `none`
    # when the game is played: the compiled game stops there with RL912 rather than use seat -1
    seat_uses: frozenset = attrs.field(factory=frozenset)


# ---- variants --------------------------------------------------------------------------------
def _key(d):
    if isinstance(d, (A.Option, A.Attribute, A.Zone, A.Var, A.Define, A.Rule, A.DeckType)):
        return (type(d).__name__, d.name)
    if isinstance(d, (A.Score, A.Deck, A.GameName, A.Players)):
        return (type(d).__name__,)
    if isinstance(d, A.ShowWith):
        return ("ShowWith", d.zone)
    return None


_KIND_WORDS = {"Option": "option", "Attribute": "attribute", "Zone": "zone", "Var": "var",
               "Define": "define", "Rule": "rule", "DeckType": "deck type", "Score": "score",
               "Deck": "deck", "GameName": "game", "Players": "players", "ShowWith": "the value shown with zone"}


def merge(layers: list[A.Program], prelude: list[A.Program], diags: list) -> list:
    """Lay each program over the ones before it (base first).  Returns the merged declarations.
    In the first layer ``replace`` is an error; in a variant, a declaration that exists in the
    base must say ``replace``, and one that says ``replace`` must exist in the base."""
    merged: dict = {}
    order: list = []
    endings: list = []
    for p in prelude:
        for d in p.decls:
            k = _key(d)
            if k is not None:
                merged[k] = d
                order.append(k)
    prelude_keys = set(merged)
    for depth, prog in enumerate(layers):
        seen_here: set = set()
        for d in prog.decls:
            if isinstance(d, A.Extends):
                continue
            if isinstance(d, A.Ending):
                endings.append(d)
                continue
            k = _key(d)
            if k is None:
                continue
            word = _KIND_WORDS[k[0]] + (f" `{k[1]}`" if len(k) > 1 else "")
            is_replace = getattr(d, "replace", False)
            if is_replace and depth == 0 and k in seen_here:
                diags.append(Diagnostic("RL121", ERROR,
                                        f"`replace` {word}: this file extends no other file",
                                        d.span, "remove `replace`, or add `extends \"base.cardrules\"`"))
                continue
            if k in seen_here:
                diags.append(Diagnostic("RL120", ERROR, f"{word} is declared twice in this file",
                                        d.span, "give it another name, or delete one of them"))
                continue
            seen_here.add(k)
            exists = k in merged and k not in prelude_keys
            if isinstance(d, (A.GameName, A.Players)):
                pass                       # a variant simply restates these
            elif is_replace and depth == 0:
                diags.append(Diagnostic("RL121", ERROR,
                                        f"`replace` {word}: this file extends no other file",
                                        d.span, "remove `replace`, or add `extends \"base.cardrules\"`"))
            elif is_replace and not exists:
                diags.append(Diagnostic("RL122", ERROR,
                                        f"`replace` {word}: the base file has no {word}",
                                        d.span, did_you_mean(k[-1], [x[-1] for x in merged if x[0] == k[0]])
                                        or "to add something new, leave out `replace`"))
                continue
            elif exists and not is_replace:
                diags.append(Diagnostic("RL123", ERROR, f"{word} is already declared in the base file",
                                        d.span, f"write `replace {_KIND_WORDS[k[0]]} ...` to change it"))
                continue
            if is_replace and isinstance(d, A.Option) and k in merged:
                d = _replaced_option(merged[k], d, diags)
            if k not in merged:
                order.append(k)
            merged[k] = d
    return [merged[k] for k in order] + endings


def _kind_of_value(v):
    return "yes/no" if isinstance(v, bool) else "number" if isinstance(v, int) else "word"


def _replaced_option(base: A.Option, new: A.Option, diags: list) -> A.Option:
    """``replace option x = V`` in a variant: without a range or choices of its own, the option
    keeps the base's (and its description), so that V is checked against them; V must be of the
    base's kind."""
    if _kind_of_value(base.default) != _kind_of_value(new.default) and new.low is None \
            and new.choices is None:
        diags.append(Diagnostic("RL146", ERROR, f"option `{new.name}` is a {_kind_of_value(base.default)} "
                                f"in the base file, but this sets it to the {_kind_of_value(new.default)} "
                                f"`{_show(new.default)}`", new.span,
                                f"give it a {_kind_of_value(base.default)}, e.g. `replace option "
                                f"{new.name} = {_show(base.default)}`"))
        return attrs.evolve(new, default=base.default)
    if new.low is None and new.choices is None:
        v = new.default
        allowed = None
        if base.low is not None and isinstance(v, int) and not base.low <= v <= base.high:
            allowed = f"from {base.low} to {base.high}"
        elif base.choices is not None and v not in base.choices:
            allowed = "one of " + ", ".join(_show(c) for c in base.choices)
        if allowed is not None:
            diags.append(Diagnostic("RL145", ERROR, f"option `{new.name}` must be {allowed}, "
                                    f"not `{_show(v)}`", new.span,
                                    f"the base file allows {allowed}; to allow other values, give a "
                                    f"new range: `replace option {new.name} = {_show(v)} "
                                    + (f"from {base.low} to {max(base.high, v)}`" if base.low is not None
                                       else f"one of {_show(v)}, ...`")))
            new = attrs.evolve(new, default=base.default)
        return attrs.evolve(new, low=base.low, high=base.high, choices=base.choices,
                            doc=new.doc if new.doc is not None else base.doc)
    return new


# ---- the checker -----------------------------------------------------------------------------
class Scope:
    """Names visible at a point in a rule: locals by name, and where ``you`` is."""

    def __init__(self, owner, parent=None, you_slot=-1):
        self.owner = owner                # the object counting slots (RuleInfo or Context)
        self.parent = parent
        self.names: dict = {}
        self.you_slot = you_slot if parent is None else parent.you_slot
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


class Checker:
    def __init__(self, decls: list, file: str, overrides: dict | None = None,
                 players: int | None = None):
        self.decls = decls
        self.file = file
        self.overrides = overrides or {}
        self.players_asked = players
        self.diags: list[Diagnostic] = []
        self.refs: dict = {}
        self.where_of: dict = {}      # id of a `where` condition -> its CardQuery (for hints)
        self.texts: dict = {}         # text -> its index (a text value is that number)
        self.say_as: dict = {}
        self.rank_slots: set = set()  # (id(owner), slot) of locals that hold a rank
        self.types: dict = {}
        self.seat_uses: set = set()         # see Model.seat_uses
        self.labels: dict = {}
        self.alternatives: list = []
        self.choose_slots: dict = {}
        self.expanding: list = []
        self.expansions: dict = {}     # see expand: one checked copy per define, place and args
        self.named_rules: set = set()     # rules named in an error (so not "never run" too)
        self.card_choices: list = []      # card alternatives, for check_choice_visibility
        self.picks: dict = {}             # several cards in one step: see cards_param
        self.unseen: dict = {}            # cards chosen unseen: see unseen_param
        self.zone_values: dict = {}       # (id(owner), slot) -> [(zone expression, translation)]
        self.depth = 0                    # expressions being checked inside one another (RL202)
        self.rule_depth = 0               # rules being checked, each from a call in the one before
        self.deferred: list = []          # rules to check once the chain above them is done
        _hint_budget[0] = HINT_BUDGET
        self.global_names = None          # every declared name, made at the first unknown one
        self.deep_roots: set = set()      # the expressions already reported too deep

    # -- reporting
    def error(self, code, message, span, hint=None):
        self.diags.append(Diagnostic(code, ERROR, message, span, hint))

    def warning(self, code, message, span, hint=None):
        self.diags.append(Diagnostic(code, WARNING, message, span, hint))

    # -- rules that give a value
    def rule_values(self, decls):
        """A rule that gives a value: `return VALUE` sets a hidden variable of its own (its
        result) and returns; `let x = R(a)` and `set X to R(a)` run R, then read its result.
        The read is right after the call returns, so recursion needs no more than one result
        per rule.  Written here as plain statements, so every backend runs them as such."""
        import attrs as _attrs
        rule_names = {d.name for d in decls if isinstance(d, A.Rule)}
        define_names = {d.name for d in decls if isinstance(d, A.Define)}
        gives: dict = {}                       # rule -> span of its first `return VALUE`

        def walk(node, fix):
            if not _attrs.has(type(node)) or isinstance(node, A.Expr):
                return node
            changes = {}
            for f in _attrs.fields(type(node)):
                v = getattr(node, f.name)
                nv = value(v, fix)
                if nv is not v:
                    changes[f.name] = nv
            return _attrs.evolve(node, **changes) if changes else node

        def value(v, fix):
            if isinstance(v, tuple) and any(isinstance(x, A.Stmt) for x in v):
                out = []
                for st in v:
                    out.extend(fix(walk(st, fix)))
                return tuple(out) if out != list(v) else v
            if isinstance(v, tuple):
                nv = tuple(value(x, fix) for x in v)
                return nv if any(a is not b for a, b in zip(nv, v)) else v
            return walk(v, fix)

        def result_name(rule):
            return f" result of {rule}"

        def returns(owner):
            def fix(st):
                if isinstance(st, A.Assign) and isinstance(st.target, A.Name) \
                        and st.target.name == A.RESULT:
                    if owner is None:
                        self.error("RL116", "only a rule gives a value: `return VALUE` is not "
                                   "for `setup`, `turn` or an ending", st.value.span,
                                   "write `return` alone, or move the computing into a `rule`")
                        return []
                    gives.setdefault(owner, st.span)
                    return [_attrs.evolve(st, target=A.Name(result_name(owner), st.target.span))]
                return [st]
            return fix

        def calls(st):
            v = getattr(st, "value", None)
            if isinstance(st, (A.Let, A.Assign)) and (isinstance(st, A.Let) or st.op == "set") \
                    and isinstance(v, (A.Call, A.Name)) and v.name in gives \
                    and v.name not in define_names:
                run = A.CallRule(v.name, getattr(v, "args", ()), None, v.span)
                return [run, _attrs.evolve(st, value=A.Name(result_name(v.name), v.span))]
            return [st]

        out = []
        for d in decls:
            owner = d.name if isinstance(d, A.Rule) and d.name not in ("setup", "turn") else None
            out.append(walk(d, returns(owner)) if isinstance(d, (A.Rule, A.Ending)) else d)
        if not gives:
            return out
        out = [walk(d, calls) if isinstance(d, (A.Rule, A.Ending)) else d for d in out]
        for name, span in gives.items():
            if name in rule_names:
                out.append(A.Var(result_name(name), None, False, A.Int(0, span), False, span))
        return out

    # -- driver
    def run(self) -> Model:
        self.decls = self.rule_values(self.decls)
        by_type: dict = {}
        for d in self.decls:
            by_type.setdefault(type(d), []).append(d)
        first = lambda t: (by_type.get(t) or [None])[-1]
        game = first(A.GameName)
        players = first(A.Players)
        if players is None:
            self.error("RL130", "the rule file does not say how many players play",
                       self.file_span(), "add a line such as `players 2 to 4`")
            self.players = (2, 2)
        else:
            if players.low < 1 or players.high < players.low:
                self.error("RL131", f"`players {players.low} to {players.high}` is no range of players",
                           players.span, "write the smaller number first, e.g. `players 2 to 5`")
            self.players = (players.low, max(players.low, players.high))
            if self.players[1] > MAX_PLAYERS:
                self.error("RL204", f"a game is for at most {MAX_PLAYERS} players, not "
                           f"{self.players[1]}", players.span,
                           f"write a number of players up to {MAX_PLAYERS}")
                self.players = (min(self.players[0], MAX_PLAYERS), MAX_PLAYERS)
        if self.players_asked is not None and not (self.players[0] <= self.players_asked <= self.players[1]):
            self.error("RL132", f"this game is for {self.players[0]} to {self.players[1]} players, "
                       f"not {self.players_asked}",
                       players.span if players else None,
                       f"choose a number of players from {self.players[0]} to {self.players[1]}")

        self.check_declared_names(by_type)
        self.symbols: dict = {}       # before the options: word options add their words
        # known before any expression is checked: `score of` may appear in an option's,
        # attribute's or variable's value, which are checked before the score itself
        self.score = first(A.Score)
        self.in_score = False           # checking the score itself: `score of` would loop
        self.options = {}
        for o in by_type.get(A.Option, []):
            self.check_option(o)
        for name in self.overrides:
            if name not in self.options:
                self.error("RL140", f"there is no option `{name}` to set", None,
                           did_you_mean(name, self.options) or
                           ("this game has the options " + ", ".join(f"`{n}`" for n in self.options)
                            if self.options else "this game has no options"))

        self.deck_types = {d.name: d for d in by_type.get(A.DeckType, [])}
        self.deck = first(A.Deck)
        self.build_cards()

        self.zones = {z.name: z for z in by_type.get(A.Zone, [])}
        self.check_zone_families()
        self.attributes: dict = {}
        self.attr_ctx = Context()
        self.vars, self.defines, self.rules = {}, {}, {}   # attribute values may name options only
        for a in by_type.get(A.Attribute, []):
            self.check_attribute(a)
        self.defines = {d.name: d for d in by_type.get(A.Define, [])}
        self.rules = {r.name: RuleInfo(r, [None] * len(r.params)) for r in by_type.get(A.Rule, [])}
        for r in self.rules.values():
            for i, (pname, ptype) in enumerate(r.decl.params):
                if ptype is not None:
                    if ptype not in TYPE_NAMES:
                        self.error("RL104", f"unknown type `{ptype}`", r.decl.span,
                                   "types are number, flag, card, player, suit, rank")
                    else:
                        r.param_types[i] = TYPE_NAMES[ptype]
        self.vars = {}
        self.var_ctx = Context()
        for v in by_type.get(A.Var, []):
            self.check_var(v)
        # Players who leave the game: a public number per player, `out` (0 while in, then 1 for
        # the first player to leave, 2 for the second...), that the runtime keeps to
        # (turn order, dealing, `for each player` and the conditions over players skip them).
        leaving = [n for n in _walk(self.decls) if isinstance(n, (A.Leave, A.IsOut))]
        self.players_leave = bool(leaving)
        if leaving:     # (a variable of the file cannot be called `out`: a word, RL114)
            if "out" not in self.vars:
                sp = leaving[0].span
                self.check_var(A.Var("out", "number", True, A.Int(0, sp), False, sp))
        self.score_ctx = Context()
        if self.score is not None:
            s = Scope(self.score_ctx)
            self.in_score = True
            try:
                self.expect(self.score.expr, NUMBER, s, "a score")
            finally:
                self.in_score = False

        # `show "LABEL" with ZONE: EXPR`: a value the table shows beside a zone (`you`: its owner)
        self.shows = {}
        for d in by_type.get(A.ShowWith, []):
            if d.zone not in self.zones:
                self.unknown_zone(d.zone, d.span)
                continue
            ctx = Context()
            self.shows[d.zone] = (d, ctx, self.expr(d.expr, Scope(ctx)))

        self.check_deck_decl()

        if "setup" not in self.rules:
            self.warning("RL150", "the game has no `setup:`", self.file_span(),
                         "add a `setup:` block that shuffles and deals")
        if "turn" not in self.rules:
            self.error("RL151", "the game has no `turn:`", self.file_span(),
                       "add a `turn:` block: what a player does on their turn")
        for special in ("setup", "turn"):
            if special in self.rules:
                self.rules[special].used = True
        self.checked_rules: set = set()     # before the endings: their blocks may run rules
        self.endings = []
        for e in by_type.get(A.Ending, []):
            ctx = Context()
            s = Scope(ctx)
            self.expect(e.condition, FLAG, s, "the condition of `game ends when`")
            body_ctx = RuleInfo(A.Rule("<ending>", (), e.body, False, e.span), [])
            self.check_block(e.body, Scope(body_ctx))
            self.endings.append((e, ctx, body_ctx))
        # Rules are checked in an order where callers come first, so that parameter types can be
        # learnt from the first call.
        for name in ("setup", "turn"):
            if name in self.rules:
                self.check_rule(self.rules[name])
        for r in list(self.rules.values()):
            self.check_rule(r)
        while self.deferred:
            self.check_rule(self.deferred.pop())

        self.check_reachability(by_type)
        self.check_deals()
        self.check_choice_visibility()
        return Model(
            file=self.file, name=game.name if game else self.file, players=self.players,
            options=self.options, deck_types=self.deck_types, deck=self.deck, ranks=self.ranks,
            rank_symbols=self.rank_symbols, suits=self.suits, suit_symbols=self.suit_symbols,
            card_names=self.card_names, zones=self.zones, vars=self.vars,
            attributes=self.attributes, symbols=self.symbols, rules=self.rules,
            endings=self.endings, score=self.score, score_ctx=self.score_ctx,
            var_ctx=self.var_ctx, attr_ctx=self.attr_ctx, refs=self.refs, types=self.types,
            labels=self.labels, alternatives=self.alternatives, choose_slots=self.choose_slots,
            texts=sorted(self.texts, key=self.texts.get), say_as=self.say_as,
            players_leave=self.players_leave, picks=self.picks, unseen=self.unseen,
            shows=self.shows, seat_uses=frozenset(self.seat_uses))

    # -- options
    def check_option(self, o: A.Option):
        if o.name in self.options:
            return
        d = o.default
        typ = FLAG if isinstance(d, bool) else NUMBER if isinstance(d, int) else SYMBOL
        if o.choices is not None:
            kinds = {type(c) for c in o.choices}
            if len(kinds) > 1 or (kinds and next(iter(kinds)) is not type(d)):
                self.error("RL141", f"the choices of option `{o.name}` are of different kinds",
                           o.span, "list values of one kind: numbers, yes/no, or words")
            elif d not in o.choices:
                self.error("RL142", f"the default `{_show(d)}` of option `{o.name}` is not one of its choices",
                           o.span, "add it to the choices or pick one of them")
            if typ == SYMBOL:
                for c in o.choices:
                    if isinstance(c, str):      # not `yes` or 5 of a list RL141 rejects
                        self.symbols.setdefault(c, len(self.symbols))
        if o.low is not None and typ == NUMBER and not (o.low <= d <= o.high):
            self.error("RL142", f"the default {d} of option `{o.name}` is outside {o.low} to {o.high}",
                       o.span, f"give a default from {o.low} to {o.high}")
        if typ == SYMBOL and o.choices is None:
            self.error("RL143", f"option `{o.name}` has a word as its value but no list of choices",
                       o.span, f"add `one of {d}, ...` after the default")
        value = d
        if o.name in self.overrides:
            raw = self.overrides[o.name]
            value = self.convert_option(o, typ, raw)
        self.options[o.name] = OptionInfo(o, typ, value)
        if typ == SYMBOL:
            self.symbols.setdefault(d, len(self.symbols))

    def convert_option(self, o, typ, raw):
        if not isinstance(raw, str):
            return raw
        r = raw.strip().lower()
        if typ == FLAG:
            if r in ("yes", "true", "on", "1"):
                return True
            if r in ("no", "false", "off", "0"):
                return False
            self.error("RL144", f"option `{o.name}` is yes or no, not `{raw}`", o.span,
                       f"use --set {o.name}=yes or --set {o.name}=no")
            return o.default
        if typ == NUMBER:
            try:
                v = int(r)
            except ValueError:
                self.error("RL144", f"option `{o.name}` is a number, not `{raw}`", o.span,
                           f"e.g. --set {o.name}={o.default}")
                return o.default
            if abs(v) > MAX_NUMBER:
                self.error("RL145", f"option `{o.name}` must be at most {MAX_NUMBER} (10^15) "
                           "either way", o.span, f"e.g. --set {o.name}={o.default}")
                return o.default
            if o.low is not None and not (o.low <= v <= o.high):
                self.error("RL145", f"option `{o.name}` must be from {o.low} to {o.high}, not {v}",
                           o.span, f"choose a value from {o.low} to {o.high}")
                return o.default
            if o.choices is not None and v not in o.choices:
                self.error("RL145", f"option `{o.name}` must be one of "
                           + ", ".join(map(str, o.choices)) + f", not {v}", o.span, None)
                return o.default
            return v
        if o.choices is not None and r not in o.choices:
            self.error("RL145", f"option `{o.name}` must be one of " + ", ".join(o.choices) +
                       f", not `{raw}`", o.span, did_you_mean(r, o.choices))
            return o.default
        return r

    # -- cards
    def check_repeated_ranks(self, dt):
        """A rank written twice in one `ranks` list made two cards of it in every suit, without a
        word; it is an error now (RL252): a copy of cards is `copies N` on the deck line."""
        for ranks in [dt.ranks] + [r for _s, r in dt.own_suits]:
            seen = set()
            for r in ranks:
                if r.name in seen:
                    self.error("RL252", f"rank `{r.name}` is written twice in one list of ranks",
                               r.span, "every rank is written once; for two of each card write "
                               "`copies 2` on the `deck` line")
                seen.add(r.name)

    def build_cards(self):
        self.ranks: dict = {}
        self.rank_symbols: dict = {}
        self.suits: list = []
        self.suit_symbols: dict = {}
        self.card_names: dict = {}
        # Without a usable deck, the names of the standard deck's cards are still known, so
        # that every `queen` and `hearts` is not reported as well.
        fallback = self.deck_types.get("standard") or next(iter(self.deck_types.values()), None)
        if self.deck is None:
            self.error("RL160", "the game does not say which cards it is played with",
                       self.file_span(), "add a line such as `deck standard, into stock`")
            dt = fallback
        else:
            dt = self.deck_types.get(self.deck.name)
            if dt is None:
                self.error("RL161", f"there is no deck type `{self.deck.name}`", self.deck.span,
                           did_you_mean(self.deck.name, self.deck_types) or
                           "declare it with `deck type NAME:` or use `standard`")
                dt = fallback
        if dt is None:
            return
        self.check_repeated_ranks(dt)

        def add_ranks(ranks):
            last = 0
            for r in ranks:
                num = r.number if r.number is not None else last + 1
                last = num
                if r.name in self.ranks and self.ranks[r.name] != num:
                    self.error("RL162", f"rank `{r.name}` is given two numbers", r.span, None)
                self.ranks[r.name] = num
                self.rank_symbols.setdefault(r.name, r.symbol or r.name)

        for s in dt.suits:
            self.suits.append(s.name)
            self.suit_symbols[s.name] = s.symbol
        add_ranks(dt.ranks)
        for suit, ranks in dt.own_suits:
            self.suits.append(suit.name)
            self.suit_symbols[suit.name] = suit.symbol
            add_ranks(ranks)
        groups = set()
        for group, names, rank in dt.extras:
            groups.add(group)
            add_ranks([rank])
            for n, sp in names:
                self.card_names[n] = (group, self.ranks[rank.name])
        if self.deck is not None and self.deck.with_group is not None \
                and self.deck.with_group not in groups and dt.name == self.deck.name:
            self.error("RL163", f"deck `{dt.name}` has no extra cards called `{self.deck.with_group}`",
                       self.deck.span, did_you_mean(self.deck.with_group, groups) or
                       (f"its extra groups are: {', '.join(sorted(groups))}" if groups else
                        f"deck `{dt.name}` has no extra cards"))
        for name in self.suits:
            if name in self.ranks:
                self.error("RL164", f"`{name}` is both a suit and a rank", dt.span, "rename one")

    def check_deck_decl(self):
        d = self.deck
        if d is None:
            return
        s = Scope(self.var_ctx)
        if d.with_condition is not None:
            self.expect(d.with_condition, FLAG, s, "the condition for extra cards")
        if d.copies is not None:
            self.expect(d.copies, NUMBER, s, "the number of copies")
        if d.into is not None:
            self.expect(d.into, ZONE, s, "where the cards start")
        if d.per_player_into is not None:
            z = self.zones.get(d.per_player_into)
            if z is None:
                self.unknown_zone(d.per_player_into, d.span)
            elif not z.per_player:
                self.error("RL170", f"`{z.name}` is shared; each player's copy needs a zone of their own",
                           d.span, f"declare `zone {z.name}: per player, ...`")
        if d.into is None and d.per_player_into is None:
            self.error("RL171", "the deck is not put anywhere", d.span,
                       "add `, into ZONE`, the zone the cards start in")

    # -- attributes and variables
    def check_attribute(self, a: A.Attribute):
        if a.name in BUILTIN_ATTRIBUTES:
            self.error("RL165", f"`{a.name}` is built in and cannot be redeclared", a.span,
                       "choose another name, such as `value`")
            return
        known = set(self.ranks) | set(self.suits) | set(self.card_names)
        kinds = set()
        for selectors, expr in a.entries:
            for sel, sp in selectors:
                if isinstance(sel, int):
                    if sel not in self.ranks.values():
                        self.error("RL166", f"no rank is numbered {sel}", sp, None)
                elif isinstance(sel, tuple):        # a card literal, `Q♠: 13` (issue 14)
                    found = (self.card_literal(sel[1], sp) if sel[0] == "card"
                             else self.card_named(sel[2], sel[3], sp))
                    if found is not None:
                        self.refs[("card literal", sel[1])] = found
                elif sel not in known:
                    self.error("RL101", f"`{sel}` is not a rank, suit or card of this deck", sp,
                               did_you_mean(sel, known))
            kinds.add(self.attr_value_type(expr))
        if a.otherwise is not None:
            kinds.add(self.attr_value_type(a.otherwise))
        kinds.discard(NONE)
        typ = NUMBER
        if kinds == {SYMBOL}:
            typ = SYMBOL
        elif len(kinds) > 1:
            self.error("RL105", f"attribute `{a.name}` mixes numbers and words", a.span,
                       "give every card a number, or every card a word")
        self.attributes[a.name] = (a, typ)

    def attr_value_type(self, expr):
        """Attribute values are numbers (expressions over ``card`` and options) or words."""
        if isinstance(expr, A.Name) and expr.name not in self.options and expr.name not in self.ranks \
                and expr.name != "card":
            self.symbols.setdefault(expr.name, len(self.symbols))
            self.refs[id(expr)] = ("symbol", self.symbols[expr.name])
            self.types[id(expr)] = SYMBOL
            return SYMBOL
        if isinstance(expr, A.NoneLit):
            self.types[id(expr)] = NONE
            return NONE
        s = Scope(self.attr_ctx)
        s.new_slot("card", CARD)
        t = self.expr(expr, s)
        moving = self.state_part(expr)
        if moving is not None:
            self.error("RL167", "an attribute's value cannot depend on the state of the game",
                       moving.span, "an attribute is worked out once for each card, before the "
                       "game starts: use the card, options and numbers, or a `define` for the rest")
        return t

    def state_part(self, e):
        """The first part of an attribute's value that depends on the game's state (zones,
        players, scores, dice), or None.  Attribute values are worked out when the game is
        compiled, before there is a state: ``roll d6`` would always be the same number and
        ``score of`` could not be worked out at all."""
        if isinstance(e, (A.Roll, A.CardQuery, A.TotalOf, A.IsEmpty, A.Seat)):
            return e
        if isinstance(e, A.Keyword) and e.word != "number of players":
            return e
        if isinstance(e, A.Unary) and e.op not in ("not", "neg", "rank after", "rank before"):
            return e
        if isinstance(e, (A.Name, A.Of)) and e.name in self.zones:
            return e
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            for item in (v if isinstance(v, tuple) else (v,)):
                for sub in (item if isinstance(item, tuple) else (item,)):
                    if isinstance(sub, A.Expr):
                        found = self.state_part(sub)
                        if found is not None:
                            return found
        return None

    def check_var(self, v: A.Var):
        s = Scope(self.var_ctx)
        t = self.expr(v.init, s)
        if v.name.startswith(" "):             # a rule's result: its kind comes from `return`
            self.vars[v.name] = VarInfo(v, ANY)
            return
        if v.type is not None:
            if v.type not in TYPE_NAMES:
                self.error("RL104", f"unknown type `{v.type}`", v.span,
                           "types are number, flag, card, player, suit, rank")
                want = t
            else:
                want = TYPE_NAMES[v.type]
            if not compatible(want, t):
                self.error("RL102", f"variable `{v.name}` is a {want} but starts as a {t}",
                           v.init.span, None)
            t = want
        elif t == NONE:
            self.error("RL106", f"variable `{v.name}` starts as `none`; say what kind of thing it holds",
                       v.span, f"write `var {v.name}: card = none` (or player, suit)")
        if t == PLAYERS:
            t = NUMBER
        self.vars[v.name] = VarInfo(v, t)
        if t == ZONE:
            self.zone_values[("var", v.name)] = [(v.init, (id(self.var_ctx), None))]

    def file_span(self):
        """Where a diagnostic about the whole file points: its `game` line, or else its first
        declaration (not line 1, which may be a comment)."""
        own = [d for d in self.decls if getattr(getattr(d, "span", None), "file", None) == self.file]
        d = next((d for d in own if isinstance(d, A.GameName)), own[0] if own else None)
        if d is None:
            return A.Span(self.file, 1, 1, 1, 1)
        sp = d.span
        end = sp.end_column if sp.end_line == sp.line else sp.column + 1
        return A.Span(self.file, sp.line, sp.column, sp.line, max(end, sp.column + 1))

    # -- names
    def reserved(self, name, span, what):
        """A word of the language cannot name something: where it is used it would be read as
        the language's word (`top` as `top of`), so it is refused where it is declared."""
        if name in RESERVED_WORDS:
            from rulelang.syntax.syntax_errors import reserved_message
            self.error("RL114", *reserved_message(name, what)[:1], span, reserved_message(name, what)[1])

    def check_declared_names(self, by_type):
        kinds = ((A.Var, "a variable"), (A.Define, "a define"), (A.Rule, "a rule"),
                 (A.Zone, "a zone"), (A.Option, "an option"), (A.Attribute, "an attribute"))
        for typ, what in kinds:
            for d in by_type.get(typ, []):
                if typ is A.Attribute and d.name in ("rank", "suit"):
                    continue                  # RL165 says more
                self.reserved(d.name, d.span, what)
                for pname, _ in getattr(d, "params", None) or ():
                    self.reserved(pname, d.span, "a parameter")
        for d in by_type.get(A.DeckType, []):
            for sd in d.suits:
                self.reserved(sd.name, sd.span, "a suit")
            for rd in d.ranks:
                self.reserved(rd.name, rd.span, "a rank")
            for sd, ranks in d.own_suits:
                self.reserved(sd.name, sd.span, "a suit")
                for rd in ranks:
                    self.reserved(rd.name, rd.span, "a rank")

    # -- rules
    def check_rule(self, r: RuleInfo):
        if id(r) in self.checked_rules:
            return
        if self.rule_depth >= RULE_CHECK_DEPTH:
            # A rule run from a rule run from ... is checked later, from the driver's loop (a
            # chain of thousands of rules would exhaust Python's stack); its parameters' types
            # are already learnt from this first call.
            self.deferred.append(r)
            return
        self.checked_rules.add(id(r))
        s = Scope(r)
        for i, (pname, ptype) in enumerate(r.decl.params):
            slot = s.new_slot(pname, r.param_types[i] or ANY)
            if ptype == "rank":
                self.rank_slots.add((id(r), slot))
        self.rule_depth += 1
        try:
            self.check_block(r.decl.body, s)
        finally:
            self.rule_depth -= 1

    def check_block(self, body, scope):
        s = scope.child()
        left = None
        for st in body:
            if left is not None and left != "reported":
                self.warning("RL194", f"this line can never run: `{left}` just before it always "
                             "leaves", st.span, "delete it, or move it before that line")
                left = "reported"
            self.stmt(st, s)
            if left is None:
                left = _leaves(st)

    def stmt(self, st, s: Scope):
        m = getattr(self, "st_" + type(st).__name__)
        m(st, s)

    def st_Shuffle(self, st, s):
        self.expect(st.zone, ZONE, s, "what to shuffle")

    def st_Deal(self, st, s):
        self.refs[id(st)] = s.you_slot
        if st.count is not None:
            self.expect(st.count, NUMBER, s, "how many cards to deal")
        self.expect(st.source, ZONE, s, "where the cards are dealt from")
        if st.start is not None:
            self.expect_seat(st.start, s, "the player who gets the first card")
        z = self.zones.get(st.zone)
        if z is None:
            self.unknown_zone(st.zone, st.zone_span)
        elif not z.per_player:
            self.error("RL170", f"`{st.zone}` is shared; cards are dealt to a zone of each player",
                       st.zone_span, f"declare `zone {st.zone}: per player, ...`")

    def st_Move(self, st, s):
        sel = st.selection
        self.expect(st.source, ZONE, s, "where the cards are moved from")
        self.expect(st.dest, ZONE, s, "where the cards are moved to")
        if sel.kind == "card":
            self.expect(sel.expr, CARD, s, "the card to move")
        elif sel.kind == "count":
            self.expect(sel.expr, NUMBER, s, "how many cards to move")
        elif sel.kind == "where":
            inner = s.child()
            inner.new_slot("card", CARD)
            self.refs[id(sel)] = ("slot", inner.names["card"][0])
            self.expect(sel.expr, FLAG, inner, "which cards to move")
        elif sel.kind in ("count_where", "upto_where", "and_above"):
            self.st_move_counted(st, sel, s)

    def st_move_counted(self, st, sel, s):
        """``move N cards where C``, ``move up to N cards where C`` and ``move c and every card on
        top of it`` (docs/language.md, "Moving some of the cards that match")."""
        if sel.kind == "and_above":
            self.expect(sel.expr, CARD, s, "the card moved with the cards on top of it")
            return
        self.expect(sel.expr, NUMBER, s, "how many cards to move")
        inner = s.child()
        inner.new_slot("card", CARD)
        self.refs[id(sel)] = ("slot", inner.names["card"][0])
        self.expect(sel.condition, FLAG, inner, "which cards to move")
        if isinstance(sel.expr, A.Int) and sel.expr.value < 1:
            self.error("RL250", f"moving {sel.expr.value} cards moves nothing", sel.expr.span,
                       "a count of cards is 1 or more; to move every card that matches write "
                       "`move all cards where ...`")
        if isinstance(sel.expr, A.Unary) and sel.expr.op == "neg":
            self.error("RL250", "a count of cards cannot be negative", sel.expr.span,
                       "a count of cards is 1 or more")

    def st_Assign(self, st, s):
        t = self.lvalue(st.target, s)
        want = NUMBER if st.op in ("add", "sub") else t
        if isinstance(st.target, A.Name) and st.target.name.startswith(" "):
            want = ANY                          # `return VALUE`: result_kind says more
        if st.op in ("add", "sub") and t not in (NUMBER, ANY):
            self.error("RL102", f"only numbers can be added to; this is a {t}", st.target.span, None)
        what = {"add": "what is added", "sub": "what is subtracted"}.get(st.op)
        if what is None:
            tn = getattr(st.target, "name", None)
            what = f"the new value of `{tn}`" if tn else "the new value"
        self.expect(st.value, want, s, what)
        ref = self.refs.get(id(st.target))
        if ref is not None and ref[0] == "var" and ref[1].startswith(" "):
            self.result_kind(self.vars[ref[1]], st)
        if t == ZONE and ref is not None and ref[0] == "slot":
            self.zone_values.setdefault((id(s.owner), ref[1]), []).append((st.value, None))
        elif t == ZONE and ref is not None and ref[0] in ("var", "var_of"):
            self.zone_values.setdefault(("var", ref[1]), []).append((st.value, (id(s.owner), None)))

    def result_kind(self, v, st):
        """The first `return VALUE` of a rule gives its kind; the others must agree."""
        t = self.types.get(id(st.value), ANY)
        if t in (NONE, ANY):
            return
        t = NUMBER if t == PLAYERS else t
        if v.type == ANY:
            v.type = t
        elif not compatible(v.type, t):
            self.error("RL102", f"this rule gives a {v.type} (its first `return`), "
                       f"and here a {t}", st.value.span, "return values of one kind")

    def lvalue(self, target, s):
        if isinstance(target, A.Name):
            loc = s.lookup(target.name)
            if loc is not None:
                self.refs[id(target)] = ("slot", loc[0])
                self.types[id(target)] = loc[1]
                return loc[1]
            v = self.vars.get(target.name)
            if v is not None:
                self.refs[id(target)] = ("var", target.name, v.decl.per_player, s.you_slot)
                self.types[id(target)] = v.type
                return v.type
            if target.name in self.options:
                self.error("RL107", f"option `{target.name}` cannot be changed during the game",
                           target.span, "declare a `var` that starts with the option's value")
                return ANY
        elif isinstance(target, A.Of):
            v = self.vars.get(target.name)
            if v is not None and v.decl.per_player:
                self.expect_seat(target.operand, s, f"whose `{target.name}`")
                self.refs[id(target)] = ("var_of", target.name)
                self.types[id(target)] = v.type
                return v.type
        elif isinstance(target, A.Keyword) and target.word == "current player":
            # In `setup`, `you` is the current player: setting it there moves `you` too, so that
            # `next player` and unqualified per-player names after it mean the new one's.
            in_setup = getattr(getattr(s.owner, "decl", None), "name", None) == "setup"
            self.refs[id(target)] = ("current", in_setup and s.you_slot == -1)
            return PLAYER
        self.error("RL108", "this cannot be set: only variables can", target.span,
                   "declare it with `var NAME = ...`")
        return ANY

    def st_Let(self, st, s):
        self.reserved(st.name, st.span, "a value")
        t = self.expr(st.value, s)
        if t == NONE:
            self.error("RL106", f"`let {st.name} = none`: say what kind of thing it holds", st.span,
                       "give it a first value of its kind, or use a `var` with a type")
        if t == PLAYERS:
            t = NUMBER
        self.refs[id(st)] = s.new_slot(st.name, t)
        if self.rankish(st.value, s):
            self.rank_slots.add((id(s.owner), self.refs[id(st)]))
        if t == ZONE:
            self.zone_values.setdefault((id(s.owner), self.refs[id(st)]), []).append((st.value, None))

    def st_Simple(self, st, s):
        if st.word == "stop" and s.loops == 0:
            self.error("RL180", "`stop` is outside any `repeat` or `for each`", st.span,
                       "use `return` to leave a rule, `end turn` to end the turn")

    def st_EndGame(self, st, s):
        if st.player is not None:
            self.expect_seat(st.player, s, "the player")
        if st.kind == "where":
            slots = []
            for cond, what in ((st.winners, "winners"), (st.losers, "losers")):
                if cond is None:
                    slots.append(None)
                    continue
                inner = s.child()
                slots.append(inner.new_slot("player", PLAYER))
                self.expect(cond, FLAG, inner, f"the condition of the {what} on `player`")
            self.refs[id(st)] = tuple(slots)
        if st.kind in ("highest", "lowest") and self.score is None:
            self.error("RL181", "`end game by ... score` but the game declares no score", st.span,
                       "add a line such as `score: size of won`")

    def st_NextTurn(self, st, s):
        self.expect_seat(st.player, s, "whose turn is next")

    def st_CallRule(self, st, s):
        self.refs[id(st)] = s.you_slot
        r = self.rules.get(st.name)
        if r is None:
            if st.name in self.defines:
                self.error("RL109", f"`{st.name}` is a define (a value), not a rule to run", st.span,
                           "use it in an expression, or declare `rule`")
            else:
                hint = did_you_mean(st.name, self.rules)
                if hint:
                    self.named_rules.add(hint.split("`")[1])
                self.error("RL101", f"there is no rule `{st.name}`", st.span, hint)
            for a in st.args:
                self.expr(a, s)
            return
        r.used = True
        if st.name in ("setup", "turn"):
            self.error("RL182", f"`{st.name}` is run by the game itself", st.span,
                       "move what you want to run again into a `rule` of its own")
        if len(st.args) != len(r.decl.params):
            self.error("RL110", f"rule `{st.name}` takes {len(r.decl.params)} value(s), "
                       f"not {len(st.args)}", st.span,
                       f"rule {st.name}({', '.join(p for p, _ in r.decl.params)})")
        for i, a in enumerate(st.args):
            t = self.expr(a, s)
            if i < len(r.param_types):
                want = r.param_types[i]
                if want is None:
                    # `none` says nothing of the kind: a later call (or `p: card`) decides it.
                    if t not in (NONE, ANY):
                        r.param_types[i] = NUMBER if t == PLAYERS else t
                elif not compatible(want, t):
                    pname = r.decl.params[i][0]
                    given = r.decl.params[i][1] is not None
                    self.error("RL102", f"rule `{st.name}` expects a {want} here, not a {t}",
                               a.span, None if given else
                               f"the kind of `{pname}` comes from the first call that gives it a "
                               f"value of a kind; to say which, write `rule {st.name}("
                               + ", ".join(f"{q}: KIND" if q == pname else (f"{q}: {k}" if k else q)
                                           for q, k in r.decl.params) +
                               "):` (number, flag, card, player, suit, rank, zone, text)")
            if t == ZONE:       # a zone given to a rule: its `you` is the caller's or `for P`'s
                you = st.for_player if st.for_player is not None else ("you", id(s.owner), s.you_slot)
                self.zone_values.setdefault((id(r), i), []).append((a, (id(s.owner), you)))
        if st.for_player is not None:
            self.expect_seat(st.for_player, s, "who runs the rule")
        if None not in r.param_types[:len(st.args)]:
            self.check_rule(r)      # else when a call gives the kind (or at the end: `any`)

    def st_Say(self, st, s):
        self.refs[id(st)] = s.you_slot          # the line is said by the chooser inside a choice
        for p in st.parts:
            if isinstance(p, A.CardsIn):        # `say the cards in hand`: by name
                self.expect(p.zone, ZONE, s, "the zone whose cards are said")
                self.types[id(p)] = CARDS
            elif not isinstance(p, str):
                self.expr(p, s)
                if self.rankish(p, s):          # a rank is said by its name, not its number
                    self.say_as[id(p)] = RANK

    def rankish(self, e, s) -> bool:
        """Whether a number is a rank: `rank of c`, `rank after r`, a rank's name, a local that
        holds one (`rank r` chosen, `let r = rank of c`, a parameter `r: rank`), a variable
        declared `: rank`, or a define or conditional made of these."""
        if isinstance(e, A.Of) and e.name == "rank" and self.refs.get(id(e)) == ("rank",):
            return True
        if isinstance(e, A.Unary) and e.op in ("rank after", "rank before"):
            return True
        ref = self.refs.get(id(e))
        if not isinstance(ref, tuple) or not ref:
            ref = None                          # some nodes map to a slot number
        if isinstance(e, A.Name):
            if ref is None:
                return False
            if ref[0] == "slot":
                return (id(s.owner), ref[1]) in self.rank_slots
            if ref[0] == "var":
                return self.vars[ref[1]].decl.type == "rank"
            if ref[0] == "const":
                return e.name in self.ranks and s.lookup(e.name) is None
        if isinstance(e, A.Of) and ref is not None and ref[0] == "var_of":
            return self.vars[ref[1]].decl.type == "rank"
        if ref is not None and ref[0] == "expanded":
            return self.rankish(ref[1].body, s)
        if isinstance(e, Expanded):
            return self.rankish(e.body, s)
        if isinstance(e, Arg):
            return self.rankish(e.expr, s)
        if isinstance(e, A.Cases):
            return all(self.rankish(v, s) for v in [c[0] for c in e.cases] + [e.default])
        return False

    def ex_Text(self, e, s):
        self.refs[id(e)] = ("const", self.texts.setdefault(e.value, len(self.texts)))
        return TEXT

    def st_Reveal(self, st, s):
        self.refs[id(st)] = s.you_slot
        self.expect(st.card, CARD, s, "the card to reveal")

    def st_If(self, st, s):
        for cond, body in st.branches:
            self.expect(cond, FLAG, s, "the condition")
            self.check_block(body, s)
        if st.otherwise is not None:
            self.check_block(st.otherwise, s)

    def st_Loop(self, st, s):
        if st.kind in ("while", "until"):
            self.expect(st.expr, FLAG, s, "the condition")
        elif st.kind == "times":
            self.expect(st.expr, NUMBER, s, "how many times")
        inner = s.child()
        inner.loops += 1
        if st.kind == "times":
            self.refs[id(st)] = inner.new_slot(" counter", NUMBER)
        self.check_block(st.body, inner)

    def st_ForPlayer(self, st, s):
        if st.start is not None:
            self.expect_seat(st.start, s, "the first player")
        self.reserved(st.name, st.span, "a player")
        inner = s.child()
        inner.loops += 1
        self.refs[id(st)] = (inner.new_slot(st.name, PLAYER), inner.new_slot(" count", NUMBER))
        self.check_block(st.body, inner)

    def st_Show(self, st, s):
        self.expect(st.card, CARD, s, "the card to show")
        self.expect_seat(st.player, s, "who is shown the card")

    def st_Leave(self, st, s):
        self.expect_seat(st.player, s, "who leaves the game")

    def ex_IsOut(self, e, s):
        self.expect_seat(e.player, s, "`is out`'s player")
        return FLAG

    def ex_PlayerQuery(self, e, s):
        inner = s.child()
        slot = inner.new_slot("player", PLAYER)
        self.refs[id(e)] = (slot, s.you_slot)
        if e.kind.startswith("each "):
            self.error("RL232", f"`each {e.kind[5:]}` decides: the players who decide together "
                       "are `each player` or `each opponent`", e.span,
                       "write `each player where ...` for some of the players")
        if e.kind.startswith("each") or e.kind == "others":
            self.expect(e.condition, FLAG, inner, "the condition on `player`")
            return PLAYERS
        if e.kind in ("highest", "lowest"):
            self.expect(e.condition, NUMBER, inner, f"the value of `{e.kind} ... among players`")
            return NUMBER
        if e.kind in ("best", "worst"):     # `player with highest V` (issue 14)
            self.expect(e.condition, NUMBER, inner, "the value of `player with ...`")
            return PLAYER
        self.expect(e.condition, FLAG, inner, "the condition on `player`")
        return {"count": NUMBER, "next": PLAYER}.get(e.kind, FLAG)

    # ---- selectors and aggregates (issue 14) ---------------------------------------------------
    def card_literal(self, text, span):
        """The (rank, suit) of a card literal such as `Q♠`: its rank as shown (or the rank's name
        or number) and its suit's sign, which must be a card of the deck (RL240)."""
        dt = self.deck_types.get(self.deck.name) if self.deck is not None else None
        pairs = []
        if dt is not None:
            pairs = [(r, su) for su in dt.suits for r in dt.ranks]
            pairs += [(r, su) for su, ranks in dt.own_suits for r in ranks]
        front, sign = text[:-1], text[-1]
        for r, su in pairs:
            if (su.symbol or "") == sign and front in (r.symbol, r.name, str(r.number)):
                return (r.name, su.name)
        signs = list(dict.fromkeys(su.symbol for _r, su in pairs if su.symbol))
        fronts = list(dict.fromkeys(r.symbol or r.name for r, _su in pairs))
        self.error("RL240", f"`{text}` is not a card of this deck", span,
                   (f"a card is a rank as shown ({', '.join(fronts)}) and a suit's sign "
                    f"({' '.join(signs)}), as in `{fronts[-1]}{signs[-1]}`") if signs else
                   "this deck's suits have no signs: write the card's rank and suit as a "
                   "deck with signs does, as in `Q♠`")
        return None

    def card_named(self, rank, suit, span):
        """(rank, suit) of `queen of spades`, which must be a card of the deck (RL240)."""
        dt = self.deck_types.get(self.deck.name) if self.deck is not None else None
        if dt is not None:
            pairs = [(r.name, su.name) for su in dt.suits for r in dt.ranks]
            pairs += [(r.name, su.name) for su, ranks in dt.own_suits for r in ranks]
            if (rank, suit) in pairs:
                return (rank, suit)
        self.error("RL240", f"`{rank} of {suit}` is not a card of this deck", span,
                   f"the suit `{suit}` has its own ranks" if dt is not None else None)
        return None

    def ex_CardLit(self, e, s):
        found = self.card_literal(e.text, e.span)
        if found is not None:
            self.refs[id(e)] = ("card_lit",) + found
        return CARD

    def _uses_name(self, e, name):
        """Whether the expression `e` (its defines' arguments included) mentions `name`."""
        if isinstance(e, A.Name):
            return e.name == name
        if isinstance(e, (list, tuple)):
            return any(self._uses_name(x, name) for x in e)
        if not isinstance(e, A.Expr):
            return False
        return any(self._uses_name(getattr(e, f.name), name) for f in attrs.fields(type(e))
                   if f.name != "span")

    def ex_AmongCards(self, e, s):
        self.expect(e.zone, ZONE, s, "the zone")
        inner = s.child()
        self.refs[id(e)] = inner.new_slot("card", CARD)
        phrase = (f"`{e.kind} in Z by V`" if e.kind.endswith("card") else
                  "`total of V among cards`" if e.kind == "total" else f"`{e.kind} V among cards`")
        t = self.expr(e.value, inner)
        if not compatible(NUMBER, t):
            self.error("RL241", f"{phrase} compares numbers, but this is a {t}", e.value.span,
                       "give a number of each card, such as `rank of card` or `value of card`")
        elif not self._uses_name(e.value, "card"):
            self.error("RL242", f"the value of {phrase} does not depend on `card`: it is the same "
                       "for every card", e.value.span,
                       "inside it the card is called `card`, e.g. `value of card`")
        if e.condition is not None:
            self.where_of[id(e.condition)] = e
            self.expect(e.condition, FLAG, inner, "the condition on `card`")
        return CARD if e.kind.endswith("card") else NUMBER

    def ex_PickValue(self, e, s):
        self.reserved(e.name, e.span, f"a {e.of}")
        if e.low is not None:
            self.expect(e.low, NUMBER, s, "the lowest number")
            self.expect(e.high, NUMBER, s, "the highest number")
        inner = s.child()
        self.refs[id(e)] = inner.new_slot(e.name, NUMBER)
        self.where_of[id(e.condition)] = e
        self.expect(e.condition, FLAG, inner, f"the condition on `{e.name}`")
        if not self._uses_name(e.condition, e.name):
            self.error("RL242", f"the condition of `{e.kind} {e.of} {e.name}` does not depend on "
                       f"`{e.name}`: it holds for every {e.of} or for none", e.condition.span,
                       f"ask about `{e.name}`, e.g. `where (number of cards in hand where rank of "
                       f"card is {e.name}) >= 2`")
        return NUMBER

    def ex_Holder(self, e, s):
        self.expect(e.card, CARD, s, "the card of `player who has`")
        if not any(z.per_player for z in self.zones.values()):
            self.error("RL196", "`player who has c` looks in the zones of each player, and this "
                       "game has none", e.span, "declare a zone `per player`, such as a hand")
        return PLAYER

    def st_ForCard(self, st, s):
        self.expect(st.zone, ZONE, s, "the zone")
        self.reserved(st.name, st.span, "a card")
        inner = s.child()
        inner.loops += 1
        self.refs[id(st)] = (inner.new_slot(st.name, CARD), inner.new_slot(" cards", ANY),
                             inner.new_slot(" index", NUMBER))
        self.check_block(st.body, inner)

    def st_ForValue(self, st, s):
        self.reserved(st.name, st.span, f"a {st.kind}")
        inner = s.child()
        inner.loops += 1
        vi = inner.new_slot(st.name, SUIT if st.kind == "suit" else NUMBER)
        self.refs[id(st)] = (vi, inner.new_slot(" index", NUMBER))
        if st.kind == "rank":
            self.rank_slots.add((id(inner.owner), vi))
        self.check_block(st.body, inner)

    def st_Choose(self, st, s):
        each = st.simultaneous and len(st.by) == 1 and isinstance(st.by[0], A.PlayerQuery) and \
            (st.by[0].kind == "others" or st.by[0].kind.startswith("each"))
        for b in st.by:
            if each:
                self.expect(b, PLAYERS, s, "who chooses")
            else:
                self.expect_seat(b, s, "who chooses")
        if st.claim_from is not None:
            self.expect_seat(st.claim_from, s, "the player the claims are asked from")
        if st.simultaneous and len(st.by) < 2 and not each:
            self.error("RL183", "`simultaneously choose` needs two or more players", st.span,
                       "name them: `simultaneously choose by attacker, defender:`, or let a "
                       "set of players choose: `simultaneously choose by each player where ...:`")
        chooser = s.child()
        chooser_slot = chooser.new_slot(" chooser", PLAYER)
        extra = chooser.new_slot(" choices", ANY) if st.simultaneous else None
        chooser.you_slot = chooser_slot
        labels = {}
        param_slots = []
        for alt in st.alternatives:
            if alt.label in labels:
                self.error("RL184", f"two alternatives are called `{alt.label}`", alt.span,
                           "give each alternative of a choice its own name")
            labels[alt.label] = alt
            for named in re.findall(r"\{([^{}]*)\}", alt.display or ""):
                if alt.param is None or named != alt.param.name:
                    self.error("RL186", f"the words of `{alt.label}` name `{{{named}}}`, which it "
                               "does not choose", alt.span,
                               f"name its parameter: `{{{alt.param.name}}}`" if alt.param is not None
                               else "only the thing an alternative chooses can be named in braces")
            self.labels[id(alt)] = len(self.alternatives)
            self.alternatives.append((alt, st))
            inner = chooser.child()
            slot = None
            p = alt.param
            if p is not None:
                self.reserved(p.name, p.span, f"the {p.kind} chosen")
                if p.kind == "card":
                    self.expect(p.source, ZONE, inner, "where the card is chosen from")
                    slot = inner.new_slot(p.name, CARD)
                elif p.kind == "player":
                    t = self.expr(p.source, inner)
                    if t not in (PLAYERS, ANY):
                        self.error("RL102", f"a player is chosen from `players` or `opponents`, "
                                   f"not from a {t}", p.source.span, None)
                    slot = inner.new_slot(p.name, PLAYER)
                elif p.kind == "suit":
                    slot = inner.new_slot(p.name, SUIT)
                elif p.kind == "rank":
                    slot = inner.new_slot(p.name, NUMBER)
                    self.rank_slots.add((id(inner.owner), slot))
                elif p.kind == "cards":
                    slot = self.cards_param(alt, st, inner)
                elif p.kind == "unseen":
                    slot = self.unseen_param(alt, st, inner)
                else:
                    self.expect(p.source, NUMBER, inner, "the smallest number")
                    self.expect(p.high, NUMBER, inner, "the largest number")
                    slot = inner.new_slot(p.name, NUMBER)
                if p.where is not None:
                    self.expect(p.where, FLAG, inner, "which choices are allowed")
            if alt.condition is not None:
                self.expect(alt.condition, FLAG, inner, "when this choice is allowed")
            param_slots.append(slot)
            if p is not None and p.kind in ("card", "cards"):
                self.card_choices.append((alt, st, s.owner, s.you_slot, chooser_slot, slot))
            self.check_block(alt.body, inner)
        self.choose_slots[id(st)] = (chooser_slot, param_slots, extra)

    def unseen_param(self, alt, st, inner):
        """``unseen card c from Z``: the chooser chooses a place in Z (its slot, a number), and c
        (a slot of its own) is the card there, which the choice never names."""
        p = alt.param
        self.expect(p.source, ZONE, inner, "where the card is taken from")
        if st.simultaneous:
            self.error("RL233", f"`{alt.label}` takes a card unseen in a simultaneous choice",
                       p.span, "another player's choice could move the cards before it runs: "
                       "let each player choose in turn (`for each player q:` / `choose by q:`)")
        slot = inner.new_slot(" place", NUMBER)
        self.unseen[id(alt)] = inner.new_slot(p.name, CARD)
        return slot

    def cards_param(self, alt, st, inner):
        """``N [or more] cards c [of one rank] from Z to D [where C]``: several cards chosen as
        one step.  Its slots: the card c, then the cards that may be chosen, those chosen so far,
        Z, D, the fewest and the most (kept in the frame, so a saved or cloned game keeps them);
        and a second alternative of the game, "no more cards", for `or more`."""
        p = alt.param
        self.expect(p.count, NUMBER, inner, "how many cards are chosen")
        if isinstance(p.count, A.Int) and p.count.value < 1:
            self.error("RL231", f"`{alt.label}` chooses {p.count.value} cards: at least one card "
                       "must be chosen", p.count.span,
                       "an alternative without cards is written without them: "
                       f"`{alt.label}:`")
        self.expect(p.source, ZONE, inner, "where the cards are chosen from")
        self.expect(p.dest, ZONE, inner, "where the chosen cards go")
        if st.simultaneous:
            self.error("RL230", f"`{alt.label}` chooses several cards in a simultaneous choice",
                       p.span, "let each player choose in turn, into a zone of their own that the "
                       "others do not see: `for each player q:` / `choose by q:` / "
                       f"`{alt.label} ... to passing of q:`, then move them on")
        slot = inner.new_slot(p.name, CARD)
        ks = tuple(inner.new_slot(n, t) for n, t in (
            (" eligible", ANY), (" picked", ANY), (" from", ZONE), (" to", ZONE),
            (" fewest", NUMBER), (" most", NUMBER)))
        done = A.Alternative("no more cards", None, None, (), alt.span, display="no more cards")
        self.picks[id(alt)] = (ks, len(self.alternatives))
        self.labels[id(done)] = len(self.alternatives)
        self.alternatives.append((done, st))
        return slot

    # -- expressions
    def expect(self, e, want, s, what):
        t = self.expr(e, s)
        if not compatible(want, t):
            self.error("RL102", f"{what} must be a {want}, but this is a {t}", e.span,
                       _type_hint(want, t))
        return t

    def expect_seat(self, e, s, what):
        """``e`` is used as a player: a seat must be named.  The value `none` is RL197; an
        expression that may be none when played (a variable, a parameter, `owner of`...) is noted
        in ``seat_uses`` so that the compiled game checks it (RL912)."""
        t = self.expect(e, PLAYER, s, what)
        if t == NONE:
            self.error("RL197", f"{what} is `none`: `none` is no player", e.span,
                       "name a player (`you`, `player 1`, `next player`), or test first: "
                       "`if p is not none:`")
        elif not (isinstance(e, (A.Seat, A.Keyword))
                  or (isinstance(e, A.Unary) and e.op in ("player after", "player before"))):
            self.seat_uses.add(id(e))
        return t

    def expr(self, e, s) -> str:
        if self.depth == 0:
            self.root = e
        elif self.depth >= MAX_EXPR_DEPTH:
            return self.too_deep()
        self.depth += 1
        try:
            t = getattr(self, "ex_" + type(e).__name__)(e, s)
        finally:
            self.depth -= 1
        self.types[id(e)] = t
        return t

    def too_deep(self):
        """RL202 for an expression that only its defines make too deep (the parser reports the
        ones written so); nothing deeper is checked, so no walk of it can recurse without end."""
        if id(self.root) not in self.deep_roots:
            self.deep_roots.add(id(self.root))
            self.error("RL202", f"this expression is nested more than {MAX_EXPR_DEPTH} deep once "
                       "its defines are put in place", self.root.span,
                       "compute a part first with `let NAME = ...`, or make the defines simpler")
        return ANY

    def ex_Int(self, e, s): return NUMBER
    def ex_Bool(self, e, s): return FLAG
    def ex_NoneLit(self, e, s): return NONE

    def ex_Keyword(self, e, s):
        self.refs[id(e)] = ("you", s.you_slot)
        return {"players": PLAYERS, "opponents": PLAYERS, "number of players": NUMBER,
                "number of turns": NUMBER}.get(e.word, PLAYER) \
            if e.word not in ("you",) else PLAYER

    def ex_Seat(self, e, s):
        if not (1 <= e.number <= self.players[1]):
            self.error("RL133", f"there is no player {e.number} in a game for at most "
                       f"{self.players[1]} players", e.span,
                       f"seats are numbered from 1 to {self.players[1]}; `player after you`, "
                       "`next player` and `for each player p` name players without numbers")
        return PLAYER

    def ex_Unary(self, e, s):
        op = e.op
        if op in ("player after", "player before"):
            self.expect_seat(e.operand, s, f"`{op}`'s player")
            return PLAYER
        if op in ("rank after", "rank before"):
            self.expect(e.operand, NUMBER, s, "the rank")
            return NUMBER
        if op in ("top", "bottom", "random card"):
            self.expect(e.operand, ZONE, s, f"`{op} of`'s zone")
            return CARD
        if op == "size":
            self.expect(e.operand, ZONE, s, "`size of`'s zone")
            return NUMBER
        if op == "score":
            if self.score is None:
                self.error("RL181", "`score of` but the game declares no score", e.span,
                           "add a line such as `score: size of won`")
            elif self.in_score:
                self.error("RL187", "the score uses `score of`: working it out would never end",
                           e.span, "write the score from zones and variables, e.g. "
                           "`score: size of won`")
            self.expect_seat(e.operand, s, "whose score")
            return NUMBER
        if op == "not":
            self.expect(e.operand, FLAG, s, "`not`'s condition")
            return FLAG
        if op == "neg":
            self.expect(e.operand, NUMBER, s, "the number")
            return NUMBER
        raise AssertionError(op)

    def ex_TotalOf(self, e, s):
        self.expect(e.zone, ZONE, s, "the zone to total")
        if e.attribute == "rank":
            return NUMBER
        a = self.attributes.get(e.attribute)
        if a is None:
            self.error("RL101", f"there is no card attribute `{e.attribute}`", e.span,
                       did_you_mean(e.attribute, list(self.attributes) + ["rank"]))
        elif a[1] != NUMBER:
            self.error("RL102", f"attribute `{e.attribute}` is a word, it cannot be totalled",
                       e.span, None)
        return NUMBER

    def ex_AnyNumber(self, e, s):
        """``any number n from A to B where C`` (docs/language.md, "Some number in a range")."""
        self.expect(e.low, NUMBER, s, "the first number of the range")
        self.expect(e.high, NUMBER, s, "the last number of the range")
        self.reserved(e.name, e.span, "a number")
        inner = s.child()
        self.refs[id(e)] = inner.new_slot(e.name, NUMBER)
        self.expect(e.condition, FLAG, inner, f"the condition on `{e.name}`")
        lo, hi = e.low, e.high
        if isinstance(lo, A.Int) and isinstance(hi, A.Int) and hi.value - lo.value >= MAX_RANGE:
            self.error("RL251", f"{hi.value - lo.value + 1} numbers is more than the "
                       f"{MAX_RANGE} a range may hold", e.span,
                       "a range is tried number by number: keep it to what the game can reach")
        return FLAG

    def check_zone_families(self):
        """``zone column 1 to 7: ...`` (docs/language.md, "Families of zones"): the parser made
        the zones column_1 to column_7; here each family is known by its name, as
        (first, last, zone names), and its misuse reported."""
        self.zone_families = {}
        for z in self.zones.values():
            if z.family is None:
                continue
            name, k, lo, hi = z.family
            fam = self.zone_families.get(name)
            if fam is None:
                fam = self.zone_families[name] = (lo, hi, [])
                if hi < lo or hi - lo >= 100:
                    self.error("RL253", f"zone family `{name}` from {lo} to {hi}: a family "
                               "holds 1 to 100 zones", z.span, "e.g. `zone column 1 to 7: ...`")
                if z.per_player:
                    self.error("RL254", f"zone family `{name}` is per player", z.span,
                               "a family of zones is shared; for each player's own piles, "
                               "declare each pile `per player`")
                if name in self.zones:
                    self.error("RL253", f"zone family `{name}` has the name of a zone",
                               z.span, "give the family or the zone another name")
            fam[2].append(z.name)

    def zone_of_family(self, e, s):
        """``column(k)``: the zone numbered k of the family ``column``."""
        lo, hi, names = self.zone_families[e.name]
        if len(e.args) != 1:
            self.error("RL255", f"`{e.name}(...)` takes one number, the zone's number in the "
                       f"family ({lo} to {hi})", e.span, f"e.g. `{e.name}({lo})`")
            for a in e.args:
                self.expr(a, s)
            return ZONE
        self.expect(e.args[0], NUMBER, s, f"the number of the {e.name}")
        k = e.args[0]
        if isinstance(k, A.Int) and not lo <= k.value <= hi:
            self.error("RL255", f"there is no {e.name} {k.value}: the family `{e.name}` is "
                       f"numbered {lo} to {hi}", k.span, None)
        self.refs[id(e)] = ("zone_family", tuple(names), lo)
        return ZONE

    def ex_MeldLeft(self, e, s):
        """Sets and runs (docs/language.md, "Sets and runs"): the attribute must be a number,
        as for `total`; runs need the deck's rank order, which every deck has."""
        return self.ex_TotalOf(e, s)

    def ex_Roll(self, e, s):
        if e.sides < 1:
            self.error("RL111", "a die needs at least one side", e.span, "e.g. `roll d6`")
        return NUMBER

    def ex_CardQuery(self, e, s):
        self.expect(e.zone, ZONE, s, "the zone")
        if e.condition is not None:
            inner = s.child()
            self.refs[id(e)] = inner.new_slot("card", CARD)
            self.where_of[id(e.condition)] = e
            self.expect(e.condition, FLAG, inner, "the condition on `card`")
        return NUMBER if e.kind == "count" else FLAG

    def ex_Name(self, e, s):
        n = e.name
        loc = s.lookup(n)
        if loc is not None:
            self.refs[id(e)] = ("slot", loc[0])
            return loc[1]
        v = self.vars.get(n)
        if v is not None:
            self.refs[id(e)] = ("var", n, v.decl.per_player, s.you_slot)
            return v.type
        z = self.zones.get(n)
        if z is not None:
            self.refs[id(e)] = ("zone", n, z.per_player, s.you_slot)
            return ZONE
        o = self.options.get(n)
        if o is not None:
            if o.type == SYMBOL:
                self.refs[id(e)] = ("const", self.symbols.setdefault(o.value, len(self.symbols)))
            else:
                self.refs[id(e)] = ("const", int(o.value))
            return o.type
        if n in self.ranks:
            self.refs[id(e)] = ("const", self.ranks[n])
            return NUMBER
        if n in self.suits:
            self.refs[id(e)] = ("const", self.suits.index(n))
            return SUIT
        if n in self.card_names:
            self.refs[id(e)] = ("card_name", n)
            return CARD
        if n in self.symbols:
            self.refs[id(e)] = ("const", self.symbols[n])
            return SYMBOL
        d = self.defines.get(n)
        if d is not None:
            return self.expand(e, d, (), s)
        if n in self.rules:
            self.named_rules.add(n)
            self.error("RL109", f"`{n}` is a rule; it is run as a statement, it has no value",
                       e.span, f"give the rule `return VALUE` and take it with `let x = {n}` "
                       "on a line of its own, or use a `define`")
            return ANY
        if n == "player":
            self.error("RL195", "`player` alone names the player only inside a condition over "
                       "players", e.span, "e.g. `any player where hand of player is empty`; "
                       "elsewhere name one: `you`, `player 2`, a player chosen or looped over")
            self.refs[id(e)] = ("const", 0)
            return PLAYER
        self.error("RL101", f"unknown name `{n}`", e.span, did_you_mean(n, self.all_names(s))
                   or "declare it first (zone, var, option, define), or check the spelling")
        self.refs[id(e)] = ("const", 0)
        return ANY

    def all_names(self, s):
        if self.global_names is None or self.global_names[1] != len(self.symbols):
            self.global_names = (set(self.vars) | set(self.zones) | set(self.options)
                                 | set(self.ranks) | set(self.suits) | set(self.card_names)
                                 | set(self.symbols) | set(self.defines), len(self.symbols))
        if _hint_budget[0] < len(self.global_names[0]):   # no hint will be made
            return ()
        names = set(self.global_names[0])
        sc = s
        while sc is not None:
            names |= set(sc.names)
            sc = sc.parent
        return names

    def ex_Of(self, e, s):
        n = e.name
        if n in BUILTIN_ATTRIBUTES or n in self.attributes:
            self.expect(e.operand, CARD, s, f"`{n} of`'s card")
            if n == "rank":
                self.refs[id(e)] = ("rank",)
                return NUMBER
            if n == "suit":
                self.refs[id(e)] = ("suit",)
                return SUIT
            self.refs[id(e)] = ("attr", n)
            return self.attributes[n][1]
        z = self.zones.get(n)
        if z is not None:
            if not z.per_player:
                self.error("RL112", f"`{n}` is shared; it belongs to no player", e.name_span,
                           f"write just `{n}`")
            self.expect_seat(e.operand, s, f"whose `{n}`")
            self.refs[id(e)] = ("zone_of", n)
            return ZONE
        v = self.vars.get(n)
        if v is not None:
            if not v.decl.per_player:
                self.error("RL112", f"variable `{n}` is shared; it belongs to no player",
                           e.name_span, f"write just `{n}`, or declare `var {n} per player = ...`")
            self.expect_seat(e.operand, s, f"whose `{n}`")
            self.refs[id(e)] = ("var_of", n)
            return v.type
        d = self.defines.get(n)
        if d is not None and len(d.params) == 1:
            return self.expand(e, d, (e.operand,), s)
        if n in self.ranks and isinstance(e.operand, A.Name) and e.operand.name in self.suits \
                and s.lookup(e.operand.name) is None:       # `queen of spades` (issue 14)
            found = self.card_named(n, e.operand.name, e.span)
            if found is not None:
                self.refs[id(e)] = ("card_lit",) + found
            return CARD
        self.expr(e.operand, s)
        self.error("RL101", f"`{n} of ...`: `{n}` is no card attribute, per-player zone or variable",
                   e.name_span, did_you_mean(n, set(self.attributes) | set(BUILTIN_ATTRIBUTES)
                                             | {z for z in self.zones} | set(self.vars)))
        return ANY

    def ex_Call(self, e, s):
        if e.name in self.zone_families and e.name not in self.defines:
            return self.zone_of_family(e, s)
        d = self.defines.get(e.name)
        if d is None:
            if e.name in self.rules:
                self.named_rules.add(e.name)
                self.error("RL109", f"`{e.name}` is a rule; it is run as a statement, it has no value",
                           e.span, "use a `define` for a value, or give the rule `return VALUE` and "
                           f"take it with `let x = {e.name}(...)` on a line of its own")
            else:
                self.error("RL101", f"unknown define `{e.name}`", e.span,
                           did_you_mean(e.name, self.defines))
            for a in e.args:
                self.expr(a, s)
            return ANY
        if len(e.args) != len(d.params):
            self.error("RL110", f"`{e.name}` takes {len(d.params)} value(s), not {len(e.args)}",
                       e.span, f"define {e.name}({', '.join(p for p, _ in d.params)})")
            for a in e.args:
                self.expr(a, s)
            return ANY
        return self.expand(e, d, e.args, s)

    def expand(self, use, d: A.Define, args, s):
        # The arguments belong to the use: checked where it is, before the body (so `f(f(1))`
        # is not taken for a define that uses itself).
        for (pname, ptype), a in zip(d.params, args):
            t = self.expr(a, s)
            if ptype is not None and ptype in TYPE_NAMES and not compatible(TYPE_NAMES[ptype], t):
                self.error("RL102", f"`{d.name}` expects a {ptype} here, not a {t}", a.span, None)
        if d.name in self.expanding:
            self.error("RL113", f"define `{d.name}` uses itself", d.span,
                       "a define is a formula; it cannot refer to itself")
            return ANY
        # One checked copy of the body serves every use of the define with the same arguments
        # (the same shape, each name meaning the same) in the same rule for the same `you`:
        # `define d2 = d1 + d1` checks `d1` once, so a chain of defines each using the one below
        # twice is linear, not exponential.  (The body sees only globals and its parameters;
        # the slots of its own `any card in ...` are the rule's, used only while it is computed.)
        # The backends see the copy shared too (ExprGen makes a function of a large one).
        key = (d.name, id(s.owner), s.you_slot, _shape(args, self.refs))
        hit = self.expansions.get(key)
        if hit is not None:
            ex = hit[0]
            self.refs[id(use)] = ("expanded", ex)
            return self.types[id(ex)]
        body = _substitute(d.body, {p: Arg(a, a.span) for (p, _), a in zip(d.params, args)})
        ex = Expanded(d.name, body, use.span)
        self.refs[id(use)] = ("expanded", ex)
        # The define's own names are resolved where it was declared (globals only); each Arg in
        # the copy is resolved in the scope of the use.
        inner = Scope(s.owner, s)
        inner.global_only = True
        inner.caller = s
        self.expanding.append(d.name)
        try:
            t = self.expr(body, inner)
        finally:
            self.expanding.pop()
        self.types[id(ex)] = t
        self.expansions[key] = (ex, s, args)    # (kept alive: ids in the key stay theirs)
        return t

    def ex_Arg(self, e, s):
        sc = s
        while sc is not None and not hasattr(sc, "caller"):
            sc = sc.parent
        caller = sc.caller if sc is not None else s
        if id(e.expr) in self.types:
            return self.types[id(e.expr)]
        return self.expr(e.expr, caller)

    def ex_Expanded(self, e, s):
        return self.expr(e.body, s)

    def ex_BoolOp(self, e, s):
        for i in e.items:
            self.expect(i, FLAG, s, f"each side of `{e.op}`")
        return FLAG

    def ex_Compare(self, e, s):
        a = self.expr(e.left, s)
        b = self.expr(e.right, s)
        if e.op in ("==", "!="):
            if not (compatible(a, b) or compatible(b, a)):
                self.error("RL102", f"a {a} is compared with a {b}; they can never be equal",
                           e.span, self.word_clash(e.left) or self.word_clash(e.right) or _type_hint(a, b))
        else:
            q = self.where_of.get(id(e))
            for side, t in ((e.left, a), (e.right, b)):
                if not compatible(NUMBER, t):
                    hint = _type_hint(NUMBER, t)
                    if q is not None and side is e.left and q.kind == "count":
                        # `number of cards in hand where playable(card) > 1`: the `> 1` went
                        # into the condition, since a `where` runs to the end of the value.
                        hint = ("a `where` runs to the end of the value, so this `" + e.op +
                                "` is part of the condition on `card`; to compare the count, "
                                "write `(number of cards in ZONE where CONDITION) " + e.op + " ...`")
                    msg = f"`{e.op}` compares numbers, but this is a {t}"
                    if isinstance(e.left, A.Keyword) and e.left.word == "number of turns" \
                            and e.left.span is e.right.span:      # `game ends after N turns:`
                        msg = f"`game ends after N turns` needs a number of turns, but this is a {t}"
                    self.error("RL102", msg, side.span, hint)
        return FLAG

    def word_clash(self, e):
        """A hint when ``e`` is a word of an option or attribute that the deck also uses as the
        name of a rank, suit or card: there the deck's meaning wins, so the word cannot be meant."""
        if not isinstance(e, A.Name) or e.name not in self.symbols:
            return None
        what = ("rank" if e.name in self.ranks else "suit" if e.name in self.suits
                else "card" if e.name in self.card_names else None)
        if what is None:
            return None
        return (f"`{e.name}` is also a {what} of the deck, and here it means the {what}; "
                f"give the option's or attribute's word another name")

    def ex_IsEmpty(self, e, s):
        self.expect(e.zone, ZONE, s, "`is empty`'s zone")
        return FLAG

    def ex_Arith(self, e, s):
        self.expect(e.left, NUMBER, s, f"the left of `{e.op}`")
        self.expect(e.right, NUMBER, s, f"the right of `{e.op}`")
        if e.op in ("/", "mod"):
            self.check_divisor(e)
        return NUMBER

    def check_divisor(self, e):
        """RL205: a division by a number known before the game (options, the number of players)
        that is zero.  (One known only while the game is played stops it with RL911.)"""
        counts = range(self.players[0], self.players[1] + 1)
        zero = [n for n, k in _counted(self, e.right, counts).items()
                if k is not None and not isinstance(k, bool) and k == 0]
        if zero:
            self.error("RL205", f"`{e.op}` by zero" + ("" if len(zero) == len(counts) else
                       f" with {_ranges(zero)} players"), e.right.span,
                       "a number cannot be divided by zero; divide by something that is never 0")

    def ex_Cases(self, e, s):
        types = []
        for value, cond in e.cases:
            self.expect(cond, FLAG, s, "the condition")
            types.append(self.expr(value, s))
        types.append(self.expr(e.default, s))
        real = [t for t in types if t not in (NONE, ANY)]
        if real and any(not compatible(real[0], t) for t in types):
            self.error("RL102", "the choices of this expression are of different kinds: "
                       + ", ".join(types), e.span, None)
        return real[0] if real else types[0]

    # -- hidden information
    def check_choice_visibility(self):
        """RL185: a choice whose values are cards its chooser may not see.  A choice's label
        names the card, so such a choice would show its chooser hidden cards (and a program
        choosing would know them).  The zone of ``card c from Z`` must be visible to the chooser:
        face up; their own zone seen by its owner (``hand``, ``hand of you``, ``hand of t``
        under ``choose by t``); or ``top face up`` when ``where`` keeps only its top.  A ``where``
        that keeps only a card every player can name (a variable, ``top of`` a visible top) is
        fine too.  A zone named through a local name or a rule's value is followed to the
        zones it may be; one this cannot follow is not reported."""
        for alt, st, owner, you_slot, chooser_slot, slot in self.card_choices:
            oid = id(owner)
            chooser = {("you", oid, chooser_slot)}
            if not st.simultaneous:
                try:
                    chooser.add(_canon(self, st.by[0], oid) if st.by else ("you", oid, you_slot))
                except RecursionError:
                    pass
            p = alt.param
            try:
                targets = self._zones_of(p.source, oid, 0)
                whys = [(zone, _hidden_from_chooser(self, zone, whose, chooser, p, oid, slot))
                        for zone, whose in targets]
            except (_Unknown, RecursionError):
                continue
            for zone, why in whys:
                if why is not None:
                    src = _plain_expr(p.source) or zone.name
                    self.error("RL185", f"`{alt.label}` chooses among the cards of "
                               f"{_zone_words(zone, p.source)}, {why}", p.source.span,
                               "a choice shows its chooser the card of each choice; to take a "
                               "card unseen, let the chooser choose its place: "
                               f"`take unseen card c from {src}:` (or take "
                               f"`random card of {src}`)")
                    break

    def _zones_of(self, e, oid, depth) -> list:
        """(zone declaration, its owner as a _canon form or None when shared) for each zone the
        zone expression ``e`` may be; _Unknown when it cannot tell."""
        if depth > 20:
            raise _Unknown
        if isinstance(e, (Expanded,)):
            return self._zones_of(e.body, oid, depth + 1)
        if isinstance(e, Arg):
            return self._zones_of(e.expr, oid, depth + 1)
        if isinstance(e, A.Cases):
            out = []
            for value, _cond in e.cases:
                out += self._zones_of(value, oid, depth + 1)
            return out + self._zones_of(e.default, oid, depth + 1)
        ref = self.refs.get(id(e))
        if ref is None:
            raise _Unknown
        if ref[0] == "expanded":
            return self._zones_of(ref[1], oid, depth + 1)
        if ref[0] == "zone":
            z = self.zones.get(ref[1])
            if z is None:
                raise _Unknown
            return [(z, ("you", oid, ref[3]) if z.per_player else None)]
        if ref[0] == "zone_of":
            z = self.zones.get(ref[1])
            if z is None:
                raise _Unknown
            return [(z, _canon(self, e.operand, oid))]
        if ref[0] in ("slot", "var", "var_of"):
            values = self.zone_values.get((oid if ref[0] == "slot" else "var", ref[1]))
            if not values:
                raise _Unknown
            out = []
            for value, via in values:
                if via is None:
                    out += self._zones_of(value, oid, depth + 1)
                    continue
                # a value set elsewhere (a variable's), or given to a rule (the caller's `you`,
                # or `for P`'s, is the rule's `you`); other names of that place mean nothing here
                caller, you = via
                if you is not None and not isinstance(you, tuple):
                    you = _canon(self, you, caller)
                for z, whose in self._zones_of(value, caller, depth + 1):
                    if you is not None and whose == you:
                        whose = ("you", oid, -1)
                    elif whose is not None and _mentions_locals(whose):
                        whose = ("unknown", object())
                    out.append((z, whose))
            return out
        raise _Unknown

    # -- names
    def unknown_zone(self, name, span):
        self.error("RL101", f"there is no zone `{name}`", span,
                   did_you_mean(name, self.zones) or f"declare it: `zone {name}: shared, face down`")

    # -- whole-game checks
    def check_deals(self):
        _check_deck_size(self)
        _check_deals(self)

    def check_reachability(self, by_type):
        # A rule runs when setup, turn or an ending runs it, or a rule that runs does.
        calls = {n: {c.name for c in _walk(r.decl.body) if isinstance(c, A.CallRule)}
                 for n, r in self.rules.items()}
        reached = {"setup", "turn"} & set(self.rules)
        for e, _ctx, _body in self.endings:
            reached |= {c.name for c in _walk(e.body) if isinstance(c, A.CallRule)}
        todo = list(reached)
        while todo:
            for callee in calls.get(todo.pop(), ()):
                if callee in self.rules and callee not in reached:
                    reached.add(callee)
                    todo.append(callee)
        callers_of: dict = {}
        for m, cs in calls.items():
            for c in cs:
                if c != m:
                    callers_of.setdefault(c, []).append(m)
        for n, r in self.rules.items():
            if n in reached or n in self.named_rules:
                continue
            callers = sorted(callers_of.get(n, ()))
            if callers:
                self.warning("RL190", f"rule `{n}` can never run: only "
                             + ", ".join(f"`{m}`" for m in callers)
                             + (" runs" if len(callers) == 1 else " run")
                             + " it, and " + ("that rule is" if len(callers) == 1 else "they are")
                             + " never run", r.decl.span,
                             "run one of them from `setup`, `turn` or another rule that runs, "
                             "or delete them")
            else:
                self.warning("RL190", f"rule `{n}` is never run", r.decl.span,
                             f"run it from `turn` or another rule (a line `{n}`), or delete it")
        has_end = bool(self.endings) or _mentions(self.decls, A.EndGame)
        if not has_end:
            self.error("RL191", "the game has no way to end", self.file_span(),
                       "add `game ends when ...:` or an `end game with ...` statement")
        used_names = set()
        for node in _walk(self.decls):
            if isinstance(node, (A.Name, A.Of)):
                used_names.add(node.name)
            elif isinstance(node, A.Deal):
                used_names.add(node.zone)
            elif isinstance(node, A.TotalOf):
                used_names.add(node.attribute)
            elif isinstance(node, A.Call) and node.name in self.zone_families:
                used_names.update(self.zone_families[node.name][2])
        if self.deck is not None and self.deck.per_player_into:
            used_names.add(self.deck.per_player_into)
        for z in self.zones.values():
            if z.name not in used_names:
                self.warning("RL192", f"zone `{z.name}` is never used", z.span,
                             "delete it, or use it")
        for o in self.options.values():
            if o.decl.name not in used_names and o.decl.span.file != "<prelude>":
                self.warning("RL193", f"option `{o.decl.name}` is never used", o.decl.span,
                             "use it in a rule, or delete it")


# ---- constant values (options and the number of players are known) ----------------------------
class _NotConstant(Exception):
    pass


class _Unknown(Exception):
    """A zone expression whose zone the checker cannot follow."""


def _canon(c: "Checker", e, oid):
    """A form of the player (or other) expression ``e`` that is equal for two expressions that
    always have the same value at one moment of one rule (``oid``): the same names, resolved the
    same way.  A random value is equal to nothing."""
    if isinstance(e, Expanded):
        return _canon(c, e.body, oid)
    if isinstance(e, Arg):
        return _canon(c, e.expr, oid)
    if isinstance(e, A.Keyword):
        if e.word == "random player":
            return ("random", object())
        ref = c.refs.get(id(e), ("you", -1))
        if not isinstance(ref, tuple):          # a bare number (a seat, a constant)
            ref = ("you", -1)
        if e.word == "you":
            return ("you", oid, ref[1])
        if e.word in ("next player", "previous player"):
            return ("kw", e.word, ("you", oid, ref[1]))
        return ("kw", e.word)
    if isinstance(e, A.Roll):
        return ("random", object())
    ref = c.refs.get(id(e))
    if not isinstance(ref, tuple):              # none, or a bare number (a constant's value)
        ref = None
    if ref is not None and ref[0] == "expanded":
        return _canon(c, ref[1], oid)
    if isinstance(e, A.Name):
        if ref is not None and ref[0] == "slot":
            return ("slot", oid, ref[1])
        if ref is not None and ref[0] == "var" and ref[2]:
            return ("var", ref[1], ("you", oid, ref[3]))
        return ("name", e.name)
    if isinstance(e, A.Unary) and e.op == "random card":
        return ("random", object())
    if not attrs.has(type(e)):
        return ("unknown", object())
    parts = [type(e).__name__]
    for f in attrs.fields(type(e)):
        if f.name in ("span", "name_span"):
            continue
        v = getattr(e, f.name)
        if isinstance(v, A.Expr):
            v = _canon(c, v, oid)
        elif isinstance(v, tuple):
            v = tuple(_canon(c, x, oid) if isinstance(x, A.Expr) else
                      tuple(_canon(c, y, oid) if isinstance(y, A.Expr) else y for y in x)
                      if isinstance(x, tuple) else x for x in v)
        parts.append(v)
    return tuple(parts)


def _mentions_locals(form) -> bool:
    """Whether a _canon form depends on the rule it is in (a local name or `you`)."""
    if isinstance(form, tuple):
        if form and form[0] in ("slot", "you", "random"):
            return True
        return any(_mentions_locals(x) for x in form)
    return False


def _zone_words(zone, source) -> str:
    return f"`{zone.name}`" if isinstance(source, A.Name) and source.name == zone.name \
        else f"`{zone.name}` (here `{_plain_expr(source)}`)" if _plain_expr(source) else f"`{zone.name}`"


def _plain_expr(e):
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.Of):
        inner = _plain_expr(e.operand)
        return f"{e.name} of {inner}" if inner else None
    if isinstance(e, A.Seat):
        return f"player {e.number}"
    if isinstance(e, A.Keyword):
        return e.word
    return None


def _hidden_from_chooser(c: "Checker", zone, whose, chooser, p, oid, slot):
    """Why the chooser may not see every card of ``zone`` (owned by ``whose``) that ``p``
    offers, or None when they may."""
    vis = zone.visibility
    if vis == "everyone":
        return None
    if vis == "owner" and zone.per_player and whose in chooser:
        return None
    if _where_keeps_a_public_card(c, p.where, zone, whose, chooser, oid, slot):
        return None
    if vis == "top":
        return "whose cards below the top are face down"
    if vis == "owner" and zone.per_player:
        return "which only its owner may see, and the chooser is not always its owner"
    return "which nobody may see"


def _where_keeps_a_public_card(c, where, zone, whose, chooser, oid, slot) -> bool:
    """Whether ``where`` (one of its `and`-ed parts) says that the chosen card is a card the
    chooser can name without seeing the zone: the value of a variable (variables are public),
    a card of the deck by name, or ``top of`` a zone whose top the chooser sees."""
    if where is None:
        return False
    while isinstance(where, (Expanded, Arg)) or _ref_kind(c, where) == "expanded":
        where = where.body if isinstance(where, Expanded) else where.expr if isinstance(where, Arg) \
            else c.refs[id(where)][1]
    if isinstance(where, A.BoolOp):
        return where.op == "and" and any(
            _where_keeps_a_public_card(c, w, zone, whose, chooser, oid, slot) for w in where.items)
    if not isinstance(where, A.Compare) or where.op != "==":
        return False
    chosen = ("slot", oid, slot)
    for a, b in ((where.left, where.right), (where.right, where.left)):
        if _canon(c, a, oid) == chosen and _public_card(c, b, chooser, oid):
            return True
    return False


def _ref_kind(c, e) -> str:
    """The kind of what the checker resolved ``e`` to; '' when its entry is not a (kind, ...)
    tuple (some nodes keep a slot number there: `any card in Z where ...` keeps its card's)."""
    ref = c.refs.get(id(e))
    return ref[0] if isinstance(ref, tuple) and ref else ""


def _public_card(c, e, chooser, oid) -> bool:
    while isinstance(e, (Expanded, Arg)):
        e = e.body if isinstance(e, Expanded) else e.expr
    ref = c.refs.get(id(e))
    if not isinstance(ref, tuple):
        ref = None
    if ref is not None and ref[0] == "expanded":
        return _public_card(c, ref[1], chooser, oid)
    if ref is not None and ref[0] in ("var", "var_of", "card_name"):
        return True
    if isinstance(e, A.Unary) and e.op == "top":
        try:
            zones = c._zones_of(e.operand, oid, 0)
        except _Unknown:
            return False
        return all(z.visibility in ("everyone", "top") or (
            z.visibility == "owner" and z.per_player and whose in chooser) for z, whose in zones)
    return False


def const_value(checker, e, n):
    """The value of an expression that depends only on options and the number of players ``n``,
    or None."""
    try:
        return _const(checker, e, n)
    except (_NotConstant, ZeroDivisionError, TypeError, RecursionError):
        return None


def _const(c, e, n):
    if isinstance(e, A.Int):
        return e.value
    if isinstance(e, A.Bool):
        return e.value
    if isinstance(e, A.Keyword) and e.word == "number of players":
        return n
    if isinstance(e, A.Name):
        ref = c.refs.get(id(e))
        if ref and ref[0] == "expanded":
            return _const_expanded(c, ref[1], n)
        o = c.options.get(e.name)
        if o is not None and o.type in (NUMBER, FLAG) and ref and ref[0] == "const":
            return o.value
        raise _NotConstant
    if isinstance(e, (Expanded,)):
        return _const_expanded(c, e, n)
    if isinstance(e, Arg):
        return _const(c, e.expr, n)
    if isinstance(e, A.Call):
        ref = c.refs.get(id(e))
        if ref and ref[0] == "expanded":
            return _const_expanded(c, ref[1], n)
        raise _NotConstant
    if isinstance(e, A.Arith):
        a, b = _const(c, e.left, n), _const(c, e.right, n)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "/": lambda: a // b, "mod": lambda: a % b}[e.op]()
    if isinstance(e, A.Unary) and e.op == "neg":
        return -_const(c, e.operand, n)
    if isinstance(e, A.Unary) and e.op == "not":
        return not _const(c, e.operand, n)
    if isinstance(e, A.Compare):
        a, b = _const(c, e.left, n), _const(c, e.right, n)
        return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[e.op]
    if isinstance(e, A.BoolOp):
        vals = [_const(c, i, n) for i in e.items]
        return all(vals) if e.op == "and" else any(vals)
    if isinstance(e, A.Cases):
        for value, cond in e.cases:
            if _const(c, cond, n):
                return _const(c, value, n)
        return _const(c, e.default, n)
    raise _NotConstant


def _const_expanded(c, ex, n):
    """The value of a use of a define, computed once per shared copy (see Checker.expand)."""
    memo = c.__dict__.setdefault("_const_memo", {})
    key = (id(ex), n)
    if key not in memo:
        try:
            memo[key] = (_const(c, ex.body, n), ex)
        except _NotConstant:
            memo[key] = (_NotConstant, ex)
    value = memo[key][0]
    if value is _NotConstant:
        raise _NotConstant
    return value


def _checker_deck_size(c, n):
    """How many cards the deck has for ``n`` players, or None when that depends on the game."""
    d = c.deck
    if d is None:
        return None
    dt = c.deck_types.get(d.name)
    if dt is None:
        return None
    per_copy = len(dt.suits) * len(dt.ranks) + sum(len(r) for _s, r in dt.own_suits)
    if d.with_group is not None:
        include = True if d.with_condition is None else const_value(c, d.with_condition, n)
        if include is None:
            return None
        if include:
            per_copy += sum(len(names) for g, names, _r in dt.extras if g == d.with_group)
    if d.per_player_into is not None:
        copies = n
    elif d.copies is None:
        copies = 1
    else:
        copies = const_value(c, d.copies, n)
        if copies is None:
            return None
    return per_copy * max(0, copies)


def _counted(c, e, counts):
    """The value of ``e`` for each number of players in ``counts`` (None where it is not known
    before the game), worked out once when ``e`` does not depend on the number of players."""
    k = const_value(c, e, None)
    if k is not None:
        return {n: k for n in counts}
    return {n: const_value(c, e, n) for n in counts}


def _ranges(counts) -> str:
    """``2, 3, 4, 7`` as ``2 to 4, 7``."""
    out, start, prev = [], None, None
    for n in list(counts) + [None]:
        if start is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(str(start) if start == prev else
                       f"{start}, {prev}" if prev == start + 1 else f"{start} to {prev}")
        start = prev = n
    return ", ".join(out)


def _check_deck_size(c):
    """A deck of more cards than a game may use (RL172), for any allowed number of players whose
    deck is known before the game (the compiler reports the others)."""
    lo, hi = c.players
    bad = [(n, size) for n in range(lo, hi + 1)
           for size in [_checker_deck_size(c, n)] if size is not None and size > MAX_CARDS]
    if bad and c.deck is not None:
        n, size = bad[0]
        c.error("RL172", f"{size} cards is more than the {MAX_CARDS} a game may use",
                c.deck.span, "use fewer copies of the deck" if lo == hi else
                f"this happens with {_ranges(b[0] for b in bad)} players; use fewer copies of "
                "the deck, or allow fewer players")


def _check_deals(c):
    """Deals that need more cards than the deck has, for any allowed number of players.  The
    deals at the top of ``setup`` add up (each takes from what the ones before left); a deal
    anywhere else is compared with the whole deck.  Each deal's count is worked out once per
    number of players, so the work grows with the deals times the counts (at most
    MAX_PLAYERS), never with the deals squared."""
    lo, hi = c.players
    counts = range(lo, hi + 1)
    sizes = {n: _checker_deck_size(c, n) for n in counts}
    setup = c.rules.get("setup")
    top = set()
    if setup is not None:
        top = {id(st) for st in setup.decl.body if isinstance(st, A.Deal)}
    dealt = {n: 0 for n in counts}        # by the deals at the top of setup so far
    deals = [n for n in _walk([r.decl.body for r in c.rules.values()]) if isinstance(n, A.Deal)]
    if setup is not None:                 # the top of setup first, in its order
        first = [st for st in setup.decl.body if isinstance(st, A.Deal)]
        deals = first + [st for st in deals if id(st) not in top]
    for st in deals:
        if st.count is None:
            continue
        ks = _counted(c, st.count, counts)
        bad = []
        for n in counts:
            size, k = sizes[n], ks[n]
            if k is None or isinstance(k, bool):
                continue
            before = dealt[n] if id(st) in top else 0
            if id(st) in top:
                dealt[n] += k * n
            if size is None:
                continue
            if before + k * n > size and before <= size:
                bad.append((n, k, size, before))
        if bad:
            n, k, size, before = bad[0]
            earlier = f" after {before} already dealt" if before else ""
            c.error("RL173", f"dealing {k} cards to each of {n} players needs {k * n} cards{earlier}, "
                    f"but the deck has {size}", st.span,
                    f"this happens with {_ranges(b[0] for b in bad)} players; deal fewer cards, "
                    "use more copies of the deck, or allow fewer players")


def _leaves(st):
    """The words of a statement after which the rest of its block never runs, or None."""
    if isinstance(st, A.Simple) and st.word in ("stop", "return", "end turn"):
        return st.word
    if isinstance(st, A.EndGame):
        return "end game"
    return None


def _type_hint(want, got):
    if want == ZONE and got == CARD:
        return "a card is not a zone; did you mean the zone it is in?"
    if want == NUMBER and got == CARD:
        return "use an attribute of the card, e.g. `rank of c` or `value of c`"
    if want == PLAYER and got == ZONE:
        return "a zone is not a player; `hand of p` is p's hand"
    if want == CARD and got == ZONE:
        return "a zone holds cards; take one with `top of ZONE`"
    if want == FLAG:
        return "a condition is yes or no, e.g. `size of hand is 0`"
    if want == CARD and got == NUMBER:
        return "a number is not a card; take a card with `top of ZONE`, or choose one with `card c from ZONE`"
    if want == PLAYER and got == NUMBER:
        return "a number is not a player; a seat is written `player 2`"
    if want == PLAYER and got == PLAYERS:
        return ("to let a set of players choose, write `simultaneously choose by each opponent:` "
                "(or `each player where ...`); one player is chosen with `player p from opponents`")
    if want == ZONE and got == PLAYER:
        return "a player is not a zone; `hand of p` is p's hand"
    if want == NUMBER and got == FLAG:
        return "yes/no is not a number; `(1 if C else 0)` turns a condition into a number"
    if want == FLAG and got == NUMBER:
        return "compare the number with something, e.g. `x > 0`"
    if want == NUMBER and got == ZONE:
        return "a zone is not a number; did you mean `size of` it?"
    if got == SYMBOL or want == SYMBOL:
        return "words are the values of an option or an attribute; compare them with `is`"
    if {want, got} == {NUMBER, FLAG} or want != got:
        return f"compare or combine values of the same kind (here a {want} and a {got})"
    return None


def _show(v):
    return "yes" if v is True else "no" if v is False else str(v)


_FIELD_NAMES: dict = {}     # class -> names of its attrs fields (None: not an attrs class)


def _fields_of(cls):
    names = _FIELD_NAMES.get(cls, ())
    if names == ():
        names = _FIELD_NAMES[cls] = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else None
    return names


def _walk(node):
    """Every node under ``node``, depth first: lists and tuples are flattened, and from a node
    the walk goes into those of its fields that hold nodes, lists or tuples.  Kept tight: the
    checker walks the whole file several times, and this was a fifth of its time."""
    stack = [node]
    pop, push, extend, get = stack.pop, stack.append, stack.extend, _FIELD_NAMES.get
    seq = (list, tuple)
    while stack:
        n = pop()
        if isinstance(n, seq):
            extend(n)
            continue
        yield n
        names = get(type(n), ())
        if names == ():
            names = _fields_of(type(n))
        for name in names or ():
            v = getattr(n, name)
            if isinstance(v, seq):
                push(v)
            else:
                kind = get(type(v), ())
                if kind == ():
                    kind = _fields_of(type(v))
                if kind is not None:
                    push(v)


def _mentions(decls, cls):
    return any(isinstance(n, cls) for n in _walk(decls))


def _shape(node, refs):
    """A key equal for two checked argument lists that mean the same: the structure without
    spans, with what each node was resolved to; an argument already placed (Arg) by the node
    it stands for."""
    if isinstance(node, Arg):
        while isinstance(node, Arg):
            node = node.expr
        return ("arg", id(node))
    if isinstance(node, tuple):
        return tuple(_shape(x, refs) for x in node)
    if isinstance(node, A.Span):
        return None
    if attrs.has(type(node)):
        ref = refs.get(id(node))
        return (type(node).__name__, ref if isinstance(ref, (tuple, int, type(None))) else id(node)) + \
            tuple(_shape(getattr(node, f.name), refs) for f in attrs.fields(type(node)))
    return node


def _substitute(node, mapping):
    """A copy of an expression with each parameter name replaced by its argument."""
    if isinstance(node, A.Name) and node.name in mapping:
        return mapping[node.name]
    if isinstance(node, tuple):
        return tuple(_substitute(x, mapping) for x in node)
    if isinstance(node, (Arg,)):
        return node
    if attrs.has(type(node)) and isinstance(node, A.Expr):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if isinstance(v, (A.Expr, tuple)):
                changes[f.name] = _substitute(v, mapping)
        return attrs.evolve(node, **changes)
    return node


def check(decls: list, file: str, overrides: dict | None = None,
          players: int | None = None) -> tuple[list[Diagnostic], Model]:
    """Check merged declarations.  Returns every diagnostic and the resolved model (which the
    compiler may use only when no diagnostic is an error)."""
    c = Checker(decls, file, overrides, players)
    with no_gc():
        model = c.run()
    # A mistake inside a define is found again at each use of the define: report it once.
    unique, seen = [], set()
    for d in c.diags:
        key = (d.code, d.message, d.span)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return unique, model
