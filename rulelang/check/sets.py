"""Sets of values and families of zones by suit or rank (docs/language.md, "Sets of values" and
"Families of zones by suit or rank").

A variable may hold a set of suits, ranks, players or named values (``var named: set of suits
per player``): it is kept as a number, one bit for each value, and starts empty.  Before the
rules are checked, :func:`rewrite_sets` turns the forms that mean something else for a set into
the set's own nodes (``add X to S`` into ``SetChange``, ``size of S`` into ``SetSize``, ``S is
empty`` into ``SetSize(S) is 0``): the generators then see each operation once.  A family of
zones by suit (``zone foundation per suit: ...``) is made here, once the deck's suits are known,
into one zone for each suit, as a numbered family's zones.
"""
from __future__ import annotations

import attrs

from rulelang.check.ir import Const
from rulelang.check.tree import _walk, rebuilt
from rulelang.kinds import (ANY, NONE, NUMBER, PLAYER, SET_KINDS, SUIT, SYMBOL, ZONE, Kind)
from rulelang.limits import MAX_SET_RANK
from rulelang.syntax import ast as A
from rulelang.syntax.ast_base import node

SET_OF = {"suits": Kind.SET_SUITS, "suit": Kind.SET_SUITS, "ranks": Kind.SET_RANKS,
          "rank": Kind.SET_RANKS, "players": Kind.SET_PLAYERS, "player": Kind.SET_PLAYERS}
ELEMENT = {Kind.SET_SUITS: SUIT, Kind.SET_RANKS: NUMBER, Kind.SET_PLAYERS: PLAYER,
           Kind.SET_VALUES: SYMBOL}
_WORD = {Kind.SET_SUITS: "suit", Kind.SET_RANKS: "rank", Kind.SET_PLAYERS: "player",
         Kind.SET_VALUES: "value"}
ONE_OF = {v: k for k, v in ELEMENT.items()}      # a value as the set of one: a suit, a set of suits
MAX_KEYED_ZONES = 100       # as a numbered family (RL253): a family by rank holds at most 100


def set_names(decls) -> set:
    """The names that hold a set: the variables declared as sets, and the defines whose formula
    is a set by its form (`define mine = the suits of the cards in hand`, or a define of such)."""
    names = {d.name for d in decls if isinstance(d, A.Var) and d.type and d.type.startswith("set of ")}
    return names | _holding_sets([(d.name, d.body) for d in decls if isinstance(d, A.Define)],
                                 names)


def _local_sets(decl, names) -> set:
    """The names `let` gives a set in a declaration (`let held = the suits of the cards in
    hand`), by the form of their values, as :func:`set_names` finds the defines'."""
    return _holding_sets([(n.name, n.value) for n in _walk(decl) if isinstance(n, A.Let)], names)


def _holding_sets(items, known) -> set:
    """The names of ``items`` (name, formula) that hold a set: a formula that is a set by its
    form or names a set (of ``known``, or another of ``items`` found so), each name followed
    once from what it names (a chain of defines costs its length, not its square)."""
    found: set = set()
    todo: list = []
    waiting: dict = {}                  # a name -> the items whose formula is that name
    for name, e in items:
        if _names_set(e, known):
            if name not in found:
                found.add(name)
                todo.append(name)
        elif isinstance(e, (A.Name, A.Of, A.Call)):
            waiting.setdefault(e.name, []).append(name)
    while todo:
        for name in waiting.get(todo.pop(), ()):
            if name not in found:
                found.add(name)
                todo.append(name)
    return found


def _names_set(e, names):
    return (isinstance(e, (A.Name, A.Of, A.Call)) and e.name in names) or isinstance(e, _SET_NODES)


@node
class SetValues(A.Expr):
    """The values written where a set is written (``set named to hearts and spades``, a side of
    ``without``): made by :func:`rewrite_sets` from values joined by ``and``, never parsed as
    such; each item a value or a set."""
    items: tuple
    span: A.Span


_SET_NODES = (A.SetWhole, A.SetOfCards, A.SetCombine, SetValues)


def _is_and(v):
    return isinstance(v, A.BoolOp) and v.op == "and"


def _written_set(v):
    """The value of ``set S to ...``, ``add ... to S``, ``remove ... from S`` for a set ``S``:
    ``hearts and spades`` is the set of the values (each item a value or a set)."""
    if isinstance(v, A.BoolOp) and v.op == "and":
        return SetValues(v.items, v.span)
    return v


def written_set(v):
    """The value given to a set (``set S to ...``, a rule test's ``set S to ...``): values
    joined by ``and`` are the set of them."""
    return _written_set(v)


