"""A Pygments lexer for ``.cardrules`` files.

Registered as the Pygments lexer ``cardrules`` (entry point in pyproject.toml), so
``pygmentize -l cardrules FILE`` works once rulelang is installed; :mod:`rulelang.cli.render` uses it
to colour source lines in diagnostics.
"""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String, Text,
                            Whitespace)

from rulelang.syntax.vocabulary import CONSTANT_WORDS, DECLARATION_WORDS, OPERATOR_WORDS, OTHER_WORDS

# The words of the language, from the grammar: declarations, operators, constants, the rest.
_DECLARATIONS = DECLARATION_WORDS
_STATEMENTS = OTHER_WORDS
_OPERATORS = OPERATOR_WORDS
_CONSTANTS = CONSTANT_WORDS


class CardrulesLexer(RegexLexer):
    """Lexer for cardrules, the language of card games written as data."""

    name = "cardrules"
    aliases = ["cardrules"]
    filenames = ["*.cardrules"]
    mimetypes = ["text/x-cardrules"]
    url = "https://example.invalid/rulelang"

    tokens = {
        "root": [
            (r"\n", Whitespace),
            (r"[ \t\f]+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"[^"\n]*"?', String.Double),
            (r"\b(rule)(\s+)([A-Za-z_]\w*)", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"\b(define)(\s+)([A-Za-z_]\w*)", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"\b(zone|var|option|attribute)(\s+)([A-Za-z_]\w*)",
             bygroups(Keyword.Declaration, Whitespace, Name.Variable)),
            (words(_DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(_OPERATORS, prefix=r"\b", suffix=r"\b"), Operator.Word),
            (words(_CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(_STATEMENTS, prefix=r"\b", suffix=r"\b"), Keyword),
            (r"\bd[0-9]+\b", Number.Integer),
            (r"\b[0-9A-Za-z]+[^\x00-\x7f\s]", String.Symbol),    # a card literal, `Q♠`
            (r"[0-9]+", Number.Integer),
            (r"[A-Za-z_]\w*", Name),
            (r"<=|>=|[<>+\-*/=]", Operator),
            (r"[():,]", Punctuation),
            (r"\\\n", Text),
            (r".", Text),
        ],
    }
