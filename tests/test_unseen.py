"""Blind choices: `unseen card c from Z` chooses a place, not a card; nobody
learns the card from the choice (actions, observations, words); the card at the place is the
one the alternative gets; with the generated code and with closures; and Old Maid."""
from __future__ import annotations

import json
import os
import random

import pytest

from rulelang.compile.loader import load
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK

from closures import closures_only

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "old_maid.cardrules")

GAME = """game "blind"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
setup:
    shuffle stock
    deal 5 from stock to hand of each player
turn:
    choose:
        take "take a card unseen" unseen card c from hand of next player:
            move c from hand of next player to hand
    if number of turns > 3:
        end game with no winner
"""


def game(gen=True, monkeypatch=None):
    if not gen:
        closures_only(monkeypatch)
    return load("blind.cardrules", text=GAME).compiled(3)


def hand(cg, st, p):
    return st.zones[cg.zone_base["hand"] + p]


@pytest.mark.parametrize("gen", [True, False])
def test_the_choice_is_a_place_and_the_card_there_arrives(gen, monkeypatch):
    cg = game(gen, monkeypatch)
    st = cg.new_game(seed=3)
    other = list(hand(cg, st, 1))
    legal = st.legal_actions()
    assert [a & VALUE_MASK for a in legal] == list(range(len(other)))
    for place in range(len(other)):
        s = st.clone()
        s.apply_action(legal[place])
        assert hand(cg, s, 0)[-1] == other[place]
        assert other[place] not in hand(cg, s, 1)


def test_nobody_learns_the_card_from_the_choice():
    cg = game()
    st = cg.new_game(seed=3)
    names = [cg.card_names[c] for c in hand(cg, st, 1)]
    obs = json.dumps(st.observation(0))
    assert not any(n in obs for n in names)          # the chooser sees places, not cards
    words = [cg.action_to_string(a) for a in st.legal_actions()]
    assert words == [f"take #{k + 1}" for k in range(len(names))]
    assert not any(n in w for w in words for n in names)
    # in the worlds the chooser imagines, the places hold any of the cards they do not see
    seen = set()
    for seed in range(25):
        w = st.determinize(0, seed)
        assert w.legal_actions() == st.legal_actions()
        seen.add(hand(cg, w, 1)[0])
    assert len(seen) > 5


@pytest.mark.parametrize("players", [2, 3, 5])
def test_old_maid_plays_to_the_end_the_last_player_left_loses(players):
    cg = load(EXAMPLE).compiled(players)
    for seed in range(15):
        st = cg.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            acts = st.legal_actions()
            assert all(cg.alternatives[a >> ACTION_SHIFT].kind == "place" for a in acts)
            st.apply_action(rng.choice(acts))
        assert st.problem is None
        res = st.results()
        assert res.count("loss") == 1 and res.count("win") == players - 1
        loser = res.index("loss")
        # the loser holds the one queen left without its pair, and nobody else holds a card
        assert [cg.card_names[c][0] for c in hand(cg, st, loser)] == ["Q"]
        assert all(not hand(cg, st, p) for p in range(players) if p != loser)
