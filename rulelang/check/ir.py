"""The checker's resolved references: what each name, and each construct that needs a place in
the frame, was resolved to.  The checker stores one per node in ``model.refs`` (a :class:`Refs`);
the generators (and the reference interpreter of the tests) read them by attribute, through
:meth:`Refs.of`.

Every reference is a frozen attrs class (a subclass of :class:`Ref`), equal when its fields
are equal.  By what it refers to:

- the frame: :class:`Slot` (the local slot a construct binds), :class:`Local` (a name that
  names a local slot), :class:`You` (where ``you`` is for the node: the frame's own ``you``
  when its slot is -1, a chooser's slot inside a choice), the several slots of one construct (:class:`PlayerQuerySlots`,
  :class:`PlayerLoopSlots`, :class:`CardLoopSlots`, :class:`ValueLoopSlots`,
  :class:`EndGameSlots`) and ``set current player`` (:class:`CurrentPlayer`);
- the game's state: :class:`Var` and :class:`Zone` (a name: the shared one, or ``you``'s when
  it is per player), :class:`VarOf` and :class:`ZoneOf` (``NAME of PLAYER``),
  :class:`ZoneFamily` (``column(k)``);
- values known before the game: :class:`Const` (an option, a rank, a suit, a symbol, a text's
  index), :class:`Symbol` (a word an attribute gives), :class:`CardLiteral` (``Q♠``),
  :class:`CardName` (an extra card of the deck by name);
- the card tables: :class:`Rank`, :class:`Suit`, :class:`Attribute` (``X of CARD``);
- a use of a define: :class:`DefineUse`, the checked copy of its body (shared between the uses
  with the same arguments).

The frame's layout (where slot ``i`` is) is :class:`rulelang.kinds.Frame`.

A new kind of reference is a new frozen class here (a subclass of :class:`Ref`, named for what
it refers to, with named fields).  The checker stores it (``self.refs.set(node, New(...))``);
the generators read it with ``ref = self.refs.of(node)`` and ``isinstance(ref, New)``, then its
fields.  Storing a tuple raises ``TypeError``, and ``tests/test_ir.py`` fails when a module
reads ``refs`` by ``id()`` or by tag.

The model's other side tables are typed the same way (:class:`NodeTable`, below): ``types`` and
``say_as`` hold kinds, ``labels`` an :class:`AltId`, ``choose_slots`` a :class:`ChooseSlots`,
``picks`` a :class:`PickSlots`, ``sets`` a :class:`SetSlots`, ``unseen`` a :class:`Slot`, and
``seat_uses`` is a :class:`NodeSet`.  The node's identity is the tables' own business: the checker writes
``table.set(node, value)``, every other module reads ``table.of(node[, default])`` or
``table.has(node)``, and no module outside this one subscripts a table with ``id()``.
"""
from __future__ import annotations

from typing import Any, Optional

import attrs

from rulelang.kinds import Frame, Kind


class Ref:
    """A resolved reference (the base of every class here)."""
    __slots__ = ()


# -- the frame ------------------------------------------------------------------------------

@attrs.frozen
class Slot(Ref):
    """The local slot of the rule's frame that a construct binds: ``let``'s, a loop's counter,
    the card of ``any card in Z where ...``, the number of ``any number n from ...``."""
    slot: int

    @property
    def index(self) -> int:
        """Its index in the frame."""
        return Frame.slot(self.slot)


@attrs.frozen
class Local(Ref):
    """A name that names a local slot (a ``let``, a rule's parameter, a loop's or a choice's
    value), or the card slot of ``move cards where ...`` (its ``card``)."""
    slot: int

    @property
    def index(self) -> int:
        return Frame.slot(self.slot)


@attrs.frozen
class You(Ref):
    """Who ``you`` is at the node: slot -1 is the frame's own ``you``, another slot the chooser's
    (inside a choice, ``you`` is the chooser)."""
    slot: int

    @property
    def index(self) -> int:
        return Frame.slot(self.slot)


@attrs.frozen
class PlayerQuerySlots(Ref):
    """``any player where ...`` and its kin: the slot of ``player``, and where ``you`` is."""
    player: int
    you: int


def you_slot(ref: You | PlayerQuerySlots) -> int:
    """Where ``you`` is for a node resolved to ``ref`` (a :class:`You`, or a player query)."""
    return ref.you if isinstance(ref, PlayerQuerySlots) else ref.slot


@attrs.frozen
class PlayerLoopSlots(Ref):
    """``for each player p``: the slot of ``p`` and of the count of players done."""
    player: int
    count: int


