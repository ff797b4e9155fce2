"""Whole rules compiled to one generated Python function each.

The closure compiler (:mod:`rulelang.compile.compiler`) turns a rule into a list of instructions that the
run loop calls one by one.  :class:`RuleGen` turns the same rule into a single function
``f(g, fr, pc)`` that runs until the rule must stop: at a decision (SUSPEND), a call of another
rule (CALL, with ``fr[1]`` set to where to resume), its end (RETURN), the end of the turn or of
the game.  Inside, code without decisions or calls is ordinary structured Python (``if``,
``while``); only the places where the rule can be resumed (the body of each alternative, the
statement after a call) are blocks chosen by ``pc``.

The generated source obeys the rules of :mod:`rulelang.compile.codegen` (no text of the rule file in it;
checked by ``_safe``).  A rule using a statement this module does not know keeps its closures.
"""
from __future__ import annotations

import re

from rulelang.syntax import ast as A
from rulelang.check.checker import Arg, Expanded
from rulelang.compile.codegen import Unsupported
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK
from rulelang.engine.control import CALL, END_TURN, HALT, RETURN, SUSPEND, GameProblem
from rulelang.engine.playout import _merge_twins_fast, playout_pick
from rulelang.engine.choices import pick_start, pick_step
from rulelang.engine.choices import claim_order, first_claim

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
    out = set()
    for name in rules:
        seen, todo = set(), list(calls[name])
        while todo:
            n = todo.pop()
            if n in seen or n not in calls:
                continue
            seen.add(n)
            todo.extend(calls[n])
        if name not in seen:
            out.add(name)
    return out


class _Jump(str):
    """The line ``pc = N; continue``: a jump to block N, known as one by its type (the passes
    over the blocks below follow jumps without reading the generated text)."""

    def __new__(cls, ind, target):
        line = super().__new__(cls, f"{ind}pc = {int(target)}; continue")
        line.ind, line.target = ind, int(target)
        return line


class _Enter(str):
    """The playout variant's line ``pc = N; continue`` into the body of the alternative just
    chosen (block N): replaced by a copy of that block's lines (``RuleGen.expand_entries``)."""

    def __new__(cls, ind, target):
        line = super().__new__(cls, f"{ind}pc = {int(target)}; continue")
        line.ind, line.target = ind, int(target)
        return line


class _Block:
    def __init__(self, number):
        self.number = number
        self.lines = []
        self.closed = False


