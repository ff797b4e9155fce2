"""Families of zones (`zone column 1 to 7: ...`, `column(k)`), played in the
generated code and in the closures: the deal into the columns, moves between columns chosen by a
number, and a number outside the family (RL256)."""
import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only
from gametest import choices

TEXT = '''game "g"
players 1
deck standard, into stock
zone stock: shared, face down
zone column 1 to 7 "Column": shared, face up
zone foundation: shared, face up
setup:
    shuffle stock
    let k = 1
    repeat 7 times:
        repeat k times:
            move top card from stock to column(k)
        set k to k + 1
turn:
    choose:
        lift number n from 1 to 7 where column(n) is not empty:
            move bottom of column(n) and every card on top of it from column(n) to foundation
            say "lifted", n, size of foundation
    if any number k from 1 to 7 where column(k) is not empty:
        pass
    else:
        end game with no winner
'''


def _play(path, backend, monkeypatch, seed):
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(str(path)).new_game(1, seed=seed, log=True)
    first = st.observation(0)["zones"]
    lifted = []
    while not st.is_terminal():
        labels = choices(st)
        zones = st.observation(0)["zones"]
        assert set(labels) == {f"lift {n}" for n in range(1, 8) if zones[f"column_{n}"]}
        label = sorted(labels)[-1]
        lifted.append(zones[f"column_{label.split()[1]}"])
        st.apply_action(labels[label])
    return st, first, lifted


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_deal_and_lift_the_columns(tmp_path, monkeypatch, backend):
    path = tmp_path / "g.cardrules"
    path.write_text(TEXT)
    assert [d.code for d in check_file(str(path))[0]] == []
    st, first, lifted = _play(path, backend, monkeypatch, 3)
    assert st.problem is None
    assert [len(first[f"column_{k}"]) for k in range(1, 8)] == list(range(1, 8))
    assert first["stock"]["size"] == 52 - 28
    # the highest column first, lifted whole, in its order, onto the foundation
    assert lifted == [first[f"column_{k}"] for k in range(7, 0, -1)]
    assert st.observation(0)["zones"]["foundation"] == sum(lifted, [])
    says = [e[2] for e in st.log if e[0] == "say"]
    assert says[0] == "lifted 7 7" and says[-1] == "lifted 1 28"


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_number_outside_the_family(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    path = tmp_path / "g.cardrules"
    path.write_text(TEXT.replace("repeat 7 times:\n        repeat k", "repeat 8 times:\n        repeat k"))
    st = load(str(path)).new_game(1, seed=1, log=True)
    assert st.problem["code"] == "RL256" and st.problem["span"][1] == 12, st.problem
    assert "there is no column 8" in st.problem["message"]
