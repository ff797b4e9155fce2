"""Attack! the Card Game and its variants (rules/attack*.cardrules; decisions in docs/games/attack.md).

Scenario tests set up the position the rule text describes and play it; golden transcripts pin
a few seeded random games of every file (regenerate with RULELANG_REGEN=1 after a deliberate
change); the random-game properties of tests/gameprops.py hold for every file.
"""
import os
import random

import pytest

from rulelang.compile.loader import check_file
from rulelang.play.scenario import play, position, var, zone

from gameprops import check_random_games, clone_independent, random_playout, same_seed_same_game
from gametest import legal, log_lines, match_golden, played, rules_game, says

HERE = os.path.dirname(__file__)
RULES = os.path.join(HERE, "..", "rules")

VARIANTS = {
    "base": "attack.cardrules",
    "value_scoring": "attack_value_scoring.cardrules",
    "two_decks": "attack_two_decks.cardrules",
    "cross": "attack_cross.cardrules",
    "counter": "attack_counter.cardrules",
    "power": "attack_power.cardrules",
    "speed": "attack_speed.cardrules",
}

def game(variant="base", **overrides):
    return rules_game(VARIANTS[variant], **overrides)


def end_scores(st):
    ends = [e for e in st.log if e[0] == "end"]
    assert ends, "the game did not end"
    return ends[-1][3]


# Full hands and Fight Decks for both players, so nobody runs out unless a test says so.
HANDS = {
    "hand/1": ["7♥", "2♣", "9♦", "3♠", "4♣"],
    "hand/2": ["7♠", "J♣", "5♥", "6♠", "K♠"],
    "fight_deck/1": ["2♥", "3♥", "4♥", "5♦", "6♦"],
    "fight_deck/2": ["8♥", "8♦", "10♥", "10♦", "Q♥"],
}


def setup(variant="base", current=1, overrides=None, **zones):
    given = {k.replace("_1", "/1").replace("_2", "/2"): v for k, v in zones.items()}
    named = {c for cards in given.values() for c in cards}
    z = {k: [c for c in v if c not in named] for k, v in HANDS.items()}   # defaults give way
    z.update(given)
    return position(game(variant, **(overrides or {})), 2, zones=z, rest="pack", current=current)


# ---- every file loads with no error and no warning ------------------------------------------

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_file_checks_clean(variant):
    diags, model, _ = check_file(os.path.join(RULES, VARIANTS[variant]))
    assert model is not None
    assert [str(d) for d in diags] == []


