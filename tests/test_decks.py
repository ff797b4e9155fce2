"""Decks from parts: `copies N of ...` in a deck type, several `deck` lines,
`replace deck` in a variant, texts of suits and ranks shown wherever they are, and the example
Colour Clash (its deck counted from its rulebook, its rulings in examples/colour_clash.cardtest,
random games on both backends)."""
from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from rulelang.compile.loader import check_file, load
from rulelang.play.cardtest_plan import check_test_file
from rulelang.play.cardtest_run import run_test

from closures import closures_only
from gameprops import random_playout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "colour_clash.cardrules")
COLOURS = ["Red", "Yellow", "Green", "Blue"]


def test_colour_clash_deck_is_the_rulebooks():
    """108 cards: in each colour one 0, two each of 1 to 9, Skip, Reverse, Draw Two; four Wild
    and four Wild Draw Four.  Counted here from the rulebook, not from the rule file."""
    cg = load(EXAMPLE, {}).compiled(2)
    want = Counter()
    for colour in COLOURS:
        want[f"{colour} 0"] += 1
        for rank in [str(k) for k in range(1, 10)] + ["Skip", "Reverse", "Draw Two"]:
            want[f"{colour} {rank}"] += 2
    want["wild"] += 4
    want["wild_draw_four"] += 4
    assert sum(want.values()) == 108
    assert Counter(cg.card_names) == want
    st = cg.new_game(seed=1)
    assert sum(len(z) for z in st.zones) == 108


@pytest.mark.parametrize("gen", [True, False])
def test_colour_clash_plays_to_the_end(gen, monkeypatch):
    if not gen:
        closures_only(monkeypatch)
    cg = load(EXAMPLE, {}).compiled(3)
    for seed in range(40):
        st = cg.new_game(seed=seed)
        random_playout(st, random.Random(seed))
        assert st.is_terminal() and st.problem is None
        assert len(st.winners) == 1
        hand = cg.zone_base["hand"]
        assert st.zones[hand + st.winners[0]] == []


def test_colour_clash_rulings():
    path = os.path.join(ROOT, "examples", "colour_clash.cardtest")
    tf = check_test_file(path)
    assert not tf.diagnostics
    assert len(tf.tests) == 5
    failures = [run_test(t) for t in tf.tests]
    assert failures == [None] * 5, failures


def test_suit_names_are_shown_in_choices_and_says(monkeypatch):
    """A suit's text (`red "Red"`) is how it is named in a choice and in `say`; a sign (`"♥"`)
    stays in card names only (`name hearts`, `Q♥`)."""
    cg = load(EXAMPLE, {}).compiled(2)
    st = cg.new_game(seed=0, log=True)
    rng = random.Random(0)
    seen = set()
    while not st.is_terminal():
        acts = st.legal_actions()
        seen |= {st.action_to_string(a) for a in acts}
        st.apply_action(rng.choice(acts))
    names = {a for a in seen if a.startswith("name ")}
    assert names and names <= {f"name {c}" for c in COLOURS}
    said = [e[2] for e in st.log if e[0] == "say" and e[2].startswith("names")]
    assert said and all(s.split()[1] in COLOURS for s in said)


TWO = '''game "two decks"
players 2
deck type tokens:
    suits gold "Gold", silver "Silver"
    ranks small = 21 "Small", big = 25 "Big"
    copies 3 of small in gold
deck standard, into stock
deck tokens, into bank
zone stock: shared, face down
zone bank: shared, face up
zone hand: per player, seen by owner
setup:
    shuffle stock
    deal 2 from stock to hand of each player
turn:
    choose:
        take card c from bank where rank of c is small:
            move c from bank to hand
            say "takes", rank of c, suit of c
    end game with no winner
'''


