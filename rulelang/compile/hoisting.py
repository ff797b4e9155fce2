"""Values computed before a loop: a part of :class:`~rulelang.compile.codegen.ExprGen`.

Inside a loop over cards (a choice's list, ``any card in Z where C``, a count, the highest of
some value), a part of the condition that does not depend on the loop's card is computed once,
before the loop (``ExprGen.gen`` decides, on the tree, and :meth:`Hoisting._hoist_out` names
it): :meth:`Hoisting.gen_hoisting` writes a condition so, :meth:`Hoisting.card_loop` the loop
after its values.  A part that may stop the game is computed there all the same, its problem kept
for later (``deferred``, ``plain_test``: the loop where it failed computes it card by card); a
part under a condition is guarded (``guard``); the tops of shared zones read more than once are
computed first, once (``shared_tops``); the card's own tables read three times or more are
looked up once per card (``card_binds``).
"""
from __future__ import annotations

import contextlib

from rulelang.syntax import ast as A
from rulelang.check.ir import Attribute, DefineUse, Rank, Suit, Zone
from rulelang.check.model import Arg, Expanded
from rulelang.compile.fold import _children, per_copy


class Hoisted(str):
    """The name of a value computed before a loop (made by :meth:`Hoisting._hoist_out` or
    :meth:`Hoisting.shared_tops`): what the loop reads for it.  Code that is such a name is told
    by its type, a reference the generator made, never by reading the code."""
    __slots__ = ()


