"""What the language server knows of a rule file: :func:`analyse`.

The interface the rest of the server is written against::

    analyse(text, path, include=()) -> Analysis
        .diagnostics   the diagnostics of `rulelang check` for this text (the checker's; the
                       compiler's are added by compile_diagnostics, which takes longer)
        .model         the checker's Model, or None when the file does not parse or check
        .symbols       the declarations of the file (scan.Symbol), read line by line
        .binders       the names bound inside its rules (scan.Binder)

The diagnostics and the model come from :func:`check_text`, the one place that parses and checks:
:func:`rulelang.compile.loader.check_file` (given the editor's text, the files it `extends`
read from disk under the rules of `extends`).  A file that does not parse is read again by the
parser that goes on after each syntax error (:mod:`rulelang.syntax.recover`): every syntax
error is reported, then the checker's diagnostics of the parts that parse.  The symbols
and binders never need the parser (:mod:`rulelang.lsp.scan`), so the outline, go to definition,
references and rename work on a file that does not parse yet; where a name's kind needs the
model (hover), the server keeps the last model it had for the file.

Other files are read only as `extends` reads them (:func:`rulelang.compile.loader.find_named_file`):
the base of a variant, and the variants of a file in its own folder (for renaming a name across
them).  Nothing here imports the language server's packages.
"""
from __future__ import annotations

import bisect
import functools
import os
import re
from importlib import resources
from typing import Optional

import attrs

from rulelang.compile.loader import (MAX_EXTENDS_DEPTH, MAX_FILE_BYTES, RULE_SUFFIX, Game, check_file,
                                     compiler_diagnostics, find_named_file, include_roots,
                                     read_named_main)
from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic, RuleFileError
from rulelang.syntax.parser import parse
from rulelang.lsp import scan


@attrs.define
class Analysis:
    path: str
    text: str
    diagnostics: list
    model: object                    # check.model.Model or None
    decls: object                    # the merged declarations (for compiling), or None
    symbols: list                    # scan.Symbol, the file's own declarations
    binders: list                    # scan.Binder
    lines: list
    _labels: Optional[set] = None

    @property
    def labels(self) -> set:
        """Where the alternatives' labels are (:func:`scan.labels`), found once."""
        if self._labels is None:
            self._labels = scan.labels(self.lines)
        return self._labels

    @property
    def parsed(self) -> bool:
        return self.model is not None


class DeclarationCache:
    """A parser that keeps each declaration's nodes while its text stays the same, so that after
    an edit only the declarations that changed are parsed again (those that moved up or down
    are given their new lines: :func:`_moved`).

    A file is cut where a line begins at the left margin (outside parentheses, and not after a
    line that ends in `\\`); each piece is parsed by itself, as the lines it is (the lines
    before it blank, so that every span is where the whole file has it).  The pieces of a file
    that parses make the same declarations as the whole; when a piece does not parse, the whole
    file is parsed, so that a syntax error is the parser's own first one."""

    MAX_FILES = 32
    WHOLE_AFTER = 8       # pieces not in the cache past which the whole file is parsed at once

    def __init__(self):
        self.files: dict = {}            # file -> {piece's text: (its first line, declarations)}

    def parse(self, text: str, file: str) -> A.Program:
        if text.startswith("\ufeff"):
            text = text[1:]
        pieces = _pieces(text)
        if len(pieces) == 1:
            return parse(text, file)
        old = self.files.pop(file, {})
        missing = sum(1 for _, piece in pieces if piece not in old)
        if missing > self.WHOLE_AFTER and 2 * missing > len(pieces):
            # mostly new text (a file just opened, a text pasted over): one parse of the whole
            # takes a fraction of one parse of each piece (thousands of them), and its
            # declarations are kept piece by piece for the edits to come
            program = parse(text, file)
            self._keep(file, pieces, program.decls)
            return program
        new: dict = {}
        decls: list = []
        for first, piece in pieces:
            got = old.get(piece)
            if got is not None and got[0] != first:
                try:
                    got = (first, _moved(got[1], first - got[0]))
                except RecursionError:          # nested too deeply to copy: parse it
                    got = None
            if got is None:
                try:
                    got = (first, parse("\n" * first + piece, file).decls)
                except RuleFileError:
                    return parse(text, file)
            new[piece] = got
            decls.extend(got[1])
        self._store(file, new)
        return A.Program(file, tuple(decls), text if text.endswith("\n") else text + "\n")

    def _keep(self, file: str, pieces: list, decls) -> None:
        """Keep the declarations of the whole file's parse under the pieces they are in."""
        starts = [first for first, _ in pieces]
        groups: list = [[] for _ in pieces]
        for d in decls:
            span = getattr(d, "span", None)
            if span is None:
                return                      # (kept nothing: the pieces are parsed next time)
            groups[bisect.bisect_right(starts, span.line - 1) - 1].append(d)
        self._store(file, {piece: (first, tuple(g)) for (first, piece), g in zip(pieces, groups)})

    def _store(self, file: str, pieces: dict) -> None:
        self.files[file] = pieces
        while len(self.files) > self.MAX_FILES:
            self.files.pop(next(iter(self.files)))


