"""The reference interpreter, statements: a rule compiles to a list of instruction closures
``op(state, frame) -> next position`` (:class:`reference.closures.Builder`), one or a few per
statement, written by the ``s_<Node>`` methods: those that do not jump are here (a move, a
``set``, the end of the game, a call).  Nothing is fused into generated code.
"""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.limits import MAX_NUMBER
from rulelang.kinds import CARDS, SET_KINDS, Frame
from rulelang.check.ir import CurrentPlayer, Local, Var, VarOf, You
from rulelang.engine.control import CALL, END_TURN, HALT, GameProblem
from rulelang.engine.players import left_unseen, reveal_card, seen_go, show_card
from rulelang.engine.players import holder, leave_game
from reference.closures import Builder
from reference.rules import deal, deal_order, remembers, too_large
from rulelang.engine.events import log_move, log_reverse


def _put_one(g, s, d, c, bottom):
    """Card ``c``, taken from ``s``, is put on top of ``d`` (at its bottom with ``bottom``)."""
    if bottom:
        d.insert(0, c)
    else:
        d.append(c)
    if g.log is not None:
        log_move(g, s, d, (c,), bottom)




def _log_shuffle(g, zi):
    if g.log is not None:
        g.log.append(("shuffle", zi, tuple(g.zones[zi])))


def _forget_left(g, was, si):
    """The cards of zone ``si`` before a move or a deal nobody saw (``was``) that are not in it
    now: what anyone remembered of them there is forgotten (docs/language.md)."""
    now = set(g.zones[si])
    gone = [c for c in was if c not in now]
    if gone:
        left_unseen(g, gone, si)

