"""Stage 4: the game state and its API.

A :class:`State` is plain data: lists of card numbers (one list per zone, top of the pile last),
a list of variable values, whose turn it is, the direction of play, the call stack of the rules
being run (each frame a list ``[rule, position, you, locals...]``), the pending decision and the
random generator.  :meth:`State.clone` copies the lists, so search-based players can explore
cheaply; :meth:`State.to_json` / :meth:`State.from_json` save and resume a game.

The API follows OpenSpiel: :meth:`~State.current_player`, :meth:`~State.legal_actions`,
:meth:`~State.apply_action`, :meth:`~State.is_terminal`, :meth:`~State.returns`,
:meth:`~State.clone` and :meth:`~State.observation`, which holds only what one player may see.

An action is an int: ``alternative * 1024 + value`` where the value is the chosen card, player,
suit, rank or number (0 when the alternative takes none).  The same int means the same choice in
every state of the game.
"""
from __future__ import annotations

from typing import Optional

from rulelang.kinds import CARD, FLAG, NUMBER, PLAYER, SUIT, ZONE
from rulelang.limits import ACTION_SHIFT, VALUE_MASK   # (also the runtime's names: the action layout)
from rulelang.engine.rng import Rng

SUSPEND, CALL, RETURN, HALT, END_TURN = -1, -2, -3, -4, -5
DEFAULT_MAX_STEPS = 200_000


