"""What code is being written for: one immutable value, passed down as an argument.

Every writer method of the generator that depends on where its code goes takes the generation
context ``cx`` (a :class:`Context`) as its first argument after ``self``, in the style of a
compiler's frame passed to each visit: the expression writers of
:class:`~rulelang.compile.codegen.ExprGen` (``gen(cx, e, env)``, the ``g_<Node>`` methods, the
helpers they call), the statement writers of :class:`~rulelang.compile.stmtgen.StatementGen`
(``t_<Stmt>``) and of :class:`~rulelang.compile.rulegen.RuleGen` (``stmts``, ``sus_<Stmt>``,
the decisions, the playout variant).  No writer keeps a current context as an attribute: a
nested construct calls its parts with a changed copy, ``cx.evolve(field=value)``, and the
code around it goes on with its own ``cx``, unchanged (nothing is set and restored, so a
failure inside a part leaves nothing behind).

One class, not one for rules and one for values: a statement writes values under the same
context it is written in (the rule copied in place whose `you` and slots are Python locals is
both a statement's concern and every value's in it), so the two parts travel together.  Its
fields fall in two groups:

- *the function's* (how one rule's function is written, made by ``RuleGen.compile_rule``): the
  API's function or its playout variant, the turn that goes on from turn to turn, the state's
  most read parts and the step budget held in locals, and the part being written (the
  structured turn, a rule copied or written in place of its call);
- *the value's* (how ``ExprGen`` writes a value where it is being written): the state's parts
  read from locals or not, a plain part of a statement's value, the define values kept, the
  rule copied in place whose slots are Python locals, the loop its parts may be computed
  before, the structured turn's locals.

A context may name a table that the code written meanwhile fills in (the define values kept,
the zones' locals, the parts moved before a loop): the table is the construct's, made where the
construct starts, not a mode.  Code written outside any rule's function (a value's function,
an ending's test) is written under :data:`API` (``Context.outside()``: with its own Reads).

The running state of what is being written is not the generators' either: records made for it
alone, filled in as it is written and reached from the context, in the manner of a compiler's
symbol table for one function.  :class:`FunctionScope` (``cx.scope``) is one rule's function:
its blocks, the loops around the statement being written, the lists made for its choices, its
budget of statements written in place.  :class:`Reads` (``cx.reads``) counts what the code
written reads (the state's parts held in locals, the values a define's function computes
first, the calls of defines' functions): a function has its own, and a define's code is
measured under one of its own, then added in.  :class:`Listing` (``cx.listing``) is the list
of one decision's actions.  The long-lived generators (the game's ExprGen and StatementGen)
keep only what is the game's, from function to function: its namespace, the code and
functions of defines, the shapes.
"""
from __future__ import annotations

from typing import Optional

import attrs


