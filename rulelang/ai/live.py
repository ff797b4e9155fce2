"""The observation tensors of a game's seats kept up to date from what changed (:class:`Live`),
for the adapters (:mod:`rulelang.ai.openspiel`, :mod:`rulelang.ai.pettingzoo`): a step moves a
few cards, so a step costs a few writes, not the hundreds of places of a rebuilt tensor.  The
layout is :class:`rulelang.ai.tensors.Encoding`'s; this module imports no numpy."""
from __future__ import annotations

from itertools import compress
from operator import itemgetter, ne
from sys import getrefcount
from typing import Any, Optional
from weakref import WeakKeyDictionary

from rulelang.limits import ACTION_SHIFT

_alt_of = ACTION_SHIFT.__rrshift__        # an action -> its alternative (action >> ACTION_SHIFT)


class _Plan:
    """What a seat's tensor reads of the zones, split by what the seat sees of each: the zones
    of which it sees only the size, those of which it sees the size and the top card, and those
    it sees whole (their cards compared with the seat's copies in C: only those that differ
    are read card by card)."""

    __slots__ = ("sizes", "tops", "whole", "whole_k", "many", "get", "me", "turn", "deciding",
                 "phase", "choices", "vars", "ranges")

    def __init__(self, enc, seat: int, entries: list, with_vars: bool = True):
        d = enc.d
        self.vars = with_vars           # (the variables too)
        self.ranges: list = []          # (public: the places it keeps, copied to the seats')
        sizes, size_at, tops, whole, whole_at = [], [], [], [], []
        for zi, at, w, top in entries:
            if w:
                whole.append(zi)
                whole_at.append(at)
            elif top:
                tops.append((zi, at, at + 1 + d))
            else:
                sizes.append(zi)
                size_at.append(at)
        self.sizes = _sizes_writer(list(zip(sizes, size_at)))
        self.tops = tops
        self.whole = [(k, zi, at) for k, (zi, at) in enumerate(zip(whole, whole_at))]
        self.whole_k = range(len(whole))
        # (many zones seen whole: those that changed are picked out in C, from the zones taken
        # out of the state's list together; a few are compared one by one)
        self.many = len(whole) >= 4
        self.get = itemgetter(*whole) if self.many else None
        n, k = enc.cg.n, enc.tail      # (where the places of the end are)
        self.me, self.turn, self.deciding = k + seat, k + n, k + 2 * n
        self.phase, self.choices = k + 3 * n, k + 3 * n + enc.procs


def _sizes_writer(pairs: list):
    """A function ``(out, zones)`` that writes the size of each zone of ``pairs`` (index, place),
    one line each (the zones of which a seat sees only the size: written at every request)."""
    lines = [f"    out[{at}] = len(zones[{zi}])" for zi, at in pairs] or ["    pass"]
    ns: dict = {}
    exec("def sizes(out, zones):\n" + "\n".join(lines), ns)     # (numbers only: no names)
    return ns["sizes"]


_PLANS: WeakKeyDictionary = WeakKeyDictionary()     # per encoding: each seat's plan


def _plans(enc) -> tuple:
    """Each seat's plan, and the public plan (or None).  When many zones are seen whole by every
    seat alike (``everyone`` zones), what every seat sees alike (every zone but the ``owner``
    ones, and the variables) is kept once, in a public buffer, and copied into a seat's tensor
    by ranges (in C); the seats' own plans then read their ``owner`` zones only."""
    plans = _PLANS.get(enc)
    if plans is None:
        n = enc.cg.n
        mine = [zi for zi, (_nm, _o, vis, _h) in enumerate(enc.cg.zone_info) if vis == "owner"]
        public = [e for e in enc.zone_plans[0] if e[0] not in mine] if n else []
        pub = None
        if sum(1 for e in public if e[2]) >= 4:
            pub = _Plan(enc, 0, public)
            cut = sorted((enc.zone_at[zi], enc.zone_at[zi] + 1 + 2 * enc.d) for zi in mine)
            at = 0
            for a, b in cut + [(enc.tail, enc.tail)]:
                if a > at:
                    pub.ranges.append((at, a))
                at = b
            seats = [_Plan(enc, p, [e for e in enc.zone_plans[p] if e[0] in mine], False)
                     for p in range(n)]
        else:
            seats = [_Plan(enc, p, enc.zone_plans[p]) for p in range(n)]
        plans = _PLANS[enc] = (seats, pub)
    return plans


