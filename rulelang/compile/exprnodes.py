"""The code of each kind of expression: the ``g_<Node>`` methods of ExprGen.

:class:`ExprNodes` is the part of :class:`~rulelang.compile.codegen.ExprGen` that writes one kind of
expression node each (numbers, players, zones, card queries, selectors and aggregates, names and
uses of defines, arithmetic and comparisons); options, which are constants, are folded away in
``and``/``or`` and in ``cases`` (what is known is read from the tree: :mod:`rulelang.compile.fold`).  Each method returns
Python source made only of what :mod:`rulelang.compile.gensource` allows; ``gen`` (in codegen)
chooses the method, hoists what does not depend on a loop's card and tests a player for `none`.
"""
from __future__ import annotations

from rulelang.kinds import SET_KINDS, Frame
from rulelang.syntax import ast as A
from rulelang.check.ir import (Attribute, CardLiteral, CardName, Const, DefineUse, Local, Rank, Suit, Symbol,
                               Var, VarOf, You, Zone, ZoneFamily, ZoneOf)
from rulelang.check.model import Arg, Expanded
from rulelang.compile.fold import _children
from rulelang.engine.values import number_range
from rulelang.limits import MAX_RANGE


class Known(str):
    """The code of a number known where it is written (a seat, a zone's index), ``value``:
    told by its type, never by reading the code (ExprGen.zone, g_Name)."""
    __slots__ = ("value",)

    def __new__(cls, value: int):
        code = super().__new__(cls, str(int(value)))
        code.value = int(value)
        return code


class PlayerZone(str):
    """The code of the index of a zone of each player, ``(base + seat)``, knowing its parts
    (``ExprGen.zone``: read by seat from a tuple of the players' lists where they are locals);
    anywhere else, the same text."""

    def __new__(cls, base: int, seat: str):
        code = super().__new__(cls, f"({int(base)} + {seat})")
        code.base, code.seat = int(base), seat
        return code


