"""The reference game: a checked model laid out as numbers and played by closures, with its own
layout, game loop, endings, budget and words (see the package's docstring for the line between
what it owns and what it shares)."""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.kinds import PLAYED_BY
from rulelang.kinds import CARD, CARDS, FLAG, NUMBER, PLAYER, RANK, SET_KINDS, SUIT, SYMBOL, TEXT, ZONE, Kind
from rulelang.check.deals import deck_cards
from rulelang.check.ir import CardLiteral
from rulelang.engine.control import (CALL, DEFAULT_MAX_STEPS, END_TURN, HALT, NO_DECISION, RETURN,
                                     SUSPEND, GameProblem)
from rulelang.engine.melds import MAX_MELD_CARDS, least_left, least_left_laying_off
from rulelang.engine.players import out_ranking, seat_after, seat_in
from rulelang.engine.rng import Rng, seeded
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK, State

from reference.closure_control import ClosureControl
from reference.closure_statements import ClosureStatements
from reference.closure_values import ClosureValues
from reference.rules import charge, over_budget, work
from reference.teams import ReferenceTeams
from reference.set_values import ReferenceSets


def _rule(code):
    """One function ``f(g, fr, pc)`` for a rule's list of instruction closures: it runs them from
    position ``pc`` until one returns a control code (below 0: a decision, a call, the end)."""
    def rule(g, fr, pc):
        while pc >= 0:
            pc = code[pc](g, fr)
        return pc
    return rule


def _card_name(m, rname, suit, extra, own_suits, shown_as):
    """How a card is called (docs/language.md, "How cards are shown")."""
    if extra is not None:
        return extra
    if suit in shown_as:
        return shown_as[suit].replace("{rank}", m.rank_symbols.get(rname) or rname) \
                             .replace("{suit}", m.suit_symbols.get(suit) or suit)
    if m.suit_symbols.get(suit) and suit not in m.suit_texts:
        return f"{m.rank_symbols.get(rname, rname)}{m.suit_symbols[suit]}"
    rank_word = m.rank_texts.get(rname, rname)
    if suit in own_suits:
        return rank_word
    return f"{rank_word} of {m.suit_texts.get(suit, suit)}"


