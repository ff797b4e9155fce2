"""How code is being written is an immutable value (compile/context.py), never flags of the
generators set and reset: a nested construct writes under a new value, and the generators read
the layout of a complete game, never a half-built one with a default."""
from __future__ import annotations

import os
import re

import attrs
import pytest

import rulelang
from rulelang.compile.context import ExprMode, RuleMode
from rulelang.compile.gensource import NeedsFrame

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPILE = os.path.join(ROOT, "rulelang", "compile")

# The modes of the generators: fields of RuleMode or ExprMode, read through them.
MODES = ("hold", "plain", "kept", "frameless", "zone_locals", "base_env", "base_frame", "alias",
         "_hoist", "_tops", "_charging", "structuring", "copying", "counts_held", "turns_held",
         "turn_locals", "inlining", "_guard", "_false", "_prelude", "_prelude_args")
SET = re.compile(r"\.(%s)\s*(=(?!=)|\+=|-=)" % "|".join(MODES))
# A read of the game (or of a generator) with a default, as if a part might not be there yet.
HALF_BUILT = re.compile(r"getattr\((self|cg|self\.cg|self\.x|self\.s|self\.gen|model|self\.model|"
                        r"cg\.model)\s*,\s*[\"'][A-Za-z_]\w*[\"']\s*,")


def _scan(pattern):
    found = []
    for name in sorted(os.listdir(COMPILE)):
        if name.endswith(".py"):
            with open(os.path.join(COMPILE, name), encoding="utf-8") as fh:
                for i, line in enumerate(fh, 1):
                    if pattern.search(line.split("#", 1)[0]):
                        found.append(f"{name}:{i}: {line.strip()}")
    return found


def test_no_mode_of_the_generators_is_set_as_an_attribute():
    assert not _scan(SET), "\n".join(_scan(SET))
    fields = {f.name for f in attrs.fields(RuleMode)} | {f.name for f in attrs.fields(ExprMode)}
    assert {m.lstrip("_") for m in MODES} <= fields | {"hoist", "tops", "charging"}
    assert {"guard", "false", "prelude", "prelude_args"} <= {f.name for f in attrs.fields(ExprMode)}


def test_the_generators_never_read_a_half_built_game_with_a_default():
    assert not _scan(HALF_BUILT), "\n".join(_scan(HALF_BUILT))


def test_the_scans_find_what_they_look_for():
    assert SET.search("self.x.hold = False") and SET.search("self.copying += 1")
    # (how the guard of hoisted values and the comparisons known false were once kept)
    assert SET.search("self._guard = (h[1], parts)") and SET.search("self._false = false")
    assert SET.search("self._prelude, self._prelude_args = saved") and SET.search("self._prelude = []")
    assert not SET.search("if self.x.hold == h:")
    assert HALF_BUILT.search('known = getattr(cg, "_direct_names", None)')
    assert not HALF_BUILT.search('m = getattr(self, "g_" + type(e).__name__, None)')


def test_a_mode_is_immutable_and_a_nested_one_is_given_back_even_on_a_failure():
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    x = game.compiled(2).gen
    before = x.mode
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        before.hold = True
    with pytest.raises(AttributeError):
        x.hold = True                      # (read through the mode only)
    with pytest.raises(NeedsFrame):
        with x.within(frameless=True) as inner:
            assert x.frameless and inner is x.mode and not before.frameless
            x.frame()
    assert x.mode is before and not x.frameless and x.frame() == "fr"
    with pytest.raises(TypeError):
        with x.within(no_such_mode=1):
            pass


def test_a_rule_function_is_written_under_one_mode_and_leaves_none_behind():
    """The playout variant of the looping turn is written in the structured turn's modes; once
    written, the generators are back in the modes they had (the API's, nothing held)."""
    from rulelang.compile.rulegen import RuleGen
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(4)
    pid = cg.proc_index["turn"]
    rg = RuleGen(cg, playout=True)
    x_before = cg.gen.mode
    rg.compile_rule(cg.model.rules["turn"].decl.body, pid, next_turn=cg._turn_spec)
    assert rg.structured is not None and "_tn += 1" in rg.src
    assert rg.mode.playout and rg.mode.looping and not rg.mode.structuring
    assert rg.mode.inlining == 0 and rg.mode.copying == 0
    assert cg.gen.mode is x_before and cg.stmts.mode == RuleMode()


def test_the_expression_writer_holds_no_mode_of_its_own():
    """What holds where a value is written (the guard of the values computed before a loop,
    the comparisons known false in an `and`, the calls a define's function makes first) is a
    field of the immutable mode, given to the
    parts written under it; the expression writer has no attribute for it, before or after
    a game's every function is written (API and playout variants, every optimisation on)."""
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(4)
    cg.playout_procs()
    x = cg.gen
    modes = {m for m in MODES} | {m.lstrip("_") for m in MODES}
    assert not modes & set(vars(x)), sorted(modes & set(vars(x)))
    assert x.mode == ExprMode() and x.mode.guard is None and x.mode.false is None
    with x.within(false=frozenset({("a",)})):
        assert x._false == frozenset({("a",)})
    assert x._false is None
