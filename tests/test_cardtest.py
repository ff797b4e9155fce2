"""`rulelang test` and the .cardtest format (rulelang/play/cardtest.py; docs/testing.md).

The seed games' worked examples, written as rule tests in rules/*.cardtest, pass; a test made
wrong fails, reported at the line of the expectation with what was found and the transcript;
the failing tests of tests/cardtests/failing.cardtest fail where their `# FAILS` comments say;
the mistakes of tests/cardtests/broken.cardtest are reported with the codes and on the lines
their comments say (as the error corpus of tests/errors/ does for rule files).
"""
import glob
import os
import re
import shutil

import pytest

from rulelang.play.cardtest_plan import check_test_file
from rulelang.play.cardtest_run import run_test
from rulelang.cli.commands import main

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RULES = os.path.join(ROOT, "rules")
RULE_TESTS = sorted(glob.glob(os.path.join(RULES, "*.cardtest")))


def run(capsys, monkeypatch, *argv):
    monkeypatch.setenv("NO_COLOR", "1")
    status = main(["test", *argv])
    out, err = capsys.readouterr()
    return status, out + err


def passes(tmp_path, capsys, monkeypatch, name, rules, tests, test_name):
    """``rules`` written as NAME.cardrules and ``tests`` (without their `rules` line) as
    NAME.cardtest; `rulelang test` passes ``test_name``."""
    (tmp_path / f"{name}.cardrules").write_text(rules, encoding="utf-8")
    (tmp_path / f"{name}.cardtest").write_text(f'rules "{name}.cardrules"\n\n' + tests,
                                                encoding="utf-8")
    status, out = run(capsys, monkeypatch, str(tmp_path / f"{name}.cardtest"))
    assert status == 0 and f"PASS  {test_name}" in out, out


def test_the_worked_examples_are_rule_tests():
    names = {os.path.basename(p) for p in RULE_TESTS}
    assert {"ciq.cardtest", "internecine.cardtest", "follow_the_leader.cardtest"} <= names
    text = "".join(open(p, encoding="utf-8").read() for p in RULE_TESTS)
    for words in ("2-6-6-10", "a Queen against a Defense of 7", "escalation", "three player"):
        assert words in text


@pytest.mark.parametrize("path", RULE_TESTS, ids=[os.path.basename(p) for p in RULE_TESTS])
def test_rule_tests_pass(path, capsys, monkeypatch):
    status, out = run(capsys, monkeypatch, path)
    assert status == 0, out
    tf = check_test_file(path)
    assert out.count("  PASS  ") == len(tf.tests) >= 1
    assert "FAIL" not in out and "ERROR" not in out
    assert re.search(rf"=+ {len(tf.tests)} passed in [\d.]+s =+", out)


def tampered(tmp_path, old, new):
    """rules/ciq.cardtest with one line changed, in another folder (with a copy of its rule
    file); the number of the changed line."""
    text = open(os.path.join(ROOT, "rules", "ciq.cardtest"), encoding="utf-8").read()
    shutil.copy(os.path.join(ROOT, "rules", "ciq.cardrules"), tmp_path / "ciq.cardrules")
    assert text.count(old) == 1
    line = text[:text.index(old)].count("\n") + 1
    path = tmp_path / "ciq.cardtest"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path), line


def test_a_tampered_expectation_fails_at_its_line(tmp_path, capsys, monkeypatch):
    path, line = tampered(tmp_path, "damage_pile of player 2 has 28 cards",
                          "damage_pile of player 2 has 27 cards")
    status, out = run(capsys, monkeypatch, path)
    assert status == 1
    assert "  PASS  a Queen against a Defense of 7 transfers 7 cards" in out
    assert f"  FAIL  2-6-6-10 against a Defense of 9 transfers 24 cards  ({path}:{line})" in out
    failure = out.split(" FAILURES ", 1)[1]
    assert f"{path}:{line}: expected: damage_pile of player 2 has 27 cards" in failure
    assert "found:    damage_pile of player 2 has 28 cards: 2♥, 6♥, 6♠, 10♠," in failure
    # the transcript: each choice with the line of the test that played it, what the rules said
    assert re.search(r"P1: add 10♠ +line \d+", failure)
    assert "P1 says: transfers 24 cards to player 2" in failure
    assert "1 failed, 3 passed" in out           # the file's other tests pass


