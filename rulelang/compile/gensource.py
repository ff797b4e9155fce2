"""The source of generated code: what may be in it, and compiling it once.

A rule file is untrusted, so nothing of its text ever reaches the generated source (see
:mod:`rulelang.compile.codegen`): every identifier is checked against a fixed alphabet before
compiling (:func:`_safe`), and a source is compiled once per process (:func:`_code`).  A construct
the generators do not know, or a source Python refuses, raises :class:`Unsupported`: a bug of
rulelang (the checker's limits keep every file that checks within what Python compiles), never a
fallback.  (Nothing here reads generated text to decide what to generate: constant folding works
on the tree, :mod:`rulelang.compile.fold`.)
"""
from __future__ import annotations

import functools
import re


class Unsupported(Exception):
    """A construct the generator cannot write: for a rule or a value, never expected (an internal
    error, raised out of the compiler).  The one optional function, the quick test of every ending
    at once (``ExprGen.endings_function``), raises it to say it does not apply (no endings, or a
    condition that reads locals or chance): then the endings are checked one by one."""


class NeedsFrame(Unsupported):
    """Raised by ``ExprGen.frame`` where a statement needs the rule's frame (``fr``) while the
    generator writes code whose slots are Python locals (``ExprGen.frameless``: the structured
    turn of a playout, PlayoutGen.structured_turn): it is written on the frame instead."""


_ALLOWED_NAMES = re.compile(r"^(g|fr|out|p|pc|_[a-z]+\d*|while|continue|break|raise|tuple|steps|max_steps|stack|decision|awaiting|turns|decisions|range|elif|pass|insert|pop|remove|shuffle|shuffle_stepwise|skip|next_turn|and|or|not|if|else|for|in|len|sum|any|all"
                            r"|return|def|int|cur|dir|zones|vars|work|rng|randrange|randint|randbelow|get|append"
                            r"|extend|None|True|False|log|is|del|try|except|finally|flush)$")


def _safe(src: str) -> str:
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", src):
        if not _ALLOWED_NAMES.match(word):
            raise AssertionError(f"generated code would contain the name {word!r}")
    if '"' in src or "'" in src or "\\" in src:
        raise AssertionError("generated code would contain a string")
    return src


@functools.lru_cache(maxsize=4096)
def _code(src: str):
    """The code object of a generated source, compiled once per process: the same source comes
    again for each number of players (most of a game's functions do not depend on it) and when
    a rule is generated twice (first to learn whether it can be).  The names it uses are bound
    at each exec, in that game's own namespace."""
    return _compile_source(src)


def _compile_source(src: str):
    """Compile generated source.  Python refuses some sources that the language allows (more
    than 20 loops inside one another, 100 levels of indentation, 200 nested parentheses, an
    expression too deep for its compiler): Unsupported.  The generator writes deep statements as
    blocks of the function, and the checker's limits (RL201, RL202) keep expressions within
    Python's, so no file that checks reaches it."""
    try:
        return compile(_safe(src), "<rulelang>", "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError) as err:
        raise Unsupported(f"Python cannot compile it: {err}") from None
