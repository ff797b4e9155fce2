"""Card conditions looked up instead of evaluated: a part of :class:`~rulelang.compile.codegen.ExprGen`.

A choice's list of cards keeps the cards of a zone where a condition holds, testing the condition
card by card.  Often the condition reads the card only through its own tables (its rank, its
suit, a property of its type) and otherwise only values the loop computes once before it
(``Hoisting``: the top of the discard pile, the suit named for an 8).  Then the cards where it
holds depend on those values alone: :meth:`CardSets.card_set` works the set out once for each
combination of them, when it is first needed, keeps it in a table of the compiled game, and the
loop tests ``card in set``, a third of the bytecodes of three lookups and comparisons.

When it applies, decided on the tree (``pure_test``, ``derived``), never by reading the code
written:

* the condition, through its defines, is made of ``and``/``or``/``not`` and comparisons of the
  card itself, of its tables (``rank/suit/<attribute> of`` the card) and of values that do not
  depend on the card, roll no die and cannot stop the game (computed before the loop);
* each value computed before the loop is either a *key*, a value of a kind whose values are few
  and known (a card, a player, a suit: from -1, none, to one less than their number, which
  loading a save checks too), or worked out from a key by the card's tables and ``rank
  after/before`` (the rank of the top card: keyed by the top card); none is computed under a
  guard or may stop the game;
* the table is small: at most ``MAX_KEYS`` combinations and ``MAX_SITE_CELLS`` card numbers over
  all of them for one condition, ``MAX_GAME_CELLS`` for all the tables of a compiled game (a rule
  file is untrusted: docs/security.md).  Each entry is a frozenset of card numbers, made on first
  use by testing the condition's code (the same code the loop would run) on every card of the
  game once.

The same condition, the same values, the same cards: nothing a player sees changes, only the time
it takes (tests/test_card_sets.py plays every file with the conditions looked up and evaluated).
"""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.kinds import CARD, FLAG, PLAYER, SUIT

# The most combinations of keys one condition's table may have, and the most card numbers its
# sets may hold in all (each set made on first use; a set is at most every card of the game).
MAX_KEYS = 4096
MAX_SITE_CELLS = 65_536
# ... and for all the tables of one compiled game (a file of many such loops stays small).
MAX_GAME_CELLS = 262_144

# The operators of a value worked out from a key (besides the card's tables).
_DERIVING = ("rank after", "rank before")


