"""The runtime's contract, on small games written inline."""
import json
import random

import pytest

from rulelang.compile.loader import load
from rulelang.engine.runtime import State
from rulelang.play.scenario import play, position, zone

from gameprops import random_playout

CRAZY = "examples/crazy_eights.cardrules"

# A two-player game of secret simultaneous play: each puts a card face down at the same time;
# the higher rank takes both into their pile.  Ten rounds.
DUEL = '''
game "Secret duel"
players 2
deck standard, into box
zone box: shared, face down
zone hand: per player, seen by owner
zone table: per player, face up
zone won: per player, face up
var rounds = 0
score: size of won
setup:
    shuffle box
    deal 10 from box to hand of each player
turn:
    simultaneously choose by player 1, player 2:
        play card c from hand:
            move c from hand to table
    if rank of top of table of player 1 > rank of top of table of player 2:
        move all cards from table of player 1 to won of player 1
        move all cards from table of player 2 to won of player 1
    else:
        move all cards from table of player 1 to won of player 2
        move all cards from table of player 2 to won of player 2
    add 1 to rounds
    if rounds is 10:
        end game by highest score
'''

FOREVER = '''
game "Never ends"
players 2
deck standard, into pile
zone pile: shared, face down
turn:
    repeat:
        shuffle pile
game ends when pile is empty:
    end game with no winner
'''

STUCK = '''
game "Stuck"
players 2
deck standard, into pile
zone pile: shared, face down
zone hand: per player, seen by owner
turn:
    choose:
        take card c from hand:
            pass
game ends when pile is empty:
    end game with no winner
'''

BY_OTHER = '''
game "Choose by another"
players 3
deck standard, into pile
zone pile: shared, face down
var tally per player = 0
turn:
    choose by next player:
        bump:
            add 1 to tally
    if tally of player 2 is 3:
        end game with winner player 2
'''


def _load(tmp_path, name, text):
    p = tmp_path / f"{name}.cardrules"
    p.write_text(text)
    return load(str(p))


def test_save_and_resume_gives_the_same_game():
    game = load(CRAZY)
    st = game.compiled(3).new_game(seed=11)
    rng = random.Random(5)
    for _ in range(12):
        st.apply_action(rng.choice(st.legal_actions()))
    saved = json.loads(json.dumps(st.to_json()))
    resumed = State.from_json(st.game, saved)
    a = random_playout(st, random.Random(9))
    b = random_playout(resumed, random.Random(9))
    assert a.to_json() == b.to_json()
    assert a.winners == b.winners


def test_illegal_action_is_refused():
    st = load(CRAZY).compiled(2).new_game(seed=1)
    with pytest.raises(ValueError):
        st.apply_action(max(st.legal_actions()) + 1)


def test_observation_hides_other_hands_and_the_stock():
    st = load(CRAZY).compiled(3).new_game(seed=2)
    obs = st.observation(0)
    assert isinstance(obs["zones"]["hand/1"], list)
    assert obs["zones"]["hand/2"] == {"size": 5}
    assert obs["zones"]["stock"]["size"] == 52 - 15 - 1
    assert "legal" in obs and "legal" not in st.observation(1)


def test_simultaneous_choices_are_secret_until_all_are_in(tmp_path):
    game = _load(tmp_path, "duel", DUEL)
    st = game.compiled(2).new_game(seed=3, log=True)
    assert st.current_players() == [0, 1]
    a0 = st.legal_actions(0)[0]
    st.apply_action(a0, 0)
    assert st.current_players() == [1]
    # player 2 sees neither player 1's card nor its choice
    obs = st.observation(1)
    card0 = st.game.action_to_string(a0).split()[-1]
    assert card0 not in json.dumps(obs)
    assert st.zones[st.game.zone_base["table"]] == []
    st.apply_action(st.legal_actions(1)[0], 1)
    # both revealed together, then resolved
    choices = [e for e in st.log if e[0] == "choice"]
    assert [c[1] for c in choices] == [0, 1]
    random_playout(st, random.Random(1))
    assert st.outcome == "score" and sum(len(z) for z in st.zones) == 52


def test_a_game_that_never_ends_is_stopped_and_reported(tmp_path):
    game = _load(tmp_path, "forever", FOREVER)
    st = game.compiled(2).new_game(seed=1, max_steps=500)
    assert st.is_terminal() and st.outcome == "error"
    assert st.problem["code"] == "RL901"
    assert st.problem["span"][1] == 7          # the `repeat` that never stops


def test_no_legal_choice_is_a_rule_error_with_its_line(tmp_path):
    st = _load(tmp_path, "stuck", STUCK).compiled(2).new_game(seed=1)
    assert st.outcome == "error" and st.problem["code"] == "RL904"
    assert st.problem["span"][1] == 8          # the `choose` with nothing to choose


def test_choose_by_another_player_uses_the_choosers_variables(tmp_path):
    game = _load(tmp_path, "byother", BY_OTHER)
    st = game.compiled(3).new_game(seed=1)
    assert st.current_player() == 1            # player 1's turn, player 2 decides
    random_playout(st, random.Random(0))
    assert st.winners == [1]
    cg = st.game
    assert st.vars[cg.var_base["tally"]:cg.var_base["tally"] + 3] == [2, 3, 2]


def test_scenario_positions_conserve_cards():
    game = load(CRAZY)
    st = position(game, 2, {"hand/1": ["8♠", "2♥"], "hand/2": ["K♣"], "discard": ["5♦"]},
                  rest="stock")
    assert sum(len(z) for z in st.zones) == 52
    play(st, "play 8♠", "name hearts")
    assert zone(st, "discard")[-1] == "8♠"
    assert st.current_player() == 1
    assert sorted(st.action_to_string(a) for a in st.legal_actions()) == ["draw"]


def test_clone_is_independent_and_cheap_to_take():
    st = load(CRAZY).compiled(4).new_game(seed=8)
    c = st.clone()
    c.apply_action(c.legal_actions()[0])
    assert st.to_json() != c.to_json()
    assert st.decisions == 0
