"""The designer's workbench: `rulelang stats`, `compare`, rule coverage, `--workers`."""
import json
import math
import os

import pytest

from rulelang.cli.commands import main
from rulelang.compile.compiler import CompiledGame
from rulelang.compile.coverage import Coverage
from rulelang.compile.loader import load
from rulelang.play.stats import (binomial_test, chi2_sf, compare_reports, quantile, seat_test, t_sf2,
                            two_proportions, welch_from, wilson)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CRAZY = os.path.join(ROOT, "examples", "crazy_eights.cardrules")

# With `first` agents every turn draws: rounds goes 1, 2, 3; the 4th turn's decision sees the
# ending.  Counted by hand: setup 1, turn 4 (the 4th stops at its decision), draw 3, wait 0,
# `if rounds is 2` once (turn 2), its else twice (turns 1 and 3), the ending once.
COUNTING = """\
game "Counting"
players 2

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner

var rounds: number = 0

game ends when rounds is 3:
    end game with winner player 1

setup:
    shuffle stock

turn:
    choose:
        draw:
            move top card from stock to hand
            add 1 to rounds
        wait:
            say "never chosen by first"
    if rounds is 2:
        say "two"
    else:
        say "not two"
"""

# The bigger hand wins; equal hands share the win.  `target` rounds: the option changes the
# length of the game for certain.
TIES = """\
game "Ties"
players 2
option target = 1 from 1 to 20

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner

var rounds: number = 0

score: size of hand

game ends when rounds is target:
    end game by highest score

setup:
    shuffle stock

turn:
    choose:
        draw:
            move top card from stock to hand
        pass:
            say "pass"
    add 1 to rounds
"""


@pytest.fixture
def rules(tmp_path):
    def write(name, text):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return str(p)
    return write


def stats_json(capsys, *args):
    code = main(["stats", *args, "--json"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    return json.loads(cap.out)


# ---- the statistics ---------------------------------------------------------------------------

def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)                  # the textbook example: 0.2366 .. 0.7634
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 20)                  # no success: from 0 to z²/(n+z²)
    assert lo == 0 and hi == pytest.approx(1.959964 ** 2 / (20 + 1.959964 ** 2), rel=1e-6)


def test_wilson_interval_holds_the_proportion():
    """At k = 0 or k = n rounding once left the bound a hair beyond k/n (6.9e-18 for 0 of 10),
    and the HTML report's error bars, k/n minus the bound, failed as negative."""
    for n in range(1, 120):
        for k in range(n + 1):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_tests_known_values():
    assert binomial_test(7, 10) == pytest.approx(0.34375)          # 2 * (120+45+10+1) / 1024
    assert binomial_test(5, 10) == pytest.approx(1.0)
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(5.991464547107979, 2) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(30.0, 3) == pytest.approx(1.380e-6, rel=1e-3)
    assert t_sf2(2.228138851986273, 10) == pytest.approx(0.05, abs=1e-9)
    assert two_proportions(50, 100, 50, 100)["p_value"] == pytest.approx(1.0)
    z = 0.1 / math.sqrt(0.45 * 0.55 * 2 / 100)             # 40% against 50% of 100 each
    assert two_proportions(50, 100, 40, 100)["p_value"] == pytest.approx(math.erfc(z / 2 ** .5))
    w = welch_from(10, 2, 30, 12, 2, 30)
    assert w["df"] == pytest.approx(58) and w["p_value"] < 0.001
    assert w["ci95"][0] < 2 < w["ci95"][1]
    assert quantile([1, 2, 3, 4], 0.5) == 2.5 and quantile([7], 0.9) == 7


def test_seat_test_says_which_test():
    two = seat_test([60, 40])
    assert two["test"].startswith("exact binomial") and not two["significant"]
    three = seat_test([100, 40, 40])
    assert three["test"].startswith("chi-square") and three["significant"]
    assert seat_test([0, 0]) is None


