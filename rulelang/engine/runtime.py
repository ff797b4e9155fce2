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

from itertools import compress
from operator import contains, itemgetter
from typing import Any, Callable, NamedTuple, Optional
from weakref import WeakKeyDictionary

from rulelang.kinds import CARD, Frame
from rulelang.limits import ACTION_SHIFT, VALUE_MASK   # (also the runtime's names: the action layout)
from rulelang.engine.rng import Rng
from rulelang.engine.control import NO_DECISION, SUSPEND, Decision, GameProblem, Simultaneous
from rulelang.engine.players import Memory, handed_out
from rulelang.engine.played import redealt, shown as played_shown
from rulelang.engine.playout import Playout, _merge_twins_fast, twin_keys
from rulelang.engine.save_format import (SAVE_FORMAT, SaveError, _check_save, _kind, _plain, _show, _unplain,
                                         game_identity)


class Field(NamedTuple):
    """One field of a :class:`State`, declared once in :data:`FIELDS`: :meth:`State.clone`,
    :meth:`State.to_json`, :meth:`State.from_json` and a new game's blank state all derive from
    the declaration, so adding a field is adding one line there."""

    name: str
    copy: Optional[Callable[[Any], Any]] = None    # clone(): the copy of the value; None shares it (immutable,
    #                                    or never changed in place: replaced whole)
    keys: tuple[str, ...] = ()         # the keys of a save that hold it; () when it is not saved
    dump: Optional[Callable[[Any], dict[str, Any]]] = None    # to_json(): value -> {save key: JSON value}
    load: Optional[Callable[[dict[str, Any]], Any]] = None    # from_json(): the (checked) save -> value
    blank: object = None               # its value in a blank state (list: a new empty list;
    #                                    GIVEN: none, new_game and from_json set it)
    optional: bool = False             # its keys may be missing from a save (dump leaves them
    #                                    out while the field is blank)
    saved: Optional[Callable[[Any], Any]] = None   # to_json(): state -> the value dumped (default: the field)
    slot: Optional[str] = None         # the State's slot that keeps it, where a property reads
    #                                    it (clone and a blank state set the slot)


def _saved(key: str, load: Optional[Callable[[Any], Any]] = None) -> dict[str, Any]:
    """A field saved under ``key`` as it is (a JSON value), read back by ``load``."""
    return {"keys": (key,), "dump": lambda v: {key: v},
            "load": (lambda d: d[key]) if load is None else (lambda d: load(d[key]))}


_new = object.__new__
GIVEN = type("Given", (), {"__repr__": lambda self: "GIVEN"})()    # (a Field's blank: see there)


def _lists(x: list[list[Any]]) -> list[list[Any]]:
    return [y[:] for y in x]


def _dump_decision(d: Any) -> dict[str, Any]:
    """A decision in the save's three fields (format 1): ``pending`` (the seats still to choose),
    ``legal`` (the actions; at a simultaneous decision an object of the actions of each seat,
    with ``order``, ``slot`` and ``dispatch``) and ``sim`` (the secret choices made so far)."""
    if d.one_seat:
        return {"pending": [d.seat], "legal": d.actions, "sim": None}
    if not d.simultaneous:
        return {"pending": None, "legal": None, "sim": None}
    legal = {str(q): v for q, v in d.offers.items()}
    legal.update(order=d.order, slot=d.slot, dispatch=d.dispatch)
    return {"pending": list(d.waiting), "legal": legal,
            "sim": {str(q): a for q, a in d.chosen.items()}}


def _load_decision(s: dict[str, Any]) -> Any:
    if s["pending"] is None:
        return NO_DECISION
    if s["sim"] is None:
        return Decision((s["pending"][0], list(s["legal"])))
    legal = s["legal"]
    offers = {int(k): list(v) for k, v in legal.items() if k.isdigit()}
    return Simultaneous(list(legal["order"]), offers, legal["slot"], legal["dispatch"], list(s["pending"]),
                        {int(k): v for k, v in s["sim"].items()})


def _copy_awaiting(d: Any) -> Any:
    """The copy of what a state waits for, as its slot ``awaiting`` keeps it (see
    State.decision): a decision of one seat is a tuple, shared."""
    return d if d.__class__ is tuple else d.copy()


