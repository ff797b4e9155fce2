"""A search over cards inside a loop keeps its charge to the work in loops in a local, compared
with the floor first (compile/passes.py: `work_held`): the same work counted and the same stop
(RL901) where the work passes its bound, through the API and on the fast path."""
import random

from rulelang.limits import LOOP_WORK_FLOOR
from rulelang.compile.loader import load

from gameprops import random_playout

CIQ = "rules/ciq.cardrules"


def _search_sources(cg):
    """The generated functions of the game that charge a search's work (their names read)."""
    cg.playout_procs()
    return [v for v in cg.gen.ns.values()
            if "work" in getattr(getattr(v, "__code__", None), "co_names", ())
            and "max_steps" in v.__code__.co_names]


def test_the_charge_is_held_where_the_pass_is_on():
    game = load(CIQ)
    on, off = game.compiled(4), game.compiled(4, optimize="-work_held")
    held = [f for f in _search_sources(on) if "_w" in f.__code__.co_varnames]
    assert held                     # CIQ's `attack_defense_pile`: a search for each opponent
    assert not [f for f in _search_sources(off) if "_w" in f.__code__.co_varnames]


def _played_from(cg, seed, work):
    """A game whose work in loops starts just below ``work``, played at random to its end."""
    st = cg.new_game(seed=seed, log=True)
    st.work = work
    random_playout(st, random.Random(seed))
    return st


def test_the_same_work_and_the_same_stop_on_and_off():
    game = load(CIQ)
    on, off = game.compiled(4), game.compiled(4, optimize="-work_held")
    stops = 0
    for seed in range(6):
        for work in (0, LOOP_WORK_FLOOR - 500, 4 * 10 ** 9):
            a, b = _played_from(on, seed, work), _played_from(off, seed, work)
            assert a.log == b.log and a.to_json() == b.to_json(), (seed, work)
            stops += "RL901" in repr(a.to_json())
    assert stops                    # (the bound was reached, and stopped both alike)
    for seed in range(6):
        fa = on.playout(seed, [random.Random(seed).randrange] * 4)
        fb = off.playout(seed, [random.Random(seed).randrange] * 4)
        assert fa.to_json() == fb.to_json() and fa.work == fb.work > 0
