"""The code generator writes every statement itself: every rule of every file that
checks is a generated function (the compiler has no other backend), and each statement the
generator once left to the closures (say, reveal, deal, the end of the game, every form of
move) plays as the reference interpreter of the tests (tests/reference) plays it: the same log, the same remembered cards, the same result,
the same run-time problem at the same place."""
import glob
import os
import random

import pytest

import rulelang.compile.compiler as C
from rulelang.compile.loader import load
from rulelang.syntax.diagnostics import RuleFileError

from closures import closures_only, not_generated
from gameprops import random_playout

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, "..")
FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
               + glob.glob(os.path.join(ROOT, "examples", "*.cardrules"))
               + glob.glob(os.path.join(HERE, "**", "*.cardrules"), recursive=True))


def _counts(game):
    lo, hi = game.players
    return sorted({lo, min(lo + 1, hi), hi})          # at most three


def _clean(path):
    try:
        return load(path)
    except (RuleFileError, UnicodeDecodeError, OSError):
        return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_rule_of_a_file_that_checks_is_a_generated_function(path):
    with open(path, "rb") as fh:
        head = fh.read(300)
    if head.startswith(b"# fuzz finding: hang") or b"RULELANG_SLOW" in head:
        pytest.skip("a reproducer of a hang: its class is tested in test_fuzz_grammar")
    game = _clean(path)
    if game is None:
        pytest.skip("does not check")
    for n in _counts(game):
        cg = C.CompiledGame(game.model, n)
        assert not_generated(cg) == []
        assert all(a is not None and a.body_pc >= 0 for a in cg.alternatives), n


def test_the_files_that_check_include_the_deep_nesting_found_by_the_fuzzer():
    """More than 20 loops one inside another: Python refused the generated function, and the
    rule ran as closures.  Now its outer statements are blocks of the function."""
    path = os.path.join(HERE, "fuzz_findings", "internal_check_SyntaxError_too_many_"
                        "statically_nested_blocks_codegen_py_code.cardrules")
    assert path in FILES and _clean(path) is not None


def _play(path, n, seeds, generated, max_steps=20_000):
    game = load(path)
    cg = C.CompiledGame(game.model, n)
    assert (not_generated(cg) == []) == generated
    out = []
    for seed in seeds:
        st = cg.new_game(seed=seed, log=True, max_steps=max_steps)
        if not st.is_terminal():
            random_playout(st, random.Random(seed))
        save = st.to_json()            # (the memory, the problem, the random numbers...)
        del save["stack"]              # (the rules being run when a problem stopped the game:
        out.append((st.log, save))     # a rule called as a Python function has no frame)
    return out


def _both(monkeypatch, path, n, seeds):
    fast = _play(path, n, seeds, True)
    with monkeypatch.context() as m:
        closures_only(m)
        slow = _play(path, n, seeds, False)
    return fast, slow


GAME = '''game "forms"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone pile: shared, top face up
zone table: shared, face up
zone hand: per player, seen by owner
zone kept: per player, face up
var points per player = 0
var round = 0
score: points of you
game ends when round > 5:
    {ending}
rule forms:
    if (number of cards in stock where suit of card is hearts) >= 2:
        move 2 cards where suit of card is hearts from stock to table
    move up to 3 cards where rank of card > 9 from stock to bottom of pile turned over
    move up to 2 cards where rank of card < 5 from hand to stock
    if table is not empty:
        move (bottom of table) and every card on top of it from table to kept
    move 2 cards from stock to hand turned over
    move 3 cards from hand to bottom of stock
    move all cards where rank of card is 7 from hand to table
    move all cards where suit of card is spades from kept to bottom of hand turned over
    move random card from stock to hand
    move bottom card from stock to bottom of hand
    move top card from hand to stock
    move random card from hand to bottom of pile
    move all but top card from pile to bottom of table turned over
    move all cards from table to bottom of stock
    move all cards from kept to hand turned over
    if hand is not empty:
        move (top of hand) from hand to bottom of kept
        reveal top of kept
        move top of kept and every card on top of it from kept to stock
    reveal top of pile
    reveal none
    say "hands:", the cards in hand, "pile:", the cards in pile, you, top of pile, round
    add rank of (random card of stock) to points of (random player)
    set points of (random player) to points of you + 1
    shuffle stock
setup:
    shuffle stock
    deal {deal} from stock to hand of each player{start}
    move top card from stock to pile
turn:
    add 1 to round
    forms
    choose:
        play card c from hand:
            move c from hand to pile
        pass if hand is empty:
            pass
'''

