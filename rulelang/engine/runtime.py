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

Around it in :mod:`rulelang.engine`: :mod:`~rulelang.engine.control` (the codes a rule returns
to the run loop, :class:`GameProblem`), :mod:`~rulelang.engine.playout` (the fast path,
:meth:`State.playout`), :mod:`~rulelang.engine.save_format` (what a save holds and its checks,
:class:`SaveError`), and the helpers the generated code calls: :mod:`~rulelang.engine.players`,
:mod:`~rulelang.engine.values`, :mod:`~rulelang.engine.choices`, :mod:`~rulelang.engine.melds`.
"""
from __future__ import annotations

from typing import Optional

from rulelang.kinds import CARD, Frame
from rulelang.limits import ACTION_SHIFT, VALUE_MASK   # (also the runtime's names: the action layout)
from rulelang.engine.rng import Rng
from rulelang.engine.control import SUSPEND, GameProblem
from rulelang.engine.playout import Playout, _merge_twins
from rulelang.engine.save_format import (SAVE_FORMAT, SaveError, _check_save, _kind, _plain, _show, _unplain,
                                         game_identity)


class State(Playout):
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
        if self.sim is None and not self.terminal:       # one seat decides (the common case)
            if player is not None and player != self.pending[0]:
                return []
            twin = self.game.card_twin
            if twin is None or every_copy:
                return self.legal
            return _merge_twins(self.legal, twin, self.game.alternatives)
        if self.terminal:
            return []
        p = self.pending[0] if player is None else player
        if p not in self.pending:
            return []
        legal = self.legal[p]
        twin = self.game.card_twin
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
                    k = Frame.slot(s)
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
