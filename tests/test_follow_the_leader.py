"""Follow the Leader and its variants (rules/follow_the_leader*.cardrules; decisions in
docs/games/follow_the_leader.md).

Scenario tests set up the position the rule text describes and play it (the text's three-player
example first); golden transcripts pin seeded random games of every file (regenerate with
RULELANG_REGEN=1 after a deliberate change); the random-game properties of tests/gameprops.py
hold for every file, every player count and every option value.
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
    "base": "follow_the_leader.cardrules",
    "one_lower": "follow_the_leader_one_lower.cardrules",
    "jokers": "follow_the_leader_jokers.cardrules",
}

def game(variant="base", **overrides):
    return rules_game(VARIANTS[variant], **overrides)


# Hands for the players a test says nothing about (an empty hand would have won already).
HANDS = {"hand/1": ["A♦", "6♠", "10♠", "J♠"], "hand/2": ["5♣", "7♦", "9♠", "Q♠"],
         "hand/3": ["2♦", "4♠", "8♠", "K♠"]}


def setup(players=3, variant="base", current=1, vars=None, overrides=None, **zones):
    z = {k.replace("_", "/") if k.startswith("hand_") else k: v for k, v in zones.items()}
    named = {c for cards in z.values() for c in cards}
    for p in range(1, players + 1):
        if f"hand/{p}" not in z:
            z[f"hand/{p}"] = [c for c in HANDS[f"hand/{p}"] if c not in named]
    return position(game(variant, **(overrides or {})), players, zones=z, rest="stock",
                    current=current, vars=vars)


# ---- every file loads with no error and no warning ------------------------------------------

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_file_checks_clean(variant):
    diags, model, _ = check_file(os.path.join(RULES, VARIANTS[variant]))
    assert model is not None
    assert [str(d) for d in diags] == []


def test_variant_files_only_switch_an_option():
    for variant, name in VARIANTS.items():
        if variant == "base":
            continue
        with open(os.path.join(RULES, name), encoding="utf-8") as fh:
            code = [ln.strip() for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
        assert code[0] == 'extends "follow_the_leader.cardrules"'
        assert code[2:] == [f"replace option {variant} = yes"]


# ---- the deal --------------------------------------------------------------------------------

@pytest.mark.parametrize("players,size", [(2, 10), (3, 8), (4, 7), (5, 6)])
@pytest.mark.parametrize("overrides,cards", [({}, 52), ({"decks": 2}, 104),
                                             ({"jokers": "yes"}, 54),
                                             ({"decks": 2, "jokers": "yes"}, 108)])
def test_deal_size_by_player_count_and_decks(players, size, overrides, cards):
    # "for 2 players: 10 cards each; for 3 players: 8 cards each; for 4 players: 7 cards each;
    # for 5 players: 6 cards each."  "From one deck of cards (or two shuffled together)"
    cg = game(**overrides).compiled(players)
    assert len(cg.cards) == cards
    st = cg.new_game(seed=players)
    for p in range(1, players + 1):
        assert len(zone(st, f"hand/{p}")) == size
    assert zone(st, "discard") == []
    assert len(zone(st, "stock")) == cards - players * size
    jokers = [c for c in cg.card_names if "joker" in c]
    assert len(jokers) == (0 if not overrides.get("jokers") else 2 * overrides.get("decks", 1))


def test_the_first_player_is_left_of_a_random_dealer_and_leads_any_card():
    # "The dealer is chosen randomly ... The player to the left of the dealer makes the first
    # play"; "The first person to play may discard any card from his or her hand."
    cg = game().compiled(4)
    first = set()
    for seed in range(40):
        st = cg.new_game(seed=seed)
        p = st.current_player()
        first.add(p)
        hand = zone(st, f"hand/{p + 1}")
        assert legal(st) == sorted("lead " + c for c in hand)
    assert first == {0, 1, 2, 3}


# ---- the text's example of a three player game ------------------------------------------------

def test_the_three_player_example():
    st = setup(
        hand_1=["3♠", "7♣", "9♣", "5♦", "6♠", "K♦", "2♥", "A♣"],
        hand_2=["3♥", "10♦", "2♣", "5♥", "6♥", "A♦", "K♣", "Q♣"],
        hand_3=["3♦", "8♦", "J♦", "2♠", "5♠", "6♦", "A♥", "K♥"],
        # drawn in this order: 5♣ (P1), 6♣ (P2), 9♦ (P3), K♠ (P1), 2♦ (P2), Q♥ (P1)
        stock=["Q♥", "2♦", "K♠", "9♦", "6♣", "5♣"])
    play(st, "lead 3♠")
    # "Player 2 can discard either another 3 or a 4 (for the example, we'll say that he or she has
    # discarded a 3)"
    assert legal(st) == ["play 3♥"]
    play(st, "play 3♥")
    # "Player 3 then discards another 3"
    assert st.current_player() == 2 and legal(st) == ["play 3♦"]
    play(st, "play 3♦")
    # "Player 1 has no 3s or 4s so draws from the pile.  The drawn card is not a 3 or a 4 and so
    # the play gets passed onto player 2.  Player 2 does the same.  Player 3 does the same."
    # "Player 1 draws from the pile and still cannot discard so then plays any card from his or
    # her hand."
    assert says(st) == [(1, "cannot discard"), (2, "cannot discard"),
                        (3, "cannot discard"),
                        (1, "nobody could discard for a whole round: the round starts again with player 1")]
    assert zone(st, "discard") == ["3♠", "3♥", "3♦"]
    assert zone(st, "hand/2")[-1] == "6♣" and zone(st, "hand/3")[-1] == "9♦"
    assert zone(st, "hand/1")[-2:] == ["5♣", "K♠"]           # drew twice
    assert st.current_player() == 0 and var(st, "quiet_turns") == 3
    assert legal(st) == sorted("lead " + c for c in
                               ["7♣", "9♣", "5♦", "6♠", "K♦", "2♥", "A♣", "5♣", "K♠"])
    # "We'll say that he or she now discards a 7."
    play(st, "lead 7♣")
    # "Player 2 has no 8s or 9s, draws, and still cannot discard"  (nor a 7: see the docs)
    assert says(st)[-1] == (2, "cannot discard")
    assert zone(st, "hand/2")[-1] == "2♦" and var(st, "quiet_turns") == 1
    # "And so on": Player 3 follows with an 8, Player 1 a 9, Player 2 a 10, Player 3 a Jack ...
    assert st.current_player() == 2 and legal(st) == ["play 8♦"]
    play(st, "play 8♦", "play 9♣", "play 10♦", "play J♦")
    # "Player 1 has no jack or queen, draws, gets a queen, and discards it"
    assert says(st)[-1] == (1, "draws a card that can be played: Q♥")
    assert zone(st, "discard")[-1] == "Q♥"
    assert "Q♥" not in zone(st, "hand/1") and len(zone(st, "hand/1")) == 7
    assert st.current_player() == 1 and legal(st) == ["play K♣", "play Q♣"]


def test_example_player_2_could_also_discard_a_4():
    st = setup(hand_2=["3♥", "4♣", "5♣", "2♣"], discard=["3♠"], current=2)
    assert legal(st) == ["play 3♥", "play 4♣"]


# ---- the distinctive rules -------------------------------------------------------------------

def test_match_or_one_higher_only():
    # "discard a card that matches the rank of the previously discarded card" or "one rank higher"
    st = setup(hand_1=["5♥", "6♣", "4♦", "7♠", "5♣", "K♦"], discard=["5♠"])
    assert legal(st) == ["play 5♣", "play 5♥", "play 6♣"]
    play(st, "play 6♣")
    assert zone(st, "discard") == ["5♠", "6♣"] and st.current_player() == 1


def test_ranks_wrap_king_then_ace():
    # "Ace low; King high. When the king has been played, the cards continue back to the ace."
    st = setup(hand_1=["A♥", "2♣", "Q♦", "K♣"], discard=["K♠"])
    assert legal(st) == ["play A♥", "play K♣"]
    st = setup(hand_1=["A♥", "2♣", "K♦", "Q♣"], discard=["A♠"])
    assert legal(st) == ["play 2♣", "play A♥"]                 # no King below an Ace
    st = setup(hand_1=["J♥", "Q♣", "K♦"], discard=["Q♠"])
    assert legal(st) == ["play K♦", "play Q♣"]


def test_a_player_who_can_discard_may_not_draw():
    st = setup(hand_1=["9♥", "2♣"], discard=["9♠"])
    assert legal(st) == ["play 9♥"]


def test_draw_one_and_play_it_if_you_can():
    # "If the player cannot play the drawn card, then he or she gets an extra card added to his or
    # her hand"; one who can, plays it.
    st = setup(hand_1=["2♥", "J♣"], hand_2=["8♣", "2♠", "7♦"], discard=["7♠"], stock=["8♦"],
               vars={"quiet_turns": 2})
    assert says(st) == [(1, "draws a card that can be played: 8♦")]
    assert zone(st, "discard") == ["7♠", "8♦"] and zone(st, "hand/1") == ["2♥", "J♣"]
    assert st.current_player() == 1 and legal(st) == ["play 8♣"]
    assert var(st, "quiet_turns") == 0


def test_draw_and_cannot_discard_passes_the_turn():
    # "... gets an extra card added to his or her hand without discarding and the turn passes on
    # to the next player, who must match or beat by one rank the previously discarded card."
    st = setup(hand_1=["2♥", "J♣"], hand_2=["7♥", "8♣", "9♦"], discard=["7♠"], stock=["Q♦"],
               vars={"quiet_turns": 0})
    assert says(st) == [(1, "cannot discard")]
    assert zone(st, "hand/1") == ["2♥", "J♣", "Q♦"] and zone(st, "discard") == ["7♠"]
    assert var(st, "quiet_turns") == 1
    assert st.current_player() == 1 and legal(st) == ["play 7♥", "play 8♣"]


def test_a_whole_round_without_a_discard_starts_a_new_round():
    # Two players: Player 1 discarded the 5; Player 2 could not, nor could Player 1 ("including the
    # person who last discarded"); then Player 2, "after drawing and still not being able to play",
    # may discard any card.
    hands = dict(hand_1=["2♥", "J♣", "9♠"], hand_2=["K♥", "Q♣", "10♦"], discard=["4♠", "5♠"],
                 stock=["5♦", "A♦", "3♣", "8♣"])     # drawn: 8♣ (P2), 3♣ (P1), A♦ (P2), 5♦ (P1)
    st = setup(players=2, current=2, **hands)
    assert says(st) == [(2, "cannot discard"), (1, "cannot discard"),
                        (2, "nobody could discard for a whole round: the round starts again with player 2")]
    assert st.current_player() == 1
    assert legal(st) == sorted("lead " + c for c in ["K♥", "Q♣", "10♦", "8♣", "A♦"])
    play(st, "lead Q♣")
    # a new round: Player 1 must follow the Queen (and cannot), Player 2 may follow with the King
    assert zone(st, "discard") == ["4♠", "5♠", "Q♣"] and var(st, "quiet_turns") == 1
    assert zone(st, "hand/1")[-1] == "5♦"
    assert st.current_player() == 1 and legal(st) == ["play K♥"]


def test_no_new_round_before_the_round_is_complete():
    # Three players, two quiet turns so far: the third (the last discarder) only draws.
    st = setup(hand_1=["2♥", "J♣"], hand_2=["K♥", "7♣"], discard=["5♠"], stock=["3♦", "9♦"],
               vars={"quiet_turns": 2})
    # Player 1 completes the round (3 quiet turns of 3) but only draws; Player 2 draws too, and
    # then may start the round again
    assert says(st) == [(1, "cannot discard"),
                        (2, "nobody could discard for a whole round: the round starts again with player 2")]
    assert zone(st, "hand/1") == ["2♥", "J♣", "9♦"]
    assert var(st, "quiet_turns") == 3 and st.current_player() == 1
    assert legal(st) == ["lead 3♦", "lead 7♣", "lead K♥"]


def test_the_player_starting_a_round_who_draws_a_playable_card_plays_it():
    st = setup(hand_1=["2♥", "J♣"], discard=["5♠"], stock=["6♦"], vars={"quiet_turns": 3})
    assert says(st) == [(1, "draws a card that can be played: 6♦")]
    assert zone(st, "discard") == ["5♠", "6♦"] and st.current_player() == 1


def test_the_discard_pile_but_its_top_card_becomes_the_draw_pile():
    # "When the draw pile becomes empty, shuffle the discard pile (leaving the top card so that you
    # remember what you are trying to match or beat) and use those cards as the draw pile."
    cg = game().compiled(3)
    orders = set()
    for seed in range(5):
        st = position(cg, 3, zones={"hand/1": ["2♥", "J♣"], "hand/2": ["A♥", "5♥"],
                                    "hand/3": ["5♦", "6♦"], "stock": ["Q♦"]},
                      rest="discard", current=1, seed=seed)
        # every other card is in the discard pile, the K♠ (last in the deck's order) on top;
        # Player 1 cannot follow a King, draws the last card (Q♦, no use either), and the draw
        # pile, now empty, is made of the discard pile but its top card
        assert says(st) == [(1, "shuffles the discard pile but its top card into a new draw pile"),
                            (1, "cannot discard")]
        assert zone(st, "hand/1") == ["2♥", "J♣", "Q♦"]
        assert zone(st, "discard") == ["K♠"]
        used = {"2♥", "J♣", "Q♦", "A♥", "5♥", "5♦", "6♦", "K♠"}
        assert sorted(zone(st, "stock")) == sorted(set(cg.card_names) - used)
        orders.add(tuple(zone(st, "stock")))
        assert st.current_player() == 1 and legal(st) == ["play A♥"]
    assert len(orders) == 5                        # shuffled


def test_reshuffle_keeps_the_top_card_and_is_random():
    orders = set()
    for seed in range(6):
        st = position(game(), 2, zones={"hand/1": ["2♥", "J♣"], "hand/2": ["K♥", "Q♥"],
                                        "stock": [], "discard": ["3♣", "4♣", "5♣", "6♣", "7♠"]},
                      rest="hand/2", current=1, seed=seed)
        # Player 1 needs a 7 or an 8: the draw pile is empty, so the discard pile but the 7♠
        # becomes the draw pile first, then Player 1 draws from it
        assert zone(st, "discard") == ["7♠"]
        drawn = zone(st, "hand/1")[2:]
        pile = zone(st, "stock")
        assert sorted(drawn + pile + zone(st, "discard")[1:]) == ["3♣", "4♣", "5♣", "6♣"]
        orders.add(tuple(drawn + pile))
    assert len(orders) > 1


def test_nothing_to_draw_is_a_quiet_turn():
    st = position(game(), 2, zones={"hand/1": ["2♥"], "stock": [], "discard": ["7♠"]},
                  rest="hand/2", current=1)
    assert says(st) == [(1, "there is no card to draw"), (1, "cannot discard")]
    assert zone(st, "hand/1") == ["2♥"] and var(st, "quiet_turns") == 1
    assert st.current_player() == 1


def test_the_last_card_wins():
    # "To get rid of all the cards in your hand"
    st = setup(hand_1=["6♥"], discard=["5♠"])
    play(st, "play 6♥")
    assert st.is_terminal() and st.winners == [0]


def test_what_each_player_sees():
    st = setup(hand_1=["6♥", "2♣"], discard=["4♠", "5♠"])
    seen = st.observation(1)["zones"]
    assert seen["hand/1"] == {"size": 2} and isinstance(seen["hand/2"], list)
    assert seen["discard"]["top"] == "5♠" and seen["stock"] == {"size": len(zone(st, "stock"))}


# ---- the Variation: one lower ------------------------------------------------------------------

def test_variation_one_lower():
    # "if a 5 is played, the next player can play another 5, a 6, or a 4"
    st = setup(variant="one_lower", hand_1=["5♥", "6♣", "4♦", "7♠", "3♣"], discard=["5♠"])
    assert legal(st) == ["play 4♦", "play 5♥", "play 6♣"]
    st = setup(overrides={"one_lower": "yes"}, hand_1=["5♥", "6♣", "4♦", "7♠"], discard=["5♠"])
    assert legal(st) == ["play 4♦", "play 5♥", "play 6♣"]


def test_variation_wraps_below_the_ace():
    st = setup(variant="one_lower", hand_1=["K♥", "2♣", "Q♦"], discard=["A♠"])
    assert legal(st) == ["play 2♣", "play K♥"]


# ---- Playing with Jokers ------------------------------------------------------------------------

def test_the_joker_player_has_no_say():
    # "The person who plays a wild card has absolutely no say in what rank that card is being
    # played as."  A joker may be discarded on anything.
    st = setup(variant="jokers", hand_1=["red_joker", "2♣"], hand_2=["9♥", "K♣"], discard=["8♠"])
    assert legal(st) == ["play red_joker"]
    play(st, "play red_joker")
    assert st.current_player() == 1                 # no question to player 1
    assert var(st, "joker_on") == 8
    assert not any("joker_was" in st.action_to_string(e[2]) for e in st.log if e[0] == "choice")


@pytest.mark.parametrize("card,counted", [("8♥", ["8"]), ("9♥", ["8", "9"]), ("10♥", ["9"])])
def test_the_next_player_decides_what_the_joker_counted_as(card, counted):
    # "let's say that a joker has been played on top of an 8. The next player can then discard
    # another 8 (calling that the joker counted as an 8), a 9 (calling that the joker counted as
    # either another 8 or a 9) or a 10 (calling that the joker counted as a 9)."
    st = setup(variant="jokers", hand_2=["8♥", "9♥", "10♥", "7♥", "J♥", "2♣"],
               discard=["8♠", "black_joker"], vars={"joker_on": 8}, current=2)
    assert legal(st) == ["play 10♥", "play 8♥", "play 9♥"]
    play(st, "play " + card)
    assert st.current_player() == 1
    assert legal(st) == sorted("joker_was " + r for r in counted)
    play(st, "joker_was " + counted[-1])
    choices = [(e[1] + 1, st.action_to_string(e[2])) for e in st.log if e[0] == "choice"]
    assert choices[-2:] == [(2, "play " + card), (2, "joker_was " + counted[-1])]
    assert zone(st, "discard")[:3] == ["8♠", "black_joker", card]


def test_joker_with_the_variation():
    # "Likewise, if you are playing with the variation rules, a 7 or a 6 could also be discarded"
    st = setup(variant="jokers", overrides={"one_lower": "yes"},
               hand_2=["6♥", "7♥", "8♥", "9♥", "10♥", "5♥", "J♥"],
               discard=["8♠", "black_joker"], vars={"joker_on": 8}, current=2)
    assert legal(st) == ["play 10♥", "play 6♥", "play 7♥", "play 8♥", "play 9♥"]
    play(st, "play 6♥")
    assert legal(st) == ["joker_was 7"]
    st = setup(variant="jokers", overrides={"one_lower": "yes"}, hand_2=["8♥", "2♣"],
               discard=["8♠", "black_joker"], vars={"joker_on": 8}, current=2)
    play(st, "play 8♥")
    assert legal(st) == ["joker_was 7", "joker_was 8", "joker_was 9"]


def test_the_next_person_with_a_playable_card_decides():
    # "The next person with a playable card does": Player 2 cannot play and draws; Player 3 plays
    # and decides.
    st = setup(variant="jokers", hand_1=["red_joker", "2♣"], hand_2=["K♥", "Q♣"],
               hand_3=["10♦", "4♣"], discard=["9♠"], stock=["5♦"])
    play(st, "play red_joker")
    assert says(st) == [(2, "cannot discard")]
    assert st.current_player() == 2 and legal(st) == ["play 10♦"]
    play(st, "play 10♦")
    assert legal(st) == ["joker_was 10", "joker_was 9"]


def test_a_drawn_joker_is_played_and_a_drawn_card_on_a_joker_decides():
    st = setup(variant="jokers", hand_1=["2♥", "J♣"], discard=["7♠"], stock=["black_joker"])
    assert says(st) == [(1, "draws a card that can be played: black_joker")]
    assert zone(st, "discard") == ["7♠", "black_joker"] and var(st, "joker_on") == 7
    st = setup(variant="jokers", hand_1=["2♥", "J♣"], discard=["7♠", "red_joker"], stock=["9♦"],
               vars={"joker_on": 7})
    assert says(st) == [(1, "draws a card that can be played: 9♦")]
    assert legal(st) == ["joker_was 8"] and st.current_player() == 0


def test_a_joker_on_a_joker():
    # DECISION: the player of the second joker decides what the first one counted as, and so what
    # the second one can be.
    st = setup(variant="jokers", hand_2=["red_joker", "2♣"], hand_3=["10♥", "J♥", "Q♥", "4♣"],
               discard=["8♠", "black_joker"], vars={"joker_on": 8}, current=2)
    play(st, "play red_joker")
    assert legal(st) == ["joker_was 8", "joker_was 9"]
    play(st, "joker_was 9")
    assert var(st, "joker_on") == 9 and st.current_player() == 2
    assert legal(st) == ["play 10♥", "play J♥"]               # the second joker is a 9 or a 10


def test_the_joker_player_has_no_say_when_play_comes_back():
    # DECISION: nobody else could discard, and play comes back to the joker's own player: they
    # have "absolutely no say", so the joker is what it was played on (an 8): an 8 or a 9 may
    # follow, not a 10 (which needs the joker to have been a 9), and no joker_was question.
    st = setup(players=2, variant="jokers", hand_1=["red_joker", "10♥", "9♣", "2♣"], hand_2=["K♥", "Q♣"],
               discard=["8♠"], stock=["3♦"])
    play(st, "play red_joker")
    assert var(st, "joker_on") == 8
    # player 2 has nothing that follows an 8 or a 9: draws the 3, cannot discard
    assert st.current_player() == 0
    assert legal(st) == ["play 9♣"]
    play(st, "play 9♣")
    pile = zone(st, "discard")
    assert pile[pile.index("red_joker") + 1] == "9♣"
    assert not any("joker_was" in st.action_to_string(e[2]) for e in st.log if e[0] == "choice")


def test_a_joker_that_starts_a_round_could_be_anything():
    st = setup(variant="jokers", hand_1=["red_joker", "2♣"], hand_2=["K♥", "4♣"])
    play(st, "lead red_joker")
    assert var(st, "joker_on") == 0
    assert legal(st) == ["play 4♣", "play K♥"]
    play(st, "play K♥")
    assert legal(st) == ["joker_was king", "joker_was queen"]


def test_no_jokers_in_the_base_game():
    assert not any("joker" in c for c in game().compiled(3).card_names)


# ---- random games ------------------------------------------------------------------------------

CONFIGS = {
    "base": ("base", {}),
    "one_lower": ("one_lower", {}),
    "jokers": ("jokers", {}),
    "two_decks": ("base", {"decks": 2}),
    "jokers_one_lower_two_decks": ("jokers", {"one_lower": "yes", "decks": 2}),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_random_game_properties(config, players):
    variant, overrides = CONFIGS[config]
    g = game(variant, **overrides)
    results = check_random_games(g, players, range(12))
    assert all(outcome == "win" for outcome, _, _ in results), results
    assert all(len(winners) == 1 for _, winners, _ in results)
    same_seed_same_game(g, players, 3)
    clone_independent(g, players, 5, steps=10)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_the_winner_has_no_card_left(config):
    variant, overrides = CONFIGS[config]
    cg = game(variant, **overrides).compiled(3)
    for seed in range(10):
        st = cg.new_game(seed=seed)
        random_playout(st, random.Random(seed))
        (w,) = st.winners
        assert zone(st, f"hand/{w + 1}") == []
        assert all(zone(st, f"hand/{p}") for p in (1, 2, 3) if p != w + 1)


RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank(name):
    """The rank number of a card's display name ("10♥" -> 10); jokers are 0."""
    return 0 if "joker" in name else RANKS.get(name[:-1]) or int(name[:-1])


