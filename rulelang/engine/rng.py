"""The game's one random generator.

A 64-bit linear congruential generator (Knuth's MMIX constants) whose output is its high bits.
Its whole state is one integer, so a game state that holds it stays plain data: cloned for free,
saved to JSON as a number, and the same on every Python version (the standard library's
``random`` may change its algorithms between versions, which would change every seeded game).
Its quality is ample for shuffling cards and rolling dice; it is not for cryptography.

A seed is a 64-bit number (a larger or negative one is taken modulo 2**64).  Seeding mixes all
64 bits, one-to-one: two different 64-bit seeds always start different sequences.
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
# A shuffle written out for one length: (the cards, the state) -> the state after.
Plan = Callable[[list[Any], int], int]

_A = 6364136223846793005
_C = 1442695040888963407
_M = (1 << 64) - 1

# Shuffles of SHORT to PLANNED cards are made by a function written out once per length
# (_plan): at most 254 of them, about 7.5 MB in all (0.4 s to make every one).  Other lists are
# shuffled one draw at a time (for two cards that is as fast; for many, the functions would take
# too much memory), and so are the first WRITTEN_AFTER shuffles of a length: writing its
# function costs about 15 µs a card, as much as some 270 shuffles save, so a length shuffled
# only now and then (a discard pile shuffled back in) is never written, and one shuffled often
# loses at most the little that WRITTEN_AFTER shuffles would have saved.
# Longer lists (a deck of several packs for many players: 432 cards for two packs of 54 for
# each of four players) are written out too, once shuffled WRITTEN_AFTER times, but
# at most LONG_PLANS lengths of them up to LONGEST cards (a game shuffles one or two deck
# lengths over and over; a function of 1,000 cards takes about 0.5 MB): the others go one draw
# at a time.
SHORT = 3
PLANNED = 256
LONGEST = 4096
LONG_PLANS = 8
WRITTEN_AFTER = 64
_PLANS: dict[int, Plan] = {}
_SHUFFLED: dict[int, int] = {}        # length -> its shuffles so far, until its function is written
_new = object.__new__


def _plan(n: int) -> Plan:
    """The function ``(x, s) -> the state after`` that shuffles the ``n`` cards of ``x`` (SHORT
    <= n <= LONGEST) from the state ``s`` as :meth:`Rng.shuffle_stepwise` does, without stepping
    the generator one draw at a time, written out for ``n``.  The k-th state after ``s`` is
    ``(P_k * s + Q_k) mod 2**64`` (P_k = A**k, Q_k = C * (A**(k-1) + ... + 1)); the P_k are
    packed into one number, 128 bits apart, so that one multiplication by ``s`` (and one
    addition of the packed Q_k) gives every state of the shuffle at once, none overflowing
    into the next (P_k * s + Q_k < 2**128).  A mask keeps the low 64 bits of each but bit 32,
    and ``struct`` reads bits 32 to 63: twice the number a draw gives (bits 33 to 63), so that
    the place it draws among i + 1 is ``(h * (i + 1)) >> 32``.  The exchanges are then written
    one per line, each with its place a constant and its number a local (a third fewer
    operations than a loop).  Only numbers are in the source."""
    big = qq = mask = 0
    p, q = 1, 0
    for k in range(1, n):
        p = (p * _A) & _M
        q = (q * _A + _C) & _M
        big |= p << (128 * (k - 1))
        qq |= q << (128 * (k - 1))
        mask |= (_M ^ (1 << 32)) << (128 * (k - 1))
    h = [f"h{k}" for k in range(n - 1)]
    states = f"((_big * s + _qq) & _mask).to_bytes({16 * (n - 1)}, 'little')"
    lines = ["def shuffle(x, s):", f"    {', '.join(h)}, = _unpack({states})"]
    for k, hk in enumerate(h):
        i = n - 1 - k                                  # the place filled at the k-th draw
        lines.append(f"    j = ({hk} * {i + 1}) >> 32; x[{i}], x[j] = x[j], x[{i}]")
    lines.append(f"    return ({p} * s + {q}) & {_M}")
    ns: dict[str, Any] = {"_unpack": struct.Struct("<" + "4xI8x" * (n - 1)).unpack,
          "_big": big, "_qq": qq, "_mask": mask}
    exec(compile("\n".join(lines), f"<the shuffle of {n} cards>", "exec"), ns)
    fn: Plan = ns["shuffle"]
    _PLANS[n] = fn
    return fn


def _long_plans() -> int:
    """How many lengths above PLANNED have their shuffle written out."""
    return sum(1 for n in _PLANS if n > PLANNED)


def seeded(seed: int = 0) -> "Rng":
    """``Rng(seed)``, made with one call that runs no ``__init__`` (every new game makes one)."""
    r = _new(Rng)
    # Mix the seed so that nearby seeds give unrelated games.
    s = (int(seed) * 0x9E3779B97F4A7C15 + 0xD1B54A32D192ED03) & _M
    s ^= s >> 31
    r.s = (s * _A + _C) & _M
    return r


class Rng:
    __slots__ = ("s",)
    s: int

    def __init__(self, seed: int = 0) -> None:
        self.s = seeded(seed).s

    def copy(self) -> "Rng":
        r = Rng.__new__(Rng)
        r.s = self.s
        return r

    def randbelow(self, n: int) -> int:
        """A number from 0 to n - 1 (n < 2**31)."""
        s = (self.s * _A + _C) & _M
        self.s = s
        return ((s >> 33) * n) >> 31

    def randrange(self, n: int) -> int:
        return self.randbelow(n)

    def randint(self, a: int, b: int) -> int:
        return a + self.randbelow(b - a + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, x: list[Any]) -> None:
        """Fisher-Yates, in place: for i from the last place down to 1, the card at i changes
        places with the card at j, a number from 0 to i drawn from the next state.  From SHORT
        to PLANNED cards, once a length was shuffled WRITTEN_AFTER times, by the function
        written out for that length (_plan): the same cards in the same order, the same state
        after, as :meth:`shuffle_stepwise`; longer ones, up to LONGEST, likewise for the first
        LONG_PLANS lengths shuffled that often."""
        n = len(x)
        if n > LONGEST or n < SHORT:
            return self.shuffle_stepwise(x)
        fn = _PLANS.get(n)
        if fn is None:
            k = _SHUFFLED.get(n, 0)
            if k < WRITTEN_AFTER or (n > PLANNED and _long_plans() >= LONG_PLANS):
                _SHUFFLED[n] = k + 1
                return self.shuffle_stepwise(x)
            fn = _plan(n)
        self.s = fn(x, self.s)

    def shuffle_stepwise(self, x: list[Any]) -> None:
        """:meth:`shuffle`, one draw at a time."""
        s = self.s
        for i in range(len(x) - 1, 0, -1):
            s = (s * _A + _C) & _M
            j = ((s >> 33) * (i + 1)) >> 31
            x[i], x[j] = x[j], x[i]
        self.s = s
