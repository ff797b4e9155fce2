"""What generated code calls while a game runs: the helpers named in its namespace.

The generators (:mod:`rulelang.compile.codegen`, :mod:`rulelang.compile.rulegen`) put these in the
namespace of the functions they write under short invented names (``_div``, ``_seat``, ``_dec``,
``_dispatch``...): arithmetic that stops the game with RL910/RL911, a player value used as a
player (RL908, RL912), the tops of zones, the tests of the loops of a resumable rule, the numbers
a player may choose, the dispatch after a simultaneous decision.
"""
from __future__ import annotations

from itertools import repeat
from operator import is_

from rulelang.limits import LOOP_WORK_FLOOR, MAX_NUMBER, WORK_UNIT, loop_work_bound
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK
from rulelang.engine.control import GameProblem
from rulelang.engine.events import log_move
from rulelang.engine.players import out_ranking, seats_in
from rulelang.engine.teams import team_results, team_scores


# A value computed before a loop whose computing stopped with a problem, kept for where the loop
# reads it (codegen.ExprGen.deferred): there it is computed again, and stops the game there.
_FAIL = type("_Failed", (), {"__slots__": (), "__repr__": lambda self: "_fail"})()


def _div(a, b, span=None):
    if b:
        return a // b
    raise GameProblem("RL911", f"{a} is divided by zero", span)


def _noseat(k, n, span=None):
    raise GameProblem("RL908", f"there is no player {k} when {n} "
                      f"player{'s play' if n != 1 else ' plays'}", span)


def _noplayer(span=None):
    raise GameProblem("RL912", "a player is `none` where the rules use it as a player", span)


def _seat(p, span=None):
    """A player value used as a player: `none` (-1) stops the game with RL912."""
    if p >= 0:
        return p
    _noplayer(span)


def set_in(v, m):
    """``v in S``: the bit of the value ``v`` in the set ``m`` (`none`, -1, is in no set); the
    value is worked out before the set, as the words read."""
    return v >= 0 and (m >> v) & 1 == 1


def set_size(m):
    return m.bit_count()


def set_changed(m, v, valid, add, span=None):
    """``add v to S`` / ``remove v from S``: ``v`` must be one of the values the set holds
    (``valid``: a suit's index, a rank's number, a seat, a named value's id), else the game
    stops with RL330 (`none`, a rank the deck has not, a number that is no rank)."""
    if v in valid:
        return m | (1 << v) if add else m & ~(1 << v)
    raise GameProblem("RL330", f"{'added to' if add else 'removed from'} a set: {v} is none of "
                      "the values it holds", span)


def set_one(v, valid, span=None):
    """The set of the one value ``v`` where a set is written (``set named to hearts and
    spades``, ``named without hearts``): ``valid`` holds a bit for each value the set may hold,
    else the game stops with RL330."""
    if v >= 0 and (valid >> v) & 1:
        return 1 << v
    raise GameProblem("RL330", f"written in a set: {v} is none of the values it holds", span)


def set_of_cards(cards, table, valid):
    """``the suits (ranks) of the cards in Z``: a bit for each value ``table`` gives a card of
    ``cards``, among those a set may hold (a card without a suit adds none)."""
    m = 0
    for c in cards:
        v = table[c]
        if v >= 0:
            m |= 1 << v
    return m & valid


def _mod(a, b, span=None):
    if b:
        return a % b
    raise GameProblem("RL911", f"{a} mod 0: a number cannot be divided by zero", span)


def _mul(a, b, span=None):
    v = a * b
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise too_large(v, span)


def too_large(v, span=None):
    """RL910: a number computed beyond the bound of every number (rulelang/limits.py)."""
    return GameProblem("RL910", f"the number {v} is too large: numbers are at most {MAX_NUMBER} "
                       "(10^15) either way", span)


def _big(v, span):
    raise too_large(v, span)


def _first(items, default):
    """The first of ``items`` (a generator, looked at no further), or ``default``: a search
    whose condition draws at random stops where the rules stop."""
    for x in items:
        return x
    return default


