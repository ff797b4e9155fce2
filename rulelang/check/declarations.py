"""The checks of the declarations, a mixin of :class:`rulelang.check.checker.Checker`: options
(and the values given with ``--set``), the deck and its cards (with the card literals `Q♠` and
`queen of spades`), attributes, variables and families of zones."""
from __future__ import annotations

import attrs

from rulelang.kinds import ANY, CARD, FLAG, NONE, NUMBER, PLAYERS, SYMBOL, ZONE
from rulelang.limits import MAX_NUMBER, MAX_NUMBER_DIGITS, MAX_VALUES
from rulelang.syntax import ast as A
from rulelang.check.hints import _show, did_you_mean
from rulelang.check.ir import (CardLiteral, Const, CurrentPlayer, DefineUse, Local, Symbol, Var, VarOf,
                               Zone, ZoneFamily, ZoneOf)
from rulelang.check.model import BUILTIN_ATTRIBUTES, TYPE_NAMES, OptionInfo, Scope, VarInfo, compatible


class DeclarationChecks:
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
        # (a value given from Python, a log or a save may be a number or yes/no: checked alike)
        if isinstance(raw, bool):
            raw = "yes" if raw else "no"
        elif isinstance(raw, int):
            raw = str(raw) if abs(raw) <= MAX_NUMBER else str(MAX_NUMBER + 1)
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
            # plain decimal digits, with a minus sign or not (`1_0`, `+5` and the digits of other
            # scripts, which int() reads, are refused); more digits than any number may have: RL145
            digits = r[1:] if r.startswith("-") else r
            try:
                if not (digits.isascii() and digits.isdigit()):
                    raise ValueError(r)
                v = int(r) if len(digits) <= MAX_NUMBER_DIGITS else MAX_NUMBER + 1
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
        self.suit_texts: dict = {}
        self.rank_texts: dict = {}
        self.card_names: dict = {}
        # Without a usable deck, the names of the standard deck's cards are still known, so
        # that every `queen` and `hearts` is not reported as well.
        fallback = self.deck_types.get("standard") or next(iter(self.deck_types.values()), None)
        self.types_used: list = []        # the deck types of the `deck` lines, each once
        if not self.decks:
            self.error("RL160", "the game does not say which cards it is played with",
                       self.file_span(), "add a line such as `deck standard, into stock`")
        for d in self.decks:
            dt = self.deck_types.get(d.name)
            if dt is None:
                self.error("RL161", f"there is no deck type `{d.name}`", d.span,
                           did_you_mean(d.name, self.deck_types) or
                           "declare it with `deck type NAME:` or use `standard`")
            elif dt not in self.types_used:
                self.types_used.append(dt)
        if not self.types_used and fallback is not None:
            self.types_used.append(fallback)
        for dt in self.types_used:
            self.build_deck_type(dt)
        for name in self.suits:
            if name in self.ranks:
                self.error("RL164", f"`{name}` is both a suit and a rank",
                           self.types_used[0].span, "rename one")

    def build_deck_type(self, dt):
        """The suits, ranks and extra cards of one deck type the game uses."""
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
                if r.symbol is not None and len(r.symbol) > 2:
                    self.rank_texts.setdefault(r.name, r.symbol)

        def add_suit(s):
            if s.name not in self.suits:
                self.suits.append(s.name)
                self.suit_symbols[s.name] = s.symbol
                if s.symbol is not None and len(s.symbol) > 2:
                    self.suit_texts[s.name] = s.symbol

        for s in dt.suits:
            add_suit(s)
        add_ranks(dt.ranks)
        for suit, ranks in dt.own_suits:
            add_suit(suit)
            add_ranks(ranks)
        groups = set()
        for group, names, rank in dt.extras:
            groups.add(group)
            add_ranks([rank])
            for n, sp in names:
                self.card_names[n] = (group, self.ranks[rank.name])
        for d in self.decks:
            if d.with_group is not None and d.with_group not in groups and dt.name == d.name:
                self.error("RL163", f"deck `{dt.name}` has no extra cards called `{d.with_group}`",
                           d.span, did_you_mean(d.with_group, groups) or
                           (f"its extra groups are: {', '.join(sorted(groups))}" if groups else
                            f"deck `{dt.name}` has no extra cards"))
        self.check_deck_copies(dt)
        self.check_shown_as(dt)

    def check_deck_copies(self, dt):
        """`copies N of 1 to 9, skip in red, blue`: every name is a rank, suit or extra card of
        the deck type (RL101), N is at least 1 and a range holds a rank (RL175), and no card is
        given its number twice (RL174)."""
        ranks = {r.name: self.ranks[r.name] for r in dt.ranks}
        for _s, own in dt.own_suits:
            ranks.update((r.name, self.ranks[r.name]) for r in own)
        for _g, _names, r in dt.extras:
            ranks[r.name] = self.ranks[r.name]
        suits = [s.name for s in dt.suits] + [s.name for s, _r in dt.own_suits]
        extras = [n for _g, names, _r in dt.extras for n, _sp in names]
        known = list(ranks) + suits + extras
        from rulelang.check.deals import copies_matching
        for c in dt.copies:
            if c.count < 1:
                self.error("RL175", f"`copies {c.count}` makes no card", c.span,
                           "a card the deck does not have is left out of its ranks; the "
                           "number of copies is 1 or more")
            for first, last, sp in c.parts:
                for name in (first, last):
                    if name is not None and name not in known:
                        self.error("RL101", f"`{name}` is not a rank, suit or card of deck type "
                                   f"`{dt.name}`", sp, did_you_mean(name, known))
                if last is not None and first in ranks and last in ranks \
                        and ranks[first] > ranks[last]:
                    self.error("RL175", f"`{first} to {last}` holds no rank: {first} is "
                               f"numbered {ranks[first]}, {last} {ranks[last]}", sp,
                               f"write the lower rank first: `{last} to {first}`")
            for name, sp in c.in_suits:
                if name not in suits:
                    self.error("RL101", f"`{name}` is not a suit of deck type `{dt.name}`", sp,
                               did_you_mean(name, suits))
        cards = [(r.name, s.name, None) for s in dt.suits for r in dt.ranks]
        cards += [(r.name, s.name, None) for s, own in dt.own_suits for r in own]
        cards += [(r.name, None, n) for _g, names, r in dt.extras for n, _sp in names]
        told = set()
        for rank, suit, extra in cards:
            lines = [c for c in dt.copies if copies_matching(dt, ranks, c, rank, suit, extra)]
            if len(lines) > 1 and id(lines[1]) not in told:
                told.add(id(lines[1]))
                card = extra or (f"{rank} of {suit}")
                self.error("RL174", f"the card `{card}` is given a number of copies twice "
                           f"(lines {lines[0].span.line} and {lines[1].span.line})",
                           lines[1].span, "name every card in one `copies` line at most")

    def check_shown_as(self, dt):
        """`cards shown as "{suit} {rank}"`: the text names the rank (RL176), and nothing
        else in braces."""
        if dt.shown_as is None:
            return
        import re
        others = [w for w in re.findall(r"\{([^{}]*)\}", dt.shown_as) if w not in ("rank", "suit")]
        if "{rank}" not in dt.shown_as or others:
            self.error("RL176", f"`cards shown as \"{dt.shown_as}\"` " +
                       (f"names `{{{others[0]}}}`" if others else "does not show the rank"),
                       dt.shown_span, "write the card's parts as `{rank}` and `{suit}`, as in "
                       "`cards shown as \"{suit} {rank}\"`")

    def check_deck_decl(self):
        for d in self.decks:
            self.check_one_deck(d)

    def check_one_deck(self, d):
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
                elif isinstance(sel, tuple):        # a card literal, `Q♠: 13`
                    found = (self.card_literal(sel[1], sp) if sel[0] == "card"
                             else self.card_named(sel[2], sel[3], sp))
                    if found is not None:
                        self.refs.set_card_literal(sel[1], CardLiteral(*found))
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
            self.refs.set(expr, Symbol(self.symbols[expr.name]))
            self.types.set(expr, SYMBOL)
            return SYMBOL
        if isinstance(expr, A.NoneLit):
            self.types.set(expr, NONE)
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

    def check_value_sets(self, decls):
        """``values NAME: A, B, C`` (docs/language.md, "Named values"): each value a symbol, the
        values of a set given consecutive ids in their order, so that comparing two ids compares
        the values.  Checked before anything else makes a symbol."""
        self.value_sets = {}            # set name -> (first id, names)
        self.value_texts = {}
        self.set_of_value = {}          # value name -> its set's name
        for d in decls:                 # (a set declared twice is RL120)
            self.reserved(d.name, d.span, "a set of values")
            if len(self.symbols) + len(d.values) > MAX_VALUES:
                self.error("RL261", f"`{d.name}` brings the file's named values to "
                           f"{len(self.symbols) + len(d.values)}, more than the {MAX_VALUES} "
                           "a file may declare", d.span, "declare fewer values")
                continue
            first, names = len(self.symbols), []
            for name, text, span in d.values:
                if name in self.set_of_value or name in names:
                    self.error("RL260", f"`{name}` is already a value of `"
                               f"{self.set_of_value.get(name, d.name)}`", span,
                               "a name is a value of one set only; give it another name")
                    continue
                self.reserved(name, span, "a value")
                self.symbols[name] = len(self.symbols)
                self.set_of_value[name] = d.name
                names.append(name)
                if text is not None:
                    self.value_texts[name] = text
            self.value_sets[d.name] = (first, tuple(names))

    def value_set_of(self, e, s):
        """The set of values ``e`` is one of, when known from the rules: a value's name, a
        variable or a parameter declared of a set, a value chosen from a set, or a define or
        conditional made of these; else None."""
        ref = self.refs.of(e, None)
        if isinstance(e, A.Name):
            if isinstance(ref, Local):
                return self.value_slots.get((id(s.owner), ref.slot))
            if isinstance(ref, Var):
                return self.vars[ref.name].decl.type if self.vars[ref.name].decl.type in \
                    self.value_sets else None
            if isinstance(ref, Const):
                return self.set_of_value.get(e.name) if s.lookup(e.name) is None else None
        if isinstance(e, A.Of) and isinstance(ref, VarOf):
            t = self.vars[ref.name].decl.type
            return t if t in self.value_sets else None
        if isinstance(e, A.Cases):
            found = {self.value_set_of(v, s) for v, _c in e.cases} | {self.value_set_of(e.default, s)}
            return found.pop() if len(found) == 1 else None
        return None

    def check_var(self, v: A.Var):
        if getattr(v, "per_team", False):       # (check/teamvars.py)
            self.check_team_var(v)
        if v.type is not None and v.type.startswith("set of "):     # (check/sets.py)
            self.vars[v.name] = VarInfo(v, self.set_kind(v) or ANY)
            return
        s = Scope(self.var_ctx)
        t = self.expr(v.init, s)
        if v.name.startswith(" "):             # a rule's result: its kind comes from `return`
            self.vars[v.name] = VarInfo(v, ANY)
            return
        if v.type is not None and v.type in self.value_sets:
            if t not in (SYMBOL, NONE) or (t == SYMBOL and self.value_set_of(v.init, s) != v.type):
                self.error("RL262", f"variable `{v.name}` is one of the values `{v.type}`, but "
                           "starts as something else", v.init.span,
                           f"start it as one of {', '.join(self.value_sets[v.type][1][:3])} ... "
                           "or `none`")
            t = SYMBOL
        elif v.type is not None:
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

    # -- progress
    def check_progress(self, d: A.Progress):
        """``progress: EXPR``: a number for the player measured (``you``) that the measures of
        ``rulelang stats`` read to say who leads.  One that reads nothing of the game (no zone,
        variable, score or count of turns, directly or through a define) is the same all game
        long, so it could never say who leads: RL188."""
        before = len(self.diags)
        self.expect(d.expr, NUMBER, Scope(self.progress_ctx), "the progress")
        if len(self.diags) == before and not self._reads_the_game(d.expr, set()):
            self.warning("RL188", "the progress reads nothing of the game: it is the same for "
                         "every player all game long, so it cannot say who leads", d.expr.span,
                         "measure something that changes, e.g. `progress: 0 - size of hand` "
                         "(fewer cards in hand is further)")

    def check_returns(self, d: A.Returns):
        """``returns: EXPR``: a number for each player (``you``) at the end of the game, what
        search and learning programs get in place of +1 for a win and -1 otherwise.  One that
        reads nothing of the game gives every player the same in every game, so it could
        never tell a good play from a bad one: RL335."""
        before = len(self.diags)
        self.expect(d.expr, NUMBER, Scope(self.returns_ctx), "the returns")
        if len(self.diags) == before and not self._reads_the_game(d.expr, set()):
            self.warning("RL335", "the returns read nothing of the game: every player gets "
                         "the same in every game, so no play is better than another",
                         d.expr.span, "return what the game scores, e.g. `returns: score of you`")

    def _reads_the_game(self, e, seen) -> bool:
        """Whether the checked expression ``e`` reads the state of a game: a zone, a variable,
        the current player, the count of turns, a score or a random card."""
        if isinstance(e, (list, tuple)):
            return any(self._reads_the_game(x, seen) for x in e)
        if not attrs.has(type(e)) or isinstance(e, A.Span) or id(e) in seen:
            return False
        seen.add(id(e))
        ref = self.refs.of(e, None)
        if isinstance(ref, (Var, VarOf, Zone, ZoneOf, ZoneFamily, CurrentPlayer)):
            return True
        if isinstance(ref, DefineUse) and self._reads_the_game(ref.expanded, seen):
            return True
        if isinstance(e, A.Keyword) and e.word == "number of turns":
            return True
        if isinstance(e, A.Unary) and e.op in ("score", "random card"):
            return True
        return any(self._reads_the_game(getattr(e, f.name), seen) for f in attrs.fields(type(e)))

    def check_zone_families(self):
        """``zone column 1 to 7: ...`` (docs/language.md, "Families of zones"): the parser made
        the zones column_1 to column_7; here each family is known by its name, as
        (first, last, zone names), and its misuse reported."""
        self.zone_families = {}
        self.family_per_player = {}     # family name -> each player has one (`per player`)
        for z in self.zones.values():
            if z.family is None:
                continue
            name, k, lo, hi = z.family
            fam = self.zone_families.get(name)
            if fam is None:
                fam = self.zone_families[name] = (lo, hi, [])
                self.family_per_player[name] = z.per_player
                if hi < lo or hi - lo >= 100:
                    self.error("RL253", f"zone family `{name}` from {lo} to {hi}: a family "
                               "holds 1 to 100 zones", z.span, "e.g. `zone column 1 to 7: ...`")
                if name in self.zones:
                    self.error("RL253", f"zone family `{name}` has the name of a zone",
                               z.span, "give the family or the zone another name")
            fam[2].append(z.name)

    def card_literal(self, text, span):
        """The (rank, suit) of a card literal such as `Q♠`: its rank as shown (or the rank's name
        or number) and its suit's sign, which must be a card of the deck (RL240)."""
        pairs = []
        for dt in self.types_used:
            pairs += [(r, su) for su in dt.suits for r in dt.ranks]
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
        pairs = []
        for dt in self.types_used:
            pairs += [(r.name, su.name) for su in dt.suits for r in dt.ranks]
            pairs += [(r.name, su.name) for su, ranks in dt.own_suits for r in ranks]
        if (rank, suit) in pairs:
            return (rank, suit)
        self.error("RL240", f"`{rank} of {suit}` is not a card of this deck", span,
                   f"the suit `{suit}` has its own ranks" if self.types_used else None)
        return None
