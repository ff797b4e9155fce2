"""Any rule file as an OpenSpiel game (needs the ``ai`` extra: ``pip install 'rulelang[ai]'``).

:func:`load_game` registers a rule file, with a number of players and option values, as a
pyspiel Python game and returns the ``pyspiel.Game``::

    from rulelang.ai.openspiel import load_game
    game = load_game("examples/crazy_eights.cardrules", players=2)
    state = game.new_initial_state()

* Dynamics: ``SEQUENTIAL``, or ``SIMULTANEOUS`` when the rules have a ``simultaneously choose``
  (its decisions are simultaneous nodes; the other decisions are ordinary one-player nodes, and
  at a simultaneous node a seat that has nothing to decide has the one action ``wait``).
* Chance: ``EXPLICIT_STOCHASTIC`` with one chance node, the first: chance picks one of
  ``deals`` (default 1024) outcomes uniformly, and outcome k starts the rulelang game of seed
  ``seed * 1_000_003 + k`` (``seed`` and ``deals`` are the game's parameters).  Every later
  shuffle or die of the rules follows from that seed.  (Not ``SAMPLED_STOCHASTIC``: OpenSpiel
  serialises such a game with its random generator's state, which a Python game cannot give.)
  No seat ever observes the outcome.
* Information: imperfect.  Utility: zero-sum for two players when every ending names one winner
  or loser (or no winner), general-sum otherwise.  Reward: terminal (+1 each winner, -1 each
  other seat, 0 for all with no winner or when the step budget is spent; a game that declares
  ``returns:`` gives its numbers instead, with utilities bounded by the language's numbers).
* ``num_distinct_actions``: the global action ids of :class:`rulelang.ai.tensors.ActionSpace`;
  ``max_game_length``: the step budget (each decision costs at least one step).
* Observation and information-state strings and tensors: :mod:`rulelang.ai.tensors`.
* Serialisation: a state pickles as its :meth:`rulelang.engine.runtime.State.to_json` (plus the seats'
  trails), so ``pyspiel.serialize_game_and_state`` round-trips it.
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Optional

import numpy as np
import pyspiel

from rulelang.engine.runtime import State
from rulelang.limits import MAX_NUMBER
from rulelang.ai.tensors import Live, Trail, encoding, has_simultaneous, load_compiled, zero_sum

_CHANCE = pyspiel.PlayerId.CHANCE
_TERMINAL = pyspiel.PlayerId.TERMINAL
_SIMULTANEOUS = pyspiel.PlayerId.SIMULTANEOUS
DEALS = 1024               # chance outcomes of the first node, by default
_GAMES: dict = {}          # short name -> the compiled game
_TYPES: dict = {}          # short name -> its pyspiel.GameType


def load_game(path: str, players: Optional[int] = None, options: Optional[dict] = None,
              seed: int = 0, deals: int = 0) -> "pyspiel.Game":
    """Register the rule file at ``path`` (for ``players`` players, default the fewest it allows,
    with ``options`` set as by ``--set``) as a pyspiel game and load it with ``seed`` and
    ``deals`` chance outcomes (0: the default, 1024)."""
    path = os.path.abspath(path)
    options = dict(options or {})
    cg = load_compiled(path, players, options)
    key = json.dumps([path, cg.n, sorted((k, str(v)) for k, v in options.items())])
    short = "rulelang_" + hashlib.sha1(key.encode()).hexdigest()[:12]
    if short not in _GAMES:
        _GAMES[short] = cg
        gtype = pyspiel.GameType(
            short_name=short,
            long_name=f"rulelang {cg.name} ({os.path.basename(path)}, {cg.n} players)",
            dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if has_simultaneous(cg)
                      else pyspiel.GameType.Dynamics.SEQUENTIAL),
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum(cg)
                     else pyspiel.GameType.Utility.GENERAL_SUM),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=cg.n,
            min_num_players=cg.n,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={"seed": 0, "deals": DEALS})
        _TYPES[short] = gtype
        cls = type(f"RulelangGame_{short}", (RulelangGame,), {"_short": short})
        pyspiel.register_game(gtype, cls)
    return pyspiel.load_game(short, {"seed": int(seed), "deals": int(deals or DEALS)})


class RulelangGame(pyspiel.Game):
    """A rule file as a pyspiel game (made by :func:`load_game`)."""

    _short = ""

    def __init__(self, params=None):
        params = dict(params or {})
        cg = _GAMES[self._short]
        self.cg = cg
        self.enc = encoding(cg)
        zs = zero_sum(cg)
        self.seed = int(params.get("seed", 0))
        self.deals = max(1, int(params.get("deals", DEALS)))
        # (the chance node's outcomes, made once: a new game asks for them)
        self.outcomes = [(i, 1.0 / self.deals) for i in range(self.deals)]
        self.outcome_ids = list(range(self.deals))
        # (declared returns are numbers of the language: any whole number it can hold)
        bound = 1.0 if getattr(cg, "returns_fn", None) is None else float(MAX_NUMBER)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.enc.actions.size,
            max_chance_outcomes=self.deals,
            num_players=cg.n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if zs else None,
            max_game_length=cg.max_steps)
        super().__init__(_TYPES[self._short], info, {"seed": self.seed, "deals": self.deals})

    def new_initial_state(self):
        return RulelangState(self)

    def __reduce__(self):
        return _game_by_name, (self._short, self.seed, self.deals)

    def deal(self, k: int) -> State:
        """The rulelang game of chance outcome ``k``."""
        return self.cg.new_game(seed=self.deal_seed(k))

    def deal_seed(self, k: int) -> int:
        """The seed of the rulelang game of chance outcome ``k``."""
        return self.seed * 1_000_003 + k

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RulelangObserver(self.enc, recall)


def _zeros(size):
    return np.zeros(size, np.float32)


class _Box:
    """The Python side of a :class:`RulelangState`, its only attribute: OpenSpiel clones a
    Python state by deep-copying its attributes and serialises it by pickling them, so this
    copies with :meth:`State.clone` and pickles as :meth:`State.to_json` (not the compiled game).
    It also keeps the encoding and the seats' tensors as they were last asked for
    (:class:`rulelang.ai.tensors.Live`: the observation and the information state), brought up
    to date from what changed at the next request, and copied with the state.

    The seats' :class:`Trail` (what each has seen and done, for the information state) is
    made when it is first asked for: until then the box keeps the seed of the deal and the
    moves since (``moves``, each a tuple of (seat, action id)), and the trail is made by
    playing them again from the deal (the same seed and actions play the same game), then kept
    up to date at every move.  A game played without information states so costs a list's
    append a move, not a look at the zones that changed.  A box whose state was not dealt here
    (a re-dealt world, a state read back) has its trail from the start."""

    __slots__ = ("short", "st", "kept", "enc", "obs", "info", "seed", "moves")

    def __init__(self, short, st, trail, obs=None, info=None, seed=None, moves=None):
        self.short, self.st, self.kept = short, st, trail
        self.enc = encoding(_GAMES[short])
        self.obs, self.info = obs, info
        self.seed, self.moves = seed, moves

    @property
    def trail(self) -> Optional[Trail]:
        """The seats' trail (None before the deal), made now if nobody asked for it yet."""
        t = self.kept
        if t is None and self.st is not None:
            t = self.kept = self._replay()
        return t

    def _replay(self) -> Trail:
        """The trail of the moves since the deal, looked at as they are played again."""
        st = _GAMES[self.short].new_game(seed=self.seed)
        t = Trail(self.enc, st)
        action_of = self.enc.actions.action_of
        for move in self.moves or ():
            for p, aid in move:
                st.apply_action(action_of[aid], p)
                t.acted(p, aid)
            t.after(st)
        self.moves = None
        return t

    def __deepcopy__(self, memo):
        if self.st is None:
            return _Box(self.short, None, None)
        return _Box(self.short, self.st.clone(),
                    None if self.kept is None else self.kept.copy(),
                    None if self.obs is None else self.obs.copy(),
                    None if self.info is None else self.info.copy(),
                    self.seed, None if self.moves is None else self.moves[:])

    def tensor(self, seat: int, recall: bool):
        """``seat``'s observation (or, with ``recall``, information state) now: an array kept
        by the box (copy it to keep it)."""
        if recall:
            if self.info is None:
                self.info = Live(self.enc, _zeros, recall=True)
            return self.info.observation(self.st, seat, self.trail)
        if self.obs is None:
            self.obs = Live(self.enc, _zeros)
        return self.obs.observation(self.st, seat)

    def view(self, seat: int, recall: bool):
        """:meth:`tensor`, as the memoryview that writes it."""
        live = self.info if recall else self.obs
        if live is None:                # (made at the first request)
            self.tensor(seat, recall)
            live = self.info if recall else self.obs
        else:
            live.observation(self.st, seat, self.trail if recall else None)
        return live.views[live.slot[seat]]

    def __reduce__(self):
        saved = None if self.st is None else [self.st.to_json(), self.trail.to_json()]
        return _box_from_json, (self.short, saved)


