"""Run-time helpers of the generated code (and of the tests' reference interpreter) about players: who is still in the
game (``P leaves the game``) and who comes after whom, who holds a card, and what a player was
shown (``show c to P``), revealed (``reveal c``) or saw go where they cannot see it.
"""
from __future__ import annotations

import sys
from array import array
from itertools import compress, count, repeat
from operator import is_, itemgetter
from typing import Any, Iterable, Iterator, Sequence

from rulelang.engine.control import GameProblem

# What players remember (``g.shown``) is a list of entries ``[seat, card, zone]``, often hundreds
# long (a face-down pile that everyone saw go down): it is scanned with these, in C (map,
# compress), not entry by entry in Python.
_first, _card_of, _zone_of = itemgetter(0), itemgetter(1), itemgetter(2)
_ORDER = sys.byteorder          # (the byte order of an array's numbers: Remembered.col)
_SEQ = count()          # the order of the events of every Memory (only the order matters)
_GO, _SHOW, _REVEAL, _FORGET = 0, 1, 2, 3   # the kinds of event in Memory.log
# The events of a move and of cards leaving unseen, as the playout variants of the rules append
# them to ``Memory.log`` themselves (stmtgen: the tuples seen_go and left_unseen would append).
MOVE_EVENT, LEFT_EVENT = _GO, _FORGET
# The types the annotations use: a state and a compiled game are read through the fields their
# generated code gives them (Any); an entry is ``[seat, card, zone]``; a piece of a Memory is the
# tuple ``(seq, players, cards, zone, still)``, and a card's memory is a piece, a list of them or
# None.
Entry = list[int]
Piece = tuple[Any, ...]
# Events a Memory records before it works them out anyway: however many moves a rule file makes
# (a hostile one moving a whole deck to and fro at every step of the budget), what a playout
# keeps of them stays bounded (docs/security.md); a real game's playout rarely reaches it.
LOG_LIMIT = 4096


