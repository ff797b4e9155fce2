"""The code the generator writes for the uses of defines (compile/codegen.py, ExprGen.expanded):
shared between the places that use a define, kept where a choice between values computes it
first, made a function of its own when it is long, passed only the locals it reads.

Each file of tests/fuzz_findings/ named here once stopped the game with an internal error
(RL999) or took seconds to `check`, though it checks clean:
  * define_in_both_branches: a define used in both branches of `(A if C else B)`, through
    another define that C computes, was kept where the branch written first computed it, which
    Python computes only when C holds (UnboundLocalError);
  * undefined_name_in_copied_rule(_search): a rule written in place of its call passed a define
    made a function (or a card search) the local of a card that a loop inside the define binds,
    a local the copy never sets (NameError);
  * slow_generation_tower: a tower of defines, each twice the one below, written again at every
    use while another define's value was kept (2^n times).
Each plays here as the reference interpreter plays it (tests/reference), through the API and on
the playout fast path, and the generator's work on a tower of n defines is counted (how many
times each define's code is written, and how many expressions in all): it grows linearly with
n, whatever is kept around the tower.  No time is measured."""
import collections
import os

import pytest

from rulelang.check.model import Expanded
import rulelang.compile.codegen as CG
from rulelang.compile.loader import load

from benchmarks import stress
from closures import three_ways

HERE = os.path.dirname(__file__)
FINDINGS = os.path.join(HERE, "fuzz_findings")
FIELDS = ["vars", "outcome", "zones"]


