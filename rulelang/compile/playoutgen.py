"""The playout variant of a rule's function: decisions taken in place.

For :meth:`State.playout <rulelang.engine.runtime.State.playout>`, each rule also has a variant
(``RuleGen(..., playout=True)``) that asks the playout's policy at a decision instead of stopping,
and goes on into the chosen alternative's body, copied where it is entered.  :class:`PlayoutGen`
is that part of :class:`~rulelang.compile.rulegen.RuleGen`.
"""
from __future__ import annotations


from rulelang.kinds import Frame
from rulelang.engine.runtime import ACTION_SHIFT
from rulelang.engine.playout import _merge_twins_fast, playout_pick, twin_keys
from contextlib import nullcontext

from rulelang.engine.control import CALL
from rulelang.compile.gensource import NeedsFrame, Unsupported
from rulelang.compile.genruntime import _no_choice
from rulelang.compile.writer import Code, CodeWriter, Enter, Jump, size, transform, walk


# A playout variant copies at most this many lines of its blocks where they are entered
# (expand_entries; the largest function of the games of rules/ is about 2,700 lines): a chain of
# four hundred calls of a rule that decides, each block copied forty deep, made a function of
# over a hundred thousand lines, seconds and most of a gigabyte to compile.
MAX_COPIED_LINES = 8192


class _NextTurn:
    """Where the structured turn writes the next turn (``RuleGen.next_turn_block``): its
    writer, at the loop's level."""

    def __init__(self, w):
        self.w = w
        self.closed = False


