"""Run-time helpers of the generated code (and of the tests' reference interpreter) about players: who is still in the
game (``P leaves the game``) and who comes after whom, who holds a card, and what a player was
shown (``show c to P``), revealed (``reveal c``) or saw go where they cannot see it.
"""
from __future__ import annotations

from itertools import compress, count, repeat
from operator import itemgetter

from rulelang.engine.control import GameProblem

# What players remember (``g.shown``) is a list of entries ``[seat, card, zone]``, often hundreds
# long (a face-down pile that everyone saw go down): it is scanned with these, in C (map,
# compress), not entry by entry in Python.
_card_of, _zone_of = itemgetter(1), itemgetter(2)


class Memory:
    """``g.shown`` while a playout runs, once it holds many entries (made by :func:`seen_go`
    when the list is long and ``g._pp``, the policy of :meth:`State.playout
    <rulelang.engine.runtime.State.playout>`, is set; the playout turns it back into the list
    at its end): the same entries in the same order, found by card, so that a move forgets the
    memories of its cards without scanning hundreds of others.  ``at``: a number per entry ->
    the entry, in the list's order (an entry that moves with its card keeps its number, so its
    place); ``of``: card -> the numbers of its entries.  Only its playout sees it: nothing
    clones a state, saves it or shows it to a player while the generated code plays on."""

    __slots__ = ("at", "of", "n")

    def __init__(self, entries=()):
        self.at, self.of, self.n = {}, {}, 0
        if entries:
            self.extend(entries)

    def __len__(self):
        return len(self.at)

    def __iter__(self):
        return iter(self.at.values())

    def extend(self, entries) -> None:
        at, of, n = self.at, self.of, self.n
        for x in entries:
            at[n] = x
            ns = of.get(x[1])
            if ns is None:
                of[x[1]] = [n]
            else:
                ns.append(n)
            n += 1
        self.n = n

    def add(self, ps, cards, zi) -> None:
        """The entries ``[p, c, zi]`` for each player of ``ps`` and, for each, each card of
        ``cards`` (as ``extend`` of them, made in C: a card's numbers are a range)."""
        k, n = len(cards), self.n
        end = n + k * len(ps)
        self.at.update(zip(count(n), map(list, zip(
            [p for p in ps for _ in cards], cards * len(ps), repeat(zi, end - n)))))
        of = self.of
        for j, c in enumerate(cards):
            ns = of.get(c)
            if ns is None:
                of[c] = list(range(n + j, end, k))
            else:
                ns.extend(range(n + j, end, k))
        self.n = end

    def forget(self, c, p=None) -> None:
        """Forget what anyone (``p``: only that player) remembered of card ``c``."""
        ns = self.of.pop(c, None)
        if ns is not None:
            at = self.at
            if p is not None:
                keep = [i for i in ns if at[i][0] != p]
                if keep:
                    self.of[c] = keep
                ns = [i for i in ns if at[i][0] == p]
            for i in ns:
                del at[i]


def show_card(g, c, p) -> None:
    """``show c to p``: p remembers c in the zone where it is now (nothing for ``none``)."""
    if c < 0:
        return
    for zi, z in enumerate(g.zones):
        if c in z:
            if g.shown.__class__ is Memory:
                g.shown.forget(c, p)
                g.shown.extend(([p, c, zi],))
                return
            # a new list (states share it after clone); the card's older place is forgotten
            g.shown = [x for x in g.shown if x[0] != p or x[1] != c] + [[p, c, zi]]
            return


def reveal_card(g, c) -> None:
    """``reveal c``: every player who does not see the zone where c is remembers it there."""
    if c < 0:
        return
    for zi, z in enumerate(g.zones):
        if c in z:
            _n, owner, vis, _sh = g.game.zone_info[zi]
            if vis == "everyone":
                return
            if g.shown.__class__ is Memory:
                g.shown.forget(c)
                g.shown.extend([p, c, zi] for p in range(g.n) if not (vis == "owner" and owner == p))
                return
            g.shown = list(compress(g.shown, map(c.__ne__, map(_card_of, g.shown)))) + [
                [p, c, zi] for p in range(g.n) if not (vis == "owner" and owner == p)]
            return


