"""One vocabulary: the words that syntax errors and the highlighter know are the grammar's, and
every kind of statement and value is checked, generated, and interpreted by the reference
interpreter of the tests (tests/reference, the oracle the generated code is checked against)
."""
import glob
import os
import random
import re

import attrs
import pytest

import rulelang.syntax.ast as A
import rulelang.check.checker as Ch
import rulelang.check.model as M
import rulelang.compile.compiler as C
from rulelang.cli import highlight
from rulelang.syntax import syntax_errors
from rulelang.compile.loader import load
from rulelang.syntax.parser import _lark, grammar_text, parse

from closures import closures_only, not_generated
from reference import ReferenceGame
from rulelang.compile.codegen import ExprGen
from rulelang.compile.rulegen import RuleGen
from rulelang.compile.stmtgen import _CONTROL, StatementGen
from gameprops import random_playout

HERE = os.path.dirname(__file__)
EVERY = os.path.join(HERE, "every", "statements.cardrules")
FILES = sorted(glob.glob(os.path.join(HERE, "..", "rules", "*.cardrules"))
               + glob.glob(os.path.join(HERE, "..", "examples", "*.cardrules")))


def _grammar_words():
    text = "\n".join(l for l in grammar_text().splitlines() if not l.lstrip().startswith("//"))
    return set(re.findall(r'"([a-z]+)"', text))


def _accepted_before(text, terminal, nth=1):
    """The terminals the parser accepts just before the ``nth`` ``terminal`` of ``text``."""
    ip = _lark().parse_interactive(text)
    for tok in ip.iter_parse():
        if tok.type == terminal:
            nth -= 1
            if nth == 0:
                return set(ip.accepts())
    raise AssertionError(terminal)


def test_the_keywords_of_syntax_errors_and_highlighter_are_the_grammars_words():
    words = _grammar_words()
    assert syntax_errors.KEYWORDS == words
    lists = (highlight._DECLARATIONS, highlight._STATEMENTS, highlight._OPERATORS,
             highlight._CONSTANTS)
    assert set().union(*map(set, lists)) == words
    assert sum(len(set(l)) for l in lists) == len(words)          # each word in one list


def test_declaration_and_statement_words_are_what_the_parser_accepts_there():
    def words(terminals):
        return {t.lower() for t in terminals} - {"name", "_nl", "_dedent", "$end"}
    assert set(syntax_errors.DECL_WORDS) == words(_accepted_before("game \"x\"\n", "GAME"))
    # inside a block, after an `if` block (where `else` may come too)
    text = "turn:\n    if yes:\n        pass\n    else:\n        pass\n"
    assert set(syntax_errors.STMT_WORDS) == words(_accepted_before(text, "ELSE"))


# statements the checker writes as plain statements before anything else is checked
LOWERED = {A.Auction}


def test_a_statement_the_checker_writes_as_others_is_in_no_checked_model():
    game = load(EVERY)
    used = _nodes([r.decl.body for r in game.model.rules.values()], set())
    assert not (used & LOWERED) and game.model.auctions


def _stmt_classes():
    return {c for c in vars(A).values()
            if isinstance(c, type) and issubclass(c, A.Stmt) and c is not A.Stmt}


def _expr_classes():
    return {c for c in vars(A).values()
            if isinstance(c, type) and issubclass(c, A.Expr) and c is not A.Expr} | {
        M.Expanded, M.Arg}


