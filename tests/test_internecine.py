"""Internecine (rules/internecine.cardrules; decisions in docs/games/internecine.md).

Scenario tests set up the position the rule text describes and play it (the worked example of an
escalation among them); a property test plays many random games and looks at every observation
of both players after every decision: never a civilian, never a face-down card, never the other
player's card chosen in secret; golden transcripts pin a few seeded games (regenerate with
RULELANG_REGEN=1 after a deliberate change); the random-game properties of tests/gameprops.py hold.
"""
import io
import os
import random
import sys

import pytest
from hypothesis import given, settings, strategies as hs

from rulelang.play.agents import FirstChoice
from rulelang.cli.commands import main
from rulelang.cli.common import _play_out
from rulelang.compile.loader import check_file
from rulelang.engine.runtime import VALUE_MASK
from rulelang.play.scenario import play, position, zone

from gameprops import check_random_games, clone_independent, random_playout, same_seed_same_game
from gametest import legal, log_lines, match_golden, played, rules_game, says

HERE = os.path.dirname(__file__)
RULES = os.path.join(HERE, "..", "rules")
FILE = os.path.join(RULES, "internecine.cardrules")

def game():
    return rules_game("internecine.cardrules")


def said(st):
    return [text for _seat, text in says(st)]


def reveals(st):
    return [(e[1] + 1, e[2]) for e in st.log if e[0] == "reveal"]


# Player 1 is red (hearts, diamonds, the red joker), player 2 black.  Populations list the bottom
# first: the last card is the top.
BASE = {
    "army/1": ["6♥", "J♥", "3♥", "4♥", "8♥"],
    "army/2": ["6♠", "10♠", "3♠", "4♠", "8♠"],
    "civilians/1": ["2♥", "9♥", "K♥", "A♥"],
    "civilians/2": ["2♠", "9♠", "K♠", "A♠"],
    "population/1": ["10♦", "J♦", "Q♦", "7♦", "5♦", "2♦"],     # top three: 2, 5, 7
    "population/2": ["10♣", "J♣", "Q♣", "K♣", "6♣", "9♣"],     # top three: 9, 6, King
}


def setup(current=1, **zones):
    given_ = {k.replace("_1", "/1").replace("_2", "/2"): v for k, v in zones.items()}
    named = {c for cards in given_.values() for c in cards}
    z = {k: [c for c in v if c not in named] for k, v in BASE.items()}    # defaults give way
    z.update(given_)
    return position(game(), 2, zones=z, rest="pack", current=current)


def no_cards_left_over(st, *zones):
    for z in zones:
        assert zone(st, z) == [], f"{z}: {zone(st, z)}"


# ---- the file -------------------------------------------------------------------------------

def test_file_checks_clean():
    diags, model, _ = check_file(FILE)
    assert model is not None
    assert [str(d) for d in diags] == []


# (Each DECISION of the file is numbered in docs/games/internecine.md: tests/test_docs.py.)


def test_setup_deck_split_by_colour():
    # "one player getting all hearts and diamonds ... the other getting all spades and clubs ...
    # Each player gets one joker. ... four cards, face-down ... a five-card hand ... the remaining
    # cards ... the population."
    cg = game().compiled(2)
    firsts = set()
    for seed in range(20):
        st = cg.new_game(seed=seed)
        for p, suits, joker in ((1, "♥♦", "red_joker"), (2, "♠♣", "black_joker")):
            mine = zone(st, f"population/{p}") + zone(st, f"civilians/{p}") + zone(st, f"army/{p}")
            assert len(mine) == 27 and len(zone(st, f"civilians/{p}")) == 4
            assert len(zone(st, f"army/{p}")) == 5 and len(zone(st, f"population/{p}")) == 18
            assert all(c == joker or c[-1] in suits for c in mine)
            assert joker in mine
        assert zone(st, "pack") == []
        firsts.add(st.current_player())
        assert legal(st) in (["attack", "draft"],)
    assert firsts == {0, 1}                         # DECISION: who goes first is drawn by lot


def test_aces_high_jokers_low():
    st = setup(army_1=["A♥", "2♥"], army_2=["K♠", "2♠"])
    play(st, "attack", "defend", "play A♥", "play K♠")
    # "The lower value card is discarded, and the higher value card is returned to the bottom of
    # the victor's population."
    assert zone(st, "discard") == ["K♠"]
    assert zone(st, "population/1")[0] == "A♥"


