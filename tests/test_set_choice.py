"""A set of cards in one choice (`a set of 1 or more cards s from Z to D ... in groups whose
total A is E`): the sets the engine's search offers are exactly those of a brute-force list
(tests/reference/set_choice.py), in the documented order; each is one action whose words name
its cards; the chosen set moves and `s` is its first card; a game saved at the choice goes on
alike; the limits stop the game with their codes; the generated code, its playout fast path and
the reference interpreter play the same games."""
from __future__ import annotations

import itertools
import os

import pytest

from rulelang.compile.loader import load
from rulelang.engine.subsets import TooMany, sets_of
from rulelang.engine.runtime import State
from rulelang.limits import MAX_SET_POOL

from closures import closures_only, three_ways
from reference.set_choice import reference_sets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GAME = """game "sets"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: shared, face up
zone won: per player, face up
attribute value:
    ace: 1
    jack, queen, king: 10
    otherwise: rank of card
setup:
    shuffle stock
    deal 6 from stock to hand of each player
    repeat TABLE times:
        move top card from stock to table
turn:
    choose:
        take "take" a set of LOW cards s SHAPE from table to won TOTAL:
            say "took", s
        keep:
            pass
    if number of turns > 6:
        end game with no winner
"""


def game(low="1 or more", shape="", total="", table=8, gen=True, monkeypatch=None):
    if not gen:
        closures_only(monkeypatch)
    text = GAME.replace("LOW", low).replace("SHAPE", shape).replace("TOTAL", total) \
        .replace("TABLE", str(table))
    return load("sets.cardrules", text=text).compiled(2)


def table(cg, st):
    return list(st.zones[cg.zone_base["table"]])


FORMS = [("1 or more", "", "in groups whose total value is 10"),
         ("2 or more", "", "whose total value is 15"),
         ("1 to 3", "", "whose total value is at most 12"),
         ("up to 4", "", "whose total rank is at least 30"),
         ("2 or more", "of one rank", ""),
         ("3", "of one suit", ""),
         ("3 or more", "in a run", ""),
         ("2 to 4", "in a run", "whose total rank is at most 20"),
         ("1 or more", "", "")]


def brute(cg, cards, low, high, shape, mode, target, table_values):
    return [tuple(s) for s in reference_sets(cg, cards, low, high, shape, mode, target, table_values)]


@pytest.mark.parametrize("low,shape,total", FORMS)
def test_the_sets_offered_are_the_brute_force_sets_in_order(low, shape, total):
    """For random tables of 5 to 8 cards: the engine's actions name exactly the sets a
    brute-force list finds, fewest cards first, then card by card in the deck's order."""
    cg = game(low, shape, total)
    for seed in range(25):
        st = cg.new_game(seed=seed)
        legal = [a for a in st.legal_actions() if st.action_to_string(a).startswith("take ")]
        fr = st.stack[-1]
        ks, shape_, mode, values, _span = next(iter(cg.set_choices.values()))
        cards = fr[ks[0]]
        assert sorted(cards) == sorted(table(cg, st))
        want = brute(cg, cards, fr[ks[3]], fr[ks[4]], shape_, mode, fr[ks[5]], values)
        got = [tuple(cg.card_names.index(n) for n in st.action_to_string(a).split()[1:])
               for a in legal]
        assert got == want, (seed, low, shape, total)
        assert len(set(got)) == len(got)                        # each set once
        assert [len(s) for s in got] == sorted(len(s) for s in got)


def test_the_documented_order_on_a_known_table():
    """2♣ 6♦ 3♥ 5♠ 8♦ and an 8: the sets of one card first, then of two..., each in the deck's
    order (clubs, diamonds, hearts, spades; ranks from the ace up)."""
    names = ["2♣", "6♦", "8♦", "3♥", "5♠"]
    cg = game()
    ids = [cg.card_names.index(n) for n in names]
    values = [cg.attr_tables["value"][c] for c in ids]
    found = sets_of(tuple(ids), tuple(values), (0,) * 5, (), 1, 5, None, "groups", 8)
    words = [" ".join(names[i] for i in s) for s in found]
    assert words == ["8♦", "2♣ 6♦", "3♥ 5♠", "2♣ 6♦ 8♦", "8♦ 3♥ 5♠", "2♣ 6♦ 3♥ 5♠",
                     "2♣ 6♦ 8♦ 3♥ 5♠"]


def test_copies_of_a_card_make_one_set():
    # names 0 0 1: the copies of card 0 are one card to the sets
    found = sets_of((0, 0, 1), (1, 1, 2), (0, 0, 0), (), 1, 3, None, None, 0)
    assert found == ((0,), (2,), (0, 1), (0, 2), (0, 1, 2))
    assert len({tuple((0, 0, 1)[i] for i in s) for s in found}) == len(found)


