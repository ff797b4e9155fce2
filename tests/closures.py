"""Compile games with closures only: the compiler's fallback when its code generators cannot
write a statement.  Tests compare such games with the generated ones, move by move."""
import rulelang.compile.compiler as C
import rulelang.compile.gameloop as G


class _NoGen:
    """Stands in for ExprGen and refuses everything, so the compiler uses closures only."""

    def __init__(self, cg):
        pass

    def function(self, *args):
        raise C.Unsupported("off")

    player_function = enumerator = endings_function = function


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
