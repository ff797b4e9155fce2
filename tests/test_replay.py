"""Game logs and replays: `rulelang run --log PATH`, `rulelang replay PATH` (rulelang/play/saves.py).

A logged game replays to the identical final state (simultaneous decisions included); `replay
--to-end` shows what `run` showed; `--turn N` stops at the start of turn N; stepping forward
and back works at a real terminal (pexpect); a log whose rule file has changed is refused, as is
a file that is no log or a log that was edited.
"""
import io
import json
import os
import re
import shutil
import sys

import pytest

from rulelang.play.agents import make_agent
from rulelang.cli.commands import main
from rulelang.cli.common import _play_out
from rulelang.compile.loader import load
from rulelang.play.saves import read_log, replay_state

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CRAZY = os.path.join(ROOT, "examples", "crazy_eights.cardrules")


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch):
    """A log or save names its rule file relative to its own folder or to the current folder
    (docs/security.md): these tests write them in a temporary folder and run from the project."""
    monkeypatch.chdir(ROOT)


def cli(capsys, monkeypatch, *argv, stdin=""):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("path,players,seed,agents,sets", [
    (CRAZY, 3, 4, "random", []),
    (os.path.join(ROOT, "rules", "internecine.cardrules"), 2, 2, "random", []),   # simultaneous
    (os.path.join(ROOT, "rules", "ciq.cardrules"), 3, 1, "first,random,random", []),
    (os.path.join(ROOT, "rules", "follow_the_leader.cardrules"), 2, 3, "random",
     ["--set", "jokers=yes"]),
])
def test_a_logged_game_replays_to_the_identical_final_state(path, players, seed, agents, sets,
                                                             tmp_path, capsys, monkeypatch):
    log = str(tmp_path / "game.json")
    status, out, _err = cli(capsys, monkeypatch, "run", path, "--players", str(players),
                            "--seed", str(seed), "--agents", agents, "--quiet", "--log", log, *sets)
    assert status == 0, out
    data = read_log(log)
    assert data["players"] == players and data["seed"] == seed and data["file"] == os.path.relpath(path)
    assert data["digest"].startswith("sha256:") and len(data["actions"]) == data["decisions"] > 0
    overrides = dict(s.split("=") for s in sets[1::2])
    assert data["options"] == overrides
    cg = load(path, overrides).compiled(players)
    # the same game played again directly, and the log replayed
    direct = cg.new_game(seed=seed)
    _play_out(direct, [make_agent(nm, p, seed) for p, nm in enumerate(data["agents"])])
    replayed = replay_state(cg, data)
    assert replayed.terminal and replayed.to_json() == direct.to_json()
    assert [w + 1 for w in replayed.winners] == data["winners"]
    # `replay --to-end` ends with the same result line as `run` prints (the turns it numbered)
    status, shown, _err = cli(capsys, monkeypatch, "replay", log, "--to-end")
    status2, ran, _err = cli(capsys, monkeypatch, "run", path, "--players", str(players),
                             "--seed", str(seed), "--agents", agents, *sets)
    assert status == 0 and shown.rstrip().splitlines()[-1] == ran.rstrip().splitlines()[-1]


def test_replay_to_end_shows_what_run_showed(tmp_path, capsys, monkeypatch):
    log = str(tmp_path / "game.json")
    status, ran, _ = cli(capsys, monkeypatch, "run", CRAZY, "--seed", "3", "--log", log)
    assert status == 0
    status, replayed, _ = cli(capsys, monkeypatch, "replay", log, "--to-end")
    assert status == 0
    assert replayed.splitlines()[0].startswith("Crazy Eights — replay of ")
    assert replayed.splitlines()[1:] == ran.splitlines()[1:]       # all but the heading


def test_replay_stops_at_the_start_of_a_turn(tmp_path, capsys, monkeypatch):
    log = str(tmp_path / "game.json")
    cli(capsys, monkeypatch, "run", CRAZY, "--seed", "3", "--quiet", "--log", log)
    status, out, _ = cli(capsys, monkeypatch, "replay", log, "--turn", "6")
    assert status == 0
    turns = [int(m) for m in re.findall(r"^ +(\d+)  Player", out, re.M)]
    assert turns == list(range(1, 6))                    # turns 1 to 5 were played, not 6
    assert re.search(r"the table at the start of turn 6 \(after move \d+ of \d+\)", out)
    # the state shown is the one after those moves
    data = read_log(log)
    k = int(re.search(r"after move (\d+) of", out).group(1))
    st = replay_state(load(CRAZY).compiled(2), data, k)
    assert st.turns == 5 and not st.terminal
    assert " ".join(st.observation(0)["zones"]["hand/1"]) in out


def test_replay_steps_by_commands(tmp_path, capsys, monkeypatch):
    log = str(tmp_path / "game.json")
    cli(capsys, monkeypatch, "run", CRAZY, "--seed", "3", "--quiet", "--log", log)
    data = read_log(log)
    first, second = data["actions"][0][2], data["actions"][1][2]
    cg = load(CRAZY).compiled(2)
    first_of_turn_4 = next(k for k in range(56) if replay_state(cg, data, k).turns == 3)
    status, out, _ = cli(capsys, monkeypatch, "replay", log, stdin="n\nn\nb\nt 4\ne\nq\n")
    assert status == 0
    prompts = re.findall(r"^\[(move \d+ of \d+[^\]]*)\] > (\S*)", out, re.M)
    assert [p for p, _c in prompts] == [
        "move 0 of 55, turn 1", "move 1 of 55, turn 1", "move 2 of 55, turn 2",
        "move 1 of 55, turn 1", f"move {first_of_turn_4} of 55, turn 4",
        "move 55 of 55, the end"]
    assert f"Player 1: {first}" in out and f"Player 1: {second}" in out
    assert "Player 1 wins!" in out