def seen_go(g, cards, si, di, top, whole=False) -> None:
    """Cards just moved from zone ``si`` to zone ``di`` (``top``: the card that was on top of
    ``si``): each player who saw them in ``si`` and does not see ``di`` remembers them in
    ``di``.  What anyone remembered of these cards is forgotten (they moved), unless ``whole``:
    every card of ``si`` went to ``di`` (``move all cards``), and the memory goes with them."""
    if not cards or si == di:
        return
    info = g.game.zone_info
    _n, so, sv, _s = info[si]
    _n, do, dv, _s = info[di]
    shown = g.shown
    if shown.__class__ is Memory:       # the entries of these cards, by card
        of = shown.of
        carry = whole and dv not in ("everyone", "top")
        for c in (of.keys() & cards) if of else ():
            if not carry:
                shown.forget(c)
                continue
            at, keep = shown.at, []
            for i in of.pop(c):
                x = at[i]
                if x[2] == si and not (dv == "owner" and do == x[0]):
                    at[i] = [x[0], c, di]
                    keep.append(i)
                else:
                    del at[i]
            if keep:
                of[c] = keep
    elif shown:     # (a card that comes into sight is not followed further: nothing to keep)
        moved = set(cards)
        hits = list(compress(count(), map(moved.__contains__, map(_card_of, shown))))
        if hits:    # most often nobody remembered these cards: the list stays as it is
            carry = whole and dv not in ("everyone", "top")
            shown = shown[:]        # a new list (states share it after clone)
            for i in reversed(hits):
                x = shown[i]
                if carry and x[2] == si and not (dv == "owner" and do == x[0]):
                    shown[i] = [x[0], x[1], di]
                else:
                    del shown[i]
            g.shown = shown
    if dv in ("everyone", "top") or sv not in ("everyone", "owner", "top") or (
            sv == "top" and top not in cards):
        return                          # a pile whose top is face up: seen as it arrives
    who = [so] if sv == "owner" else range(g.n)
    seen = cards if sv != "top" else [c for c in cards if c == top]
    if shown.__class__ is Memory:
        if seen:
            shown.add([p for p in who if not (dv == "owner" and do == p)], list(seen), di)
        return
    new = []
    for p in who:       # [p, c, di] for each card seen, made in C
        if not (dv == "owner" and do == p):
            new += map(list, zip(repeat(p), seen, repeat(di)))
    if new:
        g.shown = g.shown + new


def hides(zone_info, s_vis, d_vis) -> bool:
    """Whether a move from a zone seen as ``s_vis`` to one seen as ``d_vis`` may take a card out
    of the sight of a player who saw it (None: not known before the game is played)."""
    return (s_vis is None or s_vis in ("everyone", "owner", "top")) and d_vis not in ("everyone", "top")


# ---- players who leave the game (`P leaves the game`) ------------------------------------------
# In a game where players may leave, the per-player flag `out` is the variable at ``base + seat``;
# turn order, dealing, `for each player`, the choices of a player and the conditions over players
# go round the players still in.  Used by the generated code and the tests' reference alike.

def leave_game(g, p, base):
    """``remove p from the game``: p's `out` becomes 1 + the number of players already out (a
    player already out stays as they were)."""
    v = g.vars
    if not v[base + p]:
        v[base + p] = 1 + sum(1 for q in range(g.n) if v[base + q])


def out_ranking(g, first, base):
    """``first`` (the winners), then the other players still in (in seat order), then those who
    left the game, the last to leave first."""
    v = g.vars
    rest = [p for p in range(g.n) if p not in first]
    return list(first) + sorted(rest, key=lambda p: (v[base + p] != 0, -v[base + p]))


def seat_after(g, p, k, base):
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


def seat_in(g, p, base):
    """``p`` if they are still in the game, else the first player after them who is."""
    return seat_after(g, p, 1, base) if g.vars[base + p] else p


def seats_in(g, start, base):
    """The players still in the game, in the order of play from ``start`` (included if in)."""
    n = g.n
    v = g.vars
    d = g.dir
    return [q for q in [(start + d * k) % n for k in range(n)] if not v[base + q]]


def seats_after(g, start, base):
    """The players still in the game after ``start``, in the order of play (not ``start``)."""
    n = g.n
    v = g.vars
    d = g.dir
    return [q for q in [(start + d * k) % n for k in range(1, n)] if not v[base + q]]


def random_seat_in(g, base):
    """A player still in the game, at random (seat order; -1 when nobody is)."""
    seats = [q for q in range(g.n) if not g.vars[base + q]]
    return seats[g.rng.randrange(len(seats))] if seats else -1


def next_in(g, fr, ki, pi, base):
    """The test of `for each player` in a game where players leave: goes on to the first seat
    from ``fr[pi]`` that is still in (each seat is passed once: ``fr[ki]`` counts them)."""
    n = g.n
    while fr[ki] > 0:
        fr[ki] -= 1
        if not g.vars[base + fr[pi]]:
            return True
        fr[pi] = (fr[pi] + g.dir) % n
    return False


def holder(g, c, owned):
    """The player one of whose own zones holds card ``c`` (``owned``: (zone, owner) pairs)."""
    zones = g.zones
    for zi, owner in owned:
        if c in zones[zi]:
            return owner
    return -1