class Live:
    """The observation tensors of the seats of one game, kept in buffers (numpy arrays, made by
    ``make(size)``, all 0) and brought up to date from what changed since a seat's last one: a
    zone whose cards differ from the copy kept at that time (compared in C) has its part
    changed by the cards that left it and the cards that came (cards put on or taken from the
    top found by comparing the start of the zone, others as sets; a count each, for copies of a
    card), a variable that changed its one place, and the few places of the end (turn, the
    seats that decide, the phase, the choices, terminal) are written again.  Everything else
    stays as it was.  When many zones are seen whole by every seat alike, what all seats see
    alike is kept once, in a public buffer brought up to date at every request, and copied into
    the seat's tensor by ranges (see :func:`_plans`).  :meth:`observation` equals
    :meth:`Encoding.observation` at every step (``tests/test_ai_live.py`` compares them on every
    rule file).

    A buffer handed out is never changed under its holder: when anyone but this object still
    holds the array :meth:`observation` returned for a seat (its reference count says so),
    the next one for that seat is written into the seat's other buffer (brought up to date
    from what it was last written from), or into a copy when that one is held too.  A caller
    that drops each array before asking again is handed back its arrays, changed in place (no
    copy).  With ``readonly`` (numpy arrays) the arrays handed out refuse writes, so
    that no holder can change what the next update starts from.

    With ``recall`` the buffers are information states (:meth:`Trail.tensor`): the cards a seat
    has seen are added as they are seen, its actions as it takes them.

    (The game's log of events would say what moved, but keeping it costs the game more than
    this comparison: a logged decision of the largest rule file takes about 1.6 times as long.)"""

    __slots__ = ("enc", "make", "recall", "readonly", "plans", "pub", "slot", "bufs", "views",
                 "wsnap", "tsnap", "vsnap", "zero_tail", "bits", "mine", "free")

    def __init__(self, enc, make, recall: bool = False, readonly: bool = False):
        self.enc = enc
        self.make = make
        self.recall = recall
        self.readonly = readonly            # (numpy arrays handed out read-only)
        self.plans, self.pub = _plans(enc)
        n = enc.cg.n
        # Two buffers a seat (slots 2 * seat and 2 * seat + 1), each with what it was last
        # written from: while a caller holds the one handed out last, the other is brought up
        # to date (a caller that keeps the last array while it asks for the next costs no copy)
        # (and a last one, 2 * n, the public buffer when there is a public plan)
        self.slot = [2 * seat for seat in range(n)]     # the seat's buffer handed out last
        m = 2 * n + 1
        self.bufs: list = [None] * m         # a buffer, made at its first use
        self.views: list = [None] * m        # and what writes it (see _view)
        self.wsnap: list = [None] * m        # per buffer: the cards of each zone seen whole
        self.tsnap: list = [None] * m        # per buffer: the top of each pile seen the top of
        self.vsnap: list = [None] * m        # per buffer: the variables at that time
        ends = enc.size - enc.tail           # (the places of the end, zeroed at each request)
        zero = _view(make(ends))
        self.zero_tail = zero if isinstance(zero, memoryview) else [0.0] * ends
        self.bits = [0] * m                  # (recall) the seen cards already written
        self.mine = [0] * m                  # (recall) how many of its actions are written
        self.free = 0                        # a buffer's reference count when nobody holds it

    def copy(self) -> "Live":
        """An independent copy (for a cloned state): the buffers copied, the rest shared
        (a snapshot is replaced, never changed in place)."""
        t = Live.__new__(Live)
        t.enc, t.make, t.recall, t.plans = self.enc, self.make, self.recall, self.plans
        t.pub = self.pub
        t.readonly = self.readonly
        t.slot = self.slot[:]
        t.bufs, t.views = [None] * len(self.bufs), [None] * len(self.bufs)
        for seat, b in enumerate(self.bufs):
            if b is not None:
                t._own(seat, b.copy())
        t.wsnap = [None if z is None else z[:] for z in self.wsnap]
        t.tsnap = [None if z is None else z[:] for z in self.tsnap]
        t.vsnap = self.vsnap[:]
        t.zero_tail = self.zero_tail
        t.bits = self.bits[:]
        t.mine = self.mine[:]
        t.free = self.free
        return t

    def _start(self, s: int, trail) -> Any:
        """Buffer ``s`` made, all 0, with the snapshots of a zeroed buffer: every zone empty,
        no variable written."""
        public = s == len(self.bufs) - 1
        size = trail.size() if self.recall and not public else self.enc.size
        out = self._own(s, self.make(size))
        plan = self.pub if public else self.plans[s >> 1]
        self.wsnap[s] = [[]] * len(plan.whole_k)
        self.tsnap[s] = [-1] * len(plan.tops)
        self.vsnap[s] = None
        self.bits[s] = self.mine[s] = 0
        self.free = getrefcount(self.bufs[s])
        return out

    def _unshare(self, s: int) -> Any:
        """Buffer ``s`` is held by a caller: from now on a copy of it is buffer ``s``."""
        return self._own(s, self.bufs[s].copy())

    def _own(self, s: int, buf) -> Any:
        """``buf`` becomes buffer ``s``; with ``readonly`` the array handed out refuses writes
        (its holder cannot change what the next update starts from), while this object writes
        it through the view it made before."""
        self.bufs[s] = buf
        out = self.views[s] = _view(buf)
        if self.readonly:
            buf.flags.writeable = False
        return out

    def observation(self, st, seat: int, trail: Optional[Any] = None):
        """The buffer of ``seat``, brought up to date with ``st`` (and, with ``recall``, with
        ``trail``).  A later call changes it in place only when nobody else holds it."""
        s = self.slot[seat]
        out = self.views[s]
        if out is None:
            out = self._start(s, trail)
        elif getrefcount(self.bufs[s]) > self.free:     # (held: the seat's other buffer)
            s ^= 1
            self.slot[seat] = s
            out = self.views[s]
            if out is None:
                out = self._start(s, trail)
            elif getrefcount(self.bufs[s]) > self.free:  # (both held: a copy)
                out = self._unshare(s)
        pub = self.pub
        if pub is not None:             # (what every seat sees alike: kept once, copied)
            p = len(self.bufs) - 1
            view = self.views[p]
            if view is None:
                view = self._start(p, None)
            self._update(view, st, pub, p)
            for a, b in pub.ranges:
                out[a:b] = view[a:b]
        plan = self.plans[seat]
        self._update(out, st, plan, s)
        enc = self.enc
        out[enc.tail:enc.size] = self.zero_tail     # (the end: zeros, then its few places)
        out[plan.me] = 1.0
        if not st.terminal:
            out[plan.turn + st.cur] = 1.0
            d = st.awaiting
            if d.__class__ is tuple:         # (one seat decides: its actions, twins and all)
                q = d[0]
                out[plan.deciding + q] = 1.0
                legal = d[1] if q == seat else None
            else:
                deciding = st.current_players()
                for q in deciding:
                    out[plan.deciding + q] = 1.0
                legal = st.legal_actions(seat) if seat in deciding else None
            if st.stack:
                out[plan.phase + st.stack[-1][0]] = 1.0
            if legal:                        # (the alternatives of its actions, found in C)
                base = plan.choices
                for alt in set(map(_alt_of, legal)):
                    out[base + alt] = 1.0
        else:
            out[enc.size - 1] = 1.0
        if self.recall:
            bits = trail.seen[seat]
            new = bits & ~self.bits[s]
            self.bits[s] = bits
            at = enc.size
            while new:                           # (the cards seen since the last time)
                low = new & -new
                out[at + low.bit_length() - 1] = 1.0
                new ^= low
            at += enc.d
            mine = trail.mine[seat]
            for _m, aid in mine[self.mine[s]:]:
                out[at + aid] += 1.0
            self.mine[s] = len(mine)
        return self.bufs[s]

    def _update(self, out, st, plan: _Plan, s: int) -> None:
        """Buffer ``s`` (written through ``out``) brought up to date with the zones of ``plan``
        (and the variables, when the plan has them)."""
        enc = self.enc
        zones = st.zones
        ci = enc.card_index
        plan.sizes(out, zones)          # (sizes: written again)
        if plan.tops:                   # (a pile's size; its top, when it changed)
            tsnap = self.tsnap[s]
            k = 0
            for zi, at, base in plan.tops:
                cards = zones[zi]
                out[at] = len(cards)
                c = cards[-1] if cards else -1
                old = tsnap[k]
                if c != old:
                    if old >= 0:
                        out[base + ci[old]] = 0.0
                    if c >= 0:
                        out[base + ci[c]] = 1.0
                    tsnap[k] = c
                k += 1
        snap = self.wsnap[s]
        one = enc.one_each
        todo = (compress(plan.whole, map(ne, plan.get(zones), snap)) if plan.many else
                plan.whole)
        for k, zi, at in todo:          # (the zones seen whole that changed: cards, top)
            cards = zones[zi]
            old = snap[k]
            if cards == old:
                continue
            snap[k] = cards[:]
            out[at] = len(cards)
            lo = len(old)
            lc = len(cards)
            if not lo:
                gone, came = (), cards
            elif lc > lo and cards[:lo] == old:     # (cards put on top)
                gone, came = (), cards[lo:]
            elif lc < lo and old[:lc] == cards:     # (cards taken from the top)
                gone, came = old[lc:], ()
            elif lo + lc <= 8:                      # (a few cards: each written)
                gone, came = old, cards
            else:                                   # (the cards that left, that came)
                so = set(old)
                gone, came = so.difference(cards), set(cards).difference(so)
            base = at + 1
            if one:                                 # (a card's place is 0 or 1)
                for c in gone:
                    out[base + ci[c]] = 0.0
                for c in came:
                    out[base + ci[c]] = 1.0
            else:                                   # (copies of a card: counted)
                for c in gone:
                    out[base + ci[c]] -= 1.0
                for c in came:
                    out[base + ci[c]] += 1.0
            base += enc.d
            if lo:
                out[base + ci[old[-1]]] = 0.0
            if lc:
                out[base + ci[cards[-1]]] = 1.0
        if not plan.vars:
            return
        vs = st.vars
        olds = self.vsnap[s]
        if olds != vs:
            self.vsnap[s] = vs[:]
            nc = len(ci)
            var_plan = enc.var_plan
            every = range(len(var_plan))
            for i in every if olds is None else compress(every, map(ne, vs, olds)):
                _i, at, w, card, bits = var_plan[i]
                v = vs[i]
                if bits:                # a set of values: its places written again
                    for k in range(w):
                        out[at + k] = (v >> k) & 1
                    continue
                if w == 1:
                    out[at] = float(v)
                    continue
                if olds is not None:
                    o = olds[i]
                    if card and 0 <= o < nc:
                        o = ci[o]
                    out[at + (o if 0 <= o < w - 1 else w - 1)] = 0.0
                if card and 0 <= v < nc:
                    v = ci[v]
                out[at + (v if 0 <= v < w - 1 else w - 1)] = 1.0


def _view(buf):
    """What :class:`Live` writes a buffer through: a memoryview of an array of floats (a place
    written through it costs half of numpy's own item assignment), else the buffer itself."""
    try:
        return memoryview(buf)
    except TypeError:
        return buf
