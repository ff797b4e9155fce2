"""What each kind of statement does to a game, declared once: :data:`EFFECTS`, one
:class:`Effects` per statement class of :mod:`rulelang.syntax.ast`.

A description names, by the statement's parts (its fields: ``source``, ``dest``...), the zones
whose cards it looks at (``reads``), adds or takes (``writes``) or puts in a new order
(``reorders``); the cards it hides or shows (``sight``); the kind of event it records in a
logged game's log (``event``, one of :data:`rulelang.engine.events.EVENTS`; the narration
replays those); how what players remember treats it (``memory``, docs/language.md, "What
players remember"); and how the differential fuzzer writes it (``fuzz``: the method of
``tests/wellfuzz.py``'s ``GameGen``, or why it is not generated).  A statement whose meaning
depends on one of its fields (``Simple``: ``stop``, ``skip``...) has a description per value
(``cases``, by the field ``by``).

The places that need these facts read them here: what players remember may lie
(``compile/places.py``: :func:`memory_kind`), where the card of a ``reveal`` is known to be
(:func:`still`), the events narration tells (``cli/narration.py``), the fuzzer's coverage
(``tests/test_fuzz_differential.py``).  ``tests/test_effects.py`` fails while a statement class
(or a word of ``Simple``) has no description, and checks each description against the reference
interpreter: the zones a statement changes, the events it logs and whether it changes what
players remember.

A part is a path of field names: ``source``; ``alternatives[].param.dest`` (every
alternative's); ``alternatives[].param(cards).source`` (only a parameter of that kind).  A part
that holds a name rather than a value (``Deal.zone``) names a zone of every player.
``param(card|cards)`` keeps a parameter of either kind.
"""
from __future__ import annotations

from typing import Any, Iterator, Optional

import attrs

from rulelang.syntax import ast as A

# How what players remember treats a statement (docs/language.md, "What players remember").
NOTHING = "nothing"         # nothing anyone remembers changes
SEEN_GO = "seen go"         # a card taken out of sight is remembered where it went by those who
#                             saw it go; one that leaves unseen is forgotten; a whole zone moved
#                             takes what is remembered of it along (players.seen_go, left_unseen)
FORGOTTEN = "forgotten"     # the cards it takes out of a zone unseen are forgotten (left_unseen)
SHOWN = "shown"             # the player remembers the card in the zone it is in (show_in)
REVEALED = "revealed"       # every player who does not see its zone remembers it there
PICKED = "picked"           # the move of a several-cards choice is seen go as a move is
INSIDE = "inside"           # only through the statements inside it (a block, a call)

# Which cards a statement hides or shows.
UNSEEN = "none"                     # it shows and hides no card
BY_ZONES = "as its zones show them"  # cards seen as the zones they leave and enter show them
ORDER = "the order of a zone"       # a shuffle: a face-up zone shows its new order, a pile its top
TO_ONE = "one card to one player"
TO_ALL = "one card to every player"
CHOICES = "its choices"             # who sees a decision (a simultaneous one: nobody until all)


@attrs.frozen
class Effects:
    """The effects of one kind of statement (see the module's docstring)."""
    fuzz: str                                  # "st_move" (GameGen's) or "not generated: ..."
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    reorders: tuple[str, ...] = ()
    sight: str = UNSEEN
    event: Optional[str] = None
    memory: str = NOTHING
    sets: tuple[str, ...] = ()                 # the parts naming what it sets (a local, a variable)
    control: Optional[str] = None              # "jumps", "calls", "decides", "ends", "block"
    by: Optional[str] = None                   # (a description per value of this field:)
    cases: dict = attrs.field(factory=dict)    # value -> Effects

    @property
    def generated(self) -> bool:
        """Does the differential fuzzer write it?"""
        return not self.fuzz.startswith("not generated")


_BLOCK = dict(memory=INSIDE, control="block")

