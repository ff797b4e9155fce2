"""What the parts of the parse-tree transformer (:class:`rulelang.syntax.parser.ToAst` and its
mixins) and the parser's limits share: the span of a Lark node or token, a quoted text without
its quotes, an option's literal, and ``attrs.evolve`` for the frozen nodes.
"""
from __future__ import annotations

from lark import Token

from rulelang.syntax import ast as A


def _span(file: str, meta) -> A.Span:
    return A.Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tspan(file: str, tok: Token) -> A.Span:
    return A.Span(file, tok.line, tok.column, tok.end_line or tok.line,
                  tok.end_column or tok.column + len(tok))


def _unquote(tok) -> str:
    return str(tok)[1:-1]


def _lit(x):
    """An option's literal: ``yes``/``no`` arrive as Bool nodes."""
    return x.value if isinstance(x, A.Bool) else x


def attrs_evolve(node, **changes):
    import attrs as _attrs
    return _attrs.evolve(node, **changes)
