"""Regression: rules compiled as closures only (the fallback when the code generators cannot write
a statement) take the right branch of an `if / else if / else` chain, and a `say` inside a
`choose by` is said by the chooser.  Found by rules/ciq.cardrules, whose closure-only games once
differed from its generated ones (every branch tested the chain's last condition)."""
import pytest

import rulelang.compile.compiler as C
from rulelang.compile.loader import load
from rulelang.play.scenario import play

from closures import closures_only

GAME = '''game "Branches"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var result = 0
setup:
    move top card from stock to hand
turn:
    choose:
        pick number n from 1 to 4:
            if n is 1:
                set result to 10
            else if n is 2:
                set result to 20
            else if n is 3:
                set result to 30
            else:
                set result to 40
            choose by next player:
                answer:
                    say "answers"
            end game with winner you
'''


@pytest.mark.parametrize("closure_only", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_if_chain_takes_the_branch_that_holds(tmp_path, monkeypatch, closure_only, n):
    path = tmp_path / "branches.cardrules"
    path.write_text(GAME, encoding="utf-8")
    game = load(str(path))
    if closure_only:
        closures_only(monkeypatch)
    cg = C.CompiledGame(game.model, 2)
    st = cg.new_game(seed=1, log=True)
    play(st, f"pick {n}", "answer")
    assert st.vars[cg.var_base["result"]] == 10 * n
    assert [(e[1], e[2]) for e in st.log if e[0] == "say"] == [(1, "answers")]   # player 2 said it