class Memory:
    """``g.shown`` while a playout runs (:meth:`State.playout
    <rulelang.engine.runtime.State.playout>` makes it at its start and turns it back into the
    list at its end, :meth:`entries`): what players remember, recorded per card rather than per
    entry, so that a move costs a few calls in C however many cards and players it concerns.

    Each time memories are made (the cards a move took out of sight, a card shown or revealed)
    they are one *piece*, a tuple ``(seq, players, cards, zone, still)``: ``seq`` numbers the
    event (the order of the list), ``players`` and ``cards`` are the event's (its entries are
    ``[p, c, zone]`` for each player, then each card, as the list algorithm appends them; the
    numbers come from one counter, ``_SEQ``, increasing in every Memory) and
    ``still`` the players who still remember it (``players`` itself until one forgets).  ``cur``
    maps a card to its piece (most often), or to a list of pieces in the order of ``seq`` (a card
    shown to one player, or carried by a ``move all`` and seen again), or to None (forgotten).
    A card's memory is replaced by ``cur.update(zip(cards, repeat(piece)))``; a piece whose
    cards have all gone on to other memories is simply no longer reachable.  An entry
    that a ``move all`` carries to another zone keeps its place: its piece is remade with the
    same ``seq`` and the new zone.  ``zs``: every zone some piece was recorded in (a ``move
    all`` from any other zone carries nothing).  ``plans``: per (source, destination) zone, who
    sees cards go (:func:`_zone_plan`), the compiled game's table ``zone_plans``, each worked out
    when a move first asks.  Only its playout sees it:
    nothing clones a state, saves it or shows it to a player while the generated code plays on
    (the API's ``still_remembered`` reads it as a list through :meth:`__iter__`).

    All of that is done late: while a playout runs, a move, a show, a reveal or cards leaving a
    zone unseen only append their event to ``log`` (a tuple, in C), and the events are worked out in order (:meth:`flush`)
    when the memories are first read: by ``State.shown`` after the playout (which makes the
    list), or by the API's next action.  (A simultaneous decision inside a playout leaves the
    Memory as it is: engine/playout.py.)  Most simulated games are never read, so
    their playouts do none of it (Attack!, whose every duel puts cards out of a player's sight:
    139,000 -> 190,000 decisions/s on the fast path)."""

    __slots__ = ("cur", "zs", "plans", "log", "game")

    def __init__(self, entries: Iterable[Sequence[int]] = (), game: Any = None) -> None:
        self.cur: dict[int, Any] = {}
        self.zs: set[int] = set()
        self.plans: list[list[Any]] = game.zone_plans
        # What happened, recorded as it happens and worked out into ``cur`` only when the
        # memories are read (:meth:`flush`): a playout appends a tuple per move, and most
        # playouts end with nobody reading them.  ``game``: the compiled game (its zones).
        self.log: list[tuple[Any, ...]] = []
        self.game = game
        if entries:
            for p, c, zi in entries:    # one piece per entry, in the list's order
                self._append(c, (next(_SEQ), (p,), (c,), zi, (p,)))
                self.zs.add(zi)

    def _append(self, c: int, rec: Piece) -> None:
        v = self.cur.get(c)
        self.cur[c] = rec if v is None else [v, rec] if v.__class__ is tuple else v + [rec]

    def flush(self) -> None:
        """Work out the events recorded since the last read, in their order: moves (recorded by
        :func:`seen_go`), shows, reveals and cards that left a zone unseen (:func:`left_unseen`)."""
        log = self.log
        if log:
            self.log = []
            go, show, reveal = self._go, self._show, self._reveal
            for ev in log:
                kind = ev[0]
                if kind is _GO:
                    go(ev[1], ev[2], ev[3], ev[4], ev[5])
                elif kind is _SHOW:
                    show(ev[1], ev[2], ev[3])
                elif kind is _REVEAL:
                    reveal(ev[1], ev[2], ev[3])
                else:
                    self._forget(ev[1], ev[2])

    def _go(self, cards: Sequence[int], si: int, di: int, top: int, whole: bool) -> None:
        """:func:`seen_go`'s work on the memories: ``cards`` went from ``si`` to ``di`` (``top``:
        the card on top of ``si`` before; ``whole``: every card of it, ``move all``).  No card,
        or a zone to itself, is nothing (the playout variants record such a move unlooked at)."""
        if not cards or si == di:
            return
        plan = self.plans[si][di] or _zone_plan(self.game, si, di)
        if whole and plan[2] and si in self.zs:
            self.carry(cards, si, di, plan, top)
            return
        cur = self.cur
        ps = plan[0]
        if ps is None:
            cur.update(zip(cards, repeat(None)))
            return
        if plan[1]:                     # only the top card was seen
            cur.update(zip(cards, repeat(None)))
            if top not in cards:
                return
            cards = (top,)
        cur.update(zip(cards, repeat((next(_SEQ), ps, cards, di, ps))))
        self.zs.add(di)

    def _forget(self, cards: Iterable[int], zi: int) -> None:
        """What anyone remembers of ``cards`` in zone ``zi`` is forgotten (:func:`left_unseen`:
        they left it unseen)."""
        cur = self.cur
        for c in cards:
            v = cur.get(c)
            if v is None:
                continue
            if v.__class__ is tuple:
                if v[3] == zi:
                    cur[c] = None
                continue
            keep = [r for r in v if r[3] != zi]
            cur[c] = (keep[0] if len(keep) == 1 else keep) if keep else None

    def entries(self) -> list[Entry]:
        """The list ``g.shown`` the list algorithm (the API's, :func:`seen_go`) would hold:
        ``[seat, card, zone]`` by event, then player, then card."""
        self.flush()
        cur = self.cur
        if not cur:
            return []
        vals = cur.values()
        pieces = list(filter(None, dict(zip(map(id, vals), vals)).values()))    # each once
        if list in set(map(type, pieces)) or len(set(map(_first, pieces))) != len(pieces):
            return self._split(pieces)      # an event in several pieces: entry by entry
        pieces.sort(key=_first)
        # Each event in one piece: its cards that still point to it (a piece of one card is
        # its card's memory), for each player who still remembers them; one comprehension.
        get = cur.get
        cards = [cs if len(cs) == 1 else [c for c in cs if get(c) is r]
                 for r in pieces for cs in (r[2],)]
        return [[p, c, r[3]] for r, cs in zip(pieces, cards) for p in r[4] for c in cs]

    def _split(self, pieces: list[Any]) -> list[Entry]:
        """:meth:`entries` when some event is in several pieces (a card shown to one player, a
        ``move all`` that carried some cards of an event and not others)."""
        rep: dict[int, Piece] = {}
        odd: set[int] = set()   # seq -> a piece of it; the events in several pieces
        for v in pieces:
            if v.__class__ is tuple:
                if rep.setdefault(v[0], v) is not v:
                    odd.add(v[0])
            else:
                for r in v:
                    rep[r[0]] = r
                    odd.add(r[0])
        get = self.cur.get
        out: list[Entry] = []
        for seq in sorted(rep):
            r = rep[seq]
            cards = r[2]
            if seq not in odd:  # one piece: its cards that still point to it, for each player
                if len(cards) > 1:
                    cards = list(compress(cards, map(is_, map(get, cards), repeat(r))))
                zi = r[3]
                for p in r[4]:
                    out += map(list, zip(repeat(p), cards, repeat(zi)))
                continue
            for p in r[1]:
                for c in cards:
                    v = get(c)
                    if v is None:
                        continue
                    if v.__class__ is not tuple:
                        v = next((x for x in v if x[0] == seq), None)
                        if v is None:
                            continue
                    elif v[0] != seq:
                        continue
                    if p in v[4]:
                        out.append([p, c, v[3]])
        return out

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries())

    def __len__(self) -> int:
        return len(self.entries())

    def __bool__(self) -> bool:
        """Whether anyone remembers anything (without making the list: every piece a card
        points to names at least one player)."""
        self.flush()
        return any(self.cur.values())

    def carry(self, cards: Sequence[int], si: int, di: int, plan: tuple[Any, ...], top: int) -> None:
        """:func:`seen_go` of a ``move all`` from a zone some memories are in: the memories of
        these cards in ``si`` go to ``di`` (not a player who sees ``di``), in their place; the
        others are forgotten; then those who saw the cards go remember them, after."""
        ps, topo, _carry, excl = plan
        cur = self.cur
        made: dict[int, Piece] = {}     # a piece carried -> the same piece in di (one for all its cards)
        for c in cards:
            v = cur.get(c)
            if v is None:
                continue
            keep = []
            for r in ((v,) if v.__class__ is tuple else v):
                if r[3] != si:
                    continue
                d = made.get(id(r))
                if d is None:
                    qs = r[4]
                    if excl in qs:
                        qs = tuple(p for p in qs if p != excl)
                    d = made[id(r)] = (r[0], r[1], r[2], di, qs) if qs else ()
                if d:
                    keep.append(d)
            cur[c] = (keep[0] if len(keep) == 1 else keep) if keep else None
        if made:
            self.zs.add(di)
        if ps is None or (topo and top not in cards):
            return
        rec = (next(_SEQ), ps, (top,) if topo else cards, di, ps)
        for c in rec[2]:
            self._append(c, rec)
        self.zs.add(di)

    def show(self, c: int, p: int, zi: int) -> None:
        """``show c to p``: p forgets c, then remembers it in zone ``zi`` (recorded)."""
        self.record((_SHOW, c, p, zi))

    def reveal(self, c: int, ps: tuple[int, ...], zi: int) -> None:
        """``reveal c``: every memory of c forgotten, then each of ``ps`` remembers it in ``zi``
        (recorded)."""
        self.record((_REVEAL, c, ps, zi))

    def record(self, event: tuple[Any, ...]) -> None:
        """Add ``event`` to the log, worked out every LOG_LIMIT events (a bound on what is kept).
        (:func:`seen_go`, at every move, does the same in place of this call.)"""
        log = self.log
        log.append(event)
        if len(log) >= LOG_LIMIT:
            self.flush()

    def _show(self, c: int, p: int, zi: int) -> None:
        v = self.cur.get(c)
        if v is not None:
            keep = []
            for r in ((v,) if v.__class__ is tuple else v):
                qs = r[4]
                if p in qs:
                    qs = tuple(q for q in qs if q != p)
                    if qs:
                        keep.append((r[0], r[1], r[2], r[3], qs))
                else:
                    keep.append(r)
            self.cur[c] = (keep[0] if len(keep) == 1 else keep) if keep else None
        self._append(c, (next(_SEQ), (p,), (c,), zi, (p,)))
        self.zs.add(zi)

    def _reveal(self, c: int, ps: tuple[int, ...], zi: int) -> None:
        self.cur[c] = (next(_SEQ), ps, (c,), zi, ps) if ps else None
        self.zs.add(zi)


