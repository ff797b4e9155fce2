"""The `rulelang` command line: run, play, check, explain, agents.

Most tests call ``main([...])`` in-process and read the output with capsys; a few run
``python -m rulelang`` in a subprocess, as a user would.
"""
import glob
import io
import json
import os
import subprocess
import re
import sys

import pytest

from rulelang.cli import explain
from rulelang.cli import play as play_command
from rulelang.play.agents import AgentError, FirstChoice, UniformRandom, View, agent_names, make_agent
from rulelang.cli.commands import main
from rulelang.compile.loader import load
from rulelang.cli.render import diagnostic_plain

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRAZY = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
SEVENS = os.path.join(ROOT, "examples", "sevens.cardrules")
RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules")))

BROKEN = '''game "Broken"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
setup:
    shuffle stok
    deal 5 from stock to hand of each player
turn:
    choose:
        draw:
            move top card from stock to hand
game ends when hand is empty:
    end game with winner you
'''

# Each player plays a card face down at the same time; the higher rank takes both.  Seat 1's
# cards may show (they go to a face-up table), but what the others draw stays secret.
DUEL = '''game "Secret duel"
players 2
deck standard, into box
zone box: shared, face down
zone hand: per player, seen by owner
zone table: per player, face up
zone won: per player, face up
var rounds = 0
score: size of won
setup:
    shuffle box
    deal 5 from box to hand of each player
turn:
    simultaneously choose by player 1, player 2:
        play card c from hand:
            move c from hand to table
    if rank of top of table of player 1 > rank of top of table of player 2:
        move all cards from table of player 1 to won of player 1
        move all cards from table of player 2 to won of player 1
    else:
        move all cards from table of player 1 to won of player 2
        move all cards from table of player 2 to won of player 2
    add 1 to rounds
    if rounds is 5:
        end game by highest score
'''

# The other player hides a card from their hand in a face-down pile: the human must not learn it.
HIDE = '''game "Hide"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone vault: shared, face down
var rounds = 0
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    choose:
        hide card c from hand:
            move c from hand to vault
    add 1 to rounds
game ends when rounds is 6:
    end game with no winner
'''


@pytest.fixture
def tmp_rules(tmp_path):
    def write(name, text):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return str(p)
    return write


def run_json(capsys, *args):
    code = main(["run", *args, "--json"])
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert len(lines) == 1, out
    return code, json.loads(lines[0])


# ---- run ----------------------------------------------------------------------------------------

def test_run_json_has_the_keys(capsys):
    code, res = run_json(capsys, CRAZY, "--seed", "3")
    assert code == 0
    for key in ("game", "players", "seed", "outcome", "winners", "decisions", "turns"):
        assert key in res
    assert res["game"] == "Crazy Eights"
    assert res["players"] == 2 and res["seed"] == 3
    assert res["outcome"] == "win"
    assert res["winners"] and all(1 <= w <= 2 for w in res["winners"])
    assert res["decisions"] > 0


def test_same_seed_same_game(capsys):
    a = run_json(capsys, CRAZY, "--seed", "11", "--players", "3")
    b = run_json(capsys, CRAZY, "--seed", "11", "--players", "3")
    assert a == b
    others = {json.dumps(run_json(capsys, CRAZY, "--seed", str(s), "--players", "3")[1])
              for s in range(12, 18)}
    assert len(others) > 1


def test_agents_list_and_first_is_deterministic(capsys):
    code, res = run_json(capsys, CRAZY, "--agents", "first,random", "--seed", "2")
    assert code == 0 and res["agents"] == ["first", "random"]
    code, res = run_json(capsys, CRAZY, "--agents", "first", "--players", "4")
    assert code == 0 and res["agents"] == ["first"] * 4


def test_set_option(capsys):
    code, res = run_json(capsys, SEVENS, "--set", "hand_size=4", "--seed", "1")
    assert code == 0
    assert res["options"]["hand_size"] == 4


def test_bad_set_value_is_a_diagnostic(capsys):
    code = main(["run", SEVENS, "--set", "hand_size=99"])
    err = capsys.readouterr().err
    assert code == 1
    assert "sevens.cardrules:" in err and "error[RL" in err and "hand_size" in err
    assert "Traceback" not in err


