"""The playout variant of the turn as one structured loop (RuleGen.structured_turn): for a playout that cannot stop (an index policy, no budget of decisions), a turn
whose every decision and call can be written in place is written as a rule copied in place is,
Python's own loops and no block chosen by `pc`, then the next turn, and the loop goes on.  The
blocks stay for a frame resumed and a playout that can stop.  Each file of rules/ and examples/
plays the same games through the API and on the fast path (tests/test_playout*.py, the fuzz);
here, the shape, and the `else if` whose list is made once."""
import re

import pytest

from rulelang.compile.loader import load
from rulelang.compile.rulegen import RuleGen


def _turn(path, n=2):
    cg = load(path).compiled(n)
    rg = RuleGen(cg, playout=True)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
    return rg


def _structured_lines(src):
    """The lines of the structured turn in ``src`` (those under its test), or []."""
    lines = src.splitlines()
    start = next((i for i, l in enumerate(lines) if "if pc == 0 and _gpk is not None:" in l), None)
    if start is None:
        return []
    ind = len(lines[start]) - len(lines[start].lstrip())
    out = []
    for l in lines[start + 1:]:
        if l.strip() and len(l) - len(l.lstrip()) <= ind:
            break
        out.append(l)
    return out


@pytest.mark.parametrize("path", ["examples/crazy_eights.cardrules", "rules/attack_power.cardrules",
                                  "rules/follow_the_leader_one_lower.cardrules",
                                  "rules/mages_wild.cardrules"])
def test_a_turn_written_in_place_is_one_loop_without_blocks(path):
    """The turn's lines: its `you` and slots read from the frame once, into Python locals
; then one `while True:` that never reads or writes the frame (no position
    stored, no slot, nothing set back to 0 at the next turn), no jump between blocks
    (`pc = N; continue`), and the next turn goes on with the loop's own `continue`."""
    body = _structured_lines(_turn(path).src)
    start = next(i for i, l in enumerate(body) if l.strip() == "while True:")
    assert re.fullmatch(r"\s*_y = fr\[2\]", body[0]), path
    assert all(re.fullmatch(r"\s*(_v\d+, )+= fr\[3:\]", l) or re.fullmatch(_ZONES, l)
               for l in body[1:start]), path
    loop = "\n".join(body[start:])
    assert not re.search(r"\bfr\b", loop), path
    assert not re.search(r"pc = \d+; continue", loop), path
    # the next turn's, from the loop's `you` (the current player all turn long)
    assert re.search(r"g\.cur = _y = \(_y \+ .+\) % 2$", loop, re.M), path
    assert body[-1].strip() == "continue"


# The line binding the lists of the zones of a known index that the loop reads,
# and of each player's zone a tuple of the players' lists.
_ZONE = r"(_z\d+ = _gz\[\d+\]|_zp\d+ = \((_gz\[\d+\], )+\))"
_ZONES = rf"\s*{_ZONE}(; {_ZONE})*"


@pytest.mark.parametrize("path", ["examples/crazy_eights.cardrules", "rules/attack_power.cardrules",
                                  "rules/follow_the_leader_one_lower.cardrules",
                                  "rules/mages_wild.cardrules"])
def test_the_zones_the_loop_reads_by_a_known_index_are_locals(path):
    """A zone whose index is known where it is written (a shared zone, a zone of each seat in
    the endings' test) is read from a local bound once, where the loop begins: a zone's list is
    never replaced while a game is played, only changed in place.  The locals bound
    are exactly those the loop reads, and the loop reads no such zone through ``_gz``."""
    body = _structured_lines(_turn(path, 4 if "attack" not in path else 2).src)
    start = next(i for i, l in enumerate(body) if l.strip() == "while True:")
    bound = [l for l in body[:start] if re.fullmatch(_ZONES, l)]
    assert len(bound) == 1, path
    names = re.findall(r"(_z\d+) = _gz\[(\d+)\]", bound[0])
    assert all(name == f"_z{i}" for name, i in names)
    loop = "\n".join(body[start:])
    assert not re.search(r"_gz\[\d+\]", loop), path
    assert set(re.findall(r"\b_z\d+\b", loop)) == {name for name, _ in names}, path