@attrs.frozen
class CardLoopSlots(Ref):
    """``for each card c in Z``: the slot of ``c``, of the cards (taken at the start), of the
    index among them."""
    card: int
    cards: int
    index: int


@attrs.frozen
class ValueLoopSlots(Ref):
    """``for each rank r`` / ``for each suit s``: the slot of the value and of its index."""
    value: int
    index: int


@attrs.frozen
class EndGameSlots(Ref):
    """``end game with winners where ... and losers where ...``: the slot of ``player`` in
    each condition (None when the condition is not there)."""
    winners: Optional[int]
    losers: Optional[int]


@attrs.frozen
class CurrentPlayer(Ref):
    """``set current player to P``; in ``setup``'s own body it moves ``you`` too."""
    moves_you: bool


# -- the game's state -----------------------------------------------------------------------

@attrs.frozen
class Var(Ref):
    """A variable by name: the shared one, or ``you``'s (at slot ``you``) when per player."""
    name: str
    per_player: bool
    you: int


@attrs.frozen
class Zone(Ref):
    """A zone by name: the shared one, or ``you``'s (at slot ``you``) when per player."""
    name: str
    per_player: bool
    you: int


@attrs.frozen
class VarOf(Ref):
    """``NAME of PLAYER``: a per-player variable of a player."""
    name: str


@attrs.frozen
class ZoneOf(Ref):
    """``NAME of PLAYER``: a per-player zone of a player."""
    name: str


@attrs.frozen
class ZoneFamily(Ref):
    """``column(k)``: the zone numbered ``k`` of a family, ``names[k - first]``.  Of a family
    declared ``per player`` (``per_player``), each name is the first of its players' zones:
    ``pile(k)`` is yours (``you``: the slot of ``you``), ``pile(k) of p`` is p's (``you`` None).
    A family by suit (rank) is numbered by the suit's index (the rank's number): ``keyed``."""
    names: tuple[str, ...]
    first: int
    per_player: bool = False
    you: "int | None" = None
    keyed: "str | None" = None      # "suit" or "rank": a family by suit or rank (its words)


# -- values known before the game -----------------------------------------------------------

@attrs.frozen
class Const(Ref):
    """A value known when the game is checked: an option's, a rank's or suit's number, a
    symbol's id, a text's index in ``model.texts`` (0 after an error)."""
    value: int


@attrs.frozen
class Symbol(Ref):
    """A word that an attribute gives a card (its id among the game's symbols)."""
    value: int


@attrs.frozen
class CardLiteral(Ref):
    """A card of the deck written by rank and suit (``Q♠``, ``queen of spades``)."""
    rank: str
    suit: object


@attrs.frozen
class CardName(Ref):
    """An extra card of the deck by name."""
    name: str


# -- the card tables ------------------------------------------------------------------------

@attrs.frozen
class Rank(Ref):
    """``rank of CARD``."""


@attrs.frozen
class Suit(Ref):
    """``suit of CARD``."""


@attrs.frozen
class Attribute(Ref):
    """``NAME of CARD``: a card attribute the game declares."""
    name: str


# -- defines --------------------------------------------------------------------------------

@attrs.frozen
class DefineUse(Ref):
    """A use of a ``define``: the checked copy of its body (an ``Expanded``), one copy for every
    use with the same arguments in the same place."""
    expanded: object


class NodeTable(dict[Any, Any]):
    """A side table of the checker: one typed value per node of the tree, keyed by the node's
    identity (the tree is frozen and shared, so a value cannot be put on the node itself).  The
    identity is this class's business: the checker writes with :meth:`set`, everyone reads with
    :meth:`of` (or asks :meth:`has`).  Only a :attr:`holds` may be stored (anything else is a
    ``TypeError``, so a tuple or a bare number cannot creep back in)."""
    holds: type = object
    name = "a table of the model"
    what = "typed values"

    def __setitem__(self, key: Any, value: Any) -> None:
        if not isinstance(value, self.holds):
            raise TypeError(f"{self.name} holds {self.what} (rulelang.check.ir), not {value!r}")
        super().__setitem__(key, value)

    def of(self, node: object, default: Any = KeyError) -> Any:
        """The value the checker gave ``node``; ``default`` when it has none (a ``KeyError`` if
        no default is given)."""
        value = self.get(id(node), default)
        if value is KeyError:
            raise KeyError(node)
        return value

    def has(self, node: object) -> bool:
        """Whether the checker gave ``node`` a value here."""
        return id(node) in self

    def set(self, node: object, value: Any) -> Any:
        """Give ``node`` its value; returns ``value``."""
        self[id(node)] = value
        return value