ENDINGS = ["end game by highest score", "end game by lowest score", "end game with no winner",
           "end game with winner next player", "end game with loser player 1",
           "end game with winners where points of player > 20",
           "end game with winners where points of player > 20, losers where points of player < 5"]


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_ending_plays_as_the_closures_play_it(ending, monkeypatch, tmp_path):
    text = GAME.format(ending=ending, deal="5", start="")
    path = tmp_path / "forms.cardrules"
    path.write_text(text, encoding="utf-8")
    fast, slow = _both(monkeypatch, str(path), 3, range(6))
    assert fast == slow
    assert all(save["problem"] is None and save["terminal"] for _, save in fast)


@pytest.mark.parametrize("deal,start", [("all", ""), ("4", " from next player"),
                                        ("round + 30", " from player 2")])
def test_every_deal_and_move_plays_as_the_closures_play_it(deal, start, monkeypatch, tmp_path):
    text = GAME.format(ending="end game by highest score", deal=deal, start=start)
    path = tmp_path / "forms.cardrules"
    path.write_text(text, encoding="utf-8")
    for n in (2, 3):
        fast, slow = _both(monkeypatch, str(path), n, range(5))
        assert fast == slow
        logs = [e[0] for log, *_ in fast for e in log]
        assert {"move", "reveal", "say", "end"} <= set(logs), set(logs)


PROBLEMS = {
    "RL902": "    move (top of stock) from hand to pile",
    "RL258": "    move 60 cards where rank of card > 0 from stock to pile",
    "RL910": "    add 999999999999999 to points of (random player)\n"
             "    add 999999999999999 to points of (random player)\n"
             "    add 999999999999999 to points of (random player)",
}


@pytest.mark.parametrize("code", sorted(PROBLEMS))
def test_run_time_problems_are_the_closures_problems(code, monkeypatch, tmp_path):
    text = GAME.format(ending="end game by highest score", deal="5", start="").replace(
        "    forms\n", PROBLEMS[code] + "\n    forms\n")
    path = tmp_path / "forms.cardrules"
    path.write_text(text, encoding="utf-8")
    fast, slow = _both(monkeypatch, str(path), 2, range(3))
    assert fast == slow
    assert {save["problem"]["code"] for _, save in fast} == {code}


DEEP = '''game "deep"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var count = 0
var round = 0
game ends when round > 2:
    end game with winners where count > 100
rule deep:
{body}
setup:
    shuffle stock
turn:
    add 1 to round
    deep
    choose:
        draw if stock is not empty:
            move top card from stock to hand
        wait:
            pass
'''


def _nest(depth, ind="    "):
    """Loops one inside another, ``depth`` of them, with an ``if``, a ``stop`` and words at each
    level: more than Python allows in one function without blocks (20 loops)."""
    lines = []
    for k in range(depth):
        pad = ind * (k + 1)
        kind = ("for each player q%d:" % k if k % 3 == 0 else
                "repeat 2 times:" if k % 3 == 1 else "for each card c%d in hand:" % k)
        lines.append(pad + kind)
        lines.append(pad + ind + "add 1 to count")
        lines.append(pad + ind + "if count > %d:" % (50 + 7 * k))
        lines.append(pad + ind * 2 + "say \"deep\", %d, count" % k)
        lines.append(pad + ind * 2 + "stop")
    return "\n".join(lines)


@pytest.mark.parametrize("depth", [9, 25])
def test_statements_nested_deeper_than_python_allows_are_generated(depth, monkeypatch, tmp_path):
    path = tmp_path / "deep.cardrules"
    path.write_text(DEEP.format(body=_nest(depth)), encoding="utf-8")
    fast, slow = _both(monkeypatch, str(path), 2, range(4))
    assert fast == slow
    assert any(e[0] == "say" for log, _ in fast for e in log)
