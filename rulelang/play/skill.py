"""Skill versus luck (``rulelang stats --skill``): how much a stronger agent gains over a weaker
one (by default ``mc`` over ``random``) when it plays every seat in turn against the weaker
agent in the others.

The stronger agent's share of the games with a sole winner is compared with ``1/N`` for ``N``
players: the share it would have if nothing it did mattered.  (Rotating it through every seat,
the same number of games in each, cancels any advantage of a seat.)  The report gives that
share with its 95% Wilson interval, the exact binomial test against ``1/N``, the gain (share
minus ``1/N``) with a bootstrap 95% interval (the games resampled within each seat), the games
of each seat, and a verdict in words.  Definitions: docs/workbench.md.  Pure functions, apart
from :func:`play_skill`, which plays the games.
"""
from __future__ import annotations

import random
from typing import Optional

from rulelang.play.stats import ALPHA, OUTCOME, WINNERS, binomial_test, wilson

# The resamples of the bootstrap interval of the gain, and their generator's seed.
BOOTSTRAP = 2000
BOOTSTRAP_SEED = 12345
# An interval of the stronger agent's share wider than this says too little to call a game one
# of luck: the verdict asks for more games instead.
UNDECIDED_WIDTH = 0.3


def lineup(strong: str, weak: str, seat: int, players: int) -> list:
    """The agents of the games in which the stronger agent sits at ``seat`` (0-based)."""
    return [strong if p == seat else weak for p in range(players)]


def play_skill(path, overrides, players, games, seed, strong, weak="random", max_steps=None,
               workers=1, advance=None, ray=None, text=None, include=()):
    """Play ``games`` games with the stronger agent in each seat in turn (seeds ``seed`` ..
    ``seed+games-1`` for every seat); the records of each seat's games, and whether Ctrl-C
    stopped it (then only the seats finished are there)."""
    from rulelang.play.stats import play_games
    per_seat = []
    for s in range(players):
        played = play_games(path, overrides, players, games, seed, lineup(strong, weak, s, players),
                            max_steps, coverage=False, workers=workers, advance=advance,
                            text=text, include=include, ray=ray, records=True)
        if played.interrupted:
            return per_seat, True
        per_seat.append(played.records)
    return per_seat, False


def _wins(records, seat):
    """(games with a sole winner, of them won by ``seat``)."""
    sole = [r for r in records if r[OUTCOME] != "error" and len(r[WINNERS]) == 1]
    return len(sole), sum(1 for r in sole if r[WINNERS][0] == seat)


def bootstrap_gain(per_seat, players, resamples=BOOTSTRAP, seed=BOOTSTRAP_SEED) -> list:
    """A 95% percentile interval of the gain (the stronger agent's share of the games with a
    sole winner, minus 1/players), the games resampled with replacement within each seat."""
    rng = random.Random(seed)
    outcomes = []        # per seat: a list of 1 (won), 0 (another won), None (no sole winner)
    for s, records in enumerate(per_seat):
        outcomes.append([None if r[OUTCOME] == "error" or len(r[WINNERS]) != 1
                         else int(r[WINNERS][0] == s) for r in records])
    gains = []
    for _ in range(resamples):
        k = n = 0
        for xs in outcomes:
            for _i in range(len(xs)):
                x = xs[rng.randrange(len(xs))]
                if x is not None:
                    n += 1
                    k += x
        if n:
            gains.append(k / n - 1 / players)
    if not gains:
        return [0.0, 0.0]
    gains.sort()
    return [gains[int(0.025 * (len(gains) - 1))], gains[int(0.975 * (len(gains) - 1))]]


def skill_report(per_seat, players: int, strong: str, weak: str, games: int,
                 first_seat: Optional[dict] = None, interrupted: bool = False) -> dict:
    """The skill report of the records ``per_seat`` (one list of records per seat of the
    stronger agent), as a JSON-ready dict; ``first_seat`` is the first seat's advantage of the
    weaker agent against itself (:func:`rulelang.play.stats.first_seat`)."""
    by_seat, n, k = [], 0, 0
    for s, records in enumerate(per_seat):
        ns, ks = _wins(records, s)
        n += ns
        k += ks
        by_seat.append({"seat": s + 1, "games": len(records), "sole_winner_games": ns,
                        "wins": ks, "win_rate": ks / ns if ns else 0.0})
    fair = 1 / players
    p = binomial_test(k, n, fair) if n else 1.0
    ci = list(wilson(k, n)) if n else [0.0, 1.0]
    gain = {"games": n, "wins": k, "win_rate": k / n if n else 0.0, "fair": fair,
            "gain": (k / n - fair) if n else 0.0, "ci95": ci,
            "gain_ci95": bootstrap_gain(per_seat, players) if n else [0.0, 0.0],
            "p_value": p, "significant": bool(n) and p < ALPHA,
            "test": "exact binomial test against 1/players (two-sided)"}
    out = {"strong": strong, "weak": weak, "games_per_seat": games, "players": players,
           "by_seat": by_seat, "gain": gain, "first_seat": first_seat}
    if interrupted:
        out["interrupted"] = True
    out["matters"], out["verdict"] = verdict(out)
    return out


def verdict(sk: dict) -> tuple:
    """Whether skill matters (``"yes"``, ``"no"``, ``"worse"`` or ``"undecided"``) and the
    sentence that says so."""
    g = sk["gain"]
    s, w = sk["strong"], sk["weak"]
    share = (f"{s} wins {100 * g['win_rate']:.0f}% of the games against {w} (95% interval "
             f"{100 * g['ci95'][0]:.0f}%–{100 * g['ci95'][1]:.0f}%) where luck alone would give "
             f"{100 * g['fair']:.0f}%")
    if g["games"] == 0:
        return "undecided", "no game had a sole winner: nothing tells whether skill matters"
    if g["significant"] and g["gain"] > 0:
        return "yes", f"skill matters: {share}"
    if g["significant"]:
        return "worse", f"{s} does worse than {w}: {share}"
    if g["ci95"][1] - g["ci95"][0] > UNDECIDED_WIDTH:
        return "undecided", (f"too few games to tell whether skill matters: {share}; play more "
                             "with --skill-games")
    return "no", f"skill does not matter here, as far as these games show: {share}"
