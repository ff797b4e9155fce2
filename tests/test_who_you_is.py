"""docs/language.md against the code: who `you` is in every nesting ("Who `you` is": each row
of its table played here), and which cards `for each card c in Z` goes over when its body
moves cards ("Rules and statements")."""
import pytest

from rulelang.compile.loader import load

HEAD = """game "Who you is"
players 3

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up

var who: player = none
var seen = 0

define me = you

rule record:
    set who to you

setup:
    deal 3 from stock to hand of each player
"""

# (the row of the table, the turn's lines (player 1 plays the first turn), who is `you` there)
ROWS = [
    ("turn", "    set who to you", 1),
    ("a rule run by r(...)", "    record", 1),
    ("a rule run by r(...) for P", "    record for player 3", 3),
    ("an alternative of choose by P", "    choose by player 2:\n        a:\n            set who to you", 2),
    ("the condition of an alternative of choose by P",
     "    choose by player 3:\n        a if me is player 3:\n            set who to player 3\n"
     "        b if me is not player 3:\n            set who to player 1", 3),
    ("the where of a choice's card", "    choose by player 2:\n        a card c from hand where "
     "me is player 2:\n            set who to holder_of(c)", 2),
    ("an alternative of simultaneously choose by each player",
     "    simultaneously choose by each player where player is player 3:\n        a:\n"
     "            set who to you", 3),
    ("a define", "    set who to me", 1),
    ("for each player p", "    for each player p from player 2:\n        set who to you", 1),
    ("for each card c in Z", "    for each card c in hand:\n        set who to you", 1),
    ("repeat, if", "    repeat 2 times:\n        if yes:\n            set who to you", 1),
    ("any card in Z where C",
     "    if any card in hand of player 2 where me is player 1:\n        set who to me", 1),
    ("first card in Z where C",
     "    if first card in pile where me is player 1 and rank of card > 0 is none:\n"
     "        set who to me", 1),
    ("player with highest V", "    set who to player with highest (1 if me is player else 0)", 1),
]


@pytest.mark.parametrize("row,lines,seat", ROWS, ids=[r[0] for r in ROWS])
def test_who_you_is_in_each_nesting(tmp_path, row, lines, seat):
    path = tmp_path / "you.cardrules"
    text = HEAD.replace("rule record:", "define holder_of(c) = player who has c\n\nrule record:") \
        + "\nturn:\n" + lines + "\n    end game with no winner\n"
    path.write_text(text)
    st = load(str(path)).compiled(3).new_game(seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.outcome != "error", st.problem
    assert st.vars[0] == seat - 1, (row, st.vars)


def test_game_ends_when_asks_for_each_player_from_the_current_one(tmp_path):
    path = tmp_path / "ends.cardrules"
    path.write_text(HEAD + """
game ends when size of hand is 0:
    end game with winner you

turn:
    if current player is player 1:
        move all cards from hand of player 2 to pile
    end turn
""")
    st = load(str(path)).compiled(3).new_game(seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.winners == [1]


FOR_EACH = HEAD + """
turn:
    move top card from stock to pile
    for each card c in hand:
        add 1 to seen
        move c from hand to pile                  # (each card moves away: still gone over)
        move top card from stock to hand          # (a card moved in: not gone over)
    for each card c in pile:
        if c is bottom of pile:
            move all cards from pile to stock     # (the cards after it are still gone over)
        add 10 to seen
    end game with no winner
"""


def test_for_each_card_goes_over_the_cards_as_they_were_when_it_began(tmp_path, monkeypatch):
    from closures import three_ways
    path = tmp_path / "each.cardrules"
    path.write_text(FOR_EACH)
    st = load(str(path)).compiled(3).new_game(seed=1)
    # three cards of the hand (new ones came in, not gone over), then the four of the pile
    assert st.vars[1] == 3 + 40
    three_ways(str(path), 3, 1, monkeypatch, ("vars",))
