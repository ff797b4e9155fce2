"""`move N cards where C` (exactly N), `move up to N cards where C` and
`move c and every card on top of it`, played in the generated code and in the closures: which
cards move, in which order they arrive, and what stops the game."""
import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only

# No shuffle: the stock is the deck in its order, A♣ at the bottom and K♠ on top.
HEAD = '''game "g"
players 1
deck standard, into stock
zone stock: shared, face up
zone table: shared, face up
zone pile: shared, face up
turn:
'''


def _run(tmp_path, monkeypatch, backend, body):
    if backend == "closures":
        closures_only(monkeypatch)
    path = tmp_path / "g.cardrules"
    path.write_text(HEAD + body + "    end game with no winner\n")
    diags, _m, _d = check_file(str(path))
    assert [d.code for d in diags if d.is_error] == []
    st = load(str(path)).new_game(1, seed=1, log=True)
    assert st.is_terminal()
    zones = st.observation(0)["zones"]
    return st, zones


BACKENDS = ["generated", "closures"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_exactly_n_cards_that_match_one_at_a_time_from_the_top(tmp_path, monkeypatch, backend):
    st, z = _run(tmp_path, monkeypatch, backend,
                 "    move 3 cards where rank of card is 7 from stock to table\n")
    assert st.problem is None
    # the sevens from the top down: spades, hearts, diamonds; the first taken ends lowest
    assert z["table"] == ["7♠", "7♥", "7♦"]
    assert "7♣" in z["stock"] and len(z["stock"]) == 49


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_same_order_as_move_n_cards(tmp_path, monkeypatch, backend):
    _, z = _run(tmp_path, monkeypatch, backend,
                "    move 3 cards from stock to table\n"
                "    move 3 cards where yes from stock to pile\n")
    assert z["table"] == ["K♠", "Q♠", "J♠"] and z["pile"] == ["10♠", "9♠", "8♠"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_up_to_n_cards_moves_what_there_is(tmp_path, monkeypatch, backend):
    st, z = _run(tmp_path, monkeypatch, backend,
                 "    move up to 6 cards where rank of card is queen from stock to table\n"
                 "    move up to 2 cards where suit of card is clubs from stock to bottom of pile\n"
                 "    move up to 2 cards where suit of card is hearts from stock to pile turned over\n")
    assert st.problem is None
    assert z["table"] == ["Q♠", "Q♥", "Q♦", "Q♣"]
    # to the bottom: the block goes under, in the order it was taken; turned over: reversed
    assert z["pile"] == ["K♣", "J♣", "J♥", "K♥"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_fewer_than_exactly_n_stops_the_game(tmp_path, monkeypatch, backend):
    st, z = _run(tmp_path, monkeypatch, backend,
                 "    move 2 cards where rank of card is 5 from stock to table\n"
                 "    move 3 cards where rank of card is 5 from stock to table\n")
    assert st.outcome == "error" and st.problem["code"] == "RL258", st.problem
    assert st.problem["span"][1] == 9
    assert "which has 2" in st.problem["message"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_card_and_every_card_on_top_of_it(tmp_path, monkeypatch, backend):
    st, z = _run(tmp_path, monkeypatch, backend,
                 "    for each card c in stock:\n"
                 "        if rank of c is jack and suit of c is spades:\n"
                 "            move c and every card on top of it from stock to table\n"
                 "            stop\n"
                 "    move bottom of stock and every card on top of it from stock to bottom of pile\n")
    assert st.problem is None
    # lifted as a block, in its order, like `move all cards`
    assert z["table"] == ["J♠", "Q♠", "K♠"]
    assert z["pile"][:2] == ["A♣", "2♣"] and len(z["pile"]) == 49 and z["stock"] == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_card_that_is_not_there(tmp_path, monkeypatch, backend):
    st, _ = _run(tmp_path, monkeypatch, backend,
                 "    move top of stock from stock to table\n"
                 "    move top of table and every card on top of it from stock to pile\n")
    assert st.problem["code"] == "RL902" and st.problem["span"][1] == 9


def test_a_count_of_no_cards_is_refused(tmp_path):
    path = tmp_path / "g.cardrules"
    path.write_text(HEAD + "    move 0 cards where rank of card is 5 from stock to table\n"
                    "    move up to -1 cards where yes from stock to table\n"
                    "    move 1 cards where card from stock to table\n"
                    "    end game with no winner\n")
    diags, _m, _d = check_file(str(path))
    assert [(d.code, d.span.line) for d in diags if d.is_error] == [("RL250", 8), ("RL250", 9), ("RL102", 10)]


@pytest.mark.parametrize("body", [
    "    move 3 cards where rank of card is 7 from stock to table turned over\n",
    "    move up to 2 cards where suit of card is hearts from stock to bottom of pile\n",
    "    move bottom of stock and every card on top of it from stock to pile\n",
])
def test_counted_moves_are_generated_code(tmp_path, monkeypatch, body):
    """The generated code writes counted moves itself: with the closures' counted move taken
    away, the game still compiles to generated code and plays as the closures play it."""
    closures_st, closures_z = _run(tmp_path, monkeypatch, "closures", body)
    monkeypatch.undo()
    import reference.closure_statements as CS

    def refuse(*args, **kwargs):
        raise AssertionError("the counted move's closure was used")
    monkeypatch.setattr(CS.ClosureStatements, "counted_move", refuse)
    st, z = _run(tmp_path, monkeypatch, "generated", body)
    assert z == closures_z and st.log == closures_st.log
    assert z["table"] or z["pile"]
