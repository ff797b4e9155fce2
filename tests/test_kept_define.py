"""`if D is not none ...: set V to D` computes D once (Attack!'s `compare`, `if
battle_over: set winner to higher`, computed `higher`, four strengths, twice an exchange): the
test keeps D's value (``(_wN := ...)``, Context.kept) and the branch's first statement reads it.
Only where D is the very first thing the test computes, rolls no die and is not known before the
game; the statements after the first compute D again (the first may have changed it).  Likewise
a choice between values, `(A if C1, B if C2, ... otherwise)`, keeps the defines its first
condition computes for sure (each strength of `higher`) for the conditions and values after it
(exprnodes.kept_by_first).

Checked: the generated code where it applies and where it must not, and games equal to the
reference interpreter's (which computes D each time), move for move."""
import re

import pytest

from rulelang.compile.loader import load
from rulelang.compile.rulegen import RuleGen

from closures import three_ways

HEAD = '''game "g"
players 2 to 3
option strict = no one of yes, no
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: per player, face up
var best: player = none
var count = 0
define bigger = (you if size of hand > size of hand of next player, next player if size of hand of next player > size of hand, none otherwise)
define lucky = (you if roll d6 > 3, none otherwise)
define fixed = (player 1 if strict, none otherwise)
define top_rank(p) = rank of top of hand of p
define higher = (you if top_rank(you) > top_rank(next player), next player if top_rank(next player) > top_rank(you), none otherwise)
define odd = (you if (top_rank(you) > 3 or yes) and count > 0, next player if top_rank(you) > 5, none otherwise)
define leader = (you if top_rank(you) > top_rank(next player), next player if top_rank(next player) > top_rank(you), you otherwise)
define maybe = (you if size of hand > 1 and top_rank(you) > 5, next player if top_rank(you) > 2, none otherwise)
game ends when stock is empty:
    end game with no winner
setup:
    shuffle stock
turn:
    move top card from stock to hand
'''

KEPT = '''    if bigger is not none or hand is empty:
        set best to bigger
        move top card from stock to hand of next player
        set best to bigger
'''

# A choice between values whose first condition computes defines that later conditions use
# again: kept there (each strength of Attack!'s `higher`).
HIGHER = "    set best to higher\n"

NOT_KEPT = {
    "first use under a condition": "    set best to maybe\n",
    # a part known before the game is a constant in the code: nothing in it is computed (the
    # value was kept inside `top_rank(you) > 3 or yes`, whose code is 1, and read unbound)
    "inside a known part": "    set best to odd\n",
    "second": "    if hand is empty or bigger is not none:\n        set best to bigger\n",
    "not first statement": "    if bigger is not none:\n        add 1 to count\n        set best to bigger\n",
    "die": "    if lucky is not none:\n        set best to lucky\n",
    "known": "    if fixed is not none:\n        set best to fixed\n",
}


def _write(tmp_path, text):
    path = tmp_path / "g.cardrules"
    path.write_text(HEAD + text + "    choose:\n        go_on:\n            pass\n", encoding="utf-8")
    return str(path)


def _turn(cg, playout):
    rg = RuleGen(cg, playout=playout)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.proc_index["turn"])
    return rg.src


@pytest.mark.parametrize("playout", [False, True], ids=["api", "playout"])
def test_the_test_keeps_the_value_for_the_first_statement(tmp_path, playout):
    src = _turn(load(_write(tmp_path, KEPT)).compiled(2), playout)
    kept = re.findall(r"\((_w\d+) := ", src)
    assert kept and len(set(kept)) == 1, src
    name = kept[0]
    lines = src.splitlines()
    at = next(i for i, l in enumerate(lines) if f"({name} := " in l)
    # the first `set` (a player: stored as it is, an int already)
    assert lines[at + 1].strip().endswith(f"= {name}"), src
    assert src.count(name) == 2 * (src.count(f"({name} := ")), src    # read once per copy
    # the second `set` computes D again (after the move, which changes the hands)
    assert sum(1 for l in lines[at + 2:at + 12] if "size" in l or "len(" in l) >= 1, src


@pytest.mark.parametrize("playout", [False, True], ids=["api", "playout"])
def test_a_choice_between_values_keeps_what_its_first_condition_computes(tmp_path, playout):
    src = _turn(load(_write(tmp_path, HIGHER)).compiled(2), playout)
    line = next(l for l in src.splitlines() if ":=" in l)
    kept = re.findall(r"\((_w\d+) := ", line)
    assert len(kept) == 2, line                       # top_rank(you), top_rank(next player)
    a, b = kept
    assert f"({b} > {a})" in line, line               # the second condition reads them
    assert line.count("_none") == 2, line             # each top looked up once


# The same choice inside what a loop goes through (the cards of `table of leader`, a list of
# actions): Python binds no name there, so nothing is kept (it was an internal error, exit 3:
# "assignment expression cannot be used in a comprehension iterable expression").
ITERATED = ("    move top card from stock to table\n"
            "    if any card in table of leader where roll d6 > 3:\n"
            "        add 1 to count\n"
            "    set best to leader\n"
            "    choose:\n"
            "        take card c from table of leader:\n"
            "            move c from table of leader to stock\n")


def test_nothing_is_kept_in_what_a_loop_goes_through(tmp_path):
    cg = load(_write(tmp_path, ITERATED)).compiled(2)
    for playout in (False, True):
        src = _turn(cg, playout)
        for line in src.splitlines():
            if " for " in line and ":=" in line:
                # a kept value only in the value set (`set best to leader`), never in a loop's line
                assert line.index(":=") < line.index(" for "), line
        assert any(":=" in line and "_gv[0]" in line or "g.vars[0]" in line and ":=" in line
                   for line in src.splitlines()), src


@pytest.mark.parametrize("kind", sorted(NOT_KEPT))
def test_nothing_is_kept_otherwise(tmp_path, kind):
    text = NOT_KEPT[kind]
    for strict in ("no", "yes"):
        path = _write(tmp_path, text.replace("option strict = no", f"option strict = {strict}"))
        src = _turn(load(path).compiled(2), True)
        assert ":=" not in src and not re.search(r"\b_w\d+\b", src), (kind, src)   # none read


@pytest.mark.parametrize("kind", ["kept", "higher", "iterated"] + sorted(NOT_KEPT))
def test_games_are_those_of_the_reference_interpreter(tmp_path, monkeypatch, kind):
    path = _write(tmp_path, {"kept": KEPT, "higher": HIGHER, "iterated": ITERATED}.get(kind)
                  or NOT_KEPT[kind])
    winners = set()
    for seed in range(6):
        for n in (2, 3):
            st = three_ways(path, n, seed, monkeypatch, ("outcome", "zones", "vars"))
            winners.add(st.vars[0])
    if kind in ("kept", "die", "higher", "iterated"):
        assert len(winners) > 1     # `best` took more than one value
