"""Players who leave the game, the conditions and selectors over players, a result for every
player, and dealing from a named player, played on small rule files
and on examples/twenty_one.cardrules, which is checked against an independent Python reading of
its rules."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from rulelang.compile.loader import load

from closures import closures_only
from gameprops import random_playout

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, "..")
TWENTY_ONE = os.path.join(ROOT, "examples", "twenty_one.cardrules")

HEAD = """game "t"
players 2 to 5
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
var rounds = 0
"""


def game(body, n=4, head=HEAD):
    return load("t.cardrules", text=head + body).compiled(n)


def says(st):
    return [e[2] for e in st.log if e[0] == "say"]


def play(cg, seed=0):
    st = cg.new_game(seed=seed, log=True)
    random_playout(st, random.Random(seed))
    return st


# ---- players leaving: turn order, each player, dealing, endings ------------------------------

LEAVING = """
game ends when rounds is 9:
    end game with no winner

setup:
    remove player 2 from the game

turn:
    add 1 to rounds
    say you
    if rounds is 3:
        remove player 4 from the game
"""


@pytest.mark.parametrize("gen", [True, False])
def test_turn_order_skips_players_who_are_out(gen, monkeypatch):
    if not gen:
        closures_only(monkeypatch)
    st = play(game(LEAVING))
    # player 2 never plays; player 4 plays once (round 3), then never again
    assert says(st) == ["player 1", "player 3", "player 4", "player 1", "player 3",
                        "player 1", "player 3", "player 1", "player 3"]
    assert st.game.describe_vars(st)["out"] == ["0", "1", "0", "2"]


def test_skip_and_next_player_go_over_players_who_are_out():
    cg = game("""
game ends when rounds is 4:
    end game with no winner
setup:
    remove player 2 from the game
turn:
    add 1 to rounds
    say you, next player, previous player, player after player 3
    skip next player
""", n=4)
    st = play(cg)
    # players in: 1, 3, 4.  From 1, `skip next player` skips 3: 4 plays, skips 1: 3 plays ...
    assert says(st) == ["player 1 player 3 player 4 player 4",
                        "player 4 player 1 player 3 player 4",
                        "player 3 player 4 player 1 player 4",
                        "player 1 player 3 player 4 player 4"]


@pytest.mark.parametrize("gen", [True, False])
def test_each_player_and_dealing_skip_players_who_are_out(gen, monkeypatch):
    if not gen:
        closures_only(monkeypatch)
    cg = game("""
game ends when rounds is 1:
    end game with no winner
setup:
    remove player 3 from the game
    deal 2 from stock to hand of each player
    for each player p:
        say p, size of hand of p
    for each player p where p is not player 1:
        say "where", p
turn:
    add 1 to rounds
""", n=4)
    st = play(cg)
    assert says(st) == ["player 1 2", "player 2 2", "player 4 2", "where player 2",
                        "where player 4"]
    assert [len(st.zones[st.game.zone_base["hand"] + p]) for p in range(4)] == [2, 2, 0, 2]


def test_an_ending_is_not_checked_for_a_player_who_is_out():
    cg = game("""
game ends when hand is empty:
    end game with winner you
setup:
    deal 1 from stock to hand of each player
    move all cards from hand of player 2 to pile
    remove player 2 from the game
turn:
    add 1 to rounds
    if rounds is 3:
        move all cards from hand to pile
""", n=3)
    st = play(cg)
    assert st.winners == [0]                 # player 1 emptied their hand in round 3
    assert st.ranking == [0, 2, 1]           # the player who left comes last


def test_ranking_puts_the_last_to_leave_first_among_those_out():
    cg = game("""
game ends when (number of players where yes) is 1:
    end game with winner (next player where yes if you is out else you)
turn:
    remove you from the game
""", n=4)
    st = play(cg)
    # 1, 2, 3 leave in turn; 4 is left
    assert st.winners == [3]
    assert st.ranking == [3, 2, 1, 0]
    assert st.returns() == [-1.0, -1.0, -1.0, 1.0]


def test_choices_among_players_offer_only_players_still_in():
    cg = game("""
game ends when rounds is 1:
    end game with no winner
setup:
    remove player 3 from the game
turn:
    choose:
        pick player p from opponents:
            add 1 to rounds
        any_seat player p from players:
            add 1 to rounds
""", n=4)
    st = cg.new_game()
    assert sorted(st.action_to_string(a) for a in st.legal_actions()) == [
        "any_seat player 1", "any_seat player 2", "any_seat player 4",
        "pick player 2", "pick player 4"]


# ---- conditions and selectors over the players -----------------------------------------------

QUERIES = """
game ends when rounds is 1:
    end game with no winner
setup:
    deal 1 from stock to hand of each player
    move top card from hand of player 1 to pile
    move top card from hand of player 3 to pile
    remove player 4 from the game
turn:
    add 1 to rounds
    say any player where hand of player is empty, no player where size of hand of player > 1
    say number of players where hand of player is empty, number of players where yes
    say next player where hand of player is empty, next player where player is you
    say player who has top of hand of player 2, player who has top of pile
    say highest size of hand of player among players, lowest size of hand of player among players
"""


@pytest.mark.parametrize("gen", [True, False])
def test_conditions_and_selectors_over_players(gen, monkeypatch):
    if not gen:
        closures_only(monkeypatch)
    st = play(game(QUERIES, n=4))
    # in: players 1, 2, 3 (4 left with a card); empty hands: 1 and 3
    assert says(st) == ["yes yes", "2 3", "player 3 nobody", "player 2 nobody", "1 0"]


def test_player_alone_outside_a_condition_over_players_is_an_error():
    from rulelang.compile.loader import RuleFileError
    with pytest.raises(RuleFileError) as e:
        game("turn:\n    say player\n    end game with no winner\n")
    assert [d.code for d in e.value.diagnostics] == ["RL195"]


# ---- a result for every player -----------------------------------------------------------------

RESULTS = """
score: size of hand of you
setup:
    deal 3 from stock to hand of each player
    move all cards from hand of player 2 to pile
    move top card from hand of player 3 to pile
