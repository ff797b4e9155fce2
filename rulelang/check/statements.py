"""The checks of the statements (``Checker.st_<Node>``), a mixin of
:class:`rulelang.check.checker.Checker`: the kinds of their values, the names they resolve, the
slots they give their locals (a choice's chooser and what it chooses), and which numbers are
ranks (said by name)."""
from __future__ import annotations

import re

from rulelang.kinds import ANY, CARD, CARDS, FLAG, NONE, NUMBER, PLAYER, PLAYERS, RANK, SUIT, SYMBOL, ZONE
from rulelang.syntax import ast as A
from rulelang.check.hints import did_you_mean
from rulelang.check.ir import (AltId, CardLoopSlots, ChooseSlots, Const, CurrentPlayer, DefineUse,
                               EndGameSlots, Local, PickSlots, PlayerLoopSlots, SetSlots, Rank, Slot, ValueLoopSlots, Var,
                               VarOf, You)
from rulelang.check.model import Arg, Expanded, compatible
from rulelang.limits import MAX_SET_POOL


class StatementChecks:
    def st_Deal(self, st, s):
        self.refs.set(st, You(s.you_slot))
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
        elif sel.kind in ("count", "top_n", "bottom_n"):
            self.expect(sel.expr, NUMBER, s, "how many cards to move")
            if sel.kind != "count":
                self.count_written(sel.expr)
        elif sel.kind == "where":
            inner = s.child()
            inner.new_slot("card", CARD)
            self.refs.set(sel, Local(inner.names["card"][0]))
            self.expect(sel.expr, FLAG, inner, "which cards to move")
        elif sel.kind in ("count_where", "upto_where", "and_above"):
            self.st_move_counted(st, sel, s)
        if st.beside is not None:
            self.st_move_beside(st, s)

    def st_move_beside(self, st, s):
        """``move c from A to B under d`` / ``above d`` (docs/language.md, "Arranging one's own
        cards"): one card, put directly under or above the card d of B."""
        self.expect(st.beside, CARD, s, f"the card that the card moved goes {st.place}")
        if st.selection.kind != "card":
            self.error("RL308", f"only one card named is put {st.place} a card", st.selection.span,
                       f"name the card: `move c from A to B {st.place} d` (choose it first: "
                       "`card c from A`)")
        if st.to_bottom:
            self.error("RL309", f"a card goes to the bottom of a zone or {st.place} a card of it, "
                       "not both", st.beside.span,
                       f"write `move c from A to B {st.place} d` or `move c from A to bottom of B`")

    def st_move_counted(self, st, sel, s):
        """``move N cards where C``, ``move up to N cards where C`` and ``move c and every card on
        top of it`` (docs/language.md, "Moving some of the cards that match")."""
        if sel.kind == "and_above":
            self.expect(sel.expr, CARD, s, "the card moved with the cards on top of it")
            return
        self.expect(sel.expr, NUMBER, s, "how many cards to move")
        inner = s.child()
        inner.new_slot("card", CARD)
        self.refs.set(sel, Local(inner.names["card"][0]))
        self.expect(sel.condition, FLAG, inner, "which cards to move")
        self.count_written(sel.expr)

    def count_written(self, count):
        """RL250: a count of cards to move written as 0 or below."""
        if isinstance(count, A.Int) and count.value < 1:
            self.error("RL250", f"moving {count.value} cards moves nothing", count.span,
                       "a count of cards is 1 or more; to move every card that matches write "
                       "`move all cards where ...`")
        if isinstance(count, A.Unary) and count.op == "neg":
            self.error("RL250", "a count of cards cannot be negative", count.span,
                       "a count of cards is 1 or more")

    def st_Assign(self, st, s):
        if self.team_target(st):
            self.expr(st.value, s)
            return
        t = self.lvalue(st.target, s)
        want = NUMBER if st.op in ("add", "sub") else t
        if isinstance(st.target, A.Name) and st.target.name.startswith(" "):
            want = ANY                          # `return VALUE`: result_kind says more
        if st.op in ("add", "sub") and t not in (NUMBER, ANY):
            self.error("RL102", f"only numbers can be added to; this is a {t}", st.target.span, None)
        what = {"add": "what is added", "sub": "what is subtracted"}.get(st.op)
        target = None
        if what is None:
            tn = getattr(st.target, "name", None)
            what = f"the new value of `{tn}`" if tn else "the new value"
            target = tn or "it"
        self.expect(st.value, want, s, what, set_target=target)
        ref = self.refs.of(st.target, None)
        if isinstance(ref, Var) and ref.name.startswith(" "):
            self.result_kind(self.vars[ref.name], st)
        if t == ZONE and isinstance(ref, Local):
            self.zone_values.setdefault((id(s.owner), ref.slot), []).append((st.value, None))
        elif t == ZONE and isinstance(ref, (Var, VarOf)):
            self.zone_values.setdefault(("var", ref.name), []).append((st.value, (id(s.owner), None)))

    def result_kind(self, v, st):
        """The first `return VALUE` of a rule gives its kind; the others must agree."""
        t = self.types.of(st.value, ANY)
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
                self.refs.set(target, Local(loc[0]))
                self.types.set(target, loc[1])
                self.set_slots.add((id(s.owner), loc[0]))
                return loc[1]
            v = self.vars.get(target.name)
            if v is not None:
                self.refs.set(target, Var(target.name, v.decl.per_player, s.you_slot))
                self.types.set(target, v.type)
                if getattr(v.decl, "per_team", False):  # whose team's? (check/teamvars.py)
                    self.team_var_bare(target, target.name)
                return v.type
            if target.name in self.options:
                self.error("RL107", f"option `{target.name}` cannot be changed during the game",
                           target.span, "declare a `var` that starts with the option's value")
                return ANY
        elif isinstance(target, A.Of):
            v = self.vars.get(target.name)
            if v is not None and getattr(v.decl, "per_team", False):   # (check/teamvars.py)
                self.team_var_of(target, s)
                self.types.set(target, v.type)
                return v.type
            if v is not None and v.decl.per_player:
                self.expect_seat(target.operand, s, f"whose `{target.name}`")
                self.refs.set(target, VarOf(target.name))
                self.types.set(target, v.type)
                return v.type
        elif isinstance(target, A.Keyword) and target.word == "current player":
            # In `setup`, `you` is the current player: setting it there moves `you` too, so that
            # `next player` and unqualified per-player names after it mean the new one's.
            in_setup = getattr(getattr(s.owner, "decl", None), "name", None) == "setup"
            self.refs.set(target, CurrentPlayer(in_setup and s.you_slot == -1))
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
        slot = self.refs.set(st, Slot(s.new_slot(st.name, t))).slot
        if self.rankish(st.value, s):
            self.rank_slots.add((id(s.owner), slot))
        if t == ZONE:
            self.zone_values.setdefault((id(s.owner), slot), []).append((st.value, None))

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
            self.refs.set(st, EndGameSlots(*slots))
        if st.kind in ("highest", "lowest") and self.score is None:
            self.error("RL181", "`end game by ... score` but the game declares no score", st.span,
                       "add a line such as `score: size of won`")

    def st_CallRule(self, st, s):
        self.refs.set(st, You(s.you_slot))
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
        self.refs.set(st, You(s.you_slot))          # the line is said by the chooser inside a choice
        for p in st.parts:
            if isinstance(p, A.CardsIn):        # `say the cards in hand`: by name
                self.expect(p.zone, ZONE, s, "the zone whose cards are said")
                self.types.set(p, CARDS)
            elif not isinstance(p, str):
                self.expr(p, s)
                if self.rankish(p, s):          # a rank is said by its name, not its number
                    self.say_as.set(p, RANK)

    def rankish(self, e, s) -> bool:
        """Whether a number is a rank: `rank of c`, `rank after r`, a rank's name, a local that
        holds one (`rank r` chosen, `let r = rank of c`, a parameter `r: rank`), a variable
        declared `: rank`, or a define or conditional made of these."""
        ref = self.refs.of(e, None)
        if isinstance(e, A.Of) and e.name == "rank" and isinstance(ref, Rank):
            return True
        if isinstance(e, A.Unary) and e.op in ("rank after", "rank before"):
            return True
        if isinstance(e, A.Name):
            if isinstance(ref, Local):
                return (id(s.owner), ref.slot) in self.rank_slots
            if isinstance(ref, Var):
                return self.vars[ref.name].decl.type == "rank"
            if isinstance(ref, Const):
                return e.name in self.ranks and s.lookup(e.name) is None
            if not isinstance(ref, DefineUse):
                return False
        if isinstance(e, A.Of) and isinstance(ref, VarOf):
            return self.vars[ref.name].decl.type == "rank"
        if isinstance(ref, DefineUse):
            return self.rankish(ref.expanded.body, s)
        if isinstance(e, Expanded):
            return self.rankish(e.body, s)
        if isinstance(e, Arg):
            return self.rankish(e.expr, s)
        if isinstance(e, A.Cases):
            return all(self.rankish(v, s) for v in [c[0] for c in e.cases] + [e.default])
        return False

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
            self.refs.set(st, Slot(inner.new_slot(" counter", NUMBER)))
        self.check_block(st.body, inner)

    def st_ForPlayer(self, st, s):
        if st.start is not None:
            self.expect_seat(st.start, s, "the first player")
        self.reserved(st.name, st.span, "a player")
        inner = s.child()
        inner.loops += 1
        self.refs.set(st, PlayerLoopSlots(inner.new_slot(st.name, PLAYER), inner.new_slot(" count", NUMBER)))
        self.player_slots[id(inner.owner), self.refs.of(st).player] = inner.owner
        self.check_block(st.body, inner)

    def st_ForCard(self, st, s):
        self.expect(st.zone, ZONE, s, "the zone")
        self.reserved(st.name, st.span, "a card")
        inner = s.child()
        inner.loops += 1
        self.refs.set(st, CardLoopSlots(inner.new_slot(st.name, CARD), inner.new_slot(" cards", ANY),
                                        inner.new_slot(" index", NUMBER)))
        self.check_block(st.body, inner)

    def st_ForValue(self, st, s):
        self.reserved(st.name, st.span, f"a {st.kind}")
        inner = s.child()
        inner.loops += 1
        named = st.kind not in ("suit", "rank")
        if named and st.kind not in self.value_sets:
            self.error("RL328", f"`for each {st.kind} ...`: `{st.kind}` is no set of named "
                       "values", st.span, "loops go over `suit`, `rank`, `player`, `card` or a "
                       "set declared with `values NAME: ...`")
        vi = inner.new_slot(st.name, SYMBOL if named else SUIT if st.kind == "suit" else NUMBER)
        if named:
            self.value_slots[(id(inner.owner), vi)] = st.kind
        self.refs.set(st, ValueLoopSlots(vi, inner.new_slot(" index", NUMBER)))
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
        # Who decides a choice without `by` is `you` where it is written: inside an alternative
        # of another choice, that choice's chooser (every backend reads it from here).
        self.refs.set(st, You(s.you_slot))
        if not st.by and s.you_by is not None:
            self.nested_choice_warning(st, s.you_by)
        chooser = s.child()
        chooser_slot = chooser.new_slot(" chooser", PLAYER)
        extra = chooser.new_slot(" choices", ANY) if st.simultaneous else None
        chooser.you_slot = chooser_slot
        chooser.you_by = st if st.by else s.you_by
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
            self.labels.set(alt, AltId(len(self.alternatives)))
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
                    self.player_slots[id(inner.owner), slot] = inner.owner     # always a seat
                elif p.kind == "suit":
                    slot = inner.new_slot(p.name, SUIT)
                elif p.kind == "rank":
                    slot = inner.new_slot(p.name, NUMBER)
                    self.rank_slots.add((id(inner.owner), slot))
                elif p.kind == "cards":
                    slot = self.cards_param(alt, st, inner)
                elif p.kind == "unseen":
                    slot = self.unseen_param(alt, st, inner)
                elif p.kind == "set":
                    slot = self.set_param(alt, st, chooser, inner)
                elif p.kind == "value":
                    slot = inner.new_slot(p.name, SYMBOL)
                    if p.source.name not in self.value_sets:
                        self.error("RL263", f"`{p.source.name}` is no set of values", p.source.span,
                                   "declare it (`values bid: pass, two, three`), or choose a "
                                   "card, player, suit, rank or number")
                    else:
                        self.value_slots[(id(inner.owner), slot)] = p.source.name
                else:
                    self.expect(p.source, NUMBER, inner, "the smallest number")
                    self.expect(p.high, NUMBER, inner, "the largest number")
                    slot = inner.new_slot(p.name, NUMBER)
                if p.where is not None:
                    self.expect(p.where, FLAG, inner, "which choices are allowed")
            if alt.condition is not None:
                self.expect(alt.condition, FLAG, inner, "when this choice is allowed")
            param_slots.append(slot)
            if p is not None and p.kind in ("card", "cards", "set"):
                self.card_choices.append((alt, st, s.owner, s.you_slot, chooser_slot, slot))
            self.check_block(alt.body, inner)
        self.choose_slots.set(st, ChooseSlots(chooser_slot, tuple(param_slots), extra))

    def nested_choice_warning(self, st, outer):
        """RL198: a plain ``choose:`` inside an alternative of ``choose by P`` (or of a
        simultaneous choice, or a claim) is decided by that alternative's ``you``, its chooser,
        and offers their zones, not the player whose turn it is: said, since "choose" alone
        reads as the current player's decision."""
        self.warning("RL198", "this `choose:` is decided by the chooser of the choice around it "
                     f"(line {outer.span.line}), not by the player whose turn it is",
                     st.span, "inside an alternative, `you` is its chooser and a zone named alone is "
                     "theirs: write `choose by you:` to say so, or `choose by current player:` "
                     "for the player whose turn it is")

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
        self.unseen.set(alt, Slot(inner.new_slot(p.name, CARD)))
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
        self.picks.set(alt, PickSlots(ks, len(self.alternatives)))
        self.labels.set(done, AltId(len(self.alternatives)))
        self.alternatives.append((done, st))
        return slot


    def set_param(self, alt, st, chooser, inner):
        """``a set of N [to M | or more] cards c [of one rank | of one suit | in a run] from Z
        to D [where C] [whose total A is E | in groups whose total A is E]`` (``up to M``): a
        set of cards in one action.  E is worked out before the sets, where the choice is
        reached: it is checked outside the alternative (c is not known there).  Its slots: the
        number of the set chosen (the parameter's), c, then the cards that may be chosen, Z, D,
        the fewest, the most and the total (kept in the frame: see engine/subsets.py)."""
        p = alt.param
        self.expect(p.fewest, NUMBER, inner, "the fewest cards of the set")
        if p.most is not None:
            self.expect(p.most, NUMBER, inner, "the most cards of the set")
        low = p.fewest.value if isinstance(p.fewest, A.Int) else None
        high = p.most.value if isinstance(p.most, A.Int) else None
        if (low is not None and low < 1) or (high is not None and high < 1):
            self.error("RL280", f"`{alt.label}` chooses a set of {min(x for x in (low, high) if x is not None)} "
                       "cards: a set holds at least one card", p.span,
                       f"an alternative without cards is written without them: `{alt.label}:`")
        elif low is not None and high is not None and high < low:
            self.error("RL280", f"`{alt.label}` chooses a set of {low} to {high} cards: the most "
                       "is below the fewest", p.span, f"write `{high} to {low}`")
        for bound in (low, high):
            if bound is not None and bound > MAX_SET_POOL:
                self.error("RL281", f"`{alt.label}` chooses a set of {bound} cards: a set is "
                           f"chosen among at most {MAX_SET_POOL} cards", p.span,
                           "choose fewer cards at a time, or move the cards with `move all "
                           "cards where C from Z to D`")
                break
        self.expect(p.source, ZONE, inner, "where the cards are chosen from")
        self.expect(p.dest, ZONE, inner, "where the chosen set goes")
        if st.simultaneous:
            self.error("RL282", f"`{alt.label}` chooses a set of cards in a simultaneous choice",
                       p.span, "another player's choice could move the cards before this one "
                       "runs: let each player choose in turn (`for each player q:` / `choose by "
                       "q:`)")
        if p.total_mode is not None:
            if p.total_attr != "rank":
                a = self.attributes.get(p.total_attr)
                if a is None:
                    self.error("RL101", f"there is no card attribute `{p.total_attr}`", p.span,
                               did_you_mean(p.total_attr, list(self.attributes) + ["rank"]))
                elif a[1] != NUMBER:
                    self.error("RL102", f"attribute `{p.total_attr}` is a word, it cannot be "
                               "totalled", p.span, None)
            self.expect(p.total, NUMBER, chooser, "the total of the set")
        if p.shape == "run" and p.total_mode == "groups":
            self.error("RL283", f"`{alt.label}` asks for a run that splits into groups of a "
                       "total", p.span, "a run is one group of cards: write `whose total "
                       f"{p.total_attr} is ...` for its total, or leave out `in a run`")
        slot = inner.new_slot(" set", NUMBER)
        card = inner.new_slot(p.name, CARD)
        ks = tuple(inner.new_slot(n, t) for n, t in (
            (" eligible", ANY), (" from", ZONE), (" to", ZONE), (" fewest", NUMBER),
            (" most", NUMBER), (" target", NUMBER)))
        self.sets.set(alt, SetSlots(card, ks))
        return slot


def _leaves(st):
    """The words of a statement after which the rest of its block never runs, or None."""
    if isinstance(st, A.Simple) and st.word in ("stop", "return", "end turn"):
        return st.word
    if isinstance(st, A.EndGame):
        return "end game"
    return None