def test_the_zones_of_each_player_the_loop_reads_are_a_tuple_read_by_seat():
    """A zone of each player (Crazy Eights' hand of the chooser) is read from a tuple of the
    players' lists bound where the loop begins, by seat, not through ``_gz[(base + seat)]``
    (ExprGen.zone, PlayerZone)."""
    body = _structured_lines(_turn("examples/crazy_eights.cardrules", 4).src)
    start = next(i for i, l in enumerate(body) if l.strip() == "while True:")
    assert any("_zp2 = (_gz[2], _gz[3], _gz[4], _gz[5], )" in l for l in body[:start])
    loop = "\n".join(body[start:])
    assert re.search(r"for _v\d+ in _zp2\[_y\]:", loop) and "_gz[(2 + " not in loop


def test_a_game_that_never_reads_the_count_of_turns_counts_them_in_a_local():
    """Crazy Eights never reads `number of turns`: its loop counts turns in ``_tn``, added to
    the state where the function is left.  Thirteens reads it: its loop keeps
    ``g.turns += 1``.  Both play the API's games (test_playout)."""
    src = _turn("examples/crazy_eights.cardrules", 4).src
    loop = "\n".join(_structured_lines(src))
    assert "_tn += 1" in loop and "g.turns" not in loop
    assert re.search(r"finally:\n(\s+.*\n)*\s+g\.turns \+= _tn", src)
    assert not getattr(load("examples/crazy_eights.cardrules").compiled(4), "reads_turns", False)
    game = load("examples/thirteens.cardrules")
    n = game.players[0]
    loop = "\n".join(_structured_lines(_turn("examples/thirteens.cardrules", n).src))
    assert loop and "g.turns += 1" in loop and "_tn" not in loop
    assert game.compiled(n).reads_turns


def test_a_card_moved_from_a_slot_that_is_a_local_is_read_as_it_is():
    """`move c from hand to discard` in the loop: `c` is a Python local there, so the move
    reads it as it is, with no copy into a name of its own first."""
    loop = "\n".join(_structured_lines(_turn("examples/crazy_eights.cardrules", 4).src))
    # (no line `_vK = c` between the zone's list and the `try`)
    m = re.search(r"(_v\d+) = _zp2\[_y\]\n\s+try:\n\s+\1\.remove\((_v\d+)\)", loop)
    assert m, loop
    assert re.search(rf"_z1\.append\({m.group(2)}\)", loop)


def test_a_choice_by_you_in_the_loop_names_its_chooser_and_card_as_they_are():
    """In the loop's own body a choice by `you` asks the policy of _y and reads the hand of _y,
    with no chooser copied into a slot's name first, and the card of alternative 0 (whose
    actions are the cards) is the action picked, not a copy of it."""
    loop = "\n".join(_structured_lines(_turn("examples/crazy_eights.cardrules", 4).src))
    assert "_gpk[_y](" in loop and not re.search(r"\b_v\d+ = _y\n", loop)
    picked = re.search(r"(_v\d+) = out\[_gpk\[_y\]\(_v\d+\)\]", loop).group(1)
    assert re.search(rf"\.remove\({picked}\)", loop) and not re.search(rf"= {picked}\n", loop)


def test_every_structured_turn_of_the_games_keeps_its_slots_in_locals():
    """No turn of rules/ or examples/ that is written in place needs the frame in its loop."""
    import glob
    seen = 0
    for path in sorted(glob.glob("rules/*.cardrules") + glob.glob("examples/*.cardrules")):
        body = _structured_lines(_turn(path, load(path).players[0]).src)
        if body:
            seen += 1
            assert re.fullmatch(r"\s*_y = fr\[2\]", body[0]), path
            start = next(i for i, l in enumerate(body) if l.strip() == "while True:")
            assert not re.search(r"\bfr\b", "\n".join(body[start:])), path
    assert seen >= 15


