"""`python -m benchmarks` runs and writes its figures (a tiny budget; no timing is asserted)."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_benchmark_command_runs_on_a_tiny_budget(tmp_path):
    out = tmp_path / "bench.json"
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--seconds", "0.1",
                        "--rules-seconds", "0.1", "--json", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Crazy Eights" in r.stdout and "targets:" in r.stdout and "draws at every" in r.stdout
    res = json.loads(out.read_text())
    assert [row["players"] for row in res["crazy_eights"]] == [2, 4]
    for row in res["crazy_eights"]:
        assert row["decisions_agree"] in (True, False)   # too few games here to expect agreement
        assert row["rulelang"]["games"] > 0 and row["reference"]["games"] > 0
        assert row["fast"]["games"] > 0 and row["fast_ratio"] > 0
        # (and the player who draws at every decision, as the `random` agent does)
        assert row["fast_drawing"]["games"] > 0 and row["rulelang_drawing"]["games"] > 0
        assert row["ratio_drawing"] > 0 and row["fast_ratio_drawing"] > 0
    assert res["rules"] and all("error" not in row for row in res["rules"])
    assert all(row["fast_games"] > 0 and row["fast_decisions_per_s"] > 0 for row in res["rules"])
    # a row per example of a construct (Whist: partnerships), apart from the targets
    assert {row["file"] for row in res["examples"]} >= {"examples/whist.cardrules"}
    assert all(row["fast_decisions_per_s"] > 0 and row["decisions_per_s"] > 0
               for row in res["examples"])
    assert "examples of constructs" in r.stdout
    for n in (2, 4):
        assert 0 < res["bytecodes"][f"fast_{n}p"] < res["bytecodes"][f"api_{n}p"]
    assert res["clone_us"] > 0 and res["cli_help_ms"] > 0 and res["python_startup_ms"] > 0
    try:                                  # (the adapters installed: the `ai` extra)
        import pettingzoo  # noqa: F401
        assert all(us > 0 for us in res["adapters"]["pettingzoo"].values())
        assert set(res["adapters"]["pettingzoo"]) == {"examples/crazy_eights.cardrules:4",
                                                      "rules/ciq.cardrules:4"}
    except ImportError:
        assert "pettingzoo" not in res["adapters"]
    assert set(res["check_ms"]) >= {"examples/crazy_eights.cardrules"}
    assert set(res["check_cpu_ms"]) == set(res["check_ms"])
    # check and compile (as a game starts, and as `rulelang check` does): with --quick, the
    # largest file of rules/ and two examples (without it, every file of rules/ and examples/:
    # test below), every stress file (benchmarks/stress.py)
    from benchmarks.__main__ import per_file_paths
    from benchmarks.stress import STRESS
    assert set(res["check_ms"]) == {os.path.relpath(p, ROOT) for p in per_file_paths(quick=True)}
    assert set(res["compile_ms"]["files"]) == set(res["check_ms"])
    assert set(res["compile_ms"]["every"]) == set(res["check_ms"])
    assert set(res["compile_ms"]["stress"]) == set(STRESS)
    # `rulelang check` as the command runs it: in process, and as a command less the start-up
    assert set(res["compile_ms"]["check"]) == set(res["check_ms"])
    assert set(res["compile_ms"]["stress_check"]) == set(STRESS)
    assert set(res["check_cli_ms"]) == set(res["check_ms"])
    assert all(ms > 0 for part in res["compile_ms"].values() for ms in part.values())
    assert "check and compile per file" in r.stdout and "tower_40_kept_top" in r.stdout
    assert set(res["targets"]) == {"crazy_eights_ratio_2p", "crazy_eights_ratio_4p",
                                   "crazy_eights_fast_ratio_2p", "crazy_eights_fast_ratio_4p",
                                   "min_fast_decisions_per_s", "min_decisions_per_s", "clone_us",
                                   "largest_check_ms", "slowest_compile_ms",
                                   "slowest_stress_compile_ms", "slowest_check_ms", "cli_help_ms"}
    assert res["targets"]["slowest_compile_ms"]["file"] in res["compile_ms"]["files"]
    assert res["targets"]["slowest_check_ms"]["file"] in res["compile_ms"]["check"]
    assert res["targets"]["slowest_stress_compile_ms"]["file"] in STRESS
    for t in res["targets"].values():
        assert t["value"] is not None and t["met"] in (True, False)


def test_the_figures_per_file_are_of_every_file_unless_quick():
    from benchmarks.__main__ import per_file_paths
    every = {os.path.relpath(p, ROOT) for p in per_file_paths()}
    assert every == {f"{d}/{f}" for d in ("rules", "examples")
                     for f in os.listdir(os.path.join(ROOT, d)) if f.endswith(".cardrules")}
    quick = {os.path.relpath(p, ROOT) for p in per_file_paths(quick=True)}
    largest = max((f for f in every if f.startswith("rules/")),
                  key=lambda f: os.path.getsize(os.path.join(ROOT, f)))
    assert quick == {largest, "examples/crazy_eights.cardrules", "examples/whist.cardrules"}


def _result(ce_fast, ce_api, rules, bytecodes=None):
    """A results file as `python -m benchmarks --json` writes it (the parts compare reads)."""
    return {"crazy_eights": [{"players": n, "fast_ratio": f, "ratio": a}
                             for n, f, a in zip((2, 4), ce_fast, ce_api)],
            "bytecodes": bytecodes or {"fast_4p": 300.0},
            "rules": [{"file": f, "players": n, "decisions_per_s": api, "fast_decisions_per_s": fast}
                      for f, n, api, fast in rules],
            "adapters": {"pettingzoo": {"g:4": ce_fast[0] * 10}},
            "targets": {"x": {"what": "a target", "goal": "<= 1", "value": 1.25, "met": False}}}


def test_compare_gives_each_runs_ratios_and_the_mean_of_each_file(tmp_path):
    """`python -m benchmarks.compare`: before → after, from the benchmark's own JSON."""
    paths = {}
    runs = {"b1": _result((1.2, 1.3), (2.0, 2.1), [("rules/a.cardrules", 2, 100.0, 300.0)],
                          {"fast_4p": 315.0}),
            "b2": _result((1.4, 1.5), (2.2, 2.3), [("rules/a.cardrules", 2, 200.0, 500.0)]),
            "a1": _result((1.1, 1.15), (1.9, 1.95), [("rules/a.cardrules", 2, 150.0, 440.0),
                                                    ("rules/new.cardrules", 3, 10.0, 20.0)],
                          {"fast_4p": 299.0}),
            "a2": _result((1.0, 1.05), (1.8, 1.85), [("rules/a.cardrules", 2, 250.0, 660.0)])}
    for name, res in runs.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(res))
    cmd = [sys.executable, "-m", "benchmarks.compare", "--before", str(paths["b1"]),
           str(paths["b2"]), "--after", str(paths["a1"]), str(paths["a2"])]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "2 players, fast path 1.20 and 1.40 → 1.10 and 1.00" in out
    assert "4 players, API       2.10 and 2.30 → 1.95 and 1.85" in out
    assert "fast_4p        315 → 299" in out
    assert "pettingzoo  g:4" in out and "13.0 →    10.5" in out and "-19.2%" in out
    # rules/a: API 150 → 200 (+33.3%), fast 400 → 550 (+37.5%); rules/new only after
    line = next(l for l in out.splitlines() if l.startswith("rules/a.cardrules"))
    assert "150 → 200" in line and "+33.3%" in line and "400 → 550" in line and "+37.5%" in line
    assert any(l.startswith("rules/new.cardrules") and "- → 10" in l for l in out.splitlines())
    assert "a target" in out and "NOT MET" in out
    md = subprocess.run(cmd + ["--markdown"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "| a.cardrules | 2 | 150 → 200 | 400 → 550 | 2.75 |" in md.stdout
    bad = subprocess.run([sys.executable, "-m", "benchmarks.compare", "--before",
                          str(tmp_path / "missing.json"), "--after", str(paths["a1"])],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "cannot read the results" in bad.stderr


def test_docs_benchmarks_names_every_benchmark_module():
    """docs/benchmarks.md's table of modules names every module of benchmarks/."""
    doc = open(os.path.join(ROOT, "docs", "benchmarks.md"), encoding="utf-8").read()
    table = doc.split("## Every benchmark module", 1)[1].split("\n## ", 1)[0]
    missing = []
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "benchmarks")):
        for f in files:
            if f.endswith(".py") and f != "__init__.py":
                rel = os.path.relpath(os.path.join(folder, f), ROOT)
                if f"`{rel}`" not in table:
                    missing.append(rel)
    assert not missing, f"docs/benchmarks.md does not list {missing}"


def test_the_adapters_floor_is_the_env_with_an_observation_that_costs_nothing(tmp_path,
                                                                             monkeypatch):
    """`python -m benchmarks.adapters --floor`: the PettingZoo loop with the observation left
    out runs the same games, the same mask and protocol, in fewer bytecodes than the env."""
    pytest.importorskip("pettingzoo")
    from benchmarks import adapters
    e = adapters.floor_make(os.path.join(ROOT, "examples/crazy_eights.cardrules"), 4)
    steps, _t = adapters.floor_steps("", 4, 0.0, made=e)
    assert steps > 0 and not any(a.any() for a in e._live.arrays)    # (never written)
    out = tmp_path / "b.json"
    monkeypatch.setattr(adapters, "GAMES", (("examples/crazy_eights.cardrules", 4),))
    assert adapters.main(["--bytecodes", "1", "--floor", "--json", str(out)]) == 0
    for row in json.loads(out.read_text()).values():
        assert row["api"] < row["pettingzoo-floor"] < row["pettingzoo"]
