"""Decks of several packs on the playout fast path: `python -m benchmarks.packs [--cpu]`.

For CIQ (rules/ciq.cardrules) with 1, 2 and 3 packs a player (`--set decks=N`) at 4 and 6
players, each setting in a process of its own (a process writes out the shuffle of at most 8
deck lengths, rulelang/engine/rng.py: several settings in one process would count some
shuffles one draw at a time): bytecodes per decision of random play on the fast path
(benchmarks/bytecodes.py, ``--games`` games), and with ``--cpu`` the decisions per CPU second
of the same ``--cpu-games`` games played ``--repeat`` times (the best and the median).  CPU time
depends on the machine's load: compare two versions by running them side by side, at the same
time, each in its own checkout (the load is then the same on both), several times over.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILE = os.path.join(ROOT, "rules", "ciq.cardrules")
SETTINGS = [(packs, n) for packs in (1, 2, 3) for n in (4, 6)]


def measure(packs: int, n: int, games: int, cpu_games: int, repeat: int) -> dict:
    """The figures of one setting, in this process."""
    sys.path.insert(0, ROOT)
    from benchmarks.bytecodes import per_decision
    from rulelang.compile.loader import load
    cg = load(FILE, {"decks": packs}).compiled(n)
    per, _, dec = per_decision(cg, games, True)
    out = {"packs": packs, "players": n, "bytecodes": round(per, 1), "decisions": dec}
    if cpu_games:
        times, total = [], 0
        for _ in range(repeat):
            total = 0
            t0 = time.process_time()
            for seed in range(1000, 1000 + cpu_games):
                total += cg.playout(seed, [random.Random(seed)._randbelow] * n).decisions
            times.append(time.process_time() - t0)
        times.sort()
        out.update(cpu_decisions=total, best=round(total / times[0]),
                   median=round(total / times[len(times) // 2]))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.packs", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="games counted for bytecodes")
    ap.add_argument("--cpu", action="store_true", help="also decisions per CPU second")
    ap.add_argument("--cpu-games", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--one", nargs=2, type=int, metavar=("PACKS", "PLAYERS"),
                    help=argparse.SUPPRESS)     # (one setting, in the process of its own)
    a = ap.parse_args(argv)
    if a.one:
        print(json.dumps(measure(*a.one, a.games, a.cpu_games if a.cpu else 0, a.repeat)))
        return
    for packs, n in SETTINGS:
        cmd = [sys.executable, "-m", "benchmarks.packs", "--one", str(packs), str(n),
               "--games", str(a.games), "--cpu-games", str(a.cpu_games),
               "--repeat", str(a.repeat)] + (["--cpu"] if a.cpu else [])
        r = json.loads(subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True,
                                      text=True).stdout)
        line = f"{packs} packs, {n} players: {r['bytecodes']} bytecodes/decision"
        if a.cpu:
            line += f", {r['best']:,} decisions/CPU s (median {r['median']:,})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