def _box_from_json(short, saved):
    if saved is None:
        return _Box(short, None, None)
    cg = _GAMES[short]
    return _Box(short, State.from_json(cg, saved[0]), Trail.from_json(encoding(cg), saved[1]))


class RulelangState(pyspiel.State):
    """One position: a rulelang :class:`~rulelang.engine.runtime.State` (None before the chance node)
    and each seat's :class:`~rulelang.ai.tensors.Trail`."""

    def __init__(self, game):
        super().__init__(game)
        self.box = _Box(game._short, None, None)

    @property
    def st(self):
        return self.box.st

    @property
    def trail(self):
        return self.box.trail

    @property
    def enc(self):
        return self.box.enc

    def current_player(self):
        st = self.box.st
        if st is None:
            return _CHANCE
        if st.terminal:
            return _TERMINAL
        d = st.awaiting
        if d.__class__ is tuple:        # (one seat decides: the common case)
            return d[0]
        if d.simultaneous:
            return _SIMULTANEOUS
        return st.current_player()

    def chance_outcomes(self):
        return self.get_game().outcomes

    # pyspiel answers these in C++ by calling back into Python (current_player, is_terminal,
    # _legal_actions): one crossing each, which costs more than the answer.  Called from
    # Python they are answered here, as PyState::LegalActions and State::IsChanceNode answer
    # them (C++ callers still take pyspiel's way, to the same answers).
    def legal_actions(self, player=None):
        """The legal action ids of ``player`` (default: the one to play): the chance outcomes
        at the chance node, [] at the end or for a seat that has nothing to decide."""
        box = self.box
        st = box.st
        if st is None:
            return self.get_game().outcome_ids[:]
        d = st.awaiting
        if d.__class__ is tuple and not st.terminal:        # (one seat decides: most often)
            if player is None or player == d[0]:        # (read from the decision)
                ids = box.enc.decision_ids(d[1])
                ids.sort()
                return ids
            if player < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        cur = self.current_player()
        if player is None:
            player = cur
        if cur == _TERMINAL:
            return []
        if cur == _CHANCE:
            return self.get_game().outcome_ids[:]
        if player == cur or (player >= 0 and cur == _SIMULTANEOUS):
            return self._legal_actions(player)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self):
        return self.box.st is None

    def is_simultaneous_node(self):
        return self.current_player() == _SIMULTANEOUS

    def is_player_node(self):
        return self.current_player() >= 0

    def _legal_actions(self, player):
        box = self.box
        st = box.st
        if st is None or st.terminal:
            return []
        if st.is_simultaneous() and player not in st.current_players():
            return [box.enc.actions.wait]
        return box.enc.legal_ids(st, player)

    def _apply_action(self, action):
        box = self.box
        st = box.st
        if st is None:                  # (the deal: its seed kept, the trail made when asked)
            game = self.get_game()
            box.seed = game.deal_seed(action)
            box.st = game.cg.new_game(seed=box.seed)
            box.moves = []
            return
        d = st.awaiting                 # (the seat to decide, read from the decision)
        p = d[0] if d.__class__ is tuple else st.current_player()
        acts = box.enc.actions
        if not 0 <= action < acts.wait:
            raise ValueError(f"action id {action} is not an action of the rules")
        st.apply_action(acts.action_of[action], p)
        trail = box.kept
        if trail is None:               # (nobody asked for the trail: the move kept)
            box.moves.append(((p, action),))
        else:
            trail.acted(p, action)
            trail.after(st)

    def _apply_actions(self, actions):
        box = self.box
        st = box.st
        to_action = self.enc.actions.to_action
        move = []
        try:
            for q in st.current_players():
                st.apply_action(to_action(actions[q]), q)
                move.append((q, actions[q]))
                if st.terminal or not st.is_simultaneous():
                    break
        finally:                        # (the actions applied, even when a later one is refused)
            trail = box.kept
            if not move:
                pass
            elif trail is None:
                box.moves.append(tuple(move))
            else:
                for q, aid in move:
                    trail.acted(q, aid)
                trail.after(st)

    def resample_from_infostate(self, player, sampler=None):
        """A state ``player`` cannot tell from this one (:meth:`State.determinize` from their
        seat, seeded from ``sampler`` when it is a ``random.Random``-like object with
        ``randrange``, else from the state).  The other seats' trails keep their own actions
        and what they see in the new world.  Used by :func:`resampler` for OpenSpiel's
        ISMCTS bot."""
        st = self.st
        if st is None or st.terminal:
            return self.clone()
        rng = sampler if hasattr(sampler, "randrange") else st.decisions * 7919 + player
        world = st.determinize(player, rng)
        trail = self.trail.copy()
        trail.forget_zones()
        for p in range(st.n):
            if p != player:
                trail.seen[p] = self.enc.seen_cards(world, p)
        out = self.get_game().new_initial_state()
        out.box = _Box(self.box.short, world, trail)
        return out

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.enc.actions.words(action)

    def is_terminal(self):
        st = self.box.st
        return st is not None and st.terminal

    def returns(self):
        return [0.0] * self.enc.cg.n if self.st is None else self.st.returns()

    def rewards(self):
        return self.returns()

    def __str__(self):
        if self.st is None:
            return "(before the deal)"
        return json.dumps(self.st.to_json(), sort_keys=True)


