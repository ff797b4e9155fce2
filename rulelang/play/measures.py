"""Game-quality measures over the games ``stats`` plays: who leads, lead changes, drama,
decisiveness, uncertainty, stability, the trend of each seat's standing over a game and the
advantage of the first seat.

The measures need a notion of who leads at each turn.  A rule file may declare one,
``progress: EXPR`` (how far a player has got, higher is further: e.g. the cards shed); without
it the game's score (its ``score:`` declaration) serves.  The seat with the best value leads,
alone; when two seats share the best value nobody leads.  The best progress is the highest; the
best score is the highest, or the lowest in a game that ends ``by lowest score`` (and never ``by
highest score``).  A game with neither has no leader, and its report says so instead of giving
the lead measures; the first seat's advantage needs only the winners.

While measuring, a game records each seat's standing (its progress, or else its score) when
each turn begins (at the turn's first decision) and once more when the game is over: its
*trace*, one tuple of values per point.  :func:`traced_game` plays such a game; :func:`per_game`
keeps a few numbers of it; :func:`measure` turns them into the report's ``measures``.
Definitions, formulas and sources: docs/workbench.md.  All functions here are pure: no printing.
"""
from __future__ import annotations

from typing import Optional

import attrs

# The checkpoints of the uncertainty curve: fractions of a game's turns.
CHECKPOINTS = tuple(i / 10 for i in range(11))


# ---------------------------------------------------------------------------------------------
# Who leads
# ---------------------------------------------------------------------------------------------

def _end_kinds(node, seen, out) -> None:
    """The kinds of every ``end game`` statement under ``node`` (an AST node, tuple or list)."""
    if isinstance(node, (tuple, list)):
        for x in node:
            _end_kinds(x, seen, out)
        return
    if not attrs.has(type(node)) or id(node) in seen:
        return
    seen.add(id(node))
    if type(node).__name__ == "EndGame":
        out.add(node.kind)
    for f in attrs.fields(type(node)):
        _end_kinds(getattr(node, f.name), seen, out)


def score_sense(model) -> Optional[str]:
    """``"highest"`` when a higher score leads, ``"lowest"`` when a lower one does (a game that
    ends ``by lowest score`` and never ``by highest score``), None when the game has no score."""
    if getattr(model, "score", None) is None:
        return None
    kinds: set = set()
    seen: set = set()
    for r in model.rules.values():
        _end_kinds(r.decl, seen, kinds)
    for e in model.endings:
        _end_kinds(e[0], seen, kinds)
    return "lowest" if "lowest" in kinds and "highest" not in kinds else "highest"


def lead_sense(model) -> Optional[str]:
    """How the measures tell who leads: ``"progress"`` when the rule file declares a
    ``progress:`` (the highest leads), else :func:`score_sense`; None with neither."""
    if getattr(model, "progress", None) is not None:
        return "progress"
    return score_sense(model)


WHO_LEADS = {"highest": "the highest score", "lowest": "the lowest score",
             "progress": "the highest progress (the rule file's `progress:`)"}


def leader(scores, sense: str) -> Optional[int]:
    """The seat whose score is strictly the best, or None (no scores, or a tie for the best)."""
    if not scores:
        return None
    best = min(scores) if sense == "lowest" else max(scores)
    first = scores.index(best)
    return None if best in scores[first + 1:] else first


# ---------------------------------------------------------------------------------------------
# Playing a game while recording its trace
# ---------------------------------------------------------------------------------------------

def _scores(cg, g) -> Optional[tuple]:
    """Each seat's standing now (its declared progress, or else its score), or None when it
    cannot be computed here (e.g. a division by zero).  What computing it may change is put
    back: the generator (a score may draw a random card), the steps and the work of the budget.
    So the game goes on as it would unmeasured."""
    rng, steps, work = g.rng.s, g.steps, g.work
    of = cg.progress_of if getattr(cg, "progress_fn", None) is not None else cg.score_of
    try:
        return tuple(of(g, p) for p in range(cg.n))
    except Exception:
        return None
    finally:
        g.rng.s, g.steps, g.work = rng, steps, work


