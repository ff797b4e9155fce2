"""Run-time helpers of the generated code (and of the tests' reference interpreter) about values: the highest and
lowest of a list, the best of (value, thing) pairs (``highest card in Z by V``, ``player with
highest V``), and the numbers of ``any number n from A to B``.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rulelang.engine.control import GameProblem
from rulelang.limits import MAX_RANGE


def highest(xs: Sequence[int]) -> int:
    return max(xs) if xs else 0


def lowest(xs: Sequence[int]) -> int:
    return min(xs) if xs else 0


def best_of(pairs: Iterable[tuple[Any, int]], high: bool) -> int:
    """The thing of the (value, thing) pairs with the highest (or lowest) value, the first of
    equals; -1 (none) if there are none: `highest card in Z by V`, `player with highest V`."""
    best, out = None, -1
    for v, x in pairs:
        if best is None or (v > best if high else v < best):
            best, out = v, x
    return out


# ---- `any number n from A to B where C` ------------------------------------
def number_range(lo: int, hi: int, span: Any = None) -> range:
    """The numbers from lo to hi, both included (none when hi < lo); more than MAX_RANGE stops
    the game with RL257 (each is a test of a condition)."""
    if hi - lo >= MAX_RANGE:
        raise GameProblem("RL257", f"a range from {lo} to {hi} holds more than the {MAX_RANGE} "
                          f"numbers a range may hold", span)
    return range(lo, hi + 1)