class CardSets:
    """The tables of card sets (a mixin of ExprGen, whose namespace and state it uses; the
    uses of defines are seen through by ``ExprNodes._unwrapped``)."""

    # How many card numbers the tables of this compiled game may still hold (MAX_GAME_CELLS).
    _cells_left = MAX_GAME_CELLS
    # The name of the tuple of the game's card numbers (_card_numbers), once made.
    _card_numbers_name = None
    # (ExprGen.__init__ gives each its own ``_hoisted_of``: the expression and kind of each value
    # computed before a loop, by name, which Hoisting records; None for one under a guard.)

    def _key_size(self, kind, e=None):
        """How many values a key of ``kind`` (the value of ``e``) takes (none, -1, included), or
        None.  A yes/no is a key where it is a comparison or a test of a zone (a Python bool,
        never an int a save may hold: the value of a variable of that kind is no key)."""
        if kind == FLAG:
            return 2 if isinstance(self._unwrapped(e), (A.Compare, A.IsEmpty)) else None
        cg = self.cg
        if kind == CARD:
            return len(cg.deck_start) + 1
        if kind == PLAYER:
            return int(cg.n) + 1
        if kind == SUIT:
            return len(cg.model.suits) + 1
        return None

    def _card_numbers(self) -> str:
        """The name of the tuple of the game's card numbers, in order: the objects the zones
        start with (``CompiledGame.start_zones``), which the cards keep wherever they move."""
        name = self._card_numbers_name
        if name is None:
            cards = sorted(c for z in self.cg.start_zones() for c in z)
            name = self._card_numbers_name = self.const(tuple(cards))
        return name

    def pure_test(self, e, si) -> bool:
        """Does the condition ``e`` read the card (slot ``si``) only through its tables, and
        otherwise only values that can be computed before the loop and cannot stop the game?"""
        e = self._unwrapped(e)
        if si not in self.slots_used(e):
            # (a plain read of a slot is not computed before the loop (worth_hoisting): the
            # test would read it by its name, which the function making the set has not)
            plain = self.fold.plain_read(e, self.seat_uses)
            return not self.fold.chance(e) and not self.fold.may_fail(e) and \
                (plain is None or plain[0] != "slot")
        if isinstance(e, A.BoolOp):
            return all(self.pure_test(x, si) for x in e.items)
        if isinstance(e, A.Compare):
            return self.pure_test(e.left, si) and self.pure_test(e.right, si)
        if isinstance(e, A.Unary) and e.op == "not":
            return self.pure_test(e.operand, si)
        if self.card_table(e) is not None:
            return self.fold.plain_read(e.operand, self.seat_uses) == ("slot", si)
        return self.fold.plain_read(e, self.seat_uses) == ("slot", si)

    def _top(self, e):
        """``Hoisting._top_key`` of ``e`` (the top or bottom of a shared zone), else None: two
        such reads of the same zone are the same value before a loop."""
        return self._top_key(e) if isinstance(e, A.Unary) else None

    def derived(self, e, keys) -> bool:
        """Is ``e`` the value of a key (the expressions ``keys``), or worked out from one by the
        card's tables and ``rank after/before``?"""
        keys = [self._unwrapped(k) for k in keys]
        tops = {self._top(k) for k in keys} - {None}
        while True:
            e = self._unwrapped(e)
            if any(e is k for k in keys) or self._top(e) in tops:
                return True
            if self.card_table(e) is not None or (isinstance(e, A.Unary) and e.op in _DERIVING):
                e = e.operand
                continue
            return False

    def card_set(self, v, test, hoisted, binds, cond, si):
        """For the loop over cards ``v`` keeping those where ``test``, the code of ``cond``
        (the card in slot ``si``), holds (``hoisted``: the values computed before it;
        ``binds``: the card's tables read once per card): ``(keys, lines, test)``, the values to
        compute before the loop (the keys), the lines after them that find the set of cards
        where the condition holds and the test ``v in set``; or None where the condition cannot
        be looked up (see the module's docstring)."""
        ncards = len(self.cg.deck_start)
        if not ncards or not hoisted or not self.pure_test(cond, si):
            return None
        found = [self._hoisted_of.get(name) for name, _ in hoisted]
        if None in found or any(name in self._deferred for name, _ in hoisted):
            return None                 # (computed under a guard, or it may stop the game)
        keys = [(name, e, size) for (name, _), (e, kind) in zip(hoisted, found)
                if (size := self._key_size(kind, e)) is not None]
        if not keys or not all(self.derived(e, [k for _, k, _ in keys]) for e, _ in found):
            return None
        names = [name for name, _, _ in keys]
        sizes = [size for _, _, size in keys]
        combos = 1
        for size in sizes:
            combos *= size
        cells = combos * ncards
        # The same condition at another loop (the API's function and the playout's variants
        # write each choice again) shares the table: the same node, the same values computed
        # before the loop, in the same order (the fill is given them by position; which of
        # them are keys follows from the nodes).
        same = (id(cond), tuple(id(e) for e, _ in found))
        made = self._card_sets.get(same)
        if made is None:
            if combos > MAX_KEYS or cells > MAX_SITE_CELLS or cells > self._cells_left:
                return None
            self._cells_left -= cells
            table = self.const(_nested(sizes))          # nested lists, the first key outermost
            index = "".join(f"[{k}]" for k in names)
            # (given every value computed before the loop: those worked out from the keys are
            # the same for the same keys, and their code may read the game, which it has not)
            src = [f"def _f({', '.join(name for name, _ in hoisted)}):"]
            # (over the game's own numbers of its cards, those its zones hold: a set holding
            # the same objects finds a card by its identity, not by comparing two equal
            # numbers, which above 256 are other objects)
            src += ["    _o = []", f"    for {v} in {self._card_numbers()}:"]
            src += [f"        {name} = {self.const(t)}[{v}]" for name, t, _ in binds]
            src += [f"        if {test}:", f"            _o.append({v})",
                    f"    _s = {table}{index} = {self.const(frozenset)}(_o)", "    return _s"]
            made = self._card_sets[same] = (table, self.const(self._compile("\n".join(src) + "\n")))
        table, fill = made
        self.counter += 1
        cs = f"_cs{self.counter}"
        index = "".join(f"[{k}]" for k in names)
        # The values worked out from the keys are needed only where a set is made: they are
        # computed there, in the call (a value computed before a loop names no other but the
        # tops of shared zones, Hoisting.shared_tops, which are cards: keys).
        args = ", ".join(name if name in names else code for name, code in hoisted)
        keep = [(name, code) for name, code in hoisted if name in names]
        return keep, [f"{cs} = {table}{index}", f"if {cs} is None: {cs} = {fill}({args})"], \
            f"{v} in {cs}"


def _nested(sizes):
    """Nested lists of None, ``sizes[0]`` long outermost (each inner list its own)."""
    if len(sizes) == 1:
        return [None] * sizes[0]
    return [_nested(sizes[1:]) for _ in range(sizes[0])]
