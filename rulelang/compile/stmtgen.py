"""Simple statements compiled to Python, fused into one generated function per run.

:class:`StatementGen` writes the statements that do not decide where a rule goes on (moves,
deals, assignments, shuffles, words, the end of the game, an ``if`` made only of these) as lines
of Python, with the expressions of :class:`~rulelang.compile.codegen.ExprGen`: each with its
``t_<Node>`` method (a statement with none raises Unsupported).  :func:`computes` tells whether a stored number must be checked
against the bound (RL910).  The generated source obeys the rules of
:mod:`rulelang.compile.gensource`.
"""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.limits import MAX_NUMBER
from rulelang.kinds import Frame
from rulelang.check.ir import CurrentPlayer, DefineUse, Local, Var, VarOf, You, Zone, ZoneOf
from rulelang.engine.events import log_move
from rulelang.engine.players import hides, holder, reveal_card, seen_go
from rulelang.kinds import CARDS
from rulelang.compile.genruntime import deal, deal_order, end_by_score, end_with_results, say
from rulelang.compile.gensource import Unsupported, _compile_source


def computes(e, refs) -> bool:
    """Does ``e`` add, subtract or multiply (through its defines too)?  A number stored from such
    an expression is checked against the bound (RL910): without that, a rule that doubles a
    variable again and again would fill the memory before the step budget runs out."""
    from rulelang.check.model import Expanded
    from rulelang.check.tree import _walk
    todo = [e]
    while todo:
        for n in _walk(todo.pop()):
            if isinstance(n, A.Arith) and n.op in ("+", "-", "*"):
                return True
            ref = refs.of(n, None) if isinstance(n, (A.Name, A.Call, A.Of)) else None
            if isinstance(ref, DefineUse):
                todo.append(ref.expanded)
            elif isinstance(n, Expanded):
                pass               # _walk goes into its body
    return False


def zone_seen(model, e):
    """How the zone that ``e`` names is seen (``everyone``, ``owner``, ``top``, ``nobody``), or
    None when that is known only while the game is played."""
    ref = model.refs.of(e, None)
    if not isinstance(ref, (Zone, ZoneOf)):
        return None
    z = model.zones.get(ref.name)
    return getattr(z, "visibility", None)


def remembers(model, st) -> bool:
    """Whether a move may take a card out of the sight of a player who saw it, who then
    remembers it where it went, or moves a whole zone, which takes what players remember of its
    cards with it (docs/language.md, "What players remember")."""
    kind, seen = st.selection.kind, zone_seen(model, st.source)
    if kind == "all_but_top" and seen == "top":
        return False                # the one card seen there stays
    return kind == "all" or hides(None, seen, zone_seen(model, st.dest))


# ---- statements -------------------------------------------------------------------------------
# A run of simple statements (moves, assignments, shuffles, ifs made only of these) becomes one
# generated function, so the run loop dispatches one instruction instead of one per statement.

# The statements that decide where a rule goes on (blocks, jumps, calls, decisions, the end):
# the generators write each of these themselves.  Every other statement is simple: a ``t_``
# method below writes it (``t_EndGame`` too, for RuleGen.inline).
_CONTROL = (A.Simple, A.EndGame, A.CallRule, A.If, A.Loop, A.ForPlayer, A.ForCard, A.ForValue,
            A.Choose)


