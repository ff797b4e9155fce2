"""Numbers from outside the rule file are untrusted input too (docs/security.md, "Logs, saves and
the command line"): every field of a log and a save is checked by its kind and range (RL520),
the number of games and the step budget of the command line are bounded (a usage error, exit 2,
and the seeds are never listed whole), an agent's budget (`mc:N`, `ismcts:N`) is bounded on the
command line and in a save, and a number is plain decimal digits: `1_0`, `+5`, ` 5` and other
scripts' digits, which Python's int() reads, are refused."""
import contextlib
import io
import json
import os
import subprocess
import sys
import time
from unittest import mock

import pytest

from rulelang import limits
from rulelang.cli.commands import main
from rulelang.play.parallel import chunks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRAZY = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
CIQ = os.path.join(ROOT, "rules", "ciq.cardrules")


def command(*args, stdin="", timeout=60):
    """`rulelang ARGS` as a process: (exit status, what it printed)."""
    env = dict(os.environ, PYTHONPATH=ROOT, NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "rulelang", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode != 3, proc.stdout + proc.stderr
    return proc.returncode, proc.stdout + proc.stderr


def cli(*args, stdin=""):
    """`rulelang ARGS` in this process, as the console script runs it (``main``: its exit status,
    a usage error's 2 included): (exit status, what it printed).  What is checked is how the
    command reads numbers, not how it starts, and a process for each of the many cases below
    cost a second of start-up each; the log and the save they change, and the test of the files
    as written, come from the command run as a process."""
    out = io.StringIO()
    with mock.patch.dict(os.environ, {"NO_COLOR": "1"}), \
            mock.patch.object(sys, "stdin", io.StringIO(stdin)), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main(list(args))
    assert status != 3, out.getvalue()
    return status, out.getvalue()


# ---- logs and saves: every field ------------------------------------------------------------

@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "game.json"
    status, out = command("run", CRAZY, "--seed", "3", "--log", str(path))
    assert status == 0, out
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def save(tmp_path_factory):
    path = tmp_path_factory.mktemp("save") / "game.json"
    status, out = command("play", CRAZY, "--seed", "3", "--save", str(path), stdin="1\nq\n")
    assert status == 0 and path.exists(), out
    return json.loads(path.read_text(encoding="utf-8"))


LOG_FIELDS = [
    ("max_steps", "200000"), ("max_steps", 0), ("max_steps", True), ("max_steps", 10 ** 15),
    ("max_steps", 2.5), ("seed", True), ("seed", -1), ("seed", 1 << 64), ("seed", "1"),
    ("players", True), ("players", 10 ** 15), ("players", 0), ("game", 7),
    ("agents", ["mc:1000000000000", "random"]), ("agents", ["mc:1_0", "random"]),
    ("agents", ["mc:\u0663", "random"]), ("agents", ["nobody", "random"]),
    ("options", {"decks": 10 ** 30}), ("decisions", "many"), ("turns", -1),
    ("outcome", 5), ("winners", [True]), ("winners", [9]), ("winners", "1"),
    ("actions", [[True, 2, "play 3♣"]]), ("actions", [[9, 2, "play 3♣"]]),
    ("actions", [[1, -1, "play 3♣"]]), ("actions", [[1, 2, 3]]),
]


@pytest.mark.parametrize("field,value", LOG_FIELDS, ids=[f"{f}={v!r}"[:40] for f, v in LOG_FIELDS])
def test_every_field_of_a_log_is_checked(tmp_path, log, field, value):
    bad = dict(log, **{field: value})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    status, out = cli("replay", str(path))
    assert status == 1 and "error[RL520]" in out and f"`{field}`" in out, out


SAVE_FIELDS = [
    ("seat", True), ("seat", 0), ("seat", 3), ("seed", "1"), ("seed", 1 << 64),
    ("players", True), ("agents", ["human", "mc:1000000000000"]),
    ("agents", ["human", "ismcts:99999999999"]), ("agents", ["human", "mc:\u0663"]),
    ("agent_states", [None, 5]), ("agent_states", [None, {"rng": 5}]),
    ("state.max_steps", "200000"), ("state.max_steps", 10 ** 15), ("state.work", -1),
    ("state.work", "x"),
]


@pytest.mark.parametrize("field,value", SAVE_FIELDS,
                         ids=[f"{f}={v!r}"[:40] for f, v in SAVE_FIELDS])
def test_every_field_of_a_save_is_checked(tmp_path, save, field, value):
    bad = json.loads(json.dumps(save))
    if field.startswith("state."):
        bad["state"][field[6:]] = value
    else:
        bad[field] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    t0 = time.monotonic()
    status, out = cli("play", "--resume", str(path), stdin="q\n")
    assert status == 1 and "error[RL520]" in out, out
    assert field.split(".")[-1] + "`" in out, out
    assert time.monotonic() - t0 < 60


def test_a_log_and_a_save_as_written_are_still_read(tmp_path, log, save):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    status, out = command("replay", str(path))
    assert status == 0, out
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    status, out = command("play", "--resume", str(path), stdin="q\n")
    assert status == 0, out


# ---- the command line -------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["run", CRAZY, "--games", "1000000000000000"],
    ["run", CRAZY, "--games", str(limits.MAX_GAMES + 1)],
    ["check", "--simulate", "1000000000000000", CRAZY],
    ["stats", CRAZY, "--games", "1000000000000000"],
    ["compare", CRAZY, "--b-set", "x=1", "--games", "1000000000000000"],
    ["run", CRAZY, "--max-steps", "1000000000000000"],
    ["run", CRAZY, "--max-steps", "1_0"],
    ["run", CRAZY, "--games", "\u0661\u0660"],
    ["run", CRAZY, "--games", "+5"],
    ["run", CRAZY, "--games", " 5"],
    ["run", CRAZY, "--seed", "1_0"],
    ["run", CRAZY, "--seed", "\uff11"],
    ["run", CRAZY, "--players", "2_0"],
    ["run", CRAZY, "--players", "9" * 5000],
    ["check", "--max-errors", "1_0", CRAZY],
    ["play", CRAZY, "--seat", "\u0661"],
    ["run", CRAZY, "--agents", "mc:1000000000000"],
    ["run", CRAZY, "--agents", "ismcts:" + str(limits.MAX_AGENT_BUDGET + 1)],
    ["run", CRAZY, "--agents", "mc:1_0"],
    ["run", CRAZY, "--agents", "mc:\u0663"],
], ids=lambda a: " ".join(a[:1] + a[2:] if a[0] != "check" else a[:3])[:50])
def test_command_line_numbers_are_bounded_decimal_digits(argv):
    t0 = time.monotonic()
    status, out = cli(*argv)
    assert status == 2, out
    assert time.monotonic() - t0 < 30


@pytest.mark.parametrize("value", ["1_0", "\u0661", "+1", "0x1", "1e3"])
def test_an_option_set_to_other_than_decimal_digits_is_rl144(value):
    status, out = cli("check", CIQ, "--set", f"decks={value}")
    assert status == 1 and "error[RL144]" in out, out


def test_an_option_of_plain_digits_still_works():
    status, out = cli("check", CIQ, "--set", "decks=2")
    assert status == 0, out
    status, out = cli("check", CIQ, "--set", "decks=-1")
    assert status == 1 and "error[RL145]" in out


def test_many_games_never_list_every_seed():
    # the seeds are a range, cut into ranges: nothing holds a list of all of them
    items = range(5, 5 + limits.MAX_GAMES)
    parts = chunks(items, 2)
    assert all(isinstance(p, range) for p in parts)
    assert sum(len(p) for p in parts) == limits.MAX_GAMES and parts[0][0] == 5
