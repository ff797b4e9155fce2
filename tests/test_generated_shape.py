"""The shape of the generated code where it decides the speed of a playout:
lists of actions made without a comprehension, lists known before the game copied from
one tuple, the blocks a playout jumps to chosen first.  Each test fails on the code before."""
import re

import pytest

from rulelang.compile.loader import load
from rulelang.compile.rulegen import RuleGen
from rulelang.limits import VALUE_MASK

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


def _turn_dispatch(path, n, playout):
    """The turn's generated function (RuleGen) and its tests of `pc` at the top level of its
    loop over the blocks, ``(op, block)`` in order."""
    cg = load(path).compiled(n)
    rg = RuleGen(cg, playout=playout)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
    lines = rg.src.splitlines()
    loop = next(i for i, l in enumerate(lines) if l.strip() == "while True:")
    level = len(lines[loop + 1]) - len(lines[loop + 1].lstrip())
    tests = [(m.group(1), int(m.group(2))) for l in lines[loop + 1:]
             if len(l) - len(l.lstrip()) == level
             for m in [re.match(r"\s*if pc (==|<) (\d+):", l)] if m]
    return rg, tests


def test_a_playout_chooses_the_blocks_it_jumps_to_first():
    """After the alternatives' bodies are copied where they are chosen, the jumps left in a
    playout variant go to hot blocks (Attack!'s `repeat until over` goes back to its first
    block at each round); the other blocks are entered only where a frame is resumed.  Each
    block jumped to has its own test of `pc`, before the halving of the others begins."""
    rg, tests = _turn_dispatch("rules/attack_power.cardrules", 2, True)
    jumped = {int(t) for t in re.findall(r"pc = (\d+); continue", rg.src)} - {0}
    assert jumped and len(tests) > len(jumped) + 1        # (and blocks only resumed, after)
    first = [n for op, n in tests[1:len(jumped) + 1]]
    assert tests[0] == ("==", 0)
    assert all(op == "==" for op, _ in tests[1:len(jumped) + 1]) and set(first) == jumped


def test_the_api_chooses_the_blocks_where_alternatives_begin_first():
    """After a decision apply_action enters the rule's function where the alternative chosen
    begins: with at most MAX_FIRST_TESTED such blocks, each has its own test of `pc` right after
    block 0's (Crazy Eights' turn: play, name a suit, draw); with more, the halving as before."""
    from rulelang.compile.blocks import MAX_FIRST_TESTED
    rg, tests = _turn_dispatch("examples/crazy_eights.cardrules", 4, False)
    entered = sorted({int(b) for _, b in rg.written.alt_blocks})
    assert 0 < len(entered) <= MAX_FIRST_TESTED
    assert tests[0] == ("==", 0) and tests[1:len(entered) + 1] == [("==", b) for b in entered]
    rg, tests = _turn_dispatch("rules/ciq.cardrules", 4, False)       # (many alternatives)
    assert len({b for _, b in rg.written.alt_blocks}) > MAX_FIRST_TESTED
    assert any(op == "<" for op, _ in tests[:3])


def test_the_api_reads_the_step_budget_from_the_state_and_a_playout_from_a_local():
    """The API's turn function is entered again at every decision and checks the budget once a
    turn: it reads g.max_steps where it checks it, binding no local for it; a rule's playout
    variant, which may take many steps per call, binds it once."""
    api, _ = _turn_dispatch("examples/crazy_eights.cardrules", 4, False)
    assert "_gmx" not in api.src and "if g.steps > g.max_steps:" in api.src
    cg = load("examples/crazy_eights.cardrules").compiled(4)
    rg = RuleGen(cg, playout=True)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.proc_index["turn"])
    assert "_gmx = g.max_steps" in rg.src and "if g.steps > _gmx:" in rg.src


BETWEEN = """game "Between"
players 2
deck standard, into stock
zone stock: shared, face down
zone pile: shared, top face up
zone hand: per player, seen by owner
setup:
    shuffle stock
    deal 5 from stock to hand of each player
    move top card from stock to pile
turn:
    choose:
        play card c from hand where suit of c is suit of top of pile:
            move c from hand to pile
        BETWEEN
        draw if no card in hand where suit of card is suit of top of pile:
            if stock is not empty:
                move top card from stock to hand
            else:
                end game with no winner
"""


