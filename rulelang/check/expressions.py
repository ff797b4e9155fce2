"""The checks of the expressions (``Checker.ex_<Node>``), a mixin of
:class:`rulelang.check.checker.Checker`: each gives the kind of its value and resolves its names
(``ex_Name``, ``ex_Of``); a use of a ``define`` is checked as a copy of its body, one copy for the
uses with the same arguments in the same place (:meth:`ExpressionChecks.expand`)."""
from __future__ import annotations

import attrs

from rulelang.kinds import (ANY, CARD, FLAG, NONE, NUMBER, PLAYER, PLAYERS, SET_KINDS, SUIT, SYMBOL, TEXT,
                            ZONE, Kind)
from rulelang.limits import MAX_RANGE
from rulelang.syntax import ast as A
from rulelang.check.constants import _counted, _ranges
from rulelang.check.hints import _hint_budget, _type_hint, did_you_mean
from rulelang.check.ir import (Attribute, CardLiteral, CardName, Const, DefineUse, Local, PlayerQuerySlots, Rank,
                               Slot, Suit, Var, VarOf, You, Zone, ZoneFamily, ZoneOf)
from rulelang.check.model import BUILTIN_ATTRIBUTES, TYPE_NAMES, Arg, Expanded, Scope, compatible
from rulelang.check.tree import _shape, _substitute


