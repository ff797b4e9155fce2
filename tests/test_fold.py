"""The generator's decisions are made on the tree: the folding pass
(rulelang/compile/fold.py) and a guard that no regex or text test over generated code comes back
into rulelang/compile/."""
import ast
import os

from rulelang import load
from rulelang.check.ir import NodeTable
from rulelang.compile import codegen
from rulelang.compile.fold import Fold
from rulelang.syntax import ast as A

SP = A.Span("t", 1, 1, 1, 2)
COMPILE = os.path.join(os.path.dirname(__file__), "..", "rulelang", "compile")


def _int(v):
    return A.Int(v, SP)


def _fold(n=3):
    return Fold(NodeTable(), n)


def test_known_values_of_literals_arithmetic_and_comparisons():
    f = _fold(3)
    assert f.known(_int(4)) == 4
    assert f.known(A.Bool(True, SP)) == 1 and type(f.known(A.Bool(True, SP))) is int
    assert f.known(A.Keyword("number of players", SP)) == 3
    assert f.known(A.Keyword("opponents", SP)) == 2
    players_is_two = A.Compare("==", A.Keyword("players", SP), _int(2), SP)
    assert f.known(players_is_two) is False                 # a comparison is a bool, as in code
    assert _fold(2).known(players_is_two) is True
    assert f.known(A.Arith("+", _int(2), A.Arith("*", _int(3), _int(4), SP), SP)) == 14
    assert f.known(A.Arith("/", _int(7), _int(2), SP)) == 3
    assert f.known(A.Unary("neg", _int(5), SP)) == -5
    cases = A.Cases(((_int(10), players_is_two),), _int(6), SP)
    assert f.known(cases) == 6 and _fold(2).known(cases) == 10


def test_what_would_stop_the_game_or_reads_it_is_not_known():
    f = _fold(3)
    assert f.known(A.Arith("/", _int(7), _int(0), SP)) is None        # RL911 where it runs
    assert f.known(A.Arith("mod", _int(7), _int(0), SP)) is None
    big = A.Arith("*", _int(10 ** 9), _int(10 ** 9), SP)
    assert f.known(big) is None                                           # RL910 where it runs
    assert f.known(A.Seat(4, SP)) is None and f.known(A.Seat(2, SP)) == 1  # no player 4 of 3
    assert f.known(A.Keyword("current player", SP)) is None
    assert f.known(A.Roll(6, SP)) is None


def test_and_or_fold_like_the_generated_code():
    f = _fold(3)
    no, yes, roll = A.Bool(False, SP), A.Bool(True, SP), A.Roll(6, SP)
    die = A.Compare(">", roll, _int(3), SP)
    assert f.known(A.BoolOp("and", (yes, no), SP)) == 0
    assert f.known(A.BoolOp("or", (no, yes), SP)) == 1
    assert f.known(A.BoolOp("and", (yes, die), SP)) is None
    assert f.known(A.BoolOp("and", (die, no), SP)) is None      # the die is still rolled
    assert f.known(A.BoolOp("and", (no, die), SP)) == 0         # never reached: no roll


def test_chance_looks_inside_expressions():
    f = _fold(3)
    assert f.chance(A.Arith("+", _int(1), A.Roll(6, SP), SP))
    assert f.chance(A.Keyword("random player", SP))
    assert not f.chance(A.Arith("+", _int(1), A.Keyword("current player", SP), SP))
    assert not f.chance(A.Keyword("next player", SP))


def test_generated_code_folds_options_and_the_number_of_players(tmp_path, monkeypatch):
    """`cases` on the number of players, and an option in `and`, leave no test in the code."""
    text = ('game "g"\nplayers 2 to 3\noption fast = no one of yes, no "fast"\n'
            'deck standard, into stock\nzone stock: shared, face down\n'
            'zone hand: per player, face down\nvar n = 0\n'
            'setup:\n    shuffle stock\n'
            '    deal (7 if number of players is 2 else 5) from stock to hand of each player\n'
            'turn:\n    if fast and size of hand > 3:\n        add 1 to n\n'
            '    end game with no winner\n')
    path = tmp_path / "g.cardrules"
    path.write_text(text)
    sources = []
    real = codegen.ExprGen._compile

    def keep(self, src, line_map=None):
        sources.append(src)
        return real(self, src, line_map)
    monkeypatch.setattr(codegen.ExprGen, "_compile", keep)
    game = load(str(path))
    game.compiled(2)
    two = "".join(sources)
    sources.clear()
    game.compiled(3)
    three = "".join(sources)
    assert "if 0:" in two and "size" not in two and "= g.vars[0] + 1" in two    # (checked, then stored: RL910)
    assert " == 2)" not in two and " == 2)" not in three
    assert ", 7)" in two and ", 5)" in three


def test_no_regex_or_text_test_over_generated_code_in_compile():
    """The generator decides on the tree (compile/fold.py); the one use of `re` in
    rulelang/compile/ is the whitelist that validates generated source for safety
    (gensource._safe and its alphabet)."""
    found = []
    for name in sorted(os.listdir(COMPILE)):
        if not name.endswith(".py"):
            continue
        tree = ast.parse(open(os.path.join(COMPILE, name), encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name == "re" for a in node.names) \
                    and name != "gensource.py":
                found.append(f"{name}: import re")
            if isinstance(node, ast.ImportFrom) and node.module == "re":
                found.append(f"{name}: from re import")
        if name == "gensource.py":
            allowed = set()
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and node.name == "_safe" or \
                        isinstance(node, ast.Assign) and node.targets[0].id == "_ALLOWED_NAMES":
                    allowed |= {id(x) for x in ast.walk(node)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                        node.value.id == "re" and id(node) not in allowed:
                    found.append(f"gensource.py:{node.lineno}: re.{node.attr}")
    assert not found, found
