"""The game in people's words: the table laid out by player, as a viewer may see it
(:func:`zone_rows`), and the narration of a game from its log (:class:`Narrator`: the moves, what
the rules say and reveal, in the second person for the seat at the terminal), for ``run``,
``play`` and ``replay``.

Everything here returns values; only the commands print.
"""
from __future__ import annotations

import re
from typing import Optional

from rich.table import Table
from rich.text import Text

from rulelang.cli.table import (_highlight_cards, card_of_action, card_text, card_visible_to,
                                plural_words, reveal_text, seat_text, with_turn)
from rulelang.engine.events import EVENTS, apply_event, seen_event, sees
from rulelang.engine.subsets import set_moved
from rulelang.limits import ACTION_SHIFT
from rulelang.termsafe import safe

# ---------------------------------------------------------------------------------------------
# The game in people's words: tables laid out by player, narration from the log
# ---------------------------------------------------------------------------------------------

def _sees(cg, zi: int, pos: int, size: int, viewer: Optional[int]) -> bool:
    """Whether the viewer sees the card at ``pos`` of zone ``zi`` (rulelang/engine/events.py)."""
    return sees(cg, zi, pos, size, viewer)


def zone_rows(words, zones: list, viewer: Optional[int], st=None, limit: int = 20,
              every_hand: bool = False, with_vars: bool = True) -> list:
    """The table as rows ``(key, label Text, value Text)``, laid out by player: each player's
    zones (and shown variables) together, the viewer's first, then the zones shared by all.
    Zones marked ``not shown`` are left out, and ``shown when not empty`` ones while empty.
    ``every_hand``: the cards as a spectator sees them (every player's own zones face up, the
    face-down piles still face down), laid out for the viewer: the table of a game that is over.
    ``with_vars`` False: without the shown variables (a table of an earlier moment, whose
    variables the log does not keep; what is shown with a zone comes from its cards)."""
    cg = words.cg
    n = cg.n
    rows = []
    seats = list(range(n))
    if viewer is not None:
        seats = [viewer] + [p for p in seats if p != viewer]
    groups = [(p, [zi for zi, z in enumerate(cg.zone_info) if z[1] == p]) for p in seats]
    groups.append((None, [zi for zi, z in enumerate(cg.zone_info) if z[1] < 0]))
    for owner, zis in groups:
        body = []
        for zi in zis:
            name, _o, vis, size_hidden = cg.zone_info[zi]
            shown = words.shown(name)
            cards = zones[zi]
            if shown == "no" or (shown == "in use" and not cards):
                continue
            value = _cards_value(words, cg, zi, cards, None if every_hand else viewer,
                                 size_hidden, limit)
            extra = cg.shown_with(_with_zones(st, zones), zi) if st is not None else None
            if extra is not None:           # `show "LABEL" with ZONE: ...` of the rule file
                value.append("   ")
                value.append(safe(extra[0]) + ": " + safe(words.text(extra[1], viewer)),
                             style="bold")
            body.append((f"zone:{zi}", Text("  " + safe(words.zone(name))), value))
        if st is not None and with_vars:
            for label, value in words.vars_of(st, owner):
                body.append((f"var:{owner}:{label}", Text("  " + safe(label), style="italic"),
                             Text(safe(value))))
        if not body:
            continue
        if owner is None:
            head = Text("On the table", style="bold")
        else:
            head = seat_text(owner, viewer)
        rows.append((f"seat:{owner}", head, Text("")))
        rows.extend(body)
    return rows


def _with_zones(st, zones):
    """``st`` itself, or a shallow copy of it that holds ``zones`` (a table of an earlier moment:
    what is shown beside a zone is computed from the cards that table shows)."""
    if zones is st.zones:
        return st
    import copy
    g = copy.copy(st)
    g.zones = zones
    return g


