"""Where a name is declared and used: go to definition, find references, rename.

A name used in a rule file means the innermost name a rule binds there (:func:`scan.binder_at`),
else a declaration of the file, of a file it extends (nearest first) or of the prelude (the
standard deck).  A name declared in a base is seen by every variant that extends it, so its
uses are looked for in the file that first declares it and in the variants of that file in its
folder (:func:`rulelang.lsp.analysis.variants`).  The words of an alternative's label (`play` in
`play card c from hand:`) name nothing; where a name is both an attribute and a value of an
option (`value of c` and `scoring is value`), a use followed by `of` (or after `total`) is the
attribute.  Nothing here needs the file to parse.
"""
from __future__ import annotations

import functools
import os
import re
from typing import Optional

import attrs

from rulelang.lsp import scan
from rulelang.lsp.analysis import Analysis, Layer, bases, extends_of, prelude_layers, variants
from rulelang.syntax.parser import _lark
from rulelang.syntax.vocabulary import KEYWORDS

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@attrs.frozen
class Place:
    """A name written in a file: 0-based line, first and last column (exclusive)."""
    path: str
    line: int
    col: int
    end: int


@attrs.define
class Target:
    """What the name under the cursor means: a bound name (``binder``), a declaration
    (``symbol``, in the file ``layer``) or the base file of `extends` (``path``)."""
    name: str
    place: Place                      # the word under the cursor
    binder: Optional[scan.Binder] = None
    symbol: Optional[scan.Symbol] = None
    layer: Optional[Layer] = None
    path: Optional[str] = None        # `extends "..."`: the base file


def _layer_of(a: Analysis) -> Layer:
    return Layer(os.path.abspath(a.path), a.text, tuple(a.symbols))


def game_layers(a: Analysis, open_text=None, include=()) -> list:
    """The file itself, the files it extends (nearest first) and the prelude."""
    return [_layer_of(a)] + bases(os.path.abspath(a.path), a.text, include, open_text) \
        + list(prelude_layers())


def _family_split(name: str, symbols) -> Optional[scan.Symbol]:
    """The family a numbered zone's name belongs to (`column_3` of `zone column 1 to 7`)."""
    m = re.match(r"^(.+)_([0-9]+)$", name)
    if not m:
        return None
    for s in symbols:
        if s.kind == "zone family" and s.name == m.group(1):
            return s
    return None


def declaration(name: str, layers: list, kind: Optional[str] = None) -> Optional[tuple]:
    """(symbol, layer) of the declaration ``name`` means, nearest file first, or None."""
    for layer in layers:
        found = None
        for s in scan.flat(layer.symbols):
            if s.name == name and s.named and (kind is None or s.kind == kind):
                found = s
                break
        if found is None and kind is None:
            found = _family_split(name, layer.symbols)
        if found is not None:
            return found, layer
    return None


def _kinds_of(name: str, layers: list) -> set:
    return {s.kind for layer in layers for s in scan.flat(layer.symbols) if s.name == name and s.named}


def target_at(a: Analysis, line: int, col: int, open_text=None, include=(),
              layers: Optional[list] = None) -> Optional[Target]:
    """What the word at (line, col) of the analysed file means, or None."""
    tok = scan.word_at(a.lines, line, col)
    if tok is None:
        return None
    place = Place(os.path.abspath(a.path), tok.line, tok.col, tok.end)
    if tok.kind == "string":
        ext = extends_of(a.symbols, a.lines)
        if ext is not None and ext[1] == line:
            layers = bases(os.path.abspath(a.path), a.text, include, open_text)
            if layers:
                return Target(ext[0], place, path=layers[0].path)
        return None
    if tok.kind != "word":
        return None
    if tok.text in KEYWORDS and not (_declared_keyword(tok.text, a) and _named_use(a.text, a.lines, tok)):
        return None
    if (tok.line, tok.col) in a.labels:
        return None
    b = scan.binder_at(a.binders, tok.text, tok.line, tok.col)
    if b is not None:
        return Target(tok.text, place, binder=b)
    layers = game_layers(a, open_text, include) if layers is None else layers
    kind = _use_kind(tok.text, a.lines, tok, layers)
    found = declaration(tok.text, layers, kind)
    if found is None:
        return None
    return Target(tok.text, place, symbol=found[0], layer=found[1])


def _declared_keyword(word: str, a: Analysis) -> bool:
    """A word of the language used as a name the file declares (an option's value `cards`)."""
    return any(s.name == word and s.named for s in scan.flat(a.symbols))


