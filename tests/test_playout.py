"""The playout fast path (State.playout) plays the same games as the public API.

For every rule file, every allowed number of players, several seeds and each simple agent
(uniform random as UniformRandom draws, always the first choice, a policy function of the seat
and the number of choices), the game played on the fast path ends exactly as the same agents
playing through legal_actions / apply_action: same outcome, winners, decisions, turns, choices
offered, and the same final state (its whole save)."""
import glob
import random

import pytest

from rulelang.play.agents import make_agent, View
from rulelang.compile.loader import load
from rulelang.compile.passes import resolve

# (what these tests look at is the playout variants themselves: not there when they are off)
_VARIANTS = pytest.mark.skipif("playout_variant" not in resolve(),
                               reason="the playout variants are switched off (RULELANG_OPT)")

FILES = sorted(glob.glob("examples/*.cardrules") + glob.glob("rules/*.cardrules"))
SEEDS = (0, 1, 7, 12345)


def _policy_fn(seat, k):
    """A policy that depends on the seat and the number of choices only."""
    return (seat * 7 + k * 3) % k


def _api_game(cg, seed, kind, max_steps=None):
    st = cg.new_game(seed=seed, max_steps=max_steps)
    if kind in ("random", "first"):
        agents = [make_agent(kind, p, seed) for p in range(cg.n)]

        def pick(p):
            return agents[p].act(View(st, p))
    else:
        def pick(p):
            legal = st.legal_actions(p)
            return legal[_policy_fn(p, len(legal))]
    choices = forced = 0
    while not st.is_terminal():
        for p in list(st.current_players()):
            k = len(st.legal_actions(p))
            choices += k
            forced += k == 1
            st.apply_action(pick(p), p)
            if st.is_terminal() or not st.is_simultaneous():
                break
    return st, choices, forced


def _fast_game(cg, seed, kind, max_steps=None):
    st = cg.new_game(seed=seed, max_steps=max_steps)
    if kind == "random":
        policy = [make_agent("random", p, seed).rng.randrange for p in range(cg.n)]
    elif kind == "first":
        policy = [(0).__mul__] * cg.n
    else:
        policy = _policy_fn
    made, choices, forced = st.playout(policy)
    assert made == st.decisions
    return st, choices, forced


def _policy(cg, seed, kind):
    if kind == "random":
        return [make_agent("random", p, seed).rng.randrange for p in range(cg.n)]
    if kind == "first":
        return [(0).__mul__] * cg.n
    return _policy_fn


def _seeded_game(cg, seed, kind, max_steps=None):
    """The game of _fast_game from the seed (CompiledGame.playout_counted: the setup and the
    first decision in the playout variants too)."""
    st, (made, choices, forced) = cg.playout_counted(seed, _policy(cg, seed, kind), max_steps)
    assert made == st.decisions
    return st, choices, forced


def _summary(st):
    # (what players remember as it is, too: a save leaves out what left its zone since the
    # last decision; the API forgets that at its next action, a playout at its next decision)
    return (st.outcome, st.winners, st.ranking, st.decisions, st.turns, st.steps, st.problem,
            st.to_json(), list(st.shown))


# A game that never ends (always the first choice of Old Maid goes round for ever) stops at this
# many steps, both ways: a twentieth of the default budget, so that such games cost a twentieth
# (and the budget's stop is still compared).
COMPARE_STEPS = 10_000


@pytest.mark.parametrize("path", FILES)
def test_fast_path_plays_the_api_game(path):
    game = load(path)
    lo, hi = game.players
    played = 0
    for n in range(lo, hi + 1):
        cg = game.compiled(n)
        for kind in ("random", "first", "policy"):
            for seed in SEEDS:
                api, c1, f1 = _api_game(cg, seed, kind, COMPARE_STEPS)
                fast, c2, f2 = _fast_game(cg, seed, kind, COMPARE_STEPS)
                assert _summary(fast) == _summary(api), (path, n, kind, seed)
                assert (c2, f2) == (c1, f1)
                begun, c3, f3 = _seeded_game(cg, seed, kind, COMPARE_STEPS)
                assert _summary(begun) == _summary(api), (path, n, kind, seed, "from the seed")
                assert (c3, f3) == (c1, f1)
                played += 1
    assert played >= 3 * len(SEEDS)


