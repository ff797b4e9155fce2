"""The code writer of the generator (rulelang/compile/writer.py): indentation, and the line map
from each generated line to the rule-file span of the statement it was written for, with which
a problem raised while generated code runs names the rule-file line."""
from __future__ import annotations

import os

import rulelang
from rulelang.compile.writer import LINE_MAP, CodeWriter, mark, respan, rule_span, span_of, spanned
from rulelang.syntax.ast import Span

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _span(line):
    return Span("f.cardrules", line, 1, line, 2)


def test_the_writer_indents_and_maps_each_line():
    w = CodeWriter()
    w.writeline("def _f(g):")
    with w.indent():
        w.writeline("x = 1", _span(3))
        with w.indent():
            assert w.prefix == "        "
        w.extend([spanned("    y = 2\n    z = 3", _span(4)), "    return x"])
    assert w.source() == "def _f(g):\n    x = 1\n    y = 2\n    z = 3\n    return x\n"
    assert [None if s is None else s.line for s in w.line_map()] == [None, 3, 4, 4, None]


def test_a_writer_placed_in_a_block_writes_into_its_lines_from_its_indentation():
    """How a statement writer is handed a block of a rule's function: ``CodeWriter.at`` appends
    to that block's own list (not a copy), level 0 at the block's indentation."""
    lines = ["        x = 0"]
    w = CodeWriter.at(lines, "        ")
    w.writeline("if x:", _span(2))
    with w.indent():
        assert w.prefix == "            "
        w.writeline("y = 1")
    w.writeline("z = 2")
    assert w.lines is lines
    assert lines == ["        x = 0", "        if x:", "            y = 1", "        z = 2"]
    assert [None if span_of(x) is None else span_of(x).line for x in lines] == [None, 2, None, None]
    mark(lines, 1, _span(9))          # as rulegen marks a statement's lines afterwards
    assert [None if span_of(x) is None else span_of(x).line for x in lines] == [None, 2, 9, 9]


def test_marking_keeps_the_innermost_statement_and_survives_moves():
    lines = ["a", spanned("b", _span(7))]
    mark(lines, 0, _span(5))
    assert [span_of(x).line for x in lines] == [5, 7]
    moved = respan("    " + lines[1], lines[1])
    assert moved == "    b" and span_of(moved).line == 7
    assert span_of(respan("c", "d")) is None


def _rule_file(tmp_path, body):
    path = tmp_path / "g.cardrules"
    path.write_text('game "g"\nplayers 1\ndeck standard, into stock\nzone stock: shared, face down\n'
                    'setup:\n    shuffle stock\nturn:\n' + body, encoding="utf-8")
    return str(path)


def test_a_problem_without_a_place_names_the_rule_line_that_raised_it(tmp_path):
    """RL907 is raised by a run-time helper that knows no rule-file place; the line map of the
    generated function names the statement (`say next player`, line 10)."""
    path = _rule_file(tmp_path, '    say "before"\n    remove you from the game\n'
                                '    say next player\n    end game with no winner\n')
    state = rulelang.load(path).new_game(seed=1, log=True)
    assert state.problem["code"] == "RL907"
    assert state.problem["span"] == [path, 10, 5]


def test_a_problem_with_its_own_place_keeps_it(tmp_path):
    path = _rule_file(tmp_path, '    let z = size of stock - 52\n    say 10 / z\n'
                                '    end game with no winner\n')
    state = rulelang.load(path).new_game(seed=1, log=True)
    assert state.problem["code"] == "RL911"
    assert state.problem["span"][1] == 9


def test_the_line_map_of_a_rule_points_at_its_statements():
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    game = rulelang.load(path)
    cg = game.compiled(2)
    text = open(path, encoding="utf-8").read().split("\n")
    fn = cg.procs[cg.proc_index["turn"]]
    spans = [s for s in fn.__globals__[LINE_MAP] if s is not None]
    assert spans
    said = {text[s.line - 1].strip() for s in spans}
    assert "move c from hand to discard" in said and "set named_suit to none" in said
    turn = next(i for i, t in enumerate(text, 1) if t.startswith("turn:"))
    assert all(s.line > turn and s.file == path for s in spans)


def test_rule_span_without_generated_code_is_none():
    try:
        raise ValueError("not in generated code")
    except ValueError as e:
        assert rule_span(e.__traceback__) is None


def test_each_block_of_a_rule_is_written_by_its_own_writer_from_a_blocks_indentation():
    """RuleGen writes every block (a place where the rule can be resumed) through the block's
    writer, level 0 at the indentation a block takes in the function (``BLOCK_LEVEL``): no line
    of a block starts shallower, a jump (or a playout's entry into an alternative) is a line of
    its own type whose text is ``pc = N; continue`` at the indentation it records, and the passes
    that copy blocks where they are entered leave each block's lines the list its writer writes
    to."""
    from rulelang.compile.blocks import BLOCK_LEVEL, _Jump
    from rulelang.compile.playoutgen import _Enter
    from rulelang.compile.rulegen import RuleGen

    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(2)
    turn = cg.proc_index["turn"]
    body = cg.model.rules["turn"].decl.body
    base = CodeWriter().step * BLOCK_LEVEL
    jumps = 0
    for playout, next_turn in ((False, None), (False, (True, [0], None)), (True, None)):
        rg = RuleGen(cg, cg.direct_rules, playout=playout)
        rg.compile_rule(body, turn, next_turn=next_turn)
        assert len(rg.blocks) > 2
        for b in rg.blocks:
            assert b.w.lines is b.lines and b.w.base == b.base == base
            for line in b.lines:
                assert all(part.startswith(base) for part in line.split("\n")), line
                if isinstance(line, (_Jump, _Enter)):
                    jumps += 1
                    assert line.ind.startswith(base)
                    assert line == f"{line.ind}pc = {line.target}; continue"
        # Each block's lines sit under the test of pc that chooses it, one level deeper (the
        # tests nested as deep as the halves of the blocks they choose between, the lines too).
        src = rg.src.split("\n")
        for b in rg.blocks:
            if b.lines:
                at = next(i for i, t in enumerate(src) if t.strip() == f"if pc == {b.number}:")
                extra = src[at][:-len(src[at].lstrip())][len(CodeWriter().step * 2):]
                assert src[at + 1] == extra + b.lines[0].split("\n")[0]
    assert jumps      # (the playout variant copies every block it enters in place of the jump)