# ---- attack against defence -----------------------------------------------------------------

def test_declare_attack_then_the_other_declares():
    st = setup()
    assert st.current_player() == 0 and legal(st) == ["attack", "draft"]
    play(st, "attack")
    assert st.current_player() == 1 and legal(st) == ["defend", "draft"]


def test_attack_against_defend_both_play_at_once_higher_card_wins():
    st = setup()
    play(st, "attack", "defend")
    # "When attacking and defending, both players play their cards simultaneously."
    assert st.is_simultaneous() and st.current_players() == [0, 1]
    assert legal(st) == sorted("play " + c for c in BASE["army/1"])
    assert sorted(st.action_to_string(a) for a in st.legal_actions(1)) == sorted(
        "play " + c for c in BASE["army/2"])
    play(st, "play 4♥")
    # chosen, but nothing moves and nothing shows until the other has chosen too
    assert st.current_players() == [1]
    assert zone(st, "army/1") == BASE["army/1"] and zone(st, "field/1") == []
    assert reveals(st) == [] and st.observation(1)["zones"]["army/1"] == {"size": 5}
    play(st, "play 8♠")
    assert reveals(st) == [(1, "4♥"), (2, "8♠")]
    assert zone(st, "discard") == ["4♥"]
    assert zone(st, "population/2") == ["8♠"] + BASE["population/2"]
    no_cards_left_over(st, "field/1", "field/2", "war_up/1", "war_up/2")
    assert st.current_player() == 1 and legal(st) == ["attack", "draft"]   # black's turn


