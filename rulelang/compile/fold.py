"""What the generator knows of an expression before writing it: a small pass over the checked
tree (in the manner of Jinja's optimizer), never over the generated text.

- :meth:`Fold.known`: the value an expression has whatever the state of the game, when it has
  one (literals, options and other constants, the number of players, seats, and arithmetic,
  comparisons, ``and``/``or``/``not`` and ``cases`` of those), of the Python type the generated
  code gives (``yes`` is the int 1, a comparison a bool); None otherwise.  ``and``/``or`` and
  ``cases`` leave out what a known part decides (exprnodes.ExprNodes.g_BoolOp, g_Cases), and a
  number known to be an int is stored without ``int()`` (:meth:`Fold.as_int`).
- :meth:`Fold.chance`: does the expression roll a die or draw at random (a random card, a random
  player)?  Such a part is never left out, computed twice nor moved out of a loop.
- :meth:`Fold.may_fail`: can computing the expression stop the game (a division by zero, a number
  beyond the bound, `none` used as a player...)?  Such a part is computed where the rules compute
  it, never earlier: not before a loop over cards (which may have no card, or whose condition may
  be decided before the part is reached), nor first in a define's function.
- :meth:`Fold.free_slots`, :meth:`Fold.reads_game`, :meth:`Fold.plain_read`: which frame slots
  the code of an expression reads (those its own loops bind left out), whether it reads the
  state of the game, whether it is a plain read of a slot or a variable.  They decide what is
  worth moving out of a loop (codegen.ExprGen.gen), whether a function needs a frame
  (``player_function``, the endings, a define's helper function) and how a player is tested for
  `none` (``seated``).

Both look through the uses of defines (the checker's shared copies), each copy worked out once.
An expression that would stop the game (a division by zero, a number beyond the bound, a seat
the game does not have) is not known: its code stays, and stops the game where it is reached.
"""
from __future__ import annotations

import attrs

from rulelang.kinds import Frame
from rulelang.syntax import ast as A
from rulelang.check.ir import CardLiteral, CardName, Const, DefineUse, Local, Symbol, Var, VarOf, You, Zone, ZoneFamily
from rulelang.check.model import Arg, Expanded
from rulelang.limits import MAX_NUMBER


class _Unknown(Exception):
    pass


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


