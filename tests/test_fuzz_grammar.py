"""Grammar-aware fuzzing: generated and mutated rule files never break `check` or a short `run`.

`benchmarks/fuzz.py` makes inputs from the grammar, as plausible games and as mutants of the
files of rules/ and examples/ (`benchmarks/fuzzgen.py`), and runs each through `rulelang check`
and, when it checks clean, `rulelang run --max-steps 300`, in a child process with a 10 s and
1 GB limit.  Here a fixed seed and a fixed number of inputs (``FUZZ_CI`` below, about half a
minute on two cores): enough to reach every stage from each of the three sources (asserted
below), while the same generator's inputs also go through the checker in process in
tests/test_fuzz_playout.py and tests/test_card_sets.py (1,000 more, other seeds), and mutants
of the real files through tests/test_fuzz_check.py.  ``RULELANG_FUZZ_LONG=N`` runs N inputs
instead (a long run: see docs/security.md, section Fuzzing, or use ``python -m benchmarks.fuzz``
which also minimises what it finds).

Each failure has a class (``internal:check:RecursionError@cli.py:check_one``, ``hang:run@...``).
Classes that other changes are fixing are listed in ``benchmarks.fuzz.KNOWN``: this
test reports them but does not fail on them.  Any other class fails the test with the input's
number, to be replayed with ``python -m benchmarks.fuzz --show N``.
"""
import glob
import os
import time

import pytest

from benchmarks import fuzz
from benchmarks.fuzzgen import make_input

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 20261122
FUZZ_CI = 600           # (RULELANG_FUZZ_LONG=N for more: docs/testing.md)
LONG = int(os.environ.get("RULELANG_FUZZ_LONG", "0"))
WORKERS = int(os.environ.get("RULELANG_FUZZ_WORKERS", "2"))
FINDINGS = sorted(glob.glob(os.path.join(ROOT, "tests", "fuzz_findings", "*.cardrules")))


@pytest.fixture(scope="module")
def campaign():
    fuzz.warm_up()
    camp = fuzz.Campaign(SEED, workers=WORKERS)
    yield camp
    camp.close()


def test_generated_inputs_never_fail_in_an_unknown_way(campaign, capsys):
    count = LONG or FUZZ_CI
    t0 = time.monotonic()
    campaign.run(count, skip=None if LONG else fuzz.skip_known_slow)
    took = time.monotonic() - t0
    s = campaign.summary()
    classes = ", ".join(f"{c} x{v['count']}" for c, v in s["classes"].items())
    with capsys.disabled():
        print(f"\nfuzz: {s['inputs']} inputs ({s['skipped']} skipped) in {took:.1f} s; slowest {s['slowest']['wall_s']} s "
              f"(#{s['slowest']['index']}), largest {s['largest']['maxrss_mb']} MB; "
              f"classes: {classes or 'none'}")
    assert s["inputs"] + s["skipped"] == count
    # The generators reach every stage: diagnostics, clean checks and runs, from each source.
    for source in ("grammar", "game", "mutant"):
        assert any(k.startswith(source + "/check/diagnostics") for k in s["outcomes"]), source
    assert any(k.startswith(("game/run/clean", "mutant/run/clean")) for k in s["outcomes"])
    unknown = {c: v for c, v in s["classes"].items() if not fuzz.known_class(c)}
    assert not unknown, "\n".join(
        f"{c}: {v['count']} inputs, first #{v['first_index']} "
        f"(python -m benchmarks.fuzz --seed {SEED} --show {v['first_index']})\n"
        + campaign.classes[c]["tb"][-1500:] for c, v in unknown.items())
    # (A hang past 10 s, memory past 1 GB and a crashed child are classes too: none unknown.)


