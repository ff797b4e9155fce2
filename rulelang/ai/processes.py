"""Many games of one rule file stepped together on every core (needs the ``ai`` extra).

:class:`ProcessGames` is :class:`rulelang.ai.vector.VectorGames` spread over worker processes,
with the conventions of Gymnasium's ``AsyncVectorEnv``: ``step_async(actions)`` sends the
actions and returns at once, ``step_wait()`` waits for every worker and returns what
``VectorGames.step`` returns (``step`` is the two together), likewise ``reset_async`` /
``reset_wait``, and ``close()`` ends the workers.  The games are cut into ``workers``
contiguous slices (default: one per core, at most one per game); each worker plays its slice
as a ``VectorGames`` whose arrays (observations, masks, the deciding seats) lie in shared memory,
so a step sends the actions and brings back the rewards and the ends through shared memory, and
only the observations of games that ended (``infos["final_obs"]``, a few) through a pipe.

Everything a ``VectorGames`` of the same ``num_envs`` gives, this gives, array for array: game
``i`` plays the deals of a parallel env reset with seed ``s + i`` whichever worker plays it
(``tests/test_ai_processes.py`` steps both side by side).  The arrays a step returns are copies.
"""
from __future__ import annotations

import multiprocessing as mp
import os
from typing import Optional

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from rulelang.ai.vector import VectorGames

_KINDS = (("obs", np.float32), ("mask", np.int8), ("deciding", np.bool_),
          ("actions", np.int64), ("rewards", np.float32), ("over", np.bool_))


def _shapes(num_envs: int, seats: int, size: int, actions: int) -> dict:
    return {"obs": (num_envs, seats, size), "mask": (num_envs, seats, actions),
            "deciding": (num_envs, seats), "actions": (num_envs, seats),
            "rewards": (num_envs, seats), "over": (num_envs,)}


def _arrays(raw: dict, shapes: dict) -> dict:
    """numpy arrays over the shared buffers."""
    return {name: np.frombuffer(raw[name], dtype=dt).reshape(shapes[name]) for name, dt in _KINDS}


def _worker(conn, path, players, options, observe, lo, hi, raw, shapes):
    """One worker: plays games ``lo`` to ``hi - 1`` as a VectorGames writing into shared
    memory, and answers the commands of the pipe until ``close``."""
    try:
        arrays = _arrays(raw, shapes)
        v = VectorGames(path, hi - lo, players=players, options=options, observe=observe,
                        first=lo)                    # (game i's deals, as in one env)
        v.keep_arrays_in(arrays["obs"][lo:hi], arrays["mask"][lo:hi], arrays["deciding"][lo:hi])
        actions, rewards, over = arrays["actions"][lo:hi], arrays["rewards"][lo:hi], \
            arrays["over"][lo:hi]
        conn.send(("ready", None))
        while True:
            cmd, arg = conn.recv()
            if cmd == "step":
                rewards.fill(0)
                over.fill(False)
                infos = v.advance(actions, rewards, over)
                ended = {k: infos[k] for k in ("final_obs", "final_info") if k in infos}
                conn.send(("ok", ended or None))
            elif cmd == "reset":
                v.reset(seed=arg)
                conn.send(("ok", None))
            elif cmd == "close":
                conn.send(("ok", None))
                return
    except Exception as e:          # (told to the parent, which raises it)
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


class ProcessGames(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, path: str, num_envs: int, players: Optional[int] = None,
                 options: Optional[dict] = None, observe: str = "all",
                 workers: Optional[int] = None, context: Optional[str] = None):
        probe = VectorGames(path, 1, players=players, options=options, observe=observe)
        self.num_envs = num_envs
        self.seats, self.size, self.n_actions = probe.seats, probe.size, probe.n_actions
        self.single_observation_space = probe.single_observation_space
        self.single_action_space = probe.single_action_space
        from gymnasium.vector.utils import batch_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        w = max(1, min(workers or os.cpu_count() or 1, num_envs))
        self.bounds = [(num_envs * k // w, num_envs * (k + 1) // w) for k in range(w)]
        ctx = mp.get_context(context)
        shapes = _shapes(num_envs, self.seats, self.size, self.n_actions)
        raw = {name: ctx.RawArray("b", max(1, int(np.prod(shapes[name])) * np.dtype(dt).itemsize))
               for name, dt in _KINDS}
        self._arrays = _arrays(raw, shapes)
        self._conns, self._procs = [], []
        for lo, hi in self.bounds:
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_worker, daemon=True,
                            args=(child, path, players, options, observe, lo, hi, raw, shapes))
            p.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(p)
        self._gather()
        self._waiting = None
        self.closed = False

    def _gather(self) -> list:
        out = []
        for conn in self._conns:
            what, arg = conn.recv()
            if what == "error":
                self.close()
                raise RuntimeError(f"a worker failed: {arg}")
            out.append(arg)
        return out

    def _observations(self) -> dict:
        a = self._arrays
        return {"observation": a["obs"].copy(), "action_mask": a["mask"].copy()}

    # -- Gymnasium's AsyncVectorEnv calls -------------------------------------------------------

    def reset_async(self, seed=None, options=None) -> None:
        for (lo, hi), conn in zip(self.bounds, self._conns):
            if seed is None:
                s = None
            elif isinstance(seed, (list, tuple)):
                s = list(seed[lo:hi])
            else:
                s = [seed + i for i in range(lo, hi)]
            conn.send(("reset", s))
        self._waiting = "reset"

    def reset_wait(self, timeout=None, seed=None, options=None):
        self._gather()
        self._waiting = None
        return self._observations(), {"deciding": self._arrays["deciding"].copy()}

    def reset(self, *, seed=None, options=None):
        self.reset_async(seed, options)
        return self.reset_wait()

    def step_async(self, actions) -> None:
        self._arrays["actions"][...] = np.asarray(actions, dtype=np.int64)
        for conn in self._conns:
            conn.send(("step", None))
        self._waiting = "step"

    def step_wait(self, timeout=None):
        ended = self._gather()
        self._waiting = None
        a = self._arrays
        over = a["over"].copy()
        infos = {"deciding": a["deciding"].copy()}
        if any(e is not None for e in ended):
            B = self.num_envs
            final_obs = np.full(B, None, dtype=object)
            final_info = np.full(B, None, dtype=object)
            for (lo, _hi), e in zip(self.bounds, ended):
                if e is not None:
                    for j, (o, i) in enumerate(zip(e["final_obs"], e["final_info"])):
                        final_obs[lo + j], final_info[lo + j] = o, i
            infos["final_obs"], infos["_final_obs"] = final_obs, over.copy()
            infos["final_info"], infos["_final_info"] = final_info, over.copy()
        return (self._observations(), a["rewards"].copy(), over,
                np.zeros(self.num_envs, dtype=bool), infos)

    def step(self, actions):
        self.step_async(actions)
        return self.step_wait()

    def close_extras(self, **kwargs) -> None:
        for conn in self._conns:
            try:
                conn.send(("close", None))
                conn.recv()
            except (OSError, EOFError, BrokenPipeError):
                pass
        for p in self._procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
        self._conns, self._procs = [], []
