"""Stability, the trend of each seat's standing, a declared `progress:` and skill versus luck
(rulelang/play/measures.py, rulelang/play/skill.py) on games built to have known values
(tests/measures/)."""
import json
import os

from rulelang.cli.commands import main
from rulelang.compile.loader import load
from rulelang.play import measures as M
from rulelang.play.skill import play_skill, skill_report
from rulelang.play.stats import binomial_test, play_game, play_games, summarize

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "measures")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEESAW = os.path.join(HERE, "seesaw.cardrules")
SHED = os.path.join(HERE, "shed.cardrules")
STEADY = os.path.join(HERE, "steady.cardrules")
COIN = os.path.join(HERE, "coin.cardrules")
GREEDY = os.path.join(HERE, "greedy.cardrules")
EIGHTS = os.path.join(ROOT, "examples", "crazy_eights.cardrules")


def report(path, games=10, agents=None, seed=1, text=None):
    g = load(path, text=text) if text is not None else load(path)
    names = agents or ["random", "random"]
    played = play_games(path, {}, 2, games, seed, names, coverage=False, workers=1,
                        measures=True, text=text)
    return summarize(played, g.name, 2, seed, names)


def _pvar(xs):
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / len(xs)


def test_stability_of_the_seesaw():
    # the seesaw's scores: player 1 two points a turn, player 2 three; the range is 0..12
    one = [0, 2, 2, 4, 4, 6, 6, 8, 8]
    two = [0, 0, 3, 3, 6, 6, 9, 9, 12]
    want = (_pvar([x / 12 for x in one]) + _pvar([x / 12 for x in two])) / 2
    st = report(SEESAW)["measures"]["stability"]
    assert st["games"] == 10
    assert abs(st["mean_variance"] - want) < 1e-12
    assert st["setbacks"] == 0.0 and st["games_with_setbacks"] == 0.0


def test_stability_counts_the_steps_back():
    assert M.stability(((0, 0),)) is None
    var, falls, steps = M.stability(((0, 0), (2, 0), (1, 0), (1, 4)))
    assert (falls, steps) == (1, 6)
    assert M.stability(((5, 5), (5, 5)))[0] == 0.0          # no range: no variance
    # for a lowest score a step up is the step back
    trace = ((10, 10), (8, 10), (8, 8))
    assert M.per_game(trace, "won", (0,), "lowest")[5][1] == 0
    assert M.per_game(trace, "won", (0,), "highest")[5][1] == 2


def test_the_trend_of_the_seesaw():
    tr = report(SEESAW)["measures"]["trend"]
    assert tr["checkpoints"] == list(M.CHECKPOINTS) and tr["games"] == 10
    # at f = 0, 0.1, .. 1 the points round(8 f): 0, 1, 2, 2, 3, 4, 5, 6, 6, 7, 8
    assert tr["seats"][0]["mean"] == [0, 2, 2, 2, 4, 4, 6, 6, 6, 8, 8]
    assert tr["seats"][1]["mean"] == [0, 0, 3, 3, 3, 6, 6, 9, 9, 9, 12]
    assert tr["seats"][0]["sd"] == [0.0] * 11 and tr["seats"][1]["p90"][-1] == 12


def _levels(games):
    """The standings at the checkpoints of these games as the measures gather them (counts per
    checkpoint and seat, mergeable: measures.Gathered)."""
    gathered = M.Gathered()
    for lv in games:
        gathered.add((0, None, None, None, lv, None))
    return gathered.levels


def test_the_trend_is_a_mean_and_a_spread():
    games = [((0, 0),) * 10 + ((4, 1),), ((0, 0),) * 10 + ((2, 3),)]
    tr = M.trends(_levels(games))
    assert tr["seats"][0]["mean"][-1] == 3.0 and tr["seats"][0]["sd"][-1] == 1.0
    assert tr["seats"][1]["mean"][-1] == 2.0 and tr["seats"][1]["sd"][-1] == 1.0
    assert tr["seats"][0]["p10"][-1] == 2.2 and tr["seats"][0]["p90"][-1] == 3.8
    assert M.trends(_levels([None])) is None
    # gathered in two halves and merged, the same figures
    a, b = M.Gathered(), M.Gathered()
    a.add((0, None, None, None, games[0], None))
    b.add((0, None, None, None, games[1], None))
    assert M.trends(a.merge(b).levels) == tr


def test_a_declared_progress_says_who_leads():
    """Shed has no score: its `progress:` (the cards shed) says who leads."""
    cg = M.compiled_for_measures(load(SHED), 2)
    rec, trace = M.traced_game(play_game, cg, ["random", "random"], 3)
    assert trace == ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2))
    assert rec[2] == (0,)
    m = report(SHED)["measures"]
    assert m["lead_by"] == "progress" and "progress" in m["who_leads"]
    lead = m["lead"]
    assert lead["lead_changes"] == {"mean": 0.0, "max": 0, "games_with_any": 0.0}
    assert lead["decisiveness"]["median_decided_at"] == 1.0     # a tie just before the end
    assert m["trend"]["seats"][0]["mean"][-1] == 3 and m["trend"]["seats"][1]["mean"][-1] == 2


def test_a_declared_progress_comes_before_the_score():
    """Steady scores player 1 a point a turn; a progress of minus the points makes player 2 the
    leader instead, and the lead is then never the winner's."""
    with open(STEADY, encoding="utf-8") as fh:
        text = fh.read().replace("score: points\n", "score: points\nprogress: 0 - points\n")
    m = report(STEADY, text=text)["measures"]
    assert m["lead_by"] == "progress"
    assert m["lead"]["drama"]["games_winner_behind"] == 1.0
    assert m["lead"]["uncertainty"]["curve"][1:] == [1.0] * 10