class Remembered(list[Entry]):
    """A long list of what players remember (:func:`grouped`, made by :func:`left_unseen`): the
    entries, a list like any other, with ``by_zone``, the cards they name grouped by zone
    ``{zone: set of cards}``, so that a card leaving a zone unseen is looked for only where it
    may be remembered, and ``col``: the cards of the entries, in their order, an array of
    16-bit numbers (a card is below 1024: limits.VALUE_MASK) that :func:`left_unseen` searches
    as bytes, or None until it needs them.

    Copied on write: ``owner`` is the state that may change it in place (its ``by_zone`` sets and
    its ``col`` are then its own), None when states may share it.  A clone shares the list, and
    reading it (``State.shown``: a clone, a save, an observation, a test) hands it out, so both
    set ``owner`` to None (:func:`handed_out`); the next change of either state copies it first
    (:func:`_own`) and changes the copy in place after that.  So a state that plays on, not
    cloned nor read, changes one list in place, however long (a game of hundreds of remembered
    cards, played through the API, copied them all at half its draws before), and a list once
    handed out never changes.  A show or a reveal still makes a plain list (grouped again when
    needed)."""

    __slots__ = ("by_zone", "col", "owner")
    by_zone: dict[int, set[int]]
    col: "array[int] | None"
    owner: Any

    def __reduce__(self) -> tuple[type[list[Entry]], tuple[list[Entry]]]:
        return list, (list(self),)      # (pickled, copied: a plain list, grouped again)


