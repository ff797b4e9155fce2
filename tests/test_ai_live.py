"""The tensors the adapters keep up to date from what changed (rulelang.ai.tensors.Live) are
the tensors made anew, at every step of random games of every rule file: the observation and
the information state of every seat, a seat asked for at every step or only now and then,
through clones of a state (a clone keeps its own copy) and through the end of the game."""
import glob
import random

import pytest

from rulelang.ai.tensors import Live, Trail, encoding, load_compiled

np = pytest.importorskip("numpy")
FILES = sorted(glob.glob("rules/*.cardrules") + glob.glob("examples/*.cardrules"))


def _zeros(size):
    return np.zeros(size, np.float32)


def _step(st, rng, trail):
    """One move of random play (every seat of a simultaneous decision), told to the trail."""
    for q in list(st.current_players()):
        legal = st.legal_actions(q)
        a = legal[rng.randrange(len(legal))]
        trail.acted(q, trail.enc.actions.to_id(a))
        st.apply_action(a, q)
        if st.terminal or not st.is_simultaneous():
            break
    trail.after(st)


def _same(live, info, st, trail, enc, seats):
    for p in seats:
        rebuilt = np.asarray(enc.observation(st, p), np.float32)
        assert np.array_equal(live.observation(st, p), rebuilt), p
        rebuilt = np.asarray(trail.tensor(st, p), np.float32)
        assert np.array_equal(info.observation(st, p, trail), rebuilt), p



@pytest.mark.parametrize("path", FILES)
def test_live_tensors_equal_rebuilt_ones_at_every_step(path):
    from rulelang.compile.loader import load
    game = load(path)
    steps = 0
    for n in sorted({game.players[0], min(game.players[-1], 4)}):
        cg = game.compiled(n)
        enc = encoding(cg)
        for seed in (1, 2):
            st = cg.new_game(seed=seed)
            rng = random.Random(seed)
            trail = Trail(enc, st)
            every = Live(enc, _zeros), Live(enc, _zeros, recall=True)
            sometimes = Live(enc, _zeros), Live(enc, _zeros, recall=True)
            clone = None
            k = 0
            while True:
                _same(*every, st, trail, enc, range(n))
                if k % 3 == 0:              # a seat now and then: many steps to catch up
                    _same(*sometimes, st, trail, enc, [k // 3 % n])
                if k == 5:                  # a clone goes its own way with copies
                    clone = (st.clone(), trail.copy(), every[0].copy(), every[1].copy())
                if st.terminal or k >= 150:
                    break
                _step(st, rng, trail)
                k += 1
                steps += 1
            if clone is not None:
                cst, ctrail, clive, cinfo = clone
                crng = random.Random(seed + 100)
                for _ in range(30):
                    if cst.terminal:
                        break
                    _step(cst, crng, ctrail)
                    _same(clive, cinfo, cst, ctrail, enc, range(n))
    assert steps > 0


def test_the_comparison_sees_a_stale_tensor():
    """A Live that misses a change is caught: the zones a seat sees whole changed behind its
    back (its copies of them made equal to the new cards) leave the tensor wrong."""
    cg = load_compiled("examples/crazy_eights.cardrules", 2)
    enc = encoding(cg)
    st = cg.new_game(seed=3)
    live = Live(enc, _zeros)
    live.observation(st, 0)
    legal = st.legal_actions()
    st.apply_action(legal[0])
    whole = [zi for zi, _at, w, _t in enc.zone_plans[0] if w]
    live.snaps[0][:len(whole)] = [st.zones[zi][:] for zi in whole]
    assert not np.array_equal(live.observation(st, 0),
                              np.asarray(enc.observation(st, 0), np.float32))


def test_a_tensor_handed_out_never_changes_under_its_holder():
    """An array kept by the caller stays as it was: the seat's next tensor is written into a
    copy; an array the caller dropped is written again in place (no copy).  Read-only arrays
    refuse writes, and their seat's next tensor is still right."""
    cg = load_compiled("rules/ciq.cardrules", 4)
    enc = encoding(cg)
    st = cg.new_game(seed=5)
    rng = random.Random(5)
    trail = Trail(enc, st)
    live = Live(enc, _zeros)
    assert live.pub is not None      # (CIQ: what every seat sees alike is kept once, copied)
    kept = live.observation(st, 0)
    was = kept.copy()
    for _ in range(12):
        _step(st, rng, trail)
    now = live.observation(st, 0)
    assert now is not kept and np.array_equal(kept, was)
    assert not np.array_equal(now, was)
    assert np.array_equal(now, np.asarray(enc.observation(st, 0), np.float32))
    ident = id(now)
    del now
    for _ in range(4):
        _step(st, rng, trail)
    again = live.observation(st, 0)
    assert id(again) == ident
    assert np.array_equal(again, np.asarray(enc.observation(st, 0), np.float32))
    ro = Live(enc, _zeros, readonly=True)
    held = ro.observation(st, 1)
    with pytest.raises(ValueError):
        held[0] = 5.0
    _step(st, rng, trail)
    assert np.array_equal(ro.observation(st, 1), np.asarray(enc.observation(st, 1), np.float32))


@pytest.mark.parametrize("path", ["rules/ciq.cardrules", "examples/crazy_eights.cardrules"])
def test_an_env_reset_zeroes_its_tensors_in_place_and_lets_a_held_one_go(path):
    """A new game of the AEC env writes into the arrays of the last game (zeroed in place, no
    new array) when nobody holds them, and never into one a caller still holds: through three
    games, every observation is the tensor made anew and every mask the seat's legal ids
    (CIQ: two decks, so copies of a card merged; what all seats see kept once)."""
    import weakref
    pytest.importorskip("pettingzoo")
    from rulelang.ai.pettingzoo import env
    e = env(path, players=4)
    rng = random.Random(3)
    held = held_copy = None
    handed: list = []                   # (game 0: the arrays handed to player_1)
    for game in range(3):
        e.reset(seed=game)
        first = e.observe("player_1")["observation"]
        if game == 1:       # (game 0's arrays were dropped: one of them, zeroed, written again)
            assert any(r() is first for r in handed)
        if game == 2:       # (one held since game 1: let go, so not written again; unchanged)
            assert first is not held
        del first
        for agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last()
            if term or trunc:
                e.step(None)
                continue
            st, seat = e.state_, e.seat[agent]
            assert np.array_equal(obs["observation"],
                                  np.asarray(e.enc.observation(st, seat), np.float32))
            ids = np.flatnonzero(obs["action_mask"])
            assert list(ids) == sorted(e.enc.legal_ids(st, seat))
            if seat == 0 and game == 0:
                handed.append(weakref.ref(obs["observation"]))
            if seat == 0 and game == 1 and held is None:
                held, held_copy = obs["observation"], obs["observation"].copy()
            e.step(int(ids[rng.randrange(len(ids))]))
        del obs
    assert held is not None and np.array_equal(held, held_copy)