def spend(g, items, w, span=None):
    """``items`` (a zone's cards, players, numbers, suits or ranks) after charging to the game's
    work in loops (``g.work``) what an expression looking at each of them costs: ``w`` parts
    each (CompiledGame.work of what is looked at for each item).  The loops of a run evaluate at
    most ``limits.loop_work_bound(max_steps)`` parts in all, about the time of its steps (RL901): so a
    condition over the cards of a zone inside another over the cards of a zone costs what it
    really costs, however deep they nest (docs/security.md, "The work of one step")."""
    g.work += len(items) * w
    if g.work > g.max_steps * WORK_UNIT and g.work > LOOP_WORK_FLOOR:
        raise GameProblem("RL901", f"the game did not end within {g.max_steps} steps (its "
                          f"conditions over cards, players and numbers evaluated more than "
                          f"{loop_work_bound(g.max_steps)} parts: the budget allows them about "
                          f"{WORK_UNIT} parts per step, and at least {LOOP_WORK_FLOOR})", span)
    return items


def _top(z):
    return z[-1] if z else -1


def _bottom(z):
    return z[0] if z else -1


def _place(z, k):
    """``card K from top of Z`` (``k`` above 0) or ``card K from bottom`` (``k`` below 0: -1
    the bottom card): none when Z has no card there."""
    n = len(z)
    if 0 < k <= n:
        return z[n - k]
    if 0 < -k <= n:
        return z[-k - 1]
    return -1


def _beside(z, c, d):
    """``card above c in Z`` (``d`` 1) or ``card under c`` (``d`` -1): none when c is not in Z
    or is its top (bottom) card."""
    try:
        i = z.index(c) + d
    except ValueError:
        return -1
    return z[i] if 0 <= i < len(z) else -1


def put_beside(z, d, above, not_there):
    """``move c from A to B under d`` (``above``: 0) or ``above d`` (1), after the move: c, the
    top card of B (list ``z``), goes directly under (above) d; ``not_there(c, d)`` raises the
    game's problem when d is not in B (or is c)."""
    c = z.pop()
    try:
        i = z.index(d)
    except ValueError:
        z.append(c)
        not_there(c, d)
    z.insert(i + above, c)


def _rnd(z, rng):
    """``random card of Z``: a card drawn at random (as the reference interpreter draws it), none if empty."""
    return z[rng.randbelow(len(z))] if z else -1


def _dec(fr, i):
    """The test of ``repeat N times``: count one down, or say the loop is over."""
    if fr[i] <= 0:
        return False
    fr[i] -= 1
    return True


def _nextcard(fr, ci, li, ii):
    """The test of ``for each card``: take the next card, or say the loop is over."""
    k = fr[ii]
    cards = fr[li]
    if k >= len(cards):
        return False
    fr[ci] = cards[k]
    fr[ii] = k + 1
    return True


def _nextvalue(fr, vi, ii, values):
    """The test of ``for each suit`` / ``for each rank``: the next value, or the loop is over."""
    k = fr[ii]
    if k >= len(values):
        return False
    fr[vi] = values[k]
    fr[ii] = k + 1
    return True


def _numbers(lo, hi, span):
    """The values of ``number n from LO to HI``: at most what an action can carry."""
    if lo < 0 or hi > VALUE_MASK:
        raise GameProblem("RL903", f"a number chosen from {lo} to {hi}: only 0 to "
                          f"{VALUE_MASK} can be chosen", span)
    return range(lo, hi + 1)


def _bad_pc(pc):
    return AssertionError(f"no block {pc}")


def _no_choice(p, span):
    raise GameProblem("RL904", f"player {p + 1} has no legal choice here", span)


def _dispatch(fr, xi, ci, alts):
    """Next secret choice to run after a simultaneous decision: its block, or -1 when done."""
    ch = fr[xi]
    if not ch:
        return -1
    p, a = ch[0]
    fr[xi] = ch[1:]
    fr[ci] = p
    alt = alts[a >> ACTION_SHIFT]
    if alt.slot >= 0:
        fr[alt.slot] = a & ((1 << ACTION_SHIFT) - 1)
    return alt.body_pc


