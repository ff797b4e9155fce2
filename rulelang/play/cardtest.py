"""Rule tests: scenario tests that rule authors write in ``.cardtest`` files (``rulelang test``).

A test sets up a position in the rule file's own words, plays choices as the game words them and
states what must hold afterwards::

    rules "crazy_eights.cardrules"
    players 2

    test "an eight names the suit to follow":
        given:
            hand of player 1: 8♣, 3♥
            hand of player 2: 4♦, 5♠
            discard: 9♥
            the rest: stock
            turn of player 1
        play:
            play 8♣
            name spades
        expect:
            player 2 to play
            choices: play 5♠
            hand of player 1 has 1 card

Expectations are the rule language's own conditions (``size of hand of player 2 is 5``, parsed,
checked and compiled by the language's own stages, so a typo is reported like one in a rule file)
or a few forms in words (``... has N cards``, ``... holds: CARDS``, ``winner is player 1``,
``the game says "..."``, ``choices: ...``).  docs/testing.md ("Rule tests") is the reference.

This module reads a file into tests (:func:`parse_test_file`: its header, tests and sections,
no game needed yet); :func:`rulelang.play.cardtest_plan.check_test_file` turns a file into
runnable tests and diagnostics (codes RL5xx, with line and column);
:func:`rulelang.play.cardtest_run.run_test` plays one test and returns its failure or None.  Only
:mod:`rulelang.cli.commands` prints.
"""
from __future__ import annotations

import re
from typing import Optional

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic
from rulelang.syntax.recover import without_comment

SECTIONS = ("given", "play", "expect")


class Line:
    """One meaningful line of a test file: its number, indentation and text (comment removed)."""

    __slots__ = ("file", "no", "indent", "text")

    def __init__(self, file, no, indent, text):
        self.file, self.no, self.indent, self.text = file, no, indent, text

    def span(self, start: int = 0, end: Optional[int] = None) -> A.Span:
        """The span of ``text[start:end]`` (columns are 1-based, as in every diagnostic)."""
        end = len(self.text) if end is None else end
        return A.Span(self.file, self.no, self.indent + start + 1, self.no, self.indent + end + 1)


# A place in a pile, as a choice of a card unseen names it (`take #3`): `#` and a digit after a
# space, then the end of the line, a comma or a space; not a comment.
_PLACE = re.compile(r"(?<= )#(\d+)(?=$|[ ,])")


def _strip_comment(line: str) -> str:
    # (a place's `#` stands as `\x00` while the comment is cut off)
    return without_comment(_PLACE.sub("\x00\\1", line)).replace("\x00", "#").rstrip()


def read_lines(path: str, text: str) -> list:
    lines = []
    for no, raw in enumerate(text.splitlines(), 1):
        code = _strip_comment(raw.replace("\t", "    "))
        if not code.strip():
            continue
        stripped = code.lstrip(" ")
        lines.append(Line(path, no, len(code) - len(stripped), stripped))
    return lines


# ---------------------------------------------------------------------------------------------
# What a test file says, before it is tied to a game
# ---------------------------------------------------------------------------------------------

class RuleTest:
    """One ``test "NAME":`` block: the lines of its ``given:`` and its ``play:``/``expect:``
    sections in order."""

    def __init__(self, name, line):
        self.name, self.line = name, line
        self.given: list = []
        self.steps: list = []          # ("play" | "expect", [Line])
        self.plan = None               # filled by check_test_file: what to run
        self.broken = False            # a diagnostic concerns this test


class RuleTestFile:
    """A `.cardtest` file: its rule file, the settings of every test, its tests, its mistakes."""

    def __init__(self, path):
        self.path = path
        self.rules: Optional[str] = None
        self.rules_line: Optional[Line] = None
        self.rules_path: Optional[str] = None      # the rule file, found from the test file's folder
        self.header: list = []         # `players`, `option`, `seed` lines that apply to every test
        self.tests: list = []
        self.diagnostics: list = []

    def error(self, code, message, span, hint=None, test=None):
        self.diagnostics.append(Diagnostic(code, ERROR, message, span, hint))
        if test is not None:
            test.broken = True


_TEST_HEAD = re.compile(r'test\s+"([^"]*)"\s*:$')
_RULES = re.compile(r'rules\s+"([^"]+)"$')


