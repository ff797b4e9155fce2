"""``rulelang explain CODE``: the entry of an error code in the error catalogue (errors.md, shipped
in the package), found by :func:`error_entries`, which reads the catalogue's Markdown.
"""
from __future__ import annotations

import os
import sys

from rulelang.cli.common import EXIT_ERRORS, EXIT_OK, Out, UsageError


# ---------------------------------------------------------------------------------------------
# rulelang explain
# ---------------------------------------------------------------------------------------------


def _errors_doc():
    """The text of the error catalogue (shipped in the package; docs/errors.md in a checkout)."""
    from importlib import resources
    candidates = []
    try:
        candidates.append(resources.files("rulelang").joinpath("errors.md"))
    except Exception:
        pass
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates.append(os.path.join(os.path.dirname(package), "docs", "errors.md"))
    for c in candidates:
        try:
            if isinstance(c, str):
                with open(c, encoding="utf-8") as fh:
                    return fh.read()
            if c.is_file():
                return c.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return None


def error_entries(text: str) -> dict:
    """``{"RL104": "## RL104: ...\\n..."}``: one entry per ``## RLnnn`` heading."""
    import re
    entries = {}
    current = None
    lines: list = []
    fenced = False                      # inside a ``` block a line starting with # is code
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or line.startswith("```"):
            if current is not None:
                lines.append(line)
            continue
        m = re.match(r"^#{2,3}\s+`?(RL\d+)`?\b", line)
        if m or (line.startswith("## ") and current is not None):
            if current is not None:
                entries[current] = "\n".join(lines).rstrip() + "\n"
            current = m.group(1).upper() if m else None
            lines = [line] if m else []
        elif line.startswith("# ") and current is not None:
            entries[current] = "\n".join(lines).rstrip() + "\n"
            current, lines = None, []
        elif current is not None:
            lines.append(line)
    if current is not None:
        entries[current] = "\n".join(lines).rstrip() + "\n"
    return entries


def cmd_explain(args) -> int:
    from rulelang.syntax.diagnostics import did_you_mean
    out, err = Out(sys.stdout), Out(sys.stderr)
    code = args.code.strip().upper()
    if code.isdigit():
        code = "RL" + code
    text = _errors_doc()
    if text is None:
        err.text("error: the error catalogue (errors.md) is not installed with this rulelang")
        return EXIT_ERRORS
    entries = error_entries(text)
    entry = entries.get(code)
    if entry is None:
        import re
        hint = did_you_mean(code, entries)
        if re.fullmatch(r"RL\d{3}", code):
            message = f"there is no error code `{code}`"
        else:
            message = f"`{args.code}` is not an error code"
        raise UsageError(message, (hint + " " if hint else "")
                         + "error codes look like RL101; they are: " + ", ".join(sorted(entries)))
    from rich.markdown import Markdown
    page = Markdown(entry, code_theme="ansi_dark")
    if out.color:
        out.show(page)
    else:
        out.write(plain_markdown(page))
    return EXIT_OK


def plain_markdown(page, width: int = 80) -> str:
    """A Markdown page rendered as plain text (no terminal, or NO_COLOR): headings, paragraphs
    wrapped to ``width``, code blocks indented, without the Markdown marks (no ``` fences, no
    ``##``); the lines without the spaces rich pads them with, one blank line between parts."""
    import io

    from rich.console import Console
    buf = io.StringIO()
    Console(file=buf, color_system=None, force_terminal=False, width=width, highlight=False,
            emoji=False, markup=False).print(page)
    lines: list = []
    for line in buf.getvalue().splitlines():
        line = line.rstrip()
        if line or (lines and lines[-1]):         # one blank line between parts, none at the ends
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"
