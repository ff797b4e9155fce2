"""Expressions compiled to Python functions, for speed.

:class:`ExprGen` turns a checked expression into the source of one Python function
``f(g, fr)`` and compiles it once, when the game is compiled.  One generated function replaces a
tree of closures, which is what makes random play fast (a condition such as "the card matches the
top of the discard pile by suit or rank" is evaluated for every card of every hand at every
decision).

Safety: a rule file is untrusted, so nothing of its text ever reaches the generated source.  The
source is made only of integer literals formatted with ``int``, the fixed names ``g``, ``fr`` and
``out``, names this module invents (``_t3``, ``_v1``) for tables and helpers it puts in the
function's namespace, and Python operators.  Every identifier is checked against that alphabet
before compiling (:func:`_safe`).  An expression kind this module does not know raises
:class:`Unsupported`, and the compiler falls back to its closures for that expression.
"""
from __future__ import annotations

import functools
import re

import attrs

from rulelang.syntax import ast as A
from rulelang.check.checker import Expanded
from rulelang.limits import MAX_NUMBER
from rulelang.engine.control import GameProblem
from rulelang.engine.players import show_card
from rulelang.engine.values import number_range
from rulelang.engine.values import best_of, highest, lowest
from rulelang.engine.players import (holder, leave_game, next_in, random_seat_in, seat_after, seat_in,
                                     seats_after, seats_in)


class Unsupported(Exception):
    pass


_ALLOWED_NAMES = re.compile(r"^(g|fr|out|p|pc|_[a-z]+\d*|while|continue|break|raise|tuple|steps|max_steps|stack|pending|legal|sim|turns|decisions|range|elif|pass|insert|pop|remove|shuffle|skip|next_turn|and|or|not|if|else|for|in|len|sum|any|all"
                            r"|return|def|int|cur|dir|zones|vars|rng|randrange|randint|get|append"
                            r"|extend|None|True|False|log|is|del)$")


def _safe(src: str) -> str:
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", src):
        if not _ALLOWED_NAMES.match(word):
            raise AssertionError(f"generated code would contain the name {word!r}")
    if '"' in src or "'" in src or "\\" in src:
        raise AssertionError("generated code would contain a string")
    return src


@functools.lru_cache(maxsize=4096)
def _code(src: str):
    """The code object of a generated source, compiled once per process: the same source comes
    again for each number of players (most of a game's functions do not depend on it) and when
    a rule is generated twice (first to learn whether it can be).  The names it uses are bound
    at each exec, in that game's own namespace."""
    return _compile_source(src)