def rewrite_sets(decls, names):
    """The declarations with ``add X to S``, ``set S to ...``, ``subtract X from S``, ``size of
    S`` and ``S is empty`` written as the nodes of sets, for every variable ``S`` declared as a
    set (``names``), and values joined by ``and`` where a set is written (the value of those
    statements, a side of ``together with``, ``shared with``, ``without``, what ``in`` asks, a
    side of ``is`` whose other side is a set) as the set of them; the same for a define or a
    `let` whose value is a set by its form.  Nothing is copied where no name holds a set."""
    out = []
    fix = _fixer(names)
    for d in decls:
        local = set() if isinstance(d, (A.Var, A.Define)) else _local_sets(d, names)
        if not names and not local:
            out.append(d)
        else:
            out.append(d if isinstance(d, A.Var) else (_fixer(names | local) if local else fix)(d))
    return out


def rewrite_expr(e, names):
    """One expression rewritten as :func:`rewrite_sets` does (a rule test's expectation)."""
    return _fixer(names)(e) if names else e


def _fixer(names):
    def fix(n):
        if isinstance(n, A.Assign) and _names_set(n.target, names):
            return A.SetChange(n.op, fix(_written_set(n.value)), fix(n.target), n.span)
        if isinstance(n, A.SetChange) and n.item is not None:
            return A.SetChange(n.op, fix(_written_set(n.item)), fix(n.target), n.span)
        if isinstance(n, A.SetCombine):           # `named without (hearts and spades)`
            return A.SetCombine(n.op, fix(_written_set(n.left)), fix(_written_set(n.right)), n.span)
        if isinstance(n, A.Compare) and n.op in ("==", "!=") and (
                _names_set(n.left, names) or _names_set(n.right, names)):
            return A.Compare(n.op, fix(_written_set(n.left)), fix(_written_set(n.right)), n.span)
        if isinstance(n, A.InSet):                # `hearts in (hearts and spades)`
            return A.InSet(fix(n.item), fix(_written_set(n.coll)), n.negate, n.span)
        if isinstance(n, A.Unary) and n.op == "size" and _names_set(n.operand, names):
            return A.SetSize(fix(n.operand), n.span)
        if isinstance(n, A.Unary) and n.op == "size" and _is_and(n.operand):
            return A.SetSize(fix(_written_set(n.operand)), n.span)    # (no yes/no has a size)
        if isinstance(n, A.SetSize):              # `number of suits in (hearts and spades)`
            return A.SetSize(fix(_written_set(n.coll)), n.span)
        if isinstance(n, A.IsEmpty) and _names_set(n.zone, names):
            return A.Compare("!=" if n.negate else "==", A.SetSize(fix(n.zone), n.span),
                             A.Int(0, n.span), n.span)
        return rebuilt(n, fix)
    return fix


def rewrite_keyed_of(decls):
    """The declarations with `foundation of X` written `foundation(X)` for every family of zones
    by suit or rank (`zone foundation per suit`): the rulebook's "the foundation of its suit"
    is `the foundation of suit of c`, `foundation of hearts`.  A define, variable or attribute of
    the same name keeps `of` its own.  Nothing is copied when the file has no such family."""
    keyed = {d.name for d in decls if isinstance(d, A.Zone) and getattr(d, "keyed", None)}
    keyed -= {d.name for d in decls if isinstance(d, (A.Define, A.Var, A.Attribute))}
    if not keyed:
        return decls

    def fix(n):
        if isinstance(n, A.Of) and n.name in keyed:
            return A.Call(n.name, (fix(n.operand),), n.span)
        return rebuilt(n, fix)

    return [fix(d) for d in decls]


