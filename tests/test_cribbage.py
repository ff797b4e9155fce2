"""Cribbage (examples/cribbage.cardrules), a game scored by counts of combinations: its rule
tests, the show's count against a scorer written here from the rulebook, every game played to
its end with the points pegged adding up, and the three backends agreeing."""
from __future__ import annotations

import itertools
import os
import random

import pytest

from rulelang.compile.loader import load
from rulelang.play.cardtest_plan import check_test_file
from rulelang.play.cardtest_run import run_test
from rulelang.play.scenario import var

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "examples", "cribbage.cardrules")
SIGNS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "♣♦♥♠"


def name(card):
    rank, suit = card
    return f"{SIGNS[rank - 1]}{SUITS[suit]}"


def show_points(hand, starter, crib):
    """A hand's count in the show, from the rulebook, by trying every set of its cards."""
    cards = hand + [starter]
    pips = [min(r, 10) for r, _s in cards]
    fifteens = sum(1 for k in range(2, 6) for s in itertools.combinations(pips, k) if sum(s) == 15)
    pairs = sum(1 for a, b in itertools.combinations(cards, 2) if a[0] == b[0])
    runs = 0
    for k in (5, 4, 3):
        made = [s for s in itertools.combinations(cards, k)
                if len({r for r, _s in s}) == k and max(s)[0] - min(s)[0] == k - 1]
        if made:
            runs = k * len(made)
            break
    flush = 0
    if len({s for _r, s in hand}) == 1:
        flush = 5 if starter[1] == hand[0][1] else (0 if crib else 4)
    nobs = sum(1 for r, s in hand if r == 11 and s == starter[1])
    return 2 * fifteens + 2 * pairs + runs + flush + nobs


def test_the_rule_tests_of_cribbage_pass():
    tf = check_test_file(os.path.join(ROOT, "examples", "cribbage.cardtest"))
    assert not tf.diagnostics
    assert len(tf.tests) == 9
    assert [run_test(t) for t in tf.tests] == [None] * 9


def test_the_scorer_here_counts_the_rulebook_hands():
    c = lambda r, s: (r, SUITS.index(s))          # noqa: E731
    assert show_points([c(5, "♣"), c(5, "♦"), c(5, "♥"), c(11, "♠")], c(5, "♠"), False) == 29
    assert show_points([c(3, "♠"), c(3, "♥"), c(4, "♦"), c(4, "♣")], c(5, "♠"), False) == 20
    assert show_points([c(7, "♥"), c(8, "♣"), c(8, "♦"), c(9, "♠")], c(2, "♣"), False) == 12


def test_the_show_counts_as_the_rulebook_on_random_hands(tmp_path):
    """60 random hands and starters: the file's `show_points` (the built-in counts) against the
    scorer above, as a rule-test file of one expectation per hand."""
    rng = random.Random(37)
    deck = [(r, s) for s in range(4) for r in range(1, 14)]
    lines = ['rules "cribbage.cardrules"', "players 2", ""]
    for i in range(60):
        cards = rng.sample(deck, 5)
        if i % 6 == 0:                              # some flushes
            suit = cards[0][1]
            cards = rng.sample([c for c in deck if c[1] == suit], 5)
        hand, starter = cards[:4], cards[4]
        crib = i % 2 == 1
        lines += [f'test "hand {i}":', "    given:",
                  f"        hand of player 2: {', '.join(name(c) for c in cards)}",
                  f"        set cut to {name(starter)}", "        the rest: stock", "    expect:",
                  f"        show_points(hand of player 2, {'yes' if crib else 'no'}) is "
                  f"{show_points(hand, starter, crib)}", ""]
    (tmp_path / "cribbage.cardrules").write_text(open(EXAMPLE, encoding="utf-8").read(), encoding="utf-8")
    path = tmp_path / "hands.cardtest"
    path.write_text("\n".join(lines), encoding="utf-8")
    tf = check_test_file(str(path))
    assert not tf.diagnostics
    failures = [f for f in (run_test(t) for t in tf.tests) if f is not None]
    assert failures == []


@pytest.mark.parametrize("target", [121, 61])
def test_games_end_at_the_target_with_the_points_said(target):
    cg = load(EXAMPLE, {"target": target}).compiled(2)
    for seed in range(12):
        st = cg.new_game(seed=seed, log=True)
        rng = random.Random(seed)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(rng.choice(acts))
        assert st.problem is None
        points = [var(st, f"points/{p}") for p in (1, 2)]
        winner = st.winners[0]
        assert len(st.winners) == 1 and points[winner] >= target > points[1 - winner]
        pegged = [0, 0]
        for e in st.log:
            if e[0] == "say" and " pegs " in e[2]:
                who, n = e[2].split(" pegs ")
                pegged[int(who.split()[1]) - 1] += int(n.split()[0])
        assert pegged == points, seed
        # a deal takes about a dozen decisions: a game to 121 is several deals
        assert st.decisions > (40 if target == 121 else 15)


def test_the_reference_the_generated_code_and_the_fast_path_agree(monkeypatch):
    from closures import three_ways
    for seed in range(3):
        three_ways(EXAMPLE, 2, seed, monkeypatch, ("winners", "vars", "decisions"))
