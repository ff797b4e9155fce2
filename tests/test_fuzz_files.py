"""The mutation fuzzer of the other files rulelang reads (benchmarks/fuzzfiles.py): mutants of
rule tests, game logs and saves through `rulelang test`, `replay --to-end` and `play --resume`,
each in a child with the limits of benchmarks/fuzz.py.  No input may end in an internal error
(exit 3), a hang, memory past 1 GB, a crash or a control character in the output; refusing a
damaged file with a diagnostic is a pass.  `RULELANG_FUZZ_FILES=N` (or `RULELANG_FUZZ_LONG=N`)
tries N inputs instead."""
import io
import json
import os
import sys
import time

import pytest

from benchmarks import fuzzfiles
from rulelang.cli.commands import main

# RULELANG_FUZZ_LONG=N (as for the rule-file fuzzer, tests/test_fuzz_grammar.py) or
# RULELANG_FUZZ_FILES=N: N inputs instead of the short default run.
COUNT = int(os.environ.get("RULELANG_FUZZ_FILES") or os.environ.get("RULELANG_FUZZ_LONG") or "150")
HERE = os.path.dirname(os.path.abspath(__file__))
CRAZY = os.path.join(os.path.dirname(HERE), "examples", "crazy_eights.cardrules")


def test_mutated_tests_logs_and_saves_never_fail_in_an_unknown_way(capsys):
    t0 = time.monotonic()
    s = fuzzfiles.run(seed=11, count=COUNT, workers=2)
    with capsys.disabled():
        print(f"\nfuzzfiles: {s['inputs']} inputs in {time.monotonic() - t0:.1f} s; "
              f"slowest {s['slowest']['wall_s']} s; exit 3: "
              f"{sum(v for k, v in s['outcomes'].items() if k.endswith('exit 3'))}; "
              f"failures: { {c: v['count'] for c, v in s['classes'].items()} }; {s['outcomes']}")
    assert sum(s["outcomes"].values()) == COUNT
    # every reader both accepts some mutants and refuses others with a diagnostic
    for kind in fuzzfiles.KINDS:
        assert s["outcomes"].get(f"{kind}/exit 0") and s["outcomes"].get(f"{kind}/exit 1"), s["outcomes"]
    unknown = {c: v for c, v in s["classes"].items() if not v["known"]}
    assert not unknown, "\n".join(f"{c}: {v['count']} inputs, first #{v['first']} (python -m "
                                  f"benchmarks.fuzzfiles --seed 11 --show {v['first']})\n{v['tb']}"
                                  for c, v in unknown.items())


def test_inputs_are_a_function_of_seed_and_number(tmp_path):
    seeds = fuzzfiles.Seeds(str(tmp_path))
    assert seeds.make(4, 10) == seeds.make(4, 10)
    made = [seeds.make(4, i) for i in range(30)]
    assert {k for k, _ in made} == set(fuzzfiles.KINDS)
    assert len({t for _, t in made}) == 30


# ---- what it found: damaged saves that were internal errors (exit 3) -------------------------

def _save(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "game.json")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
    main(["play", CRAZY, "--seed", "3", "--save", path])
    capsys.readouterr()
    with open(path, encoding="utf-8") as fh:
        return path, json.load(fh)


def _resume(path, data, monkeypatch, capsys):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = main(["play", "--resume", path])
    return status, capsys.readouterr().err


@pytest.mark.parametrize("damage", ["agent named by a number", "agent's random state",
                                    "card in two places"])
def test_a_damaged_save_is_rl520_not_an_internal_error(tmp_path, monkeypatch, capsys, damage):
    path, data = _save(tmp_path, monkeypatch, capsys)
    if damage == "agent named by a number":
        data["agents"][1] = 7
    elif damage == "agent's random state":
        k = next(i for i, a in enumerate(data["agent_states"]) if a)
        for v in data["agent_states"][k].values():
            if isinstance(v, dict) and "random" in v:
                v["random"] = [3, [1, 2], None]
    else:
        zones = data["state"]["zones"]
        full = [z for z in zones if z]
        full[-1].append(full[0][0])
    status, err = _resume(path, data, monkeypatch, capsys)
    assert status == 1 and "error[RL520]" in err and "damaged saved game" in err, err
