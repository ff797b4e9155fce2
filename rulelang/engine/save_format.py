"""Saves of a position: the format's number, the game's identity a save must match
(:func:`game_identity`), the JSON form of a frame's tuples (:func:`_plain`, :func:`_unplain`), and
:func:`_check_save`, which refuses with a :class:`SaveError` in words a save that is of another
game or is no position of this one.  :meth:`State.to_json
<rulelang.engine.runtime.State.to_json>` and :meth:`State.from_json
<rulelang.engine.runtime.State.from_json>` use them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, Optional

from rulelang.kinds import CARD, FLAG, NUMBER, PLAYER, SUIT, ZONE, Frame
from rulelang.limits import ACTION_SHIFT, MAX_STEPS_OPTION, VALUE_MASK, loop_work_bound
from rulelang.engine.control import END_TURN

SAVE_FORMAT = 1


class SaveError(ValueError):
    """A save (:meth:`State.to_json`) that :meth:`State.from_json` will not resume: of another
    game, options or number of players, or not a position of this game.  The message says what
    is wrong, in words."""


def game_identity(game: Any) -> dict[str, Any]:
    """What a save must match to resume with ``game`` (a compiled game)."""
    model = game.model
    return {"name": game.name, "digest": getattr(model, "digest", None),
            "options": {k: v.value for k, v in model.options.items()}, "players": game.n}


def _kind(x: object) -> str:
    return {bool: "yes/no", int: "a number", str: "text", list: "a list", dict: "an object",
            type(None): "null", float: "a fraction"}.get(type(x), type(x).__name__)


def _show(x: object) -> str:
    import json
    try:
        text = json.dumps(x)
    except (TypeError, ValueError):
        text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_save(g: Any, d: dict[str, Any], keys: tuple[str, ...], optional: tuple[str, ...]) -> None:
    """Raise SaveError unless ``d`` is a save of a position of the compiled game ``g``: it has
    every one of ``keys``, and no key but those and ``optional`` (the State's declaration,
    :data:`rulelang.engine.runtime.FIELDS`, gives both)."""
    unknown = [k for k in d if k not in keys and k not in optional]
    if unknown:
        raise SaveError(f"this save has a field `{unknown[0]}` that no save of rulelang has")
    missing = [k for k in keys if k not in d]
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
        def opts(o: object) -> str:
            return ", ".join(f"{k}={_show(v)}" for k, v in sorted(o.items())) \
                if isinstance(o, dict) and o else "no options"
        raise SaveError(f"this save was played with {opts(ident['options'])}, not with "
                        f"{opts(mine['options'])}")
    if ident["players"] != mine["players"] or d["n"] != g.n:
        raise SaveError(f"this save is of a game of {_show(ident['players'])} players, "
                        f"not {g.n}")
    n = g.n
    ncards = len(g.card_names)

    def bad(field: str, what: str) -> NoReturn:
        raise SaveError(f"this save is no position of {mine['name']}: `{field}` {what}")

    def integer(field: str, x: Any, lo: Optional[int] = None, hi: Optional[int] = None) -> int:
        if x.__class__ is not int:
            bad(field, f"must be a whole number, not {_kind(x)} {_show(x)}")
        if (lo is not None and x < lo) or (hi is not None and x > hi):
            bad(field, f"is {x}, out of its range {lo} to {hi if hi is not None else 'any'}")
        return x

    def seat(field: str, x: Any, none_ok: bool = False) -> int:
        return integer(field, x, -1 if none_ok else 0, n - 1)

    def flag(field: str, x: Any) -> None:
        if x.__class__ is not bool:
            bad(field, f"must be true or false, not {_show(x)}")

    def listof(field: str, x: Any) -> Any:
        if not isinstance(x, (list, tuple)):
            bad(field, f"must be a list, not {_kind(x)}")
        return x

    # -- the cards: each card of the game exactly once, in one zone
    zones = listof("zones", d["zones"])
    if len(zones) != len(g.zone_info):
        bad("zones", f"has {len(zones)} zones; this game has {len(g.zone_info)}")
    where: dict[int, str] = {}
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
    integer("max_steps", d["max_steps"], 1, MAX_STEPS_OPTION)
    if "work" in d:                     # the parts loops have evaluated (genruntime.spend)
        integer("work", d["work"], 0, loop_work_bound(d["max_steps"]))
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
        if len(fr) != Frame.slot(slot_count[pid]):
            bad("stack", f"has {len(fr) - 3} local names for a rule that has {slot_count[pid]}")
        types = slot_types.get(pid, {})
        for k, x in enumerate(fr[Frame.SLOTS:]):
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


def _check_action(a: Any, bad: Callable[[str, str], NoReturn], g: Any) -> None:
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


def _check_local(x: Any, bad: Callable[[str, str], NoReturn], typ: Any, ncards: int, n: int,
                 g: Any) -> None:
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


def _positions(g: Any, pid: int) -> tuple[int, int]:
    """The lowest and highest position a frame of rule ``pid`` can be at: a step of the game's
    root (or a code such as RETURN, below 0), a block of a generated rule."""
    if pid == g.root:
        return END_TURN, g.root_halt
    blocks = getattr(g, "proc_blocks", {})
    if pid in blocks:
        return 0, blocks[pid] - 1
    if pid == g.turn_top and g.turn_proc in blocks:
        return 0, blocks[g.turn_proc] - 1
    return END_TURN, 1 << 62


def _frame_types(g: Any) -> dict[int, dict[int, Any]]:
    """The kind of each local name of each rule's frame (by the rule's number in ``g.procs``)."""
    model = g.model
    out: dict[int, dict[int, Any]] = {}
    for name, r in model.rules.items():
        out[g.proc_index[name]] = dict(getattr(r, "slot_types", None) or {})
    for (_f, pid, _k), (_e, _c, ctx) in zip(g.endings, model.endings):
        out[pid] = dict(getattr(ctx, "slot_types", None) or {})
    if g.turn_proc >= 0:
        out[g.turn_top] = out.get(g.turn_proc, {})
    return out


def _frame_slots(g: Any) -> dict[int, int]:
    """How many local names the frame of each rule (by its number in ``g.procs``) holds."""
    out = {pid: 0 for pid in range(len(g.procs))}
    for name, k in g.rule_slots.items():
        pid = g.proc_index.get(name, name)
        if isinstance(pid, int):
            out[pid] = k
    out[g.turn_top] = g.rule_slots.get("turn", 0)
    return out


def _plain(x: Any) -> Any:
    if isinstance(x, tuple):
        return {"tuple": [_plain(y) for y in x]}
    return x


def _unplain(x: Any) -> Any:
    if isinstance(x, dict) and "tuple" in x:
        return tuple(_unplain(y) for y in x["tuple"])
    if isinstance(x, list):
        return tuple(x)
    return x