class ClosureStatements:
    """The closures of statements that do not jump (a mixin of ``ReferenceGame``)."""

    def _compile_rule(self, body, nslots):
        b = Builder()
        self.loop_ends: list = []
        self.pending_alts: list = []
        self.block(body, b)
        b.ret()
        code = b.finish()
        for aid, label in self.pending_alts:
            self.alternatives[aid].body_pc = label.pos
        return code

    def block(self, body, b):
        """Compile statements, one by one; a block that rule coverage counts first counts."""
        if self.coverage is not None:
            self.count_block(body, b)
        for st in body:
            getattr(self, "s_" + type(st).__name__)(st, b)

    def count_block(self, body, b) -> None:
        """When ``body`` is a block that the game's coverage counts, an instruction that counts
        it comes first (the generated rules count in the same places: RuleGen.count)."""
        i = self.coverage.point(body)
        if i is None:
            return
        cov = self.coverage

        def make(nxt):
            def count(g, fr):
                cov.counts[i] += 1
                return nxt
            return count
        b.emit(make)

    def s_Shuffle(self, st, b):
        zf = self.cx(st.zone)

        def make(nxt):
            def shuffle(g, fr):
                zi = zf(g, fr)              # once: the zone may be named by a random player
                g.rng.shuffle(g.zones[zi])
                if self.played_base is not None:     # a shuffled pile: played by nobody
                    for c in g.zones[zi]:
                        g.vars[self.played_base + c] = -1
                _log_shuffle(g, zi)
                return nxt
            return shuffle
        b.emit(make)

    def s_Deal(self, st, b):
        if self.played_base is not None:
            return self.played_around(st, b, self.s_Deal_kept)
        return self.s_Deal_kept(st, b)

    def s_Deal_kept(self, st, b):
        count = self.cx(st.count) if st.count is not None else None
        src = self.cx(st.source)
        base = self.zone_base.get(st.zone, 0)
        seats = self.n
        ob = self.out_base
        first = self.cx(st.start) if st.start is not None else (lambda g, fr: g.cur)

        def make(nxt):
            def deal_(g, fr):
                si = src(g, fr)
                s = g.zones[si]
                order = deal_order(g, first(g, fr), seats, ob)
                if order:                       # (none when every player has left)
                    was = s[:]
                    deal(g, s, order, base, count(g, fr) if count is not None else None)
                    _forget_left(g, was, si)
                return nxt
            return deal_
        b.emit(make)

    def s_Move(self, st, b):
        if self.played_base is not None:
            return self.played_around(st, b, self.s_Move_kept)
        return self.s_Move_kept(st, b)

    def played_around(self, st, b, write):
        """The statement ``st`` as ``write`` writes it, with who played each card it moves
        worked out after it (ReferenceGame.played_after)."""
        inner = type(b)()
        write(st, inner)
        (step_make, _labels), = inner.items

        def make(nxt):
            step = step_make(nxt)

            def playing(g, fr):
                before = {c: zi for zi, z in enumerate(g.zones) for c in z}
                out = step(g, fr)
                self.played_after(g, before)
                return out
            return playing
        b.emit(make)

    def s_Move_kept(self, st, b):
        if st.beside is not None:
            return self.s_move_beside(st, b)
        if remembers(self.model, st):
            # the zones are worked out once, before the move, and the cards that went are
            # remembered by those who saw them go
            real_src, real_dst, at = self.cx(st.source), self.dest_of(st), [0, 0]
            whole = st.selection.kind == "all"
            inner = type(b)()
            self.s_Move_cards(st, inner, lambda g, fr: at[0], lambda g, fr: at[1])
            (step_make, _labels), = inner.items

            def make(nxt):
                step = step_make(nxt)

                def remembering(g, fr):
                    si, di = at[0], at[1] = real_src(g, fr), real_dst(g, fr)
                    d = g.zones[di]
                    before = len(d)
                    s = g.zones[si]
                    top = s[-1] if s else -1
                    out = step(g, fr)
                    d = g.zones[di]
                    moved = d[:len(d) - before] if st.to_bottom else d[before:]
                    seen_go(g, moved, si, di, top, whole)
                    return out
                return remembering
            b.emit(make)
            return
        # Nobody sees the cards go: whatever anyone remembered of them in the zone they left is
        # forgotten (the cards of the zone before the move that are not in it after).
        # (the zone moved from is worked out once, first, as by the remembering move)
        src, at = self.cx(st.source), [0]
        inner = type(b)()
        self.s_Move_cards(st, inner, lambda g, fr: at[0], self.dest_of(st))
        (step_make, _labels), = inner.items

        def make(nxt):
            step = step_make(nxt)

            def unseen(g, fr):
                si = at[0] = src(g, fr)
                was = g.zones[si][:]
                out = step(g, fr)
                _forget_left(g, was, si)
                return out
            return unseen
        b.emit(make)

    def dest_of(self, st):
        """The zone the move ``st`` goes to: worked out by the move, or given to it (a move
        beside a card works it out before)."""
        given = self.__dict__.get("given_dest", {}).get(id(st))
        return given[1] if given is not None else self.cx(st.dest)

    def s_move_beside(self, st, b):
        """``move c from A to B under d`` / ``above d``: d worked out first, then the move, then
        c put directly under (above) d in B (RL307 when d is not there)."""
        import attrs
        inner = type(b)()
        # the zone moved to is worked out once, after d and before the move, for the move and
        # for the card put beside (a zone drawn at random is the same for both)
        moved, at = attrs.evolve(st, place="", beside=None), [0]
        self.__dict__.setdefault("given_dest", {})[id(moved)] = (moved, lambda g, fr: at[0])
        self.s_Move(moved, inner)
        (step_make, _labels), = inner.items
        df, zf = self.cx(st.beside), self.cx(st.dest)
        above, names, span, place = st.place == "above", self.card_names, st.span, st.place

        def make(nxt):
            step = step_make(nxt)

            def beside(g, fr):
                d = df(g, fr)
                at[0] = zf(g, fr)
                out = step(g, fr)
                z = g.zones[at[0]]
                c = z[-1]                  # the card moved: it went on top of B
                del z[-1]
                if d not in z:
                    z.append(c)
                    raise GameProblem("RL307", f"card {names[c]} is to go {place} card "
                                      f"{names[d] if d >= 0 else 'none'}, which is not in the "
                                      "zone it went to", span)
                z.insert(z.index(d) + above, c)
                return out
            return beside
        b.emit(make)

    def s_Move_cards(self, st, b, src, dst):
        sel = st.selection
        kind = sel.kind
        bottom = st.to_bottom
        turned = st.turned_over
        span = st.span
        names = self.card_names

        def put_many(g, d, cards, s):
            if turned:
                cards.reverse()
            if bottom:
                d[:0] = cards
            else:
                d.extend(cards)
            if g.log is not None:   # the move in a logged game's log (engine/events.py)
                log_move(g, s, d, cards, bottom)

        if kind == "top" and not bottom:
            def make(nxt):
                def move_top(g, fr):
                    s = g.zones[src(g, fr)]
                    if s:
                        c = s.pop()
                        d = g.zones[dst(g, fr)]
                        d.append(c)
                        if g.log is not None:
                            log_move(g, s, d, (c,), False)
                    return nxt
                return move_top
        elif kind in ("top", "bottom", "random"):
            def make(nxt):
                def move_one(g, fr):
                    s = g.zones[src(g, fr)]
                    if not s:
                        return nxt
                    if kind == "top":
                        c = s.pop()
                    elif kind == "bottom":
                        c = s.pop(0)
                    else:
                        c = s.pop(g.rng.randrange(len(s)))
                    _put_one(g, s, g.zones[dst(g, fr)], c, bottom)
                    return nxt
                return move_one
        elif kind == "card":
            cf = self.cx(sel.expr)

            def make(nxt):
                def move_card(g, fr):
                    c = cf(g, fr)
                    zi = src(g, fr)
                    s = g.zones[zi]
                    try:
                        s.remove(c)
                    except ValueError:
                        raise GameProblem("RL902", f"card {names[c] if c >= 0 else 'none'} is not in "
                                          f"{self.zone_label(zi)}", span) from None
                    _put_one(g, s, g.zones[dst(g, fr)], c, bottom)
                    return nxt
                return move_card
        elif kind == "count":
            cnt = self.cx(sel.expr)

            def make(nxt):
                def move_n(g, fr):
                    s = g.zones[src(g, fr)]
                    d = g.zones[dst(g, fr)]
                    k = cnt(g, fr)
                    if k <= 0:
                        return nxt
                    taken = s[-k:]
                    del s[-k:]
                    taken.reverse()      # one at a time from the top: the first taken is lowest
                    put_many(g, d, taken, s)
                    return nxt
                return move_n
        elif kind in ("top_n", "bottom_n"):
            cnt = self.cx(sel.expr)

            def make(nxt):
                def move_block_n(g, fr):
                    s = g.zones[src(g, fr)]
                    k = cnt(g, fr)
                    if k <= 0 or not s:
                        return nxt
                    k = min(k, len(s))
                    if kind == "top_n":        # lifted together: their order kept
                        cards = s[len(s) - k:]
                        del s[len(s) - k:]
                    else:
                        cards = s[:k]
                        del s[:k]
                    put_many(g, g.zones[dst(g, fr)], cards, s)
                    return nxt
                return move_block_n
        elif kind in ("all", "all_but_top"):
            def make(nxt):
                def move_all(g, fr):
                    s = g.zones[src(g, fr)]
                    d = g.zones[dst(g, fr)]
                    if s is d:
                        return nxt
                    if kind == "all":
                        cards = s[:]
                        s.clear()
                    else:
                        cards = s[:-1]
                        del s[:-1]
                    put_many(g, d, cards, s)
                    return nxt
                return move_all
        elif kind in ("count_where", "upto_where", "and_above"):
            make = self.counted_move(st, src, dst, put_many)
        else:  # where
            ci = self.refs.of(sel).index
            cond = self.cx(sel.expr)

            def make(nxt):
                def move_where(g, fr):
                    s = g.zones[src(g, fr)]
                    d = g.zones[dst(g, fr)]
                    keep, cards = [], []
                    for c in s:
                        fr[ci] = c
                        (cards if cond(g, fr) else keep).append(c)
                    s[:] = keep
                    put_many(g, d, cards, s)
                    return nxt
                return move_where
        b.emit(make)

    def counted_move(self, st, src, dst, put_many):
        """``move N cards where C`` (exactly N: fewer stops the game with RL258), ``move up to N
        cards where C`` and ``move c and every card on top of it`` (docs/language.md, "Moving
        some of the cards that match").  The cards that match are taken one at a time from the
        top, as ``move N cards`` takes them (the first taken ends lowest); a card with the cards
        on top of it is lifted as a block, in its order, as ``move all cards`` does."""
        sel = st.selection
        kind = sel.kind
        span = st.span
        names = self.card_names
        if kind == "and_above":
            cf = self.cx(sel.expr)

            def make(nxt):
                def move_block(g, fr):
                    c = cf(g, fr)
                    zi = src(g, fr)
                    s = g.zones[zi]
                    if c not in s:
                        raise GameProblem("RL902", f"card {names[c] if c >= 0 else 'none'} is "
                                          f"not in {self.zone_label(zi)}", span)
                    i = s.index(c)
                    cards = s[i:]
                    del s[i:]
                    put_many(g, g.zones[dst(g, fr)], cards, s)
                    return nxt
                return move_block
            return make
        ci = self.refs.of(sel).index
        cnt = self.cx(sel.expr)
        cond = self.cx(sel.condition)
        exactly = kind == "count_where"

        def make(nxt):
            def move_counted(g, fr):
                s = g.zones[src(g, fr)]
                k = cnt(g, fr)
                picked = []                        # places in s, from the top down
                for i in range(len(s) - 1, -1, -1):
                    if len(picked) >= k:
                        break
                    fr[ci] = s[i]
                    if cond(g, fr):
                        picked.append(i)
                if exactly and len(picked) < k:
                    raise GameProblem("RL258", f"{k} cards that match are to be moved from "
                                      f"{self.zone_label(src(g, fr))}, which has "
                                      f"{len(picked)}", span)
                cards = [s[i] for i in picked]
                for i in picked:                   # from the top down: the places stay right
                    del s[i]
                put_many(g, g.zones[dst(g, fr)], cards, s)
                return nxt
            return move_counted
        return make

    def s_Assign(self, st, b):
        val = self.cx(st.value)
        t = st.target
        ref = self.refs.of(t, None)
        op = st.op
        if ref is None:
            return
        if isinstance(ref, Local):
            i = ref.index

            def setter(g, fr, v):
                fr[i] = v

            def getter(g, fr):
                return fr[i]
        elif isinstance(ref, Var):
            base = self.var_base[ref.name]
            if ref.per_player:
                yi = Frame.slot(ref.you)

                def idx(g, fr):
                    return base + fr[yi]
            else:
                def idx(g, fr):
                    return base
            setter = lambda g, fr, v: g.vars.__setitem__(idx(g, fr), v)
            getter = lambda g, fr: g.vars[idx(g, fr)]
        elif isinstance(ref, VarOf):
            # `X of P`: P is worked out once, after the value (it may be a random player)
            base = self.of_place(ref.name)
            pf = self.cx(t.operand)
            value, span = val, st.span

            def make(nxt):
                def assign(g, fr):
                    v = int(value(g, fr))
                    i = base + pf(g, fr)
                    if op == "add":
                        v = g.vars[i] + v
                    elif op == "sub":
                        v = g.vars[i] - v
                    if not -MAX_NUMBER <= v <= MAX_NUMBER:
                        raise too_large(v, span)
                    g.vars[i] = v
                    return nxt
                return assign
            b.emit(make)
            return
        elif isinstance(ref, CurrentPlayer):
            moves_you = ref.moves_you           # in setup, `you` is the current player

            def setter(g, fr, v):
                g.cur = v
                if moves_you:
                    fr[Frame.YOU] = v
            getter = lambda g, fr: g.cur
        else:
            raise AssertionError(ref)
        val = self._bounded(val, op, getter, st.span)     # every number stored is bounded
        op = "set"
        if op == "set":
            b.emit(lambda nxt: (lambda g, fr: (setter(g, fr, int(val(g, fr))), nxt)[1]))
        elif op == "add":
            b.emit(lambda nxt: (lambda g, fr: (setter(g, fr, getter(g, fr) + val(g, fr)), nxt)[1]))
        else:
            b.emit(lambda nxt: (lambda g, fr: (setter(g, fr, getter(g, fr) - val(g, fr)), nxt)[1]))

    def s_SetChange(self, st, b):
        """``add X to S`` / ``remove X from S`` / ``remove all from S``: the set is kept as a
        Python set of the values in it (a suit's index, a rank, a seat, a value's id); a value it
        cannot hold stops the game (RL330).  ``S of P``: P first, then the value."""
        ref = self.refs.of(st.target, None)
        if ref is None:
            return
        base = self.var_base[ref.name]
        if isinstance(ref, VarOf):
            base = self.of_place(ref.name)
            pf = self.cx(st.target.operand)
            where = lambda g, fr: base + pf(g, fr)
        elif ref.per_player:
            yi = Frame.slot(ref.you)
            where = lambda g, fr: base + fr[yi]
        else:
            where = lambda g, fr: base
        op, span = st.op, st.span
        item = self.cx(st.item) if st.item is not None else None
        holds = self.set_holds(ref.name)
        whole = st.item is not None and self.types.of(st.item, None) in SET_KINDS

        def make(nxt):
            def change(g, fr):
                i = where(g, fr)
                if op == "clear":
                    g.vars[i] = 0
                    return nxt
                if whole:                    # a whole set (reference/set_values.py)
                    now = {k for k in holds if g.vars[i] >> k & 1}
                    given = self.values_in(item(g, fr))
                    now = given if op == "set" else now | given if op == "add" else now - given
                    g.vars[i] = sum(1 << k for k in now)
                    return nxt
                if op == "set":              # one value: the set of it alone
                    v = int(item(g, fr))
                    if v not in holds:
                        raise GameProblem("RL330", f"added to a set: {v} is none of the values "
                                          "it holds", span)
                    g.vars[i] = 1 << v
                    return nxt
                v = int(item(g, fr))
                if v not in holds:
                    raise GameProblem("RL330", f"{'added to' if op == 'add' else 'removed from'}"
                                      f" a set: {v} is none of the values it holds", span)
                values = {k for k in holds if g.vars[i] >> k & 1}
                values = values | {v} if op == "add" else values - {v}
                g.vars[i] = sum(1 << k for k in values)
                return nxt
            return change
        b.emit(make)

    @staticmethod
    def _bounded(val, op, getter, span):
        """The value a ``set``, ``add`` or ``subtract`` stores, checked against the bound of
        every number (RL910)."""
        def value(g, fr):
            v = int(val(g, fr))
            if op == "add":
                v = getter(g, fr) + v
            elif op == "sub":
                v = getter(g, fr) - v
            if -MAX_NUMBER <= v <= MAX_NUMBER:
                return v
            raise too_large(v, span)
        return value

    def s_Let(self, st, b):
        i = self.refs.of(st).index
        val = self.cx(st.value)
        val = self._bounded(val, "set", None, st.span)

        def make(nxt):
            def let(g, fr):
                fr[i] = int(val(g, fr))
                return nxt
            return let
        b.emit(make)

    def s_Simple(self, st, b):
        w = st.word
        if w == "stop":
            end = self.loop_ends[-1]
            b.jump(end)
        elif w == "return":
            b.ret()
        elif w == "pass":
            pass
        elif w == "end turn":
            b.emit(lambda nxt: (lambda g, fr: END_TURN))
        elif w == "skip":
            def make(nxt):
                def skip(g, fr):
                    g.skip += 1
                    return nxt
                return skip
            b.emit(make)
        elif w == "reverse":
            def make(nxt):
                def reverse(g, fr):
                    g.dir = -g.dir
                    if g.log is not None:
                        log_reverse(g)
                    return nxt
                return reverse
            b.emit(make)

    def s_EndGame(self, st, b):
        kind = st.kind
        pf = self.cx(st.player) if st.player is not None else None
        n = self.n
        if kind == "where":
            ends = self.refs.of(st)
            wi = Frame.slot(ends.winners)
            li = Frame.slot(ends.losers) if ends.losers is not None else None
            wf = self.cx(st.winners)
            lf = self.cx(st.losers) if st.losers is not None else None

        def make(nxt):
            def end(g, fr):
                if kind == "where":        # a result for every player, each on their own
                    results = []
                    for p in range(n):
                        fr[wi] = p
                        if wf(g, fr):
                            results.append("win")
                            continue
                        if lf is not None:
                            fr[li] = p
                        results.append("loss" if lf is None or lf(g, fr) else "draw")
                    self.end_with_results(g, results)
                elif kind == "winner":
                    p = pf(g, fr)
                    self.finish(g, [p] if self.team_at is None else self.mates(g, p), "win")
                elif kind == "loser":
                    p = pf(g, fr)
                    losers = [p] if self.team_at is None else self.mates(g, p)
                    self.finish(g, [q for q in range(n) if q not in losers], "loss")
                elif kind == "draw":
                    self.finish(g, [], "draw")
                else:
                    self.end_by_score(g, kind == "highest")
                return HALT
            return end
        b.emit(make)

    def s_NextTurn(self, st, b):
        pf = self.cx(st.player)

        def make(nxt):
            def next_turn(g, fr):
                g.next_turn = pf(g, fr)
                return nxt
            return next_turn
        b.emit(make)

    def s_CallRule(self, st, b):
        if st.name not in self.proc_index:
            return
        pid = self.proc_index[st.name]
        nslots = self.model.rules[st.name].nslots
        args = [self.cx(a) for a in st.args]
        yi = self.refs.of(st).index
        pf = self.cx(st.for_player) if st.for_player is not None else None
        pad = [0] * (nslots - len(args))
        span = st.span
        cost = self.charge(self.model.rules[st.name].decl.body)

        def make(nxt):
            def call(g, fr):
                self.step(g, span, cost)
                fr[1] = nxt
                you = pf(g, fr) if pf is not None else fr[yi]
                g.stack.append([pid, 0, you] + [a(g, fr) for a in args] + pad)
                return CALL
            return call
        b.emit(make)

    def s_Say(self, st, b):
        parts = [p if isinstance(p, str) else
                 (self.cx(p.zone), CARDS) if isinstance(p, A.CardsIn) else
                 (self.cx(p), self.model.say_as.of(p, None) or self.types.of(p, None))
                 for p in st.parts]
        yi = self.refs.of(st, You(-1)).index

        def make(nxt):
            def say(g, fr):
                if g.log is not None:
                    g.log.append(("say", fr[yi], " ".join(
                        p if isinstance(p, str) else self.format(g, p[0](g, fr), p[1]) for p in parts)))
                return nxt
            return say
        b.emit(make)

    def s_Show(self, st, b):
        cf = self.cx(st.card)
        pf = self.cx(st.player)

        def make(nxt):
            def show(g, fr):
                show_card(g, cf(g, fr), pf(g, fr))
                return nxt
            return show
        b.emit(make)

    def s_Leave(self, st, b):
        pf = self.cx(st.player)
        ob = self.out_base

        def make(nxt):
            def leave(g, fr):
                leave_game(g, pf(g, fr), ob)
                return nxt
            return leave
        b.emit(make)

    def s_JoinTeam(self, st, b):
        pf, tf = self.cx(st.player), self.cx(st.team)

        def make(nxt):
            def join(g, fr):
                self.join(g, pf(g, fr), int(tf(g, fr)))
                return nxt
            return join
        b.emit(make)

    def s_Reveal(self, st, b):
        # Told as revealed by the player whose zone holds the card (the card's owner at that
        # moment), not by the player whose rule runs; a card in a shared zone is nobody's (-1).
        cf = self.cx(st.card)
        owned = self.owned_zones()

        def make(nxt):
            def reveal(g, fr):
                c = cf(g, fr)
                reveal_card(g, c)           # everyone remembers it where it is
                if g.log is not None:
                    g.log.append(("reveal", holder(g, c, owned) if c >= 0 else -1,
                                  self.card_names[c] if c >= 0 else "nothing"))
                return nxt
            return reveal
        b.emit(make)
