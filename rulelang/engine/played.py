"""Who played each card (docs/language.md, "Who played a card"): ``who played c``.

A game that reads it keeps one value per card among its variables (compile/layout.py,
``played_base``: the seat, -1 for none), so a clone, a save and a resume keep it as they keep the
variables.  The value changes only as cards move:

- a card that goes into a zone of a player (a hand, a pile of tricks taken) has been played by
  nobody (-1): it is held again;
- a card that goes from a zone of a player into a shared zone was played by that player;
- a card that goes from a shared zone to another keeps the player who played it (a trick gathered
  onto a pile of the table);
- a shuffled zone's cards have been played by nobody (the pile is mixed).

So a card in a zone of a player is always played by nobody.  Who played a card in a shared zone
is seen by everyone, as at a table, even for a face-down card (whose identity stays hidden):
:func:`shown` gives it by place, never by card, and :func:`redealt` gives a card dealt again to a
hidden place (``State.determinize``) the value of the place it takes.  Nothing here names a game.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional


def moved(vs: list[int], base: int, cards: Sequence[int], src_owner: int, dst_owner: int) -> None:
    """The cards went from a zone of ``src_owner`` (-1: shared) to a zone of ``dst_owner``."""
    if dst_owner >= 0:
        seat = -1
    elif src_owner >= 0:
        seat = src_owner
    else:
        return
    for c in cards:
        vs[base + c] = seat


def moved_lists(g: Any, src: list[int], dst: list[int], cards: Sequence[int]) -> None:
    """:func:`moved` for the zones' lists (a choice of several cards, engine/choices.py)."""
    base = g.game.played_base
    if base is None:
        return
    zones, info = g.zones, g.game.zone_info
    si = next(i for i, z in enumerate(zones) if z is src)
    di = next(i for i, z in enumerate(zones) if z is dst)
    moved(g.vars, base, cards, info[si][1], info[di][1])


def cleared(vs: list[int], base: int, cards: Sequence[int]) -> None:
    """The cards have been played by nobody (dealt to a player, or shuffled)."""
    for c in cards:     # (a loop: faster than map over vs.__setitem__)
        vs[base + c] = -1


def nobody_played(g: Any) -> None:
    """A position set by hand (a rule test's ``given:``, play/scenario.py): no card in it has
    been played, whatever setup did before."""
    base = g.game.played_base
    if base is not None:
        g.vars[base:base + len(g.game.card_names)] = [-1] * len(g.game.card_names)


def shown(g: Any, viewer: Optional[int] = None) -> dict[str, list[Optional[int]]]:
    """Who played each card of the shared zones whose size the viewer sees, by place (bottom
    first; seats from 1, None for nobody): ``{zone name: [...]}``; the zones with no card
    played leave out."""
    base = g.game.played_base
    out: dict[str, list[Optional[int]]] = {}
    if base is None:
        return out
    vs = g.vars
    for zi, (name, owner, _vis, size_hidden) in enumerate(g.game.zone_info):
        if owner >= 0 or size_hidden:
            continue
        seats = [vs[base + c] for c in g.zones[zi]]
        if any(s >= 0 for s in seats):
            out[name] = [s + 1 if s >= 0 else None for s in seats]
    return out


def redealt(g: Any, places: Sequence[tuple[int, int]], old: Sequence[int]) -> None:
    """After ``State.determinize`` dealt the cards ``old`` again to ``places`` (zone, index):
    each card there now has the value of the place it took (the card that was there had it)."""
    base = g.game.played_base
    if base is None:
        return
    vs = g.vars
    was = [vs[base + c] for c in old]
    zones = g.zones
    for (zi, i), seat in zip(places, was):
        vs[base + zones[zi][i]] = seat