@pytest.mark.parametrize("between,kept", [("", False), (
    "pass if size of hand > 6:\n            move top card from hand to stock", True)])
def test_an_alternative_that_asks_whether_an_earlier_one_offered_anything(tmp_path, between, kept):
    """`draw if no card in hand where C` after `play card c from hand where C`: with nothing
    offered before `play` nor between them, the test is `not out` and no len(out) is computed
; with an alternative between, the count after `play` is kept and compared."""
    path = tmp_path / "g.cardrules"
    path.write_text(BETWEEN.replace("BETWEEN", between))
    cg = load(str(path)).compiled(2)
    for playout in (False, True):
        rg = RuleGen(cg, playout=playout)
        rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
        counted = re.search(r"(_v\d+) = len\(out\)\n\s+if .*\n(.*\n)*?\s+if \(\1 == 0\):", rg.src)
        assert bool(counted) == kept and ("if (not out):" in rg.src) != kept, rg.src


def test_a_card_condition_chosen_by_a_condition_about_no_card_is_two_loops():
    """Attack!'s `may_play(c)` is `(sword(c) if you is attacker else shield(c) and value of c >=
    card_value(attacker))`: whether `you` is the attacker does not depend on the card, so it is
    asked once, and each case has its own loop over the hand (ChoiceGen.unswitched), through the
    API and in a playout.  A condition about the card stays one loop (Crazy Eights)."""
    cg = load("rules/attack_power.cardrules").compiled(2)
    for playout in (False, True):
        rg = RuleGen(cg, playout=playout)
        rg.compile_rule(cg.model.rules["lay_card"].decl.body, cg.proc_index["lay_card"])
        appends = re.findall(r"(\w+)\.append\(2048 \+ \w+\)", rg.src)
        assert len(appends) == 2 and len(set(appends)) == 1, rg.src
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    rg = RuleGen(cg)
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
    rg = RuleGen(cg)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.proc_index["turn"])
    assert len(re.findall(r"out\.append\(_v\d+\)", rg.src)) == loops
    assert loops == 1 or loops <= MAX_ARMS


def _playout_turn(path, n=2):
    """The source of the playout variant of ``path``'s turn that goes on from turn to turn."""
    cg = load(path).compiled(n)
    rg = RuleGen(cg, playout=True)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
    return rg.src


def _empty_ifs(src):
    """The `if`/`elif` lines of ``src`` whose branch is a lone `pass`."""
    lines = src.splitlines()
    out = []
    for i, l in enumerate(lines[:-1]):
        s = l.strip()
        if (s.startswith("if ") or s.startswith("elif ")) and s.endswith(":") and \
                lines[i + 1].strip() == "pass":
            nxt = lines[i + 2] if i + 2 < len(lines) else ""
            ind = len(lines[i + 1]) - len(lines[i + 1].lstrip())
            if len(nxt) - len(nxt.lstrip()) < ind:
                out.append(s)
    return out


def test_an_if_with_nothing_to_do_in_a_playout_is_left_out():
    """Power Attack!'s `clear_field` tells who takes the cards (`if winner is none: say ...
    else if ...: say ...`); a playout runs no `say`, and asking which branch holds can neither
    roll a die nor stop the game: the `if` is not written (RuleGen.inline).  The API keeps it."""
    assert not _empty_ifs(_playout_turn("rules/attack_power.cardrules"))
    cg = load("rules/attack_power.cardrules").compiled(2)
    rg = RuleGen(cg)
    rg.compile_rule(cg.model.rules["clear_field"].decl.body, cg.proc_index["clear_field"])
    assert "if (_gv[0] == (-1)):" in rg.src or "if (g.vars[0] == (-1)):" in rg.src


