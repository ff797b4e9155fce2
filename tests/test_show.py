"""`show c to p`: a card shown to one player only is in that player's
observation, and in the worlds `determinize` makes for them, while it is in the zone where they
saw it; nobody else learns it."""
from __future__ import annotations

import json

import pytest

from rulelang.compile.loader import load
from rulelang.engine.runtime import State

from closures import closures_only

PEEK = """game "peek"
players 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, top face up
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    if size of hand is 3:
        show top of hand of next player to you
    choose:
        keep:
            pass
        give:
            move top card from hand of next player to hand of player after next player
    if size of hand of player 1 is 0:
        end game with no winner
"""


def setup(gen=True, monkeypatch=None):
    if not gen:
        closures_only(monkeypatch)
    cg = load("peek.cardrules", text=PEEK).compiled(3)
    return cg, cg.new_game(seed=5)


def hand(cg, st, p):
    return [cg.card_names[c] for c in st.zones[cg.zone_base["hand"] + p]]


@pytest.mark.parametrize("gen", [True, False])
def test_the_card_is_known_to_the_player_shown_and_to_nobody_else(gen, monkeypatch):
    cg, st = setup(gen, monkeypatch)
    top = hand(cg, st, 1)[-1]
    assert st.observation(0)["known"] == {"hand/2": [top]}
    assert "known" not in st.observation(1)        # their own hand: nothing to remember
    assert "known" not in st.observation(2)
    assert top not in json.dumps(st.observation(2))


def test_determinize_keeps_the_card_in_the_zone_where_it_was_seen():
    cg, st = setup()
    top = hand(cg, st, 1)[-1]
    others, places = set(), set()
    for seed in range(30):
        w = st.determinize(0, seed)
        assert top in hand(cg, w, 1)
        assert w.observation(0) == st.observation(0)
        others.update(c for c in hand(cg, w, 1) if c != top)
        places.add(hand(cg, w, 1).index(top))
    assert len(others) > 4                          # the rest of that hand is dealt again
    # where in the hand it lies is not part of what was shown: it is dealt again in the hand
    assert len(places) == 3
    # player 3 was shown nothing: for them the card is anywhere hidden
    assert any(hand(cg, st.determinize(2, s), 1)[-1] != top for s in range(30))


def test_the_card_is_forgotten_when_it_leaves_that_zone():
    cg, st = setup()
    top = hand(cg, st, 1)[-1]
    st.apply_action([a for a in st.legal_actions() if st.action_to_string(a) == "give"][0])
    assert top in hand(cg, st, 2)                   # it went on to player 3's hand
    assert "known" not in st.observation(0)


def test_a_save_remembers_what_was_shown():
    cg, st = setup()
    back = State.from_json(cg, json.loads(json.dumps(st.to_json())))
    assert back.observation(0) == st.observation(0)
    bad = st.to_json()
    bad["shown"] = [[7, 0, 0]]
    with pytest.raises(ValueError):
        State.from_json(cg, bad)