def handed_out(v: Any) -> Any:
    """What players remember, ``v``, read from outside the state that keeps it: from now on
    shared, never changed in place (:class:`Remembered`)."""
    if v.__class__ is Remembered:
        v.owner = None
    return v


def _own(g: Any, shown: "Remembered") -> "Remembered":
    """``shown`` (``g.memory``, a :class:`Remembered`) as a list ``g`` may change in place: itself
    when ``g`` owns it, else a copy (its sets and column too), which becomes ``g.memory``."""
    if shown.owner is g:
        return shown
    out = Remembered(shown)
    out.col = None if shown.col is None else shown.col[:]
    out.by_zone = {zi: set(cards) for zi, cards in shown.by_zone.items()}
    out.owner = g
    g.memory = out
    return out


def _zone_plan(game: Any, si: int, di: int) -> tuple[Any, ...]:
    """What :func:`seen_go` does with cards that go from zone ``si`` to ``di``, as the list
    algorithm decides it: ``(players who remember them, or None; only the top card is seen;
    memories in si may be carried by a move all; the player who sees di and so does not
    remember, or -1)``, kept in the compiled game's table ``zone_plans`` (per source zone, per
    destination zone, None until worked out here; made with its zones, shared by its states)."""
    info = game.zone_info
    _n, so, sv, _s = info[si]
    _n, do, dv, _s = info[di]
    excl = do if dv == "owner" else -1
    ps = None
    if dv not in ("everyone", "top") and sv in ("everyone", "owner", "top"):
        ps = tuple(p for p in ([so] if sv == "owner" else range(game.n)) if p != excl) or None
    plan = game.zone_plans[si][di] = (ps, sv == "top", dv not in ("everyone", "top"), excl)
    return plan