def test_a_tampered_condition_says_what_its_parts_were(tmp_path, capsys, monkeypatch):
    path, line = tampered(tmp_path, "size of attack_pile of player 1 is 90 - 24",
                          "size of attack_pile of player 1 is 90 - 23")
    status, out = run(capsys, monkeypatch, path)
    assert status == 1
    assert f"{path}:{line}: expected: size of attack_pile of player 1 is 90 - 23" in out
    assert "found:    `size of attack_pile of player 1` is 66" in out
    assert "found:    `90 - 23` is 67" in out


def test_a_tampered_choice_fails_with_the_legal_choices(tmp_path, capsys, monkeypatch):
    path, line = tampered(tmp_path, "        add 6♠\n", "        add 7♠\n")
    status, out = run(capsys, monkeypatch, path)
    assert status == 1
    assert f"{path}:{line}: expected: `add 7♠` to be a choice of player 1" in out
    assert "the choices are: add 6♠, stop" in out


def test_failing_file_fails_where_it_says(capsys, monkeypatch):
    path = os.path.join(HERE, "cardtests", "failing.cardtest")
    lines = open(path, encoding="utf-8").read().splitlines()
    marked = {i: ln.split("# FAILS:", 1)[1].strip() for i, ln in enumerate(lines, 1) if "# FAILS:" in ln}
    assert len(marked) == 2
    status, out = run(capsys, monkeypatch, path, "--include", RULES)
    assert status == 1
    assert out.count("  FAIL  ") == len(marked) and out.count("  PASS  ") == 1
    for line, found in marked.items():
        assert f"{path}:{line}: expected:" in out
        assert found in out
    tf = check_test_file(path, include=[RULES])
    assert [run_test(t) is None for t in tf.tests] == [True, False, False]
    assert [run_test(t).line.no for t in tf.tests[1:]] == sorted(marked)


EXPECT = re.compile(r"#\s*error:\s*(RL\d{3})\s+(.*?)\s*$")


def test_mistakes_in_a_test_file_are_diagnostics_with_their_place(capsys, monkeypatch):
    path = os.path.join(HERE, "cardtests", "broken.cardtest")
    expected = []
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        m = EXPECT.search(line)
        if m:
            expected.append((no, m.group(1), m.group(2)))
    assert len(expected) >= 10
    tf = check_test_file(path, include=[RULES])
    got = [(d.span.line, d.code, d.message + " " + (d.hint or "")) for d in tf.diagnostics]
    assert [(n, c) for n, c, _m in got] == [(n, c) for n, c, _f in expected]
    for (_n, _c, text), (_n2, _c2, fragment) in zip(got, expected):
        assert fragment in text, (fragment, text)
    assert all(t.plan is None for t in tf.tests)      # a test with a mistake does not run
    status, out = run(capsys, monkeypatch, path, "--include", RULES)
    assert status == 1 and "PASS" not in out and out.count("  ERROR ") == len(tf.tests) == 5
    assert "broken.cardtest:9:35: error[RL504]: there is no card `3X`" in out


def test_a_missing_rule_file_and_a_missing_test_file(tmp_path, capsys, monkeypatch):
    p = tmp_path / "x.cardtest"
    p.write_text('rules "nowhere.cardrules"\n\ntest "t":\n    given:\n        the rest: stock\n',
                 encoding="utf-8")
    status, out = run(capsys, monkeypatch, str(p))
    assert status == 1 and "x.cardtest:1:7: error[RL125]" in out
    status, out = run(capsys, monkeypatch, str(tmp_path / "none.cardtest"))
    assert status == 1 and "error[RL125]" in out


def test_a_folder_and_k_select_tests(capsys, monkeypatch):
    status, out = run(capsys, monkeypatch, os.path.join(ROOT, "rules"), "-k", "queen")
    assert status == 0
    assert out.count("  PASS  ") == 2          # CIQ's Queen, Internecine's Queen


# ---- docs/testing.md is true ------------------------------------------------------------------

def doc_blocks(lang):
    """The ```lang blocks of docs/testing.md ("": blocks without a language)."""
    blocks, inside = [], None
    with open(os.path.join(ROOT, "docs", "testing.md"), encoding="utf-8") as fh:
        for line in fh:
            if inside is None and line.startswith("```"):
                inside, body = line[3:].strip(), []
            elif inside is not None and line.rstrip() == "```":
                if inside == lang:
                    blocks.append("".join(body))
                inside = None
            elif inside is not None:
                body.append(line)
    return blocks