class Fold:
    """The pass for one compiled game: ``refs`` (the checker's references), ``n`` players."""

    def __init__(self, refs, n, reverses=True, players_leave=False, cards=None, always_seats=None,
                 seat_uses=None):
        self.refs = refs
        self.players_leave = bool(players_leave)
        self.seat_uses = seat_uses            # the player values tested for `none` where used
        self.always_seats = always_seats      # model.always_seats (a NodeSet), or None
        self.cards = cards      # the compiled game's layout: the numbers of named cards
        self.n = int(n)
        # Where the code of "the player after" reads the game: the direction (a game that
        # reverses it) or who is still in (a game players leave).
        self.seat_reads_game = bool(reverses or players_leave)
        self._known = {}        # id(shared copy) -> (value or _Unknown, copy)
        self._chance = {}       # id(shared copy) -> (bool, copy)
        self._free = {}         # id(shared copy) -> (frozenset, copy)
        self._game = {}         # id(shared copy) -> (bool, copy)
        self._seat = {}         # id(shared copy) -> (bool, copy): never_none
        self._fail = {}         # id(shared copy) -> (bool, copy): may_fail

    # ---- values known when the game is compiled -----------------------------------------------
    def known(self, e):
        """The value of ``e`` whatever the state of the game, or None."""
        try:
            return self._value(e)
        except _Unknown:
            return None

    def as_int(self, e, code) -> str:
        """Code for the value of ``e`` (its ``code``) as an int: a value known to be an int as it
        is, anything else (a comparison gives a bool) through ``int``."""
        v = self.known(e)
        return code if type(v) is int or isinstance(e, A.Roll) else f"int({code})"

    def _value(self, e):
        if isinstance(e, A.Int):
            return int(e.value)
        if isinstance(e, A.Bool):
            return 1 if e.value else 0              # written "1" / "0"
        if isinstance(e, A.NoneLit):
            return -1
        if isinstance(e, A.Text):
            return int(self.refs.of(e).value)       # its index in model.texts
        if isinstance(e, A.CardLit) or (isinstance(e, A.Of) and
                                         isinstance(self.refs.of(e, None), CardLiteral)):
            if self.cards is None:
                raise _Unknown
            lit = self.refs.of(e)
            return int(self.cards.card_literal_id(lit.rank, lit.suit))
        if isinstance(e, A.Seat):
            if int(e.number) > self.n:              # stops the game where it is used (RL908)
                raise _Unknown
            return int(e.number) - 1
        if isinstance(e, A.Keyword):
            if e.word in ("players", "number of players"):
                return self.n
            if e.word == "opponents":
                return self.n - 1
            raise _Unknown
        if isinstance(e, Expanded):
            return self._expanded(e)
        if isinstance(e, Arg):
            return self._value(e.expr)
        if isinstance(e, (A.Name, A.Call, A.Of)):
            ref = self.refs.of(e, None)
            if isinstance(ref, DefineUse):
                return self._expanded(ref.expanded)
            if isinstance(e, A.Name) and isinstance(ref, (Const, Symbol)):
                return int(ref.value)
            if isinstance(e, A.Name) and isinstance(ref, CardName) and self.cards is not None:
                return int(self.cards.card_name_ids.get(ref.name, -1))
            raise _Unknown
        if isinstance(e, A.Unary):
            if e.op == "neg":
                return -self._value(e.operand)
            if e.op == "not":
                return not self._value(e.operand)
            raise _Unknown
        if isinstance(e, A.Arith):
            a, b = self._value(e.left), self._value(e.right)
            if e.op in ("+", "-"):
                return a + b if e.op == "+" else a - b
            if e.op == "*":
                v = a * b
                if not -MAX_NUMBER <= v <= MAX_NUMBER:
                    raise _Unknown                  # RL910 where it is computed
                return v
            if not b:
                raise _Unknown                      # RL911 where it is computed
            return a // b if e.op == "/" else a % b
        if isinstance(e, A.Compare):
            if e.op not in _COMPARE:
                raise _Unknown
            return _COMPARE[e.op](self._value(e.left), self._value(e.right))
        if isinstance(e, A.BoolOp):
            is_and = e.op == "and"
            unknown = chancy = False
            for item in e.items:
                v = self.known(item)
                if v is None:
                    unknown = True
                    chancy = chancy or self.chance(item)
                    continue
                if bool(v) != is_and:               # decides, unless a part before rolls a die
                    if chancy:
                        raise _Unknown
                    return 0 if is_and else 1
            if unknown:
                raise _Unknown
            return 1 if is_and else 0
        if isinstance(e, A.Cases):
            for value, cond in e.cases:
                c = self._value(cond)
                if c:
                    return self._value(value)
            return self._value(e.default)
        raise _Unknown

    def _expanded(self, ex):
        hit = self._known.get(id(ex))
        if hit is None:
            try:
                v = self._value(ex.body)
            except _Unknown:
                v = _Unknown
            hit = self._known[id(ex)] = (v, ex)       # ex kept alive: its id is the key
        if hit[0] is _Unknown:
            raise _Unknown
        return hit[0]

    # ---- chance ----------------------------------------------------------------------------------
    def chance(self, e) -> bool:
        """Does ``e`` roll a die or draw at random (anywhere inside it, defines included)?"""
        if isinstance(e, Expanded):
            return per_copy(self._chance, e, self.chance)
        if isinstance(e, A.Roll) or (isinstance(e, A.Unary) and e.op == "random card") or \
                (isinstance(e, A.Keyword) and e.word == "random player"):
            return True
        ref = self.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return self.chance(ref.expanded)
        return any(self.chance(x) for x in _children(e))


    # ---- parts that can stop the game ----------------------------------------------------------
    def may_fail(self, e) -> bool:
        """Can computing ``e`` stop the game with a problem (anywhere inside it, defines
        included)?  A product (RL910), a division or `mod` by a number not known to be other than
        zero (RL911), a player value used as a player that may be `none` (RL912), a seat the game
        lacks (RL908), a range of numbers (RL257), a member of a family of zones (RL256), the
        search for sets and runs (RL259), a player's score (the game's `score:` may do any of
        these), and in a game players leave, the players after or before one (RL907; the lists
        of the players still in are never a problem).  Decided on the tree, erring towards yes:
        a part that may fail is computed where the rules compute it (codegen.ExprGen.gen), so
        that a generated game stops exactly where the rules say, or not at all."""
        if isinstance(e, Expanded):
            return per_copy(self._fail, e, self.may_fail)
        ref = self.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return self.may_fail(ref.expanded)
        if isinstance(ref, ZoneFamily):
            return True
        if self.seat_uses is not None and self.seat_uses.has(e) and not self.never_none(e):
            return True
        if isinstance(e, A.Arith) and e.op not in ("+", "-"):
            if e.op == "*":
                if self.known(e) is None:
                    return True
            elif not self.known(e.right):
                return True
        elif isinstance(e, A.Seat):
            if int(e.number) > self.n:
                return True
        elif isinstance(e, (A.AnyNumber, A.MeldLeft)) or (isinstance(e, A.PickValue) and
                                                            e.low is not None):
            return True                     # (a range of numbers, RL257; sets and runs, RL259)
        elif isinstance(e, A.Combos) and e.kind == "sum":
            return True                     # (combinations among too many cards, RL293)
        elif isinstance(e, A.Unary) and e.op == "score":
            return True                     # (the game's `score:`, not in this tree, may divide)
        elif self.players_leave and (
                (isinstance(e, A.Keyword) and e.word in ("next player", "previous player")) or
                (isinstance(e, A.Unary) and e.op in ("player after", "player before"))):
            return True                     # (RL907 when every player is out: seat_after)
        return any(self.may_fail(x) for x in _children(e))

    def _inner(self, e):
        """What ``e`` stands for, one step in: a define's use its checked copy, a copy its body,
        an argument its expression; None for anything else."""
        if isinstance(e, Expanded):
            return e.body
        if isinstance(e, Arg):
            return e.expr
        ref = self.refs.of(e, None)
        return ref.expanded if isinstance(ref, DefineUse) else None

    # ---- players that are never `none` --------------------------------------------------------
    def never_none(self, e) -> bool:
        """Is ``e``, a player value, a seat whatever the state of the game (so that its use as a
        player needs no test for `none`, RL912)?  ``you``, the current, next and previous
        player, ``player after/before P``, ``player N`` (a seat the game lacks stops the game by
        itself, RL908), the player of a loop over players or of a choice of a player that no
        `set` changes (``model.always_seats``), a define or an argument that is one of these,
        and a choice between such values.  (The checker leaves out of ``seat_uses`` what it knows by itself: these
        written directly, and the player of a loop over players that nothing sets.)"""
        while True:
            if isinstance(e, Expanded):
                return per_copy(self._seat, e, self.never_none)
            inner = self._inner(e)
            if inner is None:
                break
            e = inner
        if isinstance(e, A.Seat):
            return True
        if isinstance(e, A.Name):           # a loop's or a choice's player that nothing sets
            return self.always_seats is not None and self.always_seats.has(e)
        if isinstance(e, A.Keyword):
            return e.word in ("you", "current player", "next player", "previous player")
        if isinstance(e, A.Unary):
            return e.op in ("player after", "player before")
        if isinstance(e, A.Cases):
            return all(self.never_none(v) for v, _ in e.cases) and self.never_none(e.default)
        return False

    # ---- what the code reads ----------------------------------------------------------------------
    def free_slots(self, e) -> frozenset:
        """The frame indices the code of ``e`` reads (through ``env`` or ``fr``): its locals,
        ``you`` where it is read; the slots of its own loops (``any card ... where``) left out."""
        if isinstance(e, Expanded):
            return per_copy(self._free, e, self.free_slots)
        ref = self.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return self.free_slots(ref.expanded)
        out = set()
        if isinstance(ref, (Local, You)) and isinstance(e, A.Name):
            out.add(ref.index)
        elif isinstance(ref, (Var, Zone)) and ref.per_player:
            out.add(Frame.slot(ref.you))
        elif isinstance(ref, ZoneFamily) and ref.per_player and ref.you is not None:
            out.add(Frame.slot(ref.you))
        elif isinstance(e, A.Keyword) and e.word in ("you", "next player", "previous player"):
            out.add(ref.index if isinstance(ref, You) else Frame.YOU)
        elif isinstance(e, A.PlayerQuery):
            out.add(Frame.slot(ref.you))
        for x in _children(e):
            out |= self.free_slots(x)
        bound = self.bound_slot(e)
        if bound is not None:
            out.discard(bound)
        return frozenset(out)

    def bound_slot(self, e):
        """The frame index a loop inside an expression binds (its card, number or player)."""
        if isinstance(e, A.PlayerQuery):
            return Frame.slot(self.refs.of(e).player)
        if isinstance(e, (A.CardQuery, A.AnyNumber, A.AmongCards, A.PickValue, A.ArgBest)):
            ref = self.refs.of(e, None)
            return ref.index if ref is not None else None
        return None

    def reads_game(self, e, called=()) -> bool:
        """Does the code of ``e`` read the state of the game (``g``)?  ``called``: the ids of
        the shared copies of defines written as a function given the game."""
        if isinstance(e, Expanded):
            if id(e) in called:
                return True
            return per_copy(self._game, e, lambda body: self.reads_game(body, called))
        ref = self.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return self.reads_game(ref.expanded, called)
        if isinstance(e, A.Keyword):
            w = e.word
            if w in ("current player", "number of turns", "random player"):
                return True
            if w in ("next player", "previous player"):
                return self.seat_reads_game
        elif isinstance(e, A.Unary):
            if e.op in ("top", "bottom", "size", "random card", "score"):
                return True
            if e.op in ("player after", "player before") and self.seat_reads_game:
                return True
        elif isinstance(e, (A.TotalOf, A.CardQuery, A.AmongCards, A.MeldLeft, A.Roll, A.PlayerQuery,
                            A.IsOut, A.Holder, A.PlayedBy, A.IsEmpty, A.PilePlace)):
            return True
        elif isinstance(ref, (Var, VarOf)):
            return True
        return any(self.reads_game(x, called) for x in _children(e))

    def plain_read(self, e, tested=None, outer=True):
        """The slot or variable ``e`` reads when it is nothing else (a local, ``you``, a
        variable, ``V of p`` with ``p`` such a slot), as ("slot", index) or ("var", slot index or
        None); else None.  ``tested``: the nodes whose code tests for `none` (ExprGen.seated),
        which is no plain read (``outer``: ``e`` itself among them too)."""
        while True:
            if tested is not None and outer and tested.has(e):
                return None
            outer = True
            inner = self._inner(e)
            if inner is None:
                break
            e = inner
        ref = self.refs.of(e, None)
        if isinstance(e, A.Keyword):
            if e.word != "you":
                return None
            return ("slot", ref.index if isinstance(ref, You) else Frame.YOU)
        if isinstance(e, A.Name) and isinstance(ref, (Local, You)):
            return ("slot", ref.index)
        if isinstance(e, A.Name) and isinstance(ref, Var):
            return ("var", Frame.slot(ref.you) if ref.per_player else None)
        if isinstance(e, A.Of) and isinstance(ref, VarOf):
            inner = self.plain_read(e.operand, tested)
            if inner is not None and inner[0] == "slot":
                return ("var", inner[1])
        return None


