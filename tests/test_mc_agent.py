"""State.determinize (a world one player cannot tell from the real one) and the `mc` agent
(flat Monte Carlo over such worlds)."""
import collections
import glob
import random

import pytest

from rulelang.play.agents import MonteCarlo, View, make_agent
from rulelang.cli.common import _play_out
from rulelang.compile.loader import load

FILES = sorted(glob.glob("rules/*.cardrules") + glob.glob("examples/*.cardrules"))
CRAZY = "examples/crazy_eights.cardrules"


def _step(st, rng):
    """One random decision (every pending seat's, at a simultaneous one)."""
    for q in list(st.current_players()):
        legal = st.legal_actions(q)
        st.apply_action(legal[rng.randrange(len(legal))], q)
        if st.is_terminal() or not st.is_simultaneous():
            break


def _mid_game_states(game, players, seeds=(1, 2, 3), every=5, limit=120):
    """Positions of random games: at the start and after every ``every`` decisions."""
    for seed in seeds:
        st = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        k = 0
        while not st.is_terminal() and k < limit:
            if k % every == 0:
                yield seed, k, st
            _step(st, rng)
            k += 1


def _cards(st):
    return collections.Counter(c for z in st.zones for c in z)


@pytest.mark.parametrize("path", FILES)
def test_determinize_keeps_what_the_player_sees_and_every_card(path):
    game = load(path)
    lo, hi = game.players
    for n in sorted({lo, min(hi, lo + 1)}):
        for seed, k, st in _mid_game_states(game, n):
            before = [z[:] for z in st.zones]
            for p in range(n):
                obs = st.observation(p)
                d = st.determinize(p, seed * 1000 + k)
                assert d.observation(p) == obs, f"{path} {n}p seed {seed} step {k} seat {p + 1}"
                assert _cards(d) == _cards(st)
                assert [len(z) for z in d.zones] == [len(z) for z in st.zones]
                assert d.current_players() == st.current_players()
                # the sampled world can be played on, and playing it leaves the real one alone
                _step(d, random.Random(k)) if not d.is_terminal() else None
            assert st.zones == before


def test_determinize_deals_hidden_cards_again():
    game = load(CRAZY)
    st = game.new_game(2, seed=5)
    opp = game.compiled(2).zone_base["hand"] + 1          # hand of player 2
    stock = game.compiled(2).zone_base["stock"]
    seen = {tuple(st.determinize(0, s).zones[opp]) for s in range(20)}
    assert len(seen) > 15                  # player 2's hand, as player 1 imagines it, varies
    d = st.determinize(0, 1)
    assert d.zones[stock] != st.zones[stock]
    assert d.zones[game.compiled(2).zone_base["hand"]] == st.zones[game.compiled(2).zone_base["hand"]]
    # the same seed gives the same world; the clone's future randomness is not the real one
    assert st.determinize(0, 7).zones == st.determinize(0, 7).zones
    assert st.determinize(0, 7).rng.s != st.rng.s