class StatementGen:
    """Writes simple statements for the compiled game ``cg`` (its layout: zones, variables,
    cards), with the expressions of ``exprs`` (the game's :class:`~rulelang.compile.codegen.ExprGen`)."""

    def __init__(self, cg, exprs):
        self.cg = cg
        self.x = exprs
        self.refs = cg.refs
        # Whether moves and reversals are recorded in a logged game's log (rulelang/engine/
        # events.py): not in the playout variants (RuleGen(playout=True)), which never log.
        self.logged = True

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
        if isinstance(st, A.Move) and getattr(self.cg, "empty_moves", None) is not None:
            self.watch(st, lines, ind)
        m = getattr(self, "t_" + type(st).__name__, None)
        if m is None:
            raise Unsupported(type(st).__name__)
        m(st, lines, ind)

    def watch(self, st, lines, ind):
        """A game compiled with ``watch_empty`` (``check --simulate``): before a move of the top,
        bottom or a random card, or of N cards, note it when its zone has too few
        (``CompiledGame.empty_moves``).  The zone (and the number, when there are cards) are
        worked out once here and again by the move."""
        kind = st.selection.kind
        if kind not in ("top", "bottom", "random", "count"):
            return
        z, have = self.x.fresh(), self.x.fresh()
        lines.append(f"{ind}{z} = {self.e(st.source)}")
        lines.append(f"{ind}{have} = len(g.zones[{z}])")
        short = f"{have} == 0"
        if kind == "count":
            short += f" or {have} < {self.e(st.selection.expr)}"
        cg = self.cg
        seen, span = cg.empty_moves, st.span

        def note(z, have):
            if span not in seen:
                seen[span] = (cg.zone_label(z), have)
        lines.append(f"{ind}if {short}: {self.x.const(note)}({z}, {have})")

    def e(self, expr):
        return self.x.gen(expr, {})

    def t_Simple(self, st, lines, ind):
        if st.word == "skip":
            lines.append(f"{ind}g.skip += 1")
        elif st.word == "reverse":
            lines.append(f"{ind}g.dir = -g.dir")
            if self.logged:
                from rulelang.engine.events import log_reverse
                self.x.ns["_logrev"] = log_reverse
                lines.append(f"{ind}if g.log is not None: _logrev(g)")
        else:
            lines.append(f"{ind}pass")
        return True

    def t_Shuffle(self, st, lines, ind):
        lines.append(f"{ind}g.rng.shuffle(g.zones[{self.e(st.zone)}])")
        if self.logged:
            from rulelang.compile.words import log_shuffle
            self.x.ns["_logshuffle"] = log_shuffle
            lines.append(f"{ind}if g.log is not None: _logshuffle(g, {self.e(st.zone)})")
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
        place = f"fr[{int(self.refs.of(st).index)}]"
        lines.append(f"{ind}{place} = {self.x.as_int(st.value, self.e(st.value))}")
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
        ref = self.refs.of(t, None)
        cg = self.cg
        if isinstance(ref, Local):
            place = f"fr[{int(ref.index)}]"
        elif isinstance(ref, Var):
            base = int(cg.var_base[ref.name])
            place = f"g.vars[{base} + {self.x.slot(Frame.slot(ref.you), {})}]" if ref.per_player else f"g.vars[{base}]"
        elif isinstance(ref, VarOf):
            place = f"g.vars[{int(cg.var_base[ref.name])} + {self.e(t.operand)}]"
        elif isinstance(ref, CurrentPlayer):
            place = "g.cur"
        elif ref is None:                # (the checker reported it)
            lines.append(f"{ind}pass")
            return True
        else:
            raise Unsupported(type(ref).__name__)
        v = self.e(st.value)
        op = {"set": "=", "add": "+=", "sub": "-="}[st.op]
        checked = st.op != "set" or computes(st.value, self.refs)
        if checked and "rng" in place:
            # The place draws at random: read it, then written, as the closures do (the value
            # first, then the place read, bounded, then the place worked out again and set).
            t = self.x.fresh()
            lines.append(f"{ind}{t} = {self.x.as_int(st.value, v)}")
            if st.op != "set":
                lines.append(f"{ind}{t} = {place} {'+' if st.op == 'add' else '-'} {t}")
            self.bound(t, st, lines, ind)
            lines.append(f"{ind}{place} = {t}")
        else:
            lines.append(f"{ind}{place} {op} {self.x.as_int(st.value, v)}")
            if checked:
                self.bound(place, st, lines, ind)
        if isinstance(ref, CurrentPlayer) and ref.moves_you:
            lines.append(f"{ind}fr[{Frame.YOU}] = g.cur")      # in setup, `you` is the current player
        return True

    def t_Say(self, st, lines, ind):
        """Words are made only for a game that keeps a log: otherwise not even a call; in a
        playout variant (which never logs), not even the question."""
        if not self.logged:
            lines.append(f"{ind}pass")
            return True
        cg = self.cg
        self.x.ns["_fmt"] = cg.format
        words = []
        for p in st.parts:
            if isinstance(p, str):
                words.append(self.x.const(p))
            elif isinstance(p, A.CardsIn):
                words.append(f"_fmt(g, {self.e(p.zone)}, {self.x.const(CARDS)})")
            else:
                typ = cg.model.say_as.of(p, None) or cg.types.of(p, None)
                words.append(f"_fmt(g, {self.e(p)}, {self.x.const(typ)})")
        yi = int(self.refs.of(st, You(-1)).index)
        lines.append(f"{ind}if g.log is not None:")
        self.x.ns["_say"] = say
        lines.append(f"{ind}    _say(g, {self.x.slot(yi, {})}, ({''.join(w + ', ' for w in words)}))")
        return True

    def t_Reveal(self, st, lines, ind):
        """Everyone remembers the card: a call whether the game keeps a log or not.  Told as
        revealed by the player whose zone holds the card (its owner at that moment), not by the
        player whose rule runs; a card in a shared zone is nobody's (-1)."""
        cg = self.cg
        c = self.x.fresh()
        self.x.ns["_reveal"] = reveal_card
        lines.append(f"{ind}{c} = {self.e(st.card)}")
        lines.append(f"{ind}_reveal(g, {c})")
        if self.logged:
            self.x.ns["_holder"] = holder
            names, owned = self.x.const(cg.card_names), self.x.const(cg.owned_zones())
            lines.append(f"{ind}if g.log is not None:")
            lines.append(f"{ind}    g.log.append(({self.x.const('reveal')}, _holder(g, {c}, {owned}) "
                         f"if {c} >= 0 else -1, {names}[{c}] if {c} >= 0 else "
                         f"{self.x.const('nothing')}))")
        return True

    def t_Deal(self, st, lines, ind):
        """``deal``: the zone dealt from, then the seats, then the count, as the closures."""
        cg = self.cg
        s, o = self.x.fresh(), self.x.fresh()
        self.x.ns["_dealorder"] = deal_order
        self.x.ns["_deal"] = deal
        start = self.e(st.start) if st.start is not None else "g.cur"
        ob = "None" if cg.out_base is None else str(int(cg.out_base))
        count = self.e(st.count) if st.count is not None else "None"
        lines.append(f"{ind}{s} = g.zones[{self.e(st.source)}]")
        lines.append(f"{ind}{o} = _dealorder(g, {start}, {int(cg.n)}, {ob})")
        lines.append(f"{ind}if {o}:")
        lines.append(f"{ind}    _deal(g, {s}, {o}, {int(cg.zone_base.get(st.zone, 0))}, {count})")
        return True

    def t_EndGame(self, st, lines, ind):
        """The end of the game (the caller returns HALT after it)."""
        cg = self.cg
        kind = st.kind
        n = int(cg.n)
        self.x.ns["_finish"] = cg.finish
        if kind == "where":          # a result for every player, each on their own
            ends = self.refs.of(st)
            wi = Frame.slot(ends.winners)
            res, p = self.x.fresh(), self.x.fresh()
            win, draw, loss = (self.x.const(w) for w in ("win", "draw", "loss"))
            self.x.ns["_endres"] = end_with_results
            self.x.ns["_cg"] = cg
            lines.append(f"{ind}{res} = []")
            lines.append(f"{ind}for {p} in range({n}):")
            lines.append(f"{ind}    fr[{wi}] = {p}")
            lines.append(f"{ind}    if {self.e(st.winners)}:")
            lines.append(f"{ind}        {res}.append({win})")
            lines.append(f"{ind}        continue")
            if st.losers is None:
                lines.append(f"{ind}    {res}.append({loss})")
            else:
                lines.append(f"{ind}    fr[{Frame.slot(ends.losers)}] = {p}")
                lines.append(f"{ind}    {res}.append({loss} if {self.e(st.losers)} else {draw})")
            lines.append(f"{ind}_endres(_cg, g, {res})")
        elif kind == "winner":
            lines.append(f"{ind}_finish(g, [{self.e(st.player)}], {self.x.const('win')})")
        elif kind == "loser":
            p, q = self.x.fresh(), self.x.fresh()
            lines.append(f"{ind}{p} = {self.e(st.player)}")
            lines.append(f"{ind}_finish(g, [{q} for {q} in range({n}) if {q} != {p}], "
                         f"{self.x.const('loss')})")
        elif kind == "draw":
            lines.append(f"{ind}_finish(g, [], {self.x.const('draw')})")
        else:
            self.x.ns["_endscore"] = end_by_score
            self.x.ns["_cg"] = cg
            lines.append(f"{ind}_endscore(_cg, g, {kind == 'highest'})")
        return True

    def t_Move(self, st, lines, ind):
        if not remembers(self.cg.model, st):
            return self._move(st, self.e(st.source), self.e(st.dest), lines, ind)
        # Someone may see the cards go: the zones are worked out once, before the move, and the
        # cards that went are remembered by those who saw them go (engine/players.seen_go).
        si, di, s, d, b, top = (self.x.fresh() for _ in range(6))
        self.x.ns["_seengo"] = seen_go
        lines.append(f"{ind}{si} = {self.e(st.source)}")
        lines.append(f"{ind}{di} = {self.e(st.dest)}")
        lines.append(f"{ind}{b} = len(g.zones[{di}])")
        lines.append(f"{ind}{s} = g.zones[{si}]")
        lines.append(f"{ind}{top} = {s}[-1] if {s} else -1")
        self._move(st, si, di, lines, ind)
        lines.append(f"{ind}{d} = g.zones[{di}]")
        moved = f"{d}[:len({d}) - {b}]" if st.to_bottom else f"{d}[{b}:]"
        lines.append(f"{ind}_seengo(g, {moved}, {si}, {di}, {top}, "
                     f"{st.selection.kind == 'all'})")
        return True

    def _move(self, st, src, dst, lines, ind):
        """The cards go from the zone whose code is ``src`` to ``dst`` (either may be evaluated
        more than once: the remembering move passes names)."""
        kind = st.selection.kind
        if kind in ("all", "all_but_top"):
            return self._move_all(st, kind, src, dst, lines, ind)
        if kind in ("count_where", "upto_where", "and_above"):
            return self._move_counted(st, kind, src, dst, lines, ind)
        if kind in ("count", "where"):
            return self._move_some(st, kind, src, dst, lines, ind)
        s = self.x.fresh()
        lines.append(f"{ind}{s} = g.zones[{src}]")
        put = "insert(0, {})" if st.to_bottom else "append({})"
        log = ""
        if self.logged:       # the move in a logged game's log (rulelang/engine/events.py)
            self.x.ns["_logmv"] = log_move
            log = "if g.log is not None: _logmv(g, {}, None, ({},), %d)" % int(bool(st.to_bottom))
        if kind in ("bottom", "random"):        # one card, as the closure move_one takes it
            c = self.x.fresh()
            take = "pop(0)" if kind == "bottom" else f"pop(g.rng.randrange(len({s})))"
            lines.append(f"{ind}if {s}:")
            lines.append(f"{ind}    {c} = {s}.{take}")
            lines.append(f"{ind}    g.zones[{dst}].{put.format(c)}")
            if log:
                lines.append(f"{ind}    {log.format(s, c)}")
            return True
        if kind == "top":
            lines.append(f"{ind}if {s}:")
            if not log:
                lines.append(f"{ind}    g.zones[{dst}].{put.format(s + '.pop()')}")
                return True
            c = self.x.fresh()
            lines.append(f"{ind}    {c} = {s}.pop()")
            lines.append(f"{ind}    g.zones[{dst}].{put.format(c)}")
            lines.append(f"{ind}    {log.format(s, c)}")
            return True
        c = self.x.fresh()
        missing = self.x.const(self._missing(st))
        lines.append(f"{ind}{c} = {self.e(st.selection.expr)}")
        lines.append(f"{ind}if {c} in {s}:")
        lines.append(f"{ind}    {s}.remove({c})")
        lines.append(f"{ind}else:")
        lines.append(f"{ind}    {missing}(g, {c}, {src})")
        lines.append(f"{ind}g.zones[{dst}].{put.format(c)}")
        if log:
            lines.append(f"{ind}{log.format(s, c)}")
        return True

    def _move_all(self, st, kind, src, dst, lines, ind):
        """``move all cards`` / ``all but top card``: one slice, kept in order (reversed when
        turned over), put on top or at the bottom; nothing happens from a zone to itself."""
        s, d = self.x.fresh(), self.x.fresh()
        lines.append(f"{ind}{s} = g.zones[{src}]")
        lines.append(f"{ind}{d} = g.zones[{dst}]")
        lines.append(f"{ind}if {s} is not {d}:")
        part = {("all", False): "[:]", ("all", True): "[::-1]",
                ("all_but_top", False): "[:-1]", ("all_but_top", True): "[-2::-1]"}[
            kind, bool(st.turned_over)]
        if self.logged:       # recorded before the cards go: the cards as they will lie in d
            self.x.ns["_logmv"] = log_move
            lines.append(f"{ind}    if g.log is not None: _logmv(g, {s}, {d}, {s}{part}, "
                         f"{int(bool(st.to_bottom))})")
        if st.to_bottom:
            lines.append(f"{ind}    {d}[:0] = {s}{part}")
        else:
            lines.append(f"{ind}    {d}.extend({s}{part if part != '[:]' else ''})")
        lines.append(f"{ind}    del {s}{'[:]' if kind == 'all' else '[:-1]'}")
        return True

    def _put_many(self, st, cards, src, dest, lines, ind):
        """``cards`` (a fresh list) from the zone list ``src`` onto the zone list ``dest`` (both
        names): reversed when turned over, at the bottom or on top, recorded in a logged game's log, as the closures'
        ``put_many``."""
        if st.turned_over:
            lines.append(f"{ind}{cards} = {cards}[::-1]")
        d = dest
        if st.to_bottom:
            lines.append(f"{ind}{d}[:0] = {cards}")
        else:
            lines.append(f"{ind}{d}.extend({cards})")
        if self.logged:       # the move in a logged game's log (rulelang/engine/events.py)
            self.x.ns["_logmv"] = log_move
            lines.append(f"{ind}if g.log is not None: _logmv(g, {src}, {d}, {cards}, "
                         f"{int(bool(st.to_bottom))})")

    def _zone(self, code, lines, ind):
        """A fresh name for the list of the zone whose number is ``code``."""
        d = self.x.fresh()
        lines.append(f"{ind}{d} = g.zones[{code}]")
        return d

    def _move_counted(self, st, kind, src, dst, lines, ind):
        """``move N cards where C``, ``move up to N cards where C`` and ``move c and every card
        on top of it``, written as the closures do them (closure_statements.counted_move): the
        cards that match taken one at a time from the top, the block lifted in its order; the
        zone moved to is worked out after the cards are taken, as there."""
        sel = st.selection
        s = self.x.fresh()
        lines.append(f"{ind}{s} = g.zones[{src}]")
        cards = self.x.fresh()
        if kind == "and_above":
            c, i = self.x.fresh(), self.x.fresh()
            missing = self.x.const(self._missing(st))
            lines.append(f"{ind}{c} = {self.e(sel.expr)}")
            lines.append(f"{ind}if {c} not in {s}:")
            lines.append(f"{ind}    {missing}(g, {c}, {src})")
            lines.append(f"{ind}{i} = 0")                 # its first place, as list.index
            lines.append(f"{ind}while {s}[{i}] != {c}:")
            lines.append(f"{ind}    {i} += 1")
            lines.append(f"{ind}{cards} = {s}[{i}:]")
            lines.append(f"{ind}del {s}[{i}:]")
            self._put_many(st, cards, s, self._zone(dst, lines, ind), lines, ind)
            return True
        ci = self.refs.of(sel).index
        k, picked, i = self.x.fresh(), self.x.fresh(), self.x.fresh()
        lines.append(f"{ind}{k} = {self.e(sel.expr)}")
        lines.append(f"{ind}{picked} = []")
        lines.append(f"{ind}for {i} in range(len({s}) - 1, -1, -1):")
        lines.append(f"{ind}    if len({picked}) >= {k}:")
        lines.append(f"{ind}        break")
        lines.append(f"{ind}    fr[{ci}] = {s}[{i}]")
        lines.append(f"{ind}    if {self.e(sel.condition)}:")
        lines.append(f"{ind}        {picked}.append({i})")
        if kind == "count_where":
            fewer = self.x.const(self._fewer(st))
            lines.append(f"{ind}if len({picked}) < {k}:")
            lines.append(f"{ind}    {fewer}(g, {k}, len({picked}), {src})")
        lines.append(f"{ind}{cards} = [{s}[{i}] for {i} in {picked}]")
        lines.append(f"{ind}for {i} in {picked}:")
        lines.append(f"{ind}    del {s}[{i}]")
        self._put_many(st, cards, s, self._zone(dst, lines, ind), lines, ind)
        return True

    def _move_some(self, st, kind, src, dst, lines, ind):
        """``move N cards`` (one at a time from the top: the first taken ends lowest) and ``move
        all cards where C`` (in their order), written as the closures do them: the zones, then
        the count."""
        s, d, cards = self.x.fresh(), self.x.fresh(), self.x.fresh()
        lines.append(f"{ind}{s} = g.zones[{src}]")
        lines.append(f"{ind}{d} = g.zones[{dst}]")
        if kind == "count":
            k = self.x.fresh()
            lines.append(f"{ind}{k} = {self.e(st.selection.expr)}")
            lines.append(f"{ind}if {k} > 0:")
            lines.append(f"{ind}    {cards} = {s}[-{k}:][::-1]")
            lines.append(f"{ind}    del {s}[-{k}:]")
            self._put_many(st, cards, s, d, lines, ind + "    ")
            return True
        ci = int(self.refs.of(st.selection).index)
        keep, c = self.x.fresh(), self.x.fresh()
        lines.append(f"{ind}{keep}, {cards} = [], []")
        lines.append(f"{ind}for {c} in {s}:")
        lines.append(f"{ind}    fr[{ci}] = {c}")
        lines.append(f"{ind}    ({cards} if {self.e(st.selection.expr)} else {keep}).append({c})")
        lines.append(f"{ind}{s}[:] = {keep}")
        self._put_many(st, cards, s, d, lines, ind)
        return True

    def _fewer(self, st):
        cg = self.cg
        span = st.span

        def fewer(g, k, found, zi):
            from rulelang.engine.control import GameProblem
            raise GameProblem("RL258", f"{k} cards that match are to be moved from "
                              f"{cg.zone_label(zi)}, which has {found}", span)
        return fewer

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