def _compile_source(src: str):
    """Compile generated source.  Python refuses some sources that the language allows (more
    than 20 loops inside one another, 100 levels of indentation, 200 nested parentheses, an
    expression too deep for its compiler): then the compiler keeps its closures (Unsupported),
    which have no such limits."""
    try:
        return compile(_safe(src), "<rulelang>", "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError) as err:
        raise Unsupported(f"Python cannot compile it: {err}") from None


def _as_int(code: str) -> str:
    """Code for the value as an int (a comparison gives a bool): a literal number as it is."""
    return code if re.fullmatch(r"\(?-?\d+\)?", code) else f"int({code})"


def _literal(code: str):
    """0 or 1 when generated code is the constant no or yes (an option's value), else None."""
    return {"0": 0, "(0)": 0, "1": 1, "(1)": 1}.get(code)


def _div(a, b, span=None):
    if b:
        return a // b
    raise GameProblem("RL911", f"{a} is divided by zero", span)


def _noseat(k, n, span=None):
    raise GameProblem("RL908", f"there is no player {k} when {n} "
                      f"player{'s play' if n != 1 else ' plays'}", span)


def _noplayer(span=None):
    raise GameProblem("RL912", "a player is `none` where the rules use it as a player", span)


def _seat(p, span=None):
    """A player value used as a player: `none` (-1) stops the game with RL912."""
    if p >= 0:
        return p
    _noplayer(span)


def _mod(a, b, span=None):
    if b:
        return a % b
    raise GameProblem("RL911", f"{a} mod 0: a number cannot be divided by zero", span)


def _mul(a, b, span=None):
    v = a * b
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise too_large(v, span)


def too_large(v, span=None):
    """RL910: a number computed beyond the bound of every number (rulelang/limits.py)."""
    return GameProblem("RL910", f"the number {v} is too large: numbers are at most {MAX_NUMBER} "
                       "(10^15) either way", span)


def _big(v, span):
    raise too_large(v, span)


def computes(e, refs) -> bool:
    """Does ``e`` add, subtract or multiply (through its defines too)?  A number stored from such
    an expression is checked against the bound (RL910): without that, a rule that doubles a
    variable again and again would fill the memory before the step budget runs out."""
    from rulelang.check.checker import Expanded, _walk
    todo = [e]
    while todo:
        for n in _walk(todo.pop()):
            if isinstance(n, A.Arith) and n.op in ("+", "-", "*"):
                return True
            ref = refs.get(id(n)) if isinstance(n, (A.Name, A.Call, A.Of)) else None
            if ref is not None and ref[0] == "expanded":
                todo.append(ref[1])
            elif isinstance(n, Expanded):
                pass               # _walk goes into its body
    return False


def _top(z):
    return z[-1] if z else -1


def _bottom(z):
    return z[0] if z else -1


def _rnd(z, rng):
    """``random card of Z``: a card drawn at random (as the closures draw it), none if empty."""
    return z[rng.randrange(len(z))] if z else -1


HELPER_SIZE = 2000      # a define's code longer than this is a function (see ExprGen.expanded)


class ExprGen:
    """Generates functions for one compiled game (``cg`` is the CompiledGame)."""

    def __init__(self, cg):
        self.cg = cg
        self.refs = cg.refs
        self.ns = {"_div": _div, "_mod": _mod, "_mul": _mul, "_big": _big, "_top": _top,
                   "_bottom": _bottom, "_none": (-1,), "_rnd": _rnd, "_sa": seat_after,
                   "_si": seat_in, "_sin": seats_in, "_saf": seats_after, "_nin": next_in,
                   "_hold": holder, "_hi": highest, "_lo": lowest, "_rsi": random_seat_in,
                   "_leave": leave_game, "_show": show_card,
                   "_noseat": _noseat, "_best": best_of, "_zero": (0,), "_seat": _seat,
                   "_noplayer": _noplayer}
        self.names = {}
        self.counter = 0
        self._expanded = {}       # see expanded()
        self._helpers = {}
        self._prelude = self._prelude_args = None
        self._slots_used = {}
        self.seat_uses = getattr(getattr(cg, "model", None), "seat_uses", frozenset())
        # The direction of play: the constant 1 in a game that never reverses it.
        self.dir = "g.dir" if "reverse" in getattr(cg, "flow", ("reverse",)) else "1"

    def const(self, obj) -> str:
        """A name in the namespace for a table or helper object."""
        key = id(obj)
        if key not in self.names:
            self.counter += 1
            name = f"_t{self.counter}"
            self.names[key] = name
            self.ns[name] = obj
        return self.names[key]

    def fresh(self) -> str:
        self.counter += 1
        return f"_v{self.counter}"

    # ---- building functions -------------------------------------------------------------------
    def function(self, e, env=None):
        """``f(g, fr)`` returning the value of ``e``."""
        body = self.gen(e, env or {})
        return self._compile(f"def _f(g, fr):\n    return {body}\n")

    def player_function(self, e, nslots):
        """``f(g, p)`` for a condition where ``you`` is ``p`` (the endings)."""
        body = self.gen(e, {2: "p"})
        if "fr" in re.findall(r"[A-Za-z_]+", body):
            raise Unsupported("uses locals")
        return self._compile(f"def _f(g, p):\n    return {body}\n")

    def endings_function(self, conditions):
        """``f(g)`` returning ``(k, p)`` for the first ending ``k`` whose condition holds for a
        player ``p`` (from the current player on, in the order of play), or None."""
        if not conditions:
            raise Unsupported("no endings")
        n = int(self.cg.n)
        lines = ["def _f(g):"]
        try:
            lines += [f"    if not {self.endings_quick(conditions)}:", "        return None"]
        except Unsupported:
            pass
        lines += ["    _c = g.cur", "    _d = g.dir"]
        for k, cond in enumerate(conditions):
            body = self.gen(cond, {2: "p"})
            if "fr" in re.findall(r"[A-Za-z_]+", body):
                raise Unsupported("uses locals")
            lines.append(f"    for _k in range({n}):")
            lines.append(f"        p = (_c + _d * _k) % {n}")
            if self.cg.out_base is not None:        # a player who is out is not checked
                ob = int(self.cg.out_base)              # (unless every player is)
                lines.append(f"        if g.vars[{ob} + p] and not all(g.vars[{ob}:{ob + n}]):")
                lines.append("            continue")
            lines.append(f"        if {body}:")
            lines.append(f"            return ({k}, p)")
        lines.append("    return None")
        return self._compile("\n".join(lines) + "\n")

    def endings_quick(self, conditions):
        """Code (an expression of ``g``) that is true when some ending's condition holds for some
        player, each seat a constant: a cheap test, made before every decision, that nothing has
        ended; only when it holds are the endings checked in the order of play.  (Conditions that
        roll dice or draw at random are not tested twice: Unsupported.)"""
        if not conditions:
            raise Unsupported("no endings")
        n = int(self.cg.n)
        parts = []
        for cond in conditions:
            for p in range(n):
                body = self.gen(cond, {2: str(p)})
                names = re.findall(r"[A-Za-z_]+", body)
                if "fr" in names or "rng" in names:
                    raise Unsupported("uses locals or chance")
                parts.append(body)
        code = "(" + " or ".join(parts) + ")"
        _safe(code)
        return code

    def enumerator(self, zone, where, cond, slot_index, base):
        """``f(g, fr, out)`` appending ``base + card`` for each card of the zone that passes."""
        v = self.fresh()
        z = self.gen(zone, {})
        hoisted = []
        test = None
        if where is not None:
            test, hoisted = self.gen_hoisting(where, {slot_index: v}, v)
        lines = ["def _f(g, fr, out):"]
        indent = "    "
        if cond is not None:
            lines.append(f"    if not ({self.gen(cond, {})}):")
            lines.append("        return")
        lines.extend(f"    {name} = {code}" for name, code in hoisted)
        if test is None:
            lines.append(f"{indent}out.extend([{int(base)} + {v} for {v} in g.zones[{z}]])")
        else:
            lines.append(f"{indent}out.extend([{int(base)} + {v} for {v} in g.zones[{z}] if {test}])")
        return self._compile("\n".join(lines) + "\n")

    def _compile(self, src):
        code = _code(src)
        ns = self.namespace(code)
        exec(code, ns)   # generated from the checked AST only; see the module docstring
        return ns["_f"]

    def namespace(self, code) -> dict:
        """A namespace for a generated function: the tables and helpers it names, not all of the
        game's (copying them all for each function made compiling quadratic in the rules)."""
        names = self.ns
        out = {}
        todo = [code]
        while todo:
            c = todo.pop()
            for name in c.co_names:
                if name in names:
                    out[name] = names[name]
            todo.extend(k for k in c.co_consts if hasattr(k, "co_names"))
        return out

    # ---- expressions --------------------------------------------------------------------------
    def gen(self, e, env) -> str:
        m = getattr(self, "g_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(type(e).__name__)
        if id(e) in self.seat_uses:             # used as a player: `none` is RL912
            inner = m
            m = lambda e, env: self.seated(inner(e, env), e)   # noqa: E731
        hoist = getattr(self, "_hoist", None)
        if hoist is not None and not isinstance(e, (A.Int, A.Bool, A.NoneLit)):
            # Inside a loop over cards: a part that does not depend on the card (and rolls no
            # die) is computed once, before the loop.
            self._hoist = None
            try:
                code = m(e, env)
            finally:
                self._hoist = hoist
            # It depends on the card when it reads a slot bound to a loop's card (from the tree,
            # not by looking for the loop's name in the code); it is worth computing first when
            # it reads the game (`g.`, a slot, or a function given the game: `(g`).
            loop_slots = {k for k, v in env.items() if v in hoist[0]}
            if not (self.slots_used(e) & loop_slots) and "rng" not in code and \
                    ("g." in code or "fr[" in code or "(g" in code) and not code.startswith("fr["):
                for name, c in hoist[1]:
                    if c == code:
                        return name
                self.counter += 1
                name = f"_h{self.counter}"
                hoist[1].append((name, code))
                return name
        return m(e, env)

    def seated(self, code, e):
        """Code for a player value used as a player, stopping with RL912 when it is `none`: a
        plain read is tested in place, anything else through ``_seat``."""
        span = self.const(e.span)
        if re.fullmatch(r"[A-Za-z_]\w*|fr\[\d+\]|g\.vars\[\d+( \+ (fr\[\d+\]|[A-Za-z_]\w*))?\]", code):
            return f"({code} if {code} >= 0 else _noplayer({span}))"
        return f"_seat({code}, {span})"

    def gen_hoisting(self, e, env, loop_var):
        """Code for ``e`` inside a loop binding ``loop_var``, and the (name, code) pairs to
        compute before the loop."""
        outer = getattr(self, "_hoist", None)
        loop_vars = [loop_var] + (list(outer[0]) if outer else [])
        self._hoist = (loop_vars, [])
        try:
            code = self.gen(e, env)
            return code, self._hoist[1]
        finally:
            self._hoist = outer

    def slot(self, index, env):
        return env.get(index, f"fr[{int(index)}]")

    def g_Int(self, e, env):
        return str(int(e.value))

    def g_Text(self, e, env):
        return str(int(self.refs[id(e)][1]))     # a text is its index in model.texts

    def g_Bool(self, e, env):
        return "1" if e.value else "0"

    def g_NoneLit(self, e, env):
        return "(-1)"

    def g_Keyword(self, e, env):
        w = e.word
        n = int(self.cg.n)
        you = self.slot(3 + self.refs.get(id(e), ("you", -1))[1], env)
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
            return f"g.rng.randrange({n})"
        if w in ("players", "number of players"):
            return str(n)
        if w == "number of turns":
            return "g.turns"
        if w == "opponents":
            return str(n - 1)
        raise Unsupported(w)

    def g_Seat(self, e, env):
        if int(e.number) > self.cg.n:           # only when the rules reach it (RL908)
            return f"_noseat({int(e.number)}, {int(self.cg.n)}, {self.const(e.span)})"
        return str(int(e.number) - 1)

    def g_Unary(self, e, env):
        op = e.op
        x = self.gen(e.operand, env)
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
            return f"(g.zones[{x}] or _none)[-1]"     # an empty zone's top is none (-1)
        if op == "bottom":
            return f"(g.zones[{x}] or _none)[0]"
        if op == "size":
            return f"len(g.zones[{x}])"
        if op == "random card":                   # `rng` in the code: never hoisted
            return f"_rnd(g.zones[{x}], g.rng)"
        if op == "not":
            return f"(not {x})"
        if op == "neg":
            return f"(-{x})"
        if op == "score":
            return f"{self.const(self.cg.score_of)}(g, {x})"
        raise Unsupported(op)

    def g_TotalOf(self, e, env):
        cg = self.cg
        table = cg.rank_of if e.attribute == "rank" else cg.attr_tables.get(e.attribute)
        if table is None:
            raise Unsupported(e.attribute)
        v = self.fresh()
        return f"sum([{self.const(table)}[{v}] for {v} in g.zones[{self.gen(e.zone, env)}]])"

    def g_AnyNumber(self, e, env):
        v = self.fresh()
        inner = dict(env)
        inner[3 + self.refs[id(e)]] = v
        lo, hi = self.gen(e.low, env), self.gen(e.high, env)
        c, hoisted = self.gen_hoisting(e.condition, inner, v)
        span = self.const(e.span)
        out = f"any([1 for {v} in {self.const(number_range)}({lo}, {hi}, {span}) if {c}])"
        if hoisted:
            pre = ", ".join(f"({name} := {code})" for name, code in hoisted)
            out = f"({pre}, {out})[-1]"
        return out

    def g_MeldLeft(self, e, env):
        return f"{self.const(self.cg.meld_solver(e.attribute, e.span))}(g.zones[{self.gen(e.zone, env)}])"

    def g_Roll(self, e, env):
        return f"g.rng.randint(1, {int(e.sides)})"

    def g_CardQuery(self, e, env):
        z = self.gen(e.zone, env)
        if e.condition is None:
            if e.kind == "count":
                return f"len(g.zones[{z}])"
            if e.kind == "any":
                return f"(len(g.zones[{z}]) > 0)"
            return f"(not g.zones[{z}])"
        v = self.fresh()
        inner = dict(env)
        inner[3 + self.refs[id(e)]] = v
        c, hoisted = self.gen_hoisting(e.condition, inner, v)
        if e.kind == "any":
            out = f"any([1 for {v} in g.zones[{z}] if {c}])"
        elif e.kind == "no":
            out = f"(not any([1 for {v} in g.zones[{z}] if {c}]))"
        else:
            out = f"len([1 for {v} in g.zones[{z}] if {c}])"
        if hoisted:
            pre = ", ".join(f"({name} := {code})" for name, code in hoisted)
            out = f"({pre}, {out})[-1]"
        return out

    # ---- selectors and aggregates (issue 14) ---------------------------------------------------
    def g_CardLit(self, e, env):
        return f"({int(self.cg.card_literal_id(*self.refs[id(e)][1:]))})"

    def _hoisted(self, out, hoisted):
        if hoisted:
            pre = ", ".join(f"({name} := {code})" for name, code in hoisted)
            out = f"({pre}, {out})[-1]"
        return out

    def g_AmongCards(self, e, env):
        z = self.gen(e.zone, env)
        v = self.fresh()
        inner = dict(env)
        inner[3 + self.refs[id(e)]] = v
        val, hoisted = self.gen_hoisting(e.value, inner, v)
        cond = ""
        if e.condition is not None:
            c, more = self.gen_hoisting(e.condition, inner, v)
            hoisted = hoisted + more
            cond = f" if {c}"
        if e.kind in ("highest", "lowest", "total"):
            fn = {"highest": "_hi", "lowest": "_lo", "total": "sum"}[e.kind]
            out = f"{fn}([{val} for {v} in g.zones[{z}]{cond}])"
        else:
            out = f"_best([({val}, {v}) for {v} in g.zones[{z}]{cond}], {int(e.kind == 'highest card')})"
        return self._hoisted(out, hoisted)

    def g_PickValue(self, e, env):
        v = self.fresh()
        inner = dict(env)
        inner[3 + self.refs[id(e)]] = v
        c, hoisted = self.gen_hoisting(e.condition, inner, v)
        high = e.kind == "highest"
        if e.low is None:
            if not hasattr(self, "_rank_orders"):       # kept: const() names objects by id
                self._rank_orders = (tuple(sorted(self.cg.rank_cycle)),
                                     tuple(sorted(self.cg.rank_cycle, reverse=True)))
            values = self.const(self._rank_orders[high])
        else:
            lo, hi = self.gen(e.low, env), self.gen(e.high, env)
            values = (f"range({hi}, {lo} - 1, -1)" if high else f"range({lo}, {hi} + 1)")
        return self._hoisted(f"([{v} for {v} in {values} if {c}] or _zero)[0]", hoisted)

    def g_IsOut(self, e, env):
        ob = int(self.cg.out_base)
        x = f"g.vars[{ob} + {self.gen(e.player, env)}]"
        return f"(not {x})" if e.negate else f"(not (not {x}))"

    def g_PlayerQuery(self, e, env):
        slot, yslot = self.refs[id(e)]
        you = self.slot(3 + yslot, env)
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
        inner[3 + slot] = v
        c, hoisted = self.gen_hoisting(e.condition, inner, v)
        kind = e.kind
        if kind == "any":
            out = f"any([1 for {v} in {seats} if {c}])"
        elif kind == "no":
            out = f"(not any([1 for {v} in {seats} if {c}]))"
        elif kind == "count":
            out = f"len([1 for {v} in {seats} if {c}])"
        elif kind == "next":
            out = f"([{v} for {v} in {seats} if {c}] or _none)[0]"
        elif kind in ("best", "worst"):     # `player with highest V` (issue 14)
            out = f"_best([({c}, {v}) for {v} in {seats}], {int(kind == 'best')})"
        elif kind in ("each", "others"):        # who decides together: a list of seats
            out = f"[{v} for {v} in {seats} if {c}]"
        else:
            out = f"{'_hi' if kind == 'highest' else '_lo'}([{c} for {v} in {seats}])"
        if hoisted:
            pre = ", ".join(f"({name} := {code})" for name, code in hoisted)
            out = f"({pre}, {out})[-1]"
        return out

    def g_Holder(self, e, env):
        return f"_hold(g, {self.gen(e.card, env)}, {self.const(self.cg.owned_zones())})"

    def g_Name(self, e, env):
        ref = self.refs[id(e)]
        kind = ref[0]
        cg = self.cg
        if kind == "slot":
            return self.slot(3 + ref[1], env)
        if kind == "var":
            base = int(cg.var_base[ref[1]])
            if ref[2]:
                return f"g.vars[{base} + {self.slot(3 + ref[3], env)}]"
            return f"g.vars[{base}]"
        if kind == "zone":
            base = int(cg.zone_base[ref[1]])
            if ref[2]:
                return f"({base} + {self.slot(3 + ref[3], env)})"
            return str(base)
        if kind in ("const", "symbol"):
            return f"({int(ref[1])})"
        if kind == "card_name":
            return f"({int(cg.card_name_ids.get(ref[1], -1))})"
        if kind == "expanded":
            return self.expanded(ref[1], env)
        raise Unsupported(kind)

    def g_Of(self, e, env):
        ref = self.refs[id(e)]
        if ref[0] == "expanded":
            return self.expanded(ref[1], env)
        if ref[0] == "card_lit":          # `queen of spades` (issue 14)
            return self.g_CardLit(e, env)
        x = self.gen(e.operand, env)
        cg = self.cg
        kind = ref[0]
        if kind == "rank":
            return f"{self.const(cg.rank_of)}[{x}]"
        if kind == "suit":
            return f"{self.const(cg.suit_of)}[{x}]"
        if kind == "attr":
            return f"{self.const(cg.attr_tables[ref[1]])}[{x}]"
        if kind == "zone_of":
            return f"({int(cg.zone_base[ref[1]])} + {x})"
        if kind == "var_of":
            return f"g.vars[{int(cg.var_base[ref[1]])} + {x}]"
        raise Unsupported(kind)

    def g_Call(self, e, env):
        if self.refs[id(e)][0] == "zone_family":
            zone_of = self.cg.__dict__.setdefault("_families", {}).setdefault(
                id(e), self.cg.zone_family_table(e))
            return f"{self.const(zone_of)}({self.gen(e.args[0], env)})"
        return self.expanded(self.refs[id(e)][1], env)

    def g_Expanded(self, e, env):
        return self.expanded(e, env)

    def expanded(self, ex, env):
        """Code for a use of a define.  The checker shares one copy of a define's body between
        its uses with the same arguments (``define d2 = d1 + d1``); its code is made once for each
        place (``env``, the loop it may be hoisted out of, the function it is in) and copied where
        it is used, or, when it is longer than ``HELPER_SIZE``, becomes a function called there,
        so that the code of a chain of defines grows with the text of the rule file, not with its
        expansion."""
        hoist = getattr(self, "_hoist", None)
        ctx = (hoist and hoist[1], self._prelude)
        used = self.slots_used(ex)
        env = {k: v for k, v in env.items() if k in used}    # names it never reads: no matter
        key = (id(ex), tuple(sorted(env.items())))
        hit = self._expanded.get(key)
        if hit is not None and hit[1][1] is ctx[1] and (hit[1][0] is ctx[0] or hit[3]):
            return hit[0]                        # (a function's call fits any loop)
        code = self.gen(ex.body, env)
        call = len(code) > HELPER_SIZE
        if call:
            code = self.helper(ex, env)
        self._expanded[key] = (code, ctx, ex, call)   # ex, ctx kept alive: their ids compared
        return code

    def slots_used(self, e) -> frozenset:
        """The frame indices whose names (``env``) the code of ``e`` may read: its locals and
        ``you`` (a define's copy: once, kept)."""
        if isinstance(e, Expanded):
            hit = self._slots_used.get(id(e))
            if hit is None:
                hit = self._slots_used[id(e)] = (self.slots_used(e.body), e)
            return hit[0]
        out = set()
        ref = self.refs.get(id(e))
        if isinstance(ref, tuple) and ref:
            if ref[0] == "expanded":
                return self.slots_used(ref[1])
            if ref[0] in ("slot", "you"):
                out.add(3 + ref[1])
            elif ref[0] in ("var", "zone"):
                out.add(3 + ref[3])
        elif isinstance(e, A.Keyword):
            out.add(2)
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                for y in (x if isinstance(x, tuple) else (x,)):
                    if isinstance(y, A.Expr):
                        out |= self.slots_used(y)
        return frozenset(out)

    def helper(self, ex, env):
        """A call of a function computing a define's body: ``f(g[, fr][, rng], a0, ...)`` with
        the values of ``env`` (names bound around the use) as arguments; ``fr`` and ``g.rng``
        are passed (and so seen in the call) when the body uses them.  Inside such a function,
        a call of another that rolls no die and needs only the function's own arguments is made
        once, first (the value cannot change while an expression is computed, and computing it
        cannot fail): ``define d3 = d2 + d2`` calls ``d2``'s function once."""
        keys = sorted(env)
        hkey = (id(ex), tuple(keys))
        made = self._helpers.get(hkey)
        if made is None:
            saved = getattr(self, "_hoist", None), self._prelude, self._prelude_args
            self._hoist, self._prelude = None, []
            self._prelude_args = {"g", "fr"} | {f"_a{i}" for i in range(len(keys))}
            try:
                body = self.gen(ex.body, {k: f"_a{i}" for i, k in enumerate(keys)})
                first = self._prelude
            finally:
                self._hoist, self._prelude, self._prelude_args = saved
            names = set(re.findall(r"[A-Za-z_]+", body + " ".join(c for _, c in first)))
            params = ["g"] + ["fr"] * ("fr" in names) + ["_rng"] * ("rng" in names)
            params += [f"_a{i}" for i in range(len(keys))]
            lines = [f"def _f({', '.join(params)}):"]
            lines += [f"    {name} = {code}" for name, code in first]
            lines.append(f"    return {body}")
            fn = self._compile("\n".join(lines) + "\n")
            made = self._helpers[hkey] = (self.const(fn), params, ex)
        name, params, _ = made
        args = [{"g": "g", "fr": "fr", "_rng": "g.rng"}.get(p) or env[keys[int(p[2:])]]
                for p in params]
        call = f"{name}({', '.join(args)})"
        if self._prelude is not None and "_rng" not in params and \
                set(args) <= self._prelude_args:
            self.counter += 1
            local = f"_c{self.counter}"
            self._prelude.append((local, call))
            return local
        return call

    def g_Arg(self, e, env):
        return self.gen(e.expr, env)

    def g_BoolOp(self, e, env):
        # Options are constants: `x and no` is no, `x or no` is x.  Parts after a deciding
        # constant are never generated, so nothing of them is computed (or hoisted) at all.
        is_and = e.op == "and"
        parts = []
        for item in e.items:
            code = self.gen(item, env)
            lit = _literal(code)
            if lit is None:
                parts.append(code)
                continue
            if lit == is_and:                  # `yes` in an and, `no` in an or: no effect
                continue
            if not any("rng" in p for p in parts):
                return "1" if lit else "0"
            parts.append(code)                 # earlier parts still roll their dice
            break
        if not parts:
            return "1" if is_and else "0"
        return "(" + (" and " if is_and else " or ").join(parts) + ")"

    def g_Compare(self, e, env):
        if e.op in ("==", "!=") and any(isinstance(x, A.Seat) and int(x.number) > self.cg.n
                                        for x in (e.left, e.right)):
            # a seat that does not exist in this game is no player: never equal (RL908 only
            # where the rules would use it as a player)
            other = e.right if isinstance(e.left, A.Seat) and int(e.left.number) > self.cg.n else e.left
            return f"({self.gen(other, env)}, {e.op == '!='})[1]"
        return f"({self.gen(e.left, env)} {e.op if e.op in ('==', '!=', '<', '>', '<=', '>=') else '=='} {self.gen(e.right, env)})"

    def g_IsEmpty(self, e, env):
        z = self.gen(e.zone, env)
        return f"(len(g.zones[{z}]) > 0)" if e.negate else f"(not g.zones[{z}])"

    def g_Arith(self, e, env):
        a, b = self.gen(e.left, env), self.gen(e.right, env)
        if e.op in ("+", "-"):
            return f"({a} {e.op} {b})"
        span = self.const(e.span)
        if e.op == "*":                        # the one operator that can grow a number fast
            return f"_mul({a}, {b}, {span})"
        if e.op == "/":
            return f"_div({a}, {b}, {span})"
        return f"_mod({a}, {b}, {span})"

    def g_Cases(self, e, env):
        cases = []
        out = None
        for value, cond in e.cases:
            c = self.gen(cond, env)
            lit = _literal(c)
            if lit == 0:                       # a case that can never hold
                continue
            v = self.gen(value, env)
            if lit == 1:                       # a case that always holds: the rest never count
                out = v
                break
            cases.append((v, c))
        if out is None:
            out = self.gen(e.default, env)
        for v, c in reversed(cases):
            out = f"({v} if {c} else {out})"
        return out


# ---- statements -------------------------------------------------------------------------------
# A run of simple statements (moves, assignments, shuffles, ifs made only of these) becomes one
# generated function, so the run loop dispatches one instruction instead of one per statement.

# The statements that decide where a rule goes on (blocks, jumps, calls, decisions, the end):
# the generators write each of these themselves.  Every other statement is simple: a ``t_``
# method below writes it, or the generated code calls its closure (``embed``), so a new plain
# statement is generated as soon as the closure backend knows it.
_CONTROL = (A.Simple, A.EndGame, A.CallRule, A.If, A.Loop, A.ForPlayer, A.ForCard, A.ForValue,
            A.Choose)


class StatementGen:
    """Fuses simple statements for the compiler ``cg`` (which provides closures as fallback)."""

    def __init__(self, cg, exprs: ExprGen):
        self.cg = cg
        self.x = exprs
        self.refs = cg.refs

    def is_simple(self, st) -> bool:
        if isinstance(st, A.Simple):
            return st.word in ("skip", "reverse", "pass")
        if isinstance(st, A.If):
            return all(self.is_simple(s) for _, body in st.branches for s in body) and \
                all(self.is_simple(s) for s in (st.otherwise or ()))
        return isinstance(st, A.Stmt) and not isinstance(st, _CONTROL)

    def fused(self, stmts):
        """A factory ``make(nxt)`` for one instruction running all of ``stmts``."""
        lines = []
        for st in stmts:
            self.stmt(st, lines, "    ")
        src = "def _f(g, fr):\n" + "\n".join(lines) + "\n    return _nxt\n"
        code = _compile_source(src)
        base = self.x.namespace(code)

        def make(nxt):
            ns = dict(base)
            ns["_nxt"] = int(nxt)
            exec(code, ns)   # generated from the checked AST only; see the module docstring
            return ns["_f"]
        return make

    def stmt(self, st, lines, ind):
        m = getattr(self, "t_" + type(st).__name__, None)
        if m is None or not m(st, lines, ind):
            self.embed(st, lines, ind)

    def embed(self, st, lines, ind):
        """Call the closure the compiler makes for this statement."""
        from rulelang.compile.compiler import Builder
        tmp = Builder()
        getattr(self.cg, "s_" + type(st).__name__)(st, tmp)
        for make, labels in tmp.items:
            if labels:
                raise Unsupported("jumps")
            lines.append(f"{ind}{self.x.const(make(0))}(g, fr)")

    def e(self, expr):
        return self.x.gen(expr, {})

    def t_Simple(self, st, lines, ind):
        if st.word == "skip":
            lines.append(f"{ind}g.skip += 1")
        elif st.word == "reverse":
            lines.append(f"{ind}g.dir = -g.dir")
        else:
            lines.append(f"{ind}pass")
        return True

    def t_Shuffle(self, st, lines, ind):
        lines.append(f"{ind}g.rng.shuffle(g.zones[{self.e(st.zone)}])")
        from rulelang.compile.compiler import log_shuffle
        self.x.ns["_logshuffle"] = log_shuffle
        lines.append(f"{ind}_logshuffle(g, {self.e(st.zone)})")
        return True

    def t_Show(self, st, lines, ind):
        lines.append(f"{ind}_show(g, {self.e(st.card)}, {self.e(st.player)})")
        return True

    def t_Leave(self, st, lines, ind):
        lines.append(f"{ind}_leave(g, {self.e(st.player)}, {int(self.cg.out_base)})")
        return True

    def t_NextTurn(self, st, lines, ind):
        lines.append(f"{ind}g.next_turn = {self.e(st.player)}")
        return True

    def t_Let(self, st, lines, ind):
        place = f"fr[{3 + int(self.refs[id(st)])}]"
        lines.append(f"{ind}{place} = {_as_int(self.e(st.value))}")
        if computes(st.value, self.refs):
            self.bound(place, st, lines, ind)
        return True

    def bound(self, place, st, lines, ind):
        """The number just stored in ``place`` (code without side effects) must be within the
        bound (RL910)."""
        lines.append(f"{ind}if not {-MAX_NUMBER} <= {place} <= {MAX_NUMBER}: "
                     f"_big({place}, {self.x.const(st.span)})")

    def t_Assign(self, st, lines, ind):
        t = st.target
        ref = self.refs.get(id(t))
        cg = self.cg
        if ref is None:
            return False
        if ref[0] == "slot":
            place = f"fr[{3 + int(ref[1])}]"
        elif ref[0] == "var":
            base = int(cg.var_base[ref[1]])
            place = f"g.vars[{base} + fr[{3 + int(ref[3])}]]" if ref[2] else f"g.vars[{base}]"
        elif ref[0] == "var_of":
            place = f"g.vars[{int(cg.var_base[ref[1]])} + {self.e(t.operand)}]"
        elif ref[0] == "current":
            place = "g.cur"
        else:
            return False
        v = self.e(st.value)
        op = {"set": "=", "add": "+=", "sub": "-="}[st.op]
        checked = st.op != "set" or computes(st.value, self.refs)
        if checked and "rng" in place:        # the place must be read again: leave it to closures
            return False
        lines.append(f"{ind}{place} {op} {_as_int(v)}")
        if checked:
            self.bound(place, st, lines, ind)
        if ref[0] == "current" and ref[1]:
            lines.append(f"{ind}fr[2] = g.cur")      # in setup, `you` is the current player
        return True

    def t_Say(self, st, lines, ind):
        """Words are made only for a game that keeps a log: otherwise not even a call."""
        lines.append(f"{ind}if g.log is not None:")
        self.embed(st, lines, ind + "    ")
        return True

    t_Reveal = t_Say

    def t_Move(self, st, lines, ind):
        kind = st.selection.kind
        if kind in ("all", "all_but_top"):
            return self._move_all(st, kind, lines, ind)
        if kind not in ("top", "card"):
            return False
        s = self.x.fresh()
        lines.append(f"{ind}{s} = g.zones[{self.e(st.source)}]")
        put = "insert(0, {})" if st.to_bottom else "append({})"
        if kind == "top":
            lines.append(f"{ind}if {s}:")
            lines.append(f"{ind}    g.zones[{self.e(st.dest)}].{put.format(s + '.pop()')}")
            return True
        c = self.x.fresh()
        missing = self.x.const(self._missing(st))
        lines.append(f"{ind}{c} = {self.e(st.selection.expr)}")
        lines.append(f"{ind}if {c} in {s}:")
        lines.append(f"{ind}    {s}.remove({c})")
        lines.append(f"{ind}else:")
        lines.append(f"{ind}    {missing}(g, {c}, {self.e(st.source)})")
        lines.append(f"{ind}g.zones[{self.e(st.dest)}].{put.format(c)}")
        return True

    def _move_all(self, st, kind, lines, ind):
        """``move all cards`` / ``all but top card``: one slice, kept in order (reversed when
        turned over), put on top or at the bottom; nothing happens from a zone to itself."""
        s, d = self.x.fresh(), self.x.fresh()
        lines.append(f"{ind}{s} = g.zones[{self.e(st.source)}]")
        lines.append(f"{ind}{d} = g.zones[{self.e(st.dest)}]")
        lines.append(f"{ind}if {s} is not {d}:")
        part = {("all", False): "[:]", ("all", True): "[::-1]",
                ("all_but_top", False): "[:-1]", ("all_but_top", True): "[-2::-1]"}[
            kind, bool(st.turned_over)]
        if st.to_bottom:
            lines.append(f"{ind}    {d}[:0] = {s}{part}")
        else:
            lines.append(f"{ind}    {d}.extend({s}{part if part != '[:]' else ''})")
        lines.append(f"{ind}    del {s}{'[:]' if kind == 'all' else '[:-1]'}")
        return True

    def _missing(self, st):
        cg = self.cg
        span = st.span

        def missing(g, c, zi):
            from rulelang.engine.control import GameProblem
            raise GameProblem("RL902", f"card {cg.card_names[c] if c >= 0 else 'none'} is not in "
                              f"{cg.zone_label(zi)}", span)
        return missing

    def t_If(self, st, lines, ind):
        first = True
        for cond, body in st.branches:
            lines.append(f"{ind}{'if' if first else 'elif'} {self.e(cond)}:")
            first = False
            for s in body:
                self.stmt(s, lines, ind + "    ")
            if not body:
                lines.append(f"{ind}    pass")
        if st.otherwise:
            lines.append(f"{ind}else:")
            for s in st.otherwise:
                self.stmt(s, lines, ind + "    ")
        return True
