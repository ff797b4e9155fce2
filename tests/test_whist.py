"""Whist (examples/whist.cardrules): a partnership trick-taking game with trumps.  Its rulebook's
worked examples (examples/whist.cardtest), and the teams as a player, an agent or a designer
sees them: a team wins together in `run --json`, `State.results()`, `returns()` and `rulelang
stats`; the reference interpreter, the generated code and the fast path play the same games."""
import json
import os
import random

import pytest

from rulelang.cli.commands import main
from rulelang.compile.loader import load
from rulelang.play.cardtest_plan import check_test_file
from rulelang.play.cardtest_run import run_test

from gametest import log_lines, played
from reference import ReferenceGame

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WHIST = os.path.join(ROOT, "examples", "whist.cardrules")


@pytest.fixture(scope="module")
def game():
    return load(WHIST)


def test_the_rulebook_worked_examples():
    tf = check_test_file(os.path.join(ROOT, "examples", "whist.cardtest"))
    assert not tf.diagnostics
    assert len(tf.tests) == 7
    assert [run_test(t) for t in tf.tests] == [None] * 7


def test_partners_sit_opposite_and_win_together(game):
    cg = game.compiled(4)
    for seed in range(6):
        st = played(cg, seed, log=False)
        assert st.problem is None and st.is_terminal()
        assert st.teams() == [[0, 2], [1, 3]]
        assert sorted(st.winners) in ([0, 2], [1, 3])
        res, ret = st.results(), st.returns()
        assert res[0] == res[2] != res[1] == res[3]
        assert ret[0] == ret[2] == -ret[1] == -ret[3] and abs(ret[0]) == 1.0
        # the winning side reached the target; each partner holds the side's points
        pts = cg.var_base["points"]
        w = st.winners[0]
        assert st.vars[pts + w] >= 5 and st.vars[pts + w] == st.vars[pts + (w + 2) % 4]


def test_run_json_lists_the_teams_with_their_result(capsys):
    assert main(["run", WHIST, "--seed", "3", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert [t["players"] for t in res["teams"]] == [[1, 3], [2, 4]]
    win = [t for t in res["teams"] if t["result"] == "win"]
    assert len(win) == 1 and sorted(res["winners"]) == win[0]["players"]
    for t in res["teams"]:
        assert {res["results"][p - 1] for p in t["players"]} == {t["result"]}


def test_stats_reports_each_team_beside_the_seats(capsys):
    assert main(["stats", WHIST, "--games", "30", "--workers", "1", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert [t["players"] for t in r["teams"]] == [[1, 3], [2, 4]]
    assert sum(t["wins"] for t in r["teams"]) == r["games"] == 30
    assert r["shared_wins"] == 30 and r["sole_wins"] == 0       # every win is a side's
    assert all(0 <= t["ci95"][0] <= t["win_rate"] <= t["ci95"][1] <= 1 for t in r["teams"])
    assert main(["stats", WHIST, "--games", "10", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "team 1" in out and "1, 3" in out


def test_the_reference_the_generated_code_and_the_fast_path_agree(game):
    cg = game.compiled(4)
    ref = ReferenceGame(game.model, 4)
    for seed in range(4):
        a, b = played(cg, seed), played(ref, seed)
        assert log_lines(a, scores=True) == log_lines(b, scores=True)
        assert a.results() == b.results() and a.teams() == b.teams()
        fast = cg.playout(seed, [random.Random(seed * 10 + p).randrange for p in range(4)])
        api = cg.new_game(seed=seed)
        rngs = [random.Random(seed * 10 + p) for p in range(4)]
        while not api.is_terminal():
            acts = api.legal_actions()
            api.apply_action(acts[rngs[api.current_player()].randrange(len(acts))])
        assert fast.winners == api.winners and fast.vars == api.vars
        assert fast.results() == api.results()


def test_the_trump_card_is_seen_by_everyone_until_the_dealer_plays(game):
    cg = game.compiled(4)
    st = cg.new_game(seed=5)
    dealer = st.vars[cg.var_base["dealer"]]
    turned = st.zones[cg.zone_base["turned"]]
    assert len(turned) == 1
    for p in range(4):
        obs = st.observation(p)
        assert obs["zones"]["turned"] == [cg.card_names[turned[0]]]
        assert obs["vars"]  # the teams are public values
    # the dealer holds 12 cards until their first play, then plays from 13
    assert len(st.zones[cg.zone_base["hand"] + dealer]) == 12
    while st.current_player() != dealer:
        st.apply_action(st.legal_actions()[0])
    assert st.zones[cg.zone_base["turned"]] == []
    assert len(st.zones[cg.zone_base["hand"] + dealer]) == 13


def test_the_rulebook_says_the_teams(capsys):
    assert main(["rulebook", WHIST]) == 0
    out = capsys.readouterr().out
    assert "## Teams" in out and "partners sitting opposite" in out
    assert "the team of" in out and "wins; every other team loses" in out