class ExprNodes:
    """The writers of expression nodes (a part of ExprGen)."""

    def g_Int(self, cx, e, env):
        return str(int(e.value))

    def g_Text(self, cx, e, env):
        return str(int(self.refs.of(e).value))     # a text is its index in model.texts

    def g_Bool(self, cx, e, env):
        return "1" if e.value else "0"

    def g_NoneLit(self, cx, e, env):
        return "(-1)"

    def g_Keyword(self, cx, e, env):
        w = e.word
        n = int(self.cg.n)
        you = self.slot(cx, self.refs.of(e, You(-1)).index, env)
        if w == "you":
            return you
        if w == "current player":
            return "g.cur"
        ob = self.cg.out_base
        if ob is not None and w in ("next player", "previous player"):
            return f"_sa(g, {you}, {1 if w == 'next player' else -1}, {int(ob)})"
        if ob is not None and w == "random player":
            return f"_rsi(g, {int(ob)})"          # among the players still in
        if w == "next player":
            return f"(({you} + {self.dir}) % {n})"
        if w == "previous player":
            return f"(({you} - {self.dir}) % {n})"
        if w == "random player":
            return f"g.rng.randbelow({n})"
        if w in ("players", "number of players"):
            return str(n)
        if w == "number of turns":
            return self.turns_read()
        if w == "opponents":
            return str(n - 1)
        raise AssertionError(w)             # the checker knows no other keyword

    def g_Seat(self, cx, e, env):
        if int(e.number) > self.cg.n:           # only when the rules reach it (RL908)
            return f"_noseat({int(e.number)}, {int(self.cg.n)}, {self.const(e.span)})"
        return Known(int(e.number) - 1)

    def g_Unary(self, cx, e, env):
        op = e.op
        if op == "not":                 # `not (a is b)`: `a != b`, one operation less
            cmp = self._compare_of(e.operand)
            if cmp is not None and cmp.op in ("==", "!="):
                return self._compare(cx, cmp, env, "!=" if cmp.op == "==" else "==")
        x = self.gen(cx, e.operand, env)
        n = int(self.cg.n)
        ob = self.cg.out_base
        if ob is not None and op in ("player after", "player before"):
            return f"_sa(g, {x}, {1 if op == 'player after' else -1}, {int(ob)})"
        if op == "player after":
            return f"(({x} + {self.dir}) % {n})"
        if op == "player before":
            return f"(({x} - {self.dir}) % {n})"
        if op == "rank after":
            return f"{self.const(self.cg.rank_next)}.get({x}, 0)"
        if op == "rank before":
            return f"{self.const(self.cg.rank_prev)}.get({x}, 0)"
        if op == "top":
            return f"({self.zone(cx, x)} or _none)[-1]"     # an empty zone's top is none (-1)
        if op == "bottom":
            return f"({self.zone(cx, x)} or _none)[0]"
        if op == "size":
            if self.cg.types.of(e.operand, None) in SET_KINDS:     # a local holding a set
                return f"_setsize({x})"
            return f"len({self.zone(cx, x)})"
        if op == "random card":                   # `rng` in the code: never hoisted
            return f"_rnd({self.zone(cx, x)}, g.rng)"
        if op == "not":
            return f"(not {x})"
        if op == "neg":
            return f"(-{x})"
        if op == "score":
            return f"{self.const(self.cg.score_of)}(g, {x})"
        raise AssertionError(op)            # the checker knows no other operator

    def g_TotalOf(self, cx, e, env):
        cg = self.cg
        table = cg.rank_of if e.attribute == "rank" else cg.attr_tables.get(e.attribute, cg.rank_of)
        # Each card's value looked up in C (the table's own lookup, mapped over the zone): no
        # comprehension, whose function the interpreter makes and calls at every use.
        return (f"sum(_map({self.getter(table)}, "
                f"{self.charged(cx, self.zone(cx, self.gen(cx, e.zone, env)), e, [])}))")

    def g_AnyNumber(self, cx, e, env):
        v = self.fresh()
        inner = dict(env)
        inner[self.refs.of(e).index] = v
        lo, hi = self.gen(cx, e.low, env), self.gen(cx, e.high, env)
        c, hoisted = self.gen_hoisting(cx, e.condition, inner, v)
        span = self.const(e.span)
        if isinstance(e.low, A.Int) and isinstance(e.high, A.Int) and \
                e.high.value - e.low.value < MAX_RANGE:      # (folding: known before the game)
            nums = self.charged(cx, self.const(range(e.low.value, e.high.value + 1)), e, [e.condition])
        else:
            nums = self.charged(cx, f"{self.const(number_range)}({lo}, {hi}, {span})", e, [e.condition])
        out = self.some(v, nums, c, e.condition)
        return self._hoisted(out, hoisted)

    def some(self, v, items, c, cond):
        """``any`` over ``items`` of the condition code ``c`` (its loop variable ``v``): a list
        made whole, faster, unless the condition draws at random (Fold.chance): then it stops
        at the first item that passes, as the rules look at them, drawing no more."""
        if self.fold.chance(cond):
            return f"any(1 for {v} in {items} if {c})"
        return f"any([1 for {v} in {items} if {c}])"

    def g_MeldLeft(self, cx, e, env):
        solver = self.const(self.cg.meld_solver(e.attribute, e.span, e.lay_off is not None))
        if e.lay_off is not None:
            return f"{solver}({self.zone(cx, self.gen(cx, e.zone, env))}, {self.zone(cx, self.gen(cx, e.lay_off, env))})"
        return f"{solver}({self.zone(cx, self.gen(cx, e.zone, env))})"

    def g_Combos(self, cx, e, env):
        count = self.const(self.cg.combo_counter(e.kind, e.attribute, e.span))
        cards = self.zone(cx, self.gen(cx, e.zone, env))
        if e.kind == "sum":
            return f"{count}({cards}, {self.gen(cx, e.target, env)})"
        return f"{count}({cards})"

    def g_Roll(self, cx, e, env):
        # What Rng.randint(1, sides) draws, without its own call.
        return f"(g.rng.randbelow({int(e.sides)}) + 1)"

    def g_CardQuery(self, cx, e, env):
        z = self.gen(cx, e.zone, env)
        if e.condition is None:
            if e.kind == "count":
                return f"len({self.zone(cx, z)})"
            if e.kind == "any":
                return f"(not (not {self.zone(cx, z)}))"
            return f"(not {self.zone(cx, z)})"
        if e.kind in ("any", "no") and not self.fold.chance(e.condition):
            return self.card_search(cx, e, env, f"{self.zone(cx, z)}")
        v = self.fresh()
        inner = dict(env)
        inner[self.refs.of(e).index] = v
        c, hoisted = self.gen_hoisting(cx, e.condition, inner, v)
        cards = self.charged(cx, self.zone(cx, z), e, [e.condition])
        if e.kind == "any":
            out = self.some(v, cards, c, e.condition)
        elif e.kind == "no":
            out = f"(not {self.some(v, cards, c, e.condition)})"
        else:
            out = f"len([1 for {v} in {cards} if {c}])"
        return self._hoisted(out, hoisted)

    # ---- selectors and aggregates ---------------------------------------------------
    def g_CardLit(self, cx, e, env):
        lit = self.refs.of(e)
        return f"({int(self.cg.card_literal_id(lit.rank, lit.suit))})"

    def _hoisted(self, out, hoisted):
        """``out`` with the values hoisted out of its loop computed first (walrus assignments)."""
        if hoisted:
            pre = ", ".join(f"({name} := {code})" for name, code in hoisted)
            out = f"({pre}, {out})[-1]"
        return out

    def g_PilePlace(self, cx, e, env):
        z = self.zone(cx, self.gen(cx, e.zone, env))
        at = self.gen(cx, e.at, env)
        if e.kind == "from top":
            return f"_place({z}, {at})"
        if e.kind == "from bottom":
            return f"_place({z}, -({at}))"
        return f"_beside({z}, {at}, {1 if e.kind == 'above' else -1})"

    def g_AmongCards(self, cx, e, env):
        z = self.gen(cx, e.zone, env)
        v = self.fresh()
        inner = dict(env)
        inner[self.refs.of(e).index] = v
        if e.value is None:             # `first card in Z where C`, `last card ...`
            c, hoisted = self.gen_hoisting(cx, e.condition, inner, v)
            cards = self.charged(cx, self.zone(cx, z), e, [e.condition])
            if e.kind == "last card":
                cards = f"{cards}[::-1]"
            if self.fold.chance(e.condition):
                return self._hoisted(f"_first(({v} for {v} in {cards} if {c}), -1)", hoisted)
            return self._hoisted(f"([{v} for {v} in {cards} if {c}] or _none)[0]", hoisted)
        val, hoisted = self.gen_hoisting(cx, e.value, inner, v)
        cond = ""
        if e.condition is not None:
            c, more = self.gen_hoisting(cx, e.condition, inner, v)
            hoisted = hoisted + more
            cond = f" if {c}"
        cards = self.charged(cx, self.zone(cx, z), e, [e.value, e.condition])
        if e.kind in ("highest", "lowest", "total"):
            fn = {"highest": "_hi", "lowest": "_lo", "total": "sum"}[e.kind]
            out = f"{fn}([{val} for {v} in {cards}{cond}])"
        else:
            out = f"_best([({val}, {v}) for {v} in {cards}{cond}], {int(e.kind == 'highest card')})"
        return self._hoisted(out, hoisted)

    def g_PickValue(self, cx, e, env):
        v = self.fresh()
        inner = dict(env)
        inner[self.refs.of(e).index] = v
        c, hoisted = self.gen_hoisting(cx, e.condition, inner, v)
        high = e.kind == "highest"
        if e.low is None:
            if not hasattr(self, "_rank_orders"):       # kept: const() names objects by id
                self._rank_orders = (tuple(sorted(self.cg.rank_cycle)),
                                     tuple(sorted(self.cg.rank_cycle, reverse=True)))
            values = self.const(self._rank_orders[high])
        else:
            # (at most MAX_RANGE numbers, else RL257, as `any number`: g_AnyNumber)
            lo, hi = self.gen(cx, e.low, env), self.gen(cx, e.high, env)
            values = f"{self.const(number_range)}({lo}, {hi}, {self.const(e.span)})"
            if high:
                values += "[::-1]"
        values = self.charged(cx, values, e, [e.condition])
        if self.fold.chance(e.condition):       # (stops at the first that passes: some)
            return self._hoisted(f"_first(({v} for {v} in {values} if {c}), 0)", hoisted)
        return self._hoisted(f"([{v} for {v} in {values} if {c}] or _zero)[0]", hoisted)

    def g_ArgBest(self, cx, e, env):
        v = self.fresh()
        inner = dict(env)
        inner[self.refs.of(e).index] = v
        val, hoisted = self.gen_hoisting(cx, e.value, inner, v)
        if e.of == "suit":
            values = f"range({len(self.cg.model.suits)})"
        else:
            if not hasattr(self, "_rank_orders"):       # kept: const() names objects by id
                self._rank_orders = (tuple(sorted(self.cg.rank_cycle)),
                                     tuple(sorted(self.cg.rank_cycle, reverse=True)))
            values = self.const(self._rank_orders[0])
        values = self.charged(cx, values, e, [e.value])
        out = f"_best([({val}, {v}) for {v} in {values}], {int(e.kind == 'highest')})"
        return self._hoisted(out, hoisted)

    def g_IsOut(self, cx, e, env):
        ob = int(self.cg.out_base)
        x = f"{self.vars(cx)}[{ob} + {self.gen(cx, e.player, env)}]"
        return f"(not {x})" if e.negate else f"(not (not {x}))"

    def g_PlayerQuery(self, cx, e, env):
        ref = self.refs.of(e)
        you = self.slot(cx, Frame.slot(ref.you), env)
        ob = self.cg.out_base
        n = int(self.cg.n)
        if e.kind in ("next", "others"):
            seats = (f"_saf(g, {you}, {int(ob)})" if ob is not None
                     else f"[({you} + g.dir * _k) % {n} for _k in range(1, {n})]")
        else:
            seats = (f"_sin(g, {you}, {int(ob)})" if ob is not None
                     else f"[({you} + g.dir * _k) % {n} for _k in range({n})]")
        v = self.fresh()
        inner = dict(env)
        inner[Frame.slot(ref.player)] = v
        c, hoisted = self.gen_hoisting(cx, e.condition, inner, v)
        only = ""
        if e.where is not None:         # `highest V among players where C`: the players counted
            w, more = self.gen_hoisting(cx, e.where, inner, v)
            hoisted = hoisted + more
            only = f" if {w}"
        seats = self.charged(cx, seats, e, [e.condition, e.where])
        kind = e.kind
        if kind == "any":
            out = self.some(v, seats, c, e.condition)
        elif kind == "no":
            out = f"(not {self.some(v, seats, c, e.condition)})"
        elif kind == "count":
            out = f"len([1 for {v} in {seats} if {c}])"
        elif kind == "next" and self.fold.chance(e.condition):
            out = f"_first(({v} for {v} in {seats} if {c}), -1)"    # (stops at the first)
        elif kind == "next":
            out = f"([{v} for {v} in {seats} if {c}] or _none)[0]"
        elif kind in ("best", "worst"):     # `player with highest V`
            out = f"_best([({c}, {v}) for {v} in {seats}], {int(kind == 'best')})"
        elif kind in ("each", "others"):        # who decides together: a list of seats
            out = f"[{v} for {v} in {seats} if {c}]"
        elif kind == "total":
            out = f"sum([{c} for {v} in {seats}{only}])"
        else:
            out = f"{'_hi' if kind == 'highest' else '_lo'}([{c} for {v} in {seats}{only}])"
        return self._hoisted(out, hoisted)

    def g_PlayedBy(self, cx, e, env):
        """`who played c`: the card's value among the variables (compile/layout.py,
        ``played_base``); the card none reads the value before them, always -1."""
        return f"{self.vars(cx)}[{int(self.cg.played_base)} + {self.gen(cx, e.card, env)}]"

    def g_Holder(self, cx, e, env):
        return f"_hold(g, {self.gen(cx, e.card, env)}, {self.const(self.cg.owned_zones())})"

    def g_Name(self, cx, e, env):
        ref = self.refs.of(e)
        cg = self.cg
        if isinstance(ref, Local):
            return self.slot(cx, ref.index, env)
        if isinstance(ref, Var):
            base = int(cg.var_base[ref.name])
            if ref.per_player:
                return f"{self.vars(cx)}[{base} + {self.slot(cx, Frame.slot(ref.you), env)}]"
            return f"{self.vars(cx)}[{base}]"
        if isinstance(ref, Zone):
            base = int(cg.zone_base[ref.name])
            if ref.per_player:
                seat = self.slot(cx, Frame.slot(ref.you), env)
                # (a seat known where it is written: the endings' test unrolled per seat)
                return Known(base + seat.value) if isinstance(seat, Known) else PlayerZone(base, seat)
            return Known(base)
        if isinstance(ref, (Const, Symbol)):
            return f"({int(ref.value)})"
        if isinstance(ref, CardName):
            return f"({int(cg.card_name_ids.get(ref.name, -1))})"
        if isinstance(ref, DefineUse):
            return self.expanded(cx, ref.expanded, env)
        raise AssertionError(ref)           # the checker resolves a name to nothing else

    def g_Of(self, cx, e, env):
        ref = self.refs.of(e)
        if isinstance(ref, DefineUse):
            return self.expanded(cx, ref.expanded, env)
        if isinstance(ref, CardLiteral):          # `queen of spades`
            return self.g_CardLit(cx, e, env)
        if isinstance(ref, (Rank, Suit, Attribute)):        # of the loop's card: held per card?
            name = self.card_bound(cx, e, self.card_table(e), env)
            if name is not None:
                return name
        x = self.gen(cx, e.operand, env)
        cg = self.cg
        if isinstance(ref, Rank):
            return f"{self.const(cg.rank_of)}[{x}]"
        if isinstance(ref, Suit):
            return f"{self.const(cg.suit_of)}[{x}]"
        if isinstance(ref, Attribute):
            return f"{self.const(cg.attr_tables[ref.name])}[{x}]"
        if isinstance(ref, ZoneOf):
            return PlayerZone(cg.zone_base[ref.name], x)
        if isinstance(ref, VarOf):
            return f"{self.vars(cx)}[{int(cg.var_of_base[ref.name])} + {x}]"
        raise AssertionError(ref)           # the checker resolves `of` to nothing else

    def g_Call(self, cx, e, env):
        ref = self.refs.of(e)
        if isinstance(ref, ZoneFamily):
            zone_of = self.cg.__dict__.setdefault("_families", {}).setdefault(
                id(e), self.cg.zone_family_table(e))
            zone = self.family_member(cx, e, ref, zone_of, env)
            if ref.per_player:          # a family per player: `pile(k)` (yours), `pile(k) of p`
                owner = (self.slot(cx, Frame.slot(ref.you), env) if ref.you is not None
                         else self.gen(cx, e.owner, env))
                return f"({zone} + {owner})"
            return zone
        return self.expanded(cx, ref.expanded, env)

    def family_member(self, cx, e, ref, zone_of, env):
        """``column(k)``: the zone numbered k, by ``zone_of`` (which stops the game outside the
        family, RL256); with ``family_index``, a constant k is the zone's number, and a local's
        is looked up in a tuple where the range is tested in place."""
        arg = e.args[0]
        k = self.gen(cx, arg, env)
        while isinstance(arg, Arg):             # a define's parameter: what it stands for
            arg = arg.expr
        lo, hi = ref.first, ref.first + len(ref.names) - 1
        if self.cg.on("family_index"):
            bases = tuple(int(self.cg.zone_base[n]) for n in ref.names)
            if isinstance(arg, A.Int) or isinstance(self.refs.of(arg, None), Const):
                v = int(arg.value) if isinstance(arg, A.Int) else int(self.refs.of(arg).value)
                if lo <= v <= hi:
                    return Known(bases[v - lo])
            elif isinstance(arg, A.Name) and isinstance(self.refs.of(arg, None), Local):
                return (f"({self.const(bases)}[{k} - {lo}] if {lo} <= {k} <= {hi} "
                        f"else {self.const(zone_of)}({k}))")
        return f"{self.const(zone_of)}({k})"

    def g_Expanded(self, cx, e, env):
        return self.expanded(cx, e, env)

    def g_Arg(self, cx, e, env):
        return self.gen(cx, e.expr, env)

    def g_BoolOp(self, cx, e, env):
        # Options are constants: `x and no` is no, `x or no` is x.  Parts after a deciding
        # constant are never generated, so nothing of them is computed (or hoisted) at all.
        # (What is known, and what rolls a die, is read from the tree: compile/fold.py.)
        is_and = e.op == "and"
        parts = []
        chancy = False
        decided = []        # the parts before, computed before a loop: they guard the rest
        false = cx.false     # (the comparisons known false where each part is computed)
        for i, item in enumerate(e.items):
            part = self.guard(cx, decided)
            if false is not cx.false:
                part = part.evolve(false=false)
            code = self.gen(part, item, env)
            lit = self.fold.known(item)
            if lit is None:
                if not is_and and false and i < len(e.items) - 1 and \
                        not self.fold.chance(item) and self._compare_shape(cx, item, env) in false:
                    continue            # false where it is computed: `or` goes on to the next
                parts.append(code)
                self.guarding(cx, decided, code, is_and)
                chancy = chancy or self.fold.chance(item)
                if is_and:              # `not (a is b) and (a is b or c)`: the rest sees a != b
                    known = self._negated(cx, item, env)
                    if known is not None:
                        false = (false or frozenset()) | {known}
                continue
            if bool(lit) == is_and:            # `yes` in an and, `no` in an or: no effect
                continue
            if not chancy:
                return "1" if lit else "0"
            parts.append(code)                 # earlier parts still roll their dice
            break
        if not parts:
            return "1" if is_and else "0"
        return "(" + (" and " if is_and else " or ").join(parts) + ")"

    def _negated(self, cx, e, env):
        """For a part ``e`` of an `and` that is `not (a is b)` (through defines; no die): the
        shape of ``a is b`` (_compare_shape), false wherever the parts after ``e`` are computed
        (g_BoolOp), else None."""
        e = self._unwrapped(e)
        if not (isinstance(e, A.Unary) and e.op == "not"):
            return None
        cmp = self._compare_of(e.operand)
        if cmp is None or cmp.op not in ("==", "!=") or self.fold.chance(cmp):
            return None
        return self._compare_shape(cx, cmp, env)

    def _compare_shape(self, cx, e, env):
        """The shape (ExprGen.shape) of the comparison ``e`` is, through the uses of defines;
        None when it is none."""
        cmp = self._compare_of(e)
        return None if cmp is None else self.shape(cx, cmp, env)

    def g_Compare(self, cx, e, env):
        return self._compare(cx, e, env, e.op)

    def _compare(self, cx, e, env, op):
        """The code of ``e`` with the operator ``op`` (its own, or the opposite of ``==`` or
        ``!=`` for a `not` around it)."""
        if op in ("==", "!=") and any(isinstance(x, A.Seat) and int(x.number) > self.cg.n
                                      for x in (e.left, e.right)):
            # a seat that does not exist in this game is no player: never equal (RL908 only
            # where the rules would use it as a player)
            other = e.right if isinstance(e.left, A.Seat) and int(e.left.number) > self.cg.n else e.left
            return f"({self.gen(cx, other, env)}, {op == '!='})[1]"
        return f"({self.gen(cx, e.left, env)} {op if op in ('==', '!=', '<', '>', '<=', '>=') else '=='} {self.gen(cx, e.right, env)})"

    def _compare_of(self, e):
        """The comparison ``e`` is, through the uses of defines (whose body is written in place
        with the same names), or None."""
        e = self._unwrapped(e)
        return e if isinstance(e, A.Compare) else None

    def _unwrapped(self, e):
        """``e`` itself, through the uses of defines and their arguments (written in place)."""
        while True:
            if isinstance(e, Expanded):
                e = e.body
            elif isinstance(e, Arg):
                e = e.expr
            elif isinstance(self.refs.of(e, None), DefineUse):
                e = self.refs.of(e).expanded
            else:
                break
        return e

    def g_InSet(self, cx, e, env):
        code = f"_setin({self.gen(cx, e.item, env)}, {self.gen(cx, e.coll, env)})"
        return f"(not {code})" if e.negate else code

    def g_SetSize(self, cx, e, env):
        return f"_setsize({self.gen(cx, e.coll, env)})"

    def g_IsEmpty(self, cx, e, env):
        z = self.gen(cx, e.zone, env)
        if self.cg.types.of(e.zone, None) in SET_KINDS:        # a local holding a set
            return f"({z} != 0)" if e.negate else f"({z} == 0)"
        return f"(not (not {self.zone(cx, z)}))" if e.negate else f"(not {self.zone(cx, z)})"

    def g_Arith(self, cx, e, env):
        a, b = self.gen(cx, e.left, env), self.gen(cx, e.right, env)
        if e.op in ("+", "-"):
            return f"({a} {e.op} {b})"
        span = self.const(e.span)
        if e.op == "*":                        # the one operator that can grow a number fast
            return f"_mul({a}, {b}, {span})"
        if e.op == "/":
            return f"_div({a}, {b}, {span})"
        return f"_mod({a}, {b}, {span})"

    def g_Cases(self, cx, e, env):
        kept = self.kept_by_first(cx, e)
        if kept:        # the defines the first condition computes, kept for the rest
            return self._cases(cx.evolve(kept={**(cx.kept or {}), **kept}), e, env)
        return self._cases(cx, e, env)

    def kept_by_first(self, cx, e) -> dict:
        """The defines that the first condition of ``e`` (``(A if C1, B if C2, ... otherwise)``)
        computes whatever happens (:meth:`sure_defines`) and that another part of ``e`` uses
        again (Attack!'s ``higher``: each strength in C1 and again in C2): ``{id(copy): [copy,
        None]}``, for :meth:`expanded` to keep their values (``(_wN := ...)``) where C1 computes
        them.  Only in a plain part of a statement's value (``plain``): not in a loop or a
        function of its own (where a name kept outside is not seen), nor in what a comprehension
        goes through (where Python binds no name)."""
        if not cx.plain or cx.hoist is not None or \
                cx.prelude is not None or not e.cases:
            return {}
        first = self.sure_defines(e.cases[0][1])
        if not first:
            return {}
        refs = self.refs
        again = set()                       # used again by the later parts (through defines)
        seen = set()
        todo = [v for v, _ in e.cases] + [c for _, c in e.cases[1:]] + [e.default]
        while todo:
            x = todo.pop()
            ref = refs.of(x, None) if isinstance(x, (A.Name, A.Call, A.Of)) else None
            if isinstance(ref, DefineUse):
                ex = ref.expanded
                if id(ex) in first:
                    again.add(id(ex))       # (its value read again, its body not computed)
                elif id(ex) not in seen:
                    seen.add(id(ex))
                    todo.append(ex.body)
            todo.extend(_children(x))
        return {k: [first[k], None] for k in again}

    def sure_defines(self, e) -> dict:
        """The defines whose value the code of ``e`` computes whatever happens at their first
        use, in the order the code is written and computed (a side of a comparison or of
        arithmetic, the first part of an `and`/`or`, through `not` and defines; not a part under
        a condition, nor one inside anything else, nor a part known before the game, whose code
        is a constant), that roll no die, are not known before the game and are worth a name
        (a lookup, not a read): ``{id(copy): copy}``.  Where the first is computed, its value
        can be kept for the uses after (``kept``)."""
        fold, refs = self.fold, self.refs
        first = {}          # id(copy) -> (copy, computed whatever happens) at its first use
        todo = [(e, True)]
        while todo:
            x, sure = todo.pop()
            if sure and fold.known(x) is not None:
                continue                    # (a constant in the code: nothing of it computed)
            ref = refs.of(x, None) if isinstance(x, (A.Name, A.Call, A.Of)) else None
            if isinstance(ref, DefineUse):
                ex = ref.expanded
                if id(ex) not in first:
                    first[id(ex)] = (ex, sure and not fold.chance(ex) and self.weight(ex) >= 4)
                    todo.append((ex.body, sure))
                continue
            if isinstance(x, Expanded):
                todo.append((x.body, sure))
            elif isinstance(x, Arg):
                todo.append((x.expr, sure))
            elif isinstance(x, (A.Compare, A.Arith)):
                todo += [(x.right, sure), (x.left, sure)]          # (left first)
            elif isinstance(x, A.BoolOp):
                todo += [(i, False) for i in reversed(x.items[1:])] + [(x.items[0], sure)]
            elif isinstance(x, (A.Unary, A.Of)):
                todo.append((x.operand, sure))
            else:
                todo += [(c, False) for c in reversed(list(_children(x)))]
        return {k: ex for k, (ex, sure) in first.items() if sure}

    # ``cx.kept``: the defines whose values the code being written keeps once computed:
    # {id(define's copy): [copy, the name its value is kept in, or None]} (a choice between
    # values: kept_by_first; an `if D is not none ...: set V to D`: RuleGen.first_define).

    def _cases(self, cx, e, env):
        cases = []
        out = None
        before = []         # the conditions before, computed before a loop: they guard the rest
        for value, cond in e.cases:
            c = self.gen(self.guard(cx, before), cond, env)
            lit = self.fold.known(cond)        # (from the tree: compile/fold.py)
            if lit is not None and not lit:    # a case that can never hold
                continue
            v = self.gen(self.guard(cx, self.guarding(cx, list(before), c, True)), value, env)
            if lit is not None:                # a case that always holds: the rest never count
                out = v
                break
            cases.append((v, c))
            self.guarding(cx, before, c, False)
        if out is None:
            out = self.gen(self.guard(cx, before), e.default, env)
        for v, c in reversed(cases):
            out = f"({v} if {c} else {out})"
        return out