def _asks_only_choices(seed):
    """A seeded uniform policy per number of choices that fails if asked at a forced decision."""
    rng = random.Random(seed)

    def pick(k):
        assert k > 1, "the policy was asked at a forced decision"
        return rng._randbelow(k)
    return pick


def _api_game_taking_forced(cg, seed, max_steps=None):
    """Through the API: each seat in turn, a forced decision taken as it is, any other drawn
    from one generator as _asks_only_choices draws."""
    st = cg.new_game(seed=seed, max_steps=max_steps)
    rng = random.Random(seed)
    choices = forced = 0
    while not st.is_terminal():
        for p in list(st.current_players()):
            legal = st.legal_actions(p)
            choices += len(legal)
            forced += len(legal) == 1
            st.apply_action(legal[0] if len(legal) == 1 else legal[rng._randbelow(len(legal))], p)
            if st.is_terminal() or not st.is_simultaneous():
                break
    return st, choices, forced


@pytest.mark.parametrize("path", FILES)
def test_skip_forced_never_asks_the_policy_and_plays_the_api_game(path):
    """``skip_forced=True``: a forced decision is taken without asking the policy (one
    generator shared by the seats draws only where there is a choice), and the game is the
    API's with a player who does the same, the counts included: from the seed, from a begun
    game, and with a budget of decisions (the slow path, playout_pick)."""
    game = load(path)
    lo, hi = game.players
    for n in sorted({lo, hi}):
        cg = game.compiled(n)
        for seed in (0, 1, 7):
            api, c1, f1 = _api_game_taking_forced(cg, seed, COMPARE_STEPS)
            st, counts = cg.playout_counted(seed, [_asks_only_choices(seed)] * n, COMPARE_STEPS,
                                            skip_forced=True)
            assert _summary(st) == _summary(api), (path, n, seed)
            assert counts == (api.decisions, c1, f1)
            begun = cg.new_game(seed=seed, max_steps=COMPARE_STEPS)
            begun.playout([_asks_only_choices(seed)] * n, skip_forced=True)
            assert _summary(begun) == _summary(api), (path, n, seed, "begun")
            budget = cg.new_game(seed=seed, max_steps=COMPARE_STEPS)
            policy = [_asks_only_choices(seed)] * n
            while not budget.is_terminal():
                budget.playout(policy, max_decisions=7, skip_forced=True)
            assert _summary(budget) == _summary(api), (path, n, seed, "7 at a time")


def test_skip_forced_with_a_log_and_with_a_policy_of_actions():
    """The logged driver and a policy given the legal actions skip forced decisions too."""
    cg = load("examples/crazy_eights.cardrules").compiled(3)
    api, _, forced = _api_game_taking_forced(cg, 5)
    assert forced > 0
    logged = cg.new_game(seed=5, log=True)
    logged.playout([_asks_only_choices(5)] * 3, skip_forced=True)
    assert logged.to_json() == api.to_json()
    rng = random.Random(5)

    def of_actions(legal):
        assert len(legal) > 1
        return legal[rng._randbelow(len(legal))]
    st = cg.new_game(seed=5)
    st.playout([of_actions] * 3, actions=True, skip_forced=True)
    assert st.to_json() == api.to_json()
    # and without skip_forced the policy is asked at every decision, forced or not
    asked = []
    cg.playout(5, [lambda k: asked.append(k) or 0] * 3)
    assert 1 in asked


def test_fast_path_stops_like_the_api_on_the_step_budget_and_with_a_log():
    game = load("rules/ciq.cardrules")
    cg = game.compiled(3)
    api, _, _ = _api_game(cg, 3, "random", max_steps=200)
    fast, _, _ = _fast_game(cg, 3, "random", max_steps=200)
    assert api.outcome == "error" and api.problem["code"] == "RL901"
    assert _summary(fast) == _summary(api)
    a = cg.new_game(seed=5, log=True)
    rng = random.Random(9)
    while not a.is_terminal():
        legal = a.legal_actions()
        a.apply_action(legal[rng.randrange(len(legal))])
    b = cg.new_game(seed=5, log=True)
    b.playout([random.Random(9).randrange] * 3)
    assert b.log == a.log and b.to_json() == a.to_json()