def test_stepping_forward_and_back_at_a_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    log = str(tmp_path / "game.json")
    assert main(["run", CRAZY, "--seed", "3", "--quiet", "--log", log]) == 0
    data = read_log(log)
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=ROOT, COLUMNS="100")
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "replay", log], env=env,
                          encoding="utf-8", timeout=30, dimensions=(40, 100))
    try:
        child.expect_exact("[move 0 of 55, turn 1] > ")
        child.sendline("")                                     # Enter: the next move
        child.expect_exact(f"Player 1: {data['actions'][0][2]}")
        child.expect_exact("[move 1 of 55, turn 1] > ")
        child.sendline("n")
        child.expect_exact("[move 2 of 55, turn 2] > ")
        child.sendline("b")
        child.expect_exact("... move 1 of 55, turn 1")
        child.expect_exact("[move 1 of 55, turn 1] > ")
        child.sendline("t 10")
        child.expect(r"\.\.\. move (\d+) of 55, turn 10")
        k = int(child.match.group(1))
        child.sendline("e")
        child.expect_exact("Player 1 wins!")
        child.sendline("s")
        child.expect_exact("[move 0 of 55, turn 1] > ")
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    st = replay_state(load(CRAZY).compiled(2), data, k)
    assert st.turns == 9


def test_a_changed_rule_file_is_refused(tmp_path, capsys, monkeypatch):
    rules = tmp_path / "game.cardrules"
    shutil.copy(CRAZY, rules)
    log = str(tmp_path / "game.json")
    cli(capsys, monkeypatch, "run", str(rules), "--seed", "2", "--quiet", "--log", log)
    assert cli(capsys, monkeypatch, "replay", log, "--to-end")[0] == 0
    assert "(7 if" in rules.read_text(encoding="utf-8")
    rules.write_text(rules.read_text(encoding="utf-8").replace("(7 if", "(6 if"), encoding="utf-8")
    status, _out, err = cli(capsys, monkeypatch, "replay", log, "--to-end")
    assert status == 1
    assert f"error[RL521]: the rule file `{rules}` has changed since `{log}` was written" in err
    # the original text, named with --rules, replays
    status, out, _ = cli(capsys, monkeypatch, "replay", log, "--to-end", "--rules", CRAZY)
    assert status == 0 and "wins!" in out


def test_not_a_log_and_an_edited_log(tmp_path, capsys, monkeypatch):
    status, _o, err = cli(capsys, monkeypatch, "replay", CRAZY)
    assert status == 1 and "error[RL520]" in err and "is not a rulelang game log" in err
    log = tmp_path / "game.json"
    cli(capsys, monkeypatch, "run", CRAZY, "--seed", "2", "--quiet", "--log", str(log))
    data = json.loads(log.read_text(encoding="utf-8"))
    data["actions"][3][1] += 1
    log.write_text(json.dumps(data), encoding="utf-8")
    status, _o, err = cli(capsys, monkeypatch, "replay", str(log), "--to-end")
    assert status == 1 and "error[RL522]: the log does not match the game at move 4" in err
    status, _o, err = cli(capsys, monkeypatch, "run", CRAZY, "--games", "3", "--log", str(log))
    assert status == 2 and "--log records one game" in err


def test_help(capsys):
    assert main(["replay", "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "--to-end" in out and "--turn N" in out
    assert main(["run", "--help"]) == 0 and "--log PATH" in capsys.readouterr().out
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--save PATH" in out and "--resume PATH" in out


def test_a_turn_past_the_end_says_so(tmp_path, capsys, monkeypatch):
    """`t N` (and `--turn N`) beyond the last turn of the game says that there is no such turn,
    and shows the end; a turn of the game says nothing of the kind."""
    log = str(tmp_path / "game.json")
    cli(capsys, monkeypatch, "run", CRAZY, "--seed", "3", "--quiet", "--log", log)
    data = read_log(log)
    last = replay_state(load(CRAZY).compiled(2), data, len(data["actions"]) - 1).turns + 1
    status, out, _ = cli(capsys, monkeypatch, "replay", log,
                         stdin=f"t {last}\nt {last + 1}\nt 500\nq\n")
    assert status == 0
    said = re.findall(r"the game ended in turn (\d+): there is no turn (\d+)", out)
    assert said == [(str(last), str(last + 1)), (str(last), "500")]
    prompts = re.findall(r"^\[(move \d+ of \d+[^\]]*)\] > ", out, re.M)
    assert prompts[-2:] == ["move 55 of 55, the end"] * 2
    status, out, _ = cli(capsys, monkeypatch, "replay", log, "--turn", "500")
    assert status == 0
    assert f"the game ended in turn {last}: there is no turn 500" in out
    assert "the table at the end" in out and "Player 1 wins!" in out
    status, out, _ = cli(capsys, monkeypatch, "replay", log, "--turn", str(last))
    assert "there is no turn" not in out