def test_an_if_with_nothing_to_do_that_may_stop_the_game_stays(tmp_path, monkeypatch):
    """The same `if`, whose condition divides by a variable that is 0: the playout asks it
    anyway, and stops with RL911 where the API does."""
    from tests.closures import three_ways
    path = tmp_path / "says.cardrules"
    path.write_text('game "Says"\nplayers 2\ndeck standard, into stock\n'
                    'zone stock: shared, face down\nvar x = 0\nrule tell:\n'
                    '    if 10 / x > 1:\n        say "much"\n    else:\n        say "little"\n'
                    'turn:\n    tell\n    end game with winner you\n')
    assert "_div(" in _playout_turn(str(path))
    st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "winners"])
    assert st.problem is not None and st.problem["code"] == "RL911"


def test_a_list_an_if_found_not_empty_is_not_tested_again():
    """`if can_play: lay_card` makes the list of the cards one may play for the choice that
    `lay_card` begins with (ChoiceGen.prelist): the choice is reached only when the list is not
    empty, so no test for a choice without alternatives (`_noch`) is written after it."""
    src = _playout_turn("rules/attack_power.cardrules")
    assert "if _v" in src and "_noch(" not in src


def test_a_loop_over_players_in_a_rule_copied_in_place_leaves_no_last_value():
    """`for each player p` leaves its slot at the first player when it ends (the API's frame
    holds that); in a rule copied in place the slot is a Python local nobody reads after the
    loop, and no `else:` sets it.  A loop in the turn's own frame keeps it."""
    src = _playout_turn("rules/attack_power.cardrules")
    ends = re.findall(r"^\s*else:\n\s*(\S+) = \(\1 \+ 1\) % 2$", src, re.M)
    assert ends and all(e.startswith("fr[") for e in ends), ends


def test_a_value_that_only_compares_sums_is_not_checked_against_the_bound():
    """`set winner to (you if strength(you) > ... else ...)` stores a player, however the
    strengths are summed: no test of the bound (RL910) after it.  A sum that is the value
    keeps its test (below)."""
    src = _playout_turn("rules/attack_power.cardrules")
    assert "_big(" not in src


def test_a_sum_that_is_the_value_still_stops_past_the_bound(tmp_path, monkeypatch):
    """`lowest number v from y + y to ...` is a sum (its value is one of those numbers): past
    10^15 the game stops with RL910, in all three ways of playing."""
    from tests.closures import three_ways
    path = tmp_path / "bound.cardrules"
    path.write_text('game "Bound"\nplayers 2\ndeck standard, into stock\n'
                    'zone stock: shared, face down\nvar y = 1000000000000000\nvar z = 0\n'
                    'turn:\n    set z to (lowest number v from y + y to y + y + 1 where v > 0 if y > 0 '
                    'else 0)\n    end game with winner you\n')
    st = three_ways(str(path), 2, 1, monkeypatch, ["outcome", "winners"])
    assert st.problem is not None and st.problem["code"] == "RL910"


def test_a_card_player_or_suit_is_stored_without_int():
    """A value stored in a variable goes through `int` when it may be a yes/no (a comparison
    is a bool in Python); a card, player, suit or symbol is an index, an int already:
    Crazy Eights' `set named_suit to s` and Power Attack!'s `set winner to (...)` store
    the value as it is, through the API and in a playout.  A yes/no still goes through `int`."""
    for path, n in (("examples/crazy_eights.cardrules", 4), ("rules/attack_power.cardrules", 2)):
        cg = load(path).compiled(n)
        rg = RuleGen(cg)
        rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
        for src in (rg.src, _playout_turn(path)):
            assert re.search(r"_gv\[0\] = _v\d+$|_gv\[0\] = \(", src, re.M), path
            assert not re.search(r"_gv\[0\] = int\(", src), path


def test_a_yes_no_is_still_stored_through_int(tmp_path):
    path = tmp_path / "flag.cardrules"
    path.write_text('game "Flag"\nplayers 2\ndeck standard, into stock\n'
                    'zone stock: shared, face down\nvar big = no\n'
                    'turn:\n    set big to size of stock > 10\n    end game with winner you\n')
    cg = load(str(path)).compiled(2)
    st = cg.new_game(seed=1)
    assert st.vars[0] == 1 and type(st.vars[0]) is int
    assert "int(" in _playout_turn(str(path))


