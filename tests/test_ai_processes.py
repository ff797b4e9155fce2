"""ProcessGames (rulelang/ai/processes.py): the batched games on worker processes give what
one VectorGames gives, array for array, through the games that end, an illegal action, a reset
and a reset without a seed; close() ends the workers."""
import pytest

from rulelang.syntax.diagnostics import RuleFileError

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from rulelang.ai.processes import ProcessGames  # noqa: E402
from rulelang.ai.vector import VectorGames  # noqa: E402


def _same(a, b):
    assert set(a) == set(b)
    for k in a:
        if isinstance(a[k], np.ndarray) and a[k].dtype != object:
            assert np.array_equal(a[k], b[k]), k
        elif isinstance(a[k], np.ndarray):
            for x, y in zip(a[k], b[k]):
                if isinstance(x, dict):
                    assert x.keys() == y.keys()
                    for kk in x:
                        assert np.array_equal(x[kk], y[kk]) if isinstance(x[kk], np.ndarray) \
                            else x[kk] == y[kk]
                else:
                    assert x == y


@pytest.mark.parametrize("path,players", [("examples/crazy_eights.cardrules", 2),
                                          ("rules/internecine.cardrules", 2)])
def test_workers_give_what_one_env_gives(path, players):
    B = 5
    one = VectorGames(path, B, players=players)
    many = ProcessGames(path, B, players=players, workers=2)
    procs = list(many._procs)
    try:
        assert many.bounds == [(0, 2), (2, 5)]
        rng = np.random.default_rng(0)
        ended = 0
        for seed in (3, None):
            o1, i1 = one.reset(seed=seed)
            o2, i2 = many.reset(seed=seed)
            _same(o1, o2)
            _same(i1, i2)
            for step in range(120):
                mask = o1["action_mask"]
                actions = np.argmax(rng.random(mask.shape) * mask, axis=-1)
                if step == 7:
                    actions[1] = (actions[1] + 1) % one.n_actions     # an illegal action
                r1 = one.step(actions)
                r2 = many.step(actions)
                o1 = r1[0]
                _same(r1[0], r2[0])
                for x, y in zip(r1[1:4], r2[1:4]):
                    assert np.array_equal(x, y)
                _same(r1[4], r2[4])
                ended += int(r1[2].sum())
        assert ended > 0
    finally:
        many.close()
    assert len(procs) == 2 and all(not p.is_alive() for p in procs) and many.closed


def test_a_missing_rule_file_fails_before_any_worker_starts(tmp_path):
    with pytest.raises(RuleFileError):
        ProcessGames(str(tmp_path / "missing.cardrules"), 2, workers=2)