def test_variant_files_are_small():
    for variant, name in VARIANTS.items():
        if variant == "base":
            continue
        with open(os.path.join(RULES, name), encoding="utf-8") as fh:
            code = [ln for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
        assert len(code) <= 15, f"{name} has {len(code)} lines of rules"


# ---- the base game --------------------------------------------------------------------------

def test_attacker_plays_swords_and_defender_shields_of_equal_or_greater_value():
    st = setup()
    assert st.current_player() == 0
    assert legal(st) == ["play 7♥", "play 9♦"]                # "a Sword Card" (red)
    play(st, "play 7♥")
    assert st.current_player() == 1
    assert legal(st) == ["play 7♠", "play J♣", "play K♠"]     # black, 7 or more


def test_duel_higher_card_wins():
    st = setup()
    play(st, "play 9♦", "play J♣")
    # "The winner places the loser's card ... into the winner's Victory Deck and his or her own
    # card ... to the winner's Deck of Champions."
    assert zone(st, "victory_deck/2") == ["9♦"]
    assert zone(st, "champions/2") == ["J♣"]
    assert zone(st, "victory_deck/1") == zone(st, "champions/1") == []
    # "each player draws the necessary number of cards ... to bring his or her hand back up to 5"
    assert len(zone(st, "hand/1")) == len(zone(st, "hand/2")) == 5
    assert zone(st, "fight_deck/1") == ["2♥", "3♥", "4♥", "5♦"]
    assert zone(st, "fight_deck/2") == ["8♥", "8♦", "10♥", "10♦"]
    # "The Defender of the first Duel ... becomes the Attacker for the second Duel"
    assert st.current_player() == 1
    assert legal(st) == ["play 5♥", "play Q♥"]


def test_battle_on_equal_values():
    st = setup()
    play(st, "play 7♥", "play 7♠")
    # "these cards are left on the field of battle and a second card is played by each player
    # (starting with the attacker)"
    assert zone(st, "field/1") == ["7♥"] and zone(st, "field/2") == ["7♠"]
    assert st.current_player() == 0 and legal(st) == ["play 9♦"]
    play(st, "play 9♦", "play J♣")
    # "The winner takes all of the enemy's cards played during a Duel or Battle"
    assert zone(st, "victory_deck/2") == ["7♥", "9♦"]
    assert zone(st, "champions/2") == ["7♠", "J♣"]
    assert zone(st, "field/1") == zone(st, "field/2") == []


def test_battle_twice_tied_goes_on():
    st = setup(hand_1=["7♥", "9♦", "Q♦", "2♣", "3♣"])
    play(st, "play 7♥", "play 7♠", "play 9♦")
    assert legal(st) == ["play J♣", "play K♠"]
    play(st, "play K♠")
    assert zone(st, "victory_deck/2") == ["7♥", "9♦"]


def test_push_when_a_hand_runs_out():
    # "If the players run out of cards in their hands before a Battle is resolved, then the Battle
    # is a Push.  Each player retrieves his or her own cards played and places them in his or her
    # own Deck of Champions."
    st = setup(hand_1=["7♥"])
    play(st, "play 7♥", "play 7♠")
    assert zone(st, "champions/1") == ["7♥"]
    assert zone(st, "champions/2") == ["7♠"]
    assert zone(st, "victory_deck/1") == zone(st, "victory_deck/2") == []
    assert len(zone(st, "hand/1")) == 5 and not st.is_terminal()


def test_attacker_without_a_sword_loses_and_a_random_card_is_taken():
    # "If the attacker does not have a Sword Card in his or her hand to play, then he or she
    # automatically loses.  The winner draws a random card from the losers hand and places it in
    # his or her victory deck."
    black = ["2♣", "3♠", "4♣", "5♠", "6♣"]
    taken = set()
    for seed in range(12):
        st = position(game(), 2, zones=dict(HANDS, **{"hand/1": black}), rest="pack", current=1,
                      seed=seed)
        assert st.current_player() == 1                       # no decision for player 1
        won = zone(st, "victory_deck/2")
        assert len(won) == 1 and won[0] in black
        taken.add(won[0])
        assert sorted(zone(st, "hand/1")) == sorted([c for c in black if c != won[0]] + ["6♦"])
    assert len(taken) > 1                                     # random, not always the same card


def test_defender_without_a_shield_loses():
    # "If the defender does not have a shield card of equal or greater value than the Sword Card
    # played, then he or she automatically loses. ... The winner takes the card that he or she
    # played on the field of battle and places it in his or her Deck of Champions."
    st = setup(hand_2=["Q♠", "8♥", "9♥", "J♦", "A♦"], hand_1=["K♥", "2♣", "3♣", "4♣", "5♣"])
    play(st, "play K♥")
    assert zone(st, "champions/1") == ["K♥"]
    won = zone(st, "victory_deck/1")
    assert len(won) == 1 and won[0] in ["Q♠", "8♥", "9♥", "J♦", "A♦"]


def test_game_ends_when_a_player_has_no_card_and_most_victory_cards_wins():
    # "A Game ends when one or more players no longer have any cards in their Fight Deck or Hand
    # to play ...  Any left over cards are placed in that player's Deck of Champions."
    st = setup(hand_1=[], fight_deck_1=[], victory_deck_1=["2♠", "3♠", "4♠"],
               victory_deck_2=["K♦", "Q♦"])
    assert st.is_terminal()
    assert st.winners == [0]
    assert end_scores(st) == [3, 2]
    assert zone(st, "hand/2") == zone(st, "fight_deck/2") == []
    assert sorted(zone(st, "champions/2")) == sorted(HANDS["hand/2"] + HANDS["fight_deck/2"])


def test_last_duel_then_the_end():
    # Player 1 plays their last card; the game ends after the duel, not in the middle of it.
    st = setup(hand_1=["7♥"], fight_deck_1=[])
    play(st, "play 7♥")
    assert not st.is_terminal()
    play(st, "play J♣")
    assert st.is_terminal()
    assert zone(st, "victory_deck/2") == ["7♥"]
    assert st.winners == [1]


def test_equal_scores_both_win():
    st = setup(hand_1=[], fight_deck_1=[], victory_deck_1=["2♠"], victory_deck_2=["K♥"])
    assert st.is_terminal() and sorted(st.winners) == [0, 1]


def test_option_2_scores_total_value_with_king_14_as_the_text_says():
    # "the greatest total value (Jack=11, Queen=12 and King=14) in his or her Victory Deck"
    zones = dict(hand_1=[], fight_deck_1=[], victory_deck_1=["K♠", "A♠"], victory_deck_2=["Q♥", "2♥"])
    st = setup("value_scoring", **zones)
    assert end_scores(st) == [15, 14] and st.winners == [0]               # King=14, Ace=1
    st = setup("value_scoring", overrides={"king_value": 13}, **zones)    # the King read as 13
    assert end_scores(st) == [14, 14] and sorted(st.winners) == [0, 1]
    st = setup(overrides={"scoring": "value", "aces": "high"}, **zones)   # Ace one more than a King
    assert end_scores(st) == [29, 14]
    st = setup(**zones)                                                   # counting cards
    assert end_scores(st) == [2, 2]


def test_aces_option():
    st = setup(hand_1=["A♥", "2♣", "3♣", "4♣", "5♣"], hand_2=["K♠", "9♥", "J♥", "J♦", "9♦"])
    play(st, "play A♥")
    assert legal(st) == ["play K♠"]
    for king in (13, 14):
        st = setup(overrides={"aces": "high", "king_value": king},
                   hand_1=["A♥", "2♣", "3♣", "4♣", "5♣"], hand_2=["K♠", "A♠", "J♥", "J♦", "9♦"])
        play(st, "play A♥")
        assert legal(st) == ["play A♠"]                        # a King no longer holds a high Ace


def test_opening_flip():
    # "The player with the highest card ... wins the right to choose whether attack or defend
    # first."  The winner takes the enemy's card into the Victory Deck, their own into the Deck of
    # Champions; on a tie (DECISION) both flip again and the winner takes all.
    cg = game().compiled(2)
    ties = 0
    for seed in range(60):
        st = cg.new_game(seed=seed)
        w = st.current_player()
        assert legal(st) == ["attack_first", "defend_first"]
        won, own = zone(st, f"victory_deck/{w + 1}"), zone(st, f"champions/{w + 1}")
        assert len(won) == len(own) >= 1
        value = lambda c: {"A": 1, "J": 11, "Q": 12, "K": 13}.get(c[:-1]) or int(c[:-1])
        assert value(own[-1]) > value(won[-1])
        assert all(value(a) == value(b) for a, b in zip(won[:-1], own[:-1]))
        ties += len(won) > 1
        assert zone(st, f"victory_deck/{2 - w}") == zone(st, f"champions/{2 - w}") == []
        assert zone(st, "hand/1") == zone(st, "hand/2") == []    # hands are drawn afterwards
        cg_log = lambda s: [e for e in s.log if e[0] == "say" and e[2] == "attacks"]
        st = cg.new_game(seed=seed, log=True)
        first = play(st.clone(), "attack_first")
        assert cg_log(first)[0][1] == w                        # they attack
        assert len(zone(first, "hand/1")) + len(zone(first, "hand/2")) >= 9
        second = play(st.clone(), "defend_first")
        assert cg_log(second)[0][1] == 1 - w                   # the other one attacks
    assert ties > 0


def test_what_each_player_sees():
    # "Each player can look back at their own Victory Deck and Deck of Champions, but can not look
    # at the other player's Decks.  Neither player can look at their Fight Decks."
    st = setup(victory_deck_1=["A♠"], champions_1=["A♥"], victory_deck_2=["A♣"], champions_2=["A♦"])
    play(st, "play 7♥")
    seen = st.observation(0)["zones"]
    assert seen["victory_deck/1"] == ["A♠"] and seen["champions/1"] == ["A♥"]
    assert seen["victory_deck/2"] == {"size": 1} and seen["champions/2"] == {"size": 1}
    assert seen["fight_deck/1"] == {"size": 5} and seen["fight_deck/2"] == {"size": 5}
    assert seen["hand/1"] == ["2♣", "9♦", "3♠", "4♣"] and seen["hand/2"] == {"size": 5}
    assert seen["field/1"] == ["7♥"]                  # the Field of Battle is face up


# ---- the variants ---------------------------------------------------------------------------

def test_cross_attack_reuses_the_deck_of_champions():
    # "when a player runs out of cards in his or her Fight Deck, that player shuffles his or her
    # Deck of Champions and replaces them into his or her Fight Deck."
    champs = ["10♠", "J♠", "Q♠"]
    st = setup("cross", fight_deck_1=[], champions_1=champs)
    play(st, "play 9♦", "play J♣")
    assert len(zone(st, "hand/1")) == 5
    assert sorted(zone(st, "hand/1") + zone(st, "fight_deck/1")) == sorted(
        ["7♥", "2♣", "3♠", "4♣"] + champs)
    assert zone(st, "champions/1") == []
    assert var(st, "crossed/1") == 1
    # "agree on the number of times that this will be allowed": once by default ...
    st2 = position(game("cross"), 2, zones=dict(HANDS, **{"fight_deck/1": [], "champions/1": champs}),
                   rest="pack", current=1, vars={"crossed/1": 1})
    play(st2, "play 9♦", "play J♣")
    assert len(zone(st2, "hand/1")) == 4 and zone(st2, "champions/1") == champs
    # ... or as often as the option says
    st3 = position(game("cross", crossings=2), 2,
                   zones=dict(HANDS, **{"fight_deck/1": [], "champions/1": champs}),
                   rest="pack", current=1, vars={"crossed/1": 1})
    play(st3, "play 9♦", "play J♣")
    assert len(zone(st3, "hand/1")) == 5 and var(st3, "crossed/1") == 2


def test_cross_attack_with_no_crossings_is_the_base_game():
    st = setup("cross", overrides={"crossings": 0}, fight_deck_1=[], champions_1=["10♠"])
    play(st, "play 9♦", "play J♣")
    assert len(zone(st, "hand/1")) == 4 and zone(st, "champions/1") == ["10♠"]


def test_counter_attack_every_round_is_a_battle_until_a_king():
    # "Every round becomes a Battle, with each player taking turns playing one card at a time ...
    # until all cards in each hand are played, or until a King is played."
    st = setup("counter")
    assert legal(st) == sorted("play " + c for c in HANDS["hand/1"])   # colour ignored
    play(st, "play 2♣", "play 5♥")                  # not equal, and yet the Battle goes on
    assert st.current_player() == 0 and zone(st, "field/1") == ["2♣"]
    play(st, "play 9♦", "play K♠")                  # a King: the last round
    # "Each player adds up the face value of all of his or her cards lying on the Field of Battle"
    # 2 + 9 = 11 against 5 + 14 = 19
    assert zone(st, "victory_deck/2") == ["2♣", "9♦"]
    assert zone(st, "champions/2") == ["5♥", "K♠"]
    assert st.current_player() == 1


def test_counter_attack_king_by_the_attacker_still_gets_an_answer():
    st = setup("counter", hand_1=["K♦", "2♣", "3♣", "4♣", "5♣"])
    play(st, "play K♦")
    assert st.current_player() == 1                 # the defender still plays this round
    play(st, "play 5♥")
    assert zone(st, "victory_deck/1") == ["5♥"] and zone(st, "champions/1") == ["K♦"]


def test_counter_attack_king_counts_14():
    # "(Jack=11, Queen=12 and King=14).  The player who'se cards have the highest total Value wins."
    hands = dict(hand_1=["3♣", "K♦", "2♣", "4♣", "5♣"], hand_2=["J♣", "5♥", "6♠", "9♠", "Q♠"])
    st = setup("counter", **hands)
    play(st, "play 3♣", "play J♣", "play K♦", "play 5♥")       # 3 + 14 = 17 against 11 + 5 = 16
    assert zone(st, "victory_deck/1") == ["J♣", "5♥"] and zone(st, "champions/1") == ["3♣", "K♦"]
    st = setup("counter", overrides={"king_value": 13}, **hands)
    play(st, "play 3♣", "play J♣", "play K♦", "play 5♥")       # 16 against 16: a Push
    assert zone(st, "champions/1") == ["3♣", "K♦"] and zone(st, "champions/2") == ["J♣", "5♥"]


def test_counter_attack_hands_played_out_and_equal_totals_push():
    st = setup("counter", hand_1=["7♥", "3♣"], hand_2=["6♠", "4♥", "J♣"])
    play(st, "play 7♥", "play 6♠", "play 3♣", "play 4♥")
    # player 1's hand is empty: the Battle ends; 10 against 10 is a Push
    assert zone(st, "champions/1") == ["7♥", "3♣"]
    assert zone(st, "champions/2") == ["6♠", "4♥"]


def test_power_attack_adds_a_die_to_each_card():
    # "each player rolls a six sided die ... and the number of the die roll is added to the face
    # value of the card to determine the winner."
    outcomes = set()
    for seed in range(40):
        st = position(game("power"), 2, zones=HANDS, rest="pack", current=1, seed=seed)
        play(st, "play 7♥", "play J♣")
        d1, d2 = var(st, "die/1"), var(st, "die/2")
        assert 1 <= d1 <= 6 and 1 <= d2 <= 6
        if 7 + d1 > 11 + d2:
            outcomes.add("attacker")
            assert zone(st, "victory_deck/1") == ["J♣"] and zone(st, "champions/1") == ["7♥"]
        elif 7 + d1 < 11 + d2:
            outcomes.add("defender")
            assert zone(st, "victory_deck/2") == ["7♥"]
        else:
            outcomes.add("battle")
            assert zone(st, "field/1") == ["7♥"] and st.current_player() == 0
    assert outcomes == {"attacker", "defender", "battle"}


def test_power_attack_battle_counts_only_the_last_roll():
    # "In the case of a battle, only the last die roll is added to the face value of the cards in
    # play": all of a player's cards on the Field of Battle, plus their last roll (not the card just
    # played alone: 7 + 12 + roll against 11 + 12 + roll, not 12 + roll against 12 + roll).
    checked = differs = 0
    hands = {"hand/1": ["7♥", "Q♦", "2♣", "3♠", "4♣"], "hand/2": ["J♣", "Q♠", "5♥", "6♠", "7♠"],
             "fight_deck/1": HANDS["fight_deck/1"], "fight_deck/2": HANDS["fight_deck/2"]}
    for seed in range(300):
        st = position(game("power"), 2, zones=hands, rest="pack", current=1, seed=seed)
        play(st, "play 7♥", "play J♣")
        if zone(st, "field/1") != ["7♥"]:
            continue                                  # no Battle with this seed
        play(st, "play Q♦", "play Q♠")
        d1, d2 = var(st, "die/1"), var(st, "die/2")
        if 19 + d1 > 23 + d2:
            assert zone(st, "victory_deck/1") == ["J♣", "Q♠"]
        elif 19 + d1 < 23 + d2:
            assert zone(st, "victory_deck/2") == ["7♥", "Q♦"]
        else:
            # tied again: the Battle goes on, and player 1 has no Sword Card left: they lose
            assert {"7♥", "Q♦"} <= set(zone(st, "victory_deck/2"))
        differs += (19 + d1 > 23 + d2) != (d1 > d2)
        checked += 1
    assert checked > 0 and differs > 0                # some Battle the card-alone reading decides otherwise


# ---- what the games say: true, and in the rulebook's words -----------------------

def duel_says(st):
    """What was said since the first duel began (the opening flip left out)."""
    told = [t for _s, t in says(st)]
    return told[told.index("attacks"):]


def test_tied_opening_flip_is_told_flip_by_flip():
    # "each player draws the top card from his or her Fight Deck and places it face up upon the
    # Field of Battle": every flip is told, the tied ones too (DECISION: both flip again).
    cg = game().compiled(2)
    tied = 0
    for seed in range(80):
        st = cg.new_game(seed=seed, log=True)
        w = st.current_player()
        won, own = zone(st, f"victory_deck/{w + 1}"), zone(st, f"champions/{w + 1}")
        flips = [t for _s, t in says(st) if t.startswith("the opening flip:")]
        assert len(flips) == len(won)                      # one line a flip
        for i, (a, b) in enumerate(zip(own, won)):
            pair = (a, b) if w == 0 else (b, a)
            assert flips[i] == f"the opening flip: {pair[0]} against {pair[1]}"
        ties = [t for _s, t in says(st) if t.startswith("both cards are of equal value")]
        assert len(ties) == len(won) - 1
        assert (w + 1, "has the highest card, and with it the choice to attack or defend "
                "first") in says(st)
        tied += len(won) > 1
    assert tied > 0


def test_a_battle_is_told_only_on_equal_values():
    st = setup()
    play(st, "play 7♥", "play 7♠")
    assert duel_says(st)[-1] == ("the cards are of equal value: they stay on the Field of Battle, "
                                 "and a Battle begins")
    st = setup()
    play(st, "play 7♥", "play J♣")
    told = duel_says(st)
    assert not any("Battle" in t for t in told)
    assert told[-2:] == ["the cards on the field go to player 2", "attacks"]


def test_counter_attack_tells_the_totals_not_a_tie():
    # "Every round becomes a Battle ... Each player adds up the face value of all of his or her cards
    # lying on the Field of Battle": 2 against 5 is no tie; 2 + 9 = 11 against 5 + 14 = 19.
    st = setup("counter")
    play(st, "play 2♣", "play 5♥", "play 9♦", "play K♠")
    told = duel_says(st)
    assert not any("equal" in t or "no clear winner" in t for t in told)
    assert told.index("no King has been played and both hands still hold cards: the Battle goes on") \
        < told.index("a King has been played: that was the last round of the Battle") \
        < told.index("the totals on the Field of Battle: 11 for player 1 and 19 for player 2") \
        < told.index("the cards on the field go to player 2")


def test_power_attack_tells_each_sum():
    # "the number of the die roll is added to the face value of the card to determine the winner"
    for seed in range(5):
        st = position(game("power"), 2, zones=HANDS, rest="pack", current=1, seed=seed)
        play(st, "play 7♥", "play J♣")
        d1, d2 = var(st, "die/1"), var(st, "die/2")
        assert (1, f"rolls {d1} — added to the face value: 7 + {d1} = {7 + d1}") in says(st)
        assert (2, f"rolls {d2} — added to the face value: 11 + {d2} = {11 + d2}") in says(st)


def test_a_lost_duel_with_an_empty_field_says_nothing_of_the_field():
    # "If the attacker does not have a Sword Card in his or her hand to play, then he or she
    # automatically loses.  The winner draws a random card from the losers hand"
    black = ["2♣", "3♠", "4♣", "5♠", "6♣"]
    st = position(game(), 2, zones=dict(HANDS, **{"hand/1": black}), rest="pack", current=1)
    told = duel_says(st)
    assert "has no Sword Card to play: the Duel is lost" in told
    assert "a random card of the loser's hand goes to the Victory Deck of player 2" in told
    assert not any(t.startswith("the cards on the field go to") for t in told)


def test_speed_attack_no_hands_top_cards_colour_ignored():
    # "players do not draw hands.  The top card is drawn from each player's Fight Deck and layed on
    # the Field of Battle.  Card color is ignored.  The highest card wins."
    st = position(game("speed"), 2, rest="pack", current=1, zones={
        "fight_deck/1": ["9♣", "4♦", "2♠"],          # top last: 2♠ first
        "fight_deck/2": ["K♦", "4♥", "5♥"]})
    # no decision at all: the game plays itself to the end
    assert st.is_terminal()
    assert [e[2] for e in st.log if e[0] == "say" and "turns up" in e[2]] == [
        "turns up 2♠", "turns up 5♥",                 # player 2 wins, and attacks next
        "turns up 4♥", "turns up 4♦",                 # equal: a Battle
        "turns up K♦", "turns up 9♣"]                 # player 2 wins the Battle
    assert zone(st, "victory_deck/2") == ["2♠", "4♦", "9♣"]
    assert zone(st, "hand/1") == zone(st, "hand/2") == []
    assert st.winners == [1]


def test_speed_attack_push_when_a_fight_deck_runs_out():
    st = position(game("speed"), 2, rest="pack", current=1, zones={
        "fight_deck/1": ["3♣"], "fight_deck/2": ["8♦", "3♥"]})
    assert st.is_terminal()
    assert zone(st, "champions/1") == ["3♣"]
    assert zone(st, "champions/2") == ["3♥", "8♦"]    # own card back, then the leftover
    assert end_scores(st) == [0, 0]


def test_two_decks_each_player_their_own_deck():
    # "each player uses his or her own deck.  The two decks are not shuffled together."
    cg = game("two_decks").compiled(2)
    assert len(cg.cards) == 104
    every = set(cg.card_names)
    for seed in range(10):
        st = cg.new_game(seed=seed)                  # at the opening choice
        flipped = [c for z in ("victory_deck", "champions") for p in (1, 2) for c in zone(st, f"{z}/{p}")]
        for p in (1, 2):
            mine = zone(st, f"fight_deck/{p}")
            assert len(set(mine)) == len(mine) == 52 - len(flipped) // 2   # a whole deck each
            assert every - set(mine) <= set(flipped)
        flipped = sum(len(zone(st, f"{z}/{p}")) for z in ("victory_deck", "champions") for p in (1, 2))
        assert len(zone(st, "fight_deck/1")) + len(zone(st, "fight_deck/2")) + flipped == 104


# ---- random games ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_game_properties(variant):
    g = game(variant)
    results = check_random_games(g, 2, range(25))
    assert all(outcome == "score" for outcome, _, _ in results)     # every game ends by its score
    same_seed_same_game(g, 2, 3)
    clone_independent(g, 2, 5, steps=8)
    clone_independent(g, 2, 6, steps=30)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_victory_and_champions_hold_every_card_at_the_end(variant):
    cg = game(variant).compiled(2)
    for seed in range(10):
        st = cg.new_game(seed=seed)
        random_playout(st, random.Random(seed))
        for p in (1, 2):
            assert zone(st, f"hand/{p}") == zone(st, f"fight_deck/{p}") == zone(st, f"field/{p}") == []
        kept = sum(len(zone(st, f"{z}/{p}")) for z in ("victory_deck", "champions") for p in (1, 2))
        assert kept == len(cg.cards)


# ---- golden transcripts ---------------------------------------------------------------------

def transcript(variant, seed):
    cg = game(variant).compiled(2)
    st = played(cg, seed)
    lines = [f"# {cg.model.name} ({VARIANTS[variant]}), seed {seed}, uniformly random choices"]
    lines += log_lines(st, scores=True)
    for p in (1, 2):
        lines.append(f"P{p} victory deck: {' '.join(zone(st, f'victory_deck/{p}'))}")
    return lines


GOLDEN_CASES = [(v, k) for v in sorted(VARIANTS) for k in (1, 2, 3)]


@pytest.mark.parametrize("variant,seed", GOLDEN_CASES)
def test_golden_transcript(variant, seed):
    match_golden(f"attack_{variant}_seed{seed}.txt", transcript(variant, seed))


# ---- the transcript in the rule text's words ----------------------------------------------------

def _told(capsys, name, *args):
    from rulelang.cli.commands import main
    assert main(["run", os.path.join(RULES, name), *args]) == 0
    return [ln.strip() for ln in capsys.readouterr().out.splitlines()]


def test_the_random_card_is_announced_before_it_moves(capsys):
    # "If the defender does not have a shield card of equal or greater value than the Sword Card
    # played, then he or she automatically loses.  The winner draws a random card from the losers
    # hand and places it in his or her victory deck."  (Seed 1, turn 2.)
    lines = _told(capsys, "attack.cardrules", "--seed", "1")
    i = lines.index("» Player 2 has no Shield Card of equal or greater value: the Duel is lost")
    assert lines[i + 1:i + 3] == ["» A random card of the loser's hand goes to the Victory Deck of Player 1",
                                  "· K♦ from Hand of Player 2 to Victory Deck of Player 1"]


def test_speed_attack_shows_the_table_now_and_then(capsys):
    # Speed Attack! has no decision after the opening flip: the game plays itself out, and the
    # transcript still shows the table every few turns, at the start of a turn.
    lines = _told(capsys, "attack_speed.cardrules", "--seed", "1")
    tables = [ln for ln in lines if ln.startswith("the table in turn ")]
    assert tables == ["the table in turn 7", "the table in turn 13", "the table in turn 19"]
    i = lines.index("the table in turn 7")
    assert lines[i + 1:i + 3] == ["Player 1", "Fight Deck         19 cards, face down"]
    assert lines[i + 13].startswith("7  » Player 2 attacks")


def test_speed_attack_replayed_to_the_end_shows_the_same_tables(capsys, tmp_path):
    log = str(tmp_path / "speed.log")
    lines = _told(capsys, "attack_speed.cardrules", "--seed", "1", "--log", log)
    from rulelang.cli.commands import main
    assert main(["replay", log, "--to-end"]) == 0
    again = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    tables = [ln for ln in lines if ln.startswith("the table")]
    assert [ln for ln in again if ln.startswith("the table")] == tables
    assert "the table in turn 13" in tables
