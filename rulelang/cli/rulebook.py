"""A rule file as a rulebook a person can read and play from (``rulelang rulebook``).

:func:`build` turns a checked model into a :class:`Rulebook` (sections of paragraphs, lists and
tables, in plain English); :func:`to_markdown` and :func:`to_html` write it out.  Everything is
said in the rule file's own words: its display names (``zone stock "Draw Pile"``), its labels
and ``say`` texts, and its identifiers with the underscores read as spaces; nothing here is
written for one game.  Every statement and expression of the language has its sentence here, so
the rulebook holds every condition, effect, ending and scoring rule of the file.

Everything here returns values; only the command (:mod:`rulelang.cli.rulebook_cmd`) prints.  The
texts of a rule file are untrusted: :func:`to_html` escapes them for HTML and both writers pass
them through :func:`rulelang.termsafe.safe`.
"""
from __future__ import annotations

import html
import re
from typing import Optional

import attrs

from rulelang.check import ir
from rulelang.engine.display_names import humanize, title
from rulelang.kinds import CARD, FLAG, PLAYER, SUIT
from rulelang.syntax import ast as A
from rulelang.termsafe import safe


# ---------------------------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------------------------

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


def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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


class _Words:
    """Expressions and statements of one model in English."""

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
            return f"{title(fam)} {k}"
        return title(name)

    def var_name(self, name: str) -> str:
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
        f = getattr(self, "x_" + type(e).__name__, None)
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

    def x_Int(self, e):
        return str(e.value)

    def x_Text(self, e):
        return f"“{e.value}”"

    def x_Bool(self, e):
        return "yes" if e.value else "no"

    def x_NoneLit(self, e):
        return "none"

    def x_CardsIn(self, e):
        return f"the cards in {self.expr(e.zone)}"

    def x_Keyword(self, e):
        return {"you": "you", "current player": "the current player",
                "next player": "the player after you",
                "previous player": "the player before you",
                "random player": "a player chosen at random",
                "players": "the players", "opponents": "your opponents",
                "number of players": "the number of players",
                "number of turns": "the number of turns played so far"}.get(e.word, e.word)

    def x_Seat(self, e):
        return f"Player {e.number}"

    def x_Unary(self, e):
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

    def x_TotalOf(self, e):
        return f"the total {self.attr_name(e.attribute)} of the cards in {self.expr(e.zone)}"

    def x_MeldLeft(self, e):
        s = (f"the least total {self.attr_name(e.attribute)} of the cards in {self.expr(e.zone)} "
             "left outside sets and runs (a set: three or more cards of one rank; a run: three or "
             "more cards of one suit with consecutive ranks; the sets and runs may not share a "
             "card; they are chosen to leave the least total outside")
        if e.lay_off is not None:
            s += f"; the cards may also join the sets and runs of {self.expr(e.lay_off)}"
        return s + ")"

    def x_Roll(self, e):
        return f"a roll of a {e.sides}-sided die (1 to {e.sides})"

    def x_CardQuery(self, e):
        z = self.expr(e.zone)
        c = self.cond(e.condition) if e.condition is not None else None
        if e.kind == "any":
            return f"there is a card (call it card) in {z} for which {c}" if c else \
                f"{z} is not empty"
        if e.kind == "no":
            return f"there is no card (call it card) in {z} for which {c}" if c else \
                f"{z} is empty"
        if c:
            return f"the number of cards (each called card) in {z} for which {c}"
        return f"the number of cards in {z}"

    def x_IsOut(self, e):
        return f"{self.expr(e.player)} " + ("is still in the game" if e.negate
                                            else "is out of the game")

    def x_AnyNumber(self, e):
        return (f"there is a whole number {humanize(e.name)} from {self.expr(e.low)} to {self.expr(e.high)} "
                f"for which {self.cond(e.condition)}")

    def x_PlayerQuery(self, e):
        c = self.cond(e.condition)
        k = e.kind
        among = "the players still in the game"
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

    def x_Holder(self, e):
        return (f"the player who has {self.expr(e.card)} in one of their own zones "
                "(none when it lies in a shared zone)")

    def x_CardLit(self, e):
        return e.text

    def x_AmongCards(self, e):
        z = self.expr(e.zone)
        where = f" for which {self.cond(e.condition)}" if e.condition is not None else ""
        v = self.expr(e.value)
        if e.kind == "total":
            return f"the total of {v} over the cards (each called card) in {z}{where}"
        if e.kind in ("highest card", "lowest card"):
            hl = e.kind.split()[0]
            return (f"the card (called card) in {z}{where} with the {hl} value of {v} (the first from the "
                    f"bottom among equals; none when there is none)")
        return (f"the {e.kind} value of {v} among the cards (each called card) in {z}{where} (0 "
                "when none)")

    def x_ArgBest(self, e):
        return (f"the {e.of} (call it {humanize(e.name)}) with the {e.kind} value of {self.expr(e.value)} (the first "
                f"in the deck's order among equals)")

    def x_PickValue(self, e):
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

    def x_Name(self, e):
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

    def x_Of(self, e):
        ref = self.ref(e)
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

    def x_Call(self, e):
        ref = self.m.refs.of(e, None)
        args = [self.expr(a) for a in e.args]
        if isinstance(ref, ir.ZoneFamily):
            z = self.m.zones.get(ref.names[0])
            fam = title(z.family[0]) if z is not None and z.family is not None else title(e.name)
            what = f"{fam} number {args[0] if args else '?'}"
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

    def x_BoolOp(self, e):
        word = " and " if e.op == "and" else " or "
        parts = []
        for it in e.items:
            s = self.cond(it)
            if isinstance(it, A.BoolOp) or (isinstance(it, A.Cases)):
                s = f"({s})"
            parts.append(s)
        return ("either " if e.op == "or" else "") + word.join(parts) if len(parts) > 1 \
            else word.join(parts)

    def x_Compare(self, e):
        return f"{self.sub(e.left)} {_COMPARE.get(e.op, e.op)} {self.sub(e.right)}"

    def x_IsEmpty(self, e):
        return f"{self.expr(e.zone)} is " + ("not empty" if e.negate else "empty")

    def x_Arith(self, e):
        a, b = self.sub(e.left), self.sub(e.right)
        if e.op == "/":
            return f"{a} divided by {b} (a whole number, rounded down)"
        if e.op == "mod":
            return f"the remainder of {a} divided by {b} (with the sign of {b})"
        return f"{a} {_ARITH.get(e.op, e.op)} {b}"

    def x_Cases(self, e):
        parts = [f"{self.sub(v)} if {self.cond(c)}" for v, c in e.cases]
        return "(" + "; ".join(parts) + f"; otherwise {self.sub(e.default)})"

    def x_Expanded(self, e):
        return self.expr(e.body)

    def x_Arg(self, e):
        return self.expr(e.expr)

    # ---- statements -------------------------------------------------------------------------
    def body(self, stmts, where: str = "") -> tuple:
        """Items for a block of statements."""
        out = []
        for st in stmts:
            out.extend(self.stmt(st, where))
        return tuple(out)

    def stmt(self, st, where: str = "") -> list:
        f = getattr(self, "s_" + type(st).__name__, None)
        if f is None:
            return [Item(humanize(type(st).__name__) + ".")]
        r = f(st, where)
        return r if isinstance(r, list) else [r]

    def s_Shuffle(self, st, where):
        return Item(f"Shuffle {self.expr(st.zone)}.")

    def s_Deal(self, st, where):
        src = self.expr(st.source)
        start = self.expr(st.start) if st.start is not None else "the current player"
        zone = self.zone_name(st.zone)
        if st.count is None:
            return Item(f"Deal all the cards of {src} to the {zone} of each player still in the "
                        f"game, one card at a time from the top, round the table in the direction "
                        f"of play starting with {start}, until {src} is empty (so the first "
                        f"players may get one card more).")
        return Item(f"Deal {self.expr(st.count)} cards from {src} to the {zone} of each player "
                    f"still in the game: one card at a time from the top, round the table in the "
                    f"direction of play starting with {start}, {self.expr(st.count)} times round "
                    f"(a player who is out gets none; when {src} runs out, the deal stops).")

    def selection(self, sel, src) -> str:
        k = sel.kind
        x = self.expr(sel.expr) if sel.expr is not None else ""
        if k == "top":
            return f"the top card of {src}"
        if k == "bottom":
            return f"the bottom card of {src}"
        if k == "random":
            return f"a card of {src} chosen at random"
        if k == "all":
            return f"all the cards of {src}"
        if k == "all_but_top":
            return f"all the cards of {src} but its top card"
        if k == "where":
            return f"all the cards (each called card) of {src} for which {self.cond(sel.expr)}"
        if k == "count":
            return f"{x} cards from the top of {src}, one at a time"
        if k == "card":
            return f"{x} from {src}"
        if k == "count_where":
            return (f"exactly {x} cards (each called card) of {src} for which "
                    f"{self.cond(sel.condition)}, the topmost first, one at a time (when there "
                    f"are fewer, the game stops with an error)")
        if k == "upto_where":
            return (f"up to {x} cards (each called card) of {src} for which "
                    f"{self.cond(sel.condition)}, the topmost first, one at a time (as many as "
                    f"there are, at most {x})")
        if k == "and_above":
            return f"{x} and every card on top of it in {src}, together"
        return f"{humanize(k)} {x} of {src}"

    def s_Move(self, st, where):
        src = self.expr(st.source)
        what = self.selection(st.selection, src)
        dest = self.expr(st.dest)
        s = f"Move {what} " + (f"to the bottom of {dest}" if st.to_bottom else f"onto {dest}")
        k = st.selection.kind
        if st.turned_over:
            s += ", turned over"
        if k in ("count", "count_where", "upto_where"):
            s += (" (turned over: they arrive in the order they had)" if st.turned_over else
                  " (one at a time: each card taken goes on top of the one before, so their "
                  "order is reversed)")
        elif k in ("all", "all_but_top", "where", "and_above"):
            s += (" (lifted together and turned over: their order is reversed)" if st.turned_over
                  else " (lifted together: they keep their order)")
        if k == "card":
            s += f" (if it is not in {src}, the game stops with an error)"
        return Item(s + ".")

    def s_Assign(self, st, where):
        t = st.target
        if isinstance(t, A.Keyword) and t.word == "current player":
            return Item(_cap(_subject(self.expr(st.value), "becomes")) + " the current player"
                        + (" (and so “you” for the rest of the setup)" if where == "setup" else "")
                        + ".")
        tv, v = self.expr(t), self.expr(st.value)
        if st.op == "set":
            return Item(f"Set {tv} to {v}.")
        if st.op == "add":
            return Item(f"Add {v} to {tv}.")
        return Item(f"Subtract {v} from {tv}.")

    def s_Let(self, st, where):
        if st.name == A.RESULT:
            return Item(f"The result is {self.expr(st.value)}.")
        return Item(f"Let {humanize(st.name)} be {self.expr(st.value)}.")

    def s_Simple(self, st, where):
        w = st.word
        if w == "stop":
            return Item("Stop the loop this is in (go on after it).")
        if w == "return":
            if where == "turn":
                return Item("The turn ends here.")
            if where == "setup":
                return Item("The setup ends here.")
            return Item("Stop this rule here (go back to where it was used).")
        if w == "pass":
            return Item("Nothing happens.")
        if w == "end turn":
            return Item("The turn ends at once.")
        if w == "skip":
            return Item("The next player in turn order loses their next turn (is skipped).")
        if w == "reverse":
            return Item("The direction of play reverses.")
        return Item(humanize(w) + ".")

    def s_EndGame(self, st, where):
        k = st.kind
        if k == "winner":
            return Item(f"The game ends: {_subject(self.expr(st.player), 'wins')}; every other "
                        "player loses.")
        if k == "loser":
            return Item(f"The game ends: {_subject(self.expr(st.player), 'loses')}; every other "
                        "player wins.")
        if k == "draw":
            return Item("The game ends with no winner: a draw for every player.")
        if k in ("highest", "lowest"):
            return Item(f"The game ends: the player with the {k} score wins (every player who "
                        f"ties for the {k} score wins); every other player loses.")
        if k == "where":
            w = self.cond(st.winners) if st.winners is not None else "no"
            s = (f"The game ends: each player (in or out; call them player) for whom {w} wins; ")
            if st.losers is not None:
                s += (f"of the others, each one for whom {self.cond(st.losers)} loses, and the "
                      "rest draw.")
            else:
                s += "every other player loses."
            return Item(s)
        return Item(f"The game ends ({humanize(k)}).")

    def s_NextTurn(self, st, where):
        return Item(f"The next turn goes to {self.expr(st.player)} (when they are out of the game, "
                    f"to the first player still in after them).")

    def call_words(self, name, args, for_player=None) -> str:
        rule = self.m.rules.get(name)
        params = [p[0] if isinstance(p, tuple) else str(p) for p in
                  (rule.decl.params if rule is not None else ())]
        s = f"“{self.rule_name(name)}”"
        if args:
            params = [humanize(p) for p in params]
            pairs = [(p if self.expr(a) == p else f"{p} = {self.expr(a)}")
                     for p, a in zip(params, args)] or \
                [self.expr(a) for a in args]
            s += " with " + _join(pairs)
        if for_player is not None:
            s += f", played as {self.expr(for_player)} (who is “you” in it)"
        return s

    def s_CallRule(self, st, where):
        return Item(f"Do {self.call_words(st.name, st.args, st.for_player)} (see Rules used "
                    f"below).")

    def say_parts(self, parts) -> str:
        out = []
        for p in parts:
            if isinstance(p, str):
                out.append(f"“{p}”")
            else:
                out.append(self.expr(p))
        return ", ".join(out)

    def s_Say(self, st, where):
        return Item(f"Announce: {self.say_parts(st.parts)}.")

    def s_Reveal(self, st, where):
        return Item(f"Reveal {self.expr(st.card)} to every player.")

    def s_Show(self, st, where):
        return Item(f"Show {self.expr(st.card)} to {self.expr(st.player)} alone (they remember it "
                    "while it stays in the zone it is in).")

    def s_Leave(self, st, where):
        return Item(f"{_cap(_subject(self.expr(st.player), 'leaves'))} the game (turn order, dealing and "
                    "“each player” pass over them from now on).")

    def s_If(self, st, where):
        items = []
        for i, (c, body) in enumerate(st.branches):
            head = ("If " if i == 0 else "Otherwise, if ") + self.cond(c) + ":"
            items.append(Item(head, children=self.body(body, where)))
        if st.otherwise is not None:
            items.append(Item("Otherwise:", children=self.body(st.otherwise, where)))
        return items

    def s_Loop(self, st, where):
        body = self.body(st.body, where)
        if st.kind == "while":
            head = f"Repeat the following as long as {self.cond(st.expr)} (checked before each time):"
        elif st.kind == "until":
            head = (f"Repeat the following until {self.cond(st.expr)} (checked before each time; "
                    "when it already holds, nothing is done):")
        elif st.kind == "times":
            head = f"Repeat the following {self.expr(st.expr)} times:"
        else:
            head = "Repeat the following again and again until a “stop” leaves it:"
        return Item(head, children=body)

    def s_ForPlayer(self, st, where):
        start = self.expr(st.start) if st.start is not None else "the current player"
        return Item(f"For each player still in the game (call them {humanize(st.name)}), once each, in the "
                    f"order of play starting with {start}:", children=self.body(st.body, where))

    def s_ForCard(self, st, where):
        return Item(f"For each card (call it {humanize(st.name)}) that is in {self.expr(st.zone)} when this "
                    f"begins, from the bottom card up:", children=self.body(st.body, where))

    def s_ForValue(self, st, where):
        if st.kind == "suit":
            head = f"For each suit of the deck (call it {humanize(st.name)}), in the deck's order:"
        else:
            head = (f"For each rank of the deck (call it {humanize(st.name)}), from the lowest up (the ranks "
                    "listed under The cards):")
        return Item(head, children=self.body(st.body, where))

    def param(self, p) -> str:
        if isinstance(p, A.CardsParam):
            same = f" all of one {p.same}" if p.same else ""
            where = f" for which {self.cond(p.where)}" if p.where is not None else ""
            n = self.expr(p.count)
            return (f"{n}{' or more' if p.or_more else ''} cards{same} (each called {humanize(p.name)}) of "
                    f"{self.expr(p.source)}{where}, picked one at a time (a chooser who may take "
                    f"more says when they are done), then moved together onto "
                    f"{self.expr(p.dest)}")
        where = f" for which {self.cond(p.where)}" if p.where is not None else ""
        if p.kind == "player":
            where = where.replace(" for which ", " for whom ", 1)
        if p.kind == "card":
            return f"a card (call it {humanize(p.name)}) from {self.expr(p.source)}{where}"
        if p.kind == "unseen":
            return (f"a place in {self.expr(p.source)} (counted from the bottom; the chooser does "
                    f"not see the card), and {humanize(p.name)} is the card at that place{where}")
        if p.kind == "player":
            src = self.expr(p.source) if p.source is not None else "the players"
            if isinstance(p.source, A.Keyword) and p.source.word == "players":
                src = "all the players still in the game (you too)"
            elif isinstance(p.source, A.Keyword) and p.source.word == "opponents":
                src = "your opponents still in the game"
            return f"a player (call them {humanize(p.name)}) from {src}{where}"
        if p.kind == "suit":
            return f"a suit of the deck (call it {humanize(p.name)}){where}"
        if p.kind == "rank":
            return f"a rank of the deck (call it {humanize(p.name)}){where}"
        if p.kind == "number":
            return (f"a whole number (call it {humanize(p.name)}) from {self.expr(p.source)} to "
                    f"{self.expr(p.high)}{where}")
        return f"{p.kind} {humanize(p.name)}{where}"

    def alt_label(self, alt) -> str:
        text = alt.display or humanize(alt.label)
        if alt.param is not None and alt.param.name:
            text = text.replace("{" + alt.param.name + "}", alt.param.name)
        return text

    def alternative(self, alt, where) -> Item:
        parts = []
        if alt.param is not None:
            parts.append("with " + self.param(alt.param))
        if alt.condition is not None:
            parts.append(f"allowed only if {self.cond(alt.condition)}")
        head = ("; ".join(parts) + ". Then:") if parts else ""
        body = self.body(alt.body, where)
        if len(alt.body) == 1 and isinstance(alt.body[0], A.Simple) and alt.body[0].word == "pass":
            head = ("; ".join(parts) + ". " if parts else "") + "Nothing more happens."
            body = ()
        return Item(head, label=self.alt_label(alt), children=body)

    def s_Choose(self, st, where):
        alts = st.alternatives
        if st.claim:
            who = self.expr(st.by[0]) if st.by else "any opponent"
            start = self.expr(st.claim_from) if st.claim_from is not None else "the player after you"
            head = (f"A claim: {who} may claim, each deciding in secret at the same time; of those "
                    f"who claim, only the first in the order of play starting from {start} acts "
                    f"(inside, “you” is that player). The choices:")
            return Item(head, children=tuple(self.alternative(a, where) for a in alts))
        if st.simultaneous:
            who = _join([self.expr(b) for b in st.by])
            head = (f"{_cap(who)} each choose one of the following, in secret and at the same time; "
                    "nothing is shown until all have chosen, then each choice happens, in the order "
                    "the players are named (inside, “you” is the player whose choice it is):")
        else:
            if st.by:
                who = self.expr(st.by[0])
                head = (f"{_cap(_subject(who, 'chooses'))} one of the following (inside, “you” "
                        f"is {who}); only the choices whose conditions hold may be chosen:")
            else:
                head = ("You choose one of the following; only the choices whose conditions "
                        "hold may be chosen:")
        return Item(head, children=tuple(self.alternative(a, where) for a in alts))


