"""A player value that is `none` used as a player (whose hand, who chooses, the winner...): the
compiled game used seat -1 (Python's last item: another player's hand, "Player 0 wins!", or an
IndexError, exit 3; found by the fuzzer).  Now `none` written there is RL197 at check time, and a
variable or parameter that holds `none` when the game uses it stops the game with RL912 at its
place, in generated code and in closures alike."""
import pytest

from rulelang.compile.compiler import CompiledGame
from rulelang.compile.loader import RuleFileError, load

from closures import closures_only

HEAD = '''game "g"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var p1: player = none
var pts per player = 0
setup:
    shuffle stock
turn:
'''

USES = [   # the statements using p1 (line 11 of the file; the problem points at p1)
    "move top card from stock to hand of p1",
    "end game with winner p1",
    "add 1 to pts of p1",
    "move top card from stock to hand of player after p1",
    "next turn goes to p1",
    "if score of p1 > 0:\n        pass",
    "choose by p1:\n        a:\n            pass\n        b:\n            pass",
]


def play(path, n, closures=False, monkeypatch=None):
    model = load(str(path)).model
    if closures:            # every expression and rule as closures (the reference)
        closures_only(monkeypatch)
    cg = CompiledGame(model, n)
    st = cg.new_game(seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    return st


@pytest.mark.parametrize("closures", [False, True], ids=["generated", "closures"])
@pytest.mark.parametrize("use", list(USES), ids=[u.split()[0] + "_" + u.split()[-1] for u in USES])
def test_a_none_player_used_as_a_player_stops_the_game_with_rl912(tmp_path, monkeypatch, use, closures):
    path = tmp_path / "g.cardrules"
    path.write_text(HEAD + "    " + use + "\n    end game with no winner\nscore: size of hand\n", encoding="utf-8")
    st = play(path, 3, closures, monkeypatch)
    assert st.outcome == "error" and st.problem["code"] == "RL912", (st.outcome, st.problem)
    assert "`none`" in st.problem["message"]
    assert tuple(st.problem["span"][1:]) == (11, 4 + use.index("p1") + 1)


def test_a_player_that_is_set_is_used_as_before(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(HEAD + "    set p1 to player 2\n    move top card from stock to hand of p1\n"
                    "    end game with winner p1\n", encoding="utf-8")
    st = play(path, 3)
    assert st.outcome == "win" and st.winners == [1]


@pytest.mark.parametrize("use", ["move top card from stock to hand of none",
                                 "end game with winner none", "choose by none:\n        a:\n            pass"])
def test_none_written_as_a_player_is_rl197(tmp_path, use):
    path = tmp_path / "g.cardrules"
    path.write_text(HEAD + "    " + use + "\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(str(path))
    codes = [d.code for d in err.value.diagnostics]
    assert "RL197" in codes, codes


# A player value that is always a seat needs no test for `none` in the generated code (issue
# 17: the test was a call of `_seat` at each use of `attacker` in Attack!).  What is always a
# seat: `you`, the current, next and previous player, `player after P`, a define that is one of
# them, and the player of a loop over players that no `set` changes.  A loop's player that a
# `set` may make `none` is still tested where it is used as a player.

SEATS = HEAD.replace("turn:\n", '''define leader = current player
define follower = next player
define either = (leader if number of turns > 2 else follower)
turn:
''')


def test_a_player_that_is_always_a_seat_is_not_tested_for_none(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(SEATS + "    move top card from stock to hand of leader\n"
                    "    move top card from stock to hand of follower\n"
                    "    move top card from stock to hand of either\n"
                    "    for each player p:\n"
                    "        move top card from stock to hand of p\n"
                    "    if any player where hand of player is empty:\n"
                    "        pass\n"
                    "    end game with winner leader\n", encoding="utf-8")
    cg = load(str(path)).compiled(3)
    assert not _names(cg.procs + cg.playout_procs()) & {"_seat", "_noplayer"}
    st = play(path, 3)
    assert st.outcome == "win" and st.winners == [0]      # seats from 0: player 1
    # the leader (player 1) one and one in the loop, the follower (player 2, also `either` in
    # the first turn) two and one, player 3 one in the loop
    assert [len(z) for z in st.zones[1:4]] == [2, 3, 1]


def _names(fns) -> set:
    """Every name the code of the generated functions ``fns`` reads, nested code included."""
    out, todo = set(), [f.__code__ for f in fns if hasattr(f, "__code__")]
    while todo:
        c = todo.pop()
        out |= set(c.co_names)
        todo.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    return out


def test_a_loop_player_that_a_set_changes_is_still_tested(tmp_path, monkeypatch):
    for closures in (False, True):
        path = tmp_path / "g.cardrules"
        path.write_text(HEAD + "    for each player p:\n"
                        "        if p is player 2:\n"
                        "            set p to p1\n"
                        "        move top card from stock to hand of p\n"
                        "    end game with no winner\nscore: size of hand\n", encoding="utf-8")
        if not closures:
            cg = load(str(path)).compiled(3)
            assert "_noplayer" in _names(cg.procs)
        st = play(path, 3, closures, monkeypatch)
        assert st.outcome == "error" and st.problem["code"] == "RL912", (st.outcome, st.problem)
        assert tuple(st.problem["span"][1:]) == (14, 45)    # the `p` of `hand of p`


def test_a_chosen_player_used_through_a_define_is_not_tested_for_none(tmp_path, monkeypatch):
    """The player of `player q from opponents` and of a loop over players, used through a
    define's argument (CIQ's `opens_defense_attack(card, p)`, whose `defense(p)` reads the pile of
    p for each card looked at), is a seat: no test for `none` there either (model.always_seats).  The same player changed by a `set` to a variable that is `none` is still tested,
    and stops the game with RL912, in generated code and closures alike."""
    text = HEAD.replace("turn:\n", "define top_of(q) = rank of top of hand of q\n"
                        "define small(q) = any card in stock where rank of card > top_of(q) + 3\n"
                        "turn:\n")
    path = tmp_path / "g.cardrules"
    path.write_text(text + "    choose:\n"
                    "        give \"give to {q}\" player q from opponents where small(q):\n"
                    "            move top card from stock to hand of q\n"
                    "        stop_now:\n"
                    "            end game with no winner\n"
                    "        loop:\n"
                    "            for each player r:\n"
                    "                if small(r):\n"
                    "                    move top card from stock to hand of r\n"
                    "score: size of hand\n", encoding="utf-8")
    cg = load(str(path)).compiled(3)
    cg.playout_procs()
    helpers = [f for f in cg.gen.ns.values()           # (the searches' functions too)
               if getattr(getattr(f, "__code__", None), "co_filename", "") == "<rulelang>"]
    assert helpers
    assert not _names(cg.procs + cg.playout_procs() + helpers) & {"_seat", "_noplayer"}
    st = play(path, 3)          # (the first action each time: give while some q is small)
    assert st.terminal and st.outcome == "draw" and st.turns > 3, (st.outcome, st.problem)
    changed = text + ("    choose:\n"
                      "        give \"give to {q}\" player q from opponents where small(q):\n"
                      "            set q to p1\n"
                      "            add top_of(q) to pts of player 1\n"
                      "        stop_now:\n"
                      "            end game with no winner\n"
                      "score: size of hand\n")
    path.write_text(changed, encoding="utf-8")
    cg = load(str(path)).compiled(3)
    assert "_noplayer" in _names(cg.procs) or "_seat" in _names(cg.procs)
    for closures in (False, True):
        with monkeypatch.context() as m:
            st = play(path, 3, closures, m)
        assert st.outcome == "error" and st.problem["code"] == "RL912", (closures, st.problem)
