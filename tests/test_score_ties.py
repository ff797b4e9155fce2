"""`end game by highest/lowest score`: the players with the best score win,
every one of them when they tie, all of them when all tie (Attack!'s rule text: "equal totals,
both win", rules/attack.cardtest); a game against a house, where every player may lose, says who
beat the house with `end game with winners where ...`, and then nobody wins when all lost."""
from __future__ import annotations

import pytest

from rulelang.compile.loader import load

GAME = """game "ties"
players 1 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var points: number per player = 0
score: points
setup:
    pass
turn:
    set points of player 1 to A
    set points of player 2 to B
    END
"""


def play(n, a, b, end="end game by highest score"):
    text = GAME.replace("END", end)
    if b is None:
        text = text.replace("    set points of player 2 to B\n", "")
    text = text.replace(" A\n", f" {a}\n").replace(" B\n", f" {b}\n")
    st = load("ties.cardrules", text=text).compiled(n).new_game(seed=1)
    assert st.is_terminal() and st.problem is None
    return st


@pytest.mark.parametrize("which", ["highest", "lowest"])
def test_by_score_every_player_alike_all_win(which):
    st = play(2, -1, -1, f"end game by {which} score")
    assert st.winners == [0, 1] and st.results() == ["win", "win"]


def test_some_players_sharing_the_best_score_all_win():
    st = play(3, 2, 2)                             # player 3 has 0
    assert st.winners == [0, 1] and st.results() == ["win", "win", "loss"]
    st = play(3, 0, 5, "end game by lowest score")
    assert st.winners == [0, 2] and st.returns() == [1.0, -1.0, 1.0]


def test_against_a_house_every_player_who_lost_loses():
    house = "end game with winners where points of player > 0, losers where points of player < 0"
    st = play(2, -1, -1, house)                    # both lost to the house
    assert st.winners == [] and st.results() == ["loss", "loss"]
    assert st.returns() == [-1.0, -1.0]
    st = play(3, 1, -1, house)
    assert st.results() == ["win", "loss", "draw"]


def test_a_game_of_one_player_is_won_by_them():
    st = play(1, 4, None)
    assert st.winners == [0] and st.results() == ["win"]
