"""Many games of one rule file stepped together behind one call (needs the ``ai`` extra).

:class:`VectorGames` is a Gymnasium vector environment (``gymnasium.vector.VectorEnv``) of
``num_envs`` games, each played as :class:`rulelang.ai.pettingzoo.RulelangParallelEnv` plays
one: at every step every seat acts, the seats that must decide with one of their legal
actions, the others with anything (their mask allows only ``wait``, and what they send is
ignored).  The seats are an axis of the arrays:

* observations: ``{"observation": float32 (num_envs, seats, size), "action_mask": int8
  (num_envs, seats, actions)}`` (the tensor and the action ids of :mod:`rulelang.ai.tensors`);
* actions: ints ``(num_envs, seats)``; rewards: float32 ``(num_envs, seats)`` (+1 each winner,
  -1 each other seat at the end, 0 before; an illegal action ends its game with -1 for that
  seat, 0 for the others); terminations and truncations: bool ``(num_envs,)``;
* ``infos["deciding"]``: bool ``(num_envs, seats)``, the seats that must decide now.

A game that ends is replaced at once by the next game of its sequence (Gymnasium's
``AutoresetMode.SAME_STEP``): the step returns the new game's observation, and the ended game's
in ``infos["final_obs"]`` (an object array, None for the games that did not end; ``infos
["_final_obs"]`` says which did) with its infos in ``infos["final_info"]``.

``reset(seed=s)``: game ``i`` plays the sequence of deals of a parallel env reset with seed
``s + i`` (or ``s[i]`` when ``s`` is a list): the same games, step for step, as ``num_envs``
parallel envs (``tests/test_ai_vector.py``).  With ``observe="deciding"`` only the rows of the
seats that must decide are written (the others' rows are 0): less work per step when only the
deciding seats' observations are used.
"""
from __future__ import annotations

import random
from typing import Optional

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from rulelang.ai.tensors import encoding, load_compiled


class VectorGames(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, path: str, num_envs: int, players: Optional[int] = None,
                 options: Optional[dict] = None, observe: str = "all", first: int = 0):
        if observe not in ("all", "deciding"):
            raise ValueError("observe is 'all' or 'deciding'")
        self.cg = load_compiled(path, players, options)
        self.enc = encoding(self.cg)
        self.num_envs = num_envs
        self.seats = n = self.cg.n
        self.size, self.n_actions = size, actions = self.enc.size, self.enc.actions.size
        self.observe_all = observe == "all"
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape=(n, size), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(n, actions), dtype=np.int8)})
        self.single_action_space = spaces.MultiDiscrete([actions] * n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, n, size), dtype=np.float32)
        self._mask = np.zeros((num_envs, n, actions), dtype=np.int8)
        self._deciding = np.zeros((num_envs, n), dtype=bool)
        self.states: list = [None] * num_envs
        self._legal: list = [{} for _ in range(num_envs)]   # per game: seat -> its legal ids
        # (game i plays the deals of game first + i of a batch: a slice of a larger one)
        self._deals = [random.Random(first + i) for i in range(num_envs)]
        self.render_mode = None

    # -- one game's rows ------------------------------------------------------------------------

    def _write(self, i: int) -> None:
        """Game ``i``'s observation, masks and deciding seats, written in place."""
        st = self.states[i]
        enc, wait = self.enc, self.enc.actions.wait
        obs, mask, dec = self._obs[i], self._mask[i], self._deciding[i]
        deciding = () if st.terminal else st.current_players()
        to_id = enc.actions.to_id
        obs.fill(0)
        mask.fill(0)
        dec.fill(False)
        legal = self._legal[i] = {}
        for s in range(self.seats):
            if s in deciding:
                dec[s] = True
                row = mask[s]
                ids = legal[s] = set()
                for a in st.legal_actions(s):
                    aid = to_id(a)
                    ids.add(aid)
                    row[aid] = 1
            elif not st.terminal:
                mask[s, wait] = 1
            if self.observe_all or s in deciding:
                enc.observation(st, s, obs[s])

    def keep_arrays_in(self, obs, mask, deciding) -> None:
        """Write the observations, masks and deciding seats into these arrays (of the shapes
        of the env's own) from now on: shared memory, say (rulelang/ai/processes.py)."""
        self._obs, self._mask, self._deciding = obs, mask, deciding

    def _new_game(self, i: int, seed=None) -> None:
        if seed is not None:
            self._deals[i] = random.Random(seed)
        self.states[i] = self.cg.new_game(seed=self._deals[i].randrange(1 << 31))
        self._write(i)

    def _observations(self) -> dict:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    # -- the vector env -------------------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        for i in range(self.num_envs):
            s = seed[i] if isinstance(seed, (list, tuple)) else (None if seed is None else seed + i)
            self._new_game(i, s)
        return self._observations(), {"deciding": self._deciding.copy()}

    def step(self, actions):
        rewards = np.zeros((self.num_envs, self.seats), dtype=np.float32)
        over = np.zeros(self.num_envs, dtype=bool)
        infos = self.advance(actions, rewards, over)
        return (self._observations(), rewards, over, np.zeros(self.num_envs, dtype=bool), infos)

    def advance(self, actions, rewards, over) -> dict:
        """:meth:`step` without the copies of the observations: the games move, their new
        observations and masks are written in the arrays the env keeps, ``rewards`` (zeros) and
        ``over`` (False) are written in place, and the infos are returned.  (The worker
        processes of :class:`rulelang.ai.processes.ProcessGames` keep those arrays in shared
        memory and call this.)"""
        actions = np.asarray(actions, dtype=np.int64).tolist()
        B = self.num_envs
        final_obs = None
        final_info = None
        to_action = self.enc.actions.to_action
        for i in range(B):
            st = self.states[i]
            illegal = -1
            moves = []
            row = actions[i]
            for s, ids in sorted(self._legal[i].items()):
                aid = row[s]
                if aid not in ids:
                    illegal = s
                    break
                moves.append((s, to_action(aid)))
            if illegal < 0:
                for s, a in moves:
                    st.apply_action(a, s)
                    if st.terminal:
                        break
                if not st.terminal:
                    self._write(i)
                    continue
                rewards[i] = st.returns()
                info = {"problem": st.problem} if st.problem is not None else {}
            else:
                rewards[i, illegal] = -1.0
                info = {"illegal": illegal}
            over[i] = True
            self._write(i)
            if illegal >= 0:
                self._mask[i] = 0
            if final_obs is None:
                final_obs = np.full(B, None, dtype=object)
                final_info = np.full(B, None, dtype=object)
            final_obs[i] = {"observation": self._obs[i].copy(),
                            "action_mask": self._mask[i].copy()}
            final_info[i] = info
            self._new_game(i)
        infos = {"deciding": self._deciding.copy()}
        if final_obs is not None:
            infos["final_obs"], infos["_final_obs"] = final_obs, over.copy()
            infos["final_info"], infos["_final_info"] = final_info, over.copy()
        return infos

    def close_extras(self, **kwargs):
        self.states = [None] * self.num_envs