def _use_kind(name: str, lines: list, tok: scan.Token, layers: list) -> Optional[str]:
    """For a name that is both an attribute and an option's value: which one this use is."""
    kinds = _kinds_of(name, layers)
    if not {"attribute", "value"} <= kinds:
        return None
    return "attribute" if _attribute_use(lines, tok) else "value"


def _attribute_use(lines: list, tok: scan.Token, toks: Optional[list] = None,
                   i: Optional[int] = None) -> bool:
    """Whether ``tok`` is an attribute's name (``toks``: the tokens of its line, ``i``: its
    index there, when the caller has them: reading the line once for all its words)."""
    if toks is None or i is None:
        toks = scan.tokens_of_line(tok.line, lines[tok.line])
        i = next((k for k, t in enumerate(toks) if t.col == tok.col), None)
    if i is None:
        return False
    after = toks[i + 1].text if i + 1 < len(toks) else ""
    before = toks[i - 1].text if i > 0 else ""
    return after == "of" or before in ("total", "attribute")


@functools.lru_cache(maxsize=16)
def _names_lexed(text: str) -> tuple:
    """(the (line, column) of every word the parser reads as a name, the last line it read):
    the file fed to the parser up to its first mistake."""
    names: set = set()
    last = -1
    parser = _lark().parse_interactive(text if text.endswith("\n") else text + "\n")
    try:
        for tok in parser.iter_parse():
            if tok.type == "NAME":
                names.add((tok.line - 1, tok.column - 1))
            if tok.line is not None:
                last = tok.line - 1
    except Exception:
        last -= 1                    # the line of the mistake is not known to be read right
    else:
        last = 1 << 30
    return frozenset(names), last


def _named_use(text: str, lines: list, tok: scan.Token, before: Optional[str] = None) -> bool:
    """For a name that is also a word of the language (a variable `winner`, an option's value
    `cards`): whether this word is the name.  Where the file parses the parser says it; past
    its first mistake, a word on an `option` line or after `is`, `not`, `to`, `=` is.
    ``before``: the word before it on its line ("" for none), when the caller has it."""
    names, last = _names_lexed(text)
    if tok.line < last:
        return (tok.line, tok.col) in names
    line = lines[tok.line]
    if re.match(r"^(replace\s+)?option\b", line):
        return True
    if before is None:
        words = scan.tokens_of_line(tok.line, line[:tok.col])
        before = words[-1].text if words else ""
    k = tok.col
    while k > 0 and line[k - 1] in " \t":      # (not line[:col].rstrip(): once for each use)
        k -= 1
    return before in ("is", "not", "to") or (k > 0 and line[k - 1] == "=")


# ---- definition ------------------------------------------------------------------------------

def definition(t: Target) -> Optional[Place]:
    if t.path is not None:
        return Place(t.path, 0, 0, 0)
    if t.binder is not None:
        b = t.binder
        return Place(t.place.path, b.line, b.col, b.col + len(b.name))
    if t.symbol is not None and t.layer is not None:
        s = t.symbol
        return Place(t.layer.path, s.line, s.col, s.col + len(s.name))
    return None


# ---- references -------------------------------------------------------------------------------

def uses_in(layer: Layer, name: str, kind: str, family: bool = False, both: bool = False,
            a: Optional[Analysis] = None) -> list:
    """Every place the file ``layer`` writes the declared ``name`` (of ``kind``) meaning it:
    not where a rule binds a name of its own, not as a label, not as the other of an attribute
    and an option's value of the same name (``both``: the name is both).  ``family``: also
    `NAME_k` for a family of zones; ``a``: the analysis of ``layer``'s text, if there is one."""
    if a is not None and a.text == layer.text:
        lines, binds, labels = a.lines, a.binders, a.labels
    else:
        lines = scan.lines_of(layer.text)
        binds = scan.binders(layer.text, list(layer.symbols))
        labels = scan.labels(lines)
    out = []
    for i, line in enumerate(lines):
        if name not in line:
            continue
        toks = scan.tokens_of_line(i, line)
        for k, tok in enumerate(toks):
            if tok.kind != "word" or tok.text != name and not (family and tok.text.startswith(name + "_")
                                                                 and tok.text[len(name) + 1:].isdigit()):
                continue
            if (i, tok.col) in labels or scan.binder_at(binds, tok.text, i, tok.col) is not None:
                continue
            if both and _attribute_use(lines, tok, toks, k) != (kind == "attribute"):
                continue
            if name in KEYWORDS and not _named_use(layer.text, lines, tok,
                                                   toks[k - 1].text if k else ""):
                continue
            out.append(Place(layer.path, i, tok.col, tok.col + len(name)))
    return out


