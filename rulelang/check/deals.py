"""The deck against the game: how many cards the deck has for each number of players, a deck of
more cards than a game may use (RL172), and deals that need more cards than the deck has
(RL173)."""
from __future__ import annotations

from rulelang.limits import VALUE_MASK as MAX_CARDS
from rulelang.syntax import ast as A
from rulelang.check.constants import _counted, _ranges, const_value
from rulelang.check.tree import _walk


def copies_matching(dt, ranks, copy, rank, suit, extra):
    """Whether the line ``copies N of ...`` (an A.DeckCopies) of deck type ``dt`` names the card
    of ``rank`` and ``suit`` (names; ``extra`` the name of an extra card, or None).  ``ranks``:
    the ranks' numbers by name, for ranges (`1 to 9`)."""
    if copy.in_suits and (suit is None or suit not in {s for s, _sp in copy.in_suits}):
        return False
    for first, last, _sp in copy.parts:
        if last is None:
            if first in (rank, suit, extra):
                return True
        elif extra is None and first in ranks and last in ranks \
                and ranks[first] <= ranks.get(rank, ranks[first] - 1) <= ranks[last]:
            return True
    return False


def deck_cards(dt, ranks, include_group):
    """The cards of one deck of type ``dt``, in the order a deck is built: (rank name, suit name
    or None, extra card name or None, how many of it), the suits' cards first (suit by suit),
    then the extra cards of the group ``include_group`` (or none).  A card named by a line
    ``copies N of ...`` comes N times (the first line that names it; a second is RL174)."""
    out = []
    for suit in dt.suits:
        out += [(r.name, suit.name, None) for r in dt.ranks]
    for suit, own in dt.own_suits:
        out += [(r.name, suit.name, None) for r in own]
    for group, names, rank in dt.extras:
        if group == include_group:
            out += [(rank.name, None, name) for name, _sp in names]
    counted = []
    for rank, suit, extra in out:
        k = next((c.count for c in dt.copies if copies_matching(dt, ranks, c, rank, suit, extra)), 1)
        counted.append((rank, suit, extra, k))
    return counted


def _one_deck_size(c, d, n):
    dt = c.deck_types.get(d.name)
    if dt is None:
        return None
    group = None
    if d.with_group is not None:
        include = True if d.with_condition is None else const_value(c, d.with_condition, n)
        if include is None:
            return None
        group = d.with_group if include else None
    per_copy = sum(k for *_card, k in deck_cards(dt, c.ranks, group))
    if d.per_player_into is not None:
        copies = n
    elif d.copies is None:
        copies = 1
    else:
        copies = const_value(c, d.copies, n)
        if copies is None:
            return None
    return per_copy * max(0, copies)


def _checker_deck_size(c, n):
    """How many cards the decks have for ``n`` players, or None when that depends on the game."""
    if not c.decks:
        return None
    total = 0
    for d in c.decks:
        size = _one_deck_size(c, d, n)
        if size is None:
            return None
        total += size
    return total


def _check_deck_size(c):
    """A deck of more cards than a game may use (RL172), for any allowed number of players whose
    deck is known before the game (the compiler reports the others)."""
    lo, hi = c.players
    bad = [(n, size) for n in range(lo, hi + 1)
           for size in [_checker_deck_size(c, n)] if size is not None and size > MAX_CARDS]
    if bad and c.deck is not None:
        n, size = bad[0]
        c.error("RL172", f"{size} cards is more than the {MAX_CARDS} a game may use",
                c.deck.span, "use fewer copies of the deck" if lo == hi else
                f"this happens with {_ranges(b[0] for b in bad)} players; use fewer copies of "
                "the deck, or allow fewer players")


def _check_deals(c):
    """Deals that need more cards than the deck has, for any allowed number of players.  The
    deals at the top of ``setup`` add up (each takes from what the ones before left); a deal
    anywhere else is compared with the whole deck.  Each deal's count is worked out once per
    number of players, so the work grows with the deals times the counts (at most
    MAX_PLAYERS), never with the deals squared."""
    lo, hi = c.players
    counts = range(lo, hi + 1)
    sizes = {n: _checker_deck_size(c, n) for n in counts}
    setup = c.rules.get("setup")
    top = set()
    if setup is not None:
        top = {id(st) for st in setup.decl.body if isinstance(st, A.Deal)}
    dealt = {n: 0 for n in counts}        # by the deals at the top of setup so far
    deals = [n for n in _walk([r.decl.body for r in c.rules.values()]) if isinstance(n, A.Deal)]
    if setup is not None:                 # the top of setup first, in its order
        first = [st for st in setup.decl.body if isinstance(st, A.Deal)]
        deals = first + [st for st in deals if id(st) not in top]
    for st in deals:
        if st.count is None:
            continue
        ks = _counted(c, st.count, counts)
        bad = []
        for n in counts:
            size, k = sizes[n], ks[n]
            if k is None or isinstance(k, bool):
                continue
            before = dealt[n] if id(st) in top else 0
            if id(st) in top:
                dealt[n] += k * n
            if size is None:
                continue
            if before + k * n > size and before <= size:
                bad.append((n, k, size, before))
        if bad:
            n, k, size, before = bad[0]
            earlier = f" after {before} already dealt" if before else ""
            c.error("RL173", f"dealing {k} cards to each of {n} players needs {k * n} cards{earlier}, "
                    f"but the deck has {size}", st.span,
                    f"this happens with {_ranges(b[0] for b in bad)} players; deal fewer cards, "
                    "use more copies of the deck, or allow fewer players")