def test_copies_of_a_card_may_be_in_two_groups():
    # two copies of a 4 (name 0) and an 8: with a 4, each copy is a group; with an 8, both are
    assert sets_of((0, 0, 1), (4, 4, 8), (), (), 1, 3, None, "groups", 4) == ((0,), (0, 1))
    assert sets_of((0, 0, 1), (4, 4, 8), (), (), 1, 3, None, "groups", 8) == \
        ((2,), (0, 1), (0, 1, 2))


def test_the_choice_moves_the_set_and_names_its_first_card():
    cg = game(total="in groups whose total value is 10")
    for seed in range(40):
        st = cg.new_game(seed=seed, log=True)
        takes = [a for a in st.legal_actions() if st.action_to_string(a).startswith("take ")]
        if not takes:
            continue
        a = takes[-1]
        words = st.action_to_string(a).split()[1:]
        before = table(cg, st)
        st.apply_action(a)
        won = [cg.card_names[c] for c in st.zones[cg.zone_base["won"]]]
        assert won == words                                   # on top, in the deck's order
        assert sorted(table(cg, st) + [cg.card_names.index(n) for n in words]) == sorted(before)
        values = [cg.attr_tables["value"][cg.card_names.index(n)] for n in words]
        assert sum(values) % 10 == 0
        said = [e for e in st.log if e[0] == "say"][-1][2]
        assert said == f"took {words[0]}"                     # s is the first card
        return
    pytest.fail("no table offered a set")


def test_a_game_saved_at_the_choice_goes_on_alike():
    cg = game(total="whose total value is at most 12")
    st = cg.new_game(seed=5)
    legal = st.legal_actions()
    again = State.from_json(cg, st.to_json())
    assert again.legal_actions() == legal
    assert [again.action_to_string(a) for a in legal] == [st.action_to_string(a) for a in legal]
    st.apply_action(legal[-2])
    again.apply_action(legal[-2])
    assert again.to_json() == st.to_json()
    clone = st.clone()
    assert clone.legal_actions() == st.legal_actions()


def test_too_many_cards_to_choose_among_stops_the_game():
    cg = game(table=MAX_SET_POOL + 1)
    st = cg.new_game(seed=1)
    assert st.is_terminal()
    assert st.problem["code"] == "RL285", st.problem


def test_too_many_sets_stops_the_game():
    cg = game(table=11)                     # 2^11 - 1 sets of 1 or more cards
    st = cg.new_game(seed=1)
    assert st.problem["code"] == "RL284", st.problem


def test_the_search_is_bounded():
    with pytest.raises(TooMany) as e:
        sets_of(tuple(range(24)), (1,) * 24, (0,) * 24, (), 1, 24, None, "groups", 12)
    assert e.value.code == "RL285"


def test_groups_of_a_total_look_only_at_sets_that_may_be_offered():
    """A large table and sets of 2 or 3 cards in groups of total 12: the search looks at no
    group, nor union of groups, past 3 cards (before, it went through every union of the
    table's groups and stopped the game with RL285 where a few sets are offered); the sets are
    the brute-force list's."""
    values = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) * 2 + (6, 6)
    names = tuple(range(len(values)))
    found = sets_of(names, values, (), (-1,) * len(values), 2, 3, None, "groups", 12)
    want = sorted((s for k in (2, 3) for s in itertools.combinations(names, k)
                   if sum(values[i] for i in s) == 12), key=lambda s: (len(s), s))
    assert list(found) == want and len(found) == 108


@pytest.mark.parametrize("low,shape,total", FORMS[:4] + FORMS[6:7])
def test_generated_playout_and_reference_play_alike(low, shape, total, monkeypatch, tmp_path):
    path = tmp_path / "sets.cardrules"
    path.write_text(GAME.replace("LOW", low).replace("SHAPE", shape).replace("TOTAL", total)
                    .replace("TABLE", "7"), encoding="utf-8")
    for seed in range(6):
        three_ways(str(path), 2, seed, monkeypatch, ["zones", "vars"])


HIDDEN = """game "hidden sets"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone box: per player, seen by owner
setup:
    shuffle stock
    deal 5 from stock to hand of each player
turn:
    choose:
        hide "hide" a set of 2 cards s from hand to box:
            pass
game ends when size of hand < 3:
    end game with no winner
"""


def test_a_set_from_a_hidden_hand_is_named_to_its_chooser_only(tmp_path):
    """The chooser is told `hide 3♣ 7♦`; the other player how many cards, never which, nor
    the set's number."""
    from rulelang.cli.narration import Narrator
    from rulelang.engine.display_names import Words
    path = tmp_path / "hidden.cardrules"
    path.write_text(HIDDEN, encoding="utf-8")
    cg = load(str(path)).compiled(2)
    words = Words(cg)
    st = cg.new_game(seed=4, log=True)
    told = [Narrator(words, st, v) for v in (0, 1)]
    lines = [[], []]
    hidden = []
    while not st.is_terminal():
        a = st.legal_actions()[1]
        hidden.append((st.current_player(), st.action_to_string(a).split()[1:]))
        st.apply_action(a)
        for v in (0, 1):
            lines[v] += [ln.plain.strip() for ln in told[v].lines()]
    assert len(hidden) >= 2
    for seat, cards in hidden:
        shown = " ".join(words.card(c) for c in cards)
        mine = [ln for ln in lines[seat] if ": hide" in ln]
        theirs = [ln for ln in lines[1 - seat] if ": hide" in ln]
        assert any(ln.endswith(f"hide {shown}") for ln in mine), mine
        assert any(ln.endswith("hide a set of cards (2 cards)") for ln in theirs), theirs
        assert not any(words.card(c) in ln for c in cards for ln in lines[1 - seat])
        assert not any("set 2" in ln for ln in lines[1 - seat])


