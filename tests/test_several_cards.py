"""Several cards in one step: `N [or more] cards c [of one rank] from Z to D`.
The language asks for the cards one at a time, never offers the same set twice in different
orders, reveals nothing before the set is complete, then moves the cards together; the same with
the generated code and with closures; and the example game Pass the Sets plays to the end."""
from __future__ import annotations

import itertools
import json
import os
from collections import Counter

import pytest

from rulelang.compile.loader import load
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK

from closures import closures_only

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "pass_the_sets.cardrules")

GAME = """game "sets"
players 2
deck standard, copies COPIES, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone passing: per player, seen by owner, size hidden
zone pile: shared, face up
setup:
    shuffle stock
    deal 7 from stock to hand of each player
turn:
    choose:
        pass "pass three cards" 3 cards c from hand to passing:
            say "passed", c
        lay 2 or more cards c of one rank from hand to pile:
            pass
    end game with no winner
"""


def game(copies=1, gen=True, monkeypatch=None):
    if not gen:
        closures_only(monkeypatch)
    cg = load("sets.cardrules", text=GAME.replace("COPIES", str(copies))).compiled(2)
    return cg


def alt_of(cg, action):
    return cg.alternatives[action >> ACTION_SHIFT].label


def names(cg, cards):
    return [cg.card_names[c] for c in cards]


def paths(st, label, cg, done=()):
    """Every way of finishing the several-cards choice of alternative `label`: (cards, state)."""
    out = []
    for a in st.legal_actions():
        if not done and alt_of(cg, a) != label:
            continue
        s = st.clone()
        s.apply_action(a)
        if s.current_player() == st.current_player() and not s.terminal and \
                s.legal_actions() and all(alt_of(cg, b) in (label, "no more cards")
                                          for b in s.legal_actions()):
            out += paths(s, label, cg, done + (a,))
        else:
            out.append((done + (a,), s))
    return out


@pytest.mark.parametrize("gen", [True, False])
def test_three_cards_every_set_once_nothing_moves_before_the_last(gen, monkeypatch):
    cg = game(gen=gen, monkeypatch=monkeypatch)
    st = cg.new_game(seed=4)
    hz, pz = cg.zone_base["hand"], cg.zone_base["passing"]
    hand = list(st.zones[hz])
    first = [a for a in st.legal_actions() if alt_of(cg, a) == "pass"]
    # the first card: any card that leaves two after it in the order of the deck
    assert sorted(a & VALUE_MASK for a in first) == sorted(hand)[:-2]
    other_view = st.observation(1)
    a = first[0]
    st.apply_action(a)
    assert st.current_player() == 0
    assert st.zones[hz] == hand                      # nothing has moved yet
    assert st.observation(1) == other_view          # and the other player learns nothing
    nxt = st.legal_actions()
    assert all(alt_of(cg, b) == "pass" and (b & VALUE_MASK) > (a & VALUE_MASK) for b in nxt)
    done = paths(cg.new_game(seed=4), "pass", cg)
    sets = Counter(frozenset(x & VALUE_MASK for x in acts) for acts, _ in done)
    assert len(sets) == len(list(itertools.combinations(hand, 3))) == 35
    assert set(sets.values()) == {1}                # no set offered twice
    for acts, s in done:
        chosen = [x & VALUE_MASK for x in acts]
        assert s.zones[pz] == chosen                 # moved together, in the order chosen
        assert sorted(s.zones[hz] + chosen) == sorted(hand)


@pytest.mark.parametrize("gen", [True, False])
def test_two_or_more_of_one_rank(gen, monkeypatch):
    cg = game(gen=gen, monkeypatch=monkeypatch)
    for seed in range(40):
        st = cg.new_game(seed=seed)
        hand = list(st.zones[cg.zone_base["hand"]])
        by_rank = Counter(cg.cards[c][1] for c in hand)
        want = sum(2 ** k - 1 - k for k in by_rank.values())   # subsets of 2 or more of a rank
        done = paths(st, "lay", cg)
        sets = Counter(frozenset(x & VALUE_MASK for x in acts if alt_of(cg, x) == "lay")
                       for acts, _ in done)
        assert len(sets) == want and set(sets.values()) <= {1}, seed
        for acts, s in done:
            cards = [x & VALUE_MASK for x in acts if alt_of(cg, x) == "lay"]
            assert len({cg.cards[c][1] for c in cards}) == 1 and len(cards) >= 2
            assert s.zones[cg.zone_base["pile"]] == cards
        if want:
            return
    raise AssertionError("no seed dealt a pair")


def test_identical_copies_are_one_choice():
    cg = game(copies=2)
    for seed in range(200):
        st = cg.new_game(seed=seed)
        hand = list(st.zones[cg.zone_base["hand"]])
        if len({cg.card_names[c] for c in hand}) < len(hand):
            break
    else:
        raise AssertionError("no seed dealt two copies of a card")
    done = paths(st, "pass", cg)
    sets = Counter(tuple(sorted(names(cg, [x & VALUE_MASK for x in acts]))) for acts, _ in done)
    assert set(sets.values()) == {1}                # each multiset of names once
    distinct = Counter(cg.card_names[c] for c in hand)
    # multisets of 3 from the names, each name at most as often as the hand holds it
    want = {tuple(sorted(m)) for m in itertools.combinations(names(cg, hand), 3)}
    assert set(sets) == want and len(distinct) < len(hand)


def test_the_example_plays_to_the_end_with_sets_and_passes():
    cg = load(EXAMPLE).compiled(4)
    laid = passed = 0
    for seed in range(20):
        st = cg.new_game(seed=seed)
        st.log = []
        rng = __import__("random").Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        assert st.problem is None and st.winners
        acts = [cg.action_to_string(e[2]) for e in st.log if e[0] == "choice"]
        laid += sum(1 for x in acts if x.startswith("lay"))
        passed += sum(1 for x in acts if x.startswith("pass "))
        assert 52 == sum(len(z) for z in st.zones)
    assert laid > 0 and passed == 20 * 4 * 3


def test_json_save_in_the_middle_of_a_set():
    cg = game()
    st = cg.new_game(seed=4)
    st.apply_action([a for a in st.legal_actions() if alt_of(cg, a) == "pass"][0])
    from rulelang.engine.runtime import State
    back = State.from_json(cg, json.loads(json.dumps(st.to_json())))
    assert back.legal_actions() == st.legal_actions()
    for s in (st, back):
        s.apply_action(s.legal_actions()[0])
        s.apply_action(s.legal_actions()[0])
    assert back.zones == st.zones


def test_determinize_in_the_middle_of_a_set_gives_a_world_that_finishes_it():
    cg = game()
    st = cg.new_game(seed=4)
    st.apply_action([a for a in st.legal_actions() if alt_of(cg, a) == "pass"][0])
    for seed in range(20):
        w = st.determinize(1, seed)               # the other player: player 1's hand is unknown
        assert w.observation(1) == st.observation(1)
        while w.current_player() == 0 and not w.is_terminal():
            w.apply_action(w.legal_actions()[0])
        assert w.problem is None
        assert len(w.zones[cg.zone_base["passing"]]) == 3
