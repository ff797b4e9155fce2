"""The registry of the generator's optimisations (compile/passes.py): every entry described and
documented, the switches (``optimize=``, RULELANG_OPT) really switching, a game playing the same
with them off, and the fallbacks of one that cannot apply reported by ``check --verbose``."""
import json
import os
import pathlib
import random
import re
import subprocess
import sys

import pytest

from rulelang.compile import passes as P
from rulelang.compile.loader import load

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_optimisation_is_described_and_documented():
    doc = (ROOT / "docs" / "internals.md").read_text(encoding="utf-8")
    names = [p.name for p in P.PASSES]
    assert len(names) == len(set(names))
    for p in P.PASSES:
        assert re.fullmatch(r"[a-z_]+", p.name), p.name
        assert p.description.strip(), f"{p.name} has no description"
        assert p.always or p.assumes.strip(), f"{p.name} says nothing of what it assumes"
        assert not p.always or p.reason.strip(), f"{p.name} is always on without a reason"
        assert set(p.requires) <= P.SWITCHABLE - {p.name}, p.name
        assert f"| `{p.name}` |" in doc, f"docs/internals.md's table of optimisations omits {p.name}"
    table = set(re.findall(r"^\| `([a-z_]+)` \| (?:yes|always on)", doc, re.M))
    assert table == set(names), table ^ set(names)


def test_the_spelling_of_a_setting():
    every = P.SWITCHABLE
    assert P.resolve("all") == every and P.resolve("none") == frozenset()
    assert P.resolve("-hoisting,-card_sets") == every - {"hoisting", "card_sets"}
    assert P.resolve("none,copies,+direct_calls") == {"copies", "direct_calls"}
    assert P.resolve({"copies", "folding"}) == {"copies"}          # (always on: not a switch)
    assert P.alone("turn_locals") == {"turn_locals", "structured_turn", "playout_variant",
                                      "looping_turn"}
    with pytest.raises(ValueError, match="no optimisation is named hoist"):
        P.resolve("-hoist")
    with pytest.raises(ValueError):
        load("examples/crazy_eights.cardrules", optimize="nothing_of_the_kind")


def test_the_environment_variable_sets_the_default(monkeypatch):
    monkeypatch.setenv(P.ENV, "-hoisting")
    assert P.resolve() == P.SWITCHABLE - {"hoisting"}
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    assert not cg.on("hoisting") and cg.on("copies")
    monkeypatch.setenv(P.ENV, "")
    assert P.resolve() == P.SWITCHABLE


def _play(cg, seed):
    """A game through the API with random moves, and a playout from the seed: what they log and
    how they end."""
    st = cg.new_game(seed=seed, log=True)
    rng = random.Random(seed)
    while not st.is_terminal():
        p = st.current_players()[0]
        legal = st.legal_actions(p)
        st.apply_action(legal[rng.randrange(len(legal))], p)
    fast = cg.playout(seed, [random.Random(seed).randrange] * cg.n)
    return st.log, st.to_json(), fast.to_json()


@pytest.mark.parametrize("path", ["examples/crazy_eights.cardrules", "rules/internecine.cardrules"])
def test_with_every_optimisation_off_the_plain_paths_play_the_same_games(path):
    game = load(path)
    n = game.players[0]
    fast, plain = game.compiled(n, optimize="all"), game.compiled(n, optimize="none")
    assert fast is not plain and fast is game.compiled(n, optimize=P.SWITCHABLE)
    # the plain paths are taken: no direct call, no quick test of the endings, the API's
    # functions for a playout, the turn's own function between the root's turns
    assert plain.direct_rules == set() and plain.inlined_rules == set()
    assert plain.endings_fast is None and plain.fallbacks == []
    assert plain.playout_procs() is plain.procs
    assert plain.procs[plain.turn_top] is plain.procs[plain.turn_proc]
    assert fast.playout_procs() is not fast.procs
    for seed in range(3):
        assert _play(fast, seed) == _play(plain, seed), seed


def test_a_fallback_is_noted_and_reported():
    game = load("examples/old_maid.cardrules")
    cg = game.compiled(2)
    assert P.Fallback("turn", "structured_turn",
                      "the turn cannot be written in place (copies.can_inline)") in cg.fallbacks
    # (an optimisation that is off does not fall back)
    off = game.compiled(2, optimize="-structured_turn")
    assert not any(f.optimisation == "structured_turn" for f in off.fallbacks)
    cli = [sys.executable, "-m", "rulelang", "check"]
    text = subprocess.run(cli + ["--verbose", "examples/old_maid.cardrules"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, P.ENV: ""})
    assert text.returncode == 0, text.stderr
    assert "turn: structured_turn (2, 3, 4, 5 players): the turn cannot be written" in text.stdout
    js = subprocess.run(cli + ["--verbose", "--json", "examples/old_maid.cardrules"], cwd=ROOT,
                        capture_output=True, text=True, env={**os.environ, P.ENV: ""})
    data = json.loads(js.stdout)
    assert data["diagnostics"] == []
    assert {"file": "examples/old_maid.cardrules", "players": [2, 3, 4, 5], "rule": "turn",
            "optimisation": "structured_turn",
            "why": "the turn cannot be written in place (copies.can_inline)"} in data["fallbacks"]
    plain = subprocess.run(cli + ["--json", "examples/old_maid.cardrules"], cwd=ROOT,
                           capture_output=True, text=True)
    assert json.loads(plain.stdout) == []          # (without --verbose: the list, as before)
