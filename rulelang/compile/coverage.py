"""Rule coverage: how often each rule, each alternative of each ``choose``, each branch of each
``if`` and each ending ran (``rulelang stats``).

A :class:`Coverage` lists the counted places of a checked model (its *points*) and is handed to
the compiler as an option (``CompiledGame(model, n, coverage=cov)``).  In such a game the
generated rules (:meth:`rulelang.compile.rulegen.RuleGen.count`) add one to a block's counter
where each counted block starts.  Games compiled without the option pay nothing.

Counting is per compiled game: :attr:`Coverage.counts` is the live list of counters.  Agents
that play what-ifs on copies of the game (``mc``) run the same compiled rules; :meth:`paused`
sends what they run to a scratch list so that only the real game is counted.
"""
from __future__ import annotations

from contextlib import contextmanager

from rulelang.syntax import ast as A


class Point:
    """One counted place: ``kind`` is rule, ending, alternative, if, else if or else."""

    __slots__ = ("kind", "rule", "what", "file", "line")

    def __init__(self, kind, rule, what, span):
        self.kind, self.rule, self.what = kind, rule, what
        self.file = getattr(span, "file", None) or "?"
        self.line = getattr(span, "line", 0)

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def _walk(body, rule, points, where):
    """The counted places inside the statements ``body`` of rule ``rule``."""
    for st in body:
        if isinstance(st, A.If):
            for k, (cond, branch) in enumerate(st.branches):
                span = getattr(cond, "span", None) or st.span
                kind = "if" if k == 0 else "else if"
                _add(points, where, branch, Point(kind, rule, f"{kind} (line {span.line})", span))
                _walk(branch, rule, points, where)
            if st.otherwise:
                first = st.otherwise[0]
                span = getattr(first, "span", None) or st.span
                line = _else_line(span.file, st.span.line, span.line)
                if line is not None:
                    span = A.Span(span.file, line, 1, line, 1)
                _add(points, where, st.otherwise,
                     Point("else", rule, f"else of the if at line {st.span.line}", span))
                _walk(st.otherwise, rule, points, where)
        elif isinstance(st, A.Choose):
            for alt in st.alternatives:
                _add(points, where, alt.body, Point("alternative", rule, f"choose `{alt.label}`",
                                                    alt.span))
                _walk(alt.body, rule, points, where)
        else:
            inner = getattr(st, "body", None)
            if isinstance(inner, (tuple, list)):
                _walk(inner, rule, points, where)


_LINES: dict = {}


def source_line(file, line) -> str:
    """Line ``line`` of ``file``, stripped ("" when it cannot be read)."""
    lines = _LINES.get(file)
    if lines is None:
        try:
            with open(file, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
        except (OSError, UnicodeDecodeError, TypeError):
            lines = []
        _LINES[file] = lines
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _else_line(file, if_line, first_line):
    """The line of the ``else:`` between an if's line and the first statement under it."""
    for k in range(first_line - 1, if_line, -1):
        if source_line(file, k).startswith("else"):
            return k
    return None


def _add(points, where, body, point):
    if id(body) in where:          # the same statements in two places: count the first
        return
    where[id(body)] = len(points)
    points.append(point)


class Coverage:
    """The counted places of one model, and their counters."""

    def __init__(self, model):
        self.points: list = []
        self._where: dict = {}
        for name, r in model.rules.items():
            span = r.decl.span
            if getattr(span, "file", None) == "<prelude>":
                continue
            what = name if name in ("setup", "turn") else f"rule {name}"
            _add(self.points, self._where, r.decl.body, Point("rule", name, what, span))
            _walk(r.decl.body, name, self.points, self._where)
        for k, (e, _ctx, _body_ctx) in enumerate(model.endings):
            rule = "game ends when"
            _add(self.points, self._where, e.body, Point("ending", rule, f"ending {k + 1}", e.span))
            _walk(e.body, rule, self.points, self._where)
        self.counts = [0] * len(self.points)

    def point(self, body):
        """The number of the counted block whose statements are ``body``, or None."""
        return self._where.get(id(body))

    def count(self, i) -> None:
        """Block ``i`` ran once more (called by the generated rules)."""
        self.counts[i] += 1

    def reset(self) -> list:
        """The counts so far; counting starts again from zero."""
        out, self.counts = self.counts, [0] * len(self.points)
        return out

    @contextmanager
    def paused(self):
        """Rules run inside this block are not counted (an agent's playouts)."""
        saved = self.counts
        self.counts = [0] * len(self.points)
        try:
            yield
        finally:
            self.counts = saved


def coverage_rows(points, taken, games) -> list[dict]:
    """One dict per point, never-run ones first, then in file order."""
    rows = []
    for i, p in enumerate(points):
        rows.append({"rule": p.rule, "kind": p.kind, "what": p.what, "file": p.file,
                     "line": p.line, "source": source_line(p.file, p.line),
                     "taken": taken[i], "games": games[i]})
    rows.sort(key=lambda r: (r["taken"] > 0, r["file"], r["line"]))
    return rows