def oracle_playable(card, top, joker_on, one_lower, own_joker=False):
    """The text's rule, written independently of the rule file.  ``own_joker``: the joker on
    top was discarded by the player now to play, who has no say in what it counted as."""
    def follows(r, s):
        d = (r - s) % 13
        return d in ((0, 1, 12) if one_lower else (0, 1))
    if rank(card) == 0:
        return True
    if rank(top) == 0:
        if joker_on == 0:
            return True
        could_be = [joker_on] if own_joker else [r for r in range(1, 14) if follows(r, joker_on)]
        return any(follows(rank(card), r) for r in could_be)
    return follows(rank(card), rank(top))


def joker_player(st):
    """Who discarded the last joker, read from the game's log (choices and what was said), not
    from the rule file's variables."""
    who = None
    for e in st.log:
        if e[0] == "choice":
            words = st.action_to_string(e[2]).split()
            if words[0] in ("play", "lead") and "joker" in words[-1]:
                who = e[1]
        elif e[0] == "say" and str(e[2]).startswith("draws a card that can be played:") \
                and "joker" in str(e[2]):
            who = e[1]
    return who


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_every_decision_in_random_games_agrees_with_the_text(config, players):
    # At every decision of random games, the choices offered are exactly what the text allows:
    # a lead only on an empty pile or after a whole round without a discard (with no card that
    # could follow), otherwise every card that matches or is one higher (one lower, jokers).
    variant, overrides = CONFIGS[config]
    cg = game(variant, **overrides).compiled(players)
    one_lower = variant == "one_lower" or overrides.get("one_lower") == "yes"
    kinds = set()
    for seed in range(8):
        st = cg.new_game(seed=seed, log=True)
        rng = random.Random(seed)
        while not st.is_terminal():
            p = st.current_player()
            hand = zone(st, f"hand/{p + 1}")
            pile = zone(st, "discard")
            offered = legal(st)
            own = joker_player(st) == p
            kind = offered[0].split()[0]
            kinds.add(kind)
            if kind == "lead":
                assert offered == sorted({"lead " + c for c in hand})    # one per distinct card
                if pile:
                    assert var(st, "quiet_turns") >= players
                    assert not any(oracle_playable(c, pile[-1], var(st, "joker_on"), one_lower)
                                   for c in hand)
            elif kind == "play":
                assert offered == sorted({"play " + c for c in hand if oracle_playable(
                    c, pile[-1], var(st, "joker_on"), one_lower, own)})
            else:
                assert kind == "joker_was" and rank(pile[-1]) == 0
            st.apply_action(rng.choice(st.legal_actions()))
    assert "play" in kinds and "lead" in kinds
    assert ("joker_was" in kinds) == (variant == "jokers")


