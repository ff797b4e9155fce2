"""One choice per distinct card: with several decks, identical copies offered
by the same alternative are one legal action, for agents and people alike."""
from __future__ import annotations

from rulelang.compile.loader import load

GAME = """game "two decks"
players 2
deck standard, copies 2, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
setup:
    move all cards where rank of card is 7 and suit of card is hearts from stock to hand
    move all cards where rank of card is 8 and suit of card is spades from stock to hand
    move all cards where rank of card is 9 from stock to hand of player 2
turn:
    choose:
        play card c from hand:
            move c from hand to pile
        discard card c from hand where rank of c is 7:
            move c from hand to pile
    simultaneously choose by player 1, player 2:
        keep card k from hand:
            move k from hand to pile
    end game with no winner
"""


def words(st, p=None):
    return [st.action_to_string(a) for a in st.legal_actions(p)]


def test_identical_copies_are_one_choice():
    st = load("t.cardrules", text=GAME).compiled(2).new_game()
    assert sorted(words(st)) == ["discard 7♥", "play 7♥", "play 8♠"]
    assert len(st.legal_actions(every_copy=True)) == 6                       # the rules still offer every copy
    assert st.observation(0)["legal"] == words(st)
    # the copy not offered is still accepted, and plays as the one offered
    other = [a for a in st.legal_actions(every_copy=True) if a not in st.legal_actions()][0]
    twin = st.clone()
    twin.apply_action(other)
    st.apply_action([a for a in st.legal_actions() if a >> 10 == other >> 10
                     and st.action_to_string(a) == st.action_to_string(other)][0])
    assert st.observation(0) == twin.observation(0)


def test_simultaneous_choices_merge_copies_too():
    st = load("t.cardrules", text=GAME).compiled(2).new_game()
    st.apply_action(st.legal_actions()[0])
    assert st.is_simultaneous()
    assert sorted(words(st, 1)) == ["keep 9♠", "keep 9♣", "keep 9♥", "keep 9♦"]   # 8 cards
    assert len(words(st, 0)) == len(set(words(st, 0)))


def test_one_deck_games_keep_every_card():
    cg = load("t.cardrules", text=GAME.replace("copies 2, ", "")).compiled(2)
    assert cg.card_twin is None
    st = cg.new_game()
    assert sorted(words(st)) == ["discard 7♥", "play 7♥", "play 8♠"]


def test_a_log_that_chose_the_other_copy_still_replays():
    from rulelang.play.saves import replay_state
    cg = load("t.cardrules", text=GAME).compiled(2)
    st = cg.new_game()
    other = [a for a in st.legal_actions(every_copy=True) if a not in st.legal_actions()][0]
    data = {"seed": 0, "actions": [[1, other, cg.action_to_string(other)]]}
    assert replay_state(cg, data).decisions == 1
