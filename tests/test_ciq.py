"""CIQ 2.3 (rules/ciq.cardrules; the decisions taken are in docs/games/ciq.md).

Scenario tests set up the position the rule text describes and play it: the text's two worked
examples, every face card (the Jack with its exceptions), jokers, the block, a defend, the refill
chain and the transfer fallback.  Golden transcripts pin a few seeded random games (regenerate
with RULELANG_REGEN=1 after a deliberate change); the random-game properties of tests/gameprops.py
hold for every number of players from 2 to 6.
"""
import json
import os
import random

import pytest

from rulelang.compile.loader import check_file
from rulelang.play.scenario import play, position, var, zone

from gameprops import check_random_games, clone_independent, random_playout, same_seed_same_game
from gametest import legal, log_lines, match_golden, played, rules_game, says

HERE = os.path.dirname(__file__)
RULES = os.path.join(HERE, "..", "rules", "ciq.cardrules")

def game(**overrides):
    return rules_game("ciq.cardrules", **overrides)


# Every player has an 8 in their Defense Pile unless a test says otherwise; every card not named
# is at the bottom of player 1's Attack Pile, so player 1 never runs out of cards to transfer
# unless a test says so.  Player 2 has a few cards in their Attack Pile, so that their own turn,
# which starts as soon as player 1's attack is over, does not turn their Damage Pile over.
P2_ATTACK_PILE = ["10♦", "J♦", "Q♦", "K♦", "A♦", "9♦"]


def setup(players=2, current=1, rest="attack_pile/1", **zones):
    z = {f"defense_pile/{p}": ["8♣"] for p in range(1, players + 1)}
    z["attack_pile/2"] = P2_ATTACK_PILE
    z.update({k.replace("__", "/"): v for k, v in zones.items()})
    return position(game(), players, zones=z, rest=rest, current=current)


HAND = ["2♣", "2♠", "3♣", "3♠", "4♣"]     # player 2's hand: nothing blocks a card above 4


# ---- the file -------------------------------------------------------------------------------

def test_file_checks_clean():
    diags, model, _ = check_file(RULES)
    assert model is not None
    assert [str(d) for d in diags] == []


# (Each DECISION of the file has its numbered entry in docs/games/ciq.md: tests/test_docs.py.)


# ---- setup ----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_one_deck_per_player_an_8_each_everything_dealt(players):
    cg = game().compiled(players)
    assert len(cg.cards) == 54 * players                         # jokers included
    assert cg.card_names.count("red_joker") == players
    for seed in range(3):
        st = cg.new_game(seed=seed)                     # at player 1's first decision
        assert zone(st, "pack") == [] and zone(st, "attack") == []
        for p in range(1, players + 1):
            # "place one 8 face up in front of each player.  These begin the players' Defense Piles."
            d = zone(st, f"defense_pile/{p}")
            assert len(d) == 1 and d[0].startswith("8")
            # 54 * n cards less n 8s: 53 each ("as equally as possible"), 5 of them in the hand
            assert len(zone(st, f"hand/{p}")) == 5
            assert len(zone(st, f"attack_pile/{p}")) == 48
            assert zone(st, f"damage_pile/{p}") == []
        assert st.current_player() == 0                            # player 1 begins


def test_the_8s_are_random():
    cg = game().compiled(2)
    tops = {tuple(zone(cg.new_game(seed=s), f"defense_pile/{p}")[0] for p in (1, 2)) for s in range(20)}
    assert len(tops) > 3


def test_two_decks_per_player_option():
    cg = game(decks=2).compiled(4)
    assert len(cg.cards) == 54 * 8
    st = cg.new_game(seed=1)
    assert {len(zone(st, f"attack_pile/{p}")) for p in (1, 2, 3, 4)} == {107 - 5}


def test_what_each_player_sees():
    st = game().compiled(3).new_game(seed=2)
    obs = st.observation(1)["zones"]
    assert isinstance(obs["hand/2"], list)                       # your own hand
    assert not isinstance(obs["hand/1"], list)                   # not another's
    assert not isinstance(obs["attack_pile/2"], list)            # Attack Piles face down
    assert isinstance(obs["defense_pile/1"], list)               # Defense and Damage Piles face up
    assert isinstance(obs["damage_pile/3"], list)


# ---- the turn -------------------------------------------------------------------------------