class ReferenceGame(ClosureValues, ClosureStatements, ClosureControl, ReferenceTeams, ReferenceSets):
    """A rule file for one number of players, every rule and value a closure."""

    # Every rule runs in the run loop, in a frame of its own: none is called as a Python
    # function by another, none is copied where it is called.
    direct_rules = entered_rules = frozenset()
    inline_bodies: dict = {}

    def __init__(self, model, n_players: int, max_steps: int = DEFAULT_MAX_STEPS,
                 coverage=None, watch_empty=False, optimize=None):
        # (``optimize``: the loader gives it to every backend; the reference has no optimisations)
        self.model, self.n, self.max_steps = model, n_players, max_steps
        self.coverage = coverage
        self.empty_moves = {} if watch_empty else None     # (not watched here: see simulate)
        self.name, self.types, self.refs = model.name, model.types, model.refs
        self.problems: list = []
        # A playout keeps what players remember card by card (engine/players.Memory) in any
        # zone: no zone is known to hold nothing remembered.
        self.memory_zones = frozenset(model.zones)
        self._layout()
        self.out_base = self.var_base[model.out_var] if getattr(model, "players_leave", False) else None
        self._teams_layout()
        self._cards()
        self._played_layout()
        self._attributes()
        self.alternatives: list = [None] * len(model.alternatives)
        self.procs, self.proc_names, self.proc_index, self.rule_slots = [], [], {}, {}
        for name, r in model.rules.items():
            self.proc_index[name] = len(self.procs)
            self.procs.append(None)
            self.proc_names.append(name)
            self.rule_slots[name] = r.nslots
        self.endings = []           # (condition for a player, rule number of its body, its slots)
        for e, ctx, body_ctx in model.endings:
            cond = self.cx(e.condition)
            pid = len(self.procs)
            self.procs.append(None)
            self.proc_names.append("<ending>")
            self.rule_slots[pid] = body_ctx.nslots
            self.endings.append(((lambda c, k: lambda g, p: c(g, [-1, 0, p] + [0] * k))(
                cond, ctx.nslots), pid, body_ctx.nslots))
        self.ending_pids = frozenset(pid for _c, pid, _s in self.endings)
        self.proc_blocks = {}
        for pid, body, nslots in (
                [(self.proc_index[name], r.decl.body, r.nslots) for name, r in model.rules.items()] +
                [(pid, e.body, k) for (_c, pid, k), (e, _, _) in zip(self.endings, model.endings)]):
            code = self._compile_rule(body, nslots)
            self.procs[pid] = _rule(code)
            self.proc_blocks[pid] = len(code)        # its positions (checked in a save)
        self.score_fn = self.cx(model.score.expr) if model.score is not None else None
        # `returns:` and `progress:` change nothing in play: State.returns and the measures
        # read them (through returns_of, progress_of)
        self.returns_fn = self.cx(model.returns.expr) if model.returns is not None else None
        self.progress_fn = self.cx(model.progress.expr) if model.progress is not None else None
        self.show_fns = {z: (d.label, self.cx(d.expr), ctx.nslots, t)
                         for z, (d, ctx, t) in model.shows.items()}
        self._root()
        self.turn_proc = self.proc_index.get("turn", -1)
        self.entries = [(a.slot if a.slot >= 0 else 1, a.body_pc) if a is not None else (-1, -1)
                        for a in self.alternatives]

    # ---- the layout: zones, variables, cards as numbers ------------------------------------------
    def _layout(self):
        self.zone_base, self.zone_info = {}, []
        for name, z in self.model.zones.items():
            self.zone_base[name] = len(self.zone_info)
            for p in (range(self.n) if z.per_player else (-1,)):
                self.zone_info.append((name, p, z.visibility, z.size_hidden))
        nz = len(self.zone_info)
        self.zone_plans = [[None] * nz for _ in range(nz)]     # (engine/players.py fills them)
        self.var_base, self.var_info = {}, []
        for name, v in self.model.vars.items():
            self.var_base[name] = len(self.var_info)
            for p in (range(self.n) if v.decl.per_player else (-1,)):
                self.var_info.append((name, p, v.type))

    def _played_layout(self):
        """Who played each card, in a game that reads `who played c`: one value per card after
        the variables, with one before them for the card none (the compiled layout's, so
        that saves and variables compare)."""
        self.played_base = None
        if getattr(self.model, "reads_played", False):
            self.played_base = len(self.var_info) + 1
            self.var_info.extend((PLAYED_BY, -1, PLAYER) for _ in range(len(self.card_names) + 1))

    def played_after(self, g, before):
        """After cards moved (``before``: card -> the zone it was in): a card that came into a
        zone of a player was played by nobody; one that came into a shared zone from a zone of
        a player was played by that player; one that came from a shared zone keeps its value."""
        base = self.played_base
        info = self.zone_info
        for zi, z in enumerate(g.zones):
            for c in z:
                was = before.get(c, zi)
                if was == zi:
                    continue
                if info[zi][1] >= 0:
                    g.vars[base + c] = -1
                elif info[was][1] >= 0:
                    g.vars[base + c] = info[was][1]

    def _blank_state(self):
        st = State.__new__(State)
        st.n, st.cur, st.dir, st.rng = self.n, 0, 1, Rng(0)
        st.zones = [[] for _ in self.zone_info]
        st.vars = [0] * len(self.var_info)
        return st

    def _const(self, e, nslots):
        """A value known before the game (options, the number of players)."""
        try:
            return self.cx(e)(self._blank_state(), [-1, 0, 0] + [0] * nslots)
        except GameProblem as p:
            self.problems.append((p.code, p.message, p.span))
            return 0

    def _cards(self):
        m = self.model
        self.cards, self.deck_start = [], []    # (rank name, rank number, suit, extra); zones
        decks = [(d, m.deck_types.get(d.name)) for d in (m.decks or ((m.deck,) if m.deck else ()))]
        decks = [(d, dt) for d, dt in decks if dt is not None]
        ranks = dict(m.ranks)
        slots = m.var_ctx.nslots
        for deck, dt in decks:
            include = deck.with_group is not None and (
                deck.with_condition is None or bool(self._const(deck.with_condition, slots)))
            per_player = deck.per_player_into is not None
            copies = self.n if per_player else (
                int(self._const(deck.copies, slots)) if deck.copies is not None else 1)
            parts = deck_cards(dt, ranks, deck.with_group if include else None)
            total = max(0, copies) * sum(k for *_c, k in parts) + len(self.cards)
            if total > VALUE_MASK:
                self.problems.append(("RL172", f"{total} cards is more than the {VALUE_MASK} "
                                      "a game may use", deck.span))
                break
            into = (None if per_player or deck.into is None else self._const(deck.into, slots))
            for copy in range(max(0, copies)):
                for rname, suit, extra, k in parts:
                    for _ in range(k):
                        self.cards.append((rname, ranks[rname], m.suits.index(suit)
                                           if suit is not None else -1, extra))
                        if per_player:
                            self.deck_start.append(self.zone_base[deck.per_player_into] + copy)
                        elif into is not None:
                            self.deck_start.append(into)
        self.rank_cycle = sorted({num for _r, num, _s, extra in self.cards if extra is None})
        cyc = self.rank_cycle
        self.rank_next = {r: cyc[(i + 1) % len(cyc)] for i, r in enumerate(cyc)}
        self.rank_prev = {r: cyc[i - 1] for i, r in enumerate(cyc)}
        self.rank_of = [c[1] for c in self.cards] + [0]
        self.suit_of = [c[2] for c in self.cards] + [-1]
        own = {s.name for _d, dt in decks for s, _r in dt.own_suits}
        shown_as = {}
        for _d, dt in decks:
            for s in list(dt.suits) + [s for s, _r in dt.own_suits]:
                if dt.shown_as is not None:
                    shown_as.setdefault(s.name, dt.shown_as)
        self.card_names = [_card_name(m, r, m.suits[si] if si >= 0 else None, extra, own, shown_as)
                           for r, _num, si, extra in self.cards]
        first: dict = {}
        twin = [first.setdefault(name, i) for i, name in enumerate(self.card_names)]
        self.card_twin = twin if len(first) < len(twin) else None
        self.card_name_ids = {}
        for i, c in enumerate(self.cards):
            if c[3] is not None:
                self.card_name_ids.setdefault(c[3], i)

    def _attributes(self):
        m = self.model
        self.attr_tables = {}
        slots = m.attr_ctx.nslots
        for name, (a, typ) in m.attributes.items():
            entries = [(tuple(s for s, _ in sels), self.cx(expr)) for sels, expr in a.entries]
            other = self.cx(a.otherwise) if a.otherwise is not None else None
            st = self._blank_state()
            table = []
            for cid, (rname, num, si, extra) in enumerate(self.cards):
                fr = [-1, 0, 0] + [cid] * slots
                suit = m.suits[si] if si >= 0 else None
                value = None
                try:
                    for sels, f in entries:
                        if any(s == rname or s == suit or s == extra or
                               (isinstance(s, tuple) and
                                m.refs.card_literal(s[1]) == CardLiteral(rname, suit)) or
                               (isinstance(s, int) and s == num) for s in sels):
                            value = f(st, fr)
                            break
                    if value is None:
                        value = other(st, fr) if other is not None else (0 if typ == NUMBER else -1)
                except GameProblem as p:
                    if (p.code, p.message, p.span) not in self.problems:
                        self.problems.append((p.code, p.message, p.span))
                    value = 0
                table.append(int(value))
            table.append(0 if typ == NUMBER else -1)
            self.attr_tables[name] = table

    def card_literal_id(self, rank, suit):
        si = self.model.suits.index(suit) if suit in self.model.suits else -2
        for cid, (rname, _num, csi, extra) in enumerate(self.cards):
            if rname == rank and csi == si and extra is None:
                return cid
        return -1

    def owned_zones(self):
        return tuple((zi, owner) for zi, (_n, owner, _v, _s) in enumerate(self.zone_info)
                     if owner >= 0)

    def values_of(self, kind):
        if kind not in ("suit", "rank"):        # a set of named values, lowest first
            first, names = self.model.value_sets[kind]
            return tuple(range(first, first + len(names)))
        return tuple(range(len(self.model.suits))) if kind == "suit" else tuple(self.rank_cycle)

    def score_of(self, g, p):
        return self.score_fn(g, [-1, 0, p] + [0] * self.model.score_ctx.nslots)

    def returns_of(self, g, p):
        return self.returns_fn(g, [-1, 0, p] + [0] * self.model.returns_ctx.nslots)

    def progress_of(self, g, p):
        return self.progress_fn(g, [-1, 0, p] + [0] * self.model.progress_ctx.nslots)

    def meld_solver(self, attribute, span, lay_off=False):
        points = self.rank_of if attribute == "rank" else self.attr_tables.get(attribute, self.rank_of)
        place = {r: i for i, r in enumerate(self.rank_cycle)}
        pos_of = [place.get(r, ("rank", r)) for r in self.rank_of]

        def limit(cards):
            if len(cards) > MAX_MELD_CARDS:
                raise GameProblem("RL259", f"sets and runs are searched among at most "
                                  f"{MAX_MELD_CARDS} cards, not {len(cards)}", span)
        if lay_off:
            def solve(cards, onto):
                limit(cards)
                limit(onto)
                return least_left_laying_off(cards, onto, pos_of, self.suit_of, points)
            return solve

        def solve(cards):
            limit(cards)
            return least_left(cards, pos_of, self.suit_of, points)[0]
        return solve

    def zone_family_table(self, e):
        family = self.refs.of(e)
        bases, lo, word, span = [self.zone_base[n] for n in family.names], family.first, e.name, e.span
        hi = lo + len(bases) - 1
        words = {"suit": lambda k: (f"there is no {word} of the suit `none`: the family has one "
                                    "zone for each suit of the deck"),
                 "rank": lambda k: f"there is no {word} of rank {k}: the deck's ranks are {lo} to {hi}",
                 None: lambda k: f"there is no {word} {k}: the family is numbered {lo} to {hi}"}
        say = words[family.keyed]

        def zone_of(k):
            if lo <= k < lo + len(bases):
                return bases[k - lo]
            raise GameProblem("RL256", say(k), span)
        return zone_of

    # ---- the budget ---------------------------------------------------------------------------
    def work(self, node) -> int:
        return work(self.model, self.n, node)

    def charge(self, node) -> int:
        return charge(self.model, self.n, node)

    def step(self, g, span=None, cost=1):
        g.steps += cost
        if g.steps > g.max_steps:
            raise over_budget(g, span, cost)

    # ---- the game loop ------------------------------------------------------------------------
    def _root(self):
        """The root rule (position 0 runs setup, 1 begins a turn, 2 passes the turn on, 4 ends)
        and, above it, the turn."""
        setup, turn = self.proc_index.get("setup"), self.proc_index.get("turn")
        turn_rule = self.model.rules.get("turn")
        cost = 1 + (self.work(turn_rule.decl.body if turn_rule else ())
                    + self.n * self.work([e.condition for e, _, _ in self.model.endings])) // 1000
        self.turn_cost = cost
        why = " (every turn was played and none ended it)" + (
            f" (a turn costs {cost} steps: steps are charged by the size of what they "
            f"evaluate, about 1000 parts each)" if cost > 1 else "")
        # a turn that opens with a choice checks the endings there, before its decision
        check_first = bool(self.endings) and not (
            turn_rule and turn_rule.decl.body and isinstance(turn_rule.decl.body[0], A.Choose))
        span = turn_rule.decl.span if turn_rule else None

        def root(g, fr, pc):
            if pc == 0:                             # setup
                fr[1] = 1
                if setup is not None:
                    g.stack.append([setup, 0, g.cur] + [0] * self.rule_slots["setup"])
                    return CALL
                pc = 1
            if pc == 2:                             # the turn is over: pass it on
                g.turns += 1
                if self.out_base is not None:
                    self._pass_turn_leaving(g)
                elif g.next_turn >= 0:
                    g.cur, g.next_turn = g.next_turn, -1
                else:
                    g.cur = (g.cur + g.dir * (1 + g.skip)) % self.n
                g.skip = 0
                if g.log is not None:
                    g.log.append(("turn", g.turns, g.cur, g.dir))
                pc = 1
            if pc == 1:                             # a turn begins
                if g.log is not None and g.turns == 0 and not any(e[0] == "turn" for e in g.log):
                    g.log.append(("turn", g.turns, g.cur, g.dir))
                if check_first and self.check_endings(g):
                    return CALL
                g.steps += cost
                if g.steps > g.max_steps:
                    raise GameProblem("RL901", f"the game did not end within {g.max_steps} "
                                      f"steps{why}", span)
                if turn is None:
                    raise GameProblem("RL151", "the game has no `turn:`")
                fr[1] = 2
                g.stack.append([self.turn_top, 0, g.cur] + [0] * self.rule_slots["turn"])
                return CALL
            if not g.terminal:                      # an ending's body ran out: nobody won
                self.finish(g, [], "draw")
            return HALT

        self.root, self.root_halt = len(self.procs), 4
        self.procs.append(root)
        self.proc_names.append("<game>")
        self.turn_top = len(self.procs)
        self.procs.append(self.procs[turn] if turn is not None else None)
        self.proc_names.append("turn")
        if turn is not None:
            self.proc_blocks[self.turn_top] = self.proc_blocks[turn]

    def _pass_turn_leaving(self, g):
        """Where players leave: to the named player (or the next still in), else over those
        still in, jumping the skipped ones; nobody when all have left."""
        ob = self.out_base
        if all(g.vars[ob:ob + g.n]):
            g.next_turn = -1
        elif g.next_turn >= 0:
            g.cur = seat_in(g, g.next_turn, ob)
            g.next_turn = -1
        else:
            g.cur = seat_after(g, g.cur, 1 + g.skip, ob)

    def check_endings(self, g) -> bool:
        """Before every decision and every turn: the first `game ends when` that holds, for the
        players from the current one on (not those who left), starts its body, unless one runs."""
        n, ob = self.n, self.out_base
        everyone_out = ob is not None and all(g.vars[ob:ob + n])
        for cond, pid, slots in self.endings:
            for k in range(n):
                p = (g.cur + g.dir * k) % n
                if ob is not None and g.vars[ob + p] and not everyone_out:
                    continue
                if cond(g, p):
                    if len(g.stack) > 1 and g.stack[1][0] in self.ending_pids:
                        return False
                    g.stack[:] = [[self.root, self.root_halt, 0], [pid, 0, p] + [0] * slots]
                    return True
        return False

    def run(self, g, procs=None):
        """Run the frames on the stack until a decision or the end."""
        try:
            while True:
                fr = g.stack[-1]
                pc = self.procs[fr[0]](g, fr, fr[1])
                if pc == CALL:
                    continue
                if pc == RETURN:
                    g.stack.pop()
                    continue
                if pc == END_TURN:
                    self._end_turn(g.stack)
                    continue
                return
        except GameProblem as e:
            self.problem_stop(g, e)

    def after(self, g, pc, procs=None):
        if pc == SUSPEND or pc == HALT:
            return
        if pc == RETURN:
            g.stack.pop()
        elif pc == END_TURN:
            self._end_turn(g.stack)
        self.run(g)

    def _end_turn(self, stack):
        while len(stack) > 1 and stack[-1][0] not in (self.turn_proc, self.turn_top):
            stack.pop()
        if len(stack) > 1:
            stack.pop()

    def finish(self, g, winners, outcome, ranking=None, scores=None):
        g.terminal = True
        g.stack[:] = [[self.root, self.root_halt, 0]]
        g.winners, g.outcome = winners, outcome
        if ranking is None and self.out_base is not None:
            ranking = out_ranking(g, winners, self.out_base)
        if ranking is None:
            ranking = list(winners) + [p for p in range(g.n) if p not in winners] \
                if winners else list(range(g.n))
        g.ranking = ranking
        g.awaiting = NO_DECISION
        if g.log is not None:
            g.log.append(("end", outcome, list(winners), scores))

    def end_with_results(self, g, results):
        """`end game with winners where ..., losers where ...`: a result per seat."""
        order = {"win": 0, "draw": 1, "loss": 2}
        scores = [self.score_of(g, p) for p in range(self.n)] if self.model.score is not None else None
        if self.team_at is not None:        # the best result of a team's players is the team's
            results = self.by_team(g, results, lambda rs: min(rs, key=lambda r: ("win", "loss", "draw").index(r)))
        first = [p for p in range(self.n) if results[p] == "win"]
        rank = out_ranking(g, first, self.out_base) if self.out_base is not None \
            else list(range(self.n))
        self.finish(g, first, "results", sorted(rank, key=lambda p: order[results[p]]), scores)
        g.seat_results = results

    def end_by_score(self, g, highest):
        scores = [self.score_of(g, p) for p in range(self.n)]
        by = scores if self.team_at is None else self.by_team(g, scores, sum)
        best = max(by) if highest else min(by)
        ranking = sorted(range(self.n), key=lambda p: -by[p] if highest else by[p])
        self.finish(g, [p for p in range(self.n) if by[p] == best], "score", ranking, scores)

    def problem_stop(self, g, e):
        g.terminal = True
        g.stack[:] = [[self.root, self.root_halt, 0]]
        g.outcome, g.winners, g.ranking = "error", [], []
        g.awaiting = NO_DECISION
        sp = e.span
        g.problem = {"code": e.code, "message": e.message,
                     "span": None if sp is None else [sp.file, sp.line, sp.column]}

    def start_zones(self) -> list:
        start = [[] for _ in self.zone_info]
        for cid, zi in enumerate(self.deck_start):
            start[zi].append(cid)
        return start

    def new_game(self, seed: int = 0, log: bool = False, max_steps=None) -> State:
        g = self._unbegun(seed, log, max_steps)
        if not g.terminal:
            self.run(g)
        return g

    def _unbegun(self, seed, log, max_steps) -> State:
        g = State.blank(self)
        g.zones = self.start_zones()
        g.vars = [0] * len(self.var_info)
        g.stack = [[self.root, 0, 0]]
        g.rng = seeded(seed)
        g.log = [] if log else None
        g.max_steps = max_steps or self.max_steps
        slots = self.model.var_ctx.nslots
        try:
            for i, (name, owner, _t) in enumerate(self.var_info):
                if name == PLAYED_BY:
                    g.vars[i] = -1
                    continue
                g.vars[i] = int(self.cx(self.model.vars[name].decl.init)(
                    g, [-1, 0, max(owner, 0)] + [0] * slots))
        except GameProblem as e:
            self.problem_stop(g, e)
        self._teams_start(g)
        return g

    def playout(self, seed, policy, max_steps=None, skip_forced=False) -> State:
        return self.playout_counted(seed, policy, max_steps, skip_forced)[0]

    def playout_counted(self, seed, policy, max_steps=None, skip_forced=False):
        g = self._unbegun(seed, False, max_steps)
        counts = (0, 0, 0) if g.terminal else g.playout(policy, _begin=True,
                                                        skip_forced=skip_forced)
        return g, counts

    def playout_procs(self) -> list:
        """A playout runs the same closures."""
        return self.procs

    # ---- words --------------------------------------------------------------------------------
    def format(self, g, v, typ):
        if typ == CARD:
            return self.card_names[v] if 0 <= v < len(self.card_names) else "nothing"
        if typ == PLAYER:
            return f"player {v + 1}" if v >= 0 else "nobody"
        if typ == SUIT:
            return self.suit_name(v)
        if typ == FLAG:
            return "yes" if v else "no"
        if typ == SYMBOL:
            name = next((name for name, i in self.model.symbols.items() if i == v), None)
            return "none" if name is None else self.model.value_texts.get(name, name)
        if typ == ZONE:
            return self.zone_label(v)
        if typ == TEXT:
            texts = self.model.texts
            return texts[v] if 0 <= v < len(texts) else "?"
        if typ == RANK:
            return self.rank_name(v)
        if typ in SET_KINDS:              # its values in their order, or "none"
            name = {Kind.SET_SUITS: self.suit_name, Kind.SET_RANKS: self.rank_name,
                    Kind.SET_PLAYERS: lambda k: f"player {k + 1}",
                    Kind.SET_VALUES: lambda k: self.format(g, k, SYMBOL)}[typ]
            words = [name(k) for k in range(v.bit_length()) if v >> k & 1]
            return ", ".join(words) if words else "none"
        if typ == CARDS:
            cards = g.zones[v]
            _name, _owner, vis, size_hidden = self.zone_info[v]
            shown = cards if vis == "everyone" else cards[-1:] if vis == "top" else \
                cards[:1] if vis == "bottom" else []
            words = [self.card_names[c] for c in shown]
            hidden = len(cards) - len(shown)
            if hidden:
                words.insert(0, "hidden cards" if size_hidden else
                             f"{hidden} hidden card{'s' if hidden != 1 else ''}")
            return ", ".join(words) if words else "no cards"
        return str(v)

    def set_holds(self, name):
        """The values a variable that is a set may hold, from the model alone."""
        typ, m = self.model.vars[name].type, self.model
        if typ == Kind.SET_SUITS:
            return set(range(len(m.suits)))
        if typ == Kind.SET_RANKS:
            return set(m.ranks.values())
        if typ == Kind.SET_PLAYERS:
            return set(range(self.n))
        first, names = m.value_sets[m.set_values[name]]
        return set(range(first, first + len(names)))

    def rank_name(self, num):
        for name, v in self.model.ranks.items():
            if v == num:
                return self.model.rank_texts.get(name, name)
        return str(num)

    def suit_name(self, v):
        suits = self.model.suits
        if not 0 <= v < len(suits):
            return "no suit"
        return self.model.suit_texts.get(suits[v], suits[v])

    def action_to_string(self, action: int, g=None) -> str:
        alt = self.alternatives[action >> ACTION_SHIFT]
        v = action & VALUE_MASK
        if alt.kind == "set":
            words = self.set_words(g, action >> ACTION_SHIFT, v) if g is not None else None
            return f"{alt.label} {words}" if words else f"{alt.label} set {v + 1}"
        value = {None: None, "card": lambda: self.card_names[v],
                 "player": lambda: f"player {v + 1}", "suit": lambda: self.suit_name(v),
                 "place": lambda: f"#{v + 1}", "rank": lambda: self.rank_name(v),
                 "value": lambda: self.format(g, v, SYMBOL)}.get(
                     alt.kind, lambda: str(v))
        return alt.label if value is None else f"{alt.label} {value()}"

    def describe_vars(self, g) -> dict:
        out: dict = {}
        for i, (name, owner, typ) in enumerate(self.var_info):
            if name.startswith(" "):
                continue
            val = self.format(g, g.vars[i], typ)
            if getattr(self.model.vars[name].decl, "per_team", False):
                team, shown = self.team_var_shown(name, owner)
                if shown:
                    out.setdefault(name, {})[f"team {team}"] = val
                continue
            if owner < 0:
                out[name] = val
            else:
                out.setdefault(name, []).append(val)
        return out

    def zone_label(self, zi):
        name, owner, _, _ = self.zone_info[zi]
        return name if owner < 0 else f"{name} of player {owner + 1}"

    def shown_with(self, g, zi: int):
        name, owner, _v, _s = self.zone_info[zi]
        show = self.show_fns.get(name)
        if show is None or not g.zones[zi]:
            return None
        label, fn, nslots, typ = show
        v = fn(g, [-1, 0, owner if owner >= 0 else g.cur] + [0] * nslots)
        return label, self.format(g, v, typ)