# ---- golden transcripts ------------------------------------------------------------------------

def transcript(variant, players, seed):
    cg = game(variant).compiled(players)
    st = played(cg, seed)
    lines = [f"# {cg.model.name} ({VARIANTS[variant]}), {players} players, seed {seed}, "
             "uniformly random choices"]
    for p in range(1, players + 1):
        lines.append(f"P{p} dealt: {' '.join(zone(cg.new_game(seed=seed), f'hand/{p}'))}")
    lines += log_lines(st)
    for p in range(1, players + 1):
        lines.append(f"P{p} hand: {' '.join(zone(st, f'hand/{p}'))}")
    return lines


GOLDEN_CASES = [(v, n, k) for v in sorted(VARIANTS) for n, k in ((2, 1), (3, 2), (4, 3), (5, 4))]


@pytest.mark.parametrize("variant,players,seed", GOLDEN_CASES)
def test_golden_transcript(variant, players, seed):
    match_golden(f"follow_the_leader_{variant}_{players}p_seed{seed}.txt", transcript(variant, players, seed))


# ---- the transcript in the rule text's words ----------------------------------------------------

def test_the_transcript_says_a_joker_counted_as_an_8_and_a_reshuffle_before_it_happens(capsys):
    # "a 10 (calling that the joker counted as a 9)", "another 8 (calling that the joker counted
    # as an 8)": the joker's rank in the text's words.  "When the draw pile becomes empty, shuffle
    # the discard pile ...": the player's sentence comes first, then the cards it moves.
    from rulelang.cli.commands import main
    assert main(["run", os.path.join(RULES, "follow_the_leader_jokers.cardrules"), "--seed", "3",
                 "--players", "3"]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    assert "Player 3: the joker counts as an 8" in lines
    assert not any(ln.endswith(("counts as ace", "counts as 8")) for ln in lines)
    i = lines.index("» Player 3 shuffles the discard pile but its top card into a new draw pile")
    assert lines[i + 1] == "· 35 cards from Discard Pile to Draw Pile"
    assert lines[i + 2] == "· Draw Pile is shuffled"


# ---- the figures of docs/games/follow_the_leader.md ---------------------------------------------

def _speed_rows():
    import re
    page = open(os.path.join(HERE, "..", "docs", "games", "follow_the_leader.md"), encoding="utf-8").read()
    section = page.split("## Speed", 1)[1]
    return {(m.group(1), int(m.group(2))): (m.group(3), m.group(4))
            for m in re.finditer(r"^\| ([^|]+?) \| (\d) \| ([\d.]+) \| ([\d.]+) \| \d+ \|$", section, re.M)}


@pytest.mark.parametrize("row,file,extra", [
    (("base", 2), "follow_the_leader.cardrules", []),
    (("base, `decks=2`", 5), "follow_the_leader.cardrules", ["--set", "decks=2"]),
])
def test_the_speed_table_is_what_run_prints(capsys, row, file, extra):
    # The page's decisions and turns per game are what the command it shows prints.
    from rulelang.cli.commands import main
    rows = _speed_rows()
    assert len(rows) == 16
    assert main(["run", os.path.join(RULES, file), "--games", "2000", "--players", str(row[1]),
                 "--workers", "1", *extra]) == 0
    out = capsys.readouterr().out
    decisions, turns = rows[row]
    assert f"mean decisions: {decisions}   mean turns: {turns}" in out