class RuleGen:
    """Generates the function of one rule for the compiled game ``cg``."""

    def __init__(self, cg, direct=frozenset(), playout=False):
        self.cg = cg
        # The playout variant (see ``playout_decision``): decisions are taken in place.
        self.playout = playout
        self.x = cg.gen
        self.s = cg.stmts
        self.refs = cg.refs
        self.direct = direct
        known = getattr(cg, "_direct_names", None)      # made once per set (each rule had its
        if known is None or known[0] is not direct:     # own copy: quadratic in the rules)
            known = cg._direct_names = (direct, frozenset(
                n for n, i in cg.proc_index.items() if i in direct))
        self.direct_names = known[1]

    def compile_rule(self, body, pid, next_turn=None):
        """The function of one rule.  With ``next_turn`` (the game's turn, run in the frame
        right above the root): where the rule ends, the next turn begins in the same frame and
        the function goes on, as the root would do it (see CompiledGame._build_root)."""
        self.blocks = []
        self.alt_blocks = []          # (alternative id, block number)
        self.pid = pid
        self.loops = []               # ("inline", None) or ("block", end_block)
        cur = self.new_block()
        cur = self.stmts(body, cur, "            ")
        if next_turn is None:
            self.close(cur, f"return {RETURN}", "            ")
        else:
            nt = self.new_block()     # the last block: the other blocks keep their numbers
            self.goto(cur, nt, "            ")
            self.next_turn_block(nt, next_turn, "            ")
        self.thread_jumps()
        if next_turn is not None:
            self.inline_block(nt)
        if self.playout:
            self.expand_entries()
        lines = ["def _f(g, fr, pc):", "    while True:"]
        self.dispatch(self.blocks, lines, "        ", "")
        lines.append("        raise _bad(pc)")
        src = "\n".join(lines) + "\n"
        self.src = src
        self.x.ns["_bad"] = _bad_pc
        self.x.ns["_over"] = self._over
        self.x.ns["_noch"] = _no_choice
        self.x.ns["_ck"] = self.cg.check_endings
        self.x.ns["_procs"] = self.cg.procs
        self.x.ns["_dec"] = _dec
        self.x.ns["_nextcard"] = _nextcard
        self.x.ns["_nextvalue"] = _nextvalue
        return self.x._compile(src), self.alt_blocks

    # ---- blocks -------------------------------------------------------------------------------
    def dispatch(self, blocks, lines, ind, extra):
        """Choose the block for ``pc``: block 0 (where every call enters) first, then halves of
        the others, so that resuming deep in a long rule takes a few tests, not one per block.
        ``extra`` indents the blocks' own lines (written for the top level) when nested."""
        if blocks and blocks[0].number == 0:
            lines.append(f"{ind}if pc == 0:")
            lines.extend(extra + l for l in blocks[0].lines)
            blocks = blocks[1:]
        if len(blocks) <= 3:
            for b in blocks:
                lines.append(f"{ind}if pc == {b.number}:")
                lines.extend(extra + l for l in b.lines)
            return
        mid = len(blocks) // 2
        lines.append(f"{ind}if pc < {blocks[mid].number}:")
        self.dispatch(blocks[:mid], lines, ind + "    ", extra + "    ")
        lines.append(f"{ind}else:")
        self.dispatch(blocks[mid:], lines, ind + "    ", extra + "    ")

    def thread_jumps(self):
        """A jump to a block that only jumps (or only returns) goes where that block leads."""
        final = {}
        for b in self.blocks:
            if len(b.lines) == 1:
                line = b.lines[0]
                if isinstance(line, _Jump):
                    final[b.number] = ("goto", line.target)
                elif line.strip().startswith("return "):
                    final[b.number] = ("return", line.strip())

        def resolve(n):
            seen = set()
            while n in final and final[n][0] == "goto" and n not in seen:
                seen.add(n)
                n = final[n][1]
            if n in final and final[n][0] == "return":
                return final[n][1]
            return n

        for b in self.blocks:
            for i, line in enumerate(b.lines):
                if isinstance(line, _Jump):
                    target = resolve(line.target)
                    b.lines[i] = (line.ind + target if isinstance(target, str)
                                  else _Jump(line.ind, target))

    def inline_block(self, target):
        """Copy a block's lines to every jump to it (the next turn: one test of ``pc`` less)."""
        base = "            "
        for b in self.blocks:
            if b is target:
                continue
            out = []
            for line in b.lines:
                if isinstance(line, _Jump) and line.target == target.number:
                    out.extend(line.ind + l[len(base):] for l in target.lines)
                else:
                    out.append(line)
            b.lines = out

    def new_block(self):
        b = _Block(len(self.blocks))
        self.blocks.append(b)
        return b

    def close(self, b, line, ind):
        if not b.closed:
            b.lines.append(ind + line)
            b.closed = True

    def goto(self, b, target, ind):
        if not b.closed:
            b.lines.append(_Jump(ind, target.number))
            b.closed = True

    def step(self, lines, ind, span=None, cost=1):
        """One step of the budget, charged ``cost`` (CompiledGame.charge: the size of what it
        evaluates)."""
        lines.append(f"{ind}g.steps += {int(cost)}")
        lines.append(f"{ind}if g.steps > g.max_steps: _over(g, {self.x.const(span)}"
                     f"{', ' + str(int(cost)) if cost > 1 else ''})")

    @staticmethod
    def _over(g, span, cost=1):
        from rulelang.compile.compiler import over_budget
        raise over_budget(g, span, cost)

    # ---- statements ---------------------------------------------------------------------------
    def stmts(self, body, cur, ind):
        for st in body:
            if cur.closed:                 # code after return/stop can never run
                break
            if _suspends(st, self.direct_names):
                cur = self.suspending(st, cur, ind)
            else:
                self.inline(st, cur.lines, ind)
                if isinstance(st, (A.EndGame,)) or (isinstance(st, A.Simple) and
                                                     st.word in ("return", "end turn", "stop")):
                    cur.closed = True
        return cur

    def inline(self, st, lines, ind):
        """A statement with no decision or call in it, as structured code."""
        if isinstance(st, A.Simple):
            w = st.word
            if w == "stop":
                kind, end = self.loops[-1]
                lines.append(f"{ind}break" if kind == "inline" else _Jump(ind, end.number))
            elif w == "return":
                lines.append(f"{ind}return {RETURN}")
            elif w == "end turn":
                lines.append(f"{ind}return {END_TURN}")
            else:
                self.s.stmt(st, lines, ind)
            return
        if isinstance(st, A.EndGame):
            self.s.embed(st, lines, ind)
            lines.append(f"{ind}return {HALT}")
            return
        if isinstance(st, A.If):
            first = True
            for cond, body in st.branches:
                lines.append(f"{ind}{'if' if first else 'elif'} {self.x.gen(cond, {})}:")
                first = False
                self.inline_body(body, lines, ind + "    ")
            if st.otherwise:
                lines.append(f"{ind}else:")
                self.inline_body(st.otherwise, lines, ind + "    ")
            return
        if isinstance(st, A.Loop):
            if st.kind == "times":
                i = 3 + self.refs[id(st)]
                lines.append(f"{ind}fr[{i}] = {self.x.gen(st.expr, {})}")
                lines.append(f"{ind}while fr[{i}] > 0:")
                lines.append(f"{ind}    fr[{i}] -= 1")
            elif st.kind == "while":
                lines.append(f"{ind}while {self.x.gen(st.expr, {})}:")
            elif st.kind == "until":
                lines.append(f"{ind}while not {self.x.gen(st.expr, {})}:")
            else:
                lines.append(f"{ind}while True:")
            self.loop_body(st.body, lines, ind + "    ", span=st.span, cost=self.cg.charge(st))
            return
        if isinstance(st, A.ForPlayer):
            pi, ki = (3 + s for s in self.refs[id(st)])
            start = self.x.gen(st.start, {}) if st.start is not None else "g.cur"
            n = int(self.cg.n)
            lines.append(f"{ind}fr[{pi}] = {start}")
            lines.append(f"{ind}fr[{ki}] = {n}")
            if self.cg.out_base is not None:      # over the players still in the game
                lines.append(f"{ind}while _nin(g, fr, {ki}, {pi}, {int(self.cg.out_base)}):")
            else:
                lines.append(f"{ind}while fr[{ki}] > 0:")
                lines.append(f"{ind}    fr[{ki}] -= 1")
            self.loop_body(st.body, lines, ind + "    ", span=st.span, cost=self.cg.charge(st),
                           after=[f"fr[{pi}] = (fr[{pi}] + {self.dir()}) % {n}"])
            return
        if isinstance(st, A.ForCard):
            ci, li, ii = (3 + s for s in self.refs[id(st)])
            lines.append(f"{ind}fr[{li}] = tuple(g.zones[{self.x.gen(st.zone, {})}])")
            lines.append(f"{ind}fr[{ii}] = 0")
            lines.append(f"{ind}while fr[{ii}] < len(fr[{li}]):")
            lines.append(f"{ind}    fr[{ci}] = fr[{li}][fr[{ii}]]")
            lines.append(f"{ind}    fr[{ii}] += 1")
            self.loop_body(st.body, lines, ind + "    ", span=st.span, cost=self.cg.charge(st))
            return
        if isinstance(st, A.ForValue):
            vi, ii = (3 + s for s in self.refs[id(st)])
            vals = self.x.const(self.cg.values_of(st.kind))
            lines.append(f"{ind}fr[{ii}] = 0")
            lines.append(f"{ind}while fr[{ii}] < len({vals}):")
            lines.append(f"{ind}    fr[{vi}] = {vals}[fr[{ii}]]")
            lines.append(f"{ind}    fr[{ii}] += 1")
            self.loop_body(st.body, lines, ind + "    ", span=st.span, cost=self.cg.charge(st))
            return
        if isinstance(st, A.CallRule) and st.name in self.direct_names:
            self.direct_call(st, lines, ind)
            return
        if self.s.is_simple(st):
            self.s.stmt(st, lines, ind)
            return
        raise Unsupported(type(st).__name__)

    def direct_call(self, st, lines, ind):
        """Call a rule that never waits for a decision as a Python function: its frame is never
        saved, because no state can be observed while it runs."""
        cg = self.cg
        pid = cg.proc_index[st.name]
        nslots = cg.model.rules[st.name].nslots
        args = [self.x.gen(a, {}) for a in st.args]
        you = self.x.gen(st.for_player, {}) if st.for_player is not None else f"fr[{3 + int(self.refs[id(st)])}]"
        frame = ", ".join([str(int(pid)), "0", you] + args + ["0"] * (nslots - len(args)))
        self.step(lines, ind, st.span, cg.charge(cg.model.rules[st.name].decl.body))
        body = getattr(cg, "inline_bodies", {}).get(pid)
        if body is not None:          # a rule without locals, read only `you`: copied in place
            if not self._is_slot(st.for_player):
                y = self.x.fresh()
                lines.append(f"{ind}{y} = {you}")
                you = y
            lines.extend(ind + re.sub(r"\bfr\[2\]", you, l) for l in body)
            return
        rc = self.x.fresh()
        lines.append(f"{ind}{rc} = _procs[{int(pid)}](g, [{frame}], 0)")
        lines.append(f"{ind}if {rc} != {RETURN}: return {rc}")

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
                    self.refs.get(id(e), ("",))[0] == "expanded":
                e = self.refs[id(e)][1]
            elif isinstance(e, A.Keyword):
                return e.word == "you"
            elif isinstance(e, A.Name):
                return self.refs.get(id(e), ("",))[0] == "slot"
            else:
                return False

    def inline_body(self, body, lines, ind):
        start = len(lines)
        for st in body:
            self.inline(st, lines, ind)
        if len(lines) == start:
            lines.append(f"{ind}pass")

    def loop_body(self, body, lines, ind, after=(), span=None, cost=1):
        self.loops.append(("inline", None))
        for st in body:
            self.inline(st, lines, ind)
        self.loops.pop()
        self.step(lines, ind, span, cost)
        for a in after:
            lines.append(ind + a)

    def suspending(self, st, cur, ind):
        """A statement that waits for a decision or calls a rule: it ends the current block."""
        m = getattr(self, "sus_" + type(st).__name__, None)
        if m is None:
            raise Unsupported(type(st).__name__)
        return m(st, cur, ind)

    def sus_CallRule(self, st, cur, ind):
        cg = self.cg
        if st.name not in cg.proc_index:
            raise Unsupported("unknown rule")
        pid = cg.proc_index[st.name]
        nslots = cg.model.rules[st.name].nslots
        args = [self.x.gen(a, {}) for a in st.args]
        pad = nslots - len(args)
        you = self.x.gen(st.for_player, {}) if st.for_player is not None else f"fr[{3 + int(self.refs[id(st)])}]"
        after = self.new_block()
        self.step(cur.lines, ind, st.span, cg.charge(cg.model.rules[st.name].decl.body))
        cur.lines.append(f"{ind}fr[1] = {after.number}")
        frame = ", ".join([str(int(pid)), "0", you] + args + ["0"] * pad)
        if pid in getattr(cg, "entered_rules", ()):
            # Entered at once, as the run loop would: its frame on the stack, so that it can
            # stop for a decision; when it simply returns, go on here.
            f, rc = self.x.fresh(), self.x.fresh()
            cur.lines.append(f"{ind}{f} = [{frame}]")
            cur.lines.append(f"{ind}g.stack.append({f})")
            procs = "_pprocs" if self.playout else "_procs"
            cur.lines.append(f"{ind}{rc} = {procs}[{int(pid)}](g, {f}, 0)")
            cur.lines.append(f"{ind}if {rc} != {RETURN}: return {rc}")
            cur.lines.append(f"{ind}g.stack.pop()")
            self.goto(cur, after, ind)
            return after
        cur.lines.append(f"{ind}g.stack.append([{frame}])")
        self.close(cur, f"return {CALL}", ind)
        return after

    def sus_If(self, st, cur, ind):
        end = self.new_block()
        for cond, body in st.branches:
            then = self.new_block()
            other = self.new_block()
            cur.lines.append(f"{ind}if {self.x.gen(cond, {})}:")
            cur.lines.append(_Jump(ind + "    ", then.number))
            self.goto(cur, other, ind)
            last = self.stmts(body, then, ind)
            self.goto(last, end, ind)
            cur = other
        if st.otherwise:
            cur = self.stmts(st.otherwise, cur, ind)
        self.goto(cur, end, ind)
        return end

    def _block_loop(self, st, cur, ind, init, test, body, after=()):
        head, end = self.new_block(), self.new_block()
        cur.lines.extend(ind + l for l in init)
        self.goto(cur, head, ind)
        first = self.new_block()
        head.lines.append(f"{ind}if not ({test}):")
        head.lines.append(_Jump(ind + "    ", end.number))
        self.goto(head, first, ind)
        self.loops.append(("block", end))
        last = self.stmts(body, first, ind)
        self.loops.pop()
        if not last.closed:
            self.step(last.lines, ind, st.span, self.cg.charge(st))
            last.lines.extend(ind + a for a in after)
            self.goto(last, head, ind)
        return end

    def sus_Loop(self, st, cur, ind):
        if st.kind == "times":
            i = 3 + self.refs[id(st)]
            return self._block_loop(st, cur, ind, [f"fr[{i}] = {self.x.gen(st.expr, {})}"],
                                    f"_dec(fr, {i})", st.body)
        if st.kind == "while":
            return self._block_loop(st, cur, ind, [], self.x.gen(st.expr, {}), st.body)
        if st.kind == "until":
            return self._block_loop(st, cur, ind, [], f"not {self.x.gen(st.expr, {})}", st.body)
        return self._block_loop(st, cur, ind, [], "1", st.body)

    def sus_ForPlayer(self, st, cur, ind):
        pi, ki = (3 + s for s in self.refs[id(st)])
        start = self.x.gen(st.start, {}) if st.start is not None else "g.cur"
        n = int(self.cg.n)
        test = (f"_dec(fr, {ki})" if self.cg.out_base is None
                else f"_nin(g, fr, {ki}, {pi}, {int(self.cg.out_base)})")
        return self._block_loop(st, cur, ind, [f"fr[{pi}] = {start}", f"fr[{ki}] = {n}"],
                                test, st.body,
                                after=[f"fr[{pi}] = (fr[{pi}] + {self.dir()}) % {n}"])

    def sus_ForCard(self, st, cur, ind):
        ci, li, ii = (3 + s for s in self.refs[id(st)])
        init = [f"fr[{li}] = tuple(g.zones[{self.x.gen(st.zone, {})}])", f"fr[{ii}] = 0"]
        return self._block_loop(st, cur, ind, init, f"_nextcard(fr, {ci}, {li}, {ii})", st.body)

    def sus_ForValue(self, st, cur, ind):
        vi, ii = (3 + s for s in self.refs[id(st)])
        vals = self.x.const(self.cg.values_of(st.kind))
        return self._block_loop(st, cur, ind, [f"fr[{ii}] = 0"],
                                f"_nextvalue(fr, {vi}, {ii}, {vals})", st.body)

    def next_turn_block(self, b, spec, ind):
        """The turn is over: the next seat (or the one named), endings when the turn does not
        open with a decision, the step budget, then the turn again from its start."""
        check_first, pad, over = spec
        n = int(self.cg.n)
        L = b.lines
        flow = self.cg.flow           # what the game never does, the code leaves out
        step = "g.dir" if "reverse" in flow else "1"
        if "skip" in flow:
            step = f"{step} * (1 + g.skip)"
        L.append(f"{ind}g.turns += 1")
        if self.cg.out_base is not None:      # over the players still in the game
            self.x.ns["_pass"] = self.cg.pass_turn
            L.append(f"{ind}_pass(g)")
        elif "next_turn" in flow:
            L.append(f"{ind}if g.next_turn >= 0:")
            L.append(f"{ind}    g.cur = g.next_turn")
            L.append(f"{ind}    g.next_turn = -1")
            L.append(f"{ind}else:")
            L.append(f"{ind}    g.cur = (g.cur + {step}) % {n}")
        else:
            L.append(f"{ind}g.cur = (g.cur + {step}) % {n}")
        if "skip" in flow:
            L.append(f"{ind}g.skip = 0")
        from rulelang.compile.compiler import log_turn
        self.x.ns["_logturn"] = log_turn
        L.append(f"{ind}if g.log is not None: _logturn(g)")
        if check_first:
            quick = self.endings_quick()
            L.append(f"{ind}if {quick + ' and ' if quick else ''}_ck(g): return {CALL}")
        self.x.ns["_overturn"] = over
        L.append(f"{ind}g.steps += {int(getattr(self.cg, 'turn_cost', 1))}")
        L.append(f"{ind}if g.steps > g.max_steps: _overturn(g)")
        L.append(f"{ind}fr[1] = 0")
        L.append(f"{ind}fr[2] = g.cur")
        if pad:
            L.append(f"{ind}fr[3:] = {self.x.const(list(pad))}")
        self.goto(b, self.blocks[0], ind)

    def dir(self):
        """The direction of play in generated code: 1 in a game that never reverses it."""
        return "g.dir" if "reverse" in self.cg.flow else "1"

    def endings_quick(self):
        """The cheap test that some ending may hold (``ExprGen.endings_quick``), or "" when the
        endings must be checked in full before every decision."""
        cg = self.cg
        quick = getattr(cg, "_endings_quick", None)
        if quick is None:
            try:
                quick = self.x.endings_quick([e.condition for e, _, _ in cg.model.endings])
            except Unsupported:
                quick = ""
            cg._endings_quick = quick
        return quick

    def sus_Choose(self, st, cur, ind):
        cg = self.cg
        chooser_slot, param_slots, extra = cg.model.choose_slots[id(st)]
        ci = 3 + chooser_slot
        end = self.new_block()
        L = cur.lines
        if cg.endings:
            quick = self.endings_quick()
            L.append(f"{ind}if {quick + ' and ' if quick else ''}_ck(g): return {CALL}")
        enum_lines = []
        alts = []
        self.counted = {}          # (zone code, condition code) -> names of len(out) around it
        self.appended = False      # may an earlier alternative have added actions to out?
        self.first_out = None      # (line, list) when the first line to touch out extends it
        for alt, slot in zip(st.alternatives, param_slots):
            aid = cg.model.labels[id(alt)]
            alts.append((aid, alt, slot))
            self.enum(alt, aid, slot, enum_lines, ind)
        span = self.x.const(st.span)
        if st.simultaneous:
            xi = 3 + extra
            dispatch = self.new_block()
            bys = [self.x.gen(b, {}) for b in st.by]
            L.append(f"{ind}_pl = []")
            each = len(st.by) == 1 and isinstance(st.by[0], A.PlayerQuery) and \
                st.by[0].kind in ("each", "others")
            for b in bys:
                if each:                                # `by each player`: a list of seats
                    L.append(f"{ind}_pl = {b}")
                    continue
                L.append(f"{ind}_p = {b}")
                L.append(f"{ind}if _p not in _pl: _pl.append(_p)")
            if st.claim:
                self.claim_lines(st, L, ind)
            if each:
                L.append(f"{ind}if not _pl:")
                L.append(_Jump(ind + "    ", end.number))
            L.append(f"{ind}_lg = {{}}")
            L.append(f"{ind}for _p in _pl:")
            L.append(f"{ind}    fr[{ci}] = _p")
            L.append(f"{ind}    out = []")
            L.extend("    " + l for l in enum_lines)
            L.append(f"{ind}    if not out: _noch(_p, {span})")
            L.append(f"{ind}    _lg[_p] = out")
            L.append(f"{ind}_lg[_order] = _pl")
            L.append(f"{ind}_lg[_slot] = {xi}")
            L.append(f"{ind}_lg[_disp] = {dispatch.number}")
            L.append(f"{ind}g.pending = _pl")
            L.append(f"{ind}g.legal = _lg")
            L.append(f"{ind}g.sim = {{}}")
            self.close(cur, f"return {SUSPEND}", ind)
            self.x.ns.update({"_order": "order", "_slot": "slot", "_disp": "dispatch",
                              "_dispatch": _dispatch, "_alts": cg.alternatives})
            D = dispatch.lines
            if st.claim:
                self.x.ns["_fclaim"] = first_claim
                none_aid = int(cg.model.labels[id(st.alternatives[-1])])
                D.append(f"{ind}fr[{xi}] = _fclaim(fr[{xi}], {none_aid})")
            D.append(f"{ind}_b = _dispatch(fr, {xi}, {ci}, _alts)")
            D.append(f"{ind}if _b < 0:")
            D.append(_Jump(ind + "    ", end.number))
            self.close(dispatch, "pc = _b; continue", ind)
            back = dispatch
        else:
            by = self.x.gen(st.by[0], {}) if st.by else "fr[2]"
            L.append(f"{ind}fr[{ci}] = {by}")
            if self.first_out is not None:      # `out` is the first list made, not extended
                i, made = self.first_out
                L.extend(enum_lines[:i] + [f"{ind}out = {made}"] + enum_lines[i + 1:])
            else:
                L.append(f"{ind}out = []")
                L.extend(enum_lines)
            L.append(f"{ind}if not out: _noch(fr[{ci}], {span})")
            hole = len(L)       # the playout variant decides here (below)
            L.append(f"{ind}g.pending = (fr[{ci}],)")
            L.append(f"{ind}g.legal = out")
            self.close(cur, f"return {SUSPEND}", ind)
            back = end
        for aid, alt, slot in alts:
            b = self.new_block()
            self.alt_blocks.append((aid, b.number))
            if id(alt) in cg.model.picks:
                self.cards_step(alt, aid, b, ci, ind)
            if id(alt) in cg.model.unseen:          # c is the card at the chosen place
                b.lines.append(f"{ind}fr[{3 + int(cg.model.unseen[id(alt)])}] = "
                               f"g.zones[{self.x.gen(alt.param.source, {})}][fr[{3 + int(slot)}]]")
            last = self.stmts(alt.body, b, ind)
            self.goto(last, back, ind)
        if self.playout and not st.simultaneous:
            L[hole:] = self.playout_decision(alts, ci, ind)
        return end

    # ---- the playout variant -------------------------------------------------------------------
    def playout_decision(self, alts, ci, ind):
        """The playout variant of a decision (one chooser): instead of stopping with the legal
        actions in ``g.legal``, ask the playout's policy (``State.playout``) for one of them and
        go on into its alternative's body, as ``apply_action`` would: the same list, the same
        call of the policy, the same slot and position in the frame, one decision more (in a
        game with copies of a card, the list merged as ``legal_actions`` merges it).  A playout
        with a budget of decisions or a policy of actions goes through ``playout_pick``, which
        stops the playout where the budget is spent."""
        a, pk, k = self.x.fresh(), self.x.fresh(), self.x.fresh()
        self.x.ns["_pick"] = playout_pick
        lines = [f"{ind}{pk} = g._pk",
                 f"{ind}if {pk} is None:",
                 f"{ind}    {a} = _pick(g, out, fr[{ci}])",
                 f"{ind}else:"]
        legal = "out"
        if getattr(self.cg, "card_twin", None) is not None:     # copies of a card: one action
            legal = self.x.fresh()
            self.x.ns["_mtf"] = _merge_twins_fast
            lines.append(f"{ind}    {legal} = _mtf(out, {self.x.const(self.cg)})")
        lines += [f"{ind}    {k} = len({legal})",
                  f"{ind}    g._ch += {k}",
                  f"{ind}    if {k} == 1: g._fo += 1",
                  f"{ind}    {a} = {legal}[{pk}[fr[{ci}]]({k})]",
                  f"{ind}g.decisions += 1"]
        blocks = dict(self.alt_blocks)
        order = sorted(alts, key=lambda t: t[0])
        for i, (aid, alt, slot) in enumerate(order):
            inner = ind
            if i < len(order) - 1:     # the actions of alternative aid are aid << SHIFT + value
                lines.append(f"{ind}if {a} < {(int(aid) + 1) << ACTION_SHIFT}:")
                inner = ind + "    "
            if alt.param is not None:
                base = int(aid) << ACTION_SHIFT
                lines.append(f"{inner}fr[{3 + int(slot)}] = {a}" + (f" - {base}" if base else ""))
            b = int(blocks[aid])
            lines.append(f"{inner}fr[1] = {b}")
            lines.append(_Enter(inner, b))
        return lines

    def expand_entries(self, limit=40):
        """Copy the body of each alternative where the playout variant chose it (an alternative's
        block is entered from its decision only), and any other block that only one jump leads
        to, in place of that jump: going on takes no trip through the tests of ``pc``.  The
        blocks stay, for resuming a frame; a copy nested deeper than ``limit`` stays a jump."""
        blocks = {b.number: b for b in self.blocks}
        refs = {}
        for b in self.blocks:
            for l in b.lines:
                if isinstance(l, (_Jump, _Enter)):
                    refs[l.target] = refs.get(l.target, 0) + 1

        def expand(lines, seen):
            out = []
            for line in lines:
                t = getattr(line, "target", None)
                if t is not None and t != 0 and t not in seen and len(seen) < limit and (
                        isinstance(line, _Enter) or refs.get(t) == 1):
                    for l in expand(blocks[t].lines, seen | {t}):
                        out.append(_shift(l, line.ind, "            "))
                else:
                    out.append(line)
            return out

        for b in self.blocks:
            b.lines = expand(b.lines, frozenset((b.number,)))

    def _card_query(self, e):
        """The ``any/no card in Z where C`` that ``e`` is (through defines), or None."""
        while True:
            if isinstance(e, Expanded):
                e = e.body
            elif isinstance(e, A.Call) or (isinstance(e, A.Name) and
                                           self.refs.get(id(e), ("",))[0] == "expanded"):
                e = self.refs[id(e)][1].body
            else:
                break
        if isinstance(e, A.CardQuery) and e.kind in ("any", "no") and e.condition is not None:
            return e
        return None

    def _same_cards(self, e):
        """Code for an alternative's condition ``any/no card in Z where C`` when an earlier
        alternative of the same choice offers exactly the cards of Z where C: then the answer is
        whether that alternative added any action, and the cards are not looked at twice."""
        q = self._card_query(e)
        if q is None:
            return None
        key = (self.x.gen(q.zone, {}), self.x.gen(q.condition, {3 + self.refs[id(q)]: "_cv"}))
        seen = self.counted.get(key)
        if seen is None:
            return None
        before, after = seen
        return f"({after} > {before})" if q.kind == "any" else f"({after} == {before})"

    def enum(self, alt, aid, slot, lines, ind):
        base = int(aid) << ACTION_SHIFT
        p = alt.param
        cond = None
        if alt.condition is not None:
            cond = self._same_cards(alt.condition) or self.x.gen(alt.condition, {})
        inner = ind + ("    " if cond else "")
        if cond:
            lines.append(f"{ind}if {cond}:")
        if p is None:
            lines.append(f"{inner}out.append({base})")
            self.appended = True
            return
        si = 3 + slot
        if p.kind == "cards":
            self.cards_enum(alt, aid, si, lines, inner)
            return
        if p.kind == "unseen":                      # the places of Z, bottom first
            lines.append(f"{inner}out.extend(range({base}, {base} + "
                         f"len(g.zones[{self.x.gen(p.source, {})}])))")
            self.appended = True
            return
        v = self.x.fresh()
        test = ""
        if p.where is not None:
            code, hoisted = self.x.gen_hoisting(p.where, {si: v}, v)
            lines.extend(f"{inner}{name} = {c}" for name, c in hoisted)
            test = " if " + code
        if p.kind == "card":
            values = f"g.zones[{self.x.gen(p.source, {})}]"
        elif p.kind == "player":
            n = int(self.cg.n)
            ob = self.cg.out_base
            if isinstance(p.source, A.Keyword) and p.source.word == "opponents":
                you = self.x.slot(3 + self.refs.get(id(p.source), ("you", -1))[1], {})
                values = (f"_saf(g, {you}, {int(ob)})" if ob is not None else
                          f"[({you} + {self.dir()} * _k) % {n} for _k in range(1, {n})]")
            elif ob is not None:
                values = f"[_q for _q in range({n}) if not g.vars[{int(ob)} + _q]]"
            else:
                values = f"range({n})"
        elif p.kind == "suit":
            values = f"range({len(self.cg.model.suits)})"
        elif p.kind == "rank":
            values = self.x.const(list(self.cg.rank_cycle))
        else:
            lo, hi = self.x.gen(p.source, {}), self.x.gen(p.high, {})
            self.x.ns["_nums"] = _numbers
            values = f"_nums({lo}, {hi}, {self.x.const(p.span)})"
        key = None
        if p.kind == "card" and p.where is not None and not cond:
            key = (self.x.gen(p.source, {}), self.x.gen(p.where, {si: "_cv"}))
            if "rng" in key[0] or "rng" in key[1] or key in self.counted:
                key = None
        if key is not None:
            before, after = self.x.fresh(), self.x.fresh()
            if self.appended:
                lines.append(f"{inner}{before} = len(out)")
            else:
                before = "0"               # nothing is in out yet
        action = f"{base} + {v}" if base else v
        made = f"[{action} for {v} in {values}{test}]"
        if not self.appended and not cond:
            self.first_out = (len(lines), made)
        lines.append(f"{inner}out.extend({made})")
        self.appended = True
        if key is not None:
            lines.append(f"{inner}{after} = len(out)")
            self.counted[key] = (before, after)

    def claim_lines(self, st, L, ind):
        """``any opponent may choose [from P]``: the players in order of play from P (the player
        after `you` when the rule does not say)."""
        self.x.ns["_corder"] = claim_order
        if st.claim_from is not None:
            start = self.x.gen(st.claim_from, {})
        else:
            you = self.x.slot(3 + self.refs[id(st.by[0])][1], {})
            start = f"({you} + g.dir)"
        L.append(f"{ind}_pl = _corder(g, _pl, {start})")

    # Several cards in one step (runtime.pick_start / pick_step): the first card is offered by the
    # choice, the others at the start of the alternative's body, in a block of their own.
    def cards_enum(self, alt, aid, si, lines, ind):
        p = alt.param
        ks = "(" + ", ".join(str(3 + int(k)) for k in self.cg.model.picks[id(alt)][0]) + ")"
        v, z = self.x.fresh(), self.x.fresh()
        lines.append(f"{ind}{z} = {self.x.gen(p.source, {})}")
        test = ""
        if p.where is not None:
            code, hoisted = self.x.gen_hoisting(p.where, {si: v}, v)
            lines.extend(f"{ind}{name} = {c}" for name, c in hoisted)
            test = " if " + code
        self.x.ns["_pstart"] = pick_start
        args = (f"{self.x.gen(p.dest, {})}, {self.x.gen(p.count, {})}, {int(bool(p.or_more))}, "
                f"{self.x.const(p.same)}, {int(aid) << ACTION_SHIFT}, {self.x.const(p.span)}")
        lines.append(f"{ind}out.extend(_pstart(g, fr, {ks}, [{v} for {v} in g.zones[{z}]{test}], "
                     f"{z}, {args}))")
        self.appended = True

    def cards_step(self, alt, aid, b, ci, ind):
        slots, done_aid = self.cg.model.picks[id(alt)]
        ks = "(" + ", ".join(str(3 + int(k)) for k in slots) + ")"
        si = self.cg.alternatives[aid].slot
        self.x.ns["_pstep"] = pick_step
        self.alt_blocks.append((done_aid, b.number))
        b.lines.append(f"{ind}_r = _pstep(g, fr, {int(si)}, {ks}, {self.x.const(alt.param.same)}, "
                       f"{int(aid) << ACTION_SHIFT}, {int(done_aid) << ACTION_SHIFT}, "
                       f"{self.x.const(alt.param.span)})")
        b.lines.append(f"{ind}if _r is not None:")
        b.lines.append(f"{ind}    g.pending = (fr[{ci}],)")
        b.lines.append(f"{ind}    g.legal = _r")
        b.lines.append(f"{ind}    return {SUSPEND}")


