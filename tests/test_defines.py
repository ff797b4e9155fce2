"""Defines are checked and compiled once per use with the same arguments in the same place, not
copied at every use: a chain of defines each using the one below several
times checks, compiles and runs in time linear in its text; `f(f(1))` is not a define using
itself."""
import random
import time

import pytest

from rulelang.check.ir import DefineUse
from rulelang.compile.loader import check_file, load

from closures import closures_only
from gameprops import random_playout

HEAD = ('game "defines"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
        'var x = 0\n')
TAIL = 'setup:\n    shuffle stock\nturn:\n    say "value", {}\n    end game with no winner\n'


def _file(tmp_path, defines, shown):
    path = tmp_path / "defines.cardrules"
    path.write_text(HEAD + "".join(d + "\n" for d in defines) + TAIL.format(shown))
    return path


def _said(path, monkeypatch=None, backend="generated"):
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(str(path)).new_game(2, seed=1, log=True)
    random_playout(st, random.Random(1))
    assert st.problem is None
    return [e[2] for e in st.log if e[0] == "say"]


def _chain(levels, uses, params=False):
    """``define d1 = x + 1``, then each level the one below ``uses`` times (``+`` and ``-``)."""
    if params:
        out = ["define d1(a) = a + x + 1"]
        below = "d{}(a + 1)"
    else:
        out = ["define d1 = x + 1"]
        below = "d{}"
    for k in range(2, levels + 1):
        terms = [below.format(k - 1)] * uses
        body = terms[0] + "".join((" + " if i % 2 else " - ") + t for i, t in enumerate(terms[1:], 1))
        out.append(f"define d{k}{'(a)' if params else ''} = {body}")
    return out


def _check_seconds(path):
    start = time.process_time()
    diags, model, _ = check_file(str(path))
    assert model is not None and not [d for d in diags if d.is_error], diags
    return time.process_time() - start, model


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_define_used_in_the_argument_of_itself_does_not_use_itself(tmp_path, monkeypatch, backend):
    path = _file(tmp_path, ["define f(v) = v + 1", "define g = f(f(1))"], "g, f(f(f(x)))")
    assert _said(path, monkeypatch, backend) == ["value 3 3"]


def test_a_define_that_really_uses_itself_is_still_rl113(tmp_path):
    path = _file(tmp_path, ["define f(v) = f(v) + 1"], "f(1)")
    diags, _, _ = check_file(str(path))
    assert [d.code for d in diags if d.is_error] == ["RL113"]


def test_the_chain_of_issue_11_checks_in_well_under_a_second_and_runs(tmp_path):
    """20 defines each adding the one below to itself: 2**19 copies of `x + 1` when copied."""
    path = _file(tmp_path, _chain(20, 2), "d20")
    assert len(path.read_bytes()) < 900
    seconds, model = _check_seconds(path)
    assert seconds < 0.5
    # one checked copy per define, not one per use
    copies = {id(r.expanded) for r in model.refs.values() if isinstance(r, DefineUse)}
    assert len(copies) == 20
    assert _said(path) == [f"value {2 ** 19}"]


@pytest.mark.parametrize("params", [False, True])
def test_nine_levels_each_using_the_one_below_three_times(tmp_path, monkeypatch, params):
    path = _file(tmp_path, _chain(9, 3, params), "d9" + ("(2)" if params else ""))
    seconds, _ = _check_seconds(path)
    assert seconds < 0.5
    # d1 is 1 (with a: a + 1); each level is the one below (+ and - cancel out)
    expected = ["value 11"] if params else ["value 1"]
    assert _said(path) == expected
    assert _said(path, monkeypatch, "closures") == expected


def test_thirty_levels_compile_to_code_that_computes_each_level_once(tmp_path):
    """3**29 evaluations if each use were computed again; a function per large define that
    computes the define below once makes it a few thousand operations.  (Forty levels are past
    the depth limit on expressions with their defines put in place, RL202: below.)"""
    path = _file(tmp_path, _chain(30, 3), "d30")
    start = time.process_time()
    assert _said(path) == ["value 1"]
    assert time.process_time() - start < 5


def test_forty_levels_are_past_the_expression_depth_limit(tmp_path):
    path = _file(tmp_path, _chain(40, 3), "d40")
    diags, _, _ = check_file(str(path))
    assert [d.code for d in diags if d.is_error] == ["RL202"]


def test_a_define_used_below_in_two_loops_over_cards_is_still_linear(tmp_path):
    """Each level uses the one below inside two different `any card in ... where` (two scopes,
    two loops its code may be hoisted out of): still one copy, one code per level."""
    defines = ["define d1 = x + 1"] + [
        f"define d{k} = (1 if (any card in stock where d{k - 1} > 0) or "
        f"(no card in stock where d{k - 1} > 1) else 0)" for k in range(2, 21)]
    path = _file(tmp_path, defines, "d20")
    seconds, _ = _check_seconds(path)
    assert seconds < 0.5
    start = time.process_time()
    assert _said(path) == ["value 1"]
    assert time.process_time() - start < 5


def _divided_chain(tmp_path, first, levels=40):
    """``define d1 = FIRST``, then each level the one below divided by itself (a division may
    stop the game: RL911), stored by `set` and said."""
    defines = [f"define d1 = {first}"] + [f"define d{k} = d{k - 1} / d{k - 1}"
                                          for k in range(2, levels + 1)]
    path = tmp_path / "divided.cardrules"
    path.write_text(HEAD + "".join(d + "\n" for d in defines) +
                    f"setup:\n    shuffle stock\nturn:\n    set x to d{levels}\n"
                    '    say "value", x\n    end game with no winner\n')
    return path