def test_run_shows_both_reveals(capsys):
    assert main(["run", FILE, "--seed", "2", "--table-every", "1000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    battles = [i for i, ln in enumerate(lines) if ln.strip().endswith("defend")]
    assert battles
    i = battles[0]
    # both secret choices, then both cards turned up
    assert "Player" in lines[i + 1] and ": play " in lines[i + 1] and ": play " in lines[i + 2]
    assert " reveals " in lines[i + 3] and " reveals " in lines[i + 4]
    assert {lines[i + 3].split()[1], lines[i + 4].split()[1]} == {"1", "2"}


def test_run_explains_the_cards_returned_after_a_war(capsys):
    # "The cards of the player with the lower total are discarded, as well as the cards of the
    # other player equal to that number.  The winning player may return any cards in excess of
    # that value, returning them to the bottom of his population deck."  Seed 8, turn 9: black
    # wins the war 25 to 17 and returns two cards; the transcript says why and where they go.
    assert main(["run", FILE, "--seed", "8"]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    i = lines.index("» The totals: 25 for Player 2 and 17 for Player 1")
    assert lines[i + 2:i + 6] == [
        "» Player 2 may return cards to the bottom of the population, as long as the rest adds up "
        "to 17 or more",
        "Player 2: return 2♣ to the bottom of the population",
        "Player 2: return Black Joker to the bottom of the population",
        "· 10♠ K♣ from War (face up) of Player 2 to Discard"]


# ---- surrender or escalate ------------------------------------------------------------------

def test_tie_defender_surrenders():
    st = setup()
    play(st, "attack", "defend", "play 6♥", "play 6♠")
    assert "the cards are equal: each player, starting with the defender, may surrender or escalate" in said(st)
    assert st.current_player() == 1 and legal(st) == ["escalate", "surrender"]   # defender first
    play(st, "surrender")
    # "play continues as if he'd lost (his card is discarded and the other player's card returns
    # to his population)"
    assert zone(st, "discard") == ["6♠"]
    assert zone(st, "population/1")[0] == "6♥"
    assert st.current_player() == 1 and legal(st) == ["attack", "draft"]


def test_tie_attacker_surrenders_after_the_defender_escalates():
    st = setup()
    play(st, "attack", "defend", "play 6♥", "play 6♠", "escalate")
    assert st.current_player() == 0 and legal(st) == ["escalate", "surrender"]
    play(st, "surrender")
    assert zone(st, "discard") == ["6♥"]
    assert zone(st, "population/2")[0] == "6♠"
    no_cards_left_over(st, "war_down/1", "war_down/2")      # no war: nothing laid face down


def test_no_escalation_without_an_army_card_left():
    # DECISION: escalating means playing another army card, so a player without one surrenders.
    st = setup(army_2=["6♠"])
    play(st, "attack", "defend", "play 6♥", "play 6♠")
    assert legal(st) == ["surrender"]


def war(red_card, black_card, **zones):
    st = setup(**zones)
    play(st, "attack", "defend", "play 6♥", "play 6♠", "escalate", "escalate")
    # "they then lay three cards from their population face-down, saying "This...means...war!""
    assert said(st)[-1] == "This...means...war!"
    assert len(zone(st, "war_down/1")) == 3 and len(zone(st, "war_down/2")) == 3
    assert st.is_simultaneous()
    play(st, "play " + red_card, "play " + black_card)
    return st


def test_worked_example_of_escalation():
    # "Red and black both play a 6. ... Red plays a Queen [a Jack: see DECISION] and Black plays a
    # 10.  The 10 and both 6s are discarded.  ... Red has a 2, a 5 and a 7, for a total of 14.
    # Black has a 9, a 6, and a King, for a total of 28.  All of red's cards are discarded,
    # including the Jack, as the Jack's value still doesn't exceed the 28 that black has.  All of
    # black's cards are discarded, because all of his cards are needed to defeat all of red's."
    st = war("J♥", "10♠")
    assert "wins the battle" in said(st)                          # red won the comparison
    assert "the totals: 25 for player 1 and 28 for player 2" in said(st)   # 14 + the Jack's 11
    assert sorted(zone(st, "discard")) == sorted(
        ["6♥", "6♠", "10♠", "2♦", "5♦", "7♦", "J♥", "9♣", "6♣", "K♣"])
    assert zone(st, "discard")[:3] == ["6♠", "10♠", "6♥"] or set(zone(st, "discard")[:3]) == {"6♠", "10♠", "6♥"}
    assert zone(st, "population/1") == ["10♦", "J♦", "Q♦"]
    assert zone(st, "population/2") == ["10♣", "J♣", "Q♣"]
    no_cards_left_over(st, "field/1", "field/2", "war_down/1", "war_down/2", "war_up/1", "war_up/2")
    assert st.current_player() == 1 and legal(st) == ["attack", "draft"]


def test_worked_example_with_a_queen_instead_of_the_9():
    # "If, however, black had a Queen instead of the 9, he would be allowed to keep the 6, as the
    # Queen and the King together equal 25, sufficient to defeat all of red's cards, including the
    # Jack."  "The winning player may return any cards in excess of that value, returning them to
    # the bottom of his population deck."
    zones = dict(population_2=["10♣", "J♣", "9♣", "K♣", "6♣", "Q♣"])
    st = war("J♥", "10♠", **zones)
    assert "the totals: 25 for player 1 and 31 for player 2" in said(st)
    assert st.current_player() == 1 and legal(st) == ["discard_the_rest", "keep 6♣"]
    play(st, "keep 6♣")
    assert zone(st, "population/2") == ["6♣", "10♣", "J♣", "9♣"]
    assert "Q♣" in zone(st, "discard") and "K♣" in zone(st, "discard")
    assert "J♥" in zone(st, "discard")
    assert st.current_player() == 1 and legal(st) == ["attack", "draft"]   # no more to keep
    # keeping is a choice ("may return"): black may discard the 6 as well
    st = war("J♥", "10♠", **zones)
    play(st, "discard_the_rest")
    assert zone(st, "population/2") == ["10♣", "J♣", "9♣"]


def test_worked_example_read_with_the_queen():
    # With the Queen the text names, red's total is 14 + 12 = 26: still all of red's cards go, and
    # then Queen and King (25) are not enough, so black could keep nothing.
    st = war("Q♥", "10♠", army_1=["6♥", "Q♥", "3♥", "4♥", "8♥"])
    assert "the totals: 26 for player 1 and 28 for player 2" in said(st)
    st = war("Q♥", "10♠", army_1=["6♥", "Q♥", "3♥", "4♥", "8♥"],
             population_2=["10♣", "J♣", "9♣", "K♣", "6♣", "Q♣"])
    assert "the totals: 26 for player 1 and 31 for player 2" in said(st)
    assert legal(st) == ["attack", "draft"]                  # nothing may be kept
    assert zone(st, "population/2") == ["10♣", "J♣", "9♣"]


def test_war_won_on_the_totals_too_the_winning_card_goes_home():
    # Red wins the comparison and has the higher total: the winning card is not counted; black's
    # cards are all discarded; red discards cards worth at least black's 9 and may keep the rest.
    st = war("J♥", "10♠", population_2=["10♣", "J♣", "Q♣", "4♣", "3♣", "2♣"])
    assert "the totals: 14 for player 1 and 9 for player 2" in said(st)
    assert zone(st, "population/1")[0] == "J♥"
    assert st.current_player() == 0 and legal(st) == ["discard_the_rest", "keep 2♦", "keep 5♦"]
    play(st, "keep 5♦")                                    # 2 + 7 = 9 still match black's 9
    assert zone(st, "population/1")[:2] == ["5♦", "J♥"]
    assert sorted(zone(st, "discard")) == sorted(["6♥", "6♠", "10♠", "2♣", "3♣", "4♣", "2♦", "7♦"])
    assert st.current_player() == 1


def test_equal_totals_both_discard_everything():
    st = war("J♥", "10♠", population_2=["10♣", "J♣", "Q♣", "7♣", "5♣", "2♣"])
    assert "the totals: 14 for player 1 and 14 for player 2" in said(st)
    assert zone(st, "population/1")[0] == "J♥"            # the winning card was not needed
    assert st.current_player() == 1 and legal(st) == ["attack", "draft"]
    no_cards_left_over(st, "war_up/1", "war_up/2")


# ---- unopposed attack and defence -----------------------------------------------------------

def test_attack_against_draft_kills_a_random_civilian_unseen():
    # "the attacker plays an army card ... and randomly chooses one of his opponent's civilian
    # cards.  This civilian card is then discarded without either player seeing the face of the
    # card.  The army card returns to the attacker's hand while the drafting player draws the top
    # card ... then draws another card ... into his civilians without looking at it."
    killed = set()
    for seed in range(30):
        st = position(game(), 2, zones=BASE, rest="pack", current=1, seed=seed)
        play(st, "attack", "draft", "play 8♥")
        assert reveals(st) == [(1, "8♥")]
        assert zone(st, "army/1") == BASE["army/1"]
        dead = zone(st, "graveyard")
        assert len(dead) == 1 and dead[0] in BASE["civilians/2"]
        killed.add(dead[0])
        assert zone(st, "army/2") == BASE["army/2"] + ["9♣"]
        assert zone(st, "civilians/2") == [c for c in BASE["civilians/2"] if c != dead[0]] + ["6♣"]
        for p in (0, 1):
            seen = st.observation(p)["zones"]
            assert seen["graveyard"] == {"size": 1}
            assert seen["civilians/1"] == {"size": 4} and seen["civilians/2"] == {"size": 4}
        assert st.current_player() == 1
    assert killed == set(BASE["civilians/2"])


def test_defend_against_a_draft_shows_the_card_and_returns_it():
    # "A player may choose to defend when the other player is drafting.  To do so, the player
    # plays an army card face-up on the table, then returns it to his army."
    st = setup()
    play(st, "draft")
    assert zone(st, "army/1") == BASE["army/1"] + ["2♦"]
    assert st.current_player() == 1
    assert legal(st) == sorted(["let_them_draft"] + ["defend " + c for c in BASE["army/2"]])
    play(st, "defend 10♠")
    assert reveals(st) == [(2, "10♠")]
    assert zone(st, "army/2") == ["6♠", "3♠", "4♠", "8♠", "10♠"] and zone(st, "field/2") == []
    assert zone(st, "discard") == []
    assert st.current_player() == 1 and legal(st) == ["attack", "draft"]


def test_draft_answer_with_an_empty_population():
    st = setup(population_2=[])
    play(st, "attack", "draft", "play 8♥")
    assert len(zone(st, "civilians/2")) == 3 and zone(st, "army/2") == BASE["army/2"]


# ---- the sneak attack -----------------------------------------------------------------------

def test_sneak_attack_in_a_battle():
    # "The sneak attack immediately discards all of the opponent's army cards, not including any
    # that have been played on the table already.  The Joker is then discarded."  Jokers are low:
    # the other card wins.
    st = setup(army_1=["red_joker", "6♥", "J♥"])
    play(st, "attack", "defend", "play red_joker", "play 10♠")
    assert "makes a sneak attack with a Joker: the army of player 2 is discarded" in said(st)
    assert zone(st, "army/2") == []
    assert sorted(zone(st, "discard")) == sorted(["6♠", "3♠", "4♠", "8♠", "red_joker"])
    assert zone(st, "population/2")[0] == "10♠"           # the played card survived and won
    assert zone(st, "army/1") == ["6♥", "J♥"]


def test_sneak_attack_by_the_defender():
    st = setup(army_2=["black_joker", "6♠"])
    play(st, "attack", "defend", "play 8♥", "play black_joker")
    assert "makes a sneak attack with a Joker: the army of player 1 is discarded" in said(st)
    assert zone(st, "army/1") == []
    assert sorted(zone(st, "discard")) == sorted(["6♥", "J♥", "3♥", "4♥", "black_joker"])
    assert zone(st, "population/1")[0] == "8♥"
    assert zone(st, "army/2") == ["6♠"]


def test_both_jokers():
    # Both sneak attacks: both armies and both jokers are discarded; 0 against 0 is a tie, and
    # with no army card left to escalate the defender can only surrender.
    st = setup(army_1=["red_joker", "6♥"], army_2=["black_joker", "6♠"])
    play(st, "attack", "defend", "play red_joker", "play black_joker")
    assert zone(st, "army/1") == zone(st, "army/2") == []
    assert legal(st) == ["surrender"]
    play(st, "surrender")
    assert sorted(zone(st, "discard")) == sorted(["red_joker", "black_joker", "6♥", "6♠"])
    no_cards_left_over(st, "field/1", "field/2")


def test_both_jokers_after_a_war_leave_no_winning_card():
    # After a tie and a war both players play their Jokers: both are discarded by their sneak
    # attacks, so the comparison (0 against 0, then a surrender: the defender has no army card
    # left) has no winning card.  DECISION: the whole field is discarded, the first round's tied
    # cards too; only the face-down cards count in the totals.  (Until 2026-11-22 the first
    # round's 6 was taken for "the winning card" and added to red's total.)
    st = setup(army_1=["6♥", "red_joker"], army_2=["6♠", "black_joker"])
    play(st, "attack", "defend", "play 6♥", "play 6♠", "escalate", "escalate")
    play(st, "play red_joker", "play black_joker")
    assert legal(st) == ["surrender"]
    play(st, "surrender")
    assert "the totals: 14 for player 1 and 28 for player 2" in said(st)
    assert "6♥" in zone(st, "discard") and "6♥" not in zone(st, "population/1")
    no_cards_left_over(st, "field/1", "field/2", "war_up/1")


def test_surrender_at_a_second_tie_still_totals_the_war():
    # DECISION: "play continues as if he'd lost": a surrender after a war is a lost comparison,
    # so the war's face-down cards are still turned over and totalled (the one who surrendered
    # may still have the higher total).  Here black surrenders at the second tie; red's 8 is the
    # winning card, and red's 14 against black's 28 adds it (22).
    st = setup(army_1=["6♥", "8♥", "3♥"], army_2=["6♠", "8♠", "3♠"])
    play(st, "attack", "defend", "play 6♥", "play 6♠", "escalate", "escalate")
    play(st, "play 8♥", "play 8♠")
    assert said(st).count("the cards are equal: each player, starting with the defender, may surrender or escalate") == 2
    play(st, "surrender")
    assert "wins the battle" in said(st)
    assert "the totals: 22 for player 1 and 28 for player 2" in said(st)


def test_sneak_attack_unopposed():
    # DECISION: an unopposed attack with a Joker is a sneak attack too; the civilian still dies,
    # the Joker is discarded, then the defender drafts.
    st = setup(army_1=["red_joker", "6♥"])
    play(st, "attack", "draft", "play red_joker")
    assert zone(st, "army/1") == ["6♥"]
    assert zone(st, "army/2") == ["9♣"]                    # the old army is gone; the draft came after
    assert sorted(zone(st, "discard")) == sorted(BASE["army/2"] + ["red_joker"])
    assert len(zone(st, "graveyard")) == 1 and len(zone(st, "civilians/2")) == 4


def test_sneak_attack_when_defending_against_a_draft():
    # DECISION: "when attacking or defending": showing a Joker against a draft is a sneak attack,
    # and it also takes the card just drafted.
    st = setup(army_2=["black_joker", "6♠"])
    play(st, "draft", "defend black_joker")
    assert zone(st, "army/1") == []
    assert sorted(zone(st, "discard")) == sorted(BASE["army/1"] + ["2♦", "black_joker"])
    assert zone(st, "army/2") == ["6♠"]


# ---- the end --------------------------------------------------------------------------------

def test_attacked_with_no_civilians_and_no_population_loses():
    # "The game ends when a player has no more civilians and no population to replenish them when
    # he is attacked.  The other player then wins if he still has some civilians."
    st = setup(civilians_2=[], population_2=[])
    assert not st.is_terminal()
    play(st, "attack")
    assert st.is_terminal() and st.winners == [0]
    # the attacker has no civilians either: nobody wins (DECISION)
    st = setup(civilians_1=[], civilians_2=[], population_2=[])
    play(st, "attack")
    assert st.is_terminal() and st.winners == []


def test_no_civilians_but_a_population_goes_on():
    st = setup(civilians_2=[])
    play(st, "attack", "draft", "play 8♥")
    assert not st.is_terminal()
    assert zone(st, "civilians/2") == ["6♣"]               # replenished
    assert zone(st, "graveyard") == []


def test_a_draft_is_not_an_attack():
    st = setup(civilians_2=[], population_2=[])
    play(st, "draft", "let_them_draft")
    assert not st.is_terminal()


def test_stalemate_ends_the_game_by_civilians():
    # DECISION: nobody can ever attack again: the player with more civilians survived longer.
    st = setup(army_1=[], army_2=[], population_1=[], population_2=[], civilians_1=["2♥"])
    assert st.is_terminal() and st.winners == [1]
    st = setup(army_1=[], army_2=[], population_1=[], population_2=[])
    assert st.is_terminal() and st.winners == []


def test_a_player_with_nothing_waits():
    st = setup(army_1=[], population_1=[])
    assert legal(st) == ["wait"]
    play(st, "wait")
    assert st.current_player() == 1


# ---- what each player sees ------------------------------------------------------------------

HIDDEN_ZONES = ("civilians/1", "civilians/2", "population/1", "population/2",
                "war_down/1", "war_down/2", "graveyard")


def _strings(x, out):
    if isinstance(x, str):
        out.update(x.split())
    elif isinstance(x, dict):
        for k, v in x.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _strings(v, out)
    return out


def check_observations(st):
    """No observation of either player holds a face-down card (a civilian above all), nor the
    card the other player chose in secret, nor anything that depends on that choice."""
    cg = st.game
    hidden = {c for key in HIDDEN_ZONES for c in zone(st, key)}
    never = {c for key in ("civilians/1", "civilians/2", "war_down/1", "war_down/2", "graveyard")
             for c in zone(st, key)}           # cards that no player ever saw go where they are
    for p in (0, 1):
        obs = st.observation(p)
        seen = _strings({k: v for k, v in obs.items() if k != "known"}, set())
        assert not (seen & hidden), f"player {p + 1} sees {seen & hidden}"
        assert not (seen & set(zone(st, f"army/{2 - p}")))    # the other army
        # What p remembers (docs/language.md, "What players remember"): cards p saw go face
        # down (from the field back to an army or under a population), never a civilian
        known = _strings(obs.get("known", {}), set())
        assert not (known & never), f"player {p + 1} remembers {known & never}"
    if st.is_simultaneous():
        for q, action in st.decision.chosen.items():
            card = cg.card_names[action & VALUE_MASK]
            for p in st.current_players():
                assert p != q
                assert card not in _strings({k: v for k, v in st.observation(p).items()
                                             if k != "known"}, set())


def play_checked(st, rng):
    check_observations(st)
    while not st.is_terminal():
        p = st.current_player()
        was_secret = st.is_simultaneous()
        before = {q: st.observation(q) for q in st.current_players()}
        st.apply_action(rng.choice(st.legal_actions(p)), p)
        if was_secret and st.is_simultaneous():    # p chose in secret: the others see nothing new
            for q in st.current_players():
                now = st.observation(q)
                assert {k: v for k, v in now.items() if k != "to_decide"} == {
                    k: v for k, v in before[q].items() if k != "to_decide"}
        check_observations(st)
    return st


def test_observations_never_show_a_civilian_or_a_secret_choice_many_seeds():
    cg = game().compiled(2)
    sims = 0
    for seed in range(40):
        st = play_checked(cg.new_game(seed=seed), random.Random(seed))
        sims += st.decisions
    assert sims > 1000


@settings(max_examples=25, deadline=None)
@given(hs.integers(min_value=0, max_value=10**9), hs.integers(min_value=0, max_value=10**9))
def test_observations_never_show_a_civilian_or_a_secret_choice(seed, choices):
    play_checked(game().compiled(2).new_game(seed=seed), random.Random(choices))


def test_the_checker_is_able_to_fail():
    # the property above would notice a civilian in an observation
    st = setup()
    obs = st.observation(0)
    obs["zones"]["civilians/2"] = zone(st, "civilians/2")
    hidden = set(zone(st, "civilians/2"))
    assert _strings(obs, set()) & hidden


@pytest.mark.parametrize("seat", [1, 2])
def test_play_at_the_terminal_never_shows_a_civilian(capsys, monkeypatch, seat):
    # `rulelang play` with piped answers ("1" every time: the first choice, like the `first` agent)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 2000))
    assert main(["play", FILE, "--seed", "4", "--agents", "first", "--seat", str(seat)]) == 0
    out = capsys.readouterr().out
    assert "the others choose at the same time, in secret" in out
    assert "  You reveal " in out and f"  Player {3 - seat} reveals " in out
    # every army card played is revealed, so the other player's choice names its card (once
    # both are in), even when the card has gone back face down by the time it is printed
    assert f"Player {3 - seat}: play a card" not in out and f"Player {3 - seat}: play " in out
    assert "wins" in out or "win!" in out or "No winner" in out
    # the same game through the API: every card that was ever a civilian ends as a casualty or a
    # civilian, and none of them is ever named at the terminal
    cg = game().compiled(2)
    st = cg.new_game(seed=4, log=True)
    _play_out(st, [FirstChoice(0), FirstChoice(1)])
    assert st.is_terminal()
    ever = set(zone(st, "graveyard") + zone(st, "civilians/1") + zone(st, "civilians/2"))
    assert len(ever) >= 8
    words = set(out.split())
    assert not (ever & words)


# ---- random games ---------------------------------------------------------------------------

def test_random_game_properties():
    g = game()
    results = check_random_games(g, 2, range(40))
    winners = {w for _, w, _ in results}
    assert {(0,), (1,)} <= winners                       # either colour can win
    same_seed_same_game(g, 2, 3)
    clone_independent(g, 2, 5, steps=8)
    clone_independent(g, 2, 6, steps=40)


def test_cards_are_never_created_or_lost_and_games_end():
    cg = game().compiled(2)
    for seed in range(30):
        st = cg.new_game(seed=seed)
        random_playout(st, random.Random(seed))
        assert st.outcome != "error"
        assert sum(len(z) for z in st.zones) == 54
        for p in (1, 2):
            assert zone(st, f"field/{p}") == zone(st, f"war_up/{p}") == zone(st, f"war_down/{p}") == []


# ---- golden transcripts ---------------------------------------------------------------------

def transcript(seed):
    cg = game().compiled(2)
    st = played(cg, seed)
    lines = [f"# {cg.model.name} (internecine.cardrules), seed {seed}, uniformly random choices"]
    lines += log_lines(st)
    for p in (1, 2):
        lines.append(f"P{p} civilians left: {len(zone(st, f'civilians/{p}'))}, "
                     f"population {len(zone(st, f'population/{p}'))}, army {' '.join(zone(st, f'army/{p}'))}")
    return lines


@pytest.mark.parametrize("seed", [1, 2, 3, 167])   # 167: two wars
def test_golden_transcript(seed):
    match_golden(f"internecine_seed{seed}.txt", transcript(seed))