@pytest.mark.parametrize("name", ["define_in_both_branches", "undefined_name_in_copied_rule",
                                  "undefined_name_in_copied_rule_search", "slow_generation_tower"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_finding_plays_as_the_reference_interpreter(name, seed, monkeypatch):
    three_ways(os.path.join(FINDINGS, name + ".cardrules"), 2, seed, monkeypatch, FIELDS)


def test_the_define_in_both_branches_has_its_value(monkeypatch):
    """`won` of each player becomes result(you): wanted (2) if over (won - wanted) < 0, else
    wanted + over, which is won (3)."""
    st = three_ways(os.path.join(FINDINGS, "define_in_both_branches.cardrules"), 2, 1, monkeypatch,
                    FIELDS)
    assert st.vars == [1, 1, 3, 3]


# Both branches taken, turn by turn: `bid` grows, so `over` goes from positive to negative.
# ``{first}`` is the first condition: `over(p)` itself, or a chain of defines above it long
# enough to be a function of its own (its code was dropped for the function's call, with the
# value it kept for the branches: NameError).
BOTH = '''game "both branches"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
var bid per player = 1
var won per player = 3
var turns_left = 6
define wanted(p) = bid of p + bid of player after p
define over(p) = won of p - wanted(p)
define o1(p) = over(p) + over(p)
define o2(p) = o1(p) + o1(p)
define o3(p) = o2(p) + o2(p)
define o4(p) = o3(p) + o3(p)
define o5(p) = o4(p) + o4(p)
define o6(p) = o5(p) + o5(p)
define o7(p) = o6(p) + o6(p)
define o8(p) = o7(p) + o7(p)
define result(p) = (wanted(p) if {first} < 0 else wanted(p) + over(p) + 1)
setup:
    shuffle stock
turn:
    set won to result(you)
    add 1 to bid
    add -1 to turns_left
    if turns_left is 0:
        end game with no winner
'''


def _both_expected(n):
    """``won`` and ``bid`` at the end of a game of BOTH for ``n`` players, worked out here."""
    bid, won = [1] * n, [3] * n
    for turn in range(6):
        p = turn % n
        wanted = bid[p] + bid[(p + 1) % n]
        over = won[p] - wanted
        won[p] = wanted if over < 0 else wanted + over + 1
        bid[p] += 1
    return bid + won


@pytest.mark.parametrize("first", ["over(p)", "o8(p)"])
@pytest.mark.parametrize("n", [2, 3])
def test_a_define_in_both_branches_is_computed_before_them(tmp_path, monkeypatch, first, n):
    path = tmp_path / "both.cardrules"
    path.write_text(BOTH.replace("{first}", first), encoding="utf-8")
    st = three_ways(str(path), n, 1, monkeypatch, FIELDS)
    assert st.vars[:2 * n] == _both_expected(n)


# A rule copied in place of its call (it never decides), with a parameter and a `let`, whose
# defines bind cards of their own (`number of cards ... where`, `any card ... where`), one of
# them long enough to be a function of its own.
COPIED = '''game "copied"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var tally per player = 0
var found per player = no
define same(c) = number of cards in hand where rank of card is rank of c
define n2(c) = same(c) + same(c)
define n4(c) = n2(c) + n2(c)
define n8(c) = n4(c) + n4(c)
define n16(c) = n8(c) + n8(c)
define n32(c) = n16(c) + n16(c)
game ends when stock is empty:
    end game with no winner
setup:
    shuffle stock
    deal 4 from stock to hand of each player
rule count_up(c):
    let k = n32(c)
    set tally to k
    set found to any card in hand where same(card) >= 2
turn:
    count_up(top of hand)
    move top card from stock to hand
'''


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copied_rule_passes_its_defines_only_what_they_read(tmp_path, monkeypatch, n, seed):
    path = tmp_path / "copied.cardrules"
    path.write_text(COPIED, encoding="utf-8")
    cg = load(str(path)).compiled(n)
    assert cg.proc_index["count_up"] in cg.inline_bodies     # (written in place of its call)
    st = three_ways(str(path), n, seed, monkeypatch, FIELDS)
    tallies = st.vars[:n]
    assert all(t > 0 and t % 32 == 0 for t in tallies), tallies


# ---- the generator's work on a tower of defines -------------------------------------------------
# (benchmarks/stress.py: ``tower(k, shape)``, k defines each twice the one below, used plainly,
# beside a value kept by a choice between values, or with a kept value at the tower's bottom;
# ``define_web(k)``, k defines each using the two before it)


def generation_work(path, monkeypatch):
    """(expressions written in all, the most times one define's code was written) while the
    game of ``path`` is compiled for 2 players, through the API and for playouts."""
    written = collections.Counter()
    total = [0]
    bodies = {}
    expanded, gen = CG.ExprGen.expanded, CG.ExprGen.gen

    def counted_expanded(self, cx, ex, env):
        bodies[id(ex.body)] = ex
        return expanded(self, cx, ex, env)

    def counted_gen(self, cx, e, env):
        total[0] += 1
        ex = bodies.get(id(e))
        if ex is not None and ex.body is e:
            written[id(ex)] += 1
        return gen(self, cx, e, env)

    with monkeypatch.context() as m:
        m.setattr(CG.ExprGen, "expanded", counted_expanded)
        m.setattr(CG.ExprGen, "gen", counted_gen)
        load(path).compiled(2).playout_procs()
    assert all(isinstance(ex, Expanded) for ex in bodies.values())
    return total[0], max(written.values())


@pytest.mark.parametrize("shape", ["plain", "top", "bottom"])
def test_generation_is_linear_in_the_height_of_a_tower_of_defines(tmp_path, monkeypatch, shape):
    """Each define's code is written a bounded number of times (for each function a use is
    in: the rule, its playout variant, the functions of the defines above it down to the next
    function), however high the tower; the expressions written in all grow by about the same
    amount for each level.  (Before, beside a kept value, each define was written again at
    every use, 2^k times the bottom one; and each function of a define wrote the whole chain
    below it, k^2 in all.  The heights are tried from the lowest, so that such code is stopped
    early.)"""
    work = {}
    for k in (6, 12, 24, 40):
        path = tmp_path / f"{shape}{k}.cardrules"
        path.write_text(stress.tower(k, shape), encoding="utf-8")
        work[k] = generation_work(str(path), monkeypatch)
        assert work[k][1] <= 24, (k, work[k])
    assert work[40][1] == work[24][1], work          # (the most writes do not grow with k)
    # (from 12 on: below, the defines are short enough to be written in place, not functions)
    per_level = [(work[b][0] - work[a][0]) / (b - a) for a, b in ((12, 24), (24, 40))]
    assert max(per_level) <= 1.2 * min(per_level), per_level


def calls_in_a_game(path):
    """How many generated functions are called while a game of ``path`` for 2 players is
    played (it has no decision: `new_game` plays it to its end)."""
    import sys
    cg = load(path).compiled(2)
    calls = [0]

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == "<rulelang>":
            calls[0] += 1

    sys.setprofile(profile)
    try:
        st = cg.new_game(seed=1)
    finally:
        sys.setprofile(None)
    assert st.is_terminal()
    return calls[0]


def test_a_defines_function_computes_the_one_below_once(tmp_path):
    """In a define's function, each define below is computed once (its function's call first,
    or its code in place), the value shared by its uses: the calls made while a game is played
    grow linearly with the height of a tower, not as 2^k."""
    calls = {}
    for k in (12, 18, 24):
        path = tmp_path / f"tower{k}.cardrules"
        path.write_text(stress.tower(k, "plain"), encoding="utf-8")
        calls[k] = calls_in_a_game(str(path))
    assert calls[24] - calls[18] <= 2 * (calls[18] - calls[12]) + 20, calls


@pytest.mark.parametrize("shape", ["top", "bottom"])
def test_a_tower_under_a_kept_value_plays_as_the_reference_interpreter(tmp_path, monkeypatch,
                                                                          shape):
    path = tmp_path / "tower.cardrules"
    path.write_text(stress.tower(10, shape), encoding="utf-8")
    for seed in (1, 2):
        three_ways(str(path), 2, seed, monkeypatch, FIELDS)