# ---------------------------------------------------------------------------------------------
# The rulebook
# ---------------------------------------------------------------------------------------------

_VISIBILITY = {"everyone": "face up: every player sees all its cards",
               "nobody": "face down: nobody sees its cards",
               "top": "top card face up: every player sees its top card, nobody the cards under it",
               "owner": "seen by its owner only"}


def _option_value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):
        return humanize(v)
    return str(v)


def build(model, decls, cg=None, base=None) -> Rulebook:
    """The rulebook of a checked model.  ``decls``: the merged declarations (``Game.decls``), for
    the defines; ``cg``: the game compiled for a number of players, for the deck's cards as
    they are dealt (optional); ``base``: for a variant, ``(base model name, the variant's own
    declarations)``."""
    w = _Words(model, decls)
    m = model
    sections = []

    # What this game is, and its variant's differences.
    lo, hi = m.players
    players = f"{lo}" if lo == hi else f"{lo} to {hi}"
    intro = [f"{safe(m.name)} is a card game for {players} players."]
    if base is not None:
        sections.append(Section("How this variant differs", _variant(w, base)))

    # Object.
    obj = []
    for ending, _ctx, _n in m.endings:
        obj.append(Item(f"The game ends when {w.cond(ending.condition)} (for any player: "
                        "“you” is that player).", children=w.body(ending.body, "ending")))
    obj.extend(_during(w, m))
    sections.append(Section("Object of the game", tuple(intro) + (
        "The game ends, and is won or lost, as follows (the details are under How the game "
        "ends):",
        tuple(obj)) if obj else tuple(intro)))

    # Players.
    sections.append(Section("Players", (
        f"{players} players. The seats are numbered Player 1, Player 2 and so on; the order of "
        "play goes from each player to the next one in that order (after the last comes Player "
        "1) unless the direction of play is reversed. “The player after P” is the next one in "
        "the direction of play, “the player before P” the one before. A player who has left the "
        "game is passed over by the turn order, by dealing and by “each player”.",
        "Words used in the rules: “you” is the player whose turn it is (in a choice, the "
        "player choosing; in a rule done for a player, that player). The current player is the "
        "player whose turn it is. “Your Hand” is the Hand of that player. Every pile has a top "
        "(the card put on it last) and a bottom. “None” means no card, no player or no suit. "
        "Numbers are whole numbers. When the rules ask a player to choose and none of the choices is "
        "allowed, the game stops with an error (well-made rules never let that happen).",
    )))

    sections.append(Section("The cards", _cards(w, m, cg)))
    sections.append(Section("Where the cards lie", _zones(w, m)))
    if m.vars:
        sections.append(Section("What is kept track of", _vars(w, m)))
    if m.options:
        sections.append(Section("Options", _options(w, m)))

    # Setup and turn.
    setup = m.rules.get("setup")
    sections.append(Section("Setup", (
        "The cards start where The cards says. The current player is Player 1 unless the setup "
        "says otherwise. Then:",
        w.body(setup.decl.body, "setup") if setup is not None else (Item("Nothing more."),))))
    turn = m.rules.get("turn")
    if turn is not None:
        sections.append(Section("A turn", (
            "The current player (“you”) does the following. When it is done (or the turn ends "
            "early), play passes to the next player in the direction of play, passing over a "
            "player who is skipped (they lose that turn) or out of the game, unless the rules said "
            "whom the next turn goes to.",
            w.body(turn.decl.body, "turn"))))
    others = [name for name in m.rules if name not in ("setup", "turn")]
    if others:
        blocks = ["Rules done from other rules (“Do ...”). A rule with values (with x = ...) "
                  "uses them under those names; “you” stays the player of the rule that does it, "
                  "unless it is done as (played as) another player."]
        for name in others:
            r = m.rules[name]
            params = [p[0] if isinstance(p, tuple) else str(p) for p in r.decl.params]
            head = f"“{w.rule_name(name)}”" + (f" (with {_join([humanize(p) for p in params])})"
                                               if params else "")
            blocks.append(Section(head, (w.body(r.decl.body, name),), 3))
        sections.append(Section("Rules used", tuple(blocks)))

    # Endings and score.
    sections.append(Section("How the game ends", _endings(w, m)))
    if m.score is not None:
        sections.append(Section("Scoring", (
            f"A player's score (“you” is the player scored) is {w.expr(m.score.expr)}.",
            "The scores are worked out whenever they are needed, from the cards and values of "
            "that moment; nothing is added up between games.")))

    # Terms: the defines used, and the ones they use.
    done = set()
    terms = []
    i = 0
    while i < len(w.used_defines):
        name = w.used_defines[i]
        i += 1
        if name in done or name not in w.defines:
            continue
        done.add(name)
        d = w.defines[name]
        params = [p[0] if isinstance(p, tuple) else str(p) for p in d.params]
        head = w.define_name(name) + (f"({', '.join(humanize(p) for p in params)})"
                                      if params else "")
        terms.append((head, w.define_body(d)))
    if terms:
        sections.append(Section("Terms used in the rules", (
            "Each term is worked out from the cards and values of the moment it is used "
            "(“you” is the player of the rule that uses it):",
            tuple(Item(body, label=head) for head, body in terms))))
    special = _special_cards(w, m, decls)
    if special:
        sections.append(Section("Special cards", special))
    ordered = _order(sections)
    return Rulebook(safe(m.name), tuple(ordered))


