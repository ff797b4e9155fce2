"""Where cards may be, read from the checked rules before any code is written: the zones in
which what players remember may lie (:func:`memory_zones`), whether a statement changes what
players remember (:func:`remembers`), and the places the card of a `reveal` or `show` is known to
be in (:func:`card_places`).  The statement generator (:mod:`rulelang.compile.stmtgen`) and the
compiler's layout read them.
"""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.check.effects import PICKED, REVEALED, SEEN_GO, SHOWN, memory_kind, still
from rulelang.check.ir import CardLoopSlots, Local, Zone, ZoneOf
from rulelang.engine.players import hides
from rulelang.compile.rulegen import rule_bodies


def zone_seen(model, e):
    """How the zone that ``e`` names is seen (``everyone``, ``owner``, ``top``, ``nobody``), or
    None when that is known only while the game is played."""
    ref = model.refs.of(e, None)
    if not isinstance(ref, (Zone, ZoneOf)):
        return None
    z = model.zones.get(ref.name)
    return getattr(z, "visibility", None)


def remembers(model, st) -> bool:
    """Whether a move may take a card out of the sight of a player who saw it, who then
    remembers it where it went, or moves a whole zone, which takes what players remember of its
    cards with it (docs/language.md, "What players remember")."""
    kind, seen = st.selection.kind, zone_seen(model, st.source)
    if kind == "all_but_top" and seen == "top":
        return False                # the one card seen there stays
    return kind == "all" or hides(None, seen, zone_seen(model, st.dest))


def memory_zones(model, places) -> frozenset:
    """The zones (their names) where what players remember may be: where a move that may hide
    cards (or moves a whole zone, with what is remembered of it) takes them, and where a card
    shown or revealed may be (any zone, unless the rules say which: ``places``, card_places), and
    where the move of a several-cards choice may hide them.
    A zone known only while the game is played stands for every zone."""
    found = set()

    def name(e):
        ref = model.refs.of(e, None)
        return ref.name if isinstance(ref, (Zone, ZoneOf)) else None

    def walk(body):
        for st in body:            # by how memory treats each statement (check/effects.py)
            kind = memory_kind(st)
            if kind == SEEN_GO and remembers(model, st):
                found.add(name(st.dest))
            elif kind in (SHOWN, REVEALED):
                z = places.get(id(st))
                found.add(None if z is None else name(z))
            elif kind == PICKED:
                # the move of a several-cards choice, or of a set, is seen go as a move is
                # (choices.pick_step, subsets.set_take)
                for alt in st.alternatives:
                    p = alt.param
                    if isinstance(p, (A.CardsParam, A.SetParam)) and hides(
                            None, zone_seen(model, p.source), zone_seen(model, p.dest)):
                        found.add(name(p.dest))
            for b in rule_bodies(st):
                walk(b)

    for body in top_bodies(model):
        walk(body)
    return frozenset(model.zones) if None in found else frozenset(found)


def top_bodies(model):
    """The statement lists the game runs from: each rule's (``setup`` and ``turn`` among them)
    and each ending's (the lists inside them: rulegen.rule_bodies)."""
    for r in model.rules.values():
        yield r.decl.body
    for e in model.endings:
        yield e[0].body


def card_places(model) -> dict:
    """Where the rules say the card of a ``reveal`` or ``show`` is, found before the game is
    played, so the generated code need not look through every zone for it: ``{id(statement):
    zone expression}``.  The card is ``top of Z`` or ``bottom of Z`` (in Z, or none); or the
    card just moved to Z by the statement before (``move c from army to field`` then ``reveal
    c``: a move of one card that is not there stops the game, RL902), with only statements that
    leave every card and local where it is between (``still`` of check/effects.py: a reveal,
    words, a shuffle...); or the card of ``for each card c in Z`` whose body is made of such
    statements only.  A statement found in two bodies with two answers has none."""
    refs = model.refs
    places: dict = {}

    def same_local(a, b) -> bool:
        ra, rb = refs.of(a, None), refs.of(b, None)
        return isinstance(ra, Local) and isinstance(rb, Local) and ra.slot == rb.slot

    def place_of(card, before, loop):
        if isinstance(card, A.Unary) and card.op in ("top", "bottom"):
            return card.operand
        if not isinstance(card, A.Name) or not isinstance(refs.of(card, None), Local):
            return None
        for st in reversed(before):
            if still(st):
                continue
            if (isinstance(st, A.Move) and st.selection.kind == "card" and not st.turned_over
                    and isinstance(st.selection.expr, A.Name)
                    and same_local(st.selection.expr, card)):
                return st.dest
            return None
        if loop is not None and isinstance(refs.of(loop, None), CardLoopSlots) and (
                refs.of(card).slot == refs.of(loop).card):
            return loop.zone
        return None

    def walk(body, loop=None):
        for i, st in enumerate(body):
            if isinstance(st, (A.Reveal, A.Show)):
                z = place_of(st.card, body[:i], loop)
                if places.get(id(st), z) is not z:
                    z = None
                places[id(st)] = z
            elif isinstance(st, A.ForCard):
                walk(st.body, st if all(still(x) for x in st.body) else None)
            else:
                for b in rule_bodies(st):
                    walk(b)

    for body in top_bodies(model):
        walk(body)
    return {k: v for k, v in places.items() if v is not None}