def test_bad_set_value_with_json_is_still_one_object(capsys):
    code = main(["run", SEVENS, "--set", "hand_size=abc", "--json"])
    cap = capsys.readouterr()
    assert code == 1
    res = json.loads(cap.out)
    assert res["outcome"] == "invalid" and res["problem"]["code"].startswith("RL")
    assert "hand_size" in cap.err


def test_set_without_equals_is_a_usage_error(capsys):
    assert main(["run", SEVENS, "--set", "hand_size"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err


def test_unknown_agent_did_you_mean(capsys):
    assert main(["run", CRAZY, "--agents", "randon"]) == 2
    err = capsys.readouterr().err
    assert "unknown agent `randon`" in err and "did you mean `random`?" in err


def test_wrong_number_of_agents(capsys):
    assert main(["run", CRAZY, "--agents", "first,first,first"]) == 2
    assert "2 players" in capsys.readouterr().err


def test_too_many_players_is_a_usage_error(capsys):
    for cmd in ("run", "play"):
        assert main([cmd, CRAZY, "--players", "9"]) == 2
        err = capsys.readouterr().err
        assert "is for 2 to 4 players, not 9" in err and "choose --players from 2 to 4" in err


def test_unknown_set_option_is_a_usage_error_with_the_closest_name(capsys):
    for cmd in ("run", "play", "check"):
        assert main([cmd, SEVENS, "--set", "hand_sz=5"]) == 2, cmd
        err = capsys.readouterr().err
        assert "no option `hand_sz`" in err and "did you mean `hand_size`?" in err, cmd
    assert main(["run", SEVENS, "--set", "hand_sz=5", "--json"]) == 2


def test_check_set_option_some_files_have_is_a_diagnostic_in_the_others(capsys):
    # `decks` is an option of CIQ, not of Sevens: the command line is right for one file
    assert main(["check", SEVENS, os.path.join(ROOT, "rules", "ciq.cardrules"), "--set", "decks=2"]) == 1
    lines = [l for l in capsys.readouterr().out.splitlines() if "error[" in l]
    assert lines == [f"{SEVENS}: error[RL140]: there is no option `decks` to set"]


def test_missing_file(capsys):
    assert main(["run", "no/such/file.cardrules"]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_run_shows_the_game(capsys):
    assert main(["run", CRAZY, "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Crazy Eights" in out
    assert "Player 1: play" in out or "Player 2: play" in out
    assert re.search(r"\n Player 1 +\n +Hand ", out)          # the table, laid out by player
    assert re.search(r"\n +Discard +top ", out)
    assert "wins!" in out


def test_run_quiet(capsys):
    assert main(["run", CRAZY, "--seed", "4", "--quiet"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) <= 2 and "wins!" in out[0]


FOREVER = '''game "Forever"
players 2
deck standard, into pile
zone pile: shared, face down
turn:
    choose:
        wait:
            shuffle pile
game ends when pile is empty:
    end game with no winner
'''


def test_step_budget_is_reported_and_exit_1(capsys, tmp_rules):
    path = tmp_rules("forever.cardrules", FOREVER)
    code = main(["run", path, "--max-steps", "30", "--json"])
    cap = capsys.readouterr()
    assert code == 1
    res = json.loads(cap.out)
    assert res["outcome"] == "error" and res["problem"]["code"] == "RL901"
    assert f"{path}:5:1: error[RL901]" in cap.err and "^" in cap.err
    assert main(["run", path, "--max-steps", "30", "--games", "3"]) == 1
    cap = capsys.readouterr()
    assert "errors: 3" in cap.out and "3 of 3 games failed" in cap.err


def test_many_games_summary(capsys):
    assert main(["run", CRAZY, "--games", "20", "--seed", "5", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["games"] == 20 and sum(res["wins"]) + res["no_winner"] == 20
    assert res["errors"] == 0 and res["games_per_second"] > 0 and res["mean_decisions"] > 0
    assert main(["run", CRAZY, "--games", "20", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "20 games" in out and "games/s" in out and "win rate" in out


def test_many_games_are_the_single_games(capsys):
    _, one = run_json(capsys, CRAZY, "--seed", "7")
    main(["run", CRAZY, "--games", "1", "--seed", "7", "--json"])
    many = json.loads(capsys.readouterr().out)
    assert many["wins"][one["winners"][0] - 1] == 1
    assert many["mean_decisions"] == one["decisions"]


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_every_rule_file_runs(capsys, path):
    code, res = run_json(capsys, path, "--seed", "1")
    assert code == 0, res
    assert res["outcome"] != "error"


# ---- check --------------------------------------------------------------------------------------

def test_check_good_files(capsys):
    assert main(["check", CRAZY, SEVENS]) == 0
    assert "no problems in 2 files" in capsys.readouterr().out


def test_check_broken_file(capsys, tmp_rules):
    path = tmp_rules("broken.cardrules", BROKEN)
    assert main(["check", path]) == 1
    out = capsys.readouterr().out
    assert f"{path}:7:13: error[RL101]: unknown name `stok`" in out
    lines = out.splitlines()
    i = next(i for i, ln in enumerate(lines) if "unknown name `stok`" in ln)
    assert lines[i + 1].endswith("|     shuffle stok")
    caret = lines[i + 2]
    assert caret.endswith("^~~~")
    # the caret sits under the name
    assert caret.index("^") == lines[i + 1].index("stok")
    assert "= hint: did you mean `stock`?" in lines[i + 3]
    assert "\x1b[" not in out                      # not a terminal: plain text


def test_check_json(capsys, tmp_rules):
    path = tmp_rules("broken.cardrules", BROKEN)
    assert main(["check", "--json", path, CRAZY]) == 1
    items = json.loads(capsys.readouterr().out)
    assert isinstance(items, list) and items
    d = next(x for x in items if x["code"] == "RL101")
    assert d["severity"] == "error" and d["line"] == 7 and d["column"] == 13
    assert d["file"] == path and d["hint"]


def test_check_syntax_error_no_traceback(capsys, tmp_rules):
    path = tmp_rules("syntax.cardrules", 'game "x"\nplayers 2 to\n')
    assert main(["check", path]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2:" in out and "error[RL0" in out and "^" in out


@pytest.mark.parametrize("text", ["", "\x00\x01", "turn:\n\tchoose:\n", "game\n" * 3,
                                  "players 2 to 4\n" + "(" * 500, "é" * 100])
def test_check_never_crashes(capsys, tmp_rules, text):
    path = tmp_rules("junk.cardrules", text)
    assert main(["check", path]) in (0, 1)
    cap = capsys.readouterr()
    assert "Traceback" not in cap.out + cap.err


def test_check_internal_error_is_exit_3(capsys, monkeypatch):
    import rulelang.compile.loader as loader

    def boom(*a, **k):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(loader, "check_file", boom)
    assert main(["check", CRAZY]) == 3
    out = capsys.readouterr().out
    assert "internal error" in out and "kaboom" in out and "report" in out


def test_check_set_out_of_range(capsys):
    assert main(["check", SEVENS, "--set", "hand_size=99"]) == 1
    assert "hand_size" in capsys.readouterr().out


def test_check_folder(capsys):
    folder = os.path.join(ROOT, "examples")
    n = len(glob.glob(os.path.join(folder, "*.cardrules")))
    assert main(["check", folder]) == 0
    assert f"in {n} files" in capsys.readouterr().out


def test_usage_error_is_2(capsys):
    assert main(["check"]) == 2
    assert main(["frobnicate"]) == 2
    assert main([]) == 2


def test_no_color_env_and_color_on_terminal(monkeypatch, tmp_rules):
    path = tmp_rules("broken.cardrules", BROKEN)

    class Tty(io.StringIO):
        def isatty(self):
            return True
    tty = Tty()
    monkeypatch.setattr(sys, "stdout", tty)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["check", path]) == 1
    assert "\x1b[" in tty.getvalue()
    tty2 = Tty()
    monkeypatch.setattr(sys, "stdout", tty2)
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["check", path]) == 1
    assert "\x1b[" not in tty2.getvalue() and "^~~~" in tty2.getvalue()


def test_source_line_highlighted_with_the_lexer(monkeypatch, tmp_rules):
    import types

    from pygments.lexers import PythonLexer

    from rulelang.cli.render import diagnostic_text
    from rulelang.syntax.diagnostics import Diagnostic
    from rulelang.syntax.ast import Span
    fake = types.ModuleType("rulelang.cli.highlight")
    fake.CardrulesLexer = PythonLexer
    monkeypatch.setitem(sys.modules, "rulelang.cli.highlight", fake)
    d = Diagnostic("RL101", "error", "unknown name `stok`", Span("g", 1, 9, 1, 13), None)
    t = diagnostic_text(d, lines=['shuffle "stok"'], color=True)
    assert t.plain.splitlines()[1] == '  1 | shuffle "stok"'
    assert len(t.spans) > 5                          # the line has styles of its own


# ---- explain ------------------------------------------------------------------------------------

CATALOGUE = """# Errors

## RL101: unknown name

A name that is not declared.

Wrong:

    shuffle stok

## RL104: a value of the wrong kind

Something else.
"""


def test_explain_entry(capsys, monkeypatch):
    monkeypatch.setattr(explain, "_errors_doc", lambda: CATALOGUE)
    assert main(["explain", "rl101"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("RL101: unknown name") and "shuffle stok" in out
    assert "RL104" not in out
    assert main(["explain", "104"]) == 0
    assert "wrong kind" in capsys.readouterr().out


def test_explain_unknown_code(capsys, monkeypatch):
    monkeypatch.setattr(explain, "_errors_doc", lambda: CATALOGUE)
    assert main(["explain", "RL109"]) == 2
    err = capsys.readouterr().err
    assert "no error code `RL109`" in err and "RL101" in err


def test_explain_not_a_code_is_a_usage_error(capsys):
    assert main(["explain", "foo"]) == 2
    err = capsys.readouterr().err
    assert "`foo` is not an error code" in err and "hint: " in err and "RL101" in err


def test_explain_real_catalogue(capsys):
    text = explain._errors_doc()
    if text is None:
        pytest.skip("errors.md is not written yet")
    entries = explain.error_entries(text)
    assert entries
    code = sorted(entries)[0]
    assert main(["explain", code]) == 0
    assert code in capsys.readouterr().out


@pytest.mark.parametrize("code", ["RL101", "RL909", "RL999"])
def test_explain_renders_the_markdown(capsys, monkeypatch, code):
    """`explain` renders its entry: no ``` fences, no `##` heading, no backticks around code,
    no padding spaces; the examples are there as indented code."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["explain", code]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{code}: ")
    assert "```" not in out and "## " not in out and "`" not in out
    assert all(line == line.rstrip() for line in out.splitlines())
    assert "\n\n\n" not in out
    if code != "RL999":
        assert "Wrong:" in out and "Right:" in out
        assert "\n     move " in out or "\n     shuffle " in out     # the code, indented


def test_explain_shows_no_placeholder_examples(capsys):
    """An entry that has no example (a bug of rulelang, not of a rule file) says so in words;
    no entry shows an example made only of comments, such as `# report it`."""
    entries = explain.error_entries(explain._errors_doc())
    for code in ("RL900", "RL905", "RL999"):
        assert main(["explain", code]) == 0
        out = capsys.readouterr().out
        assert "There is no example of it" in out and "Wrong:" not in out, code
    import re
    for code, entry in entries.items():
        for block in re.findall(r"```cardrules\n(.*?)```", entry, re.S):
            lines = [l.strip() for l in block.splitlines() if l.strip()]
            placeholder = (all(l.startswith("#") for l in lines)     # only comments, and
                           and not any(l.startswith("# rulelang ") for l in lines)   # no command
                           and not any(l.startswith("# turn:") for l in lines))      # or sketch
            assert not placeholder, f"{code}: a placeholder example {block!r}"


# ---- play ---------------------------------------------------------------------------------------

def test_play_with_piped_input(capsys, monkeypatch):
    answers = "x\n99\n0\n\n" + "1\n" * 400
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code = main(["play", CRAZY, "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "please type a number from 1 to" in out
    assert "You: " in out
    assert re.search(r"You: draw\n +· \S+ from Stock to your Hand", out)   # the card you drew, shown to you
    assert "wins!" in out or "win!" in out


def test_play_eof_ends_cleanly(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n"))
    assert main(["play", CRAZY, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Game abandoned" in out


def test_play_ctrl_c_is_130(capsys, monkeypatch):
    def interrupt():
        raise KeyboardInterrupt
    monkeypatch.setattr(play_command, "_input", interrupt)
    assert main(["play", CRAZY, "--seed", "3"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_play_quit(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
    assert main(["play", CRAZY, "--seed", "3", "--players", "3", "--seat", "2"]) == 0
    assert "Game abandoned" in capsys.readouterr().out


def test_play_never_shows_hidden_cards(capsys, monkeypatch, tmp_rules):
    path = tmp_rules("hide.cardrules", HIDE)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 20))
    assert main(["play", path, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Player 2: hide a card" in out
    # the cards player 2 was dealt never appear in the human's output
    cg = load(path).compiled(2)
    st = cg.new_game(seed=1)
    theirs = [cg.card_names[c] for c in st.zones[cg.zone_base["hand"] + 1]]
    mine = [cg.card_names[c] for c in st.zones[cg.zone_base["hand"]]]
    for name in theirs:
        if name not in mine:
            assert name not in out


def test_play_simultaneous(capsys, monkeypatch, tmp_rules):
    path = tmp_rules("duel.cardrules", DUEL)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 10))
    assert main(["play", path, "--seed", "2", "--agents", "first"]) == 0
    out = capsys.readouterr().out
    assert "at the same time" in out
    assert out.count("You: play") == 5 and out.count("Player 2: play") == 5
    assert "Scores:" in out


def test_play_bad_seat(capsys):
    assert main(["play", CRAZY, "--seat", "5"]) == 2
    assert "seat" in capsys.readouterr().err


# ---- agents -------------------------------------------------------------------------------------

def test_agent_names():
    assert agent_names(None, 3) == ["random"] * 3
    assert agent_names("first", 2) == ["first", "first"]
    assert agent_names("first, random", 2) == ["first", "random"]
    with pytest.raises(AgentError) as e:
        agent_names("frist", 2)
    assert "did you mean `first`?" in e.value.hint
    with pytest.raises(AgentError):
        agent_names("first,first,first", 2)


def test_agents_see_only_their_view():
    cg = load(CRAZY).compiled(2)
    st = cg.new_game(seed=5)
    v = View(st, st.current_player())
    assert v.legal == st.legal_actions(st.current_player())
    assert v.observation == st.observation(st.current_player())
    assert not hasattr(v, "state") and not hasattr(v, "zones")
    assert FirstChoice(0).act(v) == v.legal[0]
    a, b = UniformRandom(0, seed=9), UniformRandom(0, seed=9)
    assert [a.act(v) for _ in range(20)] == [b.act(v) for _ in range(20)]
    assert isinstance(make_agent("random", 1, 3), UniformRandom)


# ---- rendering ----------------------------------------------------------------------------------

def test_diagnostic_rendering_golden():
    from rulelang.syntax.ast import Span
    from rulelang.syntax.diagnostics import Diagnostic
    d = Diagnostic("RL101", "error", "unknown name `stok`", Span("g.cardrules", 2, 13, 2, 17),
                   "did you mean `stock`?")
    text = diagnostic_plain(d, lines=["setup:", "    shuffle stok"])
    assert text == ("g.cardrules:2:13: error[RL101]: unknown name `stok`\n"
                    "  2 |     shuffle stok\n"
                    "    |             ^~~~\n"
                    "  = hint: did you mean `stock`?")
    w = Diagnostic("RL150", "warning", "zone `x` is never used", None, None)
    assert diagnostic_plain(w, "g.cardrules") == "g.cardrules: warning[RL150]: zone `x` is never used"


# ---- as a user runs it --------------------------------------------------------------------------

def _python_m(*args, stdin=None):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("FORCE_COLOR", None)
    return subprocess.run([sys.executable, "-m", "rulelang", *args], capture_output=True,
                          text=True, input=stdin, env=env, cwd=ROOT, timeout=120)


def test_subprocess_run_json():
    p = _python_m("run", "examples/crazy_eights.cardrules", "--seed", "9", "--json")
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout)
    assert res["seed"] == 9 and res["outcome"] == "win"


def test_subprocess_play_and_help():
    p = _python_m("play", "examples/crazy_eights.cardrules", "--seed", "1",
                  stdin="x\n7\n" + "1\n" * 300)
    assert p.returncode == 0, p.stderr
    assert "please type a number" in p.stdout and "Traceback" not in p.stderr
    h = _python_m("--help")
    assert h.returncode == 0 and "examples:" in h.stdout and "rulelang check" in h.stdout
    for cmd in ("run", "play", "check", "explain"):
        h = _python_m(cmd, "--help")
        assert h.returncode == 0 and "examples:" in h.stdout
    v = _python_m("--version")
    assert v.returncode == 0 and v.stdout.startswith("rulelang ")


def test_help_does_not_import_the_pipeline():
    code = ("import sys; from rulelang.cli import commands as cli; cli.build_parser(); "
            "print(sorted(m for m in ('lark', 'rich', 'rulelang.compile.compiler') if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert p.stdout.strip() == "[]", p.stdout + p.stderr


def test_play_shows_every_hand_at_the_end(capsys, monkeypatch):
    """The game is over, so the last table shows every player's hand (the face-down stock stays
    face down); during the game another player's hand is only counted."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", CRAZY, "--seed", "3", "--players", "3"]) == 0
    out = capsys.readouterr().out
    during, end = out.split("The table at the end", 1)
    assert re.search(r"Player 3\s*\n\s*Hand\s+\d+ cards, face down", during)
    hand = re.search(r"Player 3\s*\n\s*Hand\s+(.*?)\s*\((\d+)\)", end)
    assert hand, end
    cards = hand.group(1).split()
    assert len(cards) == int(hand.group(2)) >= 1
    assert "face down" not in hand.group(0)
    assert re.search(r"Stock\s+\d+ cards, face down", end)


# ---- run through a pager ------------------------------------------------------------------------

def _run_at_a_terminal(tmp_path, pager, *extra):
    """`rulelang run` of Crazy Eights in a pseudo-terminal with RULELANG_PAGER set: (what reached
    the terminal, exit status)."""
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=ROOT, RULELANG_PAGER=pager)
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "run", CRAZY, "--seed", "5", *extra],
                          env=env, cwd=str(tmp_path), encoding="utf-8", timeout=60,
                          dimensions=(40, 100))
    child.expect(pexpect.EOF)
    child.close()
    return child.before, child.exitstatus


def test_run_on_a_terminal_goes_through_the_pager_whole(tmp_path):
    """On a terminal one game is shown through the pager: the pager gets every line that a pipe
    gets (nothing lost), and nothing else reaches the terminal."""
    shown, status = _run_at_a_terminal(tmp_path, "cat > paged.txt")
    assert status == 0 and shown.strip() == ""
    piped = subprocess.run([sys.executable, "-m", "rulelang", "run", CRAZY, "--seed", "5"],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, NO_COLOR="1", PYTHONPATH=ROOT))
    paged = (tmp_path / "paged.txt").read_text(encoding="utf-8")
    assert paged.splitlines() == piped.stdout.splitlines()
    assert "Player" in paged and "wins!" in paged and len(paged.splitlines()) > 40


def test_a_pager_quit_early_leaves_the_game_whole(tmp_path):
    """A pager that quits before the end (`q` in less; here `head -3`) stops nothing: the game
    is played to its end, exit status 0, and --log writes the same log as without a pager."""
    _shown, status = _run_at_a_terminal(tmp_path, "head -3", "--log", "paged.json")
    assert status == 0
    assert main(["run", CRAZY, "--seed", "5", "--quiet", "--log", str(tmp_path / "piped.json")]) == 0
    paged, piped = (json.loads((tmp_path / name).read_text()) for name in ("paged.json", "piped.json"))
    # (the rule file is recorded relative to the log's folder or the current folder, which differ
    # between the two runs; it is the same file)
    paged_file, piped_file = paged.pop("file"), piped.pop("file")
    assert os.path.samefile(tmp_path / paged_file, os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    assert any(os.path.isfile(os.path.join(base, piped_file)) and os.path.samefile(
        os.path.join(base, piped_file), tmp_path / paged_file) for base in (tmp_path, os.getcwd()))
    assert paged == piped


def test_no_pager_prints_to_the_terminal(tmp_path):
    shown, status = _run_at_a_terminal(tmp_path, "cat > paged.txt", "--no-pager")
    assert status == 0 and "wins!" in shown
    assert not (tmp_path / "paged.txt").exists()
    shown, status = _run_at_a_terminal(tmp_path, "")        # an empty variable: no pager either
    assert status == 0 and "wins!" in shown and not (tmp_path / "paged.txt").exists()
