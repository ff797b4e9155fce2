"""`end game by highest/lowest score` (issue 13, item 6): the players with the best score win,
unless every player has it; then nobody won and everybody draws (a game against a house in which
every player lost alike used to make all of them winners)."""
from __future__ import annotations

import pytest

from rulelang.loader import load

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
    end game by WHICH score
"""


def play(n, a, b, which="highest"):
    text = GAME.replace("WHICH", which)
    if b is None:
        text = text.replace("    set points of player 2 to B\n", "")
    text = text.replace(" A\n", f" {a}\n").replace(" B\n", f" {b}\n")
    st = load("ties.cardrules", text=text).compiled(n).new_game(seed=1)
    assert st.is_terminal() and st.problem is None
    return st


@pytest.mark.parametrize("which", ["highest", "lowest"])
def test_every_player_alike_is_a_draw(which):
    st = play(2, -1, -1, which)                   # both lost to the house alike
    assert st.winners == [] and st.results() == ["draw", "draw"]
    assert st.returns() == [0.0, 0.0]
    st = play(3, 0, 0, which)                      # player 3 scores 0 too
    assert st.results() == ["draw"] * 3


def test_some_players_sharing_the_best_score_all_win():
    st = play(3, 2, 2)                             # player 3 has 0
    assert st.winners == [0, 1] and st.results() == ["win", "win", "loss"]
    st = play(3, 0, 5, "lowest")
    assert st.winners == [0, 2] and st.returns() == [1.0, -1.0, 1.0]


def test_a_game_of_one_player_is_won_by_them():
    st = play(1, 4, None)
    assert st.winners == [0] and st.results() == ["win"]