def test_one_action_per_turn_attack_defend_or_draw():
    st = setup(hand__1=["9♥", "3♣", "K♣", "2♦", "red_joker"], defense_pile__2=["8♦"])
    assert legal(st) == ["attack_damage_pile player 2", "attack_defense_pile player 2",
                         "defend 3♣", "defend K♣", "draw"]
    play(st, "draw")
    assert len(zone(st, "hand/1")) == 6                          # "drawing an additional card"
    assert st.current_player() == 1


def test_attack_on_a_defense_pile_needs_a_spy_card():
    # Defense 2: no card but a 2 is a Spy Card, and a Joker is never played on a Defense Pile.
    st = setup(hand__1=["9♥", "3♣", "K♣", "A♦", "red_joker"], defense_pile__2=["2♦"])
    assert "attack_defense_pile player 2" not in legal(st)


def test_refill_flips_the_damage_pile_while_drawing():
    # "If your Attack Pile runs out while drawing, then turn your Damage Pile face down to make a
    # new Attack Pile and continue drawing."
    st = setup(hand__2=HAND, hand__1=["2♥", "3♥"], attack_pile__1=["4♥"],
               damage_pile__1=["5♠", "6♠", "7♠", "9♠"], rest="attack_pile/2")
    # turned over: the Damage Pile's bottom card (5♠) is the new Attack Pile's top
    assert zone(st, "hand/1") == ["2♥", "3♥", "4♥", "5♠", "6♠"]
    assert zone(st, "attack_pile/1") == ["9♠", "7♠"]
    assert zone(st, "damage_pile/1") == []


def test_an_empty_attack_pile_is_replaced_at_the_start_of_the_turn():
    # "If your Attack Pile is empty, turn your Damage Pile over, if you have one, to form a new
    # Attack Pile."  (Even with a full hand.)
    st = setup(hand__2=HAND, hand__1=["2♥", "3♥", "4♥", "5♥", "6♥"], attack_pile__1=[],
               damage_pile__1=["5♠", "6♠"], rest="attack_pile/2")
    assert zone(st, "attack_pile/1") == ["6♠", "5♠"] and zone(st, "damage_pile/1") == []


def test_with_both_piles_empty_a_small_hand_and_a_pass():
    # "Only if your Damage and Attack Piles are both empty can you play with a Hand of fewer than
    # 5 cards." ... "you are allowed just to pass, taking no action, since you are unable to draw."
    st = setup(hand__2=HAND, hand__1=["2♥"], attack_pile__1=[], defense_pile__1=["8♠"],
               rest="attack_pile/2")
    assert zone(st, "hand/1") == ["2♥"]
    assert legal(st) == ["attack_damage_pile player 2", "attack_defense_pile player 2", "pass"]


def test_only_a_defense_pile_left_means_passing():
    # "If you only have one card, which would be in your Defense Pile, you will have to pass your
    # turn until someone gives you cards in your Damage Pile."
    st = setup(hand__2=HAND, hand__1=[], attack_pile__1=[], rest="attack_pile/2")
    assert legal(st) == ["pass"]
    play(st, "pass")
    assert ("cannot draw: passes" in [t for _, t in says(st)]) and st.current_player() == 1


def test_refill_turns_damage_pile_over_after_drawing():
    # "If your Attack Pile is empty, turn your Damage Pile over": the Attack Pile ran out exactly
    # as the hand reached 5, so the Damage Pile is turned over before the player acts (it was
    # left empty until 2026-11-22, and an attack that turn transferred nothing).
    st = setup(hand__2=HAND, hand__1=["2♥", "3♥", "4♥", "5♥"], attack_pile__1=["6♥"],
               damage_pile__1=["5♠", "6♠", "7♠"], rest="attack_pile/2")
    assert zone(st, "hand/1") == ["2♥", "3♥", "4♥", "5♥", "6♥"]
    assert zone(st, "attack_pile/1") == ["7♠", "6♠", "5♠"] and zone(st, "damage_pile/1") == []
    # and a 2 played on player 2's Damage Pile now transfers two cards from it
    play(st, "attack_damage_pile player 2", "play 2♥", "stop")
    if "let_it_happen" in legal(st):
        play(st, "let_it_happen")
    assert "transfers 2 cards to player 2" in [t for _, t in says(st)]
    # from the top of the new Attack Pile (the Damage Pile's bottom card, 5♠, was put on top)
    assert zone(st, "attack_pile/1") == ["7♠"]
    assert zone(st, "damage_pile/2")[-2:] == ["5♠", "6♠"]


