"""Stage 1: text to AST.

Lark parses the text with ``grammar/cardrules.lark`` (LALR, indentation by a post-lexer,
positions propagated); :class:`ToAst` turns the parse tree into :mod:`rulelang.syntax.ast` nodes.  This
module is the one place where syntax errors are raised: :func:`parse` turns every Lark error into
a :class:`~rulelang.syntax.diagnostics.Diagnostic` that says, in words, what was expected.
"""
from __future__ import annotations

import functools
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput
from lark.indenter import Indenter, DedentError

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic, RuleFileError, source_lines_of
from rulelang.limits import MAX_BLOCK_DEPTH, MAX_EXPR_DEPTH, MAX_NUMBER, MAX_NUMBER_DIGITS, no_gc


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return resources.files("rulelang").joinpath("grammar/cardrules.lark").read_text("utf-8")


def _cache_file():
    """Where the built parser is kept between runs: the user's own cache folder, never a shared
    temporary one (the cache is a pickle).  ``False`` (build it every time) if there is none."""
    import hashlib
    import os
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulelang")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    digest = hashlib.sha256(grammar_text().encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"parser-{digest}.lark")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    # Building the LALR tables takes ~0.4 s; Lark keeps them in the cache file, checked against
    # a hash of the grammar, the options and Lark's version, and rebuilds them if they differ.
    return Lark(grammar_text(), parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=True, cache=_cache_file())


def _span(file: str, meta) -> A.Span:
    return A.Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tspan(file: str, tok: Token) -> A.Span:
    return A.Span(file, tok.line, tok.column, tok.end_line or tok.line,
                  tok.end_column or tok.column + len(tok))


def _unquote(tok) -> str:
    return str(tok)[1:-1]


