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

import math
import random
from hashlib import sha512 as _sha512
from typing import Callable, Optional

from rulelang.syntax.diagnostics import did_you_mean
from rulelang.limits import MAX_AGENT_BUDGET
from rulelang.termsafe import safe


class View:
    """What one seat may know when it must decide."""

    __slots__ = ("seat", "legal", "_observe", "_words", "_obs", "_sample")

    def __init__(self, state, seat: int):
        self.seat = seat                                  # 0-based
        self.legal: list[int] = state.legal_actions(seat)
        self._observe = state.observation
        self._words = state.action_to_string
        self._obs = None
        self._sample = state.determinize

    def sample(self, rng, known: Optional[dict] = None):
        """A whole game state that this seat cannot tell from the real one: the cards it may not
        see dealt again at random, other seats' secret choices forgotten, the future reseeded
        (:meth:`rulelang.engine.runtime.State.determinize` from this seat).  A new one at every call,
        free to play on: searching agents play their what-ifs on these, never on the real game.
        ``known``: cards the agent remembers under the top of piles (see ``State.determinize``)."""
        return self._sample(self.seat, rng, known)

    @property
    def observation(self) -> dict:
        """The seat's observation (computed once, when first asked for)."""
        if self._obs is None:
            self._obs = self._observe(self.seat)
        return self._obs

    def words(self, action: int) -> str:
        """The action in words, e.g. ``play 7♥``."""
        return self._words(action)


def each_decision(st, step) -> None:
    """Play ``st`` to its end: ``step(p)`` is called for the seat ``p`` that must decide (it
    applies that seat's action); at a simultaneous decision, for each deciding seat in seat
    order until the decision is complete (an action may end the game or the decision)."""
    while not st.terminal:
        if not st.is_simultaneous():
            step(st.current_player())
        else:
            for p in list(st.current_players()):
                step(p)
                if st.terminal or not st.is_simultaneous():
                    break


class Agent:
    """Base class: decides for one seat of one game."""

    name = "agent"
    description = ""
    # An agent that takes a number (``NAME:N``): the keyword it is given as, and what it means.
    number: Optional[tuple] = None

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
        self.rng = self.generator(seat, seed)

    @staticmethod
    def generator(seat: int, seed: int) -> random.Random:
        """The generator of the random agent of ``seat`` in the game of ``seed``."""
        return random.Random(f"rulelang:{seed}:{seat}")

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


