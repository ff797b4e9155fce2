"""Positions in a pile (docs/language.md, "Positions in a pile"): the card N from the top or
bottom, the card under or above a card, the first or last card where a condition holds, and
the top or bottom N cards moved together; played by the generated code, the fast path and the
reference interpreter alike."""
import pytest

from rulelang.compile.loader import check_file, load

BASE = """game "Positions"
players 2

deck standard, into stock

zone stock: shared, face down
zone pile: shared, face up
zone hand: per player, seen by owner

var seen: card = none
var got = 0

setup:
    deal 5 from stock to hand of each player
"""


def _game(tmp_path, body, base=BASE):
    path = tmp_path / "positions.cardrules"
    path.write_text(base + body)
    diags = check_file(str(path))[0]
    assert not [d for d in diags if d.severity == "error"], diags
    return load(str(path)).compiled(2)


def _codes(tmp_path, body):
    path = tmp_path / "wrong.cardrules"
    path.write_text(BASE + body)
    return [d.code for d in check_file(str(path))[0] if d.severity == "error"]


def _names(cg, cards):
    return [cg.card_names[c] for c in cards]


def test_the_card_n_from_the_top_and_from_the_bottom(tmp_path):
    cg = _game(tmp_path, """
turn:
    set seen to card 2 from top of stock
    set got to 1
    if card 2 from bottom of stock is not bottom of stock and card 1 from bottom of stock is bottom of stock:
        set got to 2
    if card 100 from top of stock is none and card (0 + 1) from top of stock is top of stock:
        add 10 to got
    end game with no winner
""")
    st = cg.new_game(seed=1)
    stock = st.zones[cg.zone_base["stock"]]
    assert st.is_terminal()
    assert st.vars[cg.var_base["seen"]] == stock[-2]
    assert st.vars[cg.var_base["got"]] == 12


def test_the_card_under_and_above_a_card_none_at_the_ends_or_elsewhere(tmp_path):
    cg = _game(tmp_path, """
turn:
    if card under top of stock in stock is card 2 from top of stock:
        add 1 to got
    if card above bottom of stock in stock is card 2 from bottom of stock:
        add 10 to got
    if card above top of stock in stock is none and card under bottom of stock in stock is none:
        add 100 to got
    if card under top of hand in stock is none:
        add 1000 to got
    end game with no winner
""")
    st = cg.new_game(seed=2)
    assert st.vars[cg.var_base["got"]] == 1111


def test_the_first_and_last_card_where_a_condition_holds(tmp_path):
    cg = _game(tmp_path, """
turn:
    set seen to first card in stock where rank of card is 13
    if last card in stock where rank of card is 13 is not seen:
        set got to 1
    if first card in hand where rank of card > 99 is none:
        add 10 to got
    end game with no winner
""")
    st = cg.new_game(seed=3)
    stock = st.zones[cg.zone_base["stock"]]
    kings = [c for c in stock if cg.card_names[c].startswith("K")]
    assert st.vars[cg.var_base["seen"]] == kings[0]
    assert st.vars[cg.var_base["got"]] == 11


@pytest.mark.parametrize("kind", ["top", "bottom"])
def test_the_top_or_bottom_n_cards_move_together_in_their_order(tmp_path, kind):
    end = "top" if kind == "top" else "bottom"
    cg = _game(tmp_path, f"""
var a: card = none
var b: card = none
var c: card = none

turn:
    set a to card 3 from {end} of stock
    set b to card 2 from {end} of stock
    set c to card 1 from {end} of stock
    move {kind} 3 cards from stock to pile
    move {kind} 2 cards from pile to {'bottom of pile' if kind == 'top' else 'pile'}
    end game with no winner
""")
    st = cg.new_game(seed=4)
    a, b, c = (st.vars[cg.var_base[x]] for x in "abc")
    pile = st.zones[cg.zone_base["pile"]]
    if kind == "top":        # a b c (c on top), then b c lifted to the bottom
        assert pile == [b, c, a]
    else:                    # c b a (a on top), then c b lifted onto it
        assert pile == [a, c, b]
    assert len(st.zones[cg.zone_base["stock"]]) == 52 - 10 - 3


def test_the_top_n_cards_of_a_smaller_pile_are_all_its_cards(tmp_path):
    cg = _game(tmp_path, """
turn:
    move top 60 cards from stock to pile
    move bottom 2 cards from pile to hand
    end game with no winner
""")
    st = cg.new_game(seed=5)
    assert len(st.zones[cg.zone_base["pile"]]) == 40
    assert len(st.zones[cg.zone_base["stock"]]) == 0


def test_a_place_written_below_one_is_rl305_and_a_count_rl250(tmp_path):
    end = "\n    end game with no winner\n"
    assert _codes(tmp_path, "turn:\n    say card 0 from top of stock" + end) == ["RL305"]
    assert _codes(tmp_path, "turn:\n    say card (-1) from bottom of stock" + end) == ["RL305"]
    assert _codes(tmp_path, "turn:\n    move top 0 cards from stock to pile" + end) == ["RL250"]


def test_a_first_card_whose_condition_ignores_the_card_is_rl306(tmp_path):
    assert _codes(tmp_path, "turn:\n    say first card in stock where got > 1\n"
                  "    end game with no winner\n") == ["RL306"]


def test_card_first_last_stay_names_where_no_position_is_asked(tmp_path):
    cg = _game(tmp_path, """
var first = 1
var last = 2

define card_value(c) = c + 1

turn:
    set got to first + last + card_value(1)
    if any card in hand where rank of card - 1 > 100 or rank of card * 2 < 0:
        add 100 to got
    if any card in hand where rank of card > 0:
        add 1 to got
    end game with no winner
""")
    st = cg.new_game(seed=1)
    assert st.vars[cg.var_base["got"]] == 6


GAME = """
turn:
    choose:
        top "take the top two" if size of stock >= 2:
            move top 2 cards from stock to hand
        under "take the card under the top" if card under top of pile in pile is not none:
            move card under top of pile in pile from pile to hand
        first "lay the first high card" if first card in hand where rank of card > 9 is not none:
            move first card in hand where rank of card > 9 from hand to pile
        last "lay the last low card" if last card in hand where rank of card < 5 is not none:
            move last card in hand where rank of card < 5 from hand to pile
        nth "lay the second card from the bottom" if size of hand >= 2:
            move card 2 from bottom of hand from hand to pile
        bottom "lay the bottom three":
            move bottom 3 cards from hand to pile
    if size of hand is 0 or size of stock is 0:
        end game with no winner
"""


def test_the_reference_the_generated_code_and_the_fast_path_agree(tmp_path, monkeypatch):
    from closures import three_ways
    path = tmp_path / "positions.cardrules"
    path.write_text(BASE + GAME)
    for seed in range(10):
        st = three_ways(str(path), 2, seed, monkeypatch, ("winners", "vars", "decisions"))
        assert st.is_terminal()