turn:
    end game with winners where size of hand of player is 3, losers where hand of player is empty
"""


def test_each_player_wins_loses_or_draws_on_their_own():
    st = play(game(RESULTS, n=4))
    assert st.results() == ["win", "loss", "draw", "win"]
    assert st.returns() == [1.0, -1.0, 0.0, 1.0]
    assert st.winners == [0, 3]
    assert st.ranking == [0, 3, 2, 1]
    saved = st.to_json()
    assert saved["seat_results"] == ["win", "loss", "draw", "win"]
    from rulelang.engine.runtime import State
    assert State.from_json(st.game, json.loads(json.dumps(saved))).returns() == st.returns()


def test_when_every_player_loses_nobody_wins():
    st = play(game(RESULTS.replace("size of hand of player is 3", "no")
                       .replace("hand of player is empty", "yes"), n=4))
    assert st.results() == ["loss"] * 4
    assert st.winners == [] and st.returns() == [-1.0] * 4
    assert st.outcome == "results"


def test_without_losers_every_other_player_loses():
    st = play(game(RESULTS.replace(", losers where hand of player is empty", ""), n=3))
    assert st.results() == ["win", "loss", "loss"]


def test_results_of_the_old_endings_are_unchanged():
    st = play(game("turn:\n    end game with winner player 2\n", n=3))
    assert st.results() == ["loss", "win", "loss"] and st.returns() == [-1.0, 1.0, -1.0]
    st = play(game("turn:\n    end game with no winner\n", n=3))
    assert st.results() == ["draw"] * 3 and st.returns() == [0.0] * 3
    assert "seat_results" not in st.to_json()


# ---- dealing from a named player ---------------------------------------------------------------

def test_deal_starts_at_the_player_named():
    st = play(game("""
setup:
    deal 1 from stock to hand of each player from player 3
turn:
    end game with no winner
""", n=4))
    hands = [st.zones[st.game.zone_base["hand"] + p] for p in range(4)]
    names = st.game.card_names
    # the stock is not shuffled: its top card (the last one) goes to player 3, then 4, 1, 2
    order = sorted(range(4), key=lambda p: -hands[p][0])
    assert order == [2, 3, 0, 1], [names[h[0]] for h in hands]


# ---- the example game, against an independent reading of its rules ----------------------------

POINTS = {"A": 11, "J": 10, "Q": 10, "K": 10}


def worth(cards):
    """A hand's value: aces count 11, or 1 while the hand is over 21."""
    ranks = [c[:-1] for c in cards]
    total = sum(POINTS.get(r, int(r) if r.isdigit() else 0) for r in ranks)
    aces = ranks.count("A")
    while total > 21 and aces:
        total -= 10
        aces -= 1
    return total


def expected_results(hands, house):
    h = worth(house)
    out = []
    for cards in hands:
        v = worth(cards)
        if v > 21:
            out.append("loss")
        elif h > 21 or v > h:
            out.append("win")
        elif v == h:
            out.append("draw")
        else:
            out.append("loss")
    return out


@pytest.mark.parametrize("players", [1, 3, 5])
def test_twenty_one_against_an_independent_reading_of_its_rules(players):
    g = load(TWENTY_ONE)
    cg = g.compiled(players)
    zb = cg.zone_base
    for seed in range(60):
        st = cg.new_game(seed=seed, log=True)
        dealer = cg.describe_vars(st)["dealer"]
        rng = random.Random(seed)
        deciders = []
        while not st.is_terminal():
            deciders.append(st.current_player())
            st.apply_action(rng.choice(st.legal_actions()))
        assert st.outcome == "results"
        names = cg.card_names
        hands = [[names[c] for c in st.zones[zb["hand"] + p]] for p in range(players)]
        house = [names[c] for c in st.zones[zb["house"]]]
        assert st.results() == expected_results(hands, house)
        assert st.returns() == [{"win": 1.0, "loss": -1.0, "draw": 0.0}[r] for r in st.results()]
        # the house drew while under 17 and stopped at 17 or more
        assert worth(house) >= 17 and (len(house) == 2 or worth(house[:-1]) < 17)
        # players played their whole hands one after the other, from the dealer's left
        first = (int(dealer.split()[-1]) % players) if dealer != "nobody" else 0
        seats = [p for i, p in enumerate(deciders) if i == 0 or deciders[i - 1] != p]
        assert seats == [(first + k) % players for k in range(players)
                         if worth(hands[(first + k) % players][:2]) != 21]   # 21: no decision
        # each player's last decision ended their hand: a stand, a bust or 21
        for p in range(players):
            cards = hands[p]
            hits = sum(1 for e in st.log if e[0] == "choice" and e[1] == p
                       and st.action_to_string(e[2]) == "hit")
            assert len(cards) == 2 + hits
            assert all(worth(cards[:k]) < 21 for k in range(2, len(cards)))


def test_twenty_one_json_gives_each_seat_its_result():
    out = subprocess.run([sys.executable, "-m", "rulelang", "run", TWENTY_ONE, "--players", "3",
                          "--seed", "4", "--json"], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    res = json.loads(out)
    assert res["outcome"] == "results"
    assert len(res["results"]) == 3 and set(res["results"]) <= {"win", "loss", "draw"}
    assert res["winners"] == [i + 1 for i, r in enumerate(res["results"]) if r == "win"]