def test_draw_turns_the_damage_pile_over_when_needed():
    # The draw action takes the top card of the Attack Pile the start of the turn turned over.
    st = setup(hand__2=HAND, hand__1=["2♥", "3♥", "4♥", "5♥", "7♥"], attack_pile__1=[],
               damage_pile__1=["5♠", "6♠"], rest="attack_pile/2")
    # at the start of the turn the empty Attack Pile was replaced by the Damage Pile
    assert zone(st, "attack_pile/1") == ["6♠", "5♠"] and zone(st, "damage_pile/1") == []
    play(st, "draw")
    assert zone(st, "hand/1")[-1] == "5♠" and zone(st, "attack_pile/1") == ["6♠"]


def test_defend_same_suit_old_pile_onto_the_damage_pile():
    # "you may defend by replacing the cards in your Defense Pile with one in your Hand.  The card
    # you place down must be of the same suit as the top one currently there.  All the cards that
    # were in the Defense Pile then go on top of your Damage Pile and your turn ends."
    st = setup(hand__1=["9♣", "9♦", "2♠", "3♠", "black_joker"], defense_pile__1=["8♦", "J♣"],
               damage_pile__1=["4♥"])
    assert [a for a in legal(st) if a.startswith("defend")] == ["defend 9♣"]
    play(st, "defend 9♣")
    assert zone(st, "defense_pile/1") == ["9♣"]
    assert zone(st, "damage_pile/1") == ["4♥", "8♦", "J♣"]
    assert st.current_player() == 1


# ---- attacks: the worked examples -----------------------------------------------------------

def test_worked_example_2_6_6_10_against_9_transfers_24():
    # "if an opponent's Defense is the 9, you could attack with 2-6-6-10.  The 10 would end the
    # attack since it is higher than 9 ... This attack would allow you to transfer 24 cards."
    st = setup(hand__1=["2♥", "6♥", "6♠", "10♠", "3♦"], defense_pile__2=["9♣"], hand__2=HAND)
    before = len(zone(st, "attack_pile/1"))
    top24 = zone(st, "attack_pile/1")[-24:]
    play(st, "attack_damage_pile player 2", "play 2♥")
    # "any other cards you play must be either the same suit or the same rank as the previous card"
    assert legal(st) == ["add 6♥", "stop"]
    play(st, "add 6♥")
    assert legal(st) == ["add 6♠", "stop"]
    play(st, "add 6♠")
    assert legal(st) == ["add 10♠", "stop"]
    play(st, "add 10♠")                      # an Attack Card: it ends the attack, no more choice
    assert st.current_player() == 1
    assert len(zone(st, "attack_pile/1")) == before - 24
    damage = zone(st, "damage_pile/2")
    # "your card(s) are placed in front of the opponent's Attack Pile to form a new Damage Pile"
    assert damage[:4] == ["2♥", "6♥", "6♠", "10♠"]
    # "attacks transfer cards from the top of your Attack Pile onto the opponent's Damage Pile"
    assert damage[4:] == top24[::-1] and len(damage) == 28
    assert (1, "transfers 24 cards to player 2") in says(st)


def test_worked_example_queen_against_7_transfers_7():
    # "If you begin your attack with an Attack Card, you may only play one card ... the Attack Card
    # is reduced to match the value of the opponent's Defense.  For example, if an opponent's
    # Defense is a 7 and you attack with a Queen, the result of the attack is the same as a 7
    # (transfer 7 cards)."
    st = setup(hand__1=["Q♥", "Q♠", "2♥", "3♦", "4♦"], defense_pile__2=["7♣"], hand__2=HAND)
    play(st, "attack_damage_pile player 2", "play Q♥")
    assert st.current_player() == 1 and "Q♠" in zone(st, "hand/1")     # only one card
    assert len(zone(st, "damage_pile/2")) == 1 + 7


@pytest.mark.parametrize("card", ["A♥", "K♥", "J♥", "9♥"])
def test_any_lone_attack_card_is_reduced_to_the_defense(card):
    st = setup(hand__1=[card, "2♥", "3♦", "4♦", "5♦"], defense_pile__2=["7♣"], hand__2=HAND,
               damage_pile__1=["2♠", "3♠"])
    play(st, "attack_damage_pile player 2", f"play {card}")
    assert len(zone(st, "damage_pile/2")) == 1 + 7
    assert zone(st, "hand/2") == HAND                    # a lone Jack takes nothing
    assert zone(st, "damage_pile/1") == ["2♠", "3♠"]     # a lone King gives no Damage Pile