def computes(e, refs) -> bool:
    """Does ``e`` add, subtract or multiply (through its defines too) in a part whose number
    may be its value?  A number stored from such an expression is checked against the bound
    (RL910): without that, a rule that doubles a variable again and again would fill the memory
    before the step budget runs out.  What a comparison, a yes/no or the condition of a case
    computes is not the value (`set winner to (you if strength(you) > 3 else none)` stores a
    player, however the strengths are summed)."""
    todo, seen = [e], set()     # (a define's shared copy looked at once: a chain stays linear)
    while todo:
        n = todo.pop()
        if isinstance(n, Expanded):
            if id(n) not in seen:
                seen.add(id(n))
                todo.append(n.body)
            continue
        if isinstance(n, Arg):
            todo.append(n.expr)
            continue
        if isinstance(n, A.Arith) and n.op in ("+", "-", "*"):
            return True
        if isinstance(n, (A.Compare, A.BoolOp)) or (isinstance(n, A.Unary) and n.op == "not"):
            continue                        # yes or no, whatever it compares
        if isinstance(n, A.Cases):          # the values, not the conditions
            todo.extend(v for v, _c in n.cases)
            todo.append(n.default)
            continue
        ref = refs.of(n, None) if isinstance(n, (A.Name, A.Call, A.Of)) else None
        if isinstance(ref, DefineUse):
            todo.append(ref.expanded)
        todo.extend(_children(n))
    return False


