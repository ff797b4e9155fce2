"""The shape of the generated code where it decides the speed of a playout (session 19, issue
17): lists of actions made without a comprehension, lists known before the game copied from
one tuple, the blocks a playout jumps to chosen first.  Each test fails on the code before."""
import re

import pytest

from rulelang.compile.loader import load
from rulelang.compile.rulegen import RuleGen

FILES = ["examples/crazy_eights.cardrules", "rules/attack.cardrules", "rules/attack_power.cardrules",
         "rules/attack_cross.cardrules", "rules/ciq.cardrules", "rules/follow_the_leader.cardrules",
         "rules/follow_the_leader_one_lower.cardrules", "rules/internecine.cardrules"]


def _codes(code):
    """``code`` and the code objects inside it (a comprehension is one)."""
    yield code
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            yield from _codes(c)


@pytest.mark.parametrize("path", FILES)
def test_lists_of_actions_make_no_comprehension(path):
    """In Python 3.11 a comprehension is a function made and called at each use, and every name
    it reads becomes a cell of the function around it (each read of it slower): a choice's list
    is a loop.  No function of these games, through the API or in a playout, has a cell, and
    their turns build no comprehension at all."""
    cg = load(path).compiled(2 if "ciq" not in path else 4)
    turn = cg.proc_index["turn"]
    procs = cg.procs + cg.playout_procs()
    for f in procs:
        if hasattr(f, "__code__"):
            assert not any(c.co_cellvars for c in _codes(f.__code__)), (path, f.__code__.co_firstlineno)
    for f in (cg.procs[turn], cg.playout_procs()[turn], cg.procs[cg.turn_top], cg.playout_procs()[cg.turn_top]):
        names = {c.co_name for c in _codes(f.__code__)}
        assert not names & {"<listcomp>", "<genexpr>", "<setcomp>", "<dictcomp>"}, (path, names)


def test_a_list_known_before_the_game_is_one_tuple():
    """Crazy Eights' `name suit s` offers every suit: the list is the tuple of the four actions,
    made when the game is compiled and copied at each decision (no loop over the suits)."""
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    for procs in (cg.procs, cg.playout_procs()):
        f = procs[cg.turn_top]
        ns = f.__globals__
        held = [n for c in _codes(f.__code__) for n in c.co_names
                if ns.get(n) == (1024, 1025, 1026, 1027)]
        assert held, "the suits' actions are not one tuple"


def test_a_playout_chooses_the_blocks_it_jumps_to_first():
    """After the alternatives' bodies are copied where they are chosen, the jumps left in a
    playout variant go to hot blocks (Attack!'s `repeat until over` goes back to its first
    block at each round); the other blocks are entered only where a frame is resumed.  Each
    block jumped to has its own test of `pc`, before the halving of the others begins."""
    cg = load("rules/attack_power.cardrules").compiled(2)
    rg = RuleGen(cg, cg.direct_rules, playout=True)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
    lines = rg.src.splitlines()
    loop = next(i for i, l in enumerate(lines) if l.strip() == "while True:")
    level = len(lines[loop + 1]) - len(lines[loop + 1].lstrip())
    tests = [(m.group(1), int(m.group(2))) for l in lines[loop + 1:]
             if len(l) - len(l.lstrip()) == level
             for m in [re.match(r"\s*if pc (==|<) (\d+):", l)] if m]
    jumped = {int(t) for t in re.findall(r"pc = (\d+); continue", rg.src)} - {0}
    assert jumped and len(tests) > len(jumped) + 1        # (and blocks only resumed, after)
    first = [n for op, n in tests[1:len(jumped) + 1]]
    assert tests[0] == ("==", 0)
    assert all(op == "==" for op, _ in tests[1:len(jumped) + 1]) and set(first) == jumped


def test_a_card_condition_chosen_by_a_condition_about_no_card_is_two_loops():
    """Attack!'s `may_play(c)` is `(sword(c) if you is attacker else shield(c) and value of c >=
    card_value(attacker))`: whether `you` is the attacker does not depend on the card, so it is
    asked once, and each case has its own loop over the hand (ChoiceGen.unswitched), through the
    API and in a playout.  A condition about the card stays one loop (Crazy Eights)."""
    cg = load("rules/attack_power.cardrules").compiled(2)
    for playout in (False, True):
        rg = RuleGen(cg, cg.direct_rules, playout=playout)
        rg.compile_rule(cg.model.rules["lay_card"].decl.body, cg.proc_index["lay_card"])
        appends = re.findall(r"(\w+)\.append\(2048 \+ \w+\)", rg.src)
        assert len(appends) == 2 and len(set(appends)) == 1, rg.src
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    rg = RuleGen(cg, cg.direct_rules)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.proc_index["turn"])
    assert len(re.findall(r"out\.append\(_v\d+\)", rg.src)) == 1


@pytest.mark.parametrize("cases, loops", [(2, 2), (3, 3), (4, 4), (5, 1), (9, 1)])
def test_a_condition_is_unswitched_for_at_most_max_arms_cases(tmp_path, cases, loops):
    """A hostile condition of many cases does not multiply the loops: up to MAX_ARMS parts
    (cases and `otherwise`) each get a loop, more stay one loop testing each card."""
    from rulelang.compile.choicegen import MAX_ARMS
    arms = ", ".join(f"rank of c is {k + 1} if x is {k}" for k in range(cases - 1))
    path = tmp_path / "arms.cardrules"
    path.write_text(
        'game "Arms"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
        'zone hand: per player, seen by owner\nzone pile: shared, face up\nvar x = 0\n'
        'setup:\n    deal 5 from stock to hand of each player\n'
        f'turn:\n    choose:\n        play card c from hand where ({arms}, no otherwise):\n'
        '            move c from hand to pile\n        pass_turn:\n            end game with no winner\n')
    cg = load(str(path)).compiled(2)
    rg = RuleGen(cg, cg.direct_rules)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.proc_index["turn"])
    assert len(re.findall(r"out\.append\(_v\d+\)", rg.src)) == loops
    assert loops == 1 or loops <= MAX_ARMS
