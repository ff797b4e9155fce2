"""Hidden information (RL185): a choice among cards that its chooser may not see.  The zones a
zone expression may be, followed through local names, variables and the values given to rules;
a form of an expression equal for two that always have the same value (:func:`_canon`), to tell
whether the chooser owns the zone; whether a ``where`` keeps only a card every player can name.
A mixin of :class:`rulelang.check.checker.Checker`."""
from __future__ import annotations

import attrs

from rulelang.syntax import ast as A
from rulelang.check.ir import CardName, DefineUse, Local, Var, VarOf, You, Zone, ZoneOf
from rulelang.check.model import Arg, Expanded


class VisibilityChecks:
    # -- hidden information
    def check_choice_visibility(self):
        """RL185: a choice whose values are cards its chooser may not see.  A choice's label
        names the card, so such a choice would show its chooser hidden cards (and a program
        choosing would know them).  The zone of ``card c from Z`` must be visible to the chooser:
        face up; their own zone seen by its owner (``hand``, ``hand of you``, ``hand of t``
        under ``choose by t``); or ``top face up`` when ``where`` keeps only its top.  A ``where``
        that keeps only a card every player can name (a variable, ``top of`` a visible top) is
        fine too.  A zone named through a local name or a rule's value is followed to the
        zones it may be; one this cannot follow is not reported."""
        for alt, st, owner, you_slot, chooser_slot, slot in self.card_choices:
            oid = id(owner)
            chooser = {("you", oid, chooser_slot)}
            if not st.simultaneous:
                try:
                    chooser.add(_canon(self, st.by[0], oid) if st.by else ("you", oid, you_slot))
                except RecursionError:
                    pass
            p = alt.param
            try:
                targets = self._zones_of(p.source, oid, 0)
                whys = [(zone, _hidden_from_chooser(self, zone, whose, chooser, p, oid, slot))
                        for zone, whose in targets]
            except (_Unknown, RecursionError):
                continue
            for zone, why in whys:
                if why is not None:
                    src = _plain_expr(p.source) or zone.name
                    self.error("RL185", f"`{alt.label}` chooses among the cards of "
                               f"{_zone_words(zone, p.source)}, {why}", p.source.span,
                               "a choice shows its chooser the card of each choice; to take a "
                               "card unseen, let the chooser choose its place: "
                               f"`take unseen card c from {src}:` (or take "
                               f"`random card of {src}`)")
                    break

    def _zones_of(self, e, oid, depth) -> list:
        """(zone declaration, its owner as a _canon form or None when shared) for each zone the
        zone expression ``e`` may be; _Unknown when it cannot tell."""
        if depth > 20:
            raise _Unknown
        if isinstance(e, (Expanded,)):
            return self._zones_of(e.body, oid, depth + 1)
        if isinstance(e, Arg):
            return self._zones_of(e.expr, oid, depth + 1)
        if isinstance(e, A.Cases):
            out = []
            for value, _cond in e.cases:
                out += self._zones_of(value, oid, depth + 1)
            return out + self._zones_of(e.default, oid, depth + 1)
        ref = self.refs.of(e, None)
        if ref is None:
            raise _Unknown
        if isinstance(ref, DefineUse):
            return self._zones_of(ref.expanded, oid, depth + 1)
        if isinstance(ref, Zone):
            z = self.zones.get(ref.name)
            if z is None:
                raise _Unknown
            return [(z, ("you", oid, ref.you) if z.per_player else None)]
        if isinstance(ref, ZoneOf):
            z = self.zones.get(ref.name)
            if z is None:
                raise _Unknown
            return [(z, _canon(self, e.operand, oid))]
        if isinstance(ref, (Local, Var, VarOf)):
            values = self.zone_values.get((oid, ref.slot) if isinstance(ref, Local) else ("var", ref.name))
            if not values:
                raise _Unknown
            out = []
            for value, via in values:
                if via is None:
                    out += self._zones_of(value, oid, depth + 1)
                    continue
                # a value set elsewhere (a variable's), or given to a rule (the caller's `you`,
                # or `for P`'s, is the rule's `you`); other names of that place mean nothing here
                caller, you = via
                if you is not None and not isinstance(you, tuple):
                    you = _canon(self, you, caller)
                for z, whose in self._zones_of(value, caller, depth + 1):
                    if you is not None and whose == you:
                        whose = ("you", oid, -1)
                    elif whose is not None and _mentions_locals(whose):
                        whose = ("unknown", object())
                    out.append((z, whose))
            return out
        raise _Unknown


class _Unknown(Exception):
    """A zone expression whose zone the checker cannot follow."""