def _moved(node, lines: int):
    """A copy of syntax nodes with every span ``lines`` lines further down (up if negative)."""
    if isinstance(node, A.Span):
        return A.Span(node.file, node.line + lines, node.column, node.end_line + lines,
                      node.end_column)
    if isinstance(node, tuple):
        return tuple(_moved(x, lines) for x in node)
    if attrs.has(type(node)):
        return type(node)(**{f.name: _moved(getattr(node, f.name), lines)
                             for f in attrs.fields(type(node)) if f.init})
    return node


def _pieces(text: str) -> list:
    """(first line, text) of each declaration of a file, as :class:`DeclarationCache` cuts it."""
    lines = text.split("\n")
    starts = []
    depth, joined = 0, False
    for i, line in enumerate(lines):
        code = line.rstrip("\r")
        if code[:1] not in ("", " ", "\t", "#", "\f") and depth <= 0 and not joined:
            starts.append(i)
        bare = re.sub(r'"[^"\n]*"?', '""', code).split("#")[0]
        depth = max(depth + bare.count("(") - bare.count(")"), 0)
        stripped = code.rstrip(" \t\f")
        joined = stripped.endswith("\\") and not stripped.lstrip().startswith("#")
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    ends = starts[1:] + [len(lines)]
    # each piece ends with the line break before the next one, where the whole file's parser
    # would see the next declaration begin (the end of a block's span)
    return [(a, "\n".join(lines[a:b]) + ("\n" if b < len(lines) else "")) for a, b in zip(starts, ends)]


def check_text(text: str, path: str, include=(), cache: Optional[DeclarationCache] = None) -> tuple:
    """(diagnostics, model or None, merged declarations or None) of a rule file's text: what
    `rulelang check` reports before compiling (every syntax error, then the checker's
    diagnostics of the parts that parse).  Never raises: a file nested too deeply is RL003,
    a bug in rulelang an RL999 diagnostic (as `check` reports it).  ``cache``: parse through it
    (the language server keeps one)."""
    try:
        diags, model, decls = check_file(path, {}, text=text, include=include,
                                         parser=cache.parse if cache is not None else parse)
        if model is None and cache is not None:
            # A file that does not parse: read again by the parser that goes on after each
            # syntax error (syntax/recover.py), so every syntax error is shown, then the
            # checker's diagnostics of the parts that parse, as `rulelang check` reports them.
            diags, model, decls = check_file(path, {}, text=text, include=include)
        return list(diags), model, decls
    except RecursionError:
        return [Diagnostic("RL003", ERROR, "the file is nested too deeply to read", None,
                           "split deeply nested expressions or blocks into rules or defines")], None, None
    except Exception as e:        # a bug: one diagnostic, as `check` reports it
        return [_internal(e, path)], None, None


def _internal(e: Exception, path: str) -> Diagnostic:
    return Diagnostic("RL999", ERROR, f"internal error while checking {os.path.basename(path)}: "
                      f"{type(e).__name__}: {e}", None,
                      "this is a bug in rulelang, not in your rule file; please report it with the "
                      "file that caused it")


def analyse(text: str, path: str, include=(), cache: Optional[DeclarationCache] = None) -> Analysis:
    """The diagnostics, model, declarations and bound names of a rule file's text."""
    diags, model, decls = check_text(text, path, include, cache)
    if model is not None and any(d.is_error for d in diags):
        model = None
    return read_names(text, path, diags, model, decls)


