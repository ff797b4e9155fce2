"""Stage 3: compile a checked model into Python functions.

Each rule becomes one generated Python function (:mod:`rulelang.compile.rulegen`, its expressions and
simple statements from :mod:`rulelang.compile.codegen`); :class:`CompiledGame` ties together the
layout of the game as integers (:mod:`rulelang.compile.layout`), the generator it drives (here),
the game loop (:mod:`rulelang.compile.gameloop`), the step budget (:mod:`rulelang.compile.budget`)
and the words (:mod:`rulelang.compile.words`).  The generator is the only backend: it writes every
rule and every value (constants, tables, scores, endings); a construct it cannot write is a bug of
rulelang (:class:`~rulelang.compile.gensource.Unsupported`, raised out of the compiler), never a
fallback.  The tests check the generated code against a deliberately simple reference interpreter
of closures (``tests/reference``).  Rule coverage and the watched moves of ``check --simulate``
are options of the generator (``coverage=``, ``watch_empty=``).  Nothing walks the AST while a
game is played.

Cards are small ints (positions in the card table), zones are plain lists, players are seat
numbers from 0, and ``none`` is -1: every per-card table has one extra entry at its end, so
``table[-1]`` is the value for ``none`` with no test.

A frame is a list ``[rule, position, you, local0, local1, ...]`` (:class:`rulelang.kinds.Frame`
names the offsets): local slot ``i`` is at index ``Frame.slot(i)`` and ``you`` at ``Frame.YOU``
(slot -1).  What each name and construct was resolved to is a typed reference of
:mod:`rulelang.check.ir`, read with ``model.refs.of(node)``.
"""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.compile.codegen import ExprGen
from rulelang.compile.gensource import Unsupported
from rulelang.compile.passes import Fallback, resolve
from rulelang.compile.places import card_places, memory_zones
from rulelang.compile.stmtgen import StatementGen
from rulelang.compile.rulegen import RuleGen, not_recursive, rule_bodies
from rulelang.compile.copies import can_inline, copy_sizes, inlined_rules
from rulelang.check.model import Model
from rulelang.engine.control import DEFAULT_MAX_STEPS
from rulelang.compile.layout import Layout
from rulelang.compile.budget import Budget
from rulelang.compile.gameloop import GameLoop
from rulelang.compile.words import Words

MAX_CALL_CHAIN = 32     # rules called as Python functions, one inside another


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


