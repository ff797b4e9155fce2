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

_A = 6364136223846793005
_C = 1442695040888963407
_M = (1 << 64) - 1


class Rng:
    __slots__ = ("s",)

    def __init__(self, seed: int = 0):
        # Mix the seed so that nearby seeds give unrelated games.
        s = (int(seed) * 0x9E3779B97F4A7C15 + 0xD1B54A32D192ED03) & _M
        s ^= s >> 31
        self.s = (s * _A + _C) & _M

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

    def choice(self, seq):
        return seq[self.randbelow(len(seq))]

    def shuffle(self, x: list) -> None:
        """Fisher-Yates, in place."""
        s = self.s
        for i in range(len(x) - 1, 0, -1):
            s = (s * _A + _C) & _M
            j = ((s >> 33) * (i + 1)) >> 31
            x[i], x[j] = x[j], x[i]
        self.s = s