def test_a_declared_progress_changes_no_game():
    with open(EIGHTS, encoding="utf-8") as fh:
        text = fh.read()
    assert "\nprogress: 0 - size of hand\n" in text
    without = text.replace("\nprogress: 0 - size of hand\n", "\n")
    for agents in (["random", "random"], ["first", "mc:2"]):
        a = play_games(EIGHTS, {}, 2, 6, 5, agents, coverage=False, workers=1, text=text)
        b = play_games(EIGHTS, {}, 2, 6, 5, agents, coverage=False, workers=1, text=without)
        assert a.records == b.records
    r = report(EIGHTS, games=6)
    assert r["measures"]["lead_by"] == "progress" and r["measures"]["lead"]["games"] == 6
    assert r["measures"]["stability"]["setbacks"] > 0         # drawing a card is a step back


def test_a_variant_replaces_the_progress(tmp_path):
    (tmp_path / "base.cardrules").write_text(open(SHED, encoding="utf-8").read(), "utf-8")
    v = tmp_path / "v.cardrules"
    v.write_text('extends "base.cardrules"\ngame "Shed backwards"\nreplace progress: size of hand\n',
                 "utf-8")
    assert load(str(v)).model.progress.expr is not None
    cg = M.compiled_for_measures(load(str(v)), 2)
    assert M.traced_game(play_game, cg, ["random", "random"], 3)[1][:2] == ((3, 3), (2, 3))


def test_the_rulebook_says_what_progress_is(capsys):
    assert main(["rulebook", EIGHTS]) == 0
    out = capsys.readouterr().out
    assert "## Who is ahead" in out and "decides nothing in the game" in out


def test_pure_luck_gains_nothing_and_the_report_says_so():
    per_seat, stopped = play_skill(COIN, {}, 2, 30, 1, "mc:8", "random")
    assert not stopped and [len(x) for x in per_seat] == [30, 30]
    sk = skill_report(per_seat, 2, "mc:8", "random", 30)
    g = sk["gain"]
    assert g["games"] == sum(s["sole_winner_games"] for s in sk["by_seat"])
    assert g["p_value"] == binomial_test(g["wins"], g["games"], 0.5) and g["p_value"] > 0.05
    assert g["ci95"][0] <= 0.5 <= g["ci95"][1]
    assert g["gain_ci95"][0] <= 0.0 <= g["gain_ci95"][1]
    assert sk["matters"] == "no" and sk["verdict"].startswith("skill does not matter")


def test_skill_matters_where_it_does():
    per_seat, _ = play_skill(GREEDY, {}, 2, 20, 1, "mc:8", "random")
    sk = skill_report(per_seat, 2, "mc:8", "random", 20)
    g = sk["gain"]
    assert g["p_value"] < 0.001 and g["gain"] > 0.3 and g["gain_ci95"][0] > 0.2
    assert sk["matters"] == "yes" and sk["verdict"].startswith("skill matters")
    assert all(s["wins"] == s["sole_winner_games"] for s in sk["by_seat"])   # never loses


def test_stats_skill_json_and_words(capsys):
    assert main(["stats", GREEDY, "--games", "10", "--workers", "1", "--skill", "mc:4",
                 "--skill-games", "8", "--json", "--no-coverage"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["skill"]["strong"] == "mc:4" and r["skill"]["matters"] in ("yes", "undecided")
    assert r["skill"]["first_seat"] == r["measures"]["first_seat"]
    assert "stability" in r["measures"] and "trend" in r["measures"]
    assert main(["stats", COIN, "--games", "10", "--workers", "1", "--skill", "mc:4",
                 "--skill-games", "30", "--no-coverage"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("in short:") and "skill does not matter" in out.split("Coin")[0]
    assert "skill versus luck" in out and "stability:" in out and "trend, seat 1's score" in out


def test_skill_needs_another_agent(capsys):
    assert main(["stats", COIN, "--games", "2", "--skill", "random"]) == 2
    assert "the agent it would be measured against" in capsys.readouterr().err
    assert main(["stats", COIN, "--games", "2", "--skill-games", "0"]) == 2
    assert main(["stats", COIN, "--games", "2", "--skill-games", "10001"]) == 2
    assert "from 1 to 10,000" in capsys.readouterr().err


def test_compare_in_words(capsys):
    """compare: the verdict first, p-values said in words, the places that ran on one side only
    with their lines' text, and each side's measures."""
    ftl = os.path.join(ROOT, "rules", "follow_the_leader.cardrules")
    assert main(["compare", ftl, "--a-set", "jokers=no", "--b-set", "jokers=yes", "--games", "30",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("in short:") and "ran only in B" in out.split("\nA: ")[0]
    assert "significant" in out and "if is_joker(c):" in out
    sevens = os.path.join(ROOT, "examples", "sevens.cardrules")
    assert main(["compare", sevens, "--a-set", "hand_size=5", "--b-set", "hand_size=9", "--games",
                 "10", "--workers", "1", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)
    assert c["a"]["measures"]["trend"]["seats"][0]["mean"][0] == 5
    assert c["b"]["measures"]["trend"]["seats"][0]["mean"][0] == 9


def test_p_values_in_words():
    from rulelang.cli.report_quality import p_words, significance
    assert p_words(0.0004) == "p < 0.001: a clear difference"
    assert p_words(0.03) == "p = 0.030: a difference (significant at 5%)"
    assert p_words(0.5) == "p = 0.500: no sign of a difference"
    assert [significance(p) for p in (0.0001, 0.005, 0.04, 0.2)] == ["clearly", "yes",
                                                                      "yes, just", "no"]