class MonteCarlo(Agent):
    """Flat Monte Carlo with determinization.  For each legal action it plays ``playouts`` games
    to the end (at most ``max_decisions`` decisions each) with every seat choosing uniformly at
    random, each from a fresh :meth:`View.sample` (a world consistent with what this seat sees),
    and takes the action whose games gave this seat the best mean return (+1 a win, -1 a loss,
    0 no winner or unfinished).  The playouts of one decision are shared among its actions
    (``budget`` in all, at least ``min_playouts`` per action).  It never sees hidden cards: it
    knows only its view, and samples hidden cards afresh for every playout.  Seeded from the
    game's seed and its seat, so the same seed replays the same game.  ``--agents mc:N`` sets
    the budget to N playouts per decision."""

    name = "mc"
    description = ("flat Monte Carlo: tries each choice in random playouts of worlds sampled "
                   "from what it sees (never the hidden cards); stronger, slower")
    number = ("budget", "`mc:N` plays N playouts per decision")

    def __init__(self, seat: int, seed: int = 0, budget: int = 100, min_playouts: int = 4,
                 max_decisions: int = 2000):
        super().__init__(seat, seed)
        self.rng = random.Random(f"rulelang:mc:{seed}:{seat}")
        self.budget = budget
        self.min_playouts = min_playouts
        self.max_decisions = max_decisions
        self.memory: dict = {}     # top-face-up pile -> card names it has seen there, bottom first

    def observe(self, view: View) -> None:
        """Called (when the caller can) after every move: remember the tops of the piles."""
        self._remember(view.observation)

    def _remember(self, obs: dict) -> None:
        """What it has seen on top of each ``top face up`` pile, position by position, while the
        pile grew; forgotten where it cannot tell any more (cards taken from under the top)."""
        mem = self.memory
        for key, z in obs["zones"].items():
            if not isinstance(z, dict) or "top" not in z:
                continue
            size, top = z["size"], z["top"]
            m = mem.get(key)
            if m is None:
                m = [None] * size
            elif size < len(m):
                m = m[:size]
                if m and m[-1] is not None and m[-1] != top:
                    m = [None] * size
            elif size > len(m):
                m = m + [None] * (size - len(m))
            if size:
                m[-1] = top
            mem[key] = m

    def _known(self) -> dict:
        return {key: {i: c for i, c in enumerate(m[:-1]) if c is not None}
                for key, m in self.memory.items() if len(m) > 1}

    def act(self, view: View) -> int:
        """Remember what the view shows; with one legal action take it, else search."""
        self._remember(view.observation)
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        return self._search(view, legal, self._known())

    def _search(self, view: View, legal: list, known: dict) -> int:
        """The chosen action among ``legal`` (two or more), worlds sampled with ``known``."""
        rng = self.rng
        seat = self.seat
        per = max(self.min_playouts, self.budget // len(legal))
        totals = [0.0] * len(legal)
        # Common random numbers: the i-th playout of every action starts from the same sampled
        # world and makes the same random choices wherever it can (the k-th choice of each seat
        # takes the legal action with the highest random key for (seat, k, action), a uniform
        # choice), so the actions are compared on equal terms, not on luck.
        for _ in range(per):
            world = view.sample(rng, known)
            key = rng.getrandbits(64)
            for k, a in enumerate(legal):
                st = world.clone()
                st.apply_action(a, seat)
                totals[k] += self._playout(st, key)[seat]
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]

    def _playout(self, st, key: int) -> list:
        """Play ``st`` to the end (or ``max_decisions``) at random and return its returns.
        On the fast path (:meth:`State.playout`): the k-th choice of each seat is
        ``_pick(legal, key, seat, k)``, as it was through the API."""
        st.playout([_Picker(key, q) for q in range(st.n)], self.max_decisions, actions=True)
        return st.returns()


class _Picker:
    """One seat's choices in an ``mc`` playout: its k-th is ``_pick(legal, key, seat, k)``."""

    __slots__ = ("key", "seat", "k")

    def __init__(self, key: int, seat: int):
        self.key, self.seat, self.k = key, seat, 0

    def __call__(self, legal: list) -> int:
        k = self.k
        self.k = k + 1
        return _pick(legal, self.key, self.seat, k)


class _Node:
    """A node of the ISMCTS tree: reached by ``action`` of ``player``; ``reward`` is the sum of
    that player's returns over the iterations through it, ``avail`` how often it was legal
    when its parent was visited (the UCB of single-observer ISMCTS counts that, not the
    parent's visits)."""

    __slots__ = ("player", "children", "visits", "reward", "avail")

    def __init__(self, player: int):
        self.player = player
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