# A game where players leave, its turn written in place: its loop over the players counts in
# the frame (`_nin(g, fr, ...)`), so its structured loop is written on the frame.
LEAVING = """game "Leave"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
var tally: number = 0
game ends when (number of players where yes) is 1:
    end game with winner (you if you is not out else next player where yes)
game ends when stock is empty:
    end game with winner you
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    for each player p:
        set tally to tally + (1 if p is you else 2)
    choose:
        play card c from hand:
            move c from hand to pile
            if rank of c is king:
                remove you from the game
        draw:
            move top card from stock to hand
"""

# A turn whose slots are used again from turn to turn and branch to branch: `let` in two
# branches (one slot), a loop's card, a choice's value, a rule copied in place with a local.
# Were a slot read before the turn set it, the last turn's value (the structured loop sets
# nothing back to 0) would change the game.
REUSED = """game "Slots"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
var tally: number = 0
game ends when stock is empty or tally > 400:
    end game with winner you
setup:
    shuffle stock
    deal 4 from stock to hand of each player
    move top card from stock to pile
turn:
    if size of hand mod 2 is 0:
        let a = size of hand + tally
        set tally to tally + a mod 7
    else:
        let b = 3
        set tally to tally + b
    for each card d in hand:
        if rank of d is rank of top of pile:
            set tally to tally + 1
    choose:
        play card c from hand where rank of c >= rank of top of pile or suit of c is suit of top of pile:
            move c from hand to pile
            bump(rank of c)
        draw:
            move top card from stock to hand

rule bump(r):
    let k = r * 2
    set tally to tally + k mod 5
"""


@pytest.mark.parametrize("text,locals_", [(LEAVING, False), (REUSED, True)])
def test_the_structured_turn_on_locals_or_on_the_frame_plays_the_api_game(tmp_path, text, locals_):
    """A turn whose lines need the frame (LEAVING) has its structured loop written on the
    frame; the others on locals, their slots never set back to 0 (REUSED).  Both play the
    API's games, seed for seed, through State.playout and from the seed."""
    from tests.test_playout import _api_game, _fast_game, _seeded_game, _summary
    path = tmp_path / "g.cardrules"
    path.write_text(text)
    game = load(str(path))
    lo, hi = game.players
    for n in range(lo, hi + 1):
        cg = game.compiled(n)
        rg = _turn(str(path), n)
        body = _structured_lines(rg.src)
        assert body, "the turn is written in place"
        assert bool(re.fullmatch(r"\s*_y = fr\[2\]", body[0])) == locals_
        assert ("fr[3:] = " in "\n".join(body)) == (not locals_ and rg.cg.rule_slots["turn"] > 0)
        ended = 0
        for seed in range(40):
            for kind in ("random", "policy"):
                api = _api_game(cg, seed, kind)[0]
                assert _summary(_fast_game(cg, seed, kind)[0]) == _summary(api), (n, seed, kind)
                assert _summary(_seeded_game(cg, seed, kind)[0]) == _summary(api), (n, seed, kind)
                ended += api.outcome != "error"
        assert ended > 40


def test_a_turn_that_cannot_be_written_in_place_keeps_its_blocks():
    """Internecine's turn calls rules that cannot be written in place (a decision taken
    together, a `return`: copies.can_inline, inlined_rules): no structured turn."""
    assert not _structured_lines(_turn("rules/internecine.cardrules", 2).src)


def test_ciqs_turn_is_one_loop_its_attack_written_in_place():
    """CIQ's turn calls attack_damage, a rule that decides and, with the rules it calls written
    in place in it, has 143 statements: more than a copy of a rule that never decides may have
    (copies.MAX_COPY_SIZE, 64), within what a rule that decides may have in a playout that
    cannot stop (MAX_INLINE_SIZE, 256).  So the turn is one structured loop, its
    `you` and slots in locals, for every number of players."""
    from rulelang.compile import copies
    for n in (2, 4, 6):
        cg = load("rules/ciq.cardrules").compiled(n)
        sizes = {name: cg.inlined_sizes.get(pid) for name, pid in cg.proc_index.items()}
        assert copies.MAX_COPY_SIZE < sizes["attack_damage"] <= copies.MAX_INLINE_SIZE
        assert cg.turn_in_place
        body = _structured_lines(_turn("rules/ciq.cardrules", n).src)
        start = next(i for i, l in enumerate(body) if l.strip() == "while True:")
        assert re.fullmatch(r"\s*_y = fr\[2\]", body[0])
        assert not re.search(r"\bfr\b", "\n".join(body[start:]))


