"""Whole rules compiled to one generated Python function each.

The compiler (:mod:`rulelang.compile.compiler`) has :class:`RuleGen` turn each rule into a single function
``f(g, fr, pc)`` that runs until the rule must stop: at a decision (SUSPEND), a call of another
rule (CALL, with ``fr[1]`` set to where to resume), its end (RETURN), the end of the turn or of
the game.  Inside, code without decisions or calls is ordinary structured Python (``if``,
``while``); only the places where the rule can be resumed (the body of each alternative, the
statement after a call) are blocks chosen by ``pc``.

The generated source obeys the rules of :mod:`rulelang.compile.gensource` (no text of the rule file in
it; checked by ``_safe``).  A statement this module does not know raises Unsupported (a bug).
:class:`RuleGen` is written in parts: this module (the function, its statements, loops, calls and
the next turn), :mod:`~rulelang.compile.blocks` (the blocks and jumps),
:mod:`~rulelang.compile.choicegen` (decisions) and :mod:`~rulelang.compile.playoutgen` (the playout
variant); the helpers its code calls are in :mod:`~rulelang.compile.genruntime`.
"""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.kinds import Frame
from rulelang.check.ir import DefineUse, Local
from rulelang.check.model import Arg, Expanded
from rulelang.check.tree import _walk
from rulelang.compile.gensource import Unsupported
from rulelang.compile.genruntime import _bad_pc, _dec, _no_choice, _nextcard, _nextvalue
from rulelang.compile.blocks import Blocks
from rulelang.compile.writer import CodeWriter, Pass
from rulelang.compile.choicegen import ChoiceGen
from rulelang.compile.playoutgen import PlayoutGen

from rulelang.compile.context import Context, FunctionScope
from rulelang.engine.control import CALL, END_TURN, HALT, RETURN


def _suspends(st, direct_names=frozenset()) -> bool:
    """Does this statement (or anything in it) wait for a decision, or call a rule through the
    run loop?  (Rules in ``direct_names`` are called as plain functions.)"""
    if isinstance(st, A.Choose):
        return True
    if isinstance(st, A.CallRule) and st.name not in direct_names:
        return True
    for body in rule_bodies(st):
        if any(_suspends(s, direct_names) for s in body):
            return True
    return False


# Python refuses a function with more than 20 loops one inside another ("too many statically
# nested blocks") or 100 levels of indentation.  A statement with more than this many statements
# one inside another is written as blocks of the rule's function (as a statement that waits for
# a decision is), each of its bodies again so, until what is left nests no deeper than this.
MAX_INLINE_DEPTH = 8

# A rule's generated function holds at most this many statements of rules written in place of
# their calls (RuleGen.in_place; compile/copies.py): beyond it, a call stays a call.  A file
# calling a rule of 60 statements four hundred times made one function of 24,000 copied
# statements, which took Python seconds and hundreds of megabytes to compile (minutes, and a
# worker killed, once the rule decided and was written in place in a playout too).
MAX_IN_PLACE = 1024


def _depth(st) -> int:
    """How many statements with bodies (``if``, loops, ``choose``) ``st`` is, one inside another."""
    inner = [_depth(s) for body in rule_bodies(st) for s in body]
    if inner or isinstance(st, (A.If, A.Loop, A.ForPlayer, A.ForCard, A.ForValue, A.Choose)):
        return 1 + max(inner, default=0)
    return 0


def rule_bodies(st):
    """The statement lists inside a statement (branches, loop bodies, alternatives)."""
    if isinstance(st, A.If):
        for _, body in st.branches:
            yield body
        if st.otherwise:
            yield st.otherwise
    elif isinstance(st, (A.Loop, A.ForPlayer, A.ForCard, A.ForValue)):
        yield st.body
    elif isinstance(st, A.Choose):
        for alt in st.alternatives:
            yield alt.body