def test_a_lone_attack_card_against_a_face_card_defense():
    # DECISION: reduced to the Defense's value, a King 13.
    st = setup(hand__1=["A♥", "2♥", "3♦", "4♦", "5♦"], defense_pile__2=["8♦", "K♣"], hand__2=HAND)
    play(st, "attack_damage_pile player 2", "play A♥")
    assert len(zone(st, "damage_pile/2")) == 1 + 13


# ---- the face cards -------------------------------------------------------------------------

def test_jack_takes_a_random_card_and_transfers_double_its_amount():
    # "Jack: Pick a random card from your opponent's hand and play it on top of your Jack.
    # Transfer double the amount that card can transfer"
    st = setup(hand__1=["3♥", "J♥", "2♦", "3♦", "4♦"], defense_pile__2=["9♣"], hand__2=["5♠"])
    play(st, "attack_damage_pile player 2", "play 3♥", "add J♥")    # J 11 > 9: ends the attack
    damage = zone(st, "damage_pile/2")
    assert damage[:3] == ["3♥", "J♥", "5♠"]                          # on top of the Jack
    assert len(damage) == 3 + 3 + 2 * 5
    assert (1, "the Jack takes 5♠ from the hand of player 2") in says(st)


def test_jack_is_random():
    taken = set()
    for seed in range(12):
        st = position(game(), 2, rest="attack_pile/1", current=1, seed=seed, zones={
            "hand/1": ["3♥", "J♥", "2♦", "3♦", "4♦"], "defense_pile/1": ["8♣"],
            "defense_pile/2": ["9♣"], "hand/2": ["2♠", "5♠", "6♠"], "attack_pile/2": P2_ATTACK_PILE})
        play(st, "attack_damage_pile player 2", "play 3♥", "add J♥")
        taken.add(zone(st, "damage_pile/2")[2])
    assert taken == {"2♠", "5♠", "6♠"}


@pytest.mark.parametrize("taken,amount", [("K♠", "damage"), ("A♠", "attack"), ("J♠", 0), ("Q♠", 0),
                                          ("black_joker", 0), ("10♠", 20)])
def test_jack_exceptions(taken, amount):
    # "(Kings and Aces transfer normal and Jacks and Queens don't transfer any)"
    st = setup(hand__1=["3♥", "J♥", "2♦", "3♦", "4♦"], defense_pile__2=["9♣"], hand__2=[taken],
               damage_pile__1=["2♠", "3♠", "4♠"])
    attack_pile = len(zone(st, "attack_pile/1"))
    play(st, "attack_damage_pile player 2", "play 3♥", "add J♥")
    got = len(zone(st, "damage_pile/2")) - 3 - 3
    if amount == "damage":
        assert got == 3 and zone(st, "damage_pile/1") == []
        assert zone(st, "damage_pile/2")[-3:] == ["2♠", "3♠", "4♠"]
    elif amount == "attack":
        assert got == attack_pile - 3 and zone(st, "attack_pile/1") == []
    else:
        assert got == amount


def test_jack_against_an_empty_hand_transfers_nothing():
    st = setup(hand__1=["3♥", "J♥", "2♦", "3♦", "4♦"], defense_pile__2=["9♣"], hand__2=[])
    play(st, "attack_damage_pile player 2", "play 3♥", "add J♥")
    assert zone(st, "damage_pile/2")[:2] == ["3♥", "J♥"]
    assert len(zone(st, "damage_pile/2")) == 2 + 3


def test_after_a_jack_the_next_card_matches_the_jack():
    # Defense King: the Jack is a Spy Card and the attack may go on.
    st = setup(hand__1=["J♥", "5♥", "J♦", "7♠", "2♦"], defense_pile__2=["8♦", "K♣"], hand__2=["7♣"])
    play(st, "attack_damage_pile player 2", "play J♥")
    assert legal(st) == ["add 5♥", "add J♦", "stop"]                 # not 7♠ for the 7♣ taken
    play(st, "add J♦")                                               # its hand is empty now
    play(st, "stop")
    assert len(zone(st, "damage_pile/2")) == 3 + 2 * 7