def show_card(g: Any, c: int, p: int) -> None:
    """``show c to p``: p remembers c in the zone where it is now (nothing for ``none``)."""
    if c < 0:
        return
    for zi, z in enumerate(g.zones):
        if c in z:
            show_in(g, c, p, zi)
            return


def show_in(g: Any, c: int, p: int, zi: int) -> None:
    """``show c to p`` for a card known to be in zone ``zi`` (or ``none``): the generated code
    calls it where the rules say where the card is (``places.card_places``)."""
    if c < 0:
        return
    if g.memory.__class__ is Memory:
        g.memory.show(c, p, zi)
        return
    # a new list (states share it after clone); the card's older place is forgotten
    g.memory = [x for x in g.memory if x[0] != p or x[1] != c] + [[p, c, zi]]


def reveal_card(g: Any, c: int) -> None:
    """``reveal c``: every player who does not see the zone where c is remembers it there."""
    if c < 0:
        return
    for zi, z in enumerate(g.zones):
        if c in z:
            reveal_in(g, c, zi)
            return


def reveal_in(g: Any, c: int, zi: int) -> None:
    """``reveal c`` for a card known to be in zone ``zi`` (or ``none``), as ``show_in``."""
    if c < 0:
        return
    _n, owner, vis, _sh = g.game.zone_info[zi]
    if vis == "everyone":
        return
    if g.memory.__class__ is Memory:
        g.memory.reveal(c, tuple(p for p in range(g.n) if not (vis == "owner" and owner == p)), zi)
        return
    g.memory = list(compress(g.memory, map(c.__ne__, map(_card_of, g.memory)))) + [
        [p, c, zi] for p in range(g.n) if not (vis == "owner" and owner == p)]


def left_unseen(g: Any, cards: Sequence[int], zi: int) -> None:
    """``cards`` just left zone ``zi`` by a move nobody saw (or a deal): whatever anyone
    remembered of them there is forgotten (docs/language.md, "What players remember": a player
    remembers where a card is only while it is there).  The generated code calls it for a move
    out of a zone where memories may be (stmtgen's note_left); in a playout it records the event
    in the Memory's log itself."""
    shown = g.memory
    if shown.__class__ is Memory:
        shown.record((_FORGET, cards, zi))
        return
    if not shown:
        return
    if shown.__class__ is not Remembered:
        if len(shown) < 64:     # a few entries: looked through (in C first: most often none
            #                     of these cards is remembered anywhere)
            if not set(cards).isdisjoint(map(_card_of, shown)) and \
                    any(x[2] == zi and x[1] in cards for x in shown):
                g.memory = [x for x in shown if x[2] != zi or x[1] not in cards]
            return
        # (hundreds of entries: a face-down pile everyone saw go down, drawn from at most turns)
        g.memory = shown = grouped(shown, g)
    here = shown.by_zone.get(zi)
    if not here or here.isdisjoint(cards):
        return                  # most often none of these cards was remembered there
    gone = here.intersection(cards)
    shown = _own(g, shown)      # (changed in place from here: copied first if shared)
    col = shown.col
    if col is None:
        col = shown.col = array("H", map(_card_of, shown))
    # A card or a few: the column's bytes searched for the card's two (in C, as memchr does:
    # list.index compared every entry as a number, a few µs for the hundreds of entries of a
    # face-down pile everyone saw go down; a match across two entries, at an odd place, is
    # passed over).  Many: one pass over the column, linear however many.
    if len(gone) <= 8:
        at = []
        raw = col.tobytes()
        for c in gone:
            two = c.to_bytes(2, _ORDER)
            j = raw.find(two)
            while j >= 0:
                if not j & 1:
                    i = j >> 1
                    if shown[i][2] == zi:
                        at.append(i)
                j = raw.find(two, j + 1)
    else:
        at = [i for i in compress(count(), map(gone.__contains__, col)) if shown[i][2] == zi]
    at.sort(reverse=True)
    for i in at:
        del shown[i]
        del col[i]
    here = shown.by_zone[zi]
    if len(gone) < len(here):
        here -= gone
    else:
        del shown.by_zone[zi]


