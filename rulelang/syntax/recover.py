"""Parsing a rule file that has syntax errors: every error reported, and the parts that parse.

:func:`parse_partial` gives a :class:`Partial`: the declarations that parse (a
:class:`~rulelang.syntax.ast.Program`), one diagnostic per syntax error, and the lines that were
left out.  It recovers at the level of lines, as the language is written: after an error it
leaves out the statement or declaration the error is in (its line, the lines that continue it,
and the block indented under it), and parses again from the top-level declaration that held the
error, so each error's message is the one :mod:`rulelang.syntax.syntax_errors` gives for a file
with that error alone: never an error caused by an earlier one.  A statement left out of a block
that has no other is replaced by ``pass``, so the block and the statement that opens it still
parse (the condition of an ``if`` is still checked).

The work is bounded: each round leaves out at least one more line, a round parses from the
declaration that held the error to the next error, and after :data:`MAX_SYNTAX_ERRORS` errors the
rest of the file is left out with one last diagnostic (RL206).

The checker runs on the parts that parse; :func:`cascades` tells which of its diagnostics may be
caused by what was left out (a name declared or used only on a line that did not parse), so that
they are not reported.
"""
from __future__ import annotations

import bisect
import re
from typing import Optional

import attrs
from lark.exceptions import UnexpectedInput
from lark.indenter import DedentError

from rulelang.limits import MAX_SYNTAX_ERRORS, no_gc
from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic, RuleFileError

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class Partial:
    """What parses of a rule file.  ``program``: its declarations that parse (every one, for a
    file without syntax errors); ``diagnostics``: the syntax errors (and the other problems that
    :func:`rulelang.syntax.parser.parse` reports: tabs, limits), in the order of their lines;
    ``failed_lines``: the numbers (from 1) of the lines left out of ``program``."""
    program: A.Program
    diagnostics: tuple = ()
    failed_lines: frozenset = frozenset()

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def failed_words(self) -> frozenset:
        """Every name written on a line left out (a name declared or used there)."""
        lines = self.program.source.split("\n")
        words = set()
        for n in self.failed_lines:
            if 0 < n <= len(lines):
                words.update(_WORD.findall(without_comment(lines[n - 1])))
        return frozenset(words)


def without_comment(line: str) -> str:
    """A line of a rule file without its comment (a `#` inside quotes is text).  The rule-test
    reader (play/cardtest.py) reads its lines so too."""
    if "#" not in line:
        return line
    out, quoted = [], False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            break
        out.append(ch)
    return "".join(out)


def _indent(line: str) -> int:
    code = line.lstrip(" \t\f")
    ws = line[:len(line) - len(code)]
    return ws.count(" ") + 4 * ws.count("\t")


def _blank(line: str) -> bool:
    s = line.strip()
    return not s or s.startswith("#")


def parse_partial(text: str, file: str = "<string>") -> Partial:
    """Parse a rule file, going on after each syntax error: the declarations that parse and a
    diagnostic for every error (see the module's documentation).  Never raises for what the file
    says."""
    from rulelang.syntax.parser import _lark, _tab_indent, normal_text, program_of
    text = normal_text(text)
    tab = _tab_indent(file, text)
    try:
        with no_gc():
            tree = _lark().parse(text)
    except (UnexpectedInput, DedentError) as err:
        return _Recovery(text, file, tab).run(err)
    try:
        return Partial(program_of(tree, text, file, tab))
    except RuleFileError:
        # a tab in the indentation, a limit, RL010: every problem, and the declarations
        # without one
        return _Recovery(text, file, tab).run(None, tree)


