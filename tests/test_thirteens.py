"""examples/thirteens.cardrules (a patience: rank names, a rule parameter
first given `none`, and a move budget the rules declare) played against an independent
implementation of its rules written here in Python: at every decision the legal moves are the
ones this file computes from the table, and each game ends the way these rules say."""
import os
import random

import pytest

from rulelang.compile.loader import load

from closures import closures_only
from gametest import choices

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "examples", "thirteens.cardrules")
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank(name):
    r = name[:-1]
    return RANKS.get(r) or int(r)


def removable(table):
    """Independent: a king alone, or a card with another whose rank makes 13 with it."""
    out = set()
    for i, c in enumerate(table):
        if rank(c) == 13 or any(j != i and rank(c) + rank(d) == 13 for j, d in enumerate(table)):
            out.add(c)
    return out


def play(seed, moves=30, backend="generated", monkeypatch=None):
    if backend == "closures":
        closures_only(monkeypatch)
    game = load(PATH, {"moves": str(moves)})
    st = game.new_game(1, seed=seed, log=True)
    rng = random.Random(seed)
    chosen = None
    while not st.is_terminal():
        table = st.observation(0)["zones"]["table"]
        labels = choices(st)
        kinds = {l.split(" ")[0] for l in labels}
        if kinds == {"remove"}:
            assert {l.split(" ", 1)[1] for l in labels} == removable(table)
            label = rng.choice(sorted(labels))
            chosen = label.split(" ", 1)[1]
        else:
            assert kinds == {"partner"}
            want = {d for d in table if d != chosen and rank(d) + rank(chosen) == 13}
            assert {l.split(" ", 1)[1] for l in labels} == want
            label = rng.choice(sorted(labels))
        st.apply_action(labels[label])
    return st, [e[2] for e in st.log if e[0] == "say"]


@pytest.mark.parametrize("seed", range(1, 31))
def test_every_decision_and_ending_matches_the_independent_rules(seed):
    st, says = play(seed)
    assert st.problem is None
    table = st.observation(0)["zones"]["table"]
    stock = st.observation(0)["zones"]["stock"]["size"]
    last = says[-1]
    if st.winners:
        assert table == [] and stock == 0 and last == f"cleared in {st.turns} moves"
    elif last.startswith("no pair left: "):
        assert removable(table) == set() and st.turns < 30
        assert last == "no pair left: " + ", ".join(table)
    else:
        assert st.turns == 30 and removable(table)
        left = stock + len(table)
        assert last == (f"gave up after 30 moves: {left} cards left, "
                        + ("close" if left <= 10 else "far from it"))
    for line in says[:-1]:                       # ranks said by their names
        words = line.split(" ")
        assert words[0] in ("takes", "pairs")
        assert all(not w.isdigit() or 2 <= int(w) <= 10 for w in words)


def test_the_move_budget_ends_the_game_as_the_rules_say_not_with_rl901():
    st, says = play(1, moves=5)
    assert st.problem is None and st.turns == 5 and not st.winners
    assert says[-1].startswith("gave up after 5 moves: ")


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_won_game_in_both_backends(backend, monkeypatch):
    st, says = play(3, backend=backend, monkeypatch=monkeypatch)
    assert st.winners == [0] and says[-1] == "cleared in 28 moves"
    assert "takes the king" in says and any(s.startswith("pairs the queen with the ace") or
                                            s.startswith("pairs the ace with the queen") for s in says)
