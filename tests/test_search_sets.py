"""A search over cards asked of a set of cards (compile/passes.py: `search_sets`), and sets keyed
by a value of a card's table (`table_keys`).

`any card in Z where C`, C a condition that a set of cards answers (compile/cardsets.py), is
whether Z has a card of that set (``frozenset.isdisjoint``, in C), not a loop over Z; the sets
may be keyed by the rank or an attribute of a card (the top of a pile) among the few values of
that table, where keying them by the card would take too many (a deck of many packs).  The games
are those of the conditions evaluated card by card, through the API and on the fast path."""
import random

import pytest

from rulelang.compile.loader import load

from gametest import played

GAME = """game "Searches"
players 2 to 4
option packs = 1 from 1 to 3 "packs per player"
deck standard, copies packs * number of players, into pile
zone pile: shared, face down, not shown
zone discard: shared, face up
zone hand: per player, seen by owner
var knocks = 0
setup:
    shuffle pile
    deal 5 from pile to hand of each player
    move top card from pile to discard
turn:
    choose:
        play card c from hand where suit of c is suit of top of discard:
            move c from hand to discard
        knock if SEARCH:
            add 1 to knocks
            move top card from pile to hand
        draw if pile is not empty:
            move top card from pile to hand
        pass if pile is empty:
            say "passes"
    if hand is empty or knocks >= 30:
        end game with winner you
"""


def _game(search, packs=1):
    return load("searches.cardrules", {"packs": packs},
                text=GAME.replace("SEARCH", f"pile is not empty and ({search})"))


def _searches_by_set(cg) -> int:
    """How many of the compiled game's functions ask a set whether a zone has one of its cards."""
    cg.playout_procs()
    return sum(1 for v in cg.gen.ns.values()
               if "isdisjoint" in getattr(getattr(v, "__code__", None), "co_names", ()))


def _same_games(game, n, a, b):
    ca, cb = game.compiled(n, optimize=a), game.compiled(n, optimize=b)
    for seed in range(4):
        x, y = played(ca, seed, max_steps=5_000), played(cb, seed, max_steps=5_000)
        assert x.log == y.log and x.to_json() == y.to_json(), seed
        fx = ca.playout(seed, [random.Random(seed).randrange] * n, 5_000)
        fy = cb.playout(seed, [random.Random(seed).randrange] * n, 5_000)
        assert fx.to_json() == fy.to_json(), (seed, "fast path")


@pytest.mark.parametrize("search", [
    "any card in hand where suit of card is suit of top of discard",
    "no card in hand where rank of card is rank of top of discard",
    "any card in hand where rank of card > rank of top of discard and suit of card is not hearts",
])
def test_a_search_whose_condition_a_set_answers_asks_the_set(search):
    game = _game(search)
    assert _searches_by_set(game.compiled(3)) >= 1
    assert _searches_by_set(game.compiled(3, optimize="-search_sets")) == 0
    _same_games(game, 3, "all", "-search_sets,-table_keys")


@pytest.mark.parametrize("search", [
    # a number that is no key (any number): the cards are looked at one by one
    "any card in hand where rank of card > size of pile",
    # a condition that draws at random: it stops drawing at the first card that passes
    "any card in hand where rank of card is rank of random card of pile",
])
def test_a_search_no_set_answers_looks_at_the_cards(search):
    game = _game(search)
    assert _searches_by_set(game.compiled(3)) == 0
    _same_games(game, 3, "all", "none")


def test_a_slot_read_as_it_is_leaves_the_condition_evaluated():
    """A condition that reads a rule's slot as it is (a parameter: never computed before the
    loop) cannot be looked up: the function making the set has no such name."""
    text = GAME.replace("        knock if SEARCH:\n            add 1 to knocks\n"
                        "            move top card from pile to hand\n",
                        "        knock if pile is not empty:\n            knock(knocks < 3)\n")
    text += """
rule knock(strict):
    add 1 to knocks
    choose:
        give card c from hand where suit of c is suit of top of discard and strict:
            move c from hand to discard
        take if pile is not empty:
            move top card from pile to hand
        nothing:
            pass
"""
    game = load("searches.cardrules", text=text)
    _same_games(game, 2, "all", "none")


def test_many_packs_key_the_sets_by_the_rank_not_the_card():
    """With three packs a player for four players (624 cards), a set for each top card would be
    too many cards (cardsets.MAX_SITE_CELLS): keyed by the top card's rank (14 values), the
    search asks a set; without table_keys it looks at the cards one by one."""
    game = _game("any card in hand where rank of card is rank of top of discard", packs=3)
    assert _searches_by_set(game.compiled(4)) >= 1
    assert _searches_by_set(game.compiled(4, optimize="-table_keys")) == 0
    _same_games(game, 4, "all", "-table_keys")


def test_a_value_worked_out_from_a_card_key_is_no_key_of_its_own():
    """Crazy Eights' playable(c) is keyed by the top card (one pack: few enough cards); the rank
    of the top card is worked out from it where a set is made, not a second key: its table is
    the same list of sets with table_keys on or off."""
    game = load("examples/crazy_eights.cardrules")
    on, off = game.compiled(4), game.compiled(4, optimize="-table_keys")
    for cg in (on, off):
        cg.playout_procs()
    tables = [[v for v in cg.gen.ns.values() if isinstance(v, dict) and v
               and set(map(type, v.values())) <= {type(None), frozenset}] for cg in (on, off)]
    assert tables == [[], []]