class InformationSetMCTS(MonteCarlo):
    """Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
    2012).  Each of its ``iterations`` deals a fresh world from this seat's view
    (:meth:`View.sample`, remembering the tops of piles as ``mc`` does), walks down one tree of
    actions shared by all those worlds, choosing among the actions legal in this world by UCB
    (mean return of the acting seat plus ``c * sqrt(ln(availability) / visits)``), adds one new
    action, plays the rest at random to the end (``mc``'s playout) and backs the returns up.
    The seats' decisions are all in the tree (a child per seat and action), each scored for the
    seat that acts there;
    a simultaneous decision enters it as its seats' choices one after the other.  It takes the
    most visited action.  It never sees hidden cards (only its view, and worlds sampled from it).
    Seeded from the game's seed and its seat.  ``--agents ismcts:N`` runs N iterations per
    decision."""

    name = "ismcts"
    description = ("information-set MCTS: one search tree over worlds sampled from what it sees "
                   "(never the hidden cards); ismcts:N runs N iterations per decision")
    number = ("iterations", "`ismcts:N` runs N iterations per decision")

    def __init__(self, seat: int, seed: int = 0, iterations: int = 200, c: float = 0.7,
                 max_decisions: int = 2000):
        super().__init__(seat, seed, max_decisions=max_decisions)
        self.rng = random.Random(f"rulelang:ismcts:{seed}:{seat}")
        self.iterations = iterations
        self.c = c

    def _search(self, view: View, legal: list, known: dict) -> int:
        rng = self.rng
        seat = self.seat
        root = _Node(-1)
        log = math.log
        sqrt = math.sqrt
        c = self.c
        for _ in range(self.iterations):
            st = view.sample(rng, known)
            node = root
            path = [root]
            first = True
            while not st.terminal:
                p = seat if first else st.current_player()
                acts = legal if first else st.legal_actions(p)
                first = False
                kids = node.children
                untried = [a for a in acts if (p, a) not in kids]
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = kids[p, a] = _Node(p)
                    for b in acts:
                        if (p, b) in kids:
                            kids[p, b].avail += 1
                    st.apply_action(a, p)
                    path.append(child)
                    break
                best, best_u = None, -1e300
                for b in acts:
                    ch = kids[p, b]
                    ch.avail += 1
                    u = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if u > best_u:
                        best, best_u = ch, u
                        a = b
                st.apply_action(a, p)
                node = best
                path.append(node)
            ret = self._playout(st, rng.getrandbits(64)) if not st.terminal else st.returns()
            for nd in path:
                nd.visits += 1
                if nd.player >= 0:
                    nd.reward += ret[nd.player]
        kids = root.children
        return max(legal, key=lambda a: (kids[seat, a].visits, kids[seat, a].reward)
                   if (seat, a) in kids else (0, 0.0))


_M64 = (1 << 64) - 1


def _pick(legal: list, key: int, seat: int, k: int) -> int:
    """The legal action with the highest pseudo-random key for (key, seat, k, action): a uniform
    choice among ``legal``, the same one again for the same arguments and an action legal in both."""
    if len(legal) == 1:
        return legal[0]
    base = (key ^ (seat * 0x9E3779B97F4A7C15) ^ (k * 0xBF58476D1CE4E5B9)) & _M64
    best, best_h = legal[0], -1
    for a in legal:
        h = ((base ^ (a * 0x94D049BB133111EB)) * 0xD6E8FEB86659FD93) & _M64
        h ^= h >> 32
        h = (h * 0xD6E8FEB86659FD93) & _M64
        h ^= h >> 29
        if h > best_h:
            best, best_h = a, h
    return best


def fast_policy_of(names: list, seed: int) -> Optional[list]:
    """For :meth:`rulelang.engine.runtime.State.playout`: one function ``number of choices ->
    index`` per seat that chooses exactly as the agents ``names`` of the game of ``seed`` would
    (the same draws from the same generators), made without making the agents (``run --games``
    and ``stats`` make it for every game); None when an agent is not a plain ``random`` or
    ``first``."""
    out = []
    for seat, name in enumerate(names):
        if name == "random":            # what UniformRandom.act draws: randrange(k), which is
            rng = UniformRandom.generator(seat, seed)   # _randbelow(k) for k > 0
            out.append(getattr(rng, "_randbelow", rng.randrange))
        elif name == "first":           # index 0 whatever the number of choices
            out.append((0).__mul__)
        else:
            return None
    return out


class SeededPolicies:
    """:func:`fast_policy_of` for game after game: the same functions (``policy``, one per seat),
    their generators seeded again for each game by :meth:`seed` instead of made anew.  A
    generator seeded again from the same text has the state of a new one (Python seeds a
    generator from a text through its bytes and their SHA-512, done here as it does it, without
    making an object and its first, unused seeding)."""

    def __init__(self, names: list):
        self.policy: list = []
        self.generators: list = []          # (text prefix of the seed, generator)
        for seat, name in enumerate(names):
            if name == "random":
                rng = random.Random(0)
                self.generators.append((f":{seat}".encode(), rng))
                self.policy.append(getattr(rng, "_randbelow", rng.randrange))
            elif name == "first":
                self.policy.append((0).__mul__)
            else:
                raise ValueError(f"no fast policy for the agent {name!r}")

    def seed(self, seed: int) -> None:
        """Seed every seat's generator as :meth:`UniformRandom.generator` would for ``seed``."""
        head = b"rulelang:%d" % seed
        for tail, rng in self.generators:
            a = head + tail
            _seed_int(rng, int.from_bytes(a + _sha512(a).digest()))


