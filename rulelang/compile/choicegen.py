"""A decision in a rule's function: ``choose``, its alternatives and the actions they offer.

:class:`ChoiceGen` is the part of :class:`~rulelang.compile.rulegen.RuleGen` that writes a
``choose``: the list of legal actions (each alternative's cards, players, suits, ranks or numbers,
cards counted once when two alternatives offer the same), the stop for the decision, the block
of each alternative's body; a simultaneous decision and its claims (``any opponent may``); the
several cards chosen in one step (runtime.pick_start / pick_step).
"""
from __future__ import annotations

import functools
from contextlib import nullcontext

from rulelang.syntax import ast as A
from rulelang.kinds import Frame
from rulelang.check.ir import DefineUse, You, you_slot
from rulelang.check.model import Arg, Expanded
from rulelang.engine.runtime import ACTION_SHIFT
from rulelang.engine.control import CALL, SUSPEND, Simultaneous
from rulelang.engine.choices import pick_start, pick_step
from rulelang.engine.choices import claim_order, first_claim
from rulelang.engine.subsets import set_start, set_take
from rulelang.compile.genruntime import AltInfo, _dispatch, _numbers
from rulelang.compile.writer import CodeWriter, remove
from rulelang.compile.context import Listing, Reads
from rulelang.compile.gensource import Unsupported


# A card condition ``(A if C, ..., otherwise)`` whose conditions do not depend on the card is
# written as one loop per part, C deciding which runs (ChoiceGen.unswitched): at most this many.
MAX_ARMS = 4


class NoneBefore(str):
    """The code of an alternative's condition that holds when nothing was offered before it
    (ChoiceGen._same_cards): told by its type, never by reading the code."""
    __slots__ = ()


# Where the card looked at is, in the shape of a condition over cards (ChoiceGen._cards_key).
_CARD = ("the card looked at",)


@functools.lru_cache(maxsize=None)
def opponents_table(n):
    """For each of ``n`` seats, the other seats in the order of play from it (one table per
    number of players): what ``(you + k) % n for k in range(1, n)`` gives, indexed by ``you``
    (a ``you`` of -1, no player, gives the last row, as the modulo does)."""
    return tuple(tuple((p + k) % n for k in range(1, n)) for p in range(n))


