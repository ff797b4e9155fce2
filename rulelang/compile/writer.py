"""Writing generated source: lines, their indentation, and the rule-file span each comes from.

The generators write a rule's function as lines (:mod:`rulelang.compile.rulegen`); a line written
for a statement is a :class:`Line`, a ``str`` that also knows that statement's span
(:func:`mark`, :func:`respan` when a pass moves it to another indentation).  :class:`CodeWriter`
writes lines at their level (``writeline``, ``indent``): every part of the generator writes through
one (each block of a rule's function has its own, :meth:`CodeWriter.at` placing it in the block's
lines), and it puts the function together and gives its source and its line map: the span of
each generated line, or None.  The compiled function's namespace keeps the map
(:data:`LINE_MAP`), so that a problem raised while it runs names the rule-file line it comes from
(:func:`rule_span`), with nothing added to the generated code itself.
"""
from __future__ import annotations

import contextlib
from typing import Optional

LINE_MAP = "__rulelang_lines__"     # the namespace entry of a generated function's line map
FILENAME = "<rulelang>"             # the file name generated code is compiled under


class Line(str):
    """A line of generated code and the rule-file span of the statement it was written for."""
    span = None


def spanned(text: str, span) -> str:
    """``text`` as a line written for the statement at ``span``."""
    if span is None:
        return text
    line = Line(text)
    line.span = span
    return line


def span_of(line) -> Optional[object]:
    return getattr(line, "span", None)


def with_span(line, span):
    """``line``, written for the statement at ``span`` unless it already has a span of its own.
    A line of a special kind (a jump) gets the span as an attribute, keeping its kind."""
    if span is None or span_of(line) is not None:
        return line
    if type(line) is str:
        return spanned(line, span)
    line.span = span
    return line


def respan(new: str, old) -> str:
    """``new`` (``old`` moved to another indentation or rewritten) keeps ``old``'s span."""
    return with_span(new, span_of(old))


def mark(lines: list, start: int, span) -> None:
    """The lines from ``start`` on that have no span yet were written for the statement at
    ``span`` (the lines of the statements inside it were marked first, with their own)."""
    if span is not None:
        for i in range(start, len(lines)):
            lines[i] = with_span(lines[i], span)


class CodeWriter:
    """The lines of one generated function: ``writeline`` at the current indentation,
    ``indent`` for a block, ``extend`` for lines written elsewhere (their spans kept).
    :meth:`at` writes into a list of lines begun elsewhere, from a given indentation."""

    def __init__(self, step: str = "    ", lines=None, base: str = ""):
        self.lines: list = [] if lines is None else lines
        self.level = 0
        self.step = step
        self.base = base

    @classmethod
    def at(cls, lines: list, base: str) -> "CodeWriter":
        """A writer appending to ``lines`` (shared, not copied), its level 0 indented by
        ``base``: the statement writers write into a block of a rule's function this way."""
        return cls(lines=lines, base=base)

    def writeline(self, text: str, span=None) -> None:
        self.lines.append(spanned(self.prefix + text, span))

    @contextlib.contextmanager
    def indent(self):
        self.level += 1
        try:
            yield self
        finally:
            self.level -= 1

    @property
    def prefix(self) -> str:
        """The indentation of the current level (for code that writes lines itself)."""
        return self.base + self.step * self.level

    def extend(self, lines) -> None:
        self.lines.extend(lines)

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"

    def line_map(self) -> tuple:
        """The span of each line of :meth:`source` (line 1 first), None where unknown."""
        out = []
        for line in self.lines:
            out.extend([span_of(line)] * (line.count("\n") + 1))
        return tuple(out)


def rule_span(tb) -> Optional[object]:
    """The rule-file span of the innermost line of generated code in the traceback ``tb`` whose
    function has a line map and whose line has a span; None if there is none."""
    found = None
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename == FILENAME:
            spans = frame.f_globals.get(LINE_MAP)
            if spans and 0 < tb.tb_lineno <= len(spans) and spans[tb.tb_lineno - 1] is not None:
                found = spans[tb.tb_lineno - 1]
        tb = tb.tb_next
    return found
