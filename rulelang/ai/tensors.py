"""Fixed-size numbers for learning agents: observation tensors, a global action space, and the
information state of one seat.  Shared by the OpenSpiel and PettingZoo adapters
(:mod:`rulelang.ai.openspiel`, :mod:`rulelang.ai.pettingzoo`); see ``docs/ai.md``.

Everything here is derived from the rules (zones and their visibility, variables and their
types, the alternatives of the rules' choices) for one number of players, so the sizes are fixed
per (rule file, options, player count).  Plain Python lists of floats, or written into a zeroed
buffer the caller gives (the adapters give a numpy array, so that only the few places that are
not 0 are written: turning a list of hundreds of floats into an array costs more than making
it): this module imports no numpy.

**Observation of seat p** (:meth:`Encoding.observation`), in this order:

* for each zone, in the order the rules declare them (a zone of each player once per seat, seat 1
  first): ``size`` (1 number: how many cards, 0 when the rules hide the size), ``cards`` (one
  number per distinct card name: how many of that card lie there, only when p may see the whole
  zone: ``face up``, or p's own ``owner`` zone) and ``top`` (one-hot over the distinct card names:
  the top card, when p may see it: a ``top face up`` pile or a zone p may see whole);
* for each variable (each player's copy of a per-player variable): a number, a yes/no as 0/1,
  a card / player / suit / symbol / zone as a one-hot with a last place for "none", a set of
  values as one place per value it may hold, 1 for those in it (variables are public in
  rulelang);
* ``seat``: one-hot of p; ``turn``: one-hot of whose turn it is; ``to_decide``: the seats that
  must decide now (several at a simultaneous decision);
* ``phase``: one-hot of the rule that asks the pending decision (the innermost running rule);
* ``choices``: for each alternative of the rules' choices (``play``, ``draw``...), 1 when p may
  take it now (it is p's decision and some legal action is that alternative);
* ``terminal``: 1 when the game is over.

Nothing hidden from p enters it: a card is counted only in a zone p may see, a top only where p
may see the top, and the rest is sizes and public values, so the tensor is the same in every
world :meth:`rulelang.engine.runtime.State.determinize` deals for p (``tests/test_ai.py`` checks it).

**Action ids** (:class:`ActionSpace`): each alternative of the rules (numbered as the rules list
them) owns a block of ids, one per value it can take: one id for an alternative without a value,
one per card of the deck (each copy its own id: the card's number in the deal order), one per
player, suit or rank number, and for ``number n from A to B`` one per number up to B when A and
B are written as numbers, else 1024.  Id = block start + value.  A last id, ``wait``, is the
no-op of a seat that has nothing to decide at a simultaneous decision (OpenSpiel asks every seat).

**Information state** (:class:`Trail`): the observation, plus every distinct card the seat has
ever seen (in a zone it could see, or on top of a pile) and how often it has taken each action.
The string form adds the seat's own actions in order, with the move number of each.
"""
from __future__ import annotations

import json
from functools import reduce
from itertools import compress
from operator import itemgetter, ne, or_
from typing import Optional
from weakref import WeakKeyDictionary

from rulelang.syntax import ast as A
from rulelang.kinds import CARD, PLAYED_BY, PLAYER, SET_KINDS, SUIT, SYMBOL, ZONE, Kind
from rulelang.engine.playout import _merge_twins_fast, twin_keys
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK
from rulelang.limits import MAX_SET_OFFERED
from rulelang.ai.live import Live  # noqa: F401  (kept tensors: rulelang.ai.live)


def _walk(x, out: list):
    """Every AST node under ``x`` (attrs classes, tuples and lists)."""
    if isinstance(x, (tuple, list)):
        for y in x:
            _walk(y, out)
        return
    fields = getattr(type(x), "__attrs_attrs__", None)
    if fields is None:
        return
    out.append(x)
    for f in fields:
        _walk(getattr(x, f.name), out)


def rule_nodes(cg) -> list:
    """Every node of the rules the compiled game runs (its rules and its endings)."""
    out: list = []
    for r in cg.model.rules.values():
        _walk(r.decl, out)
    for e, _ctx, _body in cg.model.endings:
        _walk(e, out)
    return out