@pytest.mark.parametrize("block", doc_blocks("cardtest"), ids=lambda b: b.split("\n")[3][:40])
def test_the_documented_rule_tests_check_and_pass(block):
    tf = check_test_file(os.path.join(ROOT, "example.cardtest"), block, base=ROOT)
    assert tf.diagnostics == [] and tf.tests
    assert [run_test(t) for t in tf.tests] == [None] * len(tf.tests)


def test_the_documented_failure_report_is_what_test_prints(tmp_path, capsys, monkeypatch):
    shown = next(b for b in doc_blocks("") if "FAILURES" in b)
    text = open(os.path.join(ROOT, "rules", "ciq.cardtest"), encoding="utf-8").read()
    assert text.count("has 1 + 7 cards") == 1
    monkeypatch.chdir(tmp_path)
    os.makedirs("rules")
    shutil.copy(os.path.join(ROOT, "rules", "ciq.cardrules"), "rules")
    with open(os.path.join("rules", "ciq.cardtest"), "w", encoding="utf-8") as fh:
        fh.write(text.replace("has 1 + 7 cards", "has 1 + 8 cards"))
    status, out = run(capsys, monkeypatch, os.path.join("rules", "ciq.cardtest"))
    assert status == 1
    timeless = lambda s: re.sub(r"in [\d.]+s =+", "", re.sub(r"=+ ", "", s))
    assert [timeless(ln) for ln in out.splitlines()] == [timeless(ln) for ln in shown.splitlines()]


def test_the_documented_python_runs():
    code = next(b for b in doc_blocks("python") if "State.from_json" in b)
    scope = {}
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        exec(compile(code, "docs/testing.md", "exec"), scope)
    finally:
        os.chdir(cwd)
    assert scope["again"].to_json() == scope["data"]


