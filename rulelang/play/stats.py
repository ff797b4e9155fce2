"""Balance reports over many seeded games (``rulelang stats``, ``compare``, ``run --games``).

:func:`play_games` plays games ``seed .. seed+K-1`` (on several processes, see
:mod:`rulelang.play.parallel`) and keeps one small record per game; :func:`summarize` turns the
records into the report: wins per seat with a 95% Wilson interval and a test of seat advantage,
draws, shared wins and games without a winner as such, games stopped by the step budget, the
length of the games, the shape of the decisions and the rule coverage.  :func:`compare_reports`
sets two reports side by side and tests their differences.

The statistics are written out here (no scipy): the Wilson interval, the exact binomial test,
the chi-square test (regularized incomplete gamma), Welch's t-test (regularized incomplete
beta) and the two-proportion z-test.
"""
from __future__ import annotations

import math
from typing import Optional

Z95 = 1.959963984540054
ALPHA = 0.05

# One record per game: (index, outcome, winners, decisions, turns, problem code or "",
#                       legal choices summed over decisions, decisions, forced decisions)
IDX, OUTCOME, WINNERS, DECISIONS, TURNS, PROBLEM, CHOICES, ASKED, FORCED = range(9)
# With measures, then what they keep of the game (measures.per_game); with coverage, last the counts.
MEASURED = 9


# ---------------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------------

_CACHE: dict = {}
_POLICIES: dict = {}


def _prepared(job):
    """The compiled game of ``job`` (and its coverage counter), made once per process."""
    import os
    try:
        st = os.stat(job["path"])
        stamp = (st.st_mtime_ns, st.st_size)       # the file may have changed since
    except OSError:
        stamp = None
    key = (job["path"], stamp, tuple(sorted(job["overrides"].items())), job["players"],
           job["coverage"], job.get("text"), job.get("measures", False))
    got = _CACHE.get(key)
    if got is None:
        from rulelang.compile.compiler import CompiledGame
        from rulelang.compile.coverage import Coverage
        from rulelang.compile.loader import load
        game = load(job["path"], job["overrides"], job.get("text"), include=job.get("include", ()))
        if job.get("measures"):                    # its own compiled game (measures.py)
            from rulelang.play.measures import compiled_for_measures
            cov = Coverage(game.model) if job["coverage"] else None
            cg = compiled_for_measures(game, job["players"], cov)
        elif job["coverage"]:
            cov = Coverage(game.model)
            game.compiled(job["players"])          # its compile-time diagnostics, if any
            cg = CompiledGame(game.model, job["players"], coverage=cov)
        else:
            cov, cg = None, game.compiled(job["players"])
        got = _CACHE[key] = (cg, cov)
    return got


def play_game(cg, names, seed, max_steps=None, cov=None, index=None, watch=None):
    """Play one game between the agents ``names`` (seeded from ``seed``); its record.  With
    ``watch`` (a function of the state, called before each decision), the agents' own way is
    taken even for ``random`` and ``first`` (the same game), and the record ends with the final
    state (:func:`rulelang.play.measures.traced_game`)."""
    from rulelang.play.agents import View, each_decision, fast_policy_of, make_agent
    policy = fast_policy_of(names, seed) if watch is None else None
    if policy is not None:           # the fast path: the same game, without the API per decision
        st, (asked, choices, forced) = cg.playout_counted(seed, policy, max_steps)
        problem = (st.problem or {}).get("code", "") if st.outcome == "error" else ""
        return (seed if index is None else index, st.outcome, tuple(st.winners), st.decisions,
                st.turns, problem, choices, asked, forced)
    agents = [make_agent(nm, p, seed) for p, nm in enumerate(names)]
    st = cg.new_game(seed=seed, max_steps=max_steps)
    watching = [ag for ag in agents if hasattr(ag, "observe")]
    simple = all(nm in ("random", "first") for nm in names)
    choices = asked = forced = 0

    def step(p):
        nonlocal choices, asked, forced
        if watch is not None:
            watch(st)
        view = View(st, p)
        k = len(view.legal)
        choices += k
        asked += 1
        forced += k == 1
        if simple or cov is None:
            a = agents[p].act(view)
        else:
            with cov.paused():             # an agent's playouts are not the game's coverage
                a = agents[p].act(view)
        st.apply_action(a, p)
        if watching:
            if cov is None:
                for ag in watching:
                    ag.observe(View(st, ag.seat))
            else:
                with cov.paused():
                    for ag in watching:
                        ag.observe(View(st, ag.seat))

    each_decision(st, step)
    problem = (st.problem or {}).get("code", "") if st.outcome == "error" else ""
    rec = (seed if index is None else index, st.outcome, tuple(st.winners), st.decisions,
           st.turns, problem, choices, asked, forced)
    return rec if watch is None else rec + (st,)