def _seeds_as_python_does() -> bool:
    """Whether :meth:`SeededPolicies.seed` gives the state ``random.Random(text)`` gives (true
    of the Pythons rulelang supports; checked once, else the generators are made anew)."""
    a = b"rulelang:7:1"
    r = random.Random(0)
    _seed_int(r, int.from_bytes(a + _sha512(a).digest()))
    return r.getstate() == random.Random(a.decode()).getstate()


def seeded_policies(names: list) -> Optional[SeededPolicies]:
    """:class:`SeededPolicies` of ``names``, or None when an agent is not a plain ``random`` or
    ``first`` (or this Python seeds from a text otherwise)."""
    global _SAME_SEEDING
    if any(nm not in ("random", "first") for nm in names):
        return None
    if _SAME_SEEDING is None:
        _SAME_SEEDING = _seeds_as_python_does()
    return SeededPolicies(names) if _SAME_SEEDING else None


_SAME_SEEDING: Optional[bool] = None
_seed_int = random.Random.__mro__[1].seed    # _random.Random.seed: seeding from a number, in C


AGENTS: dict[str, type] = {cls.name: cls
                           for cls in (UniformRandom, FirstChoice, MonteCarlo, InformationSetMCTS,
                                       HumanAgent)}


class AgentError(ValueError):
    """A bad ``--agents`` value; ``hint`` says how to fix it."""

    def __init__(self, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.hint = hint


def _spec(name: str) -> tuple:
    """The class and keyword arguments of the agent named ``name`` (``NAME`` or ``NAME:N``)."""
    base, colon, arg = name.partition(":")
    cls = AGENTS.get(base)
    if cls is None:
        hint = did_you_mean(base, AGENTS) or ""
        raise AgentError(f"unknown agent `{name}`",
                         (hint + " " if hint else "") + f"the agents are: {', '.join(AGENTS)}")
    if not colon:
        return cls, {}
    digits = arg.isascii() and arg.isdigit() and len(arg) <= 20    # (not `1_0`, nor `٣`)
    if cls.number is None or not digits or int(arg) < 1:
        takes = [f"{c.number[1]}" for c in AGENTS.values() if c.number]
        raise AgentError(f"bad agent `{safe(name)}`", "a number goes only after an agent that "
                         "takes one, written with the digits 0-9: " + "; ".join(takes))
    if int(arg) > MAX_AGENT_BUDGET:
        raise AgentError(f"bad agent `{name}`: at most {MAX_AGENT_BUDGET:,} after `{base}:`",
                         f"{cls.number[1]}, from 1 to {MAX_AGENT_BUDGET:,}")
    return cls, {cls.number[0]: int(arg)}


def agent_names(spec: Optional[str], seats: int, default: str = "random") -> list[str]:
    """One agent name per seat from ``--agents``: a single name for every seat or a
    comma-separated list with one name per seat."""
    if spec is None or not spec.strip():
        return [default] * seats
    names = [s.strip().lower() for s in spec.split(",")]
    for nm in names:
        _spec(nm)
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise AgentError(f"--agents names {len(names)} agents but the game has {seats} players",
                         "give one name for every seat, or a single name for all of them")
    return names


def make_agent(name: str, seat: int, seed: int = 0, **kwargs) -> Agent:
    """A new agent called ``name`` (``NAME`` or ``NAME:N``) for ``seat`` (0-based)."""
    cls, args = _spec(name)
    if cls is HumanAgent:
        return cls(seat, seed, **kwargs)
    return cls(seat, seed, **args)
