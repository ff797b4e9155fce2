"""Stage 1: text to AST.

Lark parses the text with ``grammar/cardrules.lark`` (LALR, indentation by a post-lexer,
positions propagated); :class:`ToAst` turns the parse tree into :mod:`rulelang.syntax.ast` nodes.  This
module is the one place where syntax errors are raised: :func:`parse` turns every Lark error into
a :class:`~rulelang.syntax.diagnostics.Diagnostic` that says, in words, what was expected.
"""
from __future__ import annotations

import functools
from importlib import resources
from typing import Optional

from lark import Lark, Token, v_args
from lark.exceptions import UnexpectedInput
from lark.indenter import Indenter, DedentError

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic, RuleFileError, source_lines_of
from rulelang.limits import MAX_BLOCK_DEPTH, MAX_EXPR_DEPTH, MAX_NUMBER, MAX_NUMBER_DIGITS, no_gc
from rulelang.syntax.to_ast_base import _span, _tspan
from rulelang.syntax.to_ast_declarations import DeclarationsToAst
from rulelang.syntax.to_ast_expressions import ExpressionsToAst
from rulelang.syntax.to_ast_statements import StatementsToAst


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return resources.files("rulelang").joinpath("grammar/cardrules.lark").read_text("utf-8")


def _cache_file():
    """Where the built parser is kept between runs: the user's own cache folder, never a shared
    temporary one (the cache is a pickle).  ``False`` (build it every time) if there is none."""
    import hashlib
    import os
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulelang")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    digest = hashlib.sha256(grammar_text().encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"parser-{digest}.lark")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    # Building the LALR tables takes ~0.4 s; Lark keeps them in the cache file, checked against
    # a hash of the grammar, the options and Lark's version, and rebuilds them if they differ.
    return Lark(grammar_text(), parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=True, cache=_cache_file())


@v_args(meta=True)
class ToAst(DeclarationsToAst, StatementsToAst, ExpressionsToAst):
    """Parse tree to AST.  Each method builds the node of one grammar rule: the declarations'
    in :mod:`rulelang.syntax.to_ast_declarations`, the statements' in
    :mod:`rulelang.syntax.to_ast_statements`, the expressions' in
    :mod:`rulelang.syntax.to_ast_expressions`."""

    def __init__(self, file: str, text: str = ""):
        super().__init__()
        self.file = file
        self._text = text
        self._lines_read: Optional[list] = None
        self.problems: list = []       # a mistake the grammar lets through (RL010)

    @property
    def _lines(self) -> list:
        """The text's lines, split when first needed (rarely: the language server's parser
        gives a declaration its lines in a text of as many blank lines before it)."""
        if self._lines_read is None:
            self._lines_read = source_lines_of(self._text)
        return self._lines_read

    def sp(self, meta):
        return _span(self.file, meta)


def _syntax_diagnostic(file: str, text: str, err: UnexpectedInput) -> Diagnostic:
    """One diagnostic for a syntax error, in words (see :mod:`rulelang.syntax.syntax_errors`)."""
    from rulelang.syntax.syntax_errors import syntax_diagnostic
    return syntax_diagnostic(file, text, err, _lark())


def _tab_indent(file: str, text: str):
    """RL002 for the first line of code indented with a tab (a tab counts as four spaces, and a
    mix of tabs and spaces hides which block a line belongs to), or None."""
    if "\t" not in text:
        return None
    for i, line in enumerate(text.split("\n"), 1):
        code = line.lstrip(" \t\f\r")
        indent = line[:len(line) - len(code)]
        if "\t" in indent and code and not code.startswith("#"):
            col = indent.index("\t") + 1
            return Diagnostic("RL002", ERROR, "this line is indented with a tab",
                              A.Span(file, i, col, i, col + 1),
                              "indent with spaces (four per level); tabs count as four spaces and "
                              "hide mistakes")
    return None


def parse(text: str, file: str = "<string>") -> A.Program:
    """Parse a rule file.  Raises :class:`RuleFileError` with one diagnostic on a syntax error
    (the first in the file: a tab in the indentation counts as one).  A byte order mark at the
    start is ignored.  (:func:`rulelang.syntax.recover.parse_partial` reports every syntax error
    and keeps the parts that parse.)"""
    text = normal_text(text)
    tab = _tab_indent(file, text)
    try:
        with no_gc():
            tree = _lark().parse(text)
    except UnexpectedInput as err:
        d = _syntax_diagnostic(file, text, err)
        if tab is not None and (d.span is None or tab.span.line <= d.span.line):
            d = tab
        raise RuleFileError([d]) from None
    except DedentError:
        d = Diagnostic("RL003", ERROR, "this line's indentation matches no block above it",
                       _dedent_span(file, text), "line it up with the block it belongs to")
        if tab is not None and tab.span.line <= d.span.line:
            d = tab
        raise RuleFileError([d]) from None
    return program_of(tree, text, file, tab)