class _Recovery:
    def __init__(self, text: str, file: str, tab: Optional[Diagnostic]):
        from rulelang.syntax.parser import _lark
        self.text, self.file, self.lark, self.tab = text, file, _lark(), tab
        self.raw = text.split("\n")            # the last one is "" (the text ends with a newline)
        self.failed: set = set()                # 0-based indices of lines left out
        self.diags: list = []
        self.reserved: set = set()              # words of the language reported as names
        self.starts: Optional[list] = None      # the first lines of top-level declarations
        self.first_changed = len(self.raw)      # the first line changed in this round

    # ---- the rounds ------------------------------------------------------------------------
    def run(self, first_error, tree=None) -> Partial:
        """``first_error``: the error of a parse of the whole text (None: it parsed, as
        ``tree``)."""
        tab = self.tab
        if first_error is None:
            return self._finish(tree, tab)
        pos, resume = 0, 0
        rounds = 0
        stopped = False
        while True:
            rounds += 1
            if rounds > len(self.raw) + 2:        # cannot happen: each round leaves out a line
                self._leave_out_from(0)
                pos = resume = 0
            if resume > pos + 1:
                # the declaration's first line, then its block from the statement that held
                # the error: the statements before it parsed, and do not change how it parses
                src = "\n" * pos + self.raw[pos] + "\n" * (resume - pos) \
                    + "\n".join(self.raw[resume:])
            else:
                src = "\n" * pos + "\n".join(self.raw[pos:])
            try:
                if first_error is not None:
                    err, first_error = first_error, None
                    raise err
                with no_gc():
                    tree = self.lark.parse(src)
            except (UnexpectedInput, DedentError) as err:
                if stopped:                     # cannot happen: only good lines are left
                    self._leave_out_from(0)
                    pos = 0
                    continue
                d, start, culprits = self._diagnose(err, src)
                if d is not None and len(self.diags) >= MAX_SYNTAX_ERRORS:
                    self._too_many(d, start)
                    stopped = True
                    pos = resume = 0
                    continue
                if d is not None:
                    self.diags.append(d)
                changed = False
                for culprit in sorted(culprits, key=lambda c: -c[1]):
                    changed = self._leave_out(culprit, start) or changed
                if not changed:
                    self._leave_out_from(start)
                pos = start
                resume = self._resume_point(start, self.first_changed)
                self.first_changed = len(self.raw)
                continue
            if pos == 0 and resume == 0:
                break
            pos = resume = 0   # the whole text once more, for its tree (the rounds parsed parts)
        return self._finish(tree, tab)

    def _finish(self, tree, tab) -> Partial:
        if tab is not None:
            self.diags = [d for d in self.diags if d.span is None or d.span.line != tab.span.line]
            self.diags.append(tab)
        return self._program(tree)

    def _resume_point(self, top: int, changed: int) -> int:
        """Where in the declaration that begins at line ``top`` the next round may begin to
        parse: the first line of the statement of its block (a statement of the declaration's own
        block, not one inside it) that holds the first line changed, when the declaration's first
        line alone opens that block; otherwise ``top`` (the declaration whole)."""
        if changed <= top or changed >= len(self.raw) or _blank(self.raw[top]) \
                or not without_comment(self.raw[top]).rstrip().endswith(":") \
                or without_comment(self.raw[top]).count("(") != without_comment(self.raw[top]).count(")"):
            return top
        first = self._next_code_line(top + 1)
        if first is None or first > changed:
            return top
        level = _indent(self.raw[first])
        if level == 0:
            return top
        r = changed
        while r > first and (_blank(self.raw[r]) or _indent(self.raw[r]) != level
                             or _first_word(self.raw[r]) == "else"):
            if not _blank(self.raw[r]) and _indent(self.raw[r]) < level:
                return top
            r -= 1
        if r <= first or self._inside_parens(top, r):
            return top
        return r

    def _too_many(self, d: Diagnostic, start: int) -> None:
        line = d.span.line if d.span is not None else start + 1
        self._leave_out_from(start)
        self.diags.append(Diagnostic(
            "RL206", ERROR, f"more syntax errors: only the first {MAX_SYNTAX_ERRORS} are reported, "
            f"and the file is not checked from line {start + 1} on",
            A.Span(self.file, line, 1, line, 1),
            "fix the errors above and check again"))

    def _program(self, tree) -> Partial:
        from rulelang.syntax.parser import ToAst, _limits
        items = list(tree.children)
        problems = _limits(tree, self.file)
        if problems:
            bad = {d.span.line for d in problems}
            kept = []
            for item in items:
                lo, hi = item.meta.line, item.meta.end_line
                if any(lo <= b <= hi for b in bad):
                    self.failed.update(range(lo - 1, hi))
                else:
                    kept.append(item)
            items = kept
            self.diags.extend(problems)
        with no_gc():
            to_ast = ToAst(self.file, self.text)
            decls = []
            for item in items:
                before = len(to_ast.problems)
                node = to_ast.transform(item)
                if len(to_ast.problems) > before:
                    self.failed.update(range(item.meta.line - 1, item.meta.end_line))
                    continue
                decls.extend(node if isinstance(node, list) else [node])
        self.diags.extend(to_ast.problems)
        self.diags.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
        original = self.text.split("\n")
        failed = frozenset(i + 1 for i in self.failed if not _blank(original[i]))
        return Partial(A.Program(self.file, tuple(decls), self.text), tuple(self.diags), failed)

    # ---- where the error is, and what to leave out -----------------------------------------
    def _diagnose(self, err, src: str):
        """(the diagnostic, the index of the top-level line to parse again from, the index of the
        line whose statement to leave out)."""
        from rulelang.syntax.parser import _dedent_span, _syntax_diagnostic
        if isinstance(err, DedentError):
            span = _dedent_span(self.file, src)
            over = self._over_indented_first(span.line - 1)
            if over is not None:
                d = Diagnostic("RL003", ERROR, "this line is indented more than the next line of "
                               f"its block (line {span.line})",
                               A.Span(self.file, over + 1, 1, over + 1, _indent(self.raw[over]) + 1),
                               "indent the lines of a block alike")
                culprit = over
            else:
                d = Diagnostic("RL003", ERROR, "this line's indentation matches no block above it",
                               span, "line it up with the block it belongs to")
                culprit = span.line - 1
            return d, self._top_of(culprit), [("dedent", culprit)]
        d = _syntax_diagnostic(self.file, src, err)
        line = (d.span.line if d.span is not None and d.span.line > 0 else 1) - 1
        line = min(line, len(self.raw) - 1)
        err_line = getattr(err, "line", None)
        err_line = min(err_line - 1, len(self.raw) - 1) if isinstance(err_line, int) \
            and err_line > 0 else line
        at = min(line, err_line)
        culprits = [("stmt", line)]
        if d.code == "RL003" and "expected an indented block after the `:` on the line before" \
                in d.message:
            header = self._prev_code_line(line)
            if header is not None:
                culprits = [("header", header)]
                # the line that opens the block is further in than the lines after its group,
                # which go on with the block it is in: it is the one indented too far
                after = self._next_code_line(self._header_group_end(header))
                parent = self._parent(header)
                if after is not None and parent is not None \
                        and _indent(self.raw[parent]) < _indent(self.raw[after]) \
                        < _indent(self.raw[header]):
                    d = Diagnostic("RL003", ERROR, "this line is indented more than line "
                                   f"{after + 1} of the same block",
                                   A.Span(self.file, header + 1, 1, header + 1,
                                          _indent(self.raw[header]) + 1),
                                   "indent the lines of a block alike (the lines under this one, "
                                   "if they are its block, further in than it)")
        elif d.code == "RL003" and "indented more than the one before it" in d.message:
            culprits = [("over", line)]
        elif d.code == "RL114":
            # a word of the language declared as a name: the declaration, and the line where
            # the word's use stopped the parser; later uses are left out without a message
            self.reserved.add(d.message.split("`")[1])
            culprits.append(("stmt", err_line))
        elif self.reserved and isinstance(err, UnexpectedInput) and err_line == line \
                and self.reserved & set(_WORD.findall(without_comment(self.raw[line]))):
            d = None
        return d, self._top_of(at), culprits

    def _top_of(self, i: int) -> int:
        """The first line of the top-level declaration that holds line ``i``."""
        if self.starts is None:
            self.starts = self._starts()
        starts = self.starts
        k = bisect.bisect_right(starts, i) - 1
        return starts[max(k, 0)]

    def _starts(self) -> list:
        """The indices of the lines that begin a top-level declaration (and 0): not indented,
        not inside parentheses opened above nor after a line that ends with `\\`.  An unclosed
        `(` ends at the next line that begins with a word that begins a declaration."""
        from rulelang.syntax.vocabulary import DECL_WORDS
        decl = set(DECL_WORDS) - {"players"}
        starts = [0]
        depth = 0
        backslash = False
        for i, line in enumerate(self.raw):
            if _blank(line):
                continue
            code = without_comment(line)
            if not line[:1].isspace() and not backslash:
                m = _WORD.match(code)
                if depth == 0 or (m is not None and m.group() in decl):
                    depth = 0
                    if i:
                        starts.append(i)
            if "(" in code or ")" in code:
                depth = max(0, depth + _paren_balance(code))
            backslash = code.rstrip().endswith("\\")
        return starts

    def _prev_code_line(self, i: int) -> Optional[int]:
        j = i - 1
        while j >= 0 and _blank(self.raw[j]):
            j -= 1
        return j if j >= 0 else None

    def _next_code_line(self, i: int) -> Optional[int]:
        while i < len(self.raw) and _blank(self.raw[i]):
            i += 1
        return i if i < len(self.raw) else None

    def _over_indented_first(self, i: int) -> Optional[int]:
        """For a line ``i`` whose indentation matches no block: the first line of the block it
        ends, when that line is alone at its indentation in its block and ``i`` is indented more
        than the line that opens the block (the first line is then the one indented too far)."""
        ind = _indent(self.raw[i])
        j = self._prev_code_line(i)
        if j is None:
            return None
        # walk up to the first line of the innermost block (indented more than ``i``)
        top = _indent(self.raw[j])
        if top <= ind:
            return None
        first = j
        k = j
        while k is not None and (_blank(self.raw[k]) or _indent(self.raw[k]) > ind):
            if not _blank(self.raw[k]):
                if _indent(self.raw[k]) < top:
                    top = _indent(self.raw[k])
                first = k
            k = self._prev_code_line(k)
        if k is None or _indent(self.raw[k]) >= ind:
            return None
        same = [m for m in range(first, i) if not _blank(self.raw[m])
                and _indent(self.raw[m]) == _indent(self.raw[first])]
        # ``i`` is a step further in than the line that opens the block, the first line is not
        step = self._step()
        head = _indent(self.raw[k])
        if len(same) == 1 and ind - head == step and _indent(self.raw[first]) - head != step:
            return first
        return None

    def _step(self) -> int:
        """The file's step of indentation: its smallest (4 by default)."""
        steps = [_indent(line) for line in self.raw if line[:1] in (" ", "\t") and not _blank(line)]
        return min(steps, default=4)

    def _leave_out(self, culprit, top: int) -> bool:
        """Leave out the statement of the culprit's line; False when that leaves nothing new
        out."""
        kind, i = culprit
        if i < 0 or i >= len(self.raw) or _blank(self.raw[i]):
            return False
        if kind == "header":
            # a line that opens a block, and the lines after it that are not indented more: its
            # block not indented, or the header indented too far (the lines of its block then
            # are as far in as it).  At the top level, up to the next declaration.
            return self._remove(i, self._header_group_end(i))
        if kind in ("over", "dedent"):
            ind = _indent(self.raw[i])
            end = i + 1
            while end < len(self.raw) and (_blank(self.raw[end]) or _indent(self.raw[end]) >= ind):
                end += 1
            return self._remove(i, end)
        start = self._logical_start(i, top)
        return self._remove(start, self._statement_end(start))

    def _header_group_end(self, i: int) -> int:
        from rulelang.syntax.vocabulary import DECL_WORDS
        ind = _indent(self.raw[i])
        end = i + 1
        while end < len(self.raw):
            line = self.raw[end]
            if not _blank(line) and (_indent(line) < ind or (
                    _indent(line) == 0 and _first_word(line) in DECL_WORDS)):
                break
            end += 1
        while end > i + 1 and _blank(self.raw[end - 1]):
            end -= 1
        return end

    def _remove(self, start: int, end: int) -> bool:
        """Leave out lines ``start``..``end`` (a statement or declaration).  A block left with
        no line gets a `pass` (a block of statements), or is left out with the line that opens
        it (the alternatives of a choice, an attribute's values, a deck type's parts); an `else`
        left without its `if` is left out."""
        ind = _indent(self.raw[start])
        parent = self._parent(start) if ind > 0 else None
        changed = self._blank_range(start, end)
        self._orphan_else(end)
        if parent is None or not without_comment(self.raw[parent]).rstrip().endswith(":"):
            return changed
        after = self._next_code_line(parent + 1)
        if after is not None and _indent(self.raw[after]) > _indent(self.raw[parent]):
            return changed                              # the block has lines left
        if _opens_entries(self.raw[parent]):
            top = self._top_of(parent)
            p = self._logical_start(parent, top)
            return self._remove(p, self._statement_end(p)) or changed
        self.raw[start] = " " * ind + "pass"
        return changed

    def _logical_start(self, i: int, top: int) -> int:
        """The first line of the statement line ``i`` is part of (a line inside parentheses
        opened above, or after a line that ends with `\\`, continues the one above)."""
        while i > top:
            j = self._prev_code_line(i)
            if j is None or j < top:
                break
            code = without_comment(self.raw[j]).rstrip()
            if code.endswith("\\") or self._inside_parens(top, i):
                i = j
                continue
            break
        return i

    def _inside_parens(self, top: int, i: int) -> bool:
        depth = 0
        for k in range(top, i):
            line = self.raw[k]
            if "(" in line or ")" in line:
                depth = max(0, depth + _paren_balance(without_comment(line)))
        return depth > 0

    def _statement_end(self, start: int) -> int:
        """One past the last line of the statement that begins at ``start``: the lines indented
        more than it (its block, or its continuation), and for an `if` its `else` clauses."""
        ind = _indent(self.raw[start])
        is_if = _first_word(self.raw[start]) in ("if", "else")
        end = start + 1
        n = len(self.raw)
        while end < n:
            line = self.raw[end]
            if _blank(line) or _indent(line) > ind or line.lstrip().startswith(")"):
                end += 1
                continue
            if is_if and _indent(line) == ind and _first_word(line) == "else":
                end += 1
                continue
            break
        while end > start + 1 and _blank(self.raw[end - 1]):
            end -= 1
        return end

    def _parent(self, i: int) -> Optional[int]:
        ind = _indent(self.raw[i])
        top = self._top_of(i)
        if top < i and _indent(self.raw[top]) == 0 and not _blank(self.raw[top]) \
                and without_comment(self.raw[top]).rstrip().endswith(":"):
            first = self._next_code_line(top + 1)
            if first is not None and first <= i and _indent(self.raw[first]) == ind:
                return top          # a statement of a declaration's own block
        j = self._prev_code_line(i)
        while j is not None:
            if _indent(self.raw[j]) < ind and not self._continues(j):
                return j
            j = self._prev_code_line(j)
        return None

    def _continues(self, j: int) -> bool:
        k = self._prev_code_line(j)
        return k is not None and without_comment(self.raw[k]).rstrip().endswith("\\")

    def _blank_range(self, start: int, end: int) -> bool:
        self.first_changed = min(self.first_changed, start)
        changed = False
        for k in range(start, end):
            if not _blank(self.raw[k]):
                changed = True
            self.failed.add(k)
            self.raw[k] = ""
        return changed

    def _orphan_else(self, end: int) -> None:
        """Leave out an `else` left without its `if` (the `if` was left out)."""
        k = self._next_code_line(end)
        if k is None or _first_word(self.raw[k]) != "else":
            return
        ind = _indent(self.raw[k])
        j = self._prev_code_line(k)
        while j is not None and _indent(self.raw[j]) > ind:
            j = self._prev_code_line(j)
        if j is not None and _indent(self.raw[j]) == ind and _first_word(self.raw[j]) in ("if", "else"):
            return
        self._blank_range(k, self._statement_end(k))

    def _leave_out_from(self, start: int) -> None:
        self._blank_range(start, len(self.raw) - 1)


