"""Load a rule file from disk: read it and the files it ``extends``, parse, merge, check.

:func:`load` runs the front of the pipeline and returns a :class:`Game`, or raises
:class:`~rulelang.diagnostics.RuleFileError` with every diagnostic.  A :class:`Game` compiles
itself for a number of players on demand (:meth:`Game.compiled`).
"""
from __future__ import annotations

import functools
import os
from importlib import resources
from typing import Optional

from . import ast as A
from .checker import Model, check, merge
from .compiler import CompiledGame
from .diagnostics import ERROR, Diagnostic, RuleFileError
from .parser import parse

MAX_EXTENDS_DEPTH = 16


def prelude() -> list[A.Program]:
    """The parsed prelude files (parsed once per process: the nodes are immutable)."""
    return list(_prelude())


@functools.lru_cache(maxsize=1)
def _prelude() -> tuple:
    out = []
    for entry in sorted(resources.files("rulelang").joinpath("prelude").iterdir(),
                        key=lambda p: p.name):
        if entry.name.endswith(".cardrules"):
            out.append(parse(entry.read_text("utf-8"), "<prelude>"))
    return tuple(out)


def read_layers(path: str, diags: list, text: Optional[str] = None) -> list[A.Program]:
    """The file and every file it extends, base first.  Cycles and missing files are
    diagnostics."""
    layers: list = []
    seen: list = []
    current, src_text, via = path, text, None
    first_via = None        # the `extends` line of the file being checked
    while True:
        real = os.path.realpath(current)
        if real in seen:
            diags.append(Diagnostic("RL124", ERROR, "these files extend each other in a circle: "
                                    + " -> ".join(os.path.basename(s) for s in seen + [real]),
                                    first_via or via, "one of them must be the base and extend nothing"))
            break
        seen.append(real)
        if src_text is None:
            try:
                with open(current, encoding="utf-8") as fh:
                    src_text = fh.read()
            except FileNotFoundError:
                diags.append(Diagnostic("RL125", ERROR, f"cannot find the file `{current}`", via,
                                        "paths in `extends` are relative to the file that says it"))
                break
            except (OSError, UnicodeDecodeError) as err:
                diags.append(Diagnostic("RL126", ERROR, f"cannot read `{current}`: {err}", via, None))
                break
        try:
            prog = parse(src_text, current)
        except RuleFileError as err:
            diags.extend(err.diagnostics)
            break
        layers.append(prog)
        ext = [d for d in prog.decls if isinstance(d, A.Extends)]
        if len(ext) > 1:
            diags.append(Diagnostic("RL127", ERROR, "a file can extend only one other file",
                                    ext[1].span, "keep one `extends` line"))
        if not ext:
            break
        if len(seen) > MAX_EXTENDS_DEPTH:
            diags.append(Diagnostic("RL124", ERROR, "too many files extend one another", ext[0].span,
                                    None))
            break
        via = ext[0].span
        if first_via is None:
            first_via = via
        current = os.path.join(os.path.dirname(current), ext[0].path)
        src_text = None
    layers.reverse()
    return layers


class Game:
    """A checked rule file with its option values, ready to compile for any allowed number of
    players."""

    def __init__(self, model: Model, diagnostics: list, decls, file, overrides):
        self.model = model
        self.diagnostics = diagnostics
        self.decls = decls
        self.file = file
        self.overrides = overrides
        self._compiled: dict = {}

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def players(self) -> tuple:
        return self.model.players

    def options(self) -> dict:
        return {k: v.value for k, v in self.model.options.items()}

    def compiled(self, n_players: int) -> CompiledGame:
        lo, hi = self.model.players
        if not lo <= n_players <= hi:
            raise RuleFileError([Diagnostic(
                "RL132", ERROR, f"this game is for {lo} to {hi} players, not {n_players}", None,
                f"choose a number of players from {lo} to {hi}")])
        cg = self._compiled.get(n_players)
        if cg is None:
            cg = CompiledGame(self.model, n_players)
            if cg.problems:
                raise RuleFileError([Diagnostic(code, ERROR, msg, span)
                                     for code, msg, span in cg.problems])
            self._compiled[n_players] = cg
        return cg

    def new_game(self, n_players: Optional[int] = None, seed: int = 0, log: bool = False,
                 max_steps: Optional[int] = None):
        n = n_players if n_players is not None else self.model.players[0]
        return self.compiled(n).new_game(seed=seed, log=log, max_steps=max_steps)


def check_file(path: str, overrides: Optional[dict] = None, text: Optional[str] = None,
               players: Optional[int] = None):
    """Every diagnostic of a rule file, and the model (None when it could not be built)."""
    diags: list = []
    layers = read_layers(path, diags, text)
    if not layers or any(d.is_error for d in diags):
        return diags, None, None
    decls = merge(layers, prelude(), diags)
    more, model = check(decls, path, overrides, players)
    diags.extend(more)
    if model is not None:
        model.digest = game_digest(layers)
    return diags, model, decls


def game_digest(layers: list) -> str:
    """The identity of a rule file's text: a SHA-256 of the prelude, the files it extends and
    the file itself (their text, not their paths), each layer's length before it.  A save
    (``State.to_json``) carries it, so that it resumes only with the same rules."""
    import hashlib
    h = hashlib.sha256()
    for prog in list(_prelude()) + list(layers):
        data = prog.source.encode("utf-8")
        h.update(b"%d:" % len(data))
        h.update(data)
    return h.hexdigest()


def load(path: str, overrides: Optional[dict] = None, text: Optional[str] = None) -> Game:
    """Load and check a rule file.  Raises RuleFileError when it has errors."""
    diags, model, decls = check_file(path, overrides, text)
    if model is None or any(d.is_error for d in diags):
        raise RuleFileError([d for d in diags if d.is_error] or diags)
    return Game(model, diags, decls, path, overrides or {})