def _cards_value(words, cg, zi, cards, viewer, size_hidden, limit) -> Text:
    size = len(cards)
    _name, _owner, vis, _sh = cg.zone_info[zi]
    if not cards:
        return Text("(empty)", style="dim")
    visible = [_sees(cg, zi, i, size, viewer) for i in range(size)]
    if not any(visible):
        if size_hidden and viewer is not None:
            return Text("(hidden)", style="dim")
        return Text(plural_words(size, "card") + ", face down", style="dim")
    if not all(visible) and vis == "bottom":    # bottom face up: how many, the bottom card
        t = Text(plural_words(size, "card") + ", bottom ", style="dim")
        t.append_text(card_text(words.card(cg.card_names[cards[0]])))
        return t
    if not all(visible):          # top face up: the top card, and how many lie below
        t = Text("top ")
        t.append_text(card_text(words.card(cg.card_names[cards[-1]])))
        t.append(f"  ({plural_words(size, 'card')})", style="dim")
        return t
    names = [words.card(cg.card_names[c]) for c in cards]
    t = Text()
    shown = names
    if len(names) > limit:
        shown = names[-limit:]
    sep = ", " if any(" " in nm for nm in names) else " "     # names of several words
    for i, nm in enumerate(shown):
        if i:
            t.append(sep)
        t.append_text(card_text(nm))
    if len(names) > limit:
        t.append(f"  (the top {limit} of {len(names)}: ... and {len(names) - limit} more below)",
                 style="dim")
    elif len(names) > 1:
        t.append(f"  ({len(names)})", style="dim")
    return t


def rows_table(rows, title: str = ""):
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column("zone", no_wrap=True)
    table.add_column("cards")
    for _key, label, value in rows:
        table.add_row(label, value)
    if not title:
        return table
    from rich.console import Group
    return Group(Text(safe(title), style="bold underline"), table)


def changed_rows(rows, last: dict) -> list:
    """The rows whose words differ from ``last`` (key -> plain words), each under its player's
    heading; ``last`` is updated."""
    out = []
    head = None
    for key, label, value in rows:
        if key.startswith("seat:"):
            head = (key, label, value)
            continue
        words = label.plain + "\x00" + value.plain
        if last.get(key) != words:
            last[key] = words
            if head is not None:
                out.append(head)
                head = None
            out.append((key, label, value))
    return out


_VERB_ES = re.compile(r"(ss|sh|ch|x|z)es$")


def _second_person(verb: str) -> str:
    """``blocks`` -> ``block``: the verb of a sentence about the viewer (``You block``)."""
    special = {"has": "have", "is": "are", "does": "do", "was": "were"}
    if verb in special:
        return special[verb]
    if _VERB_ES.search(verb):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def team_text(seat: int, team: int, viewer: Optional[int] = None) -> Text:
    """``Player 2 joins team 1`` (``set the team of P to T``): every seat is told."""
    t = Text("  · ", style="dim")
    t.append_text(seat_text(seat, viewer))
    t.append(" join" if viewer is not None and seat == viewer else " joins", style="dim")
    t.append(f" team {team}", style="dim")
    return t


def _third_person(verb: str) -> str:
    """``bid`` -> ``bids``, ``pass`` -> ``passes``: the verb of a sentence about a player (the
    inverse of :func:`_second_person`)."""
    if re.search(r"(ss|sh|ch|x|z|o)$", verb):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def said_text(words, seat: int, text: str, viewer: Optional[int] = None) -> Text:
    """What a rule says (``say``): a sentence that names its own subject (``player 1 takes the
    trick``, ``the Jack takes 5♠``, an exclamation) is told as it is; a sentence that begins with
    a verb (``blocks the result of 8♦``) is about the player whose rule runs."""
    s = words.text(text, viewer)
    first = s.split(" ", 1)[0] if s else ""
    subject_given = (not s or s[0].isupper() or not s[0].isalpha() or first in (
        "you", "the", "a", "an", "nobody", "no", "every", "each", "all", "one", "both", "there")
        or first.isdigit())
    t = Text("  » ", style="dim")
    if subject_given:
        if s.startswith("you "):        # `say p, "takes the trick"` told to p: "You take ..."
            verb, _, rest = s[4:].partition(" ")
            s = "You " + _second_person(verb) + (" " + rest if rest else "")
        t.append_text(_highlight_cards(s[:1].upper() + s[1:]))
    else:
        t.append_text(seat_text(seat, viewer))
        if viewer is not None and seat == viewer:
            verb, _, rest = s.partition(" ")
            s = _second_person(verb) + (" " + rest if rest else "")
        t.append(" ")
        t.append_text(_highlight_cards(s))
    t.stylize("italic", 4)
    return t


