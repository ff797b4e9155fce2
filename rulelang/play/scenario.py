"""Set up a position by hand, for scenario tests and for exploring a rule file.

    st = position(game, players=3, zones={"hand/1": ["3♥", "9♣"], "discard": ["3♠"]},
                  rest="stock", current=2, vars={"passes": 0})

puts the named cards in the named zones (``NAME`` for a shared zone, ``NAME/K`` for seat K's),
every other card in the zone ``rest`` (in deck order), sets variables, makes seat ``current``
(counted from 1) the player whose turn it is, and starts that turn from its beginning.  No card
is created or lost: each name takes one card of the deck that is not placed yet.
"""
from __future__ import annotations

from typing import Optional

from rulelang.engine.control import NO_DECISION
from rulelang.engine.played import nobody_played


def _zone_index(cg, key: str) -> int:
    name, _, seat = key.partition("/")
    if name not in cg.zone_base:
        raise KeyError(f"no zone {name!r}; zones are {', '.join(cg.zone_base)}")
    base = cg.zone_base[name]
    per_player = cg.zone_info[base][1] >= 0
    if per_player != bool(seat):
        raise KeyError(f"zone {name!r} is {'per player: write ' + name + '/K' if per_player else 'shared: write just ' + name}")
    return base + (int(seat) - 1 if seat else 0)


def card_ids(cg, names, used: Optional[set] = None) -> list[int]:
    """Card numbers for display names such as "7♥" or "red_joker", each a card not in ``used``."""
    used = set() if used is None else used
    out = []
    for nm in names:
        for cid, cn in enumerate(cg.card_names):
            if cn == nm and cid not in used:
                used.add(cid)
                out.append(cid)
                break
        else:
            raise KeyError(f"no (more) card called {nm!r} in this deck")
    return out


def position(game, players: int, zones: dict, rest: str, current: int = 1,
             vars: Optional[dict] = None, seed: int = 0, log: bool = True):
    """A state at the start of seat ``current``'s turn with exactly these zones (bottom first)."""
    cg = game.compiled(players) if hasattr(game, "compiled") else game
    st = cg.new_game(seed=seed, log=log)
    used: set = set()
    st.zones = [[] for _ in cg.zone_info]
    for key, names in zones.items():
        st.zones[_zone_index(cg, key)] = card_ids(cg, names, used)
    rz = st.zones[_zone_index(cg, rest)]
    rz[:0] = [c for c in range(len(cg.cards)) if c not in used]
    nobody_played(st)
    for key, value in (vars or {}).items():
        name, _, seat = key.partition("/")
        i = cg.var_base[name] + (int(seat) - 1 if seat else 0)
        st.vars[i] = value
    restart_turn(st, current - 1)
    return st


def restart_turn(st, seat: int):
    """Abandon whatever was being decided and start ``seat``'s turn from its beginning."""
    cg = st.game
    st.terminal = False
    st.outcome = None
    st.winners = []
    st.decision = NO_DECISION
    st.cur = seat
    st.stack = [[cg.root, 1, 0]]
    cg.run(st)
    return st


def play(st, *choices: str):
    """Apply choices given as their words (``"play 7♥"``, ``"draw"``), checking each is legal."""
    for words in choices:
        options = {st.action_to_string(a): a for a in st.legal_actions()}
        if words not in options:
            raise AssertionError(f"{words!r} is not legal for player {st.current_player() + 1}; "
                                 f"legal: {sorted(options)}")
        st.apply_action(options[words])
    return st


def zone(st, key: str) -> list[str]:
    """The display names of a zone's cards, bottom first."""
    cg = st.game
    return [cg.card_names[c] for c in st.zones[_zone_index(cg, key)]]


def var(st, key: str):
    cg = st.game
    name, _, seat = key.partition("/")
    return st.vars[cg.var_base[name] + (int(seat) - 1 if seat else 0)]
