"""Arranging one's own cards (docs/language.md, "Arranging one's own cards"): a card put
directly under or above another card of a zone, a decision of the holder among their own
cards, as many choices as cards (never one per order of the hand); a draw by position from an
arranged hand then takes the card the holder put there."""
import pytest

from rulelang.compile.loader import check_file, load

ARRANGE = """game "Arrange"
players 2

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up

var moves = 0

setup:
    deal 5 from stock to hand of each player

turn:
    choose:
        arrange "move a card" card c from hand:
            choose by you:
                under "put it under" card d from hand where d is not c:
                    move c from hand to hand under d
                above "put it above" card d from hand where d is not c:
                    move c from hand to hand above d
        draw "draw the second card from the top of the next hand":
            move card 2 from top of hand of next player from hand of next player to hand
        play "play the bottom card":
            move bottom card from hand to pile
    add 1 to moves
    if size of hand is 0 or moves >= 30:
        end game with no winner
"""


def _game(tmp_path, text=ARRANGE):
    path = tmp_path / "arrange.cardrules"
    path.write_text(text)
    diags = check_file(str(path))[0]
    assert not [d for d in diags if d.severity == "error"], diags
    return load(str(path)).compiled(2)


def _act(st, text):
    for a in st.legal_actions():
        if st.action_to_string(a) == text:
            st.apply_action(a)
            return
    raise AssertionError((text, [st.action_to_string(a) for a in st.legal_actions()]))


def test_a_card_goes_directly_under_or_above_another(tmp_path):
    cg = _game(tmp_path)
    st = cg.new_game(seed=1)
    hand = cg.zone_base["hand"]
    a, b, c, d, e = st.zones[hand]
    names = cg.card_names
    _act(st, f"arrange {names[e]}")
    assert len(st.legal_actions()) == 8            # under or above each of the 4 others
    _act(st, f"under {names[b]}")
    assert st.zones[hand] == [a, e, b, c, d]
    st2 = cg.new_game(seed=1)
    _act(st2, f"arrange {names[a]}")
    _act(st2, f"above {names[d]}")
    assert st2.zones[hand] == [b, c, d, a, e]


def test_a_draw_by_position_takes_the_card_put_there(tmp_path):
    cg = _game(tmp_path)
    st = cg.new_game(seed=2)
    hand = cg.zone_base["hand"]
    a, b, c, d, e = st.zones[hand]
    names = cg.card_names
    _act(st, f"arrange {names[a]}")
    _act(st, f"under {names[e]}")           # a is now second from the top
    _act(st, "draw")
    assert a in st.zones[hand + 1] and a not in st.zones[hand]


def test_the_card_named_must_be_in_the_zone_rl307_and_one_card_named_rl308_rl309(tmp_path):
    text = ARRANGE.replace("move c from hand to hand under d", "move c from hand to pile under d")
    cg = _game(tmp_path, text)
    st = cg.new_game(seed=3)
    names = cg.card_names
    hand = st.zones[cg.zone_base["hand"]]
    _act(st, f"arrange {names[hand[0]]}")
    _act(st, f"under {names[hand[1]]}")
    assert st.is_terminal() and st.outcome == "error" and st.problem["code"] == "RL307"
    path = tmp_path / "wrong.cardrules"
    path.write_text(ARRANGE.replace("move c from hand to hand above d",
                                    "move top card from hand to hand above d"))
    assert [d.code for d in check_file(str(path))[0]] == ["RL308"]
    path.write_text(ARRANGE.replace("move c from hand to hand above d",
                                    "move c from hand to bottom of hand above d"))
    assert [d.code for d in check_file(str(path))[0]] == ["RL309"]


def test_the_reference_the_generated_code_and_the_fast_path_agree(tmp_path, monkeypatch):
    from closures import three_ways
    path = tmp_path / "arrange.cardrules"
    path.write_text(ARRANGE)
    for seed in range(8):
        st = three_ways(str(path), 2, seed, monkeypatch, ("winners", "vars", "decisions"))
        assert st.is_terminal()


RANDOM_PILE = '''game "Beside a random pile"
players 2
deck standard, into stock
zone stock: shared, face down
zone pile: per player, face up
var moves = 0
setup:
    shuffle stock
    move top of stock from stock to pile of player 1
    move top of stock from stock to pile of player 2
turn:
    choose:
        go:
            move top of stock from stock to pile of (random player) under PLACE
            add 1 to moves
    if size of stock < 40:
        end game with no winner
'''


@pytest.mark.parametrize("place", ["bottom of pile of player 1", "top of pile of player 2"])
def test_a_zone_drawn_at_random_is_worked_out_once_for_the_move_and_the_card_put_beside(
        tmp_path, monkeypatch, place):
    """The card goes to the pile drawn, and is put beside d in that pile: where d is not there,
    RL307 (the pile was worked out again and the card looked for in another: an internal
    error, or RL307 where the card was put)."""
    from closures import three_ways
    path = tmp_path / "beside.cardrules"
    path.write_text(RANDOM_PILE.replace("PLACE", place))
    assert [d.code for d in check_file(str(path))[0]] == []
    codes = set()
    for seed in range(8):
        st = three_ways(str(path), 2, seed, monkeypatch, ("winners", "vars", "decisions"))
        if st.outcome == "error":
            codes.add(st.problem["code"])
        cg = st.game
        piles = [st.zones[cg.zone_base["pile"] + p] for p in range(2)]
        # every card moved is in a pile (the one whose move stopped the game too)
        assert sum(map(len, piles)) == 2 + st.vars[0] + (st.outcome == "error")
        # the pile without d gains a card only by the move that stopped the game
        other = piles[1] if "player 1" in place else piles[0]
        assert len(other) == 1 + (st.outcome == "error"), (seed, piles, st.problem)
    assert codes == {"RL307"}