def per_copy(cache, e, fn):
    """``fn(e.body)`` for ``e``, a define's copy shared by its uses (check/model.Expanded),
    worked out once: ``cache`` keeps it by the copy's id, with the copy (kept alive, so that the
    id is never another's).  A chain of defines, each using the one before twice, stays linear."""
    hit = cache.get(id(e))
    if hit is None:
        hit = cache[id(e)] = (fn(e.body), e)
    return hit[0]


def _children(e):
    """The expressions directly inside ``e``."""
    for f in attrs.fields(type(e)):
        v = getattr(e, f.name)
        for x in (v if isinstance(v, tuple) else (v,)):
            for y in (x if isinstance(x, tuple) else (x,)):
                if isinstance(y, A.Expr):
                    yield y


def shape(refs, e, bind, table, memo=None):
    """What ``e`` computes, as a value to compare: its checked tree, each node's kind and
    fields, each name by what it refers to, a define's use by its body, and each slot it reads
    by ``bind(index)`` (where that slot's value is: a name around it, or the frame's entry).
    Two expressions of the same shape, read where the same slots are bound alike, compute the
    same: the generator compares these, never the code it wrote for them.  A shape is a number,
    the same for the same tuple of its parts' numbers (``table``, kept by the caller across
    calls): each node, and each copy of a define however often it is used, is shaped once
    (``memo``), so that a tower of defines stays linear."""
    memo = {} if memo is None else memo
    hit = memo.get(id(e))
    if hit is not None:
        return hit
    if isinstance(e, Arg):
        out = shape(refs, e.expr, bind, table, memo)
    elif isinstance(e, Expanded):
        out = shape(refs, e.body, bind, table, memo)
    elif isinstance(refs.of(e, None), DefineUse):    # (the same value as its body, where used)
        out = shape(refs, refs.of(e).expanded.body, bind, table, memo)
    else:
        out = _shape_of_node(refs, e, bind, table, memo)
    memo[id(e)] = out
    return out


