"""`any number n from A to B where C`, played in the generated code and in the
closures against the same question answered here in Python, and its limits (RL251, RL257)."""
import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only

TEXT = '''game "g"
players 1
deck standard, into stock
zone stock: shared, face up
zone table: shared, face up
setup:
    shuffle stock
    move 6 cards from stock to table
turn:
    say any number k from 1 to 12 where (any card in table where rank of card is k) and \\
        (any card in table where rank of card is 13 - k)
    say any number k from 1 to size of table where (number of cards in table where rank of card >= k) is 6
    say any number k from 5 to 4 where yes
    say any number k from hi to hi + 2 where k is 3
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_any_number_as_python_says(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    path = tmp_path / "g.cardrules"
    path.write_text(TEXT.replace("hi to hi", "1 to 1"))
    game = load(str(path))
    seen = set()
    for seed in range(40):
        st = game.new_game(1, seed=seed, log=True)
        assert st.problem is None
        names = st.observation(0)["zones"]["table"]
        ranks = [{"A": 1, "J": 11, "Q": 12, "K": 13}.get(c[:-1]) or int(c[:-1]) for c in names]
        pair = any(k in ranks and 13 - k in ranks for k in range(1, 13))
        low = any(sum(r >= k for r in ranks) == 6 for k in range(1, 7))
        want = ["yes" if pair else "no", "yes" if low else "no", "no", "yes"]
        assert [e[2] for e in st.log if e[0] == "say"] == want
        seen.add(pair)
    assert seen == {True, False}


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_range_too_long_while_playing(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    path = tmp_path / "g.cardrules"
    path.write_text(TEXT.replace("hi to hi + 2", "1 to size of stock * 1000"))
    st = load(str(path)).new_game(1, seed=1, log=True)
    assert st.problem["code"] == "RL257" and st.problem["span"][1] == 14, st.problem


def test_a_range_too_long_as_written(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(TEXT.replace("hi to hi + 2", "1 to 20000"))
    diags, _m, _d = check_file(str(path))
    assert [(d.code, d.span.line) for d in diags if d.is_error] == [("RL251", 14)]


# `highest/lowest number n from A to B where C` tries its range number by number too: the same
# bound (without it, `from 0 to 10^15` would run for ever).
PICK = TEXT.replace("    say any number k from hi to hi + 2 where k is 3\n",
                    "    say highest number k from 1 to FAR where k is 0 - 1\n"
                    "    say lowest number k from 1 to FAR where k is 0 - 1\n")


@pytest.mark.parametrize("backend", ["generated", "closures"])
@pytest.mark.parametrize("kind", ["highest", "lowest"])
def test_a_range_to_pick_from_too_long_while_playing(tmp_path, monkeypatch, backend, kind):
    if backend == "closures":
        closures_only(monkeypatch)
    path = tmp_path / "g.cardrules"
    other = "lowest" if kind == "highest" else "highest"
    text = PICK.replace(f"    say {other} number k from 1 to FAR where k is 0 - 1\n", "")
    path.write_text(text.replace("FAR", "size of stock * 1000000000000"))
    st = load(str(path)).new_game(1, seed=1, log=True)
    assert st.problem["code"] == "RL257" and st.problem["span"][1] == 14, st.problem


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_range_to_pick_from_at_the_bound_is_tried_whole(tmp_path, monkeypatch, backend):
    """10,000 numbers (the most a range may hold) are all tried: none holds, the value is 0."""
    if backend == "closures":
        closures_only(monkeypatch)
    path = tmp_path / "g.cardrules"
    path.write_text(PICK.replace("FAR", "10000"))
    st = load(str(path)).new_game(1, seed=1, log=True)
    assert st.problem is None
    assert [e[2] for e in st.log if e[0] == "say"][-2:] == ["0", "0"]


def test_a_range_to_pick_from_too_long_as_written(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(PICK.replace("FAR", "1000000000000000"))
    diags, _m, _d = check_file(str(path))
    assert [(d.code, d.span.line) for d in diags if d.is_error] == [("RL251", 14), ("RL251", 15)]
