"""The words of a game for people: display names and narration.

The machine identity of a game (``State.action_to_string``, the log, JSON, golden transcripts)
uses the rule file's identifiers.  People read the rulebook's words instead: a zone, a choice
label, an option, a variable or an extra card may be given its display text in the rule file
(``zone draw_pile "Draw Pile": ...``, ``let_it_happen "let it happen":``), and otherwise
the identifier is read with its underscores as spaces (a zone's words capitalised:
``draw_pile`` reads "Draw Pile", ``let_it_happen`` "let it happen").

:class:`Words` holds those names for one compiled game; :mod:`rulelang.cli.narration` and the
commands (:mod:`rulelang.cli.run`, :mod:`rulelang.cli.play`) use it for ``run`` and ``play``.
Nothing here names a particular game.
"""
from __future__ import annotations

import re
from typing import Any, Optional

from rulelang.limits import ACTION_SHIFT, VALUE_MASK

PLURAL_NOUNS = ("card", "point", "turn", "round", "trick", "player", "game", "deck", "pile",
                "time", "win", "life", "battle", "decision")
# (not after "Player": "Player 1 wins" names a player, it does not count wins)
_ONE_PLURAL = re.compile(r"(?<![\d.,])(?<!Player )(?<!player )\b1 (" + "|".join(PLURAL_NOUNS)
                         + r")s\b")
_LIVES = re.compile(r"(?<![\d.,])\b1 lives\b")
_PLAYER = re.compile(r"\bplayer (\d+)\b")
_IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")


def humanize(ident: str) -> str:
    """``let_it_happen`` -> ``let it happen``."""
    return str(ident).replace("_", " ").strip()


def title(ident: str) -> str:
    """``draw_pile`` -> ``Draw Pile`` (words already capitalised are kept)."""
    return " ".join(w[:1].upper() + w[1:] for w in humanize(ident).split())


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def fix_plurals(text: str) -> str:
    """``1 cards`` -> ``1 card`` (a count of one before a plural noun)."""
    return _LIVES.sub("1 life", _ONE_PLURAL.sub(r"1 \1", text))


# "a" before a word that is said with a vowel sound first: "an ace", "an 8", "an 11"
_VOWEL_SOUND = re.compile(r"(?i)(?:[aeio]|u(?!n[iy]|s[eu])|8|1[18](?!\d))")


def with_article(label: str, slot: str, value: str) -> str:
    """``label`` with ``slot`` replaced by ``value``; an "a" just before the slot becomes "an"
    when the value is said with a vowel sound first (``counts as a {r}``: "a 7", "an 8",
    "an ace")."""
    def put(m: re.Match[str]) -> str:
        return m.group(1) + ("an " if _VOWEL_SOUND.match(value) else "a ") + value
    return re.sub(r"(^|\s)a " + re.escape(slot), put, label).replace(slot, value)


def seat_words(seat: int, you: Optional[int] = None, capital: bool = True) -> str:
    if you is not None and seat == you:
        return "You" if capital else "you"
    return f"Player {seat + 1}"