def local_uses(a: Analysis, b: scan.Binder) -> list:
    """Every use of a bound name: the words in its scope that mean it."""
    out = []
    path = os.path.abspath(a.path)
    for i in range(b.first, b.last + 1):
        for tok in scan.tokens_of_line(i, a.lines[i]):
            if tok.kind == "word" and tok.text == b.name \
                    and scan.binder_at(a.binders, b.name, i, tok.col) is b:
                out.append(Place(path, i, tok.col, tok.end))
    return out


def home_files(t: Target, a: Analysis, open_text=None, include=()) -> list:
    """The files where a declared name may be used: the file that first declares it (the base
    that declares it, or this file) and its variants in its folder."""
    assert t.symbol is not None and t.layer is not None
    if t.layer.path in {layer.path for layer in prelude_layers()}:
        return []                    # the standard deck's names are used everywhere
    chain = [_layer_of(a)] + bases(os.path.abspath(a.path), a.text, include, open_text)
    home = t.layer
    for layer in chain:              # the deepest base that declares it
        if any(s.name == t.symbol.name and s.kind == t.symbol.kind
               for s in scan.flat(layer.symbols)):
            home = layer
    return [home] + [v for v in variants(home.path, include, open_text) if v.path != home.path]


def references(t: Target, a: Analysis, open_text=None, include=(), declaration_too=True) -> list:
    if t.binder is not None:
        out = local_uses(a, t.binder)
        if not declaration_too:
            out = [p for p in out if (p.line, p.col) != (t.binder.line, t.binder.col)]
        return out
    if t.symbol is None:
        return []
    files = home_files(t, a, open_text, include) or [t.layer]
    family = t.symbol.kind == "zone family"
    both = {"attribute", "value"} <= _kinds_of(t.symbol.name, files + game_layers(a, open_text, include))
    out = []
    for layer in files:
        out += uses_in(layer, t.symbol.name, t.symbol.kind, family=family, both=both, a=a)
    if not declaration_too:
        out = [p for p in out if not any(p.path == layer.path and p.line == s.line and p.col == s.col
                                         for layer in files for s in scan.flat(layer.symbols)
                                         if s.name == t.symbol.name)]
    return out


# ---- rename -------------------------------------------------------------------------------------

class RenameRefused(Exception):
    """A rename that cannot be done, and why (in words)."""


def rename(t: Target, a: Analysis, new_name: str, open_text=None, include=()) -> dict:
    """{path: [Place, ...]} of every place to write ``new_name`` in, or :class:`RenameRefused`."""
    if not NAME_RE.match(new_name):
        raise RenameRefused(f"`{new_name}` is not a name: names are letters, digits and `_`, "
                            "beginning with a letter or `_`")
    if new_name in KEYWORDS:
        raise RenameRefused(f"`{new_name}` is a word of the language; choose another name")
    if t.symbol is not None and t.layer is not None \
            and t.layer.path in {layer.path for layer in prelude_layers()}:
        raise RenameRefused(f"`{t.name}` is declared by the standard deck (the prelude), which "
                            "every rule file shares")
    if t.path is not None:
        raise RenameRefused("a file named by `extends` is renamed in the file system")
    if t.symbol is not None:
        taken = declaration(new_name, game_layers(a, open_text, include))
        if taken is not None and new_name != t.name:
            raise RenameRefused(f"`{new_name}` is already the name of {taken[0].kind} `{new_name}`")
    elif t.binder is not None and new_name != t.name and (
            declaration(new_name, game_layers(a, open_text, include)) is not None
            or any(b.name == new_name and b.first <= t.binder.last and t.binder.first <= b.last
                   for b in a.binders)):
        raise RenameRefused(f"`{new_name}` is already a name here")
    places = references(t, a, open_text, include)
    if t.symbol is not None and t.symbol.kind == "zone family":
        out: dict = {}
        for p in places:
            out.setdefault(p.path, []).append(Place(p.path, p.line, p.col, p.col + len(t.symbol.name)))
        return out
    out = {}
    for p in places:
        out.setdefault(p.path, []).append(p)
    return out