def compiled_for_measures(game, players: int, coverage=None):
    """The compiled game of ``game`` (a loaded game) for :func:`traced_game`: its own, whose
    playouts keep the count of turns in the state as they go (a game that never reads the
    count lets its playouts count the turns in a local and write them once, so the measures
    could not tell one turn from the next).  The games are the same."""
    from rulelang.compile.compiler import CompiledGame
    game.compiled(players)                  # its compile-time diagnostics, if any
    cg = CompiledGame(game.model, players, coverage=coverage)
    cg.reads_turns = True                   # (before its playout variants are made)
    return cg


def traced_game(play_game, cg, names, seed, max_steps=None, cov=None, index=None):
    """``play_game``'s record of the same game (:func:`rulelang.play.stats.play_game`, given by
    the caller), and its trace (a tuple of
    standings, by :func:`_scores`: one when each turn begins, one at the end; empty when the
    game has neither a progress nor a score).  The game is the same move for move: the agents are wrapped, not changed.  ``cg``
    comes from :func:`compiled_for_measures`."""
    from rulelang.play.agents import fast_policy_of
    if cg.model.score is None and getattr(cg.model, "progress", None) is None:
        return play_game(cg, names, seed, max_steps, cov, index), ()
    trace: list = []
    seen = [-1]

    def note(g):
        if g.turns != seen[0]:
            seen[0] = g.turns
            s = _scores(cg, g)
            if s is not None:
                trace.append(s)
    policy = fast_policy_of(names, seed)
    if policy is not None:
        g = cg.new_game(seed=seed, max_steps=max_steps)     # (the same game as cg.playout's)

        def wrap(f):
            def choose(k):
                note(g)
                return f(k)
            return choose
        if g.terminal:
            asked = choices = forced = 0
        else:
            asked, choices, forced = g.playout([wrap(f) for f in policy])
        problem = (g.problem or {}).get("code", "") if g.outcome == "error" else ""
        rec = (seed if index is None else index, g.outcome, tuple(g.winners), g.decisions,
               g.turns, problem, choices, asked, forced)
    else:
        rec = play_game(cg, names, seed, max_steps, cov, index, watch=note)
        g = rec[-1]
        rec = rec[:-1]
    s = _scores(cg, g)
    if s is not None:
        trace.append(s)
    return rec, tuple(trace)


# ---------------------------------------------------------------------------------------------
# The measures
# ---------------------------------------------------------------------------------------------

def lead_changes(leaders: list) -> int:
    """How often the lead passes from one seat to another (a tie between is no leader, and the
    lead that a tie interrupts and the same seat takes again has not changed hands)."""
    changes, last = 0, None
    for x in leaders:
        if x is None:
            continue
        if last is not None and x != last:
            changes += 1
        last = x
    return changes


def behind_share(leaders: list, winner: int) -> float:
    """The share of a game's points at which another seat led the eventual winner."""
    if not leaders:
        return 0.0
    return sum(1 for x in leaders if x is not None and x != winner) / len(leaders)


def decided_at(leaders: list, winner: int) -> float:
    """How early the winner is clear: ``t / (T - 1)`` for the first point ``t`` (of ``T``) from
    which the winner leads alone to the end; 1.0 when the winner does not lead at the end, 0.0
    when it leads from the first point."""
    t = len(leaders)
    if t < 2:
        return 1.0 if t == 0 or leaders[0] != winner else 0.0
    i = t
    while i > 0 and leaders[i - 1] == winner:
        i -= 1
    if i == t:
        return 1.0
    return i / (t - 1)


def _mean(xs) -> Optional[float]:
    return sum(xs) / len(xs) if xs else None


def stability(trace) -> Optional[tuple]:
    """How steadily the seats' standings move in one game: ``(V, setbacks, steps)``.  ``V`` is
    the mean over the seats of the variance over the points of the seat's standing divided by
    ``R``, the range of all the standings of the game (max - min; V = 0 when R = 0); a setback
    is a step from one point to the next at which a seat's standing goes the wrong way (down for
    a progress or a highest score, up for a lowest score: see :func:`per_game`), counted over
    ``steps`` = the seats times the steps.  None with fewer than two points."""
    if len(trace) < 2:
        return None
    n = len(trace[0])
    values = [x for s in trace for x in s]
    r = max(values) - min(values)
    var = 0.0
    if r:
        for p in range(n):
            xs = [s[p] / r for s in trace]
            m = sum(xs) / len(xs)
            var += sum((x - m) ** 2 for x in xs) / len(xs)
        var /= n
    falls = sum(1 for a, b in zip(trace, trace[1:]) for p in range(n) if b[p] < a[p])
    return (var, falls, n * (len(trace) - 1))


