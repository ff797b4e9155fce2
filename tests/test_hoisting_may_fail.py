"""A part of a card condition that does not depend on the card is computed once, before the
cards (codegen.ExprGen.gen_hoisting), unless computing it may stop the game (Fold.may_fail):
then it is computed where the rules compute it, card by card, as the reference interpreter of
the tests does.  Otherwise an empty hand, or a condition decided before the part is reached,
would stop a generated game (RL911, RL912...) that the rules play on.  Each game below is played
three ways (reference interpreter, generated code, fast path) and must not stop with a problem;
each fails on a compiler that computes these parts first."""
import pytest

from rulelang.compile.loader import load
from tests.closures import three_ways

HEAD = """game "Hoisting"
players 2

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up

var x = 0
var leader: player = none
"""

PASS = """        pass_turn:
            end game with winner you
"""

CASES = {
    # a choice's list of cards, the hand empty: 10 / x is never reached
    "empty_hand_choice": ("""
turn:
    choose:
        play card c from hand where rank of c > 10 / x:
            move c from hand to pile
""" + PASS),
    # the cards are dealt, and `rank of c > 0` holds for each: `10 / x` is never reached
    "decided_before_the_part": ("""
setup:
    shuffle stock
    deal 3 from stock to hand of each player

turn:
    choose:
        play card c from hand where rank of c > 0 or 10 / x > 1:
            move c from hand to pile
            end game with winner you
""" + PASS),
    # `any card ... where` (a function of its own, with its own loop)
    "empty_hand_search": ("""
turn:
    if any card in hand where rank of card > 10 / x:
        say "never"
    end game with winner you
"""),
    # a count of cards (a loop inside an expression), the hand empty
    "empty_hand_count": ("""
turn:
    if (number of cards in hand where rank of card > 10 mod x) > 0:
        say "never"
    end game with winner you
"""),
    # a condition of cases asked once before the cards (ChoiceGen.unswitched)
    "empty_hand_cases": ("""
turn:
    choose:
        play card c from hand where (rank of c > 5 if 10 / x > 1, rank of c < 3 otherwise):
            move c from hand to pile
""" + PASS),
    # `none` used as a player, the hand empty
    "empty_hand_no_player": ("""
turn:
    choose:
        play card c from hand where rank of c > size of hand of leader:
            move c from hand to pile
""" + PASS),
}

# A define long enough to be a function of its own (codegen.HELPER_NODES) computes the defines it
# calls first, when that cannot fail; here the called one divides by x and only the branch
# where x is not 0 reaches it.
def _sum(term, k):
    """``term + term + ...`` (k terms) in balanced parentheses: long, but not deeply nested."""
    if k == 1:
        return term
    return f"({_sum(term, k // 2)} + {_sum(term, k - k // 2)})"


DEFINES = HEAD + """
define part = """ + _sum("100 / x", 100) + """
define whole = (0 if x is 0 else part + """ + _sum("size of stock", 300) + """)

turn:
    if whole > 0:
        say "never"
    end game with winner you
"""


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_part_that_may_fail_is_computed_where_the_rules_compute_it(name, tmp_path, monkeypatch):
    path = tmp_path / f"{name}.cardrules"
    path.write_text(HEAD + CASES[name])
    load(str(path))                     # the file is well formed
    st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "winners"])
    assert st.outcome != "error" and st.problem is None, st.problem
    assert st.winners in ([0], [1])


def test_a_define_that_may_fail_is_not_computed_first(tmp_path, monkeypatch):
    path = tmp_path / "defines.cardrules"
    path.write_text(DEFINES)
    st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "winners"])
    assert st.problem is None and st.winners == [0]


def test_the_part_still_stops_the_game_where_the_rules_reach_it(tmp_path, monkeypatch):
    """With a card in hand the division is reached: RL911 in all three, at the same place."""
    path = tmp_path / "reached.cardrules"
    path.write_text(HEAD + """
setup:
    deal 1 from stock to hand of each player

turn:
    choose:
        play card c from hand where rank of c > 10 / x:
            move c from hand to pile
""" + PASS)
    st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "winners"])
    assert st.problem is not None and st.problem["code"] == "RL911"


def test_the_usual_loop_reads_a_value_that_may_fail_at_no_cost_per_card(tmp_path):
    """A choice's list whose condition has a part that may fail (here 10 / x) computes it once,
    inside `try`; then two loops: one for when it failed, computing every part card by card,
    and the usual one, which reads the value as it is (no test per card)."""
    from rulelang.compile.rulegen import RuleGen
    path = tmp_path / "two_loops.cardrules"
    path.write_text(HEAD + CASES["empty_hand_choice"])
    cg = load(str(path)).compiled(2)
    for playout in (False, True):
        rg = RuleGen(cg, playout=playout)
        rg.compile_rule(cg.model.rules["turn"].decl.body, cg.proc_index["turn"])
        src = rg.src
        assert "except _problem:" in src and " is _fail:" in src, src
        assert "is not _fail" not in src, src
        assert src.count("_div(10,") == 2, src      # computed first, and in the second loop


ENDS = """game "Ends"
players 2

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner

var armed = 0

game ends when armed is 1 and (hand is empty or 10 / (size of hand - 3) > 100):
    end game with winner you

setup:
    move 2 cards from stock to hand of player 1

turn:
    if you is player 1:
        move top card from stock to hand
        set armed to 1
    else:
        end game with no winner
"""


def test_an_ending_that_may_fail_is_asked_in_the_rules_order(tmp_path, monkeypatch):
    """The endings are asked in turn, each from the current player on, and the first that holds
    ends the game.  A cheap test of every ending for every seat first (seat 0 first) asked
    player 1's condition, which divides by zero with 3 cards, before player 2's, which holds:
    RL911 where the rules end the game.  A condition that may fail gets no such test
    (ExprGen.endings_quick)."""
    path = tmp_path / "ends.cardrules"
    path.write_text(ENDS)
    st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "winners"])
    assert st.problem is None and st.winners == [1]


def test_a_score_is_a_part_that_may_fail(tmp_path, monkeypatch):
    """`score of you` runs the game's `score:`, which is not in the condition's tree and here
    divides by zero: with an empty hand it is never asked (Fold.may_fail counts a score)."""
    path = tmp_path / "score.cardrules"
    path.write_text(HEAD.replace("var leader: player = none\n", "var leader: player = none\n\nscore: 10 / x\n")
                    + CASES["empty_hand_choice"].replace("rank of c > 10 / x", "rank of c > score of you"))
    st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "winners"])
    assert st.problem is None and st.winners in ([0], [1])
