"""The step budget: what a step costs (``charge``, by the size of what it evaluates, about
``limits.WORK_UNIT`` parts each) and what stops a game that does not end (RL901, ``over_budget``).
Shared by the game loop and the generated code (:mod:`rulelang.compile.rulegen`); the tests'
reference interpreter has its own (``tests/reference/rules.py``).
"""
from __future__ import annotations

import attrs

from rulelang.syntax import ast as A
from rulelang.limits import WORK_UNIT
from rulelang.check.ir import DefineUse
from rulelang.check.model import Expanded
from rulelang.engine.control import GameProblem


def over_budget(g, span=None, cost=1) -> GameProblem:
    """RL901, saying what the step cost when it was more than one."""
    why = (f" (this step costs {cost} steps: steps are charged by the size of what they "
           f"evaluate, about {WORK_UNIT} parts each)" if cost > 1 else "")
    return GameProblem("RL901", f"the game did not end within {g.max_steps} steps{why}", span)


class Budget:
    """The step budget of a compiled game (a mixin of ``CompiledGame``)."""

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
            ref = refs.of(x, None)
            if isinstance(ref, DefineUse):
                inner.append((1, ref.expanded, per_item))
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