def levels(trace) -> Optional[tuple]:
    """Each seat's standing at the checkpoints (``round(f (T-1))`` for ``f`` in
    :data:`CHECKPOINTS`): a tuple per checkpoint of one value per seat.  None without points."""
    if not trace:
        return None
    last = len(trace) - 1
    return tuple(tuple(trace[round(f * last)]) for f in CHECKPOINTS)


def per_game(trace, outcome: str, winners, sense: Optional[str]) -> Optional[tuple]:
    """What the measures keep of one game (a few numbers, not its trace): ``(lead changes, share
    of the points at which the winner was behind, decided at, for each checkpoint whether its
    leader is the winner, the standings at the checkpoints (:func:`levels`), the stability
    (:func:`stability`))``; the second to fourth None unless the game has a sole winner and
    points; None when the game has no notion of who leads (``sense`` None)."""
    if sense is None:
        return None
    leaders = [leader(s, sense) for s in trace]
    c = lead_changes(leaders)
    # a setback is a step the wrong way: for a lowest score, up
    st = stability(tuple(tuple(-x for x in s) for s in trace) if sense == "lowest" else trace)
    lv = levels(trace)
    if outcome == "error" or len(winners) != 1 or not leaders:
        return (c, None, None, None, lv, st)
    w = winners[0]
    last = len(leaders) - 1
    return (c, behind_share(leaders, w), decided_at(leaders, w),
            tuple(leaders[round(f * last)] == w for f in CHECKPOINTS), lv, st)


def trends(per_point) -> Optional[dict]:
    """Each seat's standing at each checkpoint over the games: the mean, the standard deviation
    (of all the games, not a sample) and the 10th and 90th percentiles; None without games.
    ``per_point[i][p]`` counts the standings of seat ``p`` at checkpoint ``i`` (value -> games:
    :class:`Gathered`), so that the figures are the same whatever the order of the games."""
    if not per_point or not per_point[0] or not sum(per_point[0][0].values()):
        return None
    n = len(per_point[0])
    seats = []
    for p in range(n):
        mean, sd, p10, p90 = [], [], [], []
        for i in range(len(CHECKPOINTS)):
            counts = per_point[i][p]
            items = sorted(counts.items())
            k = sum(counts.values())
            m = _exact_mean(counts)
            mean.append(m)
            sd.append((sum(c * (x - m) ** 2 for x, c in items) / k) ** 0.5)
            p10.append(_counted_quantile(items, k, 0.1))
            p90.append(_counted_quantile(items, k, 0.9))
        seats.append({"seat": p + 1, "mean": mean, "sd": sd, "p10": p10, "p90": p90})
    return {"checkpoints": list(CHECKPOINTS), "games": sum(per_point[0][0].values()),
            "seats": seats}


def _nth(items, i):
    """The ``i``-th value (from 0) of the sorted counts ``items`` ((value, count) pairs)."""
    for v, c in items:
        if i < c:
            return v
        i -= c
    return items[-1][0]


def _counted_quantile(items, k: int, q: float) -> float:
    """The ``q`` quantile of ``k`` values counted in the sorted ``items``, interpolated between
    the two values around it (as numpy's default)."""
    pos = (k - 1) * q
    lo = int(pos)
    a, b = _nth(items, lo), _nth(items, min(lo + 1, k - 1))
    return a + (b - a) * (pos - lo)


NO_LEAD = ("the game has neither a score nor a declared progress, so no seat is said to lead "
           "(declare one, e.g. `progress: 0 - size of hand`)")