def _load_rng(s: int) -> Rng:
    r = Rng.__new__(Rng)
    r.s = int(s)
    return r


_card_of, _zone_of = itemgetter(1), itemgetter(2)    # of an entry [seat, card, zone]


def still_remembered(shown: list[list[int]], zones: list[list[int]]) -> list[list[int]]:
    """The entries ``[seat, card, zone]`` of what players remember whose card is still in the
    zone it was seen go to (docs/language.md, "What players remember"): the others are
    forgotten."""
    if len(shown) < 64:     # a few entries: their zones' lists are scanned
        return [x for x in shown if x[1] in zones[x[2]]]
    # (hundreds of entries: in C, against the zones' cards as sets, one per zone named)
    held = {zi: set(zones[zi]) for zi in set(map(_zone_of, shown))}
    return list(compress(shown, map(contains, map(held.__getitem__, map(_zone_of, shown)),
                                    map(_card_of, shown))))


FIELDS = (
    Field("game"),                                      # the compiled game (a save names it)
    Field("n", **_saved("n")),                          # the number of players
    Field("zones", _lists, blank=GIVEN, **_saved("zones", _lists)),     # per zone, its cards
    Field("vars", list, blank=GIVEN, **_saved("vars", list)),           # the variables' values
    Field("cur", blank=0, **_saved("cur")),             # whose turn it is
    Field("dir", blank=1, **_saved("dir")),             # the direction of play, 1 or -1
    Field("skip", blank=0, **_saved("skip")),           # players to skip when the turn passes
    Field("next_turn", blank=-1, **_saved("next_turn")),    # a seat named to play next, or -1
    Field("stack", _lists, ("stack",),                  # the rules being run: [rule, pos, you, ...]
          lambda v: {"stack": [list(map(_plain, f)) for f in v]},
          lambda s: [[_unplain(x) for x in f] for f in s["stack"]], blank=GIVEN),
    Field("rng", Rng.copy, ("rng",), lambda v: {"rng": v.s}, lambda s: _load_rng(s["rng"]),
          blank=GIVEN),
    Field("decision", _copy_awaiting, ("pending", "legal", "sim"),  # what it waits for
          _dump_decision, _load_decision, blank=NO_DECISION, slot="awaiting"),
    Field("terminal", blank=False, **_saved("terminal")),
    Field("outcome", **_saved("outcome")),              # how it ended ("error": a GameProblem)
    Field("winners", blank=list, **_saved("winners")),  # (lists, replaced whole, never changed)
    Field("ranking", blank=list, **_saved("ranking")),
    Field("steps", blank=0, **_saved("steps")),         # steps of the budget spent
    Field("work", blank=0, keys=("work",), optional=True,  # parts evaluated by loops in
          dump=lambda v: {"work": v} if v else {},       # expressions (genruntime.spend)
          load=lambda s: s.get("work", 0)),
    Field("decisions", blank=0, **_saved("decisions")),
    Field("turns", blank=0, **_saved("turns")),
    Field("log", lambda v: None if v is None else list(v),     # the game's log (not saved)
          load=lambda s: None, blank=GIVEN),
    Field("problem", **_saved("problem")),              # the GameProblem that ended it, as data
    Field("max_steps", blank=GIVEN, **_saved("max_steps")),    # the step budget
    Field("seat_results", keys=("seat_results",), optional=True,    # a result per seat, if any
          dump=lambda v: {} if v is None else {"seat_results": v},
          load=lambda s: s.get("seat_results")),
    Field("shown", keys=("shown",), blank=list, optional=True,  # [seat, card, zone] shown to one
          dump=lambda v: {"shown": [list(x) for x in v]} if v else {},
          load=lambda s: [list(x) for x in s.get("shown", [])],
          # only what is still remembered: the cards still in the zone they were seen go to (the
          # API forgets the others at the next action, a playout at its end: the same save)
          saved=lambda st: still_remembered(st.shown, st.zones)),
)
_PLAYOUT_SLOTS = ("_pk", "_pp", "_pa", "_stop", "_ch", "_fo", "_tk",  # State.playout's, while
                  "_mg", "_sf")                                       # it runs


