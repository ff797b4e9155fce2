"""Steps per second of the batched environment (rulelang/ai/vector.py).

    python -m benchmarks.vector [FILE] [PLAYERS] [--sizes 1,64,1024] [--seconds S]
                                [--observe all|deciding] [--processes P] [--workers W]

A step is one call of ``VectorGames.step`` and moves every game of the batch by one decision;
steps per second count game steps (calls x batch size).  The actions are random legal ones,
chosen for the whole batch at once from the masks (numpy).  With ``--processes P`` (P > 1), P
processes each step their own batch of size / P games at the same time (every core), and
their game steps are added up.  With ``--workers W``, one ``ProcessGames``
(rulelang/ai/processes.py) steps the whole batch on W worker processes, the caller choosing the
actions for the whole batch as with one process: what a learner on every core gets.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(path, players, size, seconds, observe, out=None, workers=0):
    import numpy as np

    if workers:
        from rulelang.ai.processes import ProcessGames
        v = ProcessGames(path, size, players=players, observe=observe, workers=workers)
    else:
        from rulelang.ai.vector import VectorGames
        v = VectorGames(path, size, players=players, observe=observe)
    obs, _ = v.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    while time.perf_counter() - t0 < seconds:
        actions = np.argmax(rng.random(obs["action_mask"].shape) * obs["action_mask"], axis=-1)
        obs, _, _, _, _ = v.step(actions)
        steps += 1
    got = (steps * size, time.perf_counter() - t0, time.process_time() - c0)
    v.close()
    if out is not None:
        out.put(got)
    return got


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.vector")
    ap.add_argument("file", nargs="?",
                    default=os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    ap.add_argument("players", nargs="?", type=int, default=2)
    ap.add_argument("--sizes", default="1,64,1024")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--observe", default="all", choices=("all", "deciding"))
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--workers", type=int, default=0)
    a = ap.parse_args(argv)
    for size in [int(x) for x in a.sizes.split(",")]:
        if a.workers:
            n, wall, _cpu = _run(a.file, a.players, size, a.seconds, a.observe, workers=a.workers)
            print(f"{os.path.basename(a.file)} {a.players}p observe={a.observe} batch {size} on "
                  f"{min(a.workers, size)} worker processes (ProcessGames): {n / wall:,.0f} game "
                  f"steps per wall second")
            continue
        if a.processes <= 1:
            n, wall, cpu = _run(a.file, a.players, size, a.seconds, a.observe)
            print(f"{os.path.basename(a.file)} {a.players}p observe={a.observe} batch {size}: "
                  f"{n / cpu:,.0f} game steps per CPU second ({n / wall:,.0f} per wall second)")
            continue
        q = mp.get_context("fork").Queue()
        each = max(1, size // a.processes)
        ps = [mp.get_context("fork").Process(target=_run, args=(a.file, a.players, each,
                                                                a.seconds, a.observe, q))
              for _ in range(a.processes)]
        for p in ps:
            p.start()
        got = [q.get() for _ in ps]
        for p in ps:
            p.join()
        n = sum(g[0] for g in got)
        wall = max(g[1] for g in got)
        print(f"{os.path.basename(a.file)} {a.players}p observe={a.observe} batch {size} on "
              f"{a.processes} processes ({each} each): {n / wall:,.0f} game steps per wall "
              f"second ({sum(g[0] / g[2] for g in got):,.0f} summed per CPU second)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