EFFECTS: dict[type, Effects] = {
    A.Shuffle: Effects(reads=("zone",), reorders=("zone",), sight=ORDER, event="shuffle",
                       fuzz="st_shuffle"),
    A.Deal: Effects(reads=("source",), writes=("source", "zone"), sight=BY_ZONES, event="move",
                    memory=FORGOTTEN, fuzz="st_deal"),
    A.Move: Effects(reads=("source",), writes=("source", "dest"), sight=BY_ZONES, event="move",
                    memory=SEEN_GO, fuzz="st_move"),
    A.Assign: Effects(sets=("target",), fuzz="st_set"),
    A.Let: Effects(sets=("name",), fuzz="st_let"),
    A.SetChange: Effects(sets=("target",), fuzz="st_set_change"),
    A.Simple: Effects(by="word", fuzz="by case", cases={
        "stop": Effects(control="jumps", fuzz="st_stop"),
        "return": Effects(control="jumps", fuzz="st_return"),
        "end turn": Effects(control="jumps", fuzz="st_end_turn"),
        "pass": Effects(fuzz="alternatives"),          # (a choice's alternative with no body)
        "skip": Effects(fuzz="st_flow"),
        "reverse": Effects(event="reverse", fuzz="st_flow"),
    }),
    A.EndGame: Effects(event="end", control="ends", fuzz="st_end_game"),
    A.NextTurn: Effects(fuzz="st_flow"),
    A.CallRule: Effects(control="calls", memory=INSIDE, fuzz="st_call"),
    A.Say: Effects(event="say", fuzz="st_say"),
    A.Reveal: Effects(sight=TO_ALL, event="reveal", memory=REVEALED, fuzz="st_reveal"),
    A.Show: Effects(sight=TO_ONE, memory=SHOWN, fuzz="st_show"),
    A.Leave: Effects(fuzz="st_remove"),
    A.JoinTeam: Effects(event="team", fuzz="st_join_team"),
    A.If: Effects(fuzz="st_if", **_BLOCK),
    A.Loop: Effects(fuzz="st_repeat", **_BLOCK),
    A.ForPlayer: Effects(sets=("name",), fuzz="st_for_player", **_BLOCK),
    A.ForCard: Effects(reads=("zone",), sets=("name",), fuzz="st_for_card", **_BLOCK),
    A.ForValue: Effects(sets=("name",), fuzz="st_for_suit", **_BLOCK),
    A.Choose: Effects(reads=("alternatives[].param(card|unseen|cards|set).source",),
                      writes=("alternatives[].param(cards|set).source", "alternatives[].param.dest"),
                      sight=CHOICES, event="choice", memory=PICKED, control="decides",
                      sets=("alternatives[].param.name",), fuzz="st_choose"),
    # (written by the checker as a loop of choices, check/auctions.py: what it does is theirs)
    A.Auction: Effects(reads=("alternatives[].param(card|unseen|cards).source",),
                       writes=("alternatives[].param(cards).source", "alternatives[].param.dest"),
                       sight=CHOICES, event="choice", memory=PICKED, control="decides",
                       sets=("contract", "holder", "alternatives[].param.name"), fuzz="st_auction"),
}


def effects_of(st) -> Effects:
    """The description of statement ``st`` (of its case, for a statement described by case).
    A ``KeyError`` for a statement class with none (tests/test_effects.py sees to it)."""
    e = EFFECTS[type(st)]
    if e.by is not None:
        return e.cases[getattr(st, e.by)]
    return e


def part_values(st, path: str) -> Iterator[Any]:
    """The values of the part ``path`` of statement ``st`` (the module's docstring says how a
    path is written); None values are left out."""
    items = [st]
    for step in path.split("."):
        every = step.endswith("[]")
        name, _, kind = step.removesuffix("[]").partition("(")
        kinds = kind.rstrip(")").split("|") if kind else ()
        out = []
        for x in items:
            v = getattr(x, name, None)
            if v is None:
                continue
            for y in (v if every else (v,)):
                if y is not None and (not kinds or getattr(y, "kind", None) in kinds):
                    out.append(y)
        items = out
    return iter(items)


def memory_kind(st) -> str:
    """How what players remember treats statement ``st`` (:data:`SEEN_GO`...)."""
    return effects_of(st).memory


def still(st) -> bool:
    """Whether statement ``st`` leaves every card in the zone it is in and every local as it
    was: it takes and adds no card, sets nothing, and neither jumps, calls, decides, ends nor
    holds a block (a ``reveal`` after it finds a card where it was before it)."""
    e = effects_of(st)
    return not e.writes and not e.sets and e.control is None


def zone_parts(st) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The zone values (expressions, or names of zones of every player) statement ``st`` reads,
    writes and reorders, as three tuples."""
    e = effects_of(st)
    return tuple(tuple(v for p in paths for v in part_values(st, p))
                 for paths in (e.reads, e.writes, e.reorders))
