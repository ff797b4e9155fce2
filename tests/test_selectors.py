"""Selectors, aggregates and card literals, as scenarios: a table laid out with card
literals, and what each selector must say about it, in the generated code and in the closures."""
import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only, not_generated

GAME = '''game "g"
players 3
deck standard, into stock
zone stock: shared, face up
zone hand: per player, seen by owner
zone table: shared, face up
var points per player = 0
attribute high:
    ace: 14
    K♥: 20
    queen of clubs: 30
    otherwise: rank of card
setup:
    move 7♠ from stock to table
    move A♦ from stock to table
    move 7♥ from stock to table
    move 2♣ from stock to table
    move K♥ from stock to table
    move Q♣ from stock to hand of player 2
    move Q♦ from stock to hand of player 2
    move 3♠ from stock to hand of player 3
    set points of player 3 to 5
    set points of player 2 to 5
turn:
    say highest high of card among cards in table, lowest high of card among cards in table
    say highest rank of card among cards in table where suit of card is spades
    say lowest rank of card among cards in table where suit of card is clubs and rank of card > 5
    say total of high of card among cards in table where rank of card is 7
    say highest card in table by rank of card, lowest card in table by high of card
    say highest card in table by rank of card where rank of card is 7
    say lowest card in table by rank of card where rank of card is 7
    say highest card in hand by rank of card is none
    say highest rank r where (number of cards in table where rank of card is r) >= 2
    say lowest rank r where any card in table where rank of card is r
    say highest number n from 1 to 10 where n * n < 50, lowest number n from 3 to 10 where n mod 4 is 0
    say highest number n from 5 to 3 where n > 0
    say player with highest size of hand of player, player with lowest size of hand of player
    say player with highest points of player, player with lowest points of player
    say high of Q♣, high of K♥, high of queen of clubs, Q♣ is queen of clubs, 10♥ is 10♥
    say any card in table where card is K♥, any card in table where card is K♠
    for each card c in table:
        say c, highest rank of card among cards in table where rank of card < rank of c
    end game with no winner
'''

SAID = [
    "20 2",
    "7",
    "0",
    "14",
    "K♥ 2♣",
    "7♠",                       # equals: the first from the bottom
    "7♠",
    "yes",                      # no card in an empty hand: none
    "7",
    "1",                        # a number, not a rank's name: 0 stands for no rank
    "7 4",
    "0",                        # an empty range
    "player 2 player 1",        # player 1 (you) has no card and comes first
    "player 2 player 1",        # players 2 and 3 have 5: the first from you
    "30 20 30 yes yes",
    "yes no",
    "7♠ 2", "A♦ 0", "7♥ 2", "2♣ 1", "K♥ 7",
]


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_selectors_over_a_laid_out_table(tmp_path, monkeypatch, backend):
    path = tmp_path / "g.cardrules"
    path.write_text(GAME, encoding="utf-8")
    assert check_file(str(path))[0] == []
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(str(path)).new_game(3, seed=1, log=True)
    assert st.is_terminal() and st.problem is None
    assert [e[2] for e in st.log if e[0] == "say"] == SAID


def test_the_generated_code_writes_the_selectors_itself(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(GAME, encoding="utf-8")
    game = load(str(path))
    assert not_generated(game.compiled(3)) == []


def test_a_card_literal_is_a_card_of_the_deck(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(GAME.replace("K♥: 20", "K♥: 20\n    J♤: 3").replace(
        "say any card in table where card is K♥, any card in table where card is K♠",
        "say Z♠, 1♠ is A♠, 12♣ is queen♣"), encoding="utf-8")
    diags = check_file(str(path))[0]
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [("RL240", 11, 5),
                                                                     ("RL240", 41, 9)]
    assert "`J♤`" in diags[0].message and "(♣ ♦ ♥ ♠)" in diags[0].hint


OWN_SUIT = '''game "g"
players 2
deck type small:
    suits winds, flames
    ranks queen = 1, king = 2
    suit gods with ranks lady = 1, thief = 3
deck small, into stock
zone stock: shared, face up
attribute worth:
    king of winds: 5
    thief of gods: 7
    otherwise: 1
setup:
    pass
turn:
    say worth of king of winds, worth of thief of gods, worth of queen of flames, total worth of stock
    say queen of winds is bottom of stock, lady of gods is bottom of stock, thief of winds
    end game with no winner
'''


def test_cards_by_name_for_a_deck_without_signs(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(OWN_SUIT, encoding="utf-8")
    diags = check_file(str(path))[0]
    assert [(d.code, d.span.line) for d in diags] == [("RL240", 17)]      # thieves are gods
    path.write_text(OWN_SUIT.replace(", thief of winds", ""), encoding="utf-8")
    st = load(str(path)).new_game(2, seed=1, log=True)
    assert [e[2] for e in st.log if e[0] == "say"] == ["5 7 1 16", "yes no"]


RUNS = '''game "g"
players 1
deck standard, into stock
zone stock: shared, face up
zone table: shared, face up
define holds(r, s) = any card in table where rank of card is r and suit of card is s
define run3(r, s) = holds(r, s) and holds(rank after r, s) and holds(rank after rank after r, s)
define one_suit = (number of cards in table where suit of card is suit of top of table) is size of table
setup:
    move K♠ from stock to table
    move A♠ from stock to table
    move 2♠ from stock to table
    move 5♥ from stock to table
    move 6♥ from stock to table
    move 7♥ from stock to table
    move 6♣ from stock to table
turn:
    for each suit s:
        say s, highest rank r where run3(r, s), lowest rank r where run3(r, s)
    say one_suit
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_runs_in_one_suit_round_the_corner(tmp_path, monkeypatch, backend):
    """Runs of three in one suit, in the deck's order of ranks with its wrap (`rank after`
    the king is the ace): K-A-2 of spades is a run from the king."""
    path = tmp_path / "g.cardrules"
    path.write_text(RUNS, encoding="utf-8")
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(str(path)).new_game(1, seed=1, log=True)
    assert [e[2] for e in st.log if e[0] == "say"] == [
        "clubs 0 0", "diamonds 0 0", "hearts 5 5", "spades 13 13", "no"]
