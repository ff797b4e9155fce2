"""Compile games with closures only: the compiler's fallback when its code generators cannot
write a statement.  Tests compare such games with the generated ones, move by move."""
import rulelang.compile.compiler as C
import rulelang.compile.gameloop as G


class _NoGen:
    """Stands in for ExprGen: every function it is asked for is the closure of the expression
    (the compiler asks it for its constants, endings, scores and shown values), and it refuses
    the rest, so the compiler uses closures only."""

    def __init__(self, cg):
        self.cg = cg

    def function(self, e, env=None):
        cg = self.cg
        cg.gen = None               # the closure backend asks its generator first: not here
        try:
            return cg.cx(e)
        finally:
            cg.gen = self

    def player_function(self, e, nslots):
        cond = self.function(e)
        return lambda g, p: cond(g, [-1, 0, p] + [0] * nslots)

    def refuse(self, *args):
        raise C.Unsupported("off")

    enumerator = endings_function = refuse


class _NoRuleGen:
    def __init__(self, cg):
        pass

    def compile_rule(self, body, pid):
        raise C.Unsupported("off")


class _NoFusion:
    def __init__(self, cg, exprs):
        pass

    def is_simple(self, st):
        return False


def closures_only(monkeypatch):
    """From here on in the test, games compile to closures only."""
    monkeypatch.setattr(C, "ExprGen", _NoGen)
    monkeypatch.setattr(C, "StatementGen", _NoFusion)
    monkeypatch.setattr(C, "RuleGen", _NoRuleGen)
    monkeypatch.setattr(G, "RuleGen", _NoRuleGen)     # the turn that goes on to the next turn
