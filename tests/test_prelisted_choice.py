""""If you can play a card, you must choose one to play": `if any card in Z where C:` whose branch
begins with the choice of a card of Z where C looks at the cards once (Follow the
Leader would test every card of the hand, then list the same cards again for the decision).  The
choice's list is made where the `if` tests, and the test is whether it is empty.

Checked: the generated turn lists the cards once (no search function for the `if`), and only
when the two are the same cards (the same zone and condition, the chooser `you`); and games
played in the generated code and in the closures (the reference interpreter, which knows
nothing of this) are the same, move for move, on rule files of every kind of match.

The branch may call a rule that begins with the choice instead (Attack!'s `if can_play:
lay_card`): the list goes to the rule in the slot of the card to choose, which the rule empties
before anything else (a frame never keeps a list: saves hold cards there)."""
import re

import pytest

from rulelang.compile.loader import load
from rulelang.compile.rulegen import RuleGen

from closures import three_ways

HEAD = '''game "g"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone pile: shared, top face up
zone hand: per player, seen by owner
var level = 5
define ok(c) = rank of c >= level or suit of c is suit of top of pile
game ends when hand is empty:
    end game with winner you
setup:
    shuffle stock
    deal 5 from stock to hand of each player
    move top card from stock to pile
turn:
'''

SAME = '''    if any card in hand where ok(card):
        choose:
            play card c from hand where ok(c):
                move c from hand to pile
                set level to rank of c
    else if stock is not empty:
        move top card from stock to hand
        set level to level - 1
    else:
        end game with no winner
'''

# Not the same cards: another zone, another condition, another chooser, a statement between.
OTHER = {
    "condition": SAME.replace("where ok(c):", "where rank of c >= level:"),
    "chooser": SAME.replace("        choose:", "        choose by next player:"),    # their hand
    "between": SAME.replace("        choose:", "        set level to level + 1\n        choose:"),
    "two alternatives": SAME.replace("                set level to rank of c\n",
                                     "                set level to rank of c\n"
                                     "            pass_turn:\n                pass\n"),
}


# The choice in a rule the branch calls; and calls where it is not the same list.
CALL = SAME.replace("        choose:\n            play card c from hand where ok(c):\n"
                    "                move c from hand to pile\n"
                    "                set level to rank of c\n", "        play\n") + (
    "rule play:\n    choose:\n        play card c from hand where ok(c):\n"
    "            move c from hand to pile\n            set level to rank of c\n")
CALL_OTHER = {
    "call for another": CALL.replace("        play\n", "        play for next player\n"),
    "call with a statement first": CALL.replace("rule play:\n",
                                                "rule play:\n    set level to level + 0\n"),
}
OTHER.update(CALL_OTHER)


SEARCH = re.compile(r"if _t\d+\(g, ")      # an `if` that calls the search of `any card in ... where`


def _turn_source(cg, playout=False) -> str:
    rg = RuleGen(cg, playout=playout)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.proc_index["turn"])
    return rg.src


def _write(tmp_path, text):
    path = tmp_path / "g.cardrules"
    path.write_text(HEAD + text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("playout", [False, True], ids=["api", "playout"])
def test_the_cards_are_listed_once(tmp_path, playout):
    cg = load(_write(tmp_path, SAME)).compiled(2)
    src = _turn_source(cg, playout)
    assert src.count(" for ") == 1, src          # one list; no search function for the `if`
    assert not SEARCH.search(src), src


@pytest.mark.parametrize("playout", [False, True], ids=["api", "playout"])
def test_the_cards_are_listed_once_across_a_call(tmp_path, playout):
    cg = load(_write(tmp_path, CALL)).compiled(2)
    src = _turn_source(cg, playout)
    assert src.count(" for ") == 1 and not SEARCH.search(src), src
    listed = re.search(r"(_v\d+) = \[", src).group(1)
    assert re.search(rf"\[\d+, 0, fr\[2\], 0, {listed}\]", src), src    # in the card's slot


def test_a_list_given_to_a_rule_never_stays_in_its_frame(tmp_path):
    """At every decision (in the called rule) its frame holds no list, and the game saves and
    loads back as it is."""
    from rulelang.engine.runtime import State
    cg = load(_write(tmp_path, CALL)).compiled(3)
    decided = 0
    for seed in range(6):
        st = cg.new_game(seed=seed)
        while not st.is_terminal():
            assert not any(isinstance(x, list) for fr in st.stack for x in fr), st.stack
            assert State.from_json(cg, st.to_json()).to_json() == st.to_json()
            st.apply_action(st.legal_actions()[-1])
            decided += 1
    assert decided > 30


@pytest.mark.parametrize("kind", sorted(OTHER))
def test_other_cards_are_still_tested_apart(tmp_path, kind):
    cg = load(_write(tmp_path, OTHER[kind])).compiled(2)
    src = _turn_source(cg)
    assert SEARCH.search(src), (kind, src)        # the `if` searches the cards itself


@pytest.mark.parametrize("kind", ["same", "call"] + sorted(OTHER))
def test_games_are_those_of_the_reference_interpreter(tmp_path, monkeypatch, kind):
    path = _write(tmp_path, {"same": SAME, "call": CALL}.get(kind) or OTHER[kind])
    plays = 0
    for seed in range(12):
        for n in (2, 3):
            # (not the frames: their scratch slots may differ, the closures keep a search's
            # last card)
            st = three_ways(path, n, seed, monkeypatch,
                            ("outcome", "winners", "zones", "vars", "turns"))
            plays += sum(1 for e in st.log if e[0] == "choice")
    assert plays > 50          # (a condition other than the if's may leave no card to choose: RL problem)