@attrs.frozen(slots=False)
class Context:
    """How the code being written is written (see the module's docstring)."""
    # ---- the function's ---------------------------------------------------------------------
    # the playout variant (PlayoutGen): decisions taken in place, nothing logged
    playout: bool = False
    # the turn that goes on from turn to turn (RuleGen.compile_rule's ``next_turn``)
    looping: bool = False
    # the state's most read parts held in locals by the function (the optimisation
    # held_state; what the values read is ``hold``, below)
    held: bool = False
    # the steps of the budget counted in locals (RuleGen.step; the optimisation steps_held)
    steps_held: bool = False
    # the decisions and choices of a playout counted in locals (PlayoutGen.policy_pick; the
    # optimisation counts_held: in the looping turn of a playout)
    counts_held: bool = False
    # writing the structured turn (PlayoutGen.structured_turn): a rule written in place is
    # counted against its own budget of statements
    structuring: bool = False
    # ... its `you`, slots and zones in Python locals (the optimisation turn_locals)
    turn_locals: bool = False
    # ... its turns counted in a local (the optimisation turns_held)
    turns_held: bool = False
    # inside a rule copied in place of its call (RuleGen.copy_rule): how many, one in another
    copying: int = 0
    # inside a rule that may decide written in place of its call (RuleGen.inline_call)
    inlining: int = 0
    # writing a move whose cards seen_go records (StatementGen.t_Move): what it forgets or
    # carries is its own, no move inside it notes it again (StatementGen.noting, drawn_once)
    recording: bool = False
    # the code of the zone a move goes to, worked out before it (a move beside a card,
    # StatementGen.t_Move: the zone is worked out once, for the move and for the card put
    # beside), or None: the move works it out
    dest_code: Optional[object] = None
    # ---- the value's ------------------------------------------------------------------------
    # the state's most read parts read from the locals a rule's function binds (``held``;
    # never in a function of its own: a define's, a card search's)
    hold: bool = False
    # a plain part of a statement's value (an `if`'s test, the value set: ExprGen.gen_plain),
    # where a choice between values may keep what its first condition computes
    plain: bool = False
    # the define values kept (exprnodes.kept_by_first, RuleGen.first_define): id -> [copy, name]
    kept: Optional[dict] = None
    # the structured turn's slots are Python locals: code that needs the frame raises NeedsFrame
    frameless: bool = False
    # the zones whose lists the structured turn holds in locals (index -> name, filled in as
    # code reads them), or None
    zone_locals: Optional[dict] = None
    # a rule's body written in place of a call of it (ExprGen.you_as): the code of its `you`
    # and of its slots (frame index -> code); ``base_frame``: that `you` is a slot of the frame
    base_env: dict = attrs.field(factory=dict)
    base_frame: bool = False
    # slots read as another slot's code while a statement is written (ChoiceGen.sus_Choose)
    alias: dict = attrs.field(factory=dict)
    # the loop whose parts that do not depend on its item are computed before it
    # (Hoisting.gen_hoisting): (loop names, hoisted, binds, card slot, lines), or None
    hoist: Optional[tuple] = None
    # the tops of shared zones computed once before that loop (Hoisting.shared_tops), or None
    tops: Optional[dict] = None
    # the code written runs for each item of a loop: a loop in it is charged (ExprGen.charged)
    charging: bool = False
    # what holds wherever the code being written is computed, of the values computed before
    # that loop (Hoisting.guard): (the loop's hoisted list, ((hoisted name, true?), ...)), or None
    guard: Optional[tuple] = None
    # the comparisons known to be false there (exprnodes.ExprNodes.g_BoolOp: their shapes,
    # ExprGen.shape), or None
    false: Optional[frozenset] = None
    # in a define's function (ExprGen.helper): the calls of other defines' functions it makes
    # first, once (name, code), filled in as its body is written; None elsewhere
    prelude: Optional[list] = None
    # ... the names those calls may be given as arguments (the function's own)
    prelude_args: frozenset = frozenset()
    # ---- the running state --------------------------------------------------------------------
    # what the code written under this context reads (a Reads: the function's own, or that of
    # a define's code measured apart, ExprGen.expanded); None only in API itself
    reads: Optional["Reads"] = None
    # the rule's function being written (a FunctionScope: its blocks, loops, the lists made
    # for its choices...), made by RuleGen.compile_rule; None outside a rule's function
    scope: Optional["FunctionScope"] = None
    # the list of a decision's actions being written (a Listing, made by ChoiceGen.enum_all for
    # that decision), or None
    listing: Optional["Listing"] = None

    @property
    def logged(self) -> bool:
        """Whether moves and reversals are recorded in a logged game's log (rulelang/engine/
        events.py): not in the playout variants, which never log."""
        return not self.playout

    def evolve(self, **changes) -> "Context":
        """A copy of this context with ``changes`` (attrs.evolve, without running __init__:
        the generator makes one for each part of a value written inside a loop)."""
        fields = self.__dict__
        for name in changes:
            if name not in fields:
                raise TypeError(f"Context has no field {name!r}")
        new = object.__new__(Context)
        new.__dict__.update(fields)
        new.__dict__.update(changes)
        return new


    @classmethod
    def outside(cls) -> "Context":
        """The context of a function written outside any rule's (a value's, an ending's test):
        the API's, with what its code reads counted apart."""
        return API.evolve(reads=Reads())


# The context of code written outside any rule's function, and of the API's functions; a
# function written under it counts what it reads in its own Reads (Context.outside).
API = Context()