def _chunk(job, indices):
    """A worker's share: the tally of games ``indices`` (:mod:`rulelang.play.tally`) and, when
    the job keeps them (``job["keep"]``), their records."""
    from rulelang.play.tally import Tally
    cg, cov = _prepared(job)
    measuring = job.get("measures")
    tally = Tally(len(job["agents"]), len(cov.points) if cov is not None else 0,
                  bool(measuring))
    out = [] if job.get("keep") else None
    if not measuring:
        names = tuple(job["agents"])
        if names not in _POLICIES:          # made once per process, seeded again per game
            from rulelang.play.agents import seeded_policies
            _POLICIES[names] = seeded_policies(list(names))
        policies = _POLICIES[names]
        if policies is not None:
            _fast_games(cg, cov, policies, job, indices, tally, out)
            return tally, out
    if measuring:
        from rulelang.play.measures import lead_sense, per_game, traced_game
        sense = lead_sense(cg.model)
    for i in indices:
        seed = (job["seed"] + i) % (1 << 64)
        if measuring:
            rec, trace = traced_game(play_game, cg, job["agents"], seed, job["max_steps"], cov,
                                     index=i)
            rec = rec + (per_game(trace, rec[OUTCOME], rec[WINNERS], sense),)
        else:
            rec = play_game(cg, job["agents"], seed, job["max_steps"], cov, index=i)
        if cov is not None:
            rec = rec + (tuple(cov.reset()),)
        tally.add(rec)
        if out is not None:
            out.append(rec)
    return tally, out


def _fast_games(cg, cov, policies, job, indices, tally, out) -> None:
    """:func:`_chunk` of agents that are functions of the number of choices (``random``,
    ``first``): each game is :func:`play_game`'s fast path, with the seats' functions made
    once for the chunk and their generators seeded again for each game
    (:class:`rulelang.play.agents.SeededPolicies`): the same games, records and tally."""
    play, policy, reseed = cg.playout_counted, policies.policy, policies.seed
    base, max_steps, add = job["seed"], job["max_steps"], tally.add
    if cov is not None or out is not None:
        for i in indices:
            seed = (base + i) % (1 << 64)
            reseed(seed)
            st, (asked, choices, forced) = play(seed, policy, max_steps)
            outcome = st.outcome
            problem = (st.problem or {}).get("code", "") if outcome == "error" else ""
            rec = (i, outcome, tuple(st.winners), st.decisions, st.turns, problem, choices,
                   asked, forced)
            if cov is not None:
                rec = rec + (tuple(cov.reset()), )
            add(rec)
            if out is not None:
                out.append(rec)
        return
    # Neither coverage nor records: the tally counted here, as Tally.add counts a record.
    wins, decisions, turns = tally.wins, tally.decisions, tally.turns
    a_sum = c_sum = f_sum = 0
    for i in indices:
        seed = (base + i) % (1 << 64)
        reseed(seed)
        st, (asked, choices, forced) = play(seed, policy, max_steps)
        w = st.winners
        if len(w) == 1 and st.outcome != "error":
            wins[w[0]] += 1
            tally.games += 1
            decisions[st.decisions] += 1
            turns[st.turns] += 1
            a_sum += asked
            c_sum += choices
            f_sum += forced
        else:
            outcome = st.outcome
            problem = (st.problem or {}).get("code", "") if outcome == "error" else ""
            add((i, outcome, tuple(w), st.decisions, st.turns, problem, choices, asked, forced))
    tally.asked += a_sum
    tally.choices += c_sum
    tally.forced += f_sum


