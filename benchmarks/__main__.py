"""rulelang's benchmarks: `python -m benchmarks [--seconds S] [--json PATH] [--quick]`.

Measures, interleaving the runs so that machine noise affects both sides alike:
  * Crazy Eights through rulelang's public runtime API against a hand-written Python version
    (benchmarks/reference/crazy_eights.py), for 2 and 4 players, and the same games on the
    playout fast path (CompiledGame.playout): games/s, decisions/s, their ratios, and mean decisions
    per game (which must agree within 3%: the three are the same game);
  * every file in rules/: games/s, decisions/s, decisions per game (random play, every allowed
    number of players from the smallest, capped at 3 counts), through the API and on the fast
    path, interleaved;
  * the examples of EXAMPLE_ROWS (games that show a construct of the language at work, such as
    Cribbage, scored by counts of combinations): the same figures, a table of their own;
  * bytecodes per decision of Crazy Eights (API, fast path, reference), a figure that does not
    depend on the machine's load (see benchmarks/bytecodes.py);
  * µs per decision of random play through the game-AI adapters (PettingZoo's AEC env,
    OpenSpiel; those installed), on Crazy Eights and CIQ;
  * clone() time on a mid-game state; check time per file; the CLI's start-up time (beside the
    bare interpreter's, which no change to rulelang can make shorter);
  * check-and-compile time per file (checked and compiled for its smallest number of players,
    as a game starts; with the layout for each other number of players `rulelang check`
    checks and the playout variants a first playout makes; `rulelang check` itself, in
    process and as a command less the interpreter's start), of every file of rules/ and
    examples/ and of the stress files of benchmarks/stress.py (towers of defines, copied rules,
    a web of defines, deep nesting);
  * the targets (TARGETS below), each with its figure and whether it is met.
Prints a table and writes the figures as JSON (default benchmarks/results/latest.json).
The random player of the Crazy Eights ratios is the same on both sides, the hand-written one's:
uniform among the legal moves (random.choice), a forced move (one legal choice) taken without a
draw (the fast path's ``skip_forced``).  The same figures with a player who draws at every
decision, as rulelang's `random` agent does, are kept beside them (``ratio_drawing``,
``fast_ratio_drawing``), and the files of rules/ are played by
that player.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rulelang.compile.loader import check_file, load  # noqa: E402


TARGETS = {
    "crazy_eights_fast_ratio_2p": ("Crazy Eights, 2 players: reference games/s over the fast path's",
                                   "<=", 1.0),
    "crazy_eights_fast_ratio_4p": ("Crazy Eights, 4 players: reference games/s over the fast path's",
                                   "<=", 1.0),
    "crazy_eights_ratio_2p": ("Crazy Eights, 2 players: reference games/s over the API's", "<=", 1.6),
    "crazy_eights_ratio_4p": ("Crazy Eights, 4 players: reference games/s over the API's", "<=", 1.6),
    "min_fast_decisions_per_s": ("slowest file of rules/: decisions/s on the fast path (*)",
                                 ">=", 250_000),
    "min_decisions_per_s": ("slowest file of rules/: decisions/s through the API (*)", ">=", 250_000),
    "clone_us": ("clone() of a mid-game state, µs", "<=", 20.0),
    "largest_check_ms": ("check of the largest file in rules/, ms (in process, CPU)", "<=", 50.0),
    "slowest_compile_ms": ("check and compile, slowest file of rules/ and examples/, ms (CPU)",
                           "<=", 200.0),
    "slowest_stress_compile_ms": ("check and compile, slowest stress file, ms (CPU)", "<=",
                                  1000.0),
    "slowest_check_ms": ("`rulelang check`, slowest file of rules/ and examples/, ms (in process, "
                         "CPU)", "<=", 200.0),
    "cli_help_ms": ("`rulelang --help` start-up, ms", "<=", 300.0),
}


MIN_DECISIONS = 5


def play_rulelang(cg, seed, skip=False):
    """One random game through the public API; returns decisions.  ``skip``: a forced move is
    taken without a draw, as the hand-written player does."""
    st = cg.new_game(seed=seed)
    rng = random.Random(seed)
    choice = rng.choice
    if skip:
        while not st.is_terminal():
            p = st.current_player()
            legal = st.legal_actions(p)
            st.apply_action(legal[0] if len(legal) == 1 else choice(legal), p)
        return st.decisions, st.outcome
    while not st.is_terminal():
        p = st.current_player()
        st.apply_action(choice(st.legal_actions(p)), p)
    return st.decisions, st.outcome


def play_fast(cg, seed, skip=False):
    """The same game as :func:`play_rulelang` (the same draws: ``choice`` is ``_randbelow``),
    on the playout fast path from the seed (``CompiledGame.playout``, as ``run --games`` and
    ``stats`` play it: the setup and every decision in the playout variants); returns
    decisions."""
    st = cg.playout(seed, [random.Random(seed)._randbelow] * cg.n, skip_forced=skip)
    return st.decisions, st.outcome


def timed(fn, budget):
    """Run fn(i) for i = 0, 1, ... for about `budget` seconds; (count, seconds, results)."""
    out = []
    t0 = time.perf_counter()
    i = 0
    while True:
        out.append(fn(i))
        i += 1
        el = time.perf_counter() - t0
        if el >= budget:
            return i, el, out


def crazy_eights(seconds, rounds):
    from benchmarks.reference import crazy_eights as ref
    game = load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    rows = []
    for n in (2, 4):
        cg = game.compiled(n)
        cg.playout_procs()      # the fast path's variants, made once per game as compiling is
        sides = {                           # interleaved: each side in turn, every round
            "rulelang": lambda i: play_rulelang(cg, i, skip=True)[0],
            "reference": lambda i: ref.play_game(random.Random(i), n)[1],
            "fast": lambda i: play_fast(cg, i, skip=True)[0],
            "rulelang_drawing": lambda i: play_rulelang(cg, i)[0],
            "fast_drawing": lambda i: play_fast(cg, i)[0],
        }
        got = {name: {"games": 0, "sec": 0.0, "dec": 0} for name in sides}
        seed = 0
        for _ in range(rounds):
            for name, play in sides.items():
                k, el, res = timed(lambda i: play(seed + i), seconds / rounds / len(sides))
                d = got[name]
                d["games"] += k
                d["sec"] += el
                d["dec"] += sum(res)
            seed += 100_000
        row = {"players": n}
        for name, d in got.items():
            row[name] = {"games_per_s": d["games"] / d["sec"], "decisions_per_s": d["dec"] / d["sec"],
                         "decisions_per_game": d["dec"] / d["games"], "games": d["games"]}
        gs = {name: row[name]["games_per_s"] for name in got}
        row["ratio"] = gs["reference"] / gs["rulelang"]
        row["fast_ratio"] = gs["reference"] / gs["fast"]
        row["ratio_drawing"] = gs["reference"] / gs["rulelang_drawing"]
        row["fast_ratio_drawing"] = gs["reference"] / gs["fast_drawing"]
        a, b = row["rulelang"]["decisions_per_game"], row["reference"]["decisions_per_game"]
        c = row["fast"]["decisions_per_game"]
        row["decisions_agree"] = abs(a - b) / b <= 0.03 and abs(c - b) / b <= 0.03
        rows.append(row)
    return rows


# Examples that show a construct of the language, each with a row of its own (decisions/s through
# the API and on the fast path), apart from the rules/ files the targets are judged on.
EXAMPLE_ROWS = ("examples/beleaguered_castle.cardrules", "examples/durak.cardrules",
                "examples/whist.cardrules", "examples/cribbage.cardrules",
                "examples/casino.cardrules", "examples/auction_pitch.cardrules")


def rule_files(seconds):
    return play_rows(sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))), seconds)


def play_rows(files, seconds):
    """Per file and number of players (the fewest, two more, the most): random play through the
    API and on the fast path, interleaved, in ``seconds`` shared by the files."""
    rows = []
    for path in files:
        try:
            game = load(path)
        except Exception as err:      # a broken file is reported, not fatal to the benchmark
            rows.append({"file": os.path.relpath(path, ROOT), "error": str(err)[:200]})
            continue
        lo, hi = game.players
        for n in sorted({lo, min(hi, lo + 2), hi}):
            cg = game.compiled(n)
            cg.playout_procs()
            budget = seconds / max(1, len(files)) / 4
            api = [0, 0.0, 0, 0]                 # games, seconds, decisions, ended normally
            fast = [0, 0.0, 0]
            for r in range(2):                   # interleaved: API, fast path, API, fast path
                k, el, res = timed(lambda i: play_rulelang(cg, r * 100_000 + i), budget)
                api[0] += k
                api[1] += el
                api[2] += sum(d for d, _ in res)
                api[3] += sum(1 for _, o in res if o != "error")
                k, el, res = timed(lambda i: play_fast(cg, r * 100_000 + i), budget)
                fast[0] += k
                fast[1] += el
                fast[2] += sum(d for d, _ in res)
            k, el, dec = api[:3]
            rows.append({"file": os.path.relpath(path, ROOT), "players": n, "games": k,
                         "games_per_s": k / el, "decisions_per_s": dec / el,
                         "decisions_per_game": dec / k, "ended_normally": api[3] / k,
                         "fast_games": fast[0], "fast_decisions_per_s": fast[2] / fast[1],
                         "fast_games_per_s": fast[0] / fast[1],
                         "fast_decisions_per_game": fast[2] / fast[0],
                         "speedup": (fast[2] / fast[1]) / (dec / el)})
    return rows


def set_choice_us(reps=2000):
    """µs to list the sets a choice of a set offers (engine/subsets.py, without its cache), for
    tables of 5 to 8 cards dealt at random: a capture by sums (`in groups whose total value is
    V`, V drawn from 1 to 10), any set of 1 or more cards, and sets of one rank."""
    import random as _random
    from rulelang.engine.subsets import sets_of
    search = sets_of.__wrapped__
    rng = _random.Random(7)
    out = {}
    for k in (5, 6, 7, 8):
        tables = []
        for _ in range(50):
            cards = sorted(rng.sample(range(52), k))
            values = tuple(min(10, c % 13 + 1) for c in cards)
            ranks = tuple(c % 13 for c in cards)
            tables.append((tuple(cards), values, ranks, rng.randint(1, 10)))
        row = {}
        for name, args in (("sums", lambda t: (t[0], t[1], (0,) * k, (), 1, k, None, "groups", t[3])),
                           ("any", lambda t: (t[0], t[1], (0,) * k, (), 1, k, None, None, 0)),
                           ("one rank", lambda t: (t[0], t[1], t[2], (), 2, k, "rank", None, 0))):
            calls = [args(t) for t in tables]
            n = max(1, reps // len(calls))
            t0 = time.perf_counter()
            for _ in range(n):
                for c in calls:
                    search(*c)
            row[name] = (time.perf_counter() - t0) / (n * len(calls)) * 1e6
        out[k] = row
    return out


def bytecode_counts(games):
    """Bytecodes per decision of Crazy Eights at 2 and 4 players: API, fast path, reference."""
    from benchmarks.bytecodes import per_decision, reference_per_decision
    game = load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    out = {}
    for n in (2, 4):
        cg = game.compiled(n)
        out[f"api_{n}p"] = per_decision(cg, games)[0]
        out[f"fast_{n}p"] = per_decision(cg, games, fast=True)[0]
        out[f"reference_{n}p"] = reference_per_decision(games, n)
    return out


def clone_time(k=20000):
    game = load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    st = game.compiled(4).new_game(seed=1)
    rng = random.Random(1)
    for _ in range(15):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    t0 = time.perf_counter()
    for _ in range(k):
        st.clone()
    return (time.perf_counter() - t0) / k * 1e6


ADAPTER_GAMES = (("examples/crazy_eights.cardrules", 4), ("rules/ciq.cardrules", 4))


def _pettingzoo_steps(path, n, budget):
    """Random play through the PettingZoo AEC env (observe, mask, step): steps and seconds."""
    from benchmarks.adapters import pettingzoo_steps
    return pettingzoo_steps(path, n, budget, clock=time.perf_counter)


def _openspiel_steps(path, n, budget):
    """Random play through OpenSpiel (the observer's set_from, legal_actions, apply_action)."""
    from benchmarks.adapters import openspiel_steps
    return openspiel_steps(path, n, budget, clock=time.perf_counter)


def adapter_steps(seconds):
    """µs per decision of random play through each game-AI adapter (what a learning agent
    pays per step: the observation, the legal actions, the move), per game of ADAPTER_GAMES;
    an adapter whose package is not installed (the `ai` extra) is left out."""
    out = {}
    for name, fn in (("pettingzoo", _pettingzoo_steps), ("openspiel", _openspiel_steps)):
        try:
            __import__({"pettingzoo": "pettingzoo", "openspiel": "pyspiel"}[name])
        except ImportError:
            continue
        out[name] = {}
        for path, n in ADAPTER_GAMES:
            steps, el = fn(os.path.join(ROOT, path), n, seconds / (2 * len(ADAPTER_GAMES)))
            out[name][f"{path}:{n}"] = el / steps * 1e6
    return out


# The files of a --quick run's figures per file (check, compile, the `check` command): the largest
# file of rules/ (a target is judged on it) and two examples.  The code measuring a file is the
# same for every file, and a subprocess per file and a compile of each for every number of
# players cost most of the run: a quick run checks that the command runs, not every file (the
# test suite checks and compiles every file elsewhere).
QUICK_EXAMPLES = ("examples/crazy_eights.cardrules", "examples/whist.cardrules")


def per_file_paths(quick=False):
    """The files of the figures per file: every file of rules/ and examples/; ``quick``: the
    largest of rules/ and QUICK_EXAMPLES."""
    every = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules")) +
                   glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))
    if not quick:
        return every
    largest = max(glob.glob(os.path.join(ROOT, "rules", "*.cardrules")), key=os.path.getsize)
    return sorted({largest} | {os.path.join(ROOT, f) for f in QUICK_EXAMPLES})