def inline_body(src):
    """The lines of a generated rule function that can be copied where the rule is called, made
    relative to the call's indentation; None when it cannot: more than the one block, a return
    before the end, a local slot of its own or the whole frame (only ``fr[2]``, its ``you``, may
    be read), a call."""
    lines = src.split("\n")
    while lines and not lines[-1]:
        lines.pop()
    head, body, tail = lines[:3], lines[3:-2], lines[-2:]
    if head != ["def _f(g, fr, pc):", "    while True:", "        if pc == 0:"] or tail != [
            f"            return {RETURN}", "        raise _bad(pc)"]:
        return None
    text = "\n".join(body)
    if re.search(r"\b(return|continue|pc|_procs|yield)\b", text):
        return None
    if re.search(r"\bfr\b(?!\[2\])|\bfr\[2\]\s*[-+*/]?=(?!=)", text):
        return None
    if any(not l.startswith("            ") for l in body):
        return None
    return [l[12:] for l in body]


def _shift(line, ind, base):
    """A block's line (written at the indentation ``base``) moved to the indentation ``ind``,
    keeping what it is (a jump stays a jump)."""
    rest = line[len(base):]
    if isinstance(line, _Jump):
        return _Jump(ind + line.ind[len(base):], line.target)
    if isinstance(line, _Enter):
        return _Enter(ind + line.ind[len(base):], line.target)
    return ind + rest


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
