"""The reference interpreter, statements that jump: ``if``, the loops (each round a step of the
budget), and the choices, which stop the rule for a decision (``SUSPEND``) with the legal actions
(alternative ``aid`` and value ``v`` as ``aid << ACTION_SHIFT | v``), including the choices made
together (``by each player``, claims) and several cards chosen in one step.
"""
from __future__ import annotations

from rulelang.kinds import Frame
from rulelang.check.ir import you_slot
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK
from rulelang.engine.control import CALL, SUSPEND, Decision, GameProblem, Simultaneous
from rulelang.engine.choices import pick_start, pick_step
from rulelang.engine.choices import claim_order, first_claim
from rulelang.engine.players import next_in
from reference.closures import Label
from reference.set_choice import SetChoice
from reference.rules import AltInfo, over_budget


class ClosureControl(SetChoice):
    """The closures of branches, loops and choices (a mixin of ``ReferenceGame``)."""

    def s_If(self, st, b):
        end = Label()
        for cond, body in st.branches:
            c = self.cx(cond)
            nxt_branch = Label()
            # bind c now: the instruction is made after the loop, when c is the last condition
            b.emit(lambda nxt, other, c=c: (lambda g, fr: nxt if c(g, fr) else other), nxt_branch)
            self.block(body, b)
            b.jump(end)
            b.place(nxt_branch)
        if st.otherwise is not None:
            self.block(st.otherwise, b)
        b.place(end)

    def _loop(self, b, head: Label, end: Label, body, span=None, cost=1):
        self.loop_ends.append(end)
        self.block(body, b)
        self.loop_ends.pop()

        def make(nxt, head):
            def back(g, fr):
                g.steps += cost
                if g.steps > g.max_steps:
                    raise over_budget(g, span, cost)
                return head
            return back
        b.emit(make, head)
        b.place(end)

    def s_Loop(self, st, b):
        head, end = Label(), Label()
        if st.kind == "times":
            i = self.refs.of(st).index
            cnt = self.cx(st.expr)

            def init(nxt):
                def f(g, fr):
                    fr[i] = cnt(g, fr)
                    return nxt
                return f
            b.emit(init)
            b.place(head)

            def test(nxt, end):
                def f(g, fr):
                    if fr[i] <= 0:
                        return end
                    fr[i] -= 1
                    return nxt
                return f
            b.emit(test, end)
        else:
            b.place(head)
            if st.kind in ("while", "until"):
                c = self.cx(st.expr)
                if st.kind == "while":
                    b.emit(lambda nxt, end: (lambda g, fr: nxt if c(g, fr) else end), end)
                else:
                    b.emit(lambda nxt, end: (lambda g, fr: end if c(g, fr) else nxt), end)
        self._loop(b, head, end, st.body, st.span, self.charge(st))

    def s_ForPlayer(self, st, b):
        r = self.refs.of(st)
        pi, ki = Frame.slot(r.player), Frame.slot(r.count)
        start = self.cx(st.start) if st.start is not None else (lambda g, fr: g.cur)
        n = self.n
        head, end = Label(), Label()

        def init(nxt):
            def f(g, fr):
                fr[pi] = start(g, fr)
                fr[ki] = n
                return nxt
            return f
        b.emit(init)
        skip_advance = Label()
        b.jump(skip_advance)
        b.place(head)

        def advance(nxt):
            def f(g, fr):
                fr[pi] = (fr[pi] + g.dir) % n
                return nxt
            return f
        b.emit(advance)
        b.place(skip_advance)

        ob = self.out_base

        def test(nxt, end):
            if ob is not None:
                return lambda g, fr: nxt if next_in(g, fr, ki, pi, ob) else end

            def f(g, fr):
                if fr[ki] <= 0:
                    return end
                fr[ki] -= 1
                return nxt
            return f
        b.emit(test, end)
        self._loop(b, head, end, st.body, st.span, self.charge(st))

    def s_ForCard(self, st, b):
        """The cards of the zone as it was when the loop began (kept in a slot of the frame)."""
        r = self.refs.of(st)
        li = Frame.slot(r.cards)
        zf = self.cx(st.zone)

        def start(g, fr):
            fr[li] = tuple(g.zones[zf(g, fr)])
        self._for_each(st, b, Frame.slot(r.card), Frame.slot(r.index), start, lambda g, fr: fr[li])

    def s_ForValue(self, st, b):
        r = self.refs.of(st)
        values = self.values_of(st.kind)
        self._for_each(st, b, Frame.slot(r.value), Frame.slot(r.index), None, lambda g, fr: values)

    def _for_each(self, st, b, vi, ii, start, items):
        """A loop putting each of ``items(g, fr)`` in slot ``vi`` in turn (its place in slot
        ``ii``), after ``start(g, fr)`` when there is one."""
        head, end = Label(), Label()

        def init(nxt):
            def f(g, fr):
                if start is not None:
                    start(g, fr)
                fr[ii] = 0
                return nxt
            return f
        b.emit(init)
        b.place(head)

        def test(nxt, end):
            def f(g, fr):
                seq = items(g, fr)
                k = fr[ii]
                if k >= len(seq):
                    return end
                fr[vi] = seq[k]
                fr[ii] = k + 1
                return nxt
            return f
        b.emit(test, end)
        self._loop(b, head, end, st.body, st.span, self.charge(st))

    # ---- choices ----------------------------------------------------------------------------
    def _enumerator(self, alt, aid, slot):
        base = aid << ACTION_SHIFT
        cond = self.cx(alt.condition) if alt.condition is not None else None
        p = alt.param
        if p is None:
            if cond is None:
                return lambda g, fr, out: out.append(base)

            def plain(g, fr, out):
                if cond(g, fr):
                    out.append(base)
            return plain
        si = Frame.slot(slot)
        if p.kind == "cards":
            return self._cards_enumerator(alt, aid, si, cond)
        if p.kind == "set":
            return self._set_enumerator(alt, aid, cond)
        if p.kind == "unseen":                      # the places of Z, bottom first
            zf = self.cx(p.source)

            def places(g, fr, out):
                if cond is None or cond(g, fr):
                    out.extend(range(base, base + len(g.zones[zf(g, fr)])))
            return places
        where = self.cx(p.where) if p.where is not None else None
        if p.kind == "card":
            zf = self.cx(p.source)

            def values(g, fr):
                return g.zones[zf(g, fr)]
        elif p.kind == "player":
            values = self.players_source(p.source)
        elif p.kind == "suit":
            suits = list(range(len(self.model.suits)))
            values = lambda g, fr: suits
        elif p.kind == "rank":
            ranks = list(self.rank_cycle)
            values = lambda g, fr: ranks
        elif p.kind == "value":                     # the values of the set, lowest first
            first, names = self.model.value_sets[p.source.name]
            named = list(range(first, first + len(names)))
            values = lambda g, fr: named
        else:
            lo, hi = self.cx(p.source), self.cx(p.high)
            span = p.span

            def values(g, fr):
                a, z = lo(g, fr), hi(g, fr)
                if a < 0 or z > VALUE_MASK:
                    raise GameProblem("RL903", f"a number chosen from {a} to {z}: only 0 to "
                                      f"{VALUE_MASK} can be chosen", span)
                return range(a, z + 1)

        def enum(g, fr, out):
            if cond is not None and not cond(g, fr):
                return
            if where is None:
                for v in values(g, fr):
                    out.append(base + v)
                return
            for v in values(g, fr):
                fr[si] = v
                if where(g, fr):
                    out.append(base + v)
        return enum

    def _unseen_card(self, alt, aid, b):
        """Before the body of ``unseen card c from Z``: c is the card at the chosen place."""
        zf = self.cx(alt.param.source)
        pi, ci = self.alternatives[aid].slot, self.model.unseen.of(alt).index

        def make(nxt):
            def card_there(g, fr):
                fr[ci] = g.zones[zf(g, fr)][fr[pi]]
                return nxt
            return card_there
        b.emit(make)

    def _after_you(self, by):
        """Where claims are asked from when the rule does not say: the player after `you`."""
        yi = Frame.slot(you_slot(self.refs.of(by)))
        return lambda g, fr: (fr[yi] + g.dir) % g.n

    # Several cards in one step (runtime.pick_start / pick_step).
    def _cards_enumerator(self, alt, aid, si, cond):
        p = alt.param
        base = aid << ACTION_SHIFT
        ks = tuple(Frame.slot(k) for k in self.model.picks.of(alt).slots)
        zf, df, nf = self.cx(p.source), self.cx(p.dest), self.cx(p.count)
        where = self.cx(p.where) if p.where is not None else None
        more, same, span = p.or_more, p.same, p.span

        def enum(g, fr, out):
            if cond is not None and not cond(g, fr):
                return
            z = zf(g, fr)
            cards = []
            for v in g.zones[z]:
                fr[si] = v
                if where is None or where(g, fr):
                    cards.append(v)
            out.extend(pick_start(g, fr, ks, cards, z, df(g, fr), nf(g, fr), more, same, base,
                                  span))
        return enum

    def _cards_step(self, alt, aid, b, ci):
        """The small decisions after the first card, at the start of the alternative's body."""
        pick = self.model.picks.of(alt)
        slots, done_aid = pick.slots, pick.done
        self.alternatives[done_aid] = AltInfo("no more cards", None, -1, alt.span)
        ks = tuple(Frame.slot(k) for k in slots)
        si = self.alternatives[aid].slot
        base, done, same, span = aid << ACTION_SHIFT, done_aid << ACTION_SHIFT, alt.param.same, \
            alt.param.span

        def make(nxt):
            def pick(g, fr):
                out = pick_step(g, fr, si, ks, same, base, done, span)
                if out is None:
                    return nxt
                g.decision = Decision((fr[ci], out))
                return SUSPEND
            return pick
        b.emit(make)
        return done_aid

    def s_Choose(self, st, b):
        slots = self.model.choose_slots.of(st)
        ci = Frame.slot(slots.chooser)
        end = Label()
        enums = []
        alt_labels = []
        for alt, slot in zip(st.alternatives, slots.params):
            aid = self.model.labels.of(alt).aid
            info = AltInfo(alt.label, {"cards": "card", "unseen": "place"}.get(
                               alt.param.kind, alt.param.kind) if alt.param else None,
                           Frame.slot(slot) if slot is not None else -1, alt.span)
            self.alternatives[aid] = info
            enums.append(self._enumerator(alt, aid, slot))
            alt_labels.append((aid, Label()))
        span = st.span
        if st.simultaneous:
            self._simultaneous(st, b, ci, Frame.slot(slots.extra), enums, alt_labels, end, span)
            return
        by = self.cx(st.by[0]) if st.by else None
        yi = self.refs.of(st).index     # without `by`: `you` where the choice is written

        def make(nxt):
            def choose(g, fr):
                if self.endings and self.check_endings(g):
                    return CALL
                p = by(g, fr) if by is not None else fr[yi]
                fr[ci] = p
                out = []
                for en in enums:
                    en(g, fr, out)
                if not out:
                    raise GameProblem("RL904", f"player {p + 1} has no legal choice here", span)
                g.decision = Decision((p, out))
                return SUSPEND
            return choose
        b.emit(make)
        for (aid, label), alt in zip(alt_labels, st.alternatives):
            b.place(label)
            self.pending_alts.append((aid, label))
            if self.model.picks.has(alt):
                self.pending_alts.append((self._cards_step(alt, aid, b, ci), label))
            if self.model.unseen.has(alt):
                self._unseen_card(alt, aid, b)
            if self.model.sets.has(alt):
                self._set_take(alt, aid, b)
            self.block(alt.body, b)
            b.jump(end)
        b.place(end)

    def _simultaneous(self, st, b, ci, xi, enums, alt_labels, end, span):
        bys = [self.cx(x) for x in st.by]
        dispatch = Label()
        claim_from = None
        if st.claim:
            claim_from = (self.cx(st.claim_from) if st.claim_from is not None else
                          self._after_you(st.by[0]))

        def make(nxt, dispatch, end_):
            def choose_together(g, fr):
                if self.endings and self.check_endings(g):
                    return CALL
                players = []
                for f in bys:
                    p = f(g, fr)
                    for p in (p if p.__class__ is list else (p,)):     # `by each player`
                        if p not in players:
                            players.append(p)
                if claim_from is not None:
                    players = claim_order(g, players, claim_from(g, fr))
                if not players:
                    return end_
                legal = {}
                for p in players:
                    fr[ci] = p
                    out = []
                    for en in enums:
                        en(g, fr, out)
                    if not out:
                        raise GameProblem("RL904", f"player {p + 1} has no legal choice here", span)
                    legal[p] = out
                g.decision = Simultaneous(players, legal, xi, dispatch)
                return SUSPEND
            return choose_together
        b.emit(make, dispatch, end)
        b.place(dispatch)
        alts = self.alternatives
        none_aid = self.model.labels.of(st.alternatives[-1]).aid if st.claim else None

        def make_dispatch(nxt, end):
            def dispatch_(g, fr):
                ch = fr[xi]
                if none_aid is not None:          # a claim: the first one in order acts
                    ch = first_claim(ch, none_aid)
                if not ch:
                    return end
                p, a = ch[0]
                fr[xi] = ch[1:]
                fr[ci] = p
                alt = alts[a >> ACTION_SHIFT]
                if alt.slot >= 0:
                    fr[alt.slot] = a & VALUE_MASK
                return alt.body_pc
            return dispatch_
        b.emit(make_dispatch, end)
        for (aid, label), alt in zip(alt_labels, st.alternatives):
            b.place(label)
            self.pending_alts.append((aid, label))
            self.block(alt.body, b)
            b.jump(dispatch)
        b.place(end)