def _order(sections):
    """Terms at the end, but before the special cards' index."""
    return sections


def _endgames(m):
    """``(rule name, conditions on the way, statement)`` of every ``end game`` in the rules: the
    conditions are ``(expression, holds)`` pairs (an ``else`` is the earlier ones not holding)
    and ``("choice", label)`` for an alternative of a choice."""
    out = []

    def walk(body, name, path):
        for st in body:
            if isinstance(st, A.EndGame):
                out.append((name, tuple(path), st))
            elif isinstance(st, A.If):
                before = []
                for c, b in st.branches:
                    walk(b, name, path + before + [(c, True)])
                    before.append((c, False))
                if st.otherwise is not None:
                    walk(st.otherwise, name, path + before)
            elif isinstance(st, A.Choose):
                for alt in st.alternatives:
                    walk(alt.body, name, path + [("choice", alt)])
            elif isinstance(getattr(st, "body", None), tuple):
                walk(st.body, name, path)
    for name, r in m.rules.items():
        walk(r.decl.body, name, [])
    return out


def _path_words(w, path) -> str:
    parts = []
    for c, holds in path:
        if isinstance(c, str):
            parts.append(f"the choice “{w.alt_label(holds)}” is made")
        elif holds:
            parts.append(w.cond(c))
        else:
            parts.append(w.negated(c))
    return _join(parts)