def test_an_else_if_that_can_play_makes_its_list_once():
    """Follow the Leader: `else if any card in hand where playable(card): choose: play card c
    from hand where playable(c)` makes the list of playable cards in the `else` of the branch
    before it (ChoiceGen.prelist), tests it, and gives it to the choice: the cards are looked at
    once, not by a search and then by the list."""
    text = "\n".join(_structured_lines(_turn("rules/follow_the_leader_one_lower.cardrules").src))
    m = re.search(r"^(\s*)else:\n(?:\1    .*\n)*?\1    (_v\d+) = \[\]\n", text + "\n", re.M)
    assert m, text
    listed = m.group(2)
    assert f"if {listed}:" in text and f"out = {listed}" in text


def test_a_list_whose_condition_may_fail_is_not_made_before_the_if(tmp_path, monkeypatch):
    """A list asks the condition of every card, where `any card ... where` stops at the first
    that passes; when the condition may stop the game (here 10 / x, x being 0, for any card
    that is not an ace) and an ending holds before the choice, the rules end the game and never
    divide.  Such a condition (a define: the same code in both places) is not listed before
    its `if` (ChoiceGen.prelist): the games
    three ways agree, whatever the deal (seeds where an ace comes first in the hand and
    another card after it are among them)."""
    from tests.closures import three_ways
    path = tmp_path / "aces.cardrules"
    path.write_text('game "Aces"\nplayers 2\ndeck standard, into stock\n'
                    'zone stock: shared, face down\nzone hand: per player, seen by owner\n'
                    'zone pile: shared, face up\nvar x = 0\n'
                    'define ok(c) = rank of c is 1 or 10 / x > 0\n'
                    'game ends when pile is not empty:\n    end game with winner you\n'
                    'setup:\n    shuffle stock\n    deal 3 from stock to hand of each player\n'
                    'turn:\n    move top card from stock to pile\n'
                    '    if any card in hand where ok(card):\n'
                    '        choose:\n'
                    '            play card c from hand where ok(c):\n'
                    '                move c from hand to pile\n'
                    '    else:\n        end game with no winner\n')
    hit = 0
    game = load(str(path))
    for seed in range(60):
        st0 = game.compiled(2).new_game(seed=seed)
        hand = st0.zones[game.compiled(2).zone_base["hand"]]
        ranks = [game.compiled(2).rank_of[c] for c in hand]
        if ranks and ranks[0] == 1 and any(r != 1 for r in ranks[1:]):
            hit += 1
            st = three_ways(str(path), 2, seed, monkeypatch, ["outcome", "winners", "problem"])
            assert st.problem is None and st.winners == [0], (seed, st.problem)
    assert hit, "no deal put an ace first and another card after it"


def test_a_turn_whose_copies_pass_the_budget_is_not_written_twice(tmp_path):
    """The hostile file of tests/test_inlined_calls.py (a turn calling a rule of 60 statements
    that decides, 400 times): its turn could be written in place, but its copies would pass
    MAX_IN_PLACE statements, so the structured copy is given up half-way and the playout
    variant keeps its blocks alone (its games are the API's: that test)."""
    from tests.test_inlined_calls import WIDE
    path = tmp_path / "wide.cardrules"
    path.write_text(WIDE)
    cg = load(str(path)).compiled(2)
    assert cg.turn_in_place
    rg = _turn(str(path))
    assert rg.structured is None and not _structured_lines(rg.src)
    assert rg.written.loops == [] and not hasattr(rg, "inlining")    # (a context of its own: none left)