def test_help(capsys, monkeypatch):
    assert main(["test", "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "rulelang test rules/" in out and "-k TEXT" in out


def test_ctrl_c_gives_the_report_so_far(capsys, monkeypatch):
    import rulelang.play.cardtest_run as ct
    real, calls = ct.run_test, []

    def interrupted_at_the_second(test):
        calls.append(test.name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(test)
    monkeypatch.setattr(ct, "run_test", interrupted_at_the_second)
    status, out = run(capsys, monkeypatch, os.path.join(ROOT, "rules", "ciq.cardtest"))
    assert status == 130
    assert out.count("  PASS  ") == 1 and "  interrupted" in out
    assert re.search(r"=+ 1 passed in [\d.]+s =+", out)


def test_a_position_gives_a_set_as_a_rule_does(tmp_path, capsys, monkeypatch):
    """`set S to hearts and spades` in a position is the set of them, and `set S to spades`
    the set of it alone, as in a rule's `set` statement, for a set of the game, of each team,
    and of players."""
    passes(tmp_path, capsys, monkeypatch, "sets",
        'game "sets"\nplayers 2\nteams: formed in play\ndeck standard, into stock\n'
        "zone stock: shared, face down\nzone hand: per player, seen by owner\n"
        "var named: set of suits per team\nvar mine: set of suits\nvar who: set of players\n"
        "var one: set of suits\n"
        "turn:\n    if size of mine is 2 and named of the team of you is (clubs and hearts):\n"
        '        say "both"\n    choose:\n        go:\n            end game with winner you\n',
        'test "sets in a position":\n    given:\n'
        "        set named of team 1 to clubs and hearts\n        set mine to hearts and spades\n"
        "        set who to player 1 and player 2\n        set one to spades\n    expect:\n"
        "        size of one is 1 and spades in one\n"
        "        mine is (hearts and spades) and spades in mine and diamonds not in mine\n"
        "        who is (player 1 and player 2)\n"
        '        the game says "both"\n',
        "sets in a position")


UNSEEN_AND_FAMILIES = '''game "places"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone shelf 1 to 2: per player, face up
zone spot per suit: shared, face up
var word: text = "none"
turn:
    say word
    choose:
        take "take" unseen card c from hand of next player:
            move c from hand of next player to shelf(2)
        done:
            end game with winner you
'''


def test_a_card_taken_unseen_a_zone_of_a_family_and_a_new_text(tmp_path, capsys, monkeypatch):
    """A choice of a card unseen is named by its place (`take #2`: `#` and a number is no
    comment), a zone of a family as the rules name it (`shelf(2) of player 1`, `spot(hearts)`),
    and a text the rules never say is shown as written."""
    passes(tmp_path, capsys, monkeypatch, "places", UNSEEN_AND_FAMILIES,
        'test "places":\n    given:\n'
        "        hand of player 2: 3♠, 4♠   # a comment\n        spot(hearts): 5♥\n"
        '        shelf(1) of player 2: 6♥\n        set word to "odd"\n'
        "    expect:\n        choices: take #1, take #2, done\n"
        '        the game says "odd"\n        word is "odd"\n'
        "    play:\n        take #2     # the top card\n"
        "    expect:\n        shelf(2) of player 1 holds: 4♠\n        spot(hearts) holds: 5♥\n"
        "        shelf_1 of player 2 has 1 card\n", "places")


def test_a_number_too_long_and_a_mistake_of_the_file_fail_the_run(tmp_path, capsys, monkeypatch):
    """A number longer than any a test needs is RL203 (it was an internal error: Python reads
    no number of more than 4,300 digits), and a mistake of the file itself, outside its tests,
    fails the run even when every test passes."""
    (tmp_path / "places.cardrules").write_text(UNSEEN_AND_FAMILIES, encoding="utf-8")
    test = '\ntest "x":\n    given:\n        turn of player 1\n    expect:\n        player 1 to play\n'
    for header, code in (("seed " + "9" * 5000, "RL203"), ("players " + "7" * 30, "RL203"),
                         ("hello there", "RL501")):
        (tmp_path / "t.cardtest").write_text(f'rules "places.cardrules"\n{header}\n{test}',
                                             encoding="utf-8")
        status, out = run(capsys, monkeypatch, str(tmp_path / "t.cardtest"))
        assert status == 1 and "t.cardtest:2:" in out and f"error[{code}]" in out, out
        assert "1 error" in out and "RL999" not in out
    (tmp_path / "t.cardtest").write_text(
        'rules "places.cardrules"\nseed 18446744073709551615\n' + test.replace(
            "player 1 to play", "size of hand of player 2 < " + "1" * 40), encoding="utf-8")
    status, out = run(capsys, monkeypatch, str(tmp_path / "t.cardtest"))
    assert status == 1 and "t.cardtest:8:" in out and "error[RL203]" in out, out


def test_a_seed_outside_the_engine_s_is_refused_as_on_the_command_line(tmp_path, capsys,
                                                                        monkeypatch):
    """`seed -5` was taken modulo 2**64 (the engine's generator keeps 64 bits) where `--seed -5`
    is refused: a rule test now refuses it too, at its column, in the command line's words."""
    (tmp_path / "places.cardrules").write_text(UNSEEN_AND_FAMILIES, encoding="utf-8")
    test = ('\ntest "x":\n    given:\n        seed {inner}\n        turn of player 1\n'
            '    expect:\n        player 1 to play\n')
    words = "a seed is a whole number from 0 to 18446744073709551615, not "
    for k, (top, inner, where, value) in enumerate((
            ("-5", "3", "2:6:", "-5"),
            ("3", "-18446744073709551616", "6:14:", "-18446744073709551616"),
            ("18446744073709551616", "3", "2:6:", "18446744073709551616"))):
        (tmp_path / f"t{k}.cardtest").write_text(
            f'rules "places.cardrules"\nseed {top}\n' + test.format(inner=inner), encoding="utf-8")
        status, out = run(capsys, monkeypatch, str(tmp_path / f"t{k}.cardtest"))
        assert status == 1 and f"t{k}.cardtest:{where} error[RL501]: {words}{value}" in out, out
        assert "1 error" in out                   # (at the top: the run fails, tests or not)
    assert main(["run", str(tmp_path / "places.cardrules"), "--seed", "-5"]) == 2
    assert f"{words}-5" in capsys.readouterr().err
    (tmp_path / "t.cardtest").write_text(
        'rules "places.cardrules"\nseed 18446744073709551615\n' + test.format(inner="0"),
        encoding="utf-8")
    status, out = run(capsys, monkeypatch, str(tmp_path / "t.cardtest"))
    assert status == 0 and "PASS  x" in out, out
