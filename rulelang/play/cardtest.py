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

:func:`check_test_file` turns a file into runnable tests and diagnostics (codes RL5xx, with
line and column); :func:`run_test` plays one test and returns its failure or None.  Only
:mod:`rulelang.cli.commands` prints.
"""
from __future__ import annotations

import os
import re
from typing import Optional

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic, RuleFileError, did_you_mean

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


def _strip_comment(line: str) -> str:
    out, quoted = [], False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            break
        out.append(ch)
    return "".join(out).rstrip()


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
    lines = read_lines(path, text)
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


# ---------------------------------------------------------------------------------------------
# Tying tests to the game: positions, choices and expectations made runnable
# ---------------------------------------------------------------------------------------------

class GameEnv:
    """A rule file checked with one set of option values, with its checker kept so that the
    tests' expressions are resolved, typed and compiled exactly as the file's own are."""

    def __init__(self, path, overrides):
        from rulelang.check.checker import Checker
        from rulelang.compile.loader import Game, merge, prelude, read_layers
        diags: list = []
        layers = read_layers(path, diags)
        self.diagnostics = diags
        self.game = None
        if not layers or any(d.is_error for d in diags):
            return
        decls = merge(layers, prelude(), diags)
        self.checker = Checker(decls, path, overrides)
        model = self.checker.run()
        seen = set()
        for d in self.checker.diags:
            key = (d.code, d.message, d.span)
            if key not in seen:
                seen.add(key)
                diags.append(d)
        if any(d.is_error for d in diags):
            return
        self.game = Game(model, diags, decls, path, overrides)


class Plan:
    def __init__(self):
        self.players = None
        self.overrides = {}
        self.seed = 0
        self.zones: dict = {}
        self.rest = None
        self.current = 1
        self.vars: list = []           # (var index, compiled expression, line)
        self.steps: list = []          # ("play", line, seat or None, words) | ("expect", line, check)
        self.cg = None


def _header_setting(tf, ln, plan, test=None):
    """`players N`, `option NAME = VALUE` or `seed N`, into ``plan``; False if not one."""
    m = re.fullmatch(r"players\s+(\d+)", ln.text)
    if m:
        plan.players = int(m.group(1))
        return True
    m = re.fullmatch(r"seed\s+(-?\d+)", ln.text)
    if m:
        plan.seed = int(m.group(1))
        return True
    m = re.fullmatch(r"option\s+([A-Za-z_]\w*)\s*=\s*(\S+)", ln.text)
    if m:
        plan.overrides[m.group(1)] = m.group(2)
        return True
    word = _header_word(ln.text)
    if word in ("players", "seed", "option"):
        want = {"players": "players 3", "seed": "seed 7", "option": "option decks = 2"}[word]
        tf.error("RL501", f"`{ln.text}` is not a `{word}` line", ln.span(), f"write it like `{want}`",
                 test)
        return True
    return False


_ZONE_REF = re.compile(r"([A-Za-z_]\w*)(?:\s+of\s+player\s+(\d+))?$")


def _zone_key(tf, cg, ln, text, start, test):
    """``hand of player 2`` -> ``"hand/2"``; a diagnostic (and None) for a zone that is not one."""
    m = _ZONE_REF.match(text.strip())
    lead = len(text) - len(text.lstrip())
    span = ln.span(start + lead, start + len(text.rstrip()))
    if not m:
        tf.error("RL503", f"`{text.strip()}` is not a zone", span,
                 "name a shared zone (`discard`) or a player's (`hand of player 2`)", test)
        return None
    name, seat = m.group(1), m.group(2)
    if name not in cg.zone_base:
        tf.error("RL503", f"there is no zone `{name}`", span,
                 did_you_mean(name, cg.zone_base) or "the zones are " + ", ".join(cg.zone_base), test)
        return None
    per_player = cg.zone_info[cg.zone_base[name]][1] >= 0
    if per_player and not seat:
        tf.error("RL503", f"`{name}` is a zone of each player: say whose", span,
                 f"write `{name} of player 1`", test)
        return None
    if not per_player and seat:
        tf.error("RL503", f"`{name}` is a shared zone: it belongs to no player", span,
                 f"write just `{name}`", test)
        return None
    if seat and not 1 <= int(seat) <= cg.n:
        tf.error("RL503", f"there is no player {seat} in this game of {cg.n} players", span,
                 f"players are numbered from 1 to {cg.n}", test)
        return None
    return f"{name}/{seat}" if seat else name


def _cards(tf, cg, ln, text, start, test):
    """A list of card names (``nothing`` is the empty list), each a card of the deck."""
    if text.strip() in ("nothing", "none", ""):
        return []
    out = []
    pos = start
    for part in text.split(","):
        name = part.strip()
        lead = len(part) - len(part.lstrip())
        if name not in cg.card_names:
            hint = did_you_mean(name, set(cg.card_names))
            tf.error("RL504", f"there is no card `{name}` in this game's deck",
                     ln.span(pos + lead, pos + lead + len(name)),
                     hint or "cards are named as the game shows them, e.g. "
                     + ", ".join(dict.fromkeys(cg.card_names[:3])), test)
        out.append(name)
        pos += len(part) + 1
    return out


def _parse_expr(tf, env, cg, ln, start, text, want, what, test):
    """The rule language's own parser, checker and compiler on one expression of the test file.
    Returns (function, type) or None after a diagnostic.  The expression is parsed as the body
    of a ``define`` so that every position in it is its place in the test file."""
    from rulelang.check.model import Context, Scope
    from rulelang.syntax.parser import parse
    col = ln.indent + start
    src = ("\n" * (ln.no - 2) + "define expectation__ = \\\n" + " " * col + text + "\n") \
        if ln.no >= 2 else "define expectation__ = " + text + "\n"
    try:
        prog = parse(src, tf.path)
    except RuleFileError as e:
        for d in e.diagnostics:
            tf.diagnostics.append(d)
        test.broken = True
        return None
    expr = prog.decls[0].body
    checker = env.checker
    before = len(checker.diags)
    ctx = Context()
    t = checker.expect(expr, want, Scope(ctx), what) if want else checker.expr(expr, Scope(ctx))
    new = checker.diags[before:]
    del checker.diags[before:]
    if any(d.is_error for d in new):
        tf.diagnostics.extend(d for d in new if d.is_error)
        test.broken = True
        return None
    fn = cg.cx(expr)
    return (fn, t, ctx.nslots, expr)


def check_test_file(path: str, text: Optional[str] = None,
                    base: Optional[str] = None) -> RuleTestFile:
    """Read, parse and tie every test to its game.  ``tf.diagnostics`` lists every mistake;
    each test without one has a ``plan``.  ``base`` is the folder the `rules` path is relative
    to (default: the test file's)."""
    if text is None:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    tf = parse_test_file(path, text)
    _SOURCES[path] = text.splitlines()        # for quoting the parts of a failed condition
    if tf.rules is None:
        return tf
    rules = os.path.join(base if base is not None else os.path.dirname(path), tf.rules)
    if not os.path.isfile(rules):
        tf.error("RL125", f"cannot find the rule file `{rules}`",
                 tf.rules_line.span(tf.rules_line.text.index('"')),
                 "the path in `rules` is relative to the test file")
        return tf
    tf.rules_path = rules
    envs: dict = {}
    defaults = Plan()
    for ln in tf.header:
        _header_setting(tf, ln, defaults)
    for test in tf.tests:
        if test.broken:
            continue
        plan = Plan()
        plan.players, plan.seed = defaults.players, defaults.seed
        plan.overrides = dict(defaults.overrides)
        others = []
        for ln in test.given:
            if not _header_setting(tf, ln, plan, test):
                others.append(ln)
        key = tuple(sorted(plan.overrides.items()))
        env = envs.get(key)
        if env is None:
            env = envs[key] = GameEnv(rules, plan.overrides)
        if env.game is None:
            errors = [d for d in env.diagnostics if d.is_error]
            if all(d.code.startswith("RL14") for d in errors):
                # a bad `option` line of the test file: said at that line
                lines = [ln for ln in tf.header + test.given if ln.text.startswith("option")]
                for d in errors:
                    ln = next((ln for ln in lines if f"`{ln.text.split()[1].split('=')[0]}`"
                               in d.message), lines[-1] if lines else tf.rules_line)
                    if not any(x.code == d.code and x.span.line == ln.no for x in tf.diagnostics):
                        hint = re.sub(r"--set (\w+)=(\S+)", r"`option \1 = \2`", d.hint or "")
                        tf.error(d.code, d.message, ln.span(), hint.replace("``", "`") or None)
            elif not getattr(env, "reported", False):
                env.reported = True
                tf.error("RL510", f"the rule file `{tf.rules}` has errors: `rulelang check {rules}`"
                         " shows them", tf.rules_line.span(), None)
                tf.diagnostics.extend(errors)
            test.broken = True
            continue
        game = env.game
        n = plan.players if plan.players is not None else game.players[0]
        try:
            cg = game.compiled(n)
        except RuleFileError as e:
            where = next((ln for ln in test.given + tf.header if ln.text.startswith("players")), test.line)
            for d in e.diagnostics:
                tf.error(d.code, d.message, d.span or where.span(), d.hint, test)
            continue
        plan.cg = cg
        _plan_given(tf, env, cg, test, plan, others)
        for kind, lines in test.steps:
            for ln in lines:
                if kind == "play":
                    m = re.match(r"player\s+(\d+)\s*:\s*(.*)$", ln.text)
                    seat, words = (int(m.group(1)), m.group(2).strip()) if m else (None, ln.text)
                    plan.steps.append(("play", ln, seat, words))
                else:
                    check = _plan_expect(tf, env, cg, test, ln)
                    if check is not None:
                        plan.steps.append(("expect", ln, check))
        if not test.broken:
            test.plan = plan
    tf.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return tf


def _plan_given(tf, env, cg, test, plan, lines):
    for ln in lines:
        t = ln.text
        m = re.fullmatch(r"turn\s+of\s+player\s+(\d+)", t)
        if m:
            plan.current = int(m.group(1))
            if not 1 <= plan.current <= cg.n:
                tf.error("RL503", f"there is no player {plan.current} in this game of {cg.n} players",
                         ln.span(), f"players are numbered from 1 to {cg.n}", test)
            continue
        m = re.fullmatch(r"the\s+rest\s*:\s*(.+)", t)
        if m:
            plan.rest = _zone_key(tf, cg, ln, m.group(1), m.start(1), test)
            continue
        m = re.fullmatch(r"set\s+([A-Za-z_]\w*)(?:\s+of\s+player\s+(\d+))?\s+to\s+(.+)", t)
        if m:
            name, seat = m.group(1), m.group(2)
            if name not in cg.var_base:
                tf.error("RL505", f"there is no variable `{name}`", ln.span(m.start(1), m.end(1)),
                         did_you_mean(name, cg.var_base) or
                         ("the variables are " + ", ".join(cg.var_base) if cg.var_base
                          else "this game has no variables"), test)
                continue
            per_player = cg.var_info[cg.var_base[name]][1] >= 0
            if per_player != bool(seat):
                what = ("a variable of each player: say whose" if per_player
                        else "one variable for the game: it belongs to no player")
                tf.error("RL505", f"`{name}` is {what}",
                         ln.span(m.start(1), m.end(2) if seat else m.end(1)),
                         f"write `set {name} of player 1 to ...`" if per_player
                         else f"write `set {name} to ...`", test)
                continue
            typ = cg.var_info[cg.var_base[name]][2]
            got = _parse_expr(tf, env, cg, ln, m.start(3), m.group(3), typ,
                              f"the value of `{name}`", test)
            if got is not None:
                plan.vars.append((cg.var_base[name] + (int(seat) - 1 if seat else 0), got, ln))
            continue
        m = re.fullmatch(r"([^:]+?)\s*:\s*(.*)", t)
        if m:
            key = _zone_key(tf, cg, ln, m.group(1), 0, test)
            cards = _cards(tf, cg, ln, m.group(2), m.start(2), test)
            if key is not None:
                if key in plan.zones:
                    tf.error("RL503", f"`{m.group(1).strip()}` is given twice", ln.span(0, m.end(1)),
                             "list all its cards on one line", test)
                plan.zones[key] = cards
            continue
        tf.error("RL501", f"`{_first_words(t)}` is not a line of a position", ln.span(),
                 "a position has lines `ZONE: CARDS` (bottom card first), `the rest: ZONE`, "
                 "`set VARIABLE to VALUE`, `turn of player K`, `players N`, "
                 "`option NAME = VALUE`", test)
    if plan.rest is None and not test.broken:
        deck = cg.model.deck
        into = getattr(deck, "into", None)
        if isinstance(into, A.Name) and into.name in cg.zone_base and \
                cg.zone_info[cg.zone_base[into.name]][1] < 0:
            plan.rest = into.name
        else:
            tf.error("RL506", "say where the cards the position does not name are",
                     test.given[0].span() if test.given else test.line.span(),
                     "add a line `the rest: ZONE` to `given:`", test)
    # Check that the cards named are in the deck as many times as named.
    if not test.broken:
        from collections import Counter
        have = Counter(cg.card_names)
        want = Counter(c for cards in plan.zones.values() for c in cards)
        for name, k in want.items():
            if k > have[name]:
                ln = [ln for ln in lines if name in ln.text][-1]     # where it is named again
                col = ln.text.rindex(name)
                tf.error("RL504", f"the position names `{name}` {k} times, but the deck has "
                         f"{have[name]}", ln.span(col, col + len(name)),
                         "each card of the deck lies in one place", test)


# Expectations in words.  Each returns a check: a function of the state giving None when the
# expectation holds, else the lines saying what was found instead.

def _plan_expect(tf, env, cg, test, ln):
    from rulelang.kinds import FLAG, NUMBER
    t = ln.text
    m = re.fullmatch(r"(.+?)\s+has\s+(.+?)\s+cards?", t)
    if m and _ZONE_REF.match(m.group(1)):
        key = _zone_key(tf, cg, ln, m.group(1), 0, test)
        if m.group(2).isdigit():
            count = (lambda k: lambda st: k)(int(m.group(2)))
        else:                     # `has 1 + 7 cards`: a number in the rule language
            got = _parse_expr(tf, env, cg, ln, m.start(2), m.group(2), NUMBER, "a number of cards",
                              test)
            if got is None:
                return None
            count = lambda st: got[0](st, _frame(st, got[2]))
        return key and (lambda st, key=key: None if len(_zone(st, key)) == count(st) else
                        [f"{_zone_words(key)} has {len(_zone(st, key))} cards: "
                         f"{_list(_zone(st, key))}"])
    m = re.fullmatch(r"(.+?)\s+(holds|contains|does not contain|starts with|ends with)\s*:\s*(.*)", t)
    if m and _ZONE_REF.match(m.group(1)):
        key = _zone_key(tf, cg, ln, m.group(1), 0, test)
        cards = _cards(tf, cg, ln, m.group(3), m.start(3), test)
        how = m.group(2)
        return key and (lambda st, key=key: _zone_check(st, key, how, cards))
    m = re.fullmatch(r"(winner is|winners are)\s+(.+)", t)
    if m:
        seats = [s.strip() for s in m.group(2).replace(" and ", ",").split(",")]
        want = []
        for s in seats:
            mm = re.fullmatch(r"player\s+(\d+)", s)
            if not mm or not 1 <= int(mm.group(1)) <= cg.n:
                tf.error("RL507", f"`{s}` is not a player of this game", ln.span(m.start(2)),
                         f"write `winner is player 1` (players 1 to {cg.n})", test)
                return None
            want.append(int(mm.group(1)) - 1)
        return lambda st: None if st.terminal and sorted(st.winners) == sorted(want) else \
            [_end_words(st)]
    if t in ("no winner", "the game is over", "the game is not over", "the game goes on"):
        def over(st, t=t):
            ok = {"no winner": st.terminal and not st.winners,
                  "the game is over": st.terminal}.get(t, not st.terminal)
            return None if ok else [_end_words(st)]
        return over
    m = re.fullmatch(r"(the game|player\s+(\d+))\s+(says|does not say)\s+(.*)", t)
    if m:
        texts, rest = [], m.group(4)
        pos = m.start(4)
        while True:
            mm = re.match(r'\s*"([^"]*)"\s*', rest)
            if not mm:
                tf.error("RL507", "what the game says is written in double quotes",
                         ln.span(pos), 'e.g. `the game says "draws a card"`, '
                         'several in order: `the game says "a", then "b"`', test)
                return None
            texts.append(mm.group(1))
            rest = rest[mm.end():]
            pos += mm.end()
            if not rest:
                break
            mm = re.match(r",\s*then\s*", rest)
            if not mm:
                tf.error("RL507", "after a quoted text comes `, then \"...\"` or the end of the line",
                         ln.span(pos), None, test)
                return None
            rest = rest[mm.end():]
            pos += mm.end()
        seat = int(m.group(2)) - 1 if m.group(2) else None
        negate = m.group(3) == "does not say"
        return lambda st: _says_check(st, seat, texts, negate)
    m = re.fullmatch(r"(the game|player\s+(\d+))\s+(reveals|does not reveal)\s*:\s*(.*)", t)
    if m:
        seat = int(m.group(2)) - 1 if m.group(2) else None
        cards = _cards(tf, cg, ln, m.group(4), m.start(4), test)
        negate = m.group(3) == "does not reveal"
        return lambda st: _reveals_check(st, seat, cards, negate)
    m = re.fullmatch(r"player\s+(\d+)\s+to\s+(?:play|choose)", t)
    if m:
        seat = int(m.group(1)) - 1
        return lambda st: None if seat in st.current_players() else [_decider_words(st)]
    m = re.fullmatch(r"(?:player\s+(\d+)\s+)?choices(\s+include|\s+exclude)?\s*:\s*(.*)", t)
    if m:
        seat = int(m.group(1)) - 1 if m.group(1) else None
        how = (m.group(2) or "").strip() or "are"
        words = [w.strip() for w in m.group(3).split(",") if w.strip()]
        return lambda st: _choices_check(st, seat, how, words)
    got = _parse_expr(tf, env, cg, ln, 0, t, FLAG, "an expectation", test)
    if got is None:
        return None
    return lambda st: _expr_check(st, got, cg)


def _zone(st, key):
    from rulelang.play.scenario import zone
    return zone(st, key)


def _zone_words(key):
    name, _, seat = key.partition("/")
    return f"{name} of player {seat}" if seat else name


def _list(cards):
    return ", ".join(cards) if cards else "nothing"


def _zone_check(st, key, how, cards):
    have = _zone(st, key)
    if how == "holds":
        ok = have == cards
    elif how == "starts with":
        ok = have[:len(cards)] == cards
    elif how == "ends with":
        ok = have[len(have) - len(cards):] == cards if cards else True
    else:
        left = list(have)
        ok = True
        for c in cards:
            if c in left:
                left.remove(c)
            else:
                ok = False
        if how == "does not contain":
            ok = not any(c in have for c in cards)
    return None if ok else [f"{_zone_words(key)} holds {_list(have)} (bottom first)"]


def _end_words(st):
    if not st.terminal:
        return "the game is not over"
    if st.outcome == "error":
        return f"the game stopped: {(st.problem or {}).get('message', 'a rule failed')}"
    if not st.winners:
        return "the game is over with no winner"
    return "the game is over: winner " + ", ".join(f"player {w + 1}" for w in sorted(st.winners))


def _decider_words(st):
    if st.terminal:
        return _end_words(st)
    return "to decide: " + ", ".join(f"player {p + 1}" for p in st.current_players())


def _said(st, seat):
    return [e[2] for e in st.log if e[0] == "say" and (seat is None or e[1] == seat)]


def _says_check(st, seat, texts, negate):
    said = _said(st, seat)
    if negate:
        ok = not any(t in said for t in texts)
    else:
        k = 0
        for s in said:
            if k < len(texts) and s == texts[k]:
                k += 1
        ok = k == len(texts)
    if ok:
        return None
    who = "the game" if seat is None else f"player {seat + 1}"
    return [f"{who} said: " + ("; ".join(f'"{s}"' for s in said) if said else "nothing")]


def _reveals_check(st, seat, cards, negate):
    shown = [e[2] for e in st.log if e[0] == "reveal" and (seat is None or e[1] == seat)]
    ok = not any(c in shown for c in cards) if negate else all(c in shown for c in cards)
    if ok:
        return None
    who = "the game" if seat is None else f"player {seat + 1}"
    return [f"{who} revealed: {_list(shown)}"]


def _choices_check(st, seat, how, words):
    if st.terminal:
        return [_end_words(st)]
    p = st.current_player() if seat is None else seat
    have = sorted(st.action_to_string(a) for a in st.legal_actions(p))
    if how == "are":
        ok = sorted(words) == have
    elif how == "include":
        ok = all(w in have for w in words)
    else:
        ok = not any(w in have for w in words)
    return None if ok else [f"the choices of player {p + 1} are: " + (", ".join(have) or "none")]


def _frame(st, nslots):
    return [-1, 0, st.cur] + [0] * nslots


def _expr_check(st, got, cg):
    from rulelang.kinds import FLAG
    fn, _t, nslots, expr = got
    if fn(st, _frame(st, nslots)):
        return None
    out = []
    # Say what the parts of a comparison were (`size of hand of player 2 is 5`: it is 4).
    for node in _parts(expr):
        try:
            f = cg.cx(node)
            t = cg.model.types.get(id(node))
            v = f(st, _frame(st, nslots))
        except Exception:
            continue
        if t == FLAG or isinstance(node, (A.Int, A.Bool)):
            continue
        out.append(f"`{_source(node)}` is {cg.format(st, v, t)}")
    return out or ["it is no"]


def _parts(expr):
    from rulelang.check.model import Expanded
    while isinstance(expr, Expanded):
        expr = expr.body
    if isinstance(expr, A.Compare):
        return [expr.left, expr.right]
    if isinstance(expr, A.BoolOp):
        return [p for it in expr.items for p in _parts(it)]
    return []


_SOURCES: dict = {}


def _source(node):
    sp = node.span
    lines = _SOURCES.get(sp.file)
    if lines is None:
        try:
            with open(sp.file, encoding="utf-8") as fh:
                lines = _SOURCES[sp.file] = fh.read().splitlines()
        except OSError:
            return "?"
    if sp.line != sp.end_line:
        return lines[sp.line - 1][sp.column - 1:]
    return lines[sp.line - 1][sp.column - 1:sp.end_column - 1]


# ---------------------------------------------------------------------------------------------
# Running a test
# ---------------------------------------------------------------------------------------------

class Failure:
    """Why a test failed: the line of the test file, what was expected, what was found, and the
    transcript of the test so far (each entry with the test line that played it)."""

    def __init__(self, line, message, found, transcript):
        self.line, self.message, self.found, self.transcript = line, message, found, transcript


def set_position(plan):
    """The plan's position: its zones, every other card in the rest zone, its variables, and the
    turn of its player started from the beginning (what the rules do then is in ``st.log``)."""
    from rulelang.play.scenario import _zone_index, card_ids, restart_turn
    cg = plan.cg
    st = cg.new_game(seed=plan.seed, log=True)
    used: set = set()
    st.zones = [[] for _ in cg.zone_info]
    for key, names in plan.zones.items():
        st.zones[_zone_index(cg, key)] = card_ids(cg, names, used)
    rz = st.zones[_zone_index(cg, plan.rest)]
    rz[:0] = [c for c in range(len(cg.cards)) if c not in used]
    st.cur = plan.current - 1
    for i, (fn, _t, nslots, _e), _ln in plan.vars:
        st.vars[i] = fn(st, _frame(st, nslots))
    st.log = []
    st.decisions = st.turns = 0
    restart_turn(st, plan.current - 1)
    return st


def _transcript(st, marks):
    """The test's log in words: (test line or None, text)."""
    cg = st.game
    lines = []
    mark_at = dict(marks)          # log index of a choice -> test line
    for i, e in enumerate(st.log):
        kind = e[0]
        if kind == "choice":
            lines.append((mark_at.get(i), f"P{e[1] + 1}: {cg.action_to_string(e[2])}"))
        elif kind == "say":
            lines.append((None, f"   P{e[1] + 1} says: {e[2]}"))
        elif kind == "reveal":
            who = f"P{e[1] + 1}" if e[1] >= 0 else "the game"
            lines.append((None, f"   {who} reveals {e[2]}"))
        elif kind == "end":
            lines.append((None, "   " + _end_words(st)))
        # other entries ("turn", "shuffle") are for the narration of run and play
    return lines


def run_test(test) -> Optional[Failure]:
    """Play one checked test; None when every expectation held."""
    from rulelang.engine.runtime import GameProblem
    plan = test.plan
    try:
        st = set_position(plan)
    except (GameProblem, KeyError, IndexError) as e:
        return Failure(test.given[0] if test.given else test.line,
                       "the position cannot be set up", [str(e)], [])
    marks = []
    for step in plan.steps:
        if step[0] == "play":
            _kind, ln, seat, words = step
            if st.terminal:
                return Failure(ln, f"to play `{words}`", [_end_words(st)], _transcript(st, marks))
            p = st.current_player() if seat is None else seat - 1
            if p not in st.current_players():
                return Failure(ln, f"player {seat} to play `{words}`", [_decider_words(st)],
                               _transcript(st, marks))
            options = {st.action_to_string(a): a for a in st.legal_actions(p)}
            if words not in options:
                hint = did_you_mean(words, options)
                found = [f"`{words}` is not a choice of player {p + 1} here; the choices are: "
                         + ", ".join(sorted(options))]
                if hint:
                    found.append(hint)
                return Failure(ln, f"`{words}` to be a choice of player {p + 1}", found,
                               _transcript(st, marks))
            at = len(st.log)
            st.apply_action(options[words], p)
            marks.append((at, ln.no))
        else:
            _kind, ln, check = step
            found = check(st)
            if found is not None:
                return Failure(ln, ln.text, found, _transcript(st, marks))
    return None