class SetChecks:
    """The checker's part for sets of values and families of zones by suit or rank."""

    # ---- families by suit or rank -------------------------------------------------------------
    def expand_keyed_zones(self, zones):
        """``zone foundation per suit: ...``: one zone for each suit of the deck, in its order
        (``foundation_hearts``...), or for each rank, lowest first (``pile_ace``...); the key is
        the family's number (a suit's index, a rank's number)."""
        out = []
        for z in zones:
            if z.keyed is None:
                out.append(z)
                continue
            keys = self.family_keys_of(z)
            self.keyed_families[z.name] = z.keyed
            if not keys:                # (reported) one zone, so that its uses are not errors too
                keys = [(0, "none")]
            lo, hi = keys[0][0], keys[-1][0]
            for k, word in keys:
                shown = (self.suit_texts.get(word, word) if z.keyed == "suit"
                         else self.rank_texts.get(word, self.rank_symbols.get(word, word)))
                out.append(attrs.evolve(z, name=f"{z.name}_{word}", family=(z.name, k, lo, hi),
                                        display=f"{z.display} {shown}" if z.display else None))
        return out

    def family_keys_of(self, z):
        """(key, name) of each zone of a family by suit or rank, or [] (reported: RL324, RL325)."""
        if z.keyed == "suit":
            if not self.suits:
                self.error("RL324", f"zone family `{z.name}` is one zone per suit, but the deck "
                           "has no suits", z.span, "number the zones instead: "
                           f"`zone {z.name} 1 to 4: ...`")
            return list(enumerate(self.suits))
        by_number = {}
        for dt in self.types_used:
            for r in list(dt.ranks) + [r for _s, rs in dt.own_suits for r in rs]:
                by_number.setdefault(self.ranks.get(r.name, 0), r.name)
        nums = sorted(by_number)
        if not nums:
            self.error("RL324", f"zone family `{z.name}` is one zone per rank, but the deck has "
                       "no ranks", z.span, f"number the zones instead: `zone {z.name} 1 to 4: ...`")
            return []
        if len(nums) > MAX_KEYED_ZONES or nums[-1] - nums[0] + 1 != len(nums):
            self.error("RL325", f"zone family `{z.name}` is one zone per rank, but the deck's "
                       f"{len(nums)} ranks are not numbered one after another within "
                       f"{MAX_KEYED_ZONES}" if len(nums) <= MAX_KEYED_ZONES else
                       f"zone family `{z.name}` would hold {len(nums)} zones, more than "
                       f"{MAX_KEYED_ZONES}", z.span,
                       "a family by rank needs ranks numbered 1, 2, 3 ... (or 2 to 14); "
                       "otherwise number the zones")
            return []
        return [(k, by_number[k]) for k in nums]

    def key_of_family(self, e, s, name, lo, hi):
        """``foundation(X)`` of a family by suit or rank: X must be a suit (a rank)."""
        key = self.keyed_families[name]
        t = self.expr(e.args[0], s)
        want = SUIT if key == "suit" else NUMBER
        if t not in (want, ANY):
            self.error("RL326", f"`{name}(...)` is the {name} of a {key}, but this is a {t}",
                       e.args[0].span, f"e.g. `{name}({key} of c)` or `the {name} of {key} of c`")
        elif key == "rank" and isinstance(e.args[0], A.Int) and not lo <= e.args[0].value <= hi:
            self.error("RL326", f"there is no {name} of rank {e.args[0].value}: the deck's "
                       f"ranks are {lo} to {hi}", e.args[0].span, None)

    # ---- variables that hold a set ------------------------------------------------------------
    def set_kind(self, v):
        """The kind of ``var NAME: set of X``, or None (RL320); RL327 for a set of ranks of a
        deck whose ranks are numbered beyond what a set holds."""
        elem = v.type[len("set of "):]
        kind = SET_OF.get(elem)
        if kind is None:
            vs = elem if elem in self.value_sets else (
                elem[:-1] if elem.endswith("s") and elem[:-1] in self.value_sets else None)
            if vs is None:
                self.error("RL320", f"`set of {elem}`: a set holds suits, ranks, players or the "
                           "values of a `values` set", v.span,
                           "e.g. `var named: set of suits`, `var asked: set of ranks per player`")
                return None
            self.set_values_of[v.name] = vs
            return Kind.SET_VALUES
        if kind == Kind.SET_RANKS:
            big = [n for n, k in self.ranks.items() if not 0 <= k <= MAX_SET_RANK]
            if big:
                self.error("RL327", f"a set of ranks keeps ranks numbered 0 to {MAX_SET_RANK}; "
                           f"`{big[0]}` is numbered {self.ranks[big[0]]}", v.span,
                           "number the deck's ranks lower")
        return kind

    def set_of(self, e, s, what):
        """The kind of the set ``e`` (a variable declared as a set), or None (RL322)."""
        t = self.expr(e, s)
        if t in SET_KINDS:
            return t
        if t != ANY:
            hint = ("for a card in a zone, ask `any card in Z where card is c`" if t == "zone"
                    else "declare a set with `var NAME: set of suits` (or ranks, players)")
            self.error("RL322", f"{what} is a set of values, but this is a {t}", e.span, hint)
        return None

    def _element(self, item, kind, coll, s, what, t=None):
        if t is None:
            t = self.expr(item, s)
        want = ELEMENT[kind]
        if t in (ANY,) or (t == NONE and want in (SUIT, PLAYER)):
            return
        if t != want:
            self.error("RL321", f"{what} is a {t}, but `{_text(coll)}` is a {kind}", item.span,
                       f"put a {_WORD[kind]} in it")
            return
        if want == SYMBOL:
            vs, got = self.set_values_name(coll, s), self.value_set_of(item, s)
            if vs is not None and got is not None and vs != got:
                self.error("RL321", f"{what} is a value of `{got}`, but `{_text(coll)}` holds "
                           f"values of `{vs}`", item.span, None)

    def ex_InSet(self, e, s):
        kind = self.set_of(e.coll, s, "what `in` asks")
        if kind is None:
            self.expr(e.item, s)
        else:
            self.element(e.item, kind, e.coll, s, "what `in` asks about")
        return Kind.FLAG

    def ex_SetSize(self, e, s):
        self.set_of(e.coll, s, "what is counted")
        return NUMBER

    def st_SetChange(self, st, s):
        if st.op == "sub":
            self.lvalue(st.target, s)
            self.expr(st.value if st.item is None else st.item, s)
            self.error("RL323", f"`{_text(st.target)}` is a set of values: it changes by `add X "
                       "to`, `remove X from`, `remove all from` and `set ... to`, not by "
                       "`subtract`", st.span, f"e.g. `remove hearts from {_text(st.target)}`")
            return
        t = st.target
        a_var = isinstance(t, (A.Name, A.Of)) and t.name in self.vars and not (
            isinstance(t, A.Name) and s.lookup(t.name) is not None)
        kind = self.lvalue(t, s) if a_var else self.expr(t, s)
        if kind not in SET_KINDS:
            if kind != ANY:
                self.error("RL322", f"`remove ... from {_text(st.target)}`: a set of values is "
                           f"changed so, but this is a {kind}", st.target.span,
                           "to take a card from a zone, `move` it; a player leaves with "
                           "`remove P from the game`")
            if st.item is not None:
                self.expr(st.item, s)
            return
        if st.item is not None:
            self.set_or_element(st.item, kind, st.target, s, {
                "add": "what is added", "remove": "what is removed"}.get(st.op, "what it is set to"))


    # ---- whole sets written and combined (docs/language.md, "Writing and combining sets") ---
    def set_word(self, word, span, what):
        """The kind of set ``no WORD`` / ``every WORD`` is (suits, ranks, players, or the values
        of a `values` set, singular or plural), and that set's name; (None, None) if none
        (RL360)."""
        kind = SET_OF.get(word)
        if kind is not None:
            return kind, None
        vs = word if word in self.value_sets else (
            word[:-1] if word.endswith("s") and word[:-1] in self.value_sets else None)
        if vs is not None:
            return Kind.SET_VALUES, vs
        self.error("RL360", f"`{what} {word}`: a set holds suits, ranks, players or the values of "
                   "a `values` set", span, f"e.g. `{what} suits`, `{what} players`" +
                   (f", `{what} {next(iter(self.value_sets))}`" if self.value_sets else ""))
        return None, None

    def set_mask(self, kind, vs):
        """The values a set of ``kind`` may hold, one bit each; -1 for the players (the
        number of players is known only when the game is made)."""
        if kind == Kind.SET_SUITS:
            return (1 << len(self.suits)) - 1
        if kind == Kind.SET_RANKS:
            return sum(1 << k for k in set(self.ranks.values()) if 0 <= k <= MAX_SET_RANK)
        if kind == Kind.SET_VALUES and vs in self.value_sets:
            first, names = self.value_sets[vs]
            return ((1 << len(names)) - 1) << first
        return -1

    def set_values_name(self, e, s):
        """The `values` set whose values the set (or value) ``e`` holds, when known."""
        if isinstance(e, (A.Name, A.Of)) and e.name in self.set_values_of and \
                self.types.of(e, None) == Kind.SET_VALUES:
            return self.set_values_of[e.name]
        if isinstance(e, A.SetWhole):
            return self.set_word(e.word, e.span, "")[1] if e.word not in SET_OF else None
        if isinstance(e, A.SetCombine):
            return self.set_values_name(e.left, s) or self.set_values_name(e.right, s)
        if isinstance(e, SetValues):
            return next((n for n in (self.set_values_name(i, s) for i in e.items) if n), None)
        if self.types.of(e, None) == SYMBOL:
            return self.value_set_of(e, s)
        return None

    def set_side(self, e, s, what):
        """The kind of set a side of a combination is: a set's own kind, or the set of one
        value (a suit is a set of suits); None when not known (ANY, none), RL363 for what is
        neither."""
        t = self.expr(e, s)
        if t in SET_KINDS:
            return t
        kind = ONE_OF.get(t)
        if kind is None and t not in (ANY, NONE):
            self.error("RL363", f"{what} is a {t}: a set is combined with a set or with one value "
                       "(a suit, a rank, a player, a named value)", e.span,
                       "for the suits of a zone's cards, write `the suits of the cards in Z`")
        return kind

    def same_sets(self, a, b, ka, kb, s, span):
        """RL361: two sets (or a set and a value) of different kinds of values together."""
        if ka is None or kb is None:
            return True
        if ka != kb:
            self.error("RL361", f"a {ka} and a {kb} together: a set holds one kind of value",
                       span, "combine, compare or copy sets of one kind")
            return False
        if ka == Kind.SET_VALUES:
            va, vb = self.set_values_name(a, s), self.set_values_name(b, s)
            if va and vb and va != vb:
                self.error("RL361", f"values of `{va}` and values of `{vb}` together: a set "
                           "holds the values of one `values` set", span, None)
                return False
        return True

    def set_or_element(self, item, kind, coll, s, what):
        """What ``set S to``, ``add ... to S`` or ``remove ... from S`` is given: a set of S's
        kind (RL361) or one value of it (RL321, RL362)."""
        t = self.expr(item, s)
        if t in SET_KINDS:
            self.same_sets(coll, item, kind, t, s, item.span)
            return
        self.element(item, kind, coll, s, what)

    def element(self, item, kind, coll, s, what, t=None):
        """``item`` must be a value of the set's kind (RL321): no rank in a set of suits; a
        number written that is no rank of the deck, RL362."""
        self._element(item, kind, coll, s, what, t)
        if kind == Kind.SET_RANKS and isinstance(item, A.Int) and \
                item.value not in set(self.ranks.values()):
            self.error("RL362", f"{item.value} is no rank of the deck: a set of ranks cannot "
                       "hold it", item.span, "the deck's ranks are numbered " +
                       ", ".join(str(k) for k in sorted(set(self.ranks.values()))[:14]))

    def ex_SetWhole(self, e, s):
        kind, vs = self.set_word(e.word, e.span, "no" if e.which == "none" else "every")
        if kind is None:
            return ANY
        self.refs.set(e, Const(self.set_mask(kind, vs) if e.which == "every" else 0))
        return kind

    def ex_SetOfCards(self, e, s):
        self.expect(e.zone, ZONE, s, "the zone whose cards are looked at")
        kind = {"suits": Kind.SET_SUITS, "suit": Kind.SET_SUITS, "ranks": Kind.SET_RANKS,
                "rank": Kind.SET_RANKS}.get(e.word)
        if kind is None:
            self.error("RL364", f"`the {e.word} of the cards in ...`: a set is made of the suits "
                       "or the ranks of cards", e.span,
                       "write `the suits of the cards in Z` or `the ranks of the cards in Z`")
            return ANY
        self.refs.set(e, Const(self.set_mask(kind, None)))
        return kind

    def ex_SetCombine(self, e, s):
        word = {"together": "together with", "shared": "shared with"}.get(e.op, e.op)
        ka = self.set_side(e.left, s, f"the left of `{word}`")
        kb = self.set_side(e.right, s, f"the right of `{word}`")
        same = self.same_sets(e.left, e.right, ka, kb, s, e.span)
        kind = ka or kb
        if kind is None:
            return ANY
        for side, k in ((e.left, ka), (e.right, kb)) if same else ():
            if k is not None and self.types.of(side, None) not in SET_KINDS:
                self.element(side, kind, e.left if side is e.right else e.right, s,
                             "what is combined", self.types.of(side, None))
        self.refs.set(e, Const(self.set_mask(kind, self.set_values_name(e, s))))
        return kind

    def ex_SetValues(self, e, s):
        kinds = [self.set_side(i, s, "each value of the set") for i in e.items]
        known = [(i, k) for i, k in zip(e.items, kinds) if k is not None]
        same = all([self.same_sets(a, b, ka, kb, s, e.span)
                    for (a, ka), (b, kb) in zip(known, known[1:])])
        if not known:
            return ANY
        kind = known[0][1]
        for i, _k in known if same else ():
            t = self.types.of(i, None)
            if t not in SET_KINDS:
                self.element(i, kind, e, s, "each value of the set", t)
        self.refs.set(e, Const(self.set_mask(kind, self.set_values_name(e, s))))
        return kind


def _text(e):
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.Of):
        return f"{e.name} of ..."
    return "the set" if isinstance(e, _SET_NODES) else "it"
