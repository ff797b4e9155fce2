"""The rulebook's parts and the words of the language's values (``rulelang rulebook``).

:class:`Item`, :class:`Table`, :class:`Section` and :class:`Rulebook` are the document that
:func:`rulelang.cli.rulebook.build` makes; :class:`ExprWords` says every expression of the
language in English, in the rule file's own names (its statements are
:class:`rulelang.cli.rulebook_stmt.Words`).  Nothing here names a particular game.
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulelang.check import ir
from rulelang.engine.display_names import humanize, title
from rulelang.kinds import FLAG
from rulelang.syntax import ast as A

@attrs.frozen
class Item:
    """One entry of a list: an optional label (shown in bold), its text, the entries under it."""
    text: str
    label: str = ""
    children: tuple = ()


@attrs.frozen
class Table:
    header: tuple
    rows: tuple


@attrs.frozen
class Section:
    """A heading and its blocks: a paragraph (a ``str``), a list (a tuple of :class:`Item`) or a
    :class:`Table`.  ``level`` 2 is a section, 3 a part of one."""
    title: str
    blocks: tuple
    level: int = 2


@attrs.frozen
class Rulebook:
    title: str
    sections: tuple

    def section(self, title: str) -> Optional[Section]:
        for s in self.sections:
            if s.title == title:
                return s
        return None


# ---------------------------------------------------------------------------------------------
# Words for the parts of the language
# ---------------------------------------------------------------------------------------------

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least"}
_ARITH = {"+": "+", "-": "−", "*": "×"}


def _bound_names(node) -> set:
    """The names an expression binds inside itself (``any number n``, ``rank r with ...``)."""
    out = set()

    def walk(x):
        if isinstance(x, (A.AnyNumber, A.ArgBest, A.PickValue)):
            out.add(x.name)
        if isinstance(x, tuple):
            for y in x:
                walk(y)
        elif attrs.has(type(x)):
            for f in attrs.fields(type(x)):
                if f.name != "span":
                    walk(getattr(x, f.name))
    walk(node)
    return out


def _join(words, last="and"):
    words = list(words)
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


_YOU_VERBS = {"wins": "win", "loses": "lose", "leaves": "leave", "chooses": "choose",
              "becomes": "become", "is": "are", "has": "have", "does": "do"}


def _subject(who: str, verb: str) -> str:
    """``Player 2 wins``, ``you win``."""
    if who == "you":
        return f"you {_YOU_VERBS.get(verb, verb)}"
    return f"{who} {verb}"


class ExprWords:
    """The expressions of one model in English (a name's meaning from the checker's references)."""

    def __init__(self, model, decls):
        self.m = model
        self.defines = {d.name: d for d in decls if isinstance(d, A.Define)}
        self.used_defines: list = []
        self.deck_types = model.deck_types
        self.locals: list = []         # the names local to the define being told

    # ---- names ------------------------------------------------------------------------------
    def zone_name(self, name: str) -> str:
        z = self.m.zones.get(name)
        if z is not None and getattr(z, "display", None):
            return z.display
        if z is not None and z.family is not None:
            fam, k, _first, _last = z.family
            if z.keyed is not None:          # by suit or rank: its name ends with the key's
                return f"{title(fam)} {name[len(fam) + 1:]}"
            return f"{title(fam)} {k}"
        return title(name)

    def var_name(self, name: str) -> str:
        if name in (A.TEAM, A.PARTNER):     # the values a game with teams keeps itself
            return name.strip("()")
        v = self.m.vars.get(name)
        if v is not None and getattr(v.decl, "display", None):
            return v.decl.display
        return humanize(name)

    def option_name(self, name: str) -> str:
        o = self.m.options.get(name)
        if o is not None and o.decl.display:
            return f"the option “{o.decl.display}”"
        return f"the option “{humanize(name)}”"

    def rule_name(self, name: str) -> str:
        return {"turn": "A turn", "setup": "Setup"}.get(name) or title(name)

    def define_name(self, name: str) -> str:
        return f"‘{humanize(name)}’"

    def rank_name(self, name: str) -> str:
        return self.m.rank_texts.get(name, humanize(name))

    def suit_name(self, name: str) -> str:
        return self.m.suit_texts.get(name, humanize(name))

    def card_name(self, name: str) -> str:
        for dt in self.deck_types.values():
            for n, text in getattr(dt, "display", ()) or ():
                if n == name:
                    return text
        return humanize(name)

    def kind(self, e):
        return self.m.types.of(e, None)

    def of_player(self, what: str, p: A.Expr) -> str:
        """``the Hand of Player 2``, ``your Hand``."""
        if isinstance(p, A.Keyword) and p.word == "you":
            return f"your {what}"
        the = "" if what.lower().startswith("the ") else "the "
        return f"{the}{what} of {self.expr(p)}"

    def define_body(self, d) -> str:
        params = [p[0] if isinstance(p, tuple) else str(p) for p in d.params]
        self.locals.append(set(params) | {"card", "player"} | _bound_names(d.body))
        try:
            return self.expr(d.body)
        finally:
            self.locals.pop()

    # ---- expressions ------------------------------------------------------------------------
    def expr(self, e) -> str:
        f = getattr(self, "expr_" + type(e).__name__, None)
        if f is None:
            return "(" + humanize(type(e).__name__) + ")"
        return f(e)

    def cond(self, e) -> str:
        """An expression used as a condition: a yes/no variable or option says "is yes"."""
        if isinstance(e, (A.Name, A.Of)) and self.flag(e) \
                and not isinstance(self.ref(e), ir.DefineUse):
            ref = self.ref(e)
            if isinstance(ref, ir.Const) and isinstance(e, A.Name) and e.name in self.m.options:
                return f"{self.option_name(e.name)} is on"
            return f"{self.expr(e)} is yes"
        return self.expr(e)

    def negated(self, e) -> str:
        """The condition ``e`` not holding, in words."""
        if isinstance(e, A.IsEmpty):
            return f"{self.expr(e.zone)} is " + ("empty" if e.negate else "not empty")
        if isinstance(e, A.Compare):
            flip = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
            return self.expr(A.Compare(flip[e.op], e.left, e.right, e.span))
        if isinstance(e, A.Unary) and e.op == "not":
            return self.cond(e.operand)
        if isinstance(e, A.IsOut):
            return self.expr(A.IsOut(e.player, not e.negate, e.span))
        return f"not ({self.cond(e)})"

    def sub(self, e) -> str:
        """An operand: an expression of several words in parentheses where that could mislead."""
        s = self.expr(e)
        if isinstance(e, (A.BoolOp, A.Arith, A.Compare)) or (
                isinstance(e, A.Unary) and e.op == "not"):
            return f"({s})"
        return s

    def expr_Int(self, e):
        return str(e.value)

    def expr_Text(self, e):
        return f"“{e.value}”"

    def expr_Bool(self, e):
        return "yes" if e.value else "no"

    def expr_NoneLit(self, e):
        return "none"

    def expr_CardsIn(self, e):
        return f"the cards in {self.expr(e.zone)}"

    def expr_Keyword(self, e):
        return {"you": "you", "current player": "the current player",
                "next player": "the player after you",
                "previous player": "the player before you",
                "random player": "a player chosen at random",
                "players": "the players", "opponents": "your opponents",
                "number of players": "the number of players",
                "number of turns": "the number of turns played so far"}.get(e.word, e.word)

    def expr_Seat(self, e):
        return f"Player {e.number}"

    def expr_Unary(self, e):
        x = self.expr(e.operand)
        op = e.op
        if op == "player after":
            return f"the player after {x}"
        if op == "player before":
            return f"the player before {x}"
        if op == "rank after":
            return f"the rank after {x}"
        if op == "rank before":
            return f"the rank before {x}"
        if op == "top":
            return f"the top card of {x}"
        if op == "bottom":
            return f"the bottom card of {x}"
        if op == "size":
            kind = str(self.m.types.of(e.operand, ""))
            if kind.startswith("set of "):             # a local holding a set
                return f"the number of {kind[len('set of '):]} in {x}"
            return f"the number of cards in {x}"
        if op == "score":
            return f"the score of {x}"
        if op == "random card":
            return f"a card of {x} chosen at random"
        if op == "not":
            o = e.operand
            if isinstance(o, (A.Name, A.Of)) and self.flag(o) \
                    and not isinstance(self.ref(o), ir.DefineUse):
                if isinstance(o, A.Name) and o.name in self.m.options:
                    return f"{self.option_name(o.name)} is off"
                return f"{self.expr(o)} is no"
            return f"not {self.sub(o)}" if not isinstance(o, (A.Name, A.Call)) \
                else f"not {self.cond(o)}"
        if op == "neg":
            return f"minus {self.sub(e.operand)}"
        return f"{op} {x}"

    def attr_name(self, name: str) -> str:
        return "rank" if name == "rank" else humanize(name)

    def expr_TotalOf(self, e):
        return f"the total {self.attr_name(e.attribute)} of the cards in {self.expr(e.zone)}"

    def expr_MeldLeft(self, e):
        s = (f"the least total {self.attr_name(e.attribute)} of the cards in {self.expr(e.zone)} "
             "left outside sets and runs (a set: three or more cards of one rank; a run: three or "
             "more cards of one suit with consecutive ranks; the sets and runs may not share a "
             "card; they are chosen to leave the least total outside")
        if e.lay_off is not None:
            s += f"; the cards may also join the sets and runs of {self.expr(e.lay_off)}"
        return s + ")"

    def expr_Combos(self, e):
        z = self.expr(e.zone)
        if e.kind == "sum":
            return (f"the number of combinations of the cards in {z} (of one card or more, each "
                    f"card at most once) with a total {self.attr_name(e.attribute)} of "
                    f"{self.expr(e.target)}")
        if e.kind == "run":
            return (f"the length of the longest run in {z} (the most ranks held one after the "
                    "other, without going round)")
        if e.kind == "runs":
            return (f"the number of ways {z} makes its longest run (one card of each rank of "
                    "the run: a rank held twice makes it twice)")
        if e.kind == "pairs":
            return (f"the number of pairs of cards of one rank in {z} (three of a rank make "
                    "three pairs, four make six)")
        return f"the most cards of one {e.kind} in {z}"

    def expr_Roll(self, e):
        return f"a roll of a {e.sides}-sided die (1 to {e.sides})"

    def expr_CardQuery(self, e):
        z = self.expr(e.zone)
        always = isinstance(e.condition, A.Bool) and e.condition.value   # `where true`
        c = self.cond(e.condition) if e.condition is not None and not always else None
        if e.kind == "any":
            return f"there is a card (call it card) in {z} for which {c}" if c else \
                f"{z} is not empty"
        if e.kind == "no":
            return f"there is no card (call it card) in {z} for which {c}" if c else \
                f"{z} is empty"
        if c:
            return f"the number of cards (each called card) in {z} for which {c}"
        return f"the number of cards in {z}"

    def expr_IsOut(self, e):
        return f"{self.expr(e.player)} " + ("is still in the game" if e.negate
                                            else "is out of the game")

    def expr_AnyNumber(self, e):
        return (f"there is a whole number {humanize(e.name)} from {self.expr(e.low)} to {self.expr(e.high)} "
                f"for which {self.cond(e.condition)}")

    def expr_PlayerQuery(self, e):
        c = self.cond(e.condition)
        k = e.kind
        among = "the players still in the game"
        always = isinstance(e.condition, A.Bool) and e.condition.value
        if always and k == "count":         # `count players where true`: no "for whom yes"
            return "the number of players still in the game"
        if always and k in ("any", "no"):
            return ("there is a player still in the game" if k == "any"
                    else "there is no player still in the game")
        if always and k == "next":          # the first player after you still in the game
            return "the player after you"
        if k == "any":
            return f"there is a player (call them player) among {among} for whom {c}"
        if k == "no":
            return f"there is no player (call them player) among {among} for whom {c}"
        if k == "count":
            return f"the number of players still in the game (each called player) for whom {c}"
        if k == "next":
            return (f"the first player after you, in the order of play and still in the game, "
                    f"(call them player) for whom {c}, or none when there is none")
        if k in ("highest", "lowest", "total"):
            who = among + (f" (each called player) for whom {self.cond(e.where)}"
                           if e.where is not None else " (each called player)")
            if k == "total":
                return f"the total of {c} over {who}"
            return f"the {k} value of {c} among {who} (0 when there is nobody)"
        if k == "each":
            return "each player still in the game" + (
                "" if isinstance(e.condition, A.Bool) and e.condition.value
                else f" (call them player) for whom {c}")
        if k == "others":
            return "each of your opponents still in the game" + (
                "" if isinstance(e.condition, A.Bool) and e.condition.value
                else f" (call them player) for whom {c}")
        return f"{k} player where {c}"

    def expr_PlayedBy(self, e):
        return f"the player who played {self.expr(e.card)} to the table"

    def expr_Holder(self, e):
        return (f"the player who has {self.expr(e.card)} in one of their own zones "
                "(none when it lies in a shared zone)")

    def expr_CardLit(self, e):
        return e.text

    def expr_PilePlace(self, e):
        z = self.expr(e.zone)
        if e.kind in ("from top", "from bottom"):
            end = e.kind.split()[1]
            return (f"the card at place {self.expr(e.at)} from the {end} of {z} (1 is its {end} "
                    "card; none when it has fewer)")
        where = "directly under" if e.kind == "under" else "directly on top of"
        return (f"the card {where} {self.expr(e.at)} in {z} (none when there is none, or when "
                f"{self.expr(e.at)} is not in {z})")

    def expr_AmongCards(self, e):
        z = self.expr(e.zone)
        where = f" for which {self.cond(e.condition)}" if e.condition is not None else ""
        if e.value is None:
            end = "lowest" if e.kind == "first card" else "topmost"
            return f"the {end} card (called card) in {z}{where} (none when there is none)"
        v = self.expr(e.value)
        if e.kind == "total":
            return f"the total of {v} over the cards (each called card) in {z}{where}"
        if e.kind in ("highest card", "lowest card"):
            hl = e.kind.split()[0]
            return (f"the card (called card) in {z}{where} with the {hl} value of {v} (the first from the "
                    f"bottom among equals; none when there is none)")
        return (f"the {e.kind} value of {v} among the cards (each called card) in {z}{where} (0 "
                "when none)")

    def expr_ArgBest(self, e):
        return (f"the {e.of} (call it {humanize(e.name)}) with the {e.kind} value of {self.expr(e.value)} (the first "
                f"in the deck's order among equals)")

    def expr_PickValue(self, e):
        if e.of == "rank":
            rng = f"the {e.kind} rank {humanize(e.name)}"
        else:
            rng = f"the {e.kind} whole number {humanize(e.name)} from {self.expr(e.low)} to {self.expr(e.high)}"
        return f"{rng} for which {self.cond(e.condition)} (0 when there is none)"

    def ref(self, e):
        """The checker's reference of a name; in a define's body (which the checker checks only
        where it is used), the name's meaning is found by the name itself."""
        ref = self.m.refs.of(e, None)
        if ref is not None or not self.locals:
            return ref
        n = e.name
        if isinstance(e, A.Name):
            if n in self.locals[-1]:
                return ir.Local(0)
            z = self.m.zones.get(n)
            if z is not None:
                return ir.Zone(n, z.per_player, -1)
            v = self.m.vars.get(n)
            if v is not None:
                return ir.Var(n, v.decl.per_player, -1)
            if n in self.defines:
                return ir.DefineUse(None)
            if n in self.m.card_names:
                return ir.CardName(n)
            if n in self.m.options or n in self.m.ranks or n in self.m.suits:
                return ir.Const(0)
            return None
        if isinstance(e, A.Of):
            if n in self.m.zones:
                return ir.ZoneOf(n)
            if n in self.m.vars:
                return ir.VarOf(n)
            if n == "rank":
                return ir.Rank()
            if n == "suit":
                return ir.Suit()
            if n in self.m.attributes:
                return ir.Attribute(n)
        return None

    def flag(self, e) -> bool:
        """Whether a name or ``X of P`` is a yes/no value."""
        k = self.kind(e)
        if k is not None:
            return k == FLAG
        if isinstance(e, A.Name):
            if e.name in self.m.options:
                return isinstance(self.m.options[e.name].value, bool)
            if e.name in self.m.vars and not (self.locals and e.name in self.locals[-1]):
                return self.m.vars[e.name].type == FLAG
        if isinstance(e, A.Of) and e.name in self.m.vars:
            return self.m.vars[e.name].type == FLAG
        return False

    def expr_Name(self, e):
        ref = self.ref(e)
        n = e.name
        if isinstance(ref, (ir.Local, ir.Slot)):
            return humanize(n)
        if isinstance(ref, ir.Zone):
            z = self.zone_name(n)
            if ref.per_player:
                return "your " + z
            return z if z.lower().startswith("the ") else "the " + z
        if isinstance(ref, ir.Var):
            return ("your " if ref.per_player else "") + self.var_name(n)
        if isinstance(ref, ir.DefineUse):
            if n not in self.used_defines:
                self.used_defines.append(n)
            return self.define_name(n)
        if isinstance(ref, ir.CardName):
            return self.card_name(n)
        if n in self.m.options and isinstance(ref, ir.Const):
            return self.option_name(n)
        if n in self.m.ranks and isinstance(ref, ir.Const):
            return self.rank_name(n)
        if n in self.m.suits and isinstance(ref, ir.Const):
            return self.suit_name(n)
        return humanize(n)

    def expr_Of(self, e):
        ref = self.ref(e)
        if e.name == A.TEAM:
            return self.of_player("team", e.operand)
        if isinstance(ref, ir.VarOf) and ref.name == A.PARTNER:
            return self.of_player("partner", e.operand)
        if e.name == "out" and self.m.players_leave and "out" not in self.m.vars:
            return (f"the order in which {self.expr(e.operand)} left the game (1 for the first "
                    f"to leave; 0 while still in it)")
        if isinstance(ref, ir.Rank):
            return f"the rank of {self.expr(e.operand)}"
        if isinstance(ref, ir.Suit):
            return f"the suit of {self.expr(e.operand)}"
        if isinstance(ref, ir.Attribute):
            return f"the {humanize(e.name)} of {self.expr(e.operand)}"
        if isinstance(ref, ir.ZoneOf):
            return self.of_player(self.zone_name(e.name), e.operand)
        if isinstance(ref, ir.VarOf):
            return self.of_player(self.var_name(e.name), e.operand)
        if e.name == "out":
            return f"the order in which {self.expr(e.operand)} left the game (0 while in it)"
        return f"the {humanize(e.name)} of {self.expr(e.operand)}"

    def expr_Call(self, e):
        ref = self.m.refs.of(e, None)
        args = [self.expr(a) for a in e.args]
        if isinstance(ref, ir.ZoneFamily):
            z = self.m.zones.get(ref.names[0])
            fam = title(z.family[0]) if z is not None and z.family is not None else title(e.name)
            what = (f"the {fam} of {args[0] if args else '?'}" if z is not None and z.keyed
                    else f"{fam} number {args[0] if args else '?'}")
            if e.owner is not None:
                return self.of_player(what, e.owner)
            return ("your " if ref.per_player else "") + what
        if ref is None and self.locals:
            fam = [(z.family[1], n, z.per_player) for n, z in self.m.zones.items()
                   if z.family is not None and z.family[0] == e.name]
            if fam:
                fam.sort()
                ref = ir.ZoneFamily(tuple(n for _k, n, _p in fam), fam[0][0], fam[0][2])
        if e.name in self.m.rules:
            return f"the value that {self.call_words(e.name, e.args)} gives"
        if e.name not in self.used_defines:
            self.used_defines.append(e.name)
        return f"{self.define_name(e.name)}({', '.join(args)})" if args else self.define_name(e.name)

    def expr_BoolOp(self, e):
        word = " and " if e.op == "and" else " or "
        parts = []
        for it in e.items:
            s = self.cond(it)
            if isinstance(it, A.BoolOp) or (isinstance(it, A.Cases)):
                s = f"({s})"
            parts.append(s)
        return ("either " if e.op == "or" else "") + word.join(parts) if len(parts) > 1 \
            else word.join(parts)

    def expr_Compare(self, e):
        return f"{self.sub(e.left)} {_COMPARE.get(e.op, e.op)} {self.sub(e.right)}"

    def expr_InSet(self, e):
        return f"{self.expr(e.item)} is {'not ' if e.negate else ''}one of {self.expr(e.coll)}"

    def expr_SetSize(self, e):
        kind = str(self.m.types.of(e.coll, "set of values"))
        what = kind[len("set of "):] if kind.startswith("set of ") else "values"
        return f"the number of {what} in {self.expr(e.coll)}"

    def expr_IsEmpty(self, e):
        return f"{self.expr(e.zone)} is " + ("not empty" if e.negate else "empty")

    def expr_Arith(self, e):
        a, b = self.sub(e.left), self.sub(e.right)
        if e.op == "/":
            return f"{a} divided by {b} (a whole number, rounded down)"
        if e.op == "mod":
            return f"the remainder of {a} divided by {b} (with the sign of {b})"
        return f"{a} {_ARITH.get(e.op, e.op)} {b}"

    def expr_Cases(self, e):
        parts = [f"{self.sub(v)} if {self.cond(c)}" for v, c in e.cases]
        return "(" + "; ".join(parts) + f"; otherwise {self.sub(e.default)})"

    def expr_Expanded(self, e):
        return self.expr(e.body)

    def expr_Arg(self, e):
        return self.expr(e.expr)

    # ---- whole sets of values (docs/language.md, "Writing and combining sets") ----------------
    def set_what(self, e) -> str:
        """What a set holds, in the plural: "suits", "ranks", "players", "values"."""
        kind = str(self.m.types.of(e, "set of values"))
        return kind[len("set of "):] if kind.startswith("set of ") else "values"

    def expr_SetWhole(self, e):
        if e.which == "none":
            return f"no {e.word} (an empty set)"
        return f"every {e.word}"

    def expr_SetOfCards(self, e):
        return f"the {self.set_what(e)} of the cards in {self.expr(e.zone)} (each once)"

    def expr_SetCombine(self, e):
        a, b = self.set_part(e.left), self.set_part(e.right)
        if e.op == "together":
            return f"{a} together with {b}"
        if e.op == "shared":
            return f"the {self.set_what(e)} both in {a} and in {b}"
        return f"{a} without {b}"

    def set_part(self, e) -> str:
        """A side of a combination (a set, or one value: the set of it alone), in parentheses
        when it is a combination too."""
        s = self.sub(e)
        return f"({s})" if isinstance(e, A.SetCombine) else s

    def expr_SetValues(self, e):
        parts = [self.sub(i) for i in e.items]
        return ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]
