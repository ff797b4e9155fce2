"""A mutation fuzzer for the other files rulelang reads: rule tests, game logs and saves.

    python -m benchmarks.fuzzfiles --count 600             # seed 1: 200 of each kind
    python -m benchmarks.fuzzfiles --seed 3 --show 17      # print input 17 of seed 3

``benchmarks.fuzz`` gives rule files to ``check`` and ``run``; this gives mutants of the
``.cardtest`` files of ``rules/`` to ``rulelang test``, of logs written by ``rulelang run --log``
to ``rulelang replay --to-end``, and of saves written by ``rulelang play --save`` to ``rulelang
play --resume`` (with no answers: the player quits at once).  A log or a save is JSON: a mutant
changes one value somewhere in it (a number to an extreme, a string to a hostile one, a list
cut or repeated, a key dropped or added, a type changed) or, now and then, the bytes of the file
(cut, a part deleted or repeated, a byte changed).  A rule test is text: lines deleted,
repeated, swapped, indented, cut, tokens replaced by extremes.

Each input runs in a child of ``benchmarks.fuzz.Pool`` (1 GB, 10 s of CPU), and is classed as
there: exit status 3 or an uncaught exception, a hang, memory past the limit, a crash, a control
character in the output.  Refusing the input with a diagnostic (exit 1 or 2) is a pass.
"""
from __future__ import annotations

import argparse
import glob
import io
import json
import os
import random
import shutil
import sys
import tempfile

from benchmarks.fuzz import Pool, _run_cli, _unsafe_output, classify, known_class, warm_up
from benchmarks.fuzzgen import REAL_FILES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ("cardtest", "log", "save")
CARDTESTS = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardtest"))
                   + glob.glob(os.path.join(ROOT, "examples", "*.cardtest")))
# Whose logs and saves, and with which arguments: the computer agents that search (mc, ismcts)
# put their own state in a save, and their budgets in both.
GAMES = (("crazy_eights.cardrules", [], []), ("follow_the_leader.cardrules", [], []),
         ("crazy_eights.cardrules", ["--players", "3", "--agents", "mc:4,ismcts:6,random"],
          ["--players", "3", "--agents", "mc:4,ismcts:6"]))

# Values put in place of another in a log or a save.
EXTREMES = [0, -1, 1, 2, 63, 64, 1023, 1024, 10 ** 15, -10 ** 15, 2 ** 63, 2 ** 64, 10 ** 30,
            -(10 ** 30), 1.5, float("inf"), True, False, None, "", "x", "\x1b[2J\x1b]0;t\x07",
            "[bold red]FUZZMARKB[/bold red]", "../../etc/passwd", "/dev/zero", "\u202e", "x" * 5000,
            [], {}, [[[[[]]]]], [0] * 50, {"a": 1}, "crazy_eights.cardrules", "RL901",
            # a number as text (a log's `max_steps` as text was an internal error), written with
            # `_` or other scripts' digits; agents with budgets that would never end
            "200000", "1_0", "\u0661\u0662", "+5", "mc:1000000000000", "ismcts:99999999999",
            "mc:\u0663", "mc:0", "human", "mc", [None, None, None]]
# Agents put in place of another (a save's or a log's `agents`).
AGENT_NAMES = ["random", "first", "mc", "mc:1", "mc:100000", "mc:100001", "mc:10000000000000",
               "ismcts:3", "ismcts:1000000000000", "mc:1_0", "mc:\uff15", "human", "nobody", "MC:5"]
TOKENS = ["0", "-1", "99999999999999999999", "player 9", "none", "\x1b[2J", "[bold]FUZZMARKB[/bold]",
          "", ":", "\"", "#", "    ", "\t", "♥", "10♥", "Z♠", "the rest", "hand of player 0"]