def _same_words(said: str, chosen: str) -> bool:
    """``declares flames`` after the choice ``declare flames``: the same thing told twice."""
    verb, _, rest = said.partition(" ")
    return (_second_person(verb) + (" " + rest if rest else "")).strip().lower() == \
        chosen.strip().lower()


def move_line(words, seen, before_src: int, after_src: int, viewer: Optional[int]):
    """One line for a move as the viewer sees it (``seen``: the move event of
    rulelang/engine/events.py as :func:`~rulelang.engine.events.seen_event` gives it, -1 for
    each card the viewer does not see), or None when it is not told (within one zone, or
    between bookkeeping zones).  ``before_src``, ``after_src``: the size of the zone the cards
    left, before and after (``all 5 cards`` when they were all of it)."""
    cg = words.cg
    _k, src, dst, cards, bottom = seen
    if src == dst or not cards:
        return None
    sname, dname = cg.zone_info[src][0], cg.zone_info[dst][0]
    s_shown, d_shown = words.shown(sname) != "no", words.shown(dname) != "no"
    if not s_shown and not d_shown:
        return None
    k = len(cards)
    if all(c >= 0 for c in cards) and k <= 8:
        what = Text()
        names = [words.card(cg.card_names[c]) for c in cards]
        sep = ", " if any(" " in nm for nm in names) else " "
        for i, nm in enumerate(names):
            if i:
                what.append(sep)
            what.append_text(card_text(nm))
    else:
        what = Text("a card" if k == 1 else f"{k} cards")
        if k > 1 and not after_src and before_src == k:
            what = Text(f"all {k} cards")
    t = Text("  · ", style="dim")
    t.append_text(what)
    if s_shown:
        t.append(" from " + safe(words.zone_of(src, viewer)))
    if d_shown:
        t.append((" to the bottom of " if bottom else " to ") + safe(words.zone_of(dst, viewer)))
    else:
        t.append(" put aside")
    return t


def _holder_zone(zones, c) -> int:
    """The zone that holds card ``c`` now."""
    for zi, z in enumerate(zones):
        if c in z:
            return zi
    return 0


