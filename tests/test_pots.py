"""Chips and pots: the aggregates over players that pots are counted with
(`total of V among players [where C]`, `highest/lowest V among players where C`), on both
backends; and the side pots of examples/stud.cardrules checked against a plain-Python splitter
over many seeded games."""
import pathlib
import random
import re

import pytest

from rulelang.compile.loader import check_file, load
from rulelang.play.scenario import var

from closures import closures_only
from gametest import choices

GAME = '''game "g"
players 4
deck standard, into stock
zone stock: shared, face down
var put per player = 0
var folded per player = no
setup:
    set put of player 1 to 5
    set put of player 2 to 7
    set put of player 3 to 2
    set put of player 4 to 9
    set folded of player 3 to yes
    remove player 4 from the game
turn:
    say total of put of player among players, total of put of player among players where not folded of player
    say highest put of player among players where folded of player, lowest put of player among players where put of player > 3
    say total of (put of player if put of player < 6 else 6) among players
    say highest put of player among players where put of player > 100, total of put of player among players where no
    say highest put of player among players, lowest put of player among players
    end game with no winner
'''

SAID = [
    "14 12",        # player 4 is out: not counted
    "2 5",
    "13",           # 5 + 6 + 2
    "0 0",          # nobody: 0
    "7 2",
]


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_aggregates_over_players(tmp_path, monkeypatch, backend):
    path = tmp_path / "g.cardrules"
    path.write_text(GAME, encoding="utf-8")
    assert check_file(str(path))[0] == []
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(str(path)).new_game(4, seed=1, log=True)
    assert st.is_terminal() and st.problem is None
    assert [e[2] for e in st.log if e[0] == "say"] == SAID


def test_the_condition_is_a_flag_about_player(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(GAME.replace("where not folded of player", "where put of player"),
                    encoding="utf-8")
    diags = check_file(str(path))[0]
    assert [(d.code, d.span.line) for d in diags] == [("RL102", 15)]


# ---- the side pots of examples/stud.cardrules, against a plain-Python splitter -----------------
ROOT = pathlib.Path(__file__).resolve().parent.parent


def split_pots(put, folded, strength, order):
    """What each seat wins: the classic peeling of side pots.  `put` is what each seat put in
    this hand, `folded` who folded, `strength` the showdown values, `order` the seats from the
    dealer's left (who gets the chips that do not divide)."""
    left = list(put)
    won = [0] * len(put)
    while any(left[p] > 0 and not folded[p] for p in range(len(put))):
        step = min(left[p] for p in range(len(put)) if left[p] > 0 and not folded[p])
        can = [p for p in range(len(put)) if left[p] > 0 and not folded[p]]
        pot = sum(min(x, step) for x in left)
        left = [x - min(x, step) for x in left]
        best = max(strength[p] for p in can)
        winners = [p for p in order if p in can and (len(can) == 1 or strength[p] == best)]
        for i, p in enumerate(winners):
            won[p] += pot // len(winners) + (1 if i < pot % len(winners) else 0)
    assert not any(left), "chips of folded players that no pot takes"
    return won


def _stud_with_a_pause(tmp_path, stake):
    """examples/stud.cardrules with a decision (`pay`) at the start of `pay_pots`, where the
    test reads the stakes; the rule's body is the example's own, copied from the file."""
    text = (ROOT / "examples" / "stud.cardrules").read_text(encoding="utf-8")
    body = re.search(r"^rule pay_pots:\n((?:    .*\n|\n)*)", text, re.M).group(1)
    for name in ("stud.cardrules", "showdown.cardrules"):
        (tmp_path / name).write_text((ROOT / "examples" / name).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    (tmp_path / "paused.cardrules").write_text(
        'extends "stud.cardrules"\nreplace rule pay_pots:\n    choose:\n        pay:\n'
        '            pass\n' + body, encoding="utf-8")
    path = str(tmp_path / "paused.cardrules")
    assert check_file(path)[0] == []
    return load(path, {"stake": stake})


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_side_pots_agree_with_a_plain_splitter(tmp_path, players):
    games = {stake: _stud_with_a_pause(tmp_path, stake) for stake in (3, 8, 20)}
    rng = random.Random(players)
    hands = side = 0
    for seed in range(60):
        st = games[rng.choice([3, 8, 20])].new_game(players, seed=seed)
        stakes = None
        total = sum(var(st, f"chips/{p + 1}") + var(st, f"put/{p + 1}") for p in range(players))
        while not st.is_terminal():
            if stakes is not None:          # the first decision after a payout, or the end
                put, folded, strength, before, order = stakes
                won = split_pots(put, folded, strength, order)
                after = [var(st, f"chips/{p + 1}") + var(st, f"put/{p + 1}") for p in range(players)]
                assert [b + w for b, w in zip(before, won)] == after, (seed, stakes)
                stakes = None
            names = choices(st)
            if "pay" in names:
                put = [var(st, f"put/{p + 1}") for p in range(players)]
                folded = [bool(var(st, "folded") >> p & 1) for p in range(players)]   # a set
                strength = [var(st, f"strength/{p + 1}") for p in range(players)]
                before = [var(st, f"chips/{p + 1}") for p in range(players)]
                dealer = st.current_player()
                order = [(dealer + k) % players for k in range(1, players + 1)]
                stakes = (put, folded, strength, before, order)
                hands += 1
                levels = {put[p] for p in range(players) if not folded[p]}
                side += len(levels) > 1
                st.apply_action(names["pay"])
            else:
                st.apply_action(rng.choice(list(names.values())))
        if stakes is not None:
            put, folded, strength, before, order = stakes
            won = split_pots(put, folded, strength, order)
            assert [b + w for b, w in zip(before, won)] == \
                [var(st, f"chips/{p + 1}") for p in range(players)], (seed, stakes)
        assert st.problem is None
        assert sum(var(st, f"chips/{p + 1}") for p in range(players)) == total
    assert hands > 60
    if players > 2:
        assert side > 10         # side pots were made and paid, not only main pots


def test_the_rule_tests_of_stud_pass(capsys, monkeypatch):
    """examples/stud.cardtest: all in, a main pot and a side pot, an uncalled bet coming back,
    a split pot with its odd chip, a player who loses every chip leaving the game."""
    from rulelang.cli.commands import main
    monkeypatch.setenv("NO_COLOR", "1")
    status = main(["test", str(ROOT / "examples" / "stud.cardtest")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.count("  PASS  ") == 4 and "FAIL" not in out
