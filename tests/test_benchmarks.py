"""`python -m benchmarks` runs and writes its figures (a tiny budget; no timing is asserted)."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_benchmark_command_runs_on_a_tiny_budget(tmp_path):
    out = tmp_path / "bench.json"
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--seconds", "0.1",
                        "--rules-seconds", "0.1", "--json", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Crazy Eights" in r.stdout and "targets:" in r.stdout
    res = json.loads(out.read_text())
    assert [row["players"] for row in res["crazy_eights"]] == [2, 4]
    for row in res["crazy_eights"]:
        assert row["decisions_agree"] in (True, False)   # too few games here to expect agreement
        assert row["rulelang"]["games"] > 0 and row["reference"]["games"] > 0
        assert row["fast"]["games"] > 0 and row["fast_ratio"] > 0
    assert res["rules"] and all("error" not in row for row in res["rules"])
    assert all(row["fast_games"] > 0 and row["fast_decisions_per_s"] > 0 for row in res["rules"])
    for n in (2, 4):
        assert 0 < res["bytecodes"][f"fast_{n}p"] < res["bytecodes"][f"api_{n}p"]
    assert res["clone_us"] > 0 and res["cli_help_ms"] > 0 and res["python_startup_ms"] > 0
    assert set(res["check_ms"]) >= {"examples/crazy_eights.cardrules"}
    assert set(res["check_cpu_ms"]) == set(res["check_ms"])
    assert set(res["targets"]) == {"crazy_eights_ratio_2p", "crazy_eights_ratio_4p",
                                   "crazy_eights_fast_ratio_2p", "crazy_eights_fast_ratio_4p",
                                   "min_fast_decisions_per_s", "min_decisions_per_s", "clone_us",
                                   "largest_check_ms", "cli_help_ms"}
    for t in res["targets"].values():
        assert t["value"] is not None and t["met"] in (True, False)
