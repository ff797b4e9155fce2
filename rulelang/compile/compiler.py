"""Stage 3: compile a checked model into Python functions.

Each rule becomes one generated Python function (:mod:`rulelang.compile.rulegen`, its expressions and
simple statements from :mod:`rulelang.compile.codegen`); this module lays out the cards, zones and
variables, drives the generator, runs the game loop, and keeps the closure backend: there an
expression is a Python closure ``f(state, frame) -> int`` and a rule a list of instruction
closures ``op(state, frame) -> next position``, used for what the generator cannot write
(:meth:`CompiledGame.closure_rules` names such rules) and by the watched games of
:mod:`rulelang.play.simulate`.  Either way nothing walks the AST while a game is played.

Cards are small ints (positions in the card table), zones are plain lists, players are seat
numbers from 0, and ``none`` is -1: every per-card table has one extra entry at its end, so
``table[-1]`` is the value for ``none`` with no test.

A frame is a list ``[rule, position, you, local0, local1, ...]``; local slot ``i`` is at index
``3 + i`` and ``you`` at index 2 (slot -1).
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulelang.syntax import ast as A
from rulelang.engine.rng import Rng
from rulelang.compile.codegen import ExprGen, StatementGen, Unsupported, _noplayer, computes, too_large
from rulelang.limits import MAX_NUMBER, WORK_UNIT
from rulelang.compile.rulegen import RuleGen, inline_body, not_recursive, rule_bodies
from rulelang.check.checker import Expanded
from rulelang.check.checker import CARD, CARDS, FLAG, NUMBER, PLAYER, RANK, SUIT, SYMBOL, TEXT, ZONE, Model
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK, State
from rulelang.engine.control import CALL, DEFAULT_MAX_STEPS, END_TURN, HALT, RETURN, SUSPEND, GameProblem
from rulelang.engine.players import show_card
from rulelang.engine.choices import pick_start, pick_step
from rulelang.engine.choices import claim_order, first_claim
from rulelang.engine.melds import MAX_MELD_CARDS, least_left
from rulelang.engine.values import number_range
from rulelang.engine.values import best_of, highest, lowest
from rulelang.engine.players import (holder, leave_game, out_ranking, next_in, random_seat_in, seat_after,
                                     seat_in, seats_after, seats_in)

MAX_CARDS = VALUE_MASK  # card numbers must fit in an action's value
MAX_CALL_CHAIN = 32     # rules called as Python functions, one inside another


class Label:
    __slots__ = ("pos",)

    def __init__(self):
        self.pos = None


class Builder:
    """Collects a rule's instructions.  ``emit(make, *labels)`` appends one; ``make`` is called
    at the end with the position after the instruction and the labels' positions."""

    def __init__(self):
        self.items = []

    def here(self) -> int:
        return len(self.items)

    def place(self, label: Label):
        label.pos = len(self.items)

    def emit(self, make, *labels):
        self.items.append((make, labels))
        return len(self.items) - 1

    def jump(self, label: Label):
        """An unconditional jump.  Jumps are threaded: an instruction whose next instruction
        (or whose target) is a jump goes straight to where the jump leads."""
        self.items.append((_JUMP, (label,)))

    def ret(self):
        """Leave the rule; an instruction followed by ``ret`` returns at once."""
        self.items.append((_RET, ()))

    def finish(self):
        items = self.items

        def dest(i):
            seen = 0
            while i < len(items) and seen <= len(items):
                make, labels = items[i]
                if make is _JUMP:
                    i = labels[0].pos
                elif make is _RET:
                    return RETURN
                else:
                    return i
                seen += 1
            return i

        code = []
        for i, (make, labels) in enumerate(items):
            if make is _JUMP or make is _RET:
                target = dest(i)
                code.append((lambda t: (lambda g, fr: t))(target))
            else:
                code.append(make(dest(i + 1), *[dest(l.pos) for l in labels]))
        return code


def over_budget(g, span=None, cost=1) -> GameProblem:
    """RL901, saying what the step cost when it was more than one."""
    why = (f" (this step costs {cost} steps: steps are charged by the size of what they "
           f"evaluate, about {WORK_UNIT} parts each)" if cost > 1 else "")
    return GameProblem("RL901", f"the game did not end within {g.max_steps} steps{why}", span)


def _turn_flow(model) -> frozenset:
    """Which of "skip", "reverse" and "next_turn" some statement of the game can do.  A game that
    never does one keeps its default (no skip, direction 1, no named next seat) for ever, so the
    generated code leaves it out."""
    found = set()
    todo = [r.decl.body for r in model.rules.values()] + [e.body for e, _, _ in model.endings]
    while todo:
        x = todo.pop()
        if isinstance(x, (tuple, list)):
            todo.extend(x)
        elif isinstance(x, A.Simple):
            if x.word in ("skip", "reverse"):
                found.add(x.word)
        elif isinstance(x, A.NextTurn):
            found.add("next_turn")
        elif isinstance(x, A.Choose):
            todo.extend(a.body for a in x.alternatives)
        elif isinstance(x, A.If):
            todo.extend(b for _, b in x.branches)
            todo.append(getattr(x, "otherwise", None) or ())
        elif hasattr(x, "body"):
            todo.append(x.body or ())
    return frozenset(found)


def _JUMP(nxt, target):       # markers; finish() replaces them
    raise AssertionError


def _RET(nxt):
    raise AssertionError


def log_turn(g):
    """For the words of a game (``new_game(log=True)``): a turn is over and the next one begins;
    ``("turn", turns played, whose turn now, direction, the zones now)``."""
    g.log.append(("turn", g.turns, g.cur, g.dir, [z[:] for z in g.zones]))


def log_shuffle(g, zi):
    """``("shuffle", zone, the zones now)``: the words tell the moves before it first."""
    if g.log is not None:
        g.log.append(("shuffle", zi, [z[:] for z in g.zones]))


class AltInfo:
    """One alternative of a choice, as the runtime needs it."""
    __slots__ = ("label", "kind", "slot", "body_pc", "span")

    def __init__(self, label, kind, slot, span):
        self.label, self.kind, self.slot, self.span = label, kind, slot, span
        self.body_pc = -1