class AltInfo:
    """One alternative of a choice, as the runtime needs it (made by the generator's
    ``sus_Choose``; the tests' reference interpreter has its own)."""
    __slots__ = ("label", "kind", "slot", "body_pc", "span")

    def __init__(self, label, kind, slot, span):
        self.label, self.kind, self.slot, self.span = label, kind, slot, span
        self.body_pc = -1


def deal_order(g, start, seats, ob):
    """The seats ``deal`` gives to, from ``start`` on: every seat in the direction of play, or
    (``ob``, where the flags ``out`` are) the players still in the game."""
    if ob is None:
        return _ORDERS.get((start, g.dir, seats)) or _order(start, g.dir, seats)
    return seats_in(g, start, ob)


_ORDERS: dict = {}      # (start, direction, seats) -> the seats in order (lists: not changed)


def _order(start, d, seats):
    order = [(start + d * k) % seats for k in range(seats)]
    if 0 <= start < seats:      # (a seat: the table stays small)
        _ORDERS[(start, d, seats)] = order
    return order


def deal(g, s, order, base, count):
    """``deal [count] cards from s`` to the zones ``base + p`` of the seats ``order`` (not
    empty): one card at a time, seat after seat, ``count`` each (None: until ``s`` is empty)."""
    zones = g.zones
    n = len(order)
    dest = list(map(zones.__getitem__, map(base.__add__, order)))     # (in C)
    if not any(map(is_, dest, repeat(s))):     # (s is none of them: tested in C)
        deal_apart(g, s, order, base, count)
        return
    if count is None:
        i = 0
        while s:
            c = s.pop()
            zones[base + order[i % n]].append(c)
            if g.log is not None:
                log_move(g, s, zones[base + order[i % n]], (c,), False)
            i += 1
        return
    for _ in range(count):
        for p in order:
            if not s:
                return
            c = s.pop()
            zones[base + p].append(c)
            if g.log is not None:
                log_move(g, s, zones[base + p], (c,), False)


def deal_apart(g, s, order, base, count):
    """:func:`deal` when ``s`` is none of the zones dealt to (a zone of another family: the
    generated code calls it directly when that is known as the game is compiled, stmtgen's
    t_Deal), in bulk: the i-th card off the top goes to the i % n-th seat of ``order``, as one
    card at a time would."""
    n = len(order)
    total = len(s) if count is None else min(len(s), max(0, count) * n)
    if total:
        zones = g.zones
        r = s[:-total - 1:-1]
        i = 0
        for p in order:
            zones[base + p].extend(r[i::n])
            i += 1
        if g.log is not None:       # a move per player (engine/events.py)
            for i, p in enumerate(order):
                log_move(g, s, zones[base + p], r[i::n], False)
        del s[-total:]


_ORDER = {"win": 0, "draw": 1, "loss": 2}


def end_with_results(cg, g, results):
    """``end game with winners where ...``: ``results`` has "win", "draw" or "loss" per seat."""
    n = cg.n
    scores = [cg.score_of(g, p) for p in range(n)] if cg.model.score is not None else None
    if cg.team_base is not None:        # a team wins, loses or draws together
        results = team_results(g, results, cg.team_base)
    first = [p for p in range(n) if results[p] == "win"]
    rank = out_ranking(g, first, cg.out_base) if cg.out_base is not None else list(range(n))
    rank = sorted(rank, key=lambda p: _ORDER[results[p]])
    cg.finish(g, first, "results", rank, scores)
    g.seat_results = results


def end_by_score(cg, g, highest):
    """``end game with highest score`` (``highest``) or ``lowest score``."""
    n = cg.n
    scores = [cg.score_of(g, p) for p in range(n)]
    # in a game with teams, the teams' scores: the total of each team's players' scores
    by = scores if cg.team_base is None else team_scores(g, scores, cg.team_base)
    best = max(by) if highest else min(by)
    ranking = sorted(range(n), key=lambda p: -by[p] if highest else by[p])
    cg.finish(g, [p for p in range(n) if by[p] == best], "score", ranking, scores)



def say(g, you, words):
    """``say``, in a game that keeps a log: the words, each already made, told by ``you``."""
    g.log.append(("say", you, " ".join(words)))
