"""The reference interpreter's counts of combinations (docs/language.md, "Combinations of
cards"), each written the plain way, from the definition, with no shared code with
rulelang/engine/combos.py: every set of cards tried for a total; every stretch of ranks tried
for runs; every two cards tried for pairs."""
from __future__ import annotations

from itertools import combinations

from rulelang.engine.control import GameProblem
from rulelang.limits import MAX_COMBINATION_CARDS


def count_totalling(cards, target, values, span):
    if len(cards) > MAX_COMBINATION_CARDS:
        raise GameProblem("RL293", f"combinations are counted among at most "
                          f"{MAX_COMBINATION_CARDS} cards, not {len(cards)}", span)
    found = 0
    for size in range(1, len(cards) + 1):
        for chosen in combinations(cards, size):
            if sum(values[c] for c in chosen) == target:
                found += 1
    return found


def runs(cards, rank_of, rank_cycle):
    """(the longest run's length, the number of sets of cards that make one)."""
    for length in range(len(rank_cycle), 0, -1):
        made = 0
        for start in range(len(rank_cycle) - length + 1):
            ways = 1
            for r in rank_cycle[start:start + length]:
                ways *= sum(1 for c in cards if rank_of[c] == r)
            made += ways
        if made:
            return length, made
    return 0, 0


def pairs(cards, rank_of):
    return sum(1 for a, b in combinations(cards, 2) if rank_of[a] == rank_of[b])


def most_alike(cards, key_of):
    keys = [key_of[c] for c in cards if key_of[c] >= 0]
    return max((keys.count(k) for k in keys), default=0)