def has_simultaneous(cg) -> bool:
    """Whether the rules ever ask several seats to choose together."""
    return any(ch.simultaneous for _alt, ch in cg.model.alternatives)


def zero_sum(cg) -> bool:
    """Whether the returns (+1 each winner, -1 each other seat, 0 with no winner) always add up
    to 0: two players, and every ``end game`` names one winner or loser, or no winner (a score
    ending can tie, and then both players win).  Never for a game that declares ``returns:``."""
    if cg.n != 2 or getattr(cg, "returns_fn", None) is not None:
        return False                    # (declared returns: any numbers)
    return all(node.kind in ("winner", "loser", "draw")
               for node in rule_nodes(cg) if isinstance(node, A.EndGame))


class ActionSpace:
    """The fixed global action ids of one compiled game (see the module's doc)."""

    def __init__(self, cg):
        self.cg = cg
        n_cards = len(cg.card_names)
        ranks = max(cg.model.ranks.values(), default=0) + 1
        self.widths = []
        for alt in cg.alternatives:
            kind = alt.kind if alt is not None else None
            if kind is None:
                w = 1
            elif kind == "card":
                w = max(1, n_cards)
            elif kind == "player":
                w = cg.n
            elif kind == "suit":
                w = max(1, len(cg.model.suits))
            elif kind == "rank":
                w = ranks
            elif kind == "place":               # a place in a zone: below the number of cards
                w = max(1, n_cards)
            elif kind == "value":               # a named value: below the ids of the sets
                w = max(1, len(cg.model.symbols))
            elif kind == "set":                 # a set of cards: its number in the list offered
                w = MAX_SET_OFFERED
            else:
                w = VALUE_MASK + 1
                node = cg.model.alternatives[self.widths.__len__()][0].param
                if isinstance(node.source, A.Int) and isinstance(node.high, A.Int):
                    w = max(1, min(VALUE_MASK, node.high.value) + 1)
            self.widths.append(w)
        self.offsets = []
        k = 0
        for w in self.widths:
            self.offsets.append(k)
            k += w
        self.wait = k                    # the no-op at a simultaneous decision
        seen: dict = {}
        self.copy_of = []                # card number -> how many cards of its name come before
        for nm in cg.card_names:
            self.copy_of.append(seen.get(nm, 0))
            seen[nm] = seen.get(nm, 0) + 1
        self.size = k + 1
        # (both ways at once, looked up in C: a rulelang action -> its id, an id -> its action)
        self.id_of = {(alt << ACTION_SHIFT) + v: off + v
                      for alt, (off, w) in enumerate(zip(self.offsets, self.widths))
                      for v in range(w)}
        self.action_of = sorted(self.id_of, key=self.id_of.__getitem__)

    def to_id(self, action: int) -> int:
        """The global id of a rulelang action (``alternative * 1024 + value``)."""
        aid = self.id_of.get(action)
        if aid is None:
            raise ValueError(f"action {action} is outside the action space")
        return aid

    def to_action(self, aid: int) -> int:
        """The rulelang action of a global id (not ``wait``)."""
        if not 0 <= aid < self.wait:
            raise ValueError(f"action id {aid} is not an action of the rules")
        return self.action_of[aid]

    def ids(self, actions) -> list:
        """The global ids of rulelang actions (all in the action space), in their order."""
        return list(map(self.id_of.__getitem__, actions))

    def words(self, aid: int) -> str:
        """The action in words; a card of which the deck has several copies is told apart by
        its copy number (``play 7♥ (copy 2)``), so that distinct ids have distinct words."""
        if aid == self.wait:
            return "wait"
        action = self.to_action(aid)
        text = self.cg.action_to_string(action)
        if self.cg.alternatives[action >> ACTION_SHIFT].kind == "card":
            copy = self.copy_of[action & VALUE_MASK]
            if copy:
                text += f" (copy {copy + 1})"
        return text


