"""What happened in a logged game, in order: the events the runtime records in
``State.log`` among the choices and what the rules say, and what one viewer sees of each.

A game made with ``new_game(log=True)`` (the command line, a transcript) records, besides
``("choice", seat, action)``, ``("say", seat, text)``, ``("reveal", seat, card name)``,
``("turn", turns played, whose turn, direction)`` and ``("end", outcome, winners, scores)``:

- ``("move", from zone, to zone, cards, to the bottom)``: cards moved from one zone to another,
  ``cards`` a tuple of card numbers in the order they lie in the zone they went to (bottom
  first), put on top of it or (``to the bottom`` True) under it.  A deal is a move per player.
- ``("shuffle", zone, cards)``: a zone shuffled, ``cards`` its new order.
- ``("reverse",)``: the order of play reversed.
- ``("team", seat, team)``: a player joined a team (``set the team of P to T``; teams are
  numbered from 1): every seat sees it, as it sees what the rules say.

Events are plain data (tuples of ints, bools and texts): a clone shares them, and a log is
written as JSON as it is.  Only a logged game records them: the generated code asks
``g.log is not None`` before it makes one, and the playout fast path (``State.playout``) is
generated without even that question.

The log holds every card, as the engine knows it; what a viewer may see of an event is
:func:`seen_event`, which names only cards that viewer sees before or after it.
:func:`apply_event` replays an event on a copy of the zones, so the zones at any point of the
log are the zones at its start with its events applied.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Optional

# An event of the log: a tuple whose first item names its kind (above).  ``g`` below is a game
# state and ``game`` a compiled game (engine/runtime.py), typed loosely: this module is beneath
# both.
Event = tuple[Any, ...]
Zones = list[list[int]]

# Every kind of event, and what it is to a reader of the log: "zones", the zones change
# (:func:`apply_event` replays it); "order", the order of play; "words", what the rules tell
# (narration tells it even of setup); "decision", a choice made; "turn", a turn over; "end", the
# result.  A statement's description says which it records (rulelang/check/effects.py).
EVENTS = {
    "move": "zones",
    "shuffle": "zones",
    "reverse": "order",
    "say": "words",
    "reveal": "words",
    "team": "words",
    "choice": "decision",
    "turn": "turn",
    "end": "end",
}


def _index(zones: Sequence[list[int]], z: list[int]) -> int:
    for i, x in enumerate(zones):
        if x is z:
            return i
    return -1


def log_move(g: Any, s: list[int], d: Optional[list[int]], cards: Sequence[int], bottom: object) -> None:
    """Record a move of ``cards`` (in the order they lie where they go) from the zone list ``s``
    to the zone list ``d`` (None: the zone that now holds the last of them), put under it when
    ``bottom``.  Called only when ``g.log`` is not None; nothing is recorded for no card."""
    if not cards:
        return
    zones = g.zones
    si = _index(zones, s)
    if d is None:
        c = cards[-1]
        di = next(i for i, z in enumerate(zones) if c in z)
    else:
        di = _index(zones, d)
    g.log.append(("move", si, di, tuple(cards), bool(bottom)))


def log_reverse(g: Any) -> None:
    """Record that the order of play is reversed (in a logged game)."""
    g.log.append(("reverse",))


def apply_event(zones: Zones, e: Event) -> None:
    """Replay event ``e`` on ``zones`` (lists of card numbers), in place."""
    kind = e[0]
    if kind == "move":
        _k, si, di, cards, bottom = e
        src = zones[si]
        for c in cards:
            src.remove(c)
        if bottom:
            zones[di][:0] = cards
        else:
            zones[di].extend(cards)
    elif kind == "shuffle":
        zones[e[1]][:] = e[2]


def sees(game: Any, zi: int, pos: int, size: int, viewer: Optional[int]) -> bool:
    """Whether the viewer (a seat, or None for the spectator of ``rulelang run``, who sees every
    hand but no face-down pile) sees the card at ``pos`` of zone ``zi`` holding ``size`` cards."""
    _name, owner, vis, _sh = game.zone_info[zi]
    if vis == "everyone":
        return True
    if vis == "owner":
        return viewer is None or owner == viewer
    if vis == "top":
        return pos == size - 1
    if vis == "bottom":
        return pos == 0
    return False


def seen_event(game: Any, zones: Zones, e: Event, viewer: Optional[int]) -> Event:
    """What ``viewer`` sees of event ``e``, with ``zones`` the zones just before it: a move names
    each card the viewer sees where it was or where it went, and -1 for each other card; a
    shuffle names no card (``("shuffle", zone)``).  Every other event is returned as it is."""
    kind = e[0]
    if kind == "move":
        _k, si, di, cards, bottom = e
        src, dst = zones[si], zones[di]
        ns, nd, k = len(src), len(dst), len(cards)
        size_after = nd + k
        out = []
        for i, c in enumerate(cards):
            pos_after = i if bottom else nd + i
            try:
                pos_before = src.index(c)
            except ValueError:
                pos_before = -1
            seen = (pos_before >= 0 and sees(game, si, pos_before, ns, viewer)) or \
                sees(game, di, pos_after, size_after, viewer)
            out.append(c if seen else -1)
        return ("move", si, di, tuple(out), bottom)
    if kind == "shuffle":
        return ("shuffle", e[1])
    return e


def events_seen(game: Any, start: Zones, log: Iterable[Event], viewer: Optional[int]) -> list[Event]:
    """The events of ``log`` as ``viewer`` sees them, the zones at the log's start being
    ``start`` (not changed)."""
    zones = [z[:] for z in start]
    out = []
    for e in log:
        out.append(seen_event(game, zones, e, viewer))
        apply_event(zones, e)
    return out