class ExpressionChecks:
    def ex_Text(self, e, s):
        self.refs.set(e, Const(self.texts.setdefault(e.value, len(self.texts))))
        return TEXT

    def ex_IsOut(self, e, s):
        self.expect_seat(e.player, s, "`is out`'s player")
        return FLAG

    def ex_PlayerQuery(self, e, s):
        inner = s.child()
        slot = inner.new_slot("player", PLAYER)
        self.refs.set(e, PlayerQuerySlots(slot, s.you_slot))
        self.player_slots[id(inner.owner), slot] = inner.owner
        if e.kind.startswith("each "):
            self.error("RL232", f"`each {e.kind[5:]}` decides: the players who decide together "
                       "are `each player` or `each opponent`", e.span,
                       "write `each player where ...` for some of the players")
        if e.kind.startswith("each") or e.kind == "others":
            self.expect(e.condition, FLAG, inner, "the condition on `player`")
            return PLAYERS
        if e.kind in ("highest", "lowest", "total"):
            what = "total of ... among players" if e.kind == "total" else f"{e.kind} ... among players"
            self.expect(e.condition, NUMBER, inner, f"the value of `{what}`")
            if e.where is not None:
                self.expect(e.where, FLAG, inner, "the condition on `player`")
            return NUMBER
        if e.kind in ("best", "worst"):     # `player with highest V`
            self.expect(e.condition, NUMBER, inner, "the value of `player with ...`")
            return PLAYER
        self.expect(e.condition, FLAG, inner, "the condition on `player`")
        return {"count": NUMBER, "next": PLAYER}.get(e.kind, FLAG)

    def ex_CardLit(self, e, s):
        found = self.card_literal(e.text, e.span)
        if found is not None:
            self.refs.set(e, CardLiteral(*found))
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
        self.refs.set(e, Slot(inner.new_slot("card", CARD)))
        if e.value is None:             # `first card in Z where C`, `last card ...`
            self.where_of[id(e.condition)] = e
            self.expect(e.condition, FLAG, inner, "the condition on `card`")
            if not self._uses_name(e.condition, "card"):
                self.error("RL306", f"the condition of `{e.kind} in Z where C` does not depend "
                           "on `card`: it holds for every card or for none", e.condition.span,
                           f"ask about `card`, e.g. `{e.kind} in pile where rank of card is king`;"
                           f" for the {'bottom' if e.kind == 'first card' else 'top'} card "
                           f"write `{'bottom' if e.kind == 'first card' else 'top'} of Z`")
            return CARD
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
            self.range_bound(e)
        inner = s.child()
        self.refs.set(e, Slot(inner.new_slot(e.name, NUMBER)))
        self.where_of[id(e.condition)] = e
        self.expect(e.condition, FLAG, inner, f"the condition on `{e.name}`")
        if not self._uses_name(e.condition, e.name):
            self.error("RL242", f"the condition of `{e.kind} {e.of} {e.name}` does not depend on "
                       f"`{e.name}`: it holds for every {e.of} or for none", e.condition.span,
                       f"ask about `{e.name}`, e.g. `where (number of cards in hand where rank of "
                       f"card is {e.name}) >= 2`")
        return NUMBER

    def ex_ArgBest(self, e, s):
        self.reserved(e.name, e.span, f"a {e.of}")
        inner = s.child()
        self.refs.set(e, Slot(inner.new_slot(e.name, SUIT if e.of == "suit" else NUMBER)))
        phrase = f"`{e.of} {e.name} with {e.kind} V`"
        t = self.expr(e.value, inner)
        if not compatible(NUMBER, t):
            self.error("RL241", f"{phrase} compares numbers, but this is a {t}", e.value.span,
                       f"give a number of each {e.of}, such as `number of cards in hand where "
                       f"{e.of} of card is {e.name}`")
        elif not self._uses_name(e.value, e.name):
            self.error("RL242", f"the value of {phrase} does not depend on `{e.name}`: it is the "
                       f"same for every {e.of}", e.value.span,
                       f"ask about `{e.name}`, e.g. `number of cards in hand where {e.of} of card "
                       f"is {e.name}`")
        return SUIT if e.of == "suit" else NUMBER

    def ex_PilePlace(self, e, s):
        """``card N from top of Z``, ``card under c in Z`` (docs/language.md, "Positions in a
        pile")."""
        self.expect(e.zone, ZONE, s, f"the zone of `card {e.kind}`")
        if e.kind in ("under", "above"):
            self.expect(e.at, CARD, s, f"the card that the card {e.kind} it is asked of")
            return CARD
        self.expect(e.at, NUMBER, s, "the card's place (1 is the top card)"
                    if e.kind == "from top" else "the card's place (1 is the bottom card)")
        at = e.at
        if (isinstance(at, A.Int) and at.value < 1) or (isinstance(at, A.Unary) and at.op == "neg"):
            end = e.kind.split()[1]
            self.error("RL305", f"`card {getattr(at, 'value', '-')} {e.kind}` names no card: "
                       f"the places count from 1, the {end} card", at.span,
                       f"write `card 1 {e.kind} of ...` for the {end} card itself")
        return CARD

    def ex_Holder(self, e, s):
        self.expect(e.card, CARD, s, "the card of `player who has`")
        if not any(z.per_player for z in self.zones.values()):
            self.error("RL196", "`player who has c` looks in the zones of each player, and this "
                       "game has none", e.span, "declare a zone `per player`, such as a hand")
        return PLAYER

    def ex_PlayedBy(self, e, s):
        """`who played c` (docs/language.md, "Who played a card"): the game keeps, for each
        card, who played it (only a game that reads it: ``Model.reads_played``)."""
        self.expect(e.card, CARD, s, "the card of `who played`")
        self.reads_played = True
        if not any(z.per_player for z in self.zones.values()) or \
                all(z.per_player for z in self.zones.values()):
            self.error("RL340", "`who played c` names the player whose own zone the card left "
                       "for a shared zone, and this game has "
                       + ("no zone of a player" if not any(z.per_player for z in self.zones.values())
                          else "no shared zone"), e.span,
                       "a card is played from a zone `per player` (a hand) to a `shared` one "
                       "(a trick, a discard pile)")
        card = e.card
        if isinstance(card, A.Unary) and card.op in ("top", "bottom", "random card"):
            ref = self.refs.of(card.operand, None)
            if isinstance(ref, ZoneOf) or (isinstance(ref, Zone) and ref.per_player):
                self.warning("RL341", f"`who played {card.op} of {ref.name}` is always `none`: a "
                             f"card in a zone of a player (`{ref.name}` is `per player`) has been "
                             "played by nobody", e.span,
                             "ask of a card of a shared zone (`who played top of trick`)")
        return PLAYER

    def ex_Int(self, e, s): return NUMBER
    def ex_Bool(self, e, s): return FLAG
    def ex_NoneLit(self, e, s): return NONE

    def ex_Keyword(self, e, s):
        self.refs.set(e, You(s.you_slot))
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
        if op == "size":                # of a zone, or of any value that is a set (a local)
            self.expect_zone_or_set(e.operand, s, "`size of`'s zone")
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
        self.refs.set(e, Slot(inner.new_slot(e.name, NUMBER)))
        self.expect(e.condition, FLAG, inner, f"the condition on `{e.name}`")
        self.range_bound(e)
        return FLAG

    def range_bound(self, e):
        """RL251: the range of ``any number n from A to B`` or ``highest/lowest number n from A
        to B``, written as numbers, holds more than MAX_RANGE numbers (reached while the game is
        played, the game stops with RL257: engine/values.number_range)."""
        lo, hi = e.low, e.high
        if isinstance(lo, A.Int) and isinstance(hi, A.Int) and hi.value - lo.value >= MAX_RANGE:
            self.error("RL251", f"{hi.value - lo.value + 1} numbers is more than the "
                       f"{MAX_RANGE} a range may hold", e.span,
                       "a range is tried number by number: keep it to what the game can reach")

    def zone_of_family(self, e, s):
        """``column(k)``: the zone numbered k of the family ``column``."""
        lo, hi, names = self.zone_families[e.name]
        if len(e.args) != 1:
            self.error("RL255", f"`{e.name}(...)` takes one number, the zone's number in the "
                       f"family ({lo} to {hi})", e.span, f"e.g. `{e.name}({lo})`")
            for a in e.args:
                self.expr(a, s)
            return ZONE
        k = e.args[0]
        if e.name in self.keyed_families:       # by suit or rank (check/sets.py)
            self.key_of_family(e, s, e.name, lo, hi)
        else:
            self.expect(e.args[0], NUMBER, s, f"the number of the {e.name}")
        if isinstance(k, A.Int) and not lo <= k.value <= hi and e.name not in self.keyed_families:
            self.error("RL255", f"there is no {e.name} {k.value}: the family `{e.name}` is "
                       f"numbered {lo} to {hi}", k.span, None)
        if not self.family_per_player.get(e.name):
            if e.owner is not None:
                self.owner_of_shared(e, s)
            self.refs.set(e, ZoneFamily(tuple(names), lo, keyed=self.keyed_families.get(e.name)))
            return ZONE
        # Each player's family: `pile(k)` is your pile k, `pile(k) of p` is p's.
        if e.owner is not None:
            self.expect_seat(e.owner, s, f"the player whose {e.name} it is")
        self.refs.set(e, ZoneFamily(tuple(names), lo, per_player=True,
                                    you=s.you_slot if e.owner is None else None,
                                    keyed=self.keyed_families.get(e.name)))
        return ZONE

    def owner_of_shared(self, e, s):
        """`column(k) of p` of a shared family, or `f(x) of p` of a define (RL254)."""
        self.expr(e.owner, s)
        what = (f"the zones of the family `{e.name}` are shared" if e.name in self.zone_families
                else f"`{e.name}` is not a family of zones")
        self.error("RL254", f"`{e.name}(...) of ...`: {what}; only a family declared "
                   "`per player` has a zone of each player", e.owner.span,
                   f"declare `zone {e.name} 1 to N: per player, ...`" if e.name in self.zone_families
                   else "leave out `of ...`")

    def ex_MeldLeft(self, e, s):
        """Sets and runs (docs/language.md, "Sets and runs"): the attribute must be a number,
        as for `total`; runs need the deck's rank order, which every deck has."""
        if e.lay_off is not None:
            self.expect(e.lay_off, ZONE, s, "the zone whose sets and runs the cards may join")
        return self.ex_TotalOf(e, s)

    def ex_Combos(self, e, s):
        """Counts over the combinations of a zone's cards (docs/language.md, "Combinations of
        cards"): a total by a number attribute (RL290), runs in a game with ranks in order
        (RL291), the most of one suit in a game with suits (RL292)."""
        self.expect(e.zone, ZONE, s, "the zone whose cards are counted")
        if e.kind == "sum":
            self.expect(e.target, NUMBER, s, "the total the combinations must make")
            a = self.attributes.get(e.attribute) if e.attribute != "rank" else (None, NUMBER)
            if a is None:
                self.error("RL101", f"there is no card attribute `{e.attribute}`", e.span,
                           did_you_mean(e.attribute, list(self.attributes) + ["rank"]))
            elif a[1] != NUMBER:
                self.error("RL290", f"attribute `{e.attribute}` is a word: combinations are "
                           "counted by a total of numbers", e.span,
                           "give the cards a number attribute (`attribute points:` with numbers) "
                           "and total that")
        elif e.kind in ("run", "runs") and not any(
                (dt.suits and dt.ranks) or dt.own_suits for dt in self.types_used):
            self.error("RL291", "a run is of ranks one after the other, and the game's cards "
                       "have no ranks in order (only extra cards)", e.span,
                       "give the deck type `suits` and `ranks`, or count `most cards of one rank`")
        elif e.kind == "suit" and not self.suits:
            self.error("RL292", "the game's cards have no suits: no two cards are of one suit",
                       e.span, "give the deck type `suits`, or count `most cards of one rank`")
        return NUMBER

    def ex_Roll(self, e, s):
        if e.sides < 1:
            self.error("RL111", "a die needs at least one side", e.span, "e.g. `roll d6`")
        return NUMBER

    def ex_CardQuery(self, e, s):
        self.expect(e.zone, ZONE, s, "the zone")
        if e.condition is not None:
            inner = s.child()
            self.refs.set(e, Slot(inner.new_slot("card", CARD)))
            self.where_of[id(e.condition)] = e
            self.expect(e.condition, FLAG, inner, "the condition on `card`")
        return NUMBER if e.kind == "count" else FLAG

    def ex_Name(self, e, s):
        n = e.name
        loc = s.lookup(n)
        if loc is not None:
            self.refs.set(e, Local(loc[0]))
            if (id(s.owner), loc[0]) in self.player_slots:     # (checker.always_seats)
                self.seat_names.append((e, (id(s.owner), loc[0])))
            return loc[1]
        v = self.vars.get(n)
        if v is not None:
            self.refs.set(e, Var(n, v.decl.per_player, s.you_slot))
            if getattr(v.decl, "per_team", False):      # whose team's? (check/teamvars.py)
                self.team_var_bare(e, n)
            return v.type
        z = self.zones.get(n)
        if z is not None:
            self.refs.set(e, Zone(n, z.per_player, s.you_slot))
            return ZONE
        o = self.options.get(n)
        if o is not None:
            if o.type == SYMBOL:
                self.refs.set(e, Const(self.symbols.setdefault(o.value, len(self.symbols))))
            else:
                self.refs.set(e, Const(int(o.value)))
            return o.type
        if n in self.ranks:
            self.refs.set(e, Const(self.ranks[n]))
            return NUMBER
        if n in self.suits:
            self.refs.set(e, Const(self.suits.index(n)))
            return SUIT
        if n in self.card_names:
            self.refs.set(e, CardName(n))
            return CARD
        if n in self.symbols:
            self.refs.set(e, Const(self.symbols[n]))
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
            self.refs.set(e, Const(0))
            return PLAYER
        self.error("RL101", f"unknown name `{n}`", e.span, self.shown_hint(n)
                   or did_you_mean(n, self.all_names(s))
                   or "declare it first (zone, var, option, define), or check the spelling")
        self.refs.set(e, Const(0))
        return ANY


    def shown_hint(self, n):
        """For a name that is how a rank or a suit is shown (`Q`, `K`, `A`): the rank or suit it
        shows, to write by its name (RL101)."""
        ranks = [r for r, shown in self.rank_symbols.items() if shown == n and r != n]
        suits = [su for su, shown in self.suit_symbols.items() if shown == n and su != n]
        if not ranks:
            ranks = [r for r, shown in self.rank_symbols.items()
                     if shown.lower() == n.lower() and r != n and shown != r]
        found = ranks or suits
        if not found:
            return None
        kind = "rank" if ranks else "suit"
        return (f"`{n}` is how the {kind} `{found[0]}` is shown; in the rules a {kind} is written "
                f"by its name: `{found[0]}`")
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
                self.refs.set(e, Rank())
                return NUMBER
            if n == "suit":
                self.refs.set(e, Suit())
                return SUIT
            self.refs.set(e, Attribute(n))
            return self.attributes[n][1]
        z = self.zones.get(n)
        if z is not None:
            if not z.per_player:
                self.error("RL112", f"`{n}` is shared; it belongs to no player", e.name_span,
                           f"write just `{n}`")
            self.expect_seat(e.operand, s, f"whose `{n}`")
            self.refs.set(e, ZoneOf(n))
            return ZONE
        v = self.vars.get(n)
        if v is not None and getattr(v.decl, "per_team", False):    # (check/teamvars.py)
            self.team_var_of(e, s)
            return v.type
        if v is not None:
            if not v.decl.per_player:
                self.error("RL112", f"variable `{n}` is shared; it belongs to no player",
                           e.name_span, f"write just `{n}`, or declare `var {n} per player = ...`")
            self.expect_seat(e.operand, s, "whose team" if n == A.TEAM else f"whose `{n}`")
            self.refs.set(e, VarOf(n))
            return v.type
        d = self.defines.get(n)
        if d is not None and len(d.params) == 1:
            return self.expand(e, d, (e.operand,), s)
        kind = self.team_word(e, s)           # `the team of P`, `partner of P` (check/teams.py)
        if kind is not None:
            return kind
        if n in self.ranks and isinstance(e.operand, A.Name) and e.operand.name in self.suits \
                and s.lookup(e.operand.name) is None:       # `queen of spades`
            found = self.card_named(n, e.operand.name, e.span)
            if found is not None:
                self.refs.set(e, CardLiteral(*found))
            return CARD
        if n.isdigit() and isinstance(e.operand, A.Name) and e.operand.name in self.suits \
                and s.lookup(e.operand.name) is None:       # `14 of spades`: no such rank
            suit = e.operand.name
            names = list(dict.fromkeys(
                [r.name for dt in self.types_used for r in dt.ranks]
                + [r.name for dt in self.types_used for _su, rs in dt.own_suits for r in rs]))
            self.error("RL240", f"`{n} of {suit}` is not a card of this deck: no rank is "
                       f"numbered {n}", e.span,
                       f"the ranks are {', '.join(names)} (by name, or by number as in "
                       f"`7 of {suit}`)" if names else None)
            return CARD
        self.expr(e.operand, s)
        self.error("RL101", f"`{n} of ...`: `{n}` is no card attribute, per-player zone or variable",
                   e.name_span, did_you_mean(n, set(self.attributes) | set(BUILTIN_ATTRIBUTES)
                                             | {z for z in self.zones} | set(self.vars)))
        return ANY

    def ex_Call(self, e, s):
        if e.name in self.zone_families and e.name not in self.defines:
            return self.zone_of_family(e, s)
        if e.owner is not None:
            self.owner_of_shared(e, s)
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
            self.refs.set(use, DefineUse(ex))
            return self.types.of(ex)
        body = _substitute(d.body, {p: Arg(a, a.span) for (p, _), a in zip(d.params, args)})
        ex = Expanded(d.name, body, use.span)
        self.refs.set(use, DefineUse(ex))
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
        self.types.set(ex, t)
        self.expansions[key] = (ex, s, args)    # (kept alive: ids in the key stay theirs)
        return t

    def ex_Arg(self, e, s):
        sc = s
        while sc is not None and not hasattr(sc, "caller"):
            sc = sc.parent
        caller = sc.caller if sc is not None else s
        if self.types.has(e.expr):
            return self.types.of(e.expr)
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
            elif a == b == Kind.SET_VALUES:          # (check/sets.py: two sets of one `values` set)
                self.same_sets(e.left, e.right, a, b, s, e.span)
        elif SYMBOL in (a, b) and a in (SYMBOL, NONE) and b in (SYMBOL, NONE):
            sa, sb = self.value_set_of(e.left, s), self.value_set_of(e.right, s)
            if (sa is None and sb is None) or NONE in (a, b):
                self.error("RL264", f"`{e.op}` compares named values of one set, in their order; "
                           "these are of no set the rules know", e.span,
                           "compare values declared with `values NAME: ...`, or variables and "
                           "choices of such a set (`var high: bid = pass`)")
            elif sa is not None and sb is not None and sa != sb:
                self.error("RL264", f"`{e.op}` compares a value of `{sa}` with a value of `{sb}`; "
                           "only the values of one set are in an order", e.span, None)
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
        self.expect_zone_or_set(e.zone, s, "`is empty`'s zone")
        return FLAG

    def expect_zone_or_set(self, e, s, what):
        """``e`` is a zone, or a value that is a set (its kind in ``model.types`` tells the
        generators which: a set variable's name was rewritten before, check/sets.py; a local
        holding a set is known only here)."""
        t = self.expr(e, s)
        if t not in SET_KINDS and not compatible(ZONE, t):
            self.error("RL102", f"{what} must be a zone, but this is a {t}", e.span, _type_hint(ZONE, t))

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
