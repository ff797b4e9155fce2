"""`returns: EXPR`: what each player gets at the end for search and learning programs, in
place of +1 for a win and -1 otherwise; State.variables() and State.scores() give the values
of a game as Python values of their types."""
import random

import pytest

from rulelang.compile.loader import load

GOLF = "examples/golf.cardrules"


def _play(cg, seed):
    st = cg.new_game(seed=seed)
    rng = random.Random(seed)
    during = []
    while not st.terminal:
        during.append(st.returns())
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    return st, during


def test_golf_returns_minus_each_players_points():
    cg = load(GOLF).compiled(3)
    distinct = set()
    for seed in range(6):
        st, during = _play(cg, seed)
        scores = st.scores()
        assert st.returns() == [float(-s) for s in scores]
        assert all(r == [0.0, 0.0, 0.0] for r in during)
        # the winners are still the endings' (the lowest score), the returns add how far
        assert st.winners == [p for p in range(3) if scores[p] == min(scores)]
        distinct.add(tuple(st.returns()))
    assert len(distinct) > 1


def _variant(tmp_path, text):
    import shutil
    shutil.copy(GOLF, tmp_path / "golf.cardrules")
    path = tmp_path / "variant.cardrules"
    path.write_text('extends "golf.cardrules"\n' + text)
    return str(path)


def test_a_variant_replaces_the_returns(tmp_path):
    cg = load(_variant(tmp_path, "replace returns: score of you - score of player after you\n")
              ).compiled(2)
    st, _ = _play(cg, 3)
    a, b = st.scores()
    assert st.returns() == [float(a - b), float(b - a)]


def test_without_returns_a_game_keeps_win_and_loss():
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    st, _ = _play(cg, 1)
    assert sorted(st.returns()) == [-1.0, 1.0] and st.scores() is None


def test_a_game_stopped_on_a_problem_returns_zero():
    cg = load(GOLF).compiled(2)
    st = cg.new_game(seed=1, max_steps=3)
    rng = random.Random(1)
    while not st.terminal:
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    assert st.outcome == "error" and st.returns() == [0.0, 0.0]


def test_the_adapters_reward_the_declared_returns():
    pytest.importorskip("pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")
    from rulelang.ai.openspiel import load_game
    from rulelang.ai.pettingzoo import env
    game = load_game(GOLF, players=2)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.max_utility() > 1
    st = game.new_initial_state()
    st.apply_action(5)
    rng = random.Random(0)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.returns() == [float(-s) for s in st.st.scores()]
    e = env(GOLF, players=2)
    e.reset(seed=2)
    got = {}
    for agent in e.agent_iter():
        obs, reward, done, trunc, _ = e.last()
        if done or trunc:
            got[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
    assert [got["player_1"], got["player_2"]] == [float(-s) for s in e.state_.scores()]


def test_variables_are_typed_values():
    cg = load(GOLF).compiled(3)
    st = cg.new_game(seed=4)
    v = st.variables()
    assert v["knocker"] is None and v["from_discard"] is False
    rng = random.Random(1)
    while st.variables()["knocker"] is None and not st.terminal:
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    knocker = st.variables()["knocker"]
    assert isinstance(knocker, int) and 0 <= knocker < 3
    assert all(isinstance(s, int) for s in st.scores())
    ciq = load("rules/ciq.cardrules").compiled(2).new_game(seed=2)
    rng = random.Random(2)
    for _ in range(6):
        legal = ciq.legal_actions()
        ciq.apply_action(legal[rng.randrange(len(legal))])
    v = ciq.variables()
    assert isinstance(v["picks"], int) and isinstance(v["lone"], bool)
    last = v["last"]
    assert last is None or (isinstance(last, int) and 0 <= last < len(ciq.game.card_names))
    named = load("examples/crazy_eights.cardrules").compiled(2).new_game(seed=1).variables()
    assert named == {"named_suit": None}


def test_returns_stays_a_name_where_it_declares_nothing(tmp_path):
    """A file written before the declaration, with a variable named `returns`, still checks."""
    from rulelang.compile.loader import check_file
    path = tmp_path / "old.cardrules"
    path.write_text(
        'game "Old"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
        'zone hand: per player, seen by owner\nvar returns: number = 0\nsetup:\n'
        '    shuffle stock\n    deal 3 from stock to hand of each player\nturn:\n    choose:\n'
        '        play card c from hand:\n            add 1 to returns\n'
        '            move c from hand to stock\ngame ends when hand is empty:\n'
        '    end game with winner you\n')
    diags, model, _decls = check_file(str(path))
    assert model is not None and not [d for d in diags if d.severity == "error"], diags
    assert load(str(path)).compiled(2).new_game(seed=1).variables() == {"returns": 0}


@pytest.mark.parametrize("returns", ["score of the team of you", "number of cards in won of you",
                                     None])
def test_partners_get_one_number_when_returns_is_written_from_their_team(tmp_path, returns):
    """In a game of teams `returns:` is worked out for each player: written from the team,
    partners get the same number; from the player, each their own; without it, each seat its
    team's result (+1 or -1, as the team wins or loses together)."""
    import shutil
    shutil.copy("examples/whist.cardrules", tmp_path / "whist.cardrules")
    path = tmp_path / "variant.cardrules"
    path.write_text('extends "whist.cardrules"\n' +
                    (f"returns: {returns}\n" if returns else ""))
    cg = load(str(path)).compiled(4)
    partners_differ = False
    for seed in range(3):
        st, _ = _play(cg, seed)
        ret, scores = st.returns(), st.scores()
        for p in range(2):                  # (partners sit opposite: seats p and p + 2)
            if returns == "score of the team of you":
                assert ret[p] == ret[p + 2] == scores[p] + scores[p + 2]
            elif returns:                   # (the cards of the tricks each partner took)
                won = [len(st.zones[z]) for z, (name, owner, _v, _h)
                       in enumerate(cg.zone_info) if name == "won"]
                assert ret[p] == won[p] and ret[p + 2] == won[p + 2]
                partners_differ |= ret[p] != ret[p + 2]
            else:
                assert ret[p] == ret[p + 2] == (1.0 if p in st.winners else -1.0)
    assert partners_differ or returns != "number of cards in won of you"