class ChoiceGen:
    """The decisions of a rule's function (a part of RuleGen)."""

    def sus_Choose(self, cx, st, cur):
        # A choice without `by` is decided by `you` where it is written (check/statements.py):
        # the rule's own `you`, or inside an alternative of another choice that choice's
        # chooser. By the rule's own `you`, the frame's slot YOU, it names its chooser YOU
        # itself: its own slot is never set (nor saved) and every read of it reads YOU, which
        # cannot change while the choice and its alternatives run (`set current player` moves
        # `you` only in setup's own body, outside any choice).
        slots = self.cg.model.choose_slots.of(st)
        ci = Frame.slot(slots.chooser)
        you = f"fr[{Frame.YOU}]"
        if st.simultaneous or st.by or self.chooser_you(cx, st) != you:
            return self._sus_choose(cx, st, cur, slots, ci, None)
        return self._sus_choose(cx.evolve(alias={**cx.alias, ci: you}), st, cur, slots, ci, you)

    def chooser_you(self, cx, st) -> str:
        """The code of the chooser of ``st``, a choice without ``by``: ``you`` where it is
        written."""
        return self.x.slot(cx, self.refs.of(st).index, {})

    def _sus_choose(self, cx, st, cur, slots, ci, who):
        """:meth:`sus_Choose`, the chooser's code ``who`` (None: its slot, set here)."""
        cg = self.cg
        end = self.new_block(cx)
        w = cur.w
        # The rule's first statement, a choice an `if` of the caller may have listed for
        # (prelist): the list is in the slot of the card, taken from there and the slot
        # emptied first of all (the frame never keeps it: a save holds cards there).
        given = None
        if st is cx.scope.first_stmt and self.listed_choice([st]) is not None:
            given, gi = self.x.fresh(), Frame.slot(slots.params[0])
            w.writeline(f"{given} = fr[{gi}]")
            w.writeline(f"if {given} != 0: fr[{gi}] = 0")
        if cg.endings:
            quick = self.endings_quick(cx)
            w.writeline(f"if {quick + ' and ' if quick else ''}_ck(g): return {CALL}")
        # The actions offered are listed first, then put in place below (in the loop over the
        # players of a simultaneous decision, one level in).
        actions = CodeWriter()
        alts, listing = self.enum_all(cx, st, slots, actions)
        span = self.x.const(st.span)
        if st.simultaneous:
            xi = Frame.slot(slots.extra)
            dispatch = self.new_block(cx)
            bys = [self.x.gen(cx, b, {}) for b in st.by]
            w.writeline("_pl = []")
            each = len(st.by) == 1 and isinstance(st.by[0], A.PlayerQuery) and \
                st.by[0].kind in ("each", "others")
            for b in bys:
                if each:                                # `by each player`: a list of seats
                    w.writeline(f"_pl = {b}")
                    continue
                w.writeline(f"_p = {b}")
                w.writeline("if _p not in _pl: _pl.append(_p)")
            if st.claim:
                self.claim_lines(cx, st, w)
            if each:
                w.writeline("if not _pl:")
                with w.indent():
                    self.jump(w, end.number)
            w.writeline("_lg = {}")
            w.writeline("for _p in _pl:")
            with w.indent():
                w.writeline(f"fr[{ci}] = _p")
                w.writeline("out = []")
                w.extend(actions.items)
                if not listing.never_empty:
                    w.writeline(f"if not out: _noch(_p, {span})")
                w.writeline("_lg[_p] = out")
            self.decide(cur, "decision", f"_together(_pl, _lg, {xi}, {dispatch.number})", SUSPEND)
            self.x.ns.update({"_together": Simultaneous, "_dispatch": _dispatch,
                              "_alts": cg.alternatives})
            d = dispatch.w
            if st.claim:
                self.x.ns["_fclaim"] = first_claim
                none_aid = int(cg.model.labels.of(st.alternatives[-1]).aid)
                d.writeline(f"fr[{xi}] = _fclaim(fr[{xi}], {none_aid})")
            d.writeline(f"_b = _dispatch(fr, {xi}, {ci}, _alts)")
            d.writeline("if _b < 0:")
            with d.indent():
                self.jump(d, end.number)
            d.writeline("pc = _b; continue")       # (the block of the alternative chosen)
            dispatch.closed = True
            back = dispatch
        else:
            if who is None:
                by = self.x.gen(cx, st.by[0], {}) if st.by else self.chooser_you(cx, st)
                w.writeline(f"fr[{ci}] = {by}")
                who = f"fr[{ci}]"
            listed = actions.items
            if given:
                w.writeline(f"if {given} != 0:")
                with w.indent():
                    w.writeline(f"out = {given}")
                w.writeline("else:")
            with w.indent() if given else nullcontext():
                self.write_out(listing, listed, w)
            if not listing.never_empty:
                w.writeline(f"if not out: _noch({who}, {span})")
            if cx.playout:      # decided here, once the alternatives' blocks are made (below)
                cur.closed = True
            else:
                # (a decision of one seat, as State.awaiting keeps it: a plain tuple)
                self.decide(cur, "awaiting", f"({who}, out)", SUSPEND)
            back = end
        for aid, alt, slot in alts:
            b = self.new_block(cx)
            bw = b.w
            cx.scope.alt_blocks.append((aid, b.number))
            if cg.model.picks.has(alt):
                self.cards_step(cx, alt, aid, b.number, who, bw)
            if cg.model.sets.has(alt):            # the set chosen moves; c is its first card
                self.set_take(alt, bw)
            if cg.model.unseen.has(alt):          # c is the card at the chosen place
                bw.writeline(f"fr[{Frame.slot(int(cg.model.unseen.of(alt).slot))}] = "
                             f"{self.x.zone(cx, self.x.gen(cx, alt.param.source, {}))}[fr[{Frame.slot(int(slot))}]]")
            last = self.stmts(cx, alt.body, b)
            self.goto(last, back)
        if cx.playout and not st.simultaneous:
            self.playout_decision(cx, alts, who, w)
        return end

    def enum_all(self, cx, st, slots, actions) -> tuple:
        """The actions each alternative of the choice ``st`` offers, listed by ``actions``
        (``enum``): the alternatives as ``(id, alternative, slot)``, and the list's Listing
        (compile/context.py: what its writing found out, for write_out)."""
        cg = self.cg
        alts: list = []
        listing = Listing()
        cx = cx.evolve(listing=listing)
        for alt, slot in zip(st.alternatives, slots.params):
            aid = cg.model.labels.of(alt).aid
            if cg.alternatives[aid] is None:        # (made once: the variants share it)
                cg.alternatives[aid] = AltInfo(
                    alt.label, {"cards": "card", "unseen": "place"}.get(
                        alt.param.kind, alt.param.kind) if alt.param else None,
                    Frame.slot(slot) if slot is not None else -1, alt.span)
            alts.append((aid, alt, slot))
            self.enum(cx, alt, aid, slot, actions)
        # A len(out) that no condition read (_same_cards read `out` itself) is not computed.
        for node in listing.len_nodes.values():
            remove(actions.items, node)
        return alts, listing

    def write_out(self, listing, listed, w):
        """The list ``out`` of a decision's actions, the nodes ``listed`` (``enum``'s) written by
        ``w``: ``out`` is the first list they make when that list is not extended (``first_out``;
        ``(None, "out")`` when they make ``out`` itself), else an empty list they extend."""
        if listing.first_out is not None and listing.first_out[0] is None:
            w.extend(listed)                # they make out themselves
        elif listing.first_out is not None:
            node, first = listing.first_out
            for n in listed:            # (the line that extended out with it makes out)
                if n is node:
                    w.writeline(f"out = {first}")
                else:
                    w.extend([n])
        else:
            w.writeline("out = []")
            w.extend(listed)

    def listed_choice(self, body):
        """The choice that ``body`` begins with, when an ``if`` before it may make its list
        (:meth:`prelist`): one chooser, ``you`` (no ``by``, no claim, not simultaneous), one
        alternative, a card of a zone where a condition, offered without a condition of its
        own, one card at a time.  Otherwise None."""
        if not body or not isinstance(body[0], A.Choose):
            return None
        ch = body[0]
        if ch.simultaneous or ch.by or ch.claim or len(ch.alternatives) != 1:
            return None
        alt = ch.alternatives[0]
        p = alt.param
        if p is None or p.kind != "card" or p.where is None or alt.condition is not None or \
                self.cg.model.picks.has(alt) or self.cg.model.unseen.has(alt):
            return None
        return ch

    def prelist(self, cx, cond, body, w):
        """``if any card in Z where C:`` (``cond``) whose branch (``body``) begins with a choice
        of one alternative, a card of Z where C (the same zone and condition, decided on their
        code, the card named alike; the chooser is ``you``; no die is rolled): the choice's
        list of actions is made here, written by ``w`` before the test, and the name that holds
        it is returned, to be the test (the list is empty when no card passes) and, in the
        choice, the list itself (``cx.scope.prelisted``).  Otherwise None.  The branch's block is
        entered only from this test, so the name is always set where the choice reads it (an
        ending found before the choice takes the rule's frames away: the list is not read).
        "Check whether you can play, then choose what to play" looks at the cards once.

        The branch may also begin with a call of a rule (for ``you``, without arguments) whose
        body begins with such a choice (Attack!'s ``if can_play: lay_card``): the list then
        goes to the rule in its frame, in the slot of the card to choose, which holds nothing
        until the choice (``cx.scope.call_lists``; the rule's choice takes it from there and empties
        the slot at once: :meth:`sus_Choose`)."""
        if not self.cg.on("prelist"):
            return None
        q = self._card_query(cond)
        if q is None or q.kind != "any" or not body:
            return None
        if self.x.fold.may_fail(q.condition):
            # (the list asks the condition of every card, where `any` stops at the first that
            # passes; the choice asks them all too, but after the endings and the call's step)
            return None
        ch, call = self.listed_choice(body), None
        if ch is None and isinstance(body[0], A.CallRule) and not body[0].args and \
                body[0].for_player is None and body[0].name in self.cg.model.rules:
            ch, call = self.listed_choice(self.cg.model.rules[body[0].name].decl.body), body[0]
        if ch is None:
            return None
        alt = ch.alternatives[0]
        p = alt.param
        slots = self.cg.model.choose_slots.of(ch)
        ci, si = Frame.slot(slots.chooser), Frame.slot(slots.params[0])
        you = {ci: self.chooser_you(cx, ch)}      # the chooser is `you` (no `by`)
        key = self._cards_key(cx, q.zone, q.condition, {}, self.refs.of(q).index)
        if key is None or key != self._cards_key(cx, p.source, p.where, you, si):
            return None
        aid = self.cg.model.labels.of(alt).aid
        name = self.card_list(cx, p, int(aid) << ACTION_SHIFT, si, you, w)
        if call is None:
            cx.scope.prelisted[id(alt)] = name
        else:
            cx.scope.call_lists[id(call)] = (si, name)
        return name

    def inline_if(self, cx, branches, otherwise, w, made_first=None) -> bool:
        """The branches of an ``if`` (``branches``, then ``otherwise``) as structured code;
        returns whether every branch had nothing to do.  In a rule written in place in a
        playout that cannot stop, "can you play? then choose what to play" makes the list once
        (ChoiceGen.prelist), also for an ``else if``: its list is made in the ``else`` of the
        branches before it, and the chain goes on there (``made_first``: the list made so for
        the first of ``branches``)."""
        first = True
        empty = True
        for k, (cond, body) in enumerate(branches):
            listed = None
            if made_first is not None and first:
                listed = made_first
            elif cx.inlining:
                if first:
                    listed = self.prelist(cx, cond, body, w)
                else:
                    made = CodeWriter()
                    listed = self.prelist(cx, cond, body, made)
                    if listed:          # (in the else of the branches before)
                        w.writeline("else:")
                        with w.indent():
                            w.extend(made.items)
                            return self.inline_if(cx, branches[k:], otherwise, w, listed) and empty
            empty = self._inline_branch(cx, cond, body, w, first, listed) and empty and not listed
            first = False
        if otherwise:
            w.writeline("else:")
            with w.indent():
                empty = self.inline_body(cx, otherwise, w) and empty
        return empty

    def _inline_branch(self, cx, cond, body, w, first, listed) -> bool:
        """One branch of :meth:`inline_if`: its test (``listed``: the list made for it) and
        its statements; whether it had nothing to do."""
        # `if D is not none ...: set V to D`: D's value, computed first by the test,
        # is kept for the branch's first statement (Context.kept)
        d = None if listed else self.first_define(cond, body)
        cx = cx.evolve(kept=None if d is None else {id(d): [d, None]})
        w.writeline(f"{'if' if first else 'elif'} {listed or self.x.gen_plain(cx, cond)}:")
        with w.indent():
            return self.inline_body(cx, body, w)

    def card_list(self, cx, p, base, si, env, w, into=None) -> str:
        """The name of the list of actions (``base`` + card) of the cards of ``p.source`` where
        ``p.where`` holds (the card in slot ``si``; ``env``: more slots' code), made by the
        lines ``w`` writes: first the values the condition reads that do not depend on the
        card, then a loop over the cards; a rank or other table of the card read several times
        is looked up once per card (ExprGen.card_binds).  ``into``: the name to make (else a
        fresh one).  For a
        choice's alternative (:meth:`offer`) and for the list an `if` makes for it (:meth:`prelist`)."""
        v, made = self.x.fresh(), into or self.x.fresh()
        action = f"{base} + {v}" if base else v
        # A loop, not a comprehension: Python 3.11 makes and calls a function for each
        # comprehension, and the names it reads become cells of the enclosing function; for the
        # handful of cards of a hand the loop takes a third less time.
        arms = self.unswitched(p.where, si) if self.cg.on("unswitching") else None
        if arms is None:
            self.card_loop(cx, p.where, p, si, env, v, made, action, w, True)
            return made
        # `where (A if C else B)`, C not about the card: C decides once which loop to run.
        w.writeline(f"{made} = []")
        for k, (cond, value) in enumerate(arms):
            if cond is None:
                w.writeline("else:")
            else:
                w.writeline(f"{'if' if k == 0 else 'elif'} {self.x.gen(cx, cond, env)}:")
            with w.indent():
                self.card_loop(cx, value, p, si, env, v, made, action, w)
        return made

    def card_loop(self, cx, cond, p, si, env, v, made, action, w, new=False):
        """The loop of :meth:`card_list` over the cards of ``p.source`` where ``cond`` holds
        (the card in slot ``si``, named ``v``), appending ``action`` to the list ``made`` (made
        empty first when ``new``), what ``cond`` reads that does not depend on the card written
        before."""
        inner = {**env, si: v}
        code, hoisted, binds = self.x.gen_hoisting(cx, cond, inner, v, si, lines="split")
        self.x.card_loop(cx, w, v, f"{self.x.zone(cx, self.x.gen(cx, p.source, env))}", code, hoisted,
                         binds, f"{made}.append({action})", f"{made} = []" if new else None,
                         self.x.plain_test(cx, cond, inner, hoisted), tree=(cond, si))

    def unswitched(self, e, si):
        """When ``e`` (through defines) is ``(A if C, B if D, ..., E otherwise)`` with at most
        MAX_ARMS parts whose conditions do not depend on the card (slot ``si``) nor roll a
        die: its arms, ``[(condition, value), ..., (None, value)]``, those that can never hold
        left out, the rest after one that always holds too; otherwise None (decided on the
        tree).  The conditions are then looked at once, before the cards, as the parts of a
        condition that do not depend on the card are (ExprGen.gen_hoisting); so none of them
        may stop the game (Fold.may_fail), which the cards of an empty zone would not."""
        refs, fold = self.refs, self.x.fold
        while True:
            if isinstance(e, Expanded):
                e = e.body
            elif isinstance(e, Arg):
                e = e.expr
            elif isinstance(e, (A.Name, A.Call, A.Of)) and isinstance(refs.of(e, None), DefineUse):
                e = refs.of(e).expanded.body
            else:
                break
        if not isinstance(e, A.Cases) or len(e.cases) >= MAX_ARMS:
            return None
        arms = []
        for value, cond in e.cases:
            if si in self.x.slots_used(cond) or fold.chance(cond) or fold.may_fail(cond):
                return None
            lit = fold.known(cond)
            if lit is not None and not lit:
                continue
            arms.append((None if lit is not None else cond, value))
            if lit is not None:
                break
        else:
            arms.append((None, e.default))
        if arms[0][0] is None:        # (one arm always holds: no choice left, nothing to gain)
            return None
        return arms

    def _card_query(self, e):
        """The ``any/no card in Z where C`` that ``e`` is (through defines), or None."""
        while True:
            if isinstance(e, Expanded):
                e = e.body
            elif isinstance(e, A.Call) or (isinstance(e, A.Name) and
                                           isinstance(self.refs.of(e, None), DefineUse)):
                e = self.refs.of(e).expanded.body
            else:
                break
        if isinstance(e, A.CardQuery) and e.kind in ("any", "no") and e.condition is not None:
            return e
        return None

    def _cards_key(self, cx, zone, where, env, card):
        """The cards of ``zone`` where ``where`` (the card in slot ``card``), as a value to
        compare (ExprGen.shape: decided on the checked trees, never on their code), the slots
        around read from ``env``; None when either draws at random (every look is another)."""
        if self.x.fold.chance(zone) or self.x.fold.chance(where):
            return None
        return (self.x.shape(cx, zone, env), self.x.shape(cx, where, {**env, card: _CARD}))

    def _same_cards(self, cx, e):
        """Code for an alternative's condition ``any/no card in Z where C`` when an earlier
        alternative of the same choice offers exactly the cards of Z where C: then the answer is
        whether that alternative added any action, and the cards are not looked at twice."""
        q = self._card_query(e)
        if q is None:
            return None
        seen = cx.listing.counted.get(self._cards_key(cx, q.zone, q.condition, {}, self.refs.of(q).index))
        if seen is None:
            return None
        before, after, offers, empty = seen
        if empty and offers == cx.listing.offers:
            # Nothing in out before that alternative, and no alternative offered since: what
            # it added is out itself (its len(out) is then left out: enum_all).
            if q.kind == "any":
                return "(not (not out))"
            return NoneBefore("(not out)")
        cx.listing.len_nodes.pop(after, None)         # (read: kept)
        if q.kind == "any":
            return f"({after} > {before})"
        if empty:                   # nothing in out before that alternative, nor added by it
            return NoneBefore(f"({after} == {before})")
        return f"({after} == {before})"

    def enum(self, cx, alt, aid, slot, w):
        """The actions ``alt`` offers, added to ``out``: under its condition when it has one."""
        cond = None
        if alt.condition is not None:
            cond = self._same_cards(cx, alt.condition) or self.x.gen(cx, alt.condition, {})
        if not cond:
            self.offer(cx, alt, aid, slot, w, cond)
            return
        w.writeline(f"if {cond}:")
        with w.indent():
            self.offer(cx, alt, aid, slot, w, cond)

    def offer(self, cx, alt, aid, slot, w, cond):
        cx.listing.offers += 1
        base = int(aid) << ACTION_SHIFT
        p = alt.param
        if p is None:
            w.writeline(f"out.append({base})")
            cx.listing.appended = True
            if not cond or isinstance(cond, NoneBefore):
                cx.listing.never_empty = True
            return
        si = Frame.slot(slot)
        if p.kind == "cards":
            self.cards_enum(cx, alt, aid, si, w)
            return
        if p.kind == "set":
            self.set_enum(cx, alt, aid, si, w)
            return
        listed = cx.scope.prelisted.pop(id(alt), None)
        if listed is not None:                      # made by the `if` before the choice
            cx.listing.first_out = (w.writeline(f"out.extend({listed})"), listed)
            cx.listing.appended = True
            # (the choice is reached only where the `if` found the list not empty, and it is
            # the choice's one alternative: listed_choice)
            cx.listing.never_empty = True
            return
        if p.kind == "unseen":                      # the places of Z, bottom first
            w.writeline(f"out.extend(range({base}, {base} + "
                        f"len({self.x.zone(cx, self.x.gen(cx, p.source, {}))})))")
            cx.listing.appended = True
            return
        plain = None        # the values themselves, when they are the actions (extended as they are)
        first = not cx.listing.appended and not cond      # the first list of out: out itself
        made_out = False                            # (out itself made, by a loop)
        if p.kind == "card" and p.where is not None:
            made = self.card_list(cx, p, base, si, {}, w, "out" if first else None)
            made_out = first
        else:
            v = self.x.fresh()
            test = self.value_test(cx, p, si, v, w)
            action = f"{base} + {v}" if base else v
            fixed = self.fixed_values(p) if test is None else None
            if fixed is not None:                   # known before the game: one tuple, copied in C
                plain = self.x.const(tuple(int(base) + x for x in fixed))
                made = f"[*{plain}]"
            elif not base and test is None:         # the values themselves: a copy, in C
                plain = self.values_of(cx, p)
                made = f"[*{plain}]"
            else:                                   # a loop, as for cards (card_list)
                made = "out" if first else self.x.fresh()
                made_out = first
                w.writeline(f"{made} = []")
                w.writeline(f"for {v} in {self.values_of(cx, p)}:")
                with w.indent():
                    if test is not None:
                        w.writeline(f"if {test}:")
                    with w.indent() if test is not None else nullcontext():
                        w.writeline(f"{made}.append({action})")
        key = None
        if p.kind == "card" and p.where is not None and not cond:
            key = self._cards_key(cx, p.source, p.where, {}, si)
            if key in cx.listing.counted:
                key = None
        if key is not None:
            before, after = self.x.fresh(), self.x.fresh()
            empty = not cx.listing.appended
            if cx.listing.appended:
                w.writeline(f"{before} = len(out)")
            else:
                before = "0"               # nothing is in out yet
        if made_out:                     # (card_list, or the loop, made out itself)
            cx.listing.first_out = (None, made)
        else:
            node = w.writeline(f"out.extend({plain or made})")
            if first:
                cx.listing.first_out = (node, made)
        cx.listing.appended = True
        if not cond and p.where is None and (
                (p.kind == "suit" and self.cg.model.suits) or (p.kind == "rank" and self.cg.rank_cycle)):
            cx.listing.never_empty = True         # every suit, or every rank, of the game
        if key is not None:
            cx.listing.len_nodes[after] = w.writeline(f"{after} = len(out)")
            cx.listing.counted[key] = (before, after, cx.listing.offers, empty)

    def where_test(self, cx, p, si, v, w) -> str:
        """`` if C`` for the comprehension over the values ``v`` of parameter ``p`` (in slot
        ``si``) with ``where C`` (see value_test); "" without ``where``."""
        code = self.value_test(cx, p, si, v, w)
        return "" if code is None else " if " + code

    def value_test(self, cx, p, si, v, w):
        """The code of C for the values ``v`` of parameter ``p`` (in slot ``si``) with
        ``where C``, what C reads that does not depend on ``v`` written first by ``w``; None
        without ``where``."""
        if p.where is None:
            return None
        code, hoisted = self.x.gen_hoisting(cx, p.where, {si: v}, v, lines=True)
        self.x.write_hoisted(w, hoisted)
        return code

    def fixed_values(self, p):
        """What parameter ``p`` (not ``card``) chooses among when it is known before the game
        (every suit, every rank, every player of a game nobody leaves), as a tuple; else None."""
        if p.kind == "suit":
            return tuple(range(len(self.cg.model.suits)))
        if p.kind == "rank":
            return tuple(self.cg.rank_cycle)
        if p.kind == "value":
            first, names = self.cg.model.value_sets[p.source.name]
            return tuple(range(first, first + len(names)))
        if p.kind == "player" and self.cg.out_base is None and not (
                isinstance(p.source, A.Keyword) and p.source.word == "opponents"):
            return tuple(range(int(self.cg.n)))
        return None

    def values_of(self, cx, p) -> str:
        """Code for what an alternative's parameter ``p`` (not ``cards`` nor ``unseen``) chooses
        among: the cards of its zone, the players, the suits, the ranks or the numbers."""
        if p.kind == "card":
            return f"{self.x.zone(cx, self.x.gen(cx, p.source, {}))}"
        if p.kind == "player":
            n = int(self.cg.n)
            ob = self.cg.out_base
            if isinstance(p.source, A.Keyword) and p.source.word == "opponents":
                you = self.x.slot(cx, self.refs.of(p.source, You(-1)).index, {})
                if ob is not None:
                    return f"_saf(g, {you}, {int(ob)})"
                if not self.x.reverses:   # the order of play never changes: a table per seat
                    return f"{self.x.const(opponents_table(n))}[{you}]"
                return f"[({you} + {self.dir()} * _k) % {n} for _k in range(1, {n})]"
            if ob is not None:
                return f"[_q for _q in range({n}) if not {self.x.vars(cx)}[{int(ob)} + _q]]"
            return f"range({n})"
        if p.kind == "suit":
            return f"range({len(self.cg.model.suits)})"
        if p.kind == "rank":
            return self.x.const(list(self.cg.rank_cycle))
        if p.kind == "value":             # the values of the set, lowest first
            first, names = self.cg.model.value_sets[p.source.name]
            return f"range({int(first)}, {int(first) + len(names)})"
        lo, hi = self.x.gen(cx, p.source, {}), self.x.gen(cx, p.high, {})
        self.x.ns["_nums"] = _numbers
        return f"_nums({lo}, {hi}, {self.x.const(p.span)})"

    def claim_lines(self, cx, st, w):
        """``any opponent may choose [from P]``: the players in order of play from P (the player
        after `you` when the rule does not say)."""
        self.x.ns["_corder"] = claim_order
        if st.claim_from is not None:
            start = self.x.gen(cx, st.claim_from, {})
        else:
            you = self.x.slot(cx, Frame.slot(you_slot(self.refs.of(st.by[0]))), {})
            start = f"({you} + g.dir)"
        w.writeline(f"_pl = _corder(g, _pl, {start})")

    # Several cards in one step (runtime.pick_start / pick_step): the first card is offered by the
    # choice, the others at the start of the alternative's body, in a block of their own.
    def cards_enum(self, cx, alt, aid, si, w):
        p = alt.param
        ks = "(" + ", ".join(str(Frame.slot(int(k))) for k in self.cg.model.picks.of(alt).slots) + ")"
        v, z = self.x.fresh(), self.x.fresh()
        w.writeline(f"{z} = {self.x.gen(cx, p.source, {})}")
        test = self.where_test(cx, p, si, v, w)
        self.x.ns["_pstart"] = pick_start
        args = (f"{self.x.gen(cx, p.dest, {})}, {self.x.gen(cx, p.count, {})}, {int(bool(p.or_more))}, "
                f"{self.x.const(p.same)}, {int(aid) << ACTION_SHIFT}, {self.x.const(p.span)}")
        w.writeline(f"out.extend(_pstart(g, fr, {ks}, [{v} for {v} in {self.x.zone(cx, z)}{test}], "
                    f"{z}, {args}))")
        cx.listing.appended = True

    def cards_step(self, cx, alt, aid, number, who, w):
        pick = self.cg.model.picks.of(alt)
        slots, done_aid = pick.slots, pick.done
        if self.cg.alternatives[done_aid] is None:
            self.cg.alternatives[done_aid] = AltInfo("no more cards", None, -1, alt.span)
        ks = "(" + ", ".join(str(Frame.slot(int(k))) for k in slots) + ")"
        si = self.cg.alternatives[aid].slot
        self.x.ns["_pstep"] = pick_step
        cx.scope.alt_blocks.append((done_aid, number))
        w.writeline(f"_r = _pstep(g, fr, {int(si)}, {ks}, {self.x.const(alt.param.same)}, "
                    f"{int(aid) << ACTION_SHIFT}, {int(done_aid) << ACTION_SHIFT}, "
                    f"{self.x.const(alt.param.span)})")
        w.writeline("if _r is not None:")
        with w.indent():
            w.decide("awaiting", f"({who}, _r)", SUSPEND)

    # A set of cards in one action (engine/subsets.py): one action per set, its number.
    def set_args(self, alt):
        """The code of the set's slots, its shape, its condition on the total and the table of
        the values totalled (None without a total)."""
        p = alt.param
        ks = "(" + ", ".join(str(Frame.slot(int(k))) for k in self.cg.model.sets.of(alt).slots) + ")"
        table = "None"
        if p.total_mode is not None:
            cg = self.cg
            table = self.x.const(cg.rank_of if p.total_attr == "rank"
                                 else cg.attr_tables.get(p.total_attr, cg.rank_of))
        return ks, self.x.const(p.shape), self.x.const(p.total_mode), table

    def set_enum(self, cx, alt, aid, si, w):
        p = alt.param
        ks, shape, mode, table = self.set_args(alt)
        cg = self.cg
        cg.set_choices[int(aid)] = (
            tuple(Frame.slot(int(k)) for k in cg.model.sets.of(alt).slots), p.shape, p.total_mode,
            None if p.total_mode is None else (cg.rank_of if p.total_attr == "rank" else
                                               cg.attr_tables.get(p.total_attr, cg.rank_of)),
            p.span)
        v, z = self.x.fresh(), self.x.fresh()
        w.writeline(f"{z} = {self.x.gen(cx, p.source, {})}")
        # (in the `where`, the set's name is each card in turn: the slot of c)
        test = self.where_test(cx, p, Frame.slot(int(self.cg.model.sets.of(alt).card)), v, w)
        self.x.ns["_sstart"] = set_start
        low = self.x.gen(cx, p.fewest, {})
        high = self.x.gen(cx, p.most, {}) if p.most is not None else "1 << 30"
        target = self.x.gen(cx, p.total, {}) if p.total is not None else "0"
        w.writeline(f"out.extend(_sstart(g, fr, {ks}, [{v} for {v} in {self.x.zone(cx, z)}{test}], "
                    f"{z}, {self.x.gen(cx, p.dest, {})}, {low}, {high}, {target}, {shape}, {mode}, "
                    f"{table}, {int(aid) << ACTION_SHIFT}, {self.x.const(p.span)}))")
        cx.listing.appended = True

    def set_take(self, alt, w):
        sl = self.cg.model.sets.of(alt)
        ks, shape, mode, table = self.set_args(alt)
        si = self.cg.alternatives[self.cg.model.labels.of(alt).aid].slot
        self.x.ns["_stake"] = set_take
        w.writeline(f"_stake(g, fr, {int(si)}, {Frame.slot(int(sl.card))}, {ks}, {shape}, {mode}, "
                    f"{table}, {self.x.const(alt.param.span)})")

    def endings_quick(self, cx):
        """The cheap test that some ending may hold (``ExprGen.endings_quick``), or "" when the
        endings must be checked in full before every decision."""
        cg = self.cg
        made = cg.quick_endings
        # (written with the held locals or not; and with the zones' lists in locals, in the
        # structured turn, whose locals are those of the turn being written: not kept)
        key = self.x.zones_key(cx)
        hit = made.get(key) if not key[1] else None
        if hit is None:
            mine = Reads()              # (what the test reads, kept with it)
            try:
                quick = self.x.endings_quick(cx.evolve(reads=mine),
                                             [e.condition for e, _, _ in cg.model.endings])
            except Unsupported:
                quick = ""
            hit = (quick, frozenset(mine.held))
            if not key[1]:
                made[key] = hit
        cx.reads.held |= hit[1]
        return hit[0]
