"""The shared load of the test suite (tests/conftest.py): within a worker, a rule file of rules/
or examples/ is checked once per text, options and optimisations, and its compiled games are
shared.  What it keeps apart is kept apart, a shared game plays as a fresh one, and a test that
patches rulelang gets games of its own."""
import os
import random
from types import SimpleNamespace

import pytest

import conftest
import rulelang.compile.compiler as C
from rulelang.compile.loader import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CIQ = os.path.join(ROOT, "rules", "ciq.cardrules")
FTL = os.path.join(ROOT, "rules", "follow_the_leader.cardrules")
JOKERS = os.path.join(ROOT, "rules", "follow_the_leader_jokers.cardrules")       # extends FTL
EIGHTS = os.path.join(ROOT, "examples", "crazy_eights.cardrules")


def test_different_inputs_never_share_an_entry():
    keys = [conftest.load_key(CIQ), conftest.load_key(CIQ, {"decks": 2}),
            conftest.load_key(CIQ, {"decks": "2"}), conftest.load_key(CIQ, optimize="none"),
            conftest.load_key(CIQ, optimize={"copies"}), conftest.load_key(FTL),
            conftest.load_key(JOKERS), conftest.load_key(EIGHTS)]
    assert None not in keys and len(set(keys)) == len(keys)
    assert conftest.load_key(os.path.relpath(CIQ)) == conftest.load_key(CIQ)
    games = [load(CIQ), load(CIQ, {"decks": 2}), load(CIQ, optimize="none"), load(FTL),
             load(JOKERS), load(EIGHTS)]
    assert len({id(g.model) for g in games}) == len(games)
    assert load(CIQ, {"decks": 2}).options()["decks"] == 2 and load(CIQ).options()["decks"] == 1


def test_the_key_is_the_text_of_the_file_and_of_what_it_extends():
    texts, _options, _opts = conftest.load_key(JOKERS)
    assert [path for path, _data in texts] == [os.path.realpath(JOKERS), os.path.realpath(FTL)]
    with open(FTL, "rb") as fh:
        assert texts[1][1] == fh.read()


def test_a_file_outside_rules_and_examples_or_given_as_text_is_loaded_each_time(tmp_path):
    path = tmp_path / "eights.cardrules"
    with open(EIGHTS, encoding="utf-8") as fh:
        path.write_text(fh.read(), encoding="utf-8")
    assert conftest.load_key(str(path)) is None
    assert load(str(path)).model is not load(str(path)).model
    with open(EIGHTS, encoding="utf-8") as fh:
        text = fh.read()
    assert load(EIGHTS, text=text).model is not load(EIGHTS, text=text).model


def test_one_model_and_one_compiled_game_per_key():
    a, b = load(EIGHTS), load(EIGHTS)
    assert a is not b and a.model is b.model
    assert a.compiled(2) is b.compiled(2)
    assert a.compiled(2) is not a.compiled(3)
    fast, plain = a.compiled(2, optimize="all"), a.compiled(2, optimize="none")
    assert fast is not plain and fast.opts != plain.opts


def _random_game(cg, seed):
    st = cg.new_game(seed=seed, log=True)
    rng = random.Random(seed)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    return st


@pytest.mark.parametrize("path,players", [(CIQ, 3), (JOKERS, 4), (EIGHTS, 2)],
                         ids=["ciq", "follow_the_leader_jokers", "crazy_eights"])
def test_a_shared_game_plays_as_a_fresh_one(path, players):
    """The compiled game shared by the tests, after games played on it, plays each seed as the
    game the loader makes afresh: the same log and the same final state."""
    shared = load(path).compiled(players)
    for seed in range(3):
        _random_game(shared, seed)                          # (games played before)
    again = load(path).compiled(players)
    assert again is shared
    fresh = conftest._fresh_load(path).compiled(players)
    assert fresh is not shared
    for seed in range(3):
        a, b = _random_game(again, seed), _random_game(fresh, seed)
        assert a.log == b.log and a.to_json() == b.to_json(), seed


def test_a_test_that_patches_rulelang_compiles_its_own_games(monkeypatch):
    before = load(EIGHTS)
    cg = before.compiled(2)
    assert load(EIGHTS).compiled(2) is cg
    made = []
    real = C.CompiledGame._generate_rules

    def counting(self):
        made.append(self.n)
        return real(self)
    monkeypatch.setattr(C.CompiledGame, "_generate_rules", counting)
    after = load(EIGHTS)
    assert after.model is not before.model
    assert after.compiled(2) is not cg and made == [2]
    assert before.compiled(2) is not cg and made == [2, 2]    # (loaded before the patch too)


def test_the_terminal_s_settings_are_not_a_patch(monkeypatch):
    cg = load(EIGHTS).compiled(2)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("sys.argv", ["rulelang"])
    monkeypatch.chdir(ROOT)
    assert load(os.path.join("examples", "crazy_eights.cardrules")).compiled(2) is cg
    monkeypatch.setenv("RULELANG_OPT", "none")
    assert load(EIGHTS).compiled(2) is not cg


def test_a_test_that_leaves_a_shared_game_changed_fails_and_the_game_is_dropped():
    cg = load(EIGHTS).compiled(2)
    root = cg.procs[cg.root]
    cg.procs[cg.root] = lambda g, fr, pc: root(g, fr, pc)
    try:
        teardown = conftest.pytest_runtest_teardown(SimpleNamespace(nodeid="a test"), None)
        next(teardown)
        with pytest.raises(AssertionError, match="left 1 shared compiled game"):
            teardown.send(None)
    finally:
        cg.procs[cg.root] = root
    again = load(EIGHTS).compiled(2)
    assert again is not cg and again.procs[again.root] is not cg.procs[cg.root]
