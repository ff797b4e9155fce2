"""A State's fields are declared once (``runtime.FIELDS``); clone, save and load derive
from the declaration.  These tests fail when a field is missed by any of them: every slot of a
State is declared, and on every rule file, at many points of a seeded game (simultaneous
decisions half made included), a clone and a save loaded again equal the state field by field,
stay independent of it, and play on to the same end."""
import copy
import glob
import json
import os
import random

import pytest

from rulelang.compile.loader import load
from rulelang.engine.control import NO_DECISION, Decision, Simultaneous
from rulelang.engine.runtime import FIELDS, GIVEN, OPTIONAL_SAVE_KEYS, SAVE_KEYS, State

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules")) +
               glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))
NOT_SAVED = {"game", "log"}          # the save names its game; the log is the caller's


def test_every_slot_is_a_declared_field():
    names = [f.name for f in FIELDS]
    assert len(set(names)) == len(names)
    # Fields kept behind a property: ``shown``, in the slot ``memory`` (a playout leaves it as
    # a Memory, made a list when read), and ``decision``, in the slot ``awaiting`` (a decision
    # of one seat as a plain tuple), which its Field names, so that clone and a blank state set
    # the slot itself.
    behind = {f.name for f in FIELDS if isinstance(getattr(State, f.name, None), property)}
    assert behind == {"shown", "decision"}
    assert {f.name: f.slot for f in FIELDS if f.slot} == {"decision": "awaiting"}
    playout = {s for s in State.__slots__ if s.startswith("_")}   # State.playout's, while it runs
    assert set(State.__slots__) - playout == (set(names) - behind) | {"memory", "awaiting"}
    assert {f.name for f in FIELDS if not f.keys} == NOT_SAVED
    # a field a blank state leaves unset is set by each maker: new_game (tested below) and
    # from_json, which loads it
    assert all(f.load is not None for f in FIELDS if f.blank is GIVEN)
    assert set(SAVE_KEYS) | set(OPTIONAL_SAVE_KEYS) == \
        {"format", "game"} | {k for f in FIELDS for k in f.keys}


def _fields(st, saved=False) -> dict:
    """The state's fields; with ``saved``, each as a save holds it (``Field.saved``: what players
    remember, only while the card is still where they saw it go)."""
    out = {f.name: f.saved(st) if saved and f.saved is not None else getattr(st, f.name)
           for f in FIELDS if f.name != "game"}
    out["rng"] = out["rng"].s          # (the generator's whole state)
    return out


def _step(st, rng):
    p = st.current_player()
    st.apply_action(rng.choice(st.legal_actions(p)), p)


def _finish(st, seed):
    rng = random.Random(seed)
    while not st.is_terminal():
        _step(st, rng)
    return st.to_json()


def _points(path):
    """(state, index) at each of the first decisions of a seeded game of ``path``, the log on."""
    game = load(path)
    cg = game.compiled(game.players[0])
    st = cg.new_game(seed=11, log=True)
    rng = random.Random(11)
    for i in range(40):
        yield st, i
        if st.is_terminal():
            return
        _step(st, rng)


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p) for p in FILES])
def test_clone_and_save_keep_every_field(path):
    kinds = set()
    for st, i in _points(path):
        kinds.add(type(st.decision))
        before = copy.deepcopy(_fields(st))
        # -- clone: equal field by field, sharing nothing that changes in place
        c = st.clone()
        assert c.game is st.game
        assert _fields(c) == before, f"clone() changed a field at decision {i}"
        for f in FIELDS:
            v = getattr(st, f.name)
            if f.copy is not None and isinstance(v, (list, dict, Simultaneous)):
                assert getattr(c, f.name) is not v, f"clone() shares `{f.name}`"
        # -- save and load: equal on every saved field, and saved again the same
        saved = json.loads(json.dumps(st.to_json()))
        back = State.from_json(st.game, saved)
        mine = {k: v for k, v in copy.deepcopy(_fields(st, saved=True)).items()
                if k not in NOT_SAVED}
        assert {k: v for k, v in _fields(back).items() if k not in NOT_SAVED} == mine, \
            f"a save loaded again differs at decision {i}"
        assert back.log is None
        assert back.to_json() == saved
        # -- each goes on alone to the same end; the original is untouched by them
        end_c, end_back = _finish(c, i), _finish(back, i)
        assert _fields(st) == before, "playing a clone or a loaded save changed the original"
        assert end_c == end_back
        if i % 10 == 3:
            twin = st.clone()
            assert _finish(twin, i) == end_c
    assert kinds <= {Decision, Simultaneous, type(NO_DECISION)}


def test_some_rule_file_has_a_simultaneous_decision_half_made():
    """The test above sees the hard case: a simultaneous decision with a secret choice made."""
    seen = False
    for path in FILES:
        for st, _i in _points(path):
            d = st.decision
            if d.simultaneous and d.chosen:
                seen = True
                c = st.clone()
                c.decision.chosen.clear()
                assert st.decision.chosen, "a clone's secret choices are its own"
                break
        if seen:
            break
    assert seen


def test_the_api_per_step_reads_the_slot_and_makes_no_decision_object(monkeypatch):
    """What an agent or a learning library calls at every step (current_player, current_players,
    is_simultaneous, legal_actions, apply_action, is_terminal) reads the slot ``awaiting``
    itself: a :class:`Decision` (a call of a tuple subclass) is made only when ``decision`` is
    read (had current_players and is_simultaneous made one at each call, the OpenSpiel step of
    Crazy Eights would be 7% slower)."""
    import rulelang.engine.runtime as R
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    st = load(path).compiled(3).new_game(seed=5)

    def refused(*_a):
        raise AssertionError("a Decision was made")
    monkeypatch.setattr(R, "Decision", refused)
    rng = random.Random(5)
    while not st.is_terminal():
        assert not st.is_simultaneous()
        p = st.current_player()
        assert st.current_players() == [p]
        st.apply_action(rng.choice(st.legal_actions(p)), p)
    assert st.current_players() == [] and st.current_player() == -1


def test_the_type_checkers_view_of_the_slots_is_the_state_s():
    """``State.__slots__`` is made from FIELDS at run time, which mypy cannot read: it sees them
    through ``playout.StateSlots``, written by hand (under TYPE_CHECKING).  The two lists must
    name the same slots, so that a field added to FIELDS is typed and a slot removed is not."""
    import ast
    import inspect

    from rulelang.engine import playout

    tree = ast.parse(inspect.getsource(playout))
    (cls,) = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "StateSlots"]
    typed = [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign)]
    assert len(set(typed)) == len(typed)
    assert set(typed) == set(State.__slots__)
