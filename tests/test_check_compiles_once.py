"""`rulelang check` writes a game's rules once.

A game is compiled for one number of players at a time, and `check` asks every number it allows
(compile/loader.py, ``counts_to_compile``).  Only the layout of the game (its cards, their
attributes, the values of options) depends on that number in a way that can make a problem, so
the rules are written for the first number only and the others are laid out
(``CompiledGame.layout_problems``); with ``--simulate`` the games played reuse what `check`
compiled.
"""
import os

import pytest

import rulelang.compile.compiler as C
from rulelang.cli.check import check_one
from rulelang.compile.loader import counts_to_compile as _counts_to_compile
from rulelang.compile.loader import check_file, load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANY_COUNTS = os.path.join(ROOT, "rules", "follow_the_leader.cardrules")     # 3 to 6 players

# A problem that only four players make: the attribute divides by zero for the ace.
FOUR_ONLY = '''game "Weights"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
attribute weight:
    otherwise: 60 / ((number of players - 4) * 100 + rank of card - 1)
game ends when hand is empty:
    end game with winner you
setup:
    shuffle stock
    deal 5 from stock to hand of each player
turn:
    move top card from stock to hand
    end game with winner you
'''


@pytest.fixture
def written(monkeypatch):
    """The numbers of players whose rules were written, in order."""
    out = []
    real = C.CompiledGame._generate_rules

    def counting(self):
        out.append(self.n)
        return real(self)
    monkeypatch.setattr(C.CompiledGame, "_generate_rules", counting)
    return out


def test_check_writes_the_rules_once_for_a_game_of_several_counts(written):
    _d, model, _ = check_file(MANY_COUNTS)
    assert len(list(_counts_to_compile(model))) > 1
    diags, internal = check_one(MANY_COUNTS, {})
    assert not internal and not [d for d in diags if d.is_error]
    assert written == [model.players[0]]


def test_a_problem_of_another_count_is_still_found(tmp_path, written):
    path = tmp_path / "weights.cardrules"
    path.write_text(FOUR_ONLY)
    diags, internal = check_one(str(path), {})
    assert not internal
    assert [(d.code, d.span.line) for d in diags if d.is_error] == [("RL911", 7)]
    assert written == [2]
    # the same problem the game compiled for four players stops with
    game = load(str(path))
    with pytest.raises(Exception) as e:
        game.compiled(4)
    assert [d.code for d in e.value.diagnostics] == ["RL911"]
    assert [p[0] for p in C.CompiledGame.layout_problems(game.model, 4)] == ["RL911"]
    assert C.CompiledGame.layout_problems(game.model, 3) == []


def test_the_layout_alone_finds_what_compiling_finds_in_every_real_file():
    for folder in ("rules", "examples"):
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if not name.endswith(".cardrules"):
                continue
            game = load(os.path.join(ROOT, folder, name))
            for n in _counts_to_compile(game.model):
                full = C.CompiledGame(game.model, n)
                laid = C.CompiledGame(game.model, n, layout_only=True)
                assert laid.problems == full.problems
                assert (laid.zone_info, laid.card_names, laid.attr_tables) == \
                    (full.zone_info, full.card_names, full.attr_tables), (name, n)


def test_check_simulate_plays_the_game_check_compiled(tmp_path, monkeypatch):
    loads = []
    import rulelang.play.simulate as S
    real = S.load

    def counting(*a, **k):
        loads.append(a[0])
        return real(*a, **k)
    monkeypatch.setattr(S, "load", counting)
    path = os.path.join(ROOT, "examples", "old_maid.cardrules")
    diags, internal = check_one(path, {}, simulate=2)
    assert not internal and not [d for d in diags if d.is_error]
    assert loads == []
