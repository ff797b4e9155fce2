"""Players that are not the rules: computer agents and the human at the terminal.

An agent decides for one seat.  It never gets the game state itself, only a :class:`View`: the
seat's legal actions, and on demand what that seat may see (:meth:`State.observation`) and the
words for an action.  So an agent cannot peek at hidden cards, and the cheap ones (``random``,
``first``) cost nothing beyond the list of legal actions.

Agents are made by name from :data:`AGENTS` with :func:`make_agent`; :func:`agent_names` turns
the ``--agents`` option (one name for every seat, or one per seat separated by commas) into a
list of names and explains a typo with a did-you-mean.
"""
from __future__ import annotations

import random
from typing import Callable, Optional

from .diagnostics import did_you_mean


class View:
    """What one seat may know when it must decide."""

    __slots__ = ("seat", "legal", "_observe", "_words", "_obs")

    def __init__(self, state, seat: int):
        self.seat = seat                                  # 0-based
        self.legal: list[int] = state.legal_actions(seat)
        self._observe = state.observation
        self._words = state.action_to_string
        self._obs = None

    @property
    def observation(self) -> dict:
        """The seat's observation (computed once, when first asked for)."""
        if self._obs is None:
            self._obs = self._observe(self.seat)
        return self._obs

    def words(self, action: int) -> str:
        """The action in words, e.g. ``play 7♥``."""
        return self._words(action)


class Agent:
    """Base class: decides for one seat of one game."""

    name = "agent"
    description = ""

    def __init__(self, seat: int, seed: int = 0):
        self.seat = seat
        self.seed = seed

    def act(self, view: View) -> int:
        raise NotImplementedError


class UniformRandom(Agent):
    """Uniformly random among the legal actions.  Its generator is seeded from the game's seed
    and its seat, so the same seed replays the same game."""

    name = "random"
    description = "picks uniformly among the legal choices (seeded from --seed and the seat)"

    def __init__(self, seat: int, seed: int = 0):
        super().__init__(seat, seed)
        self.rng = random.Random(f"rulelang:{seed}:{seat}")

    def act(self, view: View) -> int:
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]


class FirstChoice(Agent):
    """Always the first legal action: deterministic, handy for tests."""

    name = "first"
    description = "always takes the first legal choice (deterministic)"

    def act(self, view: View) -> int:
        return view.legal[0]


class QuitGame(Exception):
    """Raised by a human agent who wants to stop playing."""


class HumanAgent(Agent):
    """A person.  The terminal dialogue belongs to the command line: it passes ``ask``, a function
    from a :class:`View` to one of ``view.legal`` (it may raise :class:`QuitGame`)."""

    name = "human"
    description = "you, at the terminal (used by `rulelang play`)"

    def __init__(self, seat: int, seed: int = 0, ask: Optional[Callable[[View], int]] = None):
        super().__init__(seat, seed)
        self.ask = ask

    def act(self, view: View) -> int:
        if self.ask is None:
            raise QuitGame("no terminal to ask the human player")
        return self.ask(view)


AGENTS: dict[str, type] = {cls.name: cls for cls in (UniformRandom, FirstChoice, HumanAgent)}


class AgentError(ValueError):
    """A bad ``--agents`` value; ``hint`` says how to fix it."""

    def __init__(self, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.hint = hint


def agent_names(spec: Optional[str], seats: int, default: str = "random") -> list[str]:
    """One agent name per seat from ``--agents``: a single name for every seat or a
    comma-separated list with one name per seat."""
    if spec is None or not spec.strip():
        return [default] * seats
    names = [s.strip().lower() for s in spec.split(",")]
    for nm in names:
        if nm not in AGENTS:
            hint = did_you_mean(nm, AGENTS) or ""
            known = ", ".join(AGENTS)
            raise AgentError(f"unknown agent `{nm}`",
                             (hint + " " if hint else "") + f"the agents are: {known}")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise AgentError(f"--agents names {len(names)} agents but the game has {seats} players",
                         "give one name for every seat, or a single name for all of them")
    return names


def make_agent(name: str, seat: int, seed: int = 0, **kwargs) -> Agent:
    """A new agent called ``name`` for ``seat`` (0-based)."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise AgentError(f"unknown agent `{name}`", did_you_mean(name, AGENTS)) from None
    if cls is HumanAgent:
        return cls(seat, seed, **kwargs)
    return cls(seat, seed)