class Encoding:
    """The observation tensor of one compiled game (see the module's doc for the layout)."""

    def __init__(self, cg):
        self.cg = cg
        self.actions = ActionSpace(cg)
        self.id_of = self.actions.id_of.__getitem__     # (an action's id, looked up in C)
        # (a seat's legal actions as State.legal_actions gives them, read from its decision:
        # identical copies of a card merged with the game's keys, made once)
        self.twin_keys = None if cg.card_twin is None else twin_keys(cg)
        distinct: dict = {}
        for nm in cg.card_names:
            distinct.setdefault(nm, len(distinct))
        self.names = list(distinct)
        self.card_index = [distinct[nm] for nm in cg.card_names]
        d = self.d = len(self.names)
        n = cg.n
        pieces = []                      # (name, size)
        self.zone_at = []
        for zi, (name, owner, _vis, _sh) in enumerate(cg.zone_info):
            key = name if owner < 0 else f"{name}/{owner + 1}"
            self.zone_at.append(sum(s for _n, s in pieces))
            pieces += [(f"{key}:size", 1), (f"{key}:cards", d), (f"{key}:top", d)]
        self.var_at = []
        self.var_width = []
        team_vars = getattr(cg, "team_vars", ())
        for name, owner, typ in cg.var_info:
            key = name if owner < 0 else f"{name}/{owner + 1}"
            if name in team_vars:               # a variable of each team: by team number
                key = f"{name}/team {owner + 1}"
            if name == PLAYED_BY:       # (by card: shown by place in the zones, not here)
                self.var_at.append(sum(s for _n, s in pieces))
                self.var_width.append(0)
                continue
            w = self._var_width(typ)
            self.var_at.append(sum(s for _n, s in pieces))
            self.var_width.append(w)
            pieces.append((f"var {key}", w))
        self.procs = len(cg.procs)
        self.alts = len(cg.alternatives)
        pieces += [("seat", n), ("turn", n), ("to_decide", n), ("phase", self.procs),
                   ("choices", self.alts), ("terminal", 1)]
        self.pieces = pieces
        self.size = sum(s for _n, s in pieces)
        self.tail = self.size - (3 * n + self.procs + self.alts + 1)
        # What observation reads, worked out once: per seat, the zones of which it sees
        # something, at least the size (index, where its part begins, its cards, its top); per
        # variable, (index, where, width, a card?); and whether every card has a name of its
        # own (then a card's place is set, not added to: one deck).
        self.zone_plans = [self._zone_plan(seat) for seat in range(n)]
        self.var_plan = [(i, self.var_at[i], self.var_width[i], typ == CARD, typ in SET_KINDS)
                         for i, (_name, _owner, typ) in enumerate(cg.var_info) if _name != PLAYED_BY]
        self.one_each = d == len(cg.card_names)
        self.card_bit = [1 << k for k in self.card_index]     # (seen_cards: a card's bit)
        # per zone, the seats that see a card of it: (seat, the whole zone?) (Trail.look)
        self.watchers: list = [[] for _ in cg.zone_info]
        for seat in range(n):
            for zi, _at, whole, top in self.zone_plans[seat]:
                if whole or top:
                    self.watchers[zi].append((seat, whole))
        # (Trail.look) the zones some seat sees cards of: (index, the seats that see it whole,
        # those that see its top only)
        self.watched = [(zi, [p for p, w in ws if w], [p for p, w in ws if not w])
                        for zi, ws in enumerate(self.watchers) if ws]
        # (Trail.look) those zones taken out of the state's list together (a tuple however
        # few: each twice), to be compared with the trail's copies in C
        ids = [zi for zi, _w, _t in self.watched]
        self.watched_k = range(len(ids))
        self.watched_get = itemgetter(*ids, *ids) if ids else None

    def _zone_plan(self, seat: int) -> list:
        plan = []
        for zi, (_name, owner, vis, size_hidden) in enumerate(self.cg.zone_info):
            whole = vis == "everyone" or (vis == "owner" and owner == seat)
            top = whole or vis == "top"
            size = top or not size_hidden
            if size:
                plan.append((zi, self.zone_at[zi], whole, top))
        return plan

    def _var_width(self, typ) -> int:
        cg = self.cg
        if typ == CARD:
            return self.d + 1
        if typ == PLAYER:
            return cg.n + 1
        if typ == SUIT:
            return len(cg.model.suits) + 1
        if typ == SYMBOL:
            return len(cg.model.symbols) + 1
        if typ == ZONE:
            return len(cg.zone_info) + 1
        if typ in SET_KINDS:            # a set: one place for each value it may hold (its bits)
            return {Kind.SET_SUITS: len(cg.model.suits), Kind.SET_PLAYERS: cg.n,
                    Kind.SET_RANKS: max(cg.model.ranks.values(), default=0) + 1,
                    Kind.SET_VALUES: len(cg.model.symbols)}[typ] or 1
        return 1

    def observation(self, st, seat: int, out=None):
        """The observation tensor of ``seat`` (0-based) as a list of floats; or written into
        ``out`` (all 0, at least :attr:`size` long: a numpy array, say), which it returns."""
        if out is None:
            out = [0.0] * self.size
        ci = self.card_index
        d = self.d
        zones = st.zones
        one = self.one_each
        # (only the places that are not 0 are written: an empty zone leaves its part 0)
        for zi, at, whole, top in self.zone_plans[seat]:
            cards = zones[zi]
            if not cards:
                continue
            out[at] = float(len(cards))
            if whole:
                base = at + 1
                if one:
                    for c in cards:
                        out[base + ci[c]] = 1.0
                else:                   # (copies of a card: counted)
                    for c in cards:
                        out[base + ci[c]] += 1.0
            if top:
                out[at + 1 + d + ci[cards[-1]]] = 1.0
        vs = st.vars
        nc = len(ci)
        for i, at, w, card, bits in self.var_plan:
            v = vs[i]
            if bits:                    # a set of values: each value in it is a 1
                k = 0
                while v >> k and k < w:
                    if (v >> k) & 1:
                        out[at + k] = 1.0
                    k += 1
            elif w == 1:
                if v:
                    out[at] = float(v)
            else:
                if card and 0 <= v < nc:
                    v = ci[v]
                out[at + (v if 0 <= v < w - 1 else w - 1)] = 1.0
        n = self.cg.n
        k = self.tail
        out[k + seat] = 1.0
        if not st.terminal:
            out[k + n + st.cur] = 1.0
            deciding = st.current_players()
            for q in deciding:
                out[k + 2 * n + q] = 1.0
            if st.stack:
                out[k + 3 * n + st.stack[-1][0]] = 1.0
            if seat in deciding:
                base = k + 3 * n + self.procs
                for a in st.legal_actions(seat):
                    out[base + (a >> ACTION_SHIFT)] = 1.0
        else:
            out[self.size - 1] = 1.0
        return out

    def observation_string(self, st, seat: int) -> str:
        """What ``seat`` sees as text (:meth:`State.observation`, as sorted JSON)."""
        return json.dumps(st.observation(seat), sort_keys=True, ensure_ascii=False)

    def legal_ids(self, st, seat: int) -> list:
        """The global ids of ``seat``'s legal actions now, ascending."""
        return sorted(map(self.id_of, st.legal_actions(seat)))

    def decision_ids(self, legal: list) -> list:
        """The global ids of the actions a one-seat decision offers (``legal``, as the state
        keeps them), copies of a card merged as :meth:`State.legal_actions` merges them: what
        :meth:`legal_ids` gives for the seat that decides, without asking the state."""
        keys = self.twin_keys
        if keys is not None:
            legal = _merge_twins_fast(legal, keys)
        return list(map(self.id_of, legal))

    def seen_cards(self, st, seat: int) -> int:
        """The distinct cards ``seat`` sees now, as a bit set over the distinct card names."""
        bits = 0
        bit = self.card_bit
        zones = st.zones
        for zi, _at, whole, top in self.zone_plans[seat]:
            cards = zones[zi]
            if not cards:
                continue
            if whole:                   # (every card of the zone, or-ed in C)
                bits = reduce(or_, map(bit.__getitem__, cards), bits)
            elif top:
                bits |= bit[cards[-1]]
        return bits


