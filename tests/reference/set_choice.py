"""The reference interpreter's choice of a set of cards in one action (``a set of 1 or more cards
s from table to won in groups whose total points is points of c``), written from docs/language.md
("A set of cards in one choice") by brute force: every combination of the cards that may be
chosen, tested against each condition, the sets of identical cards kept once, then sorted.  It
shares only the limits with the engine's search (rulelang/engine/subsets.py), which prunes and
builds the unions of groups instead: the differential tests compare the two.
"""
from __future__ import annotations

from itertools import combinations

from rulelang.kinds import Frame
from rulelang.engine.control import GameProblem
from rulelang.engine.events import log_move
from rulelang.engine.players import seen_go
from rulelang.engine.runtime import ACTION_SHIFT
from rulelang.limits import MAX_SET_OFFERED, MAX_SET_POOL, MAX_SET_SEARCH


def _splits(values, target):
    """Whether the values split into groups of total ``target`` each (the first value's group
    is tried with every choice of the others)."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    for k in range(len(rest) + 1):
        for others in combinations(range(len(rest)), k):
            if first + sum(rest[i] for i in others) == target:
                left = [rest[i] for i in range(len(rest)) if i not in others]
                if _splits(left, target):
                    return True
    return False


def sets_looked_through(game, cards, most, shape, mode, target, table, limit=MAX_SET_SEARCH):
    """How many sets the search of a choice looks through (docs/language.md, "A set of cards in
    one choice", "Bounds"), counted from that definition up to ``limit`` + 1 (past the limit
    the game stops with RL285):

    - in a run: every run of the cards, one card of each rank of one suit, ranks that follow
      each other (the one-card runs too);
    - in groups whose total is T: every set of at most ``most`` cards whose total is at most T
      (any total when a value is negative), each copy of a card on its own; then every choice
      of sets of total T (one or more) that share no card and hold at most ``most`` cards
      together;
    - otherwise: every set of at most ``most`` cards (identical copies make one set), of one
      rank (suit) with `of one rank` (`of one suit`), whose total is at most T with `whose
      total ... is T` or `is at most T` when no value is negative."""
    twin = game.card_twin
    name = (lambda c: twin[c]) if twin is not None else (lambda c: c)
    cards = sorted(cards, key=lambda c: (name(c), c))
    most = min(most, len(cards))
    value = (lambda c: table[c]) if table is not None else (lambda c: 0)
    nonneg = all(value(c) >= 0 for c in cards)
    count = 0
    if shape == "run":
        place = {r: i for i, r in enumerate(game.rank_cycle)}
        for suit in {game.suit_of[c] for c in cards if game.suit_of[c] >= 0}:
            have = {place[game.rank_of[c]] for c in cards
                    if game.suit_of[c] == suit and game.rank_of[c] in place}
            for a in have:
                b = a
                while b in have:
                    count += 1
                    b += 1
        return min(count, limit + 1)
    if mode == "groups":
        totals = []
        for k in range(1, most + 1):
            for s in combinations(cards, k):
                t = sum(value(c) for c in s)
                if nonneg and t > target:
                    continue
                count += 1
                if count > limit:
                    return count
                if t == target:
                    totals.append(frozenset(s))

        def unions(start, used):
            nonlocal count
            for i in range(start, len(totals)):
                g = totals[i]
                if g & used or len(g | used) > most:
                    continue
                count += 1
                if count > limit:
                    return
                unions(i + 1, g | used)
        unions(0, frozenset())
        return count
    cap = target if mode in ("is", "most") and nonneg else None
    seen = set()
    for k in range(1, most + 1):
        for s in combinations(cards, k):
            if shape == "rank" and len({game.rank_of[c] for c in s}) > 1:
                continue
            if shape == "suit" and len({game.suit_of[c] for c in s}) > 1:
                continue
            if cap is not None and sum(value(c) for c in s) > cap:
                continue
            key = tuple(name(c) for c in s)
            if key not in seen:
                seen.add(key)
                count += 1
                if count > limit:
                    return count
    return count


def reference_sets(game, cards, fewest, most, shape, mode, target, table):
    """Every set offered, as tuples of cards in the order of the deck, in the order offered."""
    twin = game.card_twin
    name = (lambda c: twin[c]) if twin is not None else (lambda c: c)
    cards = sorted(cards, key=lambda c: (name(c), c))
    place = {r: i for i, r in enumerate(game.rank_cycle)}
    out, seen = [], set()
    for k in range(max(fewest, 1), min(most, len(cards)) + 1):
        for s in combinations(cards, k):
            if shape == "rank" and len({game.rank_of[c] for c in s}) > 1:
                continue
            if shape == "suit" and len({game.suit_of[c] for c in s}) > 1:
                continue
            if shape == "run":
                if any(game.suit_of[c] < 0 or game.rank_of[c] not in place for c in s):
                    continue
                if len({game.suit_of[c] for c in s}) > 1:
                    continue
                ps = sorted(place[game.rank_of[c]] for c in s)
                if ps != list(range(ps[0], ps[0] + len(ps))):
                    continue
            if mode is not None:
                vals = [table[c] for c in s]
                t = sum(vals)
                if (mode == "is" and t != target) or (mode == "most" and t > target) or \
                        (mode == "least" and t < target):
                    continue
                if mode == "groups" and not _splits(vals, target):
                    continue
            key = tuple(name(c) for c in s)
            if key in seen:
                continue
            seen.add(key)
            out.append(s)
    # fewest cards first, then card by card in the order of the deck (combinations gives that
    # order within each size, the cards sorted)
    return out


class SetChoice:
    """The closures of a choice of a set (a mixin of ``ReferenceGame``)."""

    def _set_parts(self, alt):
        p = alt.param
        sl = self.model.sets.of(alt)
        ks = tuple(Frame.slot(k) for k in sl.slots)
        table = None
        if p.total_mode is not None:
            table = self.rank_of if p.total_attr == "rank" else self.attr_tables.get(
                p.total_attr, self.rank_of)
        return p, sl, ks, table

    def _set_list(self, g, fr, ks, p, table):
        ei, _zi, _di, fi, mi, ti = ks
        if sets_looked_through(self, fr[ei], fr[mi], p.shape, p.total_mode, fr[ti],
                               table) > MAX_SET_SEARCH:
            raise GameProblem("RL285", f"more than {MAX_SET_SEARCH} sets to look through", p.span)
        try:
            sets = reference_sets(self, fr[ei], fr[fi], fr[mi], p.shape, p.total_mode, fr[ti],
                                  table)
        except RecursionError:
            raise GameProblem("RL285", "too many sets to look through", p.span) from None
        if len(sets) > MAX_SET_OFFERED:
            raise GameProblem("RL284", f"{len(sets)} sets to choose from, more than "
                              f"{MAX_SET_OFFERED}", p.span)
        return sets

    def _set_enumerator(self, alt, aid, cond):
        p, sl, ks, table = self._set_parts(alt)
        # what the engine's words of a choice read (display_names.Words.action), and ours
        self.__dict__.setdefault("set_choices", {})[aid] = (ks, p.shape, p.total_mode, table, p.span)
        self.__dict__.setdefault("set_alts", {})[aid] = (alt, ks, table)
        base = aid << ACTION_SHIFT
        zf, df, lo = self.cx(p.source), self.cx(p.dest), self.cx(p.fewest)
        hi = self.cx(p.most) if p.most is not None else None
        tf = self.cx(p.total) if p.total is not None else None
        where = self.cx(p.where) if p.where is not None else None
        ci = Frame.slot(sl.card)

        def enum(g, fr, out):
            if cond is not None and not cond(g, fr):
                return
            z = zf(g, fr)
            cards = []
            for v in g.zones[z]:
                fr[ci] = v
                if where is None or where(g, fr):
                    cards.append(v)
            d, fewest = df(g, fr), lo(g, fr)
            most = hi(g, fr) if hi is not None else 1 << 30
            target = tf(g, fr) if tf is not None else 0
            if fewest < 1 or most < fewest:
                raise GameProblem("RL286", f"a set of {fewest} to {most} cards: a set holds "
                                  "at least one card, and no fewer than its least", p.span)
            if len(cards) > MAX_SET_POOL:
                raise GameProblem("RL285", f"a set is chosen among at most {MAX_SET_POOL} "
                                  f"cards, not {len(cards)}", p.span)
            twin = self.card_twin
            cards = tuple(sorted(cards, key=lambda c: ((twin[c] if twin is not None else c), c)))
            ei, zi, di, fi, mi, ti = ks
            fr[ei], fr[zi], fr[di], fr[fi], fr[mi], fr[ti] = cards, z, d, fewest, most, target
            out.extend(range(base, base + len(self._set_list(g, fr, ks, p, table))))
        return enum

    def _set_take(self, alt, aid, b):
        """Before the body: the set chosen moves from Z to D together; c is its first card."""
        p, sl, ks, table = self._set_parts(alt)
        si, ci = self.alternatives[aid].slot, Frame.slot(sl.card)

        def make(nxt):
            def take(g, fr):
                sets = self._set_list(g, fr, ks, p, table)
                k = fr[si]
                if not 0 <= k < len(sets):
                    raise GameProblem("RL902", f"set {k + 1} was not offered", p.span)
                picked = sets[k]
                src, dst = g.zones[fr[ks[1]]], g.zones[fr[ks[2]]]
                for c in picked:
                    if c not in src:
                        raise GameProblem("RL902", "a card of the set is not in the zone it was "
                                          "chosen from", p.span)
                before = {c: fr[ks[1]] for c in picked}
                for c in picked:
                    src.remove(c)
                dst.extend(picked)
                if self.played_base is not None:
                    self.played_after(g, before)
                if g.log is not None:
                    log_move(g, src, dst, list(picked), False)
                seen_go(g, list(picked), fr[ks[1]], fr[ks[2]], -1)
                fr[ci] = picked[0]
                return nxt
            return take
        b.emit(make)

    def set_words(self, g, aid, k):
        """The cards of set ``k`` of alternative ``aid`` at the decision ``g`` waits for, by
        name, or None."""
        alt, ks, table = self.__dict__.get("set_alts", {}).get(aid, (None, None, None))
        if alt is None or not g.stack or g.stack[-1][ks[0]].__class__ is not tuple:
            return None
        sets = self._set_list(g, g.stack[-1], ks, alt.param, table)
        return " ".join(self.card_names[c] for c in sets[k]) if 0 <= k < len(sets) else None
