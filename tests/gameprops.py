"""Properties every rule file must have under random play, shared by the games' tests.

``check_random_games(game, players, seeds)`` plays games with uniformly random choices and
asserts, after every decision: no card created or lost; a non-terminal state has a legal choice;
no observation shows a card its player may not see, nor another player's secret choice; the game
ends (not by running out of steps or by a rule error).  It also checks that the same seed gives
the same game and that a clone is independent of its original.
"""

from __future__ import annotations

import random


def random_playout(st, rng, check=None, max_decisions=100_000):
    n = 0
    while not st.is_terminal():
        p = st.current_player()
        legal = st.legal_actions(p)
        assert legal, f"no legal action for player {p + 1} in a non-terminal state"
        st.apply_action(rng.choice(legal), p)
        n += 1
        if check is not None:
            check(st)
        assert n < max_decisions
    return st


def hidden_cards_ok(st):
    """No observation of any player contains a card of a zone that player may not see."""
    cg = st.game
    for p in range(st.n):
        obs = st.observation(p)
        for zi, (name, owner, vis, size_hidden) in enumerate(cg.zone_info):
            key = name if owner < 0 else f"{name}/{owner + 1}"
            shown = obs["zones"][key]
            may_see = vis == "everyone" or (vis == "owner" and owner == p)
            if not may_see:
                assert not isinstance(shown, list), f"player {p + 1} sees hidden zone {key}"
                if vis == "top" and st.zones[zi]:
                    assert shown["top"] == cg.card_names[st.zones[zi][-1]]
        if st.is_simultaneous():
            for q, a in st.decision.chosen.items():
                if q != p:
                    assert "legal" not in obs or all(
                        st.action_to_string(x) in obs["legal"] for x in st.legal_actions(p)
                    )
                    assert str(a) not in repr(obs.get("pending", ""))


def check_random_games(game, players, seeds, hidden=True):
    cg = game.compiled(players)
    total = len(cg.cards)
    results = []
    for seed in seeds:
        st = cg.new_game(seed=seed)

        def check(s):
            count = sum(len(z) for z in s.zones)
            assert count == total, f"seed {seed}: {count} cards, expected {total}"
            if hidden:
                hidden_cards_ok(s)

        check(st)
        random_playout(st, random.Random(seed), check)
        assert st.outcome != "error", f"seed {seed}: {st.problem}"
        results.append((st.outcome, tuple(st.winners), st.decisions))
    return results


def same_seed_same_game(game, players, seed):
    def transcript():
        st = game.compiled(players).new_game(seed=seed, log=True)
        random_playout(st, random.Random(seed))
        return st.log, st.winners

    assert transcript() == transcript()


def clone_independent(game, players, seed, steps=10):
    st = game.compiled(players).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    if st.is_terminal():
        return
    before = st.to_json()
    c = st.clone()
    random_playout(c, random.Random(seed + 1))
    assert st.to_json() == before, "playing a clone changed its original"
    # and the clone of the clone's original still plays the same as the original would
    a, b = st.clone(), st.clone()
    random_playout(a, random.Random(7))
    random_playout(b, random.Random(7))
    assert a.to_json() == b.to_json()