class Trail:
    """What each seat remembers: the cards it has seen and its own actions (for the information
    state).  Update with :meth:`after` after every action; :meth:`copy` for clones."""

    __slots__ = ("enc", "seen", "mine", "moves", "snap")

    def __init__(self, enc: Encoding, st=None):
        self.enc = enc
        n = enc.cg.n
        self.seen = [0] * n
        self.mine: list = [[] for _ in range(n)]    # (move number, action id) per seat
        self.moves = 0
        self.snap: list = [None] * len(enc.watched)   # the zones watched, at the last look
        if st is not None:
            self.look(st)

    def copy(self) -> "Trail":
        t = Trail.__new__(Trail)
        t.enc = self.enc
        t.seen = self.seen[:]
        t.mine = [m[:] for m in self.mine]
        t.moves = self.moves
        t.snap = self.snap[:]
        return t

    def look(self, st) -> None:
        """Add what each seat sees now to what it has seen.  Only the zones that changed since
        the last look are read (the others' cards were added then): a step moves a few cards."""
        enc = self.enc
        if enc.watched_get is None:     # (no seat sees any card)
            return
        snap = self.snap
        seen = self.seen
        bit = enc.card_bit
        zones = st.zones
        watched = enc.watched                            # (the zones some seat sees)
        for k in compress(enc.watched_k, map(ne, enc.watched_get(zones), snap)):
            zi, wholes, tops = watched[k]               # (one that changed, found in C)
            cards = zones[zi]
            snap[k] = cards[:]
            if not cards:
                continue
            if wholes:                  # (every card of the zone, or-ed in C)
                b = reduce(or_, map(bit.__getitem__, cards), 0)
                for p in wholes:
                    seen[p] |= b
            if tops:
                b = bit[cards[-1]]
                for p in tops:
                    seen[p] |= b

    def forget_zones(self) -> None:
        """Read every zone at the next look (the state was replaced by another world)."""
        self.snap = [None] * len(self.snap)

    def acted(self, seat: int, aid: int) -> None:
        self.mine[seat].append((self.moves, aid))

    def after(self, st) -> None:
        """One move is over (all the actions of a simultaneous decision count as one)."""
        self.moves += 1
        self.look(st)

    def to_json(self) -> dict:
        return {"seen": self.seen, "mine": self.mine, "moves": self.moves}

    @classmethod
    def from_json(cls, enc: Encoding, d: dict) -> "Trail":
        t = cls(enc)
        t.seen = list(d["seen"])
        t.mine = [[tuple(x) for x in m] for m in d["mine"]]
        t.moves = d["moves"]
        return t

    # ---- the information state ----
    def size(self) -> int:
        return self.enc.size + self.enc.d + self.enc.actions.size

    def tensor(self, st, seat: int, out=None):
        """The information state of ``seat`` as a list of floats; or written into ``out`` (all
        0, :meth:`size` long), which it returns."""
        enc = self.enc
        if out is None:
            out = [0.0] * self.size()
        enc.observation(st, seat, out)
        bits = self.seen[seat]
        at = enc.size
        while bits:                     # (the cards seen: a bit each)
            low = bits & -bits
            out[at + low.bit_length() - 1] = 1.0
            bits ^= low
        at += enc.d
        for _m, aid in self.mine[seat]:
            out[at + aid] += 1.0
        return out

    def string(self, st, seat: int) -> str:
        enc = self.enc
        bits = self.seen[seat]
        seen = [enc.names[i] for i in range(enc.d) if bits >> i & 1]
        mine = " ".join(f"{m}:{aid}" for m, aid in self.mine[seat])
        return (f"{enc.observation_string(st, seat)}\nseen: {' '.join(seen)}\n"
                f"my moves: {mine}")


_ENCODINGS: WeakKeyDictionary = WeakKeyDictionary()      # per compiled game


def encoding(cg) -> Encoding:
    """The encoding of a compiled game, made once."""
    enc = _ENCODINGS.get(cg)
    if enc is None:
        enc = _ENCODINGS[cg] = Encoding(cg)
    return enc


def load_compiled(path: str, players: Optional[int] = None, options: Optional[dict] = None):
    """The compiled game of a rule file for ``players`` (default: the fewest it allows)."""
    from rulelang.compile.loader import load
    game = load(path, {k: str(v) if not isinstance(v, str) else v
                       for k, v in (options or {}).items()})
    n = players if players is not None else game.players[0]
    return game.compiled(n)
