"""Named values (docs/language.md, "Named values"): an ordered set declared in the file,
variables of it, a choice among its values, comparisons by order, and the values shown by name."""
import random

from rulelang.compile.loader import check_file, load
from rulelang.engine.display_names import Words

AUCTION = '''game "Bids"
players 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
values bid: pass, two "2", three "3", four "4", smudge "Smudge"
var high: bid = pass
var said: bid per player = pass
var holder: player = none
var passes = 0
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    choose:
        call bid b where b > high and b is not pass:
            set high to b
            set said of you to b
            set holder to you
            set passes to 0
            say "bids", b
        pass:
            set said of you to pass
            add 1 to passes
    if high is smudge or passes >= 2 and holder is not none or passes >= 3:
        end game with winner holder
'''


def _game(tmp_path, text=AUCTION):
    path = tmp_path / "bids.cardrules"
    path.write_text(text)
    return load(str(path))


def _choose(st, words):
    st.apply_action(next(a for a in st.legal_actions() if st.action_to_string(a) == words))


def test_a_choice_offers_the_values_above_the_highest_lowest_first_by_name(tmp_path):
    st = _game(tmp_path).new_game(seed=1, log=True)
    assert [st.action_to_string(a) for a in st.legal_actions()] == \
        ["call 2", "call 3", "call 4", "call Smudge", "pass"]
    _choose(st, "call 3")
    assert [st.action_to_string(a) for a in st.legal_actions()] == ["call 4", "call Smudge", "pass"]
    assert Words(st.game).action(st.legal_actions()[0]) == "call 4"
    shown = st.game.describe_vars(st)
    assert shown["high"] == "3" and shown["said"] == ["3", "pass", "pass"]
    _choose(st, "pass")
    _choose(st, "pass")
    assert st.is_terminal() and st.results() == ["win", "loss", "loss"]
    assert [e[2] for e in st.log if e[0] == "say"] == ["bids 3"]


def test_the_highest_value_ends_the_auction_and_random_games_end(tmp_path):
    cg = _game(tmp_path).compiled(3)
    for seed in range(30):
        st = cg.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        high = st.game.describe_vars(st)["high"]
        assert st.decisions <= 3 + 4 * 3 and high in ("pass", "2", "3", "4", "Smudge")


def _codes(tmp_path, text):
    path = tmp_path / "v.cardrules"
    path.write_text(text)
    diags, _m, _d = check_file(str(path))
    return [d.code for d in diags]


def test_a_file_declares_at_most_512_values(tmp_path):
    many = ", ".join(f"v{i}" for i in range(513))
    text = AUCTION.replace('values bid: pass, two "2", three "3", four "4", smudge "Smudge"',
                           f'values bid: pass, two, three, four, smudge\nvalues steps: {many}')
    assert _codes(tmp_path, text) == ["RL261"]


def test_values_of_one_set_compare_by_order_not_by_name(tmp_path):
    text = AUCTION.replace("values bid: pass, two", "values bid: pass, zebra \"Z\", two")
    st = _game(tmp_path, text).new_game(seed=1)
    # `zebra` comes before `two`: lower, whatever the alphabet says
    assert [st.action_to_string(a) for a in st.legal_actions()][:2] == ["call Z", "call 2"]


def test_values_is_a_word_only_where_a_declaration_begins(tmp_path):
    text = AUCTION.replace("var passes = 0", "var passes = 0\nvar values = 1")
    assert _codes(tmp_path, text) == []


def test_the_reference_the_generated_code_and_the_fast_path_agree(tmp_path, monkeypatch):
    from closures import three_ways
    path = tmp_path / "bids.cardrules"
    path.write_text(AUCTION)
    for seed in range(8):
        st = three_ways(str(path), 3, seed, monkeypatch, ("winners", "vars", "decisions"))
        assert st.is_terminal()


def test_a_rule_takes_a_named_value_as_a_parameter(tmp_path):
    text = AUCTION.replace("turn:\n", "rule raise(b: bid):\n    set high to b\n    say \"raised to\", b\nturn:\n") \
        .replace("            set high to b\n            set said of you to b",
                 "            raise(b)\n            set said of you to b")
    diags, model, _ = check_file(str(tmp_path / "r.cardrules"), text=text)
    assert model is not None and not [d for d in diags if d.is_error], diags
    st = _game(tmp_path, text).new_game(seed=1, log=True)
    _choose(st, "call 3")
    assert st.game.describe_vars(st)["high"] == "3"
    assert [e[2] for e in st.log if e[0] == "say"] == ["raised to 3", "bids 3"]
