"""What `run --games` and `stats` pay per game over the playout fast path, in CPU time.

    python -m benchmarks.games [FILE] [PLAYERS] [--games N] [--rounds R]

Three ways to play the same seeds ``1..N`` with ``random`` agents, each round in turn (so that
the machine's load weighs on all alike), CPU microseconds per game, the best of the rounds:

- ``fast``: ``CompiledGame.playout(seed, [random.Random(seed)._randbelow] * n)``, one generator
  for every seat (the benchmark's player, ``python -m benchmarks``);
- ``per seat``: the same playouts with the ``random`` agent's generators, one per seat seeded
  from the seed and the seat (``rulelang.play.agents.SeededPolicies``): the games `run` plays;
- ``run``: a chunk of `run --games` / `stats` (``rulelang.play.stats._chunk``: the games,
  their records counted in the chunk's tally; without coverage, as `run --games` plays).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.games")
    ap.add_argument("file", nargs="?",
                    default=os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    ap.add_argument("players", nargs="?", type=int, default=4)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    from rulelang.play import stats
    from rulelang.play.agents import seeded_policies
    n, games = a.players, a.games
    job = {"path": a.file, "overrides": {}, "players": n, "coverage": False,
           "agents": ["random"] * n, "seed": 1, "max_steps": None, "text": None, "include": ()}
    cg, _ = stats._prepared(job)
    cg.playout_procs()

    def fast():
        for s in range(1, games + 1):
            cg.playout(s, [random.Random(s)._randbelow] * n)

    def per_seat():
        p = seeded_policies(["random"] * n)
        for s in range(1, games + 1):
            p.seed(s)
            cg.playout(s, p.policy)

    def run():
        stats._chunk(job, range(games))
    best = {}
    for _ in range(a.rounds):
        for name, fn in (("fast", fast), ("per seat", per_seat), ("run", run)):
            t = time.process_time()
            fn()
            us = (time.process_time() - t) / games * 1e6
            best[name] = min(best.get(name, us), us)
    print(f"{os.path.basename(a.file)} at {n} players, {games} games, best of {a.rounds}: "
          + ", ".join(f"{k} {v:.1f} us" for k, v in best.items())
          + f"; run / fast {best['run'] / best['fast']:.2f}, "
            f"run / per seat {best['run'] / best['per seat']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
