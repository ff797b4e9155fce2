"""Expressions compiled to Python functions, for speed.

:class:`ExprGen` turns a checked expression into the source of one Python function
``f(g, fr)`` and compiles it once, when the game is compiled.  One generated function, not a
tree of closures (the tests' reference interpreter), is what makes random play fast (a
condition such as "the card matches the top of the discard pile by suit or rank" is evaluated
for every card of every hand at every decision).

Safety: a rule file is untrusted, so nothing of its text ever reaches the generated source.  The
source is made only of integer literals formatted with ``int``, the fixed names ``g``, ``fr`` and
``out``, names this module invents (``_t3``, ``_v1``) for tables and helpers it puts in the
function's namespace, and Python operators.  Every identifier is checked against that alphabet
before compiling (:func:`~rulelang.compile.gensource._safe`).  Every kind of expression the
checker accepts has its ``g_`` method (tests/test_vocabulary.py checks it), so every expression of
a game is generated code: its constants, attribute tables, initial values, scores and endings
too.  The helpers the generated functions call are in :mod:`rulelang.compile.genruntime`;
simple statements are written by :mod:`rulelang.compile.stmtgen`.  :class:`ExprGen` is written in
two parts: this module (the functions it builds, their namespace, hoisting out of loops, the uses
of defines) and :mod:`rulelang.compile.exprnodes` (the code of each kind of expression node).
"""
from __future__ import annotations

import contextlib

import attrs

from rulelang.syntax import ast as A
from rulelang.kinds import CARD, PLAYER, SUIT, SYMBOL, Frame
from rulelang.check.ir import Attribute, DefineUse, Local, NodeSet, Rank, Suit, Var, You, Zone
from rulelang.check.model import Arg, Expanded
from rulelang.engine.players import show_card
from rulelang.engine.values import best_of, highest, lowest
from rulelang.engine.players import (holder, leave_game, next_in, random_seat_in, seat_after, seat_in,
                                     seats_after, seats_in)
from rulelang.compile.gensource import NeedsFrame, Unsupported, _code, _safe
from rulelang.compile.exprnodes import ExprNodes
from rulelang.compile.fold import Fold, _children
from rulelang.compile.writer import LINE_MAP, CodeWriter
from rulelang.compile.genruntime import _FAIL, _big, _bottom, _div, _mod, _mul, _noplayer, _noseat, _rnd, _seat, _top
from rulelang.engine.control import GameProblem


HELPER_SIZE = 2000      # a define's code longer than this is a function (see ExprGen.expanded)

# What of the state a rule's function reads most, and the local that holds it where the function
# is written with held locals (ExprGen.state): none of it is rebound while a rule runs (the lists
# ``g.zones`` and ``g.vars`` only change their items; the step budget and the policy ``g._pk``
# are set before a playout starts).
HELD = {"zones": "_gz", "vars": "_gv", "_pk": "_gpk", "max_steps": "_gmx", "_mg": "_gmg"}


# The nodes whose code computes its parts in place (no loop, list or function of their own).
_PLAIN_NODES = (A.BoolOp, A.Compare, A.Arith, A.Unary, A.Of, A.Name, A.Call, A.Cases, Expanded, Arg,
                A.Int, A.Bool, A.NoneLit, A.Keyword, A.Seat, A.Text, A.CardLit, A.IsEmpty)


# The kinds of values generated code holds as indices (ints): ExprGen.as_int.
_INDEX_KINDS = frozenset((CARD, PLAYER, SUIT, SYMBOL))


