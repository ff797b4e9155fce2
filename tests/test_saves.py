"""Saved games: `rulelang play --save PATH` and `--resume PATH` (rulelang/play/saves.py).

A game saved when the player quits (or types `save`) and resumed goes on exactly as the game
played without the pause (the computer agents' random generators and memories are saved with
the state); the save carries the game's identity and a changed rule file is refused.
"""
import io
import json
import os
import re
import shutil
import sys

import pytest

from rulelang.cli.commands import main
from rulelang.compile.loader import load
from rulelang.engine.runtime import State
from rulelang.play.saves import read_save, rule_digest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CRAZY = os.path.join(ROOT, "examples", "crazy_eights.cardrules")


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch):
    """A log or save names its rule file relative to its own folder or to the current folder
    (docs/security.md): these tests write them in a temporary folder and run from the project."""
    monkeypatch.chdir(ROOT)
FTL = os.path.join(ROOT, "rules", "follow_the_leader.cardrules")


def play(capsys, monkeypatch, *argv, answers):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(a + "\n" for a in answers)))
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def moves_and_end(out):
    """What happened in the game, in order (the moves, what was said, the result), without the
    turn numbers and tables (a resumed game shows its table again)."""
    lines = []
    for ln in out.splitlines():
        if re.match(r"\s+(\d+\s+)?(Player \d+|You): ", ln) or re.match(r"\s+[·»]", ln):
            lines.append(re.sub(r"^\s+(\d+\s+)?", "", ln).rstrip())
        elif re.search(r"\bwins?\b", ln) or "No winner" in ln:
            lines.append(ln.strip())
    return [ln for ln in lines if not ln.startswith("Crazy") and "Game saved" not in ln]


ANSWERS = ["2", "1", "3", "1", "2"] + ["1"] * 300     # a number out of range is asked again


@pytest.mark.parametrize("path,args,stop", [
    (CRAZY, ["--seed", "5"], 3),
    # (saved at the second answer: mc's moves for this seed changed when State.determinize
    # began dealing from a pool in card order, and the game now ends before a fourth)
    (CRAZY, ["--players", "3", "--seat", "2", "--seed", "8", "--agents", "mc:6,random"], 2),
    (FTL, ["--players", "3", "--seed", "2", "--set", "jokers=yes"], 5),
    # saved while player 1's secret choice of a simultaneous decision is made, player 2's not
    (os.path.join(ROOT, "rules", "internecine.cardrules"), ["--seat", "2", "--seed", "3"], 6),
])
def test_save_then_resume_goes_on_as_playing_on(path, args, stop, tmp_path, capsys, monkeypatch):
    status, whole, _ = play(capsys, monkeypatch, path, *args, answers=ANSWERS)
    assert status == 0 and ("win" in whole or "No winner" in whole)
    save = str(tmp_path / "game.json")
    status, first, _ = play(capsys, monkeypatch, path, *args, "--save", save,
                            answers=ANSWERS[:stop] + ["q"])
    assert status == 0 and f"Game saved to {save}; go on with `rulelang play --resume {save}`" in first
    assert "Game abandoned" not in first
    if "internecine" in path:       # player 1 has chosen in secret, player 2 (you) not yet
        state = read_save(save)["state"]
        assert state["sim"] == {"0": state["sim"]["0"]} and state["pending"] == [1]
    status, second, _ = play(capsys, monkeypatch, "--resume", save, answers=ANSWERS[stop:])
    assert status == 0
    assert f"(the game saved in {save}, at turn " in second
    # the moves before the save and those after it are the whole game's, and so is the end
    played = moves_and_end(first) + moves_and_end(second)
    assert played == moves_and_end(whole)
    # (the resumed game names its rule file as the save does: from the current folder)
    assert whole.rstrip().splitlines()[-1].replace(path, os.path.relpath(path)) == \
        second.rstrip().splitlines()[-1]


def test_save_at_a_prompt_and_play_on(tmp_path, capsys, monkeypatch):
    save = str(tmp_path / "mid.json")
    status, out, _ = play(capsys, monkeypatch, CRAZY, "--seed", "5",
                          answers=["1", "save", f"save {save}", "1"] + ["1"] * 300)
    assert status == 0
    assert "save where? type `save FILE`" in out            # no --save: where to?
    assert out.count("Game saved to") == 1 and ("wins!" in out or "win!" in out)
    data = read_save(save)
    assert data["file"] == os.path.relpath(CRAZY) and data["digest"] == rule_digest(CRAZY)
    assert data["players"] == 2 and data["seat"] == 1 and data["options"] == {}
    assert data["agents"] == ["human", "random"] and data["agent_states"][0] is None
    assert "rng" in data["agent_states"][1]
    # the state inside is State.to_json's, and reads back to the same
    cg = load(CRAZY).compiled(2)
    st = State.from_json(cg, data["state"])
    assert st.to_json() == data["state"] and st.current_player() == 0
    assert os.stat(save).st_mode & 0o077 == 0              # the player's own file
    # resumed there, the game ends as the one played on did
    status, resumed, _ = play(capsys, monkeypatch, "--resume", save, answers=["1"] * 300)
    assert resumed.rstrip().splitlines()[-1] == \
        out.rstrip().splitlines()[-1].replace(CRAZY, os.path.relpath(CRAZY))


def test_a_save_of_a_changed_rule_file_is_refused(tmp_path, capsys, monkeypatch):
    rules = tmp_path / "game.cardrules"
    shutil.copy(CRAZY, rules)
    save = str(tmp_path / "game.json")
    play(capsys, monkeypatch, str(rules), "--seed", "1", "--save", save, answers=["1", "q"])
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# a comment is a change too\n",
                     encoding="utf-8")
    status, _out, err = play(capsys, monkeypatch, "--resume", save, answers=["q"])
    assert status == 1
    assert f"error[RL521]: the rule file `{rules}` has changed since `{save}` was written" in err
    # the text it was saved with, named on the command line, resumes it
    status, out, _err = play(capsys, monkeypatch, CRAZY, "--resume", save, answers=["q"])
    assert status == 0 and f"(the game saved in {save}, at turn " in out


def test_resume_takes_everything_from_the_save(tmp_path, capsys, monkeypatch):
    save = str(tmp_path / "game.json")
    play(capsys, monkeypatch, CRAZY, "--seed", "1", "--save", save, answers=["1", "q"])
    status, _o, err = play(capsys, monkeypatch, "--resume", save, "--seed", "3", answers=["q"])
    assert status == 2 and "--resume goes on with the saved game's" in err
    status, _o, err = play(capsys, monkeypatch, answers=["q"])
    assert status == 2 and "name a rule file, or --resume" in err
    (tmp_path / "other.json").write_text(json.dumps({"format": "rulelang-log"}), encoding="utf-8")
    status, _o, err = play(capsys, monkeypatch, "--resume", str(tmp_path / "other.json"),
                           answers=["q"])
    assert status == 1 and "error[RL520]" in err and "is not a rulelang saved game" in err