@v_args(meta=True)
class ToAst(Transformer):
    """Parse tree to AST.  Each method builds the node of one grammar rule."""

    def __init__(self, file: str, text: str = ""):
        super().__init__()
        self.file = file
        self._lines = source_lines_of(text)
        self.problems: list = []       # a mistake the grammar lets through (RL010)

    def sp(self, meta):
        return _span(self.file, meta)

    # ---- top level ---------------------------------------------------------------------------
    def start(self, meta, items):
        return [j for i in items if i is not None for j in (i if isinstance(i, list) else [i])]

    def extends_decl(self, meta, c):
        return A.Extends(_unquote(c[0]), self.sp(meta))

    def game_decl(self, meta, c):
        return A.GameName(_unquote(c[0]), self.sp(meta))

    def players_decl(self, meta, c):
        lo = int(c[0])
        hi = int(c[1]) if c[1] is not None else lo
        return A.Players(lo, hi, self.sp(meta))

    def replace_decl(self, meta, c):
        d = c[0]
        if hasattr(d, "replace"):
            return attrs_evolve(d, replace=True)
        return d

    def signed_int(self, meta, c):
        return -int(c[1]) if c[0] is not None else int(c[1])

    def symbol(self, meta, c):
        return str(c[0])

    def opt_range(self, meta, c):
        return ("range", c[0], c[1])

    def opt_choices(self, meta, c):
        return ("choices", tuple(_lit(x) for x in c))

    def option_decl(self, meta, c):
        name, display, default, constraint, doc = c
        default = _lit(default)
        low = high = choices = None
        if constraint is not None:
            if constraint[0] == "range":
                low, high = constraint[1], constraint[2]
            else:
                choices = constraint[1]
        return A.Option(str(name), default, low, high, choices,
                        _unquote(doc) if doc is not None else None, False, self.sp(meta),
                        display=_unquote(display) if display is not None else None)

    # ---- cards -------------------------------------------------------------------------------
    def suit_def(self, meta, c):
        return A.SuitDef(str(c[0]), _unquote(c[1]) if c[1] is not None else None, self.sp(meta))

    def rank_def(self, meta, c):
        toks = [t for t in c if t is not None]
        symbol = None
        if toks and toks[-1].type == "STRING":
            symbol = _unquote(toks.pop())
        if toks[0].type == "INT":
            return A.RankDef(str(toks[0]), int(toks[0]), symbol, self.sp(meta))
        number = int(toks[1]) if len(toks) > 1 else None
        return A.RankDef(str(toks[0]), number, symbol, self.sp(meta))

    def suits_item(self, meta, c):
        return ("suits", tuple(c))

    def ranks_item(self, meta, c):
        return ("ranks", tuple(c))

    def own_suit_item(self, meta, c):
        return ("own_suit", (c[0], tuple(c[1:])))

    def extras_item(self, meta, c):
        group = str(c[0])
        names = tuple((str(t), _tspan(self.file, t)) for t, _ in c[1:-1])
        shown = tuple((str(t), _unquote(d)) for t, d in c[1:-1] if d is not None)
        return ("extras", (group, names, c[-1]), shown)

    def extra_card(self, meta, c):
        return (c[0], c[1])

    def decktype_decl(self, meta, c):
        name, items = str(c[0]), c[1:]
        suits, ranks, own, extras = (), (), [], []
        shown = ()
        for kind, value, *more in items:
            if more:
                shown += more[0]
            if kind == "suits":
                suits += value
            elif kind == "ranks":
                ranks += value
            elif kind == "own_suit":
                own.append(value)
            else:
                extras.append(value)
        return A.DeckType(name, suits, ranks, tuple(own), tuple(extras), False, self.sp(meta),
                          display=shown)

    def deck_with(self, meta, c):
        return ("with", str(c[0]), c[1])

    def deck_copies(self, meta, c):
        return ("copies", c[0])

    def deck_into(self, meta, c):
        return ("into", c[0])

    def deck_per_player(self, meta, c):
        return ("per_player", str(c[0]))

    def deck_decl(self, meta, c):
        name = str(c[0])
        group = cond = copies = into = per = None
        for opt in c[1:]:
            if opt is None:
                continue
            if opt[0] == "with":
                group, cond = opt[1], opt[2]
            elif opt[0] == "copies":
                copies = opt[1]
            elif opt[0] == "into":
                into = opt[1]
            else:
                per = opt[1]
        return A.Deck(name, group, cond, copies, into, per, False, self.sp(meta))

    def sel_name(self, meta, c):
        return (str(c[0]), _tspan(self.file, c[0]))

    def sel_int(self, meta, c):
        return (int(c[0]), _tspan(self.file, c[0]))

    def attr_entry(self, meta, c):
        return (tuple(c[:-1]), c[-1])

    def attr_otherwise(self, meta, c):
        return ("otherwise", c[0])

    def attribute_decl(self, meta, c):
        entries, otherwise = [], None
        for e in c[1:]:
            if e[0] == "otherwise":
                otherwise = e[1]
            else:
                entries.append(e)
        return A.Attribute(str(c[0]), tuple(entries), otherwise, False, self.sp(meta))

    # ---- zones, variables, defines -----------------------------------------------------------
    def per_player(self, meta, c): return "per_player"
    def shared(self, meta, c): return "shared"
    def face_up(self, meta, c): return "everyone"
    def face_down(self, meta, c): return "nobody"
    def top_face_up(self, meta, c): return "top"
    def seen_owner(self, meta, c): return "owner"
    def size_hidden(self, meta, c): return "size_hidden"
    def not_shown(self, meta, c): return ("shown", "no")
    def shown_in_use(self, meta, c): return ("shown", "in use")

    def zone_decl(self, meta, c):
        props = list(c[2:])
        vis = [p for p in props if p in ("everyone", "nobody", "top", "owner")]
        shown = [p[1] for p in props if isinstance(p, tuple) and p[0] == "shown"]
        return A.Zone(str(c[0]), "per_player" in props, vis[-1] if vis else "everyone",
                      "size_hidden" in props, False, self.sp(meta),
                      display=_unquote(c[1]) if c[1] is not None else None,
                      shown=shown[-1] if shown else "yes")

    def zone_family_decl(self, meta, c):
        """``zone column 1 to 7: ...``: the zones column_1 to column_7, each knowing its family
        (the checker refuses more than 100, RL253, and an empty range)."""
        name, lo, hi = str(c[0]), int(c[1]), int(c[2])
        one = self.zone_decl(meta, [c[0]] + list(c[3:]))
        return [attrs_evolve(one, name=f"{name}_{k}", family=(name, k, lo, hi),
                             display=f"{one.display} {k}" if one.display else None)
                for k in range(lo, min(hi, lo + 99) + 1)] or [
            attrs_evolve(one, name=f"{name}_{lo}", family=(name, lo, lo, hi))]

    def per_player_mark(self, meta, c):
        return True

    def var_decl(self, meta, c):
        name, display, typ, per, init = c
        return A.Var(str(name), str(typ) if typ is not None else None, bool(per), init, False,
                     self.sp(meta), display=_unquote(display) if display is not None else None)

    def param(self, meta, c):
        return (str(c[0]), str(c[1]) if c[1] is not None else None)

    def params(self, meta, c):
        return tuple(p for p in c if p is not None)

    def define_decl(self, meta, c):
        return A.Define(str(c[0]), c[1] or (), c[2], False, self.sp(meta))

    def score_decl(self, meta, c):
        return A.Score(c[0], False, self.sp(meta))

    def show_decl(self, meta, c):
        return A.ShowWith(_unquote(c[0]), str(c[1]), c[2], False, self.sp(meta))

    # ---- rules -------------------------------------------------------------------------------
    def block(self, meta, c):
        out = []
        for s in c:
            if isinstance(s, tuple):        # `return VALUE`: two statements
                out.extend(s)
            elif s is not None:
                out.append(s)
        return tuple(out)

    def rule_decl(self, meta, c):
        return A.Rule(str(c[0]), c[1] or (), c[2], False, self.sp(meta))

    def setup_decl(self, meta, c):
        return A.Rule("setup", (), c[0], False, self.sp(meta))

    def turn_decl(self, meta, c):
        return A.Rule("turn", (), c[0], False, self.sp(meta))

    def ends_decl(self, meta, c):
        return A.Ending(c[0], c[1], self.sp(meta))

    def ends_after(self, meta, c):
        """`game ends after N turns:` is `game ends when number of turns >= N:`, a budget the
        rules declare and end as they say (not the step budget's RL901)."""
        sp = self.sp(meta)
        turns = A.Keyword("number of turns", c[0].span)
        return A.Ending(A.Compare(">=", turns, c[0], c[0].span), c[1], sp)

    # ---- statements --------------------------------------------------------------------------
    def shuffle_stmt(self, meta, c):
        return A.Shuffle(c[0], self.sp(meta))

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

    # Counted conditional moves and a card with the cards on top of it (issue 14, item 2).
    def sel_count_where(self, meta, c):
        return A.Selection("count_where", c[0], self.sp(meta), c[1])

    def sel_upto_where(self, meta, c):
        return A.Selection("upto_where", c[0], self.sp(meta), c[1])

    sel_and_above = _sel("and_above")

    def move_stmt(self, meta, c):
        sel, src, dest, turned = c
        to_bottom = False
        if isinstance(dest, A.Unary) and dest.op == "bottom":
            dest, to_bottom = dest.operand, True
        elif isinstance(dest, A.Unary) and dest.op == "top":
            dest = dest.operand
        return A.Move(sel, src, dest, to_bottom, bool(turned), self.sp(meta))

    def set_stmt(self, meta, c):
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

    def next_turn_stmt(self, meta, c):
        return A.NextTurn(c[0], self.sp(meta))

    def call_args(self, meta, c):
        return tuple(x for x in c if x is not None)

    def call_stmt(self, meta, c):
        return A.CallRule(str(c[0]), c[1] or (), c[2], self.sp(meta))

    def say_stmt(self, meta, c):
        parts = tuple(p.value if isinstance(p, A.Text) else p for p in c)   # a text said as is
        return A.Say(parts, self.sp(meta))

    def text(self, meta, c):
        return A.Text(_unquote(c[0]), self.sp(meta))

    def cards_in(self, meta, c):
        return A.CardsIn(c[0], self.sp(meta))

    def reveal_stmt(self, meta, c):
        return A.Reveal(c[0], self.sp(meta))

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

    def show_stmt(self, meta, c):
        return A.Show(c[0], c[1], self.sp(meta))

    def leave_stmt(self, meta, c):
        return A.Leave(c[0], self.sp(meta))

    def for_card_stmt(self, meta, c):
        return A.ForCard(str(c[0]), c[1], c[2], self.sp(meta))

    def for_suit_stmt(self, meta, c):
        return A.ForValue("suit", str(c[0]), c[1], self.sp(meta))

    def for_rank_stmt(self, meta, c):
        return A.ForValue("rank", str(c[0]), c[1], self.sp(meta))

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
    highest_among = _pq("highest")
    lowest_among = _pq("lowest")

    # Selectors and aggregates (issue 14).
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
    player_with_lowest = _pq("worst")

    def sel_card_named(self, meta, c):
        return (("named", f"{c[0]} of {c[1]}", str(c[0]), str(c[1])), self.sp(meta))

    def sel_card_lit(self, meta, c):
        return (("card", str(c[0])), _tspan(self.file, c[0]))

    def holder(self, meta, c):
        return A.Holder(c[0], self.sp(meta))

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
    score_of = _un("score")
    random_card = _un("random card")

    def total_of(self, meta, c):
        return A.TotalOf(str(c[0]), c[1], self.sp(meta))

    def any_number(self, meta, c):
        return A.AnyNumber(str(c[0]), c[1], c[2], c[3], self.sp(meta))

    def meld_left(self, meta, c):
        return A.MeldLeft(str(c[0]), c[1], self.sp(meta))

    def roll(self, meta, c):
        return A.Roll(int(str(c[0])[1:]), self.sp(meta))

    def any_card(self, meta, c):
        return A.CardQuery("any", c[0], c[1], self.sp(meta))

    def no_card(self, meta, c):
        return A.CardQuery("no", c[0], c[1], self.sp(meta))

    def count_cards(self, meta, c):
        return A.CardQuery("count", c[0], c[1], self.sp(meta))

    def name(self, meta, c):
        return A.Name(str(c[0]), self.sp(meta))

    def call(self, meta, c):
        return A.Call(str(c[0]), tuple(x for x in c[1:] if x is not None), self.sp(meta))

    def rank_of(self, meta, c):
        return A.Of("rank", _span(self.file, meta), c[0], self.sp(meta))

    def suit_of(self, meta, c):
        return A.Of("suit", _span(self.file, meta), c[0], self.sp(meta))

    def of_expr(self, meta, c):
        return A.Of(str(c[0]), _tspan(self.file, c[0]), c[1], self.sp(meta))

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


