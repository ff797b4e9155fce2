"""Rule tests tied to their game (``.cardtest`` files, see :mod:`rulelang.play.cardtest`):
:func:`check_test_file` reads a file, checks each test against the rule file it names (its
position, its choices, its expectations, parsed, checked and compiled by the language's own
stages) and makes its plan, which :func:`rulelang.play.cardtest_run.run_test` plays.  Every
mistake is a diagnostic (codes RL5xx, with line and column).
"""
from __future__ import annotations

import os
import re
from typing import Optional

from rulelang.limits import seed_refused
from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import RuleFileError, did_you_mean
from rulelang.play.cardtest import RuleTestFile, _first_words, _header_word, parse_test_file
from rulelang.play.cardtest_run import (_SOURCES, _choices_check, _decider_words, _end_words,
                                        _expr_check, _frame, _list, _reveals_check, _says_check, _zone,
                                        _zone_check, _zone_words)


# ---------------------------------------------------------------------------------------------
# Tying tests to the game: positions, choices and expectations made runnable
# ---------------------------------------------------------------------------------------------

class GameEnv:
    """A rule file checked with one set of option values, with its checker kept so that the
    tests' expressions are resolved, typed and compiled exactly as the file's own are."""

    def __init__(self, path, overrides, include=()):
        from rulelang.check.checker import Checker
        from rulelang.compile.loader import Game, merge, prelude, read_layers
        diags: list = []
        layers = read_layers(path, diags, include=include)
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
        self.game.include = tuple(include)


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
        why = seed_refused(int(m.group(1)))
        if why is not None:                 # (as `--seed` refuses it)
            tf.error("RL501", why, ln.span(m.start(1), m.end(1)), "write it like `seed 7`", test)
        else:
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
# A zone of a family by suit or rank named as the rules name it: `[the] foundation of hearts`.
_KEYED_REF = re.compile(r"(?:the\s+)?([A-Za-z_]\w*)\s+of\s+([A-Za-z_]\w*)")
# A zone of a family named by its number or key as the rules name it: `column(3)`,
# `foundation(hearts)`, `pile(2) of player 1`.
_FAMILY_REF = re.compile(r"([A-Za-z_]\w*)\s*\(\s*(\w+)\s*\)")


def _family_named(cg, text):
    """``text`` with a family's zone named as the rules name it, ``column(3)``, written as its
    own name, ``column_3`` (when the family has that zone)."""
    m = _FAMILY_REF.match(text.strip())
    if m and f"{m.group(1)}_{m.group(2)}" in cg.zone_base:
        return text.replace(m.group(0), f"{m.group(1)}_{m.group(2)}", 1)
    return text


def _zone_named(cg, text):
    """Does ``text`` name a zone as an expectation may (`hand of player 2`, `foundation of
    hearts`, `column(3)`)?"""
    text = _family_named(cg, text)
    keyed = _KEYED_REF.fullmatch(text.strip())
    return bool(_ZONE_REF.match(text) or (keyed and f"{keyed.group(1)}_{keyed.group(2)}"
                                           in cg.zone_base))


