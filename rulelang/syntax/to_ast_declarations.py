"""The parse tree to AST, part 1: the file's declarations (``game``, ``players``, options, suits,
ranks, decks, attributes, zones, variables, defines, scores, shows) and the rules' heads
(``rule``, ``setup:``, ``turn:``, ``game ends when``), with their blocks.
"""
from __future__ import annotations

from lark import Transformer, v_args

from rulelang.syntax import ast as A
from rulelang.syntax.to_ast_base import _lit, _tspan, _unquote, attrs_evolve


@v_args(meta=True)
class DeclarationsToAst(Transformer):
    """Mixed into :class:`rulelang.syntax.parser.ToAst`, which gives ``self.file`` and
    ``self.sp(meta)`` (the span of a node).  Each method builds the node of one grammar rule."""

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

    replace_team_decl = replace_decl      # `replace var points per team = 5`

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
        copies, shown_as, shown_span = [], None, None
        for kind, value, *more in items:
            if more:
                shown += more[0]
            if kind == "copies":
                copies.append(value)
            elif kind == "shown_as":
                shown_as, shown_span = value
            elif kind == "suits":
                suits += value
            elif kind == "ranks":
                ranks += value
            elif kind == "own_suit":
                own.append(value)
            else:
                extras.append(value)
        return A.DeckType(name, suits, ranks, tuple(own), tuple(extras), False, self.sp(meta),
                          display=shown, copies=tuple(copies), shown_as=shown_as,
                          shown_span=shown_span)

    def copy_part(self, meta, c):
        return (str(c[0]), str(c[1]) if c[1] is not None else None, self.sp(meta))

    def copies_in(self, meta, c):
        return tuple((str(t), _tspan(self.file, t)) for t in c)

    def copies_item(self, meta, c):
        count, parts, where = c[0], c[1:-1], c[-1]
        return ("copies", A.DeckCopies(int(count), tuple(parts), where or (),
                                       _tspan(self.file, count)))

    def shown_as_item(self, meta, c):
        return ("shown_as", (_unquote(c[0]), _tspan(self.file, c[0])))

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
    def bottom_face_up(self, meta, c): return "bottom"     # (the trump under a stock)
    def seen_owner(self, meta, c): return "owner"
    def size_hidden(self, meta, c): return "size_hidden"
    def not_shown(self, meta, c): return ("shown", "no")
    def shown_in_use(self, meta, c): return ("shown", "in use")

    def zone_decl(self, meta, c):
        props = list(c[2:])
        vis = [p for p in props if p in ("everyone", "nobody", "top", "bottom", "owner")]
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

    def zone_keyed_decl(self, meta, c):
        """``zone foundation per suit: ...``: one zone for now, named as the family; the checker
        makes it one zone for each suit (rank) of the deck, which the parser does not know."""
        one = self.zone_decl(meta, [c[0]] + list(c[2:]))
        return attrs_evolve(one, keyed=c[1])

    def key_suit(self, meta, c):
        return "suit"

    def key_rank(self, meta, c):
        return "rank"

    def var_set_decl(self, meta, c):
        """``var named: set of suits [per player]``: a set of values, empty at first (a number
        0: the set is kept as one bit per value)."""
        name, display, elem, per = c
        return A.Var(str(name), f"set of {elem}", bool(per), A.Int(0, self.sp(meta)), False,
                     self.sp(meta), display=_unquote(display) if display is not None else None)

    def per_player_mark(self, meta, c):
        return True

    def var_team_decl(self, meta, c):
        """``var points[: TYPE] per team [= VALUE]``: one value per team, 0 unless given."""
        name, display, typ, init = c
        return A.Var(str(name), str(typ) if typ is not None else None, True,
                     init if init is not None else A.Int(0, self.sp(meta)), False, self.sp(meta),
                     display=_unquote(display) if display is not None else None, per_team=True)

    def var_team_set_decl(self, meta, c):
        """``var named: set of suits per team``: a set of values per team, empty at first."""
        name, display, elem = c
        return A.Var(str(name), f"set of {elem}", True, A.Int(0, self.sp(meta)), False,
                     self.sp(meta), display=_unquote(display) if display is not None else None,
                     per_team=True)

    def teams_fixed(self, meta, c):
        return ("fixed", tuple(c))

    def teams_opposite(self, meta, c):
        return ("opposite", ())

    def teams_formed(self, meta, c):
        return ("formed", ())

    def team_seats(self, meta, c):
        return tuple(int(x) for x in c)

    def teams_decl(self, meta, c):
        kind, seats = c[0]
        return A.Teams(kind, seats, self.sp(meta))

    def values_decl(self, meta, c):
        return A.ValueSet(str(c[0]), tuple(c[1:]), self.sp(meta))

    def value_def(self, meta, c):
        return (str(c[0]), _unquote(c[1]) if c[1] is not None else None, self.sp(meta))

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

    def progress_decl(self, meta, c):
        return A.Progress(c[0], False, self.sp(meta))

    def returns_decl(self, meta, c):
        return A.Returns(c[0], False, self.sp(meta))

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

