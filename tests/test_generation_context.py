"""How code is being written is an immutable context passed down as an argument
(compile/context.py), never a mode held by the generators and swapped for a construct: a nested
construct calls its parts with a changed copy, and the generators read the layout of a complete
game, never a half-built one with a default."""
from __future__ import annotations

import os
import re

import attrs
import pytest

import rulelang
from rulelang.compile.context import API, Context
from rulelang.compile.gensource import NeedsFrame

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPILE = os.path.join(ROOT, "rulelang", "compile")

# The fields of the context, and the names they were once kept under on the generators.
MODES = ("hold", "plain", "kept", "frameless", "zone_locals", "base_env", "base_frame", "alias",
         "_hoist", "_tops", "_charging", "structuring", "copying", "counts_held", "turns_held",
         "turn_locals", "inlining", "_guard", "_false", "_prelude", "_prelude_args", "mode",
         "recording", "playout", "looping", "steps_held", "held")
SET = re.compile(r"\.(%s)\s*(=(?!=)|\+=|-=)" % "|".join(MODES))
# A context swapped on a writer for a construct (``with self.within(...)``), or a writer that
# has a current one (a class holding ``mode``).
SWAPPED = re.compile(r"\bwithin\(\s*\*?\*?\w+\s*=|\.within\(|\bModal\b|self\.(x\.|s\.)?mode\b")
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
    fields = {f.name for f in attrs.fields(Context)}
    assert {m.lstrip("_") for m in MODES} - {"mode"} <= fields


def test_no_writer_swaps_a_context_for_a_construct():
    """No ``with self.within(...)``, no ``self.mode``: a nested construct passes a copy."""
    assert not _scan(SWAPPED), "\n".join(_scan(SWAPPED))


def test_the_generators_never_read_a_half_built_game_with_a_default():
    assert not _scan(HALF_BUILT), "\n".join(_scan(HALF_BUILT))


def test_the_scans_find_what_they_look_for():
    assert SET.search("self.x.hold = False") and SET.search("self.copying += 1")
    # (how the guard of hoisted values and the comparisons known false were once kept)
    assert SET.search("self._guard = (h[1], parts)") and SET.search("self._false = false")
    assert SET.search("self._prelude, self._prelude_args = saved") and SET.search("self._prelude = []")
    assert SET.search("self.mode = mode = RuleMode(") and SET.search("self.s.mode = API")
    assert SET.search("self.recording = True")
    assert not SET.search("if self.x.hold == h:")
    for bad in ("with self.within(plain=True):", "with self.x.within(kept=None):",
                "names.enter_context(self.x.within(", "class ExprGen(Hoisting, Modal):",
                "hoist = self.mode.hoist", "return self.s.mode.logged"):
        assert SWAPPED.search(bad), bad
    for good in ("return self.gen(cx.evolve(plain=True), e, {})", "if within is not None and "
                 "not within(x):", "hoist = cx.hoist", "def count_reads(self, e, cap, key_of, "
                 "within=None) -> dict:"):
        assert not SWAPPED.search(good), good
    assert HALF_BUILT.search('known = getattr(cg, "_direct_names", None)')
    assert not HALF_BUILT.search('m = getattr(self, "g_" + type(e).__name__, None)')


def test_a_context_is_immutable_and_a_changed_copy_leaves_it_as_it_was():
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    x = game.compiled(2).gen
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        API.hold = True
    inner = API.evolve(frameless=True)
    assert inner.frameless and not API.frameless and inner == Context(frameless=True)
    with pytest.raises(NeedsFrame):
        x.frame(inner)
    assert x.frame(API) == "fr"
    with pytest.raises(TypeError):
        API.evolve(no_such_field=1)
    for name in ("mode", "hold", "frameless", "within"):
        assert not hasattr(x, name), name           # (the context is passed, never held)


