"""Simple statements written as lines of Python in a rule's generated function.

:class:`StatementGen` writes the statements that do not decide where a rule goes on (moves,
deals, assignments, shuffles, words, the end of the game, an ``if`` made only of these) as lines
of Python, with the expressions of :class:`~rulelang.compile.codegen.ExprGen`, each with its
``t_<Node>`` method, through a code writer (:class:`~rulelang.compile.writer.CodeWriter`); a
statement with none raises Unsupported.  The order in which a statement works out its parts
(and so draws its random numbers) is part of its meaning, and the tests' reference interpreter
(``tests/reference``) keeps the same.  :func:`computes` tells whether a stored number must be
checked against the bound (RL910).  The generated source obeys the rules of
:mod:`rulelang.compile.gensource`.
"""
from __future__ import annotations

from contextlib import nullcontext

from rulelang.syntax import ast as A
from rulelang.limits import MAX_NUMBER
from rulelang.kinds import Frame
from rulelang.check.ir import You, Zone, ZoneOf
from rulelang.engine.events import log_move
from rulelang.engine.players import (LEFT_EVENT, LOG_LIMIT, MOVE_EVENT, holder, left_unseen,
                                     reveal_card, reveal_in, seen_go, show_in)
from rulelang.kinds import CARDS
from rulelang.engine.played import cleared as played_cleared
from rulelang.engine.teams import not_team_of, team_of
from rulelang.compile.genruntime import (deal, deal_apart, deal_order, end_by_score, end_with_results,
                                         put_beside, say)
from rulelang.compile.gensource import Unsupported
from rulelang.compile.exprnodes import PlayerZone
from rulelang.compile.fold import computes
from rulelang.compile.places import remembers, zone_seen
from rulelang.compile.stmtvalues import ValueStatements


# ---- statements -------------------------------------------------------------------------------
# The statements that decide where a rule goes on (blocks, jumps, calls, decisions, the end):
# the generators write each of these themselves.  Every other statement is simple: a ``t_``
# method below writes it (``t_EndGame`` too, for RuleGen.inline).
_CONTROL = (A.Simple, A.EndGame, A.CallRule, A.If, A.Loop, A.ForPlayer, A.ForCard, A.ForValue,
            A.Choose)


