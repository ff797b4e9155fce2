"""Card conditions looked up instead of evaluated (rulelang/compile/cardsets.py).

A loop keeping the cards where a condition holds, when the condition reads the card only through
its tables and otherwise only values computed before the loop, tests ``card in set``, the set
worked out once per combination of those values.  The games must be exactly those of the
condition evaluated card by card: every file is played both ways, through the API (with its log)
and on the fast path, and compared whole."""
import glob
import os
import random
import re
import signal

import pytest

from rulelang.compile import cardsets
from rulelang.compile.cardsets import CardSets
from rulelang.compile.compiler import CompiledGame
from rulelang.compile.loader import load

from gametest import generated_files, played, turn_sources, within

FILES = sorted(glob.glob("examples/*.cardrules") + glob.glob("rules/*.cardrules"))


def _evaluated(model, n, monkeypatch):
    """The game compiled with every condition evaluated card by card, as before card sets."""
    with monkeypatch.context() as m:
        m.setattr(CardSets, "card_set", lambda self, *a: None)
        return CompiledGame(model, n)


def _played(cg, seed):
    return played(cg, seed, max_steps=20_000)


@pytest.mark.parametrize("path", FILES)
def test_looked_up_and_evaluated_play_the_same_games(path, monkeypatch):
    game = load(path)
    lo, hi = game.players
    for n in sorted({lo, hi}):
        looked = game.compiled(n)
        plain = _evaluated(game.model, n, monkeypatch)
        for seed in (0, 1, 2):
            a, b = _played(looked, seed), _played(plain, seed)
            assert a.log == b.log and a.to_json() == b.to_json(), (path, n, seed)
            fa = looked.playout(seed, [random.Random(seed).randrange] * n, 20_000)
            fb = plain.playout(seed, [random.Random(seed).randrange] * n, 20_000)
            assert fa.to_json() == fb.to_json(), (path, n, seed, "fast path")


def test_the_classic_conditions_are_looked_up():
    """Crazy Eights' playable(c) (rank 8, the suit named or the top's, the top's rank) is looked
    up by the top card and the suit, both where the API lists the choice and in the playout's
    turn (the rank of the top card is worked out from the top card, and only where a set is
    made).  Mages Wild's (keyed by a
    comparison too) and Sevens' (`rank after`) are looked up too."""
    cg = load("examples/crazy_eights.cardrules").compiled(4)
    for src in turn_sources(cg):
        assert re.search(r"for (_v\d+) in .*:\n\s+if \1 in _cs\d+:", src), src
        # the rank of the top card, worked out from a key, only where a set is made
        assert re.search(r"if _cs\d+ is None: _cs\d+ = _t\d+\(_h\d+, _h\d+, _t\d+\[_h\d+\]\)", src)
    for path in ("rules/mages_wild.cardrules", "examples/sevens.cardrules"):
        # (Sevens: the ranks next to the top's, `rank after`, a dict's get)
        assert all(" in _cs" in src for src in turn_sources(load(path).compiled(3))), path


def test_sets_are_made_once_and_shared_between_the_api_and_the_playout():
    cg = CompiledGame(load("examples/crazy_eights.cardrules").model, 2)   # (its tables unmade)
    cg.playout_procs()
    tables = {m.group(1) for src in turn_sources(cg) for m in re.finditer(r"_cs\d+ = (_t\d+)\[", src)}
    assert len(tables) == 1
    table = cg.gen.ns[tables.pop()]
    assert all(s is None for row in table for s in row)     # made on first use
    cg.playout(1, [random.Random(1).randrange] * 2)
    made = [s for row in table for s in row if s is not None]
    assert made and all(isinstance(s, frozenset) for s in made)
    # each set is the cards where the condition holds: the 8s, the suit named, the top's rank
    rank, suit = cg.rank_of, cg.suit_of
    for top, row in enumerate(table[:-1]):
        for named, s in enumerate(row[:-1]):
            if s is not None:
                want = {c for c in range(52) if rank[c] == 8 or suit[c] == named or
                        rank[c] == rank[top]}
                assert s == want


def test_each_limit_leaves_the_condition_evaluated(monkeypatch):
    """Past a table's limits (combinations of keys, cards per table, cards for the whole
    game) the loop evaluates its condition: the same game, no table."""
    model = load("examples/crazy_eights.cardrules").model
    plain = _evaluated(model, 2, monkeypatch)
    want = _played(plain, 3).to_json()
    for name, value in (("MAX_KEYS", 100), ("MAX_SITE_CELLS", 5000)):
        with monkeypatch.context() as m:
            m.setattr(cardsets, name, value)
            cg = CompiledGame(model, 2)
            assert not any("_cs" in src for src in turn_sources(cg)), name
            assert _played(cg, 3).to_json() == want
    with monkeypatch.context() as m:
        m.setattr(CardSets, "_cells_left", 5000)
        cg = CompiledGame(model, 2)
        assert not any("_cs" in src for src in turn_sources(cg))
        assert _played(cg, 3).to_json() == want