def _during(w, m) -> list:
    items = []
    for name, path, st in _endgames(m):
        when = _path_words(w, path)
        head = f"In “{w.rule_name(name)}”" + (f", when {when}" if when else "")
        text = w.stmt(st, name)[0].text
        items.append(Item(head + ": " + text[:1].lower() + text[1:]))
    return items


def _cards(w, m, cg) -> tuple:
    blocks = []
    used = []
    for d in m.decks or ((m.deck,) if m.deck is not None else ()):
        if d.name not in used:
            used.append(d.name)
    for tname in used:
        dt = m.deck_types.get(tname)
        if dt is None:
            continue
        rows = []
        if dt.suits:
            suits = [w.suit_name(s.name) + (f" ({s.symbol})" if s.symbol else "") for s in dt.suits]
            ranks = [_rank_words(w, r) for r in dt.ranks]
            rows.append(Item(f"Suits: {_join(suits)}."))
            rows.append(Item(f"Ranks in each of these suits, lowest first (rank number in "
                             f"brackets): {_join(ranks)}."))
        for s, ranks in dt.own_suits:
            rows.append(Item(f"The suit {w.suit_name(s.name)}"
                             + (f" ({s.symbol})" if s.symbol else "")
                             + f" has its own ranks: {_join([_rank_words(w, r) for r in ranks])}."))
        for group, cards, rank in dt.extras:
            names = [w.card_name(n) for n, _sp in cards]
            rows.append(Item(f"Extra cards (the group “{humanize(group)}”, in the game only when "
                             f"a deck is taken with its {humanize(group)}): {_join(names)}, each "
                             f"of rank {_rank_words(w, rank)} and of no suit."))
        for c in dt.copies:
            def nm(x):
                return w.rank_name(x) if x in m.ranks else w.card_name(x)
            what = _join([nm(a) + (f" to {nm(b)}" if b else "") for a, b, _sp in c.parts])
            ins = f" in {_join([w.suit_name(s) for s, _sp in c.in_suits])}" if c.in_suits else ""
            rows.append(Item(f"Each card of {what}{ins} comes {c.count} times in one deck."))
        if dt.shown_as:
            rows.append(Item(f"Cards are written “{dt.shown_as}”, with the card's suit and rank "
                             "in place of {suit} and {rank}."))
        blocks.append(Section(f"The deck type “{humanize(tname)}”", (tuple(rows),), 3))
    decks = []
    for d in m.decks or ((m.deck,) if m.deck is not None else ()):
        s = f"A {humanize(d.name)} deck"
        if d.with_group:
            s += f" with its {humanize(d.with_group)}"
            if d.with_condition is not None:
                s += f" when {w.cond(d.with_condition)}"
        if d.copies is not None:
            s += f"; {w.expr(d.copies)} copies of it"
        if d.per_player_into:
            s += f"; one for each player, into that player's {w.zone_name(d.per_player_into)}"
        elif d.into is not None:
            s += f"; all its cards start in {w.expr(d.into)}"
        decks.append(Item(s + "."))
    if decks:
        blocks.insert(0, "The game is played with:")
        blocks.insert(1, tuple(decks))
    if cg is not None:
        counts: dict = {}
        for name in cg.card_names[:len(cg.cards)]:
            counts[name] = counts.get(name, 0) + 1
        ncards = len(cg.cards)
        dup = sorted({k for k in counts.values() if k > 1})
        line = (f"With the options as they are and {cg.n} players, that is {ncards} cards"
                + (f" (some cards come {_join([str(k) for k in dup], 'or')} times)" if dup else "")
                + ".")
        blocks.append(line)
        names = [w.card_name(n) + (f" ({counts[n]} times)" if counts[n] > 1 else "")
                 for n in counts]
        blocks.append("The cards, as the rules and the table write them: " + ", ".join(names)
                      + ".")
        if cg.rank_cycle:
            names = [_rank_of_number(w, m, r) for r in cg.rank_cycle]
            blocks.append(f"The ranks go round: the rank after {names[-1]} is {names[0]} and the "
                          f"rank before {names[0]} is {names[-1]} (“the rank after” and “the "
                          f"rank before” always follow this order: {', '.join(names)}); a rank "
                          f"not in it has no rank after or before (0).")
    for name, (decl, _typ) in m.attributes.items():
        rows = []
        for sels, value in decl.entries:
            rows.append((", ".join(_selector(w, m, s) for s, _sp in sels), w.expr(value)))
        if decl.otherwise is not None:
            rows.append(("every other card", w.expr(decl.otherwise)))
        blocks.append(Section(f"The {humanize(name)} of a card", (
            f"Every card has a {humanize(name)}:", Table(("cards", humanize(name)), tuple(rows))),
            3))
    return tuple(blocks)


