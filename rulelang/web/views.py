"""What one seat's browser is sent: the table as that seat may see it, as JSON data.

A view is made on the server from :meth:`State.observation` of the seat (never from the zones
themselves), the seat's own legal choices in words, the shown variables and, once the game is
over, the result.  So a view holds no card the seat may not see, and two positions the seat
cannot tell apart (``State.determinize``) give the same view (tests/test_web_secrecy.py).  The
spectator's view is the observation of no seat: public information only.

The narration is told to each viewer by the terminal's :class:`~rulelang.cli.narration.Narrator`
(the same words as ``rulelang play``), line by line as the game goes on (:class:`Story`).
"""
from __future__ import annotations

from typing import Optional

from rulelang.cli.narration import Narrator
from rulelang.cli.table import result_text, scores_of
from rulelang.engine.display_names import Words
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK

# The kinds of decisions of the language, as the page tells them apart: a card, a player, a
# suit, a rank, a number, a place (a blind pick by position) or a named option.
CHOICE_KINDS = ("card", "player", "suit", "rank", "number", "place", "option")
MAX_STORY = 400             # lines of narration a viewer is sent again when it (re)connects


class Cards:
    """The words of each card name of one compiled game: ``{name: {"name", "text", "rank",
    "suit", "s"}}`` (``s``: the suit's number, for the page's colours)."""

    def __init__(self, cg, words: Words):
        self.by_name: dict = {}
        for c, name in enumerate(cg.card_names):
            if name in self.by_name:
                continue
            card = cg.cards[c]
            rank = words.text(str(card[0])) if card[0] is not None else ""
            try:
                suit = words.text(str(cg.suit_name(card[2]))) if card[2] is not None else ""
            except (IndexError, TypeError, KeyError):
                suit = ""
            self.by_name[name] = {"name": name, "text": words.card(name), "rank": rank,
                                  "suit": suit, "s": card[2] if isinstance(card[2], int) else -1}

    def __call__(self, name: Optional[str]) -> Optional[dict]:
        if name is None:
            return None
        return self.by_name.get(name) or {"name": name, "text": name, "rank": "", "suit": "",
                                          "s": -1}


def observation_of(st, viewer: Optional[int]) -> dict:
    """The seat's observation; for the spectator (``viewer`` None) the observation of no seat,
    with a shared zone seen only by its owner shown as its size."""
    if viewer is not None:
        return st.observation(viewer)
    obs = st.observation(-1)
    for zi, (name, owner, vis, size_hidden) in enumerate(st.game.zone_info):
        if owner < 0 and vis == "owner":
            obs["zones"][name] = None if size_hidden else {"size": len(st.zones[zi])}
    obs.pop("known", None)
    obs.pop("legal", None)
    return obs


def seat_name(p: int, viewer: Optional[int]) -> str:
    return "You" if viewer is not None and p == viewer else f"Player {p + 1}"


def table_view(st, words: Words, cards: Cards, viewer: Optional[int]) -> dict:
    """The table as ``viewer`` (a 0-based seat, or None for the spectator) may see it."""
    cg = st.game
    obs = observation_of(st, viewer)
    n = cg.n
    known = obs.get("known", {})
    played_by = obs.get("played_by", {})      # public: who played each card of a shared zone
    zones = []
    for zi, (name, owner, vis, _sh) in enumerate(cg.zone_info):
        shown = words.shown(name)
        key = name if owner < 0 else f"{name}/{owner + 1}"
        z = obs["zones"].get(key)
        if shown == "no":
            continue
        item: dict = {"key": key, "label": words.zone(name), "owner": owner + 1 if owner >= 0 else 0}
        if isinstance(z, list):
            if shown == "in use" and not z:
                continue
            item["cards"] = [cards(c) for c in z]
            item["size"] = len(z)
            extra = cg.shown_with(st, zi)          # computed from cards this viewer sees
            if extra is not None:
                item["extra"] = [extra[0], words.text(extra[1], viewer)]
        elif isinstance(z, dict):
            if shown == "in use" and not z["size"]:
                continue
            item["size"] = z["size"]
            if "top" in z:
                item["top"] = cards(z["top"])
            if "bottom" in z:
                item["bottom"] = cards(z["bottom"])
        else:
            item["size"] = None                     # the rules hide even its size
        if key in known:
            item["known"] = [cards(c) for c in known[key]]
        if key in played_by:                    # by place, bottom first; the same in every world
            item["played_by"] = [None if p is None else seat_name(p - 1, viewer) for p in played_by[key]]
        zones.append(item)
    seats = []
    tb = getattr(cg, "team_base", None)
    for p in range(n):
        seats.append({"seat": p + 1, "name": seat_name(p, viewer),
                      "vars": [list(v) for v in words.vars_of(st, p)]})
        if tb is not None:                      # a game with teams: the seat's team (public)
            seats[-1]["team"] = st.vars[tb + p]
    view = {
        "you": viewer + 1 if viewer is not None else 0,
        "players": n,
        "turn": st.turns + 1,
        "turn_of": obs["turn_of"],
        "to_decide": obs["to_decide"],
        "zones": zones,
        "seats": seats,
        "vars": [list(v) for v in words.vars_of(st, None)],
        "terminal": bool(obs["terminal"]),
        "decision": decision_of(st, words, cards, viewer),
    }
    if st.terminal:
        view["result"] = result_text(st, viewer).plain
        view["winners"] = [p + 1 for p in st.winners]
        scores = scores_of(st)
        if scores is not None:
            view["scores"] = [str(s) for s in scores]
    if tb is not None:
        view["teams"] = teams_view(st, words, scores_of(st) if st.terminal else None)
    return view


