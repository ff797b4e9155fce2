"""The observation tensors of a game's seats kept up to date from what changed (:class:`Live`),
for the adapters (:mod:`rulelang.ai.openspiel`, :mod:`rulelang.ai.pettingzoo`): a step moves a
few cards, so a step costs a few writes, not the hundreds of places of a rebuilt tensor.  The
layout is :class:`rulelang.ai.tensors.Encoding`'s; this module imports no numpy."""
from __future__ import annotations

from sys import getrefcount
from typing import Any, Optional
from weakref import WeakKeyDictionary

from rulelang.ai.livegen import snapshots, writer


class _Plan:
    """What a seat's tensor reads of the zones, split by what the seat sees of each: the zones
    of which it sees only the size, those of which it sees the size and the top card, and those
    it sees whole (only those whose cards differ from the buffer's copies are read card by
    card); and the function written for it (:func:`rulelang.ai.livegen.writer`)."""

    __slots__ = ("sized", "tops", "whole", "me", "turn", "deciding", "phase", "choices", "vars",
                 "ranges", "write")

    def __init__(self, enc, seat: int, entries: list, with_vars: bool = True,
                 tail: bool = True):
        d = enc.d
        self.vars = with_vars           # (the variables too)
        self.ranges: list = []          # (public: the places it keeps, copied to the seats')
        self.sized: list = []           # (zone, place) of the zones seen by their size only
        self.tops: list = []            # (zone, place, place of its top) of the piles
        whole = []
        for zi, at, w, top in entries:
            if w:
                whole.append((zi, at))
            elif top:
                self.tops.append((zi, at, at + 1 + d))
            else:
                self.sized.append((zi, at))
        self.whole = [(k, zi, at) for k, (zi, at) in enumerate(whole)]
        n, k = enc.cg.n, enc.tail      # (where the places of the end are)
        self.me, self.turn, self.deciding = k + seat, k + n, k + 2 * n
        self.phase, self.choices = k + 3 * n, k + 3 * n + enc.procs
        self.write = writer(enc, self, seat, tail)


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
            pub = _Plan(enc, 0, public, tail=False)
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
                 "snaps", "zero_tail", "bits", "mine", "free", "pubcopy")

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
        # per buffer, what it was last written from (livegen.snapshots): the cards of each zone
        # seen whole, the top of each pile seen the top of, the variables
        self.snaps: list = [None] * m
        ends = enc.size - enc.tail           # (the places of the end, zeroed at each request)
        zero = _view(make(ends))
        self.zero_tail = zero if isinstance(zero, memoryview) else [0.0] * ends
        self.bits = [0] * m                  # (recall) the seen cards already written
        self.mine = [0] * m                  # (recall) how many of its actions are written
        self.free = 0                        # a buffer's reference count when nobody holds it
        self.pubcopy: list = []              # (slice, the public buffer's part) to copy

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
                t._own(seat, self._dup(b))
        t.snaps = [None if z is None else z[:] for z in self.snaps]
        t.zero_tail = self.zero_tail
        t.bits = self.bits[:]
        t.mine = self.mine[:]
        t.free = self.free
        t.pubcopy = t._pubcopy()
        return t

    def _pubcopy(self) -> list:
        """What a request copies of the public buffer: (the places, that part of its view) per
        range, made once per public buffer (no slice made at each request)."""
        view = self.views[-1]
        if self.pub is None or view is None:
            return []
        return [(slice(a, b), view[a:b]) for a, b in self.pub.ranges]

    def reset(self) -> None:
        """Ready for a new game of the same encoding: every buffer nobody else holds set back
        to 0 in place (no new array), its copies those of a zeroed buffer; a buffer still held
        is let go (a new one is made at its next use), as is every buffer of information
        states (their size is the new game's)."""
        bufs = self.bufs
        for s in range(len(bufs)):      # (not enumerate: its kept tuple would hold the buffer)
            if bufs[s] is None:
                continue
            if self.recall or getrefcount(bufs[s]) > self.free:     # (held)
                self.bufs[s] = self.views[s] = self.snaps[s] = None
                if s == len(self.bufs) - 1:
                    self.pubcopy = []
                continue
            view = self.views[s]
            view[:] = self._zeros(len(view))
            self.snaps[s] = snapshots(self.pub if s == len(self.bufs) - 1
                                      else self.plans[s >> 1])
            self.bits[s] = self.mine[s] = 0
        self.slot = [2 * seat for seat in range(len(self.slot))]

    def _zeros(self, size: int):
        """As many zeros as a buffer of ``size`` places holds, in its view's format."""
        z = self.zero_tail
        if isinstance(z, memoryview):
            return memoryview(bytes(size * z.itemsize)).cast(z.format)
        return [0.0] * size

    def _dup(self, buf) -> Any:
        """A new buffer (made as the others are) holding what ``buf`` holds."""
        out = self.make(len(buf))
        out[:] = buf
        return out

    def _start(self, s: int, trail) -> Any:
        """Buffer ``s`` made, all 0, with the snapshots of a zeroed buffer: every zone empty,
        no variable written."""
        public = s == len(self.bufs) - 1
        size = trail.size() if self.recall and not public else self.enc.size
        out = self._own(s, self.make(size))
        self.snaps[s] = snapshots(self.pub if public else self.plans[s >> 1])
        self.bits[s] = self.mine[s] = 0
        self.free = getrefcount(self.bufs[s])
        return out

    def _unshare(self, s: int) -> Any:
        """Buffer ``s`` is held by a caller: from now on a copy of it is buffer ``s``."""
        return self._own(s, self._dup(self.bufs[s]))

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
                self.pubcopy = self._pubcopy()
            pub.write(view, st, self.snaps[p], None)
            for places, part in self.pubcopy:
                out[places] = part
        # (the zones, the variables, the places of the end: the plan's own written function)
        self.plans[seat].write(out, st, self.snaps[s], self.zero_tail)
        if self.recall:
            enc = self.enc
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


def _view(buf):
    """What :class:`Live` writes a buffer through: a memoryview of an array of floats (a place
    written through it costs half of numpy's own item assignment), else the buffer itself."""
    try:
        return memoryview(buf)
    except TypeError:
        return buf