def check_times(runs=5, files=None):
    """Per file: (median wall time, median CPU time of this process), in ms.  On a machine that
    other work shares, the wall time also counts the time others held the CPU; the CPU time is
    what checking costs, and what the target is judged on."""
    wall, cpu = {}, {}
    for path in files or per_file_paths():
        check_file(path)                      # warm: the grammar is built once per process
        times, cpus = [], []
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            check_file(path)
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        key = os.path.relpath(path, ROOT)
        wall[key] = statistics.median(times) * 1000
        cpu[key] = statistics.median(cpus) * 1000
    return wall, cpu


def check_and_compile(path, text=None, every=False):
    """Check a rule file and compile it for its smallest number of players, as a game starts
    (``every``: all that `rulelang check` does, the rules written for one number of players and
    the game laid out for each other number it checks, then the playout variants a first
    playout makes)."""
    from rulelang.compile.loader import counts_to_compile as _counts_to_compile
    from rulelang.compile.loader import Game
    diags, model, decls = check_file(path, text=text)
    if model is None or any(d.is_error for d in diags):
        raise RuntimeError(f"{path} does not check: {diags[0]}")
    game = Game(model, diags, decls, path, {})
    game.compiled(model.players[0])
    if every:
        for k in _counts_to_compile(model):
            game.layout_diagnostics(k)
        game.compiled(model.players[0]).playout_procs()