def teams_view(st, words: Words, scores: Optional[list]) -> list:
    """The teams of a game with teams, as everyone may see them: each team's number, its players
    (seats from 1), its variables shown on the table (`var NAME "Label" per team`) and, once the
    game is over, its score (the total of its players': during the game a score may read cards
    a seat does not see, so it is told at the end, as the players' scores are).  Teams with no
    player (formed in play, left) are not shown."""
    cg = st.game
    tb = cg.team_base
    by: dict = {}
    for p in range(st.n):
        by.setdefault(st.vars[tb + p], []).append(p)
    out = []
    for t in sorted(by):
        item: dict = {"team": t, "players": [p + 1 for p in by[t]],
                      "vars": [list(v) for v in words.team_vars_of(st, t)]}
        if scores is not None:
            item["score"] = str(sum(scores[p] for p in by[t]))
        out.append(item)
    return out


def decision_of(st, words: Words, cards: Cards, viewer: Optional[int]) -> Optional[dict]:
    """The seat's own decision, when it has one: its legal choices in words, each with its kind
    (and the card it names); the page sends back the choice's index."""
    if viewer is None or not may_decide(st, viewer):
        return None
    cg = st.game
    legal = st.legal_actions(viewer)
    choices = []
    labels: list = []
    for i, a in enumerate(legal):
        alt = cg.alternatives[a >> ACTION_SHIFT]
        kind = alt.kind or "option"
        item = {"i": i, "text": words.action(a, viewer, cards=st), "kind": kind}
        if kind == "card":
            item["card"] = cards(cg.card_names[a & VALUE_MASK])
        lab = words.label(a)
        item["label"] = lab
        if lab not in labels:
            labels.append(lab)
        choices.append(item)
    mode = "simultaneous" if st.is_simultaneous() else (
        "claim" if len(st.current_players()) > 1 else "turn")
    return {"labels": labels, "mode": mode, "choices": choices}


def may_decide(st, seat: int) -> bool:
    """Whether ``seat`` decides now: the seat asked, or one of the seats of a simultaneous
    decision that has not chosen yet (the seats of a claim are asked one at a time)."""
    if st.terminal or seat not in st.current_players():
        return False
    return st.is_simultaneous() or st.current_player() == seat


class Story:
    """The narration of one game told to one viewer, kept as plain lines (the last
    :data:`MAX_STORY` of them)."""

    def __init__(self, words: Words, st, viewer: Optional[int], resumed: bool = False):
        # the spectator is told the game as no seat sees it (seat -1 sees no hand)
        self.narrator = Narrator(words, st, -1 if viewer is None else viewer, resumed=resumed)
        self.lines: list = []
        self.told = 0               # lines told in all (the page asks from where it stands)

    def more(self) -> list:
        """The lines the game's log holds since the last call."""
        new = [t.plain.rstrip() for t in self.narrator.lines()]
        self.lines.extend(new)
        self.told += len(new)
        if len(self.lines) > MAX_STORY:
            del self.lines[:len(self.lines) - MAX_STORY]
        return new