class Words:
    """The display names of one compiled game."""

    def __init__(self, cg: Any) -> None:
        """``cg``: a compiled game (compile/), typed loosely: this module is beneath it."""
        self.cg = cg
        m = cg.model
        self.model = m
        self.zone_display: dict[str, str] = {name: (z.display if getattr(z, "display", None) else title(name))
                             for name, z in m.zones.items()}
        self.zone_shown: dict[str, str] = {name: getattr(z, "shown", "yes") for name, z in m.zones.items()}
        self.var_display: dict[str, str] = {name: v.decl.display for name, v in m.vars.items()
                            if getattr(v.decl, "display", None)}
        self.card_display: dict[str, str] = {}
        for dt in m.deck_types.values():
            for name, text in getattr(dt, "display", ()) or ():
                self.card_display[name] = text
        for name in cg.card_names:
            if "_" in name and name not in self.card_display:
                self.card_display[name] = humanize(name)
        self.option_display: dict[str, str] = {name: (o.decl.display or humanize(name))
                               for name, o in m.options.items()}
        self._card_re: Optional[re.Pattern[str]] = None
        if self.card_display:
            names = sorted(self.card_display, key=len, reverse=True)
            self._card_re = re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in names)
                                       + r")(?![\w])")

    # ---- names -------------------------------------------------------------------------------
    def zone(self, name: str) -> str:
        return self.zone_display.get(name, title(name))

    def shown(self, name: str) -> str:
        """"yes", "no" (bookkeeping, never shown) or "in use" (shown when not empty)."""
        return self.zone_shown.get(name, "yes")

    def card(self, name: str) -> str:
        return self.card_display.get(name, name)

    def option(self, name: str, value: object) -> str:
        if isinstance(value, bool):
            v = "yes" if value else "no"
        else:
            v = humanize(value) if isinstance(value, str) else str(value)
        return f"{self.option_display.get(name, humanize(name))}: {v}"

    def options(self, opts: dict[str, object]) -> str:
        return ", ".join(self.option(k, v) for k, v in opts.items())

    # ---- choices -----------------------------------------------------------------------------
    def action(self, action: int, you: Optional[int] = None, hide_card: bool = False,
               cards: Optional[Any] = None) -> str:
        """The words of a choice for people (``take a card from Player 2``); the machine's
        words stay :meth:`State.action_to_string`.  ``hide_card``: a card the viewer may not see
        is "a card".  ``cards``: the cards of a set chosen in one action (``capture 3♣ 5♦``),
        or the state whose decision offers it (engine/subsets.cards_of_action)."""
        cg = self.cg
        aid = action >> ACTION_SHIFT
        alt = cg.alternatives[aid]
        decl = self.model.alternatives[aid][0]
        label = decl.display or humanize(alt.label)
        v = action & VALUE_MASK
        kind = alt.kind
        if kind is None:
            return label
        if kind == "card":
            value = "a card" if hide_card else self.card(cg.card_names[v])
        elif kind == "player":
            value = seat_words(v, you, capital=False) if you is not None and v == you \
                else f"Player {v + 1}"
        elif kind == "suit":
            value = humanize(cg.suit_name(v))
        elif kind == "rank":
            value = humanize(cg.rank_name(v))
        elif kind == "place":               # `unseen card c from Z`: a place, never the card
            value = f"#{v + 1}"
        elif kind == "set":                 # `a set of ... cards s`: the set's cards
            if cards is not None and not isinstance(cards, (tuple, list)):
                from rulelang.engine.subsets import cards_of_action
                cards = cards_of_action(cards, action)
            value = " ".join(self.card(cg.card_names[c]) for c in cards) if cards \
                else f"set {v + 1}"
        elif kind == "value":               # a named value (`call bid b`): its text or name
            value = humanize(cg.symbol_name(v))
        else:
            value = str(v)
        pname = decl.param.name if decl.param is not None else None
        if pname and "{" + pname + "}" in label:
            text = with_article(label, "{" + pname + "}", value)
        else:
            text = f"{label} {value}"
        if value == "you":             # "the Draw Pile of you" -> "your Draw Pile"
            text = re.sub(r"\bthe ((?:[A-Z][\w']* ?)+) of you\b", lambda m: "your " + m.group(1).strip(), text)
        return text

    def label(self, action: int) -> str:
        """The words of a choice's label alone (``block``), for a prompt's heading."""
        aid = action >> ACTION_SHIFT
        decl = self.model.alternatives[aid][0]
        text = decl.display or humanize(self.cg.alternatives[aid].label)
        if decl.param is not None:
            text = re.sub(r"\s*\{" + re.escape(decl.param.name) + r"\}\s*", " ", text).strip()
            text += {"card": " a card", "player": " a player", "suit": " a suit",
                     "rank": " a rank", "number": " a number", "set": " a set of cards"}.get(
                         decl.param.kind, f" a {humanize(decl.param.source.name)}"
                         if decl.param.kind == "value" else "")
        return text

    # ---- sentences ---------------------------------------------------------------------------
    def text(self, text: str, you: Optional[int] = None) -> str:
        """A sentence of the rules (``say``) in people's words: players as ``Player 2`` (or
        ``you``), extra cards by their names, identifiers without underscores, plurals right."""
        if self._card_re is not None:
            text = self._card_re.sub(lambda m: self.card_display[m.group(1)], text)

        def player(m: re.Match[str]) -> str:
            seat = int(m.group(1)) - 1
            return "you" if you is not None and seat == you else f"Player {seat + 1}"
        text = _PLAYER.sub(player, text)
        if you is not None:         # "the hand of you" -> "your hand"; "a card of yours"
            text = re.sub(r"\bthe ((?:[\w']+ ){0,2}[\w']+) of you\b", r"your \1", text)
            text = re.sub(r"\b(an? (?:[\w']+ ){0,2}[\w']+) of you\b", r"\1 of yours", text)
        text = _IDENT.sub(lambda m: humanize(m.group(0)), text)
        text = re.sub(r"\bYes\b|\bTrue\b", "yes", text)
        text = re.sub(r"\bFalse\b", "no", text)
        return fix_plurals(text)

    def zone_of(self, zi: int, you: Optional[int] = None) -> str:
        """``Hand of Player 2`` (``your Hand``) for a zone's number in a state."""
        name, owner, _vis, _sh = self.cg.zone_info[zi]
        if owner < 0:
            return self.zone(name)
        if you is not None and owner == you:
            return f"your {self.zone(name)}"
        return f"{self.zone(name)} of Player {owner + 1}"

    def team_vars_of(self, st: Any, team: int) -> list[tuple[str, str]]:
        """The shown variables of each team (`var NAME "Label" per team`) of team ``team``
        (numbered from 1): ``[(name, value words)]``."""
        cg = self.cg
        out: list[tuple[str, str]] = []
        for name in getattr(cg, "team_vars", ()):
            if name in self.var_display:
                typ = cg.var_info[cg.var_base[name]][2]
                v = st.vars[cg.var_of_base[name] + team]
                out.append((self.var_display[name], self.text(cg.format(st, v, typ))))
        return out

    def vars_of(self, st: Any, owner: Optional[int]) -> list[tuple[str, str]]:
        """The shown variables (those with a display name): ``[(name, value words)]`` of one
        player (``owner``) or the shared ones (``owner`` None)."""
        out: list[tuple[str, str]] = []
        cg = self.cg
        team_vars = getattr(cg, "team_vars", ())
        for i, (name, own, typ) in enumerate(cg.var_info):
            if name not in self.var_display:
                continue
            if name in team_vars:       # a variable of each team: with each player, their team's
                if owner is not None and own == 0:
                    at = cg.var_of_base[name] + st.vars[cg.team_base + owner]
                    out.append((self.var_display[name], self.text(cg.format(st, st.vars[at], typ))))
                continue
            if (owner is None) != (own < 0) or (owner is not None and own != owner):
                continue
            out.append((self.var_display[name], self.text(cg.format(st, st.vars[i], typ))))
        return out