def test_every_kind_of_statement_and_value_is_checked_generated_and_has_closures():
    """Each kind of statement is checked (a checker method, or its declared parts), generated (a
    ``t_`` writer of StatementGen; one that jumps, calls or decides a ``sus_`` of RuleGen) and
    has its closures in the reference interpreter (``s_``); each kind of value is checked
    (``ex_``), generated (``g_`` of ExprGen) and has its closure (``x_``).  A statement the
    checker writes as others (an auction: rulelang/check/auctions.py) is never in a checked
    model: those others are what the backends run."""
    for c in _stmt_classes() - LOWERED:
        if not hasattr(Ch.Checker, "st_" + c.__name__):
            # checked by its declared parts alone (ast.part): then every part is declared
            declared = {name for name, _, _ in A.parts(c)}
            assert declared and declared == {f.name for f in attrs.fields(c)} - {"span"}, c
        if issubclass(c, _CONTROL):
            assert hasattr(StatementGen, "t_" + c.__name__) or hasattr(RuleGen, "sus_" + c.__name__), c
        else:
            assert hasattr(StatementGen, "t_" + c.__name__), c
        assert hasattr(ReferenceGame, "s_" + c.__name__), c
    for c in _expr_classes():
        assert hasattr(Ch.Checker, "ex_" + c.__name__), c
        assert hasattr(ExprGen, "g_" + c.__name__), c
        assert hasattr(ReferenceGame, "x_" + c.__name__), c


def _values(node, out, refs=None, seen=None):
    """Every value (expression node) under ``node``, through the uses of defines (with the
    model's ``refs``), but not the places `set` stores in."""
    seen = set() if seen is None else seen
    if isinstance(node, (list, tuple)):
        for x in node:
            _values(x, out, refs, seen)
    elif hasattr(type(node), "__attrs_attrs__") and id(node) not in seen:
        seen.add(id(node))
        if isinstance(node, (A.Expr, M.Expanded, M.Arg)):
            out.append(node)
        for f in type(node).__attrs_attrs__:
            # (nor the name of the set a value is chosen from: `call bid b`)
            if isinstance(node, A.Param) and node.kind == "value" and f.name == "source":
                continue
            if not (isinstance(node, A.Assign) and f.name == "target"):
                _values(getattr(node, f.name), out, refs, seen)
        use = refs.of(node, None) if refs is not None and isinstance(node, A.Expr) else None
        if type(use).__name__ == "DefineUse":
            _values(use.expanded, out, refs, seen)
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_every_value_of_the_file_of_every_statement_is_a_generated_function(players):
    game = load(EVERY)
    cg = game.compiled(players)
    model = game.model
    values = _values([r.decl.body for r in model.rules.values()]
                     + [(e.condition, e.body) for e, _, _ in model.endings]
                     + [model.score.expr] + [d.expr for d, _, _ in model.shows.values()],
                     [], model.refs)
    assert {type(v) for v in values} >= _expr_classes()
    for v in values:
        f = cg.gen.function(v)           # Unsupported (or anything else) fails the test
        assert f.__code__.co_filename == "<rulelang>" and f.__code__.co_argcount == 2


def test_an_ending_condition_reading_a_local_gets_a_frame_of_its_own():
    """A condition of `game ends when` is ``f(g, p)``; one whose code reads the frame (a local
    slot) is given a frame with ``you`` = ``p`` and its locals at 0, as the closures gave it."""
    game = load(EVERY)
    cg = game.compiled(3)
    local = next(v for v in _values([r.decl.body for r in game.model.rules.values()], [])
                 if isinstance(v, A.Name) and type(cg.refs.of(v, None)).__name__ == "Local")
    index = cg.refs.of(local).index
    f = cg.gen.player_function(local, index)
    st = cg.new_game(seed=1)
    assert f(st, 2) == 0 and "fr" in f.__code__.co_varnames
    you = A.Keyword(span=local.span, word="you")
    assert [cg.gen.player_function(you, 0)(st, p) for p in range(3)] == [0, 1, 2]


def test_the_generator_is_the_only_backend_of_rulelang():
    """Constants, tables, initial values, scores, endings, card tests, rules and the watched games
    of check --simulate are generated: nothing in rulelang makes closures of values or
    statements (the closures are the reference interpreter of the tests), and the compiled game
    has no closure methods to fall back on."""
    root = os.path.join(HERE, "..", "rulelang")
    users = []
    for path in glob.glob(os.path.join(root, "**", "*.py"), recursive=True):
        text = open(path, encoding="utf-8").read()
        if re.search(r"\.cx\(|\(CompiledGame\)|def [sx]_[A-Z]|_compile_rule", text):
            users.append(os.path.relpath(path, root))
    assert users == []
    assert not [k for k in dir(C.CompiledGame)
                if k.startswith(("s_", "x_")) or k in ("cx", "block", "_compile_rule")]


