"""The shortcuts taken for speed change nothing that can be observed.

The game's turn runs in a generated function that goes on to the next turn itself, rules that
may decide are entered by a direct call, and apply_action calls the rule's function itself.
Saving a game at any decision and resuming it must still give the same game, and the looping
turn must resume every alternative at the same place as the plain turn rule."""
import glob
import json
import random

import pytest

from rulelang.compile.loader import load
from rulelang.compile.rulegen import RuleGen
from rulelang.engine.runtime import State

from gameprops import random_playout

FILES = sorted(glob.glob("examples/*.cardrules") + glob.glob("rules/*.cardrules"))


@pytest.mark.parametrize("path", FILES)
def test_the_looping_turn_resumes_alternatives_where_the_turn_rule_does(path):
    game = load(path)
    cg = game.compiled(game.players[0])
    turn = cg.proc_index["turn"]
    body = cg.model.rules["turn"].decl.body
    _, plain = RuleGen(cg).compile_rule(body, turn)
    _, looping = RuleGen(cg).compile_rule(body, turn, next_turn=(True, [0], None))
    assert plain == looping


@pytest.mark.parametrize("path", FILES)
def test_saved_at_any_decision_the_game_goes_on_the_same(path):
    game = load(path)
    lo, hi = game.players
    n = min(hi, lo + 1)
    cg = game.compiled(n)
    whole = random_playout(cg.new_game(seed=3, log=True, max_steps=20_000), random.Random(3))
    for stop in (1, 5, 17):
        st = cg.new_game(seed=3, log=True, max_steps=20_000)
        rng = random.Random(3)
        k = 0
        while not st.is_terminal() and k < stop:
            p = st.current_player()
            st.apply_action(rng.choice(st.legal_actions(p)), p)
            k += 1
        log = list(st.log)
        resumed = State.from_json(cg, json.loads(json.dumps(st.to_json())))
        resumed.log = log
        random_playout(resumed, rng)
        assert (resumed.log, resumed.winners, resumed.outcome) == (whole.log, whole.winners, whole.outcome)
