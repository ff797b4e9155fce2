"""A zone whose bottom card is face up (docs/language.md, "Zones"): `bottom face up`, the
trump turned under a stock.  Every player sees that card and nothing else of the zone: in
observations, in what a player's transcript shows, and in the worlds `determinize` deals."""
from rulelang.compile.loader import check_file, load

TRUMP = """game "Trump under the stock"
players 2

deck standard, into stock

zone stock: shared, face down, bottom face up
zone hand: per player, seen by owner
zone table: shared, face up

var trump: suit = none

setup:
    shuffle stock
    deal 6 from stock to hand of each player
    move top card from stock to bottom of stock
    set trump to suit of bottom of stock

turn:
    choose:
        play card c from hand:
            move c from hand to table
    move top card from stock to hand
    if size of hand is 0:
        end game with winner you
"""


def _game(tmp_path, text=TRUMP):
    path = tmp_path / "trump.cardrules"
    path.write_text(text)
    diags = check_file(str(path))[0]
    assert not [d for d in diags if d.severity == "error"], diags
    return load(str(path)).compiled(2)


def test_every_player_sees_the_bottom_card_and_only_it(tmp_path):
    cg = _game(tmp_path)
    st = cg.new_game(seed=7)
    stock = st.zones[cg.zone_base["stock"]]
    for seat in (0, 1):
        seen = st.observation(seat)["zones"]["stock"]
        assert seen == {"bottom": cg.card_names[stock[0]], "size": len(stock)}


def test_determinize_keeps_the_bottom_card_and_deals_the_others_again(tmp_path):
    cg = _game(tmp_path)
    st = cg.new_game(seed=8)
    stock = st.zones[cg.zone_base["stock"]]
    moved = 0
    for seed in range(20):
        world = st.determinize(0, seed)
        other = world.zones[cg.zone_base["stock"]]
        assert other[0] == stock[0] and len(other) == len(stock)
        moved += other[1:] != stock[1:]
        assert world.observation(0) == st.observation(0)
    assert moved >= 19


def test_the_last_card_of_the_stock_is_the_bottom_card_seen_by_all(tmp_path):
    cg = _game(tmp_path)
    st = cg.new_game(seed=9)
    stock = cg.zone_base["stock"]
    trump = st.zones[stock][0]
    while not st.is_terminal() and len(st.zones[stock]) > 1:
        st.apply_action(st.legal_actions()[0])
    assert st.zones[stock] == [trump]
    assert st.observation(1)["zones"]["stock"]["bottom"] == cg.card_names[trump]


def test_a_choice_among_the_cards_above_the_bottom_is_rl185(tmp_path):
    text = TRUMP.replace("        play card c from hand:\n            move c from hand to table",
                         "        play card c from stock:\n            move c from stock to table")
    path = tmp_path / "peek.cardrules"
    path.write_text(text)
    diags = check_file(str(path))[0]
    assert [d.code for d in diags if d.severity == "error"] == ["RL185"]
    assert "above the bottom are face down" in str([d.message for d in diags])
    ok = text.replace("play card c from stock:", "play card c from stock where c is bottom of stock:")
    path.write_text(ok)
    assert not [d for d in check_file(str(path))[0] if d.severity == "error"]


def test_the_reference_the_generated_code_and_the_fast_path_agree(tmp_path, monkeypatch):
    from closures import three_ways
    path = tmp_path / "trump.cardrules"
    path.write_text(TRUMP)
    for seed in range(6):
        st = three_ways(str(path), 2, seed, monkeypatch, ("winners", "vars", "decisions"))
        assert st.is_terminal()