def test_queen_doubles_what_came_before():
    # "Queen: Double the number of cards transferred by the cards played before the Queen this turn."
    st = setup(hand__1=["4♥", "4♠", "Q♠", "2♦", "3♦"], defense_pile__2=["8♦", "K♣"], hand__2=HAND)
    play(st, "attack_damage_pile player 2", "play 4♥", "add 4♠", "add Q♠", "stop")
    assert len(zone(st, "damage_pile/2")) == 3 + (4 + 4) * 2


def test_queen_first_transfers_nothing():
    st = setup(hand__1=["Q♠", "5♠", "2♦", "3♦", "5♦"], defense_pile__2=["8♦", "K♣"], hand__2=HAND)
    play(st, "attack_damage_pile player 2", "play Q♠", "add 5♠", "stop")
    assert len(zone(st, "damage_pile/2")) == 2 + 0 + 5


def test_king_transfers_your_damage_pile():
    # "King: Transfer your entire Damage Pile."
    st = setup(hand__1=["3♠", "K♠", "2♦", "3♦", "5♦"], defense_pile__2=["9♣"], hand__2=HAND,
               damage_pile__1=["2♥", "9♥"])
    play(st, "attack_damage_pile player 2", "play 3♠", "add K♠")
    assert zone(st, "damage_pile/1") == []
    damage = zone(st, "damage_pile/2")
    assert damage[:2] == ["3♠", "K♠"] and damage[-2:] == ["2♥", "9♥"] and len(damage) == 2 + 3 + 2


def test_ace_transfers_your_attack_pile():
    # "Ace: Transfer your entire Attack Pile."
    st = setup(hand__1=["3♠", "A♠", "2♦", "3♦", "5♦"], defense_pile__2=["9♣"], hand__2=HAND,
               damage_pile__1=["2♥"])
    total = len(zone(st, "attack_pile/1"))
    play(st, "attack_damage_pile player 2", "play 3♠", "add A♠")
    assert zone(st, "attack_pile/1") == [] and zone(st, "damage_pile/1") == ["2♥"]
    assert len(zone(st, "damage_pile/2")) == 2 + total
    assert not st.is_terminal()


# ---- jokers ---------------------------------------------------------------------------------

def test_jokers_are_wild_spies_worth_nothing():
    # "Jokers serve as wild Spy Cards.  Any card can be played on top of one and they are considered
    # a Spy Card no matter what the Defense.  They can only be used when attacking a Damage Pile and
    # don't increase the total number of cards transferred.  It can be used at any point in your
    # sequence of cards."
    st = setup(hand__1=["red_joker", "5♣", "black_joker", "9♦", "K♥"], defense_pile__2=["2♦"],
               hand__2=HAND)
    play(st, "attack_damage_pile player 2", "play red_joker")        # a Spy against a Defense of 2
    assert legal(st) == ["add 5♣", "add 9♦", "add K♥", "add black_joker", "stop"]
    play(st, "add 5♣")                                                # an Attack Card: the end
    assert st.current_player() == 1
    assert len(zone(st, "damage_pile/2")) == 2 + 0 + 5


def test_joker_in_the_middle_of_a_chain():
    st = setup(hand__1=["red_joker", "5♣", "black_joker", "9♦", "K♥"], defense_pile__2=["9♣"],
               hand__2=HAND, damage_pile__1=["2♠", "3♠"])
    play(st, "attack_damage_pile player 2", "play 5♣")
    assert legal(st) == ["add black_joker", "add red_joker", "stop"]
    play(st, "add black_joker", "add 9♦", "add red_joker")
    assert legal(st) == ["add K♥", "stop"]
    play(st, "add K♥")          # an Attack Card that keeps its effect: the whole Damage Pile
    assert zone(st, "damage_pile/1") == []
    assert len(zone(st, "damage_pile/2")) == 5 + (5 + 0 + 9 + 0 + 2)


def test_no_joker_on_a_defense_pile():
    st = setup(hand__1=["red_joker", "5♣", "6♣", "9♦", "K♥"], defense_pile__2=["9♣"], hand__2=HAND)
    play(st, "attack_defense_pile player 2")
    assert legal(st) == ["play 5♣", "play 6♣", "play 9♦"]
    play(st, "play 5♣")
    assert legal(st) == ["add 6♣", "stop"]


# ---- the Defense Pile attack ----------------------------------------------------------------

