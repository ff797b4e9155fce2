"""The two answers the generator has to "which slots may this expression's code read": the one
that keys the code kept for a define's use and picks the names a function is given
(``ExprGen.slots_used``) and the fold's own (``Fold.free_slots``).  The first must hold every
slot the second finds: a slot left out (a player query's ``you``, once) let the code of a
define written where ``you`` was one Python local be copied where that local did not exist
(a ``NameError`` in a file that checks, tests/differential/players_counted_from_you_in_a_copied_rule)."""
import glob

import attrs
import pytest

from rulelang.check.ir import DefineUse
from rulelang.check.model import Expanded
from rulelang.compile.loader import load
from rulelang.syntax import ast as A

FILES = sorted(glob.glob("rules/*.cardrules") + glob.glob("examples/*.cardrules")
               + glob.glob("tests/differential/*.cardrules"))


def _exprs(model):
    """Every expression of the checked model, and of every define's copy used in it."""
    seen, todo = set(), [getattr(model, f.name) for f in attrs.fields(type(model))]
    while todo:
        x = todo.pop()
        if id(x) in seen or isinstance(x, (str, int, float, bool, type(None))):
            continue
        seen.add(id(x))
        if isinstance(x, dict):
            todo.extend(x.values())
            continue
        if isinstance(x, (list, tuple, set, frozenset)):
            todo.extend(x)
            continue
        if isinstance(x, A.Expr):
            yield x
            ref = model.refs.of(x, None)
            if isinstance(ref, DefineUse):
                todo.append(ref.expanded)
        if isinstance(x, Expanded):
            yield x
        if attrs.has(type(x)):
            todo.extend(getattr(x, f.name) for f in attrs.fields(type(x)))


@pytest.mark.parametrize("path", FILES)
def test_the_slots_a_define_is_keyed_by_hold_every_slot_its_code_reads(path):
    game = load(path)
    cg = game.compiled(game.players[0])
    gen = cg.gen
    count = 0
    for e in _exprs(cg.model):
        missing = gen.fold.free_slots(e) - gen.slots_used(e)
        assert not missing, (e, sorted(missing))
        count += 1
    assert count > 0
