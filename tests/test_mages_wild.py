"""Mages Wild and its standard-deck variant (rules/mages_wild*.cardrules; decisions in
docs/games/mages_wild.md).

Scenario tests set up the position the rule text describes and play it; golden transcripts pin
seeded random games of both files, every player count and every ending (regenerate with
RULELANG_REGEN=1 after a deliberate change); the random-game properties of tests/gameprops.py hold
for both files, every player count 2..5 and every value of the `ending` option.
"""
import os
import random

import pytest

from rulelang.compile.loader import check_file
from rulelang.play.scenario import play, position, var, zone

from gameprops import check_random_games, clone_independent, same_seed_same_game
from gametest import legal, log_lines, match_golden, played, rules_game, says

HERE = os.path.dirname(__file__)
RULES = os.path.join(HERE, "..", "rules")

VARIANTS = {
    "base": "mages_wild.cardrules",
    "standard": "mages_wild_standard.cardrules",
}
ENDINGS = ["nobody_wins", "drawer_loses", "reshuffle"]
SUITS = ["winds", "flames", "stones", "waves", "leaves"]
RANKS = ["queen", "king", "prince", "princess", "warrior", "merchant", "worker", "mage", "fool"]
GODS = ["the god " + g for g in ("Lady", "Dark Lord", "Judge", "Healer", "Hunter", "Maker", "Sage", "Thief", "Minion")]

def game(variant="base", **overrides):
    return rules_game(VARIANTS[variant], **overrides)


# Hands for the players a test says nothing about: each holds a mage, which can always be played,
# so nobody draws without being asked and every turn waits for its player.
HANDS = {
    "base": {
        "hand/1": ["mage of winds", "merchant of flames", "worker of stones"],
        "hand/2": ["mage of flames", "merchant of stones", "worker of waves"],
        "hand/3": ["mage of stones", "merchant of waves", "worker of leaves"],
        "hand/4": ["mage of waves", "merchant of leaves", "worker of winds"],
        "hand/5": ["mage of leaves", "merchant of winds", "worker of flames"],
    },
    "standard": {
        "hand/1": ["8♣", "6♦", "7♥"],
        "hand/2": ["8♦", "6♥", "7♠"],
        "hand/3": ["8♥", "6♠", "7♣"],
        "hand/4": ["8♠", "6♣", "7♦"],
        "hand/5": ["4♣", "4♦", "4♥"],
    },
}


def setup(players=3, variant="base", current=1, vars=None, overrides=None, rest="stock", **zones):
    """A position at the start of `current`'s turn: hand_K=[...] for seat K's hand (bottom
    first), discard=[...] and stock=[...] (top last: the stock's last card is drawn first).  Every
    card not named goes under the stock, or under the discard pile's top card with
    rest="discard" (then the draw pile is empty unless `stock` is given)."""
    z = {k.replace("_", "/") if k.startswith("hand_") else k: v for k, v in zones.items()}
    named = {c for cards in z.values() for c in cards}
    for p in range(1, players + 1):
        if f"hand/{p}" not in z:
            z[f"hand/{p}"] = [c for c in HANDS[variant][f"hand/{p}"] if c not in named]
    if rest == "discard":
        placed = {c for cards in z.values() for c in cards}
        z["discard"] = [c for c in game(variant).compiled(players).card_names
                        if c not in placed] + z.get("discard", [])
    return position(game(variant, **(overrides or {})), players, zones=z, rest="stock",
                    current=current, vars=vars)


def hand(st, p):
    return zone(st, f"hand/{p}")


# ---- the files -------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_file_checks_clean(variant):
    diags, model, _ = check_file(os.path.join(RULES, VARIANTS[variant]))
    assert model is not None
    assert [str(d) for d in diags] == []