def _lit(x):
    """An option's literal: ``yes``/``no`` arrive as Bool nodes."""
    return x.value if isinstance(x, A.Bool) else x


def attrs_evolve(node, **changes):
    import attrs as _attrs
    return _attrs.evolve(node, **changes)


def _syntax_diagnostic(file: str, text: str, err: UnexpectedInput) -> Diagnostic:
    """One diagnostic for a syntax error, in words (see :mod:`rulelang.syntax.syntax_errors`)."""
    from rulelang.syntax.syntax_errors import syntax_diagnostic
    return syntax_diagnostic(file, text, err, _lark())


def _tab_indent(file: str, text: str):
    """RL002 for the first line of code indented with a tab (a tab counts as four spaces, and a
    mix of tabs and spaces hides which block a line belongs to), or None."""
    if "\t" not in text:
        return None
    for i, line in enumerate(text.split("\n"), 1):
        code = line.lstrip(" \t\f\r")
        indent = line[:len(line) - len(code)]
        if "\t" in indent and code and not code.startswith("#"):
            col = indent.index("\t") + 1
            return Diagnostic("RL002", ERROR, "this line is indented with a tab",
                              A.Span(file, i, col, i, col + 1),
                              "indent with spaces (four per level); tabs count as four spaces and "
                              "hide mistakes")
    return None


