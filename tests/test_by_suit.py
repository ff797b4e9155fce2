"""Selectors by suit and rank (`suit s with highest V`, `rank r with lowest
V`), checked against the same things counted in Python, and families of zones per player
(`pile(k)` is yours, `pile(k) of p` is p's), both with the generated code and with closures."""
from collections import Counter

import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only

SELECT = '''game "select"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var long "Long suit": suit = none
var short "Short suit": suit = none
var common "Common rank" = 0
var rare "Rare rank" = 0
var best "Top of the long suit": card = none
setup:
    shuffle stock
    deal 9 from stock to hand of each player
turn:
    set long to suit s with highest number of cards in hand where suit of card is s
    set short to suit s with lowest number of cards in hand where suit of card is s
    set common to rank r with highest number of cards in hand where rank of card is r
    set rare to rank r with lowest total of rank of card among cards in hand where rank of card is r
    set best to highest card in hand by rank of card where suit of card is long
    end game with no winner
'''


def _first_best(items, key, high):
    best = None
    for x in items:
        if best is None or (key(x) > key(best) if high else key(x) < key(best)):
            best = x
    return best


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_suit_and_rank_with_highest_and_lowest(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    p = tmp_path / "select.cardrules"
    p.write_text(SELECT)
    assert not [d for d in check_file(str(p))[0] if d.is_error]
    cg = load(str(p)).compiled(2)
    suits = cg.model.suits
    for seed in range(30):
        st = cg.new_game(seed=seed)
        while not st.is_terminal():
            st.apply_action(st.legal_actions()[0])
        hand = st.zones[cg.zone_base["hand"]]
        ranks = [cg.rank_of[c] for c in hand]
        by_suit = Counter(suits[cg.suit_of[c]] for c in hand)
        by_rank = Counter(ranks)
        v = {name: st.vars[cg.var_base[name]] for name in ("long", "short", "common", "rare", "best")}
        long = _first_best(suits, lambda s: by_suit[s], True)
        assert suits[v["long"]] == long
        assert suits[v["short"]] == _first_best(suits, lambda s: by_suit[s], False)
        deck_ranks = sorted(set(cg.rank_of[:-1]))
        assert v["common"] == _first_best(deck_ranks, lambda r: by_rank[r], True)
        # a rank not in the hand totals 0: the lowest rank missing from the hand
        assert v["rare"] == _first_best(deck_ranks, lambda r: by_rank[r] * r, False)
        of_long = [c for c in hand if suits[cg.suit_of[c]] == long]
        assert v["best"] == _first_best(of_long, lambda c: cg.rank_of[c], True)


def test_the_value_must_speak_of_the_suit(tmp_path):
    p = tmp_path / "bad.cardrules"
    p.write_text(SELECT.replace("where suit of card is s\n    set short", "where suit of card is hearts\n    set short"))
    codes = [(d.code, d.span.line) for d in check_file(str(p))[0]]
    assert ("RL242", 15) in codes


PILES = '''game "piles"
players 3
deck standard, into stock
zone stock: shared, face down
zone pile 1 to 3 "Pile": per player, face up
game ends when stock is empty:
    end game with winner player with highest size of pile(1) of player
setup:
    shuffle stock
    for each player p:
        move top card from stock to pile(1) of p
        move top card from stock to pile(3) of p
turn:
    choose:
        take card c from pile(3) of next player:
            move c from pile(3) of next player to pile(1)
        draw:
            move top card from stock to pile(2)
            move top card from stock to pile(3) of next player
'''


def _piles(cg, st):
    return {(k, p): list(st.zones[cg.zone_base[f"pile_{k}"] + p]) for k in (1, 2, 3) for p in range(3)}


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_families_per_player(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    p = tmp_path / "piles.cardrules"
    p.write_text(PILES)
    assert not check_file(str(p))[0]
    cg = load(str(p)).compiled(3)
    st = cg.new_game(seed=5)
    piles = _piles(cg, st)
    for pl in range(3):
        assert len(piles[(1, pl)]) == len(piles[(3, pl)]) == 1 and piles[(2, pl)] == []
    # player 1 takes the card of player 2's pile 3 into their own pile 1
    take = [a for a in st.legal_actions() if st.action_to_string(a).startswith("take")]
    assert len(take) == 1
    st.apply_action(take[0])
    after = _piles(cg, st)
    assert after[(1, 0)] == piles[(1, 0)] + piles[(3, 1)] and after[(3, 1)] == []
    # player 2 draws: one card to their pile 2, one to player 3's pile 3
    st.apply_action(next(a for a in st.legal_actions() if st.action_to_string(a) == "draw"))
    again = _piles(cg, st)
    assert len(again[(2, 1)]) == 1 and len(again[(3, 2)]) == 2
    assert again[(2, 0)] == again[(2, 2)] == []
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[-1])
    sizes = [len(st.zones[cg.zone_base["pile_1"] + q]) for q in range(3)]
    assert st.winners == [sizes.index(max(sizes))]
