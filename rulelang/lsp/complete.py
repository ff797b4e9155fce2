"""Completion: the words of the language that may come next, and the names in scope.

Which words may come next is asked of the grammar itself: the declaration around the cursor,
up to the cursor, is fed to Lark's LALR parser (``parse_interactive``) with a placeholder word
where the cursor is, and the parser's state there says which terminals it accepts (a keyword, or
``NAME`` where a name may be written).  When the text before the cursor has a mistake of its own,
the words that begin a declaration (at the left margin) or a statement are offered.  Names are
those bound around the cursor, the declarations of the file and of the files it extends, and
the deck's suits, ranks and cards (the standard deck's from the prelude).
"""
from __future__ import annotations

import functools
from typing import Optional

import attrs
from lark.exceptions import UnexpectedInput

from rulelang.lsp import scan
from rulelang.syntax.parser import _lark
from rulelang.syntax.vocabulary import DECL_WORDS, KEYWORDS, STMT_WORDS

_PLACEHOLDER = "zz_cursor_zz"
# A declaration longer than this is not given to the parser for each completion (it would take
# too long to answer); the words that begin a declaration or a statement are offered instead.
MAX_PARSED = 50_000


@attrs.frozen
class Item:
    label: str
    kind: str             # "keyword", or the kind of what a name declares (zone, var, local ...)
    detail: str = ""


@functools.lru_cache(maxsize=1)
def _keyword_of() -> dict:
    """Terminal name -> the keyword it is (`SHUFFLE` -> `shuffle`), for the grammar's words."""
    out = {}
    for t in _lark().terminals:
        pattern = t.pattern
        if type(pattern).__name__ == "PatternStr" and pattern.value.isalpha():
            out[t.name] = pattern.value
    return out


def expected(text_before: str) -> Optional[tuple]:
    """(keywords, a name may come) that the grammar accepts after ``text_before`` (the text of
    a declaration up to the cursor, the word being typed left out), or None when that text has
    a mistake."""
    if len(text_before) > MAX_PARSED:
        return None
    full = text_before + _PLACEHOLDER + "\n"
    cut = len(text_before)
    parser = _lark().parse_interactive(full)
    try:
        for tok in parser.iter_parse():
            if tok.start_pos is not None and tok.start_pos >= cut and tok.type not in (
                    "_INDENT", "_DEDENT", "_NL"):
                break
    except UnexpectedInput as e:
        at = getattr(e, "pos_in_stream", None)
        tok = getattr(e, "token", None)
        if tok is not None and getattr(tok, "start_pos", None) is not None:
            at = tok.start_pos
        if at is None or at < cut:
            return None
    except Exception:
        return None
    try:
        accepts = parser.accepts()
    except Exception:
        return None
    words = _keyword_of()
    return sorted({words[t] for t in accepts if t in words}), "NAME" in accepts


def _chunk_start(lines: list, line: int) -> int:
    """The first line of the declaration the cursor is in."""
    for i in range(min(line - 1, len(lines) - 1), -1, -1):
        ind = scan.indent_of(lines[i])
        if ind == 0:
            return i
    return line


_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _word_before(text: str) -> str:
    """The name that ends ``text`` (``[A-Za-z_][A-Za-z0-9_]*``), or "".  Found from the end
    back: a regular expression anchored at the end would try every start inside a long word,
    in time quadratic in its length."""
    start = len(text)
    while start > 0 and text[start - 1] in _WORD_CHARS:
        start -= 1
    while start < len(text) and text[start].isdigit():
        start += 1                      # a name does not begin with a digit
    return text[start:]


def candidates(lines: list, line: int, col: int, binders: list, layers: list,
               model=None) -> tuple:
    """(prefix typed, [Item]) for the cursor at (line, col)."""
    text_line = lines[line] if line < len(lines) else ""
    before_cursor = text_line[:col]
    prefix = _word_before(before_cursor)
    start_col = col - len(prefix)
    if "#" in before_cursor and before_cursor.count('"') % 2 == 0 \
            and before_cursor.index("#") < start_col:
        return prefix, []                # in a comment
    if before_cursor[:start_col].count('"') % 2 == 1:
        return prefix, []                # in a quoted text
    head = text_line[:start_col]
    if not head.strip() and start_col == 0:
        text = ""                        # a new declaration
    elif scan.indent_of(text_line) == 0:
        text = head
    else:
        first = _chunk_start(lines, line)
        text = "\n".join(lines[first:line]) + "\n" + head
    got = expected(text)
    if got is None:
        at_start = not head.strip()
        if at_start:
            words = list(DECL_WORDS) if start_col == 0 else list(STMT_WORDS) + ["else"]
        else:
            words = sorted(KEYWORDS)
        names_ok = True
    else:
        words, names_ok = got
    items = [Item(w, "keyword") for w in words]
    if names_ok:
        items += names_in_scope(binders, layers, line, col, model)
    seen, out = set(), []
    for it in items:
        if it.label not in seen and it.label != _PLACEHOLDER:
            seen.add(it.label)
            out.append(it)
    return prefix, out


def names_in_scope(binders: list, layers: list, line: int, col: int, model=None) -> list:
    """The names a value may be written with at (line, col): bound ones first, then declared."""
    out = []
    for b in binders:
        if b.first <= line <= b.last and (b.what != "let" or (line, col) > (b.line, b.col)) \
                and not (b.line == line and b.col <= col <= b.col + len(b.name)):
            out.append(Item(b.name, "local", b.detail))
    for layer in layers:
        for s in scan.flat(layer.symbols):
            if s.named and s.name != "?" and s.kind != "deck type":
                out.append(Item(s.name, s.kind, s.detail))
    if model is not None:
        for r in getattr(model, "ranks", {}):
            if not str(r).isdigit():
                out.append(Item(str(r), "rank"))
        for s in getattr(model, "suits", []):
            out.append(Item(str(s), "suit"))
        for c in getattr(model, "card_names", {}):
            out.append(Item(str(c), "card"))
    return [it for it in out if it.label not in KEYWORDS or it.kind in ("value",)]
