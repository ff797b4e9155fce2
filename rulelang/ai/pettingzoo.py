"""Any rule file as a PettingZoo AEC environment (needs the ``ai`` extra:
``pip install 'rulelang[ai]'``).

:func:`env` returns a :class:`RulelangEnv`::

    from rulelang.ai.pettingzoo import env
    e = env("examples/crazy_eights.cardrules", players=2)
    e.reset(seed=1)

* Agents ``player_1`` ... ``player_N``; ``agent_selection`` is the seat that must decide (the
  rules say who: turns need not go round).
* Observation of an agent: ``{"observation": float32 tensor, "action_mask": int8 mask}``, the
  tensor of :mod:`rulelang.ai.tensors` (the same as OpenSpiel's observation tensor) and the mask over
  the global action ids (``Discrete`` action space of the same size).
* A simultaneous decision (``simultaneously choose``): the seats that decide act one after the
  other in the AEC cycle; each choice stays secret (no seat's observation shows another's
  pending choice) and the rules go on when the last one has chosen.
* Rewards at the end: +1 each winner, -1 each other seat, 0 with no winner.  A game that cannot
  go on (a rule problem, the step budget spent) ends with 0 for everyone and its problem in
  ``infos[agent]["problem"]``.
* ``reset(seed=s)`` seeds the sequence of deals: the k-th game after it is a rulelang game whose
  seed is drawn from ``random.Random(s)``; the same seed replays the same games.

:func:`parallel_env` returns a :class:`RulelangParallelEnv`, PettingZoo's other form: every
agent acts at every step, in one dict.

* ``agents`` is every seat while the game goes on, ``[]`` once it is over.
* At a step the seats that must decide (one at a turn-based decision, several at a
  ``simultaneously choose``) act together: their actions are applied in seat order and the
  rules go on.  The others' actions are not used: their mask allows only ``wait`` (the last
  action id, as at OpenSpiel's simultaneous nodes), and whatever they send is ignored.
* An action outside the deciding seat's mask ends the game (PettingZoo's convention for
  illegal moves): that seat gets -1, the others 0, and ``infos[agent]["illegal"]`` is True
  for it.  A deciding seat that sends no action at all is an error (KeyError).
* Observations, rewards at the end, ``infos[agent]["problem"]`` and seeding are as in the AEC
  env; ``rewards`` is 0 at every step but the last.
"""
from __future__ import annotations

import json
import random
from sys import getrefcount
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable

from rulelang.ai.tensors import Live, encoding, load_compiled


def _zeros(size):
    return np.zeros(size, np.float32)


def env(path: str, players: Optional[int] = None, options: Optional[dict] = None,
        render_mode: Optional[str] = None) -> "RulelangEnv":
    """The AEC environment of the rule file at ``path`` for ``players`` players (default: the
    fewest it allows), with ``options`` set as by ``--set``."""
    return RulelangEnv(path, players, options, render_mode)


def parallel_env(path: str, players: Optional[int] = None, options: Optional[dict] = None,
                 render_mode: Optional[str] = None) -> "RulelangParallelEnv":
    """The parallel environment of the rule file at ``path`` (arguments as for :func:`env`)."""
    return RulelangParallelEnv(path, players, options, render_mode)


class _Common:
    """What both environments share: the compiled game, its encoding, agents and spaces, the
    observation of a seat, the sequence of deals and ``render``."""

    def _setup(self, path, players, options, render_mode):
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
        self._live = None
        self._n_actions = actions
        self._wait = self.enc.actions.wait
        self._id_of = self.enc.actions.id_of.__getitem__
        self._action_of = self.enc.actions.action_of
        # two action masks a seat (2 * seat, 2 * seat + 1), kept and handed out read-only (see
        # _mask), the bytearray under each (what writes it) and the ids it has at 1
        self._mslot = [2 * seat for seat in range(n)]
        self._masks: list = [None] * 2 * n
        self._puts: list = [None] * 2 * n
        self._no_ids = bytes(actions)
        self._twin_keys = self.enc.twin_keys
        self._mfree = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _mask(self, seat: int):
        """The legal action ids of ``seat`` now, as a mask (all 0 when it has nothing to decide):
        one of the seat's two kept arrays that nobody else holds (their reference counts say
        so), set back to 0 (in C) and its new ids to 1; a new array when both are held."""
        st = self.state_
        m = self._mslot[seat]
        if self._masks[m] is not None and getrefcount(self._masks[m]) > self._mfree:
            m = self._mslot[seat] = m ^ 1           # (the last one is held: the other one)
        if self._masks[m] is None or getrefcount(self._masks[m]) > self._mfree:
            put = self._puts[m] = bytearray(self._n_actions)
            self._masks[m] = np.frombuffer(put, dtype=np.int8)
            self._masks[m].flags.writeable = False          # (written through put only)
            self._mfree = getrefcount(self._masks[m])
        else:
            put = self._puts[m]
            put[:] = self._no_ids               # (all 0 again: one copy in C)
        if not st.terminal:
            d = st.awaiting
            if d.__class__ is tuple:            # (one seat decides: its actions, read here)
                if d[0] == seat:
                    legal = d[1]
                    keys = self._twin_keys
                    if keys is not None and len({*map(keys, legal)}) != len(legal):
                        legal = self.enc.decision_ids(legal)    # (copies of a card merged)
                    else:
                        legal = map(self._id_of, legal)
                    for i in legal:             # (a few: one by one, into the bytearray)
                        put[i] = 1
            elif seat in st.current_players():
                for i in map(self._id_of, st.legal_actions(seat)):
                    put[i] = 1
        return self._masks[m]

    def observe(self, agent):
        seat = self.seat[agent]
        # (the seat's tensor kept for this game and brought up to date from what changed;
        # read-only, and never changed while the caller holds it)
        return {"observation": self._live.observation(self.state_, seat),
                "action_mask": self._mask(seat)}

    def _new_game(self, seed):
        if seed is not None:
            self._deals = random.Random(seed)
        self.state_ = self.cg.new_game(seed=self._deals.randrange(1 << 31))
        if self._live is None:
            self._live = Live(self.enc, _zeros, readonly=True)
        else:                       # (its buffers zeroed in place, those still held let go)
            self._live.reset()

    def _problem(self) -> dict:
        st = self.state_
        return {"problem": st.problem} if st.terminal and st.problem is not None else {}

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