# ---- coverage ---------------------------------------------------------------------------------

def test_coverage_counts_a_hand_counted_game(rules):
    game = load(rules("count.cardrules", COUNTING))
    cov = Coverage(game.model)
    cg = CompiledGame(game.model, 2, coverage=cov)
    st = cg.new_game(seed=3)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    got = {p.what: c for p, c in zip(cov.points, cov.counts)}
    assert got == {"setup": 1, "turn": 4, "choose `draw`": 1 * 3, "choose `wait`": 0,
                   "if (line 24)": 1, "else of the if at line 24": 2, "ending 1": 1}
    lines = {p.what: p.line for p in cov.points}
    assert lines["choose `wait`"] == 22 and lines["ending 1"] == 11


def test_counted_game_plays_like_the_normal_one():
    game = load(CRAZY)
    cov = Coverage(game.model)
    counted, normal = CompiledGame(game.model, 3, coverage=cov), game.compiled(3)
    for seed in range(5):
        a, b = counted.new_game(seed=seed), normal.new_game(seed=seed)
        while not a.is_terminal():
            act = a.legal_actions()[seed % len(a.legal_actions())]
            assert b.legal_actions() == a.legal_actions()
            a.apply_action(act)
            b.apply_action(act)
        assert (a.winners, a.decisions, a.turns) == (b.winners, b.decisions, b.turns)
    assert sum(cov.counts) > 0 and normal.coverage is None


def test_stats_json_and_coverage_never_run_first(capsys, rules):
    path = rules("count.cardrules", COUNTING)
    r = stats_json(capsys, path, "--agents", "first", "--games", "4", "--workers", "1")
    assert r["games"] == 4 and r["players"] == 2
    assert [s["seat"] for s in r["seats"]] == [1, 2]
    assert r["seats"][0]["wins"] == 4 and r["seats"][0]["win_rate"] == 1.0
    lo, hi = r["seats"][0]["ci95"]
    assert (lo, hi) == pytest.approx(wilson(4, 4))
    assert r["draws"] == 0 and r["no_winner"] == 0 and r["budget_stops"] == 0
    for what in ("decisions", "turns"):
        assert set(r["length"][what]) >= {"mean", "median", "p10", "p90", "max"}
    assert r["length"]["decisions"]["mean"] == 3 and r["length"]["turns"]["max"] == 3
    assert r["decisions"]["branching"] == 2 and r["decisions"]["forced_share"] == 0
    first = r["coverage"][0]
    assert (first["rule"], first["line"], first["taken"]) == ("turn", 22, 0)
    assert r["never_run"] == 1
    taken = {c["what"]: c["taken"] for c in r["coverage"]}
    assert taken["choose `draw`"] == 12 and taken["turn"] == 16 and taken["ending 1"] == 4


def test_shared_wins_are_not_two_wins(capsys, rules):
    path = rules("ties.cardrules", TIES)
    r = stats_json(capsys, path, "--games", "60", "--workers", "1", "--no-coverage")
    shared = r["shared_wins"]
    assert shared > 0 and "coverage" not in r
    assert sum(s["wins"] for s in r["seats"]) + shared + r["no_winner"] == 60
    assert all(s["shared_wins"] == shared for s in r["seats"])
    assert main(["run", path, "--games", "60", "--workers", "1", "--json"]) == 0
    run = json.loads(capsys.readouterr().out)
    assert run["shared"] == shared and sum(run["wins"]) + shared + run["no_winner"] == 60
    assert run["wins"] == [s["wins"] for s in r["seats"]] and run["draws"] == 0


def test_budget_stops_are_counted(capsys, rules):
    path = rules("ties.cardrules", TIES)
    r = stats_json(capsys, path, "--games", "5", "--workers", "1", "--max-steps", "2",
                   "--set", "target=20")
    assert r["budget_stops"] == 5 and r["errors"] == 5 and r["no_winner"] == 5


