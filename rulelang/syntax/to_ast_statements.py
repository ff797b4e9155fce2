"""The parse tree to AST, part 2: the statements (moves, deals, ``set``, ``if``, loops, ``say``,
choices and their alternatives, simultaneous decisions, claims...).
"""
from __future__ import annotations

from lark import Transformer, v_args

from rulelang.syntax import ast as A
from rulelang.syntax.to_ast_base import _tspan, _unquote


@v_args(meta=True)
class StatementsToAst(Transformer):
    """Mixed into :class:`rulelang.syntax.parser.ToAst`, which gives ``self.file`` and
    ``self.sp(meta)`` (the span of a node).  Each method builds the node of one grammar rule; a
    statement whose node takes the rule's values as they come needs none (``__default__``)."""

    def __default__(self, data, children, meta):
        """A statement rule with no method here (``shuffle_stmt``, ``reveal_stmt``) builds the
        node of the same name (``A.Shuffle``, ``A.Reveal``: the words of the rule's name, each
        capitalised, ``_stmt`` left out) from the rule's values in order and its span."""
        if data.endswith("_stmt"):
            node = getattr(A, "".join(w.capitalize() for w in data[:-len("_stmt")].split("_")), None)
            if isinstance(node, type) and issubclass(node, A.Stmt):
                return node(*children, self.sp(meta))
        return super().__default__(data, children, meta)

    # ---- statements --------------------------------------------------------------------------
    def deal_all(self, meta, c):
        return "all"

    def deal_stmt(self, meta, c):
        count = None if c[0] == "all" else c[0]
        return A.Deal(count, c[1], str(c[2]), _tspan(self.file, c[2]), self.sp(meta), c[3])

    def turned_over(self, meta, c):
        return True

    def _sel(kind):
        def f(self, meta, c):
            return A.Selection(kind, c[0] if c else None, self.sp(meta))
        return f

    sel_top = _sel("top")
    sel_bottom = _sel("bottom")
    sel_random = _sel("random")
    sel_all = _sel("all")
    sel_all_but_top = _sel("all_but_top")
    sel_where = _sel("where")
    sel_count = _sel("count")
    sel_card = _sel("card")

    # Counted conditional moves and a card with the cards on top of it.
    def sel_count_where(self, meta, c):
        return A.Selection("count_where", c[0], self.sp(meta), c[1])

    def sel_upto_where(self, meta, c):
        return A.Selection("upto_where", c[0], self.sp(meta), c[1])

    sel_and_above = _sel("and_above")
    sel_top_n = _sel("top_n")              # `top N cards`: lifted together, in their order
    sel_bottom_n = _sel("bottom_n")

    def move_stmt(self, meta, c):
        sel, src, dest, at, turned = c
        to_bottom = False
        if isinstance(dest, A.Unary) and dest.op == "bottom":
            dest, to_bottom = dest.operand, True
        elif isinstance(dest, A.Unary) and dest.op == "top":
            dest = dest.operand
        place, beside = at if at is not None else ("", None)
        return A.Move(sel, src, dest, to_bottom, bool(turned), self.sp(meta), place, beside)

    def put_under(self, meta, c):
        return ("under", c[0])

    def put_above(self, meta, c):
        return ("above", c[0])

    def set_stmt(self, meta, c):
        if isinstance(c[0], A.Of) and c[0].name == A.TEAM:     # `set the team of P to T`
            return A.JoinTeam(c[0].operand, c[1], self.sp(meta))
        return A.Assign("set", c[0], c[1], self.sp(meta))

    def add_stmt(self, meta, c):
        return A.Assign("add", c[1], c[0], self.sp(meta))

    def sub_stmt(self, meta, c):
        return A.Assign("sub", c[1], c[0], self.sp(meta))

    def let_stmt(self, meta, c):
        return A.Let(str(c[0]), c[1], self.sp(meta))

    def stop_stmt(self, meta, c): return A.Simple("stop", self.sp(meta))
    def return_stmt(self, meta, c):
        """`return VALUE` is `set RESULT to VALUE` then `return`: the checker gives each rule
        that returns a value its RESULT (see Checker.rule_values)."""
        if c and c[0] is not None:
            return (A.Assign("set", A.Name(A.RESULT, c[0].span), c[0], self.sp(meta)),
                    A.Simple("return", self.sp(meta)))
        return A.Simple("return", self.sp(meta))
    def pass_stmt(self, meta, c): return A.Simple("pass", self.sp(meta))
    def end_turn_stmt(self, meta, c): return A.Simple("end turn", self.sp(meta))
    def skip_stmt(self, meta, c): return A.Simple("skip", self.sp(meta))
    def reverse_stmt(self, meta, c): return A.Simple("reverse", self.sp(meta))

    def end_winner(self, meta, c): return A.EndGame("winner", c[0], self.sp(meta))
    def end_loser(self, meta, c): return A.EndGame("loser", c[0], self.sp(meta))
    def end_draw(self, meta, c): return A.EndGame("draw", None, self.sp(meta))
    def end_high(self, meta, c): return A.EndGame("highest", None, self.sp(meta))
    def end_low(self, meta, c): return A.EndGame("lowest", None, self.sp(meta))
    def end_where(self, meta, c): return A.EndGame("where", None, self.sp(meta), c[0], c[1])

    def call_args(self, meta, c):
        return tuple(x for x in c if x is not None)

    def kw_auction(self, meta, c):
        return "auction"

    def auction_stmt(self, meta, c):
        name, start, contract, holder, *lines = c
        clauses = tuple(x for x in lines if isinstance(x, tuple))
        alts = tuple(x for x in lines if isinstance(x, A.Alternative))
        return A.Auction(str(name), _tspan(self.file, name), start, str(contract), str(holder),
                         _tspan(self.file, contract), clauses, alts, self.sp(meta))

    def auction_after(self, meta, c): return ("after", c[0], self.sp(meta))
    def auction_round(self, meta, c): return ("round", None, self.sp(meta))
    def auction_all_but_one(self, meta, c): return ("all_but_one", None, self.sp(meta))
    def auction_at(self, meta, c): return ("at", str(c[0]), self.sp(meta))
    def auction_drops(self, meta, c): return ("drops", None, self.sp(meta))
    def auction_pass_is(self, meta, c): return ("pass_is", str(c[0]), self.sp(meta))

    def call_stmt(self, meta, c):
        return A.CallRule(str(c[0]), c[1] or (), c[2], self.sp(meta))

    def say_stmt(self, meta, c):
        parts = tuple(p.value if isinstance(p, A.Text) else p for p in c)   # a text said as is
        return A.Say(parts, self.sp(meta))

    def text(self, meta, c):
        return A.Text(_unquote(c[0]), self.sp(meta))

    def cards_in(self, meta, c):
        return A.CardsIn(c[0], self.sp(meta))

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        otherwise = None
        for extra in c[2:]:
            if extra is None:
                continue
            if extra[0] == "else":
                otherwise = extra[1]
            else:
                branches.append(extra)
        return A.If(tuple(branches), otherwise, self.sp(meta))

    def while_stmt(self, meta, c): return A.Loop("while", c[0], c[1], self.sp(meta))
    def until_stmt(self, meta, c): return A.Loop("until", c[0], c[1], self.sp(meta))
    def times_stmt(self, meta, c): return A.Loop("times", c[0], c[1], self.sp(meta))
    def forever_stmt(self, meta, c): return A.Loop("forever", None, c[0], self.sp(meta))

    def for_player_stmt(self, meta, c):
        body = c[3] if c[2] is None else (A.If(((c[2], c[3]),), None, c[2].span),)
        return A.ForPlayer(str(c[0]), c[1], body, self.sp(meta))

    def for_team_stmt(self, meta, c):
        """`for each player p in the team of P:` is `for each player p where the team of p is
        the team of P:` (P read for each player)."""
        sp = self.sp(meta)
        name = str(c[0])
        cond = A.Compare("==", A.Of(A.TEAM, sp, A.Name(name, _tspan(self.file, c[0])), sp),
                         A.Of(A.TEAM, sp, c[1], sp), sp)
        return A.ForPlayer(name, None, (A.If(((cond, c[2]),), None, sp),), sp)

    def show_stmt(self, meta, c):
        return A.Show(c[0], c[1], self.sp(meta))

    def leave_stmt(self, meta, c):
        return A.Leave(c[0], self.sp(meta))

    def for_card_stmt(self, meta, c):
        return A.ForCard(str(c[0]), c[1], c[2], self.sp(meta))

    def for_suit_stmt(self, meta, c):
        return A.ForValue("suit", str(c[0]), _in_set(c[0], c[1], c[2], self.file), self.sp(meta))

    def for_rank_stmt(self, meta, c):
        return A.ForValue("rank", str(c[0]), _in_set(c[0], c[1], c[2], self.file), self.sp(meta))

    def for_named_stmt(self, meta, c):
        """``for each bid b [in S]:``: the values of the set of named values ``bid``, lowest
        first (the checker says whether ``bid`` is one)."""
        return A.ForValue(str(c[0]), str(c[1]), _in_set(c[1], c[2], c[3], self.file), self.sp(meta))

    def for_player_in_stmt(self, meta, c):
        """``for each player p in S:`` is the loop over the players with its body under ``if p
        in S:`` (as ``where``): the players of S still in, in the order of play."""
        return A.ForPlayer(str(c[0]), None, _in_set(c[0], c[1], c[2], self.file), self.sp(meta))

    def set_remove(self, meta, c):
        return A.SetChange("remove", c[0], c[1], self.sp(meta))

    def set_clear(self, meta, c):
        return A.SetChange("clear", None, c[0], self.sp(meta))

    def param_card(self, meta, c):
        return A.Param("card", str(c[0]), c[1], None, c[2], self.sp(meta))

    def param_player(self, meta, c):
        return A.Param("player", str(c[0]), c[1], None, c[2], self.sp(meta))

    def param_suit(self, meta, c):
        return A.Param("suit", str(c[0]), None, None, c[1], self.sp(meta))

    def param_rank(self, meta, c):
        return A.Param("rank", str(c[0]), None, None, c[1], self.sp(meta))

    def param_number(self, meta, c):
        return A.Param("number", str(c[0]), c[1], c[2], c[3], self.sp(meta))

    def param_value(self, meta, c):
        """`call bid b where b > high`: one of the values of a set (``source`` names the set)."""
        return A.Param("value", str(c[1]), A.Name(str(c[0]), _tspan(self.file, c[0])), None, c[2],
                       self.sp(meta))

    def alt_label(self, meta, c):
        return str(c[0])

    def kw_label(self, meta, c):
        return self._kw_text(meta)

    def _kw_text(self, meta):
        line = self._lines[meta.line - 1]
        word = line[meta.column - 1:meta.end_column - 1]
        return word

    # Decisions by a set of players known at run time (docs/language.md).
    def each_player(self, meta, c):
        return "each"

    def each_named(self, meta, c):
        word = str(c[0])
        return "others" if word == "opponent" else "each " + word    # the checker: RL232

    def _each(self, meta, who, where):
        cond = where if where is not None else A.Bool(True, self.sp(meta))
        return A.PlayerQuery(who, cond, self.sp(meta))

    def simul_each(self, meta, c):
        who, where = c[0], c[1]
        alts = tuple(x for x in c[2:] if isinstance(x, A.Alternative))
        return A.Choose((self._each(meta, who, where),), True, alts, self.sp(meta))

    def claim_stmt(self, meta, c):
        who, where, start = c[0], c[1], c[2]
        sp = self.sp(meta)
        alts = tuple(x for x in c[3:] if isinstance(x, A.Alternative))
        none = A.Alternative("no claim", None, None, (A.Simple("pass", sp),), sp,
                             display="no claim")
        return A.Choose((self._each(meta, who, where),), True, alts + (none,), sp,
                        claim=True, claim_from=start)

    # Blind choices (docs/language.md, "Choosing a card unseen"): the value is a position.
    def param_unseen(self, meta, c):
        return A.Param("unseen", str(c[0]), c[1], None, None, self.sp(meta))

    # Several cards in one step (docs/language.md, "Several cards in one step").
    def param_cards(self, meta, c):
        (count, more), name, same, source, dest, where = c
        return A.CardsParam(str(name), count, more, same, source, dest, where, self.sp(meta))

    # A set of cards in one choice (docs/language.md, "A set of cards in one choice").
    def param_set(self, meta, c):
        (low, high), name, shape, source, dest, where, total = c
        if high is False:                   # `N cards`: exactly N; `N or more`: no most
            high = low
        elif high is True:
            high = None
        mode, attr, value = total if total is not None else (None, None, None)
        return A.SetParam(str(name), low, high, shape, source, dest, where, mode, attr, value,
                          self.sp(meta))

    def param_set_total_first(self, meta, c):
        """`a set of ... to D whose total ... where C`: the condition on the whole set written
        before the one on each card (so that a yes/no value ending `where C` is not read as
        asking whether C is `in groups`)."""
        count, name, shape, source, dest, total, where = c
        return self.param_set(meta, [count, name, shape, source, dest, where, total])

    def article_name(self, meta, c):
        """The word `a` used as a name where `a set of` may begin: its token, as a NAME's."""
        return c[0]

    def count_between(self, meta, c):
        return (c[0], c[1])

    def count_up_to(self, meta, c):
        return (A.Int(1, self.sp(meta)), c[0])

    def in_run(self, meta, c):
        return "run"

    def total_is(self, meta, c):
        return ("is", str(c[0]), c[1])

    def total_most(self, meta, c):
        return ("most", str(c[0]), c[1])

    def total_least(self, meta, c):
        return ("least", str(c[0]), c[1])

    def total_groups(self, meta, c):
        return ("groups", str(c[0]), c[1])

    def count_exactly(self, meta, c):
        return (c[0], False)

    def count_or_more(self, meta, c):
        return (c[0], True)

    def same_rank(self, meta, c):
        return "rank"

    def same_suit(self, meta, c):
        return "suit"

    def alternative(self, meta, c):
        return A.Alternative(str(c[0]), c[2], c[3], c[4], self.sp(meta),
                             display=_unquote(c[1]) if c[1] is not None else None)

    def choose_stmt(self, meta, c):
        by = (c[0],) if c[0] is not None else ()
        return A.Choose(by, False, tuple(c[1:]), self.sp(meta))

    def simul_stmt(self, meta, c):
        by = tuple(x for x in c if isinstance(x, A.Expr))
        alts = tuple(x for x in c if isinstance(x, A.Alternative))
        return A.Choose(by, True, alts, self.sp(meta))


def _in_set(name, coll, body, file):
    """The body of ``for each suit s in S:``: under ``if s in S:``, so that the loop goes through
    the suits (ranks, players) in their usual order and runs the body for those in S when it
    comes to them (docs/language.md, "Sets of values")."""
    if coll is None:
        return body
    item = A.Name(str(name), _tspan(file, name))
    return (A.If(((A.InSet(item, coll, False, coll.span), body),), None, coll.span),)