def _rank_words(w, r) -> str:
    s = w.rank_name(r.name)
    extra = [str(r.number)] if r.name != str(r.number) else []
    if r.symbol and r.symbol != r.name:
        extra.append(f"written {r.symbol}")
    return s + (f" ({', '.join(extra)})" if extra else "")


def _rank_of_number(w, m, num) -> str:
    for name, v in m.ranks.items():
        if v == num:
            return w.rank_name(name)
    return str(num)


def _selector(w, m, s: str) -> str:
    ref = m.refs.card_literal(s)
    if ref is not None:
        return s
    if s in m.ranks:
        return f"every {w.rank_name(s)}"
    if s in m.suits:
        return f"every card of {w.suit_name(s)}"
    if s in m.card_names:
        return w.card_name(s)
    for dt in m.deck_types.values():
        for group, _cards, _rank in dt.extras:
            if group == s:
                return f"the {humanize(s)}"
    return humanize(s)


def _zones(w, m) -> tuple:
    rows = []
    for name, z in m.zones.items():
        where = "one for each player" if z.per_player else "one, shared by all"
        vis = _VISIBILITY.get(z.visibility, z.visibility)
        if z.size_hidden:
            vis += "; how many cards it holds is not shown"
        note = ""
        if z.shown == "no":
            note = "kept aside, not part of the table"
        elif z.shown == "in use":
            note = "shown only while it holds cards"
        rows.append((w.zone_name(name), where, vis + (f" ({note})" if note else "")))
    for zname, (sw, _ctx, _typ) in m.shows.items():
        rows.append((w.zone_name(zname), "", f"shown beside it: “{sw.label}”: {w.expr(sw.expr)}"))
    return ("Each zone is a pile of cards with a bottom and a top (the card put on it last). "
            "At the start every zone is empty but those the decks go into.",
            Table(("zone", "how many", "who sees the cards"), tuple(rows)))


