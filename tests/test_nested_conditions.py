"""Conditions over cards inside one another are charged what they really cost (docs/security.md,
"The work of one step"): the step budget bounds a run however deep they nest.

The file of the tests: three defines, each `number of cards in stock where` over the one below,
on a deck of 1,023 cards (31 suits of 33 ranks).  It checks clean; each turn looks at
1,023^3 cards (a billion), which took minutes per turn while a condition inside a condition was
counted once, as if its zone held one card."""
import json
import os
import subprocess
import sys
import time

import pytest

from rulelang.compile.loader import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def deck(suits=31, ranks=33):
    return ("deck type big:\n"
            f"    suits {', '.join(f's{i}' for i in range(suits))}\n"
            f"    ranks {', '.join(f'r{i} = {i + 1}' for i in range(ranks))}\n\n")


def nest(levels=3, zone="stock", suits=31, ranks=33):
    defines = ["define d1(c) = number of cards in ZONE where rank of card > rank of c"]
    for k in range(2, levels):
        defines.append(f"define d{k}(c) = number of cards in ZONE where d{k - 1}(card) > rank of c")
    defines.append(f"define d{levels} = number of cards in ZONE where d{levels - 1}(card) > 0")
    return ('game "Nest"\nplayers 2\n\n' + deck(suits, ranks) +
            "deck big, into stock\n\nzone stock: shared, face down\n"
            "zone hand: per player, seen by owner\n\n"
            + "\n".join(defines).replace("ZONE", zone) + "\n\n"
            "game ends when stock is empty:\n    end game with winner you\n\n"
            "setup:\n    shuffle stock\n    deal 3 from stock to hand of each player\n\n"
            f"turn:\n    choose:\n        draw if d{levels} >= 0:\n"
            "            move top card from stock to hand\n")


def cli(tmp_path, text, *args, timeout=120):
    path = tmp_path / "nest.cardrules"
    path.write_text(text, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=ROOT, NO_COLOR="1")
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "rulelang", *args, str(path)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode != 3, proc.stdout + proc.stderr
    return proc.returncode, proc.stdout + proc.stderr, time.monotonic() - t0


def test_the_file_checks_clean(tmp_path):
    status, out, _ = cli(tmp_path, nest(), "check")
    assert status == 0, out


@pytest.mark.parametrize("levels", [3, 4])
def test_run_with_a_small_budget_stops_at_once(tmp_path, levels):
    status, out, took = cli(tmp_path, nest(levels), "run", "--json", "--max-steps", "10")
    problem = json.loads(out[:out.rindex("}") + 1])["problem"]
    assert status == 1 and problem["code"] == "RL901", out
    assert "evaluated more than 1000000 parts" in problem["message"]
    assert took < 30, took


def test_check_simulate_stops_within_the_budget(tmp_path):
    status, out, took = cli(tmp_path, nest(), "check", "--simulate", "1", timeout=300)
    assert status == 1 and "error[RL901]" in out and "in a random game" in out, out
    assert "evaluated more than 100000000 parts" in out
    assert took < 120, took


def test_what_is_charged_is_what_the_loops_look_at(tmp_path):
    """The same nest over the few cards of a hand costs a few looks a turn, not 1,023^3: the
    game plays to its end with the default budget, its work far below the bound."""
    path = tmp_path / "small.cardrules"
    path.write_text(nest(zone="hand", suits=4, ranks=5), encoding="utf-8")
    st = load(str(path)).compiled(2).new_game(seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.problem is None and st.winners, st.problem
    assert 0 < st.work < 100_000


def test_the_work_in_loops_is_saved_and_resumed(tmp_path):
    path = tmp_path / "small.cardrules"
    path.write_text(nest(zone="hand", suits=4, ranks=5), encoding="utf-8")
    cg = load(str(path)).compiled(2)
    st = cg.new_game(seed=1)
    for _ in range(3):
        st.apply_action(st.legal_actions()[0])
    data = st.to_json()
    assert data["work"] == st.work > 0
    again = type(st).from_json(cg, json.loads(json.dumps(data)))
    assert again.work == st.work


def test_a_game_that_looks_at_the_deck_in_a_nest_at_each_turn_stops_by_its_work(tmp_path):
    """Two levels over 1,023 cards (a million looks a turn) are not refused: the run stops when
    its loops have evaluated max_steps * 1000 parts, after a few turns of a 2,000-step budget."""
    text = nest(2)
    status, out, took = cli(tmp_path, text, "run", "--json", "--max-steps", "2000")
    res = json.loads(out[:out.rindex("}") + 1])
    assert status == 1 and res["problem"]["code"] == "RL901", out
    assert res["turns"] < 2, res
    assert took < 60, took


def test_a_statement_looping_over_the_cards_charges_the_loops_of_its_condition(tmp_path):
    """`move all cards where C` looks at C for each card: the loop of ``d1`` inside it makes
    two levels (a million looks a turn), charged like those of an expression."""
    text = nest(3).replace("        draw if d3 >= 0:\n            move top card from stock to hand\n",
                           "        draw:\n            move all cards where d1(card) > 5000 from"
                           " stock to hand\n            move top card from stock to hand\n")
    assert "move all cards where d1(card)" in text
    status, out, took = cli(tmp_path, text, "run", "--json", "--max-steps", "10")
    problem = json.loads(out[:out.rindex("}") + 1])["problem"]
    assert status == 1 and problem["code"] == "RL901", out
    assert "evaluated more than 1000000 parts" in problem["message"], problem
    assert took < 30, took