def _first_word(line: str) -> Optional[str]:
    m = _WORD.match(line.lstrip())
    return m.group() if m else None


def _opens_entries(line: str) -> bool:
    """Whether the block under this line holds entries rather than statements: the
    alternatives of a choice, an attribute's values, a deck type's parts."""
    code = without_comment(line).strip()
    w = _first_word(code)
    if w in ("choose", "simultaneously", "attribute"):
        return True
    if w == "deck" and code.split()[1:2] == ["type"]:
        return True
    return w == "any" and " may choose" in code


def _paren_balance(code: str) -> int:
    n = 0
    quoted = False
    for ch in code:
        if ch == '"':
            quoted = not quoted
        elif not quoted:
            if ch == "(":
                n += 1
            elif ch == ")":
                n -= 1
    return n


# ---- the checker's diagnostics that a left-out line may cause --------------------------------
# Diagnostics that say something is missing from the whole file: a line left out may hold it,
# so they wait until the file parses.
_ABSENT = {"RL130", "RL150", "RL151", "RL160", "RL171", "RL191", "RL181"}
# Diagnostics about a name that a left-out line may declare or use.
_NAMED = {"RL101", "RL104", "RL109", "RL110", "RL140", "RL161", "RL163", "RL166", "RL181",
          "RL190", "RL192", "RL193", "RL120", "RL123", "RL122"}