def test_a_part_is_written_under_the_context_it_is_given():
    """The same value written under two contexts: with the state's parts held in locals, it
    reads the local; under the API's, the state's attribute (and the writer keeps neither)."""
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(2)
    x = cg.gen
    e = next(iter(game.model.endings))[0].condition
    from rulelang.kinds import Frame
    cx = Context.outside()
    held = x.gen(cx.evolve(hold=True), e, {Frame.YOU: "p"})
    plain = x.gen(cx, e, {Frame.YOU: "p"})
    assert "_gz" in held and "_gz" not in plain and "g.zones" in plain
    assert cx.reads.held == {"zones"}       # (what the part written with held locals read)


def test_a_rule_function_is_written_under_its_context_and_leaves_none_behind():
    """The playout variant of the looping turn is written in the structured turn's context;
    once written, neither the rule's writer nor the game's keep a context."""
    from rulelang.compile.rulegen import RuleGen
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(4)
    pid = cg.proc_index["turn"]
    rg = RuleGen(cg, playout=True)
    rg.compile_rule(cg.model.rules["turn"].decl.body, pid, next_turn=cg._turn_spec)
    assert rg.structured is not None and "_tn += 1" in rg.src
    for writer in (rg, cg.gen, cg.stmts):
        assert not {m.lstrip("_") for m in MODES} & {k.lstrip("_") for k in vars(writer)}, \
            sorted(vars(writer))


# The running state of one function while it is written: fields of context.FunctionScope (a
# rule's function), context.Reads (what its code reads) or context.Listing (the list of one
# decision's actions), never attributes of the generators.
RUNNING = ("held_used", "_prelude_used", "_calls", "blocks", "alt_blocks", "pid", "loops",
           "picks_counted", "in_place_left", "prelisted", "call_lists", "first_stmt",
           "counted", "offers", "len_nodes", "appended", "first_out", "never_empty")


def test_no_running_state_of_a_function_is_left_on_the_generators():
    """After a game's every function is written (API and playout variants), the game's
    writers and a rule's writer hold none of one function's counts and tables: they were
    the function's own scope, made for it, reached through the context."""
    from rulelang.compile.context import FunctionScope, Listing, Reads
    from rulelang.compile.rulegen import RuleGen
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(4)
    cg.playout_procs()
    rg = RuleGen(cg, playout=True)
    rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
    for writer in (cg.gen, cg.stmts, rg):
        left = set(RUNNING) & set(vars(writer))
        assert not left, (type(writer).__name__, sorted(left))
    scope = {f.name for c in (FunctionScope, Reads, Listing) for f in attrs.fields(c)}
    assert {n.lstrip("_") for n in RUNNING} - {"held_used", "prelude_used"} <= scope
    # (what was written is the function's result: its blocks, where its alternatives begin)
    assert isinstance(rg.written, FunctionScope) and rg.written.blocks and rg.written.loops == []
    assert rg.written.reads.held       # (the looping turn of a playout reads the state's locals)


def test_two_functions_written_by_one_writer_share_no_running_state():
    """A rule's writer asked for two functions gives each its own scope: the second's blocks
    and the locals its first line binds are its own, the same as a fresh writer's."""
    from rulelang.compile.rulegen import RuleGen
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    cg = game.compiled(3)
    body = cg.model.rules["turn"].decl.body
    rg = RuleGen(cg, playout=True)
    rg.compile_rule(body, cg.turn_proc, next_turn=cg._turn_spec)
    first = rg.written
    rg.compile_rule(body, cg.turn_proc)
    fresh = RuleGen(cg, playout=True)
    fresh.compile_rule(body, cg.turn_proc)
    def names(src):                 # (the names the generator invents count on, game-wide)
        return re.sub(r"\b_([a-z]+)\d+\b", r"_\1", src)
    assert rg.written is not first and names(rg.src) == names(fresh.src)
    assert rg.written.reads.held == fresh.written.reads.held
    assert len(rg.written.blocks) == len(fresh.written.blocks) < len(first.blocks)
