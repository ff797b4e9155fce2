"""Any rule file as a PettingZoo AEC environment (needs the ``ai`` extra:
``pip install 'rulelang[ai]'``).

:func:`env` returns a :class:`RulelangEnv`::

    from rulelang.pettingzoo import env
    e = env("examples/crazy_eights.cardrules", players=2)
    e.reset(seed=1)

* Agents ``player_1`` ... ``player_N``; ``agent_selection`` is the seat that must decide (the
  rules say who: turns need not go round).
* Observation of an agent: ``{"observation": float32 tensor, "action_mask": int8 mask}``, the
  tensor of :mod:`rulelang.tensors` (the same as OpenSpiel's observation tensor) and the mask over
  the global action ids (``Discrete`` action space of the same size).
* A simultaneous decision (``simultaneously choose``): the seats that decide act one after the
  other in the AEC cycle; each choice stays secret (no seat's observation shows another's
  pending choice) and the rules go on when the last one has chosen.
* Rewards at the end: +1 each winner, -1 each other seat, 0 with no winner.  A game that cannot
  go on (a rule problem, the step budget spent) ends with 0 for everyone and its problem in
  ``infos[agent]["problem"]``.
* ``reset(seed=s)`` seeds the sequence of deals: the k-th game after it is a rulelang game whose
  seed is drawn from ``random.Random(s)``; the same seed replays the same games.
"""
from __future__ import annotations

import json
import random
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .tensors import encoding, load_compiled


def env(path: str, players: Optional[int] = None, options: Optional[dict] = None,
        render_mode: Optional[str] = None) -> "RulelangEnv":
    """The AEC environment of the rule file at ``path`` for ``players`` players (default: the
    fewest it allows), with ``options`` set as by ``--set``."""
    return RulelangEnv(path, players, options, render_mode)


class RulelangEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "rulelang_v0",
                "is_parallelizable": False}

    def __init__(self, path: str, players: Optional[int] = None,
                 options: Optional[dict] = None, render_mode: Optional[str] = None):
        super().__init__()
        self.cg = load_compiled(path, players, options)
        self.enc = encoding(self.cg)
        n = self.cg.n
        self.possible_agents = [f"player_{i + 1}" for i in range(n)]
        self.seat = {a: i for i, a in enumerate(self.possible_agents)}
        size, actions = self.enc.size, self.enc.actions.size
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.render_mode = render_mode
        self._deals = random.Random(0)
        self.state_ = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        st = self.state_
        seat = self.seat[agent]
        obs = np.asarray(self.enc.observation(st, seat), dtype=np.float32)
        mask = np.zeros(self.enc.actions.size, dtype=np.int8)
        if not st.terminal and seat in st.pending:
            mask[self.enc.legal_ids(st, seat)] = 1
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._deals = random.Random(seed)
        self.state_ = self.cg.new_game(seed=self._deals.randrange(1 << 31))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._after_move()

    def _after_move(self):
        st = self.state_
        if st.terminal:
            ret = st.returns()
            for a in self.agents:
                self.rewards[a] = float(ret[self.seat[a]])
                self.terminations[a] = True
                if st.problem is not None:
                    self.infos[a] = {"problem": st.problem}
            if getattr(self, "agent_selection", None) not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[st.pending[0]]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_
        seat = self.seat[agent]
        self._cumulative_rewards[agent] = 0.0
        st.apply_action(self.enc.actions.to_action(int(action)), seat)
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        st = self.state_
        seat = st.current_player() if not st.terminal else 0
        text = json.dumps(st.observation(max(seat, 0)), ensure_ascii=False)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.state_ = None