def parse(text: str, file: str = "<string>") -> A.Program:
    """Parse a rule file.  Raises :class:`RuleFileError` with one diagnostic on a syntax error
    (the first in the file: a tab in the indentation counts as one).  A byte order mark at the
    start is ignored."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"
    tab = _tab_indent(file, text)
    try:
        with no_gc():
            tree = _lark().parse(text)
    except UnexpectedInput as err:
        d = _syntax_diagnostic(file, text, err)
        if tab is not None and (d.span is None or tab.span.line <= d.span.line):
            d = tab
        raise RuleFileError([d]) from None
    except DedentError:
        d = Diagnostic("RL003", ERROR, "this line's indentation matches no block above it",
                       _dedent_span(file, text), "line it up with the block it belongs to")
        if tab is not None and tab.span.line <= d.span.line:
            d = tab
        raise RuleFileError([d]) from None
    if tab is not None:
        raise RuleFileError([tab])
    too_much = _limits(tree, file)
    if too_much:
        raise RuleFileError(too_much)
    with no_gc():
        to_ast = ToAst(file, text)
        decls = to_ast.transform(tree)
    if to_ast.problems:
        raise RuleFileError(to_ast.problems[:1])
    return A.Program(file, tuple(decls), text)


# ---- limits (rulelang/limits.py) --------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _expression_rules() -> frozenset:
    """The names of the parse-tree nodes that are expressions: those of the grammar's
    expressions section."""
    import re
    text = grammar_text()
    section = text[text.index("// ---- expressions"):]
    return frozenset(re.findall(r"->\s*(\w+)", section)) | {"or_expr", "and_expr", "cond_case"}


_BLOCK_RULES = frozenset({"block", "choose_stmt", "simul_stmt"})


def _limits(tree, file: str) -> list:
    """Blocks nested too deeply (RL201), expressions nested too deeply (RL202) and numbers too
    large (RL203), found before the tree is turned into nodes: that and every later stage walk
    the tree recursively, so its depth must be bounded first.  The walk itself is iterative;
    nothing under a node that is too deep is looked at."""
    exprs = _expression_rules()
    out = []
    reported = set()        # one diagnostic of each kind per declaration
    stack = [(tree, None, 0, 0, None, None)]
    while stack:
        node, parent, blocks, depth, decl, root = stack.pop()
        if isinstance(node, Token):
            if node.type in ("INT", "DIE"):
                digits = str(node).lstrip("d").lstrip("0")
                if len(digits) > MAX_NUMBER_DIGITS or (digits and int(digits) > MAX_NUMBER):
                    shown = str(node) if len(node) <= 24 else f"{str(node)[:12]}...({len(node)} digits)"
                    out.append(Diagnostic(
                        "RL203", ERROR, f"the number {shown} is too large: numbers are at most "
                        f"{MAX_NUMBER} (10^{MAX_NUMBER_DIGITS - 1})", _tspan(file, node),
                        "a game needs no such number; write a smaller one"))
            continue
        if node is None:
            continue
        data = node.data
        if parent is tree:
            decl = id(node)
        if data in _BLOCK_RULES:
            blocks += 1
            if blocks > MAX_BLOCK_DEPTH:
                where = node if data != "block" or parent is None else parent
                if ("RL201", decl) in reported:
                    continue
                reported.add(("RL201", decl))
                out.append(Diagnostic(
                    "RL201", ERROR, f"blocks are nested more than {MAX_BLOCK_DEPTH} deep here",
                    _span(file, where.meta),
                    "move the inner part into a `rule` of its own and run it from here"))
                continue
        if data in exprs:
            if depth == 0:
                root = node
            depth += 1
            if depth > MAX_EXPR_DEPTH:
                if ("RL202", decl) in reported:
                    continue
                reported.add(("RL202", decl))
                out.append(Diagnostic(
                    "RL202", ERROR, f"this expression is nested more than {MAX_EXPR_DEPTH} deep",
                    _span(file, root.meta),
                    "compute a part first with `let NAME = ...` and use the name"))
                continue
        else:
            depth = 0
        for child in node.children:
            stack.append((child, node, blocks, depth, decl, root))
    out.sort(key=lambda d: (d.span.line, d.span.column))
    return out


def _dedent_span(file, text):
    levels = [0]
    for i, line in enumerate(source_lines_of(text), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        ind = len(line) - len(line.lstrip(" "))
        if ind > levels[-1]:
            levels.append(ind)
        else:
            while levels and ind < levels[-1]:
                levels.pop()
            if not levels or ind != levels[-1]:
                return A.Span(file, i, 1, i, ind + 1)
    return A.Span(file, 1, 1, 1, 1)
