"""A rulebook you can implement from: tests/rulebook_impl/ holds games written from their
generated rulebook alone (``rulelang rulebook FILE``), never from the rule file.  Each is played in
lock step with rulelang over many seeded games: at every decision the same player is to decide,
every zone holds the same cards in the same order and the legal choices, in the words the
rulebook and ``play`` use, are the same set; one of them, picked at random, is applied to both,
and at the end the same players win.  A disagreement is a misreading of the rulebook, a rule the
rulebook leaves unsaid or says wrongly, or an engine bug (docs/workbench.md, "A rulebook you can
implement from")."""
from __future__ import annotations

import os
import random

import pytest

from rulelang.engine.display_names import Words
from rulelang.compile.loader import load

from rulebook_impl.golf import Golf
from rulebook_impl.old_maid import OldMaid
from rulebook_impl.sevens import Sevens

HERE = os.path.dirname(__file__)
EXAMPLES = os.path.join(HERE, "..", "examples")

# (rule file, implementation, player counts, choices taken only one time in RARE when others are
# allowed: in Golf a knock ends the game, so knocking at random would leave the reshuffle of the
# Discard and the turn limit untried)
GAMES = [
    ("sevens.cardrules", Sevens, (2, 3, 4), ()),
    ("golf.cardrules", Golf, (2, 3, 4), ("knock",)),
    ("old_maid.cardrules", OldMaid, (2, 3, 4, 5), ()),
]
RARE = 12
SEEDS = range(200)


def table(st, words):
    """Every zone's cards by the rulebook's name (``Hand/2`` for Player 2's), bottom first
    (``words``: the game's :class:`Words`)."""
    g = st.game
    out = {}
    for zi, (name, owner, _vis, _hidden) in enumerate(g.zone_info):
        key = words.zone(name) + ("" if owner < 0 else f"/{owner + 1}")
        out[key] = [g.card_names[c] for c in st.zones[zi]]
    return out


def pick(rng, words, rare):
    """One of the choices at random; a rare one only now and then."""
    common = sorted(w for w in words if w not in rare)
    if common and rng.randrange(RARE):
        return rng.choice(common)
    return rng.choice(sorted(words))


def lock_step(game, impl_class, players, seed, rare=()):
    """Play one seeded game of the rule file and of the implementation side by side; returns the
    number of decisions compared."""
    st = game.new_game(players, seed=seed, log=True)
    people = Words(st.game)
    mine = impl_class(players, table(st, people))
    rng = random.Random(seed)
    decisions = 0
    seen_log = len(st.log)
    while not st.is_terminal():
        assert not mine.is_over(), (seed, decisions, "the implementation ended the game early")
        assert mine.to_move() == st.current_player(), (seed, decisions)
        now = table(st, people)
        assert {k: now[k] for k in mine.cards()} == mine.cards(), (seed, decisions)
        # the choices as people read them (the rulebook's words), not the rule file's identifiers
        actions = st.legal_actions()
        words = {people.action(a): a for a in actions}
        assert len(words) == len(actions), (seed, decisions, "two choices said alike")
        assert mine.legal() == set(words), (seed, decisions, table(st, people))
        choice = pick(rng, words, rare)
        st.apply_action(words[choice])
        mine.play(choice)
        decisions += 1
        # Hidden randomness after the setup (a pile shuffled during play): the implementation
        # cannot know the new order, so it takes it from the state.
        if any(e[0] == "shuffle" for e in st.log[seen_log:]):
            mine.resync(table(st, people))
        seen_log = len(st.log)
    assert mine.is_over(), (seed, decisions, "rulelang ended the game, the implementation did not")
    now = table(st, people)
    assert {k: now[k] for k in mine.cards()} == mine.cards(), (seed, decisions)
    assert mine.result() == set(st.winners), (seed, decisions)
    return decisions


@pytest.mark.parametrize("filename,impl_class,player_counts,rare", GAMES,
                         ids=[g[0].split(".")[0] for g in GAMES])
def test_plays_in_lock_step_with_the_rule_file(filename, impl_class, player_counts, rare):
    game = load(os.path.join(EXAMPLES, filename))
    decisions = 0
    for seed in SEEDS:
        decisions += lock_step(game, impl_class, player_counts[seed % len(player_counts)], seed,
                               rare)
    assert decisions > len(SEEDS)