@pytest.mark.parametrize("path", FINDINGS, ids=[os.path.basename(p) for p in FINDINGS])
def test_fuzz_finding_no_longer_fails(path):
    """Each saved reproducer (tests/fuzz_findings/) checks and runs without failing, unless its
    class (its first line) is one that another change is fixing: then it is an expected failure,
    not run (a hang would cost 10 s) until the class leaves ``fuzz.KNOWN``."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as fh:
        text = fh.read()
    first = text.split("\n", 1)[0]
    if first.startswith("# fuzz finding: ") and fuzz.known_class(first[16:].strip()):
        pytest.xfail(f"{first[16:].strip()}: {fuzz.known_class(first[16:].strip())}")
    fuzz.warm_up()
    camp = fuzz.Campaign(SEED, workers=1)
    try:
        res = camp.pool.run(text)
    finally:
        camp.close()
    cls = fuzz.classify(res)
    if cls and fuzz.known_class(cls):
        pytest.xfail(f"{cls}: {fuzz.known_class(cls)}")
    assert cls is None, (cls, (res.get("tb") or res.get("hang_tb") or "")[-1500:])


def test_inputs_are_a_function_of_seed_and_number():
    assert make_input(5, 17) == make_input(5, 17)
    texts = {make_input(5, i)[1] for i in range(40)}
    assert len(texts) > 30
    assert {make_input(5, i)[0] for i in range(40)} == {"grammar", "game", "mutant"}


def test_a_long_said_text_renders_in_linear_time():
    """Found by the fuzzer: the red-card highlighting was quadratic in the length of a word."""
    from rulelang.cli.table import say_text
    t0 = time.process_time()
    say_text(0, "x" * 200_000 + " 7♥")
    assert time.process_time() - t0 < 2.0


def _spin(path, text, steps):
    while True:
        pass


def _hog(path, text, steps):
    blocks = []                         # until past the limit (1 GB beyond the parent's): a
    for _ in range(4096):               # MemoryError, long before 4096 blocks of 64 MB
        blocks.append(bytearray(64 << 20))
    return {"stage": "check", "check": 0, "n": len(blocks)}


def _crash(path, text, steps):
    return fuzz.check_and_run(path, 'game "x"\nplayers 2\n', steps) | {"check": 3, "exc": "KeyError",
                                                                       "where": ["x.py", "f"], "tb": "tb"}


def _sleep(path, text, steps):
    time.sleep(1000)


def test_a_child_starved_of_cpu_waits_on_and_a_blocked_one_is_still_a_hang(tmp_path):
    """Past its wall time a child that has had little CPU is waited for (the machine is busy:
    under load every input looked like a hang), up to STARVED_SLACK wall limits: one that
    sleeps, and so never uses its CPU time, is a hang after that."""
    fuzz.warm_up()
    pool = fuzz.Pool(str(tmp_path), 1, time_limit=0.6, target=_sleep)
    pool.wall_slack = 0.5                       # a wall limit of 0.3 s
    t0 = time.monotonic()
    res = pool.run("")
    waited = time.monotonic() - t0
    assert fuzz.classify(res).startswith("hang:"), res
    assert waited >= pool.wall_limit * fuzz.STARVED_SLACK - 0.2, waited
    assert res["cpu"] < 0.5


def test_the_pool_sees_hangs_memory_and_internal_errors(tmp_path):
    """The oracles can fail: a child that spins, one that allocates 2 GB, one that reports exit 3."""
    fuzz.warm_up()
    pool = fuzz.Pool(str(tmp_path), 1, time_limit=1.0, target=_spin)
    t0 = time.monotonic()
    res = pool.run("")
    # (on a busy machine the spinning child gets its second of CPU late: it may wait on)
    assert fuzz.classify(res).startswith("hang:")
    assert time.monotonic() - t0 < 1.0 * fuzz.WALL_SLACK * fuzz.STARVED_SLACK + 5
    pool.target = _hog
    pool.time_limit = 10.0      # the wall limit of 1 s let a busy machine kill the hog as a hang
    res = pool.run("")          # before it had allocated its gigabyte
    assert fuzz.classify(res).startswith("memory:"), res
    pool.target = _crash
    assert fuzz.classify(pool.run("")) == "internal:check:KeyError@x.py:f"
    pool.target = fuzz.check_and_run
    assert fuzz.classify(pool.run(open(os.path.join(ROOT, "examples", "sevens.cardrules")).read())) is None