def check_command(path, text=None):
    """What `rulelang check FILE` does for one file (cli/check.py, ``check_one``), in process."""
    from rulelang.cli.check import check_one
    if text is not None:
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "stress.cardrules")
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)
            return check_command(p)
    diags, internal = check_one(path, {})
    if internal or any(d.is_error for d in diags):
        raise RuntimeError(f"{path} does not check: {diags[0]}")


def compile_times(runs=3, files=None):
    """Per file, the median CPU time (ms) of :func:`check_and_compile`: ``files``, every file
    of rules/ and examples/ (``every``: as `rulelang check` and a first playout); ``stress``,
    every stress file of benchmarks/stress.py (each as `rulelang check` and a first playout)."""
    from benchmarks.stress import STRESS

    def median_ms(path, text=None, every=False):
        check_and_compile(path, text, every)       # (warm: the grammar is built once per process)
        cpus = []
        for _ in range(runs):
            c0 = time.process_time()
            check_and_compile(path, text, every)
            cpus.append(time.process_time() - c0)
        return statistics.median(cpus) * 1000

    def command_ms(path, text=None):
        check_command(path, text)                  # (warm, as above)
        cpus = []
        for _ in range(runs):
            c0 = time.process_time()
            check_command(path, text)
            cpus.append(time.process_time() - c0)
        return statistics.median(cpus) * 1000

    compiled, every, check = {}, {}, {}
    for path in files or per_file_paths():
        key = os.path.relpath(path, ROOT)
        compiled[key] = median_ms(path)
        every[key] = median_ms(path, every=True)
        check[key] = command_ms(path)
    stress, stress_check = {}, {}
    for name, text in STRESS.items():
        stress[name] = median_ms(os.path.join(ROOT, "benchmarks", name + ".cardrules"), text, True)
        stress_check[name] = command_ms(None, text)
    return {"files": compiled, "every": every, "check": check, "stress": stress,
            "stress_check": stress_check}