def _vars(w, m) -> tuple:
    rows = []
    for name, v in m.vars.items():
        d = v.decl
        where = "for each player" if d.per_player else "one, shared"
        shown = "yes" if getattr(d, "display", None) else "no"
        rows.append((w.var_name(name), where, humanize(v.type), w.expr(d.init), shown))
    return ("Values kept during the game besides the cards (a value “shown” is on the table "
            "for everyone to see):",
            Table(("value", "how many", "kind", "at the start", "shown"), tuple(rows)))


def _options(w, m) -> tuple:
    rows = []
    for name, o in m.options.items():
        d = o.decl
        if d.low is not None:
            allowed = f"a number from {d.low} to {d.high}"
        elif d.choices is not None:
            allowed = "one of " + ", ".join(humanize(c) for c in d.choices)
        elif isinstance(d.default, bool):
            allowed = "yes or no"
        else:
            allowed = "—"
        rows.append((humanize(d.display or name), d.doc or "", allowed,
                     _option_value(d.default), _option_value(o.value)))
    return ("The players agree on these before the game (with --set NAME=VALUE on the command line):",
            Table(("option", "what it means", "allowed", "default", "in this rulebook"),
                  tuple(rows)))


def _endings(w, m) -> tuple:
    blocks = ["Whenever a player is about to decide something, and after every turn, the "
              "conditions below are checked in this order, each for every player still in the "
              "game starting with the current player (as “you”). The first that holds ends the "
              "game as it says."]
    items = []
    for ending, _ctx, _n in m.endings:
        items.append(Item(f"When {w.cond(ending.condition)}:", children=w.body(ending.body,
                                                                               "ending")))
    if items:
        blocks.append(tuple(items))
    else:
        blocks.append("The rules themselves end the game (see below).")
    during = _during(w, m)
    if during:
        blocks.append("The rules end the game at once where they say so:")
        blocks.append(tuple(during))
    blocks.append("A game in which no player wins is a draw. When the scores decide, the "
                  "players are ranked by their scores.")
    return tuple(blocks)


