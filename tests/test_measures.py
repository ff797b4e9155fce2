"""The game-quality measures (rulelang/play/measures.py) on games built to have known values
(tests/measures/): one whose lead never changes and that is decided at its first turn, one whose
lead changes hands, one of pure luck."""
import json
import os

from rulelang.cli.commands import main
from rulelang.compile.loader import load
from rulelang.play import measures as M
from rulelang.play.stats import binomial_test, play_game, play_games, summarize

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "measures")
STEADY = os.path.join(HERE, "steady.cardrules")
SEESAW = os.path.join(HERE, "seesaw.cardrules")
COIN = os.path.join(HERE, "coin.cardrules")
ROOT = os.path.dirname(HERE.rstrip(os.sep)).rstrip(os.sep)
ROOT = os.path.dirname(ROOT)


def report(path, games=20, agents=None, seed=1):
    g = load(path)
    names = agents or ["random", "random"]
    played = play_games(path, {}, 2, games, seed, names, coverage=False, workers=1,
                        measures=True)
    return summarize(played, g.name, 2, seed, names)


def test_no_lead_changes_and_decided_at_the_first_turn():
    m = report(STEADY)["measures"]
    assert m["who_leads"] == "the highest score"
    lead = m["lead"]
    assert lead["games_with_a_sole_winner"] == 20
    assert lead["lead_changes"] == {"mean": 0.0, "max": 0, "games_with_any": 0.0}
    assert lead["drama"] == {"games_winner_behind": 0.0, "mean_share_behind": 0.0}
    # 10 turns, 11 points: a tie at the start, then player 1 leads to the end
    assert abs(lead["decisiveness"]["mean_decided_at"] - 1 / 10) < 1e-12
    assert lead["decisiveness"]["median_decided_at"] == 1 / 10
    assert lead["uncertainty"]["curve"] == [1.0] + [0.0] * 10
    assert lead["uncertainty"]["mean"] == 0.0
    fs = m["first_seat"]
    assert fs["wins"] == 20 and fs["advantage"] == 0.5 and fs["significant"]
    assert fs["p_value"] == binomial_test(20, 20, 0.5)