def _nodes(node, out):
    if isinstance(node, (list, tuple)):
        for x in node:
            _nodes(x, out)
    elif hasattr(type(node), "__attrs_attrs__"):
        out.add(type(node))
        for f in type(node).__attrs_attrs__:
            _nodes(getattr(node, f.name), out)
    return out


def test_the_file_of_every_statement_has_every_statement_and_value():
    """tests/every/statements.cardrules must grow with the language: a new kind of statement or
    of value fails here until one of its rules uses it (and then the tests below compile it to
    generated code and play it)."""
    used = _nodes(parse(open(EVERY, encoding="utf-8").read(), EVERY), set())
    assert _stmt_classes() <= used, _stmt_classes() - used
    written = {c for c in _expr_classes()                    # (not the checker's)
               if c.__module__.startswith("rulelang.syntax.ast")}
    assert written <= used, written - used


@pytest.mark.parametrize("players", [2, 3])
def test_every_statement_compiles_to_generated_code(players):
    cg = load(EVERY).compiled(players)
    assert not_generated(cg) == [] and len(cg.procs) > 2


def test_every_statement_plays_as_the_closures_play_it(monkeypatch):
    game = load(EVERY)

    def games():
        out = []
        cg = C.CompiledGame(game.model, 3)
        for seed in range(12):
            st = cg.new_game(seed=seed, log=True, max_steps=20_000)
            random_playout(st, random.Random(seed))
            out.append((st.log, st.winners, st.outcome, st.problem))
        return out
    fast = games()
    assert [p for _, _, _, p in fast] == [None] * 12 and {o for _, _, o, _ in fast} == {"score"}
    closures_only(monkeypatch)
    assert games() == fast


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_every_rule_of_each_rule_file_is_a_generated_function(path):
    """There is no fallback: a rule the generator could not write would stop the game from being
    built (Unsupported, a bug of rulelang), and every rule's function is generated code."""
    game = load(path)
    lo, hi = game.players
    for n in range(lo, hi + 1):
        assert not_generated(game.compiled(n)) == []


def test_internals_md_shows_the_code_generated_for_crazy_eights(monkeypatch):
    """docs/internals.md shows block 0 of the generated turn rule: it must be the real code."""
    from rulelang.compile import codegen
    text = open(os.path.join(HERE, "..", "docs", "internals.md"), encoding="utf-8").read()
    shown = text.split("```python\n", 1)[1].split("```", 1)[0]
    sources = []
    compile_ = codegen.ExprGen._compile

    def keep(self, src, *line_map):
        sources.append(src)
        return compile_(self, src, *line_map)
    monkeypatch.setattr(codegen.ExprGen, "_compile", keep)
    C.CompiledGame(load(os.path.join(HERE, "..", "examples", "crazy_eights.cardrules")).model, 2)
    assert any(src.startswith(shown) for src in sources)


def test_a_statement_checked_by_its_parts_reports_each_wrong_part(tmp_path):
    """`shuffle`, `show`, `leaves the game`, `next turn goes to` and `reveal` have no checking code
    of their own: their declared parts (ast.part) give the same diagnostics as a check would."""
    from rulelang.compile.loader import check_file
    src = tmp_path / "g.cardrules"
    src.write_text(
        'game "g"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
        'zone hand: per player, seen by owner\n'
        'turn:\n    shuffle 3\n    show stock to you\n    reveal 1\n    remove none from the game\n'
        '    next turn goes to top of stock\n    end game with no winner\n')
    diags = check_file(str(src))[0]
    got = sorted((d.code, d.span.line, d.message) for d in diags
                 if d.code in ("RL102", "RL197"))
    assert got == [
        ("RL102", 7, "what to shuffle must be a zone, but this is a number"),
        ("RL102", 8, "the card to show must be a card, but this is a zone"),
        ("RL102", 9, "the card to reveal must be a card, but this is a number"),
        ("RL102", 11, "whose turn is next must be a player, but this is a card"),
        ("RL197", 10, "who leaves the game is `none`: `none` is no player"),
    ], got
