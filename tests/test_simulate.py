"""check --simulate: random games find the runtime problems of a rule file."""
import glob
import os

import pytest

from rulelang.play.simulate import option_settings, simulate
from rulelang.compile.loader import load

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def sim(name, n=3):
    return simulate(os.path.join(HERE, "simulate", name + ".cardrules"), n)


def test_a_game_that_never_ends_points_at_the_turn():
    diags = sim("never_ends")
    assert [d.code for d in diags] == ["RL901"]
    assert diags[0].span.line == 10 and "2 players" in diags[0].message


def test_a_card_moved_from_where_it_is_not_is_found_with_the_option_on():
    diags = sim("card_moved_twice")
    assert [d.code for d in diags] == ["RL902"]
    assert diags[0].span.line == 17 and "--set double=yes" in diags[0].message


def test_no_legal_choice_is_found_for_the_player_count_where_it_happens():
    diags = sim("no_choice", 5)
    assert {d.code for d in diags} == {"RL904"}
    assert all("4 players" in d.message for d in diags)


def test_a_move_from_an_empty_zone_is_a_warning_at_the_move():
    diags = sim("empty_stock", 5)
    assert [(d.code, d.severity, d.span.line) for d in diags] == [("RL906", "warning", 18)]
    assert "stock, which was empty" in diags[0].message


def test_option_settings_try_each_choice_and_flag_once():
    game = load(os.path.join(HERE, "simulate", "card_moved_twice.cardrules"))
    assert option_settings(game) == [{}, {"double": "yes"}]


def test_errors_in_the_file_are_returned_instead_of_playing():
    diags = simulate(os.path.join(HERE, "errors", "unknown_zone.cardrules"), 2)
    assert [d.code for d in diags] == ["RL101"]


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "examples", "*.cardrules"))
                                        + glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))),
                         ids=os.path.basename)
def test_the_real_rule_files_have_no_runtime_problems(path):
    diags = simulate(path, 3)
    # (sevens_strict once passed for ever when nobody could play: the game now ends then.)
    assert [d for d in diags if d.is_error] == []


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(HERE, "simulate", "*.cardrules")))
                         + [os.path.join(ROOT, "rules", "ciq.cardrules"),
                            os.path.join(ROOT, "examples", "sevens.cardrules")],
                         ids=os.path.basename)
def test_the_fast_path_finds_what_the_api_finds(path):
    """play_one plays on the fast path and goes back to the API only when something went wrong:
    per game, the same problem (or none) and the same moves from empty zones as the API alone.
    (A budget of 20,000 steps, not the default 200,000: never_ends.cardrules plays every game
    to the budget on both paths, the same stop at a tenth of the cost.)"""
    from rulelang.play.simulate import _play_one_api, _watched, play_one
    for setting in option_settings(load(path)):
        game = load(path, setting)
        lo, hi = game.players
        for n in range(lo, min(hi, lo + 2) + 1):
            watched = _watched(game, n).empty_moves
            for seed in range(4):
                fast = play_one(game, n, seed, max_steps=20_000)
                fast_moves = dict(watched)
                watched.clear()
                api = _play_one_api(game, n, seed, max_steps=20_000)
                assert (fast, fast_moves) == (api, dict(watched)), (setting, n, seed)
                watched.clear()


LONG = """game "Long"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var rounds = 0
setup:
    shuffle stock
    deal 2 from stock to hand of each player
turn:
    choose:
        tap:
            add 1 to rounds
        wait:
            add 1 to rounds
game ends when rounds is 300:
    end game with winner you
"""


def test_the_fast_path_has_no_budget_of_decisions_and_finds_the_same(tmp_path, monkeypatch):
    """play_one's playout has no budget of decisions, so it goes on in the
    structured turn of the playout variants; the game's budget of steps bounds it.  A game of
    more than MAX_DECISIONS decisions that ends is found as before, by the game played again
    through the API, which stops at MAX_DECISIONS: RL901, at the turn."""
    from rulelang.engine.runtime import State
    from rulelang.play import simulate as S
    budgets = []
    real = State.playout

    def playout(self, policy, max_decisions=None, *args, **kw):
        budgets.append(max_decisions)
        return real(self, policy, max_decisions, *args, **kw)
    monkeypatch.setattr(State, "playout", playout)
    path = tmp_path / "long.cardrules"
    path.write_text(LONG)
    game = load(str(path))
    assert S.play_one(game, 2, 0) is None and budgets == [None]   # 300 decisions: ended
    monkeypatch.setattr(S, "MAX_DECISIONS", 200)
    found = S.play_one(game, 2, 0)
    assert found[0] == "RL901" and "within 200 decisions" in found[1] and found[2].line == 10
    assert found == S._play_one_api(game, 2, 0)


def test_a_game_where_nobody_ever_decides_is_an_error_at_the_turn():
    """A forgotten `setup:`: the hands are empty, so every game ends at once, "Player 1 wins!
    (0 decisions)".  `check` only warns (RL150); the games played show that nobody ever
    decides anything, an error of the file (RL909)."""
    diags = sim("no_setup")
    assert [(d.code, d.severity, d.span.line) for d in diags] == [("RL909", "error", 8)]
    assert "all 9 random games" in diags[0].message and "setup" in diags[0].hint


def test_a_game_where_one_setting_decides_is_not_reported(tmp_path):
    """RL909 is about the whole file: an option under which the game starts ended is not an
    error when another setting plays."""
    text = open(os.path.join(HERE, "simulate", "no_setup.cardrules"), encoding="utf-8").read()
    text = text.replace("turn:", "option deal = yes\nsetup:\n    if deal:\n        shuffle stock\n"
                        "        deal 5 from stock to hand of each player\n"
                        "        move top card from stock to discard\nturn:", 1)
    text += "game ends when stock is empty:\n    end game with no winner\n"
    path = tmp_path / "dealt.cardrules"
    path.write_text(text, encoding="utf-8")
    assert [d.code for d in simulate(str(path), 3) if d.is_error] == []
    path.write_text(text.replace("option deal = yes", "option deal = no"), encoding="utf-8")
    assert [d.code for d in simulate(str(path), 3) if d.is_error] == []