def _zone_key(tf, cg, ln, text, start, test):
    """``hand of player 2`` -> ``"hand/2"``; a diagnostic (and None) for a zone that is not one."""
    named = _family_named(cg, text)                # `column(3)`: the family's zone column_3
    if named != text:                              # (its place: the text as written)
        text = named + " " * max(0, len(text) - len(named))
    keyed = _KEYED_REF.fullmatch(text.strip())     # `foundation of hearts`: a family by suit
    if keyed and f"{keyed.group(1)}_{keyed.group(2)}" in cg.zone_base:
        text = text.replace(keyed.group(0), f"{keyed.group(1)}_{keyed.group(2)}")
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
    from rulelang.check.sets import SetValues, rewrite_expr, written_set
    from rulelang.kinds import SET_KINDS
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
    checker = env.checker
    expr = prog.decls[0].body
    if want in SET_KINDS:           # `set named to hearts and spades`: the set of them, as in a rule
        expr = written_set(expr)
        if not isinstance(expr, SetValues):      # `set passed to player 2`: the set of it alone
            expr = SetValues((expr,), expr.span)
    expr = rewrite_expr(expr, {n for n, v in checker.vars.items() if v.type in SET_KINDS})
    before = len(checker.diags)
    ctx = Context()
    t = checker.expect(expr, want, Scope(ctx), what) if want else checker.expr(expr, Scope(ctx))
    new = checker.diags[before:]
    del checker.diags[before:]
    if any(d.is_error for d in new):
        tf.diagnostics.extend(d for d in new if d.is_error)
        test.broken = True
        return None
    # a text the rules never say (`set word to "odd"`) is a new value of the game: shown as
    # written, as the rules' own texts are
    texts = env.game.model.texts
    for text in sorted(checker.texts, key=checker.texts.get)[len(texts):]:
        texts.append(text)
    fn = cg.gen.function(expr)
    return (fn, t, ctx.nslots, expr)


def check_test_file(path: str, text: Optional[str] = None,
                    base: Optional[str] = None, include=()) -> RuleTestFile:
    """Read, parse and tie every test to its game.  ``tf.diagnostics`` lists every mistake;
    each test without one has a ``plan``.  ``base`` is the folder the `rules` path is relative
    to (default: the test file's); ``include``, more folders it may be found in.  The test file
    and its rule file are read as `extends` reads a base (docs/security.md): a refused path is
    RL128, and no line of a refused file is ever read or quoted."""
    from rulelang.compile.loader import RULE_TEST, find_named_file, read_named_main
    if text is None:
        diags: list = []
        text = read_named_main(path, diags, "a .cardtest file")
        if text is None:
            tf = RuleTestFile(path)
            tf.diagnostics.extend(diags)
            return tf
    tf = parse_test_file(path, text)
    _SOURCES[path] = text.splitlines()        # for quoting the parts of a failed condition
    if tf.rules is None:
        return tf
    folder = base if base is not None else os.path.dirname(path)
    include = tuple(include or ())
    roots = [os.path.realpath(os.path.abspath(folder or "."))]
    for d in include:
        r = os.path.realpath(d)
        if r not in roots:
            roots.append(r)
    found = find_named_file(tf.rules, [folder] + list(include), roots,
                            tf.rules_line.span(tf.rules_line.text.index('"')), tf.diagnostics,
                            RULE_TEST)
    if found is None:
        return tf
    rules = found[0]
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
            env = envs[key] = GameEnv(rules, plan.overrides, include)
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
        m = re.fullmatch(r"set\s+([A-Za-z_]\w*)\s+of\s+team\s+(\d+)\s+to\s+(.+)", t)
        if m and m.group(1) in getattr(cg, "team_vars", ()):    # a variable of each team
            name, team = m.group(1), int(m.group(2))
            if not 1 <= team <= cg.team_count:
                tf.error("RL505", f"there is no team {team}: this game has teams 1 to "
                         f"{cg.team_count}", ln.span(m.start(2), m.end(2)),
                         f"write `set {name} of team 1 to ...`", test)
                continue
            got = _parse_expr(tf, env, cg, ln, m.start(3), m.group(3),
                              cg.var_info[cg.var_base[name]][2], f"the value of `{name}`", test)
            if got is not None:
                plan.vars.append((cg.var_base[name] + team - 1, got, ln))
            continue
        m = re.fullmatch(r"set\s+([A-Za-z_]\w*)(?:\s+of\s+player\s+(\d+))?\s+to\s+(.+)", t)
        if m:
            name, seat = m.group(1), m.group(2)
            if name in getattr(cg, "team_vars", ()):
                tf.error("RL505", f"`{name}` is a variable of each team: say which team",
                         ln.span(m.start(1), m.end(2) if seat else m.end(1)),
                         f"write `set {name} of team 1 to ...`", test)
                continue
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
    if m and _zone_named(cg, m.group(1)):
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
    if m and _zone_named(cg, m.group(1)):
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
