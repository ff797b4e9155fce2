"""A rule file read line by line, without the parser: its words, its declarations and the names
bound inside its rules.

Everything here works on any text, one that does not parse too: a rule file is a list of
declarations, each beginning at the left margin with its keyword (`zone`, `var`, `define`,
`rule`, ...) and going on over the indented lines below it, and the names a rule binds (`card c`
of a choice, `for each player p`, `let n = ...`, a rule's parameters) are seen in the words of
their line and hold over the block indented below it.  The language server
(:mod:`rulelang.lsp.analysis`) builds its outline, definitions, references and renames on this,
and uses the checker's model, when there is one, for what a name is.

Lines and columns here are 0-based, columns counted in characters (the server converts them to
the editor's UTF-16 positions).
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

import attrs

from rulelang.syntax.diagnostics import source_lines_of
from rulelang.syntax.vocabulary import KEYWORDS, RESERVED_WORDS

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN = re.compile(r'(?P<comment>#.*)|(?P<string>"[^"\n]*"?)|(?P<card>[0-9A-Za-z]+[^\x00-\x7f\s])'
                    r"|(?P<int>[0-9]+)|(?P<word>[A-Za-z_][A-Za-z0-9_]*)")


class Token(NamedTuple):
    """A word, card literal, number or quoted text of a line (comments are left out)."""
    line: int
    col: int
    text: str
    kind: str            # "word", "card", "int", "string"

    @property
    def end(self) -> int:
        return self.col + len(self.text)


@attrs.define
class Symbol:
    """A declaration: what it declares (``name``, ``kind``), where its name is written and the
    lines it spans (``line`` to ``end_line``, inclusive), its first line (``detail``), and the
    names it declares inside itself (the suits, ranks and cards of a `deck type`)."""
    name: str
    kind: str            # zone, var, define, rule, option, attribute, deck type, deck, suit,
    line: int            # rank, card, extends, game, players, setup, turn, ending, score, show
    col: int
    end_line: int
    detail: str
    children: list = attrs.field(factory=list)
    replace: bool = False
    file: str = ""

    @property
    def named(self) -> bool:
        """Whether the declaration gives a name the rest of the file can use."""
        return self.kind in NAMED_KINDS


# The longest first line of a declaration kept to show it, and the most names read from one
# list (a deck's suits, an option's values): more than any game has, and a file that has more
# has the rest left out of its outline.
_DETAIL = 400
MAX_LISTED = 500

NAMED_KINDS = frozenset({"zone", "var", "define", "rule", "option", "attribute", "deck type",
                         "suit", "rank", "card", "value"})


@attrs.define
class Binder:
    """A name bound inside a declaration (a parameter, a choice's `card c`, a loop's player, a
    `let`): where it is written and the lines where it means this (``first`` to ``last``; a
    `let` only after itself)."""
    name: str
    line: int
    col: int
    first: int
    last: int
    what: str            # the words that bind it: "card", "player", "let", "parameter" ...
    detail: str


def lines_of(text: str) -> list:
    return source_lines_of(text[1:] if text.startswith("\ufeff") else text)


def tokens_of_line(line_no: int, line: str) -> list:
    out = []
    for m in _TOKEN.finditer(line):
        kind = m.lastgroup
        if kind == "comment":
            break
        out.append(Token(line_no, m.start(), m.group(), kind))
    return out


def indent_of(line: str) -> Optional[int]:
    """The indentation of a line of code, or None for a blank line or a comment."""
    code = line.lstrip(" \t")
    if not code or code.startswith("#"):
        return None
    return len(line) - len(code)


# ---- declarations ---------------------------------------------------------------------------

_DECL = re.compile(r"^(?P<replace>replace\s+)?(?P<kw>extends|game\s+ends|game|players|option|deck\s+type|deck|"
                   r"attribute|zone|var|define|score|show|rule|setup|turn)\b\s*(?P<rest>.*)$")
_NAMED = {"option": "option", "deck type": "deck type", "deck": "deck", "attribute": "attribute",
          "zone": "zone", "var": "var", "define": "define", "rule": "rule"}


def _clean(line: str) -> str:
    """A line without its comment (a `#` inside quotes is kept)."""
    if '"' not in line:
        return line.split("#", 1)[0].rstrip()
    toks = tokens_of_line(0, line)
    end = toks[-1].end if toks else 0
    rest = line[end:]
    cut = rest.find("#")
    return (line[:end] + (rest if cut < 0 else rest[:cut])).rstrip()


def chunks(lines: list) -> list:
    """(first line, last line) of each declaration: a line at the left margin and the indented
    lines after it (blank lines and comments at its end left out)."""
    out = []
    start = None
    last_code = None
    for i, line in enumerate(lines):
        ind = indent_of(line)
        if ind is None:
            continue
        if ind == 0:
            if start is not None:
                out.append((start, last_code))
            start = i
        last_code = i
    if start is not None:
        out.append((start, last_code))
    return out


def declarations(text: str, file: str = "") -> list:
    """The declarations of a rule file, in order, read line by line (see the module's text)."""
    lines = lines_of(text)
    out = []
    for first, last in chunks(lines):
        sym = _declaration(lines, first, last, file)
        if sym is not None:
            out.append(sym)
    return out


def _declaration(lines: list, first: int, last: int, file: str) -> Optional[Symbol]:
    line = lines[first]
    m = _DECL.match(line)
    if m is None:
        return None
    kw = " ".join(m.group("kw").split())
    replace = bool(m.group("replace"))
    detail = _clean(line)[:_DETAIL]
    rest_at = m.start("rest")
    if kw in _NAMED:
        w = WORD.match(line, rest_at)
        if w is None or w.group() in RESERVED_WORDS and kw != "deck":
            return Symbol("?", kw, first, rest_at, last, detail, replace=replace, file=file)
        sym = Symbol(w.group(), kw, first, w.start(), last, detail, replace=replace, file=file)
        if kw == "deck type":
            sym.children = _deck_names(lines, first, last, file)
        elif kw == "option":
            sym.children = _option_values(line, first, last, file)
        elif kw == "zone":
            fam = re.match(r"\s+(?:([0-9]+)\s+to\s+([0-9]+)|per\s+(?:suit|rank)\b)", line[w.end():])
            if fam:
                sym.kind = "zone family"
        return sym
    words = {"extends": "extends", "game": "game", "players": "players", "game ends": "ending",
             "score": "score", "show": "show", "setup": "setup", "turn": "turn"}
    kind = words[kw]
    name = {"setup": "setup", "turn": "turn", "score": "score"}.get(kind) or detail.rstrip(":")
    if kind == "game":
        s = re.match(r'\s*"([^"\n]*)"', m.group("rest"))
        name = s.group(1) if s else "game"
    return Symbol(name, kind, first, m.start("kw"), last, detail, replace=replace, file=file)


def _deck_names(lines: list, first: int, last: int, file: str) -> list:
    """The suits, ranks and extra cards a `deck type` declares."""
    out = []
    for i in range(first + 1, last + 1):
        code = _clean(lines[i])
        m = re.match(r"^\s*(suits|ranks|suit|extra)\b", code)
        if m is None:
            continue
        word = m.group(1)
        base = m.end()
        if word == "suit":             # suit NAME [STRING] with ranks R, ...
            s = WORD.search(code, base)
            if s:
                out.append(Symbol(s.group(), "suit", i, s.start(), i, code.strip()[:_DETAIL], file=file))
            k = code.find(" ranks ", base)
            if k >= 0:
                out += _listed(code, k + len(" ranks "), "rank", i, file)
        elif word == "extra":          # extra GROUP: card, card with rank R
            g = WORD.search(code, base)
            colon = code.find(":", base)
            k = code.find(" with rank ", base)
            if g and colon > 0:
                out.append(Symbol(g.group(), "card", i, g.start(), i, code.strip()[:_DETAIL], file=file))
                out += _listed(code[:k] if k > 0 else code, colon + 1, "card", i, file)
            if k > 0:
                out += _listed(code, k + len(" with rank "), "rank", i, file)
        else:
            out += _listed(code, base, "suit" if word == "suits" else "rank", i, file)
    return out


def _listed(code: str, start: int, kind: str, line_no: int, file: str, words_too: bool = False) -> list:
    """The names of a comma-separated list (`clubs "♣", diamonds`, `ace = 1 "A", 2, jack`)."""
    out: list = []
    detail = code.strip()[:_DETAIL]
    pos = start
    for part in re.split(r"(,)", code[start:]):
        if part != ",":
            m = re.match(r'\s*([A-Za-z_][A-Za-z0-9_]*)', part)
            if m and (words_too or m.group(1) not in RESERVED_WORDS):
                out.append(Symbol(m.group(1), kind, line_no, pos + m.start(1), line_no,
                                  detail, file=file))
                if len(out) >= MAX_LISTED:
                    break
        pos += len(part)
    return out


def _option_values(line: str, first: int, last: int, file: str) -> list:
    """The named values of an option (`one of low, high`): each is a name of its own."""
    m = re.search(r"\bone\s+of\b", line)
    if m is None:
        return []
    code = _clean(line)
    end = code.find('"', m.end())
    return [s for s in _listed(code[:end] if end > 0 else code, m.end(), "value", first, file,
                          words_too=True) if not s.name.isdigit()]


def flat(symbols: list) -> list:
    """Every symbol and every symbol declared inside one."""
    out = []
    for s in symbols:
        out.append(s)
        out += flat(s.children)
    return out


# ---- names bound inside declarations ----------------------------------------------------------

_BINDER = re.compile(r"\b(?P<what>unseen\s+card|each\s+player|each\s+card|each\s+suit|each\s+rank|"
                     r"any\s+number|highest\s+rank|lowest\s+rank|highest\s+number|lowest\s+number|"
                     r"card|player|suit|rank|number|cards|let)\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)")
_PARAMS = re.compile(r"^(?:replace\s+)?(?:rule|define)\s+[A-Za-z_]\w*\s*\((?P<params>[^)]*)\)")


def block_ends(lines: list, first: int, last: int) -> tuple:
    """For each line from ``first`` to ``last``: the last line of the block indented under it
    (the line itself if none) and of the block it is in (where a `let` on it holds), in one pass."""
    ends, lets = {}, {}
    stack: list = []                 # (indent, line) of the lines enclosing the current one
    prev = first
    for i in range(first, last + 1):
        ind = indent_of(lines[i])
        if ind is None:
            continue
        while stack and stack[-1][0] >= ind:
            ends[stack.pop()[1]] = prev
        stack.append((ind, i))
        prev = i
    for _ind, i in stack:
        ends[i] = prev
    # a `let` holds to the end of the block of the line above it with less indentation
    stack = []
    for i in range(first, last + 1):
        ind = indent_of(lines[i])
        if ind is None:
            continue
        while stack and stack[-1][0] >= ind:
            stack.pop()
        lets[i] = ends[stack[-1][1]] if stack else last
        stack.append((ind, i))
    return ends, lets


# No line of a rule binds more than a few names; a file that seems to bind more than these (a
# line of thousands of `card c from`) has the rest read as names of the file, so that looking a
# name up stays quick.
MAX_BINDERS_PER_LINE = 16
MAX_BINDERS = 20_000


class Binders(list):
    """The binders of a file, with those of each name (``by_name``)."""

    def __init__(self, items=()):
        super().__init__(items)
        self.by_name: dict = {}
        for b in self:
            self.by_name.setdefault(b.name, []).append(b)


def binders(text: str, symbols: Optional[list] = None) -> Binders:
    """Every name bound inside the declarations of a rule file (not in a `deck type`, an
    `option` or a `zone` line, which bind nothing)."""
    lines = lines_of(text)
    symbols = declarations(text) if symbols is None else symbols
    out: list = []
    for sym in symbols:
        if sym.kind in ("deck type", "option", "zone", "zone family", "extends", "game", "players",
                        "deck"):
            continue
        first, last = sym.line, sym.end_line
        p = _PARAMS.match(_clean(lines[first]))
        if p:
            at = p.start("params")
            for part in re.finditer(r"[^,]+", p.group("params")):
                w = WORD.search(part.group())
                if w and w.group() not in RESERVED_WORDS and len(out) < MAX_BINDERS:
                    out.append(Binder(w.group(), first, at + part.start() + w.start(), first, last,
                                      "parameter", lines[first].strip()[:_DETAIL]))
        ends, lets = block_ends(lines, first, last)
        for i in range(first, last + 1):
            if len(out) >= MAX_BINDERS:
                break
            on_line = 0
            code = _clean(lines[i])
            if i == first and p:
                code = " " * p.end() + code[p.end():]
            code = re.sub(r'"[^"\n]*"?', lambda s: " " * len(s.group()), code)
            detail = None
            for m in _BINDER.finditer(code):
                if on_line >= MAX_BINDERS_PER_LINE:
                    break
                name = m.group("name")
                if name in KEYWORDS:         # `card in`, `rank of`: the language's words
                    continue
                what = " ".join(m.group("what").split())
                if what in ("card", "player", "suit", "rank", "number", "cards"):
                    after = code[m.end():].lstrip()
                    # `card c from`, `player p from`, `suit s where`, `rank r with highest`...
                    if what in ("card", "player", "number") and not after.startswith(("from", "in")):
                        continue
                    if what == "cards" and not after.startswith(("from", "of", "in a run")):
                        continue
                    if what in ("suit", "rank") and after and not after.startswith(
                            ("where", "with", ":", "if")) and after[0] != ":":
                        continue
                end = lets.get(i, last) if what == "let" else ends.get(i, i)
                if detail is None:
                    detail = lines[i].strip()[:_DETAIL]
                out.append(Binder(name, i, m.start("name"), i, end, what, detail))
                on_line += 1
    return Binders(out)


def binder_at(binds: list, name: str, line: int, col: int) -> Optional[Binder]:
    """The binder that the use of ``name`` at (line, col) means, or None for a name of the file
    (the innermost that holds there; a `let` only after it is written)."""
    best = None
    by_name = getattr(binds, "by_name", None)
    for b in (by_name.get(name, ()) if by_name is not None else binds):
        if b.name != name or not b.first <= line <= b.last:
            continue
        if b.what == "let" and (line, col) < (b.line, b.col):
            continue
        if best is None or (b.line, b.col) >= (best.line, best.col):
            best = b
    return best


def labels(lines: list) -> set:
    """(line, column) of each alternative's label (`play` in `play card c from hand:`): a word
    that names nothing."""
    out = set()
    stack = []                      # (indent, line text) of the lines enclosing this one
    for i, line in enumerate(lines):
        ind = indent_of(line)
        if ind is None:
            continue
        while stack and stack[-1][0] >= ind:
            stack.pop()
        if stack and _opens_choice(stack[-1][1]):
            w = WORD.match(line, ind)
            if w:
                out.add((i, ind))
        stack.append((ind, line))
    return out


def _opens_choice(line: str) -> bool:
    """Whether a line opens the block of a choice's alternatives (`choose:`, `choose by p:`,
    `any opponent may choose:`)."""
    code = _clean(line)
    return code.endswith(":") and re.search(r"\bchoose\b", code) is not None


def word_at(lines: list, line: int, col: int) -> Optional[Token]:
    """The token under (or just before) the cursor, or None."""
    if not 0 <= line < len(lines):
        return None
    for t in tokens_of_line(line, lines[line]):
        if t.col <= col <= t.end:
            return t
    return None