class PlayoutGen:
    """The playout variant's decisions and entries (a part of RuleGen)."""

    def playout_decision(self, cx, alts, who, w):
        """The playout variant of a decision (one chooser, whose code is ``who``), written by
        ``w`` where the decision would stop: instead of stopping with the legal actions in
        ``g.awaiting``, ask the playout's policy (``State.playout``) for one of them and go on
        into its alternative's body, as ``apply_action`` would: the same list, the same call of
        the policy, the same slot and position in the frame, one decision more (in a game with
        copies of a card, the list merged as ``legal_actions`` merges it).  A playout with a
        budget of decisions or a policy of actions goes through ``playout_pick``, which stops
        the playout where the budget is spent."""
        a = self.x.fresh()
        self.x.ns["_pick"] = playout_pick
        self.policy_pick(cx, alts, who, a, w, driver=True)
        blocks = dict(cx.scope.alt_blocks)
        order = sorted(alts, key=lambda t: t[0])
        for i, (aid, alt, slot) in enumerate(order):
            if i < len(order) - 1:     # the actions of alternative aid are aid << SHIFT + value
                w.writeline(f"if {a} < {(int(aid) + 1) << ACTION_SHIFT}:")
                with w.indent():
                    self.enter_alternative(w, a, aid, alt, slot, int(blocks[aid]))
            else:
                self.enter_alternative(w, a, aid, alt, slot, int(blocks[aid]))

    def policy_pick(self, cx, alts, chooser, a, w, driver=False):
        """The action ``a`` the playout's index policy picks for the player ``chooser`` among the
        list ``out`` of a decision offering the alternatives ``alts``, counted (decisions,
        choices, forced decisions) as ``State.playout`` counts them: a node of its own
        (writer.Pick; ``driver``: where no index policy is set, the playout's driver picks)."""
        k = self.x.fresh()
        pk = self.x.state(cx, "_pk")
        # In the turn that goes on from turn to turn the counts are locals, added to the state
        # where the function is left (RuleGen.compile_rule); only State.playout reads them meanwhile.
        # (playout_pick reads g.decisions, for the budget: that branch counts on the state.)
        held = cx.counts_held
        counts = ("_dc", "_ch", "_fo") if held else ("g.decisions", "g._ch", "g._fo")
        cx.scope.picks_counted = cx.scope.picks_counted or held
        legal, merge = "out", None
        if self.cg.card_twin is not None and any(
                self.cg.alternatives[aid].kind == "card" for aid, _, _ in alts):
            # copies of a card: one action (most often there are none: tested in C, here)
            legal = self.x.fresh()
            self.x.ns["_mtf"] = _merge_twins_fast      # (`_map` is in every namespace)
            key = self.x.const(twin_keys(self.cg))
            merge = (f"{legal} = out if len({{*_map({key}, out)}}) == len(out) else _mtf(out, {key})"
                     if self.cg.on("twins_test") else f"{legal} = _mtf(out, {key})")
        # A forced decision (one choice) asks the policy only when the playout does not skip
        # them (State.playout's skip_forced); the test of k is the one the count needs anyway.
        w.pick(a, chooser, legal, merge, k, counts, pk, self.x.state(cx, "_sf"), driver)

    def inline_choose(self, cx, st, w):
        """A decision of a rule written in place of its call in a playout that cannot stop
        (``RuleGen.inline_call``): the list made as the decision makes it, the action the index
        policy picks (``policy_pick``), then the chosen alternative's body, in place, its value
        in the alternative's slot (a Python local of the copy, as ``apply_action`` would set the
        slot of the frame).  One chooser; no claim, several cards or hidden places
        (``copies.can_inline``)."""
        cg = self.cg
        slots = cg.model.choose_slots.of(st)
        ci = Frame.slot(slots.chooser)
        if cg.endings:
            quick = self.endings_quick(cx)
            w.writeline(f"if {quick + ' and ' if quick else ''}_ck(g): return {CALL}")
        self._inline_choose(cx, st, slots, ci, w)

    def _inline_choose(self, cx, st, slots, ci, w):
        # In the structured turn's own body (its slots Python locals, `you` the loop's _y), a
        # choice by `you` names its chooser _y itself, and an alternative's card (or value:
        # alternative 0, whose actions are the values) the action picked: their slots are
        # read only inside the choice, where neither changes (no copy into a name of its own).
        you = None if st.by else self.chooser_you(cx, st)     # (no `by`: `you` where it is written)
        alias = cx.frameless and self.x.slot(cx, Frame.YOU, {}) == TURN_YOU
        if alias and you == TURN_YOU:
            cx = cx.evolve(base_env={**cx.base_env, ci: TURN_YOU})
            who = TURN_YOU
        else:
            who = self.x.slot(cx, ci, {})
            w.writeline(f"{who} = {self.x.gen(cx, st.by[0], {}) if st.by else you}")
        actions = CodeWriter()
        alts, listing = self.enum_all(cx, st, slots, actions)
        self.write_out(listing, actions.items, w)
        if not listing.never_empty:
            self.x.ns["_noch"] = _no_choice
            w.writeline(f"if not out: _noch({who}, {self.x.const(st.span)})")
        a = self.x.fresh()
        self.policy_pick(cx, alts, who, a, w)
        order = sorted(alts, key=lambda t: t[0])
        for i, (aid, alt, slot) in enumerate(order):
            if len(order) > 1:
                w.writeline(f"if {a} < {(int(aid) + 1) << ACTION_SHIFT}:" if i == 0 else
                            f"elif {a} < {(int(aid) + 1) << ACTION_SHIFT}:" if i < len(order) - 1
                            else "else:")
            with w.indent() if len(order) > 1 else nullcontext():
                if alt.param is not None:
                    base = int(aid) << ACTION_SHIFT
                    if alias and not base:
                        cx = cx.evolve(base_env={**cx.base_env, Frame.slot(int(slot)): a})
                    else:
                        w.writeline(f"{self.x.slot(cx, Frame.slot(int(slot)), {})} = {a}" +
                                    (f" - {base}" if base else ""))
                self.inline_body(cx, alt.body, w)

    @staticmethod
    def enter_alternative(w, a, aid, alt, slot, b):
        """Go on into the body of alternative ``aid`` (block ``b``), the action ``a`` chosen."""
        if alt.param is not None:
            base = int(aid) << ACTION_SHIFT
            w.writeline(f"fr[{Frame.slot(int(slot))}] = {a}" + (f" - {base}" if base else ""))
        w.writeline(f"fr[{Frame.POSITION}] = {b}")
        w.enter(b)

    def expand_entries(self, cx, limit=40):
        """Copy the body of each alternative where the playout variant chose it (an alternative's
        block is entered from its decision only), and any other block that only one jump leads
        to, in place of that jump: going on takes no trip through the tests of ``pc``.  The
        blocks stay, for resuming a frame; a copy nested deeper than ``limit``, or beyond
        MAX_COPIED_LINES copied lines in the function, stays a jump."""
        blocks = {b.number: b for b in cx.scope.blocks}
        refs = {}
        for b in cx.scope.blocks:
            for n in walk(b.items):
                if isinstance(n, Jump):
                    refs[n.target] = refs.get(n.target, 0) + 1
        left = [MAX_COPIED_LINES]

        def expand(items, seen):
            def copy(node):
                if not isinstance(node, Jump):
                    return None
                t = node.target
                if t != 0 and t not in seen and len(seen) < limit and (
                        isinstance(node, Enter) or refs.get(t) == 1) and \
                        left[0] >= size(blocks[t].items):
                    left[0] -= size(blocks[t].items)
                    return expand(blocks[t].items, seen | {t})
                return None
            return transform(items, copy)

        for b in cx.scope.blocks:
            b.replace(expand(b.items, frozenset((b.number,))))

    def structured_turn(self, cx, body, spec, in_place):
        """The playout variant of the turn that goes on from turn to turn, as one structured
        loop for a playout that cannot stop (an index policy, no budget: ``_pk`` set), or None;
        and whether it counts its turns in a local (``turns_held``).
        When the whole turn can be written in place (``copies.can_inline``: every decision one
        chooser offering one card, player or value at a time, every rule it calls written in
        place or never deciding, no `return` or `end turn`), its statements are written as a
        rule copied in place is (``inline``: loops are Python's, decisions taken where they come,
        ``inline_choose``; no position stored, no block chosen by ``pc``), then the next turn,
        and the loop goes on: lines tested first at each pass over the blocks (``if pc == 0 and
        _pk is not None``), so that a turn begun there, or entered from a block, goes on in
        them.  The blocks stay, for a frame resumed and a playout that can stop.  A turn whose
        copies would pass ``in_place`` statements (rulegen.MAX_IN_PLACE) is not written twice.

        The turn's `you` and slots are Python locals there (``turn_locals``), read from the
        frame where the loop begins: the loop is never left to go on in the frame (every way
        out of it ends the game, which empties the stack, or ends the turn, which drops the
        frame), so nothing reads the frame after it.  Nor are the slots set back to 0 when a
        turn begins, as the frame's are: a name of the rules is in scope only after what binds
        it (a `let`, a choice, a loop, a parameter), so a slot is always set in the turn before
        it is read (the differential fuzz of the fast path compares whole games with the API's).
        Where a statement needs the frame all the same (``ExprGen.frame``: a loop over the
        players in a game where players leave counts in it), the loop is written on the frame."""
        kept = dict(cx.scope.call_lists), dict(cx.scope.prelisted)    # (what writing it uses up)
        if not self.cg.on("turn_locals"):
            return self._structured_turn(cx, body, spec, in_place, locals_=False)
        try:
            return self._structured_turn(cx, body, spec, in_place, locals_=True)
        except NeedsFrame as why:
            self.cg.fell_back("turn", "turn_locals", str(why))
            cx.scope.call_lists, cx.scope.prelisted = kept
            return self._structured_turn(cx, body, spec, in_place, locals_=False)

    def _structured_turn(self, cx, body, spec, in_place, locals_):
        """The structured turn's nodes, or None, and whether it counts its turns in a local."""
        cg = self.cg
        if not cg.turn_in_place:     # (CompiledGame: copies.can_inline)
            return None, False
        w = CodeWriter()
        w.writeline(f"if pc == 0 and {self.x.state(cx, '_pk')} is not None:")
        saved, loops = cx.scope.in_place_left, list(cx.scope.loops)
        cx.scope.in_place_left = in_place
        # A game that never reads `number of turns` (ExprGen.turns_read): the loop counts its
        # turns in the local _tn, added to the state where the function is left.
        turns_held = not cg.reads_turns and cg.on("turns_held")
        nslots = int(cg.model.rules["turn"].nslots)
        names = {Frame.slot(i): self.x.fresh() for i in range(nslots)} if locals_ else None
        zones = {} if locals_ else None
        self.x.zone_serial += 1
        try:
            tcx = cx.evolve(inlining=cx.inlining + 1, structuring=True, turns_held=turns_held,
                            zone_locals=zones)
            with w.indent():
                if locals_:
                    w.writeline(f"{TURN_YOU} = fr[{Frame.YOU}]")
                    if nslots:
                        w.writeline("".join(f"{names[Frame.slot(i)]}, " for i in range(nslots)) +
                                    f"= fr[{Frame.SLOTS}:]")
                    zones_at = w.later()        # (the zones' lists the loop reads: below)
                w.writeline("while True:")
                lcx = self.x.you_as(tcx, TURN_YOU, True, names) if locals_ else tcx
                lcx = lcx.evolve(turn_locals=locals_, frameless=locals_)
                with w.indent():
                    self.inline_body(lcx, body, w)
                    self.next_turn_block(lcx, _NextTurn(w), spec)
        except NeedsFrame:
            raise
        except Unsupported as why:
            cg.fell_back("turn", "structured_turn", str(why))
            return None, False
        finally:               # (as they were, even when a copy stopped it half-way)
            cx.scope.in_place_left, cx.scope.loops[:] = saved, loops
        if zones:               # each zone of a known index the loop reads, in a local; the
            n = int(cg.n)       # zones of each player, a tuple of their lists
            zones_at.code = "; ".join(
                f"{name} = {self.x.zones(cx)}[{i}]" if isinstance(i, int) else
                f"{name} = ({''.join(f'{self.x.zones(cx)}[{i[1] + p}], ' for p in range(n))})"
                for i, name in sorted(zones.items(), key=lambda kv: (not isinstance(kv[0], int),
                                                                     str(kv[0]))))
        # (the next turn's jump to the turn's start: the loop's own)
        return transform(w.items, lambda n: [Code("continue")] if isinstance(n, Jump) else None), \
            turns_held


# The structured turn's `you` (PlayoutGen.structured_turn; its slots have fresh names).
TURN_YOU = "_y"
