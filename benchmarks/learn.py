"""An agent that learns: a linear softmax policy over the observation tensor, with action
masking, trained by policy gradient (REINFORCE with a baseline) against `random` on batched
games (rulelang/ai/vector.py), in NumPy alone.

    python -m benchmarks.learn [FILE] [--players 2] [--minutes 6] [--batch 64]
                               [--eval-games 2000] [--mc-games 100] [--seed 0]

The learner takes seat ``i % players`` in game ``i`` of the batch (every seat in turn), the
other seats play uniformly at random among their legal actions.  Its policy: the logits are
``W @ observation + b`` over the action ids; the ids outside the mask are never chosen (their
probability is 0).  At the end of a game each decision it took is credited with the game's
return to its seat (+1 win, -1 loss, 0 no winner) minus a running mean of the returns.

Then it is evaluated greedily (the legal action of highest logit) against ``random`` on other
seeds, its seat alternating, and so is ``mc`` (rulelang's flat Monte Carlo agent, played through
``rulelang.play.stats.play_games``) for comparison: win rates with 95% Wilson intervals (a game
without a winner counts as not won).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = os.path.join(ROOT, "rules", "mages_wild.cardrules")


class LinearPolicy:
    def __init__(self, size: int, actions: int, rng):
        self.W = np.zeros((actions, size), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)
        self.rng = rng

    def logits(self, x, mask):
        z = x @ self.W.T + self.b
        return np.where(mask > 0, z, -np.inf)

    def probs(self, x, mask):
        z = self.logits(x, mask)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def sample(self, x, mask):
        p = self.probs(x, mask)
        u = self.rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)

    def greedy(self, x, mask):
        return np.argmax(self.logits(x, mask), axis=1)

    def update(self, x, mask, a, adv, lr):
        """One step of gradient ascent on the mean of adv * log p(a | x)."""
        p = self.probs(x, mask)
        g = -p
        g[np.arange(len(a)), a] += 1.0
        g *= adv[:, None]
        self.W += lr * (g.T @ x) / len(a)
        self.b += lr * g.mean(axis=0)


def _random_actions(rng, mask):
    return np.argmax(rng.random(mask.shape) * mask, axis=-1)


def train(path, players, seconds, batch, seed, lr=0.1, log=None):
    """Train for ``seconds`` of wall time; the policy and what was seen."""
    from rulelang.ai.vector import VectorGames
    v = VectorGames(path, batch, players=players, observe="deciding")
    rng = np.random.default_rng(seed)
    pol = LinearPolicy(v.size, v.n_actions, rng)
    learner = np.arange(batch) % players
    rows = np.arange(batch)
    episodes = [[] for _ in range(batch)]         # per game: (x, mask, action) of the learner
    obs, infos = v.reset(seed=seed * 1_000_003)
    baseline, games, wins = 0.0, 0, 0
    buf_x, buf_m, buf_a, buf_adv = [], [], [], []
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        mask = obs["action_mask"]
        actions = _random_actions(rng, mask)
        mine = infos["deciding"][rows, learner]
        if mine.any():
            idx = np.flatnonzero(mine)
            x = obs["observation"][idx, learner[idx]].astype(np.float64)
            m = mask[idx, learner[idx]]
            a = pol.sample(x, m)
            actions[idx, learner[idx]] = a
            for j, k in enumerate(idx):
                episodes[k].append((x[j], m[j], a[j]))
        obs, rewards, term, trunc, infos = v.step(actions)
        for k in np.flatnonzero(term | trunc):
            ret = float(rewards[k, learner[k]])
            games += 1
            wins += ret > 0
            for x1, m1, a1 in episodes[k]:
                buf_x.append(x1)
                buf_m.append(m1)
                buf_a.append(a1)
                buf_adv.append(ret - baseline)
            baseline += 0.01 * (ret - baseline)
            episodes[k] = []
        if len(buf_a) >= 2048:
            pol.update(np.array(buf_x), np.array(buf_m), np.array(buf_a), np.array(buf_adv), lr)
            buf_x, buf_m, buf_a, buf_adv = [], [], [], []
            if log is not None:
                log(f"{time.perf_counter() - t0:6.0f} s  {games} games  mean return "
                    f"{baseline:+.3f}")
    return pol, games


def evaluate(pol, path, players, games, seed, batch=256, greedy=False):
    """The policy against random: (wins, games played), its seat alternating.  It samples its
    actions from its probabilities (untrained, uniform among the legal ones: `random` itself);
    with ``greedy``, it takes the action of highest logit (the lowest id among equals, so an
    untrained greedy policy is `first`, not `random`)."""
    from rulelang.ai.vector import VectorGames
    b = min(batch, games)
    v = VectorGames(path, b, players=players, observe="deciding")
    rng = np.random.default_rng(seed + 1)
    learner = np.arange(b) % players
    rows = np.arange(b)
    obs, infos = v.reset(seed=seed)
    done = wins = losses = 0
    started = b                         # games begun (each game's next one begins as it ends)
    active = np.ones(b, dtype=bool)
    while done < games:
        mask = obs["action_mask"]
        actions = _random_actions(rng, mask)
        mine = infos["deciding"][rows, learner] & active
        if mine.any():
            idx = np.flatnonzero(mine)
            x = obs["observation"][idx, learner[idx]].astype(np.float64)
            m = mask[idx, learner[idx]]
            actions[idx, learner[idx]] = pol.greedy(x, m) if greedy else pol.sample(x, m)
        obs, rewards, term, trunc, infos = v.step(actions)
        for k in np.flatnonzero((term | trunc) & active):
            done += 1
            wins += rewards[k, learner[k]] > 0
            losses += rewards[k, learner[k]] < 0
            if started >= games:
                active[k] = False     # the games beyond the count are not counted
            else:
                started += 1
    return int(wins), int(losses), done


def margin(w, lost, n):
    """The mean return (wins - losses) / n and its 95% interval (normal approximation)."""
    m = (w - lost) / n
    var = ((w + lost) / n - m * m) * n / max(1, n - 1)
    half = 1.959963984540054 * (max(var, 0.0) / n) ** 0.5
    return m, m - half, m + half


def _line(what, w, lost, n):
    from rulelang.play.stats import wilson
    lo, hi = wilson(w, n)
    m, mlo, mhi = margin(w, lost, n)
    return (f"{what}: won {w}, lost {lost}, no winner {n - w - lost} of {n}; win rate "
            f"{w / n:.3f} ({lo:.3f}-{hi:.3f}); margin (wins - losses) / games {m:+.3f} "
            f"({mlo:+.3f} to {mhi:+.3f})")


def mc_against_random(path, players, games, seed, budget=50):
    """``mc:budget`` against random through play_games: (wins, losses, games), its seat
    alternating."""
    from rulelang.play.stats import play_games
    wins = losses = total = 0
    for seat in range(players):
        names = ["random"] * players
        names[seat] = f"mc:{budget}"
        k = games // players
        p = play_games(path, {}, players, k, seed + 1000 * seat, names, coverage=False,
                       workers=1)
        wins += p.tally.wins[seat]
        losses += sum(p.tally.wins) - p.tally.wins[seat]
        total += k
    return wins, losses, total


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.learn")
    ap.add_argument("file", nargs="?", default=DEFAULT)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=6.0)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--mc-games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    log = None if a.quiet else (lambda s: print(s, flush=True))
    name = os.path.basename(a.file)
    from rulelang.ai.vector import VectorGames
    probe = VectorGames(a.file, 1, players=a.players)
    untrained = LinearPolicy(probe.size, probe.n_actions, np.random.default_rng(a.seed))
    print(f"{name}, {a.players} players, each against random, its seat alternating")
    print(_line("the untrained policy (uniform among the legal actions)",
                *evaluate(untrained, a.file, a.players, a.eval_games, 10_000 + a.seed)))
    t0 = time.perf_counter()
    c0 = time.process_time()
    pol, games = train(a.file, a.players, a.minutes * 60, a.batch, a.seed, log=log)
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"trained on {games} games in {took:.0f} s ({cpu:.0f} s of CPU)")
    got = evaluate(pol, a.file, a.players, a.eval_games, 10_000 + a.seed)
    print(_line("the learner, sampling its actions", *got))
    print(_line("the learner, greedy (its most likely legal action)",
                *evaluate(pol, a.file, a.players, a.eval_games, 10_000 + a.seed, greedy=True)))
    if a.mc_games:
        mc = mc_against_random(a.file, a.players, a.mc_games, 20_000 + a.seed)
        print(_line("mc:50", *mc))
        print(f"the learner's margin over half of mc's: {margin(*got)[0]:+.3f} against "
              f"{margin(*mc)[0] / 2:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
