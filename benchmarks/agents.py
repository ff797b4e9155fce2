"""The search agents against each other: `python -m benchmarks.agents [--games G] [FILE ...]`.

For each rule file (default: the seed games in rules/), at 2 players, plays G games of each
match-up (default: ismcts against random, ismcts against mc, mc against random), the two agents
changing seats every game and every game with its own seed, and prints the first agent's win
rate with its 95% Wilson interval (a game without a winner counts as not won), and each agent's
mean CPU time per decision (process time: on a shared machine wall time mostly measures the
others).  ``--budget N`` gives both search agents N playouts (mc) or iterations
(ismcts) per decision (default 100: the same number of random playouts each).  ``--markdown``
prints the table as Markdown (as in docs/ai.md); ``--json PATH`` writes the figures.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rulelang.play.agents import View, make_agent  # noqa: E402
from rulelang.compile.loader import load  # noqa: E402

SEED_GAMES = ["rules/ciq.cardrules", "rules/follow_the_leader.cardrules",
              "rules/attack.cardrules", "rules/mages_wild.cardrules",
              "rules/internecine.cardrules"]
MATCHUPS = [("ismcts", "random"), ("ismcts", "mc"), ("mc", "random")]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def play(cg, names: list, seed: int, budget: int) -> tuple:
    """One game; the winners' seats, and per seat (decisions, seconds)."""
    agents = []
    for p, nm in enumerate(names):
        spec = f"{nm}:{budget}" if nm in ("mc", "ismcts") else nm
        agents.append(make_agent(spec, p, seed))
    st = cg.new_game(seed=seed)
    spent = [[0, 0.0] for _ in names]
    watching = [ag for ag in agents if hasattr(ag, "observe")]
    while not st.terminal:
        for p in list(st.current_players()):
            t = time.process_time()
            a = agents[p].act(View(st, p))
            spent[p][0] += 1
            spent[p][1] += time.process_time() - t
            st.apply_action(a, p)
            for ag in watching:
                ag.observe(View(st, ag.seat))
            if st.terminal or not st.is_simultaneous():
                break
    return st.winners, spent


def measure(path: str, first: str, second: str, games: int, budget: int) -> dict:
    cg = load(path).compiled(2)
    wins = 0
    draws = 0
    dec = {first: [0, 0.0], second: [0, 0.0]}
    for g in range(games):
        names = [first, second] if g % 2 == 0 else [second, first]
        winners, spent = play(cg, names, 1000 + g, budget)
        me = names.index(first)
        if not winners:
            draws += 1
        elif winners == [me]:
            wins += 1
        for p, nm in enumerate(names):
            dec[nm][0] += spent[p][0]
            dec[nm][1] += spent[p][1]
    lo, hi = wilson(wins, games)
    return {"game": cg.name, "file": path, "first": first, "second": second, "games": games,
            "wins": wins, "no_winner": draws, "rate": wins / games, "ci": [lo, hi],
            "ms_per_decision": {nm: 1000 * s / max(1, k) for nm, (k, s) in dec.items()}}


HEADER = ("| game | match-up | games | first wins | no winner | win rate of the first (95% CI) "
          "| CPU ms per decision |\n|---|---|---|---|---|---|---|")


def markdown_row(r: dict) -> str:
    first, second = r["first"], r["second"]
    ms = r["ms_per_decision"]
    lo, hi = r["ci"]
    return (f"| {r['game']} | {first} vs {second} | {r['games']} | {r['wins']} | {r['no_winner']} "
            f"| {r['rate']:.2f} ({lo:.2f}–{hi:.2f}) | {first} {ms[first]:.1f}, "
            f"{second} {ms[second]:.1f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", default=SEED_GAMES)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--budget", type=int, default=100)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--table", nargs="+", metavar="JSON",
                    help="print the Markdown table of figures written by --json, and stop")
    args = ap.parse_args(argv)
    if args.table:
        print(HEADER)
        for path in args.table:
            with open(path) as fh:
                for r in json.load(fh):
                    print(markdown_row(r))
        return 0
    rows = []
    if args.markdown:
        print(HEADER)
    for path in args.files:
        for first, second in MATCHUPS:
            r = measure(path, first, second, args.games, args.budget)
            rows.append(r)
            ms = r["ms_per_decision"]
            times = f"{first} {ms[first]:.1f}, {second} {ms[second]:.1f}"
            lo, hi = r["ci"]
            if args.markdown:
                print(markdown_row(r), flush=True)
            else:
                print(f"{r['game']:<24} {first:>6} vs {second:<6} {r['wins']:>3}/{r['games']:<3} "
                      f"{r['rate']:.2f} [{lo:.2f}, {hi:.2f}]  no winner {r['no_winner']}  "
                      f"ms/decision: {times}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
