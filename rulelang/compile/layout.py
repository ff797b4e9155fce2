"""The layout of a game as integers: zones are numbered lists (``zone_base``: a per-player zone
takes one number per player), variables are numbered (``var_base``), cards are numbers with tables
of their ranks, suits and attributes (each with one extra last entry for ``none``, -1), and where
the deck starts.  Built once per number of players by ``CompiledGame``.
"""
from __future__ import annotations

from rulelang.engine.rng import Rng
from rulelang.kinds import NUMBER, PLAYED_BY, Kind
from rulelang.check.ir import CardLiteral
from rulelang.engine.runtime import VALUE_MASK, State
from rulelang.engine.control import GameProblem
from rulelang.engine.melds import MAX_MELD_CARDS, least_left, least_left_laying_off
from rulelang.engine.combos import combinations_counter, groups_counter, places_of, runs_counter
from rulelang.check.deals import deck_cards
from rulelang.check.teams import team_numbers

MAX_CARDS = VALUE_MASK  # card numbers must fit in an action's value


def card_name(m, rname, suit, extra, own_suits, shown_as):
    """How a card is called (docs/language.md, "How cards are shown"): an extra card by its
    name; the deck type's `cards shown as "{suit} {rank}"`; a suit with a sign after the rank
    (`Q♠`); a suit with its own ranks by the rank; otherwise `RANK of SUIT`.  A rank or suit
    is shown by its text where it has one (`"Skip"`), else by its name."""
    if extra is not None:
        return extra
    rank_word = m.rank_texts.get(rname, rname)
    suit_word = m.suit_texts.get(suit, suit)
    if suit in shown_as:
        rank_shown = m.rank_symbols.get(rname) or rname
        suit_shown = m.suit_symbols.get(suit) or suit
        return shown_as[suit].replace("{rank}", rank_shown).replace("{suit}", suit_shown)
    ssym = m.suit_symbols.get(suit)
    if ssym and suit not in m.suit_texts:
        return f"{m.rank_symbols.get(rname, rname)}{ssym}"
    if suit in own_suits:
        return rank_word
    return f"{rank_word} of {suit_word}"


