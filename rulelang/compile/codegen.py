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
three parts: this module (the functions it builds, their namespace, the uses of defines),
:mod:`rulelang.compile.hoisting` (the values computed before a loop) and
:mod:`rulelang.compile.exprnodes` (the code of each kind of expression node).
"""
from __future__ import annotations


import attrs

from rulelang.syntax import ast as A
from rulelang.kinds import CARD, PLAYER, SUIT, SYMBOL, Frame
from rulelang.check.ir import DefineUse, Local, Var, You, Zone, ZoneFamily
from rulelang.check.model import Arg, Expanded
from rulelang.engine.players import show_card
from rulelang.engine.values import best_of, highest, lowest
from rulelang.engine.players import (holder, leave_game, next_in, random_seat_in, seat_after, seat_in,
                                     seats_after, seats_in)
from rulelang.compile.gensource import NeedsFrame, Unsupported, _code, _safe
from rulelang.compile.exprnodes import ExprNodes, Known, PlayerZone
from rulelang.compile.setexprs import SetExprs
from rulelang.compile.hoisting import Hoisting
from rulelang.compile.cardsets import CardSets
from rulelang.compile.fold import Fold, _children, per_copy, shape
from rulelang.compile.writer import LINE_MAP, CodeWriter
from rulelang.compile.context import Context, Reads
from rulelang.compile.genruntime import (set_changed, set_in, set_size, _FAIL, _big, _bottom, _div, _first, _mod, _mul, _noplayer,
                                         _noseat, _place, _beside, _rnd, _seat, _top, spend)
from rulelang.engine.control import GameProblem
from rulelang.limits import LOOP_WORK_FLOOR, WORK_UNIT


# A define whose code, written in place, has more nodes of the checked tree than this is a
# function of its own (ExprGen.define_size, expanded): ~2,000 characters of code.
HELPER_NODES = 250

# What of the state a rule's function reads most, and the local that holds it where the function
# is written with held locals (ExprGen.state): none of it is rebound while a rule runs (the lists
# ``g.zones`` and ``g.vars`` only change their items; the step budget and the policy ``g._pk``
# are set before a playout starts).
HELD = {"zones": "_gz", "vars": "_gv", "_pk": "_gpk", "max_steps": "_gmx", "_mg": "_gmg",
        "_sf": "_gsf"}


# The nodes whose code computes its parts in place (no loop, list or function of their own).
_PLAIN_NODES = (A.BoolOp, A.Compare, A.Arith, A.Unary, A.Of, A.Name, A.Call, A.Cases, Expanded, Arg,
                A.Int, A.Bool, A.NoneLit, A.Keyword, A.Seat, A.Text, A.CardLit, A.IsEmpty)


# The kinds of values generated code holds as indices (ints): ExprGen.as_int.
_INDEX_KINDS = frozenset((CARD, PLAYER, SUIT, SYMBOL))


class ExprGen(Hoisting, CardSets, ExprNodes, SetExprs):
    """Generates functions for one compiled game (``cg`` is the CompiledGame)."""

    def __init__(self, cg):
        self.cg = cg
        self.refs = cg.refs
        self.ns = {"_div": _div, "_mod": _mod, "_mul": _mul, "_big": _big, "_top": _top, "_first": _first,
                   "_place": _place, "_beside": _beside,
                   "_bottom": _bottom, "_none": (-1,), "_rnd": _rnd, "_sa": seat_after,
                   "_si": seat_in, "_sin": seats_in, "_saf": seats_after, "_nin": next_in,
                   "_hold": holder, "_hi": highest, "_lo": lowest, "_rsi": random_seat_in,
                   "_leave": leave_game, "_show": show_card,
                   "_noseat": _noseat, "_best": best_of, "_zero": (0,), "_seat": _seat,
                   "_noplayer": _noplayer, "_map": map, "_problem": GameProblem, "_fail": _FAIL,
                   "_wk": spend, "_setin": set_in, "_setsize": set_size,
                   "_setch": set_changed}
        self.names = {}
        self.counter = 0
        self._getters = {}      # id(table) -> (name of its lookup, table): see getter
        # How a value is written where it is being written is the context ``cx`` given to each
        # method (compile/context.py).  While a rule's function is written with held locals
        # (``cx.hold``: the playout variant and the turn that goes on from turn to turn), the
        # state's most read parts are locals that its first line binds (HELD); what the code
        # written reads of them is counted in ``cx.reads`` (the function's: context.Reads).
        # What follows is the game's, kept from function to function.
        self._expanded = {}       # see expanded()
        self._defines_in = {}     # see defines_in()
        self._helpers = {}
        self._long = set()        # the defines too long to be written in a function's body (expanded)
        self._sizes = {}          # see define_size()
        self._shapes: dict = {}   # each shape's parts -> its number (fold.shape)
        self._slots_used = {}
        self._loop_work = {}      # id(node) -> the parts its loop evaluates for each item (charged)
        self._called = {}         # see expanded()
        self._hoisted_of = {}           # each value computed before a loop (hoisting.Hoisted):
        #                                 its expression and kind (None: guarded; CardSets)
        self._card_sets = {}            # the tables of card sets made so far (CardSets)
        self._hoisted_key = {}    # each hoisted name -> (its shape, the guard it is computed under)
        self._deferred = set()    # the hoisted names whose computing may stop the game (deferred)
        self.seat_uses = cg.model.seat_uses
        # The direction of play: the constant 1 in a game that never reverses it.
        self.reverses = "reverse" in cg.flow
        self.dir = "g.dir" if self.reverses else "1"

    def state(self, cx, attr: str) -> str:
        """How generated code reads ``g.<attr>`` (one of HELD): the local holding it, in a rule
        function written with held locals (noted in ``cx.reads``), else the attribute."""
        if cx.hold:
            cx.reads.held.add(attr)
            return HELD[attr]
        return "g." + attr

    def zones(self, cx) -> str:
        return self.state(cx, "zones")

    def zone(self, cx, index: str) -> str:
        """How generated code reads the list of cards of the zone whose index is the code
        ``index``: a local where the zone's index is known and the function binds its zones'
        lists first (``zone_locals``, the structured turn: a zone's list is never replaced by
        another while a game is played, only changed in place), else ``zones[index]``.  There
        a zone of each player (``index`` a :class:`PlayerZone`) is read from a tuple of the
        players' lists, by seat (a seat a player value holds, 0 to n - 1: a `none` stops the
        game before, RL912)."""
        held = cx.zone_locals
        if held is not None and cx.hold and isinstance(index, Known):
            name = held.get(index.value)
            if name is None:
                name = held[index.value] = f"_z{index.value}"
            return name
        if held is not None and cx.hold and isinstance(index, PlayerZone):
            name = held.get(("players", index.base))
            if name is None:
                name = held[("players", index.base)] = f"_zp{index.base}"
            return f"{name}[{index.seat}]"
        return f"{self.zones(cx)}[{index}]"

    # ``cx.zone_locals``: zone index -> the local holding its list, while they are locals (and
    # ``hold``: never in a function of its own); ``zone_serial`` tells one such function's
    # writing from another's, in the keys of code kept for reuse (``expanded``: its locals are
    # the function's own).
    zone_serial = 0

    def turns_read(self) -> str:
        """The code of `number of turns`, noting that the game reads it: a game that never does
        lets the structured turn of a playout count its turns in a local (PlayoutGen's
        ``turns_held``), which no code could read before it reaches the state.  (Every rule,
        ending and value is written for the API when the game is compiled, and the playout's
        turn after the other playout variants, so the note is complete by then: code written
        later is never called from that loop.)"""
        self.cg.reads_turns = True
        return "g.turns"

    def zones_key(self, cx):
        """What code written now depends on of how zones are read (a key of kept code)."""
        return (cx.hold, self.zone_serial if cx.zone_locals is not None and cx.hold else 0)

    def vars(self, cx) -> str:
        return self.state(cx, "vars")

    @staticmethod
    def held_line(reads) -> str:
        """The line binding the locals that a function's code reads (``reads``: its Reads;
        "" when none), in a fixed order."""
        return "; ".join(f"{HELD[a]} = g.{a}" for a in HELD if a in reads.held)

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
            f = self._fold = Fold(self.refs, self.cg.n, reverses=self.reverses,
                                  players_leave=self.cg.out_base is not None,
                                  cards=self.cg,
                                  always_seats=self.cg.model.always_seats,
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
        body = self.gen(Context.outside(), e, env or {})
        return self._compile(f"def _f(g, fr):\n    return {body}\n")

    def player_function(self, e, nslots):
        """``f(g, p)`` for a condition where ``you`` is ``p`` (the endings).  A condition that
        uses local slots (its ``nslots``) gets a frame of its own, ``you`` in it being ``p``."""
        body = self.gen(Context.outside(), e, {Frame.YOU: "p"})
        w = CodeWriter()
        w.writeline("def _f(g, p):")
        with w.indent():
            if self.fold.free_slots(e) - {Frame.YOU}:      # it reads a local: a frame
                w.writeline(f"fr = [-1, 0, p{', 0' * int(nslots)}]")
            w.ret(body)
        return self._compile(w.source())

    def endings_function(self, conditions):
        """``f(g)`` returning ``(k, p)`` for the first ending ``k`` whose condition holds for a
        player ``p`` (from the current player on, in the order of play), or None."""
        if not conditions:
            raise Unsupported("no endings")
        n = int(self.cg.n)
        cx = Context.outside()
        w = CodeWriter()
        w.writeline("def _f(g):")
        with w.indent():
            try:
                quick = self.endings_quick(cx, conditions)
            except Unsupported:
                pass
            else:
                w.writeline(f"if not {quick}:")
                with w.indent():
                    w.ret("None")
            w.writeline("_c = g.cur")
            w.writeline("_d = g.dir")
            for k, cond in enumerate(conditions):
                body = self.gen(cx, cond, {Frame.YOU: "p"})
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
                        w.ret(f"({k}, p)")
            w.ret("None")
        return self._compile(w.source())

    def endings_quick(self, cx, conditions):
        """Code (an expression of ``g``) that is true when some ending's condition holds for some
        player, each seat a constant: a cheap test, made before every decision, that nothing has
        ended; only when it holds are the endings checked in the order of play.  (Conditions that
        roll dice or draw at random are not tested twice, and conditions that may stop the game
        are asked only in the rules' order, the endings in turn and each from the current
        player on, where one that holds ends the game before the next is asked: Unsupported.)"""
        if not conditions:
            raise Unsupported("no endings")
        if not self.cg.on("endings_quick"):
            raise Unsupported("off")
        n = int(self.cg.n)
        parts = []
        for cond in conditions:
            if self.fold.free_slots(cond) - {Frame.YOU} or self.fold.chance(cond) or \
                    self.fold.may_fail(cond):
                self.cg.fell_back("<endings>", "endings_quick",
                                  "a condition uses locals or chance, or may stop the game")
                raise Unsupported("uses locals or chance, or may stop the game")
            # (a condition that reads nothing of `you`, `stock is empty` say, is the same for
            # every seat: asked once)
            seats = range(n) if Frame.YOU in self.fold.free_slots(cond) else (0,)
            for p in seats:
                parts.append(self.gen(cx, cond, {Frame.YOU: Known(p)}))
        code = "(" + " or ".join(parts) + ")"
        _safe(code)
        return code

    def enumerator(self, zone, where, cond, slot_index, base):
        """``f(g, fr, out)`` appending ``base + card`` for each card of the zone that passes."""
        cx = Context.outside()
        v = self.fresh()
        z = self.gen(cx, zone, {})
        hoisted = []
        test = None
        if where is not None:
            test, hoisted = self.gen_hoisting(cx, where, {slot_index: v}, v, lines=True)
        w = CodeWriter()
        w.writeline("def _f(g, fr, out):")
        with w.indent():
            if cond is not None:
                w.writeline(f"if not ({self.gen(cx, cond, {})}):")
                with w.indent():
                    w.ret("")
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
    def gen(self, cx, e, env) -> str:
        if cx.base_env:
            env = {**cx.base_env, **env}
        m = getattr(self, "g_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(type(e).__name__)
        if cx.plain and not isinstance(e, _PLAIN_NODES):
            # a part written inside what it builds (a loop over cards, a list...): no value kept
            # there, nor in its parts (Python keeps no name in a comprehension's iterable)
            return self.gen(cx.evolve(plain=False), e, env)
        if self.seat_uses.has(e) and not self.fold.never_none(e):   # used as a player: `none` is RL912
            inner = m
            m = lambda cx, e, env: self.seated(inner(cx, e, env), e)   # noqa: E731
        if cx.tops and isinstance(e, A.Unary):
            name = cx.tops.get(self._top_key(e))
            if name is not None:                # (computed once before the loop: shared_tops)
                return name
        hoist = cx.hoist
        if hoist is not None and not isinstance(e, (A.Int, A.Bool, A.NoneLit)) and \
                self.cg.on("hoisting"):
            # Inside a loop over cards: a part that does not depend on the card (and rolls no
            # die) is computed once, before the loop.
            code = m(cx.evolve(hoist=None), e, env)
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
            if not (self.slots_used(e) & loop_slots) and self.worth_hoisting(cx, e, env):
                fails = self.fold.may_fail(e)
                if not fails or hoist[4]:
                    return self._hoist_out(cx, e, env, code, hoist, fails)
        return m(cx, e, env)

    def seated(self, code, e):
        """Code for a player value used as a player, stopping with RL912 when it is `none`: a
        plain read is tested in place, anything else through ``_seat``."""
        span = self.const(e.span)
        if self.fold.plain_read(e, self.seat_uses, outer=False) is not None:
            return f"({code} if {code} >= 0 else _noplayer({span}))"
        return f"_seat({code}, {span})"

    def slot(self, cx, index, env):
        if index in env:
            return env[index]
        code = cx.base_env.get(index)
        if code is None:
            code = cx.alias.get(index)
        return code if code is not None else f"{self.frame(cx)}[{int(index)}]"

    def shape(self, cx, e, env):
        """``e`` as a value to compare with another expression (fold.shape): equal when both
        compute the same, their slots read from the same places (``env``, then the context's)."""
        def bind(index):
            try:
                return self.slot(cx, index, env)
            except NeedsFrame:
                return ("frame", index)
        return shape(self.refs, e, bind, self._shapes)

    # The parts of the context (compile/context.py) read here.  ``alias``: slots read as
    # another slot's code while a statement is written (a choice by `you` names its chooser's
    # slot so: ChoiceGen.sus_Choose); unlike base_env, not a copy's.  ``frameless``: while the
    # structured turn of a playout is written with its slots in Python locals
    # (PlayoutGen.structured_turn), the frame is not kept up to date: code that needs it asks
    # for it here, and the turn is then written on the frame (NeedsFrame).

    def frame(self, cx) -> str:
        """The name of the rule's frame in generated code, for code that reads or writes it."""
        if cx.frameless:
            raise NeedsFrame("this code needs the frame")
        return "fr"

    def you_as(self, cx, code, frame, slots=None):
        """A rule's body written in place of a call of it (RuleGen.direct_call): its `you` is the
        caller's player, whose code ``base_env`` gives every expression (``base_frame``: that
        code is a slot of the frame, worth as much as reading one), and its own slots
        (parameters and locals) are the Python locals ``slots`` gives (frame index -> name):
        the context its statements are written in."""
        return cx.evolve(base_env={**(slots or {}), Frame.YOU: code}, base_frame=frame)

    # ---- uses of defines (each kind of node: exprnodes.ExprNodes) -------------------------------
    def expanded(self, cx, ex, env):
        """Code for a use of a define.  The checker shares one copy of a define's body between
        its uses with the same arguments (``define d2 = d1 + d1``); its code is made once for each
        place (``env``, the loop it may be hoisted out of, the function it is in, the values kept
        that it reads: :meth:`kept_key`) and copied where it is used, or, when it is longer than
        ``HELPER_NODES`` (:meth:`define_size`), becomes a function called there, so that the
        code of a chain of defines grows with the text of the rule file, not with its expansion, and each copy is written
        once for each place, whatever else is kept meanwhile."""
        hoist = cx.hoist
        # (in a loop or a function of its own, a value kept outside is not seen: computed there)
        kept = cx.kept if hoist is None and cx.prelude is None else None
        k = kept.get(id(ex)) if kept else None
        if k is not None and k[1] is not False:    # (exprnodes.kept_by_first, RuleGen.first_define;
            #                                         False: computed again at each use)
            if k[1] is not None:
                return k[1]                     # computed by a part before
            code = self.expanded_fresh(cx, ex, env)
            self.counter += 1
            k[1] = f"_w{self.counter}"
            return f"({k[1]} := {code})"
        ctx = (hoist and hoist[1], cx.prelude, (cx.guard and cx.guard[1], cx.false),
               cx.tops)
        used = self.slots_used(ex)
        env = {k: v for k, v in env.items() if k in used}    # names it never reads: no matter
        # The values kept that the code reads or computes (defines it uses, at any depth): one
        # not computed yet is computed by this code, which then is not copied anywhere else.
        kept_here = self.kept_key(ex, kept)
        key = (id(ex), tuple(sorted(env.items())), self.zones_key(cx), cx.plain, cx.charging,
               kept_here)
        reusable = kept_here is not None
        hit = self._expanded.get(key) if reusable else None
        if hit is not None and hit[1][1] is ctx[1] and (hit[3] or (hit[1][0] is ctx[0] and
                                                             hit[1][2] == ctx[2] and
                                                             hit[1][3] is ctx[3])):
            cx.reads.held |= hit[4]              # (what the copy reads of the held locals)
            cx.reads.prelude |= hit[5]           # (and of the values its function computes first)
            cx.reads.calls += hit[6]
            return hit[0]                        # (a function's call fits any loop)
        pending = [] if reusable else [v for v in kept.values() if v[1] is None]
        # (what the define's code reads, counted apart: kept with the code, for its copies, and
        # added to what the code around it reads once it is written)
        mine = Reads()
        part = cx.evolve(reads=mine)
        hkey = (id(ex), tuple(sorted(env)))
        if cx.prelude is not None and hkey in self._long:
            # (in a function of its own, a define whose code was too long to be written in
            # place in such a function before is called, not written again to find that
            # out: the bodies of a chain of functions each write the defines below them
            # only down to the next function, not down to the chain's bottom)
            code, call = self.helper(part, ex, env), True
        else:
            code = self.gen(part, ex.body, env)
            # A function of its own when the define is long (on its tree: define_size), or
            # when it would call other defines' functions more than once: in a function, each
            # is called once, first (helper); in place, a chain of defines each using the one
            # below twice called them 2^n times.
            long = self.define_size(ex) > HELPER_NODES
            call = long or mine.calls > 1
            if call:
                if cx.prelude is not None and long:
                    self._long.add(hkey)
                # (the code written is dropped, and with it what it read of the values
                # computed first: helper leaves out those nothing reads)
                mine.prelude, mine.calls = set(), 0
                code = self.helper(part, ex, env)
                self._called[id(ex)] = ex   # a function given the game (Fold.reads_game)
                # (and the values it kept for the parts after: a function of its own keeps
                # none, so those parts compute them again)
                for v in pending:
                    if v[1] is not None:
                        v[1] = False
        cx.reads.add(mine)
        # ex, ctx kept alive: their ids compared
        if reusable:
            self._expanded[key] = (code, ctx, ex, call, frozenset(mine.held),
                                   frozenset(mine.prelude), mine.calls)
        return code

    def define_size(self, ex) -> int:
        """How long the code of ``ex`` (a define's copy) is, written in place, decided on the
        checked tree, never on the code: its nodes, each define it uses counted as its own size
        where that is at most HELPER_NODES (written in place too) and as one node where it is more
        (a function's call).  Worked out once for each copy, so that a tower of defines stays
        linear."""
        return per_copy(self._sizes, ex, self._nodes_in_place)

    def _parts(self, e):
        """The nodes of ``e`` as ``(node, None)``, and each use of a define in it as ``(None,
        its copy)``, whose nodes are not looked into (a use is its copy's size, or a call)."""
        todo = [e]
        while todo:
            x = todo.pop()
            if isinstance(x, Arg):
                todo.append(x.expr)
                continue
            ref = self.refs.of(x, None) if isinstance(x, (A.Name, A.Call, A.Of)) else None
            ex = ref.expanded if isinstance(ref, DefineUse) else x if isinstance(x, Expanded) else None
            if ex is not None:
                yield None, ex
                continue
            yield x, None
            todo.extend(_children(x))

    def _nodes_in_place(self, e) -> int:
        n = 0
        for x, ex in self._parts(e):
            if x is not None:
                n += 1
            else:
                k = self.define_size(ex)
                n += k if k <= HELPER_NODES else 1
        return n

    def kept_key(self, ex, kept):
        """What the code of ``ex`` depends on of the values ``kept`` (ExprNodes.kept): for each
        kept define that its body uses, at any depth, the name its value is kept in, or False
        where it is computed again at each use (in a sorted tuple, a part of the key of the code
        made for ``ex``); None when one of them is not computed yet, so that this code is where
        it is first computed and kept."""
        if not kept:
            return ()
        inside = self.defines_in(ex)
        out = []
        for kid, v in kept.items():
            if kid in inside:
                if v[1] is None:
                    return None
                out.append((kid, v[1]))
        return tuple(sorted(out))

    def defines_in(self, ex) -> frozenset:
        """The ids of the define copies whose code the code of ``ex`` (a define's copy) may
        write, at any depth: worked out once for each copy, so that a chain of defines each
        using the one below twice stays linear."""
        return per_copy(self._defines_in, ex, self._defines_under)

    def _defines_under(self, e) -> frozenset:
        out: set = set()
        for _x, ex in self._parts(e):
            if ex is not None:
                out.add(id(ex))
                out |= self.defines_in(ex)
        return frozenset(out)

    def gen_plain(self, cx, e) -> str:
        """Code for ``e``, the whole value of a statement (an `if`'s test, the value set),
        reached only through the nodes of _PLAIN_NODES (``plain``): there a choice between
        values may keep what its first condition computes (kept_by_first)."""
        return self.gen(cx.evolve(plain=True), e, {})

    def expanded_fresh(self, cx, ex, env):
        """:meth:`expanded` of ``ex`` as it would be were ``ex``'s own value not kept: the
        other values kept stay so, those its code computes first kept there (its code is where
        the parts after it find them computed: a choice between values computes its first
        condition whatever happens, the branches only as it decides)."""
        return self.expanded(cx.evolve(kept={k: v for k, v in cx.kept.items() if k != id(ex)}),
                             ex, env)

    def slots_used(self, e) -> frozenset:
        """The frame indices whose names (``env``) the code of ``e`` may read: its locals and
        ``you`` (a define's copy: once, kept).  The slot of a loop inside ``e`` (the card of
        ``number of cards in Z where ...``, the player of ``any player ...``) is not among
        them: the loop binds it, so the code never reads its name from around ``e``.  (A
        define's function and a card search are given the names of these slots, and a rule
        copied in place of its call sets only the locals its statements bind, never a loop's
        inside an expression.)  Worked out once for each node (a node kept with its answer,
        so that its id is never another's): each value of a statement asks it of its parts."""
        hit = self._slots_used.get(id(e))
        if hit is not None:
            return hit[0]
        out = self._slots_used_of(e)
        self._slots_used[id(e)] = (out, e)
        return out

    def _slots_used_of(self, e) -> frozenset:
        if isinstance(e, Expanded):
            return self.slots_used(e.body)
        out = set()
        ref = self.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return self.slots_used(ref.expanded)
        if isinstance(ref, (Local, You)):
            out.add(ref.index)
        elif isinstance(ref, (Var, Zone)):
            out.add(Frame.slot(ref.you))
        elif isinstance(ref, ZoneFamily) and ref.you is not None:
            out.add(Frame.slot(ref.you))
        elif isinstance(e, A.PlayerQuery):      # (its players counted from `you`)
            out.add(Frame.slot(ref.you))
        elif ref is None and isinstance(e, A.Keyword):
            out.add(Frame.YOU)
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                for y in (x if isinstance(x, tuple) else (x,)):
                    if isinstance(y, A.Expr):
                        out |= self.slots_used(y)
        bound = self.fold.bound_slot(e)
        if bound is not None:
            out.discard(bound)
        return frozenset(out)

    def charged(self, cx, items: str, e, parts) -> str:
        """The code of ``items`` (what the loop of ``e`` looks at: a zone's cards, players,
        numbers) charged, as the loop begins, ``len(items)`` times the size of ``parts`` (what
        it evaluates for each) to the game's work in loops (genruntime.spend): a condition over
        the cards of a zone inside another costs what it really costs."""
        if not cx.charging:
            # a loop of a statement's own value: counted once in the step's charge (budget.py)
            return items
        w = self._loop_work.get(id(e))
        if w is None:
            w = self._loop_work[id(e)] = max(1, self.cg.work([p for p in parts if p is not None],
                                                             None, True))
        return f"_wk(g, {items}, {int(w)}, {self.const(e.span)})"

    def card_search(self, cx, e, env, cards):
        """Code for ``any/no card in Z where C`` (``cards``: the code of Z's list) whose condition
        rolls no die: a call of a function that looks at the cards one by one and stops at the
        first that passes, as the rules read (``any([...])`` built the whole list in a
        comprehension, a function made at each use).  What the condition reads of the names
        bound around it (``env``) is passed; what does not depend on the card is computed once
        in that function, before its loop (gen_hoisting)."""
        ci = self.refs.of(e).index
        used = self.slots_used(e.condition)
        keys = sorted(k for k in env if k in used and k != ci)
        fkey = ("search", id(e), tuple(keys), cx.charging)
        made = self._helpers.get(fkey)
        if made is None:
            # (a function of its own: no held locals, no loop around it, no copy's names, no
            # define's calls made first; a define's value kept outside is not seen in it, nor is
            # one it computes seen outside: computed there)
            own = cx.evolve(hoist=None, base_env={}, base_frame=False, tops=None, hold=False,
                            kept=None, false=None, prelude=None)      # (its names are its own)
            inner = {k: f"_a{i}" for i, k in enumerate(keys)}
            inner[ci] = "_c"
            test, hoisted, binds = self.gen_hoisting(own.evolve(charging=True), e.condition,
                                                     inner, "_c", ci, "split")
            plain = self.plain_test(own, e.condition, inner, hoisted)
            # (from the tree, compile/fold.py: it reads a slot no argument gives)
            frame = bool(self.fold.free_slots(e.condition) - set(keys) - {ci})
            params = ["g"] + ["fr"] * frame + ["_z"] + [f"_a{i}" for i in range(len(keys))]
            found = e.kind == "any"
            w = CodeWriter()
            w.writeline(f"def _f({', '.join(params)}):")
            with w.indent():
                charge = self.charged(cx, "_z", e, [e.condition])
                if cx.charging and self.cg.on("work_held"):
                    # (the sum kept in a local, and first compared with the floor, a constant:
                    # below it, as in most games, the budget's bound is not read)
                    w.writeline(f"g.work = _w = g.work + len(_z) * {int(self._loop_work[id(e)])}")
                    w.writeline(f"if _w > {LOOP_WORK_FLOOR} and _w > g.max_steps * {WORK_UNIT}: "
                                f"{charge}")
                elif cx.charging:        # (charged() written out: one call less per search)
                    w.writeline(f"g.work += len(_z) * {int(self._loop_work[id(e)])}")
                    w.writeline(f"if g.work > g.max_steps * {WORK_UNIT} and "
                                f"g.work > {LOOP_WORK_FLOOR}: {charge}")
                self.card_loop(cx, w, "_c", "_z", test, hoisted, binds, f"return {found}", plain=plain)
                w.ret(not found)
            made = self._helpers[fkey] = (self.const(self._compile(w.source())), frame, e)
        name, frame, _ = made
        args = ["g"] + ([self.frame(cx)] if frame else []) + [cards] + [env[k] for k in keys]
        return f"{name}({', '.join(args)})"

    def helper(self, cx, ex, env):
        """A call of a function computing a define's body: ``f(g[, fr][, rng], a0, ...)`` with
        the values of ``env`` (names bound around the use) as arguments; ``fr`` and ``g.rng``
        are passed (and so seen in the call) when the body uses them.  Inside such a function,
        a call of another that rolls no die and needs only the function's own arguments is made
        once, first (the value cannot change while an expression is computed): ``define d3 = d2
        + d2`` calls ``d2``'s function once.  When computing it may stop the game
        (Fold.may_fail), the call first keeps the problem for later (``_fail``, as a value
        computed before a loop: Hoisting.write_hoisted), and a use computes it again only if it
        failed, which stops the game there, where the rules compute it (a chain of defines each
        using the one before twice, by a division, stays linear)."""
        keys = sorted(env)
        hkey = (id(ex), tuple(keys))
        made = self._helpers.get(hkey)
        if made is None:
            prelude: list = []
            args = frozenset({"g", "fr"} | {f"_a{i}" for i in range(len(keys))})
            # (a function of its own: no held locals, no loop around it, no copy's names; what
            # its code reads counted apart)
            own = cx.evolve(hoist=None, base_env={}, tops=None, hold=False, false=None,
                            prelude=prelude, prelude_args=args, charging=True, reads=Reads())
            body = self.gen(own, ex.body, {k: f"_a{i}" for i, k in enumerate(keys)})
            # (only the values the body reads: a define's code written and then dropped for
            # its function's call, expanded, left calls behind that nothing reads, each of
            # which computed the defines below it first, 2^n calls down a chain of n)
            first = [(n, c) for n, c in prelude if n in own.reads.prelude]
            # (from the tree, compile/fold.py: it reads a slot no argument gives; it rolls a die)
            frame = bool(self.fold.free_slots(ex.body) - set(keys))
            params = ["g"] + ["fr"] * frame + ["_rng"] * self.fold.chance(ex.body)
            params += [f"_a{i}" for i in range(len(keys))]
            w = CodeWriter()
            w.writeline(f"def _f({', '.join(params)}):")
            with w.indent():
                self.write_hoisted(w, first)
                w.ret(body)
            fn = self._compile(w.source())
            made = self._helpers[hkey] = (self.const(fn), params, ex)
        name, params, _ = made
        args = [{"g": "g", "_rng": "g.rng"}.get(p) or (self.frame(cx) if p == "fr" else
                                                       env[keys[int(p[2:])]]) for p in params]
        call = f"{name}({', '.join(args)})"
        if cx.prelude is not None and "_rng" not in params and set(args) <= cx.prelude_args:
            self.counter += 1
            local = f"_c{self.counter}"
            cx.prelude.append((local, call))
            cx.reads.prelude.add(local)
            if self.fold.may_fail(ex.body):
                self._deferred.add(local)
                return f"({local} if {local} is not _fail else {call})"
            return local
        cx.reads.calls += 1             # (a call in the code: counted by expanded)
        return call