OLD_NAMES = """game "old names"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone passing: per player, seen by owner
var a = 2
var whose = 1
var groups = 0
values run: low, high
setup:
    shuffle stock
    deal 5 from stock to hand of each player
turn:
    choose:
        give a cards c from hand to passing:
            add a to whose
        call run at:
            add 1 to groups
    if number of turns > 3:
        end game with no winner
"""


def test_the_words_of_a_set_are_still_names_elsewhere():
    """`a`, `whose`, `groups`, `run`, `at`: names a file written before `a set of` may use, in
    the places where that construct's words could now begin (a count, a set of values)."""
    cg = load("old.cardrules", text=OLD_NAMES).compiled(2)
    st = cg.new_game(seed=1)
    assert sorted({st.action_to_string(a).split()[0] for a in st.legal_actions()}) == ["call", "give"]
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[-1])
    assert st.problem is None


def engine_looked_through(monkeypatch, cg, cards, most, shape, mode, target, values):
    """How many sets the engine's search looks through: the least budget it needs."""
    from types import SimpleNamespace

    from rulelang.engine import subsets
    from rulelang.engine.control import GameProblem
    g = SimpleNamespace(game=cg)
    cards = tuple(sorted(cards, key=lambda c: (cg.card_twin[c], c)))   # (as set_start has them)

    def fits(budget):
        monkeypatch.setattr(subsets, "MAX_SET_SEARCH", budget)
        subsets.sets_of.cache_clear()
        try:
            subsets._make(g, cards, 1, most, shape, mode, target, values, None)
        except GameProblem as e:
            return e.code != "RL285"
        return True
    lo, hi = 0, 1 << 20
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    subsets.sets_of.cache_clear()
    return lo


@pytest.mark.parametrize("low,shape,total", FORMS)
def test_the_reference_counts_the_sets_looked_through_as_the_engine(low, shape, total,
                                                                    monkeypatch):
    """The bound of RL285 is on the sets the search looks through (docs/language.md, "A set of
    cards in one choice"): the reference counts them from that definition, the engine as it
    searches; both count the same on tables of every kind, copies of cards included."""
    import random
    from reference.set_choice import sets_looked_through
    text = GAME.replace("LOW", low).replace("SHAPE", shape).replace("TOTAL", total) \
        .replace("TABLE", "1").replace("deck standard, into", "deck standard, copies 2, into")
    cg = load("sets.cardrules", text=text).compiled(2)
    shape_word = {"of one rank": "rank", "of one suit": "suit", "in a run": "run"}.get(shape)
    mode, target, values = None, 0, None
    if total:
        words = total.split()
        mode = "groups" if words[0] == "in" else "most" if "most" in words else \
            "least" if "least" in words else "is"
        target = int(words[-1])
        values = cg.attr_tables["value"] if "value" in words else cg.rank_of
    rng = random.Random(hash((low, shape, total)) & 0xffff)
    deck = range(len(cg.card_twin))                # (the cards of the two decks)
    for size in (4, 8, 12):
        for _ in range(3):
            cards = rng.sample(deck, size)
            most = rng.choice((2, 3, size))
            want = engine_looked_through(monkeypatch, cg, cards, most, shape_word, mode, target,
                                         values)
            got = sets_looked_through(cg, cards, most, shape_word, mode, target, values,
                                      limit=1 << 20)
            assert got == want, (cards, most)


def test_the_reference_stops_a_search_past_the_bound_as_the_engine():
    """20 cards to choose any set of: 2^20 - 1 sets to look through, past the 200,000 of RL285.
    The engine stopped the game there; the reference went through a million combinations and
    stopped it with RL284 (too many sets offered)."""
    import time

    from reference import ReferenceGame
    from gametest import played
    text = GAME.replace("LOW", "1 or more").replace("SHAPE", "").replace("TOTAL", "") \
        .replace("TABLE", "20")
    game = load("sets.cardrules", text=text)
    assert game.compiled(2).new_game(seed=1).problem["code"] == "RL285"
    t0 = time.process_time()
    ref = played(ReferenceGame(game.model, 2), 1)
    assert ref.problem["code"] == "RL285", ref.problem
    assert "more than 200000 sets to look through" in ref.problem["message"]
    assert time.process_time() - t0 < 5