def _from_fields(name: str, args: str, lines: list[str], names: dict[str, Any], doc: str) -> Any:
    """A function written from :data:`FIELDS`, as ``dataclasses`` writes ``__init__``: a clone
    and a new game set every field, and searching players make many of both, so each field is
    one plain assignment rather than a loop of ``setattr``.  Only the declared names (never a
    rule file's text) are in its source."""
    src = f"def {name}({args}):\n" + "".join(f"    {line}\n" for line in lines)
    ns = dict(names)
    exec(compile(src, f"<State.{name}, written from FIELDS>", "exec"), ns)
    fn = ns[name]
    fn.__doc__, fn.__module__, fn.__qualname__ = doc, __name__, f"State.{name}"
    return fn


_clone = _from_fields(
    "clone", "self",
    ["c = _new(self.__class__)"] +
    [f"c.{f.slot or f.name} = self.{f.slot or f.name}" if f.copy is None else
     f"c.{f.slot or f.name} = _copy_{f.name}(self.{f.slot or f.name})" for f in FIELDS] + ["return c"],
    {"_new": _new, **{f"_copy_{f.name}": f.copy for f in FIELDS if f.copy is not None}},
    """An independent copy: changing one never changes the other (each field shared or copied
    as :data:`FIELDS` says).""")


def state_maker(name: str, args: str, given: list[str], names: dict[str, Any], doc: str) -> Any:
    """A function ``name(args)`` that makes a State (``s``, of the class ``cls``): its ``game``
    and ``n`` from ``game``, every field at its blank value but those declared ``blank=GIVEN``,
    which the lines ``given`` set (from the names ``names``) before it returns ``s``."""
    return _from_fields(
        name, args,
        ["s = _new(cls)", "s.game = game", "s.n = game.n"] +
        [f"s.{f.slot or f.name} = []" if f.blank is list else f"s.{f.slot or f.name} = _blank_{f.name}"
         for f in FIELDS if f.name not in ("game", "n") and f.blank is not GIVEN] +
        list(given) + ["return s"],
        {"_new": _new, **{f"_blank_{f.name}": f.blank for f in FIELDS if f.blank is not list},
         **names}, doc)


_blank_state = state_maker(
    "blank", "cls, game", [], {},
    """A state of ``game`` with every field at its blank value (lists empty, nobody to
    decide) but those declared ``blank=GIVEN``, which its maker sets (``CompiledGame.new_game``,
    :meth:`State.from_json`).""")
GIVEN_FIELDS = tuple(f.name for f in FIELDS if f.blank is GIVEN)   # (a state_maker sets them)
_DUMPED = tuple((f.name, f.dump, f.saved) for f in FIELDS if f.keys and f.dump is not None)
_LOADED = tuple((f.name, f.load) for f in FIELDS if f.load is not None)
# The keys of a save: "format", "game" (its identity) and those of the saved fields.
SAVE_KEYS = ("format", "game") + tuple(k for f in FIELDS if not f.optional for k in f.keys)
OPTIONAL_SAVE_KEYS = tuple(k for f in FIELDS if f.optional for k in f.keys)