def read_names(text: str, path: str, diags=(), model=None, decls=None) -> Analysis:
    """An analysis with the declarations and bound names of ``text`` (none for a text larger
    than a rule file may be: `check` reads nothing of it either, RL129)."""
    if len(text) > MAX_FILE_BYTES // 4 and len(text.encode("utf-8")) > MAX_FILE_BYTES:
        return Analysis(path, text, list(diags), None, None, [], scan.Binders(), [])
    symbols = scan.declarations(text, path)
    return Analysis(path, text, list(diags), model, decls, symbols, scan.binders(text, symbols),
                    scan.lines_of(text))


def compile_diagnostics(a: Analysis) -> list:
    """The diagnostics that compiling the game for each allowed number of players finds (as
    `check` adds them), for a file without errors; [] otherwise."""
    if a.model is None or any(d.is_error for d in a.diagnostics):
        return []
    try:
        game = Game(a.model, a.diagnostics, a.decls, a.path, {})
        return compiler_diagnostics(game, a.diagnostics)
    except RecursionError:
        return []
    except Exception as e:
        return [_internal(e, a.path)]


# ---- the other files of a game ----------------------------------------------------------------

@attrs.frozen
class Layer:
    """A file of the game: its path, text and declarations."""
    path: str
    text: str
    symbols: tuple


def extends_of(symbols: list, lines: list) -> Optional[tuple]:
    """(name, line, first column, last column) of the file's `extends "NAME"`, or None."""
    for s in symbols:
        if s.kind == "extends":
            line = lines[s.line]
            a = line.find('"')
            b = line.find('"', a + 1)
            if a >= 0 and b > a:
                return line[a + 1:b], s.line, a, b + 1
    return None


def base_file(path: str, text: str, include=(), symbols=None) -> Optional[tuple]:
    """(path, text) of the file a rule file `extends`, read as `extends` reads it, or None."""
    symbols = scan.declarations(text, path) if symbols is None else symbols
    ext = extends_of(symbols, scan.lines_of(text))
    if ext is None:
        return None
    roots = include_roots(path, include)
    return find_named_file(ext[0], [os.path.dirname(path)] + roots[1:], roots, None, [])


def bases(path: str, text: str, include=(), open_text=None) -> list:
    """The files a rule file extends, nearest first, as :class:`Layer`\\ s (the text of a file open
    in the editor from ``open_text(path)``, else from disk)."""
    out: list = []
    seen = {os.path.realpath(path)}
    while len(out) < MAX_EXTENDS_DEPTH:
        found = base_file(path, text, include)
        if found is None:
            break
        path, text = found
        real = os.path.realpath(path)
        if real in seen:
            break
        seen.add(real)
        if open_text is not None:
            text = open_text(path) or text
        out.append(Layer(path, text, tuple(scan.declarations(text, path))))
    return out


def variants(path: str, include=(), open_text=None) -> list:
    """The files of ``path``'s folder that extend it, directly or through one another, as
    :class:`Layer`\\ s (each read as the command line reads a rule file)."""
    folder = os.path.dirname(os.path.abspath(path))
    target = os.path.realpath(path)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(RULE_SUFFIX))
    except OSError:
        return []
    texts = {}
    for n in names:
        p = os.path.join(folder, n)
        if os.path.realpath(p) == target:
            continue
        t = open_text(p) if open_text is not None else None
        if t is None:
            t = read_named_main(p, [])
        if t is not None:
            texts[p] = t
    out = []
    for p, t in texts.items():
        chain = bases(p, t, include, open_text)
        if any(os.path.realpath(layer.path) == target for layer in chain):
            out.append(Layer(p, t, tuple(scan.declarations(t, p))))
    return out


# ---- the prelude (the standard deck) ----------------------------------------------------------

@functools.lru_cache(maxsize=1)
def prelude_layers() -> tuple:
    """The prelude's files (the standard deck) as layers, for the names every file may use."""
    out = []
    folder = resources.files("rulelang").joinpath("prelude")
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(RULE_SUFFIX):
            path = str(entry)
            text = entry.read_text("utf-8")
            out.append(Layer(path, text, tuple(scan.declarations(text, path))))
    return tuple(out)