def test_determinize_keeps_the_top_of_a_top_face_up_pile():
    game = load(CRAZY)
    st = game.new_game(2, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        _step(st, rng)
    discard = game.compiled(2).zone_base["discard"]
    changed = False
    for s in range(10):
        d = st.determinize(0, s)
        assert d.zones[discard][-1] == st.zones[discard][-1]
        changed |= d.zones[discard][:-1] != st.zones[discard][:-1]
    assert changed


def test_determinize_forgets_another_players_secret_choice():
    game = load("rules/internecine.cardrules")
    found = 0
    for seed in range(30):
        st = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if st.is_terminal():
                break
            if st.is_simultaneous() and len(st.current_players()) == 2:
                first, second = st.current_players()
                legal = st.legal_actions(first)
                if len(legal) < 2:
                    _step(st, rng)
                    continue
                st.apply_action(legal[0], first)           # first has chosen, in secret
                assert st.current_players() == [second]
                obs = st.observation(second)
                chosen = set()
                for s in range(40):
                    d = st.determinize(second, s)
                    assert d.observation(second) == obs
                    assert d.current_players() == [second]
                    assert d.decision.chosen[first] in d.decision.offers[first]
                    chosen.add(d.decision.chosen[first])
                    assert _cards(d) == _cards(st)
                # the real choice is not always the one the sampled worlds hold
                assert len(chosen) > 1
                found += 1
                _step(st, rng)
                if found >= 3:
                    return
            else:
                _step(st, rng)
    assert found, "no simultaneous decision with a choice reached"


def test_view_offers_samples_of_its_own_seat_only():
    game = load(CRAZY)
    st = game.new_game(2, seed=2)
    view = View(st, st.current_player())
    d = view.sample(random.Random(1))
    assert d is not st
    assert d.observation(view.seat) == st.observation(view.seat)
    assert not hasattr(view, "state")


def test_mc_is_deterministic_and_legal():
    game = load(CRAZY)
    results = []
    for _ in range(2):
        st = game.new_game(2, seed=11, log=True)
        _play_out(st, [make_agent("mc", 0, 11), make_agent("random", 1, 11)])
        results.append((st.log, st.winners))
    assert results[0] == results[1]
    assert results[0][1]


def test_mc_plays_simultaneous_games():
    game = load("rules/internecine.cardrules")
    st = game.new_game(2, seed=4)
    _play_out(st, [MonteCarlo(0, 4, budget=20), make_agent("random", 1, 4)])
    assert st.is_terminal() and st.outcome != "error"


def _mc_against_random(path, games, budget):
    """(wins of mc, games nobody won) in ``games`` 2-player games, mc in seat 1 then 2."""
    game = load(path)
    wins = nobody = 0
    for seed in range(games):
        seat = seed % 2
        agents = [make_agent("random", p, seed) for p in range(2)]
        agents[seat] = MonteCarlo(seat, seed, budget=budget)
        st = game.new_game(2, seed=seed)
        _play_out(st, agents)
        wins += seat in st.winners
        nobody += not st.winners
    return wins, nobody


def test_mc_beats_random_at_crazy_eights():
    # Measured: 56, 69 and 62 wins in the 100 games of seeds 0-99, 100-199, 200-299 since
    # State.determinize deals from a pool in card order (67, 59, 65 and 63 in seeds 0-399
    # before: other worlds for the same seeds, as strong); 56, 58, 66, 64 without remembering
    # the cards it saw played; a hand-written strategy, 8s kept, the longest suit named, wins
    # 57%: luck decides much of this game.  Two random players win 50% each, and one of them
    # wins more than 114 of 200 with a probability under 2%.
    wins, _ = _mc_against_random(CRAZY, 200, budget=40)
    assert wins > 114, f"mc won {wins} of 200"


def test_mc_beats_random_where_random_play_rarely_finishes():
    # Two random players finish 4% of these games (a rule ends most with no winner); mc wins
    # about half and almost never loses.
    wins, nobody = _mc_against_random("rules/mages_wild.cardrules", 20, budget=30)
    assert wins >= 6 and 20 - wins - nobody <= 2, (wins, nobody)


def test_agents_option_sets_the_mc_budget():
    from rulelang.play.agents import AgentError, agent_names
    assert agent_names("mc:30,random", 2) == ["mc:30", "random"]
    agent = make_agent("mc:30", 1, 5)
    assert isinstance(agent, MonteCarlo) and agent.budget == 30 and agent.seat == 1
    assert make_agent("mc", 0).budget == 100
    for bad in ("mc:0", "mc:x", "random:3"):
        with pytest.raises(AgentError):
            agent_names(bad, 2)


def test_determinize_puts_remembered_cards_where_they_were_seen():
    game = load("examples/sevens.cardrules")
    st = game.new_game(2, seed=3)
    rng = random.Random(1)
    for _ in range(12):
        _step(st, rng)
    cg = st.game
    pile = cg.zone_base["pile"]
    names = [cg.card_names[c] for c in st.zones[pile]]
    assert len(names) > 3
    known = {"pile": dict(enumerate(names[:-1]))}
    for s in range(5):
        d = st.determinize(0, s, known)
        assert [cg.card_names[c] for c in d.zones[pile]] == names
        assert d.observation(0) == st.observation(0)
        assert _cards(d) == _cards(st)
    # a belief that cannot hold (a card the player holds) is ignored
    mine = cg.card_names[st.zones[cg.zone_base["hand"]][0]]
    d = st.determinize(0, 1, {"pile": {0: mine}})
    assert d.observation(0) == st.observation(0)


def test_mc_remembers_the_tops_it_has_seen():
    agent = MonteCarlo(0, 1)
    pile = lambda size, top: {"zones": {"pile": {"top": top, "size": size}, "stock": {"size": 9}}}
    agent._remember(pile(1, "3♣"))
    agent._remember(pile(2, "4♣"))
    agent._remember(pile(4, "9♥"))
    assert agent.memory["pile"] == ["3♣", "4♣", None, "9♥"]
    assert agent._known() == {"pile": {0: "3♣", 1: "4♣"}}
    agent._remember(pile(1, "9♥"))          # all but the top taken away: nothing known below
    assert agent._known() == {}


class _ApiMonteCarlo(MonteCarlo):
    """The mc agent with its playouts through the public API (as before the fast path)."""

    def _playout(self, st, key):
        from rulelang.play.agents import _pick
        left = self.max_decisions
        count = [0] * st.n
        while not st.is_terminal() and left > 0:
            left -= 1
            for q in list(st.current_players()):
                st.apply_action(_pick(st.legal_actions(q), key, q, count[q]), q)
                count[q] += 1
                if st.is_terminal() or not st.is_simultaneous():
                    break
        return st.returns()


@pytest.mark.parametrize("path,max_decisions", [(CRAZY, 2000), ("rules/internecine.cardrules", 2000),
                                                 ("rules/ciq.cardrules", 7)])
def test_mc_playouts_on_the_fast_path_choose_as_through_the_api(path, max_decisions):
    """The same seed gives the same mc game whether its playouts run on the fast path or through
    legal_actions/apply_action (also when they stop at max_decisions)."""
    game = load(path)
    logs = []
    for cls in (MonteCarlo, _ApiMonteCarlo):
        st = game.new_game(2, seed=5, log=True)
        _play_out(st, [cls(0, 5, budget=12, max_decisions=max_decisions), make_agent("random", 1, 5)])
        logs.append((st.log, st.winners, st.to_json()))
    assert logs[0] == logs[1]
    assert len(logs[0][0]) > 5
