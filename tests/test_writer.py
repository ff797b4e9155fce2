"""The code writer of the generator (rulelang/compile/writer.py): indentation, and the line map
from each generated line to the rule-file span of the statement it was written for, with which
a problem raised while generated code runs names the rule-file line."""
from __future__ import annotations

import os
import re

import rulelang
from rulelang.compile.writer import (LINE_MAP, Code, CodeWriter, Jump, Node, Pass, Return, Suite,
                                     mark, render, rule_span, size, transform, walk)
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
            assert w.level == 2
        w.extend([Code("y = 2", _span(4)), Return("x")])
    assert w.source() == "def _f(g):\n    x = 1\n    y = 2\n    return x\n"
    assert [None if s is None else s.line for s in w.line_map()] == [None, 3, 4, None]


def test_a_suite_has_no_indentation_of_its_own_until_it_is_written_out():
    """The same nodes are written at whatever level they are placed: a block's nodes under the
    test of ``pc`` that chooses it, a copy of them wherever a pass puts it."""
    block = CodeWriter()
    block.writeline("if x:", _span(2))
    with block.indent():
        block.jump(4)
    block.ret(-3)
    outer = CodeWriter()
    outer.writeline("while True:")
    with outer.indent():
        outer.writeline("if pc == 1:")
        with outer.indent():
            outer.extend(block.items)
    assert outer.source() == ("while True:\n    if pc == 1:\n        if x:\n"
                              "            pc = 4; continue\n        return -3\n")
    assert [t for t, _ in render(block.items, 3)] == [
        "            if x:", "                pc = 4; continue", "            return -3"]


def test_marking_keeps_the_innermost_statement_and_reaches_into_suites():
    w = CodeWriter()
    with w.spanning(_span(5)):
        w.writeline("a")
        with w.spanning(_span(7)):
            w.writeline("if b:")
            with w.indent():
                w.pass_()
        with w.indent():
            w.jump(3)
    assert [n.span.line for n in walk(w.items) if not isinstance(n, Suite)] == [5, 7, 7, 5]
    nodes = [Code("c"), Code("d", _span(1))]
    mark(nodes, _span(2))
    assert [n.span.line for n in nodes] == [2, 1]


def test_the_passes_build_new_trees_and_count_lines_without_reading_text():
    """``transform`` replaces nodes by kind (a jump by what it leads to) at any depth, leaving
    the tree it was given as it was; ``size`` counts the lines a tree is written as."""
    w = CodeWriter()
    w.writeline("if x:")
    with w.indent():
        w.jump(2)
    w.jump(2)
    before = w.source()
    new = transform(w.items, lambda n: [Return(-3, n.span)] if isinstance(n, Jump) else None)
    assert w.source() == before
    out = CodeWriter(new)
    assert out.source() == "if x:\n    return -3\nreturn -3\n"
    assert size(new) == 3 and size([Pass()]) == 1


def test_a_node_is_not_text():
    """What the generator wrote cannot be read back as text: a node is no ``str`` (no slicing,
    no ``strip``, no ``startswith``); it has a text only when the tree is written out."""
    for node in (Code("x = 1"), Jump(1), Return(-1), Pass(), Suite([])):
        assert isinstance(node, Node) and not isinstance(node, str)
        assert not hasattr(node, "strip") and not hasattr(node, "__getitem__")


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


def test_each_block_of_a_rule_is_a_tree_of_nodes_written_out_once():
    """RuleGen writes every block (a place where the rule can be resumed) through the block's
    writer as nodes: a jump (or a playout's entry into an alternative) is a node of its own kind,
    a return too, and no node is text.  The passes that thread jumps and copy blocks where
    they are entered leave each block's nodes the list its writer writes to; the function's
    source is its blocks written out under the tests of ``pc`` that choose them."""
    from rulelang.compile.writer import Enter
    from rulelang.compile.rulegen import RuleGen

    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(2)
    turn = cg.proc_index["turn"]
    body = cg.model.rules["turn"].decl.body
    jumps = enters = returns = 0
    for playout, next_turn in ((False, None), (False, (True, [0], None)), (True, None)):
        rg = RuleGen(cg, playout=playout)
        rg.compile_rule(body, turn, next_turn=next_turn)
        assert len(rg.written.blocks) > 2
        for b in rg.written.blocks:
            assert b.w.items is b.items
            for node in walk(b.items):
                assert isinstance(node, Node) and not isinstance(node, str)
                jumps += isinstance(node, Jump) and not isinstance(node, Enter)
                enters += isinstance(node, Enter)
                returns += isinstance(node, Return)
        # Each block's lines sit under the test of pc that chooses it, one level deeper.
        src = rg.src.split("\n")
        for b in rg.written.blocks:
            if b.items:
                at = next(i for i, t in enumerate(src) if t.strip() == f"if pc == {b.number}:")
                depth = (len(src[at]) - len(src[at].lstrip())) // 4 + 1
                assert src[at + 1:at + 1 + size(b.items)] == [t for t, _ in render(b.items, depth)]
    assert jumps and returns
    assert enters == 0   # (the playout variant copies every alternative it enters in its place)