class GameProblem(Exception):
    """Raised inside a rule when the game cannot go on (a card that is not where the rule says,
    a decision with no legal choice, the step budget spent).  The state records it and ends."""

    def __init__(self, code: str, message: str, span=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span


class State:
    """One position of one game.  Create with :meth:`rulelang.compile.compiler.CompiledGame.new_game`."""

    __slots__ = ("game", "n", "zones", "vars", "cur", "dir", "skip", "next_turn", "stack", "rng",
                 "pending", "legal", "sim", "terminal", "outcome", "winners", "ranking", "steps",
                 "decisions", "turns", "log", "problem", "max_steps", "seat_results",
                 "shown",
                 "_pk", "_pp", "_pa", "_stop", "_ch", "_fo")     # (State.playout, while it runs)

    # ---- the OpenSpiel-like API ------------------------------------------------------------
    def current_player(self) -> int:
        """The seat (0-based) that must decide now; -1 when the game is over.  At a simultaneous
        decision this is the first seat that has not chosen yet (see :meth:`current_players`)."""
        if self.terminal:
            return -1
        return self.pending[0]

    def current_players(self) -> list[int]:
        """Every seat that must still decide at this point (several at a simultaneous one)."""
        return [] if self.terminal else list(self.pending)

    def is_simultaneous(self) -> bool:
        return self.sim is not None

    def legal_actions(self, player: Optional[int] = None, every_copy: bool = False) -> list[int]:
        """The legal actions of ``player`` (default: :meth:`current_player`).  Identical copies
        of a card (a game with several decks) offered by the same alternative are one action:
        the copy found first (the other copy's action is still accepted by :meth:`apply_action`,
        and ``every_copy=True`` lists them all)."""
        if self.terminal:
            return []
        if self.sim is None:
            if player is not None and player != self.pending[0]:
                return []
            legal = self.legal
        else:
            p = self.pending[0] if player is None else player
            if p not in self.pending:
                return []
            legal = self.legal[p]
        twin = getattr(self.game, "card_twin", None)
        if twin is None or every_copy:
            return legal
        return _merge_twins(legal, twin, self.game.alternatives)

    def apply_action(self, action: int, player: Optional[int] = None) -> None:
        """Apply ``action`` for ``player`` (default: the current player) and run the rules until
        the next decision or the end of the game.  An illegal action raises ValueError."""
        if self.sim is None:
            legal = self.legal
            if legal is None or action not in legal or (
                    player is not None and player != self.pending[0]):
                if self.terminal:
                    raise ValueError("the game is over")
                raise ValueError(f"illegal action {action}")
            g = self.game
            if self.log is not None:
                self.log.append(("choice", self.pending[0], action))
            fr = self.stack[-1]
            slot, pc = g.entries[action >> ACTION_SHIFT]
            if slot >= 0:
                fr[slot] = action & VALUE_MASK
            fr[1] = pc
            self.decisions += 1
            self.pending = None
            self.legal = None
            code = g.procs[fr[0]]
            if code.__class__ is list:
                g.run(self)
                return
            try:        # the rule's function, called here: most often it stops at the next decision
                pc = code(self, fr, pc)
            except GameProblem as e:
                g.problem_stop(self, e)
                return
            if pc != SUSPEND:
                g.after(self, pc)
            return
        if self.terminal:
            raise ValueError("the game is over")
        g = self.game
        p = self.pending[0] if player is None else player
        if p not in self.pending or action not in self.legal[p]:
            raise ValueError(f"illegal action {action} for player {p + 1}")
        self.sim[p] = action
        self.decisions += 1
        pend = list(self.pending)
        pend.remove(p)
        self.pending = pend
        if pend:
            return
        fr = self.stack[-1]
        choices = self.sim
        order = self.legal["order"]
        if self.log is not None:
            for q in order:
                self.log.append(("choice", q, choices[q]))
        fr[self.legal["slot"]] = tuple((q, choices[q]) for q in order)
        fr[1] = self.legal["dispatch"]
        self.sim = None
        self.pending = None
        self.legal = None
        g.run(self)

    # ---- the fast path: a whole playout inside the engine --------------------------------------
    def playout(self, policy, max_decisions: Optional[int] = None, actions: bool = False) -> tuple:
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
        many offered only one."""
        if callable(policy):
            from functools import partial
            policy = [partial(policy, p) for p in range(self.n)]
        if self.log is None:
            return self._play_in_place(policy, max_decisions, actions)
        g = self.game
        entries, procs, run, after = g.entries, g.procs, g.run, g.after
        log = self.log
        left = -1 if max_decisions is None else max(0, max_decisions)
        start = self.decisions
        choices = forced = 0
        twin = getattr(g, "card_twin", None)    # copies of a card are one choice, as in the API
        alts = g.alternatives
        while not self.terminal and left != 0:
            left -= 1
            legal = self.legal
            if twin is not None:
                legal = (_merge_twins(legal, twin, alts) if self.sim is None else
                         {q: (_merge_twins(v, twin, alts) if isinstance(q, int) else v)
                          for q, v in legal.items()})
            if self.sim is None:
                p = self.pending[0]
                k = len(legal)
                choices += k
                if k == 1:
                    forced += 1
                a = policy[p](legal) if actions else legal[policy[p](k)]
                if log is not None:
                    log.append(("choice", p, a))
                fr = self.stack[-1]
                slot, pc = entries[a >> ACTION_SHIFT]
                if slot >= 0:
                    fr[slot] = a & VALUE_MASK
                fr[1] = pc
                self.decisions += 1
                self.pending = None
                self.legal = None
                code = procs[fr[0]]
                if code.__class__ is list:
                    run(self)
                    continue
                try:
                    pc = code(self, fr, pc)
                except GameProblem as e:
                    g.problem_stop(self, e)
                    continue
                if pc != SUSPEND:
                    after(self, pc)
                continue
            for q in list(self.pending):           # a simultaneous decision: through the API
                ql = legal[q]
                k = len(ql)
                choices += k
                if k == 1:
                    forced += 1
                self.apply_action(policy[q](ql) if actions else ql[policy[q](k)], q)
                if self.terminal or self.sim is None:
                    break
        return self.decisions - start, choices, forced

    def _play_in_place(self, policy, max_decisions, actions) -> tuple:
        """:meth:`playout` in the rules' playout variants (``CompiledGame.playout_procs``): the
        generated code asks ``policy`` at each decision itself and goes on in place, so a whole
        game is most often one call.  What it needs while it runs is in the state's slots
        ``_pk`` (the index functions per seat, or None when the policy takes actions or there is
        a budget of decisions: then ``_pp`` and ``_pa``, see :func:`playout_pick`), ``_stop`` (the
        count of decisions at which to stop, -1: none) and ``_ch``, ``_fo`` (choices, forced)."""
        g = self.game
        procs = g.playout_procs()
        entries, run, after = g.entries, g.run, g.after
        start = self.decisions
        self._ch = self._fo = 0
        self._pk = None if (actions or max_decisions is not None) else policy
        slow = self._pk is None or getattr(g, "card_twin", None) is not None
        self._pp, self._pa = policy, actions
        self._stop = -1 if max_decisions is None else start + max(0, max_decisions)
        try:
            while not self.terminal and self.decisions != self._stop:
                if self.sim is None:
                    # The decision the rules stopped at (at the start, or after a rule that has
                    # no playout variant): made here, then the rule goes on in place.
                    p = self.pending[0]
                    legal = self.legal
                    if slow:
                        a = playout_pick(self, legal, p)
                    else:
                        k = len(legal)
                        self._ch += k
                        if k == 1:
                            self._fo += 1
                        a = legal[policy[p](k)]
                    fr = self.stack[-1]
                    slot, pc = entries[a >> ACTION_SHIFT]
                    if slot >= 0:
                        fr[slot] = a & VALUE_MASK
                    fr[1] = pc
                    self.decisions += 1
                    self.pending = None
                    self.legal = None
                    code = procs[fr[0]]
                    if code.__class__ is list:
                        try:
                            run(self, procs)
                        except PlayoutStop:
                            break
                        continue
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
                legal = self.legal
                for q in list(self.pending):       # a simultaneous decision: through the API
                    a = playout_pick(self, legal[q], q) if slow else None
                    if a is None:
                        ql = legal[q]
                        k = len(ql)
                        self._ch += k
                        if k == 1:
                            self._fo += 1
                        a = ql[policy[q](k)]
                    self.apply_action(a, q)
                    if self.terminal or self.sim is None:
                        break
                if stop >= 0:                      # one decision point, whatever the seats
                    stop += self.decisions - before - 1
                self._stop = stop
            return self.decisions - start, self._ch, self._fo
        finally:
            self._pk = self._pp = None

    def is_terminal(self) -> bool:
        return self.terminal

    def results(self) -> list[str]:
        """Each seat's own result once the game is over: ``"win"``, ``"loss"`` or ``"draw"``
        (an empty list while it goes on, or when it stopped on a rule error).  A game that ends
        ``with winners where W, losers where L`` gives each player their own; otherwise the
        winners win and the others lose, and when nobody won everybody draws."""
        if not self.terminal or self.outcome == "error":
            return []
        if self.seat_results is not None:
            return list(self.seat_results)
        if not self.winners:
            return ["draw"] * self.n
        w = set(self.winners)
        return ["win" if p in w else "loss" for p in range(self.n)]

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for each other player; 0 for everyone when nobody won.
        After ``end game with winners where ...``: +1 for a win, -1 for a loss, 0 for a draw,
        each seat on their own (all 0 when every player drew)."""
        if self.terminal and self.seat_results is not None:
            return [{"win": 1.0, "loss": -1.0}.get(r, 0.0) for r in self.seat_results]
        if not self.terminal or not self.winners:
            return [0.0] * self.n
        w = set(self.winners)
        return [1.0 if p in w else -1.0 for p in range(self.n)]

    def clone(self) -> "State":
        """An independent copy: changing one never changes the other."""
        c = State.__new__(State)
        c.game = self.game
        c.n = self.n
        c.zones = [z[:] for z in self.zones]
        c.vars = self.vars[:]
        c.cur = self.cur
        c.dir = self.dir
        c.skip = self.skip
        c.next_turn = self.next_turn
        c.stack = [f[:] for f in self.stack]
        c.rng = self.rng.copy()
        c.pending = self.pending
        c.legal = self.legal if self.sim is None else dict(self.legal)
        c.sim = None if self.sim is None else dict(self.sim)
        c.terminal = self.terminal
        c.outcome = self.outcome
        c.winners = self.winners
        c.ranking = self.ranking
        c.steps = self.steps
        c.decisions = self.decisions
        c.turns = self.turns
        c.log = None if self.log is None else list(self.log)
        c.problem = self.problem
        c.max_steps = self.max_steps
        c.seat_results = self.seat_results
        c.shown = self.shown              # never changed in place: show_card makes a new list
        return c

    # ---- what a player sees -----------------------------------------------------------------
    def observation(self, player: int) -> dict:
        """What ``player`` may see: the cards of every zone visible to them, the sizes of the
        others (unless a zone hides its size), the variables, whose turn it is and, if it is
        theirs to decide, their legal actions.  Never a hidden card, never another player's
        pending secret choice."""
        g = self.game
        zones = {}
        for zi, (name, owner, vis, size_hidden) in enumerate(g.zone_info):
            cards = self.zones[zi]
            key = name if owner < 0 else f"{name}/{owner + 1}"
            if vis == "everyone" or (vis == "owner" and owner == player):
                zones[key] = [g.card_names[c] for c in cards]
            elif vis == "top":
                zones[key] = {"top": g.card_names[cards[-1]] if cards else None,
                              "size": len(cards)}
            else:
                zones[key] = None if size_hidden else {"size": len(cards)}
        obs = {
            "player": player + 1,
            "turn_of": self.cur + 1,
            "to_decide": [p + 1 for p in self.current_players()],
            "zones": zones,
            "vars": g.describe_vars(self),
            "terminal": self.terminal,
        }
        known = self.known_cards(player)
        if known:
            obs["known"] = {key: [g.card_names[c] for c in cards] for key, cards in known.items()}
        if not self.terminal and player in self.current_players():
            obs["legal"] = [g.action_to_string(a, self) for a in self.legal_actions(player)]
        if self.terminal:
            obs["winners"] = [p + 1 for p in self.winners]
        return obs

    def known_cards(self, player: int) -> dict:
        """The cards shown to ``player`` alone (``show c to P``) that are still in the zone where
        they saw them and that this zone does not show them anyway: ``{zone key: [cards]}``."""
        if not self.shown:
            return {}
        g = self.game
        out: dict = {}
        for p, c, zi in self.shown:
            if p != player or c not in self.zones[zi]:
                continue
            name, owner, vis, _sh = g.zone_info[zi]
            if vis == "everyone" or (vis == "owner" and owner == player) or (
                    vis == "top" and self.zones[zi][-1] == c):
                continue
            key = name if owner < 0 else f"{name}/{owner + 1}"
            if c not in out.setdefault(key, []):
                out[key].append(c)
        return out

    def action_to_string(self, action: int) -> str:
        return self.game.action_to_string(action, self)

    # ---- a world consistent with what one player sees -----------------------------------------
    def determinize(self, player: int, rng_or_seed=0, known: Optional[dict] = None) -> "State":
        """A new state that ``player`` cannot tell from this one: every card they may not see
        (in zones hidden from them, and below the top of a ``top face up`` pile) is dealt again at
        random among those same hidden places, each zone keeping its size.  Their observation is
        exactly the same, no card is created or lost, the clone's random generator is reseeded
        (the future is not the real one), and other players' secret choices of a simultaneous
        decision are forgotten: one already made is drawn again among that player's choices.

        Kept in place: cards named by a variable (variables are visible) and cards named in
        ``player``'s own legal actions (they see them).  A card a running rule holds in a local
        name, or another player's card choice, follows its place: it becomes the card dealt there.
        What the player remembers having seen earlier is the caller's business: ``known`` maps a
        zone's observation key (``"discard"``, ``"hand/2"``) to ``{position: card name}``, cards the
        player believes lie there (position 0 the bottom); each such card still among the cards
        dealt again is put there (a belief that cannot hold is ignored).  Not modelled: a card
        choice of another player is not filtered again by its ``where``.
        """
        g = self.game
        rng = rng_or_seed if hasattr(rng_or_seed, "randrange") else Rng(int(rng_or_seed))
        c = self.clone()
        c.log = None
        zones = c.zones
        places = []                      # (zone index, position) of the cards to deal again
        for zi, (_name, owner, vis, _sh) in enumerate(g.zone_info):
            if vis == "everyone" or (vis == "owner" and owner == player):
                continue
            z = zones[zi]
            stop = len(z) - 1 if vis == "top" else len(z)
            places.extend((zi, i) for i in range(stop))
        if places:
            kept = set()
            cards_n = len(g.card_names)
            types = _slot_types(g)
            card_t = types.get("card")
            for i, (_name, _owner, typ) in enumerate(g.var_info):
                if typ == card_t:
                    kept.add(self.vars[i])
            for cards in self.known_cards(player).values():     # shown to them: remembered
                kept.update(cards)
            pending = self.pending if not self.terminal and self.pending is not None else ()
            alts = g.alternatives
            if player in pending:
                own = self.legal if self.sim is None else self.legal.get(player, ())
                for a in own:
                    if alts[a >> ACTION_SHIFT].kind == "card":
                        kept.add(a & VALUE_MASK)
            places = [pl for pl in places if zones[pl[0]][pl[1]] not in kept]
            old = [zones[zi][i] for zi, i in places]
            new = old[:]
            for i in range(len(new) - 1, 0, -1):
                j = rng.randrange(i + 1)
                new[i], new[j] = new[j], new[i]
            if known:
                new = _place_known(g, places, new, known)
            for (zi, i), card in zip(places, new):
                zones[zi][i] = card
            to = dict(zip(old, new))      # the card that now lies where this one lay
            # Local names of the running rules that hold a card follow its place.
            for fr in c.stack:
                for s in types["frames"].get(fr[0], ()):
                    k = 3 + s
                    if k < len(fr) and fr[k].__class__ is int and 0 <= fr[k] < cards_n:
                        fr[k] = to.get(fr[k], fr[k])
                # the cards a several-cards choice may take and has taken (tuples of cards)
                for k in range(3, len(fr)):
                    if fr[k].__class__ is tuple and all(y.__class__ is int for y in fr[k]):
                        fr[k] = tuple(to.get(y, y) for y in fr[k])

            def follow(actions):
                out = []
                for a in actions:
                    if alts[a >> ACTION_SHIFT].kind == "card":
                        v = a & VALUE_MASK
                        a = a - v + to.get(v, v)
                    out.append(a)
                return out
            if pending:
                if c.sim is None:
                    if pending[0] != player:
                        c.legal = follow(c.legal)
                else:
                    for q in c.legal.get("order", ()):
                        if q != player and q in c.legal:
                            c.legal[q] = follow(c.legal[q])
        if c.sim is not None:
            for q in list(c.sim):
                if q != player:
                    choices = c.legal[q]
                    c.sim[q] = choices[rng.randrange(len(choices))]
        c.rng = Rng(rng.randrange(1 << 30) * (1 << 30) + rng.randrange(1 << 30))
        return c

    # ---- saving and resuming ----------------------------------------------------------------
    def to_json(self) -> dict:
        """Everything needed to resume this exact game, as plain JSON data, with the game's
        identity (``"game"``: its name, a digest of the rule file's text with every file it
        extends and the prelude, the option values and the number of players), which
        :meth:`from_json` checks."""
        legal = self.legal
        if isinstance(legal, dict):
            legal = {str(k): v for k, v in legal.items()}
        return {
            "format": SAVE_FORMAT, "game": game_identity(self.game),
            "n": self.n, "zones": self.zones, "vars": self.vars, "cur": self.cur,
            "dir": self.dir, "skip": self.skip, "next_turn": self.next_turn,
            "stack": [list(map(_plain, f)) for f in self.stack],
            "rng": self.rng.s, "pending": self.pending, "legal": legal,
            "sim": None if self.sim is None else {str(k): v for k, v in self.sim.items()},
            "terminal": self.terminal, "outcome": self.outcome, "winners": self.winners,
            "ranking": self.ranking, "steps": self.steps, "decisions": self.decisions,
            "turns": self.turns, "problem": self.problem, "max_steps": self.max_steps,
            **({} if self.seat_results is None else {"seat_results": self.seat_results}),
            **({"shown": [list(x) for x in self.shown]} if self.shown else {}),
        }

    @classmethod
    def from_json(cls, game, d: dict) -> "State":
        """Resume a game saved by :meth:`to_json`.  ``game`` is the game it was saved from: a
        :class:`rulelang.compile.loader.Game` (from ``load``; it is compiled for the save's number of
        players) or a compiled game (``Game.compiled(n)``).  Raises :class:`SaveError` when the
        save is of another game (other rules, options or number of players), or is no position
        of this game (an unknown card, a card in two places or in none, a seat or count out of
        range, a missing, unknown or mistyped field)."""
        if not isinstance(d, dict):
            raise SaveError(f"a save is a JSON object, not {_kind(d)}")
        if hasattr(game, "compiled") and not hasattr(game, "procs"):     # a loader.Game
            n = d.get("n")
            lo, hi = game.players
            if n.__class__ is not int or not lo <= n <= hi:
                raise SaveError(f"this save is of a game of {_show(n)} players; "
                                f"{game.name} is for {lo} to {hi}")
            game = game.compiled(n)
        _check_save(game, d)
        s = cls.__new__(cls)
        s.game = game
        s.n = d["n"]
        s.zones = [list(z) for z in d["zones"]]
        s.vars = list(d["vars"])
        s.cur, s.dir, s.skip, s.next_turn = d["cur"], d["dir"], d["skip"], d["next_turn"]
        s.stack = [[_unplain(x) for x in f] for f in d["stack"]]
        s.rng = Rng.__new__(Rng)
        s.rng.s = int(d["rng"])
        s.pending = d["pending"]
        legal = d["legal"]
        if isinstance(legal, dict):
            legal = {(int(k) if k.isdigit() else k): v for k, v in legal.items()}
        s.legal = legal
        s.sim = None if d["sim"] is None else {int(k): v for k, v in d["sim"].items()}
        s.terminal, s.outcome = d["terminal"], d["outcome"]
        s.winners, s.ranking = d["winners"], d["ranking"]
        s.steps, s.decisions, s.turns = d["steps"], d["decisions"], d["turns"]
        s.problem = d["problem"]
        s.max_steps = d["max_steps"]
        s.seat_results = d.get("seat_results")
        s.shown = [list(x) for x in d.get("shown", [])]
        s.log = None
        return s


SAVE_FORMAT = 1


class SaveError(ValueError):
    """A save (:meth:`State.to_json`) that :meth:`State.from_json` will not resume: of another
    game, options or number of players, or not a position of this game.  The message says what
    is wrong, in words."""


def game_identity(game) -> dict:
    """What a save must match to resume with ``game`` (a compiled game)."""
    model = game.model
    return {"name": game.name, "digest": getattr(model, "digest", None),
            "options": {k: v.value for k, v in model.options.items()}, "players": game.n}


def _kind(x) -> str:
    return {bool: "yes/no", int: "a number", str: "text", list: "a list", dict: "an object",
            type(None): "null", float: "a fraction"}.get(type(x), type(x).__name__)


def _show(x) -> str:
    import json
    try:
        text = json.dumps(x)
    except (TypeError, ValueError):
        text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


_SAVE_FIELDS = ("format", "game", "n", "zones", "vars", "cur", "dir", "skip", "next_turn", "stack",
                "rng", "pending", "legal", "sim", "terminal", "outcome", "winners", "ranking",
                "steps", "decisions", "turns", "problem", "max_steps")


def _check_save(g, d: dict) -> None:
    """Raise SaveError unless ``d`` is a save of a position of the compiled game ``g``."""
    unknown = [k for k in d if k not in _SAVE_FIELDS and k not in ("seat_results", "shown")]
    if unknown:
        raise SaveError(f"this save has a field `{unknown[0]}` that no save of rulelang has")
    missing = [k for k in _SAVE_FIELDS if k not in d]
    if missing:
        raise SaveError(f"this save has no field `{missing[0]}`")
    if d["format"] != SAVE_FORMAT:
        raise SaveError(f"this save is in format {_show(d['format'])}; this rulelang reads "
                        f"format {SAVE_FORMAT}")
    ident, mine = d["game"], game_identity(g)
    if not isinstance(ident, dict) or set(ident) != set(mine):
        raise SaveError("this save does not say which game it is of")
    if ident["name"] != mine["name"]:
        raise SaveError(f"this save is of the game {_show(ident['name'])}, not of {_show(mine['name'])}")
    if ident["digest"] != mine["digest"]:
        raise SaveError(f"this save is of other rules of {_show(mine['name'])}: the rule file (or a "
                        "file it extends) has changed since the game was saved")
    if ident["options"] != mine["options"]:
        def opts(o):
            return ", ".join(f"{k}={_show(v)}" for k, v in sorted(o.items())) \
                if isinstance(o, dict) and o else "no options"
        raise SaveError(f"this save was played with {opts(ident['options'])}, not with "
                        f"{opts(mine['options'])}")
    if ident["players"] != mine["players"] or d["n"] != g.n:
        raise SaveError(f"this save is of a game of {_show(ident['players'])} players, "
                        f"not {g.n}")
    n = g.n
    ncards = len(g.card_names)

    def bad(field, what):
        raise SaveError(f"this save is no position of {mine['name']}: `{field}` {what}")

    def integer(field, x, lo=None, hi=None):
        if x.__class__ is not int:
            bad(field, f"must be a whole number, not {_kind(x)} {_show(x)}")
        if (lo is not None and x < lo) or (hi is not None and x > hi):
            bad(field, f"is {x}, out of its range {lo} to {hi if hi is not None else 'any'}")
        return x

    def seat(field, x, none_ok=False):
        return integer(field, x, -1 if none_ok else 0, n - 1)

    def flag(field, x):
        if x.__class__ is not bool:
            bad(field, f"must be true or false, not {_show(x)}")

    def listof(field, x):
        if not isinstance(x, (list, tuple)):
            bad(field, f"must be a list, not {_kind(x)}")
        return x

    # -- the cards: each card of the game exactly once, in one zone
    zones = listof("zones", d["zones"])
    if len(zones) != len(g.zone_info):
        bad("zones", f"has {len(zones)} zones; this game has {len(g.zone_info)}")
    where = {}
    for zi, z in enumerate(zones):
        name, owner, _vis, _sh = g.zone_info[zi]
        key = name if owner < 0 else f"{name} of player {owner + 1}"
        for c in listof("zones", z):
            if c.__class__ is not int or not 0 <= c < ncards:
                raise SaveError(f"this save has a card {_show(c)} in {key}: this game has no such "
                                f"card (its cards are numbered 0 to {ncards - 1})")
            if c in where:
                raise SaveError(f"this save has the card {g.card_names[c]} (number {c}) in two "
                                f"places: {where[c]} and {key}")
            where[c] = key
    if len(where) != ncards:
        c = min(set(range(ncards)) - set(where))
        raise SaveError(f"this save has the card {g.card_names[c]} (number {c}) nowhere: "
                        "every card must be in a zone")

    # -- the variables, by their kind
    vs = listof("vars", d["vars"])
    if len(vs) != len(g.var_info):
        bad("vars", f"has {len(vs)} values; this game has {len(g.var_info)} variables")
    ranges = {CARD: ncards - 1, PLAYER: n - 1, SUIT: len(g.model.suits) - 1}
    for v, (name, owner, typ) in zip(vs, g.var_info):
        what = f"vars ({name}{'' if owner < 0 else f' of player {owner + 1}'})"
        if typ in ranges:
            integer(what, v, -1, ranges[typ])
        elif v.__class__ is not bool:
            integer(what, v)

    # -- whose turn, the direction, the counters
    seat("cur", d["cur"])
    if d["dir"] not in (1, -1) or d["dir"].__class__ is not int:
        bad("dir", f"must be 1 or -1, not {_show(d['dir'])}")
    integer("skip", d["skip"], 0)
    seat("next_turn", d["next_turn"], none_ok=True)
    integer("rng", d["rng"], 0, (1 << 64) - 1)
    for f in ("steps", "decisions", "turns"):
        integer(f, d[f], 0)
    integer("max_steps", d["max_steps"], 1)
    flag("terminal", d["terminal"])
    if d["outcome"] is not None and not isinstance(d["outcome"], str):
        bad("outcome", f"must be text or null, not {_kind(d['outcome'])}")
    for f in ("winners", "ranking"):
        xs = listof(f, d[f])
        for x in xs:
            seat(f, x)
        if len(set(xs)) != len(xs):
            bad(f, "names a player twice")
    for x in listof("shown", d.get("shown", [])):   # [player, card, zone]: cards shown to one
        if not isinstance(x, list) or len(x) != 3 or any(y.__class__ is not int for y in x) or \
                not (0 <= x[0] < n and 0 <= x[1] < ncards and 0 <= x[2] < len(g.zone_info)):
            bad("shown", "must list [seat, card, zone] of cards shown to one player")
    if "seat_results" in d:              # only in a save of a game over with a result per seat
        rs = listof("seat_results", d["seat_results"])
        if not d["terminal"] or len(rs) != n or any(r not in ("win", "loss", "draw") for r in rs):
            bad("seat_results", "must say win, loss or draw for each player of a game over")
    if d["problem"] is not None and not isinstance(d["problem"], dict):
        bad("problem", f"must be an object or null, not {_kind(d['problem'])}")

    # -- the running rules: [rule, position, you, its local names...]
    slot_count = _frame_slots(g)
    slot_types = _frame_types(g)
    stack = listof("stack", d["stack"])
    for fr in stack:
        if not isinstance(fr, (list, tuple)) or len(fr) < 3:
            bad("stack", "holds something that is no running rule")
        pid = integer("stack", fr[0], 0, len(g.procs) - 1)
        lo, hi = _positions(g, pid)
        integer("stack", fr[1], lo, hi)
        seat("stack", fr[2])
        if len(fr) != 3 + slot_count[pid]:
            bad("stack", f"has {len(fr) - 3} local names for a rule that has {slot_count[pid]}")
        types = slot_types.get(pid, {})
        for k, x in enumerate(fr[3:]):
            _check_local(x, bad, types.get(k), ncards, n, g)

    # -- the decision waiting, and the choices it offers
    terminal = d["terminal"]
    pending, legal, sim = d["pending"], d["legal"], d["sim"]
    if terminal or pending is None:
        if not terminal:
            bad("pending", "is null, but the game is not over: somebody must decide")
        if pending is not None or legal is not None or sim is not None:
            bad("pending", "names a decision, but the game is over")
        return
    if not stack:
        bad("stack", "is empty, but the game is not over")
    pend = listof("pending", pending)
    if not pend:
        bad("pending", "names nobody")
    for p in pend:
        seat("pending", p)
    if len(set(pend)) != len(pend):
        bad("pending", "names a player twice")
    if sim is None:
        if len(pend) != 1:
            bad("pending", "names several players, but the decision is not simultaneous")
        for a in listof("legal", legal):
            _check_action(a, bad, g)
        if not legal or len(set(legal)) != len(legal):
            bad("legal", "offers no choice, or one twice")
        return
    if not isinstance(sim, dict) or not isinstance(legal, dict):
        bad("sim", "a simultaneous decision needs `sim` and `legal` objects")
    order = legal.get("order")
    if not isinstance(order, list) or not order or any(x.__class__ is not int for x in order):
        bad("legal", "has no order of the players of the simultaneous decision")
    for q in order:
        seat("legal", q)
    if len(set(order)) != len(order) or not set(pend) <= set(order):
        bad("legal", "names a player twice, or not every player who must decide")
    integer("legal", legal.get("slot"), 0)
    integer("legal", legal.get("dispatch"))
    if set(legal) != {"order", "slot", "dispatch"} | {str(q) for q in order}:
        bad("legal", "does not hold the choices of exactly the players of the decision")
    for q in order:
        choices = listof("legal", legal[str(q)])
        if not choices:
            bad("legal", f"offers player {q + 1} no choice")
        for a in choices:
            _check_action(a, bad, g)
    for k, a in sim.items():
        if not k.isdigit() or int(k) not in order or int(k) in pend:
            bad("sim", f"holds a choice of player {_show(k)}, who is not done choosing")
        if a not in legal[k]:
            bad("sim", f"holds a choice {_show(a)} that player {int(k) + 1} was not offered")
    if set(int(k) for k in sim) | set(pend) != set(order):
        bad("sim", "misses the choice of a player who is done choosing")


def _check_action(a, bad, g) -> None:
    """An action of this game: a known alternative, with a value of its kind."""
    if a.__class__ is not int or a < 0:
        bad("legal", f"offers {_show(a)}, which is no action")
    ai, v = a >> ACTION_SHIFT, a & VALUE_MASK
    if ai >= len(g.alternatives) or g.alternatives[ai] is None:
        bad("legal", f"offers the action {a}: this game has no such choice")
    kind = g.alternatives[ai].kind
    top = {None: 0, "card": len(g.card_names) - 1, "player": g.n - 1,
           "suit": len(g.model.suits) - 1}.get(kind, VALUE_MASK)
    if v > top:
        what = "card" if kind == "card" else kind or "value"
        bad("legal", f"offers the action {a}: {what} {v} does not exist in this game")


def _check_local(x, bad, typ, ncards, n, g) -> None:
    """A local name of a running rule: a whole number of its kind (a card, a seat, a suit, a
    zone, within their ranges), or in a name of no declared kind a list of cards (what `for each
    card` goes through) or of [seat, action] pairs (the choices of a simultaneous decision)."""
    top = {CARD: ncards - 1, PLAYER: n - 1, SUIT: len(g.model.suits) - 1,
           ZONE: len(g.zone_info) - 1}.get(typ)
    if x.__class__ is int or x.__class__ is bool:
        if top is not None and not -1 <= x <= top:
            bad("stack", f"holds {x} where a {typ} from 0 to {top} (or none) is expected")
        return
    if isinstance(x, dict) and set(x) == {"tuple"}:
        x = x["tuple"]
    if not isinstance(x, (list, tuple)) or top is not None or typ in (FLAG, NUMBER):
        bad("stack", f"holds {_show(x)} where a {typ or 'number'} is expected")
    for y in x:
        if isinstance(y, dict) and set(y) == {"tuple"}:
            y = y["tuple"]
        if y.__class__ is int:
            if not 0 <= y < ncards:
                bad("stack", f"holds the card {y}: this game has no such card")
        elif isinstance(y, (list, tuple)) and len(y) == 2 and y[0].__class__ is int:
            if not 0 <= y[0] < n:
                bad("stack", f"holds a choice of player {y[0] + 1}, who does not play")
            _check_action(y[1], bad, g)
        else:
            bad("stack", f"holds {_show(y)} where a card or a choice is expected")


def _positions(g, pid) -> tuple:
    """The lowest and highest position a frame of rule ``pid`` can be at: a step of a rule made
    of closures or of the game's root (or a code such as RETURN, below 0), a block of a
    generated rule."""
    code = g.procs[pid]
    if code.__class__ is list:
        return END_TURN, len(code) - 1
    if pid == g.root:
        return END_TURN, g.root_halt
    blocks = getattr(g, "proc_blocks", {})
    if pid in blocks:
        return 0, blocks[pid] - 1
    if pid == g.turn_top and g.turn_proc in blocks:
        return 0, blocks[g.turn_proc] - 1
    return END_TURN, 1 << 62


def _frame_types(g) -> dict:
    """The kind of each local name of each rule's frame (by the rule's number in ``g.procs``)."""
    model = g.model
    out = {}
    for name, r in model.rules.items():
        out[g.proc_index[name]] = dict(getattr(r, "slot_types", None) or {})
    for (_f, pid, _k), (_e, _c, ctx) in zip(g.endings, model.endings):
        out[pid] = dict(getattr(ctx, "slot_types", None) or {})
    if g.turn_proc >= 0:
        out[g.turn_top] = out.get(g.turn_proc, {})
    return out


def _frame_slots(g) -> dict:
    """How many local names the frame of each rule (by its number in ``g.procs``) holds."""
    out = {pid: 0 for pid in range(len(g.procs))}
    for name, k in g.rule_slots.items():
        pid = g.proc_index.get(name, name)
        if isinstance(pid, int):
            out[pid] = k
    out[g.turn_top] = g.rule_slots.get("turn", 0)
    return out


def _place_known(game, places, cards, known) -> list:
    """``cards`` (a random deal of ``places``) changed so that each card ``known`` names at one
    of ``places`` is there: it changes places with the card dealt there."""
    keys = {}
    for zi, (name, owner, _vis, _sh) in enumerate(game.zone_info):
        keys[zi] = name if owner < 0 else f"{name}/{owner + 1}"
    index = {pl: k for k, pl in enumerate(places)}
    names = game.card_names
    fixed = set()
    for zi, key in keys.items():
        beliefs = known.get(key)
        if not beliefs:
            continue
        for pos, cname in beliefs.items():
            k = index.get((zi, pos))
            if k is None or k in fixed:
                continue
            if names[cards[k]] == cname:
                fixed.add(k)
                continue
            for j, c in enumerate(cards):
                if j not in fixed and names[c] == cname:
                    cards[k], cards[j] = cards[j], cards[k]
                    fixed.add(k)
                    break
    return cards


def _slot_types(game) -> dict:
    """For :meth:`State.determinize`: the type that means a card, and for each rule (by its
    number in ``game.procs``) the local slots that hold a card.  Computed once per game."""
    cached = getattr(game, "_determinize_slots", None)
    if cached is not None:
        return cached
    model = game.model
    frames = {}
    ending_ctx = {pid: ctx for (_f, pid, _k), (_e, _c, ctx) in zip(game.endings, model.endings)}
    for pid, name in enumerate(game.proc_names):
        info = model.rules.get(name) if name in model.rules else ending_ctx.get(pid)
        types = getattr(info, "slot_types", None) or {}
        frames[pid] = [s for s, t in types.items() if t == CARD]
    cached = {"card": CARD, "frames": frames}
    try:
        game._determinize_slots = cached
    except AttributeError:
        pass
    return cached


def _plain(x):
    if isinstance(x, tuple):
        return {"tuple": [_plain(y) for y in x]}
    return x


def _unplain(x):
    if isinstance(x, dict) and "tuple" in x:
        return tuple(_unplain(y) for y in x["tuple"])
    if isinstance(x, list):
        return tuple(x)
    return x


def show_card(g, c, p) -> None:
    """``show c to p``: p remembers c in the zone where it is now (nothing for ``none``)."""
    if c < 0:
        return
    for zi, z in enumerate(g.zones):
        if c in z:
            # a new list (states share it after clone); the card's older place is forgotten
            g.shown = [x for x in g.shown if x[0] != p or x[1] != c] + [[p, c, zi]]
            return


class PlayoutStop(Exception):
    """Raised by :func:`playout_pick` when a playout has made the decisions it was asked for:
    the state is then stopped at a decision, as the API leaves it (caught in State.playout)."""


def playout_pick(g, legal, p):
    """The choice of seat ``p`` in :meth:`State.playout` when the policy is not a plain index
    function per seat (``actions=True``, copies of a card that the API offers as one action, a
    budget of decisions): the legal actions as :meth:`State.legal_actions` gives them, counted,
    then the policy.  (The generated playout variants call it too: when the budget is spent it
    stops the game at this decision, ``g.pending`` and ``g.legal`` as the API's code sets them,
    and raises PlayoutStop; the frames are on ``g.stack`` as after a SUSPEND.)"""
    if g.decisions == g._stop:
        g.pending = (p,)
        g.legal = legal
        raise PlayoutStop
    twin = getattr(g.game, "card_twin", None)
    if twin is not None:
        legal = _merge_twins_fast(legal, g.game)
    k = len(legal)
    g._ch += k
    if k == 1:
        g._fo += 1
    pol = g._pp[p]
    return pol(legal) if g._pa else legal[pol(k)]


def _merge_twins_fast(legal, game) -> list:
    """What :func:`_merge_twins` gives, faster: each action of a card alternative has a key,
    the action choosing the first copy of its card (``game._twin_keys``, made once); most
    often no two keys agree and the list is kept as it is.  (Two actions of other
    alternatives are never the same: each alternative offers distinct values.)"""
    keys = getattr(game, "_twin_keys", None)
    if keys is None:
        keys = {}
        twin = game.card_twin
        for ai, alt in enumerate(game.alternatives):
            if alt is not None and alt.kind == "card":
                base = ai << ACTION_SHIFT
                for v, t in enumerate(twin):
                    if t != v:
                        keys[base + v] = base + t
        game._twin_keys = keys
    canon = list(map(keys.get, legal, legal))
    if len(set(canon)) == len(legal):
        return legal
    seen = set()
    add = seen.add
    return [a for a, k in zip(legal, canon) if not (k in seen or add(k))]


def _merge_twins(legal, twin, alts) -> list:
    """``legal`` with one action per alternative and distinct card: the first of the actions that
    choose identical copies of a card with the same alternative."""
    seen = set()
    out = []
    for a in legal:
        ai = a >> ACTION_SHIFT
        if alts[ai].kind == "card":
            key = (ai, twin[a & VALUE_MASK])
            if key in seen:
                continue
            seen.add(key)
        out.append(a)
    return out


# ---- players who leave the game (`P leaves the game`) ------------------------------------------
# In a game where players may leave, the per-player flag `out` is the variable at ``base + seat``;
# turn order, dealing, `for each player`, the choices of a player and the conditions over players
# go round the players still in.  Used by the closures and by the generated code alike.

def leave_game(g, p, base):
    """``remove p from the game``: p's `out` becomes 1 + the number of players already out (a
    player already out stays as they were)."""
    v = g.vars
    if not v[base + p]:
        v[base + p] = 1 + sum(1 for q in range(g.n) if v[base + q])


def out_ranking(g, first, base):
    """``first`` (the winners), then the other players still in (in seat order), then those who
    left the game, the last to leave first."""
    v = g.vars
    rest = [p for p in range(g.n) if p not in first]
    return list(first) + sorted(rest, key=lambda p: (v[base + p] != 0, -v[base + p]))


def seat_after(g, p, k, base):
    """The ``k``-th player still in the game after ``p`` in the direction of play (before, for a
    negative ``k``); ``p`` itself when they are the only one left."""
    n = g.n
    v = g.vars
    d = g.dir if k >= 0 else -g.dir
    for _ in range(k if k >= 0 else -k):
        for _ in range(n):
            p = (p + d) % n
            if not v[base + p]:
                break
        else:
            raise GameProblem("RL907", "every player is out of the game: nobody is left to play")
    return p


def seat_in(g, p, base):
    """``p`` if they are still in the game, else the first player after them who is."""
    return seat_after(g, p, 1, base) if g.vars[base + p] else p


def seats_in(g, start, base):
    """The players still in the game, in the order of play from ``start`` (included if in)."""
    n = g.n
    v = g.vars
    d = g.dir
    return [q for q in [(start + d * k) % n for k in range(n)] if not v[base + q]]


def seats_after(g, start, base):
    """The players still in the game after ``start``, in the order of play (not ``start``)."""
    n = g.n
    v = g.vars
    d = g.dir
    return [q for q in [(start + d * k) % n for k in range(1, n)] if not v[base + q]]


def random_seat_in(g, base):
    """A player still in the game, at random (seat order; -1 when nobody is)."""
    seats = [q for q in range(g.n) if not g.vars[base + q]]
    return seats[g.rng.randrange(len(seats))] if seats else -1


def next_in(g, fr, ki, pi, base):
    """The test of `for each player` in a game where players leave: goes on to the first seat
    from ``fr[pi]`` that is still in (each seat is passed once: ``fr[ki]`` counts them)."""
    n = g.n
    while fr[ki] > 0:
        fr[ki] -= 1
        if not g.vars[base + fr[pi]]:
            return True
        fr[pi] = (fr[pi] + g.dir) % n
    return False


def holder(g, c, owned):
    """The player one of whose own zones holds card ``c`` (``owned``: (zone, owner) pairs)."""
    zones = g.zones
    for zi, owner in owned:
        if c in zones[zi]:
            return owner
    return -1


def highest(xs):
    return max(xs) if xs else 0


def lowest(xs):
    return min(xs) if xs else 0


def best_of(pairs, high):
    """The thing of the (value, thing) pairs with the highest (or lowest) value, the first of
    equals; -1 (none) if there are none: `highest card in Z by V`, `player with highest V`."""
    best, out = None, -1
    for v, x in pairs:
        if best is None or (v > best if high else v < best):
            best, out = v, x
    return out


# ---- several cards in one step (`pass 3 cards c from hand to passing`) --------------------------
# The alternative asks for the cards one at a time, in the order of the deck (a card and its
# identical copies next to each other), each after the one before: so a set of cards is offered
# once, never again in another order, and identical copies are one choice.  Nothing moves until
# the set is complete; then the cards go from Z to D together.  The state of the small decisions
# is in the frame: the cards that may be chosen (the `where` asked once, at the first card), the
# cards chosen so far, Z, D, the fewest and the most cards.  Used by the closures and by the
# generated code alike.

def _pick_key(g, c):
    twin = g.game.card_twin
    return (twin[c] if twin is not None else c, c)


def _pick_group(g, c, same):
    card = g.game.cards[c]
    return card[1] if same == "rank" else card[2]


def pick_options(g, eligible, picked, fewest, most, same, base) -> list:
    """The card actions of the next small decision: each card that may come next (one per
    distinct card), when enough cards are left after it to make up the fewest."""
    if len(picked) >= most:
        return []
    if picked:
        last = _pick_key(g, picked[-1])
        pool = [c for c in eligible if _pick_key(g, c) > last and c not in picked]
        if same is not None:
            first = _pick_group(g, picked[0], same)
            pool = [c for c in pool if _pick_group(g, c, same) == first]
    else:
        pool = list(eligible)
    pool.sort(key=lambda c: _pick_key(g, c))
    need = fewest - len(picked) - 1          # cards still needed after this one
    out = []
    offered = set()
    for i, c in enumerate(pool):
        name = _pick_key(g, c)[0]
        if name in offered:
            continue
        offered.add(name)
        if need > 0:
            rest = pool[i + 1:]
            if same is not None and not picked:
                group = _pick_group(g, c, same)
                rest = [x for x in rest if _pick_group(g, x, same) == group]
            if len(rest) < need:
                continue
        out.append(base + c)
    return out


def pick_start(g, fr, ks, cards, z, d, fewest, or_more, same, base, span) -> list:
    """The first small decision of a several-cards alternative (its legal actions); the frame
    remembers what the next ones need."""
    if fewest < 1:
        raise GameProblem("RL903", f"{fewest} cards chosen: at least one card must be chosen",
                          span)
    ei, pi, zi, di, fi, mi = ks
    cards = tuple(cards)
    most = len(cards) if or_more else fewest
    fr[ei], fr[pi], fr[zi], fr[di], fr[fi], fr[mi] = cards, (), z, d, fewest, most
    return pick_options(g, cards, (), fewest, most, same, base)


def pick_step(g, fr, si, ks, same, base, done, span):
    """After each small decision (the card in slot ``si``, or -1 for "no more cards"): the legal
    actions of the next one, or None when the set is complete; then the cards have moved from Z to
    D, in the order chosen, and ``si`` holds the first of them."""
    ei, pi, zi, di, fi, mi = ks
    v = fr[si]
    picked = fr[pi]
    if v >= 0:
        picked = picked + (v,)
        fr[pi] = picked
        out = pick_options(g, fr[ei], picked, fr[fi], fr[mi], same, base)
        if not out and len(picked) < fr[fi]:
            # never in a game as dealt; in a world `determinize` dealt again, the cards chosen so
            # far may have come out of the deck's order: any card still allowed makes up the set
            out = [base + c for c in fr[ei] if c not in picked and (
                same is None or _pick_group(g, c, same) == _pick_group(g, picked[0], same))]
        if out:
            if len(picked) >= fr[fi]:
                out.append(done)
            fr[si] = -1
            return out
    src, dst = g.zones[fr[zi]], g.zones[fr[di]]
    for c in picked:
        if c not in src:
            raise GameProblem("RL902", f"card {g.game.card_names[c]} is not in the zone it "
                              "was chosen from", span)
    for c in picked:
        src.remove(c)
    dst.extend(picked)
    fr[si] = picked[0]
    return None


# ---- decisions by a set of players (`any opponent may choose from P:`) --------------------------

def claim_order(g, players, start) -> list:
    """The players who may claim, in the order of play from ``start``."""
    n, d = g.n, g.dir
    return sorted(players, key=lambda q: ((q - start) * d) % n)


def first_claim(choices, none_aid) -> tuple:
    """Of the secret choices of a claim (in the order claims are asked from), the first that
    claims, alone; nothing when nobody claimed."""
    for pa in choices:
        if pa[1] >> ACTION_SHIFT != none_aid:
            return (pa,)
    return ()


# ---- sets and runs (issue 14, item 4: `least total A of Z outside sets and runs`) ------------
# The most cards one search of sets and runs takes (docs/language.md, "Sets and runs"); a zone
# with more stops the game with RL259 rather than search for minutes.
MAX_MELD_CARDS = 20


def meld_groups(cards, pos_of, suit_of):
    """Every set (three or more cards of one rank) and run (three or more cards of one suit
    whose ranks are consecutive in the deck's rank order, without going round) that can be made
    from ``cards``, as bit masks over the positions of ``cards``.  Groups of six or more are
    left out: each is two smaller groups of the same cards, which leave the same cards over.
    ``pos_of[c]`` is the place of the card's rank in the rank order; a card with no suit belongs
    to no run."""
    from itertools import combinations, product
    groups = []
    by_rank, by_suit = {}, {}
    for i, c in enumerate(cards):
        p = pos_of[c]
        by_rank.setdefault(p, []).append(i)
        if suit_of[c] >= 0:
            by_suit.setdefault(suit_of[c], {}).setdefault(p, []).append(i)
    for same in by_rank.values():
        for k in range(3, min(len(same), 5) + 1):   # six or more: two smaller sets
            for pick in combinations(same, k):
                groups.append(sum(1 << i for i in pick))
    for places in by_suit.values():
        for start in places:
            if start - 1 in places:
                continue                     # a run is grown from the lowest rank of a stretch
            stretch = []
            p = start
            while p in places:
                stretch.append(places[p])
                p += 1
            for a in range(len(stretch)):
                for b in range(a + 3, min(len(stretch), a + 5) + 1):   # six or more: two runs
                    for pick in product(*stretch[a:b]):
                        groups.append(sum(1 << i for i in pick))
    return groups


def least_left(cards, pos_of, suit_of, points):
    """The least total of ``points`` over the cards of ``cards`` left outside a choice of
    non-overlapping sets and runs (see :func:`meld_groups`), and the groups of one best choice
    (masks over the positions of ``cards``)."""
    groups = meld_groups(cards, pos_of, suit_of)
    pts = [points[c] for c in cards]
    # Copies of one card (same rank, suit and points) are interchangeable: a group takes the
    # first copies still in the hand, so that each choice is searched once, not once per copy.
    before, seen = [], {}
    for i, c in enumerate(cards):
        key = (pos_of[c], suit_of[c], pts[i])
        before.append(seen.get(key, 0))
        seen[key] = seen.get(key, 0) | 1 << i
    with_lowest = [[] for _ in cards]
    for m in groups:
        absent, rest = 0, m
        while rest:
            j = (rest & -rest).bit_length() - 1
            absent |= before[j]
            rest &= rest - 1
        with_lowest[(m & -m).bit_length() - 1].append((m, absent & ~m))
    # A card that is in no group is always left over; the search is over the others only.
    in_some = 0
    for m in groups:
        in_some |= m
    memo = {0: (0, ())}

    def best(mask):
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        left, chosen = best(mask ^ low)
        res = (left + pts[i], chosen)
        for m, absent in with_lowest[i]:
            if m & mask == m and not absent & mask:
                left, chosen = best(mask & ~m)
                if left < res[0]:
                    res = (left, chosen + (m,))
        memo[mask] = res
        return res
    fixed = sum(p for i, p in enumerate(pts) if not in_some >> i & 1)
    left, chosen = best(in_some)
    return left + fixed, chosen


# ---- `any number n from A to B where C` (issue 14, item 5) ------------------------------------
def number_range(lo, hi, span=None):
    """The numbers from lo to hi, both included (none when hi < lo); more than MAX_RANGE stops
    the game with RL257 (each is a test of a condition)."""
    from rulelang.limits import MAX_RANGE
    if hi - lo >= MAX_RANGE:
        raise GameProblem("RL257", f"a range from {lo} to {hi} holds more than the {MAX_RANGE} "
                          f"numbers a range may hold", span)
    return range(lo, hi + 1)
