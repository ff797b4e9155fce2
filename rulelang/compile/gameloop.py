"""The game loop: the root rule (setup, then turn after turn, the turn passed on, the endings
checked), the run loop that runs the rules' functions until a decision or the end (``run``,
``after``), a new game, playouts (``playout_procs``: the rules' playout variants) and the end of a
game (``finish``, ``problem_stop``).
"""
from __future__ import annotations

from typing import Optional

from rulelang.syntax import ast as A
from rulelang.engine.rng import seeded
from rulelang.limits import MAX_NUMBER, WORK_UNIT
from rulelang.kinds import PLAYED_BY
from rulelang.compile.rulegen import RuleGen
from rulelang.compile.writer import rule_span
from rulelang.engine.control import CALL, END_TURN, HALT, NO_DECISION, RETURN, SUSPEND, GameProblem
from rulelang.engine.runtime import GIVEN_FIELDS, State, state_maker
from rulelang.engine.players import out_ranking, seat_after, seat_in
from rulelang.compile.words import log_turn
from rulelang.check.teams import partner_seats, team_numbers


_OTHERS: dict = {}      # (players, the winners) -> the other seats, in order (finish)


def _others(n, winners) -> tuple:
    """The seats of a game of ``n`` players that are not among ``winners``, in seat order."""
    key = (n, *winners)
    hit = _OTHERS.get(key)
    if hit is None:
        hit = tuple(p for p in range(n) if p not in winners)
        if len(_OTHERS) < 4096:         # (winners are seats: the table stays small)
            _OTHERS[key] = hit
    return hit


