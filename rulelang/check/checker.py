"""Stage 2: check a parsed rule file and resolve what every name means.

:func:`rulelang.check.variants.merge` lays a variant over the file it ``extends``; :func:`check`
then walks every declaration, collecting *all* diagnostics (it never stops at the first), and
produces a :class:`Model`: the declarations by name, the deck, and for every expression node what
it refers to and its type.  The compiler reads only the model.

A use of a ``define`` refers to a checked copy of the body in which the parameters are the
arguments (:class:`Expanded` and :class:`Arg` keep track of whose names are whose); uses with the
same arguments in the same place share one copy (:meth:`Checker.expand`).

This module holds the :class:`Checker`'s core (the driver :meth:`Checker.run`, reporting, rules
and blocks, ``expect``/``expr``, the whole-game checks) and :func:`check`; its mixins check the
declarations (:mod:`~rulelang.check.declarations`), statements
(:mod:`~rulelang.check.statements`), expressions (:mod:`~rulelang.check.expressions`) and hidden
information (:mod:`~rulelang.check.visibility`).
"""
from __future__ import annotations

from rulelang.kinds import ANY, FLAG, NONE, NUMBER, PLAYER, SYMBOL
from rulelang.limits import MAX_EXPR_DEPTH, MAX_PLAYERS, no_gc
from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, WARNING, Diagnostic
from rulelang.syntax.vocabulary import OF_WORDS, RESERVED_WORDS
from rulelang.check.auctions import Auctions
from rulelang.check.deals import _check_deals, _check_deck_size
from rulelang.check.declarations import DeclarationChecks
from rulelang.check.expressions import ExpressionChecks
from rulelang.check.hints import HINT_BUDGET, _hint_budget, _type_hint, did_you_mean, set_hint
from rulelang.check.ir import (ChooseSlotsTable, LabelsTable, Local, NodeSet, PicksTable, Refs, SayAsTable,
                               TypesTable, UnseenTable, SetsTable)
from rulelang.check.model import TYPE_NAMES, Context, Model, RuleInfo, Scope, compatible
from rulelang.check.sets import SetChecks, rewrite_keyed_of, rewrite_sets, set_names
from rulelang.check.statements import StatementChecks, _leaves
from rulelang.check.tree import _mentions, _walk
from rulelang.check.teams import TeamChecks
from rulelang.check.teamvars import TeamVarChecks
from rulelang.check.visibility import VisibilityChecks


# A rule is checked at its first call, inside the check of the caller (so that its parameters'
# types are learnt from that call); a chain deeper than this is checked from a loop instead.
RULE_CHECK_DEPTH = 4