def _special_cards(w, m, decls) -> tuple:
    """The ranks, suits and cards the rules name, and the rules that name them."""
    found: dict = {}

    def note(key, where):
        lst = found.setdefault(key, [])
        if where not in lst:
            lst.append(where)

    def walk(node, where):
        if isinstance(node, A.Name):
            ref = m.refs.of(node, None)
            if isinstance(ref, ir.Const) and node.name in m.ranks:
                note(f"the rank {w.rank_name(node.name)}", where)
            elif isinstance(ref, ir.Const) and node.name in m.suits:
                note(f"the suit {w.suit_name(node.name)}", where)
            elif isinstance(ref, ir.CardName):
                note(w.card_name(node.name), where)
        elif isinstance(node, A.CardLit):
            note(node.text, where)
        if isinstance(node, (str, int, bool)) or node is None:
            return
        if isinstance(node, tuple):
            for x in node:
                walk(x, where)
            return
        if attrs.has(type(node)):
            for f in attrs.fields(type(node)):
                if f.name == "span":
                    continue
                walk(getattr(node, f.name), where)

    for name, r in m.rules.items():
        walk(r.decl.body, f"“{w.rule_name(name)}”")
    for ending, _c, _n in m.endings:
        walk(ending.condition, "the endings")
        walk(ending.body, "the endings")
    for d in decls:
        if isinstance(d, A.Define):
            walk(d.body, w.define_name(d.name))
    for name, (decl, _t) in m.attributes.items():
        for sels, _v in decl.entries:
            for s, _sp in sels:
                key = (f"the rank {w.rank_name(s)}" if s in m.ranks else
                       f"the suit {w.suit_name(s)}" if s in m.suits else _selector(w, m, s))
                note(key, f"the {humanize(name)} of a card")
    if not found:
        return ()
    return ("The rules treat these cards, ranks and suits by name; each is named in:",
            tuple(Item(_join(v), label=k) for k, v in found.items()))


