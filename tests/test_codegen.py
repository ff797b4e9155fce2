"""The generated expression functions and the closures they replace play identical games."""
import glob
import random

import pytest

import rulelang.compiler as C
from rulelang.codegen import ExprGen, _safe
from rulelang.loader import load

from gameprops import random_playout

FILES = sorted(glob.glob("examples/*.cardrules") + glob.glob("rules/*.cardrules"))


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


def _transcripts(model, players, seeds):
    out = []
    cg = C.CompiledGame(model, players)
    for seed in seeds:
        st = cg.new_game(seed=seed, log=True, max_steps=20_000)
        random_playout(st, random.Random(seed))
        out.append((st.log, st.winners, st.outcome))
    return out


@pytest.mark.parametrize("path", FILES)
def test_generated_code_plays_like_closures(path, monkeypatch):
    game = load(path)
    lo, hi = game.players
    n = min(hi, lo + 1)
    fast = _transcripts(game.model, n, range(4))
    monkeypatch.setattr(C, "ExprGen", _NoGen)
    monkeypatch.setattr(C, "StatementGen", _NoFusion)
    monkeypatch.setattr(C, "RuleGen", _NoRuleGen)
    slow = _transcripts(game.model, n, range(4))
    assert fast == slow


def test_generated_source_rejects_foreign_names():
    with pytest.raises(AssertionError):
        _safe("def _f(g, fr):\n    return __import__(1)\n")
    with pytest.raises(AssertionError):
        _safe("def _f(g, fr):\n    return 'x'\n")
