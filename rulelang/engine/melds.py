"""Run-time helpers for sets and runs: every set and run a hand can make (:func:`meld_groups`) and
the least total left outside a choice of them (:func:`least_left`, ``least total A of Z outside
sets and runs``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, cast

# A group of cards: a bit mask over the positions of the cards searched.
Mask = int

# ---- sets and runs (`least total A of Z outside sets and runs`) ------------
# The most cards one search of sets and runs takes (docs/language.md, "Sets and runs"); a zone
# with more stops the game with RL259 rather than search for minutes.
MAX_MELD_CARDS = 20


def meld_groups(cards: Sequence[int], pos_of: Sequence[Any], suit_of: Sequence[int]) -> list[Mask]:
    """Every set (three or more cards of one rank) and run (three or more cards of one suit
    whose ranks are consecutive in the deck's rank order, without going round) that can be made
    from ``cards``, as bit masks over the positions of ``cards``.  Groups of six or more are
    left out: each is two smaller groups of the same cards, which leave the same cards over.
    ``pos_of[c]`` is the place of the card's rank in the rank order; a card with no suit belongs
    to no run."""
    from itertools import combinations, product
    groups: list[Mask] = []
    by_rank: dict[Any, list[int]] = {}
    by_suit: dict[int, dict[Any, list[int]]] = {}
    for i, c in enumerate(cards):
        p = pos_of[c]
        by_rank.setdefault(p, []).append(i)
        if suit_of[c] >= 0:
            by_suit.setdefault(suit_of[c], {}).setdefault(p, []).append(i)
    for same in by_rank.values():
        for k in range(3, min(len(same), 5) + 1):   # six or more: two smaller sets
            for pick in combinations(same, k):
                groups.append(sum(1 << i for i in pick))
    for places in by_suit.values():
        for start in places:
            if start - 1 in places:
                continue                     # a run is grown from the lowest rank of a stretch
            stretch: list[list[int]] = []
            p = start
            while p in places:
                stretch.append(places[p])
                p += 1
            for a in range(len(stretch)):
                for b in range(a + 3, min(len(stretch), a + 5) + 1):   # six or more: two runs
                    for pick in product(*stretch[a:b]):
                        groups.append(sum(1 << i for i in pick))
    return groups


def least_left(cards: Sequence[int], pos_of: Sequence[Any], suit_of: Sequence[int],
               points: Sequence[int]) -> tuple[int, tuple[Mask, ...]]:
    """The least total of ``points`` over the cards of ``cards`` left outside a choice of
    non-overlapping sets and runs (see :func:`meld_groups`), and the groups of one best choice
    (masks over the positions of ``cards``)."""
    groups = meld_groups(cards, pos_of, suit_of)
    pts = [points[c] for c in cards]
    # Copies of one card (same rank, suit and points) are interchangeable: a group takes the
    # first copies still in the hand, so that each choice is searched once, not once per copy.
    before: list[Mask] = []
    seen: dict[tuple[Any, int, int], Mask] = {}
    for i, c in enumerate(cards):
        key = (pos_of[c], suit_of[c], pts[i])
        before.append(seen.get(key, 0))
        seen[key] = seen.get(key, 0) | 1 << i
    with_lowest: list[list[tuple[Mask, Mask]]] = [[] for _ in cards]
    for m in groups:
        absent, rest = 0, m
        while rest:
            j = (rest & -rest).bit_length() - 1
            absent |= before[j]
            rest &= rest - 1
        with_lowest[(m & -m).bit_length() - 1].append((m, absent & ~m))
    # A card that is in no group is always left over; the search is over the others only.
    in_some = 0
    for m in groups:
        in_some |= m
    memo: dict[Mask, tuple[int, tuple[Mask, ...]]] = {0: (0, ())}

    def best(mask: Mask) -> tuple[int, tuple[Mask, ...]]:
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        left, chosen = best(mask ^ low)
        res = (left + pts[i], chosen)
        for m, absent in with_lowest[i]:
            if m & mask == m and not absent & mask:
                left, chosen = best(mask & ~m)
                if left < res[0]:
                    res = (left, chosen + (m,))
        memo[mask] = res
        return res
    fixed = sum(p for i, p in enumerate(pts) if not in_some >> i & 1)
    left, chosen = best(in_some)
    return left + fixed, chosen


# ---- laying off (`least total A of Z outside sets and runs laying off on Y`) ---------
def best_groupings(cards: Sequence[int], pos_of: Sequence[Any], suit_of: Sequence[int],
                   points: Sequence[int]) -> list[tuple[Mask, ...]]:
    """Every choice of non-overlapping sets and runs of ``cards`` that leaves the least total
    of ``points`` outside them (as tuples of masks, in one order of search)."""
    groups = meld_groups(cards, pos_of, suit_of)
    pts = [points[c] for c in cards]
    by_low: list[list[Mask]] = [[] for _ in cards]
    for m in groups:
        by_low[(m & -m).bit_length() - 1].append(m)
    memo: dict[Mask, tuple[int, list[tuple[Mask, ...]]]] = {0: (0, [()])}

    def best(mask: Mask) -> tuple[int, list[tuple[Mask, ...]]]:
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        left, ways = best(mask ^ low)
        res_left, res = left + pts[i], list(ways)
        for m in by_low[i]:
            if m & mask == m:
                left, ways = best(mask & ~m)
                if left < res_left:
                    res_left, res = left, [w + (m,) for w in ways]
                elif left == res_left:
                    res += [w + (m,) for w in ways]
        memo[mask] = (res_left, res)
        return memo[mask]
    return best((1 << len(cards)) - 1)[1]


def _extensions(group: Mask, onto: Sequence[int], cards: Sequence[int], pos_of: Sequence[Any],
                suit_of: Sequence[int]) -> list[Mask]:
    """The sets of ``cards`` (masks) that can join the meld ``group`` (a mask over ``onto``):
    any of the cards of a set's rank; for a run, cards of its suit that continue it downwards
    and upwards, one card a place."""
    members = [onto[i] for i in range(len(onto)) if group >> i & 1]
    places = {pos_of[c] for c in members}
    from itertools import product
    if len(places) == 1:                                  # a set: any cards of its rank
        same = [i for i, c in enumerate(cards) if pos_of[c] in places]
        out: list[Mask] = [0]
        for i in same:
            out += [m | 1 << i for m in out]
        return out
    suit = suit_of[members[0]]
    lo, hi = min(places), max(places)
    at: dict[int, list[int]] = {}
    for i, c in enumerate(cards):
        if suit_of[c] == suit and isinstance(pos_of[c], int):
            at.setdefault(pos_of[c], []).append(i)
    out = []
    down: list[list[list[int]]] = [[]]
    p = lo - 1
    while p in at:
        down.append(down[-1] + [at[p]])
        p -= 1
    up: list[list[list[int]]] = [[]]
    p = hi + 1
    while p in at:
        up.append(up[-1] + [at[p]])
        p += 1
    for d in down:
        for u in up:
            for pick in product(*(d + u)):
                out.append(sum(1 << i for i in pick))
    return out


def least_left_laying_off(cards: Sequence[int], onto: Sequence[int], pos_of: Sequence[Any],
                          suit_of: Sequence[int], points: Sequence[int]) -> Optional[int]:
    """The least total of ``points`` over ``cards`` left outside their own sets and runs and
    the cards they lay off on the melds of ``onto``: ``onto``'s cards are grouped to leave the
    least of ``points`` over them, and of the groupings that do, the one that lets ``cards``
    leave the most (the player who melded chooses)."""
    worst: Optional[int] = None
    for grouping in best_groupings(onto, pos_of, suit_of, points) or [()]:
        options = [_extensions(g, onto, cards, pos_of, suit_of) for g in grouping]
        best: Optional[int] = None

        def search(k: int, used: Mask) -> None:
            nonlocal best
            if k == len(options):
                rest = [c for i, c in enumerate(cards) if not used >> i & 1]
                left = least_left(rest, pos_of, suit_of, points)[0]
                if best is None or left < best:
                    best = left
                return
            for m in options[k]:
                if not m & used:
                    search(k + 1, used | m)
        search(0, 0)                        # sets best: the last step always does
        if worst is None or cast(int, best) > worst:
            worst = best
    return worst
