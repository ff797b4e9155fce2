"""The hand-written reference of the benchmarks is the same game as the rule file."""
import random

from benchmarks.reference.crazy_eights import play_game
from rulelang.compile.loader import load

from gameprops import random_playout


def test_reference_is_deterministic_and_conserves_cards():
    for n in (2, 3, 4):
        for seed in range(100):
            a = play_game(random.Random(seed), n, check=True)
            assert a == play_game(random.Random(seed), n)
            assert a[0] is not None


def test_reference_and_rule_file_agree_on_game_length():
    cg = load("examples/crazy_eights.cardrules").compiled(4)
    ref = [play_game(random.Random(s), 4)[1] for s in range(1500)]
    ours = []
    for s in range(1500):
        st = cg.new_game(seed=s)
        random_playout(st, random.Random(s))
        ours.append(st.decisions)
    a, b = sum(ours) / len(ours), sum(ref) / len(ref)
    assert abs(a - b) / b < 0.06, (a, b)
