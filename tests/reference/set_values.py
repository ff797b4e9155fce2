"""Whole sets of values in the reference interpreter (docs/language.md, "Writing and combining
sets"), written the plain way: a set is taken apart into a Python set of its values, combined by
Python's own operations, and put back as the number the state keeps (one bit per value).  The
generated code works on the number itself (``|``, ``&``, ``& ~``)."""
from __future__ import annotations

from rulelang.engine.control import GameProblem
from rulelang.kinds import SET_KINDS, Kind


class ReferenceSets:
    """The ``x_`` closures of whole sets (ClosureValues's ``cx``, ``refs``, ``types``)."""

    @staticmethod
    def values_in(m):
        """The values of the set kept as the number ``m``."""
        return {k for k in range(m.bit_length()) if m >> k & 1}

    def holds_of(self, e):
        """The values the set ``e`` may hold: every seat for players, else the checker's."""
        if self.types.of(e, None) == Kind.SET_PLAYERS:
            return set(range(self.n))
        return self.values_in(self.refs.of(e).value)

    def set_part(self, e, holds):
        """A side of a set written, as a Python set: a set's values, or one value alone."""
        f, span = self.cx(e), e.span
        if self.types.of(e, None) in SET_KINDS:
            return lambda g, fr: self.values_in(f(g, fr))

        def one(g, fr):
            v = int(f(g, fr))
            if v not in holds:
                raise GameProblem("RL330", f"written in a set: {v} is none of the values it "
                                  "holds", span)
            return {v}
        return one

    def x_SetWhole(self, e):
        m = sum(1 << k for k in self.holds_of(e)) if e.which == "every" else 0
        return lambda g, fr: m

    def x_SetOfCards(self, e):
        zone, holds = self.cx(e.zone), self.holds_of(e)
        table = self.suit_of if e.word in ("suit", "suits") else self.rank_of

        def shown(g, fr):
            return sum(1 << v for v in {table[c] for c in g.zones[zone(g, fr)]} if v in holds)
        return shown

    def x_SetCombine(self, e):
        holds = self.holds_of(e)
        a, b, op = self.set_part(e.left, holds), self.set_part(e.right, holds), e.op

        def combined(g, fr):
            x, y = a(g, fr), b(g, fr)
            out = x | y if op == "together" else x & y if op == "shared" else x - y
            return sum(1 << k for k in out)
        return combined

    def x_SetValues(self, e):
        holds = self.holds_of(e)
        parts = [self.set_part(i, holds) for i in e.items]

        def values(g, fr):
            out = set()
            for p in parts:
                out |= p(g, fr)
            return sum(1 << k for k in out)
        return values
