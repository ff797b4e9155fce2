"""examples/beleaguered_castle.cardrules (a patience with foundations per suit, a family of zones
by suit, and the suits finished kept as a set of suits) played against an independent reading
of its rules written here in Python: at every decision the legal moves are the ones this file
computes from the table, the set of suits finished is what the foundations say, and each game
ends the way the rules say.  The reference interpreter, the generated code and the playout
fast path play it alike, and a saved game goes on as if it had never stopped."""
import os
import random

import pytest

from rulelang.compile.loader import load
from rulelang.engine.runtime import State

from closures import three_ways
from gametest import choices

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "examples", "beleaguered_castle.cardrules")
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
SUITS = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}     # the deck's order


def rank(card):
    return RANKS.get(card[:-1]) or int(card[:-1])


def suit(card):
    return SUITS[card[-1]]


def moves(zones):
    """Independent: (rows whose top goes home, {row: rows its top may go onto})."""
    rows = {k: zones[f"row_{k}"] for k in range(1, 9)}
    home = [k for k, r in rows.items() if r and rank(r[-1]) == len(zones[f"foundation_{suit(r[-1])}"]) + 1]
    onto = {}
    for k, r in rows.items():
        if not r:
            continue
        to = [j for j, q in rows.items() if j != k and
              ((q and rank(q[-1]) == rank(r[-1]) + 1) or (not q and len(r) > 1))]
        if to:
            onto[k] = to
    return home, onto


def play(seed, moves_allowed=200, greedy=True):
    game = load(PATH, {"moves": str(moves_allowed)})
    st = game.new_game(1, seed=seed, log=True)
    rng = random.Random(seed)
    taken = 0
    while not st.is_terminal():
        zones = st.observation(0)["zones"]
        home, onto = moves(zones)
        labels = choices(st)
        if any(l.startswith("onto") for l in labels):
            assert sorted(labels) == sorted(f"onto {j}" for j in onto[taken]), (seed, labels)
            label = rng.choice(sorted(labels))
        else:
            assert sorted(labels) == sorted([f"home {k}" for k in home] +
                                            [f"shift {k}" for k in onto]), (seed, labels)
            homes = [l for l in labels if l.startswith("home")]
            label = rng.choice(sorted(homes if greedy and homes else labels))
            taken = int(label.split()[1])
        st.apply_action(labels[label])
        zones = st.observation(0)["zones"]
        done = [s for s in SUITS.values() if len(zones[f"foundation_{s}"]) == 13]
        assert st.observation(0)["vars"]["finished"] == (", ".join(done) or "none")
    return st, [e[2] for e in st.log if e[0] == "say"]


@pytest.mark.parametrize("seed", range(1, 21))
def test_every_decision_and_ending_matches_the_independent_rules(seed):
    st, says = play(seed)
    zones = st.observation(0)["zones"]
    left = sum(len(zones[f"row_{k}"]) for k in range(1, 9))
    home, onto = moves(zones)
    if left == 0:
        assert st.winners == [0] and says[-1].startswith("every suit is built up to its king")
    elif not home and not onto:
        assert st.winners == [] and says[-1] == f"no card can move: {left} cards left in the rows"
    else:
        assert st.turns == 200 and says[-1] == f"gave up after 200 moves with {left} cards left in the rows"


def test_the_setup_lays_the_aces_on_their_foundations_and_six_cards_in_each_row():
    st = load(PATH).new_game(1, seed=5)
    zones = st.observation(0)["zones"]
    assert [zones[f"foundation_{s}"] for s in SUITS.values()] == [["A♣"], ["A♦"], ["A♥"], ["A♠"]]
    assert [len(zones[f"row_{k}"]) for k in range(1, 9)] == [6] * 8
    assert st.observation(0)["vars"]["finished"] == "none"


def near_the_end(game, kings_in_rows=("K♣", "K♥", "K♠", "K♦"), shifted=()):
    """A game whose foundations hold every card up to the queens, the kings on top of rows 1 to
    4 (``shifted``: rows given to the cards named), every other card in the stock."""
    from rulelang.play.scenario import _zone_index, card_ids, restart_turn
    cg = game.compiled(1)
    st = cg.new_game(seed=1, log=True)
    used = set()
    st.zones = [[] for _ in cg.zone_info]
    for s, sign in (("clubs", "♣"), ("diamonds", "♦"), ("hearts", "♥"), ("spades", "♠")):
        names = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]
        st.zones[_zone_index(cg, f"foundation_{s}")] = card_ids(cg, [n + sign for n in names], used)
    for k, king in enumerate(kings_in_rows, 1):
        st.zones[_zone_index(cg, f"row_{k}")] = card_ids(cg, [king], used)
    restart_turn(st, 0)
    return st


def test_each_king_home_adds_its_suit_to_the_suits_finished_and_the_fourth_wins():
    game = load(PATH)
    st = near_the_end(game)
    finished = []
    for k, s in ((2, "hearts"), (1, "clubs"), (4, "diamonds"), (3, "spades")):
        assert not st.is_terminal()
        st.apply_action(choices(st)[f"home {k}"])
        finished.append(s)
        order = [x for x in SUITS.values() if x in finished]
        assert st.observation(0)["vars"]["finished"] == ", ".join(order)
    assert st.winners == [0]
    assert [x for x in [e[2] for e in st.log if e[0] == "say"] if x.startswith("completes")] == \
        ["completes hearts", "completes clubs", "completes diamonds", "completes spades"]


@pytest.mark.parametrize("seed", range(4))
def test_the_reference_the_generated_code_and_the_fast_path_agree(seed, monkeypatch):
    st = three_ways(PATH, 1, seed, monkeypatch, ("winners", "vars", "decisions"))
    assert st.is_terminal()


def test_a_saved_game_keeps_its_foundations_and_suits_finished():
    """The set is plain data in the save: a game saved with two suits finished goes on, once
    resumed, to the same end as the game never saved."""
    game = load(PATH)
    whole = near_the_end(game)
    for k in (1, 2, 3, 4):
        whole.apply_action(choices(whole)[f"home {k}"])
    st = near_the_end(game)
    for k in (1, 2):
        st.apply_action(choices(st)[f"home {k}"])
    saved = st.to_json()
    st = State.from_json(game.compiled(1), saved)
    assert st.observation(0)["vars"]["finished"] == "clubs, hearts"
    for k in (3, 4):
        st.apply_action(choices(st)[f"home {k}"])
    assert st.vars == whole.vars and st.zones == whole.zones and st.winners == whole.winners == [0]


def test_the_worked_examples_of_the_rulebook_pass():
    from rulelang.cli.commands import main
    assert main(["test", os.path.join(ROOT, "examples", "beleaguered_castle.cardtest")]) == 0
