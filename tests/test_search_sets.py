"""Card conditions looked up in sets of cards (compile/cardsets.py): where they may not be.  The
games are those of the conditions evaluated card by card, through the API and on the fast path."""
import random

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


def _same_games(game, n, a, b):
    ca, cb = game.compiled(n, optimize=a), game.compiled(n, optimize=b)
    for seed in range(4):
        x, y = played(ca, seed, max_steps=5_000), played(cb, seed, max_steps=5_000)
        assert x.log == y.log and x.to_json() == y.to_json(), seed
        fx = ca.playout(seed, [random.Random(seed).randrange] * n, 5_000)
        fy = cb.playout(seed, [random.Random(seed).randrange] * n, 5_000)
        assert fx.to_json() == fy.to_json(), (seed, "fast path")



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