class Hoisting:
    """The values a loop computes before it (a mixin of ExprGen, whose state it uses)."""

    def _hoist_out(self, e, env, code, hoist, fails) -> str:
        """The name of the value ``code`` (of ``e``, in ``env``) computed before the loop of
        ``hoist`` (made now, or the same one made before: the same shape, ExprGen.shape, never
        the same code), or where it ``fails``, the code that reads it there and computes it
        again if it failed."""
        # Under a guard (see ``guard``): computed only where the loop can read it.
        guard = ()
        if self._guard is not None and self._guard[0] is hoist[1] and self.weight(e) >= 4:
            guard = self._guard[1]
        raw = code
        key = self.shape(e, env)
        for name, _ in hoist[1]:      # the same, computed wherever this is (or more)
            if self._hoisted_key.get(name) in ((key, guard[:k]) for k in range(len(guard) + 1)):
                return self.deferred(name, raw, hoist)
        self.counter += 1
        name = Hoisted(f"_h{self.counter}")
        self._hoisted_of[name] = None if guard else (e, self.cg.types.of(e, None))
        self._hoisted_key[name] = (key, guard)
        if guard:
            parts = [h if yes else f"(not {h})" for h, yes in guard]
            test = parts[0] if len(parts) == 1 else "(" + " and ".join(parts) + ")"
            code = f"({code} if {test} else 0)"
        if fails:
            self._deferred.add(name)
        hoist[1].append((name, code))
        return self.deferred(name, raw, hoist)

    def deferred(self, name, raw, hoist) -> str:
        """How the loop reads the value computed before it as ``name`` (``raw``: its code): the
        name, or for a value whose computing may stop the game, the name unless that failed
        (``_fail``), else ``raw`` computed again, which stops the game where the rules do.  In
        a loop that has a second loop for when one failed (``hoist[4] == "split"``: card_loop),
        the name."""
        if name in self._deferred and hoist[4] != "split":
            return f"({name} if {name} is not _fail else {raw})"
        return name

    def plain_test(self, e, env, hoisted):
        """When some of the values ``hoisted`` before a loop (gen_hoisting's, with ``lines=
        "split"``) may fail: the code of ``e`` computing everything where it is, for the loop
        card_loop writes for that case; else None."""
        if not self.cg.on("split_loop") or not any(name in self._deferred for name, _ in hoisted):
            return None
        with self.within(kept=None):        # (a value kept for later is not set here)
            return self.gen(e, env)

    def write_hoisted(self, w, hoisted):
        """Lines (written by ``w``) computing the values ``hoisted`` before their loop
        (gen_hoisting's, with ``lines``); one that may stop the game is ``_fail`` if it does."""
        for name, code in hoisted:
            if name in self._deferred:
                w.writeline("try:")
                with w.indent():
                    w.writeline(f"{name} = {code}")
                w.writeline("except _problem:")
                with w.indent():
                    w.writeline(f"{name} = _fail")
            else:
                w.writeline(f"{name} = {code}")


    def weight(self, e, enough=4) -> int:
        """About what computing ``e`` costs (on the tree, through the uses of defines), counted
        up to ``enough``: a read of a variable or a slot is 1, a comparison of two such 3;
        looking up the top of a zone, the rank after one, a define's function or a search over
        cards more.  Below 4 a guard costs as much as what it saves."""
        w = 0
        todo = [e]
        while todo and w < enough:
            e = todo.pop()
            if isinstance(e, Expanded):
                if id(e) in self._called:
                    return enough
                todo.append(e.body)
                continue
            if isinstance(e, Arg):
                todo.append(e.expr)
                continue
            ref = self.refs.of(e, None)
            if isinstance(ref, DefineUse):
                todo.append(ref.expanded)
                continue
            w += 1
            if isinstance(e, A.Unary) and e.op not in ("not", "neg"):
                w += 2
            elif isinstance(e, (A.CardQuery, A.PlayerQuery, A.AmongCards, A.TotalOf, A.Call)):
                w += 9
            todo.extend(_children(e))
        return min(w, enough)

    @contextlib.contextmanager
    def guard(self, conds):
        """Inside a loop, while the parts of ``X if C else Y`` or of ``A and B`` / ``A or B`` are
        written: ``conds`` are (code, true?) pairs that hold wherever the part being written is
        computed.  Those that are values computed before the loop (hoisted names) guard what
        the part moves out of the loop: ``_h2 = (X if _h1 else 0)``, not computed when the loop
        cannot read it (the other branch of a condition that does not depend on the card)."""
        h = self.mode.hoist
        if h is None or not conds:
            yield
            return
        parts = tuple(conds)
        around = self._guard
        if around is not None and around[0] is h[1]:
            parts = around[1] + parts
        with self.within(guard=(h[1], parts)):
            yield

    def guarding(self, conds, code, yes):
        """Add (``code``, ``yes``) to the guard ``conds`` (for ``guard``) when ``code`` is a value
        computed before the loop being written; a guard holds at most 4 conditions (fewer
        guard less, never wrongly).  Returns ``conds``."""
        if len(conds) < 4 and self.mode.hoist is not None and isinstance(code, Hoisted):
            conds.append((code, yes))
        return conds

    def worth_hoisting(self, e, env) -> bool:
        """Is ``e`` (not depending on a loop's card) worth computing once before the loop?  When
        it rolls no die, reads the game or a slot of the frame, and is not itself a plain read
        of a slot (decided on the tree: compile/fold.py)."""
        f = self.fold
        if f.chance(e):
            return False
        plain = f.plain_read(e, self.seat_uses)
        named = set(env) - (set(self.base_env) if self.base_frame else set())
        if plain is not None and plain[0] == "slot" and plain[1] not in named:
            return False
        return bool(f.free_slots(e) - named) or f.reads_game(e, self._called)

    def gen_hoisting(self, e, env, loop_var, card_slot=None, lines=False):
        """Code for ``e`` inside a loop binding ``loop_var``, and the (name, code) pairs to
        compute before the loop.  With ``card_slot`` (the frame index of the loop's card):
        also the (name, code) pairs to compute for each card, first (see card_binds).  With
        ``lines``, the pairs are written as lines before the loop by :meth:`write_hoisted`
        (not in an expression), and may include values whose computing may stop the game: the
        loop reads such a value through a test (:meth:`deferred`), or, with ``lines="split"``,
        as it is, the caller writing a second loop for when it failed (:meth:`card_loop`)."""
        outer, outer_tops = self.mode.hoist, self.mode.tops
        loop_vars = [loop_var] + (list(outer[0]) if outer else [])
        binds = self.card_binds(e, card_slot) if card_slot is not None and \
            self.cg.on("card_binds") else {}
        if lines == "split" and not self.cg.on("split_loop"):
            lines = True        # (each value that may have failed read through its test)
        hoisted = []
        with self.within(hoist=(loop_vars, hoisted, binds, card_slot, lines)):
            # (a loop inside another's values reads the outer loop's tops too: computed first)
            # The tops (and bottoms) of shared zones that the values computed before the loop
            # read more than once, each computed once first: {("top", zone): name}
            # (shared_tops); None outside gen_hoisting and in a function of its own.
            mine = self.shared_tops(e, hoisted) if self.cg.on("shared_tops") else None
            with self.within(tops={**outer_tops, **(mine or {})} if outer_tops else mine):
                code = self.charging(self.gen, e, env)      # (its loops run for each item)
            if card_slot is None:
                return code, hoisted
            return code, hoisted, [v for v in binds.values() if v[2]]

    def _top_key(self, e):
        """``(op, zone)`` for ``top of Z`` / ``bottom of Z`` where Z is a shared zone, else None."""
        if e.op not in ("top", "bottom"):
            return None
        ref = self.refs.of(e.operand, None)
        return (e.op, ref.name) if isinstance(ref, Zone) and not ref.per_player else None

    def shared_tops(self, e, hoisted):
        """For the loop whose condition (or value) is ``e``: the tops and bottoms of shared zones
        it reads twice or more (counted on the tree, through the uses of defines, each copy of a
        define once per use: ``current_suit`` and ``rank of top of discard`` both read the top
        of the discard pile), each computed once before the loop, first among ``hoisted``
        (gen_hoisting's list): the parts computed before the loop that read it read its name
        (``gen``).  Such a top never stops the game (an empty zone's is none) and reads no
        slot, so it may be computed first whatever the loop does.  Returns the names by key."""
        counts = self.count_reads(e, 2, lambda x: isinstance(x, A.Unary) and self._top_key(x))
        tops = {}
        for key, (k, x) in sorted(counts.items()):
            if k > 1 and key not in (self._tops or ()):     # (not the outer loop's, below)
                with self.within(hoist=None):      # (its own code, as it is)
                    code = self.gen(x, {})
                self.counter += 1
                name = Hoisted(f"_h{self.counter}")
                self._hoisted_of[name] = (x, self.cg.types.of(x, None))
                self._hoisted_key[name] = (self.shape(x, {}), ())
                hoisted.append((name, code))
                tops[key] = name
        return tops or None

    def count_reads(self, e, cap, key_of, within=None) -> dict:
        """How many times ``e`` reads each thing ``key_of(node)`` names (a key, or None for a node
        that is none of them, whose parts are looked at), counted up to ``cap``, on the tree
        through the uses of defines (each shared copy of a define walked once, then counted per
        use: a chain of defines stays linear); only below the nodes ``within`` accepts.
        ``{key: (count, a node it names)}``."""
        memo = {}           # id(shared copy of a define) -> its counts

        def walk(x) -> dict:
            while isinstance(x, Arg):
                x = x.expr
            ref = self.refs.of(x, None)
            if isinstance(ref, DefineUse):
                x = ref.expanded
            if within is not None and not within(x):
                return {}
            if isinstance(x, Expanded):
                return per_copy(memo, x, walk)
            key = key_of(x)
            if key:
                return {key: (1, x)}
            out = {}
            for y in _children(x):
                for k, (n, node) in walk(y).items():
                    out[k] = (min(cap, out.get(k, (0,))[0] + n), node)
            return out
        return walk(e)

    def card_binds(self, e, slot) -> dict:
        """The tables of the card (rank, suit, an attribute) that ``e`` reads of the loop's card
        (slot ``slot``) three times or more, each with the name that holds it for each card:
        ``rank of c is 8 or rank of c is R or rank of c is rank after R`` looks the rank up
        once per card.  (Counted on the tree, through the uses of defines; decided before the code is
        written.)  ``{id(table): [name, table, used]}``."""
        def leaf(x):
            table = self.card_table(x)
            if table is not None and self.fold.plain_read(x.operand, self.seat_uses) == ("slot", slot):
                return id(table)
            return None
        counts = self.count_reads(e, 3, leaf, lambda x: slot in self.slots_used(x))
        out = {}
        for key, (k, node) in counts.items():
            if k > 2:       # (two reads, the second often not reached: no gain)
                self.counter += 1
                out[key] = [f"_r{self.counter}", self.card_table(node), False]
        return out

    def card_table(self, e):
        """The table ``e`` reads when it is ``rank/suit/<attribute> of X``, else None."""
        if not isinstance(e, A.Of):
            return None
        ref = self.refs.of(e, None)
        cg = self.cg
        if isinstance(ref, Rank):
            return cg.rank_of
        if isinstance(ref, Suit):
            return cg.suit_of
        if isinstance(ref, Attribute):
            return cg.attr_tables[ref.name]
        return None

    def card_bound(self, e, table, env):
        """The name holding ``table`` of the loop's card for ``e`` (``X of card``) where the
        loop being written binds it (gen_hoisting's ``card_slot``), else None."""
        h = self.mode.hoist
        if h is None or not h[2]:
            return None
        hit = h[2].get(id(table))
        if hit is None or env.get(h[3]) != h[0][0] or \
                self.fold.plain_read(e.operand, self.seat_uses) != ("slot", h[3]):
            return None
        hit[2] = True
        return hit[0]

    def card_loop(self, w, v, cards, test, hoisted, binds, then, start=None, plain=None,
                  tree=None):
        """Lines written by ``w``: the values of a card condition that do not depend on the card
        (``hoisted``, gen_hoisting's), the line ``start`` if any, then the loop ``for v in
        cards`` that looks up the card's tables held per card (``binds``) and runs the line
        ``then`` where the condition's code ``test`` holds.  ``plain`` (plain_test's): when a
        value computed first may have failed, the loop tests each card with that code instead,
        which stops the game at the first card that reaches the part that fails.  ``tree``
        (a choice's list: the condition and the card's slot): where the cards it keeps can be
        looked up instead (``_looked_up``), the loop tests ``v in set``."""
        if plain is None:
            test, binds = self._looked_up(w, v, test, hoisted, binds, tree)
        else:
            self.write_hoisted(w, hoisted)
        if start is not None:
            w.writeline(start)
        if plain is not None:
            failed = " or ".join(f"{name} is _fail" for name, _ in hoisted if name in self._deferred)
            w.writeline(f"if {failed}:")
            with w.indent():
                w.writeline(f"for {v} in {cards}:")
                with w.indent():
                    w.writeline(f"if {plain}:")
                    with w.indent():
                        w.writeline(then)
            w.writeline("else:")
            with w.indent():
                self._card_loop(w, v, cards, test, binds, then)
            return
        self._card_loop(w, v, cards, test, binds, then)

    def _looked_up(self, w, v, test, hoisted, binds, tree):
        """``card_loop``'s values before the loop, and its test: where the cards the condition
        ``tree`` (``(condition, card slot)``) keeps can be looked up (CardSets.card_set), the
        lines that find their set and the test ``v in set``, with no card table read per card."""
        found = None if tree is None or not self.cg.on("card_sets") else \
            self.card_set(v, test, hoisted, binds, *tree)
        if found is None:
            self.write_hoisted(w, hoisted)
            return test, binds
        keys, lines, test = found
        self.write_hoisted(w, keys)
        for line in lines:
            w.writeline(line)
        return test, []

    def _card_loop(self, w, v, cards, test, binds, then):
        w.writeline(f"for {v} in {cards}:")
        with w.indent():
            for name, table, _ in binds:
                w.writeline(f"{name} = {self.const(table)}[{v}]")
            w.writeline(f"if {test}:")
            with w.indent():
                w.writeline(then)
