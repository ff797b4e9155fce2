"""Counts over the combinations of a zone's cards (docs/language.md, "Combinations of cards:
fifteens, runs, pairs, flushes"): each count against a brute force written here, on the generated
code, the fast path and the reference interpreter; their diagnostics and their limit."""
from __future__ import annotations

import itertools
import random
import timeit

import pytest

from rulelang.compile.loader import check_file, load
from rulelang.limits import MAX_COMBINATION_CARDS

COUNTS = '''game "Counts"
players 2
option jokers = no "jokers in the deck"
deck standard with jokers if jokers, copies 2, into stock
zone stock: shared, face down
zone table: shared, face up
attribute points:
    jack, queen, king: 10
    joker: 0
    otherwise: rank of card
setup:
    shuffle stock
turn:
    shuffle stock
    move (5 + number of turns mod 4) cards from stock to table
    say number of combinations of cards in table whose total points is 15, \\
        number of combinations of cards in table whose total rank is 10 + number of turns mod 7
    say longest run in table, number of longest runs in table, number of pairs in table
    say most cards of one rank in table, most cards of one suit in table
    move all cards from table to stock
game ends after 40 turns:
    end game with no winner
'''


def _brute(cards, points, rank, suit, turn):
    """The counts of one turn, from their definitions: every set of cards, every run."""
    def sets_totalling(value, n):
        return sum(1 for k in range(1, len(cards) + 1) for s in itertools.combinations(cards, k)
                   if sum(value(c) for c in s) == n)
    best, ways = 0, 0
    for k in range(len(cards), 0, -1):
        found = [s for s in itertools.combinations(cards, k)
                 if all(1 <= rank(c) <= 13 for c in s) and len({rank(c) for c in s}) == k
                 and max(rank(c) for c in s) - min(rank(c) for c in s) == k - 1]
        if found:
            best, ways = k, len(found)
            break
    pairs = sum(1 for a, b in itertools.combinations(cards, 2) if rank(a) == rank(b))
    ranks = [rank(c) for c in cards]
    suits = [suit(c) for c in cards if suit(c) >= 0]
    return [f"{sets_totalling(points, 15)} {sets_totalling(rank, 10 + turn % 7)}",
            f"{best} {ways} {pairs}",
            f"{max(ranks.count(r) for r in ranks)} {max([suits.count(s) for s in suits] or [0])}"]


def test_the_counts_agree_with_a_brute_force(tmp_path):
    path = tmp_path / "counts.cardrules"
    path.write_text(COUNTS.replace("    move all cards from table to stock\n",
                                   "    say the cards in table\n    move all cards from table to stock\n"))
    game = load(str(path))
    st = game.compiled(2).new_game(seed=11, log=True)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    said = [e[2] for e in st.log if e[0] == "say"]
    signs = {"A": 1, "J": 11, "Q": 12, "K": 13}
    suits = "♣♦♥♠"
    for turn in range(40):
        lines = said[4 * turn:4 * turn + 4]
        names = lines[3].split(", ")
        assert len(names) == 5 + turn % 4
        cards = [(signs.get(n[:-1]) or int(n[:-1]), suits.index(n[-1])) for n in names]
        expect = _brute(cards, lambda c: min(c[0], 10), lambda c: c[0], lambda c: c[1], turn)
        assert lines[:3] == expect, (turn, names)


def test_the_reference_the_generated_code_and_the_fast_path_agree(tmp_path, monkeypatch):
    from closures import three_ways
    path = tmp_path / "counts.cardrules"
    path.write_text(COUNTS.replace(
        "option jokers = no", "option jokers = yes"))
    for seed in range(4):
        three_ways(str(path), 2, seed, monkeypatch, ("winners", "vars", "decisions"))


def _codes(tmp_path, text):
    path = tmp_path / "g.cardrules"
    path.write_text(text)
    diags, _model, _ = check_file(str(path))
    return [d.code for d in diags]


def test_a_total_of_words_runs_without_ranks_and_suits_of_suitless_cards(tmp_path):
    words = COUNTS.replace("attribute points:", "attribute colour:\n    hearts, diamonds: red\n"
                           "    otherwise: black\nattribute points:").replace(
        "whose total points is 15", "whose total colour is 15")
    assert _codes(tmp_path, words) == ["RL290"]
    tokens = '''game "Tokens"
players 2
deck type tokens:
    extra chips: red_chip, blue_chip with rank chip = 1
    copies 4 of red_chip, blue_chip
deck tokens with chips, into pot
zone pot: shared, face up
setup:
    shuffle pot
turn:
    say longest run in pot, number of longest runs in pot, most cards of one suit in pot
    say number of pairs in pot, most cards of one rank in pot
    end game with no winner
'''
    assert _codes(tmp_path, tokens) == ["RL291", "RL291", "RL292"]


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_combinations_are_counted_among_at_most_16_cards(tmp_path, monkeypatch, backend):
    if backend == "closures":
        from closures import closures_only
        closures_only(monkeypatch)
    for n, ok in ((MAX_COMBINATION_CARDS, True), (MAX_COMBINATION_CARDS + 1, False)):
        path = tmp_path / f"many{n}.cardrules"
        path.write_text(COUNTS.replace("(5 + number of turns mod 4) cards", f"{n} cards"))
        st = load(str(path)).compiled(2).new_game(seed=1, log=True)
        assert st.is_terminal()
        if ok:
            assert st.problem is None
        else:
            assert st.problem["code"] == "RL293" and st.problem["span"][1:3] == [16, 9], st.problem


def test_the_words_stay_names_where_they_begin_no_count(tmp_path):
    text = COUNTS.replace('option jokers', 'var most = 3\nvar longest = 2\noption jokers').replace(
        "    say most cards of one rank", "    say most, longest\n    say most cards of one rank")
    assert _codes(tmp_path, text) == []


def test_a_count_over_five_to_eight_cards_takes_microseconds():
    from rulelang.engine.combos import combinations_counter, groups_counter, places_of, runs_counter
    rank_of = [r for r in range(1, 14) for _s in range(4)]
    points = [min(r, 10) for r in rank_of]
    fifteens = combinations_counter(points, None)
    runs = runs_counter(places_of(rank_of, list(range(1, 14))), True)
    pairs = groups_counter(rank_of, "pairs")
    rng = random.Random(3)
    for n in (5, 8):
        hands = [rng.sample(range(52), n) for _ in range(100)]
        for count in (lambda h: fifteens(h, 15), runs, pairs):
            seconds = min(timeit.repeat(lambda: [count(h) for h in hands], number=20, repeat=3))
            per_count = seconds / (20 * len(hands))
            assert per_count < 200e-6, (n, per_count)    # microseconds, even on a busy machine


def test_the_rulebook_says_each_count_in_words(capsys, monkeypatch):
    from rulelang.cli.commands import main
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["rulebook", "examples/cribbage.cardrules"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for words in ("the number of combinations of the cards in",
                  "with a total pips of 15",
                  "the length of the longest run in",
                  "the number of ways", "makes its longest run",
                  "the number of pairs of cards of one rank in",
                  "the most cards of one rank in", "the most cards of one suit in"):
        assert words in out, words