def resampler(seed: int = 0):
    """A resampling function for OpenSpiel's ISMCTS bot (``bot.set_resampler(resampler())``):
    each call deals the hidden cards again from the searching seat's view."""
    import random
    rng = random.Random(f"rulelang:ismcts:{seed}")

    def resample(state, player):
        return state.resample_from_infostate(player, rng)
    return resample


def _game_by_name(short: str, seed: int, deals: int):
    """The game registered as ``short`` (for pickle: in this process, after :func:`load_game`)."""
    return pyspiel.load_game(short, {"seed": seed, "deals": deals})


class RulelangObserver:
    """The PyObserver of a rulelang game: the observation (``perfect_recall`` false) or the
    information state (true) of :mod:`rulelang.ai.tensors`."""

    def __init__(self, enc, recall: bool):
        self.enc = enc
        self.recall = recall
        pieces = list(enc.pieces)
        if recall:
            pieces += [("seen", enc.d), ("my_actions", enc.actions.size)]
        self.tensor = np.zeros(sum(s for _n, s in pieces), np.float32)
        self._put = memoryview(self.tensor)         # (a copy into it through this, in C)
        self.dict = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state, player):
        box = state.box
        if box.st is None:
            self.tensor.fill(0)
            return
        # (the state's own tensor of the seat, brought up to date from what changed, copied
        # from memoryview to memoryview: a third of numpy's assignment)
        live = box.obs
        if live is None or self.recall:
            self._put[:] = box.view(player, self.recall)
        else:
            live.observation(box.st, player)
            self._put[:] = live.views[live.slot[player]]

    def string_from(self, state, player):
        if state.st is None:
            return "(before the deal)"
        if self.recall:
            return state.trail.string(state.st, player)
        return self.enc.observation_string(state.st, player)