class GameLoop:
    """Playing a compiled game (a mixin of ``CompiledGame``)."""

    # Made once per compiled game, when first needed (start_zones, _first_values, playout_procs).
    _start_zones = _var_inits = _playout_procs = _maker = _var_init_cache = None
    # How the turn in the frame above the root goes on (_build_root; None: a game without turn).
    _turn_spec = None

    def finish(self, g, winners, outcome, ranking=None, scores=None):
        g.terminal = True
        g.stack[:] = [[self.root, self.root_halt, 0]]   # (a finished game runs no rule: _halted)
        g.winners = winners
        g.outcome = outcome
        if ranking is None and self.out_base is not None:
            ranking = out_ranking(g, winners, self.out_base)
        if ranking is None:
            ranking = list(winners)
            ranking += _others(g.n, ranking) if ranking else range(g.n)
        g.ranking = ranking
        g.awaiting = NO_DECISION           # (State.decision)
        if g.log is not None:
            g.log.append(("end", outcome, list(winners), scores))

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
        fast = self.endings_fast
        if fast is not None:
            hit = fast(g)
            if hit is None:
                return False
            stack = g.stack
            if len(stack) > 1 and stack[1][0] in self.ending_pids:     # (_ending_runs)
                return False
            k, p = hit
            _cond, pid, body_slots = self.endings[k]
            stack[:] = [[self.root, self.root_halt, 0], [pid, 0, p] + [0] * body_slots]
            return True
        n = self.n
        ob = self.out_base
        everyone_out = ob is not None and all(g.vars[ob:ob + n])
        for cond, pid, body_slots in self.endings:
            for k in range(n):
                p = (g.cur + g.dir * k) % n
                if ob is not None and g.vars[ob + p] and everyone_out is False:
                    continue                # a player who is out is not checked
                if cond(g, p):
                    if self._ending_runs(g):
                        return False
                    g.stack[:] = [[self.root, self.root_halt, 0],
                                  [pid, 0, p] + [0] * body_slots]
                    return True
        return False

    def _ending_runs(self, g) -> bool:
        """Is the body of a `game ends when` running (it asks for a decision, before which the
        endings are checked again)?  Then the game is already ending: its body goes on, instead of
        starting again before every decision, for ever (a fuzz finding: no step was charged)."""
        stack = g.stack
        return len(stack) > 1 and stack[1][0] in self.ending_pids

    def _build_root(self):
        setup = self.proc_index.get("setup")
        turn = self.proc_index.get("turn")
        n = self.n
        turn_pad = [0] * self.rule_slots.get("turn", 0)
        setup_pad = [0] * self.rule_slots.get("setup", 0)
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

        def make_root(procs):
            """The root for the rules' functions ``procs`` (the API's, or a playout's:
            ``playout_procs``, so that a playout plays every turn in the playout variants)."""
            def root(g, fr, pc):
                """The game: 0 runs setup, 1 begins a turn, 2 passes the turn on, 3 and 4 end.
                The setup and the generated turn rule are called directly (their frames pushed
                first), and turn follows turn in this loop until a rule must stop (a decision, a
                call, the end)."""
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
                        if setup is not None:       # called here, as the turn is
                            sf = [setup, 0, g.cur] + setup_pad
                            stack.append(sf)
                            pc = procs[setup](g, sf, 0)
                            if pc != RETURN:
                                return pc
                            stack.pop()
                        pc = 1
                    elif pc != 1:
                        if not g.terminal:
                            self.finish(g, [], "draw")
                        return HALT
            return root

        def no_turn(g, fr, pc):
            """The turn's place in a game without `turn:` (the root stops it first, RL151); a
            game with one puts its generated turn here (_generate_turn)."""
            raise GameProblem("RL151", "the game has no `turn:`")

        self.root = len(self.procs)
        self.root_halt = 4
        self._make_root = make_root
        self.procs.append(make_root(procs))
        self.proc_names.append("<game>")
        turn_top = self.turn_top = len(self.procs)     # the turn, run in the frame above the root
        self.procs.append(no_turn)
        self.proc_names.append("turn")
        if turn is not None:
            def over(g):
                raise GameProblem("RL901", max_steps_error.format(g.max_steps) + turn_why,
                                  turn_span)
            self._turn_spec = (check_first, turn_pad, over)    # (for playout_procs)
            self._generate_turn()

    def _generate_turn(self):
        """The turn in the frame above the root: the generated turn rule, which itself goes on
        to the next turn where it ends (``RuleGen(next_turn=...)``); passing the turn on is
        written there and, for a turn that returns, in the root (position 2)."""
        turn = self.proc_index["turn"]
        if not self.on("looping_turn"):
            # (the plain path: the turn's own function in the frame above the root, which
            # passes the turn on where it returns, position 2)
            self.procs[self.turn_top] = self.procs[turn]
            self.proc_blocks[self.turn_top] = self.proc_blocks[turn]
            return
        rg = RuleGen(self)
        looping, _ = rg.compile_rule(self.model.rules["turn"].decl.body, turn,
                                     next_turn=self._turn_spec)
        self.procs[self.turn_top] = looping
        self.proc_blocks[self.turn_top] = len(rg.written.blocks)

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
        g.stack[:] = [[self.root, self.root_halt, 0]]   # (as finish)
        g.outcome = "error"
        g.winners = []
        g.ranking = []
        g.awaiting = NO_DECISION           # (State.decision)
        sp = e.span if e.span is not None else rule_span(e.__traceback__)
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
                pc = code(g, fr, fr[1])     # a rule runs until it must stop
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

    def start_zones(self) -> list:
        """Where the cards lie before setup: for each zone, its cards (made once: not to be
        changed)."""
        start = self._start_zones
        if start is None:
            start = [[] for _ in self.zone_info]
            for cid, zi in enumerate(self.deck_start):
                start[zi].append(cid)
            self._start_zones = start
        return start

    def new_game(self, seed: int = 0, log: bool = False, max_steps: Optional[int] = None) -> State:
        """The position after setup, at the first decision."""
        g = self._unbegun(seed, log, max_steps)
        if not g.terminal:
            self.run(g)
        return g

    def _unbegun(self, seed: int, log: bool, max_steps: Optional[int]) -> State:
        """A game before its setup: the deck where it starts, the variables at their first
        values, the root's frame alone on the stack (stopped with a problem if a first value
        cannot be computed)."""
        make = self._maker
        if make is None:
            make = self._maker = self._state_maker()
        g = make(seed, log, max_steps)
        computed = self._var_inits[1]
        if computed:
            vs = g.vars
            try:
                for i, init, frame in computed:
                    vs[i] = int(init(g, frame[:]))
            except GameProblem as e:       # a first value divided by zero, or too large
                self.problem_stop(g, e)
        return g

    def _state_maker(self):
        """The function ``(seed, log, max_steps)`` that makes a game before its setup (made once
        per compiled game, as the State's own functions are written from its FIELDS): the deck
        where it starts, the variables whose first value is known, the generator, the root's
        frame.  Only names and numbers are in its source."""
        start = self.start_zones()
        inits = self._var_inits = self._var_inits or self._first_values()
        zones = ", ".join(f"_z{i}[:]" if cards else "[]" for i, cards in enumerate(start))
        given = {"zones": f"s.zones = [{zones}]",
                 "vars": "s.vars = _known[:]",
                 "stack": f"s.stack = [[{int(self.root)}, 0, 0]]",
                 "rng": "s.rng = _seeded(seed)",
                 "log": "s.log = [] if log else None",
                 "max_steps": f"s.max_steps = max_steps or {int(self.max_steps)}"}
        names = {f"_z{i}": cards for i, cards in enumerate(start) if cards}
        names.update(cls=State, game=self, _known=inits[0], _seeded=seeded)
        return state_maker("unbegun", "seed, log, max_steps", [given[f] for f in GIVEN_FIELDS],
                           names, "A game of this compiled game before its setup (_unbegun).")

    def _first_values(self) -> tuple:
        """``(values, computed)`` (made once): the variables' first values known before the game
        (a constant: the value its generated function returns, ExprGen.fold), 0 for the others;
        and for each of those, in order, ``(index, function of its first value, the frame it is
        evaluated in)`` (new_game gives each a copy of its frame)."""
        nslots = self.model.var_ctx.nslots
        fold = self.gen.fold
        values, computed = [0] * len(self.var_info), []
        for i, (name, owner, typ) in enumerate(self.var_info):
            if name == PLAYED_BY:               # nobody has played a card yet
                values[i] = -1
                continue
            v = fold.known(self.model.vars[name].decl.init)
            if type(v) is int and -MAX_NUMBER <= v <= MAX_NUMBER:
                values[i] = v
            else:
                computed.append((i, self._var_init[name], self._scratch(nslots, max(owner, 0))))
        if self.team_base is not None:          # each player's team and partner, as declared
            teams = team_numbers(self.model.teams, self.n)
            values[self.team_base:self.team_base + self.n] = teams
            values[self.partner_base:self.partner_base + self.n] = partner_seats(teams)
        return values, computed

    def playout(self, seed: int, policy, max_steps: Optional[int] = None,
                skip_forced: bool = False) -> State:
        """A whole game played on the fast path (:meth:`State.playout`): the final state, the
        same as ``new_game(seed=seed)`` and then ``playout(policy, skip_forced=...)``.  The setup
        and the first turn run in the playout variants too: the first decision is taken in
        place, not made into the API's list of legal actions first."""
        return self.playout_counted(seed, policy, max_steps, skip_forced)[0]

    def playout_counted(self, seed: int, policy, max_steps: Optional[int] = None,
                        skip_forced: bool = False) -> tuple:
        """:meth:`playout`, and what :meth:`State.playout` counts: ``(state, (decisions,
        choices offered in all, forced decisions))``."""
        g = self._unbegun(seed, False, max_steps)
        counts = (0, 0, 0) if g.terminal else g.playout(policy, _begin=True,
                                                        skip_forced=skip_forced)
        return g, counts

    def playout_procs(self) -> list:
        """The rules' functions for ``State.playout``: for each generated rule that may decide, its
        playout variant (``RuleGen(playout=True)``), which asks the playout's policy at each
        decision and goes on in place instead of returning to the driver; the other entries are
        those of ``procs``.  A variant has the blocks and frame of its rule (a frame stopped by
        one is resumed by the other), so the API can go on from where a playout stopped.  Made
        on the first playout, once per compiled game."""
        pp = self._playout_procs
        if pp is not None:
            return pp
        if not self.on("playout_variant"):     # (the plain path: the API's functions)
            self._playout_procs = pp = self.procs
            return pp
        pp = list(self.procs)
        pp[self.root] = self._make_root(pp)
        self.gen.ns["_pprocs"] = pp
        bodies = [(self.proc_index[name], r.decl.body) for name, r in self.model.rules.items()]
        bodies += [(pid, e.body) for (_, pid, _), (e, _, _) in zip(self.endings, self.model.endings)]
        # The rules that never decide have variants too, and so have the bodies written where
        # they are called (RuleGen.direct_call, in the playout variant of the caller): a playout
        # records no move (rulelang/engine/events.py), so not even the question whether to
        # record one is asked.
        for pid, body in bodies:
            rg = RuleGen(self, playout=True)
            fn, _ = rg.compile_rule(body, pid)
            if len(rg.written.blocks) == self.proc_blocks[pid]:
                pp[pid] = fn
            else:
                self.fell_back(self.proc_names[pid], "playout_variant",
                               "its variant has other blocks than its rule")
        top, spec = self.turn_top, self._turn_spec
        if spec is not None and not self.on("looping_turn"):
            pp[top] = pp[self.turn_proc]
        elif spec is not None:
            rg = RuleGen(self, playout=True)
            fn, _ = rg.compile_rule(self.model.rules["turn"].decl.body, self.turn_proc,
                                    next_turn=spec)
            if len(rg.written.blocks) == self.proc_blocks[top]:
                pp[top] = fn
            else:
                self.fell_back("turn", "playout_variant",
                               "its variant has other blocks than its rule")
        self._playout_procs = pp
        return pp

    @property
    def _var_init(self):
        cache = self._var_init_cache
        if cache is None:
            cache = {name: self.gen.function(v.decl.init) for name, v in self.model.vars.items()}
            self._var_init_cache = cache
        return cache
