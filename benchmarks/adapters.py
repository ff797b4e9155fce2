"""What a step through the game-AI adapters costs beside a decision through the API.

    python -m benchmarks.adapters [--seconds S] [--rounds R] [--sim N] [--floor] [--json PATH]

Random play of Crazy Eights (examples/crazy_eights.cardrules) and CIQ (rules/ciq.cardrules), 4
players, three ways, interleaved in each of R rounds (S seconds each way and game) so that a
busy machine slows them alike:

* ``api``: ``legal_actions``, a uniform choice among them, ``apply_action`` (what a decision
  costs a program that plays through the API);
* ``pettingzoo``: the AEC env's ``agent_iter``, ``last()`` (the observation tensor and the
  action mask of the seat to play), a uniform choice among the mask's legal ids, ``step``;
* ``openspiel``: the observation tensor of the seat to play (``Observation.set_from``), its
  ``legal_actions``, ``apply_action``.

Each figure is CPU seconds (process time: the machine is shared) per decision; the ratios are
an adapter's over the API's in the same round, and the median over the rounds is the figure
judged against the targets (PettingZoo within 2 times the API, OpenSpiel within 4).  ``--sim N``
also times ``pyspiel.random_sim_test`` (OpenSpiel's own conformance check, which asks every
seat's strings and tensors at every step and serialises the state) over N games of CIQ.
``--floor`` adds a fourth way, ``pettingzoo-floor``: the same env and loop with an observation
that costs nothing (the seat's array handed out as it is, never brought up to date): what the
protocol and the mask cost alone, the least a step of the env could cost whatever its
observation.  ``--bytecodes N`` counts instead the bytecodes each way runs per decision over N games
(``benchmarks.bytecodes``' counter; the env or game made once before counting): a figure that
does not depend on the machine's load.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

GAMES = (("examples/crazy_eights.cardrules", 4), ("rules/ciq.cardrules", 4))
TARGETS = {"pettingzoo": 2.0, "openspiel": 4.0}


def api_make(path, n):
    from rulelang.ai.tensors import load_compiled
    return load_compiled(path, n)


def api_steps(path, n, budget, clock=time.process_time, made=None):
    """Random play through the API: decisions and seconds of ``clock`` (CPU by default).
    (``made``: what :data:`MAKE` makes, made before if given.)"""
    cg = made or api_make(path, n)
    steps, ep, c0 = 0, 0, clock()
    while clock() - c0 < budget or steps == 0:
        st = cg.new_game(seed=ep)
        rng = random.Random(ep)
        ep += 1
        while not st.terminal:
            p = st.current_player()
            legal = st.legal_actions(p)
            st.apply_action(legal[rng.randrange(len(legal))], p)
            steps += 1
    return steps, clock() - c0


def pettingzoo_make(path, n):
    from rulelang.ai.pettingzoo import env as make_env
    return make_env(path, players=n)


def pettingzoo_steps(path, n, budget, clock=time.process_time, made=None):
    """Random play through the PettingZoo AEC env (observe, mask, step)."""
    e = made or pettingzoo_make(path, n)
    steps, ep, c0 = 0, 0, clock()
    while clock() - c0 < budget or steps == 0:
        e.reset(seed=ep)
        rng = random.Random(ep)
        ep += 1
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, clock() - c0


def openspiel_make(path, n):
    from open_spiel.python.observation import make_observation
    from rulelang.ai.openspiel import load_game
    game = load_game(path, players=n)
    return game, make_observation(game)


def openspiel_steps(path, n, budget, clock=time.process_time, made=None):
    """Random play through OpenSpiel (the observer's set_from, legal_actions, apply_action)."""
    game, ob = made or openspiel_make(path, n)
    steps, ep, c0 = 0, 0, clock()
    while clock() - c0 < budget or steps == 0:
        st = game.new_initial_state()
        rng = random.Random(ep)
        ep += 1
        while not st.is_terminal():
            if st.is_chance_node():
                outs = st.chance_outcomes()
                st.apply_action(outs[rng.randrange(len(outs))][0])
                continue
            p = st.current_player()
            ob.set_from(st, p)
            legal = st.legal_actions(p)
            st.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, clock() - c0


class _FreeObservation:
    """A stand-in for the env's kept tensors (:class:`rulelang.ai.live.Live`) that hands out
    one array per seat as it is: an observation that costs nothing (``--floor``)."""

    def __init__(self, size, n):
        import numpy as np
        self.arrays = [np.zeros(size, np.float32) for _ in range(n)]

    def observation(self, st, seat):
        return self.arrays[seat]

    def reset(self):
        pass


def floor_make(path, n):
    e = pettingzoo_make(path, n)
    e.reset(seed=0)
    e._live = _FreeObservation(e.enc.size, e.cg.n)
    return e


def floor_steps(path, n, budget, clock=time.process_time, made=None):
    """The PettingZoo loop with an observation that costs nothing (see ``--floor``)."""
    return pettingzoo_steps(path, n, budget, clock, made or floor_make(path, n))


WAYS = {"api": api_steps, "pettingzoo": pettingzoo_steps, "openspiel": openspiel_steps,
        "pettingzoo-floor": floor_steps}
MAKE = {"api": api_make, "pettingzoo": pettingzoo_make, "openspiel": openspiel_make,
        "pettingzoo-floor": floor_make}


def installed() -> list:
    """The ways whose packages are installed (the adapters need the `ai` extra)."""
    ways = ["api"]
    for name, mod in (("pettingzoo", "pettingzoo"), ("openspiel", "pyspiel")):
        try:
            __import__(mod)
        except ImportError:
            continue
        ways.append(name)
    return ways


def measure(seconds: float, rounds: int, floor: bool = False) -> dict:
    """Per game: each way's µs per decision in each round, each adapter's ratios to the API in
    the same round, and their medians (with ``floor``, the ``pettingzoo-floor`` way too)."""
    ways = installed()
    if floor and "pettingzoo" in ways:
        ways.append("pettingzoo-floor")
    out = {}
    for path, n in GAMES:
        full = os.path.join(ROOT, path)
        for w in ways:                                  # (warm: the game compiled, registered)
            WAYS[w](full, n, 0.01)
        us = {w: [] for w in ways}
        for _ in range(rounds):
            for w in ways:
                made = MAKE[w](full, n) if w == "pettingzoo-floor" else None
                steps, cpu = WAYS[w](full, n, seconds, made=made)
                us[w].append(cpu / steps * 1e6)
        row = {"us": us, "ratio": {}, "median_ratio": {}}
        for w in ways[1:]:
            row["ratio"][w] = [a / b for a, b in zip(us[w], us["api"])]
            row["median_ratio"][w] = statistics.median(row["ratio"][w])
        out[f"{path}:{n}"] = row
    return out


def bytecodes(games: int, floor: bool = False) -> dict:
    """Per game and way: bytecodes per decision over ``games`` random games (the same games as
    the timed loops play; with ``floor``, the ``pettingzoo-floor`` way too)."""
    import itertools
    from benchmarks.bytecodes import Counter
    out = {}
    for path, n in GAMES:
        full = os.path.join(ROOT, path)
        row = {}
        ways = installed()
        if floor and "pettingzoo" in ways:
            ways.append("pettingzoo-floor")
        for w in ways:
            made = MAKE[w](full, n)
            WAYS[w](full, n, 0.01, made=made)           # (warm: the game compiled, registered)
            c = Counter()
            # (a clock that ticks once a game: `games` games, then the loop stops)
            steps, _t = c.run(lambda: WAYS[w](full, n, games + 1, itertools.count().__next__,
                                              made))
            row[w] = c.total / steps
        out[f"{path}:{n}"] = row
    return out


def sim_seconds(games: int) -> float:
    """CPU seconds per game of ``pyspiel.random_sim_test`` on CIQ, 4 players, serialising."""
    import pyspiel
    from rulelang.ai.openspiel import load_game
    g = load_game(os.path.join(ROOT, "rules/ciq.cardrules"), players=4)
    c0 = time.process_time()
    pyspiel.random_sim_test(g, num_sims=games, serialize=True, verbose=False)
    return (time.process_time() - c0) / games


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.adapters")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per way and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sim", type=int, default=0, help="games of random_sim_test to time")
    ap.add_argument("--bytecodes", type=int, default=0, metavar="N",
                    help="count bytecodes per decision over N games instead of timing")
    ap.add_argument("--floor", action="store_true",
                    help="also time the PettingZoo env with an observation that costs nothing")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    if a.bytecodes:
        res = bytecodes(a.bytecodes, a.floor)
        print(f"game-AI adapters, random play, 4 players: bytecodes per decision "
              f"({a.bytecodes} games)")
        for game, row in res.items():
            print(f"  {game}: " + ", ".join(f"{w} {b:,.0f}" for w, b in row.items()))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(res, f, indent=1)
        return 0
    res = {"games": measure(a.seconds, a.rounds, a.floor)}
    print("game-AI adapters, random play, 4 players: CPU µs per decision in each round, and the "
          "adapter's ratio to the API in that round")
    for game, row in res["games"].items():
        print(f"  {game}")
        for w, us in row["us"].items():
            line = f"    {w:<17} " + " ".join(f"{u:7.2f}" for u in us)
            if w in row["ratio"]:
                med = row["median_ratio"][w]
                line += ("   ratio " + " ".join(f"{r:5.2f}" for r in row["ratio"][w]) +
                         f"   median {med:.2f}")
                if w in TARGETS:
                    line += (f" (target <= {TARGETS[w]:g}: "
                             f"{'met' if med <= TARGETS[w] else 'NOT MET'})")
            print(line)
    if a.sim:
        res["random_sim_test_s"] = sim_seconds(a.sim)
        print(f"pyspiel.random_sim_test, CIQ 4 players, serialising: "
              f"{res['random_sim_test_s']:.2f} CPU s per game")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