def _variant(w, base) -> tuple:
    base_name, own = base[0], base[1]
    items = []
    for d in own:
        if isinstance(d, (A.Extends, A.GameName)):
            continue
        verb = "changes" if getattr(d, "replace", False) else "adds"
        if isinstance(d, A.Option):
            o = w.m.options.get(d.name)
            items.append(Item(f"It {verb} the option “{humanize(d.display or d.name)}”: "
                              f"{_option_value(d.default)} by default."))
        elif isinstance(d, A.Rule):
            what = {"setup": "the setup", "turn": "the turn"}.get(d.name, f"the rule “{w.rule_name(d.name)}”")
            items.append(Item(f"It {verb} {what} (below, as it is in this variant)."))
        elif isinstance(d, A.Define):
            items.append(Item(f"It {verb} the term {w.define_name(d.name)}: {w.define_body(d)}."))
        elif isinstance(d, A.Zone):
            items.append(Item(f"It {verb} the zone {w.zone_name(d.name)}."))
        elif isinstance(d, A.Var):
            items.append(Item(f"It {verb} the value {w.var_name(d.name)}, which starts at "
                              f"{w.expr(d.init)}."))
        elif isinstance(d, A.Ending):
            items.append(Item(f"It adds an ending: when {w.cond(d.condition)}:",
                              children=w.body(d.body, "ending")))
        elif isinstance(d, A.Score):
            items.append(Item(f"It {verb} the score: {w.expr(d.expr)}."))
        elif isinstance(d, A.Deck):
            items.append(Item(f"It {verb} the deck: a {humanize(d.name)} deck (see The cards)."))
        elif isinstance(d, A.DeckType):
            items.append(Item(f"It {verb} the deck type “{humanize(d.name)}” (see The cards)."))
        elif isinstance(d, A.Attribute):
            items.append(Item(f"It {verb} the {humanize(d.name)} of the cards (see The cards)."))
        elif isinstance(d, A.Players):
            lo, hi = d.low, d.high
            items.append(Item(f"It is for {lo if lo == hi else f'{lo} to {hi}'} players."))
        elif isinstance(d, A.ShowWith):
            items.append(Item(f"It {verb} what is shown beside {w.zone_name(d.zone)}."))
    if not items:
        items.append(Item("Nothing but its name."))
    of = f" (the rule file {base[2]})" if len(base) > 2 and base[2] else ""
    return (f"This game is a variant of {safe(base_name)}{of}. The whole rulebook follows; it "
            "differs from its base in these points:", tuple(items))


# ---------------------------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", safe(text))


def _md_items(items, depth=0) -> list:
    out = []
    for it in items:
        text = (f"**{_md(it.label)}**: " if it.label else "") + _md(it.text)
        out.append("  " * depth + "- " + text)
        out.extend(_md_items(it.children, depth + 1))
    return out


def _md_blocks(blocks) -> list:
    out = []
    for b in blocks:
        if isinstance(b, str):
            out += [_md(b), ""]
        elif isinstance(b, Table):
            out.append("| " + " | ".join(_md(h) for h in b.header) + " |")
            out.append("|" + "---|" * len(b.header))
            for row in b.rows:
                out.append("| " + " | ".join(_md(c) for c in row) + " |")
            out.append("")
        elif isinstance(b, Section):
            out += ["#" * b.level + " " + _md(b.title), ""]
            out += _md_blocks(b.blocks)
        else:
            out += _md_items(b) + [""]
    return out


def to_markdown(book: Rulebook) -> str:
    out = ["# " + _md(book.title), ""]
    for s in book.sections:
        out += ["#" * s.level + " " + _md(s.title), ""]
        out += _md_blocks(s.blocks)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _h(text: str) -> str:
    return html.escape(safe(text), quote=True)


def _html_items(items) -> list:
    out = ["<ul>"]
    for it in items:
        li = "<li>" + (f"<strong>{_h(it.label)}</strong>: " if it.label else "") + _h(it.text)
        if it.children:
            li += "\n" + "\n".join(_html_items(it.children))
        out.append(li + "</li>")
    out.append("</ul>")
    return out


def _html_blocks(blocks) -> list:
    out = []
    for b in blocks:
        if isinstance(b, str):
            out.append(f"<p>{_h(b)}</p>")
        elif isinstance(b, Table):
            out.append("<table><thead><tr>" + "".join(f"<th>{_h(h)}</th>" for h in b.header)
                       + "</tr></thead><tbody>")
            for row in b.rows:
                out.append("<tr>" + "".join(f"<td>{_h(c)}</td>" for c in row) + "</tr>")
            out.append("</tbody></table>")
        elif isinstance(b, Section):
            out.append(f"<h{b.level}>{_h(b.title)}</h{b.level}>")
            out += _html_blocks(b.blocks)
        else:
            out += _html_items(b)
    return out


_CSS = """body{font-family:Georgia,serif;max-width:48em;margin:2em auto;padding:0 1em;
line-height:1.45;color:#222}h1,h2,h3{font-family:Helvetica,Arial,sans-serif}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;
text-align:left;vertical-align:top}li{margin:.15em 0}"""


def to_html(book: Rulebook) -> str:
    """One self-contained page: no script, no stylesheet or font fetched from anywhere."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_h(book.title)}</title>", f"<style>{_CSS}</style></head><body>",
           f"<h1>{_h(book.title)}</h1>"]
    for s in book.sections:
        out.append(f"<h{s.level}>{_h(s.title)}</h{s.level}>")
        out += _html_blocks(s.blocks)
    out.append("</body></html>")
    return "\n".join(out) + "\n"