class Played:
    """What :func:`play_games` played: the tally of the games (the report is made from it),
    their records when kept, the coverage points and whether Ctrl-C stopped it."""

    def __init__(self, tally, records, points, interrupted, requested, seconds, sense=None,
                 measured=False):
        self.tally = tally
        self.records = records          # one per game in game order, or None when not kept
        self.sense = sense              # who leads (measures.lead_sense), when measured
        self.measured = measured
        self.points = points
        self.interrupted = interrupted
        self.requested = requested
        self.seconds = seconds


def record_json(rec, seed: int) -> dict:
    """One game's record as a JSON-ready dict (a line of ``--records FILE``)."""
    return {"game": rec[IDX], "seed": (seed + rec[IDX]) % (1 << 64), "outcome": rec[OUTCOME],
            "winners": [w + 1 for w in rec[WINNERS]], "decisions": rec[DECISIONS],
            "turns": rec[TURNS], "problem": rec[PROBLEM] or None, "choices": rec[CHOICES],
            "forced": rec[FORCED]}


class _InOrder:
    """Chunks' records written to ``stream`` as JSON lines in game order, whatever order the
    chunks finish in: a chunk that finishes early waits in ``held`` until those before it
    are written."""

    def __init__(self, stream, seed):
        self.stream, self.seed = stream, seed
        self.next = 0
        self.held: dict = {}

    def put(self, i, records) -> None:
        import json
        self.held[i] = records
        while self.next in self.held:
            for r in self.held.pop(self.next):
                self.stream.write(json.dumps(record_json(r, self.seed)) + "\n")
            self.next += 1

    def flush(self) -> None:
        """Write what is held (after Ctrl-C, the chunks finished after one that was not)."""
        while self.held:
            self.next = min(self.held)
            self.put(self.next, self.held.pop(self.next))


def play_games(path, overrides, players, games, seed=1, agents=None, max_steps=None,
               coverage=True, workers=1, advance=None, text=None, include=(), ray=None,
               measures=False, records=False, records_to=None) -> Played:
    """Play ``games`` games (seeds ``seed`` .. ``seed+games-1``) on ``workers`` processes, or
    on the Ray cluster at ``ray`` (an address, or ``"local"``).  With ``measures``, each game
    also records its trace for the game-quality measures (rulelang/play/measures.py).

    The workers send back the tally of their chunk of games, not each game's record, so what
    this process receives and keeps does not grow with the number of games.  ``records``:
    keep every game's record too (``Played.records``, in game order); ``records_to``: a text
    stream to write every game's record to, one JSON line per game in game order
    (:func:`record_json`), keeping none."""
    import time

    from rulelang.play.parallel import run_chunks
    from rulelang.play.tally import Tally
    names = list(agents or ["random"] * players)
    job = {"path": path, "overrides": dict(overrides or {}), "players": players,
           "coverage": coverage, "agents": names, "seed": seed, "max_steps": max_steps,
           "text": text, "include": tuple(include or ())}
    if measures:
        job["measures"] = True
    if records or records_to is not None:
        job["keep"] = True
    cg, cov = _prepared(job)             # errors show here, before any worker starts
    # The playout variants are made here too, before a local pool forks: the workers share
    # them instead of each making its own (150 ms a worker for a seed game, an eighth of its
    # 2,000 games on two).  (A Ray cluster's nodes compile the game themselves.)
    if ray is None:
        cg.playout_procs()
    if ray is not None and text is None:
        with open(path, encoding="utf-8") as fh:     # the nodes need not have the file
            job["text"] = fh.read()
    total = Tally(players, len(cov.points) if cov is not None else 0, measures)
    kept: dict = {}
    writer = _InOrder(records_to, seed) if records_to is not None else None

    def gather(i, result):
        tally, recs = result
        total.merge(tally)
        if records:
            kept[i] = recs
        if writer is not None:
            writer.put(i, recs)
    t0 = time.perf_counter()
    outcome = run_chunks(_chunk, job, range(games), workers, advance, ray=ray, gather=gather)
    seconds = time.perf_counter() - t0
    if writer is not None:
        writer.flush()
    sense = None
    if measures:
        from rulelang.play.measures import lead_sense
        sense = lead_sense(cg.model)
    kept_records = [r for i in sorted(kept) for r in kept[i]] if records else None
    return Played(total, kept_records, cov.points if cov is not None else None,
                  outcome.interrupted, games, seconds, sense, measures)


