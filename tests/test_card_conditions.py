"""Conditions over cards as the generated code writes them: `any/no card in Z where C`
is a search that stops at the first card that passes, a rank read several times is looked up
once per card, what one branch of `X if C else Y` needs is computed only when C says so, and
`not (a is b) and (a is b or c)` tests a once.  Played in the generated code and in the closures
(the reference interpreter), against the same questions answered here in Python."""
import pytest

from rulelang.compile.loader import load

from closures import closures_only

TEXT = '''game "g"
players 1
deck standard, into stock
zone stock: shared, face up
zone table: shared, face up
var flip = no
define near(c) = rank of c is 7 or rank of c is rank after 7 or rank of c is rank before 7
define pick(c) = (near(c) if flip else rank of c is rank after rank of top of stock)
setup:
    shuffle stock
    move 6 cards from stock to table
turn:
    say any card in table where near(card)
    say any card in table where not (rank of card is 7) and (rank of card is 7 or suit of card is suit of top of stock)
    say no card in table where pick(card)
    set flip to yes
    say no card in table where pick(card)
    say number of cards in table where pick(card)
    end game with no winner
'''

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _card(name):
    return RANKS.get(name[:-1]) or int(name[:-1]), name[-1]


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_conditions_over_cards_as_python_says(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    path = tmp_path / "g.cardrules"
    path.write_text(TEXT)
    game = load(str(path))
    answers = set()
    for seed in range(60):
        st = game.new_game(1, seed=seed, log=True)
        assert st.problem is None
        zones = st.observation(0)["zones"]
        table = [_card(c) for c in zones["table"]]
        top_rank, top_suit = _card(zones["stock"][-1])
        near = [r in (6, 7, 8) for r, _ in table]
        after_top = top_rank % 13 + 1                     # the ranks go round: K, then A
        want = ["yes" if any(near) else "no",
                "yes" if any(r != 7 and s == top_suit for r, s in table) else "no",
                "no" if any(r == after_top for r, _ in table) else "yes",
                "no" if any(near) else "yes",
                str(sum(near))]
        said = [e[2] for e in st.log if e[0] == "say"]
        assert said == want, (seed, zones)
        answers.add(tuple(said[:4]))
    assert len(answers) > 4          # the seeds reach both answers of each question