class Layout:
    """Zones, variables, cards and their tables as numbers (a mixin of ``CompiledGame``)."""

    def _build_zones(self):
        self.zone_base = {}
        self.zone_info = []
        for name, z in self.model.zones.items():
            self.zone_base[name] = len(self.zone_info)
            if z.per_player:
                for p in range(self.n):
                    self.zone_info.append((name, p, z.visibility, z.size_hidden))
            else:
                self.zone_info.append((name, -1, z.visibility, z.size_hidden))
        # Per source zone, per destination zone: who sees cards go from one to the other
        # (players.seen_go and a playout's Memory), worked out when first asked (_zone_plan).
        nz = len(self.zone_info)
        self.zone_plans = [[None] * nz for _ in range(nz)]

    def _build_vars(self):
        self.var_base = {}
        self.var_info = []
        for name, v in self.model.vars.items():
            self.var_base[name] = len(self.var_info)
            k = self.n if v.decl.per_player else 1
            for p in range(k):
                self.var_info.append((name, p if v.decl.per_player else -1, v.type))
        # Where `NAME of X` reads: X's place from var_base, but for a variable of each team X is
        # the team's number, 1 to n, and team T's value is at the place of seat T (check/teamvars.py).
        self.var_of_base = {name: b - 1 if getattr(self.model.vars[name].decl, "per_team", False)
                            else b for name, b in self.var_base.items()}
        # The variables of a team, and how many teams the game can have (their values shown).
        self.team_vars = tuple(n for n, b in self.var_of_base.items() if b != self.var_base[n])
        teams = self.model.teams
        self.team_count = max(team_numbers(teams, self.n)) if teams is not None else 0

    def _build_played(self):
        """Who played each card (docs/language.md, "Who played a card"), in a game that reads
        it: one value per card after the variables (``played_base`` + the card: the seat, -1
        for none), saved, cloned and resumed with them; ``played_base`` None in any other
        game, which keeps nothing of it."""
        self.played_base = None
        if self.model.reads_played:
            # (one more value before them, never written: -1, read for the card none)
            self.played_base = len(self.var_info) + 1
            self.var_base[PLAYED_BY] = self.played_base
            self.var_info.extend((PLAYED_BY, -1, Kind.PLAYER) for _ in range(len(self.card_names) + 1))

    def set_holds(self, name):
        """The values a variable that is a set may hold (docs/language.md, "Sets of values"):
        a suit's index, a rank's number, a seat, a named value's id."""
        typ = self.model.vars[name].type
        if typ == Kind.SET_SUITS:
            return frozenset(range(len(self.model.suits)))
        if typ == Kind.SET_RANKS:
            return frozenset(self.model.ranks.values())
        if typ == Kind.SET_PLAYERS:
            return frozenset(range(self.n))
        first, names = self.model.value_sets[self.model.set_values[name]]
        return frozenset(range(first, first + len(names)))

    def _scratch(self, nslots, you=0):
        return [-1, 0, you] + [0] * nslots

    def _const(self, e, nslots, you=0):
        """Evaluate an expression that may use only options and the number of players."""
        f = self.gen.function(e)
        st = State.__new__(State)
        st.n = self.n
        st.zones = [[] for _ in self.zone_info]
        st.vars = [0] * len(self.var_info)
        st.cur = 0
        st.dir = 1
        st.rng = Rng(0)
        try:
            return f(st, self._scratch(nslots, you))
        except GameProblem as e:        # divided by zero, too large: the game cannot be made
            self.problems.append((e.code, e.message, e.span))
            return 0

    def _build_cards(self):
        m = self.model
        self.cards = []              # (rank name, rank number, suit index, extra name or None)
        self.card_zone: list = []    # (copy, per_player) for where each card starts
        self.deck_start = []
        decks = [(d, m.deck_types.get(d.name)) for d in (m.decks or ((m.deck,) if m.deck else ()))]
        decks = [(d, dt) for d, dt in decks if dt is not None]
        if not decks:
            self.card_names = []
            self.rank_of = [0]
            self.suit_of = [-1]
            self.rank_cycle = []
            return
        ctx_slots = m.var_ctx.nslots
        rank_numbers = dict(m.ranks)
        cycle = set()
        too_many = 0
        for deck, dt in decks:
            include = deck.with_group is not None and (
                deck.with_condition is None or bool(self._const(deck.with_condition, ctx_slots)))
            per_player = deck.per_player_into is not None
            copies = self.n if per_player else (
                int(self._const(deck.copies, ctx_slots)) if deck.copies is not None else 1)
            parts = deck_cards(dt, rank_numbers, deck.with_group if include else None)
            # Count before building: `copies 100000` would build millions of cards first.
            per_copy = sum(k for *_card, k in parts)
            if max(0, copies) * per_copy + len(self.cards) > MAX_CARDS:
                too_many = max(0, copies) * per_copy + len(self.cards)
                self.problems.append(("RL172", f"{too_many} cards is more than the "
                                      f"{MAX_CARDS} a game may use", deck.span))
                break           # not built (copies may be huge): the problem stops the game
            first = len(self.cards)
            for copy in range(max(0, copies)):
                for rname, suit, extra, k in parts:
                    si = m.suits.index(suit) if suit is not None else -1
                    for _ in range(k):
                        self.cards.append((rname, rank_numbers[rname], si, extra))
                        self.card_zone.append(copy)
                    if extra is None:
                        cycle.add(rank_numbers[rname])
            # Where the deck's cards start.
            if per_player:
                base = self.zone_base.get(deck.per_player_into)
                self.deck_start += [base + copy for copy in self.card_zone[first:]]
            elif deck.into is not None:
                zi = self._const(deck.into, ctx_slots)
                self.deck_start += [zi] * (len(self.cards) - first)
        self.rank_cycle = sorted(cycle)
        nxt = {}
        prv = {}
        for i, r in enumerate(self.rank_cycle):
            nxt[r] = self.rank_cycle[(i + 1) % len(self.rank_cycle)]
            prv[r] = self.rank_cycle[i - 1]
        self.rank_next = nxt
        self.rank_prev = prv
        self.rank_of = [c[1] for c in self.cards] + [0]
        self.suit_of = [c[2] for c in self.cards] + [-1]
        own = {s.name for _d, dt in decks for s, _r in dt.own_suits}
        shown_as = {}
        for _d, dt in decks:
            for s in list(dt.suits) + [s for s, _r in dt.own_suits]:
                if dt.shown_as is not None:
                    shown_as.setdefault(s.name, dt.shown_as)
        self.card_names = [card_name(m, rname, m.suits[si] if si >= 0 else None, extra, own,
                                     shown_as)
                           for rname, _num, si, extra in self.cards]
        names = self.card_names
        # Identical copies (several decks): each card's first copy, or None when there are none.
        first = {}
        twin = [first.setdefault(name, i) for i, name in enumerate(names)]
        self.card_twin = twin if len(first) < len(names) else None
        # Card names that are constants in rules (extra cards) stand for their first copy.
        self.card_name_ids = {}
        for i, c in enumerate(self.cards):
            if c[3] is not None:
                self.card_name_ids.setdefault(c[3], i)

    def _build_attributes(self):
        m = self.model
        self.attr_tables = {}
        slots = m.attr_ctx.nslots
        for name, (a, typ) in m.attributes.items():
            compiled = [(tuple(s for s, _ in sels), self.gen.function(expr))
                        for sels, expr in a.entries]
            other = self.gen.function(a.otherwise) if a.otherwise is not None else None
            table = []
            st = State.__new__(State)
            st.n = self.n
            st.zones = [[] for _ in self.zone_info]
            st.vars = [0] * len(self.var_info)
            st.rng = Rng(0)
            for cid, (rname, num, si, extra) in enumerate(self.cards):
                fr = [-1, 0, 0] + [cid] * slots
                suit = m.suits[si] if si >= 0 else None
                value = None
                try:
                    for sels, f in compiled:
                        if any(s == rname or s == suit or s == extra or
                               (isinstance(s, tuple) and m.refs.card_literal(s[1]) == CardLiteral(rname, suit)) or
                               (isinstance(s, int) and s == num) for s in sels):
                            value = f(st, fr)
                            break
                    if value is None:
                        value = other(st, fr) if other is not None else (0 if typ == NUMBER else -1)
                except GameProblem as e:    # divided by zero, too large: reported by `check`
                    if (e.code, e.message, e.span) not in self.problems:
                        self.problems.append((e.code, e.message, e.span))
                    value = 0
                table.append(int(value))
            table.append(0 if typ == NUMBER else -1)
            self.attr_tables[name] = table

    def card_literal_id(self, rank, suit):
        """The card a literal such as `Q♠` stands for: its first copy (-1 if the deck left it out)."""
        si = self.model.suits.index(suit) if suit in self.model.suits else -2
        for cid, (rname, _num, csi, extra) in enumerate(self.cards):
            if rname == rank and csi == si and extra is None:
                return cid
        return -1

    def owned_zones(self):
        return tuple((zi, owner) for zi, (_n, owner, _v, _s) in enumerate(self.zone_info)
                     if owner >= 0)

    def values_of(self, kind):
        """What `for each suit` / `for each rank` goes through: the deck's suits, or the ranks
        `rank after` goes round, lowest first (as `rank r` offers them)."""
        if kind not in ("suit", "rank"):        # `for each bid b`: the set's values' ids
            first, names = self.model.value_sets.get(kind, (0, ()))
            return tuple(range(first, first + len(names)))
        return tuple(range(len(self.model.suits))) if kind == "suit" else tuple(self.rank_cycle)

    def score_of(self, g, p):
        return self.score_fn(g, self._scratch(self.model.score_ctx.nslots, p))

    def returns_of(self, g, p):
        """Player ``p``'s declared ``returns:`` now (State.returns reads it at the end)."""
        return self.returns_fn(g, self._scratch(self.model.returns_ctx.nslots, p))

    def progress_of(self, g, p):
        """Player ``p``'s declared ``progress:`` now (the measures of ``stats`` read it)."""
        return self.progress_fn(g, self._scratch(self.model.progress_ctx.nslots, p))

    def meld_solver(self, attribute, span, lay_off=False):
        """``least total A of Z outside sets and runs`` as a function of a zone's cards (one per
        attribute and place, kept so that generated code names the same object); with
        ``lay_off``, of the zone's cards and those of the zone they lay off on."""
        key = (attribute, span, lay_off)
        solvers = self.__dict__.setdefault("_meld_solvers", {})
        if key not in solvers:
            points = self.rank_of if attribute == "rank" else self.attr_tables.get(attribute, self.rank_of)
            place = {r: i for i, r in enumerate(self.rank_cycle)}
            # A card with no suit (an extra card) joins sets of its rank, never runs.
            pos_of = [place.get(r, ("rank", r)) for r in self.rank_of]
            suit_of = self.suit_of

            def solve(cards):
                if len(cards) > MAX_MELD_CARDS:
                    raise GameProblem("RL259", f"sets and runs are searched among at most "
                                      f"{MAX_MELD_CARDS} cards, not {len(cards)}", span)
                return least_left(cards, pos_of, suit_of, points)[0]

            def solve_laying_off(cards, onto):
                for z in (cards, onto):
                    if len(z) > MAX_MELD_CARDS:
                        raise GameProblem("RL259", f"sets and runs are searched among at most "
                                          f"{MAX_MELD_CARDS} cards, not {len(z)}", span)
                return least_left_laying_off(cards, onto, pos_of, suit_of, points)
            solvers[key] = solve_laying_off if lay_off else solve
        return solvers[key]

    def combo_counter(self, kind, attribute, span):
        """The function of a zone's cards behind a count of combinations (``kind`` as in
        ``A.Combos``; engine/combos.py), one per kind, attribute and place."""
        key = (kind, attribute, span)
        counters = self.__dict__.setdefault("_combo_counters", {})
        if key not in counters:
            if kind == "sum":
                values = self.rank_of if attribute == "rank" else self.attr_tables.get(attribute, self.rank_of)
                counters[key] = combinations_counter(values, span)
            elif kind in ("run", "runs"):
                counters[key] = runs_counter(places_of(self.rank_of, self.rank_cycle), kind == "runs")
            else:
                counters[key] = groups_counter(self.suit_of if kind == "suit" else self.rank_of,
                                               "pairs" if kind == "pairs" else "most")
        return counters[key]

    def zone_family_table(self, e):
        """The zone numbers of a family, and what stops the game for a number outside it."""
        family = self.refs.of(e)
        names, lo, keyed = family.names, family.first, family.keyed
        bases = [self.zone_base[n] for n in names]
        span = e.span
        family = e.name

        def zone_of(k):
            if lo <= k < lo + len(bases):
                return bases[k - lo]
            hi = lo + len(bases) - 1
            if keyed == "suit":         # (only `none`, the suit of no card, is no suit's index)
                why = (f"there is no {family} of the suit `none`: the family has one zone for "
                       "each suit of the deck")
            elif keyed == "rank":
                why = f"there is no {family} of rank {k}: the deck's ranks are {lo} to {hi}"
            else:
                why = f"there is no {family} {k}: the family is numbered {lo} to {hi}"
            raise GameProblem("RL256", why, span)
        return zone_of

