"""Diagnostics: what is wrong with a rule file, where, and how to fix it.

Every stage reports problems as :class:`Diagnostic` values collected in a list; only the CLI
prints them.  Each has a stable code (``RL104``), explained in ``docs/errors.md`` and by
``rulelang explain CODE``.
"""
from __future__ import annotations

import difflib
from typing import Iterable, Optional

import attrs

from rulelang.syntax.ast import Span

ERROR = "error"
WARNING = "warning"


@attrs.frozen
class Diagnostic:
    code: str
    severity: str
    message: str
    span: Optional[Span]
    hint: Optional[str] = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_json(self) -> dict:
        d = {"code": self.code, "severity": self.severity, "message": self.message,
             "hint": self.hint}
        if self.span is not None:
            d.update(file=self.span.file, line=self.span.line, column=self.span.column,
                     end_line=self.span.end_line, end_column=self.span.end_column)
        return d


class RuleFileError(Exception):
    """Raised by a stage that cannot go on; carries every diagnostic found so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(f"{d.span}: {d.message}" for d in diagnostics))
        self.diagnostics = diagnostics


def did_you_mean(name: str, candidates: Iterable[str]) -> Optional[str]:
    """A hint naming the closest known name, if one is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def source_lines_of(text: str) -> list:
    """The lines of a rule file as the parser numbers them: split at ``\n`` only (a ``\r``
    before it dropped), so that a form feed, ``\x1c`` or U+2028 in a comment or a quoted text
    does not shift the line numbers as ``str.splitlines`` would."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