def grouped(shown: Iterable[Entry], g: Any = None) -> "Remembered":
    """``shown`` (a list of entries) as a :class:`Remembered`: the same entries, with the cards
    they name grouped by zone, owned by the state ``g`` (None: shared)."""
    out = Remembered(shown)
    out.col = None
    out.owner = g
    by_zone = out.by_zone = {}
    for _p, c, zi in shown:
        cards = by_zone.get(zi)
        if cards is None:
            by_zone[zi] = {c}
        else:
            cards.add(c)
    return out


def seen_go(g: Any, cards: Sequence[int], si: int, di: int, top: int, whole: bool = False) -> None:
    """Cards just moved from zone ``si`` to zone ``di`` (``top``: the card that was on top of
    ``si``): each player who saw them in ``si`` and does not see ``di`` remembers them in
    ``di``.  What anyone remembered of these cards is forgotten (they moved), unless ``whole``:
    every card of ``si`` went to ``di`` (``move all cards``), and the memory goes with them."""
    if not cards or si == di:
        return
    shown = g.memory
    if shown.__class__ is Memory:       # a playout: recorded, worked out when read (Memory._go)
        log = shown.log
        log.append((_GO, cards, si, di, top, whole))
        if len(log) >= LOG_LIMIT:       # (what it keeps stays bounded: LOG_LIMIT)
            shown.flush()
        return
    game = g.game                       # who sees what, per pair of zones (as a playout's Memory)
    plan = game.zone_plans[si][di] or _zone_plan(game, si, di)
    ps, top_only, carry, excl = plan
    carry = carry and whole
    if shown:     # (a card that comes into sight is not followed further: nothing to keep)
        if shown.__class__ is Remembered:
            _go_long(g, shown, set(cards), si, di, carry, excl)
        else:
            moved = set(cards)
            # (most often nobody remembered these cards: the list stays as it is, which a test
            # in C that stops at the first card remembered tells)
            if not moved.isdisjoint(map(_card_of, shown)):
                hits = list(compress(count(), map(moved.__contains__, map(_card_of, shown))))
                shown = shown[:]        # a new list (states share it after clone)
                for i in reversed(hits):
                    x = shown[i]
                    if carry and x[2] == si and x[0] != excl:
                        shown[i] = [x[0], x[1], di]
                    else:
                        del shown[i]
                g.memory = shown
    if ps is None or (top_only and top not in cards):
        return                          # nobody saw them go where they cannot see them
    seen = cards if not top_only else [c for c in cards if c == top]
    new: list[Entry] = []
    for p in ps:        # [p, c, di] for each card seen, made in C
        new += map(list, zip(repeat(p), seen, repeat(di)))
    shown = g.memory
    if shown.__class__ is Remembered:   # added in place (copied first if shared)
        shown = _own(g, shown)
        shown += new
        if shown.col is not None:
            shown.col.extend(map(_card_of, new))
        shown.by_zone.setdefault(di, set()).update(map(_card_of, new))
    else:
        g.memory = shown + new


def _go_long(g: Any, shown: "Remembered", moved: set[int], si: int, di: int, carry: bool, excl: int) -> None:
    """:func:`seen_go` forgetting (or, ``carry``: taking along to ``di``, but for the player
    ``excl``, who sees ``di``) what a long list (``shown``, ``g.memory``) remembers of the cards
    ``moved``: in place, copied first if shared; its grouping and column kept."""
    # Most often nobody remembered these cards: the list stays as it is, which the cards
    # grouped by zone tell without a pass over every entry.
    if all(map(moved.isdisjoint, shown.by_zone.values())):
        return
    col = shown.col
    hits = list(compress(count(), map(moved.__contains__, map(_card_of, shown) if col is None else col)))
    if not hits:
        return
    shown = _own(g, shown)
    col = shown.col
    carried = set()
    for i in reversed(hits):
        x = shown[i]
        if carry and x[2] == si and x[0] != excl:
            shown[i] = [x[0], x[1], di]
            carried.add(x[1])
        else:
            del shown[i]
            if col is not None:
                del col[i]
    by_zone = shown.by_zone
    for zi in [zi for zi, cards in by_zone.items() if not cards.isdisjoint(moved)]:
        by_zone[zi] -= moved
        if not by_zone[zi]:
            del by_zone[zi]
    if carried:
        by_zone.setdefault(di, set()).update(carried)