def test_defense_pile_attack_raises_the_defense_and_transfers_nothing():
    # "The purpose of attacking a Defense Pile is to leave your opponent's Defense with a higher
    # value than it previously had"
    st = setup(hand__1=["5♣", "5♥", "Q♥", "J♣", "2♦"], defense_pile__2=["9♣"], hand__2=["A♠"])
    size = len(zone(st, "attack_pile/1"))
    play(st, "attack_defense_pile player 2", "play 5♣", "add 5♥", "add Q♥")
    assert zone(st, "defense_pile/2") == ["9♣", "5♣", "5♥", "Q♥"]
    assert len(zone(st, "attack_pile/1")) == size and zone(st, "damage_pile/2") == []
    assert zone(st, "hand/2")[0] == "A♠"                  # no block, nothing taken
    assert st.current_player() == 1


# ---- the block ------------------------------------------------------------------------------

def test_block_cancels_the_last_card_only():
    # "you may block the result of the last card of their attack by placing your card on top of
    # your Defense Pile.  The blocked card is still played and any cards played before the blocked
    # card still transfer their entitled cards."
    st = setup(hand__1=["2♥", "6♥", "10♥", "3♦", "4♦"], defense_pile__2=["9♣"],
               hand__2=["K♣", "10♦", "9♠", "2♠", "3♠"])
    play(st, "attack_damage_pile player 2", "play 2♥", "add 6♥", "add 10♥")
    assert st.current_player() == 1                                  # out of turn
    assert legal(st) == ["block 10♦", "block K♣", "let_it_happen"]  # 9♠ is lower than the 10
    play(st, "block K♣")
    assert zone(st, "defense_pile/2") == ["9♣", "K♣"]
    damage = zone(st, "damage_pile/2")
    assert damage[:3] == ["2♥", "6♥", "10♥"] and len(damage) == 3 + 2 + 6
    assert (2, "blocks the result of 10♥") in says(st)               # said by the blocker
    assert st.current_player() == 1 and not st.is_terminal()


def test_letting_it_happen():
    st = setup(hand__1=["2♥", "6♥", "10♥", "3♦", "4♦"], defense_pile__2=["9♣"],
               hand__2=["K♣", "10♦", "9♠", "2♠", "3♠"])
    play(st, "attack_damage_pile player 2", "play 2♥", "add 6♥", "add 10♥", "let_it_happen")
    assert len(zone(st, "damage_pile/2")) == 3 + 18


def test_block_of_a_lone_attack_card_uses_its_own_value():
    st = setup(hand__1=["Q♥", "2♦", "3♦", "4♦", "5♦"], defense_pile__2=["7♣"],
               hand__2=["J♠", "Q♠", "2♠", "3♠", "4♠"])
    play(st, "attack_damage_pile player 2", "play Q♥")
    assert legal(st) == ["block Q♠", "let_it_happen"]              # not J♠, though it is reduced to 7
    play(st, "block Q♠")
    assert zone(st, "damage_pile/2") == ["Q♥"]


def test_no_block_when_no_card_is_high_enough():
    st = setup(hand__1=["Q♥", "2♦", "3♦", "4♦", "5♦"], defense_pile__2=["7♣"], hand__2=HAND)
    play(st, "attack_damage_pile player 2", "play Q♥")
    assert st.current_player() == 1 and legal(st)[0].startswith("attack")   # player 2's own turn


def test_a_joker_at_the_end_cannot_be_blocked():
    st = setup(hand__1=["2♥", "red_joker", "3♦", "4♦", "5♦"], defense_pile__2=["9♣"],
               hand__2=["K♣", "A♠", "2♠", "3♠", "4♠"])
    play(st, "attack_damage_pile player 2", "play 2♥", "add red_joker", "stop")
    assert legal(st)[0].startswith("attack")                         # player 2's turn, no block
    assert len(zone(st, "damage_pile/2")) == 2 + 2


def test_the_jack_takes_its_card_before_the_block():
    st = setup(hand__1=["3♥", "J♥", "2♦", "3♦", "4♦"], defense_pile__2=["9♣"], hand__2=["Q♠"])
    play(st, "attack_damage_pile player 2", "play 3♥", "add J♥")
    assert not any(a.startswith("block") for a in legal(st))


# ---- transferring: the fallback -------------------------------------------------------------