class Checker(DeclarationChecks, StatementChecks, ExpressionChecks, VisibilityChecks, SetChecks,
              TeamChecks, TeamVarChecks, Auctions):
    """Checks merged declarations (:meth:`run`) and fills the :class:`Model`."""

    def __init__(self, decls: list, file: str, overrides: dict | None = None,
                 players: int | None = None):
        self.decls = decls
        self.file = file
        self.overrides = overrides or {}
        self.players_asked = players
        self.diags: list[Diagnostic] = []
        self.refs = Refs()
        self.where_of: dict = {}      # id of a `where` condition -> its CardQuery (for hints)
        self.texts: dict = {}         # text -> its index (a text value is that number)
        self.say_as = SayAsTable()
        self.rank_slots: set = set()  # (id(owner), slot) of locals that hold a rank
        self.value_slots: dict = {}   # (id(owner), slot) of locals that hold a named value -> set
        self.types = TypesTable()
        self.seat_uses = NodeSet()        # see Model.seat_uses
        # The player of a loop over players is a seat unless a `set` changes it: (id(owner),
        # slot) of such loops' players, of the locals that a `set` changes, and the uses as a
        # player of a loop's player, decided when the whole file is checked (seat_uses_of_loops).
        self.player_slots: dict = {}      # (id(owner), slot) -> owner (kept alive: its id is the key)
        self.set_slots: set = set()
        self.loop_seat_uses: list = []
        self.seat_names: list = []        # (name, (id(owner), slot)): a read of such a player
        self.labels = LabelsTable()
        self.alternatives: list = []
        self.choose_slots = ChooseSlotsTable()
        self.expanding: list = []
        self.expansions: dict = {}     # see expand: one checked copy per define, place and args
        self.named_rules: set = set()     # rules named in an error (so not "never run" too)
        self.card_choices: list = []      # card alternatives, for check_choice_visibility
        self.picks = PicksTable()         # several cards in one step: see cards_param
        self.unseen = UnseenTable()       # cards chosen unseen: see unseen_param
        self.sets = SetsTable()           # a set of cards in one choice: see set_param
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
        self.decls = self.rule_values(self.lower_auctions(self.decls))
        self.decls = rewrite_sets(self.decls, set_names(self.decls))
        self.decls = rewrite_keyed_of(self.decls)      # `foundation of hearts` (check/sets.py)
        self.set_values_of: dict = {}       # a variable that is a set of named values -> the set
        self.keyed_families: dict = {}      # a family of zones by suit or rank -> "suit"/"rank"
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
        self.check_value_sets(by_type.get(A.ValueSet, []))    # first: each set's ids in order
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
        self.decks = by_type.get(A.Deck, [])     # several `deck` lines: a game of several decks
        self.deck = self.decks[0] if self.decks else None
        self.build_cards()

        self.zones = {z.name: z for z in self.expand_keyed_zones(by_type.get(A.Zone, []))}
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
                    if ptype in self.value_sets:
                        r.param_types[i] = SYMBOL
                    elif ptype not in TYPE_NAMES:
                        self.error("RL104", f"unknown type `{ptype}`", r.decl.span,
                                   "types are number, flag, card, player, suit, rank")
                    else:
                        r.param_types[i] = TYPE_NAMES[ptype]
        self.vars = {}
        self.var_ctx = Context()
        self.check_teams(by_type.get(A.Teams, []))      # (its two values first: a var may read them)
        for v in by_type.get(A.Var, []):
            self.check_var(v)
        # Players who leave the game: a public number per player, `out` (0 while in, then 1 for
        # the first player to leave, 2 for the second...), that the runtime keeps to
        # (turn order, dealing, `for each player` and the conditions over players skip them).
        leaving = [n for n in _walk(self.decls) if isinstance(n, (A.Leave, A.IsOut))]
        self.players_leave = bool(leaving)
        self.out_var = "out"
        if leaving:     # a variable of the file called `out` is the file's own, not the flag
            if "out" in self.vars:
                self.out_var = "(out)"
            sp = leaving[0].span
            self.check_var(A.Var(self.out_var, "number", True, A.Int(0, sp), False, sp,
                                 display=None if self.out_var == "out" else "out"))
        self.score_ctx = Context()
        if self.score is not None:
            s = Scope(self.score_ctx)
            self.in_score = True
            try:
                self.expect(self.score.expr, NUMBER, s, "a score")
            finally:
                self.in_score = False

        self.progress = first(A.Progress)
        self.progress_ctx = Context()
        if self.progress is not None:
            self.check_progress(self.progress)
        self.returns = first(A.Returns)
        self.returns_ctx = Context()
        if self.returns is not None:
            self.check_returns(self.returns)

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
            progress=self.progress, progress_ctx=self.progress_ctx,
            returns=self.returns, returns_ctx=self.returns_ctx,
            var_ctx=self.var_ctx, attr_ctx=self.attr_ctx, refs=self.refs, types=self.types,
            labels=self.labels, alternatives=self.alternatives, choose_slots=self.choose_slots,
            texts=sorted(self.texts, key=self.texts.get), say_as=self.say_as,
            value_sets=self.value_sets, value_texts=self.value_texts, set_values=self.set_values_of,
            auctions=tuple(getattr(self, "auctions_written", ())),
            players_leave=self.players_leave, out_var=self.out_var, picks=self.picks, unseen=self.unseen, sets=self.sets,
            shows=self.shows, seat_uses=self.seat_uses_of_loops(), always_seats=self.always_seats(),
            decks=tuple(self.decks), teams=self.teams,
            reads_played=getattr(self, "reads_played", False),
            suit_texts=self.suit_texts, rank_texts=self.rank_texts)

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
    def reserved(self, name, span, what, before_of=False):
        """A word of the language that is a value by itself (`you`, `players`) cannot name
        something: where it is used it would be read as the language's word, so it is refused
        where it is declared.  A name used before `of` (an attribute, a rank, a variable or zone
        per player: `points of c`) cannot be a word that begins a value with `of` either (`top
        of`).  Any other word is a name where the file declares it (`var out`, `let top`)."""
        if name in RESERVED_WORDS or (before_of and name in OF_WORDS):
            from rulelang.syntax.syntax_errors import reserved_message
            self.error("RL114", *reserved_message(name, what)[:1], span, reserved_message(name, what)[1])

    def check_declared_names(self, by_type):
        kinds = ((A.Var, "a variable"), (A.Define, "a define"), (A.Rule, "a rule"),
                 (A.Zone, "a zone"), (A.Option, "an option"), (A.Attribute, "an attribute"))
        for typ, what in kinds:
            for d in by_type.get(typ, []):
                if typ is A.Attribute and d.name in ("rank", "suit"):
                    continue                  # RL165 says more
                self.reserved(d.name, d.span, what, before_of=typ is A.Attribute
                              or (typ in (A.Var, A.Zone) and d.per_player))
                for pname, _ in getattr(d, "params", None) or ():
                    self.reserved(pname, d.span, "a parameter")
        for d in by_type.get(A.DeckType, []):
            for sd in d.suits:
                self.reserved(sd.name, sd.span, "a suit")
            for rd in d.ranks:
                self.reserved(rd.name, rd.span, "a rank", before_of=True)
            for sd, ranks in d.own_suits:
                self.reserved(sd.name, sd.span, "a suit")
                for rd in ranks:
                    self.reserved(rd.name, rd.span, "a rank", before_of=True)

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
        m = getattr(self, "st_" + type(st).__name__, None)
        if m is None:               # a statement checked by its declared parts alone
            self.check_parts(st, s)
        else:
            m(st, s)

    def check_parts(self, st, s: Scope):
        """Each part of ``st`` that declares its kind (:func:`rulelang.syntax.ast.part`) is a
        value of that kind; a player part names a seat."""
        for name, kind, what in A.parts(type(st)):
            value = getattr(st, name)
            if value is None:
                continue
            if kind == PLAYER:
                self.expect_seat(value, s, what)
            else:
                self.expect(value, kind, s, what)

    # -- expressions
    def expect(self, e, want, s, what, set_target=None):
        """``set_target``: the name `set` gives a new value (its hint says what to set it to)."""
        t = self.expr(e, s)
        if not compatible(want, t):
            self.error("RL102", f"{what} must be a {want}, but this is a {t}", e.span,
                       _type_hint(want, t) if set_target is None else
                       set_hint(want, t, set_target))
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
            ref = self.refs.of(e, None) if isinstance(e, A.Name) else None
            key = (id(s.owner), ref.slot) if isinstance(ref, Local) else None
            if key is not None and key in self.player_slots:
                self.loop_seat_uses.append((e, key))
            else:
                self.seat_uses.add(e)
        return t

    def always_seats(self) -> NodeSet:
        """The names read of a loop's or a choice's player that no `set` changes: always a seat
        (model.always_seats)."""
        out = NodeSet()
        for e, key in self.seat_names:
            if key not in self.set_slots:
                out.add(e)
        self.seat_names = []
        return out

    def seat_uses_of_loops(self) -> NodeSet:
        """``seat_uses`` with the uses of a loop's player that a `set` may change (to `none`):
        the others are always a seat, and their code needs no test."""
        for e, key in self.loop_seat_uses:
            if key in self.set_slots:
                self.seat_uses.add(e)
        self.loop_seat_uses = []
        return self.seat_uses

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
        self.types.set(e, t)
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
        for d in self.decks:
            if d.per_player_into:
                used_names.add(d.per_player_into)
        for z in self.zones.values():
            if z.name not in used_names:
                self.warning("RL192", f"zone `{z.name}` is never used", z.span,
                             "delete it, or use it")
        for o in self.options.values():
            if o.decl.name not in used_names and o.decl.span.file != "<prelude>":
                self.warning("RL193", f"option `{o.decl.name}` is never used", o.decl.span,
                             "use it in a rule, or delete it")


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