def _paths(data, prefix=()):
    """Every place in a JSON value, as a path of keys and indexes."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:40]):       # a long list: its first items stand for the rest
            out += _paths(v, prefix + (i,))
    return out


def _set(data, path, value):
    if not path:
        return value
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return data


def _get(data, path):
    for k in path:
        data = data[k]
    return data


def mutate_json(text: str, rng: random.Random) -> str:
    if rng.random() < 0.15:
        return mutate_bytes(text, rng)
    data = json.loads(text)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        path = rng.choice(_paths(data))
        old = _get(data, path)
        op = rng.random()
        if isinstance(old, list) and old and op < 0.3:
            k = rng.randrange(len(old))
            new = rng.choice((old[:k], old + old[k:k + 1] * rng.choice((1, 5, 1000)), old[::-1],
                              old[:k] + [rng.choice(EXTREMES)] + old[k + 1:]))
        elif isinstance(old, dict) and old and op < 0.3:
            new = dict(old)
            if rng.random() < 0.6:
                new.pop(rng.choice(list(new)))
            else:
                new[rng.choice(("extra", "state", "actions", "version", "format"))] = rng.choice(EXTREMES)
        elif isinstance(old, int) and not isinstance(old, bool) and op < 0.5:
            new = rng.choice((old + 1, old - 1, -old, old * 1000, rng.choice(EXTREMES), str(old),
                              old == 1, float(old)))
        elif path and path[0] == "agents" and op < 0.7:
            new = rng.choice(AGENT_NAMES)
        else:
            new = rng.choice(EXTREMES)
        data = _set(data, path, json.loads(json.dumps(new)) if new == new and new not in
                    (float("inf"),) else new)
    return json.dumps(data)


def mutate_bytes(text: str, rng: random.Random) -> str:
    if not text:
        return text
    i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
    op = rng.randrange(4)
    if op == 0:
        return text[:i]                                     # cut
    if op == 1:
        return text[:i] + text[j:]                          # a part deleted
    if op == 2:
        return text[:j] + text[i:j] + text[j:]              # a part repeated
    return text[:i] + rng.choice("\x00\"{}[],:0\\\xff\ufeff") + text[i + 1:]


def mutate_text(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.choice((1, 1, 2, 3, 5))):
        if not lines:
            break
        k = rng.randrange(len(lines))
        op = rng.randrange(7)
        if op == 0:
            del lines[k]
        elif op == 1:
            lines.insert(k, lines[k])
        elif op == 2:
            m = rng.randrange(len(lines))
            lines[k], lines[m] = lines[m], lines[k]
        elif op == 3:
            lines[k] = rng.choice(("    ", "  ", "\t", "")) + lines[k]
        elif op == 4:
            lines[k] = lines[k].lstrip()
        elif op == 5 and lines[k].split():
            words = lines[k].split(" ")
            words[rng.randrange(len(words))] = rng.choice(TOKENS)
            lines[k] = " ".join(words)
        else:
            lines = lines[:k]
    out = "\n".join(lines)
    return mutate_bytes(out, rng) if rng.random() < 0.1 else out


class Seeds:
    """The files mutated: the rule tests of rules/, and logs and saves of a few games, made once
    in ``workdir`` (which holds copies of the rule files, so that all of them still name one)."""

    def __init__(self, workdir: str):
        self.workdir = workdir
        for p in REAL_FILES:
            shutil.copy(p, workdir)
        self.texts = {"cardtest": [], "log": [], "save": []}
        for p in CARDTESTS:
            with open(p, encoding="utf-8") as fh:
                self.texts["cardtest"].append(fh.read())
        old_stdin = sys.stdin
        try:
            for g, (game, more, more_play) in enumerate(GAMES):
                path = os.path.join(workdir, game)
                log = os.path.join(workdir, f"seed{g}.log.json")
                rc, out, err = _run_cli(["run", path, "--seed", str(g + 1), "--quiet", "--log", log,
                                         *more])
                assert rc in (0, 1) and err is None, out
                save = os.path.join(workdir, f"seed{g}.save.json")
                sys.stdin = io.StringIO("1\n1\nq\n")
                rc, out, err = _run_cli(["play", path, "--seed", str(g + 1), "--save", save,
                                         *more_play])
                assert err is None, out
                for kind, f in (("log", log), ("save", save)):
                    with open(f, encoding="utf-8") as fh:
                        self.texts[kind].append(fh.read())
        finally:
            sys.stdin = old_stdin
        assert all(self.texts.values()), {k: len(v) for k, v in self.texts.items()}

    def make(self, seed: int, index: int) -> tuple:
        """(kind, text) of input ``index`` of ``seed``: the kinds in turn."""
        rng = random.Random(f"{seed}:{index}")
        kind = KINDS[index % len(KINDS)]
        base = rng.choice(self.texts[kind])
        text = mutate_text(base, rng) if kind == "cardtest" else mutate_json(base, rng)
        return kind, text


def read_file(path: str, text: str, steps: int = 300) -> dict:
    """The test of one input (in the child): its kind is its first line."""
    kind, _, body = text.partition("\n")
    ext = {"cardtest": ".cardtest", "log": ".log.json", "save": ".save.json"}[kind]
    path = os.path.splitext(path)[0] + ext
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(body)
    argv = {"cardtest": ["test", path], "log": ["replay", path, "--to-end"],
            "save": ["play", "--resume", path, "--max-steps", str(steps * 100)]}[kind]
    sys.stdin = io.StringIO("")              # the player answers nothing: end of input
    rc, out, err = _run_cli(argv)
    res = {"stage": kind, "check": rc, "unsafe": _unsafe_output(body, out), **(err or {})}
    return res


def run(seed: int, count: int, workers: int = 1, start: int = 0) -> dict:
    """Inputs ``start .. start+count-1`` of ``seed``: outcomes (kind and exit status) and the
    failures by class, with the number of the first input of each."""
    warm_up()
    workdir = tempfile.mkdtemp(prefix="rulelang-fuzzfiles-")
    try:
        seeds = Seeds(workdir)
        pool = Pool(workdir, workers, target=read_file)
        outcomes: dict = {}
        classes: dict = {}
        slowest = (0.0, None)
        i = start
        while i < start + count or pool.live:
            while i < start + count and pool.free:
                kind, text = seeds.make(seed, i)
                pool.submit(i, kind + "\n" + text)
                i += 1
            for key, res in pool.wait():
                cls = classify(res)
                k = f"{res.get('stage')}/exit {res.get('check')}"
                outcomes[k] = outcomes.get(k, 0) + 1
                if res["wall"] > slowest[0] and not res.get("hang"):
                    slowest = (res["wall"], key)
                if cls:
                    c = classes.setdefault(cls, {"count": 0, "first": key,
                                                 "tb": (res.get("tb") or res.get("hang_tb") or "")[-2000:],
                                                 "known": known_class(cls)})
                    c["count"] += 1
        return {"inputs": count, "outcomes": dict(sorted(outcomes.items())), "classes": classes,
                "slowest": {"wall_s": round(slowest[0], 2), "index": slowest[1]}}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fuzzfiles", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=600, help="inputs to try (default 600)")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--show", type=int, metavar="N", help="print input N of --seed and stop")
    args = ap.parse_args(argv)
    if args.show is not None:
        workdir = tempfile.mkdtemp(prefix="rulelang-fuzzfiles-")
        try:
            kind, text = Seeds(workdir).make(args.seed, args.show)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        sys.stdout.write(f"# input {args.show} of seed {args.seed}: {kind}\n{text}\n")
        return 0
    s = run(args.seed, args.count, args.workers, args.start)
    for k, v in s["outcomes"].items():
        print(f"{k}: {v}")
    print(f"slowest: {s['slowest']['wall_s']} s (#{s['slowest']['index']})")
    for c, v in s["classes"].items():
        print(f"FAIL {c}: {v['count']} inputs, first #{v['first']}{' [known]' if v['known'] else ''}\n"
              + "    " + v["tb"].strip().replace("\n", "\n    ")[-1500:])
    return 1 if any(not v["known"] for v in s["classes"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