def test_attack_ends_when_the_attack_pile_runs_out_with_a_damage_pile():
    # "If you are in the process of transferring cards ... when your Attack Pile runs out and you
    # have cards in your Damage Pile, the attack ends."
    st = setup(hand__1=["5♥", "6♥", "9♥", "3♦", "4♦"], attack_pile__1=["2♠", "3♠", "4♠"],
               damage_pile__1=["K♦", "K♠"], defense_pile__2=["9♣"], hand__2=HAND, rest="pack")
    play(st, "attack_damage_pile player 2", "play 5♥", "add 6♥", "stop")
    assert zone(st, "damage_pile/2") == ["5♥", "6♥", "4♠", "3♠", "2♠"]   # 3 of 5, then nothing
    assert zone(st, "damage_pile/1") == ["K♦", "K♠"]
    assert zone(st, "hand/1") == ["9♥", "3♦", "4♦"]
    assert (1, "the Attack Pile has run out: the attack ends") in says(st)
    assert var(st, "ended") == 1


def test_transfer_falls_back_to_the_hand_by_choice():
    # "If your Attack Pile runs out while you are transferring cards and there are no cards in your
    # Damage Pile, then continue by picking cards from your Hand."
    st = setup(hand__1=["3♥", "9♦", "9♠", "2♦"], attack_pile__1=["2♠"], defense_pile__2=["9♣"],
               hand__2=[], rest="pack")
    assert zone(st, "hand/1") == ["3♥", "9♦", "9♠", "2♦", "2♠"] and zone(st, "attack_pile/1") == []
    play(st, "attack_damage_pile player 2", "play 3♥", "stop")
    assert legal(st) == ["give 2♠", "give 2♦", "give 9♠", "give 9♦"]
    play(st, "give 9♠", "give 2♦", "give 9♦")
    assert zone(st, "damage_pile/2") == ["3♥", "9♠", "2♦", "9♦"]
    assert zone(st, "hand/1") == ["2♠"] and not st.is_terminal()


def test_transfer_falls_back_to_the_defense_pile_and_wins():
    # "If that runs out and you still haven't transferred all the cards you are entitled to
    # transfer, continue transferring from the top of your Defense Pile."  "The game continues
    # until a player wins by getting rid of all his or her cards.  This can only be done by means
    # of an attack on another player's Damage Pile".
    st = setup(hand__1=["7♥", "2♣", "3♣"], attack_pile__1=["4♦", "5♦"],
               defense_pile__1=["8♠", "9♠", "10♠"], defense_pile__2=["9♣"], hand__2=HAND, rest="pack")
    play(st, "attack_damage_pile player 2", "play 7♥", "stop")
    assert st.is_terminal() and st.winners == [0]
    assert zone(st, "damage_pile/2")[-3:] == ["10♠", "9♠", "8♠"]
    for z in ("hand", "attack_pile", "damage_pile", "defense_pile"):
        assert zone(st, f"{z}/1") == []


def test_a_defense_pile_left_is_no_win():
    st = setup(hand__1=["5♥", "2♣", "3♣"], attack_pile__1=[], defense_pile__1=["8♠", "9♠", "10♠", "J♠"],
               defense_pile__2=["9♣"], hand__2=HAND, rest="pack")
    play(st, "attack_damage_pile player 2", "play 5♥", "stop")
    assert not st.is_terminal()
    assert zone(st, "defense_pile/1") == ["8♠"] and zone(st, "hand/1") == []
    assert st.current_player() == 1


def test_attacked_player_then_refills_from_the_new_damage_pile():
    # "you will not be able to draw until someone puts cards in your Damage Pile, which you would
    # flip over to form an Attack Pile on your next turn"
    st = setup(hand__1=["5♥", "2♣", "3♣"], attack_pile__1=[], defense_pile__1=["8♠", "9♠", "10♠", "J♠"],
               defense_pile__2=["9♣"], hand__2=["4♦", "2♠", "3♠", "4♠", "2♥"],
               attack_pile__2=["2♦", "3♦", "5♦", "6♦"], rest="pack")
    play(st, "attack_damage_pile player 2", "play 5♥", "stop")
    play(st, "attack_damage_pile player 1", "play 4♦", "stop")    # a Spy (4 <= 8): 4 cards
    # player 1's Damage Pile was 4♦ 6♦ 5♦ 3♦ 2♦; turned over, then drawn from the top
    assert zone(st, "hand/1") == ["4♦", "6♦", "5♦", "3♦", "2♦"]
    assert zone(st, "damage_pile/1") == [] and zone(st, "attack_pile/1") == []


