"""What generated code calls while a game runs: the helpers named in its namespace.

The generators (:mod:`rulelang.compile.codegen`, :mod:`rulelang.compile.rulegen`) put these in the
namespace of the functions they write under short invented names (``_div``, ``_seat``, ``_dec``,
``_dispatch``...): arithmetic that stops the game with RL910/RL911, a player value used as a
player (RL908, RL912), the tops of zones, the tests of the loops of a resumable rule, the numbers
a player may choose, the dispatch after a simultaneous decision.
"""
from __future__ import annotations

from rulelang.limits import MAX_NUMBER
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK
from rulelang.engine.control import GameProblem


def _div(a, b, span=None):
    if b:
        return a // b
    raise GameProblem("RL911", f"{a} is divided by zero", span)


def _noseat(k, n, span=None):
    raise GameProblem("RL908", f"there is no player {k} when {n} "
                      f"player{'s play' if n != 1 else ' plays'}", span)


def _noplayer(span=None):
    raise GameProblem("RL912", "a player is `none` where the rules use it as a player", span)


def _seat(p, span=None):
    """A player value used as a player: `none` (-1) stops the game with RL912."""
    if p >= 0:
        return p
    _noplayer(span)


def _mod(a, b, span=None):
    if b:
        return a % b
    raise GameProblem("RL911", f"{a} mod 0: a number cannot be divided by zero", span)


def _mul(a, b, span=None):
    v = a * b
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise too_large(v, span)


def too_large(v, span=None):
    """RL910: a number computed beyond the bound of every number (rulelang/limits.py)."""
    return GameProblem("RL910", f"the number {v} is too large: numbers are at most {MAX_NUMBER} "
                       "(10^15) either way", span)


def _big(v, span):
    raise too_large(v, span)


def _top(z):
    return z[-1] if z else -1


def _bottom(z):
    return z[0] if z else -1


def _rnd(z, rng):
    """``random card of Z``: a card drawn at random (as the closures draw it), none if empty."""
    return z[rng.randrange(len(z))] if z else -1


def _dec(fr, i):
    """The test of ``repeat N times``: count one down, or say the loop is over."""
    if fr[i] <= 0:
        return False
    fr[i] -= 1
    return True


def _nextcard(fr, ci, li, ii):
    """The test of ``for each card``: take the next card, or say the loop is over."""
    k = fr[ii]
    cards = fr[li]
    if k >= len(cards):
        return False
    fr[ci] = cards[k]
    fr[ii] = k + 1
    return True


def _nextvalue(fr, vi, ii, values):
    """The test of ``for each suit`` / ``for each rank``: the next value, or the loop is over."""
    k = fr[ii]
    if k >= len(values):
        return False
    fr[vi] = values[k]
    fr[ii] = k + 1
    return True


def _numbers(lo, hi, span):
    """The values of ``number n from LO to HI``: at most what an action can carry."""
    if lo < 0 or hi > VALUE_MASK:
        raise GameProblem("RL903", f"a number chosen from {lo} to {hi}: only 0 to "
                          f"{VALUE_MASK} can be chosen", span)
    return range(lo, hi + 1)


def _bad_pc(pc):
    return AssertionError(f"no block {pc}")


def _no_choice(p, span):
    raise GameProblem("RL904", f"player {p + 1} has no legal choice here", span)


def _dispatch(fr, xi, ci, alts):
    """Next secret choice to run after a simultaneous decision: its block, or -1 when done."""
    ch = fr[xi]
    if not ch:
        return -1
    p, a = ch[0]
    fr[xi] = ch[1:]
    fr[ci] = p
    alt = alts[a >> ACTION_SHIFT]
    if alt.slot >= 0:
        fr[alt.slot] = a & ((1 << ACTION_SHIFT) - 1)
    return alt.body_pc