class CompiledGame(Layout, Budget, GameLoop, Words):
    """A rule file compiled for one number of players and one set of option values."""

    def __init__(self, model: Model, n_players: int, max_steps: int = DEFAULT_MAX_STEPS,
                 coverage=None, watch_empty=False, layout_only=False, optimize=None):
        self.model = model
        # The optimisations on (compile/passes.py: a set of names; ``optimize`` as resolve
        # reads it), and where one that is on could not apply (``fell_back``).
        self.opts = resolve(optimize)
        self.fallbacks: list = []
        # The cheap tests of the endings written so far (ChoiceGen.endings_quick), by how the
        # zones are read where they are written.
        self.quick_endings: dict = {}
        # Whether some code reads `number of turns` (ExprGen.turns_read: noted as it is written).
        self.reads_turns = False
        # With a rulelang.compile.coverage.Coverage: count every rule, branch and alternative run
        # (the generated rules count each counted block where it starts: RuleGen.count).
        self.coverage = coverage
        # With watch_empty (``check --simulate``): every move of the top, bottom or a random card,
        # or of N cards, from a zone that has too few is noted in ``empty_moves`` (span -> (zone
        # label, cards it had)), by a check the generator writes before the move
        # (StatementGen.stmt).  A game compiled without it has no such check.
        self.empty_moves = {} if watch_empty else None
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
        self.out_base = self.var_base[model.out_var] if model.players_leave else None
        # Where the team and the partner of player 1 are, in a game with teams (else None).
        teams = model.teams
        self.team_base = self.var_base[A.TEAM] if teams is not None else None
        self.partner_base = self.var_base[A.PARTNER] if teams is not None else None
        self.flow = _turn_flow(model)
        # The cards are laid out by _build_cards, which computes the deck's constants with the
        # generator: until then the game has none (no card set is made of them: cardsets).
        self.deck_start: list = []
        self.gen = self._values()         # the layout's constants are generated functions too
        self._build_cards()
        self._build_played()
        self._build_attributes()
        if layout_only:
            # The game laid out, its rules not written (``layout_problems``): every problem a
            # number of players can cause is found by now (``problems``).
            return
        # Where the rules say the card of a reveal or show is (id of the statement -> zone):
        # the generated code names the zone instead of looking for the card.
        self.card_places = card_places(model)
        # The zones where what players remember may be: a playout notes the cards a move nobody
        # sees takes out of one (stmtgen's note_left, players.settle).
        self.memory_zones = memory_zones(model, self.card_places)
        self.stmts = StatementGen(self, self.gen)
        self.alternatives = [None] * len(model.alternatives)
        # alternative number -> what a set's words are worked out from (ChoiceGen.set_enum)
        self.set_choices: dict = {}
        self.procs: list = []
        self.proc_names: list = []
        self.proc_index: dict = {}
        self.rule_slots: dict = {}
        for name, r in model.rules.items():
            self.proc_index[name] = len(self.procs)
            self.procs.append(None)
            self.proc_names.append(name)
            self.rule_slots[name] = r.nslots
        self.endings = []
        for e, ctx, body_ctx in model.endings:
            per_player = self.gen.player_function(e.condition, ctx.nslots)
            pid = len(self.procs)
            self.procs.append(None)
            self.proc_names.append("<ending>")
            self.rule_slots[pid] = body_ctx.nslots
            self.endings.append((per_player, pid, body_ctx.nslots))
        self.ending_pids = frozenset(pid for _c, pid, _s in self.endings)   # (_ending_runs)
        self._generate_rules()
        self.endings_fast = None
        if self.on("endings_fast"):
            try:
                self.endings_fast = self.gen.endings_function(
                    [e.condition for e, _, _ in model.endings])
            except Unsupported as why:
                if model.endings:
                    self.fell_back("<endings>", "endings_fast", str(why))
        self.score_fn = self.gen.function(model.score.expr) if model.score is not None else None
        # `progress:` is read by the measures of `stats` only (never by the rules)
        self.progress_fn = (self.gen.function(model.progress.expr)
                            if model.progress is not None else None)
        # `returns:` is read by State.returns at the end of a game (never by the rules)
        self.returns_fn = (self.gen.function(model.returns.expr)
                           if model.returns is not None else None)
        # zone name -> (label, function, local slots, type): `show "LABEL" with ZONE: EXPR`
        self.show_fns = {z: (d.label, self.gen.function(d.expr), ctx.nslots, t)
                         for z, (d, ctx, t) in model.shows.items()}
        self._build_root()
        self.turn_proc = self.proc_index.get("turn", -1)
        # Where each alternative's body starts, and the local slot of its chosen value (for an
        # alternative without a value, the position slot, which the entry then overwrites: so
        # apply_action stores the value without testing for a slot first).
        self.entries = [(a.slot if a.slot >= 0 else 1, a.body_pc) if a is not None else (-1, -1)
                        for a in self.alternatives]

    @classmethod
    def layout_problems(cls, model: Model, n_players: int) -> list:
        """The problems of laying the game out for ``n_players`` (its cards, their attributes,
        the values of options: RL172, RL910...), without writing its rules.  Only the layout
        depends on the number of players in a way that can make a problem: ``rulelang check``
        compiles the rules for one number and asks this of the others."""
        return cls(model, n_players, layout_only=True).problems

    def on(self, name: str) -> bool:
        """Is the optimisation ``name`` (compile/passes.py) on for this game?"""
        return name in self.opts

    def fell_back(self, rule: str, name: str, why: str) -> None:
        """Note that the optimisation ``name``, on, could not apply to ``rule`` (``why``)."""
        f = Fallback(rule, name, why)
        if f not in self.fallbacks:
            self.fallbacks.append(f)

    def _values(self):
        """What compiles the game's values to functions: the generator (tests/reference has
        another, of closures)."""
        return ExprGen(self)

    def _generate_rules(self):
        """Each rule's function, generated (rulelang.compile.rulegen).  The generator writes every
        statement: one it cannot write raises Unsupported out of here (a bug of rulelang)."""
        bodies = [(self.proc_index[name], r.decl.body) for name, r in self.model.rules.items()]
        bodies += [(pid, e.body) for (_, pid, _), (e, _, _) in zip(self.endings, self.model.endings)]
        # The rules that never wait for a decision are called directly, as Python functions;
        # those among them that can be (compile/copies.py: decided on their tree) are written in
        # place of each call, their statements themselves.
        self.proc_blocks = {}
        copied = copy_sizes(self.model.rules, self.refs, self.out_base is not None) \
            if self.on("copies") else {}
        self.inline_bodies = {self.proc_index[name]: r.decl.body for name, r in self.model.rules.items()
                              if name in copied}
        direct = self._shallow({self.proc_index[n] for n in self._never_suspending()}) \
            if self.on("direct_calls") else set()
        self.inline_bodies = {pid: b for pid, b in self.inline_bodies.items() if pid in direct}
        # (the statements each copy writes, the rules it copies in counted in: RuleGen.in_place)
        self.in_place_sizes = {self.proc_index[name]: k for name, k in copied.items()}
        self.direct_rules = direct
        self.direct_names = frozenset(n for n, i in self.proc_index.items() if i in direct)
        # Rules that may wait for a decision but can never call themselves again (through any
        # chain of calls) are entered by a direct Python call too, their frame on the stack.
        self.entered_rules = self._shallow(
            {self.proc_index[n] for n in not_recursive(self.model.rules)}, "entered_rules") \
            if self.on("entered_rules") else set()
        # Of those, the rules a playout that cannot stop writes in place of their calls, their
        # decisions taken where they come (compile/copies.py: inlined_rules; RuleGen.inline_call).
        names = {i: n for n, i in self.proc_index.items()}
        inlined = inlined_rules(
            self.model.rules, self.refs, self.model, {names[p] for p in direct if p in names},
            {names[p] for p in self.entered_rules if p in names}, self.out_base is not None) \
            if self.on("inlined_calls") else {}
        self.inlined_rules = {self.proc_index[n] for n in inlined}
        self.inlined_sizes = {self.proc_index[n]: k for n, k in inlined.items()}
        # Whether the turn could be such a rule: its playout variant then has a structured copy
        # (RuleGen.structured_turn).
        turn = self.model.rules.get("turn")
        self.turn_in_place = turn is not None and self.on("structured_turn") and can_inline(
            turn, self.refs, self.model, frozenset(names[p] for p in direct if p in names) | set(inlined))
        if turn is not None and self.on("structured_turn") and not self.turn_in_place:
            self.fell_back("turn", "structured_turn",
                           "the turn cannot be written in place (copies.can_inline)")
        for pid, body in bodies:
            rg = RuleGen(self)
            fn, alt_blocks = rg.compile_rule(body, pid)
            self.proc_blocks[pid] = len(rg.written.blocks)      # its positions (checked in a save)
            self.procs[pid] = fn
            for aid, block in alt_blocks:
                self.alternatives[aid].body_pc = block

    def _shallow(self, pids: set, what: str = "direct_calls") -> set:
        """Of the rules ``pids`` (none of which can run itself again), those that keep every chain
        of them calling one another, as Python functions, at most MAX_CALL_CHAIN long; the others
        are called through the run loop, which keeps its frames in a list (a chain of thousands
        of rules, each running the next, exhausted Python's stack).  A chain is cut at its top: a
        rule that is called directly calls only rules that are (see _never_suspending)."""
        from rulelang.check.tree import _walk
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
                    self.fell_back(names[pid], what,
                                   f"a chain of calls longer than {MAX_CALL_CHAIN}")
        return keep

    def _never_suspending(self) -> set:
        """Rules that can never stop for a decision, so that they can be called as plain Python
        functions: no choice in them, no chain of calls leading back to them (a direct Python
        call must not recurse without bound), and every rule they call is one of these too (a
        rule called through the run loop would return to the frame of the caller's caller, which
        is not on the stack: the caller would be run again from its start)."""
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
            if not found_choose and name in plain:
                result.add(name)
        changed = True
        while changed:
            changed = False
            for name in list(result):
                if not calls[name] <= result:
                    result.discard(name)
                    changed = True
        return result