# ---- the step budget ------------------------------------------------------------------------

def test_an_endless_game_is_stopped_by_the_step_budget():
    st = game().compiled(3).new_game(seed=1, max_steps=300)
    random_playout(st, random.Random(1))
    assert st.outcome == "error" and st.problem["code"] == "RL901"


def test_the_command_line_reports_the_step_budget(capsys):
    from rulelang.cli.commands import main
    code = main(["run", RULES, "--players", "3", "--seed", "2", "--max-steps", "300", "--json"])
    res = json.loads(capsys.readouterr().out)
    assert code == 1 and res["outcome"] == "error" and "300 steps" in res["problem"]["message"]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_command_line_plays_to_a_winner(capsys, players):
    from rulelang.cli.commands import main
    code = main(["run", RULES, "--players", str(players), "--seed", "5", "--json"])
    res = json.loads(capsys.readouterr().out)
    assert code == 0 and res["outcome"] == "win" and len(res["winners"]) == 1


# ---- random games ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_game_properties(players):
    g = game()
    results = check_random_games(g, players, range(3))
    assert all(outcome == "win" and len(winners) == 1 for outcome, winners, _ in results)
    same_seed_same_game(g, players, 7)
    clone_independent(g, players, 5, steps=40)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_winner_has_no_card_left(players):
    cg = game().compiled(players)
    for seed in range(4):
        st = cg.new_game(seed=seed)
        random_playout(st, random.Random(seed))
        w = st.winners[0] + 1
        assert all(zone(st, f"{z}/{w}") == [] for z in ("hand", "attack_pile", "damage_pile", "defense_pile"))
        for p in range(1, players + 1):
            if p != w:
                assert any(zone(st, f"{z}/{p}") for z in ("hand", "attack_pile", "damage_pile", "defense_pile"))


# ---- golden transcripts ---------------------------------------------------------------------

def transcript(players, seed):
    cg = game().compiled(players)
    st = played(cg, seed)
    lines = [f"# {cg.model.name} (ciq.cardrules), {players} players, seed {seed}, uniformly random choices"]
    lines += log_lines(st)
    for p in range(1, players + 1):
        lines.append(f"P{p} damage pile: {' '.join(zone(st, f'damage_pile/{p}'))}")
        lines.append(f"P{p} defense pile: {' '.join(zone(st, f'defense_pile/{p}'))}")
    return lines


GOLDEN_CASES = [(2, 1), (3, 2), (4, 3), (6, 4)]


@pytest.mark.parametrize("players,seed", GOLDEN_CASES)
def test_golden_transcript(players, seed):
    match_golden(f"ciq_{players}p_seed{seed}.txt", transcript(players, seed))


# ---- the transcript in the rule text's words ------------------------------------------------

def _told(capsys, *args):
    from rulelang.cli.commands import main
    assert main(["run", RULES, *args]) == 0
    return [ln.strip() for ln in capsys.readouterr().out.splitlines()]


def test_a_transfer_from_the_hand_is_explained_and_told_from_the_hand(capsys):
    # "If your Attack Pile runs out while you are transferring cards and there are no cards in your
    # Damage Pile, then continue by picking cards from your Hand."  Seed 5, turn 90: player 2's
    # Attack Pile runs out; the card picked goes from the hand, through the transfer, to the
    # target's Damage Pile, and the transcript says where it came from.
    lines = _told(capsys, "--seed", "5")
    i = lines.index("» The Attack Pile and the Damage Pile are empty: the transfer goes on from the hand")
    assert lines[i + 1] == "Player 2: transfer 7♣ from the hand"
    assert "· 7♣ from Hand of Player 2 to Damage Pile of Player 1" in lines[i:]
    assert not any(ln.startswith("· 7♣ to ") for ln in lines)


def test_a_block_says_where_the_card_goes(capsys):
    # "you may block the result of the last card of their attack by placing your card on top of
    # your Defense Pile"; a defend replaces the Defense Pile (seed 7, four players, turns 3 and 4).
    lines = _told(capsys, "--seed", "7", "--players", "4")
    i = lines.index("3  Player 3: attack the Damage Pile of Player 1")
    assert lines[i + 3:i + 5] == ["Player 1: block with A♥, placed on top of the Defense Pile",
                                  "» Player 1 blocks the result of A♠"]
    assert "4  Player 4: defend with A♦, replacing the Defense Pile" in lines