class State(Playout):
    """One position of one game.  Create with :meth:`rulelang.compile.compiler.CompiledGame.new_game`.
    Its fields are declared once, in :data:`FIELDS`."""

    # The field ``shown`` is a property over the slot ``memory`` (see _get_shown): what players
    # remember as it is kept, the list, or the Memory a playout leaves (engine/players.Memory),
    # which the run-time helpers of players (seen_go, show_card, reveal_card) read and add to.
    __slots__ = tuple(f.slot or f.name for f in FIELDS if f.name != "shown") + ("memory",) + \
        _PLAYOUT_SLOTS

    blank: Any = classmethod(_blank_state)      # (cls, game) -> State

    def _get_shown(self) -> Any:
        """What players remember, ``[seat, card, zone]`` entries (a field of :data:`FIELDS`).  A
        playout keeps it per card while it runs (engine/players.Memory) and leaves it so: the
        list is made here, when it is first read (most simulated games never read it, so their
        playouts never make it)."""
        v = self.memory
        if v.__class__ is Memory:
            v = self.memory = v.entries()
            self._mg = None
        return handed_out(v)    # (shared from now on: a long list is copied at its next change)

    def _set_shown(self, v: Any) -> None:
        self.memory = v
        self._mg = None

    shown = property(_get_shown, _set_shown)

    # The field ``decision`` is a property over the slot ``awaiting``, which keeps a decision of
    # one seat as the plain tuple ``(seat, actions)`` (the generated code makes it with one
    # instruction, where a Decision is a call) and anything else as it is (a Simultaneous,
    # NO_DECISION).  The API's methods below read the slot.
    def _get_decision(self) -> Any:
        """What the game waits for: a :class:`Decision` (one seat decides), a
        :class:`Simultaneous` or ``NO_DECISION`` (a field of :data:`FIELDS`)."""
        d = self.awaiting
        return Decision(d) if d.__class__ is tuple else d

    def _set_decision(self, d: Any) -> None:
        self.awaiting = tuple(d) if d.__class__ is Decision else d

    decision = property(_get_decision, _set_decision)

    # ---- the OpenSpiel-like API ------------------------------------------------------------
    def current_player(self) -> int:
        """The seat (0-based) that must decide now; -1 when the game is over.  At a simultaneous
        decision this is the first seat that has not chosen yet (see :meth:`current_players`)."""
        d = self.awaiting
        seat: int = d[0] if d.__class__ is tuple else d.seat
        return seat

    def current_players(self) -> list[int]:
        """Every seat that must still decide at this point (several at a simultaneous one)."""
        d = self.awaiting
        return [d[0]] if d.__class__ is tuple else list(d.seats)

    def is_simultaneous(self) -> bool:
        d = self.awaiting
        return d.__class__ is not tuple and d.simultaneous

    def legal_actions(self, player: Optional[int] = None, every_copy: bool = False) -> list[int]:
        """The legal actions of ``player`` (default: :meth:`current_player`).  Identical copies
        of a card (a game with several decks) offered by the same alternative are one action:
        the copy found first (the other copy's action is still accepted by :meth:`apply_action`,
        and ``every_copy=True`` lists them all)."""
        legal: list[int]
        d = self.awaiting
        if d.__class__ is tuple:                         # one seat decides (the common case)
            seat, legal = d
            if player != seat and player is not None:    # (most often the seat given decides)
                return []
            if self.game.card_twin is None or every_copy:
                return legal                             # (never changed in place: not copied)
            return _merge_twins_fast(legal, twin_keys(self.game))
        legal = d.actions_of(d.seat if player is None else player)
        twin = self.game.card_twin
        if twin is None or every_copy:
            return legal
        return _merge_twins_fast(legal, twin_keys(self.game))

    def apply_action(self, action: int, player: Optional[int] = None) -> None:
        """Apply ``action`` for ``player`` (default: the current player) and run the rules until
        the next decision or the end of the game.  An illegal action raises ValueError.

        Three steps: validate (the action is one the decision offers ``player``), record (in the
        log, when the game keeps one), resume (the rule that waits goes on)."""
        d = self.awaiting                                # validate
        if d.__class__ is not tuple or action not in d[1] or (player != d[0] and player is not None):
            self._apply_other(self.decision, action, player)    # simultaneous, or refused
            return
        # record
        if self.log is not None:
            self.log.append(("choice", d[0], action))
        self.awaiting = NO_DECISION
        self.decisions += 1
        # resume: the chosen alternative's body, with the chosen value in its slot
        g = self.game
        fr = self.stack[-1]
        slot, pc = g.entries[action >> ACTION_SHIFT]
        fr[slot] = action & VALUE_MASK                  # (slot 1, the position, when no value)
        fr[1] = pc
        try:        # the rule's function, called here: most often it stops at the next decision
            pc = g.procs[fr[0]](self, fr, pc)
        except GameProblem as e:
            g.problem_stop(self, e)
            return
        if pc != SUSPEND:
            g.after(self, pc)

    def _apply_other(self, d: Any, action: int, player: Optional[int]) -> None:
        """:meth:`apply_action` at a simultaneous decision, or of an action it refuses."""
        if d.one_seat:
            raise ValueError(f"illegal action {action}")
        if not d.simultaneous:
            raise ValueError("the game is over")
        p = d.seat if player is None else player
        if p not in d.waiting or action not in d.offers[p]:               # validate
            raise ValueError(f"illegal action {action} for player {p + 1}")
        d.chosen[p] = action                                             # record (secretly)
        self.decisions += 1
        d.waiting = [q for q in d.waiting if q != p]
        if d.waiting:
            return
        fr = self.stack[-1]                                              # resume: all chose
        if self.log is not None:
            for q in d.order:
                self.log.append(("choice", q, d.chosen[q]))
        fr[d.slot] = tuple((q, d.chosen[q]) for q in d.order)
        fr[1] = d.dispatch
        self.decision = NO_DECISION
        self.game.run(self)

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

    def teams(self) -> Optional[list[list[int]]]:
        """The teams as they are now, each a list of seats (from 0), in the order of their
        numbers; None in a game without teams.  A team wins, loses or draws together: its
        players have the same :meth:`results` and :meth:`returns`."""
        tb = getattr(self.game, "team_base", None)
        if tb is None:
            return None
        from rulelang.engine.teams import teams_now
        return teams_now(self, tb)

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for each other player; 0 for everyone when nobody won.
        After ``end game with winners where ...``: +1 for a win, -1 for a loss, 0 for a draw,
        each seat on their own (all 0 when every player drew).  A game that declares
        ``returns: EXPR`` gives each player that number at its end instead (0 for everyone
        while it goes on, and when it stopped on a problem or the step budget)."""
        g = self.game
        if getattr(g, "returns_fn", None) is not None:
            if not self.terminal or self.outcome == "error":
                return [0.0] * self.n
            return [float(g.returns_of(self, p)) for p in range(self.n)]
        if self.terminal and self.seat_results is not None:
            return [{"win": 1.0, "loss": -1.0}.get(r, 0.0) for r in self.seat_results]
        if not self.terminal or not self.winners:
            return [0.0] * self.n
        w = set(self.winners)
        return [1.0 if p in w else -1.0 for p in range(self.n)]

    def variables(self) -> dict[str, Any]:
        """The game's variables as Python values of their types, not words: ``{name: value}``
        (a variable of each player: ``{name: [seat 1's, seat 2's, ...]}``; a variable of each
        team: ``{name: {1: team 1's, 2: team 2's, ...}}``, by the numbers `the team of P` gives).  A number is an
        int, yes/no a bool, a player a seat (0-based, as everywhere in this API), a card its
        number (``game.card_names[c]`` names it; the zones hold the same numbers), a zone its
        index, a rank its number, a suit or a named value its name, a text the text, and
        ``none`` is None.  Variables are public: every player sees them."""
        out: dict[str, Any] = self.game.typed_vars(self)
        return out

    def scores(self) -> Optional[list[int]]:
        """Each player's ``score:`` now, as numbers (None when the game declares no score)."""
        g = self.game
        if g.score_fn is None:
            return None
        return [g.score_of(self, p) for p in range(self.n)]

    clone = _clone                          # () -> State: an independent copy

    # ---- what a player sees -----------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see: the cards of every zone visible to them, the sizes of the
        others (unless a zone hides its size), the variables, whose turn it is and, if it is
        theirs to decide, their legal actions.  Never a hidden card, never another player's
        pending secret choice."""
        g = self.game
        zones: dict[str, Any] = {}
        for zi, (name, owner, vis, size_hidden) in enumerate(g.zone_info):
            cards = self.zones[zi]
            key = name if owner < 0 else f"{name}/{owner + 1}"
            if vis == "everyone" or (vis == "owner" and owner == player):
                zones[key] = [g.card_names[c] for c in cards]
            elif vis == "top":
                zones[key] = {"top": g.card_names[cards[-1]] if cards else None,
                              "size": len(cards)}
            elif vis == "bottom":
                zones[key] = {"bottom": g.card_names[cards[0]] if cards else None,
                              "size": len(cards)}
            else:
                zones[key] = None if size_hidden else {"size": len(cards)}
        obs: dict[str, Any] = {
            "player": player + 1,
            "turn_of": self.cur + 1,
            "to_decide": [p + 1 for p in self.current_players()],
            "zones": zones,
            "vars": g.describe_vars(self),
            "terminal": self.terminal,
        }
        if g.played_base is not None:   # who played the cards of the shared zones, by place
            obs["played_by"] = played_shown(self, player)
        known = self.known_cards(player)
        if known:
            obs["known"] = {key: [g.card_names[c] for c in cards] for key, cards in known.items()}
        if not self.terminal and player in self.current_players():
            obs["legal"] = [g.action_to_string(a, self) for a in self.legal_actions(player)]
        if self.terminal:
            obs["winners"] = [p + 1 for p in self.winners]
        return obs

    def known_cards(self, player: int) -> dict[str, list[int]]:
        """The cards shown to ``player`` alone (``show c to P``) that are still in the zone where
        they saw them and that this zone does not show them anyway: ``{zone key: [cards]}``."""
        if not self.shown:
            return {}
        g = self.game
        out: dict[str, list[int]] = {}
        for p, c, zi in self.shown:
            if p != player or c not in self.zones[zi]:
                continue
            name, owner, vis, _sh = g.zone_info[zi]
            if vis == "everyone" or (vis == "owner" and owner == player) or (
                    vis == "top" and self.zones[zi][-1] == c) or (
                    vis == "bottom" and self.zones[zi][0] == c):
                continue
            key = name if owner < 0 else f"{name}/{owner + 1}"
            if c not in out.setdefault(key, []):
                out[key].append(c)
        return out

    def _remembered(self, player: int) -> dict[int, int]:
        """``{card: zone index}``: the cards of ``known_cards(player)``."""
        out: dict[int, int] = {}
        for key, cards in self.known_cards(player).items():
            name, _, seat = key.partition("/")
            zi = self.game.zone_base[name] + (int(seat) - 1 if seat else 0)
            for c in cards:
                out[c] = zi
        return out

    def action_to_string(self, action: int) -> str:
        text: str = self.game.action_to_string(action, self)
        return text

    # ---- a world consistent with what one player sees -----------------------------------------
    def determinize(self, player: int, rng_or_seed: Any = 0,
                    known: Optional[dict[str, dict[int, str]]] = None) -> "State":
        """A new state that ``player`` cannot tell from this one: every card they may not see
        (in zones hidden from them, and below the top of a ``top face up`` pile) is dealt again at
        random among those same hidden places, each zone keeping its size (drawn from the hidden
        cards in the order of their numbers, never as they lie: two positions ``player`` cannot
        tell apart give the same world for the same seed).  Their observation is
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
        c: State = self.clone()
        c.log = None
        zones = c.zones
        if c.shown:     # forget what left its zone unseen: the cards dealt again may land there
            c.shown = still_remembered(c.shown, zones)
        places: list[tuple[int, int]] = []   # (zone index, position) of the cards to deal again
        for zi, (_name, owner, vis, _sh) in enumerate(g.zone_info):
            if vis == "everyone" or (vis == "owner" and owner == player):
                continue
            z = zones[zi]
            stop = len(z) - 1 if vis == "top" else len(z)
            places.extend((zi, i) for i in range(1 if vis == "bottom" else 0, stop))
        if places:
            kept = set()
            cards_n = len(g.card_names)
            types = _slot_types(g)
            card_t = types.get("card")
            for i, (_name, _owner, typ) in enumerate(g.var_info):
                if typ == card_t:
                    kept.add(self.vars[i])
            remembered = self._remembered(player)
            dec = self.decision
            alts = g.alternatives
            if player in dec.seats:
                for a in dec.actions_of(player):
                    if alts[a >> ACTION_SHIFT].kind == "card":
                        kept.add(a & VALUE_MASK)
            places = [pl for pl in places if zones[pl[0]][pl[1]] not in kept]
            old = [zones[zi][i] for zi, i in places]
            # The pool in a canonical order (by card number), not as the cards lie: the world
            # depends only on what ``player`` may know and on the seed, so a searching player's
            # move depends only on its view and its seed (the same deal either way: unbiased).
            new = sorted(old)
            for i in range(len(new) - 1, 0, -1):
                j = rng.randrange(i + 1)
                new[i], new[j] = new[j], new[i]
            if remembered:
                new = _keep_in_zones(places, new, remembered, rng)
            if known:
                new = _place_known(g, places, new, known)
            for (zi, i), card in zip(places, new):
                zones[zi][i] = card
            if g.played_base is not None:     # who played a card stays with its place
                redealt(c, places, old)
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

            def follow(actions: list[int]) -> list[int]:
                out: list[int] = []
                for a in actions:
                    if alts[a >> ACTION_SHIFT].kind == "card":
                        v = a & VALUE_MASK
                        a = a - v + to.get(v, v)
                    out.append(a)
                return out
            cd = c.decision
            if cd.one_seat:
                if cd.seat != player:
                    c.decision = Decision((cd.seat, follow(cd.actions)))
            elif cd.simultaneous:
                for q in cd.order:
                    if q != player:
                        cd.offers[q] = follow(cd.offers[q])
        cd = c.decision
        if cd.simultaneous:
            for q in list(cd.chosen):
                if q != player:
                    choices = cd.offers[q]
                    cd.chosen[q] = choices[rng.randrange(len(choices))]
        c.rng = Rng(rng.randrange(1 << 30) * (1 << 30) + rng.randrange(1 << 30))
        return c

    # ---- saving and resuming ----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume this exact game, as plain JSON data, with the game's
        identity (``"game"``: its name, a digest of the rule file's text with every file it
        extends and the prelude, the option values and the number of players), which
        :meth:`from_json` checks.  The saved fields and their form are declared in :data:`FIELDS`."""
        out: dict[str, Any] = {"format": SAVE_FORMAT, "game": game_identity(self.game)}
        for name, dump, saved in _DUMPED:
            out.update(dump(getattr(self, name) if saved is None else saved(self)))
        return out

    @classmethod
    def from_json(cls, game: Any, d: dict[str, Any]) -> "State":
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
        _check_save(game, d, SAVE_KEYS, OPTIONAL_SAVE_KEYS)
        s: State = cls.blank(game)
        for name, load in _LOADED:
            setattr(s, name, load(d))
        return s


def _keep_in_zones(places: list[tuple[int, int]], cards: list[int], remembered: dict[int, int],
                   rng: Any) -> list[int]:
    """``cards`` (a random deal of ``places``) changed so that each card the player remembers
    (``{card: zone index}``) lies in its zone, at a random one of that zone's places: the player
    knows where it went, not where in the zone it is (the zone may have been shuffled)."""
    free: dict[int, list[int]] = {}     # zone index -> the places (indexes into places) in it
    for k, (zi, _i) in enumerate(places):
        free.setdefault(zi, []).append(k)
    out: list[Optional[int]] = [None] * len(places)
    for c, zi in remembered.items():
        slots = free.get(zi)
        if not slots or c not in cards:
            continue                    # kept in place already (a variable names it)
        out[slots.pop(rng.randrange(len(slots)))] = c
    placed = {c for c in out if c is not None}
    rest = iter([c for c in cards if c not in placed])
    return [c if c is not None else next(rest) for c in out]


def _place_known(game: Any, places: list[tuple[int, int]], cards: list[int],
                 known: dict[str, dict[int, str]]) -> list[int]:
    """``cards`` (a random deal of ``places``) changed so that each card ``known`` names at one
    of ``places`` is there: it changes places with the card dealt there."""
    keys: dict[int, str] = {}
    for zi, (name, owner, _vis, _sh) in enumerate(game.zone_info):
        keys[zi] = name if owner < 0 else f"{name}/{owner + 1}"
    index = {pl: k for k, pl in enumerate(places)}
    names = game.card_names
    fixed: set[int] = set()
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


def _slot_types(game: Any) -> dict[str, Any]:
    """For :meth:`State.determinize`: the type that means a card, and for each rule (by its
    number in ``game.procs``) the local slots that hold a card.  Computed once per game."""
    cached = _SLOT_TYPES.get(game)
    if cached is not None:
        return cached
    model = game.model
    frames = {}
    ending_ctx = {pid: ctx for (_f, pid, _k), (_e, _c, ctx) in zip(game.endings, model.endings)}
    for pid, name in enumerate(game.proc_names):
        info = model.rules.get(name) if name in model.rules else ending_ctx.get(pid)
        types = getattr(info, "slot_types", None) or {}
        frames[pid] = [s for s, t in types.items() if t == CARD]
    cached = _SLOT_TYPES[game] = {"card": CARD, "frames": frames}
    return cached


_SLOT_TYPES: WeakKeyDictionary[Any, dict[str, Any]] = WeakKeyDictionary()     # per compiled game