def check_cli_times(runs=3, files=None):
    """Per file of rules/ and examples/, the median CPU time (ms) of `rulelang check FILE` run
    as a command, less that of `python -c "import rulelang.cli.commands"` (the interpreter's
    start and the command's parser, which no file changes): what the command costs for the
    file, the import of the checker and the compiler and the parser's tables included."""
    import resource

    def cpu(args):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000

    base = statistics.median(cpu(["-c", "import rulelang.cli.commands"]) for _ in range(runs))
    out = {}
    for path in files or per_file_paths():
        key = os.path.relpath(path, ROOT)
        out[key] = statistics.median(cpu(["-m", "rulelang", "check", key])
                                     for _ in range(runs)) - base
    return out


def cli_startup(runs=5, args=("-m", "rulelang", "--help")):
    """Median wall time (ms) of ``python ARGS``; None when the command fails."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0:
            return None
    return statistics.median(times) * 1000


def targets(res):
    """Each target with its measured figure and whether it is met (None: not measured)."""
    ce = {r["players"]: r for r in res["crazy_eights"]}
    # (*) Games of fewer than MIN_DECISIONS decisions (Speed Attack! decides only who starts)
    # are left out: their time is the game's setup and play, not its decisions.
    counted = [r for r in res["rules"] if r["file"].startswith("rules/")
               and "error" not in r and r["games"] > 1 and r["decisions_per_game"] >= MIN_DECISIONS]
    speeds = [r["decisions_per_s"] for r in counted]
    fast_speeds = [r["fast_decisions_per_s"] for r in counted]
    rule_files = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules")), key=os.path.getsize)
    largest = os.path.relpath(rule_files[-1], ROOT) if rule_files else None
    figures = {
        "crazy_eights_fast_ratio_2p": ce[2]["fast_ratio"] if 2 in ce else None,
        "crazy_eights_fast_ratio_4p": ce[4]["fast_ratio"] if 4 in ce else None,
        "crazy_eights_ratio_2p": ce[2]["ratio"] if 2 in ce else None,
        "crazy_eights_ratio_4p": ce[4]["ratio"] if 4 in ce else None,
        "min_fast_decisions_per_s": min(fast_speeds) if fast_speeds else None,
        "min_decisions_per_s": min(speeds) if speeds else None,
        "clone_us": res["clone_us"],
        "largest_check_ms": res["check_cpu_ms"].get(largest),
        "slowest_compile_ms": max(res["compile_ms"]["files"].values(), default=None),
        "slowest_stress_compile_ms": max(res["compile_ms"]["stress"].values(), default=None),
        "slowest_check_ms": max(res["compile_ms"]["check"].values(), default=None),
        "cli_help_ms": res["cli_help_ms"],
    }
    out = {}
    for key, (what, op, goal) in TARGETS.items():
        v = figures[key]
        met = None if v is None else (v <= goal if op == "<=" else v >= goal)
        out[key] = {"what": what, "goal": f"{op} {goal:g}", "value": v, "met": met}
    if largest:
        out["largest_check_ms"]["file"] = largest
    for key, part in (("slowest_compile_ms", "files"), ("slowest_stress_compile_ms", "stress"),
                      ("slowest_check_ms", "check")):
        times = res["compile_ms"][part]
        if times:
            out[key]["file"] = max(times, key=times.get)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0, help="time for the Crazy Eights duel")
    ap.add_argument("--rules-seconds", type=float, default=30.0, help="time shared by rules/ files")
    ap.add_argument("--quick", action="store_true", help="a tiny budget and the figures per file of three "
                    "files, to check the command runs")
    ap.add_argument("--json", default=os.path.join(ROOT, "benchmarks", "results", "latest.json"))
    a = ap.parse_args(argv)
    if a.quick:
        a.seconds, a.rules_seconds = 0.4, 0.4
    res = {"python": sys.version.split()[0], "crazy_eights": crazy_eights(a.seconds, 4 if not a.quick else 1),
           "rules": rule_files(a.rules_seconds),
           "examples": play_rows([os.path.join(ROOT, f) for f in EXAMPLE_ROWS],
                                 a.rules_seconds * len(EXAMPLE_ROWS) / 8),
           "clone_us": clone_time(2000 if a.quick else 20000),
           "check_ms": None, "check_cpu_ms": None, "cli_help_ms": cli_startup(1 if a.quick else 5),
           "python_startup_ms": cli_startup(1 if a.quick else 5, ("-c", "pass"))}
    files = per_file_paths(a.quick)
    res["check_ms"], res["check_cpu_ms"] = check_times(1 if a.quick else 5, files)
    res["compile_ms"] = compile_times(1 if a.quick else 3, files)
    res["check_cli_ms"] = check_cli_times(1 if a.quick else 3, files)
    res["bytecodes"] = bytecode_counts(2 if a.quick else 20)
    res["adapters"] = adapter_steps(0.4 if a.quick else 8.0)
    res["set_choice_us"] = set_choice_us(100 if a.quick else 2000)
    res["targets"] = targets(res)
    print("Crazy Eights, random play: rulelang (API, fast path) vs hand-written Python")
    print(f"{'players':>7} {'API g/s':>8} {'fast g/s':>9} {'ref g/s':>8} {'ratio':>6} {'fast':>6} "
          f"{'API dec/s':>10} {'fast dec/s':>10} {'dec/g':>6} {'ref dec/g':>9} agree")
    for r in res["crazy_eights"]:
        print(f"{r['players']:>7} {r['rulelang']['games_per_s']:>8.0f} {r['fast']['games_per_s']:>9.0f} "
              f"{r['reference']['games_per_s']:>8.0f} {r['ratio']:>6.2f} {r['fast_ratio']:>6.2f} "
              f"{r['rulelang']['decisions_per_s']:>10.0f} {r['fast']['decisions_per_s']:>10.0f} "
              f"{r['rulelang']['decisions_per_game']:>6.1f} {r['reference']['decisions_per_game']:>9.1f} "
              f"{'yes' if r['decisions_agree'] else 'NO'}")
    print("  (ratio: reference games/s over rulelang's, through the API and on the fast path;\n"
          "   the same player on both sides, a forced move taken without a draw)")
    for r in res["crazy_eights"]:
        print(f"  {r['players']} players, a player who draws at every decision (rulelang's "
              f"`random`): ratio {r['ratio_drawing']:.2f}, fast {r['fast_ratio_drawing']:.2f}")
    print("\nrules/ (and examples of constructs), random play: through the API and on the fast "
          "path (interleaved)")
    print(f"{'file':<44} {'n':>2} {'API dec/s':>10} {'fast dec/s':>10} {'fast/API':>8} "
          f"{'dec/game':>9} {'ended':>6}")
    for r in res["rules"]:
        if "error" in r:
            print(f"{r['file']:<44} error: {r['error']}")
            continue
        print(f"{r['file']:<44} {r['players']:>2} {r['decisions_per_s']:>10.0f} "
              f"{r['fast_decisions_per_s']:>10.0f} {r['speedup']:>8.2f} "
              f"{r['decisions_per_game']:>9.1f} {r['ended_normally']:>6.0%}")
    print("\nexamples of constructs, random play: through the API and on the fast path")
    for r in res["examples"]:
        if "error" in r:
            print(f"{r['file']:<44} error: {r['error']}")
            continue
        print(f"{r['file']:<44} {r['players']:>2} {r['decisions_per_s']:>10.0f} "
              f"{r['fast_decisions_per_s']:>10.0f} {r['speedup']:>8.2f} "
              f"{r['decisions_per_game']:>9.1f} {r['ended_normally']:>6.0%}")
    bc = res["bytecodes"]
    print("\nbytecodes per decision, Crazy Eights (does not depend on the load):")
    for n in (2, 4):
        print(f"  {n} players: API {bc[f'api_{n}p']:.0f}, fast path {bc[f'fast_{n}p']:.0f}, "
              f"hand-written {bc[f'reference_{n}p']:.0f}")
    if res["adapters"]:
        print("\ngame-AI adapters, random play: µs per decision (observation, legal actions, move)")
        for name, games in res["adapters"].items():
            for game, us in games.items():
                print(f"  {name:<11} {game:<44} {us:7.1f} µs")
    print("\na set of cards in one choice: µs to list the sets of a table of k cards (no cache)")
    print(f"  {'k':>3} {'sums':>8} {'any':>8} {'one rank':>9}")
    for k, row in res["set_choice_us"].items():
        print(f"  {k:>3} {row['sums']:>8.1f} {row['any']:>8.1f} {row['one rank']:>9.1f}")
    if res["clone_us"] is not None:
        print(f"\nclone() of a mid-game 4-player Crazy Eights state: {res['clone_us']:.1f} µs")
    print(f"\ncheck time per file (median of {1 if a.quick else 5}, in process): wall, CPU")
    for f, ms in res["check_ms"].items():
        print(f"  {f:<44} {ms:7.1f} ms {res['check_cpu_ms'][f]:7.1f} ms")
    print(f"\ncheck and compile per file (median of {1 if a.quick else 3}, CPU): for its smallest "
          "number of players;\n  as `rulelang check` (each number of players it checks) with "
          "the playout variants;\n  `check`: the command's work for the file, in process; "
          "`check` run as a command, less the\n  interpreter's start")
    print(f"  {'':<44} {'compile':>10} {'+ playout':>10} {'check':>10} {'command':>10}")
    for f, ms in res["compile_ms"]["files"].items():
        print(f"  {f:<44} {ms:7.1f} ms {res['compile_ms']['every'][f]:7.1f} ms "
              f"{res['compile_ms']['check'][f]:7.1f} ms {res['check_cli_ms'][f]:7.1f} ms")
    print("  stress files (benchmarks/stress.py):")
    for f, ms in res["compile_ms"]["stress"].items():
        print(f"  {f:<44} {'':>10} {ms:7.1f} ms {res['compile_ms']['stress_check'][f]:7.1f} ms")
    if res["cli_help_ms"] is not None:
        print(f"\n`rulelang --help` start-up: {res['cli_help_ms']:.0f} ms "
              f"(the bare interpreter: {res['python_startup_ms']:.0f} ms)")
    print("\ntargets:")
    for key, t in res["targets"].items():
        v = t["value"]
        shown = "not measured" if v is None else (f"{v:,.0f}" if v >= 100 else f"{v:.2f}")
        state = {True: "met", False: "NOT MET", None: "-"}[t["met"]]
        print(f"  {t['what']:<60} {t['goal']:>10}  {shown:>12}  {state}")
    print(f"  (*) games of fewer than {MIN_DECISIONS} decisions left out")
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    with open(a.json, "w") as fh:
        json.dump(res, fh, indent=2)
    print(f"\nfigures written to {os.path.relpath(a.json)}")


if __name__ == "__main__":
    main()