@attrs.define(eq=False)
class Reads:
    """What the code written under a context reads, counted as it is written: the code of one
    function, or the code of a define's use measured apart (ExprGen.expanded writes it under a
    Reads of its own, keeps the counts with the code it may copy elsewhere, and adds them to
    the Reads around it)."""
    # the parts of the state read from the locals the function binds first (ExprGen.state;
    # names of compile/codegen.py's HELD): its first line binds these (ExprGen.held_line)
    held: set = attrs.field(factory=set)
    # in a define's function (Context.prelude): the values it computes first that the code
    # reads (the others are left out: ExprGen.helper)
    prelude: set = attrs.field(factory=set)
    # the calls of defines' functions in the code (ExprGen.expanded: a define whose code calls
    # others' functions twice is a function of its own)
    calls: int = 0

    def add(self, other: "Reads") -> None:
        """Count in what the code ``other`` counted reads (a part of this code)."""
        self.held |= other.held
        self.prelude |= other.prelude
        self.calls += other.calls


@attrs.define(eq=False)
class FunctionScope:
    """The running state of one rule's function while it is written: made by
    RuleGen.compile_rule for that function alone, reached by every writer as ``cx.scope``,
    filled in as the function is written, and dropped with it (what is kept of it, its blocks
    and where its alternatives begin, is the function's result: RuleGen.written)."""
    # the rule's number (CompiledGame.proc_index; an ending's body has one too)
    pid: int
    # the first statement of its body: a choice there may be given the list an `if` made
    # (ChoiceGen.prelist)
    first_stmt: object = None
    # what its code reads, counted as it is written (the context's ``reads`` at its top)
    reads: Reads = attrs.field(factory=Reads)
    # its blocks (compile/blocks.py: Block), in order; a block's number is its position
    blocks: list = attrs.field(factory=list)
    # (alternative id, block number): where each alternative of its choices begins
    alt_blocks: list = attrs.field(factory=list)
    # the loops around the statement being written, innermost last: ("inline", None) for a
    # Python loop, ("block", end block) for a loop written as blocks (RuleGen.for_each)
    loops: list = attrs.field(factory=list)
    # whether a decision counted in locals was written (PlayoutGen.policy_pick): the function
    # binds the counts first and adds them to the state where it is left
    picks_counted: bool = False
    # how many statements of rules it may still write in place of their calls (RuleGen.in_place;
    # rulegen.MAX_IN_PLACE in all; the structured turn has its own budget)
    in_place_left: int = 0
    # id(alternative) -> the name of the list its `if` made for it (ChoiceGen.prelist)
    prelisted: dict = attrs.field(factory=dict)
    # id(call) -> (slot, the name of the list its `if` made for the rule called: ChoiceGen.prelist)
    call_lists: dict = attrs.field(factory=dict)


@attrs.define(eq=False)
class Listing:
    """The running state of the list ``out`` of one decision's actions while it is written:
    made by ChoiceGen.enum_all for that decision, reached as ``cx.listing`` by the writers of
    its alternatives, and read once they are written (ChoiceGen.write_out, the test for a
    choice without alternatives)."""
    # (zone, condition: ChoiceGen._cards_key) -> the names of len(out) before and after the
    # alternative that offered those cards, how many were offered before it, whether out was
    # empty before it: a later `any card in Z where C` is answered from them (_same_cards)
    counted: dict = attrs.field(factory=dict)
    # how many alternatives were offered so far (ChoiceGen.offer)
    offers: int = 0
    # a len(out) written after an alternative that nothing read yet -> its node (left out of
    # the list's code when nothing reads it: enum_all)
    len_nodes: dict = attrs.field(factory=dict)
    # may an alternative written before have added actions to out?
    appended: bool = False
    # (node, list) when the first line to touch out extends it with a list (that line makes
    # out itself); (None, "out") when a loop made out itself; None otherwise
    first_out: Optional[tuple] = None
    # whether out cannot be empty once listed: an alternative with nothing to choose offered
    # always, or when the alternatives before it offered nothing (`draw if no card in hand
    # where playable(card)` after `play card c from hand where playable(c)`); then no test
    # for a choice without alternatives is written
    never_empty: bool = False
