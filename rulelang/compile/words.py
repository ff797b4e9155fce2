"""The words of a game: values told in words (a card's name, ``player 2``, a zone), an action in
words, the variables in words, and the entries of a game's log (``new_game(log=True)``) that the
compiled code and the generated code write (``log_turn``, ``log_shuffle``; the moves:
:func:`rulelang.engine.events.log_move`).
"""
from __future__ import annotations

from rulelang.kinds import CARD, CARDS, FLAG, PLAYER, RANK, SET_KINDS, SUIT, SYMBOL, TEXT, ZONE, Kind
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK


def log_turn(g):
    """For the words of a game (``new_game(log=True)``): a turn is over and the next one begins;
    ``("turn", turns played, whose turn now, direction)`` (rulelang/engine/events.py)."""
    g.log.append(("turn", g.turns, g.cur, g.dir))


def log_shuffle(g, zi):
    """``("shuffle", zone, its cards now)``, in a logged game (rulelang/engine/events.py)."""
    if g.log is not None:
        g.log.append(("shuffle", zi, tuple(g.zones[zi])))


class Words:
    """Values and actions of a compiled game in words (a mixin of ``CompiledGame``)."""

    def format(self, g, v, typ):
        if typ == CARD:
            return self.card_names[v] if 0 <= v < len(self.card_names) else "nothing"
        if typ == PLAYER:
            return f"player {v + 1}" if v >= 0 else "nobody"
        if typ == SUIT:
            return self.suit_name(v)
        if typ == FLAG:
            return "yes" if v else "no"
        if typ == SYMBOL:
            return self.symbol_name(v)
        if typ == ZONE:
            return self.zone_label(v)
        if typ == TEXT:
            texts = self.model.texts
            return texts[v] if 0 <= v < len(texts) else "?"
        if typ == RANK:
            return self.rank_name(v)
        if typ in SET_KINDS:
            return self.set_words(v, typ)
        if typ == CARDS:                     # only what everyone may see is named
            cards = g.zones[v]
            _name, _owner, vis, size_hidden = self.zone_info[v]
            shown = cards if vis == "everyone" else cards[-1:] if vis == "top" else \
                cards[:1] if vis == "bottom" else []
            words = [self.card_names[c] for c in shown]
            hidden = len(cards) - len(shown)
            if hidden:
                words.insert(0, "hidden cards" if size_hidden else
                             f"{hidden} hidden card{'s' if hidden != 1 else ''}")
            return ", ".join(words) if words else "no cards"
        return str(v)

    def set_words(self, m, typ):
        """A set of values in words, in their order (suits as the deck declares them, ranks
        lowest first, players by seat, named values lowest first): "hearts, spades", or "none"."""
        name = {Kind.SET_SUITS: self.suit_name, Kind.SET_RANKS: self.rank_name,
                Kind.SET_PLAYERS: lambda v: f"player {v + 1}",
                Kind.SET_VALUES: self.symbol_name}[typ]
        words, v = [], 0
        while m >> v:
            if (m >> v) & 1:
                words.append(name(v))
            v += 1
        return ", ".join(words) if words else "none"

    def rank_name(self, num):
        """A rank as players call it: its text (`skip "Skip"`), else its name."""
        for name, v in self.model.ranks.items():
            if v == num:
                return self.model.rank_texts.get(name, name)
        return str(num)

    def suit_name(self, v):
        """A suit as players call it: its text (`red "Red"`), else its name (a sign such as
        `"♥"` is for card names only)."""
        suits = self.model.suits
        if not 0 <= v < len(suits):
            return "no suit"
        return self.model.suit_texts.get(suits[v], suits[v])

    def symbol_name(self, v):
        """A word or named value as players call it: its text (`two "2"`), else its name."""
        for name, i in self.model.symbols.items():
            if i == v:
                return self.model.value_texts.get(name, name)
        return "none"

    def action_to_string(self, action: int, g=None) -> str:
        alt = self.alternatives[action >> ACTION_SHIFT]
        v = action & VALUE_MASK
        if alt.kind is None:
            return alt.label
        if alt.kind == "card":
            return f"{alt.label} {self.card_names[v]}"
        if alt.kind == "player":
            return f"{alt.label} player {v + 1}"
        if alt.kind == "suit":
            return f"{alt.label} {self.suit_name(v)}"
        if alt.kind == "place":
            return f"{alt.label} #{v + 1}"
        if alt.kind == "set":               # the cards of the set, when the state is known
            from rulelang.engine.subsets import cards_of_action
            cards = cards_of_action(g, action) if g is not None else None
            if cards is None:
                return f"{alt.label} set {v + 1}"
            return f"{alt.label} " + " ".join(self.card_names[c] for c in cards)
        if alt.kind == "rank":
            return f"{alt.label} {self.rank_name(v)}"
        if alt.kind == "value":
            return f"{alt.label} {self.symbol_name(v)}"
        return f"{alt.label} {v}"

    def describe_vars(self, g) -> dict:
        out = {}
        for i, (name, owner, typ) in enumerate(self.var_info):
            if name.startswith(" "):              # a rule's result: no variable of the game
                continue
            val = self.format(g, g.vars[i], typ)
            if name in self.team_vars:            # a variable of each team: by team
                if owner < self.team_count:
                    out.setdefault(name, {})[f"team {owner + 1}"] = val
            elif owner < 0:
                out[name] = val
            else:
                out.setdefault(name, []).append(val)
        return out

    def value(self, g, v, typ):
        """A variable's value as a Python value of its type (not words): a number an int,
        yes/no a bool, a player their seat (0-based) and a card its number (the index into
        ``card_names`` and the zones' lists), a zone its index, a rank its number; a suit or a
        named value its name, a text the text; ``none`` is None."""
        if typ == FLAG:
            return bool(v)
        if typ in (CARD, PLAYER, ZONE):
            size = (len(self.card_names) if typ == CARD else self.n if typ == PLAYER
                    else len(self.zone_info))
            return v if 0 <= v < size else None
        if typ == SUIT:
            suits = self.model.suits
            return suits[v] if 0 <= v < len(suits) else None
        if typ == SYMBOL:
            for name, i in self.model.symbols.items():
                if i == v:
                    return name
            return None
        if typ == TEXT:
            texts = self.model.texts
            return texts[v] if 0 <= v < len(texts) else None
        return v

    def typed_vars(self, g) -> dict:
        """Every variable of the game as :meth:`value` gives it: ``{name: value}``, a variable
        of each player ``{name: [value of seat 1, ...]}``, a variable of each team ``{name:
        {team number: value}}`` (teams numbered from 1, as `the team of P` is)."""
        out = {}
        for i, (name, owner, typ) in enumerate(self.var_info):
            if name.startswith(" "):              # a rule's result: no variable of the game
                continue
            val = self.value(g, g.vars[i], typ)
            if name in self.team_vars:            # a variable of each team: {team number: value}
                if owner < self.team_count:
                    out.setdefault(name, {})[owner + 1] = val
            elif owner < 0:
                out[name] = val
            else:
                out.setdefault(name, []).append(val)
        return out

    def zone_label(self, zi):
        name, owner, _, _ = self.zone_info[zi]
        return name if owner < 0 else f"{name} of player {owner + 1}"

    def shown_with(self, g, zi: int):
        """``(label, value in words)`` of the value a rule file shows with zone ``zi``
        (``show "LABEL" with ZONE: EXPR``), or None: none declared, or the zone is empty."""
        name, owner, _v, _s = self.zone_info[zi]
        show = self.show_fns.get(name)
        if show is None or not g.zones[zi]:
            return None
        label, fn, nslots, typ = show
        v = fn(g, self._scratch(nslots, owner if owner >= 0 else g.cur))
        return label, self.format(g, v, typ)