class ExprGen(ExprNodes):
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
                   "_noplayer": _noplayer, "_map": map, "_problem": GameProblem, "_fail": _FAIL}
        self.names = {}
        self.counter = 0
        self._getters = {}      # id(table) -> (name of its lookup, table): see getter
        # While a rule's function is written with held locals (RuleGen: the playout variant and
        # the turn that goes on from turn to turn), the state's most read parts are locals that
        # its first line binds (HELD); ``held_used`` is what the code written so far read.
        self.hold = False
        self.held_used = set()
        self._expanded = {}       # see expanded()
        self._helpers = {}
        self._prelude = self._prelude_args = None
        self._slots_used = {}
        self._called = {}         # see expanded()
        self._hoisted_names = set()     # every name given to a value computed before a loop
        self._guarded = {}        # the hoisted names computed under a guard: name -> (code, guard)
        self._deferred = set()    # the hoisted names whose computing may stop the game (deferred)
        self.seat_uses = getattr(getattr(cg, "model", None), "seat_uses", NodeSet())
        # The direction of play: the constant 1 in a game that never reverses it.
        self.dir = "g.dir" if "reverse" in getattr(cg, "flow", ("reverse",)) else "1"

    def state(self, attr: str) -> str:
        """How generated code reads ``g.<attr>`` (one of HELD): the local holding it, in a rule
        function written with held locals (noted in ``held_used``), else the attribute."""
        if self.hold:
            self.held_used.add(attr)
            return HELD[attr]
        return "g." + attr

    @property
    def zones(self) -> str:
        return self.state("zones")

    @property
    def vars(self) -> str:
        return self.state("vars")

    def held_line(self) -> str:
        """The line binding the locals that the code written since ``held_used`` was emptied
        reads ("" when none), in a fixed order."""
        return "; ".join(f"{HELD[a]} = g.{a}" for a in HELD if a in self.held_used)

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

    def getter(self, table) -> str:
        """A name for the lookup of ``table`` (its ``__getitem__``, one per table), to map over
        cards in C."""
        got = self._getters.get(id(table))
        if got is None:
            got = self._getters[id(table)] = (self.const(table.__getitem__), table)
        return got[0]

    @property
    def fold(self) -> Fold:
        """What is known of an expression before it is written (compile/fold.py): its value
        when it is a constant, whether it rolls a die."""
        f = self.__dict__.get("_fold")
        if f is None:
            f = self._fold = Fold(self.refs, self.cg.n, reverses=self.dir != "1",
                                  players_leave=getattr(self.cg, "out_base", None) is not None,
                                  cards=self.cg,
                                  always_seats=getattr(getattr(self.cg, "model", None), "always_seats", None),
                                  seat_uses=self.seat_uses)
        return f

    def as_int(self, e, code) -> str:
        """``code`` (of ``e``) as an int: see Fold.as_int.  A card, player, suit or symbol is
        an index in generated code, an int already (no ``int`` called for it)."""
        if self.cg.types.of(e, None) in _INDEX_KINDS:
            return code
        return self.fold.as_int(e, code)

    # ---- building functions -------------------------------------------------------------------
    def function(self, e, env=None):
        """``f(g, fr)`` returning the value of ``e``."""
        body = self.gen(e, env or {})
        return self._compile(f"def _f(g, fr):\n    return {body}\n")

    def player_function(self, e, nslots):
        """``f(g, p)`` for a condition where ``you`` is ``p`` (the endings).  A condition that
        uses local slots (its ``nslots``) gets a frame of its own, ``you`` in it being ``p``."""
        body = self.gen(e, {Frame.YOU: "p"})
        w = CodeWriter()
        w.writeline("def _f(g, p):")
        with w.indent():
            if self.fold.free_slots(e) - {Frame.YOU}:      # it reads a local: a frame
                w.writeline(f"fr = [-1, 0, p{', 0' * int(nslots)}]")
            w.writeline(f"return {body}")
        return self._compile(w.source())

    def endings_function(self, conditions):
        """``f(g)`` returning ``(k, p)`` for the first ending ``k`` whose condition holds for a
        player ``p`` (from the current player on, in the order of play), or None."""
        if not conditions:
            raise Unsupported("no endings")
        n = int(self.cg.n)
        w = CodeWriter()
        w.writeline("def _f(g):")
        with w.indent():
            try:
                quick = self.endings_quick(conditions)
            except Unsupported:
                pass
            else:
                w.writeline(f"if not {quick}:")
                with w.indent():
                    w.writeline("return None")
            w.writeline("_c = g.cur")
            w.writeline("_d = g.dir")
            for k, cond in enumerate(conditions):
                body = self.gen(cond, {Frame.YOU: "p"})
                if self.fold.free_slots(cond) - {Frame.YOU}:
                    raise Unsupported("uses locals")
                w.writeline(f"for _k in range({n}):")
                with w.indent():
                    w.writeline(f"p = (_c + _d * _k) % {n}")
                    if self.cg.out_base is not None:        # a player who is out is not checked
                        ob = int(self.cg.out_base)              # (unless every player is)
                        w.writeline(f"if g.vars[{ob} + p] and not all(g.vars[{ob}:{ob + n}]):")
                        with w.indent():
                            w.writeline("continue")
                    w.writeline(f"if {body}:")
                    with w.indent():
                        w.writeline(f"return ({k}, p)")
            w.writeline("return None")
        return self._compile(w.source())

    def endings_quick(self, conditions):
        """Code (an expression of ``g``) that is true when some ending's condition holds for some
        player, each seat a constant: a cheap test, made before every decision, that nothing has
        ended; only when it holds are the endings checked in the order of play.  (Conditions that
        roll dice or draw at random are not tested twice, and conditions that may stop the game
        are asked only in the rules' order, the endings in turn and each from the current
        player on, where one that holds ends the game before the next is asked: Unsupported.)"""
        if not conditions:
            raise Unsupported("no endings")
        n = int(self.cg.n)
        parts = []
        for cond in conditions:
            if self.fold.free_slots(cond) - {Frame.YOU} or self.fold.chance(cond) or \
                    self.fold.may_fail(cond):
                raise Unsupported("uses locals or chance, or may stop the game")
            for p in range(n):
                parts.append(self.gen(cond, {Frame.YOU: str(p)}))
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
            test, hoisted = self.gen_hoisting(where, {slot_index: v}, v, lines=True)
        w = CodeWriter()
        w.writeline("def _f(g, fr, out):")
        with w.indent():
            if cond is not None:
                w.writeline(f"if not ({self.gen(cond, {})}):")
                with w.indent():
                    w.writeline("return")
            self.write_hoisted(w, hoisted)
            if test is None:
                w.writeline(f"out.extend([{int(base)} + {v} for {v} in g.zones[{z}]])")
            else:
                w.writeline(f"out.extend([{int(base)} + {v} for {v} in g.zones[{z}] if {test}])")
        return self._compile(w.source())

    def _compile(self, src, line_map=None):
        code = _code(src)
        ns = self.namespace(code)
        if line_map is not None:        # the rule-file span of each line (compile/writer.py)
            ns[LINE_MAP] = line_map
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
        if self.base_env:
            env = {**self.base_env, **env}
        m = getattr(self, "g_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(type(e).__name__)
        if self.plain and not isinstance(e, _PLAIN_NODES):
            # a part written inside what it builds (a loop over cards, a list...): no value kept
            # there, nor in its parts (Python keeps no name in a comprehension's iterable)
            self.plain = False
            try:
                return self.gen(e, env)
            finally:
                self.plain = True
        if self.seat_uses.has(e) and not self.fold.never_none(e):   # used as a player: `none` is RL912
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
            # A part that may stop the game (Fold.may_fail) must stop it only where the rules
            # reach it: the loop may have no card, or its condition may be decided before the
            # part.  Where the values are written as lines before the loop (``hoist[4]``) it is
            # computed there all the same, a problem kept for later (``_fail``): where it is
            # used, a value that failed is computed again, and stops the game there
            # (``deferred``).  In a loop inside an expression it is not moved at all.
            # All of it is decided on the tree (compile/fold.py), never by reading ``code``.
            loop_slots = {k for k, v in env.items() if v in hoist[0]}
            if not (self.slots_used(e) & loop_slots) and self.worth_hoisting(e, env):
                fails = self.fold.may_fail(e)
                if not fails or hoist[4]:
                    return self._hoist_out(e, code, hoist, fails)
        return m(e, env)

    def _hoist_out(self, e, code, hoist, fails) -> str:
        """The name of the value ``code`` (of ``e``) computed before the loop of ``hoist``
        (made now, or the same one made before), or where it ``fails``, the code that reads it
        there and computes it again if it failed."""
        # Under a guard (see ``guard``): computed only where the loop can read it.
        guard = ()
        if self._guard is not None and self._guard[0] is hoist[1] and self.weight(e) >= 4:
            guard = self._guard[1]
        raw = code
        for name, c in hoist[1]:      # the same, computed wherever this is (or more)
            if c == code or self._guarded.get(name) in ((code, guard[:k]) for k in range(len(guard) + 1)):
                return self.deferred(name, raw, hoist)
        self.counter += 1
        name = f"_h{self.counter}"
        self._hoisted_names.add(name)
        if guard:
            self._guarded[name] = (code, guard)
            test = guard[0] if len(guard) == 1 else "(" + " and ".join(guard) + ")"
            code = f"({code} if {test} else 0)"
        if fails:
            self._deferred.add(name)
        hoist[1].append((name, code))
        return self.deferred(name, raw, hoist)

    def deferred(self, name, raw, hoist) -> str:
        """How the loop reads the value computed before it as ``name`` (``raw``: its code): the
        name, or for a value whose computing may stop the game, the name unless that failed
        (``_fail``), else ``raw`` computed again, which stops the game where the rules do.  In
        a loop that has a second loop for when one failed (``hoist[4] == "split"``: card_loop),
        the name."""
        if name in self._deferred and hoist[4] != "split":
            return f"({name} if {name} is not _fail else {raw})"
        return name

    def plain_test(self, e, env, hoisted):
        """When some of the values ``hoisted`` before a loop (gen_hoisting's, with ``lines=
        "split"``) may fail: the code of ``e`` computing everything where it is, for the loop
        card_loop writes for that case; else None."""
        if not any(name in self._deferred for name, _ in hoisted):
            return None
        saved, self.kept = self.kept, None       # (a value kept for later is not set here)
        try:
            return self.gen(e, env)
        finally:
            self.kept = saved

    def write_hoisted(self, w, hoisted):
        """Lines (written by ``w``) computing the values ``hoisted`` before their loop
        (gen_hoisting's, with ``lines``); one that may stop the game is ``_fail`` if it does."""
        for name, code in hoisted:
            if name in self._deferred:
                w.writeline("try:")
                with w.indent():
                    w.writeline(f"{name} = {code}")
                w.writeline("except _problem:")
                with w.indent():
                    w.writeline(f"{name} = _fail")
            else:
                w.writeline(f"{name} = {code}")

    _guard = None       # (the hoisted list it is for, the codes that must hold)

    def weight(self, e, enough=4) -> int:
        """About what computing ``e`` costs (on the tree, through the uses of defines), counted
        up to ``enough``: a read of a variable or a slot is 1, a comparison of two such 3;
        looking up the top of a zone, the rank after one, a define's function or a search over
        cards more.  Below 4 a guard costs as much as what it saves."""
        w = 0
        todo = [e]
        while todo and w < enough:
            e = todo.pop()
            if isinstance(e, Expanded):
                if id(e) in self._called:
                    return enough
                todo.append(e.body)
                continue
            if isinstance(e, Arg):
                todo.append(e.expr)
                continue
            ref = self.refs.of(e, None)
            if isinstance(ref, DefineUse):
                todo.append(ref.expanded)
                continue
            w += 1
            if isinstance(e, A.Unary) and e.op not in ("not", "neg"):
                w += 2
            elif isinstance(e, (A.CardQuery, A.PlayerQuery, A.AmongCards, A.TotalOf, A.Call)):
                w += 9
            todo.extend(_children(e))
        return min(w, enough)

    @contextlib.contextmanager
    def guard(self, conds):
        """Inside a loop, while the parts of ``X if C else Y`` or of ``A and B`` / ``A or B`` are
        written: ``conds`` are (code, true?) pairs that hold wherever the part being written is
        computed.  Those that are values computed before the loop (hoisted names) guard what
        the part moves out of the loop: ``_h2 = (X if _h1 else 0)``, not computed when the loop
        cannot read it (the other branch of a condition that does not depend on the card)."""
        h = getattr(self, "_hoist", None)
        if h is None or not conds:
            yield
            return
        parts = tuple(c if yes else f"(not {c})" for c, yes in conds)
        saved = self._guard
        if saved is not None and saved[0] is h[1]:
            parts = saved[1] + parts
        self._guard = (h[1], parts)
        try:
            yield
        finally:
            self._guard = saved

    def guarding(self, conds, code, yes):
        """Add (``code``, ``yes``) to the guard ``conds`` (for ``guard``) when ``code`` is a value
        computed before the loop being written; a guard holds at most 4 conditions (fewer
        guard less, never wrongly).  Returns ``conds``."""
        if len(conds) < 4 and getattr(self, "_hoist", None) is not None and code in self._hoisted_names:
            conds.append((code, yes))
        return conds

    def seated(self, code, e):
        """Code for a player value used as a player, stopping with RL912 when it is `none`: a
        plain read is tested in place, anything else through ``_seat``."""
        span = self.const(e.span)
        if self.fold.plain_read(e, self.seat_uses, outer=False) is not None:
            return f"({code} if {code} >= 0 else _noplayer({span}))"
        return f"_seat({code}, {span})"

    def worth_hoisting(self, e, env) -> bool:
        """Is ``e`` (not depending on a loop's card) worth computing once before the loop?  When
        it rolls no die, reads the game or a slot of the frame, and is not itself a plain read
        of a slot (decided on the tree: compile/fold.py)."""
        f = self.fold
        if f.chance(e):
            return False
        plain = f.plain_read(e, self.seat_uses)
        named = set(env) - (set(self.base_env) if self.base_frame else set())
        if plain is not None and plain[0] == "slot" and plain[1] not in named:
            return False
        return bool(f.free_slots(e) - named) or f.reads_game(e, self._called)

    def gen_hoisting(self, e, env, loop_var, card_slot=None, lines=False):
        """Code for ``e`` inside a loop binding ``loop_var``, and the (name, code) pairs to
        compute before the loop.  With ``card_slot`` (the frame index of the loop's card):
        also the (name, code) pairs to compute for each card, first (see card_binds).  With
        ``lines``, the pairs are written as lines before the loop by :meth:`write_hoisted`
        (not in an expression), and may include values whose computing may stop the game: the
        loop reads such a value through a test (:meth:`deferred`), or, with ``lines="split"``,
        as it is, the caller writing a second loop for when it failed (:meth:`card_loop`)."""
        outer = getattr(self, "_hoist", None)
        loop_vars = [loop_var] + (list(outer[0]) if outer else [])
        binds = self.card_binds(e, card_slot) if card_slot is not None else {}
        self._hoist = (loop_vars, [], binds, card_slot, lines)
        try:
            code = self.gen(e, env)
            if card_slot is None:
                return code, self._hoist[1]
            return code, self._hoist[1], [v for v in binds.values() if v[2]]
        finally:
            self._hoist = outer

    def card_binds(self, e, slot) -> dict:
        """The tables of the card (rank, suit, an attribute) that ``e`` reads of the loop's card
        (slot ``slot``) three times or more, each with the name that holds it for each card:
        ``rank of c is 8 or rank of c is R or rank of c is rank after R`` looks the rank up
        once per card.  (Counted on the tree, through the uses of defines; decided before the code is
        written.)  ``{id(table): [name, table, used]}``."""
        memo = {}           # id(shared copy of a define) -> its counts (each copy counted once)

        def walk(x) -> dict:
            while isinstance(x, Arg):
                x = x.expr
            ref = self.refs.of(x, None)
            if isinstance(ref, DefineUse):
                x = ref.expanded
            if slot not in self.slots_used(x):      # (kept per copy: reads nothing of the card)
                return {}
            if isinstance(x, Expanded):
                hit = memo.get(id(x))
                if hit is None:
                    hit = memo[id(x)] = (walk(x.body), x)
                return hit[0]
            table = self.card_table(x)
            if table is not None and self.fold.plain_read(x.operand, self.seat_uses) == ("slot", slot):
                return {id(table): (1, table)}
            out = {}
            for y in _children(x):
                for key, (k, table) in walk(y).items():
                    out[key] = (min(3, out.get(key, (0,))[0] + k), table)
            return out
        counts = walk(e)
        out = {}
        for key, (k, table) in counts.items():
            if k > 2:       # (two reads, the second often not reached: no gain)
                self.counter += 1
                out[key] = [f"_r{self.counter}", table, False]
        return out

    def card_table(self, e):
        """The table ``e`` reads when it is ``rank/suit/<attribute> of X``, else None."""
        if not isinstance(e, A.Of):
            return None
        ref = self.refs.of(e, None)
        cg = self.cg
        if isinstance(ref, Rank):
            return cg.rank_of
        if isinstance(ref, Suit):
            return cg.suit_of
        if isinstance(ref, Attribute):
            return cg.attr_tables[ref.name]
        return None

    def card_bound(self, e, table, env):
        """The name holding ``table`` of the loop's card for ``e`` (``X of card``) where the
        loop being written binds it (gen_hoisting's ``card_slot``), else None."""
        h = getattr(self, "_hoist", None)
        if h is None or not h[2]:
            return None
        hit = h[2].get(id(table))
        if hit is None or env.get(h[3]) != h[0][0] or \
                self.fold.plain_read(e.operand, self.seat_uses) != ("slot", h[3]):
            return None
        hit[2] = True
        return hit[0]

    def slot(self, index, env):
        if index in env:
            return env[index]
        code = self.base_env.get(index)
        return code if code is not None else f"{self.frame()}[{int(index)}]"

    # While the structured turn of a playout is written with its slots in Python locals
    # (PlayoutGen.structured_turn), the frame is not kept up to date: code that needs it asks
    # for it here, and the turn is then written on the frame (NeedsFrame).
    frameless = False

    def frame(self) -> str:
        """The name of the rule's frame in generated code, for code that reads or writes it."""
        if self.frameless:
            raise NeedsFrame("this code needs the frame")
        return "fr"

    # A rule's body written in place of a call of it (RuleGen.direct_call): its `you` is the
    # caller's player, whose code ``base_env`` gives every expression (``base_frame``: that code
    # is a slot of the frame, worth as much as reading one), and its own slots (parameters and
    # locals) are the Python locals ``slots`` gives (frame index -> name).
    base_env: dict = {}
    base_frame = False

    @contextlib.contextmanager
    def you_as(self, code, frame, slots=None):
        saved = self.base_env, self.base_frame
        self.base_env, self.base_frame = {**(slots or {}), Frame.YOU: code}, frame
        try:
            yield
        finally:
            self.base_env, self.base_frame = saved

    # ---- uses of defines (each kind of node: exprnodes.ExprNodes) -------------------------------
    def expanded(self, ex, env):
        """Code for a use of a define.  The checker shares one copy of a define's body between
        its uses with the same arguments (``define d2 = d1 + d1``); its code is made once for each
        place (``env``, the loop it may be hoisted out of, the function it is in) and copied where
        it is used, or, when it is longer than ``HELPER_SIZE``, becomes a function called there,
        so that the code of a chain of defines grows with the text of the rule file, not with its
        expansion."""
        hoist = getattr(self, "_hoist", None)
        # (in a loop or a function of its own, a value kept outside is not seen: computed there)
        kept = self.kept if hoist is None and self._prelude is None else None
        k = kept.get(id(ex)) if kept else None
        if k is not None:                       # (exprnodes.kept_by_first, RuleGen.first_define)
            if k[1] is not None:
                return k[1]                     # computed by a part before
            code = self.expanded_fresh(ex, env)
            self.counter += 1
            k[1] = f"_w{self.counter}"
            return f"({k[1]} := {code})"
        ctx = (hoist and hoist[1], self._prelude, (self._guard and self._guard[1], self._false))
        used = self.slots_used(ex)
        env = {k: v for k, v in env.items() if k in used}    # names it never reads: no matter
        key = (id(ex), tuple(sorted(env.items())), self.hold, self.plain)
        hit = self._expanded.get(key) if not kept else None   # (written afresh while values are
        #                                                      kept: its code may keep one)
        if hit is not None and hit[1][1] is ctx[1] and (hit[3] or (hit[1][0] is ctx[0] and
                                                             hit[1][2] == ctx[2])):
            self.held_used |= hit[4]             # (what the copy reads of the held locals)
            return hit[0]                        # (a function's call fits any loop)
        outer, self.held_used = self.held_used, set()
        try:
            code = self.gen(ex.body, env)
            call = len(code) > HELPER_SIZE
            if call:
                code = self.helper(ex, env)
                self._called[id(ex)] = ex       # a function given the game (Fold.reads_game)
        finally:
            self.held_used, mine = outer, self.held_used
        self.held_used |= mine
        # ex, ctx kept alive: their ids compared
        if not kept:
            self._expanded[key] = (code, ctx, ex, call, frozenset(mine))
        return code

    # Whether the code being written is a plain part of a statement's value (an `if`'s test, the
    # value set: gen_plain), reached only through the nodes of _PLAIN_NODES: there
    # a choice between values may keep what its first condition computes (kept_by_first).
    plain = False

    def gen_plain(self, e) -> str:
        """Code for ``e``, the whole value of a statement (an `if`'s test, the value set)."""
        saved, self.plain = self.plain, True
        try:
            return self.gen(e, {})
        finally:
            self.plain = saved

    def expanded_fresh(self, ex, env):
        """:meth:`expanded` of ``ex`` as it would be without ``kept``."""
        saved, self.kept = self.kept, None
        try:
            return self.expanded(ex, env)
        finally:
            self.kept = saved

    def slots_used(self, e) -> frozenset:
        """The frame indices whose names (``env``) the code of ``e`` may read: its locals and
        ``you`` (a define's copy: once, kept)."""
        if isinstance(e, Expanded):
            hit = self._slots_used.get(id(e))
            if hit is None:
                hit = self._slots_used[id(e)] = (self.slots_used(e.body), e)
            return hit[0]
        out = set()
        ref = self.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return self.slots_used(ref.expanded)
        if isinstance(ref, (Local, You)):
            out.add(ref.index)
        elif isinstance(ref, (Var, Zone)):
            out.add(Frame.slot(ref.you))
        elif ref is None and isinstance(e, A.Keyword):
            out.add(Frame.YOU)
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                for y in (x if isinstance(x, tuple) else (x,)):
                    if isinstance(y, A.Expr):
                        out |= self.slots_used(y)
        return frozenset(out)

    def card_loop(self, w, v, cards, test, hoisted, binds, then, start=None, plain=None):
        """Lines written by ``w``: the values of a card condition that do not depend on the card
        (``hoisted``, gen_hoisting's), the line ``start`` if any, then the loop ``for v in
        cards`` that looks up the card's tables held per card (``binds``) and runs the line
        ``then`` where the condition's code ``test`` holds.  ``plain`` (plain_test's): when a
        value computed first may have failed, the loop tests each card with that code instead,
        which stops the game at the first card that reaches the part that fails."""
        self.write_hoisted(w, hoisted)
        if start is not None:
            w.writeline(start)
        if plain is not None:
            failed = " or ".join(f"{name} is _fail" for name, _ in hoisted if name in self._deferred)
            w.writeline(f"if {failed}:")
            with w.indent():
                w.writeline(f"for {v} in {cards}:")
                with w.indent():
                    w.writeline(f"if {plain}:")
                    with w.indent():
                        w.writeline(then)
            w.writeline("else:")
            with w.indent():
                self._card_loop(w, v, cards, test, binds, then)
            return
        self._card_loop(w, v, cards, test, binds, then)

    def _card_loop(self, w, v, cards, test, binds, then):
        w.writeline(f"for {v} in {cards}:")
        with w.indent():
            for name, table, _ in binds:
                w.writeline(f"{name} = {self.const(table)}[{v}]")
            w.writeline(f"if {test}:")
            with w.indent():
                w.writeline(then)

    def card_search(self, e, env, cards):
        """Code for ``any/no card in Z where C`` (``cards``: the code of Z's list) whose condition
        rolls no die: a call of a function that looks at the cards one by one and stops at the
        first that passes, as the rules read (``any([...])`` built the whole list in a
        comprehension, a function made at each use).  What the condition reads of the names
        bound around it (``env``) is passed; what does not depend on the card is computed once
        in that function, before its loop (gen_hoisting)."""
        ci = self.refs.of(e).index
        used = self.slots_used(e.condition)
        keys = sorted(k for k in env if k in used and k != ci)
        fkey = ("search", id(e), tuple(keys))
        made = self._helpers.get(fkey)
        if made is None:
            saved = (getattr(self, "_hoist", None), self._prelude, self._prelude_args, self.base_env,
                     self.base_frame, self.hold, self._false)
            self._hoist, self._prelude, self.base_env, self.base_frame = None, None, {}, False
            self._false = None                  # (its names are its own)
            self.hold = False                   # a function of its own: no held locals
            try:
                inner = {k: f"_a{i}" for i, k in enumerate(keys)}
                inner[ci] = "_c"
                test, hoisted, binds = self.gen_hoisting(e.condition, inner, "_c", ci, lines="split")
                plain = self.plain_test(e.condition, inner, hoisted)
            finally:
                (self._hoist, self._prelude, self._prelude_args, self.base_env, self.base_frame,
                 self.hold, self._false) = saved
            # (from the tree, compile/fold.py: it reads a slot no argument gives)
            frame = bool(self.fold.free_slots(e.condition) - set(keys) - {ci})
            params = ["g"] + ["fr"] * frame + ["_z"] + [f"_a{i}" for i in range(len(keys))]
            found = e.kind == "any"
            w = CodeWriter()
            w.writeline(f"def _f({', '.join(params)}):")
            with w.indent():
                self.card_loop(w, "_c", "_z", test, hoisted, binds, f"return {found}", plain=plain)
                w.writeline(f"return {not found}")
            made = self._helpers[fkey] = (self.const(self._compile(w.source())), frame, e)
        name, frame, _ = made
        args = ["g"] + ([self.frame()] if frame else []) + [cards] + [env[k] for k in keys]
        return f"{name}({', '.join(args)})"

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
            saved = (getattr(self, "_hoist", None), self._prelude, self._prelude_args, self.base_env,
                     self.hold, self._false)
            self._hoist, self._prelude, self.base_env, self._false = None, [], {}, None
            self.hold = False                   # a function of its own: no held locals
            self._prelude_args = {"g", "fr"} | {f"_a{i}" for i in range(len(keys))}
            try:
                body = self.gen(ex.body, {k: f"_a{i}" for i, k in enumerate(keys)})
                first = self._prelude
            finally:
                (self._hoist, self._prelude, self._prelude_args, self.base_env, self.hold,
                 self._false) = saved
            # (from the tree, compile/fold.py: it reads a slot no argument gives; it rolls a die)
            frame = bool(self.fold.free_slots(ex.body) - set(keys))
            params = ["g"] + ["fr"] * frame + ["_rng"] * self.fold.chance(ex.body)
            params += [f"_a{i}" for i in range(len(keys))]
            w = CodeWriter()
            w.writeline(f"def _f({', '.join(params)}):")
            with w.indent():
                for name, code in first:
                    w.writeline(f"{name} = {code}")
                w.writeline(f"return {body}")
            fn = self._compile(w.source())
            made = self._helpers[hkey] = (self.const(fn), params, ex)
        name, params, _ = made
        args = [{"g": "g", "_rng": "g.rng"}.get(p) or (self.frame() if p == "fr" else
                                                       env[keys[int(p[2:])]]) for p in params]
        call = f"{name}({', '.join(args)})"
        if self._prelude is not None and "_rng" not in params and \
                set(args) <= self._prelude_args and not self.fold.may_fail(ex.body):
            self.counter += 1
            local = f"_c{self.counter}"
            self._prelude.append((local, call))
            return local
        return call
