"""The reference interpreter's own rules of play: what a step costs, dealing, the end of a game,
and the problems that stop one.  Written from docs/language.md and kept plain: none of it is
shared with the compiler (``rulelang/compile/``), so that a mistake there shows up as a
difference with the generated game (tests/test_reference_independent.py keeps it so).
"""
from __future__ import annotations

import attrs

from rulelang.syntax import ast as A
from rulelang.limits import MAX_NUMBER, WORK_UNIT
from rulelang.check.ir import DefineUse, Zone, ZoneOf
from rulelang.check.model import Expanded
from rulelang.engine.control import GameProblem
from rulelang.engine.events import log_move
from rulelang.engine.players import hides, seats_in


# ---- problems that stop a game ----------------------------------------------------------------

def too_large(v, span=None) -> GameProblem:
    """RL910: a number beyond the bound of every number."""
    return GameProblem("RL910", f"the number {v} is too large: numbers are at most {MAX_NUMBER} "
                       "(10^15) either way", span)


def no_player(span=None):
    """RL912: `none` used as a player."""
    raise GameProblem("RL912", "a player is `none` where the rules use it as a player", span)


def no_seat(k, n, span=None):
    """RL908: `player K` beyond the players of the game."""
    raise GameProblem("RL908", f"there is no player {k} when {n} "
                      f"player{'s play' if n != 1 else ' plays'}", span)


def over_budget(g, span=None, cost=1) -> GameProblem:
    """RL901: the step budget is spent (saying what the step cost when it was more than one)."""
    why = (f" (this step costs {cost} steps: steps are charged by the size of what they "
           f"evaluate, about {WORK_UNIT} parts each)" if cost > 1 else "")
    return GameProblem("RL901", f"the game did not end within {g.max_steps} steps{why}", span)


# ---- the step budget ---------------------------------------------------------------------------

_PER_ITEM = (A.CardQuery, A.Selection, A.Param, A.PlayerQuery)


def work(model, n, node) -> int:
    """The size of what a step evaluates (docs/language.md, "Limits"): one part per node of
    ``node`` (a statement, an expression or a list of them), a define's body with each use (a
    body shared by several uses of one place counted once), the score with each `score of`; a
    condition looked at for each card or player counted once.  The statements of a rule called
    from ``node`` are not counted (the call is a step of its own)."""
    refs = model.refs
    score = model.score.expr if model.score is not None else None
    sizes: dict = {}            # (node, inside a per-item condition) -> its size

    def size(x, each) -> int:
        if isinstance(x, (list, tuple)):       # last first: a define's body shared by two
            return sum(size(v, each) for v in reversed(x))     # places counts with the last
        if not attrs.has(type(x)) or isinstance(x, A.Span):
            return 0
        key = (id(x), each)
        if key in sizes:
            return 0 if isinstance(x, Expanded) else sizes[key]
        total = 1
        for f in attrs.fields(type(x)):
            v = getattr(x, f.name)
            if f.name == "span" or isinstance(v, (str, int, bool, type(None), A.Span)):
                continue
            inner = True if f.name in ("condition", "where", "expr") and isinstance(x, _PER_ITEM) else each
            total += size(v, inner)
        ref = refs.of(x, None)
        if isinstance(ref, DefineUse):
            total += size(ref.expanded, each)
        if isinstance(x, A.Unary) and x.op == "score" and score is not None:
            total += size(score, each)
        if isinstance(x, A.EndGame) and x.kind in ("highest", "lowest") and score is not None:
            total += n * size(score, True)
        sizes[key] = total
        return total

    return size(node, False)


def charge(model, n, node) -> int:
    """What a step that evaluates ``node`` costs of the budget."""
    return 1 + work(model, n, node) // WORK_UNIT


# ---- dealing -----------------------------------------------------------------------------------

def deal_order(g, start, seats, out_base):
    """The seats a deal gives to, from ``start`` on in the direction of play (only the players
    still in, where players leave)."""
    if out_base is not None:
        return seats_in(g, start, out_base)
    return [(start + g.dir * k) % seats for k in range(seats)]


def deal(g, s, order, base, count):
    """Cards off the top of ``s``, one at a time, to the zones ``base + p`` of the seats
    ``order`` in turn, ``count`` each (None: until ``s`` is empty).  The log records a move per
    card when ``s`` is one of those zones, else one move per seat with all the cards it got."""
    zones = g.zones
    n = len(order)
    dest = [zones[base + p] for p in order]
    if any(d is s for d in dest):
        i = 0
        while s and (count is None or i < count * n):
            c = s.pop()
            dest[i % n].append(c)
            if g.log is not None:
                log_move(g, s, dest[i % n], (c,), False)
            i += 1
        return
    got = [[] for _ in order]
    i = 0
    while s and (count is None or i < count * n):
        got[i % n].append(s.pop())
        i += 1
    for d, cards in zip(dest, got):
        d.extend(cards)
    if g.log is not None:
        for d, cards in zip(dest, got):
            log_move(g, s, d, tuple(cards), False)


# ---- what players remember ---------------------------------------------------------------------

def _seen(model, e):
    """How the zone ``e`` names is seen, or None when known only as the game is played."""
    ref = model.refs.of(e, None)
    z = model.zones.get(getattr(ref, "name", None)) if isinstance(ref, (Zone, ZoneOf)) else None
    return getattr(z, "visibility", None)


def remembers(model, st) -> bool:
    """Whether a move may take a card out of the sight of someone who saw it (they remember it
    where it went) or moves a whole zone (what is remembered of its cards goes with them):
    docs/language.md, "What players remember"."""
    kind, seen = st.selection.kind, _seen(model, st.source)
    if kind == "all_but_top" and seen == "top":
        return False                    # the one card seen there stays
    return kind == "all" or hides(None, seen, _seen(model, st.dest))


# ---- an alternative of a choice -----------------------------------------------------------------

class AltInfo:
    """One alternative of a choice as the runtime reads it (``State.apply_action``, the words of
    an action): its label, the kind of value chosen, the slot of that value, where its body
    starts."""
    __slots__ = ("label", "kind", "slot", "body_pc", "span")

    def __init__(self, label, kind, slot, span):
        self.label, self.kind, self.slot, self.span = label, kind, slot, span
        self.body_pc = -1
