"""The optimisations of the generator, named in one registry, each with a switch.

Every speed mechanism and special case of :mod:`rulelang.compile` is an entry of :data:`PASSES`:
its name, what it does in one line, what it assumes, and whether it can be switched off.  A
game is compiled with a set of them on (``load(..., optimize=...)``,
``Game.compiled(n, optimize=...)``, ``CompiledGame(..., optimize=...)``; by default every one,
or what the environment variable ``RULELANG_OPT`` says): with one off, the generator takes its
plain path, and the game plays the same, move for move (the same log, legal actions,
observations and result: ``tests/test_fuzz_differential.py`` plays generated games with all on,
none, and each alone, against the reference interpreter).  An entry with ``always=True`` has no
plain path (its reason says why): it is listed so that nothing goes on unnamed.

Where an optimisation that is on cannot apply to a rule, the generator notes it (which rule,
which optimisation, why) in :attr:`CompiledGame.fallbacks <rulelang.compile.compiler.CompiledGame>`,
which ``rulelang check --verbose`` prints.

The spelling of a set of switches (:func:`resolve`): ``"all"``, ``"none"``, an iterable of
names, or a string of names separated by commas, each optionally preceded by ``-`` (take it
away from what came before; a string that begins with ``-`` takes away from all) or ``+``.
"""
from __future__ import annotations

import os

import attrs

ENV = "RULELANG_OPT"


@attrs.frozen
class Pass:
    """One optimisation: its ``name``, what it does (``description``), what it ``assumes``, and
    ``always`` (with the ``reason``) when it has no plain path and cannot be switched off;
    ``requires``: the optimisations without which it never applies (it works on what they
    write)."""
    name: str
    description: str
    assumes: str
    always: bool = False
    reason: str = ""
    requires: tuple = ()