def test_max_decisions_stops_the_playout_where_asked():
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    st = cg.new_game(seed=4)
    made, _, _ = st.playout([(0).__mul__] * 2, max_decisions=5)
    assert made == 5 == st.decisions and not st.is_terminal()
    ref = cg.new_game(seed=4)
    for _ in range(5):
        ref.apply_action(ref.legal_actions()[0])
    assert st.to_json() == ref.to_json()
    # and it goes on from there as the API would
    st.playout([(0).__mul__] * 2)
    while not ref.is_terminal():
        ref.apply_action(ref.legal_actions()[0])
    assert st.to_json() == ref.to_json()


def test_compiled_game_playout_is_new_game_then_playout():
    cg = load("rules/ciq.cardrules").compiled(4)
    a = cg.playout(11, _policy_fn)
    b, _, _ = _api_game(cg, 11, "policy")
    assert a.is_terminal() and a.to_json() == b.to_json()


@_VARIANTS
def test_compiled_game_playout_takes_the_first_decision_in_place():
    """From the seed the setup and the turn run in the playout variants: the API's function of
    the turn, which would stop at the first decision and list its legal actions, never runs
    (about 2 µs of a game of Crazy Eights)."""
    cg = load("examples/crazy_eights.cardrules").compiled(4)
    cg.playout_procs()

    def api_turn(g, fr, pc):
        raise AssertionError("the API's turn ran")
    saved, cg.procs[cg.turn_top] = cg.procs[cg.turn_top], api_turn
    try:
        st = cg.playout(3, [random.Random(3)._randbelow] * 4)
        assert st.is_terminal() and st.problem is None and st.decisions > 10
        with pytest.raises(AssertionError):
            cg.new_game(seed=3)
    finally:
        cg.procs[cg.turn_top] = saved


@pytest.mark.parametrize("steps", [1, 2, 3, 5, 40])
def test_compiled_game_playout_from_the_seed_on_a_small_budget(steps):
    """A budget spent in the setup's first turn stops both ways at the same step (RL901)."""
    cg = load("rules/attack_power.cardrules").compiled(2)
    for seed in range(3):
        api, _, _ = _api_game(cg, seed, "first", max_steps=steps)
        begun, _, _ = _seeded_game(cg, seed, "first", max_steps=steps)
        assert _summary(begun) == _summary(api), (steps, seed)


def test_compiled_game_playout_of_a_game_whose_first_value_fails(tmp_path):
    """A variable whose first value divides by zero stops the game before its setup (RL911),
    from the seed as through new_game."""
    path = tmp_path / "first.cardrules"
    path.write_text('game "First"\nplayers 2\ndeck standard, into stock\n'
                    'zone stock: shared, face down\nvar z = 0\nvar x = 1 / z\n'
                    'turn:\n    end game with winner you\n')
    cg = load(str(path)).compiled(2)
    st, counts = cg.playout_counted(1, _policy_fn)
    assert st.problem["code"] == "RL911" and counts == (0, 0, 0)
    assert st.to_json() == cg.new_game(seed=1).to_json()


@pytest.mark.parametrize("path,n,agents", [
    ("rules/ciq.cardrules", 3, None),
    ("rules/attack_speed.cardrules", 2, ["random", "first"]),
    ("examples/crazy_eights.cardrules", 4, ["first", "random", "random", "first"]),
])
def test_play_games_records_and_coverage_are_those_of_the_api(path, n, agents, monkeypatch):
    """stats.play_games (run --games, stats, compare) takes the fast path for random and first;
    its records (with the choices offered and forced) and rule coverage are the API's."""
    from rulelang.play import agents as agents_mod
    from rulelang.play import stats
    fast = stats.play_games(path, {}, n, 25, seed=3, agents=agents, coverage=True, records=True)
    stats._CACHE.clear()
    monkeypatch.setattr(agents_mod, "fast_policy_of", lambda names, seed: None)
    api = stats.play_games(path, {}, n, 25, seed=3, agents=agents, coverage=True, records=True)
    assert fast.records == api.records
    assert any(r[stats.DECISIONS] > 0 for r in fast.records)
    assert [r[-1] for r in fast.records] == [r[-1] for r in api.records]   # coverage per game
    assert any(sum(r[-1]) for r in fast.records)


