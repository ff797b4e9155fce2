"""Decisions by a set of players known at run time: `simultaneously choose by
each player/opponent [where C]` and the claim `any player [where C] may choose [from P]`, with
the generated code and with closures; and the example game May I."""
from __future__ import annotations

import os
import random

import pytest

from rulelang.compile.loader import load
from rulelang.engine.runtime import ACTION_SHIFT

from closures import closures_only

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "may_i.cardrules")

GAME = """game "claims"
players 2 to 5
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
var wants: flag per player = WANTS
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    simultaneously choose by each opponent where wants of player:
        ready:
            move top card from hand to pile
    any player where size of hand of player > 0 may choose FROM:
        grab:
            move top card from hand to pile
    end game with no winner
"""


def game(n, gen, monkeypatch, wants="yes", start=""):
    if not gen:
        closures_only(monkeypatch)
    text = GAME.replace("FROM", start).replace("WANTS", wants)
    return load("claims.cardrules", text=text).compiled(n)


def label(cg, a):
    return cg.alternatives[a >> ACTION_SHIFT].label


def hand(cg, st, p):
    return st.zones[cg.zone_base["hand"] + p]


@pytest.mark.parametrize("gen", [True, False])
def test_nobody_in_the_set_means_nobody_decides_and_nothing_runs(gen, monkeypatch):
    cg = game(5, gen, monkeypatch, wants="no")
    st = cg.new_game(seed=1)
    # nobody wants: no `ready` at all; the first decision is the claim, asked of every player
    # still in, in order of play from the player after you
    assert st.current_players() == [1, 2, 3, 4, 0]
    assert all({label(cg, a) for a in st.legal_actions(p)} == {"grab", "no claim"}
               for p in range(5))
    assert cg.new_game(seed=1).zones[cg.zone_base["pile"]] == []


@pytest.mark.parametrize("gen", [True, False])
def test_each_opponent_decides_in_secret_then_their_choices_run_in_order(gen, monkeypatch):
    cg = game(4, gen, monkeypatch)
    st = cg.new_game(seed=2)
    assert st.is_simultaneous() and st.current_players() == [1, 2, 3]     # not you (player 1)
    tops = [hand(cg, st, p)[-1] for p in range(4)]
    before = [list(hand(cg, st, p)) for p in range(4)]
    for p in (3, 1, 2):
        st.apply_action(st.legal_actions(p)[0], p)
        if p != 2:
            assert [list(hand(cg, st, q)) for q in range(4)] == before   # nothing runs yet
    assert st.zones[cg.zone_base["pile"]] == [tops[1], tops[2], tops[3]]
    assert st.current_players() == [1, 2, 3, 0]         # the claim: from the player after you


@pytest.mark.parametrize("gen", [True, False])
@pytest.mark.parametrize("claimers,start,first", [
    ({2, 3}, "", 2), ({0, 3}, "", 3), ({0}, "", 0), ({1, 2, 3}, "from player 3", 2),
    ({0, 1}, "from player 3", 0), (set(), "", None)])
def test_the_first_claim_in_order_from_p_acts_and_only_it(gen, monkeypatch, claimers, start,
                                                         first):
    cg = game(4, gen, monkeypatch, wants="no", start=start)
    st = cg.new_game(seed=2)
    tops = [hand(cg, st, p)[-1] for p in range(4)]
    for p in list(st.current_players()):
        want = "grab" if p in claimers else "no claim"
        st.apply_action(next(a for a in st.legal_actions(p) if label(cg, a) == want), p)
    assert st.is_terminal() and st.problem is None
    pile = st.zones[cg.zone_base["pile"]]
    assert pile == ([] if first is None else [tops[first]])
    for p in range(4):
        assert len(hand(cg, st, p)) == 3 - (p == first)


def test_a_claim_where_nobody_may_claim_asks_nobody():
    text = GAME.replace("FROM", "").replace("WANTS", "no").replace(
        "size of hand of player > 0 may", "size of hand of player > 5 may")
    st = load("claims.cardrules", text=text).compiled(3).new_game(seed=1)
    assert st.is_terminal() and st.problem is None


@pytest.mark.parametrize("n", [3, 5])
def test_may_i_plays_to_the_end_and_the_first_asker_gets_the_card(n):
    cg = load(EXAMPLE).compiled(n)
    claims = 0
    for seed in range(12):
        st = cg.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.is_simultaneous() and "ask" in {label(cg, a) for a in st.legal_actions()}:
                asking = list(st.current_players())
                discard = st.zones[cg.zone_base["discard"]][-1]
                rank = cg.cards[discard][1]
                for p in asking:      # only players holding two of its rank are asked
                    assert sum(cg.cards[c][1] == rank for c in hand(cg, st, p)) >= 2
                choice = {p: rng.random() < 0.5 for p in asking}
                for p in asking:
                    st.apply_action(next(a for a in st.legal_actions(p)
                                         if (label(cg, a) == "ask") == choice[p]), p)
                askers = [p for p in asking if choice[p]]
                if askers and not st.is_terminal():
                    claims += 1
                    assert discard in hand(cg, st, askers[0])
                    assert all(discard not in hand(cg, st, q) for q in askers[1:])
                continue
            p = st.current_players()[0]
            st.apply_action(rng.choice(st.legal_actions(p)), p)
        assert st.problem is None
        assert sum(len(z) for z in st.zones) == 52
    assert claims > 0