PASSES: tuple = (
    # ---- how rules run ---------------------------------------------------------------------
    Pass("playout_variant", "the playout fast path runs a variant of each rule that asks the "
         "playout's policy at a decision and goes on in place, instead of the API's function",
         "a playout keeps no log; the variant has the blocks and frame of its rule, so that a "
         "frame stopped by one is resumed by the other"),
    Pass("looping_turn", "the turn's function goes on to the next turn itself where the turn "
         "ends, instead of returning to the root's loop",
         "what the root does between turns (the count, the next seat, the log, the endings, "
         "the step budget) is written at the turn's end, in the same order"),
    Pass("structured_turn", "a playout that cannot stop plays the turn as one structured "
         "Python loop, its decisions and the rules it calls written in place",
         "every decision has one chooser; no `return` or `end turn`; every rule the turn calls "
         "can be written in place (copies.can_inline)",
         requires=('playout_variant', 'looping_turn')),
    Pass("turn_locals", "in the structured turn, `you`, the turn's slots and the zones' lists "
         "are Python locals, not the frame's entries",
         "nothing reads the frame while the loop runs (every way out of it ends the game or "
         "the turn)",
         requires=('structured_turn',)),
    Pass("turns_held", "the structured turn counts its turns in a local, added to the state "
         "where the function is left", "the game never reads `number of turns`",
         requires=('structured_turn',)),
    Pass("direct_calls", "a rule that never waits for a decision is called as a Python "
         "function, its frame never pushed on the game's stack",
         "no state can be observed while it runs; no chain of calls leads back to it"),
    Pass("entered_rules", "a rule that may decide but never runs itself again is entered by a "
         "Python call, its frame on the stack, instead of through the run loop",
         "a chain of such calls is at most MAX_CALL_CHAIN deep"),
    Pass("copies", "the body of a rule called directly is written in place of its call, its "
         "slots Python locals", "the rule never decides and its body can be copied "
         "(copies.copy_sizes); at most MAX_IN_PLACE statements per function",
         requires=('direct_calls',)),
    Pass("inlined_calls", "a playout that cannot stop writes a rule that decides in place of "
         "its call, its decisions taken where they come",
         "the rule can be inlined (copies.inlined_rules): one chooser, no claim, no hidden "
         "places",
         requires=('playout_variant',)),
    Pass("endings_fast", "every ending is tested by one generated function, not one function "
         "per ending called for each seat", "the endings' conditions read no local"),
    Pass("endings_quick", "before the endings are checked in order, one cheap expression tests "
         "whether any may hold", "no condition rolls a die, draws at random or may stop the game"),
    # ---- how values are computed -------------------------------------------------------------
    Pass("hoisting", "in a loop over cards or values, a part that does not depend on the item "
         "is computed once, before the loop",
         "the part reads no slot the loop binds and rolls no die; a part that may stop the game "
         "is computed first, its problem kept for where the rules reach it"),
    Pass("shared_tops", "the top or bottom of a shared zone read twice by a loop's condition is "
         "computed once before it", "a top never stops the game and reads no slot"),
    Pass("card_binds", "a table of the loop's card read three times or more is looked up once "
         "per card", "the lookups are of the card itself (a plain read of the loop's slot)"),
    Pass("split_loop", "where a value computed before a loop may have failed, a second loop "
         "computes everything in place, so that the first loop reads its values unguarded",
         "the values computed first are the same whichever card the loop is at",
         requires=('hoisting',)),
    Pass("card_sets", "a card condition made of tests of the card's own tables is a lookup in "
         "a set of cards made before the loop", "the tables do not change while the game is "
         "played"),
    Pass("work_held", "a search over cards inside a loop keeps what it charges to the work in "
         "loops in a local, and compares it with the floor (a constant) before the budget's "
         "bound", "the two comparisons read nothing else and stop nothing: their order "
         "changes no result"),
    Pass("prelist", "`if any card in Z where C` whose branch begins with the choice of such a "
         "card makes the choice's list once, and tests it",
         "the same zone and condition; the condition cannot stop the game"),
    Pass("unswitching", "a card condition `A if C else B` whose C does not depend on the card "
         "is decided once, before one loop per arm", "C reads nothing of the card"),
    Pass("player_order", "a loop over the players in the order of play is Python's loop over a "
         "tuple of seats", "no player leaves, the direction is 1 and the body never sets the "
         "loop's player"),
    Pass("empty_if", "an `if` with nothing to do in any branch is left out",
         "asking which branch can neither roll a die nor stop the game"),
    Pass("shuffle_plans", "a shuffle of 3 to 256 cards, once its length is common, is run by a "
         "function written out for that length (engine/rng.py)",
         "the same draws in the same order as the shuffle one draw at a time"),
    # ---- how the functions are laid out ------------------------------------------------------
    Pass("jump_threading", "a jump to a block that only jumps or returns goes where that block "
         "leads", "a block of one line is entered only by jumps"),
    Pass("inline_next_turn", "the block that passes the turn on is copied to every jump to it",
         "the block is entered only by jumps",
         requires=('looping_turn',)),
    Pass("expand_entries", "in a playout variant, an alternative's block, and any block one jump "
         "leads to, is copied where it is entered", "the blocks stay, for a frame resumed",
         requires=('playout_variant',)),
    Pass("held_state", "the playout variants and the looping turn read the state's most used "
         "parts (zones, vars, the policy, the budget) from locals bound once",
         "none of them is rebound while a rule runs",
         requires=('playout_variant',)),
    Pass("steps_held", "the looping turn of a playout counts the step budget in locals",
         "the steps reach the state before a call of another rule and wherever it is left",
         requires=('playout_variant', 'looping_turn')),
    Pass("counts_held", "the looping turn of a playout counts its decisions and choices in "
         "locals", "only State.playout reads them meanwhile; added where the function is left",
         requires=('playout_variant', 'looping_turn')),
    Pass("twins_test", "in a game with copies of a card, a playout's list of actions is merged "
         "only when a test in C finds two copies in it", "merging a list without copies "
         "changes nothing",
         requires=('playout_variant',)),
    Pass("family_index", "a zone of a family named by a constant is its number; named by a "
         "local, a lookup in a tuple with the range tested in place, not a function's call",
         "a local is read twice without a change between; outside the range the function is "
         "called, and stops the game as before (RL256)"),
    # ---- always on ---------------------------------------------------------------------------
    Pass("define_functions", "a define longer than HELPER_NODES nodes of its checked tree "
         "(written in place), or calling other defines' functions twice, is a function of its own", "",
         always=True, reason="without it, generation is exponential in the nesting of defines "
         "(a tower of defines takes minutes to compile)"),
    Pass("kept_defines", "a define used twice in one statement is computed once, kept in a "
         "name, where the first use computes it", "", always=True,
         reason="it is the meaning of a shared define: one that draws at random draws once per "
         "statement"),
    Pass("folding", "constants are written as their values, and questions about an expression "
         "(may it stop the game, is it never none) are answered on the tree", "", always=True,
         reason="the answers decide what code is safe to write; there is no generator without it"),
    Pass("card_search", "`any card in Z where C` is a function that stops at the first card "
         "that passes", "", always=True,
         reason="it is the rules' order: a condition that draws at random draws no more after "
         "the first card that passes"),
    Pass("loops_not_comprehensions", "a choice's list of cards is made by a loop, not a "
         "comprehension", "", always=True, reason="the generator has no comprehension path for "
         "it (the loop is the plain way)"),
    Pass("awaiting_tuple", "a decision of one seat is the tuple (seat, legal actions) in the "
         "state's slot `awaiting`", "", always=True,
         reason="it is the state's representation, read by the API and saves"),
    Pass("memory_forms", "what players remember is a list, or while a playout runs a Memory "
         "that forgets lazily", "", always=True,
         reason="State.shown makes the list from the Memory: the same entries either way"),
    Pass("state_from_fields", "the state's clone and maker are functions written from its "
         "fields (engine/runtime.py _from_fields)", "", always=True,
         reason="the engine's only way to make and copy a state"),
)

