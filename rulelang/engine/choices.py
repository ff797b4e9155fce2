"""Run-time helpers of the generated code (and of the tests' reference interpreter) for decisions made in parts: several
cards in one step (``pass 3 cards c from hand to passing``: :func:`pick_start`, :func:`pick_step`)
and claims by a set of players (``any opponent may choose from P:``: :func:`claim_order`,
:func:`first_claim`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Optional

from rulelang.limits import ACTION_SHIFT
from rulelang.engine.events import log_move
from rulelang.engine.control import GameProblem
from rulelang.engine.players import seen_go
from rulelang.engine.played import moved_lists


# ---- several cards in one step (`pass 3 cards c from hand to passing`) --------------------------
# The alternative asks for the cards one at a time, in the order of the deck (a card and its
# identical copies next to each other), each after the one before: so a set of cards is offered
# once, never again in another order, and identical copies are one choice.  Nothing moves until
# the set is complete; then the cards go from Z to D together.  The state of the small decisions
# is in the frame: the cards that may be chosen (the `where` asked once, at the first card), the
# cards chosen so far, Z, D, the fewest and the most cards.  Used by the generated code and by
# the reference interpreter of the tests alike.  ``g`` is the game state (engine/runtime.py) and
# ``fr`` a frame of the run loop (a list of slots), typed loosely.

def move_picked(g: Any, src: list[int], dst: list[int], picked: Sequence[int], span: Any) -> None:
    """The cards chosen (several cards, or a set) go from ``src`` to ``dst`` together, on top,
    in their order; a card no longer in ``src`` is RL902."""
    for c in picked:
        if c not in src:
            raise GameProblem("RL902", f"card {g.game.card_names[c]} is not in the zone it "
                              "was chosen from", span)
    for c in picked:
        src.remove(c)
    dst.extend(picked)
    if g.game.played_base is not None:      # who played them (engine/played.py)
        moved_lists(g, src, dst, picked)
    if g.log is not None:       # the move in a logged game's log (engine/events.py)
        log_move(g, src, dst, list(picked), False)


def _pick_key(g: Any, c: int) -> tuple[int, int]:
    twin = g.game.card_twin
    return (twin[c] if twin is not None else c, c)


def _pick_group(g: Any, c: int, same: str) -> Any:
    card = g.game.cards[c]
    return card[1] if same == "rank" else card[2]


def pick_options(g: Any, eligible: Sequence[int], picked: Sequence[int], fewest: int, most: int,
                 same: Optional[str], base: int) -> list[int]:
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
    out: list[int] = []
    offered: set[int] = set()
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


def pick_start(g: Any, fr: list[Any], ks: Sequence[int], cards: Iterable[int], z: int, d: int,
               fewest: int, or_more: bool, same: Optional[str], base: int, span: Any) -> list[int]:
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


def pick_step(g: Any, fr: list[Any], si: int, ks: Sequence[int], same: Optional[str], base: int,
              done: int, span: Any) -> Optional[list[int]]:
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
    move_picked(g, src, dst, picked, span)
    seen_go(g, picked, fr[zi], fr[di], -1)     # a player who saw them go remembers them
    fr[si] = picked[0]
    return None


# ---- decisions by a set of players (`any opponent may choose from P:`) --------------------------

def claim_order(g: Any, players: Iterable[int], start: int) -> list[int]:
    """The players who may claim, in the order of play from ``start``."""
    n, d = g.n, g.dir
    return sorted(players, key=lambda q: ((q - start) * d) % n)


def first_claim(choices: Iterable[tuple[int, int]], none_aid: int) -> tuple[tuple[int, int], ...]:
    """Of the secret choices of a claim (in the order claims are asked from), the first that
    claims, alone; nothing when nobody claimed."""
    for pa in choices:
        if pa[1] >> ACTION_SHIFT != none_aid:
            return (pa,)
    return ()
