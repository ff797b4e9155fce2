"""The reference interpreter, values: ``cx`` compiles an expression to a closure
``f(state, frame) -> int`` per node, written here by the ``x_<Node>`` methods (never to generated
code: this is what the generated code is checked against).
"""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.limits import MAX_NUMBER
from rulelang.kinds import SET_KINDS, Frame
from rulelang.check.ir import (Attribute, CardLiteral, CardName, Const, DefineUse, Local, Rank, Suit, Symbol,
                               Var, VarOf, You, Zone, ZoneFamily, ZoneOf)
from rulelang.engine.control import GameProblem
from rulelang.engine.values import number_range
from reference import combos
from reference.rules import no_player, no_seat, too_large
from rulelang.engine.values import best_of, highest, lowest
from rulelang.engine.players import holder, random_seat_in, seat_after, seats_after, seats_in


class ClosureValues:
    """The closures of expressions (a mixin of ``ReferenceGame``)."""

    def cx(self, e):
        """The closure of an expression: a closure per node."""
        f = getattr(self, "x_" + type(e).__name__)(e)
        if self.model.seat_uses.has(e):        # used as a player: `none` is RL912
            span = e.span
            return lambda g, fr: v if (v := f(g, fr)) >= 0 else no_player(span)
        return f

    def x_Int(self, e):
        v = e.value
        return lambda g, fr: v

    def x_Text(self, e):
        v = self.refs.of(e).value              # a text is its index in model.texts
        return lambda g, fr: v

    def x_Bool(self, e):
        v = 1 if e.value else 0
        return lambda g, fr: v

    def x_NoneLit(self, e):
        return lambda g, fr: -1

    def x_Keyword(self, e):
        w = e.word
        n = self.n
        yi = self.refs.of(e, You(-1)).index
        if w == "you":
            return lambda g, fr: fr[yi]
        if w == "current player":
            return lambda g, fr: g.cur
        ob = self.out_base
        if ob is not None and w in ("next player", "previous player"):
            k = 1 if w == "next player" else -1
            return lambda g, fr: seat_after(g, fr[yi], k, ob)
        if ob is not None and w == "random player":
            return lambda g, fr: random_seat_in(g, ob)
        if w == "next player":
            return lambda g, fr: (fr[yi] + g.dir) % n
        if w == "previous player":
            return lambda g, fr: (fr[yi] - g.dir) % n
        if w == "random player":
            return lambda g, fr: g.rng.randrange(n)
        if w in ("players", "number of players"):
            return lambda g, fr: n
        if w == "number of turns":
            return lambda g, fr: g.turns
        if w == "opponents":
            return lambda g, fr: n - 1
        raise AssertionError(w)

    def players_source(self, e):
        """The seats a ``player p from ...`` chooses among, in order of play from ``you``."""
        n = self.n
        ob = self.out_base
        if isinstance(e, A.Keyword) and e.word == "opponents":
            yi = self.refs.of(e, You(-1)).index
            if ob is not None:
                return lambda g, fr: seats_after(g, fr[yi], ob)
            return lambda g, fr: [(fr[yi] + g.dir * k) % n for k in range(1, n)]
        if ob is not None:
            return lambda g, fr: [q for q in range(n) if not g.vars[ob + q]]
        return lambda g, fr: list(range(n))

    def x_Seat(self, e):
        v = e.number - 1
        if e.number > self.n:                   # a run-time problem if the rules reach it
            k, n, span = e.number, self.n, e.span

            def noseat(g, fr):
                no_seat(k, n, span)
            return noseat
        return lambda g, fr: v

    def x_Unary(self, e):
        op = e.op
        f = self.cx(e.operand)
        n = self.n
        ob = self.out_base
        if ob is not None and op in ("player after", "player before"):
            k = 1 if op == "player after" else -1
            return lambda g, fr: seat_after(g, f(g, fr), k, ob)
        if op == "player after":
            return lambda g, fr: (f(g, fr) + g.dir) % n
        if op == "player before":
            return lambda g, fr: (f(g, fr) - g.dir) % n
        if op == "rank after":
            nxt = self.rank_next
            return lambda g, fr: nxt.get(f(g, fr), 0)
        if op == "rank before":
            prv = self.rank_prev
            return lambda g, fr: prv.get(f(g, fr), 0)
        if op == "top":
            def top(g, fr):
                z = g.zones[f(g, fr)]
                return z[-1] if z else -1
            return top
        if op == "bottom":
            def bottom(g, fr):
                z = g.zones[f(g, fr)]
                return z[0] if z else -1
            return bottom
        if op == "size":
            if self.types.of(e.operand, None) in SET_KINDS:     # a local holding a set
                return lambda g, fr: bin(f(g, fr)).count("1")
            return lambda g, fr: len(g.zones[f(g, fr)])
        if op == "random card":
            def rnd(g, fr):
                z = g.zones[f(g, fr)]
                return z[g.rng.randrange(len(z))] if z else -1
            return rnd
        if op == "score":
            return lambda g, fr: self.score_of(g, f(g, fr))
        if op == "not":
            return lambda g, fr: not f(g, fr)
        if op == "neg":
            return lambda g, fr: -f(g, fr)
        raise AssertionError(op)

    def x_TotalOf(self, e):
        table = self.rank_of if e.attribute == "rank" else self.attr_tables.get(e.attribute, self.rank_of)
        f = self.cx(e.zone)
        return lambda g, fr: sum([table[c] for c in g.zones[f(g, fr)]])

    def x_AnyNumber(self, e):
        ni = self.refs.of(e).index
        lo, hi, cond = self.cx(e.low), self.cx(e.high), self.cx(e.condition)
        span = e.span

        def any_number(g, fr):
            for k in number_range(lo(g, fr), hi(g, fr), span):
                fr[ni] = k
                if cond(g, fr):
                    return True
            return False
        return any_number

    def x_MeldLeft(self, e):
        solve = self.meld_solver(e.attribute, e.span, e.lay_off is not None)
        f = self.cx(e.zone)
        if e.lay_off is not None:
            y = self.cx(e.lay_off)
            return lambda g, fr: solve(g.zones[f(g, fr)], g.zones[y(g, fr)])
        return lambda g, fr: solve(g.zones[f(g, fr)])

    def x_Combos(self, e):
        f, kind, span = self.cx(e.zone), e.kind, e.span
        if kind == "sum":
            values = self.rank_of if e.attribute == "rank" else self.attr_tables.get(e.attribute, self.rank_of)
            target = self.cx(e.target)
            return lambda g, fr: combos.count_totalling(g.zones[f(g, fr)], target(g, fr), values, span)
        if kind in ("run", "runs"):
            which = 0 if kind == "run" else 1
            return lambda g, fr: combos.runs(g.zones[f(g, fr)], self.rank_of, self.rank_cycle)[which]
        if kind == "pairs":
            return lambda g, fr: combos.pairs(g.zones[f(g, fr)], self.rank_of)
        key_of = self.suit_of if kind == "suit" else self.rank_of
        return lambda g, fr: combos.most_alike(g.zones[f(g, fr)], key_of)

    def x_Roll(self, e):
        sides = e.sides
        return lambda g, fr: g.rng.randint(1, sides)

    def x_CardQuery(self, e):
        zf = self.cx(e.zone)
        kind = e.kind
        if e.condition is None:
            if kind == "count":
                return lambda g, fr: len(g.zones[zf(g, fr)])
            if kind == "any":
                return lambda g, fr: len(g.zones[zf(g, fr)]) > 0
            return lambda g, fr: not g.zones[zf(g, fr)]
        ci = self.refs.of(e).index
        cond = self.cx(e.condition)
        if kind in ("any", "no"):
            found = kind == "any"       # what a card that passes makes the answer

            def some(g, fr):
                for c in g.zones[zf(g, fr)]:
                    fr[ci] = c
                    if cond(g, fr):
                        return found
                return not found
            return some

        def count(g, fr):
            k = 0
            for c in g.zones[zf(g, fr)]:
                fr[ci] = c
                if cond(g, fr):
                    k += 1
            return k
        return count

    def x_Name(self, e):
        ref = self.refs.of(e)
        if isinstance(ref, Local):
            i = ref.index
            return lambda g, fr: fr[i]
        if isinstance(ref, Var):
            base = self.var_base[ref.name]
            if ref.per_player:
                yi = Frame.slot(ref.you)
                return lambda g, fr: g.vars[base + fr[yi]]
            return lambda g, fr: g.vars[base]
        if isinstance(ref, Zone):
            base = self.zone_base[ref.name]
            if ref.per_player:
                yi = Frame.slot(ref.you)
                return lambda g, fr: base + fr[yi]
            return lambda g, fr: base
        if isinstance(ref, (Const, Symbol)):
            v = ref.value
            return lambda g, fr: v
        if isinstance(ref, CardName):
            v = self.card_name_ids.get(ref.name, -1)
            return lambda g, fr: v
        if isinstance(ref, DefineUse):
            return self.x_Expanded(ref.expanded)
        raise AssertionError(ref)

    def x_Of(self, e):
        ref = self.refs.of(e)
        if isinstance(ref, DefineUse):
            return self.x_Expanded(ref.expanded)
        if isinstance(ref, CardLiteral):          # `queen of spades`
            return self.x_CardLit(e)
        f = self.cx(e.operand)
        if isinstance(ref, Rank):
            t = self.rank_of
            return lambda g, fr: t[f(g, fr)]
        if isinstance(ref, Suit):
            t = self.suit_of
            return lambda g, fr: t[f(g, fr)]
        if isinstance(ref, Attribute):
            t = self.attr_tables[ref.name]
            return lambda g, fr: t[f(g, fr)]
        if isinstance(ref, ZoneOf):
            base = self.zone_base[ref.name]
            return lambda g, fr: base + f(g, fr)
        if isinstance(ref, VarOf):
            base = self.of_place(ref.name)
            return lambda g, fr: g.vars[base + f(g, fr)]
        raise AssertionError(ref)

    def x_Call(self, e):
        ref = self.refs.of(e)
        if isinstance(ref, ZoneFamily):
            return self.x_zone_of_family(e)
        return self.x_Expanded(ref.expanded)

    def x_zone_of_family(self, e):
        zone_of = self.__dict__.setdefault("_families", {}).setdefault(
            id(e), self.zone_family_table(e))
        k = self.cx(e.args[0])
        ref = self.refs.of(e)
        if ref.per_player:              # a family per player: `pile(k)` (yours), `pile(k) of p`
            if ref.you is not None:
                yi = Frame.slot(ref.you)
                return lambda g, fr: zone_of(k(g, fr)) + fr[yi]
            owner = self.cx(e.owner)
            return lambda g, fr: zone_of(k(g, fr)) + owner(g, fr)
        return lambda g, fr: zone_of(k(g, fr))

    def x_Expanded(self, e):
        """A use of a define: the checker shares one copy of its body between uses with the
        same arguments, and so do its closures (a chain of defines stays linear)."""
        memo = self.__dict__.setdefault("_expanded", {})
        hit = memo.get(id(e))
        if hit is None:
            hit = memo[id(e)] = (self.cx(e.body), e)
        return hit[0]

    def x_Arg(self, e):
        return self.cx(e.expr)

    def x_BoolOp(self, e):
        fs = [self.cx(i) for i in e.items]
        if e.op == "and":
            if len(fs) == 2:
                a, b = fs
                return lambda g, fr: a(g, fr) and b(g, fr)
            return lambda g, fr: all(f(g, fr) for f in fs)
        if len(fs) == 2:
            a, b = fs
            return lambda g, fr: a(g, fr) or b(g, fr)
        return lambda g, fr: any(f(g, fr) for f in fs)

    def x_Compare(self, e):
        op = e.op
        if op in ("==", "!=") and any(isinstance(x, A.Seat) and x.number > self.n
                                      for x in (e.left, e.right)):
            other = self.cx(e.right if isinstance(e.left, A.Seat) and e.left.number > self.n
                            else e.left)        # evaluated all the same (it may be a problem)
            answer = op == "!="

            def unequal(g, fr):
                other(g, fr)
                return answer
            return unequal
        a, b = self.cx(e.left), self.cx(e.right)
        if isinstance(e.right, (A.Int, A.NoneLit)) or (
                isinstance(e.right, A.Name) and isinstance(self.refs.of(e.right, None), Const)):
            v = b(None, None)
            if op == "==":
                return lambda g, fr: a(g, fr) == v
            if op == "!=":
                return lambda g, fr: a(g, fr) != v
        if op == "==":
            return lambda g, fr: a(g, fr) == b(g, fr)
        if op == "!=":
            return lambda g, fr: a(g, fr) != b(g, fr)
        if op == "<":
            return lambda g, fr: a(g, fr) < b(g, fr)
        if op == ">":
            return lambda g, fr: a(g, fr) > b(g, fr)
        if op == "<=":
            return lambda g, fr: a(g, fr) <= b(g, fr)
        return lambda g, fr: a(g, fr) >= b(g, fr)

    def x_InSet(self, e):
        """``X in S``: whether the value is one of the set's (kept one bit per value)."""
        item, coll, negate = self.cx(e.item), self.cx(e.coll), e.negate

        def is_in(g, fr):
            v = item(g, fr)                     # the value, then the set: each once
            s = coll(g, fr)
            found = v >= 0 and v in {k for k in range(s.bit_length()) if s >> k & 1}
            return found != negate
        return is_in

    def x_SetSize(self, e):
        coll = self.cx(e.coll)
        return lambda g, fr: bin(coll(g, fr)).count("1")

    def x_IsEmpty(self, e):
        f = self.cx(e.zone)
        if self.types.of(e.zone, None) in SET_KINDS:            # a local holding a set
            return (lambda g, fr: f(g, fr) != 0) if e.negate else (lambda g, fr: f(g, fr) == 0)
        if e.negate:
            return lambda g, fr: len(g.zones[f(g, fr)]) > 0
        return lambda g, fr: not g.zones[f(g, fr)]

    def x_Arith(self, e):
        a, b = self.cx(e.left), self.cx(e.right)
        op = e.op
        if op == "+":
            return lambda g, fr: a(g, fr) + b(g, fr)
        if op == "-":
            return lambda g, fr: a(g, fr) - b(g, fr)
        span = e.span
        if op == "*":
            def mul(g, fr):
                v = a(g, fr) * b(g, fr)
                if -MAX_NUMBER <= v <= MAX_NUMBER:
                    return v
                raise too_large(v, span)
            return mul
        if op == "/":
            def div(g, fr):
                x, d = a(g, fr), b(g, fr)
                if d:
                    return x // d
                raise GameProblem("RL911", f"{x} is divided by zero", span)
            return div

        def mod(g, fr):
            x, d = a(g, fr), b(g, fr)
            if d:
                return x % d
            raise GameProblem("RL911", f"{x} mod 0: a number cannot be divided by zero", span)
        return mod

    def x_Cases(self, e):
        cases = [(self.cx(v), self.cx(c)) for v, c in e.cases]
        default = self.cx(e.default)
        if len(cases) == 1:
            (v, c), = cases
            return lambda g, fr: v(g, fr) if c(g, fr) else default(g, fr)

        def cases_(g, fr):
            for v, c in cases:
                if c(g, fr):
                    return v(g, fr)
            return default(g, fr)
        return cases_

    # ---- players ----------------------------------------------------------------------------
    def x_IsOut(self, e):
        pf = self.cx(e.player)
        ob = self.out_base
        if e.negate:
            return lambda g, fr: not g.vars[ob + pf(g, fr)]
        return lambda g, fr: bool(g.vars[ob + pf(g, fr)])

    def players_in(self):
        """A function of the state and a seat: the players still in, in order from that seat."""
        ob = self.out_base
        if ob is not None:
            return lambda g, start: seats_in(g, start, ob)
        n = self.n
        return lambda g, start: [(start + g.dir * k) % n for k in range(n)]

    def x_PlayerQuery(self, e):
        ref = self.refs.of(e)
        si, yi = Frame.slot(ref.player), Frame.slot(ref.you)
        cond = self.cx(e.condition)
        only = None if e.where is None else self.cx(e.where)    # `... among players where C`
        kind = e.kind
        order = self.players_in()

        def values(g, fr, skip=None):
            for p in order(g, fr[yi]):
                if p == skip:
                    continue
                fr[si] = p
                if only is None or only(g, fr):
                    yield p, cond(g, fr)
        if kind == "any":
            return lambda g, fr: any(v for _p, v in values(g, fr))
        if kind == "no":
            return lambda g, fr: not any(v for _p, v in values(g, fr))
        if kind == "count":
            return lambda g, fr: sum(1 for _p, v in values(g, fr) if v)
        if kind == "total":
            return lambda g, fr: sum(v for _p, v in values(g, fr))
        if kind == "highest":
            return lambda g, fr: highest([v for _p, v in values(g, fr)])
        if kind == "lowest":
            return lambda g, fr: lowest([v for _p, v in values(g, fr)])
        if kind in ("best", "worst"):      # `player with highest V`
            return lambda g, fr: best_of([(v, p) for p, v in values(g, fr)], kind == "best")
        if kind == "each":
            return lambda g, fr: [p for p, v in values(g, fr) if v]
        if kind == "others":            # (you are not looked at: not one of the others)
            return lambda g, fr: [p for p, v in values(g, fr, fr[yi]) if v]

        def nxt(g, fr):             # the players after you: you are not looked at
            for p, v in values(g, fr, fr[yi]):
                if v:
                    return p
            return -1
        return nxt

    # ---- selectors and aggregates ------------------------------------------------
    def x_CardLit(self, e):
        lit = self.refs.of(e)
        v = self.card_literal_id(lit.rank, lit.suit)
        return lambda g, fr: v

    def x_PilePlace(self, e):
        zf, af = self.cx(e.zone), self.cx(e.at)
        kind = e.kind

        def place(g, fr):
            z = g.zones[zf(g, fr)]
            a = af(g, fr)
            if kind in ("from top", "from bottom"):
                if not 1 <= a <= len(z):
                    return -1
                return z[len(z) - a] if kind == "from top" else z[a - 1]
            if a not in z:
                return -1
            i = z.index(a) + (1 if kind == "above" else -1)
            return z[i] if 0 <= i < len(z) else -1
        return place

    def x_AmongCards(self, e):
        zf = self.cx(e.zone)
        ci = self.refs.of(e).index
        if e.value is None:             # `first card in Z where C`, `last card ...`
            cond1 = self.cx(e.condition)
            last = e.kind == "last card"

            def first(g, fr):
                cards = list(g.zones[zf(g, fr)])
                for c in (reversed(cards) if last else cards):
                    fr[ci] = c
                    if cond1(g, fr):
                        return c
                return -1
            return first
        value = self.cx(e.value)
        cond = self.cx(e.condition) if e.condition is not None else (lambda g, fr: True)
        kind = e.kind

        def pairs(g, fr):
            out = []
            for c in list(g.zones[zf(g, fr)]):
                fr[ci] = c
                if cond(g, fr):
                    out.append((value(g, fr), c))
            return out
        if kind == "total":
            return lambda g, fr: sum([v for v, _c in pairs(g, fr)])
        if kind == "highest":
            return lambda g, fr: highest([v for v, _c in pairs(g, fr)])
        if kind == "lowest":
            return lambda g, fr: lowest([v for v, _c in pairs(g, fr)])
        return lambda g, fr: best_of(pairs(g, fr), kind == "highest card")

    def x_PickValue(self, e):
        si = self.refs.of(e).index
        cond = self.cx(e.condition)
        if e.low is None:
            ranks = tuple(self.rank_cycle)
            values = lambda g, fr: ranks
        else:
            lo, hi = self.cx(e.low), self.cx(e.high)
            span = e.span
            values = lambda g, fr: number_range(lo(g, fr), hi(g, fr), span)
        high = e.kind == "highest"

        def pick(g, fr):
            vs = values(g, fr)
            for v in (reversed(vs) if high else vs):
                fr[si] = v
                if cond(g, fr):
                    return v
            return 0
        return pick

    def x_ArgBest(self, e):
        si = self.refs.of(e).index
        value = self.cx(e.value)
        values = (tuple(range(len(self.model.suits))) if e.of == "suit"
                  else tuple(sorted(self.rank_cycle)))
        high = e.kind == "highest"

        def pick(g, fr):
            out = []
            for x in values:
                fr[si] = x
                out.append((value(g, fr), x))
            return best_of(out, high)
        return pick

    def x_PlayedBy(self, e):
        cf, base = self.cx(e.card), self.played_base

        def played_by(g, fr):
            c = cf(g, fr)
            return g.vars[base + c] if c >= 0 else -1
        return played_by

    def x_Holder(self, e):
        cf = self.cx(e.card)
        owned = self.owned_zones()
        return lambda g, fr: holder(g, cf(g, fr), owned)