def hides(zone_info: Any, s_vis: str | None, d_vis: str | None) -> bool:
    """Whether a move from a zone seen as ``s_vis`` to one seen as ``d_vis`` may take a card out
    of the sight of a player who saw it (None: not known before the game is played)."""
    return (s_vis is None or s_vis in ("everyone", "owner", "top")) and d_vis not in ("everyone", "top")


# ---- players who leave the game (`P leaves the game`) ------------------------------------------
# In a game where players may leave, the per-player flag `out` is the variable at ``base + seat``;
# turn order, dealing, `for each player`, the choices of a player and the conditions over players
# go round the players still in.  Used by the generated code and the tests' reference alike.

def leave_game(g: Any, p: int, base: int) -> None:
    """``remove p from the game``: p's `out` becomes 1 + the number of players already out (a
    player already out stays as they were)."""
    v = g.vars
    if not v[base + p]:
        v[base + p] = 1 + sum(1 for q in range(g.n) if v[base + q])


def out_ranking(g: Any, first: Iterable[int], base: int) -> list[int]:
    """``first`` (the winners), then the other players still in (in seat order), then those who
    left the game, the last to leave first."""
    v = g.vars
    rest = [p for p in range(g.n) if p not in first]
    return list(first) + sorted(rest, key=lambda p: (v[base + p] != 0, -v[base + p]))


def seat_after(g: Any, p: int, k: int, base: int) -> int:
    """The ``k``-th player still in the game after ``p`` in the direction of play (before, for a
    negative ``k``); ``p`` itself when they are the only one left."""
    n = g.n
    v = g.vars
    d = g.dir if k >= 0 else -g.dir
    for _ in range(k if k >= 0 else -k):
        for _ in range(n):
            p = (p + d) % n
            if not v[base + p]:
                break
        else:
            raise GameProblem("RL907", "every player is out of the game: nobody is left to play")
    return p


def seat_in(g: Any, p: int, base: int) -> int:
    """``p`` if they are still in the game, else the first player after them who is."""
    return seat_after(g, p, 1, base) if g.vars[base + p] else p


def seats_in(g: Any, start: int, base: int) -> list[int]:
    """The players still in the game, in the order of play from ``start`` (included if in)."""
    n = g.n
    v = g.vars
    d = g.dir
    return [q for q in [(start + d * k) % n for k in range(n)] if not v[base + q]]


def seats_after(g: Any, start: int, base: int) -> list[int]:
    """The players still in the game after ``start``, in the order of play (not ``start``)."""
    n = g.n
    v = g.vars
    d = g.dir
    return [q for q in [(start + d * k) % n for k in range(1, n)] if not v[base + q]]


def random_seat_in(g: Any, base: int) -> int:
    """A player still in the game, at random (seat order; -1 when nobody is)."""
    seats = [q for q in range(g.n) if not g.vars[base + q]]
    return seats[g.rng.randbelow(len(seats))] if seats else -1


def next_in(g: Any, fr: list[Any], ki: int, pi: int, base: int) -> bool:
    """The test of `for each player` in a game where players leave: goes on to the first seat
    from ``fr[pi]`` that is still in (each seat is passed once: ``fr[ki]`` counts them)."""
    n = g.n
    while fr[ki] > 0:
        fr[ki] -= 1
        if not g.vars[base + fr[pi]]:
            return True
        fr[pi] = (fr[pi] + g.dir) % n
    return False


def holder(g: Any, c: int, owned: Iterable[tuple[int, int]]) -> int:
    """The player one of whose own zones holds card ``c`` (``owned``: (zone, owner) pairs)."""
    zones = g.zones
    for zi, owner in owned:
        if c in zones[zi]:
            return owner
    return -1