class CompiledGame:
    """A rule file compiled for one number of players and one set of option values."""

    def __init__(self, model: Model, n_players: int, max_steps: int = DEFAULT_MAX_STEPS,
                 coverage=None):
        self.model = model
        # With a rulelang.compile.coverage.Coverage: count every rule, branch and alternative run
        # (closures only, one counting instruction per counted block; see ``block``).
        self.coverage = coverage
        self.name = model.name
        self.n = n_players
        self.max_steps = max_steps
        self.types = model.types
        self.refs = model.refs
        self.problems: list = []
        self.gen = None
        self.stmts = None
        self._build_zones()
        self._build_vars()
        # Where the flag `out` of player 1 is, in a game where players leave (else None).
        self.out_base = self.var_base["out"] if getattr(model, "players_leave", False) else None
        self._build_cards()
        self._build_attributes()
        self.flow = _turn_flow(model)
        self.gen = ExprGen(self)
        self.stmts = StatementGen(self, self.gen)
        if coverage is not None:
            self.stmts = coverage.statements(self.stmts)
        self.alternatives = [None] * len(model.alternatives)
        self.procs: list = []
        self.proc_names: list = []
        self.proc_index: dict = {}
        self.rule_slots: dict = {}
        for name, r in model.rules.items():
            self.proc_index[name] = len(self.procs)
            self.procs.append(None)
            self.proc_names.append(name)
        for name, r in model.rules.items():
            self.procs[self.proc_index[name]] = self._compile_rule(r.decl.body, r.nslots)
            self.rule_slots[name] = r.nslots
        self.endings = []
        for e, ctx, body_ctx in model.endings:
            try:
                per_player = self.gen.player_function(e.condition, ctx.nslots)
            except Unsupported:
                cond = self.cx(e.condition)
                scratch = ctx.nslots
                per_player = (lambda cond, k: lambda g, p: cond(g, [-1, 0, p] + [0] * k))(cond, scratch)
            pid = len(self.procs)
            self.procs.append(self._compile_rule(e.body, body_ctx.nslots))
            self.proc_names.append("<ending>")
            self.rule_slots[pid] = body_ctx.nslots
            self.endings.append((per_player, pid, body_ctx.nslots))
        self._generate_rules()
        self.endings_fast = None
        try:
            self.endings_fast = self.gen.endings_function([e.condition for e, _, _ in model.endings])
        except Unsupported:
            pass
        self.score_fn = self.cx(model.score.expr) if model.score is not None else None
        # zone name -> (label, function, local slots, type): `show "LABEL" with ZONE: EXPR`
        self.show_fns = {z: (d.label, self.cx(d.expr), ctx.nslots, t)
                         for z, (d, ctx, t) in model.shows.items()}
        self._build_root()
        self.turn_proc = self.proc_index.get("turn", -1)
        # Where each alternative's body starts, and the local slot of its chosen value.
        self.entries = [(a.slot, a.body_pc) if a is not None else (-1, -1)
                        for a in self.alternatives]

    def _generate_rules(self):
        """Replace each rule's closures by one generated function where the generator knows
        every statement in it (rulelang.compile.rulegen); the closures stay for the others."""
        if self.gen is None:
            return
        if self.coverage is not None:      # counted games keep their closures
            self.direct_rules = set()
            return
        bodies = [(self.proc_index[name], r.decl.body) for name, r in self.model.rules.items()]
        bodies += [(pid, e.body) for (_, pid, _), (e, _, _) in zip(self.endings, self.model.endings)]
        # First learn which rules the generator can write; then write them again, calling the
        # rules that never wait for a decision directly, as Python functions.
        generable = set()
        self.proc_blocks = {}
        self.inline_bodies = {}
        rule_pids = {self.proc_index[name]: r.nslots for name, r in self.model.rules.items()}
        for pid, body in bodies:
            try:
                rg = RuleGen(self)
                rg.compile_rule(body, pid)
                generable.add(pid)
            except Unsupported:
                continue
            if rule_pids.get(pid) == 0:
                lines = inline_body(rg.src)
                if lines is not None:
                    self.inline_bodies[pid] = lines
        direct = self._shallow({self.proc_index[n] for n in self._never_suspending(
            {n for n, i in self.proc_index.items() if i in generable})})
        self.inline_bodies = {pid: b for pid, b in self.inline_bodies.items() if pid in direct}
        self.direct_rules = direct
        # Rules that may wait for a decision but can never call themselves again (through any
        # chain of calls) are entered by a direct Python call too, their frame on the stack.
        self.entered_rules = self._shallow(
            {self.proc_index[n] for n in not_recursive(self.model.rules)} & generable)
        for pid, body in bodies:
            if pid not in generable:
                continue
            rg = RuleGen(self, direct)
            fn, alt_blocks = rg.compile_rule(body, pid)
            self.proc_blocks[pid] = len(rg.blocks)      # its positions (checked in a save)
            self.procs[pid] = fn
            for aid, block in alt_blocks:
                self.alternatives[aid].body_pc = block

    def closure_rules(self) -> list:
        """The names of the rules (``<ending>`` for an ending's body) that the code generator
        could not write and that run as closures, slower: tests/test_vocabulary.py lists them
        for every rule file, so that a rule falling back is seen."""
        return [self.proc_names[i] for i, p in enumerate(self.procs) if p.__class__ is list]

    def _shallow(self, pids: set) -> set:
        """Of the rules ``pids`` (none of which can run itself again), those that keep every chain
        of them calling one another, as Python functions, at most MAX_CALL_CHAIN long; the others
        are called through the run loop, which keeps its frames in a list (a chain of thousands
        of rules, each running the next, exhausted Python's stack).  A chain is cut at its top: a
        rule that is called directly calls only rules that are (see _never_suspending)."""
        from rulelang.check.checker import _walk
        names = {self.proc_index[n]: n for n in self.model.rules}
        calls = {}
        for pid in pids:
            body = self.model.rules[names[pid]].decl.body
            calls[pid] = {self.proc_index[c.name] for c in _walk(body)
                          if isinstance(c, A.CallRule) and c.name in self.proc_index} & pids
        height: dict = {}
        keep = set(pids)
        for root in pids:                      # heights bottom up, with a stack of our own
            stack = [(root, False)]
            while stack:
                pid, done = stack.pop()
                if pid in height:
                    continue
                if not done:
                    stack.append((pid, True))
                    stack.extend((c, False) for c in calls[pid] if c not in height)
                    continue
                height[pid] = h = 1 + max((height[c] for c in calls[pid]), default=0)
                if h > MAX_CALL_CHAIN:
                    keep.discard(pid)          # and so every rule that runs it
        return keep

    def _never_suspending(self, generable=None) -> set:
        """Rules that can never stop for a decision, so that they can be called as plain Python
        functions: no choice in them, no chain of calls leading back to them (a direct Python
        call must not recurse without bound), and every rule they call is one of these too (a
        rule called through the run loop would return to the frame of the caller's caller, which
        is not on the stack: the caller would be run again from its start).  With
        ``generable`` (rule names), only those rules."""
        rules = self.model.rules
        calls, result = {}, set()
        plain = not_recursive(rules)
        for name, r in rules.items():
            found_calls, found_choose = set(), False
            stack = list(r.decl.body)
            while stack:
                st = stack.pop()
                if isinstance(st, A.Choose):
                    found_choose = True
                if isinstance(st, A.CallRule):
                    found_calls.add(st.name)
                stack.extend(s for body in rule_bodies(st) for s in body)
            calls[name] = found_calls
            if not found_choose and name in plain and (generable is None or name in generable):
                result.add(name)
        changed = True
        while changed:
            changed = False
            for name in list(result):
                if not calls[name] <= result:
                    result.discard(name)
                    changed = True
        return result

    # ---- layout ----------------------------------------------------------------------------
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

    def _build_vars(self):
        self.var_base = {}
        self.var_info = []
        for name, v in self.model.vars.items():
            self.var_base[name] = len(self.var_info)
            k = self.n if v.decl.per_player else 1
            for p in range(k):
                self.var_info.append((name, p if v.decl.per_player else -1, v.type))

    def _scratch(self, nslots, you=0):
        return [-1, 0, you] + [0] * nslots

    def _const(self, e, nslots, you=0):
        """Evaluate an expression that may use only options and the number of players."""
        f = self.cx(e)
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
        deck = m.deck
        dt = m.deck_types.get(deck.name) if deck is not None else None
        if dt is None:
            self.card_names = []
            self.rank_of = [0]
            self.suit_of = [-1]
            self.rank_cycle = []
            return
        ctx_slots = m.var_ctx.nslots
        include = deck.with_group is not None and (
            deck.with_condition is None or bool(self._const(deck.with_condition, ctx_slots)))
        per_player = deck.per_player_into is not None
        copies = self.n if per_player else (
            int(self._const(deck.copies, ctx_slots)) if deck.copies is not None else 1)
        rank_numbers = dict(m.ranks)
        # Count before building: `copies 100000` would build millions of cards first.
        per_copy = (len(dt.suits) * len(dt.ranks) + sum(len(ranks) for _, ranks in dt.own_suits)
                    + sum(len(names) for group, names, _ in dt.extras
                          if include and group == deck.with_group))
        if max(0, copies) * per_copy > MAX_CARDS:
            self.problems.append(("RL172", f"{copies * per_copy} cards is more than the "
                                  f"{MAX_CARDS} a game may use", deck.span))
            copies = 1              # go on with one deck: the problem stops the game anyway
        cycle = set()
        per_copy = len(dt.suits) * len(dt.ranks) + sum(len(r) for _s, r in dt.own_suits) + sum(
            len(names) for group, names, _r in dt.extras if include and group == deck.with_group)
        if per_copy * copies > MAX_CARDS:      # reported below; not built (copies may be huge)
            too_many, copies = per_copy * copies, 0
        else:
            too_many = 0
        for copy in range(max(0, copies)):
            for si, suit in enumerate(dt.suits):
                for r in dt.ranks:
                    self.cards.append((r.name, rank_numbers[r.name], si, None))
                    self.card_zone.append(copy)
                    cycle.add(rank_numbers[r.name])
            base = len(dt.suits)
            for k, (suit, ranks) in enumerate(dt.own_suits):
                for r in ranks:
                    self.cards.append((r.name, rank_numbers[r.name], base + k, None))
                    self.card_zone.append(copy)
                    cycle.add(rank_numbers[r.name])
            for group, names, rank in dt.extras:
                if include and group == deck.with_group:
                    for name, _ in names:
                        self.cards.append((rank.name, rank_numbers[rank.name], -1, name))
                        self.card_zone.append(copy)
        if too_many or len(self.cards) > MAX_CARDS:
            self.problems.append(("RL172", f"{too_many or len(self.cards)} cards is more than the "
                                  f"{MAX_CARDS} a game may use", deck.span))
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
        names = []
        for rname, num, si, extra in self.cards:
            if extra is not None:
                names.append(extra)
                continue
            suit = m.suits[si]
            ssym = m.suit_symbols.get(suit)
            if ssym:
                names.append(f"{m.rank_symbols.get(rname, rname)}{ssym}")
            elif si >= len(dt.suits):
                names.append(rname)
            else:
                names.append(f"{rname} of {suit}")
        self.card_names = names
        # Identical copies (several decks): each card's first copy, or None when there are none.
        first = {}
        twin = [first.setdefault(name, i) for i, name in enumerate(names)]
        self.card_twin = twin if len(first) < len(names) else None
        # Card names that are constants in rules (extra cards) stand for their first copy.
        self.card_name_ids = {}
        for i, c in enumerate(self.cards):
            if c[3] is not None:
                self.card_name_ids.setdefault(c[3], i)
        # Where the deck starts.
        self.deck_start = []
        if per_player:
            base = self.zone_base.get(deck.per_player_into)
            self.deck_start = [base + copy for copy in self.card_zone]
        elif deck.into is not None:
            zi = self._const(deck.into, ctx_slots)
            self.deck_start = [zi] * len(self.cards)

    def _build_attributes(self):
        m = self.model
        self.attr_tables = {}
        slots = m.attr_ctx.nslots
        for name, (a, typ) in m.attributes.items():
            compiled = [(tuple(s for s, _ in sels), self.cx(expr)) for sels, expr in a.entries]
            other = self.cx(a.otherwise) if a.otherwise is not None else None
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
                               (isinstance(s, tuple) and m.refs.get(("card literal", s[1])) == (rname, suit)) or
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

    # ---- expressions -------------------------------------------------------------------------
    def cx(self, e):
        """The compiled form of an expression: one generated function when the code generator
        knows every node in it, otherwise a closure per node."""
        if self.gen is not None:
            try:
                return self.gen.function(e)
            except Unsupported:
                pass
        f = getattr(self, "x_" + type(e).__name__)(e)
        if id(e) in self.model.seat_uses:        # used as a player: `none` is RL912
            span = e.span
            return lambda g, fr: v if (v := f(g, fr)) >= 0 else _noplayer(span)
        return f

    def x_Int(self, e):
        v = e.value
        return lambda g, fr: v

    def x_Text(self, e):
        v = self.refs[id(e)][1]              # a text is its index in model.texts
        return lambda g, fr: v

    def x_Bool(self, e):
        v = 1 if e.value else 0
        return lambda g, fr: v

    def x_NoneLit(self, e):
        return lambda g, fr: -1

    def x_Keyword(self, e):
        w = e.word
        n = self.n
        yi = 3 + self.refs.get(id(e), ("you", -1))[1]
        if w == "you":
            return lambda g, fr: fr[yi]
        if w == "current player":
            return lambda g, fr: g.cur
        ob = self.out_base
        if ob is not None and w in ("next player", "previous player"):
            k = 1 if w == "next player" else -1
            return lambda g, fr: seat_after(g, fr[yi], k, ob)
        if ob is not None and w == "random player":
            return lambda g, fr: random_seat_in(g, ob)
        if w == "next player":
            return lambda g, fr: (fr[yi] + g.dir) % n
        if w == "previous player":
            return lambda g, fr: (fr[yi] - g.dir) % n
        if w == "random player":
            return lambda g, fr: g.rng.randrange(n)
        if w in ("players", "number of players"):
            return lambda g, fr: n
        if w == "number of turns":
            return lambda g, fr: g.turns
        if w == "opponents":
            return lambda g, fr: n - 1
        raise AssertionError(w)

    def players_source(self, e):
        """The seats a ``player p from ...`` chooses among, in order of play from ``you``."""
        n = self.n
        ob = self.out_base
        if isinstance(e, A.Keyword) and e.word == "opponents":
            yi = 3 + self.refs.get(id(e), ("you", -1))[1]
            if ob is not None:
                return lambda g, fr: seats_after(g, fr[yi], ob)
            return lambda g, fr: [(fr[yi] + g.dir * k) % n for k in range(1, n)]
        if ob is not None:
            return lambda g, fr: [q for q in range(n) if not g.vars[ob + q]]
        return lambda g, fr: list(range(n))

    def x_Seat(self, e):
        v = e.number - 1
        if e.number > self.n:                   # a run-time problem if the rules reach it
            from rulelang.compile.codegen import _noseat
            k, n, span = e.number, self.n, e.span

            def noseat(g, fr):
                _noseat(k, n, span)
            return noseat
        return lambda g, fr: v

    def x_Unary(self, e):
        op = e.op
        f = self.cx(e.operand)
        n = self.n
        ob = self.out_base
        if ob is not None and op in ("player after", "player before"):
            k = 1 if op == "player after" else -1
            return lambda g, fr: seat_after(g, f(g, fr), k, ob)
        if op == "player after":
            return lambda g, fr: (f(g, fr) + g.dir) % n
        if op == "player before":
            return lambda g, fr: (f(g, fr) - g.dir) % n
        if op == "rank after":
            nxt = self.rank_next
            return lambda g, fr: nxt.get(f(g, fr), 0)
        if op == "rank before":
            prv = self.rank_prev
            return lambda g, fr: prv.get(f(g, fr), 0)
        if op == "top":
            def top(g, fr):
                z = g.zones[f(g, fr)]
                return z[-1] if z else -1
            return top
        if op == "bottom":
            def bottom(g, fr):
                z = g.zones[f(g, fr)]
                return z[0] if z else -1
            return bottom
        if op == "size":
            return lambda g, fr: len(g.zones[f(g, fr)])
        if op == "random card":
            def rnd(g, fr):
                z = g.zones[f(g, fr)]
                return z[g.rng.randrange(len(z))] if z else -1
            return rnd
        if op == "score":
            return lambda g, fr: self.score_of(g, f(g, fr))
        if op == "not":
            return lambda g, fr: not f(g, fr)
        if op == "neg":
            return lambda g, fr: -f(g, fr)
        raise AssertionError(op)

    def shown_with(self, g, zi: int):
        """``(label, value in words)`` of the value a rule file shows with zone ``zi``
        (``show "LABEL" with ZONE: EXPR``), or None: none declared, or the zone is empty."""
        name, owner, _v, _s = self.zone_info[zi]
        show = self.show_fns.get(name)
        if show is None or not g.zones[zi]:
            return None
        label, fn, nslots, typ = show
        v = fn(g, self._scratch(nslots, owner if owner >= 0 else g.cur))
        return label, self.format(g, v, typ)

    def score_of(self, g, p):
        return self.score_fn(g, self._scratch(self.model.score_ctx.nslots, p))

    def x_TotalOf(self, e):
        table = self.rank_of if e.attribute == "rank" else self.attr_tables.get(e.attribute, self.rank_of)
        f = self.cx(e.zone)
        return lambda g, fr: sum([table[c] for c in g.zones[f(g, fr)]])

    def x_AnyNumber(self, e):
        ni = 3 + self.refs[id(e)]
        lo, hi, cond = self.cx(e.low), self.cx(e.high), self.cx(e.condition)
        span = e.span

        def any_number(g, fr):
            for k in number_range(lo(g, fr), hi(g, fr), span):
                fr[ni] = k
                if cond(g, fr):
                    return True
            return False
        return any_number

    def meld_solver(self, attribute, span):
        """``least total A of Z outside sets and runs`` as a function of a zone's cards (one per
        attribute and place, kept so that generated code names the same object)."""
        key = (attribute, span)
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
            solvers[key] = solve
        return solvers[key]

    def x_MeldLeft(self, e):
        solve = self.meld_solver(e.attribute, e.span)
        f = self.cx(e.zone)
        return lambda g, fr: solve(g.zones[f(g, fr)])

    def x_Roll(self, e):
        sides = e.sides
        return lambda g, fr: g.rng.randint(1, sides)

    def x_CardQuery(self, e):
        zf = self.cx(e.zone)
        kind = e.kind
        if e.condition is None:
            if kind == "count":
                return lambda g, fr: len(g.zones[zf(g, fr)])
            if kind == "any":
                return lambda g, fr: len(g.zones[zf(g, fr)]) > 0
            return lambda g, fr: not g.zones[zf(g, fr)]
        ci = 3 + self.refs[id(e)]
        cond = self.cx(e.condition)
        if kind == "any":
            def any_(g, fr):
                for c in g.zones[zf(g, fr)]:
                    fr[ci] = c
                    if cond(g, fr):
                        return True
                return False
            return any_
        if kind == "no":
            def no_(g, fr):
                for c in g.zones[zf(g, fr)]:
                    fr[ci] = c
                    if cond(g, fr):
                        return False
                return True
            return no_

        def count(g, fr):
            k = 0
            for c in g.zones[zf(g, fr)]:
                fr[ci] = c
                if cond(g, fr):
                    k += 1
            return k
        return count

    def x_Name(self, e):
        ref = self.refs[id(e)]
        kind = ref[0]
        if kind == "slot":
            i = 3 + ref[1]
            return lambda g, fr: fr[i]
        if kind == "var":
            base = self.var_base[ref[1]]
            if ref[2]:
                yi = 3 + ref[3]
                return lambda g, fr: g.vars[base + fr[yi]]
            return lambda g, fr: g.vars[base]
        if kind == "zone":
            base = self.zone_base[ref[1]]
            if ref[2]:
                yi = 3 + ref[3]
                return lambda g, fr: base + fr[yi]
            return lambda g, fr: base
        if kind == "const" or kind == "symbol":
            v = ref[1]
            return lambda g, fr: v
        if kind == "card_name":
            v = self.card_name_ids.get(ref[1], -1)
            return lambda g, fr: v
        if kind == "expanded":
            return self.x_Expanded(ref[1])
        raise AssertionError(ref)

    def x_Of(self, e):
        ref = self.refs[id(e)]
        if ref[0] == "expanded":
            return self.x_Expanded(ref[1])
        if ref[0] == "card_lit":          # `queen of spades` (issue 14)
            return self.x_CardLit(e)
        f = self.cx(e.operand)
        kind = ref[0]
        if kind == "rank":
            t = self.rank_of
            return lambda g, fr: t[f(g, fr)]
        if kind == "suit":
            t = self.suit_of
            return lambda g, fr: t[f(g, fr)]
        if kind == "attr":
            t = self.attr_tables[ref[1]]
            return lambda g, fr: t[f(g, fr)]
        if kind == "zone_of":
            base = self.zone_base[ref[1]]
            return lambda g, fr: base + f(g, fr)
        if kind == "var_of":
            base = self.var_base[ref[1]]
            return lambda g, fr: g.vars[base + f(g, fr)]
        raise AssertionError(ref)

    def x_Call(self, e):
        if self.refs[id(e)][0] == "zone_family":
            return self.x_zone_of_family(e)
        return self.x_Expanded(self.refs[id(e)][1])

    def zone_family_table(self, e):
        """The zone numbers of a family, and what stops the game for a number outside it."""
        _kind, names, lo = self.refs[id(e)]
        bases = [self.zone_base[n] for n in names]
        span = e.span
        family = e.name

        def zone_of(k):
            if lo <= k < lo + len(bases):
                return bases[k - lo]
            raise GameProblem("RL256", f"there is no {family} {k}: the family is numbered "
                              f"{lo} to {lo + len(bases) - 1}", span)
        return zone_of

    def x_zone_of_family(self, e):
        zone_of = self.__dict__.setdefault("_families", {}).setdefault(
            id(e), self.zone_family_table(e))
        k = self.cx(e.args[0])
        return lambda g, fr: zone_of(k(g, fr))

    def x_Expanded(self, e):
        """A use of a define: the checker shares one copy of its body between uses with the
        same arguments, and so do its closures (a chain of defines stays linear)."""
        memo = self.__dict__.setdefault("_expanded", {})
        hit = memo.get(id(e))
        if hit is None:
            hit = memo[id(e)] = (self.cx(e.body), e)
        return hit[0]

    def x_Arg(self, e):
        return self.cx(e.expr)

    def x_BoolOp(self, e):
        fs = [self.cx(i) for i in e.items]
        if e.op == "and":
            if len(fs) == 2:
                a, b = fs
                return lambda g, fr: a(g, fr) and b(g, fr)
            return lambda g, fr: all(f(g, fr) for f in fs)
        if len(fs) == 2:
            a, b = fs
            return lambda g, fr: a(g, fr) or b(g, fr)
        return lambda g, fr: any(f(g, fr) for f in fs)

    def x_Compare(self, e):
        op = e.op
        if op in ("==", "!=") and any(isinstance(x, A.Seat) and x.number > self.n
                                      for x in (e.left, e.right)):
            other = self.cx(e.right if isinstance(e.left, A.Seat) and e.left.number > self.n
                            else e.left)        # evaluated all the same (it may be a problem)
            answer = op == "!="

            def unequal(g, fr):
                other(g, fr)
                return answer
            return unequal
        a, b = self.cx(e.left), self.cx(e.right)
        if isinstance(e.right, (A.Int, A.NoneLit)) or (
                isinstance(e.right, A.Name) and self.refs.get(id(e.right), ("",))[0] == "const"):
            v = b(None, None)
            if op == "==":
                return lambda g, fr: a(g, fr) == v
            if op == "!=":
                return lambda g, fr: a(g, fr) != v
        if op == "==":
            return lambda g, fr: a(g, fr) == b(g, fr)
        if op == "!=":
            return lambda g, fr: a(g, fr) != b(g, fr)
        if op == "<":
            return lambda g, fr: a(g, fr) < b(g, fr)
        if op == ">":
            return lambda g, fr: a(g, fr) > b(g, fr)
        if op == "<=":
            return lambda g, fr: a(g, fr) <= b(g, fr)
        return lambda g, fr: a(g, fr) >= b(g, fr)

    def x_IsEmpty(self, e):
        f = self.cx(e.zone)
        if e.negate:
            return lambda g, fr: len(g.zones[f(g, fr)]) > 0
        return lambda g, fr: not g.zones[f(g, fr)]

    def x_Arith(self, e):
        a, b = self.cx(e.left), self.cx(e.right)
        op = e.op
        if op == "+":
            return lambda g, fr: a(g, fr) + b(g, fr)
        if op == "-":
            return lambda g, fr: a(g, fr) - b(g, fr)
        span = e.span
        if op == "*":
            def mul(g, fr):
                v = a(g, fr) * b(g, fr)
                if -MAX_NUMBER <= v <= MAX_NUMBER:
                    return v
                raise too_large(v, span)
            return mul
        if op == "/":
            def div(g, fr):
                x, d = a(g, fr), b(g, fr)
                if d:
                    return x // d
                raise GameProblem("RL911", f"{x} is divided by zero", span)
            return div

        def mod(g, fr):
            x, d = a(g, fr), b(g, fr)
            if d:
                return x % d
            raise GameProblem("RL911", f"{x} mod 0: a number cannot be divided by zero", span)
        return mod

    def x_Cases(self, e):
        cases = [(self.cx(v), self.cx(c)) for v, c in e.cases]
        default = self.cx(e.default)
        if len(cases) == 1:
            (v, c), = cases
            return lambda g, fr: v(g, fr) if c(g, fr) else default(g, fr)

        def cases_(g, fr):
            for v, c in cases:
                if c(g, fr):
                    return v(g, fr)
            return default(g, fr)
        return cases_

    # ---- statements ---------------------------------------------------------------------------
    def _compile_rule(self, body, nslots):
        b = Builder()
        self.loop_ends: list = []
        self.pending_alts: list = []
        self.block(body, b)
        b.ret()
        code = b.finish()
        for aid, label in self.pending_alts:
            self.alternatives[aid].body_pc = label.pos
        return code

    def block(self, body, b):
        """Compile statements; runs of simple ones are fused into one generated instruction."""
        if self.coverage is not None:
            self.coverage.emit(body, b)
        body = list(body)
        i = 0
        while i < len(body):
            j = i
            if self.stmts is not None:
                while j < len(body) and self.stmts.is_simple(body[j]):
                    j += 1
            if j > i:
                try:
                    b.emit(self.stmts.fused(body[i:j]))
                    i = j
                    continue
                except Unsupported:
                    pass
            st = body[i]
            getattr(self, "s_" + type(st).__name__)(st, b)
            i += 1

    def step(self, g, span=None, cost=1):
        g.steps += cost
        if g.steps > g.max_steps:
            raise over_budget(g, span, cost)

    def work(self, node, memo=None, per_item=False) -> int:
        """How much a step evaluates: the parts of ``node`` (a statement, an expression or a list
        of them), defines put in place (an expansion shared by several uses counted once, as the
        generated code computes it once), `score of` with
        the score.  A condition looked at for each card of a zone (or each player) is counted
        once (``per_item`` marks the parts inside one).  A rule called from ``node`` is not counted (its call is a step of its own); a
        loop inside it is counted once (its rounds are steps of their own)."""
        memo = {} if memo is None else memo
        n, refs = self.n, self.refs
        score = self.model.score.expr if self.model.score is not None else None
        total = 0
        todo = [node]           # lists flattened here; a part's children recursively (their depth
        #                         is bounded by RL201 and RL202)
        while todo:
            x = todo.pop()
            if isinstance(x, (list, tuple)):
                todo.extend(x)
                continue
            if not attrs.has(type(x)) or isinstance(x, A.Span):
                continue
            k = (id(x), per_item)
            if k in memo:
                # a define's expansion shared by several uses is computed once by the generated
                # code (codegen.ExprGen.expanded): counted once
                total += 0 if isinstance(x, Expanded) else memo[k]
                continue
            size, inner = 1, []          # (times, part, looked at for each item)
            for f in attrs.fields(type(x)):
                v = getattr(x, f.name)
                if f.name == "span" or isinstance(v, (str, int, bool, type(None), A.Span)):
                    continue
                if f.name in ("condition", "where", "expr") and isinstance(
                        x, (A.CardQuery, A.Selection, A.Param, A.PlayerQuery)):
                    # counted once, even inside another such condition: the generated code
                    # computes a part that does not depend on the card before the loop (see
                    # tests/test_defines.py), and which part does is not known here
                    inner.append((1, v, True))
                else:
                    inner.append((1, v, per_item))
            ref = refs.get(id(x))
            if isinstance(ref, tuple) and len(ref) > 1 and ref[0] == "expanded":
                inner.append((1, ref[1], per_item))
            if isinstance(x, A.Unary) and x.op == "score" and score is not None:
                inner.append((1, score, per_item))
            if isinstance(x, A.EndGame) and x.kind in ("highest", "lowest") and score is not None:
                inner.append((n, score, True))
            for times, v, each in inner:
                size += times * self.work(v, memo, each)
            memo[k] = size
            total += size
        return total

    def charge(self, node) -> int:
        """What a step that evaluates ``node`` costs of the step budget (limits.WORK_UNIT)."""
        return 1 + self.work(node) // WORK_UNIT

    def s_Shuffle(self, st, b):
        zf = self.cx(st.zone)
        b.emit(lambda nxt: (lambda g, fr: (g.rng.shuffle(g.zones[zf(g, fr)]), log_shuffle(g, zf(g, fr)),
                                            nxt)[2]))

    def s_Deal(self, st, b):
        count = self.cx(st.count) if st.count is not None else None
        src = self.cx(st.source)
        base = self.zone_base.get(st.zone, 0)
        seats = self.n
        ob = self.out_base
        first = self.cx(st.start) if st.start is not None else (lambda g, fr: g.cur)

        def make(nxt):
            def deal(g, fr):
                s = g.zones[src(g, fr)]
                zones = g.zones
                if ob is None:
                    n = seats
                    start = first(g, fr)
                    order = [(start + g.dir * k) % n for k in range(n)]
                else:                           # the players still in the game
                    order = seats_in(g, first(g, fr), ob)
                    n = len(order)
                    if not n:
                        return nxt
                dest = [zones[base + p] for p in order]
                if all(d is not s for d in dest):
                    # In bulk: the i-th card off the top goes to dest[i % n], as one at a time.
                    total = len(s) if count is None else min(len(s), max(0, count(g, fr)) * n)
                    if total:
                        r = s[:-total - 1:-1]
                        for i, d in enumerate(dest):
                            d.extend(r[i::n])
                        del s[-total:]
                    return nxt
                if count is None:
                    i = 0
                    while s:
                        zones[base + order[i % n]].append(s.pop())
                        i += 1
                    return nxt
                k = count(g, fr)
                for _ in range(k):
                    for p in order:
                        if not s:
                            return nxt
                        zones[base + p].append(s.pop())
                return nxt
            return deal
        b.emit(make)

    def s_Move(self, st, b):
        src = self.cx(st.source)
        dst = self.cx(st.dest)
        sel = st.selection
        kind = sel.kind
        bottom = st.to_bottom
        turned = st.turned_over
        span = st.span
        names = self.card_names

        def put_many(g, d, cards):
            if turned:
                cards.reverse()
            if bottom:
                d[:0] = cards
            else:
                d.extend(cards)

        if kind == "top" and not bottom:
            def make(nxt):
                def move_top(g, fr):
                    s = g.zones[src(g, fr)]
                    if s:
                        g.zones[dst(g, fr)].append(s.pop())
                    return nxt
                return move_top
        elif kind in ("top", "bottom", "random"):
            def make(nxt):
                def move_one(g, fr):
                    s = g.zones[src(g, fr)]
                    if not s:
                        return nxt
                    if kind == "top":
                        c = s.pop()
                    elif kind == "bottom":
                        c = s.pop(0)
                    else:
                        c = s.pop(g.rng.randrange(len(s)))
                    d = g.zones[dst(g, fr)]
                    if bottom:
                        d.insert(0, c)
                    else:
                        d.append(c)
                    return nxt
                return move_one
        elif kind == "card":
            cf = self.cx(sel.expr)

            def make(nxt):
                def move_card(g, fr):
                    c = cf(g, fr)
                    s = g.zones[src(g, fr)]
                    try:
                        s.remove(c)
                    except ValueError:
                        raise GameProblem("RL902", f"card {names[c] if c >= 0 else 'none'} is not in "
                                          f"{self.zone_label(src(g, fr))}", span) from None
                    d = g.zones[dst(g, fr)]
                    if bottom:
                        d.insert(0, c)
                    else:
                        d.append(c)
                    return nxt
                return move_card
        elif kind == "count":
            cnt = self.cx(sel.expr)

            def make(nxt):
                def move_n(g, fr):
                    s = g.zones[src(g, fr)]
                    d = g.zones[dst(g, fr)]
                    k = cnt(g, fr)
                    if k <= 0:
                        return nxt
                    taken = s[-k:]
                    del s[-k:]
                    taken.reverse()      # one at a time from the top: the first taken is lowest
                    put_many(g, d, taken)
                    return nxt
                return move_n
        elif kind in ("all", "all_but_top"):
            def make(nxt):
                def move_all(g, fr):
                    s = g.zones[src(g, fr)]
                    d = g.zones[dst(g, fr)]
                    if s is d:
                        return nxt
                    if kind == "all":
                        cards = s[:]
                        s.clear()
                    else:
                        cards = s[:-1]
                        del s[:-1]
                    put_many(g, d, cards)
                    return nxt
                return move_all
        elif kind in ("count_where", "upto_where", "and_above"):
            make = self.counted_move(st, src, dst, put_many)
        else:  # where
            ci = 3 + self.refs[id(sel)][1]
            cond = self.cx(sel.expr)

            def make(nxt):
                def move_where(g, fr):
                    s = g.zones[src(g, fr)]
                    d = g.zones[dst(g, fr)]
                    keep, cards = [], []
                    for c in s:
                        fr[ci] = c
                        (cards if cond(g, fr) else keep).append(c)
                    s[:] = keep
                    put_many(g, d, cards)
                    return nxt
                return move_where
        b.emit(make)

    def counted_move(self, st, src, dst, put_many):
        """``move N cards where C`` (exactly N: fewer stops the game with RL258), ``move up to N
        cards where C`` and ``move c and every card on top of it`` (docs/language.md, "Moving
        some of the cards that match").  The cards that match are taken one at a time from the
        top, as ``move N cards`` takes them (the first taken ends lowest); a card with the cards
        on top of it is lifted as a block, in its order, as ``move all cards`` does."""
        sel = st.selection
        kind = sel.kind
        span = st.span
        names = self.card_names
        if kind == "and_above":
            cf = self.cx(sel.expr)

            def make(nxt):
                def move_block(g, fr):
                    c = cf(g, fr)
                    s = g.zones[src(g, fr)]
                    if c not in s:
                        raise GameProblem("RL902", f"card {names[c] if c >= 0 else 'none'} is "
                                          f"not in {self.zone_label(src(g, fr))}", span)
                    i = s.index(c)
                    cards = s[i:]
                    del s[i:]
                    put_many(g, g.zones[dst(g, fr)], cards)
                    return nxt
                return move_block
            return make
        ci = 3 + self.refs[id(sel)][1]
        cnt = self.cx(sel.expr)
        cond = self.cx(sel.condition)
        exactly = kind == "count_where"

        def make(nxt):
            def move_counted(g, fr):
                s = g.zones[src(g, fr)]
                k = cnt(g, fr)
                picked = []                        # places in s, from the top down
                for i in range(len(s) - 1, -1, -1):
                    if len(picked) >= k:
                        break
                    fr[ci] = s[i]
                    if cond(g, fr):
                        picked.append(i)
                if exactly and len(picked) < k:
                    raise GameProblem("RL258", f"{k} cards that match are to be moved from "
                                      f"{self.zone_label(src(g, fr))}, which has "
                                      f"{len(picked)}", span)
                cards = [s[i] for i in picked]
                for i in picked:                   # from the top down: the places stay right
                    del s[i]
                put_many(g, g.zones[dst(g, fr)], cards)
                return nxt
            return move_counted
        return make

    def zone_label(self, zi):
        name, owner, _, _ = self.zone_info[zi]
        return name if owner < 0 else f"{name} of player {owner + 1}"

    def s_Assign(self, st, b):
        val = self.cx(st.value)
        t = st.target
        ref = self.refs.get(id(t))
        op = st.op
        if ref is None:
            return
        if ref[0] == "slot":
            i = 3 + ref[1]

            def setter(g, fr, v):
                fr[i] = v

            def getter(g, fr):
                return fr[i]
        elif ref[0] == "var":
            base = self.var_base[ref[1]]
            if ref[2]:
                yi = 3 + ref[3]

                def idx(g, fr):
                    return base + fr[yi]
            else:
                def idx(g, fr):
                    return base
            setter = lambda g, fr, v: g.vars.__setitem__(idx(g, fr), v)
            getter = lambda g, fr: g.vars[idx(g, fr)]
        elif ref[0] == "var_of":
            base = self.var_base[ref[1]]
            pf = self.cx(t.operand)
            setter = lambda g, fr, v: g.vars.__setitem__(base + pf(g, fr), v)
            getter = lambda g, fr: g.vars[base + pf(g, fr)]
        elif ref[0] == "current":
            moves_you = ref[1]                  # in setup, `you` is the current player

            def setter(g, fr, v):
                g.cur = v
                if moves_you:
                    fr[2] = v
            getter = lambda g, fr: g.cur
        else:
            raise AssertionError(ref)
        if op != "set" or computes(st.value, self.refs):
            val = self._bounded(val, op, getter, st.span)
            op = "set"
        if op == "set":
            b.emit(lambda nxt: (lambda g, fr: (setter(g, fr, int(val(g, fr))), nxt)[1]))
        elif op == "add":
            b.emit(lambda nxt: (lambda g, fr: (setter(g, fr, getter(g, fr) + val(g, fr)), nxt)[1]))
        else:
            b.emit(lambda nxt: (lambda g, fr: (setter(g, fr, getter(g, fr) - val(g, fr)), nxt)[1]))

    @staticmethod
    def _bounded(val, op, getter, span):
        """The value a ``set``, ``add`` or ``subtract`` stores, checked against the bound of
        every number (RL910; see codegen.computes)."""
        def value(g, fr):
            v = int(val(g, fr))
            if op == "add":
                v = getter(g, fr) + v
            elif op == "sub":
                v = getter(g, fr) - v
            if -MAX_NUMBER <= v <= MAX_NUMBER:
                return v
            raise too_large(v, span)
        return value

    def s_Let(self, st, b):
        i = 3 + self.refs[id(st)]
        val = self.cx(st.value)
        if computes(st.value, self.refs):
            val = self._bounded(val, "set", None, st.span)

        def make(nxt):
            def let(g, fr):
                fr[i] = int(val(g, fr))
                return nxt
            return let
        b.emit(make)

    def s_Simple(self, st, b):
        w = st.word
        if w == "stop":
            end = self.loop_ends[-1]
            b.jump(end)
        elif w == "return":
            b.ret()
        elif w == "pass":
            pass
        elif w == "end turn":
            b.emit(lambda nxt: (lambda g, fr: END_TURN))
        elif w == "skip":
            def make(nxt):
                def skip(g, fr):
                    g.skip += 1
                    return nxt
                return skip
            b.emit(make)
        elif w == "reverse":
            def make(nxt):
                def reverse(g, fr):
                    g.dir = -g.dir
                    return nxt
                return reverse
            b.emit(make)

    def s_EndGame(self, st, b):
        kind = st.kind
        pf = self.cx(st.player) if st.player is not None else None
        n = self.n
        if kind == "where":
            ws, ls = self.refs[id(st)]
            wf = self.cx(st.winners)
            lf = self.cx(st.losers) if st.losers is not None else None

        def make(nxt):
            def end(g, fr):
                if kind == "where":        # a result for every player, each on their own
                    results = []
                    for p in range(n):
                        fr[3 + ws] = p
                        if wf(g, fr):
                            results.append("win")
                            continue
                        if lf is not None:
                            fr[3 + ls] = p
                        results.append("loss" if lf is None or lf(g, fr) else "draw")
                    scores = ([self.score_of(g, p) for p in range(n)]
                              if self.model.score is not None else None)
                    order = {"win": 0, "draw": 1, "loss": 2}
                    first = [p for p in range(n) if results[p] == "win"]
                    rank = out_ranking(g, first, self.out_base) if self.out_base is not None \
                        else list(range(n))
                    rank = sorted(rank, key=lambda p: order[results[p]])
                    self.finish(g, first, "results", rank, scores)
                    g.seat_results = results
                elif kind == "winner":
                    p = pf(g, fr)
                    self.finish(g, [p], "win")
                elif kind == "loser":
                    p = pf(g, fr)
                    self.finish(g, [q for q in range(n) if q != p], "loss")
                elif kind == "draw":
                    self.finish(g, [], "draw")
                else:
                    scores = [self.score_of(g, p) for p in range(n)]
                    best = max(scores) if kind == "highest" else min(scores)
                    ranking = sorted(range(n), key=lambda p: -scores[p] if kind == "highest" else scores[p])
                    self.finish(g, [p for p in range(n) if scores[p] == best], "score",
                                ranking, scores)
                return HALT
            return end
        b.emit(make)

    def finish(self, g, winners, outcome, ranking=None, scores=None):
        g.terminal = True
        g.winners = winners
        g.outcome = outcome
        if ranking is None and self.out_base is not None:
            ranking = out_ranking(g, winners, self.out_base)
        g.ranking = ranking if ranking is not None else (
            list(winners) + [p for p in range(g.n) if p not in winners])
        g.pending = None
        g.legal = None
        g.sim = None
        if g.log is not None:
            g.log.append(("end", outcome, list(winners), scores))

    def s_NextTurn(self, st, b):
        pf = self.cx(st.player)

        def make(nxt):
            def next_turn(g, fr):
                g.next_turn = pf(g, fr)
                return nxt
            return next_turn
        b.emit(make)

    def s_CallRule(self, st, b):
        if st.name not in self.proc_index:
            return
        pid = self.proc_index[st.name]
        nslots = self.model.rules[st.name].nslots
        args = [self.cx(a) for a in st.args]
        yi = 3 + self.refs[id(st)]
        pf = self.cx(st.for_player) if st.for_player is not None else None
        pad = [0] * (nslots - len(args))
        span = st.span
        cost = self.charge(self.model.rules[st.name].decl.body)

        def make(nxt):
            def call(g, fr):
                self.step(g, span, cost)
                fr[1] = nxt
                you = pf(g, fr) if pf is not None else fr[yi]
                g.stack.append([pid, 0, you] + [a(g, fr) for a in args] + pad)
                return CALL
            return call
        b.emit(make)

    def s_Say(self, st, b):
        parts = [p if isinstance(p, str) else
                 (self.cx(p.zone), CARDS) if isinstance(p, A.CardsIn) else
                 (self.cx(p), self.model.say_as.get(id(p)) or self.types.get(id(p)))
                 for p in st.parts]
        yi = 3 + self.refs.get(id(st), -1)

        def make(nxt):
            def say(g, fr):
                if g.log is not None:
                    g.log.append(("say", fr[yi], " ".join(
                        p if isinstance(p, str) else self.format(g, p[0](g, fr), p[1]) for p in parts)))
                return nxt
            return say
        b.emit(make)

    def s_Show(self, st, b):
        cf = self.cx(st.card)
        pf = self.cx(st.player)

        def make(nxt):
            def show(g, fr):
                show_card(g, cf(g, fr), pf(g, fr))
                return nxt
            return show
        b.emit(make)

    def s_Leave(self, st, b):
        pf = self.cx(st.player)
        ob = self.out_base

        def make(nxt):
            def leave(g, fr):
                leave_game(g, pf(g, fr), ob)
                return nxt
            return leave
        b.emit(make)

    def x_IsOut(self, e):
        pf = self.cx(e.player)
        ob = self.out_base
        if e.negate:
            return lambda g, fr: not g.vars[ob + pf(g, fr)]
        return lambda g, fr: bool(g.vars[ob + pf(g, fr)])

    def players_in(self):
        """A function of the state and a seat: the players still in, in order from that seat."""
        ob = self.out_base
        if ob is not None:
            return lambda g, start: seats_in(g, start, ob)
        n = self.n
        return lambda g, start: [(start + g.dir * k) % n for k in range(n)]

    def x_PlayerQuery(self, e):
        slot, yslot = self.refs[id(e)]
        si, yi = 3 + slot, 3 + yslot
        cond = self.cx(e.condition)
        kind = e.kind
        order = self.players_in()

        def values(g, fr):
            for p in order(g, fr[yi]):
                fr[si] = p
                yield p, cond(g, fr)
        if kind == "any":
            return lambda g, fr: any(v for _p, v in values(g, fr))
        if kind == "no":
            return lambda g, fr: not any(v for _p, v in values(g, fr))
        if kind == "count":
            return lambda g, fr: sum(1 for _p, v in values(g, fr) if v)
        if kind == "highest":
            return lambda g, fr: highest([v for _p, v in values(g, fr)])
        if kind == "lowest":
            return lambda g, fr: lowest([v for _p, v in values(g, fr)])
        if kind in ("best", "worst"):      # `player with highest V` (issue 14)
            return lambda g, fr: best_of([(v, p) for p, v in values(g, fr)], kind == "best")
        if kind == "each":
            return lambda g, fr: [p for p, v in values(g, fr) if v]
        if kind == "others":
            return lambda g, fr: [p for p, v in values(g, fr) if v and p != fr[yi]]

        def nxt(g, fr):
            you = fr[yi]
            for p, v in values(g, fr):
                if p != you and v:
                    return p
            return -1
        return nxt

    # ---- selectors and aggregates (issue 14) ---------------------------------------------------
    def card_literal_id(self, rank, suit):
        """The card a literal such as `Q♠` stands for: its first copy (-1 if the deck left it out)."""
        si = self.model.suits.index(suit) if suit in self.model.suits else -2
        for cid, (rname, _num, csi, extra) in enumerate(self.cards):
            if rname == rank and csi == si and extra is None:
                return cid
        return -1

    def x_CardLit(self, e):
        v = self.card_literal_id(*self.refs[id(e)][1:])
        return lambda g, fr: v

    def x_AmongCards(self, e):
        zf = self.cx(e.zone)
        ci = 3 + self.refs[id(e)]
        value = self.cx(e.value)
        cond = self.cx(e.condition) if e.condition is not None else (lambda g, fr: True)
        kind = e.kind

        def pairs(g, fr):
            out = []
            for c in list(g.zones[zf(g, fr)]):
                fr[ci] = c
                if cond(g, fr):
                    out.append((value(g, fr), c))
            return out
        if kind == "total":
            return lambda g, fr: sum([v for v, _c in pairs(g, fr)])
        if kind == "highest":
            return lambda g, fr: highest([v for v, _c in pairs(g, fr)])
        if kind == "lowest":
            return lambda g, fr: lowest([v for v, _c in pairs(g, fr)])
        return lambda g, fr: best_of(pairs(g, fr), kind == "highest card")

    def x_PickValue(self, e):
        si = 3 + self.refs[id(e)]
        cond = self.cx(e.condition)
        if e.low is None:
            ranks = tuple(self.rank_cycle)
            values = lambda g, fr: ranks
        else:
            lo, hi = self.cx(e.low), self.cx(e.high)
            values = lambda g, fr: range(lo(g, fr), hi(g, fr) + 1)
        high = e.kind == "highest"

        def pick(g, fr):
            vs = values(g, fr)
            for v in (reversed(vs) if high else vs):
                fr[si] = v
                if cond(g, fr):
                    return v
            return 0
        return pick

    def owned_zones(self):
        return tuple((zi, owner) for zi, (_n, owner, _v, _s) in enumerate(self.zone_info)
                     if owner >= 0)

    def x_Holder(self, e):
        cf = self.cx(e.card)
        owned = self.owned_zones()
        return lambda g, fr: holder(g, cf(g, fr), owned)

    def s_Reveal(self, st, b):
        # Told as revealed by the player whose zone holds the card (the card's owner at that
        # moment), not by the player whose rule runs; a card in a shared zone is nobody's (-1).
        cf = self.cx(st.card)
        owned = self.owned_zones()

        def make(nxt):
            def reveal(g, fr):
                if g.log is not None:
                    c = cf(g, fr)
                    g.log.append(("reveal", holder(g, c, owned) if c >= 0 else -1,
                                  self.card_names[c] if c >= 0 else "nothing"))
                return nxt
            return reveal
        b.emit(make)

    def s_If(self, st, b):
        end = Label()
        for cond, body in st.branches:
            c = self.cx(cond)
            nxt_branch = Label()
            # bind c now: the instruction is made after the loop, when c is the last condition
            b.emit(lambda nxt, other, c=c: (lambda g, fr: nxt if c(g, fr) else other), nxt_branch)
            self.block(body, b)
            b.jump(end)
            b.place(nxt_branch)
        if st.otherwise is not None:
            self.block(st.otherwise, b)
        b.place(end)

    def _loop(self, b, head: Label, end: Label, body, span=None, cost=1):
        self.loop_ends.append(end)
        self.block(body, b)
        self.loop_ends.pop()

        def make(nxt, head):
            def back(g, fr):
                g.steps += cost
                if g.steps > g.max_steps:
                    raise over_budget(g, span, cost)
                return head
            return back
        b.emit(make, head)
        b.place(end)

    def s_Loop(self, st, b):
        head, end = Label(), Label()
        if st.kind == "times":
            i = 3 + self.refs[id(st)]
            cnt = self.cx(st.expr)

            def init(nxt):
                def f(g, fr):
                    fr[i] = cnt(g, fr)
                    return nxt
                return f
            b.emit(init)
            b.place(head)

            def test(nxt, end):
                def f(g, fr):
                    if fr[i] <= 0:
                        return end
                    fr[i] -= 1
                    return nxt
                return f
            b.emit(test, end)
        else:
            b.place(head)
            if st.kind in ("while", "until"):
                c = self.cx(st.expr)
                if st.kind == "while":
                    b.emit(lambda nxt, end: (lambda g, fr: nxt if c(g, fr) else end), end)
                else:
                    b.emit(lambda nxt, end: (lambda g, fr: end if c(g, fr) else nxt), end)
        self._loop(b, head, end, st.body, st.span, self.charge(st))

    def s_ForPlayer(self, st, b):
        pi, ki = (3 + s for s in self.refs[id(st)])
        start = self.cx(st.start) if st.start is not None else (lambda g, fr: g.cur)
        n = self.n
        head, end = Label(), Label()

        def init(nxt):
            def f(g, fr):
                fr[pi] = start(g, fr)
                fr[ki] = n
                return nxt
            return f
        b.emit(init)
        skip_advance = Label()
        b.jump(skip_advance)
        b.place(head)

        def advance(nxt):
            def f(g, fr):
                fr[pi] = (fr[pi] + g.dir) % n
                return nxt
            return f
        b.emit(advance)
        b.place(skip_advance)

        ob = self.out_base

        def test(nxt, end):
            if ob is not None:
                return lambda g, fr: nxt if next_in(g, fr, ki, pi, ob) else end

            def f(g, fr):
                if fr[ki] <= 0:
                    return end
                fr[ki] -= 1
                return nxt
            return f
        b.emit(test, end)
        self._loop(b, head, end, st.body, st.span, self.charge(st))

    def s_ForCard(self, st, b):
        ci, li, ii = (3 + s for s in self.refs[id(st)])
        zf = self.cx(st.zone)
        head, end = Label(), Label()

        def init(nxt):
            def f(g, fr):
                fr[li] = tuple(g.zones[zf(g, fr)])
                fr[ii] = 0
                return nxt
            return f
        b.emit(init)
        b.place(head)

        def test(nxt, end):
            def f(g, fr):
                cards = fr[li]
                k = fr[ii]
                if k >= len(cards):
                    return end
                fr[ci] = cards[k]
                fr[ii] = k + 1
                return nxt
            return f
        b.emit(test, end)
        self._loop(b, head, end, st.body, st.span, self.charge(st))

    def values_of(self, kind):
        """What `for each suit` / `for each rank` goes through: the deck's suits, or the ranks
        `rank after` goes round, lowest first (as `rank r` offers them)."""
        return tuple(range(len(self.model.suits))) if kind == "suit" else tuple(self.rank_cycle)

    def s_ForValue(self, st, b):
        vi, ii = (3 + s for s in self.refs[id(st)])
        values = self.values_of(st.kind)
        head, end = Label(), Label()

        def init(nxt):
            def f(g, fr):
                fr[ii] = 0
                return nxt
            return f
        b.emit(init)
        b.place(head)

        def test(nxt, end):
            def f(g, fr):
                k = fr[ii]
                if k >= len(values):
                    return end
                fr[vi] = values[k]
                fr[ii] = k + 1
                return nxt
            return f
        b.emit(test, end)
        self._loop(b, head, end, st.body, st.span, self.charge(st))

    # ---- choices -----------------------------------------------------------------------------
    def _enumerator(self, alt, aid, slot):
        base = aid << ACTION_SHIFT
        cond = self.cx(alt.condition) if alt.condition is not None else None
        p = alt.param
        if p is None:
            if cond is None:
                return lambda g, fr, out: out.append(base)

            def plain(g, fr, out):
                if cond(g, fr):
                    out.append(base)
            return plain
        si = 3 + slot
        if p.kind == "cards":
            return self._cards_enumerator(alt, aid, si, cond)
        if p.kind == "unseen":                      # the places of Z, bottom first
            zf = self.cx(p.source)

            def places(g, fr, out):
                if cond is None or cond(g, fr):
                    out.extend(range(base, base + len(g.zones[zf(g, fr)])))
            return places
        where = self.cx(p.where) if p.where is not None else None
        if p.kind == "card":
            try:
                return self.gen.enumerator(p.source, p.where, alt.condition, si, base)
            except Unsupported:
                pass
            zf = self.cx(p.source)

            def values(g, fr):
                return g.zones[zf(g, fr)]
        elif p.kind == "player":
            values = self.players_source(p.source)
        elif p.kind == "suit":
            suits = list(range(len(self.model.suits)))
            values = lambda g, fr: suits
        elif p.kind == "rank":
            ranks = list(self.rank_cycle)
            values = lambda g, fr: ranks
        else:
            lo, hi = self.cx(p.source), self.cx(p.high)
            span = p.span

            def values(g, fr):
                a, z = lo(g, fr), hi(g, fr)
                if a < 0 or z > VALUE_MASK:
                    raise GameProblem("RL903", f"a number chosen from {a} to {z}: only 0 to "
                                      f"{VALUE_MASK} can be chosen", span)
                return range(a, z + 1)

        def enum(g, fr, out):
            if cond is not None and not cond(g, fr):
                return
            if where is None:
                for v in values(g, fr):
                    out.append(base + v)
                return
            for v in values(g, fr):
                fr[si] = v
                if where(g, fr):
                    out.append(base + v)
        return enum

    def _unseen_card(self, alt, aid, b):
        """Before the body of ``unseen card c from Z``: c is the card at the chosen place."""
        zf = self.cx(alt.param.source)
        pi, ci = self.alternatives[aid].slot, 3 + self.model.unseen[id(alt)]

        def make(nxt):
            def card_there(g, fr):
                fr[ci] = g.zones[zf(g, fr)][fr[pi]]
                return nxt
            return card_there
        b.emit(make)

    def _after_you(self, by):
        """Where claims are asked from when the rule does not say: the player after `you`."""
        yi = 3 + self.refs[id(by)][1]
        return lambda g, fr: (fr[yi] + g.dir) % g.n

    # Several cards in one step (runtime.pick_start / pick_step).
    def _cards_enumerator(self, alt, aid, si, cond):
        p = alt.param
        base = aid << ACTION_SHIFT
        ks = tuple(3 + k for k in self.model.picks[id(alt)][0])
        zf, df, nf = self.cx(p.source), self.cx(p.dest), self.cx(p.count)
        where = self.cx(p.where) if p.where is not None else None
        more, same, span = p.or_more, p.same, p.span

        def enum(g, fr, out):
            if cond is not None and not cond(g, fr):
                return
            z = zf(g, fr)
            cards = []
            for v in g.zones[z]:
                fr[si] = v
                if where is None or where(g, fr):
                    cards.append(v)
            out.extend(pick_start(g, fr, ks, cards, z, df(g, fr), nf(g, fr), more, same, base,
                                  span))
        return enum

    def _cards_step(self, alt, aid, b, ci):
        """The small decisions after the first card, at the start of the alternative's body."""
        slots, done_aid = self.model.picks[id(alt)]
        self.alternatives[done_aid] = AltInfo("no more cards", None, -1, alt.span)
        ks = tuple(3 + k for k in slots)
        si = self.alternatives[aid].slot
        base, done, same, span = aid << ACTION_SHIFT, done_aid << ACTION_SHIFT, alt.param.same, \
            alt.param.span

        def make(nxt):
            def pick(g, fr):
                out = pick_step(g, fr, si, ks, same, base, done, span)
                if out is None:
                    return nxt
                g.pending = (fr[ci],)
                g.legal = out
                return SUSPEND
            return pick
        b.emit(make)
        return done_aid

    def s_Choose(self, st, b):
        chooser_slot, param_slots, extra = self.model.choose_slots[id(st)]
        ci = 3 + chooser_slot
        end = Label()
        enums = []
        alt_labels = []
        for alt, slot in zip(st.alternatives, param_slots):
            aid = self.model.labels[id(alt)]
            info = AltInfo(alt.label, {"cards": "card", "unseen": "place"}.get(
                               alt.param.kind, alt.param.kind) if alt.param else None,
                           3 + slot if slot is not None else -1, alt.span)
            self.alternatives[aid] = info
            enums.append(self._enumerator(alt, aid, slot))
            alt_labels.append((aid, Label()))
        span = st.span
        if st.simultaneous:
            self._simultaneous(st, b, ci, 3 + extra, enums, alt_labels, end, span)
            return
        by = self.cx(st.by[0]) if st.by else None

        def make(nxt):
            def choose(g, fr):
                if self.endings and self.check_endings(g):
                    return CALL
                p = by(g, fr) if by is not None else fr[2]
                fr[ci] = p
                out = []
                for en in enums:
                    en(g, fr, out)
                if not out:
                    raise GameProblem("RL904", f"player {p + 1} has no legal choice here", span)
                g.pending = (p,)
                g.legal = out
                return SUSPEND
            return choose
        b.emit(make)
        for (aid, label), alt in zip(alt_labels, st.alternatives):
            b.place(label)
            self.pending_alts.append((aid, label))
            if id(alt) in self.model.picks:
                self.pending_alts.append((self._cards_step(alt, aid, b, ci), label))
            if id(alt) in self.model.unseen:
                self._unseen_card(alt, aid, b)
            self.block(alt.body, b)
            b.jump(end)
        b.place(end)

    def _simultaneous(self, st, b, ci, xi, enums, alt_labels, end, span):
        bys = [self.cx(x) for x in st.by]
        dispatch = Label()
        claim_from = None
        if st.claim:
            claim_from = (self.cx(st.claim_from) if st.claim_from is not None else
                          self._after_you(st.by[0]))

        def make(nxt, dispatch, end_):
            def choose_together(g, fr):
                if self.endings and self.check_endings(g):
                    return CALL
                players = []
                for f in bys:
                    p = f(g, fr)
                    for p in (p if p.__class__ is list else (p,)):     # `by each player`
                        if p not in players:
                            players.append(p)
                if claim_from is not None:
                    players = claim_order(g, players, claim_from(g, fr))
                if not players:
                    return end_
                legal = {}
                for p in players:
                    fr[ci] = p
                    out = []
                    for en in enums:
                        en(g, fr, out)
                    if not out:
                        raise GameProblem("RL904", f"player {p + 1} has no legal choice here", span)
                    legal[p] = out
                legal["order"] = players
                legal["slot"] = xi
                legal["dispatch"] = dispatch
                g.pending = players
                g.legal = legal
                g.sim = {}
                return SUSPEND
            return choose_together
        b.emit(make, dispatch, end)
        b.place(dispatch)
        alts = self.alternatives
        none_aid = self.model.labels[id(st.alternatives[-1])] if st.claim else None

        def make_dispatch(nxt, end):
            def dispatch_(g, fr):
                ch = fr[xi]
                if none_aid is not None:          # a claim: the first one in order acts
                    ch = first_claim(ch, none_aid)
                if not ch:
                    return end
                p, a = ch[0]
                fr[xi] = ch[1:]
                fr[ci] = p
                alt = alts[a >> ACTION_SHIFT]
                if alt.slot >= 0:
                    fr[alt.slot] = a & VALUE_MASK
                return alt.body_pc
            return dispatch_
        b.emit(make_dispatch, end)
        for (aid, label), alt in zip(alt_labels, st.alternatives):
            b.place(label)
            self.pending_alts.append((aid, label))
            self.block(alt.body, b)
            b.jump(dispatch)
        b.place(end)

    # ---- the game loop -----------------------------------------------------------------------
    def pass_turn(self, g):
        """The turn passes on in a game where players leave: to the named player (or the first
        player still in after them), else over the players still in, jumping the skipped ones."""
        ob = self.out_base
        if all(g.vars[ob:ob + g.n]):
            g.next_turn = -1                # nobody is left: an ending must end the game now
        elif g.next_turn >= 0:
            g.cur = seat_in(g, g.next_turn, ob)
            g.next_turn = -1
        else:
            g.cur = seat_after(g, g.cur, 1 + g.skip, ob)
        g.skip = 0

    def check_endings(self, g) -> bool:
        """Run before every decision and after every turn: if a ``game ends when`` condition
        holds (for any player, from the current one on), run its body instead."""
        n = self.n
        if self.endings_fast is not None:
            hit = self.endings_fast(g)
            if hit is None:
                return False
            k, p = hit
            pid, body_slots = self.endings[k][1], self.endings[k][2]
            g.stack[:] = [[self.root, self.root_halt, 0], [pid, 0, p] + [0] * body_slots]
            return True
        ob = self.out_base
        everyone_out = ob is not None and all(g.vars[ob:ob + n])
        for cond, pid, body_slots in self.endings:
            for k in range(n):
                p = (g.cur + g.dir * k) % n
                if ob is not None and g.vars[ob + p] and everyone_out is False:
                    continue                # a player who is out is not checked
                if cond(g, p):
                    g.stack[:] = [[self.root, self.root_halt, 0],
                                  [pid, 0, p] + [0] * body_slots]
                    return True
        return False

    def _build_root(self):
        setup = self.proc_index.get("setup")
        turn = self.proc_index.get("turn")
        n = self.n
        turn_pad = [0] * self.rule_slots.get("turn", 0)
        procs = self.procs
        ob = self.out_base
        pass_turn = self.pass_turn

        max_steps_error = "the game did not end within {} steps"

        # When the turn opens with a decision, that decision checks the endings itself.
        turn_rule = self.model.rules.get("turn")
        # A turn is a step charged by its rule and the endings checked after it (for each player).
        turn_cost = 1 + (self.work(turn_rule.decl.body if turn_rule else ())
                         + n * self.work([e.condition for e, _, _ in self.model.endings])) // WORK_UNIT
        self.turn_cost = turn_cost
        turn_why = " (every turn was played and none ended it)" + (
            f" (a turn costs {turn_cost} steps: steps are charged by the size of what they "
            f"evaluate, about {WORK_UNIT} parts each)" if turn_cost > 1 else "")
        opens_with_choice = bool(turn_rule and turn_rule.decl.body and
                                 isinstance(turn_rule.decl.body[0], A.Choose))
        check_first = bool(self.endings) and not opens_with_choice
        turn_span = turn_rule.decl.span if turn_rule else None

        check = self.check_endings

        def root(g, fr, pc):
            """The game: 0 runs setup, 1 begins a turn, 2 passes the turn on, 3 and 4 end.
            A generated turn rule is called directly, and turn follows turn in this loop until
            a rule must stop (a decision, a call, the end)."""
            stack = g.stack
            while True:
                if pc == 1:
                    if g.log is not None and g.turns == 0 and not any(e[0] == "turn" for e in g.log):
                        log_turn(g)             # the zones after setup, before the first turn
                    if check_first and check(g):
                        return CALL
                    g.steps += turn_cost
                    if g.steps > g.max_steps:
                        raise GameProblem("RL901", max_steps_error.format(g.max_steps) + turn_why,
                                          turn_span)
                    fr[1] = 2
                    if turn is None:
                        raise GameProblem("RL151", "the game has no `turn:`")
                    code = procs[turn]
                    if code.__class__ is list:
                        stack.append([turn, 0, g.cur] + turn_pad)
                        return CALL
                    tf = [turn_top, 0, g.cur] + turn_pad
                    stack.append(tf)
                    pc = procs[turn_top](g, tf, 0)
                    if pc != RETURN:
                        return pc
                    stack.pop()
                    pc = 2
                if pc == 2:
                    g.turns += 1
                    if ob is not None:
                        pass_turn(g)
                    elif g.next_turn >= 0:
                        g.cur = g.next_turn
                        g.next_turn = -1
                    else:
                        g.cur = (g.cur + g.dir * (1 + g.skip)) % n
                    g.skip = 0
                    if g.log is not None:
                        log_turn(g)
                    pc = 1
                elif pc == 0:
                    fr[1] = 1
                    if setup is not None:
                        stack.append([setup, 0, g.cur] + [0] * self.rule_slots["setup"])
                        return CALL
                    pc = 1
                elif pc != 1:
                    if not g.terminal:
                        self.finish(g, [], "draw")
                    return HALT
        def turn_loop(g, fr, pc):
            """The turn rule in the frame right above the root: when a turn is over, the next
            one begins in this same frame (as positions 2 and 1 of the root would), without a
            round trip through the run loop.
            Passing the turn on and the step budget are written out here as in ``root`` (pc 2
            and 1), not called, because this is the innermost loop of play; the two must agree,
            and tests/test_codegen.py plays every rule file both ways (closures only: ``root``)."""
            turnf = procs[turn]
            while True:
                pc = turnf(g, fr, pc)
                if pc != RETURN:
                    if pc != END_TURN:
                        return pc
                    stack = g.stack
                    while stack[-1] is not fr:
                        stack.pop()
                g.turns += 1
                if ob is not None:
                    pass_turn(g)
                elif g.next_turn >= 0:
                    g.cur = g.next_turn
                    g.next_turn = -1
                else:
                    g.cur = (g.cur + g.dir * (1 + g.skip)) % n
                g.skip = 0
                if g.log is not None:
                    log_turn(g)
                if check_first and check(g):
                    return CALL
                g.steps += turn_cost
                if g.steps > g.max_steps:
                    raise GameProblem("RL901", max_steps_error.format(g.max_steps) + turn_why,
                                      turn_span)
                fr[1] = 0
                fr[2] = g.cur
                if turn_pad:
                    fr[3:] = turn_pad
                pc = 0

        self.root = len(self.procs)
        self.root_halt = 4
        self.procs.append(root)
        self.proc_names.append("<game>")
        turn_top = self.turn_top = len(self.procs)     # the turn, run in the frame above the root
        self.procs.append(turn_loop)
        self.proc_names.append("turn")
        # Better: the generated turn rule itself goes on to the next turn where it ends.
        if turn is not None and procs[turn].__class__ is not list:
            def over(g):
                raise GameProblem("RL901", max_steps_error.format(g.max_steps) + turn_why,
                                  turn_span)
            self._turn_spec = (check_first, turn_pad, over)    # (for playout_procs)
            try:
                rg = RuleGen(self, self.direct_rules)
                looping, _ = rg.compile_rule(turn_rule.decl.body, turn,
                                             next_turn=(check_first, turn_pad, over))
                self.procs[turn_top] = looping
                self.proc_blocks[turn_top] = len(rg.blocks)
            except Unsupported:
                pass

    def after(self, g: State, pc, procs=None):
        """Go on after the top frame's function returned ``pc``: ``State.apply_action`` calls the
        rule's function itself after a decision (most often it stops at the next decision), and
        only otherwise enters the run loop through here.  (``procs``: see ``run``.)"""
        if pc == SUSPEND or pc == HALT:
            return
        stack = g.stack
        if pc == RETURN:
            stack.pop()
        elif pc == END_TURN:
            self._end_turn(stack)
        self.run(g, procs)

    def _end_turn(self, stack):
        turn, turn_top = self.turn_proc, self.turn_top
        while len(stack) > 1 and stack[-1][0] != turn and stack[-1][0] != turn_top:
            stack.pop()
        if len(stack) > 1:
            stack.pop()

    def problem_stop(self, g, e):
        """The game cannot go on (a GameProblem raised in a rule): it ends, with the problem."""
        g.terminal = True
        g.outcome = "error"
        g.winners = []
        g.ranking = []
        g.pending = None
        g.legal = None
        g.sim = None
        sp = e.span
        g.problem = {"code": e.code, "message": e.message,
                     "span": None if sp is None else [sp.file, sp.line, sp.column]}

    def run(self, g: State, procs=None):
        """Run the rules until a decision or the end.  ``procs``: the rules' functions to run
        (default ``self.procs``; ``State.playout`` gives ``playout_procs()``)."""
        stack = g.stack
        procs = self.procs if procs is None else procs
        try:
            while True:
                fr = stack[-1]
                code = procs[fr[0]]
                pc = fr[1]
                if code.__class__ is list:
                    while pc >= 0:
                        pc = code[pc](g, fr)
                else:                       # a generated rule runs until it must stop
                    pc = code(g, fr, pc)
                if pc == CALL:
                    stack = g.stack
                    continue
                if pc == RETURN:
                    stack.pop()
                    continue
                if pc == END_TURN:
                    self._end_turn(stack)
                    continue
                return          # SUSPEND or HALT
        except GameProblem as e:
            self.problem_stop(g, e)

    def new_game(self, seed: int = 0, log: bool = False, max_steps: Optional[int] = None) -> State:
        """The position after setup, at the first decision."""
        g = State.__new__(State)
        g.game = self
        g.n = self.n
        start = getattr(self, "_start_zones", None)     # where the deck starts, made once
        if start is None:
            start = [[] for _ in self.zone_info]
            for cid, zi in enumerate(self.deck_start):
                start[zi].append(cid)
            self._start_zones = start
        g.zones = [z[:] for z in start]
        g.vars = [0] * len(self.var_info)
        g.cur = 0
        g.dir = 1
        g.skip = 0
        g.next_turn = -1
        g.rng = Rng(seed)
        g.pending = None
        g.legal = None
        g.sim = None
        g.terminal = False
        g.outcome = None
        g.winners = []
        g.ranking = []
        g.steps = 0
        g.decisions = 0
        g.turns = 0
        g.log = [] if log else None
        g.problem = None
        g.seat_results = None
        g.shown = []
        g.max_steps = max_steps or self.max_steps
        nslots = self.model.var_ctx.nslots
        g.stack = [[self.root, 0, 0]]
        try:
            for i, (name, owner, typ) in enumerate(self.var_info):
                init = self._var_init[name]
                g.vars[i] = int(init(g, self._scratch(nslots, max(owner, 0))))
        except GameProblem as e:       # a first value divided by zero, or too large
            self.problem_stop(g, e)
            return g
        self.run(g)
        return g

    def playout(self, seed: int, policy, max_steps: Optional[int] = None) -> State:
        """A whole game played on the fast path (:meth:`State.playout`): the final state."""
        g = self.new_game(seed=seed, max_steps=max_steps)
        g.playout(policy)
        return g

    def playout_procs(self) -> list:
        """The rules' functions for ``State.playout``: for each generated rule that may decide, its
        playout variant (``RuleGen(playout=True)``), which asks the playout's policy at each
        decision and goes on in place instead of returning to the driver; the other entries are
        those of ``procs``.  A variant has the blocks and frame of its rule (a frame stopped by
        one is resumed by the other), so the API can go on from where a playout stopped.  Made
        on the first playout, once per compiled game."""
        pp = getattr(self, "_playout_procs", None)
        if pp is not None:
            return pp
        pp = list(self.procs)
        if self.gen is None or self.coverage is not None or not hasattr(self, "proc_blocks"):
            self._playout_procs = pp
            return pp
        self.gen.ns["_pprocs"] = pp
        direct = self.direct_rules
        bodies = [(self.proc_index[name], r.decl.body) for name, r in self.model.rules.items()]
        bodies += [(pid, e.body) for (_, pid, _), (e, _, _) in zip(self.endings, self.model.endings)]
        for pid, body in bodies:
            if pid in direct or pid not in self.proc_blocks:   # never decides, or closures
                continue
            try:
                rg = RuleGen(self, direct, playout=True)
                fn, _ = rg.compile_rule(body, pid)
            except Unsupported:
                continue
            if len(rg.blocks) == self.proc_blocks[pid]:
                pp[pid] = fn
        top, spec = self.turn_top, getattr(self, "_turn_spec", None)
        if spec is not None and top in self.proc_blocks:
            try:
                rg = RuleGen(self, direct, playout=True)
                fn, _ = rg.compile_rule(self.model.rules["turn"].decl.body, self.turn_proc,
                                        next_turn=spec)
                if len(rg.blocks) == self.proc_blocks[top]:
                    pp[top] = fn
            except Unsupported:
                pass
        self._playout_procs = pp
        return pp

    @property
    def _var_init(self):
        cache = getattr(self, "_var_init_cache", None)
        if cache is None:
            cache = {name: self.cx(v.decl.init) for name, v in self.model.vars.items()}
            self._var_init_cache = cache
        return cache

    # ---- words -------------------------------------------------------------------------------
    def format(self, g, v, typ):
        if typ == CARD:
            return self.card_names[v] if 0 <= v < len(self.card_names) else "nothing"
        if typ == PLAYER:
            return f"player {v + 1}" if v >= 0 else "nobody"
        if typ == SUIT:
            return self.model.suits[v] if 0 <= v < len(self.model.suits) else "no suit"
        if typ == FLAG:
            return "yes" if v else "no"
        if typ == SYMBOL:
            for name, i in self.model.symbols.items():
                if i == v:
                    return name
            return "none"
        if typ == ZONE:
            return self.zone_label(v)
        if typ == TEXT:
            texts = self.model.texts
            return texts[v] if 0 <= v < len(texts) else "?"
        if typ == RANK:
            return self.rank_name(v)
        if typ == CARDS:                     # only what everyone may see is named
            cards = g.zones[v]
            _name, _owner, vis, size_hidden = self.zone_info[v]
            shown = cards if vis == "everyone" else cards[-1:] if vis == "top" else []
            words = [self.card_names[c] for c in shown]
            hidden = len(cards) - len(shown)
            if hidden:
                words.insert(0, "hidden cards" if size_hidden else
                             f"{hidden} hidden card{'s' if hidden != 1 else ''}")
            return ", ".join(words) if words else "no cards"
        return str(v)

    def rank_name(self, num):
        for name, v in self.model.ranks.items():
            if v == num:
                return name
        return str(num)

    def action_to_string(self, action: int, g=None) -> str:
        alt = self.alternatives[action >> ACTION_SHIFT]
        v = action & VALUE_MASK
        if alt.kind is None:
            return alt.label
        if alt.kind == "card":
            return f"{alt.label} {self.card_names[v]}"
        if alt.kind == "player":
            return f"{alt.label} player {v + 1}"
        if alt.kind == "suit":
            return f"{alt.label} {self.model.suits[v]}"
        if alt.kind == "place":
            return f"{alt.label} #{v + 1}"
        if alt.kind == "rank":
            return f"{alt.label} {self.rank_name(v)}"
        return f"{alt.label} {v}"

    def describe_vars(self, g) -> dict:
        out = {}
        for i, (name, owner, typ) in enumerate(self.var_info):
            if name.startswith(" "):              # a rule's result: no variable of the game
                continue
            val = self.format(g, g.vars[i], typ)
            if owner < 0:
                out[name] = val
            else:
                out.setdefault(name, []).append(val)
        return out

