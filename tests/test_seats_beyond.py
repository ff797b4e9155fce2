"""A seat that exists only with more players (`player 2` in a game for 1 to 2, `player 4` in a
game for 2 to 4): comparing with it is simply unequal; using it as a player with fewer players
stops the game with RL908 at its place (it was an IndexError, exit 3, found by the fuzzer)."""
from rulelang.compile.loader import load

HEAD = '''game "g"
players 1 to 4
deck standard, into stock
zone stock: shared, face down
zone won: per player, seen by owner
setup:
    shuffle stock
'''


def play(text, n, tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(text, encoding="utf-8")
    st = load(str(path)).compiled(n).new_game(seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    return st


def test_using_a_seat_beyond_the_players_is_rl908(tmp_path):
    st = play(HEAD + "turn:\n    move top card from stock to won of player 3\n"
              "    end game with no winner\n", 2, tmp_path)
    assert st.outcome == "error" and st.problem["code"] == "RL908"
    assert "there is no player 3 when 2 players play" in st.problem["message"]
    assert st.problem["span"][1:] == [9, 40]          # at `player 3`


def test_comparing_with_a_seat_beyond_the_players_is_unequal(tmp_path):
    st = play(HEAD + "turn:\n    if current player is not player 4 and not (current player is player 3):\n"
              "        end game with winner you\n    end game with no winner\n", 2, tmp_path)
    assert st.outcome == "win" and st.winners == [0]
    # with four players the same rules compare with a real seat
    st = play(HEAD + "turn:\n    if current player is player 4:\n        end game with no winner\n"
              "    end game with winner you\n", 4, tmp_path)
    assert st.winners == [0]