# ---------------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------------

def wilson(k: int, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a proportion ``k/n`` (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # (the interval holds k/n: at k = 0 or k = n rounding could leave it a hair outside)
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def binomial_test(k: int, n: int, p: float = 0.5) -> float:
    """Two-sided exact binomial test: the probability of an outcome no more likely than ``k``."""
    if n <= 0:
        return 1.0

    def logpmf(i):
        return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                + (i * math.log(p) if i else 0.0) + ((n - i) * math.log(1 - p) if n - i else 0.0))
    ref = logpmf(k) + 1e-7
    return min(1.0, sum(math.exp(logpmf(i)) for i in range(n + 1) if logpmf(i) <= ref))


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:                      # series for P
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a                      # continued fraction for Q (Lentz)
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    return _gamma_q(df / 2, x / 2)


def _beta_cf(a, b, x):
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (1e-300 if abs(d) < 1e-300 else d)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (1e-300 if abs(d) < 1e-300 else d)
        c = 1 + aa / c
        c = 1e-300 if abs(c) < 1e-300 else c
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (1e-300 if abs(d) < 1e-300 else d)
        c = 1 + aa / c
        c = 1e-300 if abs(c) < 1e-300 else c
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


def _beta_inc(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_cf(a, b, x) / a
    return 1 - front * _beta_cf(b, a, 1 - x) / b


def t_sf2(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom."""
    if df <= 0 or math.isnan(t):
        return 1.0
    return _beta_inc(df / 2, 0.5, df / (df + t * t))


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile (q > 0.5) of Student's t, by bisection."""
    target = 2 * (1 - q)
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_sf2(mid, df) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def normal_sf2(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> dict:
    """The two-proportion z-test (pooled) of k2/n2 - k1/n1."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    pool = (k1 + k2) / (n1 + n2) if n1 + n2 else 0.0
    se = math.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2)) if n1 and n2 else 0.0
    if se == 0:
        p = 1.0 if p1 == p2 else 0.0
    else:
        p = normal_sf2((p2 - p1) / se)
    return {"difference": p2 - p1, "p_value": p, "test": "two-proportion z-test"}


def seat_test(wins: list) -> Optional[dict]:
    """Is one seat more likely to win than another?  Over the games with a sole winner: with
    two seats the exact binomial test, with more a chi-square goodness-of-fit test against
    equal chances."""
    total = sum(wins)
    n = len(wins)
    if n < 2 or total == 0:
        return None
    if n == 2:
        p = binomial_test(wins[0], total)
        return {"test": "exact binomial test (two-sided)", "games": total, "p_value": p,
                "significant": p < ALPHA}
    expected = total / n
    x2 = sum((w - expected) ** 2 / expected for w in wins)
    p = chi2_sf(x2, n - 1)
    return {"test": f"chi-square test, {n - 1} degrees of freedom", "statistic": x2,
            "games": total, "p_value": p, "significant": p < ALPHA}


def first_seat(records, players: int) -> Optional[dict]:
    """The first seat's advantage over the games with a sole winner (of a list of records):
    :func:`first_seat_of` their wins per seat."""
    wins = [0] * max(1, players)
    for r in records:
        if r[OUTCOME] != "error" and len(r[WINNERS]) == 1:
            wins[r[WINNERS][0]] += 1
    return first_seat_of(wins, players)


def first_seat_of(wins: list, players: int) -> Optional[dict]:
    """The first seat's advantage over the games with a sole winner (``wins``: their count
    per seat): its win rate, the rate it would have if every seat had the same chance
    (1/players), their difference, the 95% Wilson interval and the exact binomial test against
    1/players."""
    n = sum(wins)
    if n == 0 or players < 2:
        return None
    k = wins[0]
    fair = 1 / players
    p = binomial_test(k, n, fair)
    return {"games": n, "wins": k, "win_rate": k / n, "fair": fair, "advantage": k / n - fair,
            "ci95": list(wilson(k, n)), "p_value": p, "significant": p < ALPHA,
            "test": "exact binomial test against 1/players (two-sided)"}


def quantile(sorted_xs: list, q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics."""
    if not sorted_xs:
        return 0.0
    pos = (len(sorted_xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def histogram(xs: list, bins: int = 20) -> dict:
    """Counts in ``bins`` equal ranges of whole numbers from min to max."""
    from collections import Counter

    from rulelang.play.tally import histogram_of
    return histogram_of(sorted(Counter(xs).items()), bins)


def describe(xs: list) -> dict:
    """:func:`rulelang.play.tally.describe` of a list of whole numbers."""
    from collections import Counter

    from rulelang.play.tally import describe as described
    return described(Counter(xs))


# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------

def summarize(played: Played, game_name: str, players: int, seed: int, agents: list,
              options: Optional[dict] = None, workers: int = 1, teams=None) -> dict:
    """The balance report of ``played`` (made from its tally) as one JSON-ready dict.  In a game
    with teams (``teams``: the seats of each declared team, or ``()`` for teams formed in play)
    it has the wins of each team too: the games its players won together."""
    from rulelang.compile.coverage import coverage_rows
    from rulelang.play.tally import describe as described
    t = played.tally
    k = t.games
    wins = t.wins
    seats = []
    for p in range(players):
        lo, hi = wilson(wins[p], k)
        seats.append({"seat": p + 1, "agent": agents[p], "wins": wins[p],
                      "win_rate": wins[p] / k if k else 0.0, "ci95": [lo, hi],
                      "shared_wins": t.shared_of[p]})
    asked = t.asked
    report = {
        "game": game_name, "players": players, "seed": seed, "games": k, "agents": list(agents),
        "seats": seats, "seat_advantage": seat_test(wins),
        "sole_wins": sum(wins), "shared_wins": t.shared, "draws": t.draws,
        "no_winner": t.draws + t.errors, "budget_stops": t.budget, "errors": t.errors,
        "length": {"decisions": described(t.decisions), "turns": described(t.turns)},
        "decisions": {"branching": t.choices / asked if asked else 0.0,
                      "forced_share": t.forced / asked if asked else 0.0,
                      "decisions": asked},
        "seconds": played.seconds, "games_per_second": k / played.seconds if played.seconds else 0.0,
        "workers": workers,
    }
    if options:
        report["options"] = dict(options)
    if teams is not None:
        report["teams"] = team_rows(t, teams, k)
    if getattr(played, "measured", False):
        from rulelang.play.measures import measure
        report["measures"] = measure(played.sense, t.measured, first_seat_of(wins, players))
    if played.interrupted:
        report["interrupted"] = True
        report["requested"] = played.requested
    if played.points is not None:
        report["coverage"] = coverage_rows(played.points, t.taken, t.games_of)
        report["never_run"] = sum(1 for x in t.taken if x == 0)
    return report


def team_rows(t, teams, k: int) -> list:
    """The wins of each team: each declared team (in order), then any other set of seats that
    won together (a team formed in play), with a 95% Wilson interval.  A one-player team's win
    is a sole win."""
    rows, seen = [], set()
    for seats in list(teams) + sorted(t.together):
        key = tuple(sorted(seats))
        if key in seen:
            continue
        seen.add(key)
        wins = t.wins[key[0]] if len(key) == 1 else t.together.get(key, 0)
        lo, hi = wilson(wins, k)
        rows.append({"team": len(rows) + 1, "players": [p + 1 for p in key], "wins": wins,
                     "win_rate": wins / k if k else 0.0, "ci95": [lo, hi]})
    return rows


TIMING_FIELDS = ("seconds", "games_per_second", "workers")


def compare_reports(a: dict, b: dict) -> dict:
    """The differences of report ``b`` from ``a``, each with its test and whether it is
    significant at the 5% level."""
    out = []
    na, nb = a["games"], b["games"]
    for what in ("decisions", "turns"):
        # the per-game values are not kept in the report: use mean and sd (Welch needs no more)
        da, db = a["length"][what], b["length"][what]
        w = welch_from(da["mean"], da["sd"], na, db["mean"], db["sd"], nb)
        w.update({"what": f"mean {what} per game", "a": da["mean"], "b": db["mean"],
                  "relative": (db["mean"] - da["mean"]) / da["mean"] if da["mean"] else None,
                  "significant": w["p_value"] < ALPHA})
        out.append(w)
    if a["players"] == b["players"]:
        for sa, sb in zip(a["seats"], b["seats"]):
            t = two_proportions(sa["wins"], na, sb["wins"], nb)
            t.update({"what": f"seat {sa['seat']} win rate", "a": sa["win_rate"],
                      "b": sb["win_rate"], "significant": t["p_value"] < ALPHA})
            out.append(t)
    for key, label in (("draws", "draws"), ("shared_wins", "shared wins"),
                       ("budget_stops", "games stopped by the step budget")):
        t = two_proportions(a[key], na, b[key], nb)
        t.update({"what": f"share of {label}", "a": a[key] / na if na else 0.0,
                  "b": b[key] / nb if nb else 0.0, "significant": t["p_value"] < ALPHA})
        out.append(t)
    return {"a": a, "b": b, "differences": out, "coverage": coverage_differences(a, b)}


def coverage_differences(a: dict, b: dict) -> dict:
    """The places of the rules (a rule, an alternative, a branch, an ending: by rule, what and
    source line) that ran in the games of one report and never in the other's: a house rule
    that makes a branch dead, or brings one to life, shows here.  Empty lists when a report has
    no coverage (``--no-coverage``)."""
    def key(e):
        return (e["rule"], e["what"], e["source"])

    def ran(r):
        return {key(e): e for e in r.get("coverage") or () if e["taken"]}
    known_a = {key(e) for e in a.get("coverage") or ()}
    known_b = {key(e) for e in b.get("coverage") or ()}
    ra, rb = ran(a), ran(b)
    only_a = [dict(e, taken_b=0) for k, e in ra.items() if k in known_b and k not in rb]
    only_b = [dict(e, taken_a=0) for k, e in rb.items() if k in known_a and k not in ra]
    return {"only_a": only_a, "only_b": only_b}


def welch_from(ma, sa, na, mb, sb, nb) -> dict:
    """Welch's t-test from means, standard deviations and counts (of b - a)."""
    diff = mb - ma
    va, vb = sa * sa, sb * sb
    se2 = (va / na if na else 0.0) + (vb / nb if nb else 0.0)
    if na < 2 or nb < 2 or se2 <= 0:
        return {"difference": diff, "ci95": [diff, diff],
                "p_value": 1.0 if diff == 0 else 0.0, "test": "Welch t-test", "df": None}
    se = math.sqrt(se2)
    df = se2 ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    q = t_quantile(0.975, df)
    return {"difference": diff, "ci95": [diff - q * se, diff + q * se],
            "p_value": t_sf2(diff / se, df), "test": "Welch t-test", "df": df}