def test_several_deck_lines_each_into_its_zone(tmp_path):
    p = tmp_path / "two.cardrules"
    p.write_text(TWO)
    diags = check_file(str(p))[0]
    assert not [d for d in diags if d.is_error], diags
    cg = load(str(p), {}).compiled(2)
    st = cg.new_game(seed=4, log=True)
    bank = st.zones[cg.zone_base["bank"]]
    assert Counter(cg.card_names[c] for c in bank) == Counter(
        {"Small of Gold": 3, "Big of Gold": 1, "Small of Silver": 1, "Big of Silver": 1})
    assert len(st.zones[cg.zone_base["stock"]]) + 4 == 52
    # the three copies of a card are one choice
    assert sorted(st.action_to_string(a) for a in st.legal_actions()) == \
        ["take Small of Gold", "take Small of Silver"]
    st.apply_action(next(a for a in st.legal_actions() if "Silver" in st.action_to_string(a)))
    assert [e[2] for e in st.log if e[0] == "say"] == ["takes Small Silver"]


def test_a_variant_replaces_every_deck_line(tmp_path):
    (tmp_path / "two.cardrules").write_text(TWO)
    (tmp_path / "one.cardrules").write_text('extends "two.cardrules"\n'
                                            'replace deck tokens, copies 2, into bank\n'
                                            'replace deck standard, into stock\n')
    cg = load(str(tmp_path / "one.cardrules"), {}).compiled(2)
    assert len(cg.card_names) == 52 + 2 * 6
    (tmp_path / "bad.cardrules").write_text('extends "two.cardrules"\n'
                                            'deck tokens, into bank\n')
    codes = [d.code for d in check_file(str(tmp_path / "bad.cardrules"))[0]]
    assert "RL123" in codes


def test_copies_on_the_deck_line_multiply_the_copies_of_the_type(tmp_path):
    p = tmp_path / "c.cardrules"
    p.write_text(TWO.replace("deck tokens, into bank", "deck tokens, copies 2, into bank"))
    cg = load(str(p), {}).compiled(2)
    assert Counter(cg.card_names)["Small of Gold"] == 6


def test_standard_deck_unchanged():
    """The standard deck's signs stay in card names only: `Q♠`, and `spades` said alone."""
    cg = load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"), {}).compiled(2)
    assert len(cg.card_names) == 52 and "Q♠" in cg.card_names and "10♥" in cg.card_names
    assert cg.suit_name(cg.model.suits.index("spades")) == "spades"
    assert cg.rank_name(12) == "queen"


def test_cards_named_by_rank_and_suit_in_expressions_and_attributes(tmp_path):
    """`7 of red` and `skip of blue`, in an attribute line and in a condition: the deck's own
    names, for suits that have no sign to write `Q♠` with."""
    text = open(EXAMPLE, encoding="utf-8").read()
    text = text.replace("    otherwise: plain", "    7 of green: draws_two\n    otherwise: plain")
    text = text.replace("define colour =", "define special(c) = c is 7 of red or c is skip of blue\n"
                        "define colour =")
    text = text.replace("        play card c from hand where playable(c):\n            play(c)\n",
                        "        play card c from hand where playable(c):\n            play(c)\n"
                        "            if special(c):\n                say \"special\", c\n")
    p = tmp_path / "cc.cardrules"
    p.write_text(text, encoding="utf-8")
    assert not check_file(str(p))[0]
    cg = load(str(p), {}).compiled(2)
    effect = cg.attr_tables["effect"]
    symbols = cg.model.symbols
    for i, name in enumerate(cg.card_names):
        if name == "Green 7":
            assert effect[i] == symbols["draws_two"]
        elif name in ("Red 7", "Blue 7"):
            assert effect[i] == symbols["plain"]
    said = set()
    for seed in range(60):
        st = cg.new_game(seed=seed, log=True)
        random_playout(st, random.Random(seed))
        said |= {e[2] for e in st.log if e[0] == "say" and e[2].startswith("special")}
    # `c is 7 of red` is the first copy of the card (docs/language.md), the same for Blue Skip
    assert said == {"special Red 7", "special Blue Skip"}