def test_a_decision_and_a_call_are_nodes_of_their_own(tmp_path):
    """Where a rule's function stops for a decision, or calls a rule through the run loop, the
    block ends with a node of that kind (writer.Decide, writer.Call), which the passes see as
    such, written out as the lines that set what is awaited (or push the callee's frame) and
    return; no such line is written apart from its node."""
    from rulelang.compile.writer import Call, Decide
    from rulelang.compile.rulegen import RuleGen
    from rulelang.engine.control import CALL, SUSPEND
    path = _rule_file(tmp_path, "    countdown(3)\n    choose:\n        play card c from hand:\n"
                                "            move c from hand to stock\n        pass_turn:\n"
                                "            pass\n    end game with no winner\n"
                                "rule countdown(n):\n    if n > 0:\n        countdown(n - 1)\n")
    text = open(path, encoding="utf-8").read().replace("zone stock: shared, face down\n",
                                                        "zone stock: shared, face down\n"
                                                        "zone hand: per player, seen by owner\n")
    text = text.replace("    shuffle stock\n", "    shuffle stock\n    deal 3 from stock to hand of each player\n")
    open(path, "w", encoding="utf-8").write(text)
    cg = rulelang.load(path).compiled(1)
    for name in ("turn", "countdown"):
        rg = RuleGen(cg)
        rg.compile_rule(cg.model.rules[name].decl.body, cg.proc_index[name])
        nodes = [n for b in rg.written.blocks for n in walk(b.items)]
        calls = [n for n in nodes if isinstance(n, Call)]
        decides = [n for n in nodes if isinstance(n, Decide)]
        assert calls and all(n.code == str(CALL) for n in calls), name
        assert all(n.code == str(SUSPEND) and n.slot == "awaiting" for n in decides)
        assert bool(decides) == (name == "turn")
        # written out as they were: what is awaited (or the frame pushed), then the return
        src = rg.src
        for n in decides:
            assert f"g.awaiting = {n.value}\n" in src
        for n in calls:
            assert f"g.stack.append([{n.frame}])\n" in src and f"fr[1] = {n.resume}\n" in src
        assert size(calls) == 3 * len(calls) and size(decides) == 2 * len(decides)
        # no line of what is awaited, nor a pushed frame, outside such a node
        assert not [n for n in nodes if type(n) is Code and
                    (n.code.startswith("g.awaiting =") or n.code.startswith("g.stack.append(["))]



def test_a_decision_taken_in_place_by_a_playout_is_a_node_of_its_own():
    """Where the playout variant takes a decision in place (its blocks, and the structured turn
    with the decisions of the rules written in place of their calls), the policy's pick is a
    node (writer.Pick), written out as the lines that ask the policy and count the decision;
    no such line is written apart from its node."""
    from rulelang.compile.writer import Pick
    from rulelang.compile.rulegen import RuleGen
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(3)
    rg = RuleGen(cg, playout=True)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
    in_blocks = [n for b in rg.written.blocks for n in walk(b.items)]
    structured = list(walk(rg.structured))
    for nodes, driver in ((in_blocks, True), (structured, False)):
        picks = [n for n in nodes if isinstance(n, Pick)]
        assert picks and all(n.driver == driver for n in picks)
        assert not [n for n in nodes if type(n) is Code and
                    ("_pick(g, out" in n.code or "_gpk[" in n.code or "_dc += 1" in n.code)]
    for n in picks:
        assert f"{n.action} = {n.legal}[_gpk[{n.chooser}]({n.size})]" in rg.src
        assert size([n]) == len(n.texts()) == 8 + (n.merge is not None)
    # the API's function of the same turn stops instead: no pick in it
    api = RuleGen(cg)
    api.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc)
    assert not [n for b in api.written.blocks for n in walk(b.items) if isinstance(n, Pick)]

# The modules of compile/ that handle other text than generated code: they are not scanned.
NOT_GENERATORS = {
    "loader.py": "reads rule files from disk",
    "coverage.py": "reads the rule file's own lines to name branches",
    "passes.py": "reads the spelling of RULELANG_OPT",
    "words.py": "tells the game's values in words",
}

# What reading generated text back looks like: splitting, stripping, searching or slicing lines.
READ_BACK = re.compile(r"\.splitlines\(|\.[lr]?strip\(|\.startswith\(|\.endswith\(|\blines\[|"
                       r"\.lines\b|\[len\(|\.prefix\b|CodeWriter\.at\b|\.split\(\"\\\\n\"\)")


