"""Auction Pitch (examples/auction_pitch.cardrules, docs/games/auction_pitch.md): the auction by
name, the play (follow suit or trump), the points and the end, through the API, the fast path
and the reference interpreter.  The rulebook's worked examples are rule tests in
examples/auction_pitch.cardtest, run here too."""
import os
import random

from rulelang.cli.commands import main
from rulelang.compile.loader import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PITCH = os.path.join(ROOT, "examples", "auction_pitch.cardrules")
BIDS = ["bid 2", "bid 3", "bid 4", "bid smudge"]


def _game():
    return load(PITCH)


def _call(st, words):
    st.apply_action(next(a for a in st.legal_actions() if st.action_to_string(a) == words))


def test_the_rule_tests_of_the_worked_examples_pass(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["test", os.path.join(ROOT, "examples", "auction_pitch.cardtest")]) == 0
    assert "6 passed" in capsys.readouterr().out


def test_the_bids_are_shown_by_name_to_the_bidder_the_others_and_the_transcript():
    st = _game().new_game(seed=3, log=True)
    assert st.current_player() == 1                      # player 1 deals, player 2 bids first
    assert [st.action_to_string(a) for a in st.legal_actions()] == BIDS + ["pass"]
    _call(st, "bid 3")
    assert [st.action_to_string(a) for a in st.legal_actions()] == ["bid 4", "bid smudge", "pass"]
    seen = st.observation(0)                             # player 1's view of the table
    assert seen["vars"]["contract"] == "3" and seen["vars"]["pitcher"] == "player 2"
    assert not any(name.startswith(" ") for name in seen["vars"])
    _call(st, "pass")
    _call(st, "pass")
    _call(st, "pass")
    assert st.current_player() == 1                      # the pitcher leads
    assert all(st.action_to_string(a).startswith("play ") for a in st.legal_actions())


def _play_checking(st, rng, seen):
    """Random play to the end; at each play of a card, the cards offered are those the rules
    allow: the suit led or a trump, or any card when the hand has none of the suit led."""
    g = st.game
    while not st.is_terminal():
        legal = st.legal_actions()
        words = [st.action_to_string(a) for a in legal]
        shown = g.describe_vars(st)
        if words[0].startswith("play ") and shown["trump"] != "no suit":
            hand = st.observation(st.current_player())["zones"][f"hand/{st.current_player() + 1}"]
            trick = st.observation(st.current_player())["zones"]["trick"]
            if trick:
                led = trick[0][-1]
                trump = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}[shown["trump"]]
                allowed = [c for c in hand if c[-1] in (led, trump)]
                if not any(c[-1] == led for c in hand):
                    allowed = hand
                assert sorted(w[5:] for w in words) == sorted(allowed), (hand, trick, words)
                seen["checked"] += 1
        if words[0] in BIDS + ["pass"] and "pass" not in words:
            seen["stuck"] += 1                           # the dealer after three passes
        st.apply_action(rng.choice(legal))


def test_random_games_follow_suit_or_trump_and_end_with_a_winner_at_the_target():
    cg = _game().compiled(4)
    seen = {"checked": 0, "stuck": 0}
    for seed in range(12):
        st = cg.new_game(seed=seed)
        _play_checking(st, random.Random(seed), seen)
        winners = [i for i, r in enumerate(st.results()) if r == "win"]
        assert len(winners) == 1
        points = st.game.describe_vars(st)["points"]
        assert int(points[winners[0]]) >= 7 or st.game.describe_vars(st)["contract"] == "smudge"
    assert seen["checked"] > 500 and seen["stuck"] > 0


def test_a_higher_target_makes_longer_games():
    game = _game()
    short = [game.compiled(4).new_game(seed=s) for s in range(6)]
    long = [load(PITCH, overrides={"target": 15}).compiled(4).new_game(seed=s) for s in range(6)]
    for st in short + long:
        st.playout([random.Random(7).randrange] * 4)
    assert sum(st.decisions for st in long) > sum(st.decisions for st in short)


def test_the_reference_the_generated_code_and_the_fast_path_agree(monkeypatch):
    from closures import three_ways
    for seed in range(2):
        st = three_ways(PITCH, 4, seed, monkeypatch, ("winners", "vars", "decisions"))
        assert st.is_terminal()


def test_the_rulebook_says_the_auction():
    from rulelang.cli import rulebook as RB
    from rulelang.cli.rulebook_cmd import rulebook_of
    book = RB.to_markdown(rulebook_of(_game())).replace("\\", "")
    assert ("An auction over the bid values: contract becomes none and pitcher nobody; then, "
            "round the table in the order of play starting with the player after dealer, each "
            "player in turn makes one call:") in book
    assert ("**pass**: Allowed only if either pitcher is not none or you is not dealer. The "
            "player passes.") in book
    assert ("The auction ends when every player has made one call or at once when contract is "
            "smudge.") in book
