"""Run-time helpers for a set of cards chosen in one action (``a set of 1 or more cards s from
table to won in groups whose total points is points of c``; docs/language.md, "A set of cards
in one choice").

The sets a choice offers are worked out by :func:`sets_of`, a pure function of the cards that
may be chosen and of the conditions on the whole set; each set is one action, its number in the
list.  The frame keeps only what the list is made from (the cards that may be chosen, the zones,
the bounds, the total asked for), so a saved, cloned or replayed game holds plain numbers and
cards; the list is made again, from the same things, when the action is applied (a cache keeps
the lists last made).  Used by the generated code, on the API path and the playout fast path.

The order of the sets (docs/language.md): fewest cards first; sets of as many cards by their
cards in the order of the deck, compared card by card; within a set the cards are in the order
of the deck.  Identical copies of a card (a game with several decks) make one set, not one per
copy: the copies found first in the deck's order are taken.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Optional

from rulelang.engine.choices import move_picked
from rulelang.engine.control import GameProblem
from rulelang.engine.players import seen_go
from rulelang.limits import MAX_SET_OFFERED, MAX_SET_POOL, MAX_SET_SEARCH

# The shapes of a set: any cards, cards of one rank, of one suit, or a run (one suit, ranks that
# follow each other in the deck's rank order, without going round).
SHAPES = (None, "rank", "suit", "run")
# The conditions on a set's total: none, `whose total A is E` (at most, at least), and
# `in groups whose total A is E` (the set splits into groups of that total each).
MODES = (None, "is", "most", "least", "groups")


class TooMany(Exception):
    """The search would look at more than MAX_SET_SEARCH sets, or offer more than
    MAX_SET_OFFERED: ``code`` says which (RL285, RL284)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@functools.lru_cache(maxsize=4096)
def sets_of(names: tuple[int, ...], values: tuple[int, ...], groups: tuple[Any, ...],
            places: tuple[int, ...], fewest: int, most: int, shape: Optional[str],
            mode: Optional[str], target: int) -> tuple[tuple[int, ...], ...]:
    """Every set the choice offers, as tuples of positions in the cards that may be chosen
    (those cards already in the order of the deck, ``names`` the card each is a copy of: equal
    names are identical copies), in the order the choice offers them.  ``values``: each card's
    value for the total; ``groups``: each card's suit (a run's and ``of one suit``'s group) or
    rank (``of one rank``'s), empty without a shape; ``places``: each card's place in the rank
    order (runs; -1 for a card in no run).  Raises TooMany past the limits."""
    budget = [MAX_SET_SEARCH]
    found: list[tuple[int, ...]]
    if shape == "run":
        found = _runs(names, groups, places, budget)
    elif mode == "groups":
        found = _unions_of_groups(names, values, target, most, budget)
    else:
        found = _subsets(names, values, groups if shape else None, most,
                         target if mode in ("is", "most") else None, budget)
    twins = len(set(names)) < len(names)
    if twins:               # (in order first: of identical sets, the copies first in it stay)
        found.sort(key=_order)
    same = shape in ("rank", "suit") and mode == "groups"     # (the other searches keep to it)
    totals = mode in ("is", "most", "least")
    out: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for s in found:
        if not fewest <= len(s) <= most:
            continue
        if same and any(groups[i] != groups[s[0]] for i in s):
            continue
        if totals:
            t = sum([values[i] for i in s])
            if (t != target) if mode == "is" else (t > target) if mode == "most" else (t < target):
                continue
        if twins:                                 # identical copies: one set
            key = tuple([names[i] for i in s])
            if key in seen:
                continue
            seen.add(key)
        out.append(s)
    if len(out) > MAX_SET_OFFERED:
        raise TooMany("RL284", f"{len(out)} sets to choose from, more than {MAX_SET_OFFERED}")
    out.sort(key=_order)
    return tuple(out)


