"""A rule that calls itself returns where it was called, whichever rule runs it, at any depth the
step budget allows: in the generated code and in the closures alike (the frame bug)."""
import random
import subprocess
import sys

import pytest

from rulelang.compile.loader import load

from closures import closures_only
from gameprops import random_playout
from gametest import said_in_game

HEAD = ('game "g"\nplayers 1\ndeck standard, into stock\nzone stock: shared, face up\n'
        'zone hand: per player, seen by owner\n')

# A minimal file: before the fix, `outer` was called as a plain Python function
# (it never decides) although the rule it calls is run by the run loop, so `inner` returned to
# the turn, which ran again from its start until the step budget.
ISSUE = HEAD + '''rule inner(k):
    if k < 3:
        inner(k + 1)
    say "inner done", k
rule outer:
    inner(1)
    say "outer done"
setup:
    shuffle stock
turn:
    outer
    say "after outer"
    end game with no winner
'''

# A choice earlier in the turn: before the fix the choice's body ran again when `inner` returned.
AFTER_CHOICE = HEAD + '''rule inner(k):
    if k < 3:
        inner(k + 1)
    say "inner done", k
rule outer:
    inner(1)
    say "outer done"
setup:
    shuffle stock
turn:
    choose:
        take card c from stock where rank of c is 4 and suit of c is hearts:
            move c from stock to hand
            outer
            say "after outer"
    end game with no winner
'''

# A decision inside the rule that calls itself: each level waits for the player.
ACROSS_DECISION = HEAD + '''rule inner(k):
    choose:
        deeper:
            inner(k + 1)
        enough:
            say "bottom", k
    say "inner done", k
rule outer:
    inner(1)
    say "outer done"
setup:
    shuffle stock
turn:
    outer
    say "after outer"
    end game with no winner
'''

DEEP = HEAD + '''option depth = 10
rule down(k):
    if k < depth:
        down(k + 1)
    if k is depth or k is 1:
        say "level", k
rule start:
    down(1)
    say "back"
setup:
    shuffle stock
turn:
    start
    end game with no winner
'''


def _says(path, choose=None, backend="generated", monkeypatch=None, max_steps=None, **opts):
    return said_in_game(path, 1, choose, backend, monkeypatch, max_steps, **opts)


def _file(tmp_path, text, name="g.cardrules"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_rule_calling_itself_returns_to_the_rule_that_ran_it(tmp_path, monkeypatch, backend):
    says, st = _says(_file(tmp_path, ISSUE), backend=backend, monkeypatch=monkeypatch)
    assert says == ["inner done 3", "inner done 2", "inner done 1", "outer done", "after outer"]
    assert st.outcome == "draw" and st.problem is None


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_recursion_after_a_choice_earlier_in_the_turn(tmp_path, monkeypatch, backend):
    says, st = _says(_file(tmp_path, AFTER_CHOICE), backend=backend, monkeypatch=monkeypatch)
    assert says == ["inner done 3", "inner done 2", "inner done 1", "outer done", "after outer"]
    assert st.problem is None and st.decisions == 1


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_recursion_across_a_decision_inside_the_recursive_rule(tmp_path, monkeypatch, backend):
    path = _file(tmp_path, ACROSS_DECISION)
    seen = []

    def choose(names):
        seen.append(sorted(names))
        return "deeper" if len(seen) < 4 else "enough"
    says, st = _says(path, choose, backend=backend, monkeypatch=monkeypatch)
    assert says == ["bottom 4", "inner done 4", "inner done 3", "inner done 2", "inner done 1",
                    "outer done", "after outer"]
    assert st.problem is None and st.decisions == 4
    assert seen == [["deeper", "enough"]] * 4


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_deep_recursion_within_the_step_budget(tmp_path, monkeypatch, backend):
    says, st = _says(_file(tmp_path, DEEP), backend=backend, monkeypatch=monkeypatch,
                     depth=20_000)
    assert says == ["level 20000", "level 1", "back"]
    assert st.problem is None


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_recursion_deeper_than_the_step_budget_is_rl901(tmp_path, monkeypatch, backend):
    says, st = _says(_file(tmp_path, DEEP), backend=backend, monkeypatch=monkeypatch,
                     depth=1_000_000, max_steps=30_000)
    assert says == []
    assert st.outcome == "error" and st.problem["code"] == "RL901"
    assert "30000 steps" in st.problem["message"]


def test_run_reports_runaway_recursion_as_a_problem_of_the_game_not_a_crash(tmp_path):
    path = _file(tmp_path, DEEP)
    r = subprocess.run([sys.executable, "-m", "rulelang", "run", str(path), "--set",
                        "depth=1000000", "--max-steps", "50000"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "RL901" in r.stdout + r.stderr and "RecursionError" not in r.stdout + r.stderr


LEAF = HEAD + '''rule leaf:
    say "leaf"
rule middle:
    leaf
    say "middle done"
setup:
    shuffle stock
turn:
    middle
    say "after middle"
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "reference"])
def test_a_rule_calling_a_rule_run_by_the_run_loop_is_not_called_as_a_python_function(
        tmp_path, monkeypatch, backend):
    """Only a rule whose callees never wait for a decision may be called as a Python function:
    a rule that waits (here `leaf`) is resumed by the run loop, and returns to the frame below
    it (in the reference interpreter every rule runs in the run loop).  (Before the generator wrote every rule, the
    rule run by the run loop was one left to the closures.)"""
    import rulelang.compile.compiler as C
    if backend == "reference":
        closures_only(monkeypatch)
    text = LEAF.replace('rule leaf:\n    say "leaf"\n',
                        'rule leaf:\n    choose:\n        go:\n            say "leaf"\n')
    game = load(str(_file(tmp_path, text)))
    cg = C.CompiledGame(game.model, 1)
    assert cg.proc_index["middle"] not in cg.direct_rules
    st = cg.new_game(seed=1, log=True)
    random_playout(st, random.Random(1))
    assert [e[2] for e in st.log if e[0] == "say"] == ["leaf", "middle done", "after middle"]