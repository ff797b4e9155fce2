"""The playout fast path: :meth:`State.playout <rulelang.engine.runtime.State.playout>` plays a
whole game inside the engine, with every choice made by a policy and without the public API's
checks at each decision (the :class:`Playout` mixin of :class:`~rulelang.engine.runtime.State`);
:func:`playout_pick`, the choice the generated playout variants ask for; and the merging of
identical copies of a card into one action (:func:`_merge_twins_fast`, which the API's
``legal_actions`` uses too, and :func:`_merge_twins`, for the logged driver).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence
from weakref import WeakKeyDictionary

from rulelang.limits import ACTION_SHIFT, VALUE_MASK
from rulelang.engine.control import NO_DECISION, SUSPEND, GameProblem
from rulelang.engine.players import Memory


if TYPE_CHECKING:
    class StateSlots:
        """The slots of a :class:`~rulelang.engine.runtime.State` as the type checker sees them
        (at run time ``State.__slots__`` is made from ``runtime.FIELDS``, which a type checker
        cannot read; tests/test_state_fields.py keeps the two lists the same), and the methods of
        State that the playout calls."""

        game: Any                       # the compiled game (its tables and generated rules)
        n: int
        zones: list[list[int]]
        vars: list[int]
        cur: int
        dir: int
        skip: int
        next_turn: int
        stack: list[list[Any]]
        rng: Any
        awaiting: Any                   # a (seat, actions) tuple, a Simultaneous or NO_DECISION
        terminal: bool
        outcome: Any
        winners: list[int]
        ranking: list[int]
        steps: int
        work: int
        decisions: int
        turns: int
        log: Optional[list[Any]]
        problem: Any
        max_steps: int
        seat_results: Any
        memory: Any                     # a list of entries, a Remembered or a Memory
        _pk: Any
        _pp: Any
        _pa: bool
        _stop: int
        _ch: int
        _fo: int
        _tk: Any
        _mg: Any
        _sf: bool

        @property
        def decision(self) -> Any: ...
        def legal_actions(self, player: Optional[int] = None, every_copy: bool = False) -> list[int]: ...
        def apply_action(self, action: int, player: Optional[int] = None) -> None: ...
        def _apply_other(self, d: Any, action: int, player: Optional[int]) -> None: ...
else:
    StateSlots = object


class Playout(StateSlots):
    """:meth:`playout`, mixed into :class:`~rulelang.engine.runtime.State` (whose slots it uses)."""

    __slots__ = ()

    # ---- the fast path: a whole playout inside the engine --------------------------------------
    def playout(self, policy: Any, max_decisions: Optional[int] = None, actions: bool = False,
                _begin: bool = False, skip_forced: bool = False) -> tuple[int, int, int]:
        """Play on to the end of the game (or ``max_decisions`` decision points, a simultaneous
        one counting once) with every choice made by ``policy``, without the public API's
        checks at each decision: the same game, move for move, as choosing the same actions
        through :meth:`legal_actions` / :meth:`apply_action`.

        ``policy`` is either a function ``(seat, number of choices) -> index`` or a list of one
        function ``number of choices -> index`` per seat (faster: e.g. ``random.Random(s).randrange``
        for uniform play, which draws exactly what ``UniformRandom`` draws).  With
        ``actions=True`` the per-seat functions get the list of legal actions and return one of
        them.  At a simultaneous decision the seats choose in the order of
        :meth:`current_players`.  Returns ``(decisions, legal choices summed over them, forced
        decisions)``: the decisions made here, how many choices they offered in all, and how
        many offered only one.  (``_begin``: the state is a game not begun and keeps no log,
        made by ``CompiledGame.playout``: its setup runs here, in the playout variants.)

        With ``skip_forced=True`` a forced decision (one legal choice) is taken without asking
        the policy, as a player who sees that there is nothing to choose would: a policy that
        draws from a generator then draws only where there is a choice (the same game as the
        API's with an agent that does the same), and an expensive policy (a network, a search)
        is never asked for nothing.  The counts are the same either way."""
        if callable(policy):
            from functools import partial
            policy = [partial(policy, p) for p in range(self.n)]
        if self.log is None:
            return self._play_in_place(policy, max_decisions, actions, _begin, skip_forced)
        g = self.game
        entries, procs, after = g.entries, g.procs, g.after
        log = self.log
        left = -1 if max_decisions is None else max(0, max_decisions)
        start = self.decisions
        choices = forced = 0
        twin = getattr(g, "card_twin", None)    # copies of a card are one choice, as in the API
        alts = g.alternatives
        while not self.terminal and left != 0:
            left -= 1
            d = self.awaiting                      # (State.decision's slot)
            if d.__class__ is tuple:               # one seat decides
                p, legal = d
                if twin is not None:
                    legal = _merge_twins(legal, twin, alts)
                k = len(legal)
                choices += k
                if k == 1:
                    forced += 1
                if k == 1 and skip_forced:
                    a = legal[0]
                else:
                    a = policy[p](legal) if actions else legal[policy[p](k)]
                if log is not None:
                    log.append(("choice", p, a))
                fr = self.stack[-1]
                slot, pc = entries[a >> ACTION_SHIFT]
                fr[slot] = a & VALUE_MASK          # (slot 1, the position, when no value)
                fr[1] = pc
                self.decisions += 1
                self.awaiting = NO_DECISION
                code = procs[fr[0]]
                try:
                    pc = code(self, fr, pc)
                except GameProblem as e:
                    g.problem_stop(self, e)
                    continue
                if pc != SUSPEND:
                    after(self, pc)
                continue
            for q in d.seats:                      # a simultaneous decision: through the API
                ql = self.legal_actions(q)
                k = len(ql)
                choices += k
                if k == 1:
                    forced += 1
                self.apply_action(ql[0] if k == 1 and skip_forced else
                                  policy[q](ql) if actions else ql[policy[q](k)], q)
                if not self.decision.simultaneous:
                    break
        return self.decisions - start, choices, forced

    def _play_in_place(self, policy: Any, max_decisions: Optional[int], actions: bool, begin: bool = False,
                       skip: bool = False) -> tuple[int, int, int]:
        """:meth:`playout` in the rules' playout variants (``CompiledGame.playout_procs``): the
        generated code asks ``policy`` at each decision itself and goes on in place, so a whole
        game is most often one call.  What it needs while it runs is in the state's slots
        ``_pk`` (the index functions per seat, or None when the policy takes actions or there is
        a budget of decisions: then ``_pp`` and ``_pa``, see :func:`playout_pick`), ``_sf``
        (``skip_forced``: a forced decision is taken without asking the policy), ``_stop`` (the
        count of decisions at which to stop, -1: none), ``_ch``, ``_fo`` (choices, forced) and
        ``_tk`` (the game's :func:`twin_keys`, or None when each card is one) and ``_mg`` (what
        players remember, while it is a Memory, else None)."""
        g = self.game
        procs = g.playout_procs()
        entries, after = g.entries, g.after
        start = self.decisions
        self._ch = self._fo = 0
        self._pk = None if (actions or max_decisions is not None) else policy
        self._tk = None if g.card_twin is None else twin_keys(g)
        slow = self._pk is None or self._tk is not None
        self._pp, self._pa, self._sf = policy, actions, skip
        self._stop = -1 if max_decisions is None else start + max(0, max_decisions)
        # What players remember, by card, while it runs: in a game where nothing is ever
        # remembered (no zone where it may be: memory_zones, stmtgen) it stays the empty list.
        if g.memory_zones and self.memory.__class__ is not Memory:
            self.memory = Memory(self.memory, g)
        # The Memory whose log the generated code appends moves to (stmtgen's t_Move), while the
        # memory is one (State.shown, which makes the list, sets it to None).
        self._mg = self.memory if self.memory.__class__ is Memory else None
        try:
            if begin:           # a game not begun: its setup, then the rules, in place
                try:
                    g.run(self, procs)
                except PlayoutStop:
                    pass
            while not self.terminal and self.decisions != self._stop:
                d = self.awaiting
                if d.__class__ is tuple:
                    # The decision the rules stopped at (at the start, or after a rule that has
                    # no playout variant): made here, then the rule goes on in place.
                    p, legal = d
                    if slow:
                        a = playout_pick(self, legal, p)
                    else:
                        k = len(legal)
                        self._ch += k
                        if k == 1:
                            self._fo += 1
                            a = legal[0] if skip else legal[policy[p](1)]
                        else:
                            a = legal[policy[p](k)]
                    fr = self.stack[-1]
                    slot, pc = entries[a >> ACTION_SHIFT]
                    fr[slot] = a & VALUE_MASK
                    fr[1] = pc
                    self.decisions += 1
                    self.awaiting = NO_DECISION
                    code = procs[fr[0]]
                    try:
                        pc = code(self, fr, pc)
                        if pc != SUSPEND:
                            after(self, pc, procs)
                    except GameProblem as e:
                        g.problem_stop(self, e)
                    except PlayoutStop:
                        break
                    continue
                before, stop = self.decisions, self._stop
                self._stop = -1                    # (the budget is not looked at inside it)
                for q in d.seats:                  # a simultaneous decision: through the API
                    a = playout_pick(self, d.offers[q], q) if slow else None
                    if a is None:
                        ql = d.offers[q]
                        k = len(ql)
                        self._ch += k
                        if k == 1:
                            self._fo += 1
                        a = ql[0] if k == 1 and skip else ql[policy[q](k)]
                    # (as apply_action, but what players remember stays a Memory: it forgets
                    # the cards gone when it is read, as after a decision of one seat)
                    self._apply_other(d, a, q)
                    if not self.decision.simultaneous:
                        break
                if stop >= 0:                      # one decision point, whatever the seats
                    stop += self.decisions - before - 1
                self._stop = stop
            return self.decisions - start, self._ch, self._fo
        finally:
            # What players remember stays a Memory: State.shown makes the list when it is
            # first read (the same entries in the same order), which most playouts never do.
            self._pk = self._pp = self._mg = None


class PlayoutStop(Exception):
    """Raised by :func:`playout_pick` when a playout has made the decisions it was asked for:
    the state is then stopped at a decision, as the API leaves it (caught in State.playout)."""


def playout_pick(g: Any, legal: list[int], p: int) -> Any:
    """The choice of seat ``p`` in :meth:`State.playout` when the policy is not a plain index
    function per seat (``actions=True``, copies of a card that the API offers as one action, a
    budget of decisions): the legal actions as :meth:`State.legal_actions` gives them, counted,
    then the policy.  (The generated playout variants call it too: when the budget is spent it
    stops the game at this decision, ``g.awaiting`` as the API's code sets it, and raises
    PlayoutStop; the frames are on ``g.stack`` as after a SUSPEND.)"""
    if g.decisions == g._stop:
        g.awaiting = (p, legal)          # (State.decision's slot: see there)
        raise PlayoutStop
    if g._tk is not None:
        legal = _merge_twins_fast(legal, g._tk)
    k = len(legal)
    g._ch += k
    if k == 1:
        g._fo += 1
        if g._sf:                       # (skip_forced: nothing to ask)
            return legal[0]
    pol = g._pp[p]
    return pol(legal) if g._pa else legal[pol(k)]


_TWIN_KEYS: WeakKeyDictionary[Any, Callable[[int], int]] = WeakKeyDictionary()      # per compiled game


def twin_keys(game: Any) -> Callable[[int], int]:
    """For :func:`_merge_twins_fast`: a function (in C) giving the key of each action, the action
    choosing the first copy of its card for an action of a card alternative, the action itself
    for any other (made once per game: a list of every action, ``len(alternatives) << SHIFT``,
    since an action's value never exceeds VALUE_MASK)."""
    keys = _TWIN_KEYS.get(game)
    if keys is None:
        canon = list(range(len(game.alternatives) << ACTION_SHIFT))
        twin = game.card_twin
        for ai, alt in enumerate(game.alternatives):
            if alt is not None and alt.kind == "card":
                base = ai << ACTION_SHIFT
                for v, t in enumerate(twin):
                    canon[base + v] = base + t
        keys = _TWIN_KEYS[game] = canon.__getitem__
    return keys


def _merge_twins_fast(legal: list[int], key: Callable[[int], int]) -> list[int]:
    """What :func:`_merge_twins` gives, faster: with ``key``, the game's :func:`twin_keys`,
    most often no two keys agree (tested in C) and the list is kept as it is.  (Two actions of
    other alternatives are never the same: each alternative offers distinct values.)"""
    if len({*map(key, legal)}) == len(legal):
        return legal
    seen: set[int] = set()
    add = seen.add
    return [a for a in legal if not ((k := key(a)) in seen or add(k))]


def _merge_twins(legal: list[int], twin: Sequence[int], alts: Sequence[Any]) -> list[int]:
    """``legal`` with one action per alternative and distinct card: the first of the actions that
    choose identical copies of a card with the same alternative."""
    seen: set[tuple[int, int]] = set()
    out: list[int] = []
    for a in legal:
        ai = a >> ACTION_SHIFT
        if alts[ai].kind == "card":
            key = (ai, twin[a & VALUE_MASK])
            if key in seen:
                continue
            seen.add(key)
        out.append(a)
    return out
