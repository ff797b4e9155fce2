"""Running rule tests (``.cardtest`` files, see :mod:`rulelang.play.cardtest`): :func:`run_test`
sets up a test's position (:func:`set_position`), plays its choices as the game words them and
runs its expectations (the checks below, made by :mod:`rulelang.play.cardtest_plan`), and
returns a :class:`Failure` with the transcript so far, or None when every expectation held.
"""
from __future__ import annotations

from typing import Optional

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import did_you_mean
from rulelang.engine.subsets import set_moved
from rulelang.engine.played import nobody_played
from rulelang.limits import ACTION_SHIFT


# ---------------------------------------------------------------------------------------------
# The expectations' checks, run on the state: None when it holds, else what was found
# ---------------------------------------------------------------------------------------------

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
            f = cg.gen.function(node)
            t = cg.model.types.of(node, None)
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
    nobody_played(st)
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
            chosen = set_moved(cg, e[2], st.log, i)       # a set: its cards, as it moved
            words = cg.action_to_string(e[2]) if chosen is None else \
                f"{cg.alternatives[e[2] >> ACTION_SHIFT].label} " + " ".join(
                    cg.card_names[c] for c in chosen)
            lines.append((mark_at.get(i), f"P{e[1] + 1}: {words}"))
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
    from rulelang.engine.control import GameProblem
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
