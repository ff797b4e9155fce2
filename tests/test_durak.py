"""Durak for two (examples/durak.cardrules): the trump face up under the stock and seen by
every player until it is drawn last, a hand refilled with the top cards of the stock, attacks
beaten or taken, and the worked examples of docs/games/durak.md (examples/durak.cardtest)."""
import os
import random

from rulelang.cli.commands import main
from rulelang.compile.loader import load

from gametest import choices

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DURAK = os.path.join(ROOT, "examples", "durak.cardrules")


def test_the_worked_examples_pass(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    status = main(["test", os.path.join(ROOT, "examples", "durak.cardtest")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.count("PASS") == 6


def _play(st, rng):
    words = choices(st)
    st.apply_action(words[rng.choice(sorted(words))])


def test_the_trump_is_seen_by_both_players_and_no_other_card_of_the_stock():
    cg = load(DURAK).compiled(2)
    for seed in range(20):
        st = cg.new_game(seed=seed)
        rng = random.Random(seed)
        stock = cg.zone_base["stock"]
        trump_card = st.zones[stock][0]
        assert st.vars[cg.var_base["trump"]] is not None
        while not st.is_terminal():
            z = st.zones[stock]
            for seat in (0, 1):
                obs = st.observation(seat)
                seen = obs["zones"]["stock"]
                assert seen == {"bottom": cg.card_names[z[0]] if z else None, "size": len(z)}
                other = obs["zones"][f"hand/{2 - seat}"]
                assert other == {"size": len(st.zones[cg.zone_base["hand"] + 1 - seat])}
            if z:
                assert z[0] == trump_card        # it stays under the stock until drawn last
            _play(st, rng)


def test_the_first_attack_is_led_by_the_lowest_trump():
    cg = load(DURAK).compiled(2)
    suit_of = {c: cg.card_names[c][-1] for c in range(len(cg.card_names))}
    rank = {"6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
    checked = 0
    for seed in range(30):
        st = cg.new_game(seed=seed)
        trump = suit_of[st.zones[cg.zone_base["stock"]][0]]
        lows = []
        for seat in (0, 1):
            ranks = [rank[cg.card_names[c][:-1]] for c in st.zones[cg.zone_base["hand"] + seat]
                     if suit_of[c] == trump]
            lows.append(min(ranks) if ranks else 99)
        if lows[0] != lows[1]:
            assert st.current_player() == lows.index(min(lows))
            checked += 1
    assert checked >= 25


def test_random_games_end_by_the_rules_with_a_durak_or_a_draw():
    cg = load(DURAK).compiled(2)
    ends = []
    for seed in range(200):
        st = cg.playout(seed, [random.Random(seed)._randbelow] * 2)
        assert st.outcome != "error", (seed, st.problem)
        ends.append(tuple(st.winners))
        hands = [len(st.zones[cg.zone_base["hand"] + s]) for s in (0, 1)]
        assert not st.zones[cg.zone_base["stock"]] and min(hands) == 0
        if st.winners:
            assert hands[st.winners[0]] == 0 and hands[1 - st.winners[0]] > 0
    assert ends.count(()) < 20 and ends.count((0,)) > 60 and ends.count((1,)) > 60


def test_the_reference_the_generated_code_and_the_fast_path_agree(monkeypatch):
    from closures import three_ways
    for seed in range(4):
        st = three_ways(DURAK, 2, seed, monkeypatch, ("winners", "vars", "decisions"))
        assert st.is_terminal()


def test_the_rulebook_says_the_trump_is_face_up_under_the_stock(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["rulebook", DURAK]) == 0
    out = capsys.readouterr().out
    assert "bottom card face up: every player sees its bottom card" in out
    assert "the top 6 - the number of cards in your Hand cards of the Stock" in out or \
        "cards of the Stock (all of them if it has fewer)" in out
    assert "the card directly under the top card of the Table in the Table" in out