def test_a_rule_copied_in_place_does_not_set_its_locals_to_0_first():
    """A rule written in place of its call (copy_rule) has its parameters and locals as Python
    locals.  A frame's slots start at 0; a copy's are not set to 0 first: a name
    of the rules is in scope only after what sets it.  Power Attack!'s turn copies rules with
    locals (a choice's card, a loop over the players): no `_vN = ... = 0` line is left, through
    the API or in a playout, and the games are the API's and the reference interpreter's
    (tests/test_playout.py, tests/test_closures*.py, the fuzz)."""
    path = "rules/attack_power.cardrules"
    cg = load(path).compiled(2)
    rg = RuleGen(cg)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
    for src in (rg.src, _playout_turn(path)):
        assert not re.findall(r"^\s*(?:_v\d+ = )+0$", src, re.M)


DEALS = """game "Deals"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone spare: per player, face down
setup:
    shuffle stock
    deal 3 from stock to hand of each player
    deal 2 from stock to spare of each player
    deal all from spare of next player to spare of each player
    deal 2 from hand of you to hand of each player
    deal all from stock to spare of each player
turn:
    end game with winner you
"""


def test_a_deal_from_a_zone_of_another_name_is_made_in_bulk(tmp_path, monkeypatch):
    """`deal` from a zone whose name is not the one dealt to (from the stock, or from the spare
    pile of a player to their hands) can never deal a zone to itself: the generated code calls
    genruntime.deal_apart, which deals in bulk without the test.  From a zone of
    the family dealt to, it calls deal, which deals one card at a time when the zone is one of
    them.  The games are the reference interpreter's and the fast path's either way."""
    from tests.closures import three_ways
    path = tmp_path / "deals.cardrules"
    path.write_text(DEALS)
    cg = load(str(path)).compiled(3)
    rg = RuleGen(cg)
    rg.compile_rule(cg.model.rules["setup"].decl.body, cg.proc_index["setup"])
    calls = re.findall(r"^\s*(_deal\w*)\(g, ", rg.src, re.M)
    assert calls == ["_dealapart", "_dealapart", "_deal", "_deal", "_dealapart"], calls
    for n in (2, 3, 4):
        for seed in range(6):
            st = three_ways(str(path), n, seed, monkeypatch, ["zones"])
            assert sum(map(len, st.zones)) == 52


def test_the_top_of_a_shared_zone_read_twice_before_a_loop_is_computed_once():
    """Crazy Eights' playable(c) reads the top of the discard pile twice (in `current_suit`
    and in `rank of top of discard`), Follow the Leader's three times: the values computed
    before the list's loop compute the top once, first, and read its name (shared_tops),
    through the API and in a playout."""
    for path, n in (("examples/crazy_eights.cardrules", 4), ("rules/follow_the_leader.cardrules", 3)):
        cg = load(path).compiled(n)
        rg = RuleGen(cg)
        rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
        for src in (rg.src, _playout_turn(path, n)):
            top = re.findall(r"^\s*(_h\d+) = \(_gz\[\d+\] or _none\)\[-1\]$", src, re.M)
            assert top, path
            lines = src.splitlines()
            for name in top:        # the next hoisted lines read it, none computes it again
                at = next(i for i, l in enumerate(lines) if l.strip().startswith(f"{name} = "))
                block = []
                for l in lines[at:]:       # (and the lookup of the cards it keeps: card_set)
                    if not re.match(r"\s*(_h\d+ = |_cs\d+ = |if _cs\d+ is None)", l):
                        break
                    block.append(l)
                text = "\n".join(block)
                assert text.count("or _none)[-1]") == 1 and text.count(name) >= 3, text


