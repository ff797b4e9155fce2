"""The parse tree to AST, part 3: the expressions (conditions, comparisons, arithmetic, queries
over cards and players, keywords such as ``current player``), and the check that a ``where``
does not swallow the rest of a condition (RL010).
"""
from __future__ import annotations

from lark import Transformer, v_args

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic
from rulelang.syntax.to_ast_base import _span, _tspan


@v_args(meta=True)
class ExpressionsToAst(Transformer):
    """Mixed into :class:`rulelang.syntax.parser.ToAst`, which gives ``self.file`` and
    ``self.sp(meta)`` (the span of a node).  Each method builds the node of one grammar rule."""

    # ---- expressions -------------------------------------------------------------------------
    def or_expr(self, meta, c):
        return A.BoolOp("or", tuple(c), self.sp(meta))

    def and_expr(self, meta, c):
        return A.BoolOp("and", tuple(c), self.sp(meta))

    def not_(self, meta, c):
        return A.Unary("not", c[0], self.sp(meta))

    def compare(self, meta, c):
        self._where_ends(c[0], c[2], str(c[1]))
        return A.Compare(str(c[1]), c[0], c[2], self.sp(meta))

    def eq(self, meta, c):
        self._where_ends(c[0], c[1], "is")
        return A.Compare("==", c[0], c[1], self.sp(meta))

    def ne(self, meta, c):
        self._where_ends(c[0], c[1], "is not")
        return A.Compare("!=", c[0], c[1], self.sp(meta))

    def _where_ends(self, left, right, op):
        """RL010 when a comparison follows a `where` whose condition is itself a comparison, with
        no parentheses: `number of cards in hand where rank of card is 8 > 1`.  A `where` runs to
        the end of the value, but a comparison cannot take another, so the parser would end the
        `where` early and compare the count: the same words mean the other thing after a condition
        that is not a comparison.  Neither reading is silently taken."""
        if not isinstance(left, A.CardQuery) or left.condition is None or self.problems:
            return
        a, b = left.span, right.span
        if (a.end_line, a.end_column) >= (b.line, b.column):
            return
        if a.end_line == b.line:
            between = self._lines[b.line - 1][a.end_column - 1:b.column - 1]
        else:                         # a line continued with `\`
            between = self._lines[a.end_line - 1][a.end_column - 1:] + "".join(
                self._lines[i - 1] for i in range(a.end_line + 1, b.line)) + \
                self._lines[b.line - 1][:b.column - 1]
        if ")" in between:
            return
        what = {"count": "number of cards in ZONE where CONDITION",
                "any": "any card in ZONE where CONDITION",
                "no": "no card in ZONE where CONDITION"}[left.kind]
        self.problems.append(Diagnostic(
            "RL010", ERROR, f"does this `{op}` belong to the `where`? A `where` runs to the end of "
            f"the value, but its condition is already a comparison",
            A.Span(self.file, a.line, a.column, b.end_line, b.end_column),
            f"put parentheses round what you mean: `({what}) {op} ...` to compare the "
            f"{'count' if left.kind == 'count' else 'answer'}, or `where (...)` for the condition"))

    def in_set(self, meta, c):
        return A.InSet(c[0], c[1], False, self.sp(meta))

    def not_in_set(self, meta, c):
        return A.InSet(c[0], c[1], True, self.sp(meta))

    def set_size(self, meta, c):
        return A.SetSize(c[0], self.sp(meta))

    # whole sets of values (docs/language.md, "Writing and combining sets")
    def set_empty(self, meta, c):
        return A.SetWhole("none", str(c[0]), self.sp(meta))

    def set_every(self, meta, c):
        return A.SetWhole("every", str(c[0]), self.sp(meta))

    def set_of_cards(self, meta, c):
        return A.SetOfCards(str(c[0]), c[1], self.sp(meta))

    def set_union(self, meta, c):
        return A.SetCombine("together", c[0], c[1], self.sp(meta))

    def set_common(self, meta, c):
        return A.SetCombine("shared", c[0], c[1], self.sp(meta))

    def set_without(self, meta, c):
        return A.SetCombine("without", c[0], c[1], self.sp(meta))

    def the_of(self, meta, c):
        """``the named of P``: ``named of P`` (a player's variable, a card's attribute)."""
        return A.Of(str(c[0]), _tspan(self.file, c[0]), c[1], self.sp(meta))

    def is_empty(self, meta, c):
        return A.IsEmpty(c[0], False, self.sp(meta))

    def is_not_empty(self, meta, c):
        return A.IsEmpty(c[0], True, self.sp(meta))

    def is_out(self, meta, c):
        return A.IsOut(c[0], False, self.sp(meta))

    def is_not_out(self, meta, c):
        return A.IsOut(c[0], True, self.sp(meta))

    def the_player(self, meta, c):
        return A.Name("player", self.sp(meta))

    def _pq(kind):
        def f(self, meta, c):
            return A.PlayerQuery(kind, c[0], self.sp(meta))
        return f
    any_player = _pq("any")
    no_player = _pq("no")
    count_players = _pq("count")
    next_player_where = _pq("next")

    def _among_players(kind):
        # `highest V among players [where C]`, `lowest ...`, `total of V among players [where C]`
        def f(self, meta, c):
            return A.PlayerQuery(kind, c[0], self.sp(meta), c[1] if len(c) > 1 else None)
        return f
    highest_among = _among_players("highest")
    lowest_among = _among_players("lowest")
    total_among = _among_players("total")

    # Selectors and aggregates.
    def card_lit(self, meta, c):
        return A.CardLit(str(c[0]), self.sp(meta))

    def _among(kind):
        def f(self, meta, c):
            if kind.endswith("card"):
                return A.AmongCards(kind, c[1], c[0], c[2], self.sp(meta))
            return A.AmongCards(kind, c[0], c[1], c[2], self.sp(meta))
        return f
    highest_among_cards = _among("highest")
    lowest_among_cards = _among("lowest")
    total_among_cards = _among("total")
    highest_card_by = _among("highest card")
    lowest_card_by = _among("lowest card")

    def _pick(kind, of):
        def f(self, meta, c):
            if of == "rank":
                return A.PickValue(kind, of, str(c[0]), None, None, c[1], self.sp(meta))
            return A.PickValue(kind, of, str(c[0]), c[1], c[2], c[3], self.sp(meta))
        return f
    highest_rank_where = _pick("highest", "rank")
    lowest_rank_where = _pick("lowest", "rank")
    highest_number_where = _pick("highest", "number")
    lowest_number_where = _pick("lowest", "number")
    player_with_highest = _pq("best")

    def _arg_best(kind, of):
        def f(self, meta, c):
            return A.ArgBest(kind, of, str(c[0]), c[1], self.sp(meta))
        return f
    suit_with_highest = _arg_best("highest", "suit")
    suit_with_lowest = _arg_best("lowest", "suit")
    rank_with_highest = _arg_best("highest", "rank")
    rank_with_lowest = _arg_best("lowest", "rank")
    player_with_lowest = _pq("worst")

    def sel_card_named(self, meta, c):
        return (("named", f"{c[0]} of {c[1]}", str(c[0]), str(c[1])), self.sp(meta))

    def sel_card_lit(self, meta, c):
        return (("card", str(c[0])), _tspan(self.file, c[0]))

    # Positions in a pile: the card N from the top or bottom, under or above a card.
    def _place(kind):
        def f(self, meta, c):
            return A.PilePlace(kind, c[0], c[1], self.sp(meta))
        return f
    card_from_top = _place("from top")
    card_from_bottom = _place("from bottom")
    card_under = _place("under")
    card_above = _place("above")

    def first_card_where(self, meta, c):
        return A.AmongCards("first card", None, c[0], c[1], self.sp(meta))

    def last_card_where(self, meta, c):
        return A.AmongCards("last card", None, c[0], c[1], self.sp(meta))

    def holder(self, meta, c):
        return A.Holder(c[0], self.sp(meta))

    def played_by(self, meta, c):
        """`who played c`: the player who played the card to a shared zone (docs/language.md,
        "Who played a card")."""
        return A.PlayedBy(c[0], self.sp(meta))

    def arith(self, meta, c):
        return A.Arith(str(c[1]), c[0], c[2], self.sp(meta))

    def neg(self, meta, c):
        return A.Unary("neg", c[0], self.sp(meta))

    def int_lit(self, meta, c):
        return A.Int(int(c[0]), self.sp(meta))

    def none_lit(self, meta, c):
        return A.NoneLit(self.sp(meta))

    def _kw(word):
        def f(self, meta, c):
            return A.Keyword(word, self.sp(meta))
        return f

    you = _kw("you")
    current_player = _kw("current player")
    next_player = _kw("next player")
    previous_player = _kw("previous player")
    random_player = _kw("random player")
    all_players = _kw("players")
    opponents = _kw("opponents")
    player_count = _kw("number of players")
    turn_count = _kw("number of turns")

    def seat(self, meta, c):
        return A.Seat(int(c[0]), self.sp(meta))

    def _un(op):
        def f(self, meta, c):
            return A.Unary(op, c[0], self.sp(meta))
        return f

    player_after = _un("player after")
    player_before = _un("player before")
    rank_after = _un("rank after")
    rank_before = _un("rank before")
    top_of = _un("top")
    bottom_of = _un("bottom")
    size_of = _un("size")
    def score_of(self, meta, c):
        """`score of P`; `score of the team of P`: the total of the scores of P's team (of its
        players still in the game), read as `total of score of player among players where the
        team of player is the team of P`."""
        if isinstance(c[0], A.Of) and c[0].name == A.TEAM:
            sp = self.sp(meta)
            player = A.Name("player", sp)
            return A.PlayerQuery("total", A.Unary("score", player, sp), sp,
                                 A.Compare("==", A.Of(A.TEAM, sp, player, sp), c[0], sp))
        return A.Unary("score", c[0], self.sp(meta))

    def team_of(self, meta, c):
        """`the team of P`: the number of P's team (docs/language.md, "Partnerships")."""
        return A.Of(A.TEAM, self.sp(meta), c[0], self.sp(meta))

    def team_size(self, meta, c):
        """`number of players in the team of P`: `number of players where the team of player
        is the team of P`."""
        sp = self.sp(meta)
        return A.PlayerQuery("count", A.Compare("==", A.Of(A.TEAM, sp, A.Name("player", sp), sp),
                                                self.team_of(meta, c), sp), sp)
    random_card = _un("random card")

    def total_of(self, meta, c):
        return A.TotalOf(str(c[0]), c[1], self.sp(meta))

    def any_number(self, meta, c):
        return A.AnyNumber(str(c[0]), c[1], c[2], c[3], self.sp(meta))

    def meld_left(self, meta, c):
        return A.MeldLeft(str(c[0]), c[1], self.sp(meta), lay_off=c[2])

    def combinations_totalling(self, meta, c):
        return A.Combos(str(c[1]), c[0], self.sp(meta), kind="sum", target=c[2])

    def _combos(kind):
        def make(self, meta, c):
            return A.Combos("rank", c[0], self.sp(meta), kind=kind)
        return make

    longest_run = _combos("run")
    longest_runs = _combos("runs")
    pairs_in = _combos("pairs")
    most_of_one_rank = _combos("rank")
    most_of_one_suit = _combos("suit")

    def roll(self, meta, c):
        return A.Roll(int(str(c[0])[1:]), self.sp(meta))

    def any_card(self, meta, c):
        return A.CardQuery("any", c[0], c[1], self.sp(meta))

    def no_card(self, meta, c):
        return A.CardQuery("no", c[0], c[1], self.sp(meta))

    def count_cards(self, meta, c):
        return A.CardQuery("count", c[0], c[1], self.sp(meta))

    def word_name(self, meta, c):
        """A word of the language used as a name (`say top`): its token, as a NAME's."""
        return c[0]

    def name(self, meta, c):
        return A.Name(str(c[0]), self.sp(meta))

    def call(self, meta, c):
        return A.Call(str(c[0]), tuple(x for x in c[1:] if x is not None), self.sp(meta))

    def call_card(self, meta, c):
        """A call of a define named `card` (the word begins a place in a pile only when
        `from top` or `from bottom` follows)."""
        return A.Call("card", tuple(x for x in c if x is not None), self.sp(meta))

    def call_of_card(self, meta, c):
        return A.Call("card", tuple(x for x in c[:-1] if x is not None), self.sp(meta),
                      owner=c[-1])

    def call_of(self, meta, c):
        return A.Call(str(c[0]), tuple(x for x in c[1:-1] if x is not None), self.sp(meta),
                      owner=c[-1])

    def rank_of(self, meta, c):
        return A.Of("rank", _span(self.file, meta), c[0], self.sp(meta))

    def suit_of(self, meta, c):
        return A.Of("suit", _span(self.file, meta), c[0], self.sp(meta))

    def of_expr(self, meta, c):
        return A.Of(str(c[0]), _tspan(self.file, c[0]), c[1], self.sp(meta))

    def number_of_suit(self, meta, c):
        """`7 of red`: the card of a numbered rank and a suit, as `queen of spades`."""
        return A.Of(str(c[0]), _tspan(self.file, c[0]),
                    A.Name(str(c[1]), _tspan(self.file, c[1])), self.sp(meta))

    def if_else(self, meta, c):
        return A.Cases(((c[0], c[1]),), c[2], self.sp(meta))

    def cond_case(self, meta, c):
        return (c[0], c[1])

    def cond_cases(self, meta, c):
        return A.Cases(tuple(c[:-1]), c[-1], self.sp(meta))

    def yes(self, meta, c):
        return A.Bool(True, self.sp(meta))

    def no(self, meta, c):
        return A.Bool(False, self.sp(meta))
