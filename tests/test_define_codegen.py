"""The code the generator writes for the uses of defines (compile/codegen.py, ExprGen.expanded):
made a function of its own when it is long, passed only the locals it reads.

Each file of tests/fuzz_findings/ named here once stopped the game with an internal error
(RL999), though it checks clean:
  * undefined_name_in_copied_rule(_search): a rule written in place of its call passed a define
    made a function (or a card search) the local of a card that a loop inside the define binds,
    a local the copy never sets (NameError).
Each plays here as the reference interpreter plays it (tests/reference), through the API and on
the playout fast path."""
import os

import pytest

from rulelang.compile.loader import load

from closures import three_ways

HERE = os.path.dirname(__file__)
FINDINGS = os.path.join(HERE, "fuzz_findings")
FIELDS = ["vars", "outcome", "zones"]


@pytest.mark.parametrize("name", ["undefined_name_in_copied_rule",
                                  "undefined_name_in_copied_rule_search"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_finding_plays_as_the_reference_interpreter(name, seed, monkeypatch):
    three_ways(os.path.join(FINDINGS, name + ".cardrules"), 2, seed, monkeypatch, FIELDS)


# A rule copied in place of its call (it never decides), with a parameter and a `let`, whose
# defines bind cards of their own (`number of cards ... where`, `any card ... where`), one of
# them long enough to be a function of its own.
COPIED = '''game "copied"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var tally per player = 0
var found per player = no
define same(c) = number of cards in hand where rank of card is rank of c
define n2(c) = same(c) + same(c)
define n4(c) = n2(c) + n2(c)
define n8(c) = n4(c) + n4(c)
define n16(c) = n8(c) + n8(c)
define n32(c) = n16(c) + n16(c)
game ends when stock is empty:
    end game with no winner
setup:
    shuffle stock
    deal 4 from stock to hand of each player
rule count_up(c):
    let k = n32(c)
    set tally to k
    set found to any card in hand where same(card) >= 2
turn:
    count_up(top of hand)
    move top card from stock to hand
'''


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copied_rule_passes_its_defines_only_what_they_read(tmp_path, monkeypatch, n, seed):
    path = tmp_path / "copied.cardrules"
    path.write_text(COPIED, encoding="utf-8")
    cg = load(str(path)).compiled(n)
    assert cg.proc_index["count_up"] in cg.inline_bodies     # (written in place of its call)
    st = three_ways(str(path), n, seed, monkeypatch, FIELDS)
    tallies = st.vars[:n]
    assert all(t > 0 and t % 32 == 0 for t in tallies), tallies