def _canon(c, e, oid):
    """A form of the player (or other) expression ``e`` that is equal for two expressions that
    always have the same value at one moment of one rule (``oid``): the same names, resolved the
    same way.  A random value is equal to nothing."""
    if isinstance(e, Expanded):
        return _canon(c, e.body, oid)
    if isinstance(e, Arg):
        return _canon(c, e.expr, oid)
    if isinstance(e, A.Keyword):
        if e.word == "random player":
            return ("random", object())
        ref = c.refs.of(e, None)
        you = ref.slot if isinstance(ref, You) else -1
        if e.word == "you":
            return ("you", oid, you)
        if e.word in ("next player", "previous player"):
            return ("kw", e.word, ("you", oid, you))
        return ("kw", e.word)
    if isinstance(e, A.Roll):
        return ("random", object())
    ref = c.refs.of(e, None)
    if isinstance(ref, DefineUse):
        return _canon(c, ref.expanded, oid)
    if isinstance(e, A.Name):
        if isinstance(ref, Local):
            return ("slot", oid, ref.slot)
        if isinstance(ref, Var) and ref.per_player:
            return ("var", ref.name, ("you", oid, ref.you))
        return ("name", e.name)
    if isinstance(e, A.Unary) and e.op == "random card":
        return ("random", object())
    if not attrs.has(type(e)):
        return ("unknown", object())
    parts = [type(e).__name__]
    for f in attrs.fields(type(e)):
        if f.name in ("span", "name_span"):
            continue
        v = getattr(e, f.name)
        if isinstance(v, A.Expr):
            v = _canon(c, v, oid)
        elif isinstance(v, tuple):
            v = tuple(_canon(c, x, oid) if isinstance(x, A.Expr) else
                      tuple(_canon(c, y, oid) if isinstance(y, A.Expr) else y for y in x)
                      if isinstance(x, tuple) else x for x in v)
        parts.append(v)
    return tuple(parts)


def _mentions_locals(form) -> bool:
    """Whether a _canon form depends on the rule it is in (a local name or `you`)."""
    if isinstance(form, tuple):
        if form and form[0] in ("slot", "you", "random"):
            return True
        return any(_mentions_locals(x) for x in form)
    return False


def _zone_words(zone, source) -> str:
    return f"`{zone.name}`" if isinstance(source, A.Name) and source.name == zone.name \
        else f"`{zone.name}` (here `{_plain_expr(source)}`)" if _plain_expr(source) else f"`{zone.name}`"


def _plain_expr(e):
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.Of):
        inner = _plain_expr(e.operand)
        return f"{e.name} of {inner}" if inner else None
    if isinstance(e, A.Seat):
        return f"player {e.number}"
    if isinstance(e, A.Keyword):
        return e.word
    return None


def _hidden_from_chooser(c, zone, whose, chooser, p, oid, slot):
    """Why the chooser may not see every card of ``zone`` (owned by ``whose``) that ``p``
    offers, or None when they may."""
    vis = zone.visibility
    if vis == "everyone":
        return None
    if vis == "owner" and zone.per_player and whose in chooser:
        return None
    if _where_keeps_a_public_card(c, p.where, zone, whose, chooser, oid, slot):
        return None
    if vis == "top":
        return "whose cards below the top are face down"
    if vis == "bottom":
        return "whose cards above the bottom are face down"
    if vis == "owner" and zone.per_player:
        return "which only its owner may see, and the chooser is not always its owner"
    return "which nobody may see"


def _where_keeps_a_public_card(c, where, zone, whose, chooser, oid, slot) -> bool:
    """Whether ``where`` (one of its `and`-ed parts) says that the chosen card is a card the
    chooser can name without seeing the zone: the value of a variable (variables are public),
    a card of the deck by name, or ``top of`` a zone whose top the chooser sees."""
    if where is None:
        return False
    while isinstance(where, (Expanded, Arg)) or isinstance(c.refs.of(where, None), DefineUse):
        where = where.body if isinstance(where, Expanded) else where.expr if isinstance(where, Arg) \
            else c.refs.of(where).expanded
    if isinstance(where, A.BoolOp):
        return where.op == "and" and any(
            _where_keeps_a_public_card(c, w, zone, whose, chooser, oid, slot) for w in where.items)
    if not isinstance(where, A.Compare) or where.op != "==":
        return False
    chosen = ("slot", oid, slot)
    for a, b in ((where.left, where.right), (where.right, where.left)):
        if _canon(c, a, oid) == chosen and _public_card(c, b, chooser, oid):
            return True
    return False


def _public_card(c, e, chooser, oid) -> bool:
    while isinstance(e, (Expanded, Arg)):
        e = e.body if isinstance(e, Expanded) else e.expr
    ref = c.refs.of(e, None)
    if isinstance(ref, DefineUse):
        return _public_card(c, ref.expanded, chooser, oid)
    if isinstance(ref, (Var, VarOf, CardName)):
        return True
    if isinstance(e, A.Unary) and e.op in ("top", "bottom"):
        try:
            zones = c._zones_of(e.operand, oid, 0)
        except _Unknown:
            return False
        return all(z.visibility in ("everyone", e.op) or (
            z.visibility == "owner" and z.per_player and whose in chooser) for z, whose in zones)
    return False
