"""Batched environments (rulelang/ai/vector.py): many games stepped behind one call, as the
same number of PettingZoo parallel envs stepped one by one would play them; skipped when the
`ai` extra is not installed."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from rulelang.ai.pettingzoo import parallel_env  # noqa: E402
from rulelang.ai.vector import VectorGames  # noqa: E402

CRAZY = "examples/crazy_eights.cardrules"
INTERNECINE = "rules/internecine.cardrules"


def _choose(rng, mask):
    """A random legal action for every (game, seat) row of the masks (0 where none)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=-1)


def test_shapes_spaces_and_masks_of_the_legal_actions():
    v = VectorGames(CRAZY, 5, players=3)
    obs, infos = v.reset(seed=1)
    assert obs["observation"].shape == (5, 3, v.enc.size)
    assert obs["action_mask"].shape == (5, 3, v.enc.actions.size)
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert v.observation_space.contains(obs) and infos["deciding"].shape == (5, 3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        for i, st in enumerate(v.states):
            for s in range(3):
                ids = list(np.flatnonzero(obs["action_mask"][i, s]))
                if s in st.current_players():
                    assert infos["deciding"][i, s]
                    assert ids == v.enc.legal_ids(st, s)
                else:
                    assert ids == [v.enc.actions.wait]
                assert np.array_equal(obs["observation"][i, s],
                                      np.asarray(v.enc.observation(st, s), dtype=np.float32))
        actions = _choose(rng, obs["action_mask"])
        assert v.action_space.contains(actions.astype(np.int64))
        obs, rewards, term, trunc, infos = v.step(actions)
        assert rewards.shape == (5, 3) and term.shape == trunc.shape == (5,)


@pytest.mark.parametrize("path,players", [(CRAZY, 2), (INTERNECINE, 2)])
def test_the_same_games_as_parallel_envs_stepped_one_by_one(path, players):
    """Each game of the batch is the parallel env reset with seed + i, step for step, through
    the games that end (reset in place, the ended game's observation in final_obs) and the
    next ones of its sequence."""
    B = 3
    v = VectorGames(path, B, players=players)
    envs = [parallel_env(path, players=players) for _ in range(B)]
    obs, _ = v.reset(seed=10)
    single = [e.reset(seed=10 + i)[0] for i, e in enumerate(envs)]
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        for i, e in enumerate(envs):
            for s, a in enumerate(e.possible_agents):
                assert np.array_equal(obs["observation"][i, s], single[i][a]["observation"])
                assert np.array_equal(obs["action_mask"][i, s], single[i][a]["action_mask"])
        actions = _choose(rng, obs["action_mask"])
        obs, rewards, term, trunc, infos = v.step(actions)
        for i, e in enumerate(envs):
            o, r, t, _, _ = e.step({a: actions[i, s] for s, a in enumerate(e.possible_agents)})
            assert [r[a] for a in e.possible_agents] == list(rewards[i])
            assert all(t.values()) == term[i]
            if term[i]:
                ended += 1
                final = infos["final_obs"][i]
                for s, a in enumerate(e.possible_agents):
                    assert np.array_equal(final["observation"][s], o[a]["observation"])
                    assert np.array_equal(final["action_mask"][s], o[a]["action_mask"])
                o, _ = e.reset()                 # the next game of its sequence
            elif "_final_obs" in infos:
                assert not infos["_final_obs"][i]
            single[i] = o
    assert ended >= 3


def test_an_illegal_action_ends_its_game_and_only_that_one():
    v = VectorGames(CRAZY, 2, players=2)
    obs, infos = v.reset(seed=4)
    actions = np.argmax(obs["action_mask"], axis=-1)
    seat = int(np.flatnonzero(infos["deciding"][0])[0])
    legal = np.flatnonzero(obs["action_mask"][0, seat])
    actions[0, seat] = next(a for a in range(v.enc.actions.size) if a not in legal)
    before = v.states[1]
    obs, rewards, term, _, infos = v.step(actions)
    assert list(term) == [True, False]
    assert rewards[0, seat] == -1.0 and rewards[0, 1 - seat] == 0.0
    assert infos["final_info"][0] == {"illegal": seat}
    assert not infos["final_obs"][0]["action_mask"].any()
    assert v.states[1] is before and v.states[0].decisions == 0


def test_observe_deciding_writes_only_the_deciding_rows():
    a = VectorGames(CRAZY, 4, players=3, observe="deciding")
    b = VectorGames(CRAZY, 4, players=3)
    oa, ia = a.reset(seed=2)
    ob, _ = b.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(30):
        d = ia["deciding"]
        assert np.array_equal(oa["observation"][d], ob["observation"][d])
        assert not oa["observation"][~d].any()
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        actions = _choose(rng, oa["action_mask"])
        oa, ra, _, _, ia = a.step(actions)
        ob, rb, _, _, _ = b.step(actions)
        assert np.array_equal(ra, rb)


def test_a_linear_policy_learns_to_beat_random():
    """benchmarks/learn.py, short: policy gradient on the batched games of Mages Wild (where
    `mc` beats `random` in most games) for a few seconds; sampling its actions, the trained
    policy's margin over `random` (wins - losses, per game) is clearly above the untrained
    policy's, which plays as `random` does."""
    from benchmarks.learn import LinearPolicy, evaluate, margin, train
    path = "rules/mages_wild.cardrules"
    pol, games = train(path, 2, 12, 32, seed=1)
    assert games > 50
    before = evaluate(LinearPolicy(pol.W.shape[1], pol.W.shape[0], np.random.default_rng(1)),
                      path, 2, 200, 5000)
    after = evaluate(pol, path, 2, 200, 5000)
    assert margin(*before)[2] < 0.2                # untrained: about 0, within the noise
    assert margin(*after)[1] > 0.3                 # its interval's low end above +0.3