BY_NAME = {p.name: p for p in PASSES}
SWITCHABLE = frozenset(p.name for p in PASSES if not p.always)


def alone(name: str) -> frozenset:
    """The setting where ``name`` is on with what it requires, and nothing else."""
    out, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n not in out:
            out.add(n)
            todo.extend(BY_NAME[n].requires)
    return frozenset(out)


def resolve(spec=None) -> frozenset:
    """The names of the switchable optimisations on, for ``spec`` (see the module's docstring);
    None: the environment variable RULELANG_OPT, else all."""
    if spec is None:
        spec = os.environ.get(ENV, "").strip() or "all"
    if isinstance(spec, (set, frozenset, list, tuple)):
        names = set(spec)
        _known(names)
        return frozenset(names & SWITCHABLE)
    if not isinstance(spec, str):
        raise TypeError(f"optimize: a set of names, 'all' or 'none', not {spec!r}")
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    on = set(SWITCHABLE) if not parts or parts[0].startswith("-") else set()
    for part in parts:
        if part == "all":
            on = set(SWITCHABLE)
        elif part == "none":
            on = set()
        elif part.startswith("-"):
            _known({part[1:]})
            on.discard(part[1:])
        else:
            name = part[1:] if part.startswith("+") else part
            _known({name})
            on.add(name)
    return frozenset(on & SWITCHABLE)


def _known(names) -> None:
    unknown = sorted(set(names) - set(BY_NAME))
    if unknown:
        raise ValueError(f"no optimisation is named {', '.join(unknown)} "
                         f"(the names: {', '.join(sorted(BY_NAME))})")


@attrs.frozen
class Fallback:
    """An optimisation that was on but could not apply: to which ``rule`` (its name, or
    ``<endings>``), which ``optimisation``, and ``why``."""
    rule: str
    optimisation: str
    why: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "optimisation": self.optimisation, "why": self.why}
