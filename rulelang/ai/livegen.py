"""The writers of the kept tensors (:class:`rulelang.ai.live.Live`), written as Python once per
encoding and seat, as the generator writes a game: one function per plan that brings a buffer
up to date with a state, its zones, variables and places named by number, no loop over a table
of what to read.  A step changes a few places, so a generic loop spends most of its time
finding its way (reading the plan's tuples, testing what kind each piece is); the written
function only tests what may have changed.

:func:`writer` makes the function ``write(out, st, sn, zeros)`` of a plan: ``out`` is what writes
the buffer (see :func:`rulelang.ai.live._view`), ``st`` the state, ``sn`` the buffer's list of
copies of what it was last written from (per zone seen whole its cards, per pile seen the top
its top card, then the variables: :func:`snapshots` makes it for a zeroed buffer).  With
``tail`` it also writes the places of the end (the seat, the turn, the seats that decide, the
phase, the choices, terminal) for the plan's seat, from ``zeros`` (as many zeros as there are
places of the end, in the buffer's format).  The text holds numbers only: no name from
the rules enters it.  ``tests/test_ai_live.py`` compares every buffer written so with the
tensor :meth:`rulelang.ai.tensors.Encoding.observation` makes anew, at every step of random
games of every rule file."""
from __future__ import annotations

from itertools import compress
from operator import itemgetter, ne

from rulelang.limits import ACTION_SHIFT

_alt_of = ACTION_SHIFT.__rrshift__        # an action -> its alternative (action >> ACTION_SHIFT)


def snapshots(plan) -> list:
    """The copies of a zeroed buffer: every zone empty, no top, no variable written."""
    return [[]] * len(plan.whole) + [-1] * len(plan.tops) + [None]


def whole_diff(out, at: int, d: int, ci: list, one: bool, cards: list, old: list) -> None:
    """A zone seen whole whose cards are ``cards`` now and were ``old`` when its part (its
    size at ``at``, then its cards, then its top) was last written: the cards that left it
    and the cards that came are written (one place each, or a count for copies of a card)."""
    out[at] = len(cards)
    lo = len(old)
    lc = len(cards)
    base = at + 1
    if not lo:
        gone, came = (), cards
    elif lc > lo and cards[:lo] == old:     # (cards put on top)
        gone, came = (), cards[lo:]
    elif lc < lo and old[:lc] == cards:     # (cards taken from the top)
        gone, came = old[lc:], ()
    else:               # (the cards that left or came, found in C: each written as it is now)
        gone = came = ()
        if one:                             # (a card's place is 0 or 1)
            for c in set(old).symmetric_difference(cards):
                out[base + ci[c]] = 1.0 if c in cards else 0.0
        else:                               # (copies of a card: counted)
            for c in set(old).symmetric_difference(cards):
                out[base + ci[c]] += 1.0 if c in cards else -1.0
    if one:
        for c in gone:
            out[base + ci[c]] = 0.0
        for c in came:
            out[base + ci[c]] = 1.0
    else:
        for c in gone:
            out[base + ci[c]] -= 1.0
        for c in came:
            out[base + ci[c]] += 1.0
    base += d
    if lo:
        out[base + ci[old[-1]]] = 0.0
    if lc:
        out[base + ci[cards[-1]]] = 1.0