class StatementGen(ValueStatements):
    """Writes simple statements for the compiled game ``cg`` (its layout: zones, variables,
    cards), with the expressions of ``exprs`` (the game's :class:`~rulelang.compile.codegen.ExprGen`)."""

    def __init__(self, cg, exprs):
        self.cg = cg
        self.x = exprs
        self.refs = cg.refs

    def note_left(self, cx, st, cards, src, w, dst=None):
        """The cards (``cards``: code of a tuple or a list) that a move nobody sees (or a deal)
        takes out of a zone where memories may be (``src``: the zone's code): what anyone
        remembered of them there is forgotten (players.left_unseen; in a playout variant, its
        event appended to the Memory's log here).  (A move that seen_go records forgets or
        carries them itself.)  A move to the zone ``dst`` that may be the same zone: only when
        it is not (the cards are back where they were)."""
        if not self.noting(cx, st):
            return
        self.x.ns["_leftunseen"] = left_unseen
        event, call = f"{LEFT_EVENT}, {cards}, {src}", f"_leftunseen(g, {cards}, {src})"
        if dst is not None and self.same_zone_maybe(st):
            w.writeline(f"if {src} != {dst}:")
            with w.indent():
                self.memory_event(cx, event, call, w)
        else:
            self.memory_event(cx, event, call, w)

    def same_zone_maybe(self, st) -> bool:
        """May the zones a move takes cards from and to be one zone (the same declared zone, a
        family's or one known only while the game is played)?"""
        a, b = self.refs.of(st.source, None), self.refs.of(st.dest, None)
        return not (isinstance(a, (Zone, ZoneOf)) and isinstance(b, (Zone, ZoneOf))
                    and a.name != b.name)

    def noting(self, cx, st) -> bool:
        """Does :meth:`note_left` write something for the cards ``st`` moves (or deals)?"""
        if cx.recording or not self.cg.memory_zones:
            return False
        ref = self.refs.of(st.source, None)
        return not isinstance(ref, (Zone, ZoneOf)) or ref.name in self.cg.memory_zones

    def memory_event(self, cx, event, call, w):
        """What players remember learns of ``event`` (code of the tuple's items after its
        kind's number): in the API's code by ``call``; in a playout variant, where it is most
        often a Memory (g._mg, set by State.playout), by appending the event to its log here,
        without a call (players.seen_go, left_unseen)."""
        if cx.logged:
            w.writeline(call)
            return
        m, log = self.x.state(cx, "_mg"), self.x.fresh()
        w.writeline(f"if {m} is not None:")
        with w.indent():
            w.writeline(f"{log} = {m}.log")
            w.writeline(f"{log}.append(({event}))")
            w.writeline(f"if len({log}) >= {LOG_LIMIT}: {m}.flush()")
        w.writeline("else:")
        with w.indent():
            w.writeline(call)

    def is_simple(self, st) -> bool:
        """Is ``st`` written here (by its ``t_`` method), not by RuleGen?"""
        if isinstance(st, A.Simple):
            return st.word in ("skip", "reverse", "pass")
        return isinstance(st, A.Stmt) and not isinstance(st, _CONTROL)

    def stmt(self, cx, st, w):
        if isinstance(st, A.Move) and self.cg.empty_moves is not None:
            self.watch(cx, st, w)
        m = getattr(self, "t_" + type(st).__name__, None)
        if m is None:
            raise Unsupported(type(st).__name__)
        m(cx, st, w)

    def watch(self, cx, st, w):
        """A game compiled with ``watch_empty`` (``check --simulate``): before a move of the top,
        bottom or a random card, or of N cards, note it when its zone has too few
        (``CompiledGame.empty_moves``).  The zone (and the number, when there are cards) are
        worked out once here and again by the move."""
        kind = st.selection.kind
        if kind not in ("top", "bottom", "random", "count"):
            return      # (`top N cards` moves as many as there are, as `up to N cards where`)
        z, have = self.x.fresh(), self.x.fresh()
        w.writeline(f"{z} = {self.e(cx, st.source)}")
        w.writeline(f"{have} = len({self.x.zone(cx, z)})")
        short = f"{have} == 0"
        if kind == "count":
            short += f" or {have} < {self.e(cx, st.selection.expr)}"
        cg = self.cg
        seen, span = cg.empty_moves, st.span

        def note(z, have):
            if span not in seen:
                seen[span] = (cg.zone_label(z), have)
        w.writeline(f"if {short}: {self.x.const(note)}({z}, {have})")

    def e(self, cx, expr):
        return self.x.gen(cx, expr, {})

    def each(self, cx, expr):
        """The code of ``expr``, evaluated for each card of a zone (or each player) by the loop
        of a statement: the loops inside it are charged (ExprGen.charged)."""
        return self.x.gen(cx.evolve(charging=True), expr, {})

    def t_Simple(self, cx, st, w):
        if st.word == "skip":
            w.writeline("g.skip += 1")
        elif st.word == "reverse":
            w.writeline("g.dir = -g.dir")
            if cx.logged:
                from rulelang.engine.events import log_reverse
                self.x.ns["_logrev"] = log_reverse
                w.writeline("if g.log is not None: _logrev(g)")
        else:
            w.pass_()
        return True

    def t_Shuffle(self, cx, st, w):
        zi = self.e(cx, st.zone)
        if (cx.logged or self.cg.played_base is not None) and self.x.fold.chance(st.zone):
            zi = self.once(zi, w)       # the zone shuffled is the zone told (worked out once)
        shuffle = "shuffle" if self.cg.on("shuffle_plans") else "shuffle_stepwise"
        w.writeline(f"g.rng.{shuffle}({self.x.zone(cx, zi)})")
        if self.cg.played_base is not None:     # a shuffled pile's cards: played by nobody
            self.x.ns["_unplayed"] = played_cleared
            w.writeline(f"_unplayed({self.x.vars(cx)}, {int(self.cg.played_base)}, {self.x.zone(cx, zi)})")
        if cx.logged:
            from rulelang.compile.words import log_shuffle
            self.x.ns["_logshuffle"] = log_shuffle
            w.writeline(f"if g.log is not None: _logshuffle(g, {zi})")
        return True

    def drawn_once(self, cx, e, zi, w):
        """The zone index code ``zi`` of ``e``, worked out into a local when ``e`` draws at
        random (Fold.chance) and the code after reads it more than once (in a move nobody sees:
        its log, the place named when the card is missing, what is forgotten; the remembering
        move passes names already)."""
        if cx.recording or not self.x.fold.chance(e):
            return zi
        return self.once(zi, w)

    def once(self, zi, w):
        """The zone index code ``zi`` worked out into a local, so that code using it twice
        draws its random player once; a zone of each player keeps its parts (ExprGen.zone)."""
        v = self.x.fresh()
        if isinstance(zi, PlayerZone):
            w.writeline(f"{v} = {zi.seat}")
            return PlayerZone(zi.base, v)
        w.writeline(f"{v} = {zi}")
        return v

    def place(self, st):
        """The zone expression where the card of ``st`` (a reveal or show) is known to be, or
        None (``card_places``, worked out once per compiled game: ``CompiledGame.card_places``).
        A zone named by a random draw is not worked out again (that would draw again): the card
        is looked for."""
        z = self.cg.card_places.get(id(st))
        return None if z is None or self.x.fold.chance(z) else z

    def t_Show(self, cx, st, w):
        z = self.place(st)
        if z is None:
            w.writeline(f"_show(g, {self.e(cx, st.card)}, {self.e(cx, st.player)})")
        else:
            self.x.ns["_showin"] = show_in
            w.writeline(f"_showin(g, {self.e(cx, st.card)}, {self.e(cx, st.player)}, {self.e(cx, z)})")
        return True

    def t_Leave(self, cx, st, w):
        w.writeline(f"_leave(g, {self.e(cx, st.player)}, {int(self.cg.out_base)})")
        return True

    def t_NextTurn(self, cx, st, w):
        w.writeline(f"g.next_turn = {self.e(cx, st.player)}")
        return True

    def t_Let(self, cx, st, w):
        place = self.x.slot(cx, int(self.refs.of(st).index), {})
        v = self.x.as_int(st.value, self.e(cx, st.value))
        if computes(st.value, self.refs):
            t = self.x.fresh()           # checked before it is stored (RL910)
            w.writeline(f"{t} = {v}")
            self.bound(t, st, w)
            w.writeline(f"{place} = {t}")
        else:
            w.writeline(f"{place} = {v}")
        return True

    def bound(self, place, st, w):
        """The number just stored in ``place`` (code without side effects) must be within the
        bound (RL910)."""
        w.writeline(f"if not {-MAX_NUMBER} <= {place} <= {MAX_NUMBER}: "
                    f"_big({place}, {self.x.const(st.span)})")

    def t_Say(self, cx, st, w):
        """Words are made only for a game that keeps a log: otherwise not even a call; in a
        playout variant (which never logs), not even the question."""
        if not cx.logged:
            w.pass_()
            return True
        cg = self.cg
        self.x.ns["_fmt"] = cg.format
        words = []
        for p in st.parts:
            if isinstance(p, str):
                words.append(self.x.const(p))
            elif isinstance(p, A.CardsIn):
                words.append(f"_fmt(g, {self.e(cx, p.zone)}, {self.x.const(CARDS)})")
            else:
                typ = cg.model.say_as.of(p, None) or cg.types.of(p, None)
                words.append(f"_fmt(g, {self.e(cx, p)}, {self.x.const(typ)})")
        yi = int(self.refs.of(st, You(-1)).index)
        w.writeline("if g.log is not None:")
        self.x.ns["_say"] = say
        with w.indent():
            w.writeline(f"_say(g, {self.x.slot(cx, yi, {})}, ({''.join(word + ', ' for word in words)}))")
        return True

    def t_Reveal(self, cx, st, w):
        """Everyone remembers the card: a call whether the game keeps a log or not.  Told as
        revealed by the player whose zone holds the card (its owner at that moment), not by the
        player whose rule runs; a card in a shared zone is nobody's (-1)."""
        cg = self.cg
        z = self.place(st)
        seen = z is not None and zone_seen(cg.model, z) == "everyone"
        if seen and not cx.logged:
            # in a zone everyone sees: nobody has anything to remember, and no words to tell
            w.pass_()
            return True
        c = self.x.fresh()
        w.writeline(f"{c} = {self.e(cx, st.card)}")
        if z is None:
            self.x.ns["_reveal"] = reveal_card
            w.writeline(f"_reveal(g, {c})")
        elif not seen:
            self.x.ns["_revealin"] = reveal_in
            w.writeline(f"_revealin(g, {c}, {self.e(cx, z)})")
        if cx.logged:
            self.x.ns["_holder"] = holder
            names, owned = self.x.const(cg.card_names), self.x.const(cg.owned_zones())
            w.writeline("if g.log is not None:")
            with w.indent():
                w.writeline(f"g.log.append(({self.x.const('reveal')}, _holder(g, {c}, {owned}) "
                            f"if {c} >= 0 else -1, {names}[{c}] if {c} >= 0 else "
                            f"{self.x.const('nothing')}))")
        return True

    def t_Deal(self, cx, st, w):
        """``deal``: the zone dealt from, then the seats, then the count (in that order)."""
        cg = self.cg
        s, o = self.x.fresh(), self.x.fresh()
        self.x.ns["_dealorder"] = deal_order
        # A zone named other than the zones dealt to is never one of them: dealt in bulk with
        # no test (genruntime.deal_apart).
        ref = self.refs.of(st.source, None)
        apart = isinstance(ref, (Zone, ZoneOf)) and ref.name != st.zone
        fn = "_dealapart" if apart else "_deal"
        self.x.ns[fn] = deal_apart if apart else deal
        start = self.e(cx, st.start) if st.start is not None else "g.cur"
        ob = "None" if cg.out_base is None else str(int(cg.out_base))
        count = self.e(cx, st.count) if st.count is not None else "None"
        w.writeline(f"{s} = {self.x.zone(cx, self.e(cx, st.source))}")
        w.writeline(f"{o} = _dealorder(g, {start}, {int(cg.n)}, {ob})")
        w.writeline(f"if {o}:")
        with w.indent():
            played = cg.played_base is not None
            was = self.x.fresh() if self.noting(cx, st) or played else None
            if was:
                w.writeline(f"{was} = {s}[:]")
            w.writeline(f"{fn}(g, {s}, {o}, {int(cg.zone_base.get(st.zone, 0))}, {count})")
            dealt = None
            if self.noting(cx, st):     # the cards dealt: those of the zone that are not there now
                c, there = self.x.fresh(), self.x.fresh()
                w.writeline(f"{there} = {{*{s}}}")
                dealt = f"[{c} for {c} in {was} if {c} not in {there}]"
                self.note_left(cx, st, dealt, self.e(cx, st.source), w)
            if played:              # dealt to the players: played by nobody (engine/played.py)
                if apart:           # (from the top of a zone none of those dealt to)
                    dealt = f"{was}[len({s}):]"
                elif dealt is None:
                    c, there = self.x.fresh(), self.x.fresh()
                    w.writeline(f"{there} = {{*{s}}}")
                    dealt = f"[{c} for {c} in {was} if {c} not in {there}]"
                self.x.ns["_unplayed"] = played_cleared
                w.writeline(f"_unplayed({self.x.vars(cx)}, {int(cg.played_base)}, {dealt})")
        return True

    def t_EndGame(self, cx, st, w):
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
            w.writeline(f"{res} = []")
            w.writeline(f"for {p} in range({n}):")
            with w.indent():
                w.writeline(f"{self.x.slot(cx, wi, {})} = {p}")
                w.writeline(f"if {self.each(cx, st.winners)}:")
                with w.indent():
                    w.writeline(f"{res}.append({win})")
                    w.writeline("continue")
                if st.losers is None:
                    w.writeline(f"{res}.append({loss})")
                else:
                    w.writeline(f"{self.x.slot(cx, Frame.slot(ends.losers), {})} = {p}")
                    w.writeline(f"{res}.append({loss} if {self.each(cx, st.losers)} else {draw})")
            w.writeline(f"_endres(_cg, g, {res})")
        elif kind in ("winner", "loser") and cg.team_base is not None:   # a team together
            # (two names: the namespace is shared by every function of the game)
            fn = "_teamof" if kind == "winner" else "_notteamof"
            self.x.ns[fn] = team_of if kind == "winner" else not_team_of
            w.writeline(f"_finish(g, {fn}(g, {self.e(cx, st.player)}, {int(cg.team_base)}), "
                        f"{self.x.const('win' if kind == 'winner' else 'loss')})")
        elif kind == "winner":
            w.writeline(f"_finish(g, [{self.e(cx, st.player)}], {self.x.const('win')})")
        elif kind == "loser":
            p, q = self.x.fresh(), self.x.fresh()
            w.writeline(f"{p} = {self.e(cx, st.player)}")
            w.writeline(f"_finish(g, [{q} for {q} in range({n}) if {q} != {p}], "
                        f"{self.x.const('loss')})")
        elif kind == "draw":
            w.writeline(f"_finish(g, [], {self.x.const('draw')})")
        else:
            self.x.ns["_endscore"] = end_by_score
            self.x.ns["_cg"] = cg
            w.writeline(f"_endscore(_cg, g, {kind == 'highest'})")
        return True

    def t_Move(self, cx, st, w):
        if st.beside is None:
            return self._t_move(cx, st, w)
        # `move c from A to B under d`: d worked out first, the move, then c (B's top card
        # now) put directly under (above) d; a d not in B stops the game (RL307)
        # (the zone moved to worked out once, after d and before the move: a zone drawn at
        # random is the same for the move and for the card put beside)
        d = self.x.fresh()
        w.writeline(f"{d} = {self.e(cx, st.beside)}")
        dst = self.once(self.dest(cx, st), w)
        self._t_move(cx.evolve(dest_code=dst), st, w)
        self.x.ns["_putby"] = put_beside
        w.writeline(f"_putby({self.x.zone(cx, dst)}, {d}, {int(st.place == 'above')}, "
                    f"{self.x.const(self._not_beside(st))})")
        return True

    def dest(self, cx, st):
        """The code of the zone the move ``st`` goes to: worked out before it where the context
        says so (``dest_code``), else here."""
        return cx.dest_code if cx.dest_code is not None else self.e(cx, st.dest)

    def _not_beside(self, st):
        cg = self.cg
        span, place = st.span, st.place

        def not_there(c, d):
            from rulelang.engine.control import GameProblem
            raise GameProblem("RL307", f"card {cg.card_names[c]} is to go {place} card "
                              f"{cg.card_names[d] if d >= 0 else 'none'}, which is not in the "
                              "zone it went to", span)
        return not_there

    def _t_move(self, cx, st, w):
        if not remembers(self.cg.model, st):
            # (the zone moved from is worked out first, once: _move reads it again)
            return self._move(cx, st, self.drawn_once(cx, st.source, self.e(cx, st.source), w),
                              self.dest(cx, st), w)
        if st.selection.kind == "all":
            return self._move_all_seen(cx, st, w)
        if st.selection.kind in ("top", "bottom", "random", "card"):
            return self._move_one_seen(cx, st, w)
        # Someone may see the cards go: the zones are worked out once, before the move, and the
        # cards that went are remembered by those who saw them go (engine/players.seen_go).
        si, di, s, d, b, top = (self.x.fresh() for _ in range(6))
        self.x.ns["_seengo"] = seen_go
        w.writeline(f"{si} = {self.e(cx, st.source)}")
        w.writeline(f"{di} = {self.dest(cx, st)}")
        w.writeline(f"{b} = len({self.x.zone(cx, di)})")
        w.writeline(f"{s} = {self.x.zone(cx, si)}")
        w.writeline(f"{top} = {s}[-1] if {s} else -1")
        self._move(cx.evolve(recording=True), st, si, di, w)
        w.writeline(f"{d} = {self.x.zone(cx, di)}")
        moved = f"{d}[:len({d}) - {b}]" if st.to_bottom else f"{d}[{b}:]"
        args = f"{moved}, {si}, {di}, {top}, {st.selection.kind == 'all'}"
        self.memory_event(cx, f"{MOVE_EVENT}, {args}", f"_seengo(g, {args})", w)   # (two a duel in Attack!)
        return True

    def _move_all_seen(self, cx, st, w):
        """``move all cards`` that someone may see go: as :meth:`t_Move`, in fewer steps.  Each
        zone's list is looked up once; nothing is done (nor remembered: ``seen_go`` does
        nothing for no card) when the zone moved from is empty, or is the zone moved to; the
        cards that go are the slice taken before they go, in the order they will lie.  (Other
        moves that someone may see go are worked out by t_Move.)"""
        si, di, s, d, m = (self.x.fresh() for _ in range(5))
        self.x.ns["_seengo"] = seen_go
        w.writeline(f"{si} = {self.e(cx, st.source)}")
        w.writeline(f"{di} = {self.dest(cx, st)}")
        w.writeline(f"{s} = {self.x.zone(cx, si)}")
        w.writeline(f"{d} = {self.x.zone(cx, di)}")
        w.writeline(f"if {s} and {s} is not {d}:" if self.same_zone_maybe(st) else f"if {s}:")
        with w.indent():
            top = self.x.fresh()
            w.writeline(f"{top} = {s}[-1]")   # (the card on top of the zone, before the move)
            w.writeline(f"{m} = {s}{'[::-1]' if st.turned_over else '[:]'}")
            if cx.logged:     # recorded before the cards go: the cards as they will lie in d
                self.x.ns["_logmv"] = log_move
                w.writeline(f"if g.log is not None: _logmv(g, {s}, {d}, {m}, "
                            f"{int(bool(st.to_bottom))})")
            args = f"{m}, {si}, {di}, {top}, True"
            if st.to_bottom:
                w.writeline(f"{d}[:0] = {m}")
            else:
                w.writeline(f"{d} += {m}")
            w.writeline(f"del {s}[:]")
            self.note_played(cx, st, m, si, di, w)
            self.memory_event(cx, f"{MOVE_EVENT}, {args}", f"_seengo(g, {args})", w)
        return True

    def _move_one_seen(self, cx, st, w):
        """``move top/bottom/random card`` or ``move c`` that someone may see go: as
        :meth:`t_Move`, in fewer steps: each zone's list looked up once, the card that goes
        is the card taken (for a card named, found or the game stopped, RL902), and nothing is
        done (nor remembered) when the zone moved from is empty."""
        kind = st.selection.kind
        si, di, s, c, top = (self.x.fresh() for _ in range(5))
        self.x.ns["_seengo"] = seen_go
        w.writeline(f"{si} = {self.e(cx, st.source)}")
        w.writeline(f"{di} = {self.dest(cx, st)}")
        w.writeline(f"{s} = {self.x.zone(cx, si)}")
        if kind == "card":
            missing = self.x.const(self._missing(st))
            self.x.ns["_notthere"] = ValueError
            w.writeline(f"{c} = {self.e(cx, st.selection.expr)}")
            w.writeline(f"{top} = {s}[-1] if {s} else -1")
            w.writeline("try:")          # (the card looked for once: see _move)
            with w.indent():
                w.writeline(f"{s}.remove({c})")
            w.writeline("except _notthere:")
            with w.indent():
                w.writeline(f"{missing}(g, {c}, {si})")
            inner = nullcontext()
        else:
            w.writeline(f"if {s}:")
            inner = w.indent()
        with inner:
            if kind != "card":
                w.writeline(f"{top} = {s}[-1]")     # (the card on top before the move)
                take = {"top": "pop()", "bottom": "pop(0)",
                        "random": f"pop(g.rng.randbelow(len({s})))"}[kind]
                w.writeline(f"{c} = {s}.{take}")
            put = f"insert(0, {c})" if st.to_bottom else f"append({c})"
            w.writeline(f"{self.x.zone(cx, di)}.{put}")
            if cx.logged:       # the move in a logged game's log (rulelang/engine/events.py)
                self.x.ns["_logmv"] = log_move
                w.writeline(f"if g.log is not None: _logmv(g, {s}, None, ({c},), "
                            f"{int(bool(st.to_bottom))})")
            args = f"({c},), {si}, {di}, {top}, False"
            self.note_played(cx, st, f"({c},)", si, di, w, card=c)
            self.memory_event(cx, f"{MOVE_EVENT}, {args}", f"_seengo(g, {args})", w)
        return True

    def _move(self, cx, st, src, dst, w):
        """The cards go from the zone whose code is ``src`` to ``dst`` (either may be evaluated
        more than once: the remembering move passes names)."""
        kind = st.selection.kind
        if kind in ("all", "all_but_top"):
            return self._move_all(cx, st, kind, src, dst, w)
        if kind in ("count_where", "upto_where", "and_above"):
            return self._move_counted(cx, st, kind, src, dst, w)
        if kind in ("count", "where"):
            return self._move_some(cx, st, kind, src, dst, w)
        if kind in ("top_n", "bottom_n"):
            return self._move_block(cx, st, kind, src, dst, w)
        s = self.x.fresh()
        w.writeline(f"{s} = {self.x.zone(cx, src)}")
        put = "insert(0, {})" if st.to_bottom else "append({})"
        log = ""
        if cx.logged:       # the move in a logged game's log (rulelang/engine/events.py)
            self.x.ns["_logmv"] = log_move
            log = "if g.log is not None: _logmv(g, {}, None, ({},), %d)" % int(bool(st.to_bottom))
        if kind in ("bottom", "random"):        # one card: the zone first, then the card
            c = self.x.fresh()
            take = "pop(0)" if kind == "bottom" else f"pop(g.rng.randbelow(len({s})))"
            w.writeline(f"if {s}:")
            with w.indent():
                w.writeline(f"{c} = {s}.{take}")
                self._land(cx, st, s, c, src, dst, put, log, w)
            return True
        if kind == "top":
            w.writeline(f"if {s}:")
            with w.indent():
                if not log and not self.noting(cx, st) and not self.playing(st):
                    w.writeline(f"{self.x.zone(cx, dst)}.{put.format(s + '.pop()')}")
                    return True
                c = self.x.fresh()
                w.writeline(f"{c} = {s}.pop()")
                self._land(cx, st, s, c, src, dst, put, log, w)
            return True
        missing = self.x.const(self._missing(st))
        read = self.x.fold.plain_read(st.selection.expr, self.x.seat_uses)
        if cx.frameless and read is not None and read[0] == "slot":
            c = self.e(cx, st.selection.expr)     # a slot that is a Python local: read as it is
        else:
            c = self.x.fresh()
            w.writeline(f"{c} = {self.e(cx, st.selection.expr)}")
        # (list.remove looks for the card once; a `try` costs nothing when it is there)
        self.x.ns["_notthere"] = ValueError
        w.writeline("try:")
        with w.indent():
            w.writeline(f"{s}.remove({c})")
        w.writeline("except _notthere:")
        with w.indent():
            w.writeline(f"{missing}(g, {c}, {src})")
        self._land(cx, st, s, c, src, dst, put, log, w)
        return True

    def _land(self, cx, st, s, c, src, dst, put, log, w):
        """The card ``c`` (a local), taken from the zone held in ``s`` (whose code is ``src``),
        put into ``dst`` as ``put`` says (on top or at the bottom), logged when ``log`` is a
        line to write, and noted where the game keeps what left a zone and what was played."""
        dst = self.drawn_once(cx, st.dest, dst, w)
        w.writeline(f"{self.x.zone(cx, dst)}.{put.format(c)}")
        if log:
            w.writeline(log.format(s, c))
        self.note_left(cx, st, f"({c},)", src, w, dst)
        self.note_played(cx, st, f"({c},)", src, dst, w, card=c)

    def _move_all(self, cx, st, kind, src, dst, w):
        """``move all cards`` / ``all but top card``: one slice, kept in order (reversed when
        turned over), put on top or at the bottom; nothing happens from a zone to itself."""
        s, d = self.x.fresh(), self.x.fresh()
        w.writeline(f"{s} = {self.x.zone(cx, src)}")
        if self.playing(st):            # (the zone moved to is read again: note_played)
            dst = self.drawn_once(cx, st.dest, dst, w)
        w.writeline(f"{d} = {self.x.zone(cx, dst)}")
        w.writeline(f"if {s} is not {d}:")
        part = {("all", False): "[:]", ("all", True): "[::-1]",
                ("all_but_top", False): "[:-1]", ("all_but_top", True): "[-2::-1]"}[
            kind, bool(st.turned_over)]
        with w.indent():
            if cx.logged:     # recorded before the cards go: the cards as they will lie in d
                self.x.ns["_logmv"] = log_move
                w.writeline(f"if g.log is not None: _logmv(g, {s}, {d}, {s}{part}, "
                            f"{int(bool(st.to_bottom))})")
            if st.to_bottom:
                w.writeline(f"{d}[:0] = {s}{part}")
            else:
                w.writeline(f"{d}.extend({s}{part if part != '[:]' else ''})")
            self.note_left(cx, st, f"{s}{'[:]' if kind == 'all' else '[:-1]'}", src, w)
            self.note_played(cx, st, f"{s}{'[:]' if kind == 'all' else '[:-1]'}", src, dst, w)
            w.writeline(f"del {s}{'[:]' if kind == 'all' else '[:-1]'}")
        return True

    def _put_many(self, cx, st, cards, src, dest, w):
        """``cards`` (a fresh list) from the zone list ``src`` onto the zone list ``dest`` (both
        names): reversed when turned over, at the bottom or on top, recorded in a logged game's
        log."""
        if st.turned_over:
            w.writeline(f"{cards} = {cards}[::-1]")
        d = dest
        if st.to_bottom:
            w.writeline(f"{d}[:0] = {cards}")
        else:
            w.writeline(f"{d}.extend({cards})")
        if cx.logged:       # the move in a logged game's log (rulelang/engine/events.py)
            self.x.ns["_logmv"] = log_move
            w.writeline(f"if g.log is not None: _logmv(g, {src}, {d}, {cards}, "
                        f"{int(bool(st.to_bottom))})")

    def _zone(self, cx, code, w):
        """A fresh name for the list of the zone whose number is ``code``."""
        d = self.x.fresh()
        w.writeline(f"{d} = {self.x.zone(cx, code)}")
        return d

    def _move_counted(self, cx, st, kind, src, dst, w):
        """``move N cards where C``, ``move up to N cards where C`` and ``move c and every card
        on top of it``: the cards that match taken one at a time from the top, the block lifted
        in its order; the zone moved to is worked out after the cards are taken."""
        sel = st.selection
        s = self.x.fresh()
        w.writeline(f"{s} = {self.x.zone(cx, src)}")
        cards = self.x.fresh()
        if kind == "and_above":
            c, i = self.x.fresh(), self.x.fresh()
            missing = self.x.const(self._missing(st))
            w.writeline(f"{c} = {self.e(cx, sel.expr)}")
            w.writeline(f"if {c} not in {s}:")
            with w.indent():
                w.writeline(f"{missing}(g, {c}, {src})")
            w.writeline(f"{i} = 0")                 # its first place, as list.index
            w.writeline(f"while {s}[{i}] != {c}:")
            with w.indent():
                w.writeline(f"{i} += 1")
            w.writeline(f"{cards} = {s}[{i}:]")
            w.writeline(f"del {s}[{i}:]")
            dst = self.drawn_once(cx, st.dest, dst, w)
            self.note_left(cx, st, cards, src, w, dst)
            self.note_played(cx, st, cards, src, dst, w)
            self._put_many(cx, st, cards, s, self._zone(cx, dst, w), w)
            return True
        ci = self.refs.of(sel).index
        k, picked, i = self.x.fresh(), self.x.fresh(), self.x.fresh()
        w.writeline(f"{k} = {self.e(cx, sel.expr)}")
        w.writeline(f"{picked} = []")
        w.writeline(f"for {i} in range(len({s}) - 1, -1, -1):")
        with w.indent():
            w.writeline(f"if len({picked}) >= {k}:")
            with w.indent():
                w.writeline("break")
            w.writeline(f"{self.x.slot(cx, ci, {})} = {s}[{i}]")
            w.writeline(f"if {self.each(cx, sel.condition)}:")
            with w.indent():
                w.writeline(f"{picked}.append({i})")
        if kind == "count_where":
            fewer = self.x.const(self._fewer(st))
            w.writeline(f"if len({picked}) < {k}:")
            with w.indent():
                w.writeline(f"{fewer}(g, {k}, len({picked}), {src})")
        w.writeline(f"{cards} = [{s}[{i}] for {i} in {picked}]")
        w.writeline(f"for {i} in {picked}:")
        with w.indent():
            w.writeline(f"del {s}[{i}]")
        dst = self.drawn_once(cx, st.dest, dst, w)
        self.note_left(cx, st, cards, src, w, dst)
        self.note_played(cx, st, cards, src, dst, w)
        self._put_many(cx, st, cards, s, self._zone(cx, dst, w), w)
        return True

    def _move_block(self, cx, st, kind, src, dst, w):
        """``move top N cards`` / ``move bottom N cards``: the N cards (or as many as there
        are) lifted together, in their order; the zone moved to is worked out after."""
        s, k, cards = self.x.fresh(), self.x.fresh(), self.x.fresh()
        w.writeline(f"{s} = {self.x.zone(cx, src)}")
        w.writeline(f"{k} = {self.e(cx, st.selection.expr)}")
        w.writeline(f"if {k} > 0 and {s}:")
        with w.indent():
            part = f"[-{k}:]" if kind == "top_n" else f"[:{k}]"
            w.writeline(f"{cards} = {s}{part}")
            w.writeline(f"del {s}{part}")
            dst = self.drawn_once(cx, st.dest, dst, w)
            self.note_left(cx, st, cards, src, w, dst)
            self.note_played(cx, st, cards, src, dst, w)
            self._put_many(cx, st, cards, s, self._zone(cx, dst, w), w)
        return True

    def _move_some(self, cx, st, kind, src, dst, w):
        """``move N cards`` (one at a time from the top: the first taken ends lowest) and ``move
        all cards where C`` (in their order): the zones, then the count."""
        s, d, cards = self.x.fresh(), self.x.fresh(), self.x.fresh()
        w.writeline(f"{s} = {self.x.zone(cx, src)}")
        dst = self.drawn_once(cx, st.dest, dst, w)
        w.writeline(f"{d} = {self.x.zone(cx, dst)}")
        if kind == "count":
            k = self.x.fresh()
            w.writeline(f"{k} = {self.e(cx, st.selection.expr)}")
            w.writeline(f"if {k} > 0:")
            with w.indent():
                w.writeline(f"{cards} = {s}[-{k}:][::-1]")
                w.writeline(f"del {s}[-{k}:]")
                self.note_left(cx, st, cards, src, w, dst)
                self.note_played(cx, st, cards, src, dst, w)
                self._put_many(cx, st, cards, s, d, w)
            return True
        ci = int(self.refs.of(st.selection).index)
        keep, c = self.x.fresh(), self.x.fresh()
        w.writeline(f"{keep}, {cards} = [], []")
        w.writeline(f"for {c} in {s}:")
        with w.indent():
            w.writeline(f"{self.x.slot(cx, ci, {})} = {c}")
            w.writeline(f"({cards} if {self.each(cx, st.selection.expr)} else {keep}).append({c})")
        w.writeline(f"{s}[:] = {keep}")
        self.note_left(cx, st, cards, src, w, dst)
        self.note_played(cx, st, cards, src, dst, w)
        self._put_many(cx, st, cards, s, d, w)
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
