"""Whole sets of values in generated code (docs/language.md, "Writing and combining sets"), for
:class:`~rulelang.compile.codegen.ExprGen` (a mixin, each node with its ``g_<Node>`` method).

A set is a number, one bit for each value it holds: ``no suits`` is 0, ``every suit`` the bits
of every suit, ``S together with T`` is ``S | T``, ``S shared with T`` is ``S & T``, ``S without
T`` is ``S & ~T``; a value on one side is the set of one (``_set1``: a value the set cannot
hold stops the game, RL330); ``the suits of the cards in Z`` the bits of the suits its cards
show.
"""
from __future__ import annotations

from rulelang.compile.genruntime import set_of_cards, set_one
from rulelang.kinds import SET_KINDS, Kind

_OPS = {"together": "({} | {})", "shared": "({} & {})", "without": "({} & ~{})"}


class SetExprs:
    """The ``g_`` methods of whole sets of values (ExprGen's ``cg``, ``gen``, ``const``)."""

    def set_mask_of(self, e) -> int:
        """The values the set ``e`` may hold, one bit each (the checker's Const; the players'
        bits once their number is known)."""
        mask = self.cg.refs.of(e).value
        if mask < 0 or self.cg.types.of(e, None) == Kind.SET_PLAYERS:
            return (1 << self.cg.n) - 1
        return mask

    def set_side(self, cx, e, mask, env) -> str:
        """A side of a set written: a set's code, or the set of one value (RL330 if the set
        cannot hold it)."""
        code = self.gen(cx, e, env)
        if self.cg.types.of(e, None) in SET_KINDS:
            return code
        self.ns["_set1"] = set_one
        return f"_set1({self.as_int(e, code)}, {mask}, {self.const(e.span)})"

    def g_SetWhole(self, cx, e, env):
        return str(self.set_mask_of(e)) if e.which == "every" else "0"

    def g_SetOfCards(self, cx, e, env):
        self.ns["_setcards"] = set_of_cards
        table = self.cg.suit_of if e.word in ("suit", "suits") else self.cg.rank_of
        cards = self.zone(cx, self.gen(cx, e.zone, env))
        return f"_setcards({cards}, {self.const(table)}, {self.set_mask_of(e)})"

    def g_SetCombine(self, cx, e, env):
        mask = self.set_mask_of(e)
        return _OPS[e.op].format(self.set_side(cx, e.left, mask, env), self.set_side(cx, e.right, mask, env))

    def g_SetValues(self, cx, e, env):
        mask = self.set_mask_of(e)
        return "(" + " | ".join(self.set_side(cx, i, mask, env) for i in e.items) + ")"

