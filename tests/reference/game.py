"""The reference game: the layout, the game loop, the budget and the words of the compiled game,
with every rule and every value compiled to closures (see the package's docstring)."""
from __future__ import annotations

from rulelang.compile.compiler import CompiledGame

from reference.closure_control import ClosureControl
from reference.closure_statements import ClosureStatements
from reference.closure_values import ClosureValues


class _Closures:
    """Stands in for the value generator (``ExprGen``): the function of a value is its closure.
    The generator's fast test of every ending at once has no counterpart: ``endings_fast`` is
    None, and the endings are checked one by one (``GameLoop.check_endings``)."""

    def __init__(self, cg):
        self.cg = cg

    def function(self, e, env=None):
        return self.cg.cx(e)

    def player_function(self, e, nslots):
        cond = self.cg.cx(e)
        return lambda g, p: cond(g, [-1, 0, p] + [0] * nslots)     # (rulelang.kinds.Frame)

    def endings_function(self, conditions):
        return None


def _rule(code):
    """One function ``f(g, fr, pc)`` for a rule's list of instruction closures: it runs them from
    position ``pc`` until one returns a control code (below 0: a decision, a call, the end)."""
    def rule(g, fr, pc):
        while pc >= 0:
            pc = code[pc](g, fr)
        return pc
    return rule


class ReferenceGame(ClosureValues, ClosureStatements, ClosureControl, CompiledGame):
    """A rule file compiled to closures only, for one number of players."""

    def _values(self):
        return _Closures(self)

    def _generate_rules(self):
        """Each rule's closures; no rule is called as a Python function by another, none is
        copied where it is called (the run loop keeps every frame)."""
        self.proc_blocks = {}
        self.inline_bodies = {}
        self.direct_rules = frozenset()
        self.entered_rules = frozenset()
        bodies = [(self.proc_index[name], r.decl.body, r.nslots)
                  for name, r in self.model.rules.items()]
        bodies += [(pid, e.body, nslots)
                   for (_, pid, nslots), (e, _, _) in zip(self.endings, self.model.endings)]
        for pid, body, nslots in bodies:
            code = self._compile_rule(body, nslots)
            self.procs[pid] = _rule(code)
            self.proc_blocks[pid] = len(code)        # its positions (checked in a save)

    def _generate_turn(self):
        """The turn rule runs above the root as it is: when it returns, the root passes the turn
        on (``GameLoop._build_root``, positions 2 and 1), where the generated game's own turn
        goes on to the next turn itself."""
        self.procs[self.turn_top] = self.procs[self.proc_index["turn"]]

    def playout_procs(self) -> list:
        """The rules have no playout variants: a playout runs the same closures."""
        return self.procs