def writer(enc, plan, seat: int = -1, tail: bool = False):
    """The function ``write(out, st, sn, zeros)`` of ``plan`` (see the module's doc)."""
    d = enc.d
    nc = len(enc.card_index)
    lines = ["def write(out, st, sn, zeros):", "    zones = st.zones"]
    add = lines.append
    for zi, at in plan.sized:                           # (sizes: written again)
        add(f"    out[{at}] = len(zones[{zi}])")
    nw = len(plan.whole)
    for j, (zi, at, base) in enumerate(plan.tops):      # (a pile's size; its top if it changed)
        k = nw + j
        add(f"    cards = zones[{zi}]")
        add(f"    out[{at}] = len(cards)")
        add("    c = cards[-1] if cards else -1")
        add(f"    o = sn[{k}]")
        add("    if c != o:")
        add(f"        if o >= 0: out[{base} + ci[o]] = 0.0")
        add(f"        if c >= 0: out[{base} + ci[c]] = 1.0")
        add(f"        sn[{k}] = c")
    if nw >= 4:         # (many zones seen whole: those that changed picked out in C)
        add("    for k in compress(every, map(ne, get(zones), sn)):")
        add("        cards = zones[zis[k]]")
        add("        diff(out, ats[k], D, ci, ONE, cards, sn[k])")
        add("        sn[k] = cards[:]")
    else:
        for k, zi, at in plan.whole:
            add(f"    cards = zones[{zi}]")
            add(f"    if cards != sn[{k}]:")
            add(f"        diff(out, {at}, D, ci, ONE, cards, sn[{k}])")
            add(f"        sn[{k}] = cards[:]")
    if plan.vars and enc.var_plan:
        vk = nw + len(plan.tops)
        add("    vs = st.vars")
        add(f"    olds = sn[{vk}]")
        add("    if vs != olds:")
        add(f"        sn[{vk}] = vs[:]")
        add("        first = olds is None")
        for i, at, w, card, bits in enc.var_plan:
            add(f"        v = vs[{i}]")
            add(f"        if first or v != olds[{i}]:")
            if bits:                # a set of values: its places written again
                add(f"            for k in range({w}): out[{at} + k] = (v >> k) & 1")
            elif w == 1:
                add(f"            out[{at}] = float(v)")
            else:                   # one place of w: the old one cleared, the new one set
                for name, pre in (("o", "not first"), ("v", "")):
                    ind = "            "
                    if pre:
                        add(f"{ind}if {pre}:")
                        ind += "    "
                        add(f"{ind}o = olds[{i}]")
                    if card:
                        add(f"{ind}if 0 <= {name} < {nc}: {name} = ci[{name}]")
                    one = "0.0" if name == "o" else "1.0"
                    add(f"{ind}out[{at} + ({name} if 0 <= {name} < {w - 1} else {w - 1})]"
                        f" = {one}")
    if tail:
        _tail(lines, enc, plan, seat)
    ns = {"ci": enc.card_index, "diff": whole_diff, "D": d, "ONE": enc.one_each,
          "compress": compress, "ne": ne, "every": range(nw), "alt_of": _alt_of,
          "zis": [zi for _k, zi, _at in plan.whole],
          "ats": [at for _k, _zi, at in plan.whole],
          "get": itemgetter(*[zi for _k, zi, _at in plan.whole]) if nw >= 4 else None}
    exec("\n".join(lines), ns)       # (numbers only: no name from the rules)
    return ns["write"]


def _tail(lines: list, enc, plan, seat: int) -> None:
    """The lines that write the places of the end for ``seat``: zeros, then its few places."""
    add = lines.append
    add(f"    out[{enc.tail}:{enc.size}] = zeros")
    add(f"    out[{plan.me}] = 1.0")
    add("    if st.terminal:")
    add(f"        out[{enc.size - 1}] = 1.0")
    add("        return")
    add(f"    out[{plan.turn} + st.cur] = 1.0")
    add("    d = st.awaiting")
    add("    if d.__class__ is tuple:              # (one seat decides: its actions)")
    add("        q = d[0]")
    add(f"        out[{plan.deciding} + q] = 1.0")
    add(f"        legal = d[1] if q == {seat} else None")
    add("    else:")
    add("        deciding = st.current_players()")
    add("        for q in deciding:")
    add(f"            out[{plan.deciding} + q] = 1.0")
    add(f"        legal = st.legal_actions({seat}) if {seat} in deciding else None")
    add("    if st.stack:")
    add(f"        out[{plan.phase} + st.stack[-1][0]] = 1.0")
    add("    if legal:                             # (the alternatives of its actions)")
    add("        if len(legal) < 8:                # (a few: each written, twice if need be)")
    add("            for a in legal:")
    add(f"                out[{plan.choices} + (a >> {ACTION_SHIFT})] = 1.0")
    add("        else:                             # (many: their alternatives found in C)")
    add("            for alt in set(map(alt_of, legal)):")
    add(f"                out[{plan.choices} + alt] = 1.0")
