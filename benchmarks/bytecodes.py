"""Bytecodes per decision in random play: `python -m benchmarks.bytecodes [FILE PLAYERS ...]`.

Wall time on a shared machine is noisy; the number of bytecodes the interpreter runs is not.
This plays `--games` random games of each rule file (the benchmark's driver: is_terminal,
current_player, legal_actions, random.choice, apply_action; setup included) with
sys.settrace counting every opcode, and prints the mean per decision, then the functions
(`--top`) that ran the most ("<rulelang>" is generated code).  `--reference` counts the
hand-written Crazy Eights the same way (4 players); `--fast` counts the same games played on the
playout fast path (State.playout) too.  Default: Crazy Eights for 4 players.
Bytecodes are not all equally slow (a call or a builtin costs more than a load), so confirm a
gain in CPU time too; but a change that saves bytecodes and plays the same games is a gain.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rulelang.compile.loader import load  # noqa: E402
from rulelang.engine import rng  # noqa: E402


class Counter:
    def __init__(self):
        self.total = 0
        self.by_fn = collections.Counter()

    def _trace(self, frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return self._op

    def _op(self, frame, event, arg):
        if event == "opcode":
            self.total += 1
            c = frame.f_code
            self.by_fn[(os.path.basename(c.co_filename), c.co_name, c.co_firstlineno)] += 1
        return self._op

    def run(self, fn):
        sys.settrace(self._trace)
        try:
            return fn()
        finally:
            sys.settrace(None)


def rulelang_game(cg, seed):
    choice = random.Random(seed).choice       # made before counting, as for the reference

    def play():
        st = cg.new_game(seed=seed)
        while not st.is_terminal():
            p = st.current_player()
            st.apply_action(choice(st.legal_actions(p)), p)
        return st.decisions
    return play


def fast_game(cg, seed):
    """The same game as :func:`rulelang_game` on the playout fast path, from the seed
    (``CompiledGame.playout``, as the benchmark plays it)."""
    policy = [random.Random(seed)._randbelow] * cg.n

    def play():
        return cg.playout(seed, policy).decisions
    return play


def per_decision(cg, games, fast=False):
    """Bytecodes per decision over ``games`` seeded games, and the counter."""
    c, dec = Counter(), 0
    if fast:
        cg.playout_procs()      # made once per compiled game, as compiling is: not counted
    play = fast_game if fast else rulelang_game
    # The card sets these games need, made on first use and kept with the compiled game
    # (compile/cardsets.py), and the deck's shuffle, written out once its length has been
    # shuffled rng.WRITTEN_AFTER times (as in any long run): not counted.
    for seed in range(max(games, rng.WRITTEN_AFTER + 1)):
        play(cg, seed)()
    for seed in range(games):
        dec += c.run(play(cg, seed))
    return c.total / dec, c, dec


def reference_per_decision(games, players=4):
    from benchmarks.reference import crazy_eights as ref
    c, dec = Counter(), 0
    for seed in range(games):
        rng = random.Random(seed)
        dec += c.run(lambda: ref.play_game(rng, players))[1]
    return c.total / dec


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bytecodes", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", nargs="*", help="FILE PLAYERS ... (default: Crazy Eights, 4)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--reference", action="store_true")
    ap.add_argument("--fast", action="store_true", help="also count the playout fast path")
    a = ap.parse_args(argv)
    pairs = a.pairs or [os.path.join(ROOT, "examples", "crazy_eights.cardrules"), "4"]
    if len(pairs) % 2:
        ap.error("give FILE PLAYERS pairs")
    if a.reference:
        print(f"reference crazy_eights 4p: {reference_per_decision(a.games):.1f} bytecodes/decision")
    for path, n in zip(pairs[::2], pairs[1::2]):
        cg = load(path).compiled(int(n))
        for fast in ((False, True) if a.fast else (False,)):
            per, c, dec = per_decision(cg, a.games, fast)
            print(f"{os.path.basename(path)} {n}p{' fast path' if fast else ''}: "
                  f"{per:.1f} bytecodes/decision")
            for (f, name, line), k in c.by_fn.most_common(a.top):
                print(f"  {k / dec:8.1f}  {f}:{line} {name}")


if __name__ == "__main__":
    main()
