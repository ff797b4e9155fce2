"""The first game a newcomer reads, the Crazy Eights at the top of README.md, is a complete
game: copied out of the README as it stands, it checks clean and every game of it ends by its
own rules (a winner), never by the step budget or a problem, over 1,000 seeds at every number
of players it allows."""
import os
import random
import re

import pytest

from rulelang.compile.loader import check_file, load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = 1000


def first_game_of_readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        text = fh.read()
    m = re.search(r"^```cardrules\n(.*?)^```$", text, re.S | re.M)
    assert m, "README.md shows no ```cardrules block"
    return m.group(1)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("readme") / "first_game.cardrules"
    path.write_text(first_game_of_readme(), encoding="utf-8")
    diags, model, _ = check_file(str(path))
    assert model is not None and [str(d) for d in diags] == []
    return load(str(path)), model


def test_the_first_block_is_a_whole_game(game):
    _g, model = game
    assert tuple(model.players) == (2, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seed_ends_with_a_winner(game, players):
    g, _model = game
    cg = g.compiled(players)
    unfinished = []
    for seed in range(SEEDS):
        rng = random.Random(seed)
        st = cg.playout(seed, [rng.randrange] * players)
        if not (st.is_terminal() and st.problem is None and len(st.winners) == 1):
            unfinished.append(seed)
    assert unfinished == [], f"{len(unfinished)} of {SEEDS} games did not end: seeds {unfinished[:10]}"


def test_games_through_the_api_end_too(game):
    """The same rules through the public API, with the first legal choice (the agent that
    never varies), for 100 seeds."""
    g, _model = game
    for seed in range(100):
        st = g.new_game(2, seed=seed)
        while not st.is_terminal():
            p = st.current_player()
            st.apply_action(st.legal_actions(p)[0], p)
        assert st.problem is None and len(st.winners) == 1, seed