def not_recursive(rules) -> set:
    """Names of the rules that no chain of calls leads back to (so a chain of direct Python
    calls through them is never deeper than the number of rules)."""
    calls = {}
    for name, r in rules.items():
        found, todo = set(), list(r.decl.body)
        while todo:
            st = todo.pop()
            if isinstance(st, A.CallRule):
                found.add(st.name)
            for body in rule_bodies(st):
                todo.extend(body)
        calls[name] = found
    # The rules in no cycle of the call graph: each strongly connected component of one rule
    # that does not call itself (Tarjan's algorithm, iterative; linear in the calls: following
    # every chain from every rule was quadratic, seconds for a chain of a thousand rules).
    index, low, on_stack, stack, out = {}, {}, set(), [], set()
    for root in calls:
        if root in index:
            continue
        work = [(root, iter(calls[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            for n in it:
                if n not in calls:
                    continue
                if n not in index:
                    index[n] = low[n] = len(index)
                    stack.append(n)
                    on_stack.add(n)
                    work.append((n, iter(calls[n])))
                    break
                if n in on_stack:
                    low[node] = min(low[node], index[n])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        n = stack.pop()
                        on_stack.discard(n)
                        component.append(n)
                        if n == node:
                            break
                    if len(component) == 1 and node not in calls[node]:
                        out.add(node)
    return out


class RuleGen(Blocks, ChoiceGen, PlayoutGen):
    """Generates the function of one rule for the compiled game ``cg``."""

    def __init__(self, cg, playout=False):
        self.cg = cg
        # Which function it writes: the playout variant (see ``playout_decision``: decisions are
        # taken in place) or the API's; compile_rule makes the context of the function from it.
        self.variant = "playout" if playout else "api"
        self.x = cg.gen
        self.s = cg.stmts
        self.refs = cg.refs
        # The rules called as Python functions, by number and by name (CompiledGame decides
        # them before any rule is written).
        self.direct, self.direct_names = cg.direct_rules, cg.direct_names

    def compile_rule(self, body, pid, next_turn=None):
        """The function of one rule.  With ``next_turn`` (the game's turn, run in the frame
        right above the root): where the rule ends, the next turn begins in the same frame and
        the function goes on, as the root would do it (see CompiledGame._build_root)."""
        # The playout variant of the turn that goes on from turn to turn counts the steps of the
        # budget in locals (step, held_step): _sr, what the budget has left plus one, counted
        # down, and _s0, what it was when the steps last reached the state (they are added,
        # _s0 - _sr, before a call of another rule's function, which counts on the state, and
        # wherever the function is left).  A step of one: `_sr -= 1` and `if not _sr`, the
        # budget spent when it reaches 0 (it is never below 1 while the function runs).
        cg = self.cg
        looping = next_turn is not None         # (the turn going on from turn to turn)
        # (and the playout variant, and that turn, hold what they read most of the state in
        # locals, ExprGen.state, bound by the function's first line)
        playout = self.variant == "playout"
        # (the running state of this function alone: compile/context.py)
        scope = FunctionScope(pid=pid, first_stmt=body[0] if body else None,
                              in_place_left=MAX_IN_PLACE)
        cx = Context(
            playout=playout, looping=looping,
            held=(playout or looping) and cg.on("held_state"),
            steps_held=playout and looping and cg.on("steps_held"),
            counts_held=playout and looping and cg.on("counts_held"),
            reads=scope.reads, scope=scope)
        cur = self.new_block(cx)
        # (its statements read the state's parts from the locals the function binds, if held)
        bcx = cx.evolve(hold=cx.held)
        cur = self.stmts(bcx, body, cur)
        if next_turn is None:
            self.close(cur, RETURN)
        else:
            nt = self.new_block(cx)     # the last block: the other blocks keep their numbers
            self.goto(cur, nt)
            self.next_turn_block(bcx, nt, next_turn)
        self.structured, turns = (self.structured_turn(bcx, body, next_turn, MAX_IN_PLACE)
                                  if cx.playout and next_turn is not None else (None, False))
        if cg.on("jump_threading"):
            self.thread_jumps(cx)
        if next_turn is not None and cg.on("inline_next_turn"):
            self.inline_block(cx, nt)
        if cx.playout and cg.on("expand_entries"):
            self.expand_entries(cx)
        w = CodeWriter()
        w.writeline("def _f(g, fr, pc):")
        with w.indent():
            held = [h for h in (self.x.held_line(scope.reads),) if h]
            if cx.scope.picks_counted:
                held.append("_dc = _ch = _fo = 0")
            if turns:
                held.append("_tn = 0")
            if cx.steps_held:
                held.append("_sr = _s0 = g.max_steps - g.steps + 1")
            if held:
                w.writeline("; ".join(held))
            if cx.scope.picks_counted or cx.steps_held:
                # The counts of the decisions and steps made here reach the state however the
                # function is left (a return, a GameProblem).
                w.writeline("try:")
                with w.indent():
                    self.loop_over_blocks(cx, w)
                w.writeline("finally:")
                with w.indent():
                    if cx.scope.picks_counted:
                        w.writeline("g.decisions += _dc; g._ch += _ch; g._fo += _fo")
                    if turns:
                        w.writeline("g.turns += _tn")
                    if cx.steps_held:
                        w.writeline("g.steps += _s0 - _sr")
            else:
                self.loop_over_blocks(cx, w)
        self.src = src = w.source()         # (kept: what was compiled, for a reader or a test)
        self.line_map = w.line_map()
        self.x.ns["_bad"] = _bad_pc
        self.x.ns["_over"] = self._over
        self.x.ns["_noch"] = _no_choice
        self.x.ns["_ck"] = self.cg.check_endings
        self.x.ns["_procs"] = self.cg.procs
        self.x.ns["_dec"] = _dec
        self.x.ns["_nextcard"] = _nextcard
        self.x.ns["_nextvalue"] = _nextvalue
        self.written = scope
        return self.x._compile(src, self.line_map), scope.alt_blocks

    # What compile_rule wrote: the nodes of the structured turn, or None; the source and the
    # rule-file span of each of its lines; the function's scope, once written (its blocks and
    # where its alternatives begin: CompiledGame checks a variant's blocks against its rule's).
    structured = None
    src = line_map = written = None

    def loop_over_blocks(self, cx, w):
        """``while True:`` over the blocks, chosen by ``pc``."""
        w.writeline("while True:")
        with w.indent():
            if self.structured:         # (PlayoutGen.structured_turn)
                w.extend(self.structured)
            self.dispatch(cx.scope.blocks, w, self.tested_first(cx))
            w.writeline("raise _bad(pc)")

    def step(self, cx, w, span=None, cost=1):
        """One step of the budget, charged ``cost`` (CompiledGame.charge: the size of what it
        evaluates)."""
        over = f"_over(g, {self.x.const(span)}{', ' + str(int(cost)) if cost > 1 else ''})"
        if cx.steps_held:           # (counted in locals: see compile_rule)
            self.held_step(w, cost, over)
            return
        w.writeline(f"g.steps += {int(cost)}")
        w.writeline(f"if g.steps > {self.max_steps(cx)}: {over}")

    def max_steps(self, cx) -> str:
        """How the budget's bound is read: from a local in a playout variant (which may take
        many steps per call), from the state in the API's function, which is entered again at
        every decision and takes a step or two each time (binding the local would cost more
        than it saves)."""
        return self.x.state(cx, "max_steps") if cx.playout else "g.max_steps"

    @staticmethod
    def held_step(w, cost, over):
        """A step charged ``cost``, counted down in ``_sr`` (see compile_rule); ``over``: the
        call that stops the game when the budget is spent."""
        w.writeline(f"_sr -= {int(cost)}")
        w.writeline(f"if not _sr: {over}" if int(cost) == 1 else f"if _sr <= 0: {over}")

    def calling(self, cx, w, call):
        """The line ``call`` (of another rule's function, which counts steps on the state),
        written by ``w``: in a function that counts its steps in locals, they are added to the
        state first and what the budget has left is read again after."""
        if cx.steps_held:
            w.writeline("g.steps += _s0 - _sr; _s0 = _sr")
        w.writeline(call)
        if cx.steps_held:
            w.writeline("_sr = _s0 = g.max_steps - g.steps + 1")

    @staticmethod
    def _over(g, span, cost=1):
        from rulelang.compile.budget import over_budget
        raise over_budget(g, span, cost)

    # ---- statements ---------------------------------------------------------------------------
    def count(self, body, w):
        """A game compiled with coverage (``CompiledGame(coverage=...)``): where a counted block
        (a rule, a branch, an alternative) starts, its counter goes up by one."""
        cov = self.cg.coverage
        i = cov.point(body) if cov is not None else None
        if i is not None:
            self.x.ns["_cov"] = cov.count
            w.writeline(f"_cov({int(i)})")

    def stmts(self, cx, body, cur):
        """The statements of ``body`` from the block ``cur`` on; the block where they end."""
        if not cur.closed:
            self.count(body, cur.w)
        for st in body:
            if cur.closed:                 # code after return/stop can never run
                break
            if _suspends(st, self.direct_names) or _depth(st) > MAX_INLINE_DEPTH:
                with cur.w.spanning(st.span):   # (what it writes in the block it begins in)
                    cur = self.suspending(cx, st, cur)
            else:
                with cur.w.spanning(st.span):
                    self.inline(cx, st, cur.w)
                if isinstance(st, (A.EndGame,)) or (isinstance(st, A.Simple) and
                                                     st.word in ("return", "end turn", "stop")):
                    cur.closed = True
        return cur

    def inline(self, cx, st, w):
        """A statement with no decision or call in it, as structured code (written by ``w``)."""
        if isinstance(st, A.Simple):
            word = st.word
            if word == "stop":
                kind, end = cx.scope.loops[-1]
                if kind == "inline":
                    w.writeline("break")
                else:
                    self.jump(w, end.number)
            elif word == "return":
                w.ret(RETURN)
            elif word == "end turn":
                w.ret(END_TURN)
            else:
                self.s.stmt(cx, st, w)
            return
        if isinstance(st, A.EndGame):
            self.s.stmt(cx, st, w)
            w.ret(HALT)
            return
        if isinstance(st, A.If):
            start = w.position()
            empty = self.inline_if(cx, st.branches, st.otherwise, w)     # (ChoiceGen)
            if empty and self.cg.on("empty_if") and not any(
                    self.x.fold.chance(c) or self.x.fold.may_fail(c) for c, _ in st.branches):
                # Nothing to do whichever branch is taken, and asking which can neither roll a
                # die nor stop the game: the `if` is left out (Power Attack!'s `clear_field`
                # tells who takes the cards with `say`s, which a playout does not run).
                w.truncate(start)
            return
        # A loop whose body never waits for a decision runs to its end in one call: what it
        # counts with (the times left, the players or cards still to come) is Python's own
        # loop, not a slot of the frame, which only a loop that waits must keep (_block_loop).
        if isinstance(st, A.Loop):
            if st.kind == "times":
                w.writeline(f"for {self.x.fresh()} in range({self.x.gen(cx, st.expr, {})}):")
            elif st.kind == "while":
                w.writeline(f"while {self.x.gen(cx, st.expr, {})}:")
            elif st.kind == "until":
                w.writeline(f"while not {self.x.gen(cx, st.expr, {})}:")
            else:
                w.writeline("while True:")
            with w.indent():
                self.loop_body(cx, st.body, w, span=st.span, cost=self.cg.charge(st))
            return
        if isinstance(st, A.ForPlayer):
            r = self.refs.of(st)
            pi, ki = Frame.slot(r.player), Frame.slot(r.count)
            start = self.x.gen(cx, st.start, {}) if st.start is not None else "g.cur"
            n = int(self.cg.n)
            if self.cg.out_base is None and not self.x.reverses and self.cg.on("player_order") and \
                    not self._sets_slot(st.body, r.player):
                # The players in the order of play from the first, in Python's loop; when the
                # loop ends the slot is the first player again, as each round's step leaves it.
                order = self.x.const(tuple(tuple((s + k) % n for k in range(n)) for s in range(n)))
                p = self.x.slot(cx, pi, {})
                w.writeline(f"for {p} in {order}[{start}]:")
                with w.indent():
                    self.loop_body(cx, st.body, w, span=st.span, cost=self.cg.charge(st))
                if pi not in cx.base_env:
                    # (a slot of a rule copied in place is a Python local of the copy, which
                    # nothing reads after the loop: its name is the loop's; a frame's slot may
                    # be saved, and holds what the API's loop leaves in it)
                    w.writeline("else:")
                    with w.indent():
                        w.writeline(f"{p} = ({p} + 1) % {n}")
                return
            p = self.x.slot(cx, pi, {})
            w.writeline(f"{p} = {start}")
            if self.cg.out_base is not None:      # over the players still in the game
                # (in the frame: no rule with such a loop and a local is copied, copies.can_copy)
                fr = self.x.frame(cx)
                w.writeline(f"{fr}[{ki}] = {n}")
                w.writeline(f"while _nin(g, {fr}, {ki}, {pi}, {int(self.cg.out_base)}):")
            else:
                w.writeline(f"for {self.x.fresh()} in range({n}):")
            with w.indent():
                self.loop_body(cx, st.body, w, span=st.span, cost=self.cg.charge(st),
                               after=[f"{p} = ({p} + {self.dir()}) % {n}"])
            return
        if isinstance(st, A.ForCard):
            r = self.refs.of(st)
            self.for_each(cx, st, w, f"tuple({self.x.zone(cx, self.x.gen(cx, st.zone, {}))})", Frame.slot(r.card))
            return
        if isinstance(st, A.ForValue):
            r = self.refs.of(st)
            self.for_each(cx, st, w, self.x.const(self.cg.values_of(st.kind)), Frame.slot(r.value))
            return
        if isinstance(st, A.CallRule) and st.name in self.direct_names:
            self.direct_call(cx, st, w)
            return
        if cx.inlining and isinstance(st, A.Choose):
            self.inline_choose(cx, st, w)
            return
        if cx.inlining and isinstance(st, A.CallRule) and \
                self.cg.proc_index.get(st.name) in self.cg.inlined_rules:
            if cx.structuring and not self.in_place(cx, self.cg.inlined_sizes[self.cg.proc_index[st.name]]):
                raise Unsupported("the turn's copies would be too large")   # (structured_turn)
            self.step(cx, w, st.span, self.cg.charge(self.cg.model.rules[st.name].decl.body))
            self.inline_call(cx, st, w, cx.scope.call_lists.pop(id(st), (None, None))[1])
            return
        if self.s.is_simple(st):
            self.s.stmt(cx, st, w)
            return
        raise Unsupported(type(st).__name__)

    def first_define(self, cond, body):
        """The copy of the define D when ``body`` begins with ``set V to D`` and ``cond``
        computes D whatever happens at its first use (ExprNodes.sure_defines); else None."""
        if not body or not isinstance(body[0], A.Assign):
            return None
        v = body[0].value
        ref = self.refs.of(v, None) if isinstance(v, (A.Name, A.Call, A.Of)) else None
        d = ref.expanded if isinstance(ref, DefineUse) else None
        return d if d is not None and id(d) in self.x.sure_defines(cond) else None

    def _sets_slot(self, body, slot) -> bool:
        """Does a ``set`` in ``body`` change the local ``slot`` (a loop's player)?"""
        return any(isinstance(x, A.Assign) and isinstance(self.refs.of(x.target, None), Local)
                   and self.refs.of(x.target).slot == slot for x in _walk(body))

    def for_each(self, cx, st, w, seq, item):
        """The loop of ``for each card in Z`` and ``for each suit/rank`` that never waits: each
        element of ``seq`` (code for a sequence that does not change meanwhile: the cards as
        they were when the loop began) in the frame slot ``item`` in turn, and ``st``'s body
        runs for each."""
        w.writeline(f"for {self.x.slot(cx, item, {})} in {seq}:")
        with w.indent():
            self.loop_body(cx, st.body, w, span=st.span, cost=self.cg.charge(st))

    def direct_call(self, cx, st, w):
        """Call a rule that never waits for a decision as a Python function: its frame is never
        saved, because no state can be observed while it runs."""
        cg = self.cg
        pid = cg.proc_index[st.name]
        nslots = cg.model.rules[st.name].nslots
        args = [self.x.gen(cx, a, {}) for a in st.args]
        # (in a rule's body copied in place of its call, `you` is the caller's player: x.slot)
        you = self.x.gen(cx, st.for_player, {}) if st.for_player is not None else \
            self.x.slot(cx, int(self.refs.of(st).index), {})
        frame = ", ".join([str(int(pid)), "0", you] + args + ["0"] * (nslots - len(args)))
        self.step(cx, w, st.span, cg.charge(cg.model.rules[st.name].decl.body))
        body = cg.inline_bodies.get(pid)
        if body is not None and self.in_place(cx, cg.in_place_sizes[pid]):
            # a rule that never decides (see compile/copies.py): written in place
            self.copy_rule(cx, st, body, nslots, args, you, w)
            return
        if body is not None:
            cg.fell_back(cg.proc_names[cx.scope.pid], "copies",
                         f"the copies of its calls would pass {MAX_IN_PLACE} statements")
        rc = self.x.fresh()
        procs = "_pprocs" if cx.playout else "_procs"     # a playout never logs (see below)
        self.calling(cx, w, f"{rc} = {procs}[{int(pid)}](g, [{frame}], 0)")
        w.writeline(f"if {rc} != {RETURN}: return {rc}")

    def in_place(self, cx, size) -> bool:
        """May this function write in place a rule of ``size`` statements (the rules written in
        it counted in)?  At most MAX_IN_PLACE in all, a copy's own copies not counted again."""
        if cx.copying:              # (inside a copy: counted with it)
            return True
        if size > cx.scope.in_place_left:
            return False
        cx.scope.in_place_left -= size
        return True

    def copy_rule(self, cx, st, body, nslots, args, you, w):
        """The ``body`` of the rule ``st`` calls, written in place of the call: its `you` being
        the caller's player (the `you` of a copy, in a copy's copy; the code ``you``), its
        parameters and locals (``nslots``) Python locals of the copy, set as the frame's slots
        would be (the arguments, code ``args``, in order; the others as the copy sets them)."""
        frame = self._is_slot(st.for_player) and (st.for_player is not None or
                                                   not cx.base_env or cx.base_frame)
        if not frame:
            y = self.x.fresh()
            w.writeline(f"{y} = {you}")
            you = y
        slots = {Frame.slot(i): self.x.fresh() for i in range(nslots)}
        for i, a in enumerate(args):
            w.writeline(f"{slots[Frame.slot(i)]} = {a}")
        # (its other slots are not set to 0, as a frame's are: a name of the rules is in scope
        # only after what sets it, so each is set in the copy before it is read)
        cx = self.x.you_as(cx.evolve(copying=cx.copying + 1), you, frame, slots)
        self.count(body, w)
        for s in body:
            with w.spanning(s.span):
                self.inline(cx, s, w)

    def inline_call(self, cx, st, w, listed=None, args=None, you=None):
        """In a playout that cannot stop (an index policy, no budget: ``_pk`` is set), a call of
        a rule that may decide (``copies.can_inline``) written in place like a copy
        (:meth:`copy_rule`), its decisions taken where they come (``inline_choose``): no frame,
        no push, no call.  ``listed``: the list an ``if`` made for the choice the rule begins
        with (``ChoiceGen.prelist``).  The caller's ``args`` and ``you`` when it has them."""
        rule = self.cg.model.rules[st.name]
        if args is None:
            args = [self.x.gen(cx, a, {}) for a in st.args]
            you = self.x.gen(cx, st.for_player, {}) if st.for_player is not None else \
                self.x.slot(cx, int(self.refs.of(st).index), {})
        if listed is not None:
            cx.scope.prelisted[id(self.listed_choice(rule.decl.body).alternatives[0])] = listed
        self.copy_rule(cx.evolve(inlining=cx.inlining + 1), st, rule.decl.body, rule.nslots, args,
                       you, w)

    def _is_slot(self, e):
        """Is the player a rule is run for (None: ``you``) a local or ``you``, whose code is a
        slot of the frame (``fr[i]``), cheap to copy where the rule's body is copied?"""
        while True:
            if e is None:
                return True
            if isinstance(e, Expanded):
                e = e.body
            elif isinstance(e, Arg):
                e = e.expr
            elif isinstance(e, (A.Name, A.Call, A.Of)) and \
                    isinstance(self.refs.of(e, None), DefineUse):
                e = self.refs.of(e).expanded
            elif isinstance(e, A.Keyword):
                return e.word == "you"
            elif isinstance(e, A.Name):
                return isinstance(self.refs.of(e, None), Local)
            else:
                return False

    def inline_body(self, cx, body, w) -> bool:
        """The statements of a branch, at ``w``'s level (``pass`` when there is none).  Returns
        whether there was none (nothing written but ``pass``)."""
        start = w.position()
        self.count(body, w)
        for i, st in enumerate(body):
            # (a define's value kept is kept for the first statement only)
            with w.spanning(st.span):
                self.inline(cx.evolve(kept=None) if i else cx, st, w)
        written = w.since(start)
        if not written:
            w.pass_()
            return True
        return all(isinstance(n, Pass) for n in written)

    def loop_body(self, cx, body, w, after=(), span=None, cost=1):
        """The statements of a loop's body, at ``w``'s level, then a step of the budget and
        the lines ``after`` (going on to the next player)."""
        cx.scope.loops.append(("inline", None))
        self.count(body, w)
        for st in body:
            with w.spanning(st.span):
                self.inline(cx, st, w)
        cx.scope.loops.pop()
        self.step(cx, w, span, cost)
        for a in after:
            w.writeline(a)

    def suspending(self, cx, st, cur):
        """A statement that waits for a decision or calls a rule: it ends the current block."""
        m = getattr(self, "sus_" + type(st).__name__, None)
        if m is None:
            raise Unsupported(type(st).__name__)
        return m(cx, st, cur)

    def sus_CallRule(self, cx, st, cur):
        cg = self.cg
        if st.name not in cg.proc_index:
            raise Unsupported("unknown rule")
        pid = cg.proc_index[st.name]
        nslots = cg.model.rules[st.name].nslots
        args = [self.x.gen(cx, a, {}) for a in st.args]
        pad = nslots - len(args)
        # (in a rule's body copied in place of its call, `you` is the caller's player: x.slot)
        you = self.x.gen(cx, st.for_player, {}) if st.for_player is not None else \
            self.x.slot(cx, int(self.refs.of(st).index), {})
        after = self.new_block(cx)
        w = cur.w
        self.step(cx, w, st.span, cg.charge(cg.model.rules[st.name].decl.body))
        parts = [str(int(pid)), "0", you] + args + ["0"] * pad
        listed = None
        if id(st) in cx.scope.call_lists:     # the list of the choice it begins with (ChoiceGen.prelist)
            si, listed = cx.scope.call_lists.pop(id(st))
            parts[si] = listed
        frame = ", ".join(parts)
        inlined = cx.playout and pid in cg.inlined_rules
        if inlined and not self.in_place(cx, cg.inlined_sizes[pid]):
            cg.fell_back(cg.proc_names[cx.scope.pid], "inlined_calls",
                         f"the copies of its calls would pass {MAX_IN_PLACE} statements")
        elif inlined:
            # A playout that cannot stop (an index policy, no budget) takes the rule's decisions
            # in place (inline_call); one that can enters it with its frame on the stack.
            w.writeline(f"if {self.x.state(cx, '_pk')} is not None:")
            with w.indent():
                self.inline_call(cx, st, w, listed, args, you)
            w.writeline("else:")
            w = w.nested()
        if pid in cg.entered_rules:
            # Entered at once, as the run loop would: its frame on the stack, so that it can
            # stop for a decision; when it simply returns, go on here.
            w.writeline(f"fr[{Frame.POSITION}] = {after.number}")
            f, rc = self.x.fresh(), self.x.fresh()
            w.writeline(f"{f} = [{frame}]")
            w.writeline(f"g.stack.append({f})")
            procs = "_pprocs" if cx.playout else "_procs"
            self.calling(cx, w, f"{rc} = {procs}[{int(pid)}](g, {f}, 0)")
            w.writeline(f"if {rc} != {RETURN}: return {rc}")
            w.writeline("g.stack.pop()")
            self.goto(cur, after)
            return after
        if w is cur.w:
            self.call(cur, after, frame, CALL)
        else:                               # (in the else of the inlined call, ended below it)
            w.writeline(f"fr[{Frame.POSITION}] = {after.number}")
            w.writeline(f"g.stack.append([{frame}])")
            self.close(cur, CALL)
        return after

    def sus_If(self, cx, st, cur):
        end = self.new_block(cx)
        for cond, body in st.branches:
            then = self.new_block(cx)
            other = self.new_block(cx)
            # `if any card in Z where C:` whose branch begins with the choice of a card of Z
            # where C: the choice's list, made here, is the test (ChoiceGen.prelist).
            listed = self.prelist(cx, cond, body, cur.w)
            cur.w.writeline(f"if {listed or self.x.gen(cx, cond, {})}:")
            with cur.w.indent():
                self.jump(cur.w, then.number)
            self.goto(cur, other)
            last = self.stmts(cx, body, then)
            self.goto(last, end)
            cur = other
        if st.otherwise:
            cur = self.stmts(cx, st.otherwise, cur)
        self.goto(cur, end)
        return end

    def _block_loop(self, cx, st, cur, init, test, body, after=()):
        head, end = self.new_block(cx), self.new_block(cx)
        for line in init:
            cur.w.writeline(line)
        self.goto(cur, head)
        first = self.new_block(cx)
        head.w.writeline(f"if not ({test}):")
        with head.w.indent():
            self.jump(head.w, end.number)
        self.goto(head, first)
        cx.scope.loops.append(("block", end))
        last = self.stmts(cx, body, first)
        cx.scope.loops.pop()
        if not last.closed:
            self.step(cx, last.w, st.span, self.cg.charge(st))
            for line in after:
                last.w.writeline(line)
            self.goto(last, head)
        return end

    def sus_Loop(self, cx, st, cur):
        if st.kind == "times":
            i = self.refs.of(st).index
            return self._block_loop(cx, st, cur, [f"fr[{i}] = {self.x.gen(cx, st.expr, {})}"],
                                    f"_dec(fr, {i})", st.body)
        if st.kind == "while":
            return self._block_loop(cx, st, cur, [], self.x.gen(cx, st.expr, {}), st.body)
        if st.kind == "until":
            return self._block_loop(cx, st, cur, [], f"not {self.x.gen(cx, st.expr, {})}", st.body)
        return self._block_loop(cx, st, cur, [], "1", st.body)

    def sus_ForPlayer(self, cx, st, cur):
        r = self.refs.of(st)
        pi, ki = Frame.slot(r.player), Frame.slot(r.count)
        start = self.x.gen(cx, st.start, {}) if st.start is not None else "g.cur"
        n = int(self.cg.n)
        test = (f"_dec(fr, {ki})" if self.cg.out_base is None
                else f"_nin(g, fr, {ki}, {pi}, {int(self.cg.out_base)})")
        return self._block_loop(cx, st, cur, [f"fr[{pi}] = {start}", f"fr[{ki}] = {n}"],
                                test, st.body,
                                after=[f"fr[{pi}] = (fr[{pi}] + {self.dir()}) % {n}"])

    def sus_ForCard(self, cx, st, cur):
        r = self.refs.of(st)
        ci, li, ii = Frame.slot(r.card), Frame.slot(r.cards), Frame.slot(r.index)
        init = [f"fr[{li}] = tuple({self.x.zone(cx, self.x.gen(cx, st.zone, {}))})", f"fr[{ii}] = 0"]
        return self._block_loop(cx, st, cur, init, f"_nextcard(fr, {ci}, {li}, {ii})", st.body)

    def sus_ForValue(self, cx, st, cur):
        r = self.refs.of(st)
        vi, ii = Frame.slot(r.value), Frame.slot(r.index)
        vals = self.x.const(self.cg.values_of(st.kind))
        return self._block_loop(cx, st, cur, [f"fr[{ii}] = 0"],
                                f"_nextvalue(fr, {vi}, {ii}, {vals})", st.body)

    def next_turn_block(self, cx, b, spec):
        """The turn is over: the next seat (or the one named), endings when the turn does not
        open with a decision, the step budget, then the turn again from its start."""
        check_first, pad, over = spec
        n = int(self.cg.n)
        w = b.w
        flow = self.cg.flow           # what the game never does, the code leaves out
        step = "g.dir" if "reverse" in flow else "1"
        if "skip" in flow:
            step = f"{step} * (1 + g.skip)"
        w.writeline("_tn += 1" if cx.structuring and cx.turns_held else "g.turns += 1")
        you = None                    # (the structured turn's `you`, set with g.cur: below)
        if self.cg.out_base is not None:      # over the players still in the game
            self.x.ns["_pass"] = self.cg.pass_turn
            w.writeline("_pass(g)")
        elif "next_turn" in flow:
            w.writeline("if g.next_turn >= 0:")
            with w.indent():
                w.writeline("g.cur = g.next_turn")
                w.writeline("g.next_turn = -1")
            w.writeline("else:")
            with w.indent():
                w.writeline(f"g.cur = (g.cur + {step}) % {n}")
        else:
            you = self.x.slot(cx, Frame.YOU, {}) if cx.turn_locals else None
            # (in the structured turn `you` is the current player all turn long: nothing but
            # this line sets g.cur in a game that never names the next seat nor has players
            # leave, so it is read from the local)
            w.writeline(f"g.cur = {you} = ({you} + {step}) % {n}" if you else
                        f"g.cur = (g.cur + {step}) % {n}")
        if "skip" in flow:
            w.writeline("g.skip = 0")
        if not cx.playout:          # (a playout keeps no log: State.playout)
            from rulelang.compile.words import log_turn
            self.x.ns["_logturn"] = log_turn
            w.writeline("if g.log is not None: _logturn(g)")
        if check_first:
            quick = self.endings_quick(cx)
            w.writeline(f"if {quick + ' and ' if quick else ''}_ck(g): return {CALL}")
        self.x.ns["_overturn"] = over
        cost = int(self.cg.turn_cost)
        if cx.steps_held:           # (counted in locals: see compile_rule)
            self.held_step(w, cost, "_overturn(g)")
        else:
            w.writeline(f"g.steps += {cost}")
            w.writeline(f"if g.steps > {self.max_steps(cx)}: _overturn(g)")
        if cx.turn_locals:          # (the structured turn's: see PlayoutGen.structured_turn)
            if you is None:
                w.writeline(f"{self.x.slot(cx, Frame.YOU, {})} = g.cur")
        else:
            w.writeline(f"fr[{Frame.POSITION}] = 0")
            w.writeline(f"fr[{Frame.YOU}] = g.cur")
            if pad:
                w.writeline(f"fr[{Frame.SLOTS}:] = {self.x.const(list(pad))}")
        self.goto(b, cx.scope.blocks[0])

    def dir(self):
        """The direction of play in generated code: 1 in a game that never reverses it."""
        return "g.dir" if "reverse" in self.cg.flow else "1"