def test_a_chain_of_defines_that_may_stop_the_game_stays_linear(tmp_path):
    """A hostile chain: each level divides the one below by itself, forty levels.  Storing it
    (`set`: the test of the bound asks whether the value is a sum, fold.computes) and
    computing it (a define's function computes a define it calls once, first, even one that
    may stop the game: ExprGen.helper) looked at each level twice per use, 2^40 times.  Now
    the file compiles and plays in time linear in its text, through the API and on the fast
    path; with a first value of 0 it stops with RL911 at the first division, both ways."""
    start = time.process_time()
    path = _divided_chain(tmp_path, "x + 2")
    assert _said(path) == ["value 1"]
    cg = load(str(path)).compiled(2)
    assert cg.playout(1, [random.Random(1).randrange] * 2).outcome == "draw"
    failing = load(str(_divided_chain(tmp_path, "x"))).compiled(2)
    api = failing.new_game(seed=1)
    fast = failing.playout(1, [random.Random(1).randrange] * 2)
    assert api.problem["code"] == fast.problem["code"] == "RL911"
    assert api.to_json() == fast.to_json()
    assert time.process_time() - start < 5


def test_a_define_that_may_fail_computed_first_stops_the_game_only_where_the_rules_do(
        tmp_path, monkeypatch):
    """A define's function computes the defines it calls first; one that may fail (10 / x, x
    being 0) is kept as failed, and stops the game only where the rules reach it: not in the
    branch the rules do not take, at the division in the one they do (the reference
    interpreter, the generated code and the fast path agree)."""
    from tests.closures import three_ways
    four = " + ".join
    chain = ["define q = 10 / x", f"define a1 = {four(['q'] * 4)}",
             f"define b1 = {four(['x'] * 4)}"]
    for k in (2, 3, 4):
        chain += [f"define a{k} = {four([f'a{k - 1}'] * 4)}",
                  f"define b{k} = {four([f'b{k - 1}'] * 4)}"]
    for cond, ends in (("x is 0", "draw"), ("x is not 0", "error")):
        path = tmp_path / "guarded.cardrules"
        # (big's code is long: a function of its own, which calls a4's function first)
        path.write_text(HEAD + "".join(d + "\n" for d in chain) +
                        f"define big = (0 if {cond} else a4) + b3 + b3 + b3\n"
                        "setup:\n    shuffle stock\nturn:\n    set x to big\n"
                        "    end game with no winner\n")
        st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "problem"])
        assert st.outcome == ends, (cond, st.problem)
        assert (st.problem or {}).get("code") in (None, "RL911")


@pytest.mark.parametrize("op", ["/", "-"])
def test_a_chain_of_defines_in_a_card_condition_plays_in_linear_time(tmp_path, op):
    """The same hostile chain read in the condition of `any card ... where` and of a choice's
    list, where its code is hoisted out of the loops.  A define's code too long to copy is a
    function, which computes the defines it calls once, first (ExprGen.helper); but the code of
    a define written and then dropped for its function's call left such calls behind that
    nothing read, each computing the defines below it first: 2^n calls down the chain.  And
    a define written in place called the function below it at each of its uses.  Now nothing
    nobody reads is computed first, and a define whose code would call other defines'
    functions twice is a function itself: 200 games on the fast path and one through the API
    take well under 5 s of CPU (about 16 games a second before)."""
    defines = ["define d1 = x / 2"] + [f"define d{k} = d{k - 1} {op} d{k - 1}" for k in range(2, 41)]
    path = tmp_path / "chain.cardrules"
    path.write_text(
        'game "Chain"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
        'zone hand: per player, seen by owner\nzone pile: shared, face up\nvar x = 7\n' +
        "".join(d + "\n" for d in defines) +
        "setup:\n    shuffle stock\n    deal 5 from stock to hand of each player\n"
        "turn:\n    if any card in hand where rank of card > d40 + 1:\n        choose:\n"
        "            play card c from hand where rank of c > d40 + 1:\n"
        "                move c from hand to pile\n    else:\n        end game with winner you\n")
    start = time.process_time()
    cg = load(str(path)).compiled(2)
    ended = [cg.playout(s, [random.Random(s).randrange] * 2) for s in range(200)]
    assert all(st.outcome == "win" for st in ended)
    api = cg.new_game(seed=3)
    rng = random.Random(3)
    while not api.is_terminal():
        legal = api.legal_actions()
        api.apply_action(legal[rng.randrange(len(legal))])
    assert api.to_json() == ended[3].to_json()
    assert time.process_time() - start < 5


def test_an_argument_that_draws_is_drawn_each_time_the_define_reads_it():
    """docs/language.md, "Random draws in a define": `twice(random card of stock)` with
    `twice(c) = rank of c + rank of c` draws two cards (an odd sum happens), in the generated
    game and in the reference alike; a `let` draws once (always even)."""
    from reference import ReferenceGame

    def sums(value):
        text = ('game "twice"\nplayers 2\n\ndeck standard, into stock\nzone stock: shared, face down\n'
                'var points per player = 0\ndefine twice(c) = rank of c + rank of c\n'
                'game ends after 1 turns:\n    pass\nturn:\n' + value)
        game = load("twice.cardrules", text=text)
        out = []
        for make in (lambda: game.compiled(2), lambda: ReferenceGame(game.model, 2)):
            for seed in range(12):
                s = make().new_game(seed=seed)
                while not s.is_terminal():
                    p = s.current_players()[0]
                    s.apply_action(s.legal_actions(p)[0], p)
                out.append(s.vars[0])
        return out

    drawn_twice = sums("    add twice(random card of stock) to points\n")
    assert drawn_twice[:12] == drawn_twice[12:]
    assert any(v % 2 for v in drawn_twice)
    assert not any(v % 2 for v in sums("    let c = random card of stock\n    add twice(c) to points\n"))