def test_a_condition_that_reads_more_than_the_card_tables_is_evaluated(tmp_path):
    """Decided on the tree: a condition that reads where the card is, or a value worked out
    before the loop that is a number of no card (a variable), keeps its loop as it was."""
    path = tmp_path / "g.cardrules"
    path.write_text(
        'game "g"\nplayers 2\ndeck standard, into stock\n'
        'zone stock: shared, face down\nzone pile: shared, top face up\n'
        'zone hand: per player, seen by owner\nvar low = 5\n'
        'setup:\n    shuffle stock\n    deal 5 from stock to hand of each player\n'
        '    move top card from stock to pile\n'
        'turn:\n    choose:\n'
        '        play card c from hand where rank of c > low:\n'
        '            move c from hand to pile\n'
        '        give card c from hand where suit of c is suit of top of pile:\n'
        '            move c from hand to stock\n'
        '        pass:\n            end game with no winner\n')
    cg = load(str(path)).compiled(2)
    api, fast = turn_sources(cg)
    assert api.count(" in _cs") == 1 and fast.count(" in _cs") >= 1    # the suit's, not low's
    assert re.search(r"if \(_t\d+\[_v\d+\] > _h\d+\):", api), api          # rank of c > low
    for seed in range(5):
        assert _played(cg, seed).to_json() == _played(
            _evaluated(cg.model, 2, pytest.MonkeyPatch()), seed).to_json()


FUZZ = int(os.environ.get("RULELANG_FUZZ_CARD_SETS", "600"))


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="needs SIGALRM for its time limit")
def test_generated_games_end_alike_with_conditions_looked_up_and_evaluated(tmp_path, monkeypatch):
    """The generated rule files of the playout fuzz (benchmarks/fuzzgen.py): each that checks
    clean and looks a condition up is played with its conditions looked up and evaluated, the
    whole saves compared.  `RULELANG_FUZZ_CARD_SETS=N` tries N inputs."""
    from rulelang.syntax.diagnostics import RuleFileError
    monkeypatch.chdir(tmp_path)
    looked, differ = 0, []
    for i, source, path in generated_files(tmp_path, 11, FUZZ):
        with within(5, RuleFileError):
            game = load(str(path))
            n = game.players[0]
            cg = game.compiled(n)
            if not cg.gen._card_sets:
                continue
            looked += 1
            plain = _evaluated(game.model, n, monkeypatch)
            for seed in (0, 1):
                a, b = played(cg, seed, max_steps=3000), played(plain, seed, max_steps=3000)
                if a.to_json() != b.to_json():
                    differ.append((i, source, seed))
    assert not differ, differ
    assert looked >= FUZZ // 120, looked       # (about one input in sixty looks one up)


SLOT_GAME = """game "Searches"
players 2 to 4
option packs = 1 from 1 to 3 "packs per player"
deck standard, copies packs * number of players, into pile
zone pile: shared, face down, not shown
zone discard: shared, face up
zone hand: per player, seen by owner
var knocks = 0
setup:
    shuffle pile
    deal 5 from pile to hand of each player
    move top card from pile to discard
turn:
    choose:
        play card c from hand where suit of c is suit of top of discard:
            move c from hand to discard
        knock if SEARCH:
            add 1 to knocks
            move top card from pile to hand
        draw if pile is not empty:
            move top card from pile to hand
        pass if pile is empty:
            say "passes"
    if hand is empty or knocks >= 30:
        end game with winner you
"""


def _same_games(game, n, a, b):
    ca, cb = game.compiled(n, optimize=a), game.compiled(n, optimize=b)
    for seed in range(4):
        x, y = played(ca, seed, max_steps=5_000), played(cb, seed, max_steps=5_000)
        assert x.log == y.log and x.to_json() == y.to_json(), seed
        fx = ca.playout(seed, [random.Random(seed).randrange] * n, 5_000)
        fy = cb.playout(seed, [random.Random(seed).randrange] * n, 5_000)
        assert fx.to_json() == fy.to_json(), (seed, "fast path")



def test_a_slot_read_as_it_is_leaves_the_condition_evaluated():
    """A condition that reads a rule's slot as it is (a parameter: never computed before the
    loop) cannot be looked up: the function making the set has no such name."""
    text = SLOT_GAME.replace("        knock if SEARCH:\n            add 1 to knocks\n"
                        "            move top card from pile to hand\n",
                        "        knock if pile is not empty:\n            knock(knocks < 3)\n")
    text += """
rule knock(strict):
    add 1 to knocks
    choose:
        give card c from hand where suit of c is suit of top of discard and strict:
            move c from hand to discard
        take if pile is not empty:
            move top card from pile to hand
        nothing:
            pass
"""
    game = load("slots.cardrules", text=text)
    _same_games(game, 2, "all", "none")


def test_the_sets_hold_the_cards_own_numbers():
    """A set holds the very objects the zones hold for the cards (above 256, two equal numbers
    are other objects, and a set compares them where it could see they are the same): with
    three packs a player for six players, 972 cards."""
    game = load("rules/ciq.cardrules", {"decks": 3})
    cg = game.compiled(6)
    for seed in range(3):
        cg.playout(seed, [random.Random(seed).randrange] * 6)
    st = cg.new_game(seed=7)
    held = {id(c) for z in st.zones for c in z}
    sets = [s for v in cg.gen.ns.values() if isinstance(v, list)
            for s in (x for y in v for x in (y if isinstance(y, list) else [y]))
            if isinstance(s, frozenset)]
    assert sets and any(max(s, default=0) > 256 for s in sets)
    assert all(id(c) in held for s in sets for c in s)
