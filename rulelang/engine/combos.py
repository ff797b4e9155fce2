"""Run-time helpers for the counts over the combinations of a zone's cards (docs/language.md,
"Combinations of cards: fifteens, runs, pairs, flushes").

Each ``*_counter`` makes, once per game compiled, a function of a zone's card list that the
generated code calls (the card tables bound in it): the counts take microseconds over a hand.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulelang.engine.control import GameProblem
from rulelang.limits import MAX_COMBINATION_CARDS


def combinations_counter(values: Sequence[int], span: Any) -> Callable[[Sequence[int], int], int]:
    """``number of combinations of cards in Z whose total A is N``: how many sets of one or
    more of the cards (each card once, two copies of a card two cards) have values adding up
    to N.  The sums of every set are listed, doubling the list with each card; more than
    MAX_COMBINATION_CARDS cards stop the game (RL293)."""
    # With no value below 0 (points, pips), a sum above the total sought never comes back down
    # to it: those sums are not kept, and the list stays short (fifteens among 8 cards).
    growing = min(values, default=0) >= 0

    def count(cards: Sequence[int], target: int) -> int:
        if len(cards) > MAX_COMBINATION_CARDS:
            raise GameProblem("RL293", f"combinations are counted among at most "
                              f"{MAX_COMBINATION_CARDS} cards, not {len(cards)}", span)
        sums = [0]
        if growing:
            for c in cards:
                v = values[c]
                sums += [t for s in sums if (t := s + v) <= target]
        else:
            for c in cards:
                v = values[c]
                sums += [s + v for s in sums]
        return sums.count(target) - (target == 0)
    return count


def places_of(rank_of: Sequence[int], rank_cycle: Sequence[int]) -> list[int]:
    """Each card's place in the deck's rank order (the ranks `for each rank` goes through,
    lowest first), or -1 for a card whose rank is not in it (an extra card's own rank)."""
    place = {r: i for i, r in enumerate(rank_cycle)}
    return [place.get(r, -1) for r in rank_of]


def runs_counter(places: Sequence[int], ways: bool) -> Callable[[Sequence[int]], int]:
    """``longest run in Z`` (``ways`` false): the most ranks held one after the other in the
    deck's rank order, without going round (0 for no card); ``number of longest runs in Z``
    (``ways`` true): the sets of cards that make a run that long, one card of each rank (a
    double run, two cards of one of its ranks, is two runs)."""
    place = places.__getitem__

    def count(cards: Sequence[int]) -> int:
        ps = list(map(place, cards))
        best = made = 0
        length = product = 0
        last = -2
        for p in sorted(set(ps)):
            if p < 0:
                continue
            if p == last + 1:
                length += 1
                product *= ps.count(p)
            else:
                length, product = 1, ps.count(p)
            last = p
            if length > best:
                best, made = length, product
            elif length == best:
                made += product
        return made if ways else best
    return count


def groups_counter(key_of: Sequence[int], what: str) -> Callable[[Sequence[int]], int]:
    """``number of pairs in Z`` (``what`` "pairs", ``key_of`` the ranks): the pairs of cards
    with the same key (three of a rank are three pairs, four six); ``most cards of one rank/suit
    in Z`` ("most"): the most cards with one key, cards whose key is below 0 (no suit) left out."""
    key = key_of.__getitem__

    def held(cards: Sequence[int]) -> list[int]:
        """How many cards of each key (none below 0)."""
        keys = [k for k in map(key, cards) if k >= 0]
        if len(keys) <= 16:                 # a hand: counted in C, each key once per card
            return list(map(keys.count, keys))
        by_key: dict[int, int] = {}
        for k in keys:
            by_key[k] = by_key.get(k, 0) + 1
        return [n for n in by_key.values() for _ in range(n)]

    def pairs(cards: Sequence[int]) -> int:
        counts = held(cards)
        # each card counted with every card of its key, itself too: n * n for n of a key
        return (sum(counts) - len(counts)) // 2

    def most(cards: Sequence[int]) -> int:
        return max(held(cards), default=0)
    return pairs if what == "pairs" else most