def test_variant_file_is_small():
    with open(os.path.join(RULES, VARIANTS["standard"]), encoding="utf-8") as fh:
        code = [ln for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(code) <= 15, f"the standard-deck variant has {len(code)} lines of rules"


def test_the_viashi_deck():
    # five suits of nine ranks, and nine god cards: 54 cards, each once
    cg = game().compiled(2)
    names = cg.card_names
    assert len(names) == len(set(names)) == 54
    assert sorted(names) == sorted([f"{r} of {s}" for s in SUITS for r in RANKS] + GODS)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal(players):
    # "Six Cards are dealt to each player. The remaining cards are placed face down in a draw
    # pile. The top card of the draw pile is flipped over to form a discard pile."
    for seed in range(5):
        st = game().compiled(players).new_game(seed=seed, log=True)
        drew = sum(1 for _, text in says(st) if text == "cannot play: draws a card")
        sizes = [len(hand(st, p)) for p in range(1, players + 1)]
        assert sum(sizes) == 6 * players + drew
        assert all(s in (6, 7) for s in sizes)
        assert len(zone(st, "discard")) == 1
        assert len(zone(st, "stock")) == 54 - 6 * players - 1 - drew


def test_player_one_begins_and_play_goes_round_in_seat_order():
    # "The player to the left of the dealer plays a card"; DECISION: player 1, then 2, 3.
    st = setup(discard=["queen of flames"])
    assert st.current_player() == 0
    play(st, "play merchant of flames")
    assert st.current_player() == 1
    play(st, "play merchant of stones")
    assert st.current_player() == 2


def test_hand_sizes_are_public_and_cards_private():
    # "(Players may not conceal how many cards are remaining in their hands)"
    st = setup(discard=["queen of flames"])
    seen = st.observation(0)["zones"]
    assert seen["hand/1"] == HANDS["base"]["hand/1"]
    assert seen["hand/2"] == {"size": 3} and seen["hand/3"] == {"size": 3}
    assert seen["discard"] == {"top": "queen of flames", "size": 1}   # the top card is face up
    assert seen["stock"] == {"size": 44}                       # the draw pile is face down


# ---- matching ----------------------------------------------------------------------------------

def test_match_the_suit_or_the_rank_or_play_a_mage_or_a_god():
    # "players must either match the rank or the suit of the top card on the discard pile, unless
    # they play a mage, or a god card."
    st = setup(discard=["prince of winds"],
               hand_1=["prince of flames", "queen of winds", "worker of stones", "mage of leaves",
                       "the god Lady", "the god Minion"])
    assert legal(st) == ["draw", "play mage of leaves", "play prince of flames", "play queen of winds",
                         "play the god Lady", "play the god Minion"]


def test_a_god_cannot_be_played_on_a_god_and_anything_else_follows_a_god():
    # "God cards cannot be played on other god cards, but can be played on any other card.
    # Mages can be played on any card."  DECISION: a god on top is followed by any card but a god
    # (its place in the order of the gods is not a rank to match: until 2026-11-22 the Lady took
    # only a queen or a mage).
    st = setup(discard=["the god Lady"],
               hand_1=["the god Judge", "the god Minion", "queen of waves", "king of winds", "mage of stones"])
    assert legal(st) == ["draw", "play king of winds", "play mage of stones", "play queen of waves"]
    st = setup(discard=["the god Minion"], hand_1=["fool of leaves", "mage of flames", "the god Lady", "queen of leaves"])
    assert legal(st) == ["draw", "play fool of leaves", "play mage of flames", "play queen of leaves"]
    # and on anything that is not a god, a god may be played
    for top in ["fool of leaves", "mage of winds", "king of stones"]:
        st = setup(discard=[top], hand_1=["the god Dark Lord", "queen of flames"])
        assert "play the god Dark Lord" in legal(st)


def test_both_decks_follow_a_god_alike():
    # One rule for both files: the same hand, in each deck's cards, may follow a god on top.
    viashi = setup(discard=["the god Thief"], hand_1=["the god Sage", "worker of waves", "fool of stones"])
    standard = std(discard=["red_joker"], hand_1=["black_joker", "3♣", "4♦"])
    assert legal(viashi) == ["draw", "play fool of stones", "play worker of waves"]
    assert legal(standard) == ["draw", "play 3♣", "play 4♦"]


def test_a_god_has_no_effect_of_its_own():
    # DECISION: the Dark Lord has place 2 (like a king) but nobody picks up two.
    st = setup(discard=["king of winds"], hand_1=["the god Dark Lord", "queen of flames"])
    play(st, "play the god Dark Lord")
    assert st.current_player() == 1
    assert hand(st, 2) == HANDS["base"]["hand/2"]
    assert var(st, "pick_up/2") == 0


# ---- the mage ----------------------------------------------------------------------------------

def test_the_mage_declares_the_suit_the_next_player_must_match():
    # "When a mage (8) is played, the player who plays it can declare which suit it has become,
    # that will be that suit that the next player must match (unless he plays another mage, or a
    # god card)."
    st = setup(discard=["queen of winds"],
               hand_1=["mage of winds", "queen of flames"],
               hand_2=["worker of stones", "mage of leaves", "the god Thief", "queen of waves", "worker of winds"])
    play(st, "play mage of winds")
    assert st.current_player() == 0                            # the declaration is player 1's
    # DECISION: any of the five regular suits (its own included), never the gods
    assert legal(st) == sorted(f"declare {s}" for s in SUITS)
    play(st, "declare stones")
    assert st.current_player() == 1
    # the mage's own suit (winds) and its rank no longer count; stones, a mage or a god do
    assert legal(st) == ["draw", "play mage of leaves", "play the god Thief", "play worker of stones"]
    play(st, "play worker of stones")
    # once a card is played on it the declared suit is forgotten: match the worker of stones
    assert var(st, "declared") == -1
    assert st.current_player() == 2


def test_the_declared_suit_holds_while_players_draw():
    st = setup(discard=["queen of winds"], hand_1=["mage of winds", "queen of flames"],
               hand_2=["worker of stones", "queen of waves"],
               hand_3=["worker of leaves", "mage of stones", "prince of winds"])
    play(st, "play mage of winds", "declare leaves")
    assert (2, "cannot play: draws a card") in says(st)       # no leaves, mage or god
    assert st.current_player() == 2
    assert len(hand(st, 2)) == 3
    assert legal(st) == ["draw", "play mage of stones", "play worker of leaves"]


def test_the_turned_up_card_has_no_effect_and_a_turned_up_mage_keeps_its_suit():
    # DECISION: the card that starts the discard pile does nothing.
    cg = game().compiled(3)
    seen = set()
    for seed in range(200):
        st = cg.new_game(seed=seed, log=True)
        if len(zone(st, "discard")) != 1:
            continue
        rank = zone(st, "discard")[0].split(" of ")[0]
        if rank not in ("king", "warrior", "fool", "mage"):
            continue
        seen.add(rank)
        # the players who could not play drew, in seat order from player 1: nobody was skipped,
        # the order was not reversed, and nobody picked up two
        drew = [p for p, text in says(st) if text == "cannot play: draws a card"]
        assert drew == list(range(1, len(drew) + 1))
        assert st.current_player() == len(drew)
        assert [len(hand(st, p)) for p in (1, 2, 3)] == [6 + (p in drew) for p in (1, 2, 3)]
        assert not any("picks up" in text for _, text in says(st))
        assert var(st, "declared") == -1
    assert seen == {"king", "warrior", "fool", "mage"}
    st = setup(discard=["mage of waves"], hand_1=["queen of waves", "queen of winds", "mage of stones"])
    assert legal(st) == ["draw", "play mage of stones", "play queen of waves"]


# ---- the effects on the next player --------------------------------------------------------------

def test_after_a_king_the_next_player_picks_up_two_before_their_turn():
    # "After a king (2) is played, the next player to play must pick up two cards before taking
    # his regular turn."
    st = setup(discard=["queen of winds"], hand_1=["king of winds", "queen of flames"],
               stock=["princess of leaves", "prince of leaves"])       # prince on top
    play(st, "play king of winds")
    assert st.current_player() == 1
    assert hand(st, 2) == HANDS["base"]["hand/2"] + ["prince of leaves", "princess of leaves"]
    assert (2, "picks up 2 cards") in says(st)
    # ... and then takes his regular turn, on the king (a king, a winds card, a mage or a god)
    assert legal(st) == ["draw", "play mage of flames"]
    assert var(st, "pick_up/2") == 0


def test_picking_up_two_does_not_add_up_with_another_king():
    # DECISION: the pick-up happens first; a king played then hits the player after.
    st = setup(discard=["queen of winds"], hand_1=["king of winds", "queen of flames"],
               hand_2=["king of stones", "worker of waves"])
    play(st, "play king of winds")
    assert len(hand(st, 2)) == 4
    play(st, "play king of stones")
    assert len(hand(st, 3)) == 5 and len(hand(st, 1)) == 1
    assert st.current_player() == 2


def test_a_warrior_makes_the_next_player_lose_their_turn():
    # "When a warrior (5) is played, the player who would normally play next loses his turn."
    st = setup(discard=["queen of winds"], hand_1=["warrior of winds", "queen of flames"])
    play(st, "play warrior of winds")
    assert st.current_player() == 2
    assert hand(st, 2) == HANDS["base"]["hand/2"]
    # DECISION: with two players, the warrior's player plays again
    st = setup(players=2, discard=["queen of winds"], hand_1=["warrior of winds", "prince of winds"])
    play(st, "play warrior of winds")
    assert st.current_player() == 0
    assert legal(st) == ["draw", "play prince of winds"]


def test_a_fool_reverses_the_order_of_play():
    # "When a fool (9) is played the order of play reverses."
    st = setup(players=4, discard=["queen of winds"], hand_1=["fool of winds", "queen of flames", "the god Lady"],
               hand_4=["fool of flames", "worker of winds", "mage of waves"])
    play(st, "play fool of winds")
    assert st.current_player() == 3                            # player 4, not player 2
    play(st, "play fool of flames")                            # reversed again
    assert st.current_player() == 0
    play(st, "play queen of flames")
    assert st.current_player() == 1


def test_after_a_reverse_the_king_hits_the_new_next_player():
    st = setup(players=3, discard=["queen of winds"], hand_1=["fool of winds", "queen of flames"],
               hand_3=["king of winds", "worker of leaves", "mage of stones"])
    play(st, "play fool of winds", "play king of winds")
    assert st.current_player() == 1
    assert len(hand(st, 2)) == 5
    # DECISION: in a two-player game a fool changes nothing: the other player is next
    st = setup(players=2, discard=["queen of winds"], hand_1=["fool of winds", "queen of flames"])
    play(st, "play fool of winds")
    assert st.current_player() == 1


# ---- drawing ------------------------------------------------------------------------------------

def test_choosing_to_draw_although_a_card_could_be_played():
    # "If none of his cards can be played, or he choses not to play any of his cards, he draws one
    # card from the top of the draw pile instead.  Play then moves to the next player."
    st = setup(discard=["queen of winds"], hand_1=["queen of flames", "worker of winds"],
               stock=["mage of leaves"])
    assert "draw" in legal(st) and "play queen of flames" in legal(st)
    play(st, "draw")
    assert hand(st, 1) == ["queen of flames", "worker of winds", "mage of leaves"]
    assert zone(st, "discard") == ["queen of winds"]
    assert st.current_player() == 1                            # the drawn card is not played


def test_a_player_who_cannot_play_draws_one_card_and_play_moves_on():
    st = setup(discard=["queen of winds"], hand_1=["worker of stones", "prince of leaves"],
               stock=["mage of leaves"])
    assert st.current_player() == 1                            # no decision for player 1
    assert hand(st, 1) == ["worker of stones", "prince of leaves", "mage of leaves"]
    assert (1, "cannot play: draws a card") in says(st)


def test_the_first_player_to_run_out_of_cards_wins():
    # "The first player to run out of cards wins."
    st = setup(discard=["queen of winds"], hand_1=["prince of winds"])
    play(st, "play prince of winds")
    assert st.is_terminal() and st.winners == [0]


def test_a_last_mage_wins_without_declaring_and_a_last_king_makes_nobody_pick_up():
    st = setup(discard=["queen of winds"], hand_1=["mage of flames"])
    play(st, "play mage of flames")
    assert st.is_terminal() and st.winners == [0]
    st = setup(discard=["queen of winds"], hand_2=["king of winds"], current=2)
    play(st, "play king of winds")
    assert st.is_terminal() and st.winners == [1]
    assert len(hand(st, 3)) == 3


# ---- the three endings of an empty draw pile ---------------------------------------------------
# "Officially, the game will also end when a player needs to draw from the draw pile (has no card
# that can be played), and there is no draw pile left."

def test_empty_draw_pile_nobody_wins():
    # "some people play that the win goes 'to the Gods'"
    st = setup(discard=["queen of winds"], hand_1=["worker of stones"], rest="discard",
               overrides={"ending": "nobody_wins"})
    assert zone(st, "stock") == []
    assert st.is_terminal()
    assert st.outcome == "draw" and st.winners == []
    assert (1, "must draw from an empty draw pile: the win goes to the Gods") in says(st)


def test_empty_draw_pile_is_the_default_ending_nobody_wins():
    st = setup(discard=["queen of winds"], hand_1=["worker of stones"], rest="discard")
    assert st.is_terminal() and st.winners == []


def test_empty_draw_pile_the_player_who_cannot_draw_loses():
    # "Other less charitable players declare that the player who needs to draw a card and cannot,
    # loses."  DECISION: everybody else shares the win.
    st = setup(players=4, discard=["queen of winds"], hand_2=["worker of stones"], current=2,
               rest="discard", overrides={"ending": "drawer_loses"})
    assert st.is_terminal()
    assert sorted(st.winners) == [0, 2, 3]


def test_empty_draw_pile_reshuffle_all_but_the_top_card():
    # "it is occasionally considered allowable to reshuffle all but the top card of the discard
    # pile (which remains as the new discard pile), and place those cards face down to form a new
    # draw pile, when the original draw pile runs out."
    st = setup(discard=["queen of winds"], hand_1=["worker of stones"], rest="discard",
               overrides={"ending": "reshuffle"})
    under = [c for c in game().compiled(3).card_names
             if c not in {"queen of winds", "worker of stones"}
             and c not in HANDS["base"]["hand/2"] + HANDS["base"]["hand/3"]]
    assert not st.is_terminal() and st.current_player() == 1
    assert zone(st, "discard") == ["queen of winds"]           # the top card stays
    assert hand(st, 1)[0] == "worker of stones" and len(hand(st, 1)) == 2
    drawn = hand(st, 1)[1]
    assert sorted(zone(st, "stock") + [drawn]) == sorted(under)
    assert zone(st, "stock") != [c for c in under if c != drawn]   # shuffled
    assert (1, "the discard pile but its top card is shuffled into a new draw pile") in says(st)


def test_reshuffle_keeps_the_declared_suit():
    st = setup(discard=["mage of winds"], hand_1=["worker of stones"], rest="discard",
               vars={"declared": SUITS.index("leaves")}, overrides={"ending": "reshuffle"})
    assert zone(st, "discard") == ["mage of winds"]
    assert var(st, "declared") == SUITS.index("leaves")
    assert st.current_player() == 1 and len(hand(st, 1)) == 2
    assert legal(st) == ["draw", "play mage of flames"]        # leaves (none), a mage or a god


def test_reshuffle_with_nothing_under_the_top_card_draws_nothing():
    # DECISION: a discard pile of one card leaves nothing to reshuffle: the player draws nothing.
    everything = game().compiled(3).card_names
    others = [c for c in everything if c not in ("queen of winds", "princess of stones")
              and c not in HANDS["base"]["hand/3"]]
    st = setup(discard=["queen of winds"], stock=[], hand_2=["princess of stones"],
               hand_1=others, current=2, overrides={"ending": "reshuffle"})
    assert not st.is_terminal()
    assert hand(st, 2) == ["princess of stones"]
    assert (2, "must draw, but there is nothing left to draw") in says(st)
    assert st.current_player() == 2
    # and a player who could play may not choose to draw nothing
    assert "draw" not in legal(st)


def test_choosing_to_draw_needs_a_card_to_draw():
    # DECISION: with the draw pile empty, a player who can play plays (the endings are for one who
    # "needs to draw").
    st = setup(discard=["queen of winds"], hand_1=["queen of flames", "worker of stones"],
               rest="discard", overrides={"ending": "nobody_wins"})
    assert legal(st) == ["play queen of flames"]
    st = setup(discard=["queen of winds"], hand_1=["queen of flames", "worker of stones"],
               rest="discard", overrides={"ending": "reshuffle"})
    assert legal(st) == ["draw", "play queen of flames"]


@pytest.mark.parametrize("ending,winners", [("nobody_wins", []), ("drawer_loses", [0, 2])])
def test_picking_up_two_from_an_empty_draw_pile_ends_the_game(ending, winners):
    # DECISION: a king's pick-up is needing to draw as well.
    st = setup(discard=["queen of winds"], hand_1=["king of winds", "queen of flames"],
               rest="discard", overrides={"ending": ending})
    play(st, "play king of winds")
    assert st.is_terminal() and sorted(st.winners) == winners


def test_picking_up_two_reshuffles_when_the_pile_runs_out():
    st = setup(discard=["queen of winds"], hand_1=["king of winds", "queen of flames"],
               stock=["prince of leaves"], rest="discard", overrides={"ending": "reshuffle"})
    play(st, "play king of winds")
    assert hand(st, 2)[:4] == HANDS["base"]["hand/2"] + ["prince of leaves"]
    assert len(hand(st, 2)) == 5
    assert zone(st, "discard") == ["king of winds"]


# ---- the standard-deck variant -------------------------------------------------------------------
# DECISION: "a mage (8)" is an 8, "a king (2)" a 2, "a warrior (5)" a 5, "a fool (9)" a 9, and the
# two jokers are the god cards.

def std(players=3, **kw):
    return setup(players=players, variant="standard", **kw)


def test_standard_deck_has_54_cards_with_both_jokers():
    names = game("standard").compiled(2).card_names
    assert len(names) == 54 and "red_joker" in names and "black_joker" in names


def test_standard_matching_and_the_eight_declares_one_of_four_suits():
    st = std(discard=["K♥"], hand_1=["K♠", "3♥", "4♣", "8♠", "red_joker"])
    assert legal(st) == ["draw", "play 3♥", "play 8♠", "play K♠", "play red_joker"]
    play(st, "play 8♠")
    assert legal(st) == ["declare clubs", "declare diamonds", "declare hearts", "declare spades"]
    play(st, "declare spades")
    # player 2 (8♦ 6♥ 7♠): spades or another 8
    assert legal(st) == ["draw", "play 7♠", "play 8♦"]


def test_standard_two_five_nine():
    st = std(discard=["K♥"], hand_1=["2♥", "3♣", "4♣"], stock=["10♣", "J♣"])
    play(st, "play 2♥")                                        # the next player picks up two
    assert hand(st, 2) == HANDS["standard"]["hand/2"] + ["J♣", "10♣"]
    st = std(discard=["K♥"], hand_1=["5♥", "3♣", "4♣"])
    play(st, "play 5♥")                                        # the next player loses the turn
    assert st.current_player() == 2
    st = std(discard=["K♥"], hand_1=["9♥", "3♣", "4♣"])
    play(st, "play 9♥")                                        # the order reverses
    assert st.current_player() == 2
    play(st, "play 8♥", "declare clubs")
    assert st.current_player() == 1
    # the other ranks do nothing: a king, an ace, an 8 with nothing declared are plain
    st = std(discard=["K♥"], hand_1=["K♣", "3♣", "4♣"])
    play(st, "play K♣")
    assert st.current_player() == 1 and var(st, "pick_up/2") == 0


def test_standard_jokers_are_gods():
    # a joker goes on anything but the other joker ...
    st = std(discard=["red_joker"], hand_1=["black_joker", "3♣", "4♦"])
    assert legal(st) == ["draw", "play 3♣", "play 4♦"]
    # ... and anything but the other joker may be played on a joker (as on any god)
    st = std(discard=["K♥"], hand_1=["black_joker", "3♣", "4♦"])
    play(st, "play black_joker")
    assert legal(st) == ["draw", "play 6♥", "play 7♠", "play 8♦"]


# ---- random games --------------------------------------------------------------------------------
# Random agents choose to draw often, so with the reshuffle ending games are long (over a thousand
# decisions): fewer seeds there.

PROPERTY_CASES = [(v, n, e) for v in sorted(VARIANTS) for n in (2, 3, 4, 5) for e in ENDINGS]


@pytest.mark.parametrize("variant,players,ending", PROPERTY_CASES)
def test_random_game_properties(variant, players, ending):
    g = game(variant, ending=ending)
    seeds = range(2) if ending == "reshuffle" else range(12)
    results = check_random_games(g, players, seeds)
    for outcome, winners, _ in results:
        if ending == "nobody_wins":
            assert outcome in ("win", "draw")
            assert len(winners) == (1 if outcome == "win" else 0)
        elif ending == "drawer_loses":
            assert outcome in ("win", "loss")
            assert len(winners) == (1 if outcome == "win" else players - 1)
        else:
            assert outcome == "win" and len(winners) == 1          # somebody always runs out
    same_seed_same_game(g, players, 3)
    clone_independent(g, players, 5, steps=10)


def eager_playout(st, rng):
    """Random play that never chooses to draw while a card can be played."""
    while not st.is_terminal():
        acts = st.legal_actions()
        plays = [a for a in acts if st.action_to_string(a) != "draw"]
        st.apply_action(rng.choice(plays or acts))
    return st


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_ending_happens(ending):
    # Players who draw only when they must run out of cards before the pile does, often enough
    # (with gods followed by anything, the pile runs out in about 1 game in 20 at 5 players).
    cg = game(ending=ending).compiled(5)
    outcomes = set()
    for seed in range(100):
        st = eager_playout(cg.new_game(seed=seed), random.Random(seed))
        outcomes.add(st.outcome)
    assert outcomes == {"nobody_wins": {"win", "draw"}, "drawer_loses": {"win", "loss"},
                        "reshuffle": {"win"}}[ending]


# ---- golden transcripts --------------------------------------------------------------------------

def transcript(variant, players, ending, seed):
    cg = game(variant, ending=ending).compiled(players)
    st = played(cg, seed)
    lines = [f"# {cg.model.name} ({VARIANTS[variant]}), {players} players, ending={ending}, "
             f"seed {seed}, uniformly random choices"]
    lines += log_lines(st)
    for p in range(1, players + 1):
        lines.append(f"P{p} hand at the end: {' '.join(hand(st, p))}")
    lines.append(f"top of the discard pile: {zone(st, 'discard')[-1]}")
    return lines


# Every player count with the default ending; each other ending with a seed whose game is short
# enough to read (reshuffle games of random agents are mostly very long).
GOLDEN_CASES = ([("base", n, "nobody_wins", 1) for n in (2, 3, 4, 5)]
                + [("base", 3, "drawer_loses", 2), ("base", 4, "drawer_loses", 3),
                   ("base", 3, "reshuffle", 11), ("base", 5, "reshuffle", 9)]
                + [("standard", n, "nobody_wins", 1) for n in (2, 5)]
                + [("standard", 3, "drawer_loses", 2), ("standard", 3, "reshuffle", 9)])


@pytest.mark.parametrize("variant,players,ending,seed", GOLDEN_CASES)
def test_golden_transcript(variant, players, ending, seed):
    match_golden(f"mages_wild_{variant}_{players}p_{ending}_seed{seed}.txt", transcript(variant, players, ending, seed))


# ---- the transcript in the rule text's words ----------------------------------------------------

def test_an_empty_draw_pile_is_told_once_and_gods_are_named_as_gods(capsys):
    # "the game will also end when a player needs to draw from the draw pile (has no card that can
    # be played), and there is no draw pile left.  At this point, some people play that the win
    # goes "to the Gods"": said once, without a draw that never happens before it.  A god card
    # says what it is ("God cards cannot be played on other god cards").
    from rulelang.cli.commands import main
    assert main(["run", os.path.join(HERE, "..", "rules", "mages_wild.cardrules"), "--seed", "3",
                 "--players", "2"]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    # the first line of turn 73 (the turn's number is in its margin), and the only one about it
    i = lines.index("73  » Player 2 must draw from an empty draw pile: the win goes to the Gods")
    assert lines[i + 1] == "the table at the end"
    assert "71  Player 2: play the god Dark Lord" in lines
    assert not any(ln.endswith((": play dark lord", " play hunter")) for ln in lines)