def test_the_lead_changing_hands():
    cg = M.compiled_for_measures(load(SEESAW), 2)
    rec, trace = M.traced_game(play_game, cg, ["random", "random"], 5)
    assert trace == ((0, 0), (2, 0), (2, 3), (4, 3), (4, 6), (6, 6), (6, 9), (8, 9), (8, 12))
    leaders = [M.leader(s, "highest") for s in trace]
    assert leaders == [None, 0, 1, 0, 1, None, 1, 1, 1]
    lead = report(SEESAW)["measures"]["lead"]
    assert lead["lead_changes"] == {"mean": 3.0, "max": 3, "games_with_any": 1.0}
    assert lead["drama"]["games_winner_behind"] == 1.0
    assert abs(lead["drama"]["mean_share_behind"] - 2 / 9) < 1e-12
    assert lead["decisiveness"]["median_decided_at"] == 6 / 8
    # at 0.1 .. 0.9 of the game the points round(f * 8): 1, 2, 2, 3, 4, 5, 6, 6, 7
    assert lead["uncertainty"]["curve"] == [1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert abs(lead["uncertainty"]["mean"] - 3 / 9) < 1e-12


def test_the_pieces():
    assert M.lead_changes([None, 0, None, 0, 1, 1, None, 0]) == 2
    assert M.leader((3, 3, 1), "highest") is None and M.leader((3, 3, 1), "lowest") == 2
    assert M.decided_at([None, 1, 0, 0], 0) == 2 / 3
    assert M.decided_at([0, 0, 0], 0) == 0.0
    assert M.decided_at([0, 0, None], 0) == 1.0
    assert M.behind_share([1, None, 0, 0], 0) == 0.25


def test_the_direction_of_the_score():
    assert M.score_sense(load(os.path.join(ROOT, "examples", "golf.cardrules")).model) == "lowest"
    assert M.score_sense(load(os.path.join(ROOT, "rules", "attack.cardrules")).model) == "highest"
    assert M.score_sense(load(os.path.join(ROOT, "rules", "follow_the_leader.cardrules")).model) is None


def test_a_game_without_a_score_says_so():
    r = report(os.path.join(ROOT, "rules", "follow_the_leader.cardrules"), games=4)
    assert r["measures"]["lead"] is None and "neither a score nor a declared progress" in \
        r["measures"]["no_lead"]
    assert r["measures"]["first_seat"]["games"] == 4


def test_pure_luck_skill_gains_nothing():
    """In Coin nothing a player does changes what they draw: a searching agent (mc) against
    random, seats rotated, wins within the 99.9% bound of an even share of the games won."""
    n = 30
    a = report(COIN, n, ["mc:8", "random"], seed=1)
    b = report(COIN, n, ["random", "mc:8"], seed=1)
    mc = a["seats"][0]["wins"] + b["seats"][1]["wins"]
    rnd = a["seats"][1]["wins"] + b["seats"][0]["wins"]
    assert binomial_test(mc, mc + rnd) > 0.001
    r = report(COIN, n)
    assert not r["measures"]["first_seat"]["significant"]
    assert r["measures"]["first_seat"]["p_value"] == binomial_test(
        r["seats"][0]["wins"], r["sole_wins"], 0.5)


def test_measuring_plays_the_same_games():
    """The same games measured or not, and a point for each turn that has a decision: also in
    a game whose score draws a random card (tests/measures/lucky_score.cardrules) and in one
    that never reads the count of turns (the fast playouts may count them in a local)."""
    for path, agents in ((os.path.join(ROOT, "examples", "crazy_eights.cardrules"), ["random", "random"]),
                         (os.path.join(ROOT, "examples", "crazy_eights.cardrules"), ["first", "random"]),
                         (os.path.join(HERE, "lucky_score.cardrules"), ["random", "random"]),
                         (os.path.join(HERE, "lucky_score.cardrules"), ["mc:2", "random"])):
        plain = play_games(path, {}, 2, 6, 3, agents, coverage=False, workers=1, max_steps=3000,
                           records=True)
        measured = play_games(path, {}, 2, 6, 3, agents, coverage=False, workers=1,
                              max_steps=3000, measures=True, records=True)
        assert [r[:9] for r in measured.records] == plain.records
        if "lucky" in path:
            # every turn has a decision: a point when each begins, and one at the end
            cg = M.compiled_for_measures(load(path), 2)
            for r in plain.records:
                rec, trace = M.traced_game(play_game, cg, agents, 3 + r[0], 3000, index=r[0])
                assert rec == r and len(trace) == r[4] + 1


def test_stats_json_and_the_terminal_report(capsys):
    assert main(["stats", STEADY, "--games", "10", "--workers", "1", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["measures"]["lead"]["lead_changes"]["mean"] == 0.0
    assert main(["stats", STEADY, "--games", "10", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    first = out.strip().splitlines()[0]
    assert first.startswith("in short:") and "seat 1 wins significantly more often" in first
    assert "lead changes" in out and "decisiveness" in out


def test_the_html_report_has_the_verdict_and_the_measures(tmp_path):
    import pytest
    pytest.importorskip("matplotlib")
    page = tmp_path / "steady.html"
    assert main(["stats", SEESAW, "--games", "10", "--workers", "1", "--report", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "In short: short: a median of 8 decisions; seat 2 wins significantly more often; " \
           "lead changes hands often." in text
    assert "Game-quality measures" in text and "lead changes: 3.00 per game" in text


def test_a_game_without_a_score_in_words(capsys):
    path = os.path.join(ROOT, "rules", "follow_the_leader.cardrules")
    assert main(["stats", path, "--games", "4", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "no score or progress, so no lead to follow" in " ".join(out.splitlines()[:3])
    assert "the game has neither a score nor a declared progress, so no seat is said to lead" \
        in " ".join(out.split())