def parse_test_file(path: str, text: str) -> RuleTestFile:
    """The shape of the file: header lines, tests, sections (no game needed yet)."""
    tf = RuleTestFile(path)
    lines = [ln for ln in read_lines(path, text) if not _too_long_number(tf, ln)]
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.indent:
            tf.error("RL501", "this line is indented but belongs to no test", ln.span(),
                     'start a test with `test "what it shows":` at the left margin')
            i += 1
            continue
        m = _TEST_HEAD.match(ln.text)
        if m:
            test = RuleTest(m.group(1), ln)
            tf.tests.append(test)
            i = _parse_test_body(tf, test, lines, i + 1)
            continue
        m = _RULES.match(ln.text)
        if m:
            if tf.rules is not None:
                tf.error("RL502", "a test file names one rule file", ln.span(),
                         "put the tests of another rule file in a file of their own")
            else:
                tf.rules, tf.rules_line = m.group(1), ln
        elif _header_word(ln.text) in ("players", "option", "seed"):
            tf.header.append(ln)
        elif ln.text.startswith("test"):
            tf.error("RL501", "a test starts with `test \"NAME\":`", ln.span(),
                     'give the test a name in double quotes and end the line with `:`')
        else:
            tf.error("RL501", f"`{_first_words(ln.text)}` is not a line of a test file", ln.span(),
                     'the file has `rules "FILE"`, then `players N`, `option NAME = VALUE`, '
                     '`seed N` for every test, then `test "NAME":` blocks')
        i += 1
    if tf.rules is None:
        tf.error("RL502", "the test file does not say which rule file it tests",
                 A.Span(path, 1, 1, 1, 1), 'add a first line such as `rules "crazy_eights.cardrules"` '
                 "(the path is relative to the test file)")
    if not tf.tests and tf.rules is not None:
        tf.error("RL502", "the test file has no test", A.Span(path, 1, 1, 1, 1),
                 'add a block `test "NAME":` with `given:`, `play:` and `expect:` sections')
    return tf


# The most digits a number of a test file has (a seed is at most 2**64 - 1): a longer number
# is refused before anything reads it (RL203).
MAX_TEST_NUMBER_DIGITS = len(str(2 ** 64 - 1))
_LONG_NUMBER = re.compile(r'"[^"]*"|(\d{%d,})' % (MAX_TEST_NUMBER_DIGITS + 1))


def _too_long_number(tf, ln) -> bool:
    """RL203 for a number longer than any a test needs (outside a text in double quotes); the
    line is then left out (nothing reads the number), and the run fails."""
    for m in _LONG_NUMBER.finditer(ln.text):
        if m.group(1):
            tf.error("RL203", f"the number {m.group(1)[:12]}...({len(m.group(1))} digits) is too "
                     f"large: a number of a test file has at most {MAX_TEST_NUMBER_DIGITS} digits",
                     ln.span(m.start(1), m.end(1)), "a test needs no such number; write a smaller one")
            return True
    return False


def _header_word(text):
    return text.split(None, 1)[0] if text.split() else ""


def _first_words(text, n=4):
    words = text.split()
    return " ".join(words[:n]) + (" ..." if len(words) > n else "")


def _parse_test_body(tf, test, lines, i):
    section = None
    section_indent = None
    body_indent = None
    while i < len(lines) and lines[i].indent > 0:
        ln = lines[i]
        head = ln.text.rstrip()
        word = head[:-1].strip() if head.endswith(":") else None
        if section_indent is None:
            section_indent = ln.indent
        if ln.indent == section_indent:
            if word in SECTIONS:
                if word == "given" and (test.given or test.steps):
                    tf.error("RL501", "`given:` comes first, once, in a test", ln.span(),
                             "put every line of the position in the first `given:`", test)
                section = word
                body_indent = None
                if word != "given":
                    test.steps.append((word, []))
            else:
                tf.error("RL501", f"`{_first_words(head)}` is not a section of a test", ln.span(),
                         "a test has the sections `given:`, then `play:` and `expect:` "
                         "(as many as it needs, in order), each with its lines indented below",
                         test)
                section = None
            i += 1
            continue
        if ln.indent < section_indent:
            tf.error("RL501", "this line's indentation matches no section above it", ln.span(),
                     "line it up with the lines of its section", test)
            i += 1
            continue
        if section is None:
            if not test.broken:
                tf.error("RL501", "this line belongs to no section", ln.span(),
                         "put it under `given:`, `play:` or `expect:`", test)
            i += 1
            continue
        if body_indent is None:
            body_indent = ln.indent
        elif ln.indent != body_indent:
            tf.error("RL501", "this line is indented differently from the lines above it",
                     ln.span(), "each line of a section starts in the same column", test)
        (test.given if section == "given" else test.steps[-1][1]).append(ln)
        i += 1
    if not test.given and not test.steps and not test.broken:
        tf.error("RL501", f"the test \"{test.name}\" is empty", test.line.span(),
                 "add a `given:` section with the position and an `expect:` section", test)
    return i
