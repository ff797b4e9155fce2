"""A rule file with syntax errors: every error reported, the parts that parse checked, nothing
reported that an earlier error caused (rulelang/syntax/recover.py)."""
import glob
import json
import os
import time

import pytest

from rulelang.cli.commands import main
from rulelang.compile.loader import check_file
from rulelang.limits import MAX_SYNTAX_ERRORS
from rulelang.syntax.parser import parse
from rulelang.syntax.recover import parse_partial

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
               + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))
THREE = os.path.join(ROOT, "tests", "errors", "several_syntax_errors_three.cardrules")
H = 'game "x"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'


@pytest.mark.parametrize("path", GAMES, ids=[os.path.basename(p)[:-10] for p in GAMES])
def test_a_file_that_parses_is_read_as_before(path):
    text = open(path, encoding="utf-8").read()
    part = parse_partial(text, path)
    assert part.diagnostics == () and part.failed_lines == frozenset()
    assert repr(part.program.decls) == repr(parse(text, path).decls)


def test_every_syntax_error_is_reported_once():
    text = H + ("zone hand: per player seen by owner\n"
                "turn:\n"
                "    if x = 1:\n"
                "        move top card from stock to hand\n"
                "    move top card from stock\n"
                "    move top card from stock to hand\n"
                "rule r(:\n"
                "    pass\n")
    part = parse_partial(text, "f.cardrules")
    assert part.diagnostics[0].hint == "write `per player, seen by owner`"
    assert [(d.code, d.span.line) for d in part.diagnostics] == \
        [("RL011", 5), ("RL009", 7), ("RL011", 9), ("RL006", 11)]
    assert part.failed_lines == {5, 7, 8, 9, 11, 12}
    # what parsed is there: the game's four lines and the turn with its last move
    assert len(part.program.decls) == 5
    turn = _rule(part, "turn")
    assert [type(s).__name__ for s in turn.body] == ["Move"]


def _rule(part, name):
    return next(d for d in part.program.decls if type(d).__name__ == "Rule" and d.name == name)


def test_a_statement_left_out_of_a_block_leaves_pass():
    text = H + "turn:\n    if stock is empty:\n        move top card from\n"
    part = parse_partial(text, "f.cardrules")
    assert [(d.code, d.span.line) for d in part.diagnostics] == [("RL001", 7)]
    (if_stmt,) = _rule(part, "turn").body
    ((_cond, body),) = if_stmt.branches
    assert [(type(s).__name__, s.word) for s in body] == [("Simple", "pass")]


def test_the_checker_runs_on_what_parsed_without_cascades():
    diags, model, _decls = check_file(THREE)
    assert model is None
    got = sorted((d.code, d.span.line) for d in diags if d.is_error)
    assert got == [("RL003", 21), ("RL006", 11), ("RL007", 23), ("RL102", 24), ("RL108", 22)]
    # the rule whose head did not parse is not unknown where it runs, nor its parameter
    assert not any(d.code == "RL101" for d in diags)


def test_keep_partial_gives_the_model_of_what_parsed():
    diags, model, decls = check_file(THREE, keep_partial=True)
    assert model is not None and "hand" in model.zones
    assert any(d.code == "RL006" for d in diags)


def test_check_json_carries_every_error(capsys):
    code = main(["check", THREE, "--json"])
    assert code == 1
    items = json.loads(capsys.readouterr().out)
    assert sorted((i["code"], i["line"]) for i in items) == \
        [("RL003", 21), ("RL006", 11), ("RL007", 23), ("RL102", 24), ("RL108", 22)]


def test_a_broken_extends_line_checks_nothing_more(tmp_path):
    (tmp_path / "base.cardrules").write_text(H + "turn:\n    pass\n")
    v = tmp_path / "v.cardrules"
    v.write_text('extends base.cardrules\nreplace define x = stok\nrule r:\n    move top card from\n')
    diags, _m, _d = check_file(str(v))
    assert [(d.code, d.span.line) for d in diags] == [("RL011", 1), ("RL001", 4)]


@pytest.mark.parametrize("shape", [
    "zone z{i} per player\n",                                   # declarations
    "    move top card from stock to\n",                        # statements of one block
    "    say (1 + (2\n",                                        # unclosed parentheses
    "@@ ]] }}\n",                                               # not the language at all
    "{pad}if x:\n",                                             # headers without blocks
    "        move top card from stock to stock\n      pass\n",  # indentation that matches nothing
])
def test_ten_thousand_broken_lines_are_bounded(shape):
    lines = "".join(shape.format(i=i, pad="    " * (1 + i % 30)) for i in range(10_000))
    text = H + "turn:\n    pass\n" + lines
    t0 = time.perf_counter()
    part = parse_partial(text, "big.cardrules")
    took = time.perf_counter() - t0
    assert 1 <= len(part.diagnostics) <= MAX_SYNTAX_ERRORS + 1
    if len(part.diagnostics) > MAX_SYNTAX_ERRORS:
        last = part.diagnostics[-1]
        assert last.code == "RL206" and f"only the first {MAX_SYNTAX_ERRORS}" in last.message
    assert took < 30, took            # well under a second on a quiet machine


def test_more_than_the_limit_ends_with_rl206():
    part = parse_partial(H + "zone z per player\n" * 200, "f.cardrules")
    assert [d.code for d in part.diagnostics] == ["RL004"] * MAX_SYNTAX_ERRORS + ["RL206"]
    assert part.diagnostics[-1].span.line == 5 + MAX_SYNTAX_ERRORS


def test_a_long_good_block_then_broken_lines_is_linear():
    good = "    move top card from stock to stock\n" * 5000
    text = H + "turn:\n" + good + "    move top card from\n" * 60
    t0 = time.perf_counter()
    parse(H + "turn:\n" + good)
    once = time.perf_counter() - t0
    t0 = time.perf_counter()
    part = parse_partial(text, "big.cardrules")
    took = time.perf_counter() - t0
    assert part.diagnostics[-1].code == "RL206"
    assert took < 8 * once + 2, (took, once)      # a few parses of the file, not one per error
