"""What a balance report needs of many games, gathered where they are played.

A :class:`Tally` counts the records of games (:mod:`rulelang.play.stats`): wins per seat, draws,
errors, the counts of the decisions, the lengths of the games as counts per length (a length
is a whole number, so a few hundred counts stand for any number of games), the coverage
counts and the game-quality measures (:class:`rulelang.play.measures.Gathered`).  Tallies of
chunks of games merge into the tally of all of them, and the report made from it is the same
whatever the order the chunks are merged in: every count is a whole number, and the sums of
fractions are exact.  A worker (a process of ``--workers``, a Ray task) sends back its chunk's
tally rather than each game's record, so what the driver receives and keeps does not grow
with the number of games.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Optional

# The fields of a game's record (kept in step with rulelang/play/stats.py).
IDX, OUTCOME, WINNERS, DECISIONS, TURNS, PROBLEM, CHOICES, ASKED, FORCED = range(9)
MEASURED = 9


class Tally:
    """The counts of games' records, mergeable (see the module's docstring)."""

    def __init__(self, players: int, points: int = 0, measured: bool = False):
        self.players = players
        self.games = 0
        self.wins = [0] * players             # sole wins of games that did not fail
        self.shared_of = [0] * players        # wins shared with another seat
        self.together: Counter = Counter()    # the seats of a shared win -> games (a team's wins)
        self.draws = self.shared = self.budget = self.errors = 0
        self.first_error: Optional[int] = None    # the index of the first game that failed
        self.decisions: Counter = Counter()   # decisions per game -> games
        self.turns: Counter = Counter()
        self.asked = self.choices = self.forced = 0
        self.points = points                  # coverage points (0: no coverage)
        self.taken = [0] * points             # times each point ran, over all games
        self.games_of = [0] * points          # games in which it ran
        self.measured = None
        if measured:
            from rulelang.play.measures import Gathered
            self.measured = Gathered()

    def add(self, r) -> None:
        """Count one game's record (with coverage, its last field is its counts)."""
        self.games += 1
        w = r[WINNERS]
        if r[OUTCOME] == "error":
            self.errors += 1
            self.budget += r[PROBLEM] == "RL901"
            if self.first_error is None or r[IDX] < self.first_error:
                self.first_error = r[IDX]
        elif len(w) == 1:
            self.wins[w[0]] += 1
        elif len(w) > 1:
            self.shared += 1
            for p in w:
                self.shared_of[p] += 1
            self.together[tuple(sorted(w))] += 1
        else:
            self.draws += 1
        self.decisions[r[DECISIONS]] += 1
        self.turns[r[TURNS]] += 1
        self.asked += r[ASKED]
        self.choices += r[CHOICES]
        self.forced += r[FORCED]
        if self.measured is not None:
            self.measured.add(r[MEASURED])
        if self.points:
            taken, games_of = self.taken, self.games_of
            for i, c in enumerate(r[-1]):
                if c:
                    taken[i] += c
                    games_of[i] += 1

    def merge(self, o: "Tally") -> "Tally":
        """Add the counts of ``o`` (the tally of other games) to these; returns self."""
        self.games += o.games
        for p in range(self.players):
            self.wins[p] += o.wins[p]
            self.shared_of[p] += o.shared_of[p]
        self.together.update(o.together)
        self.draws += o.draws
        self.shared += o.shared
        self.budget += o.budget
        self.errors += o.errors
        if o.first_error is not None and (self.first_error is None
                                          or o.first_error < self.first_error):
            self.first_error = o.first_error
        self.decisions.update(o.decisions)
        self.turns.update(o.turns)
        self.asked += o.asked
        self.choices += o.choices
        self.forced += o.forced
        for i in range(self.points):
            self.taken[i] += o.taken[i]
            self.games_of[i] += o.games_of[i]
        if self.measured is not None:
            self.measured.merge(o.measured)
        return self


def of_records(records, players: int, points: int = 0, measured: bool = False) -> Tally:
    """The tally of a list of records."""
    t = Tally(players, points, measured)
    for r in records:
        t.add(r)
    return t


# ---------------------------------------------------------------------------------------------
# Distributions given as counts (value -> how many)
# ---------------------------------------------------------------------------------------------

def _nth(items: list, i: int):
    """The value at position ``i`` of the sorted list the counts ``items`` (sorted pairs
    (value, count)) stand for."""
    for v, c in items:
        if i < c:
            return v
        i -= c
    return items[-1][0]


def quantile(items: list, n: int, q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics (as
    :func:`rulelang.play.stats.quantile` on the list itself)."""
    if not n:
        return 0.0
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    a, b = _nth(items, lo), _nth(items, hi)
    return a + (b - a) * (pos - lo)


def histogram_of(items: list, bins: int = 20) -> dict:
    """:func:`histogram` of whole numbers given as sorted pairs (value, count)."""
    if not items:
        return {"edges": [], "counts": []}
    lo, hi = items[0][0], items[-1][0]
    width = max(1, math.ceil((hi - lo + 1) / bins))
    k = max(1, math.ceil((hi - lo + 1) / width))
    counts = [0] * k
    for x, c in items:
        counts[(x - lo) // width] += c
    return {"edges": [lo + i * width for i in range(k + 1)], "counts": counts}


def describe(counts: Counter) -> dict:
    """Mean, median, p10, p90, min, max, standard deviation and a histogram of whole numbers
    given as counts."""
    items = sorted(counts.items())
    n = sum(c for _, c in items)
    if not n:
        return {"mean": 0.0, "median": 0.0, "p10": 0.0, "p90": 0.0, "min": 0, "max": 0,
                "sd": 0.0, "histogram": {"edges": [], "counts": []}}
    s1 = sum(v * c for v, c in items)
    s2 = sum(v * v * c for v, c in items)
    # the sample variance, exact in whole numbers before the one division
    var = (n * s2 - s1 * s1) / (n * (n - 1)) if n > 1 else 0.0
    return {"mean": s1 / n, "median": quantile(items, n, 0.5), "p10": quantile(items, n, 0.1),
            "p90": quantile(items, n, 0.9), "min": items[0][0], "max": items[-1][0],
            "sd": math.sqrt(var), "histogram": histogram_of(items)}