class Narrator:
    """Tells a logged game (``new_game(log=True)``) to one viewer: the spectator of ``run``
    (``viewer`` None) or the seat of ``play``.  :meth:`lines` turns the log entries since the last
    call into lines, each turn numbered in the margin (turns without a decision too), in the
    order they happened: the choices, what the rules say and reveal, and what the runtime
    recorded the rules doing (rulelang/engine/events.py: cards moved, shuffles, reversals), each
    as this viewer sees it; skips and a turn given to another player are told where the turn
    passes on.  The narrator keeps the zones as the log has made them so far (``zones``)."""

    def __init__(self, words, st, viewer: Optional[int] = None, resumed: bool = False):
        self.words = words
        self.st = st
        self.viewer = viewer
        self.seen = 0
        self.turn = 1               # the number of the turn being played
        self.numbered = 0           # the last turn number printed in the margin
        self.preamble = []          # what setup said, when the story starts after setup
        self.aside = {}             # cards put in bookkeeping zones, not told yet
        self.cur = st.cur
        self.dir = st.dir
        start = words.cg.start_zones()      # where the deck lay before setup
        if resumed:                 # a saved game goes on: the story starts where it stands
            start = st.zones
            self.turn = st.turns + 1
        self.zones = [z[:] for z in start]
        log = st.log or ()
        for i, e in enumerate(log):     # the table after setup: the story starts there
            if e[0] == "turn" and e[1] == 0:
                self.seen = i + 1
                self.cur, self.dir = e[2], e[3]
                for x in log[:i]:       # what setup did is the table after setup
                    apply_event(self.zones, x)
                # what setup said is still told
                self.preamble = [x for x in log[:i] if EVENTS.get(x[0]) == "words"]
                break

    def _out(self, out: list, line: Text):
        if self.numbered != self.turn:
            self.numbered = self.turn
            out.append(with_turn(self.turn, line))
        else:
            out.append(with_turn(None, line))

    def _hidden_choice(self, seat, action, later_zones, revealed) -> bool:
        cg = self.words.cg
        c = card_of_action(cg, action)
        if c is None or self.viewer is None or seat == self.viewer:
            return False
        if (seat, cg.card_names[c]) in revealed:
            return False
        return not (card_visible_to(cg, later_zones, c, self.viewer)
                    or card_visible_to(cg, self.zones, c, self.viewer))

    def lines(self, until_turn: Optional[int] = None) -> list:
        """The lines of the log entries not told yet.  With ``until_turn``, a stretch of several
        turns without a decision (a game of no choices plays itself out in one) is told only up
        to the end of the turn before that one, and the rest by the next call, so that the caller
        may show the table as it stood then (:attr:`zones`); the last turn of the stretch is
        always told whole."""
        st, w, viewer = self.st, self.words, self.viewer
        cg = w.cg
        out: list = []
        for e in self.preamble:
            line = said_text(w, e[1], e[2], viewer) if e[0] == "say" else \
                team_text(e[1], e[2], viewer) if e[0] == "team" else \
                reveal_text(e[1], w.card(e[2]), viewer)
            out.append(with_turn(None, line))
        self.preamble = []
        log = st.log
        entries = log[self.seen:]
        if until_turn is not None:
            ends = [i for i, e in enumerate(entries) if e[0] == "turn"]
            for i in ends[:-1]:
                if entries[i][1] + 1 >= until_turn:
                    entries = entries[:i + 1]
                    break
        self.seen += len(entries)
        revealed = {(e[1], e[2]) for e in entries if e[0] == "reveal"}
        told = set()                # cards the choice just made named: their move is not told
        last_choice = None
        group = None                # moves one after another between the same two zones

        aside = self.aside          # card -> (zone, seen there) of cards in bookkeeping zones

        def flush():
            nonlocal group
            if group is not None:
                (src, dst, bottom), cards, before_src = group
                t = move_line(w, ("move", src, dst, tuple(cards), bottom), before_src,
                              len(self.zones[src]) if before_src >= 0 else -1, viewer)
                if t is not None:
                    self._out(out, t)
                group = None

        for at, e in enumerate(entries):
            kind = e[0]
            if kind == "move":
                seen = seen_event(cg, self.zones, e, viewer)
                _m, src, dst, cards, bottom = e
                s_shown = w.shown(cg.zone_info[src][0]) != "no"
                d_shown = w.shown(cg.zone_info[dst][0]) != "no"
                before_src = len(self.zones[src])
                apply_event(self.zones, e)
                for c, shown in zip(cards, seen[3]):
                    named = c in told           # the choice just made named it
                    told.discard(c)
                    if not d_shown:             # put aside in a bookkeeping zone: told when
                        if s_shown:             # it comes out, from where it came from (a
                            aside[c] = (src, shown)     # card the choice named too: where it
                        continue                        # ends is news)
                    if named and (s_shown or c not in aside):
                        continue                # `play 7♥` is its move
                    key, size = (src, dst, bottom), before_src
                    if not s_shown and c in aside:
                        # out of a bookkeeping zone: told now, from where it was last seen
                        # (also after a choice named it there: nobody saw it go in)
                        origin, was = aside.pop(c)
                        key, size = (origin, dst, bottom), -1
                        if was >= 0 or named:
                            shown = c
                    if group is not None and group[0] != key:
                        flush()
                    if group is None:
                        group = (key, [], size)
                    group[1].append(shown)
                continue
            flush()
            if kind == "choice":
                seat, action = e[1], e[2]
                hide = self._hidden_choice(seat, action, st.zones, revealed)
                chosen = set_moved(cg, action, entries, at)
                if chosen and viewer is not None and seat != viewer and not all(
                        card_visible_to(cg, self.zones, c, viewer) for c in chosen):
                    # a set the viewer does not see: how many cards, never which
                    text = f"{w.label(action)} ({len(chosen)} cards)"
                else:
                    text = w.action(action, viewer, hide_card=hide, cards=chosen)
                    told.update(chosen or ())       # `capture 3♣ 5♦` is its move
                c = card_of_action(cg, action)
                if c is not None and not hide:     # (several choices at once: each)
                    told.add(c)
                last_choice = (seat, text)
                t = Text("  ")
                t.append_text(seat_text(seat, viewer))
                if w.model.alternatives[action >> ACTION_SHIFT][0].call:
                    # a call of an auction is told as it is said at the table: "Player 2
                    # bids 3", "Player 3 passes" ("You pass" to the one who made it)
                    t.append(" ")
                    if viewer is None or seat != viewer:
                        verb, _, rest = text.partition(" ")
                        text = _third_person(verb) + (" " + rest if rest else "")
                else:
                    t.append(": ")
                t.append_text(_highlight_cards(text))
                self._out(out, t)
            elif kind == "say":
                raw = e[2]
                if last_choice is not None and last_choice[0] == e[1]:
                    # `pass` then "cannot draw: passes": the reason is news, the choice is not
                    if _same_words(w.text(raw, viewer), last_choice[1]):
                        continue
                    head, sep, tail = raw.rpartition(": ")
                    if sep and head and _same_words(w.text(tail, viewer), last_choice[1]):
                        raw = head
                self._out(out, said_text(w, e[1], raw, viewer))
            elif kind == "reveal":
                self._out(out, reveal_text(e[1], w.card(e[2]), viewer))
            elif kind == "team":
                self._out(out, team_text(e[1], e[2], viewer))
            elif kind == "shuffle":
                apply_event(self.zones, e)
                if w.shown(cg.zone_info[e[1]][0]) != "no":
                    self._out(out, Text("  · " + safe(w.zone_of(e[1], viewer)) + " is shuffled",
                                        style="dim"))
            elif kind == "reverse":
                self.dir = -self.dir
                self._out(out, Text("  · the order of play is reversed", style="dim"))
            elif kind == "turn":
                _k, played, cur, direction = e
                told = set()
                last_choice = None
                if self.numbered != self.turn:     # a turn in which nothing was told
                    t = Text("  ")
                    t.append_text(seat_text(self.cur, viewer))
                    t.append(": nothing to do", style="dim")
                    self._out(out, t)
                n = cg.n
                if direction != self.dir:          # (every reversal is told where it happens)
                    self._out(out, Text("  · the order of play is reversed", style="dim"))
                expected = (self.cur + direction) % n
                if cur != expected and n > 1:
                    t = Text("  · ", style="dim")
                    if cur == (self.cur + 2 * direction) % n:
                        t.append_text(seat_text(expected, viewer))
                        t.append(" loses a turn (skipped)" if expected != viewer else
                                 " lose a turn (skipped)", style="dim")
                    else:
                        t.append("the next turn goes to ", style="dim")
                        t.append_text(seat_text(cur, viewer))
                    self._out(out, t)
                self.cur, self.dir = cur, direction
                self.turn = played + 1
        flush()
        if aside and st.terminal and self.seen == len(log):     # cards left in a bookkeeping
            # zone at the end: put aside
            for c, (src, was) in aside.items():
                t = move_line(w, ("move", src, _holder_zone(self.zones, c), (c if was >= 0 else -1,),
                                  False), -1, -1, viewer)
                if t is not None:
                    self._out(out, t)
            aside.clear()
        return out

    def turns_told(self) -> int:
        """How many turns the transcript numbered (the result says the same)."""
        return self.numbered