class Gathered:
    """What :func:`measure` needs of many games' :func:`per_game` summaries, as counts (value ->
    games) that merge: the same measures whatever the order the games are added in."""

    def __init__(self):
        from collections import Counter
        from fractions import Fraction
        self.changes = Counter()        # lead changes -> games (games of a game with a score)
        self.behind = Counter()         # share of points behind -> games with a sole winner
        self.decided = Counter()        # decided at -> games with a sole winner
        self.hits = [0] * len(CHECKPOINTS)
        # the standings at each checkpoint, per seat: value -> games (made at the first game)
        self.levels: list = []
        # stability: games, the sum of their V (exact), setbacks, steps, games with a setback
        self.stab_games, self.stab_var, self.setbacks, self.steps, self.with_setbacks = \
            0, Fraction(0), 0, 0, 0

    def add(self, g) -> None:
        if g is None:
            return
        c, b, d, hits, lv, st = g
        self.changes[c] += 1
        if lv is not None:
            if not self.levels:
                from collections import Counter
                self.levels = [[Counter() for _ in point] for point in lv]
            for counts, point in zip(self.levels, lv):
                for cs, x in zip(counts, point):
                    cs[x] += 1
        if st is not None:
            from fractions import Fraction
            self.stab_games += 1
            self.stab_var += Fraction(st[0])
            self.setbacks += st[1]
            self.steps += st[2]
            self.with_setbacks += 1 if st[1] else 0
        if b is None:
            return
        self.behind[b] += 1
        self.decided[d] += 1
        for i, h in enumerate(hits):
            self.hits[i] += h

    def merge(self, o: "Gathered") -> "Gathered":
        self.changes.update(o.changes)
        self.behind.update(o.behind)
        self.decided.update(o.decided)
        for i, h in enumerate(o.hits):
            self.hits[i] += h
        if o.levels and not self.levels:
            from collections import Counter
            self.levels = [[Counter() for _ in point] for point in o.levels]
        for mine, theirs in zip(self.levels, o.levels):
            for cs, other in zip(mine, theirs):
                cs.update(other)
        self.stab_games += o.stab_games
        self.stab_var += o.stab_var
        self.setbacks += o.setbacks
        self.steps += o.steps
        self.with_setbacks += o.with_setbacks
        return self


def _exact_mean(counts) -> Optional[float]:
    """The mean of the values counted (value -> count), summed exactly: the same for any
    order of the games."""
    from fractions import Fraction
    n = sum(counts.values())
    if not n:
        return None
    return float(sum(Fraction(v) * c for v, c in counts.items()) / n)


def _counted_median(counts) -> Optional[float]:
    n = sum(counts.values())
    if not n:
        return None
    items = sorted(counts.items())

    def nth(i):
        for v, c in items:
            if i < c:
                return v
            i -= c
    m = n // 2
    return nth(m) if n % 2 else (nth(m - 1) + nth(m)) / 2


def measure(sense: Optional[str], games, first_seat: Optional[dict] = None) -> dict:
    """The measures of the games whose :func:`per_game` summaries are ``games`` (a list, or
    their :class:`Gathered`); ``sense`` is :func:`lead_sense` of the game; ``first_seat``, the
    first seat's advantage (:func:`rulelang.play.stats.first_seat`)."""
    out = {"who_leads": WHO_LEADS.get(sense), "lead_by": ("progress" if sense == "progress"
                                                          else "score" if sense else None),
           "first_seat": first_seat}
    if sense is None:
        out["lead"] = None
        out["no_lead"] = NO_LEAD
        out["stability"] = out["trend"] = None
        return out
    if not isinstance(games, Gathered):
        gathered = Gathered()
        for g in games:
            gathered.add(g)
        games = gathered
    changes, behind = games.changes, games.behind
    n, won = sum(changes.values()), sum(behind.values())
    curve = [1 - h / won for h in games.hits] if won else None
    out["lead"] = {
        "games": n, "games_with_a_sole_winner": won,
        "lead_changes": {"mean": _exact_mean(changes), "max": max(changes) if changes else 0,
                         "games_with_any": (n - changes.get(0, 0)) / n if n else None},
        "drama": {"games_winner_behind": (won - behind.get(0, 0)) / won if won else None,
                  "mean_share_behind": _exact_mean(behind)},
        "decisiveness": {"mean_decided_at": _exact_mean(games.decided),
                         "median_decided_at": _counted_median(games.decided)},
        "uncertainty": {"checkpoints": list(CHECKPOINTS), "curve": curve,
                        "mean": _mean(curve[1:-1]) if curve else None},
    }
    k = games.stab_games
    out["stability"] = {
        "games": k, "mean_variance": float(games.stab_var / k),
        "setbacks": games.setbacks / games.steps if games.steps else None,
        "games_with_setbacks": games.with_setbacks / k,
    } if k else None
    out["trend"] = trends(games.levels)
    return out
