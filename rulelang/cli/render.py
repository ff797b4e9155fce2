"""Diagnostics as text for the terminal (games are drawn by :mod:`rulelang.cli.table` and
:mod:`rulelang.cli.narration`).

Everything here returns values (strings or ``rich`` renderables); only the commands
(:mod:`rulelang.cli.commands` and its command modules) print.  A diagnostic looks like a good
compiler's::

    sevens.cardrules:7:13: error[RL101]: unknown name `stok`
      7 |     shuffle stok
        |             ^~~~
      = hint: did you mean `stock`?

``diagnostic_text(d).plain`` is that text without colour.  The source line is highlighted with the
``.cardrules`` Pygments lexer when :mod:`rulelang.cli.highlight` is available.
"""
from __future__ import annotations

from typing import Optional

from rich.text import Text

from rulelang.syntax.ast import Span
from rulelang.syntax.diagnostics import ERROR, Diagnostic
from rulelang.termsafe import safe

INTERNAL_ERROR = "RL999"

# ---------------------------------------------------------------------------------------------
# Diagnostics
# ---------------------------------------------------------------------------------------------

_sources: dict = {}


def source_lines(path: str) -> Optional[list[str]]:
    """The lines of a rule file (cached), or None if it cannot be read.  It is read as the loader
    reads rule files (a regular file within the size limit, UTF-8, its BOM dropped), and its lines
    are numbered as the parser numbers them."""
    if path not in _sources:
        from rulelang.compile.loader import read_rule_text
        from rulelang.syntax.diagnostics import source_lines_of
        text = read_rule_text(path)
        _sources[path] = source_lines_of(text) if text is not None else None
    return _sources[path]


def forget_sources() -> None:
    _sources.clear()


def _highlighted(line: str, color: bool) -> Text:
    if not color:
        return Text(line)
    try:
        from rich.syntax import Syntax

        from rulelang.cli.highlight import CardrulesLexer
        text = Syntax(line, CardrulesLexer(), theme="ansi_dark",
                      background_color="default").highlight(line)
        text.rstrip()
        return text
    except Exception:   # no lexer yet, or it failed: the line without colours is still right
        return Text(line)


def location(d: Diagnostic, default_file: Optional[str] = None) -> str:
    sp = d.span
    if sp is None or sp.line <= 0:
        return (sp.file if sp is not None and sp.file != "<builtin>" else None) or default_file or "rulelang"
    return f"{sp.file}:{sp.line}:{sp.column}"


def _shown_line(line: str, start: int, width: int):
    """The source line as shown (every control character escaped, see :mod:`rulelang.termsafe`),
    with the caret's column and width in that shown line."""
    return safe(line), len(safe(line[:start])), max(1, len(safe(line[start:start + width])))


def diagnostic_text(d: Diagnostic, default_file: Optional[str] = None, color: bool = False,
                    lines: Optional[list[str]] = None) -> Text:
    """A diagnostic as a compiler prints it: location, severity, code and message; the source line
    with a caret under the span; the hint.  ``lines`` overrides reading the span's file."""
    sev_style = "bold red" if d.severity == ERROR else "bold yellow"
    out = Text()
    out.append(safe(location(d, default_file)) + ": ", style="bold")
    out.append(f"{d.severity}[{d.code}]", style=sev_style)
    out.append(": ")
    out.append(safe(d.message), style="bold")
    sp = d.span
    if sp is not None and sp.line > 0:
        src = lines if lines is not None else source_lines(sp.file)
        if src is not None and sp.line <= len(src):
            line = src[sp.line - 1]
            num = str(sp.line)
            gutter = " " * len(num)
            start = max(sp.column - 1, 0)
            if sp.end_line == sp.line and sp.end_column > sp.column:
                width = sp.end_column - sp.column
            elif sp.end_line > sp.line:
                width = max(len(line.rstrip()) - start, 1)
            else:
                width = 1
            width = max(1, min(width, max(len(line) - start, 1)))
            shown, start, width = _shown_line(line, start, width)
            out.append("\n  " + num + " | ", style="blue")
            out.append_text(_highlighted(shown, color))
            out.append("\n  " + gutter + " | ", style="blue")
            out.append(" " * start)
            out.append("^" + "~" * (width - 1), style=sev_style)
    if d.hint:
        out.append("\n  = ", style="blue")
        out.append("hint", style="bold")
        out.append(": " + safe(d.hint))
    return out


def diagnostic_plain(d: Diagnostic, default_file: Optional[str] = None,
                     lines: Optional[list[str]] = None) -> str:
    return diagnostic_text(d, default_file, color=False, lines=lines).plain


def summary_text(n_errors: int, n_warnings: int, n_files: int) -> Text:
    def plural(n, word):
        return f"{n} {word}{'' if n == 1 else 's'}"
    t = Text()
    files = plural(n_files, "file")
    if not n_errors and not n_warnings:
        t.append("ok", style="bold green")
        t.append(f": no problems in {files}")
        return t
    t.append(plural(n_errors, "error"), style="bold red" if n_errors else "")
    t.append(", ")
    t.append(plural(n_warnings, "warning"), style="bold yellow" if n_warnings else "")
    t.append(f" in {files}")
    return t


def problem_diagnostic(problem: dict, default_file: Optional[str] = None) -> Diagnostic:
    """The runtime's ``state.problem`` (code, message, span as [file, line, column]) as a
    diagnostic."""
    sp = problem.get("span")
    span = None
    if sp:
        file, line, col = sp[0], sp[1], sp[2]
        span = Span(file, line, col, line, col + 1)
    elif default_file:
        span = Span(default_file, 0, 0, 0, 0)
    hint = problem.get("hint")
    if hint is None and problem.get("code") == "RL901":
        hint = "give the game a way to end, or raise the budget with --max-steps"
    return Diagnostic(problem.get("code", "RL900"), ERROR, problem.get("message", "the game failed"),
                      span, hint)


def internal_error(exc: BaseException, context: str = "") -> Diagnostic:
    where = f" while {context}" if context else ""
    return Diagnostic(INTERNAL_ERROR, ERROR,
                      f"internal error{where}: {type(exc).__name__}: {exc}", None,
                      "this is a bug in rulelang, not in your rule file; please report it with the "
                      "file and the command that caused it")