class Refs(NodeTable):
    """``model.refs``: the reference of each node.  Only a :class:`Ref` may be stored (anything
    else is a ``TypeError``); read with :meth:`of`."""
    holds = Ref
    name = "model.refs"
    what = "resolved references"

    def card_literal(self, text: str) -> Optional[CardLiteral]:
        """The card that a card literal of an attribute's entries (``Q♠: 13``) names."""
        return self.get(("card literal", text))

    def set_card_literal(self, text: str, ref: CardLiteral) -> None:
        self[("card literal", text)] = ref


# -- the model's other tables -----------------------------------------------------------------
# Each is a NodeTable of one class of value: what the checker decided about a node that the
# generators need (the kind of an expression, where a choice keeps its chooser...).

class TypesTable(NodeTable):
    """``model.types``: the :class:`rulelang.kinds.Kind` of each checked expression."""
    holds = Kind
    name = "model.types"
    what = "kinds (Kind)"


class SayAsTable(NodeTable):
    """``model.say_as``: how a part of a ``say`` is shown when its kind alone does not tell (a
    number that is a rank: :data:`rulelang.kinds.RANK`)."""
    holds = Kind
    name = "model.say_as"
    what = "kinds (Kind)"


@attrs.frozen
class AltId:
    """The game's number of an alternative of a choice: its index in ``model.alternatives``,
    and the high bits of the actions that choose it."""
    aid: int


class LabelsTable(NodeTable):
    """``model.labels``: the :class:`AltId` of each alternative (and of the "no more cards" that a
    choice of several cards adds)."""
    holds = AltId
    name = "model.labels"
    what = "alternative numbers (AltId)"


@attrs.frozen
class ChooseSlots:
    """The slots of one ``choose``: the chooser's (``you`` inside it), the parameter of each
    alternative in order (``None`` for one without), and, for a simultaneous choice, the slot
    that keeps the choices made so far (``None`` otherwise)."""
    chooser: int
    params: tuple[Optional[int], ...]
    extra: Optional[int]


class ChooseSlotsTable(NodeTable):
    """``model.choose_slots``: the :class:`ChooseSlots` of each ``choose`` statement."""
    holds = ChooseSlots
    name = "model.choose_slots"
    what = "the slots of a choice (ChooseSlots)"


@attrs.frozen
class PickSlots:
    """An alternative that chooses several cards in one step (``N [or more] cards c from Z to D``):
    the slots of its state (the cards that may be chosen, those chosen so far, Z, D, the fewest
    and the most, in that order) and the number of its "no more cards" alternative."""
    slots: tuple[int, ...]
    done: int


class PicksTable(NodeTable):
    """``model.picks``: the :class:`PickSlots` of each alternative that chooses several cards."""
    holds = PickSlots
    name = "model.picks"
    what = "the slots of a choice of several cards (PickSlots)"


@attrs.frozen
class SetSlots:
    """An alternative that chooses a set of cards in one action (``a set of N cards c from Z to
    D ...``): the slot of c (the set's first card; the parameter's own slot holds the number of
    the set chosen) and the slots of what the sets are made from (the cards that may be chosen,
    Z, D, the fewest, the most and the total asked for, in that order)."""
    card: int
    slots: tuple[int, ...]


class SetsTable(NodeTable):
    """``model.sets``: the :class:`SetSlots` of each alternative that chooses a set of cards."""
    holds = SetSlots
    name = "model.sets"
    what = "the slots of a choice of a set of cards (SetSlots)"


class UnseenTable(NodeTable):
    """``model.unseen``: for an alternative ``unseen card c from Z``, the :class:`Slot` of c (the
    card at the place chosen; the parameter's own slot holds the place)."""
    holds = Slot
    name = "model.unseen"
    what = "slots (Slot)"


class NodeSet:
    """A set of nodes, by identity: ``model.seat_uses``, the expressions used as a player (whose
    hand, who chooses, the winner...) that may be ``none`` when the game is played, where the
    compiled game stops with RL912 rather than use seat -1.  ``add(node)``; ``has(node)``."""
    __slots__ = ("_ids",)

    def __init__(self) -> None:
        self._ids: set[int] = set()

    def add(self, node: object) -> None:
        self._ids.add(id(node))

    def has(self, node: object) -> bool:
        return id(node) in self._ids

    def __len__(self) -> int:
        return len(self._ids)