def normal_text(text: str) -> str:
    """The text as the parser reads it: without a byte order mark, ending with a newline."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"
    return text


def program_of(tree, text: str, file: str, tab=None) -> A.Program:
    """The program of a parse tree of the whole text (``tab``: the RL002 of the text, if any).
    Raises :class:`RuleFileError` for a tab in the indentation and the limits of
    :mod:`rulelang.limits`."""
    if tab is not None:
        raise RuleFileError([tab])
    too_much = _limits(tree, file)
    if too_much:
        raise RuleFileError(too_much)
    with no_gc():
        to_ast = ToAst(file, text)
        decls = to_ast.transform(tree)
    if to_ast.problems:
        raise RuleFileError(to_ast.problems[:1])
    return A.Program(file, tuple(decls), text)


# ---- limits (rulelang/limits.py) --------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _expression_rules() -> frozenset:
    """The names of the parse-tree nodes that are expressions: those of the grammar's
    expressions section."""
    import re
    text = grammar_text()
    section = text[text.index("// ---- expressions"):]
    return frozenset(re.findall(r"->\s*(\w+)", section)) | {"or_expr", "and_expr", "cond_case"}


_BLOCK_RULES = frozenset({"block", "choose_stmt", "simul_stmt"})


def _limits(tree, file: str) -> list:
    """Blocks nested too deeply (RL201), expressions nested too deeply (RL202) and numbers too
    large (RL203), found before the tree is turned into nodes: that and every later stage walk
    the tree recursively, so its depth must be bounded first.  The walk itself is iterative;
    nothing under a node that is too deep is looked at."""
    exprs = _expression_rules()
    out = []
    reported = set()        # one diagnostic of each kind per declaration
    stack = [(tree, None, 0, 0, None, None)]
    while stack:
        node, parent, blocks, depth, decl, root = stack.pop()
        if isinstance(node, Token):
            if node.type in ("INT", "DIE"):
                digits = str(node).lstrip("d").lstrip("0")
                if len(digits) > MAX_NUMBER_DIGITS or (digits and int(digits) > MAX_NUMBER):
                    shown = str(node) if len(node) <= 24 else f"{str(node)[:12]}...({len(node)} digits)"
                    out.append(Diagnostic(
                        "RL203", ERROR, f"the number {shown} is too large: numbers are at most "
                        f"{MAX_NUMBER} (10^{MAX_NUMBER_DIGITS - 1})", _tspan(file, node),
                        "a game needs no such number; write a smaller one"))
            continue
        if node is None:
            continue
        data = node.data
        if parent is tree:
            decl = id(node)
        if data in _BLOCK_RULES:
            blocks += 1
            if blocks > MAX_BLOCK_DEPTH:
                where = node if data != "block" or parent is None else parent
                if ("RL201", decl) in reported:
                    continue
                reported.add(("RL201", decl))
                out.append(Diagnostic(
                    "RL201", ERROR, f"blocks are nested more than {MAX_BLOCK_DEPTH} deep here",
                    _span(file, where.meta),
                    "move the inner part into a `rule` of its own and run it from here"))
                continue
        if data in exprs:
            if depth == 0:
                root = node
            depth += 1
            if depth > MAX_EXPR_DEPTH:
                if ("RL202", decl) in reported:
                    continue
                reported.add(("RL202", decl))
                out.append(Diagnostic(
                    "RL202", ERROR, f"this expression is nested more than {MAX_EXPR_DEPTH} deep",
                    _span(file, root.meta),
                    "compute a part first with `let NAME = ...` and use the name"))
                continue
        else:
            depth = 0
        for child in node.children:
            stack.append((child, node, blocks, depth, decl, root))
    out.sort(key=lambda d: (d.span.line, d.span.column))
    return out


def _dedent_span(file, text):
    levels = [0]
    for i, line in enumerate(source_lines_of(text), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        ind = len(line) - len(line.lstrip(" "))
        if ind > levels[-1]:
            levels.append(ind)
        else:
            while levels and ind < levels[-1]:
                levels.pop()
            if not levels or ind != levels[-1]:
                return A.Span(file, i, 1, i, ind + 1)
    return A.Span(file, 1, 1, 1, 1)
