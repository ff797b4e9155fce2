"""examples/casino.cardrules, played whole: at every capture the choices offered are exactly the
sets of table cards a judge written here from the rules finds (every set of number cards that
splits into sums of the card played, each once), the count at the end is the rulebook's, and the
generated code, its playout fast path and the reference interpreter play the same games."""
from __future__ import annotations

import functools
import itertools
import os
import random

import pytest

from rulelang.compile.loader import load

from closures import three_ways

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "examples", "casino.cardrules")


def value(name):
    r = name[:-1]
    return {"A": 1, "J": 0, "Q": 0, "K": 0}[r] if r in "AJQK" else int(r)


def splits(vals, target):
    """Whether the values split into groups adding up to ``target`` each."""
    if not vals:
        return True
    first, rest = vals[0], vals[1:]
    for k in range(len(rest) + 1):
        for idx in itertools.combinations(range(len(rest)), k):
            if first + sum(rest[i] for i in idx) == target:
                if splits([rest[i] for i in range(len(rest)) if i not in idx], target):
                    return True
    return False


def captures(table, card):
    """Every capture the rules allow with ``card`` (names), as sorted tuples of table cards."""
    v = value(card)
    if v == 0:
        return {(c,) for c in table if c[:-1] == card[:-1]}
    numbers = [c for c in table if value(c) > 0]
    out = set()
    for k in range(1, len(numbers) + 1):
        for s in itertools.combinations(numbers, k):
            if splits([value(c) for c in s], v):
                out.add(tuple(sorted(s)))
    return out


@functools.lru_cache(maxsize=None)
def compiled():
    return load(PATH).compiled(2)


def names(cg, cards):
    return [cg.card_names[c] for c in cards]


@pytest.mark.parametrize("seed", range(12))
def test_every_capture_offered_is_a_legal_capture_and_none_is_missing(seed):
    cg = compiled()
    st = cg.new_game(seed=seed, log=True)
    rng = random.Random(seed)
    played = None
    checked = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        words = [st.action_to_string(a) for a in legal]
        if words[0].startswith("play "):
            a = legal[rng.randrange(len(legal))]
            played = st.action_to_string(a).split()[1]
        else:
            table = names(cg, st.zones[cg.zone_base["table"]])
            offered = [tuple(sorted(w.split()[1:])) for w in words if w.split()[0] in ("capture", "pair")]
            assert "trail" in words
            assert len(set(offered)) == len(offered)               # each set once
            assert set(offered) == captures(table, played), (seed, table, played)
            checked += 1
            a = legal[rng.randrange(len(legal))]
        st.apply_action(a)
    assert checked > 20
    # the count: every card captured, 11 points less the ties, and a point a sweep
    won = [names(cg, st.zones[cg.zone_base["won"] + p]) for p in range(2)]
    assert sum(len(w) for w in won) == 52
    sweeps = [st.vars[cg.var_base["sweeps"] + p] for p in range(2)]
    for p in range(2):
        q = 1 - p
        want = (3 if len(won[p]) > len(won[q]) else 0) \
            + (1 if sum(c[-1] == "♠" for c in won[p]) > sum(c[-1] == "♠" for c in won[q]) else 0) \
            + (2 if "10♦" in won[p] else 0) + (1 if "2♠" in won[p] else 0) \
            + sum(c[:-1] == "A" for c in won[p]) + sweeps[p]
        assert cg.score_of(st, p) == want
    top = max(cg.score_of(st, p) for p in range(2))
    assert sorted(st.winners) == [p for p in range(2) if cg.score_of(st, p) == top]


def test_a_sweep_is_counted_and_said():
    cg = compiled()
    for seed in range(200):
        st = cg.new_game(seed=seed, log=True)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            words = [st.action_to_string(a) for a in legal]
            # capture as much as possible: sweeps happen
            best = max(range(len(legal)), key=lambda i: (len(words[i].split()), rng.random()))
            st.apply_action(legal[best] if not words[0].startswith("play ") else
                            legal[rng.randrange(len(legal))])
        said = [e for e in st.log if e[0] == "say" and "sweeps the table" in e[2]]
        if said:
            total = sum(st.vars[cg.var_base["sweeps"] + p] for p in range(2))
            assert total == len(said)
            return
    pytest.fail("no sweep in 200 games")


@pytest.mark.parametrize("seed", range(4))
def test_generated_playout_and_reference_play_alike(seed, monkeypatch):
    three_ways(PATH, 2, seed, monkeypatch, ["zones", "vars", "winners"])