# ---- workers ----------------------------------------------------------------------------------

TIMING = ("seconds", "games_per_second", "workers")


def _untimed(text):
    r = json.loads(text)
    for k in TIMING:
        r.pop(k, None)
    return r


def test_workers_give_identical_results(capsys):
    outs = []
    for k in ("1", "2"):
        assert main(["stats", CRAZY, "--players", "3", "--games", "40", "--seed", "9",
                     "--workers", k, "--json"]) == 0
        outs.append(_untimed(capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[0]["coverage"]
    runs = []
    for k in ("1", "2"):
        assert main(["run", CRAZY, "--games", "40", "--workers", k, "--json"]) == 0
        runs.append(_untimed(capsys.readouterr().out))
    assert runs[0] == runs[1]


def test_what_every_worker_needs_is_made_before_the_pool_forks():
    """`run --games` and `stats` make the game's playout variants, and `check --simulate` loads
    and compiles each game with its playout variants, in the process that starts the pool,
    before it forks: the workers share them instead of each making its own (CIQ: 150 ms a
    worker; with them made twice, two workers played 2,000 games 1.77 times as fast as one, the
    target being 1.8; made once, 1.92 to 1.99)."""
    from rulelang.play import simulate as sim
    from rulelang.play.stats import _prepared, play_games
    played = play_games(CRAZY, {}, 2, 16, seed=3, workers=2, coverage=False)
    assert played.tally.games == 16
    job = {"path": CRAZY, "overrides": {}, "players": 2, "coverage": False,
           "agents": ["random", "random"], "seed": 3, "max_steps": None, "text": None,
           "include": ()}
    assert _prepared(job)[0]._playout_procs is not None
    sim._LOADED.clear()
    assert sim.simulate(CRAZY, 8, workers=2) == []
    (game,) = sim._LOADED.values()
    lo, hi = game.players
    assert all(game._watched[n]._playout_procs is not None for n in range(lo, hi + 1))


# ---- compare and the report -------------------------------------------------------------------

def test_compare_finds_what_truly_differs(capsys, rules):
    path = rules("ties.cardrules", TIES)
    assert main(["compare", path, "--a-set", "target=2", "--b-set", "target=10", "--games", "80",
                 "--workers", "1", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)
    d = {x["what"]: x for x in c["differences"]}
    length = d["mean decisions per game"]
    assert length["a"] == 2 and length["b"] == 10 and length["significant"]
    assert c["a"]["options"] == {"target": 2} and c["b"]["options"] == {"target": 10}
    assert main(["compare", path, "--a-set", "target=3", "--b-set", "target=3"]) == 2
    assert "same game" in capsys.readouterr().err


def test_compare_lists_the_places_that_ran_on_one_side_only(capsys):
    # the jokers option brings the joker rules to life: they run in B's games and never in A's
    ftl = os.path.join(os.path.dirname(CRAZY), "..", "rules", "follow_the_leader.cardrules")
    assert main(["compare", ftl, "--a-set", "jokers=no", "--b-set", "jokers=yes", "--games", "40",
                 "--workers", "1", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)
    only_b = c["coverage"]["only_b"]
    assert c["coverage"]["only_a"] == []
    assert any("joker_was" in e["what"] for e in only_b)
    assert all(e["taken"] > 0 and e["taken_a"] == 0 for e in only_b)
    assert main(["compare", ftl, "--a-set", "jokers=no", "--b-set", "jokers=yes", "--games", "40",
                 "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "ran in B's games, never in A's:" in text and "ran only in B" in text


def test_compare_does_not_call_noise_significant():
    a = {"games": 100, "players": 2, "draws": 0, "shared_wins": 0, "budget_stops": 0,
         "length": {"decisions": {"mean": 10, "sd": 3}, "turns": {"mean": 10, "sd": 3}},
         "seats": [{"seat": 1, "wins": 50, "win_rate": .5}, {"seat": 2, "wins": 50, "win_rate": .5}]}
    b = json.loads(json.dumps(a))
    b["seats"][0].update(wins=53, win_rate=.53)
    b["length"]["decisions"]["mean"] = 10.3
    assert not any(x["significant"] for x in compare_reports(a, b)["differences"])


def test_report_is_written(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    assert main(["stats", CRAZY, "--games", "20", "--workers", "1", "--report", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    # wins, length, coverage, and the trend (Crazy Eights declares its progress)
    assert page.count("data:image/png;base64,") == 4 and "id='trend'" in page
    assert "Crazy Eights" in page and "Rule coverage" in page
    text = capsys.readouterr().out
    assert "win rate" in text and "rule coverage" in text


def test_report_without_matplotlib_says_how(monkeypatch, capsys):
    import builtins
    real = builtins.__import__

    def no_mpl(name, *a, **k):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_mpl)
    assert main(["stats", CRAZY, "--games", "2", "--report", "x.html"]) == 2
    assert "rulelang[report]" in capsys.readouterr().err


def test_check_simulate_same_for_any_workers(capsys):
    folder = os.path.join(HERE, "simulate")
    outs = []
    # (3 games: a chunk each, so two workers share them unevenly; every file's problems are
    # found by then, and never_ends.cardrules plays each game to the whole step budget)
    for k in ("1", "2"):
        main(["check", "--simulate", "3", folder, "--workers", k, "--json"])
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]
    assert {d["code"] for d in outs[0]} >= {"RL901", "RL904"}


def test_playouts_of_mc_are_not_counted(capsys):
    r = stats_json(capsys, CRAZY, "--agents", "mc:8,random", "--games", "3", "--workers", "1")
    taken = {c["what"]: c["taken"] for c in r["coverage"]}
    turns = round(r["length"]["turns"]["mean"] * 3)
    assert taken["setup"] == 3 and taken["turn"] == turns + 3   # each game's last turn: its end


def test_tallies_of_chunks_merge_into_the_tally_of_all_in_any_order():
    """A worker sends back its chunk's tally (rulelang/play/tally.py), not each record: merged
    in whatever order the chunks finish, the report is that of all the records."""
    import random

    from rulelang.play.stats import Played, play_games, summarize
    from rulelang.play.tally import of_records
    played = play_games(CRAZY, {}, 2, 90, seed=5, workers=1, coverage=True, records=True)
    recs = played.records
    assert [r[0] for r in recs] == list(range(90))
    points = len(played.points)
    whole = summarize(played, "g", 2, 5, ["random"] * 2)
    assert whole["games"] == 90 and played.tally.games == 90
    assert sum(s["wins"] for s in whole["seats"]) + whole["shared_wins"] + whole["no_winner"] == 90
    decisions = sorted(r[3] for r in recs)
    assert whole["length"]["decisions"]["min"] == decisions[0]
    assert whole["length"]["decisions"]["max"] == decisions[-1]
    assert whole["length"]["decisions"]["median"] == (decisions[44] + decisions[45]) / 2
    assert whole["length"]["decisions"]["mean"] == sum(decisions) / 90
    rng = random.Random(1)
    for _ in range(3):
        shuffled = recs[:]
        rng.shuffle(shuffled)
        parts = [of_records(shuffled[i:i + 25], 2, points) for i in range(0, 90, 25)]
        rng.shuffle(parts)
        total = parts[0]
        for t in parts[1:]:
            total.merge(t)
        again = summarize(Played(total, None, played.points, False, 90, played.seconds),
                          "g", 2, 5, ["random"] * 2)
        assert again == whole


def test_records_streamed_to_a_file_in_game_order(tmp_path):
    """`--records FILE`: one JSON line per game, in game order, also from a pool of workers
    whose chunks finish in any order; nothing is kept in memory."""
    import io
    import json as js

    from rulelang.play.stats import play_games
    kept = play_games(CRAZY, {}, 2, 300, seed=2, workers=1, coverage=False, records=True)
    out = io.StringIO()
    streamed = play_games(CRAZY, {}, 2, 300, seed=2, workers=2, coverage=False, records_to=out)
    assert streamed.records is None
    lines = [js.loads(x) for x in out.getvalue().splitlines()]
    assert [x["game"] for x in lines] == list(range(300))
    assert [x["seed"] for x in lines] == list(range(2, 302))
    assert [(x["outcome"], [w - 1 for w in x["winners"]], x["decisions"], x["turns"])
            for x in lines] == [(r[1], list(r[2]), r[3], r[4]) for r in kept.records]
    path = tmp_path / "games.jsonl"
    from rulelang.cli.commands import main
    assert main(["run", CRAZY, "--games", "50", "--seed", "2", "--workers", "1", "--quiet",
                 "--records", str(path)]) == 0
    assert path.read_text().splitlines() == out.getvalue().splitlines()[:50]


def test_run_and_stats_make_no_generator_per_game(monkeypatch):
    """`run --games` and `stats` with `random` agents seed one generator per seat again for each
    game instead of making new ones (and new policies): the same records as play_game's, which
    makes the agents' generators anew for every game."""
    import random

    from rulelang.play import agents, stats
    from rulelang.play.stats import play_game, play_games
    made = []

    class Counted(random.Random):
        def __init__(self, *a):
            made.append(a)
            super().__init__(*a)
    monkeypatch.setattr(agents.random, "Random", Counted)
    monkeypatch.setattr(stats, "_POLICIES", {})
    played = play_games(CRAZY, {}, 3, 40, seed=11, workers=1, coverage=True, records=True,
                        agents=["random", "first", "random"])
    assert len(made) <= 2 + 2       # one per `random` seat, two to check the seeding once
    monkeypatch.undo()
    job = {"path": CRAZY, "overrides": {}, "players": 3, "coverage": True,
           "agents": ["random", "first", "random"], "seed": 11, "max_steps": None,
           "text": None, "include": ()}
    cg, cov = stats._prepared(job)
    cov.reset()
    expect = []
    for i in range(40):
        rec = play_game(cg, job["agents"], 11 + i, None, cov, index=i)
        expect.append(rec + (tuple(cov.reset()),))
    assert played.records == expect


def test_seeded_policies_draw_what_the_agents_draw():
    import random

    from rulelang.play.agents import UniformRandom, seeded_policies
    p = seeded_policies(["random", "first", "random", "random"])
    for seed in (0, 1, 7, 2 ** 40 + 3, 2 ** 64 - 1):
        p.seed(seed)
        for seat in (0, 2, 3):
            ref = UniformRandom.generator(seat, seed)
            assert [p.policy[seat](k) for k in range(1, 40)] == \
                [ref.randrange(k) for k in range(1, 40)]
        assert p.policy[1](9) == 0
    assert seeded_policies(["random", "mc"]) is None
    assert isinstance(random.Random(0), random.Random)


def test_the_tally_counted_in_the_loop_is_that_of_the_records():
    """Without coverage or records, `run --games` counts each game in its loop: the report is
    that of the records' tally, with games stopped by the budget among them."""
    from rulelang.play.stats import play_games, summarize
    from rulelang.play.tally import of_records
    for steps in (None, 100):
        bare = play_games(CRAZY, {}, 3, 60, seed=4, workers=1, coverage=False, max_steps=steps)
        kept = play_games(CRAZY, {}, 3, 60, seed=4, workers=1, coverage=False, max_steps=steps,
                          records=True)
        assert vars(bare.tally) == vars(of_records(kept.records, 3))
        assert (summarize(bare, "g", 3, 4, ["random"] * 3)["length"]
                == summarize(kept, "g", 3, 4, ["random"] * 3)["length"])
        if steps:
            assert 0 < bare.tally.budget < 60 and bare.tally.first_error is not None
