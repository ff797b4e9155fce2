"""The fast path against the API on generated rule files (benchmarks/fuzzgen.py: grammar-made
games and mutants of every file of rules/ and examples/): each input that checks clean is
played through the API and on the playout fast path (from the state new_game makes, and from
the seed: CompiledGame.playout), with random and first-choice agents,
for the smallest allowed numbers of players and two seeds, and the two must end in the same
state (the whole save) with the same raw memories (what players remember, which a save
filters).  Measured once with RULELANG_FUZZ_PLAYOUT raised: 10,068 comparisons on 1,548 such
files, no difference; a playout that forgot a card only at the next decision, not as it left
its zone, differed in 435 of 6,424.
`RULELANG_FUZZ_PLAYOUT=N` tries N inputs instead of the default."""
import os
import signal

import pytest

from rulelang.compile.loader import load
from rulelang.play.agents import View, make_agent
from rulelang.syntax.diagnostics import RuleFileError

from gametest import generated_files, within

COUNT = int(os.environ.get("RULELANG_FUZZ_PLAYOUT", "400"))


def _api_game(cg, seed, kind):
    st = cg.new_game(seed=seed, max_steps=3000)
    agents = [make_agent(kind, p, seed) for p in range(cg.n)]
    while not st.is_terminal():
        for p in list(st.current_players()):
            st.apply_action(agents[p].act(View(st, p)), p)
            if st.is_terminal() or not st.is_simultaneous():
                break
    return st


def _policy(cg, seed, kind):
    if kind == "random":        # the draws of the random agent (UniformRandom)
        return [make_agent("random", p, seed).rng.randrange for p in range(cg.n)]
    return [(0).__mul__] * cg.n


def _fast_game(cg, seed, kind):
    st = cg.new_game(seed=seed, max_steps=3000)
    st.playout(_policy(cg, seed, kind))
    return st


def _seeded_game(cg, seed, kind):
    """The same game from the seed (CompiledGame.playout: the setup and the first decision in
    the playout variants too)."""
    return cg.playout(seed, _policy(cg, seed, kind), max_steps=3000)


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="needs SIGALRM for its time limit")
def test_generated_games_end_alike_on_the_fast_path_and_through_the_api(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    compared, differ = 0, []
    for i, source, path in generated_files(tmp_path, 7, COUNT):
        with within(5, RuleFileError):      # (a file whose games are too long for a test: left)
            game = load(str(path))
            lo, hi = game.players
            for n in sorted({lo, min(hi, lo + 2)}):
                cg = game.compiled(n)
                for seed in (0, 1):
                    for kind in ("random", "first"):
                        api, fast = _api_game(cg, seed, kind), _fast_game(cg, seed, kind)
                        seeded = _seeded_game(cg, seed, kind)
                        compared += 1
                        if api.to_json() != fast.to_json() or \
                                list(api.shown) != list(fast.shown) or \
                                api.to_json() != seeded.to_json() or \
                                list(api.shown) != list(seeded.shown):
                            differ.append((i, source, n, seed, kind))
    assert not differ, f"fast path and API differ (input, source, players, seed, agent): {differ}"
    assert compared >= COUNT // 10, compared       # (not only files that fail to check)