def _shape_of_node(refs, e, bind, table, memo) -> int:
    ref = refs.of(e, None)
    out: list = [type(e).__name__]
    if ref is None:
        if isinstance(e, A.Keyword):
            out.append(bind(Frame.YOU))
        fields = [f.name for f in attrs.fields(type(e)) if f.name != "span"]
    else:               # a name: what it refers to, not how it is spelt
        if isinstance(ref, (Local, You)):
            out.append(("slot", bind(ref.index)))
        elif isinstance(ref, (Var, Zone)):
            out.append((type(ref).__name__, ref.name, ref.per_player,
                        bind(Frame.slot(ref.you)) if ref.per_player else None))
        else:
            out.append(ref)
        fields = [f.name for f in attrs.fields(type(e)) if isinstance(getattr(e, f.name), A.Expr)
                  or isinstance(getattr(e, f.name), tuple)]
    for name in fields:
        out.append(_shape_of_field(refs, getattr(e, name), bind, table, memo))
    key = tuple(out)
    number = table.get(key)
    if number is None:
        number = table[key] = len(table)
    return number


def _shape_of_field(refs, v, bind, table, memo):
    if isinstance(v, A.Expr):
        return shape(refs, v, bind, table, memo)
    if isinstance(v, (tuple, list)):
        return tuple(_shape_of_field(refs, x, bind, table, memo) for x in v)
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    if attrs.has(type(v)):
        return (type(v).__name__,) + tuple(_shape_of_field(refs, getattr(v, f.name), bind, table, memo)
                                           for f in attrs.fields(type(v)) if f.name != "span")
    return ("object", id(v))