def _order(s: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (len(s), s)


def _spent(budget: list[int]) -> None:
    raise TooMany("RL285", f"more than {MAX_SET_SEARCH} sets to look through")


def _subsets(names: Any, values: Any, groups: Any, most: Any, cap: Any, budget: list[int]) -> list[tuple[int, ...]]:
    """Every set of at most ``most`` cards, in one group when ``groups`` is given; with ``cap``
    and no negative value, none whose total passes ``cap`` (the search stops there).  A copy of
    the card before it is taken only after that card: each set of names once."""
    n = len(names)
    prune = cap is not None and min(values, default=0) >= 0
    if not prune:
        cap = 1 << 62
    out: list[tuple[int, ...]] = []
    append = out.append

    def go(start: int, chosen: tuple[int, ...], total: int, group: Any) -> None:
        prev = -1
        for i in range(start, n):
            if prev >= 0 and names[i] == names[prev]:
                continue                     # (the copy before was skipped here: same sets)
            prev = i
            if group is not None and groups[i] != group:
                continue
            t = total + values[i]
            if t > cap:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                _spent(budget)
            s = chosen + (i,)
            append(s)
            if len(s) < most:
                go(i + 1, s, t, groups[i] if groups is not None else None)
    go(0, (), 0, None)
    return out


def _runs(names: Any, groups: Any, places: Any, budget: list[int]) -> list[tuple[int, ...]]:
    """Every run: cards of one suit whose places in the rank order follow each other, one card
    of each place (the copy first in the deck's order)."""
    by_suit: dict[Any, dict[int, int]] = {}
    for i in range(len(names)):
        if places[i] < 0:
            continue
        by_suit.setdefault(groups[i], {}).setdefault(places[i], i)
    out: list[tuple[int, ...]] = []
    for at in by_suit.values():
        for start in sorted(at):
            run: list[int] = []
            p = start
            while p in at:
                budget[0] -= 1
                if budget[0] < 0:
                    _spent(budget)
                run.append(at[p])
                out.append(tuple(sorted(run)))
                p += 1
    return out


def _groups_of_total(names: Any, values: Any, target: Any, most: int,
                     budget: list[int]) -> list[int]:
    """Every set of at most ``most`` cards of total ``target`` (as a bit mask over the
    positions; each copy of a card on its own, since two groups may each take a copy); with no
    negative value, the search stops where a total passes ``target``, and a set that makes it
    grows only by cards of no value."""
    n = len(names)
    nonneg = min(values, default=0) >= 0
    zeros = nonneg and 0 in values
    out: list[int] = []

    def go(start: int, mask: int, total: int, size: int) -> None:
        if size >= most:                    # (no set offered has more cards)
            return
        for i in range(start, n):
            t = total + values[i]
            if nonneg and t > target:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                _spent(budget)
            m = mask | 1 << i
            if t == target:
                out.append(m)
                if not zeros and nonneg:
                    continue
            go(i + 1, m, t, size + 1)
    go(0, 0, 0, 0)
    return out


def _unions_of_groups(names: Any, values: Any, target: Any, most: int,
                      budget: list[int]) -> list[tuple[int, ...]]:
    """Every set of at most ``most`` cards that splits into groups of total ``target`` each:
    the groups first (every set of that total), then every union of groups that do not share a
    card, each union once.  A union past ``most`` cards is not looked at, nor any union grown
    from it: no set offered has more cards, and without that the search of a large table
    looks at many unions for a few sets."""
    groups = _groups_of_total(names, values, target, most, budget)
    if not groups:
        return []
    unions: set[int] = set()
    count = len(groups)

    def go(start: int, mask: int) -> None:
        for k in range(start, count):
            m = groups[k]
            if m & mask:
                continue
            u = mask | m
            if u.bit_count() > most:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                _spent(budget)
            unions.add(u)
            go(k + 1, u)
    go(0, 0)
    bits = range(len(names))
    return [tuple([i for i in bits if u >> i & 1]) for u in unions]


# ---- in the game --------------------------------------------------------------------------------

def _key(g: Any, c: int) -> tuple[int, int]:
    twin = g.game.card_twin
    return (twin[c] if twin is not None else c, c)


def _make(g: Any, cards: Sequence[int], fewest: int, most: int, shape: Optional[str],
          mode: Optional[str], target: int, table: Optional[Sequence[int]],
          span: Any) -> tuple[tuple[int, ...], ...]:
    game = g.game
    twin = game.card_twin
    names = tuple(cards) if twin is None else tuple(map(twin.__getitem__, cards))
    values = tuple(map(table.__getitem__, cards)) if table is not None else (0,) * len(cards)
    groups: tuple[Any, ...] = ()
    places: tuple[int, ...] = ()
    if shape == "rank":
        groups = tuple(map(game.rank_of.__getitem__, cards))
    elif shape is not None:
        groups = tuple(map(game.suit_of.__getitem__, cards))
    if shape == "run":
        place = {r: i for i, r in enumerate(game.rank_cycle)}
        places = tuple(place.get(game.rank_of[c], -1) if game.suit_of[c] >= 0 else -1
                       for c in cards)
    try:
        return sets_of(names, values, groups, places, fewest, min(most, len(cards)), shape,
                       mode, target)
    except TooMany as e:
        raise GameProblem(e.code, str(e), span) from None


def set_start(g: Any, fr: list[Any], ks: Sequence[int], cards: Sequence[int], z: int, d: int,
              fewest: int, most: int, target: int, shape: Optional[str], mode: Optional[str],
              table: Optional[Sequence[int]], base: int, span: Any) -> list[int]:
    """The actions of a choice of a set: one per set (``base`` + its number).  The frame keeps
    the cards that may be chosen (in the order of the deck), Z, D, the bounds and the total."""
    if fewest < 1 or most < fewest:
        raise GameProblem("RL286", f"a set of {fewest} to {most} cards: a set holds at least "
                          "one card, and no fewer than its least", span)
    cards = tuple(sorted(cards) if g.game.card_twin is None else
                  sorted(cards, key=lambda c: _key(g, c)))
    if len(cards) > MAX_SET_POOL:
        raise GameProblem("RL285", f"a set is chosen among at most {MAX_SET_POOL} cards, "
                          f"not {len(cards)}", span)
    ei, zi, di, fi, mi, ti = ks
    fr[ei], fr[zi], fr[di], fr[fi], fr[mi], fr[ti] = cards, z, d, fewest, most, target
    sets = _make(g, cards, fewest, most, shape, mode, target, table, span)
    return list(range(base, base + len(sets)))


def set_cards(g: Any, fr: list[Any], ks: Sequence[int], k: int, shape: Optional[str],
              mode: Optional[str], table: Optional[Sequence[int]], span: Any) -> tuple[int, ...]:
    """The cards of set number ``k`` of the choice whose frame is ``fr``, in the order of the
    deck."""
    ei, _zi, _di, fi, mi, ti = ks
    cards = fr[ei]
    sets = _make(g, cards, fr[fi], fr[mi], shape, mode, fr[ti], table, span)
    if not 0 <= k < len(sets):
        raise GameProblem("RL902", f"set {k + 1} was not offered", span)
    return tuple(cards[i] for i in sets[k])


def set_take(g: Any, fr: list[Any], si: int, ci: int, ks: Sequence[int], shape: Optional[str],
             mode: Optional[str], table: Optional[Sequence[int]], span: Any) -> None:
    """The set chosen (its number in slot ``si``) moves from Z to D together, on top, in the
    order of the deck; ``ci`` then holds its first card."""
    picked = set_cards(g, fr, ks, fr[si], shape, mode, table, span)
    _ei, zi, di = ks[0], ks[1], ks[2]
    move_picked(g, g.zones[fr[zi]], g.zones[fr[di]], picked, span)
    seen_go(g, list(picked), fr[zi], fr[di], -1)
    fr[ci] = picked[0]


def cards_of_action(g: Any, action: int) -> Optional[tuple[int, ...]]:
    """The cards of the set an action of the decision ``g`` waits for offers (in the order of the
    deck), or None when the action is no set's or the game waits for no such decision."""
    from rulelang.limits import ACTION_SHIFT, VALUE_MASK
    info = getattr(g.game, "set_choices", {}).get(action >> ACTION_SHIFT)
    if info is None or not g.stack:
        return None
    ks, shape, mode, table, span = info
    fr = g.stack[-1]
    if max(ks) >= len(fr) or fr[ks[0]].__class__ is not tuple:
        return None
    try:
        return set_cards(g, fr, ks, action & VALUE_MASK, shape, mode, table, span)
    except GameProblem:
        return None


def set_moved(game: Any, action: int, entries: Sequence[Any], at: int) -> Optional[tuple[int, ...]]:
    """The cards of a set chosen in one action, found in a game's log (``entries``; the choice
    at ``at``): the set moves before anything else is done, so they are the cards of the move
    that follows.  None for another action."""
    from rulelang.limits import ACTION_SHIFT
    alt = game.alternatives[action >> ACTION_SHIFT]
    if alt is None or alt.kind != "set":
        return None
    for e in entries[at + 1:at + 4]:
        if e[0] == "move":
            return tuple(e[3])
    return None
