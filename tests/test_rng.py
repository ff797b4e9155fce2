"""The game's random generator: its shuffle worked out from a plan (every state at once) is the
shuffle drawn one number at a time, card for card and state for state."""
from hypothesis import given, settings, strategies as st

from rulelang.engine import rng as R
from rulelang.engine.rng import Rng


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=0, max_value=R.PLANNED + 40),
       st.integers(min_value=1, max_value=3))
def test_shuffle_is_the_stepwise_shuffle(seed, n, times):
    a, b = Rng(seed), Rng(seed)
    written_after, R.WRITTEN_AFTER = R.WRITTEN_AFTER, 0     # (every length written at once)
    try:
        _alike(a, b, n, times)
    finally:
        R.WRITTEN_AFTER = written_after


def _alike(a, b, n, times):
    for t in range(times):
        xa, xb = list(range(n + t)), list(range(n + t))
        a.shuffle(xa)
        b.shuffle_stepwise(xb)
        assert xa == xb
        assert a.s == b.s
        assert a.randbelow(1000) == b.randbelow(1000)       # and it goes on alike


def test_plans_are_bounded_and_longer_lists_go_one_draw_at_a_time(monkeypatch):
    monkeypatch.setattr(R, "_PLANS", {})
    monkeypatch.setattr(R, "_SHUFFLED", {})
    r = Rng(7)
    for _ in range(R.WRITTEN_AFTER + 1):
        for n in list(range(0, 3 * R.PLANNED, 7)) + [R.LONGEST + 1]:
            r.shuffle(list(range(n)))
    long = [n for n in R._PLANS if n > R.PLANNED]
    assert 0 < len(R._PLANS) <= R.PLANNED - R.SHORT + 1 + R.LONG_PLANS
    assert R.SHORT <= min(R._PLANS) and max(R._PLANS) <= R.LONGEST
    assert len(long) == R.LONG_PLANS          # the first long lengths shuffled often


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1),
       st.sampled_from([R.PLANNED + 1, 432, 648, 972, R.LONGEST]))
def test_a_long_shuffle_written_out_is_the_stepwise_shuffle(seed, n):
    """A deck of several packs for many players: its shuffle written out (a length above
    PLANNED) gives the cards and state of the one drawn a number at a time."""
    written_after, R.WRITTEN_AFTER = R.WRITTEN_AFTER, 0
    plans, R._PLANS = R._PLANS, {}
    try:
        _alike(Rng(seed), Rng(seed), n, 2)
        assert n in R._PLANS
    finally:
        R.WRITTEN_AFTER = written_after
        R._PLANS = plans


def test_a_length_is_written_out_only_once_shuffled_often(monkeypatch):
    """A length's function is written on its WRITTEN_AFTER + 1-th shuffle: the
    shuffles before it go one draw at a time, the same cards and state either way."""
    monkeypatch.setattr(R, "_PLANS", {})
    monkeypatch.setattr(R, "_SHUFFLED", {})
    a, b = Rng(3), Rng(3)
    for t in range(R.WRITTEN_AFTER + 2):
        xa, xb = list(range(40)), list(range(40))
        a.shuffle(xa)
        b.shuffle_stepwise(xb)
        assert xa == xb and a.s == b.s
        assert (40 in R._PLANS) == (t >= R.WRITTEN_AFTER)


def test_a_known_shuffle():
    """Seed 1's first shuffle of ten cards, written down when the generator was chosen: a change
    of the shuffle would change every seeded game (and every golden transcript)."""
    for shuffle in (Rng.shuffle, Rng.shuffle_stepwise):
        x = list(range(10))
        shuffle(Rng(1), x)
        assert x == [2, 7, 6, 0, 4, 9, 1, 8, 5, 3]