class _AgentIterable(AECIterable):
    """What :meth:`RulelangEnv.agent_iter` returns: an ``AECIterable`` whose iterator is a
    generator that ends as ``AECIterator`` does (no agents left, or ``max_iter`` reached)."""

    def __iter__(self):
        return _agents(self.env, self.max_iter)


def _agents(env, left: int):
    while env.agents and left > 0:
        left -= 1
        yield env.agent_selection


class RulelangEnv(_Common, AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "rulelang_v0",
                "is_parallelizable": False}

    def __init__(self, path: str, players: Optional[int] = None,
                 options: Optional[dict] = None, render_mode: Optional[str] = None):
        super().__init__()
        self._setup(path, players, options, render_mode)

    def reset(self, seed=None, options=None):
        self._new_game(seed)
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
                self.infos[a] = self._problem()
            if getattr(self, "agent_selection", None) not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[st.current_player()]

    def agent_iter(self, max_iter: int = 2**63):
        """As :meth:`AECEnv.agent_iter` (the agent to act, while there are agents, at most
        ``max_iter`` times), its iterator a generator: resuming one costs less than calling
        ``AECIterator.__next__``."""
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True):
        """As :meth:`AECEnv.last`: the observation, cumulative reward, termination, truncation
        and info of ``agent_selection`` (the observation made here, without a call to
        :meth:`observe`)."""
        agent = self.agent_selection
        if observe:
            seat = self.seat[agent]
            obs = {"observation": self._live.observation(self.state_, seat),
                   "action_mask": self._mask(seat)}
        else:
            obs = None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_
        aid = int(action)
        if not 0 <= aid < self._wait:
            raise ValueError(f"action id {aid} is not an action of the rules")
        self._cumulative_rewards[agent] = 0.0
        st.apply_action(self._action_of[aid], self.seat[agent])
        if st.terminal:             # (the rewards are 0 before the end: nothing to add up)
            self._after_move()
            self._accumulate_rewards()
        else:                       # (the seat to decide, read from the decision)
            d = st.awaiting
            self.agent_selection = self.possible_agents[d[0] if d.__class__ is tuple
                                                        else d.seat]
        if self.render_mode == "human":
            self.render()


class RulelangParallelEnv(_Common, ParallelEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "rulelang_parallel_v0"}

    def __init__(self, path: str, players: Optional[int] = None,
                 options: Optional[dict] = None, render_mode: Optional[str] = None):
        self._setup(path, players, options, render_mode)
        self.agents = []

    def _wait_mask(self):
        mask = np.zeros(self.enc.actions.size, dtype=np.int8)
        mask[self.enc.actions.wait] = 1
        return mask

    def _observations(self) -> dict:
        st = self.state_
        out = {}
        for a in self.possible_agents:
            o = self.observe(a)
            if not st.terminal and self.seat[a] not in st.current_players():
                o["action_mask"] = self._wait_mask()
            out[a] = o
        return out

    def reset(self, seed=None, options=None):
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict):
        st = self.state_
        agents = self.agents
        if not agents:
            raise ValueError("the game is over: call reset()")
        deciding = [self.possible_agents[q] for q in sorted(st.current_players())]
        illegal = None
        for a in deciding:
            aid = int(actions[a])
            if not (0 <= aid < self.enc.actions.size and self._mask(self.seat[a])[aid]):
                illegal = a
                break
        if illegal is None:
            moves = [(self.seat[a], self._action_of[int(actions[a])])
                     for a in deciding]
            for seat, action in moves:
                st.apply_action(action, seat)
                if st.terminal:
                    break
        over = st.terminal or illegal is not None
        if illegal is not None:
            rewards = {a: -1.0 if a == illegal else 0.0 for a in agents}
            infos = {a: {"illegal": a == illegal} for a in agents}
        elif over:
            ret = st.returns()
            rewards = {a: float(ret[self.seat[a]]) for a in agents}
            infos = {a: self._problem() for a in agents}
        else:
            rewards = {a: 0.0 for a in agents}
            infos = {a: {} for a in agents}
        obs = self._observations()
        if over and not st.terminal:
            for o in obs.values():
                o["action_mask"] = np.zeros(self._n_actions, dtype=np.int8)
        terminations = {a: over for a in agents}
        truncations = {a: False for a in agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos
