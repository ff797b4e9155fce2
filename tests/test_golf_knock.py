"""Four-Card Golf (examples/golf.cardrules): after a knock every other player has one more
turn, then the game ends, before the knocker's turn comes round again."""
import os
import random

import pytest

from rulelang.compile.loader import load

from gametest import choices

GOLF = os.path.join(os.path.dirname(__file__), "..", "examples", "golf.cardrules")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_a_knock_each_other_player_has_one_more_turn(players):
    game = load(GOLF)
    knocks = 0
    for seed in range(30):
        st = game.new_game(players, seed=seed, log=True)
        rng = random.Random(seed)
        knocker, after = None, []
        while not st.is_terminal():
            words = choices(st)
            p = st.current_player()
            if knocker is None and "knock" in words:
                knocker = p
                st.apply_action(words["knock"])
                continue
            if knocker is not None and (not after or after[-1] != p):
                after.append(p)         # a turn of another player after the knock
            st.apply_action(words[rng.choice(sorted(words))])
        if knocker is None:
            continue
        knocks += 1
        others = [(knocker + k) % players for k in range(1, players)]
        assert after == others, (seed, knocker, after)
    assert knocks >= 20