_QUOTED = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)")


def cascades(diagnostics, partials) -> list:
    """The diagnostics of the checker (run on the parts of files that parse) without those that
    what was left out may cause: a name declared or used only on a line left out (RL101 unknown
    name, RL192 unused zone, RL108 for a variable whose declaration did not parse, ...), a
    declaration missing from the file (RL150 no `setup:`, ...), a card unknown when a `deck` line
    did not parse, a problem in a base file when a `replace` did not parse.  ``partials``: the
    :class:`Partial` of each file, the one checked first (then its bases).  An `extends` line that does not parse
    leaves nothing to check: see :func:`checkable`."""
    if all(not p.failed_lines for p in partials):
        return list(diagnostics)
    words, firsts = set(), set()
    sources = {}
    for p in partials:
        words |= p.failed_words()
        lines = p.program.source.split("\n")
        sources[p.program.file] = lines
        for n in p.failed_lines:
            code = without_comment(lines[n - 1]).split()
            firsts.update(code[:2])
    own = partials[0].program.file if partials else None
    out = []
    for d in diagnostics:
        if d.code in _ABSENT:
            continue
        if d.code in _NAMED or d.code == "RL108":
            named = set(_QUOTED.findall(d.message))
            at = _word_at(sources, d.span)
            if at is not None:
                named.add(at)
            if named & words:
                continue
        if "deck" in firsts and d.code in ("RL101", "RL166", "RL163") \
                and any(w in d.message for w in ("rank", "suit", "card")):
            continue
        if "replace" in firsts and d.span is not None and d.span.file != own:
            continue
        out.append(d)
    return out


def checkable(partials) -> bool:
    """Whether the parts that parse are worth checking: not when an `extends` line was left out
    (the file's names would all be unknown)."""
    for p in partials:
        lines = p.program.source.split("\n")
        if any(_first_word(lines[n - 1]) == "extends" for n in p.failed_lines):
            return False
    return True


def _word_at(sources, span) -> Optional[str]:
    if span is None or span.file not in sources:
        return None
    lines = sources[span.file]
    if not 0 < span.line <= len(lines):
        return None
    m = _WORD.match(lines[span.line - 1], max(span.column - 1, 0))
    return m.group() if m else None