SHARED_TOPS = """game "Tops"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone pile: shared, face up
zone hand: per player, seen by owner
define near(c) = rank of c is rank of top of pile or suit of c is suit of top of pile
define many = (number of cards in hand where rank of card is rank of top of pile)
game ends when stock is empty:
    end game with winner you
setup:
    shuffle stock
    deal 5 from stock to hand of each player
    move top card from stock to pile
turn:
    if any card in hand where near(card) and many < 3 or rank of card > rank of bottom of pile:
        choose:
            play card c from hand where near(c) and many < 3 or rank of c > rank of bottom of pile:
                move c from hand to pile
    else:
        move top card from stock to hand
"""


def test_shared_tops_in_searches_and_counts_play_the_reference_game(tmp_path, monkeypatch):
    """The top of a shared zone read twice in a choice's condition, inside a define, a count
    over the hand (a loop of its own) and a search (a function of its own): the same games
    through the reference interpreter, the generated code and the fast path."""
    from tests.closures import three_ways
    path = tmp_path / "tops.cardrules"
    path.write_text(SHARED_TOPS)
    for n in (2, 3):
        for seed in range(12):
            st = three_ways(str(path), n, seed, monkeypatch, ["outcome", "winners", "zones"])
            assert st.outcome != "error", st.problem


def test_an_ending_that_reads_nothing_of_you_is_asked_once_before_a_decision(tmp_path):
    """The cheap test of the endings before each decision (endings_quick) asks `stock is empty`
    once, not once per seat as it asks `hand is empty`."""
    path = tmp_path / "tops.cardrules"
    path.write_text(SHARED_TOPS)
    src = _playout_turn(str(path), 3)
    quick = [l.strip() for l in src.splitlines() if "_ck(g)" in l]
    # (the zone's list read from the state, or from a local where the structured turn holds it)
    assert quick and all(len(re.findall(r"not (_gz\[0\]|_z0\b)", q)) == 1 for q in quick), quick
    src = _playout_turn("examples/crazy_eights.cardrules", 4)
    quick = [l.strip() for l in src.splitlines() if "_ck(g)" in l]
    assert quick and all(len(re.findall(r"not (_gz\[[2-5]\]|_z[2-5])\)", q)) == 4
                         for q in quick), quick


def test_a_choice_by_you_reads_you_and_sets_no_slot_of_its_own():
    """A choice by `you` names its chooser `you`'s own slot: Crazy Eights' turn,
    through the API and in a playout, copies `you` into no slot, and both its decisions (the card
    and, after an 8, the suit) wait for `fr[2]`."""
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    for playout in (False, True):
        rg = RuleGen(cg, playout=playout)
        rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
        assert not re.search(r"fr\[\d+\] = fr\[2\]\n", rg.src), rg.src
        assert playout or rg.src.count("g.awaiting = (fr[2], out)") == 2, rg.src


SETUP_CHOICE = """game "A choice in setup"
players 2 to 2

deck standard, into stock

zone stock: shared, face up
zone hand: per player, seen by owner

setup:
    choose:
        take card c from stock where rank of c is 8:
            set current player to next player
            move c from stock to hand
    choose:
        take card c from stock where rank of c is 9:
            move c from stock to hand

turn:
    end game with winner you
"""


def test_a_choice_in_setup_is_its_chooser_s_after_the_current_player_moves(tmp_path):
    """Inside a choice, `you` is its chooser even where the current player is set (only setup's
    own body moves `you`): the first 8 goes to the hand of the player who chose it, player 1;
    the second choice, after the first, is player 1's still (no statement of setup's own body
    moved `you`); the game then begins with player 2's turn."""
    path = tmp_path / "g.cardrules"
    path.write_text(SETUP_CHOICE)
    cg = load(str(path)).compiled(2)
    for seed in range(3):
        st = cg.new_game(seed=seed)
        assert st.current_player() == 0
        eight = st.legal_actions()[0]
        st.apply_action(eight)
        assert st.current_player() == 0
        nine = st.legal_actions()[-1]
        st.apply_action(nine)
        hands = st.zones[1:]        # (an action is its alternative << ACTION_SHIFT, then the card)
        assert hands == [[eight & VALUE_MASK, nine & VALUE_MASK], []] and st.winners == [1]