# What deciding on generated code looks like: comparing it (with another code, a literal, a set
# of codes), searching it for a word, or measuring its length.  The generator decides on the
# checked tree instead (a define's size: ExprGen.define_size; two expressions alike:
# ExprGen.shape), and tells its own names by their type (hoisting.Hoisted, choicegen.NoneBefore,
# exprnodes.Known: a seat or a zone's index known where it is written).
_CODE = r"(?:code|cond|test|raw|src|made|before|after|action)"
DECIDES_ON_CODE = re.compile(
    rf"\b{_CODE}\s*(?:==|!=)|(?:==|!=)\s*{_CODE}\b"           # compared
    rf"|\b(?:if|and|or|not)\s+{_CODE}\s+(?:not\s+)?in\b"       # looked up among others
    rf"|\"\w+\" in (?:{_CODE}\b|key\[)"                          # searched for a word
    r"|\bkey\s*=\s*\(self\.(?:x\.)?gen\("                          # code as a key
    rf"|\blen\({_CODE}\)"                                       # measured
    r"|(?:==|!=)\s*\(self\.(?:x\.)?gen\("                         # compared as it is written
    r"|(?:==|!=)\s*\"(?:_[a-z]\w*|\d+)\""                            # compared with a name it gives
    r"|\.is(?:digit|numeric|decimal|alpha|identifier)\("                 # its characters read
    r"|_hoisted_names\b")


# The text of an f-string is code being written (a slice in it is the generated code's own), not
# code read back: the scan looks at what is around the templates.
_TEMPLATE = re.compile(r'\bf"(?:[^"\\]|\\.)*"' + r"|\bf'(?:[^'\\]|\\.)*'")


def _scan(pattern):
    folder = os.path.join(ROOT, "rulelang", "compile")
    found = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py") or name in NOT_GENERATORS:
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                code = _TEMPLATE.sub('f""', line).split("#", 1)[0]
                if pattern.search(code):
                    found.append(f"{name}:{i}: {line.strip()}")
    return found


def test_the_generator_never_decides_on_the_code_it_wrote():
    """No module of the generator compares, searches or measures code it wrote to decide what
    to write next: a define is a function by the size of its checked tree, two conditions over
    the same cards are found alike by their shapes, and a value computed before a loop is
    known by its name's type."""
    found = _scan(DECIDES_ON_CODE)
    assert not found, "generated code decided on:\n" + "\n".join(found)


def test_the_scan_for_decisions_on_code_finds_what_it_looks_for():
    """The lines the generator decided by before (each caught), and lines that only write code
    or compare the tree (none caught)."""
    for bad in ("call = len(code) > HELPER_SIZE or self._calls > 1",
                "if len(conds) < 4 and self.mode.hoist is not None and code in self._hoisted_names:",
                'if key != (self.x.gen(p.source, you), self.x.gen(p.where, {**you, si: "_cv"})) or \\',
                '"rng" in key[0] or "rng" in key[1]:',
                'key = (self.x.gen(q.zone, {}), self.x.gen(q.condition, {ci: "_cv"}))\n'
                '            if "rng" in key[0] or key in self.counted:',
                "if not cond or cond in self.none_before:",
                'if before == "0" and offers == self.offers:',
                "if c == code or self._guarded.get(name) in ((code, guard[:k]) for k in ks):",
                "if not is_and and self._false and code in self._false and \\",
                'if made == "out":                # (card_list made out itself)',
                "elif action == v and test is None:",
                'if charge != "_z":          # (charged() written out: one call less per search)',
                'if self.dir() == "1":     # the order of play never changes: a table per seat',
                'f = self._fold = Fold(self.refs, self.cg.n, reverses=self.dir != "1",',
                "if held is not None and self.hold and index.isdigit():",
                "return str(base + int(seat)) if seat.isdigit() else PlayerZone(base, seat)"):
        assert DECIDES_ON_CODE.search(bad), bad
    for good in ('w.writeline(f"if {cond}:")', "for value, cond in e.cases:",
                 "if self.x.fold.chance(zone) or self.x.fold.chance(where):",
                 "long = self.define_size(ex) > HELPER_NODES",
                 "if not cond or isinstance(cond, NoneBefore):"):
        assert not DECIDES_ON_CODE.search(good), good


def test_the_generator_never_reads_back_the_code_it_wrote():
    """Generated code is a tree of nodes written out once (compile/writer.py): no module of the
    generator splits, strips, searches or slices generated lines to decide what to write."""
    found = _scan(READ_BACK)
    assert not found, "generated text read back:\n" + "\n".join(found)


def test_the_scan_finds_what_it_looks_for():
    for bad in ('if line.strip().startswith("return "):', "rest = l[len(base):]",
                "b.lines[:] = out", "w = CodeWriter.at(lines, w.prefix)"):
        assert READ_BACK.search(_TEMPLATE.sub('f""', bad)), bad
    # a slice written into the generated code is no reading back
    for good in ('dealt = f"{was}[len({s}):]"', "w.writeline(f'{t} = {z}[len({k}):]')"):
        assert not READ_BACK.search(_TEMPLATE.sub('f""', good)), good