def test_the_policy_of_agent_names_draws_what_the_agents_draw():
    """``fast_policy_of(names, seed)`` (stats.play_game, for every game: no agent made) picks
    what the agents themselves pick (``act``): the same index for every number of choices,
    draw after draw, from generators seeded alike."""
    from rulelang.play.agents import fast_policy_of, make_agent

    class Legal:                    # (a View of k legal actions: act reads only .legal)
        def __init__(self, k):
            self.legal = list(range(k))
    for names in (["random", "random"], ["first", "random", "first"], ["random"] * 6):
        for seed in (0, 1, 2 ** 63 + 5):
            a = fast_policy_of(names, seed)
            agents = [make_agent(nm, p, seed) for p, nm in enumerate(names)]
            for k in (1, 2, 3, 7, 52, 1000) * 20:
                assert [f(k) for f in a] == [ag.act(Legal(k)) for ag in agents]
    assert fast_policy_of(["random", "mc"], 0) is None


@pytest.mark.parametrize("path", FILES)
def test_playout_in_budgets_then_the_api_plays_the_api_game(path):
    """A playout stopped by its budget of decisions (anywhere: in a rule entered from another,
    after an ending, between the decisions of a turn) leaves the state the API leaves there:
    played on in slices of a few decisions, alternating the fast path and the API, the game is
    the API's own, decision for decision."""
    game = load(path)
    n = game.players[0]
    cg = game.compiled(n)
    for seed in (0, 5):
        api, _, _ = _api_game(cg, seed, "policy")
        st = cg.new_game(seed=seed)
        k = 0
        while not st.is_terminal():
            k += 1
            before = st.decisions
            made, _, _ = st.playout(_policy_fn, max_decisions=k % 4 + 1)
            assert made == st.decisions - before and made <= k % 4 + 1 + n
            if not st.is_terminal() and not st.is_simultaneous():     # one decision through the API
                legal = st.legal_actions()
                st.apply_action(legal[_policy_fn(st.current_player(), len(legal))])
        assert _summary(st) == _summary(api), (path, seed)


@_VARIANTS
def test_a_whole_game_is_one_call_of_the_turns_playout_variant():
    """The turn's playout variant takes the decisions itself: State.playout makes the first one
    and calls it, and the game goes on inside that call to its end."""
    cg = load("examples/crazy_eights.cardrules").compiled(4)
    pp = cg.playout_procs()
    assert pp is cg.playout_procs() and len(pp) == len(cg.procs)
    assert pp[cg.turn_top] is not cg.procs[cg.turn_top]
    calls = []
    variant = pp[cg.turn_top]

    def counted(g, fr, pc):
        calls.append(pc)
        return variant(g, fr, pc)
    pp[cg.turn_top] = counted
    try:
        st = cg.new_game(seed=3)
        made, _, _ = st.playout([random.Random(3).randrange] * 4)
    finally:
        pp[cg.turn_top] = variant
    assert st.is_terminal() and made == st.decisions >= 20
    assert len(calls) == 1


@pytest.mark.parametrize("path", ["examples/crazy_eights.cardrules", "rules/ciq.cardrules"])
def test_a_policy_of_actions_plays_the_api_game(path):
    """With ``actions=True`` (the mc agent's playouts) the playout variants hand the policy the
    list the API gives and play the action it returns."""
    cg = load(path).compiled(3)
    for seed in (2, 9):
        a = cg.new_game(seed=seed)
        a.playout([lambda legal: legal[-1], lambda legal: legal[0],
                   lambda legal: legal[len(legal) // 2]], actions=True)
        b = cg.new_game(seed=seed)
        while not b.is_terminal():
            legal = b.legal_actions()
            b.apply_action([legal[-1], legal[0], legal[len(legal) // 2]][b.current_player()])
        assert _summary(a) == _summary(b)
