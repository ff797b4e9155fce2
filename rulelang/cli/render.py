"""Diagnostics and game positions as text for the terminal.

Everything here returns values (strings or ``rich`` renderables); only :mod:`rulelang.cli.commands`
prints.  A diagnostic looks like a good compiler's::

    sevens.cardrules:7:13: error[RL101]: unknown name `stok`
      7 |     shuffle stok
        |             ^~~~
      = hint: did you mean `stock`?

``diagnostic_text(d).plain`` is that text without colour.  The source line is highlighted with the
``.cardrules`` Pygments lexer when :mod:`rulelang.cli.highlight` is available.
"""
from __future__ import annotations

import re
from typing import Optional

from rich.table import Table
from rich.text import Text

from rulelang.syntax.ast import Span
from rulelang.syntax.diagnostics import ERROR, Diagnostic
from rulelang.termsafe import safe

SEAT_STYLES = ["bold cyan", "bold purple", "bold green", "bold yellow", "bold blue",
               "bold red", "bold white", "cyan", "purple", "green"]
RED_SUITS = ("♥", "♦")
INTERNAL_ERROR = "RL999"

# ---------------------------------------------------------------------------------------------
# Diagnostics
# ---------------------------------------------------------------------------------------------

_sources: dict = {}


def source_lines(path: str) -> Optional[list[str]]:
    """The lines of a rule file (cached), or None if it cannot be read.  It is read as the loader
    reads rule files (a regular file within the size limit, UTF-8, its BOM dropped), and its lines
    are numbered as the parser numbers them."""
    if path not in _sources:
        from rulelang.compile.loader import read_rule_text
        from rulelang.syntax.diagnostics import source_lines_of
        text = read_rule_text(path)
        _sources[path] = source_lines_of(text) if text is not None else None
    return _sources[path]


def forget_sources() -> None:
    _sources.clear()


def _highlighted(line: str, color: bool) -> Text:
    if not color:
        return Text(line)
    try:
        from rich.syntax import Syntax

        from rulelang.cli.highlight import CardrulesLexer
        text = Syntax(line, CardrulesLexer(), theme="ansi_dark",
                      background_color="default").highlight(line)
        text.rstrip()
        return text
    except Exception:   # no lexer yet, or it failed: the line without colours is still right
        return Text(line)


def location(d: Diagnostic, default_file: Optional[str] = None) -> str:
    sp = d.span
    if sp is None or sp.line <= 0:
        return (sp.file if sp is not None and sp.file != "<builtin>" else None) or default_file or "rulelang"
    return f"{sp.file}:{sp.line}:{sp.column}"


def _shown_line(line: str, start: int, width: int):
    """The source line as shown (every control character escaped, see :mod:`rulelang.termsafe`),
    with the caret's column and width in that shown line."""
    return safe(line), len(safe(line[:start])), max(1, len(safe(line[start:start + width])))


def diagnostic_text(d: Diagnostic, default_file: Optional[str] = None, color: bool = False,
                    lines: Optional[list[str]] = None) -> Text:
    """A diagnostic as a compiler prints it: location, severity, code and message; the source line
    with a caret under the span; the hint.  ``lines`` overrides reading the span's file."""
    sev_style = "bold red" if d.severity == ERROR else "bold yellow"
    out = Text()
    out.append(safe(location(d, default_file)) + ": ", style="bold")
    out.append(f"{d.severity}[{d.code}]", style=sev_style)
    out.append(": ")
    out.append(safe(d.message), style="bold")
    sp = d.span
    if sp is not None and sp.line > 0:
        src = lines if lines is not None else source_lines(sp.file)
        if src is not None and sp.line <= len(src):
            line = src[sp.line - 1]
            num = str(sp.line)
            gutter = " " * len(num)
            start = max(sp.column - 1, 0)
            if sp.end_line == sp.line and sp.end_column > sp.column:
                width = sp.end_column - sp.column
            elif sp.end_line > sp.line:
                width = max(len(line.rstrip()) - start, 1)
            else:
                width = 1
            width = max(1, min(width, max(len(line) - start, 1)))
            shown, start, width = _shown_line(line, start, width)
            out.append("\n  " + num + " | ", style="blue")
            out.append_text(_highlighted(shown, color))
            out.append("\n  " + gutter + " | ", style="blue")
            out.append(" " * start)
            out.append("^" + "~" * (width - 1), style=sev_style)
    if d.hint:
        out.append("\n  = ", style="blue")
        out.append("hint", style="bold")
        out.append(": " + safe(d.hint))
    return out


def diagnostic_plain(d: Diagnostic, default_file: Optional[str] = None,
                     lines: Optional[list[str]] = None) -> str:
    return diagnostic_text(d, default_file, color=False, lines=lines).plain


def summary_text(n_errors: int, n_warnings: int, n_files: int) -> Text:
    def plural(n, word):
        return f"{n} {word}{'' if n == 1 else 's'}"
    t = Text()
    files = plural(n_files, "file")
    if not n_errors and not n_warnings:
        t.append("ok", style="bold green")
        t.append(f": no problems in {files}")
        return t
    t.append(plural(n_errors, "error"), style="bold red" if n_errors else "")
    t.append(", ")
    t.append(plural(n_warnings, "warning"), style="bold yellow" if n_warnings else "")
    t.append(f" in {files}")
    return t


def problem_diagnostic(problem: dict, default_file: Optional[str] = None) -> Diagnostic:
    """The runtime's ``state.problem`` (code, message, span as [file, line, column]) as a
    diagnostic."""
    sp = problem.get("span")
    span = None
    if sp:
        file, line, col = sp[0], sp[1], sp[2]
        span = Span(file, line, col, line, col + 1)
    elif default_file:
        span = Span(default_file, 0, 0, 0, 0)
    hint = problem.get("hint")
    if hint is None and problem.get("code") == "RL901":
        hint = "give the game a way to end, or raise the budget with --max-steps"
    return Diagnostic(problem.get("code", "RL900"), ERROR, problem.get("message", "the game failed"),
                      span, hint)


def internal_error(exc: BaseException, context: str = "") -> Diagnostic:
    where = f" while {context}" if context else ""
    return Diagnostic(INTERNAL_ERROR, ERROR,
                      f"internal error{where}: {type(exc).__name__}: {exc}", None,
                      "this is a bug in rulelang, not in your rule file; please report it with the "
                      "file and the command that caused it")


# ---------------------------------------------------------------------------------------------
# Cards, seats and moves
# ---------------------------------------------------------------------------------------------

def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def seat_text(seat: int, you: Optional[int] = None) -> Text:
    """``Player 2`` (seat is 0-based), or ``You`` for the human's seat."""
    if you is not None and seat == you:
        return Text("You", style="bold reverse")
    return Text(f"Player {seat + 1}", style=seat_style(seat))


def card_text(name: str) -> Text:
    name = safe(name)
    if any(s in name for s in RED_SUITS) or name.lower().startswith("red"):
        return Text(name, style="bold red")
    return Text(name, style="bold")


def cards_text(names, limit: int = 30) -> Text:
    names = list(names)
    t = Text()
    if not names:
        t.append("(empty)", style="dim")
        return t
    shown = names
    if len(names) > limit:
        shown = names[-limit:]
        t.append(f"… {len(names) - limit} more, then ", style="dim")
    for i, nm in enumerate(shown):
        if i:
            t.append(" ")
        t.append_text(card_text(nm))
    return t


def _highlight_cards(text: str) -> Text:
    """Colour the red card names (``7♥``, ``Q♦``, ``red_joker``) inside a sentence (made safe
    for the terminal first: it comes from the rule file)."""
    t = Text(safe(text))
    # Only from the start of a word: ``\S*[♥♦]`` alone tries every position of a long word
    # without a suit sign, quadratic in its length (a 5000-letter `say` took 0.5 s a line).
    t.highlight_regex(r"(?<!\S)\S*[♥♦]|\b[Rr]ed\w*(?: [Jj]oker)?", "bold red")
    return t


def move_text(seat: int, words: str, you: Optional[int] = None) -> Text:
    t = Text("  ")
    t.append_text(seat_text(seat, you))
    t.append(": ")
    t.append_text(_highlight_cards(words))
    return t


def say_text(seat: int, text: str, you: Optional[int] = None) -> Text:
    """What a rule says (``say``), told as narration about the seat it ran for."""
    t = Text("  » ", style="dim")
    t.append_text(seat_text(seat, you))
    t.append(": ")
    t.append_text(_highlight_cards(text))
    t.stylize("italic", 4)
    return t


def reveal_text(seat: int, card: str, you: Optional[int] = None) -> Text:
    """``Player 2 reveals 10♠``: told of the player whose zone holds the card (seat -1: a card in
    a shared zone, which nobody holds: ``4♥ is revealed``)."""
    t = Text("  ")
    if seat < 0:
        t.append_text(card_text(card))
        t.append(" is revealed")
        return t
    t.append_text(seat_text(seat, you))
    t.append(" reveal " if you is not None and seat == you else " reveals ")
    t.append_text(card_text(card))
    return t


def with_turn(turn: Optional[int], line: Text) -> Text:
    """An event line with the turn number in a margin (blank when the turn is the same as the
    line above's)."""
    t = Text(f"{turn:>4}  " if turn is not None else "      ", style="dim")
    t.append_text(line[2:] if line.plain.startswith("  ") else line)
    return t


def hidden_choice_words(cg, action: int) -> str:
    """A card choice told without naming the card: ``play a card``."""
    from rulelang.engine.runtime import ACTION_SHIFT
    alt = cg.alternatives[action >> ACTION_SHIFT]
    if alt.kind == "card":
        return f"{alt.label} a card"
    return cg.action_to_string(action)


def card_of_action(cg, action: int) -> Optional[int]:
    """The card an action chooses (its number), or None when it chooses no card."""
    from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK
    alt = cg.alternatives[action >> ACTION_SHIFT]
    return (action & VALUE_MASK) if alt.kind == "card" else None


def card_visible_to(cg, zones: list, card: int, seat: int) -> bool:
    """Whether ``seat`` may see ``card`` where it lies in ``zones`` (a state's zone lists)."""
    for zi, cards in enumerate(zones):
        if card in cards:
            name, owner, vis, _ = cg.zone_info[zi]
            if vis == "everyone" or (vis == "owner" and owner == seat):
                return True
            return vis == "top" and cards[-1] == card
    return False


def gained_text(cg, before: list, after: list, seat: int) -> list:
    """``you get 5♠ (hand)``: the cards that arrived in the seat's own zones that it may see,
    between two zone snapshots.  A card the seat already saw in a zone of its own (a card played
    from its hand to its side of the table, say) is not news."""
    out = []
    own_seen = {c for zi, (_, owner, vis, _) in enumerate(cg.zone_info)
                if owner == seat and vis in ("owner", "everyone") for c in before[zi]}
    for zi, (name, owner, vis, _) in enumerate(cg.zone_info):
        if owner != seat or vis not in ("owner", "everyone"):
            continue
        old = set(before[zi])
        new = [c for c in after[zi] if c not in old and c not in own_seen]
        if new:
            t = Text("  you get ", style="dim")
            t.append_text(cards_text([cg.card_names[c] for c in new]))
            t.append(f" ({safe(name)})", style="dim")
            out.append(t)
    return out


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------

def zone_key(name: str, owner: int) -> str:
    return name if owner < 0 else f"{name}/{owner + 1}"


def spectator_zones(st) -> dict:
    """Every zone as a spectator who sees every card would describe it, in the observation's
    forms: a list of card names, ``{"top", "size"}`` for a pile with its top face up, and
    ``{"size", "face_down"}`` for a face-down pile (its order is the rules' secret, and a long
    list of cards nobody can see would only hide the cards that matter)."""
    cg = st.game
    out = {}
    for zi, (name, owner, vis, _) in enumerate(cg.zone_info):
        cards = st.zones[zi]
        key = zone_key(name, owner)
        if vis == "top":
            out[key] = {"top": cg.card_names[cards[-1]] if cards else None, "size": len(cards)}
        elif vis == "nobody":
            out[key] = {"size": len(cards), "face_down": True}
        else:
            out[key] = [cg.card_names[c] for c in cards]
    return out


def _zone_value(v) -> Text:
    if v is None:
        return Text("(hidden)", style="dim")
    if isinstance(v, list):
        t = cards_text(v)
        if len(v) > 1:
            t.append(f"  ({len(v)})", style="dim")
        return t
    size = v.get("size")
    if "top" in v:
        t = Text()
        if v["top"] is None:
            t.append("(empty)", style="dim")
            return t
        t.append("top ")
        t.append_text(card_text(v["top"]))
        t.append(f"  ({size} card{'' if size == 1 else 's'})", style="dim")
        return t
    words = f"{size} card{'' if size == 1 else 's'}"
    return Text(words + (", face down" if v.get("face_down") else ""), style="dim")


def _zone_label(key: str, you: Optional[int]) -> Text:
    name, _, seat = key.partition("/")
    name = safe(name)
    if not seat:
        return Text(name)
    s = int(seat) - 1
    t = Text(f"{name} of ")
    if you is not None and s == you:
        t.append("you", style="bold reverse")
    else:
        t.append(f"player {s + 1}", style=seat_style(s))
    return t


def _vars_text(vars_: dict, you: Optional[int] = None) -> Optional[Text]:
    if not vars_:
        return None
    t = Text()
    for i, (name, val) in enumerate(vars_.items()):
        if i:
            t.append("   ")
        t.append(safe(name), style="italic")
        t.append(" = ")
        if isinstance(val, list):
            t.append(safe(", ".join(f"{'you' if you == p else 'p' + str(p + 1)}: {v}"
                                    for p, v in enumerate(val))))
        else:
            t.append(safe(val))
    return t


def table_renderable(zones: dict, vars_: dict, title: str = "", you: Optional[int] = None):
    """The table as a rich Table: one row per zone (the viewer's own zones first), then the
    variables."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column("zone", style="", no_wrap=True)
    table.add_column("cards")
    keys = list(zones)
    if you is not None:
        mine = [k for k in keys if k.endswith(f"/{you + 1}")]
        keys = mine + [k for k in keys if k not in mine]
    for k in keys:
        table.add_row(_zone_label(k, you), _zone_value(zones[k]))
    vt = _vars_text(vars_, you)
    if vt is not None:
        table.add_row(Text("vars", style="dim"), vt)
    if not title:
        return table
    from rich.console import Group
    return Group(Text(safe(title), style="bold underline"), table)


def spectator_table(st, title: str = ""):
    return table_renderable(spectator_zones(st), st.game.describe_vars(st), title)


def observation_table(obs: dict, title: str = ""):
    return table_renderable(obs["zones"], obs.get("vars", {}), title, you=obs["player"] - 1)


def choices_text(words: list[str]) -> Text:
    t = Text()
    width = len(str(len(words)))
    for i, w in enumerate(words, 1):
        if i > 1:
            t.append("\n")
        t.append(f"  {i:>{width}}) ", style="bold cyan")
        t.append_text(_highlight_cards(w))
    return t


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------

def scores_of(st) -> Optional[list]:
    """Each seat's score at the end, when the game declares a score."""
    cg = st.game
    if getattr(cg, "score_fn", None) is None:
        return None
    try:
        return [cg.score_of(st, p) for p in range(st.n)]
    except Exception:
        return None


def result_text(st, you: Optional[int] = None, turns: Optional[int] = None) -> Text:
    """The result; ``turns``: the number of turns the transcript numbered (the turn in which the
    game ended included), when it was told."""
    t = Text()
    if st.outcome == "error":
        t.append("The game stopped: ", style="bold red")
        t.append(safe((st.problem or {}).get("message", "a rule failed")))
        return t
    winners = list(st.winners)
    if st.seat_results is not None:          # each player's own result
        words = {"win": " wins", "loss": " loses", "draw": " draws"}
        for p, r in enumerate(st.seat_results):
            if p:
                t.append(", ")
            t.append_text(seat_text(p, you))
            t.append(words[r], style="bold" if r == "win" else None)
        t.append(".")
    elif not winners:
        t.append("No winner.", style="bold")
    else:
        for i, w in enumerate(winners):
            if i:
                t.append(" and " if i == len(winners) - 1 else ", ")
            t.append_text(seat_text(w, you))
        if you is not None and winners == [you]:
            t.append(" win!", style="bold")
        else:
            t.append(" wins!" if len(winners) == 1 else " win!", style="bold")
    played = st.turns if turns is None else turns
    t.append(f"  ({plural_words(st.decisions, 'decision')}, {plural_words(played, 'turn')})",
             style="dim")
    scores = scores_of(st)
    if scores is not None:
        t.append("\nScores: ")
        for p, s in enumerate(scores):
            if p:
                t.append(", ")
            t.append_text(seat_text(p, you))
            t.append(f" {s}")
    return t


def summary_table(stats: dict):
    """The ``run --games K`` summary: a heading, a table of wins per seat, the averages."""
    from rich.console import Group
    n = stats["games"]
    head = Text(safe(stats["game"]), style="bold")
    head.append(f": {n} games, {stats['players']} players, seeds {stats['seed']}.."
                f"{stats['seed'] + n - 1}", style="")
    table = Table()
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    shared = stats.get("shared_wins") or [0] * len(stats["wins"])
    for p, w in enumerate(stats["wins"]):
        table.add_row(seat_text(p), Text(safe(stats["agents"][p])),
                      str(w) + (f" (+{shared[p]} shared)" if shared[p] else ""),
                      f"{100.0 * w / n:.1f}%" if n else "-")
    foot = Text(f"shared wins: {stats.get('shared', 0)}   draws: {stats.get('draws', 0)}   "
                f"no winner: {stats['no_winner']}   errors: {stats['errors']}"
                + (f" (step budget: {stats['budget_stops']})" if stats.get("budget_stops") else "")
                + "\n"
                f"mean decisions: {stats['mean_decisions']:.1f}   "
                f"mean turns: {stats['mean_turns']:.1f}\n"
                f"{stats['games_per_second']:.0f} games/s ({stats['seconds']:.2f} s)")
    return Group(head, table, foot)


# ---------------------------------------------------------------------------------------------
# The game in people's words (issue 15): tables laid out by player, narration from the log
# ---------------------------------------------------------------------------------------------

def _sees(cg, zi: int, pos: int, size: int, viewer: Optional[int]) -> bool:
    """Whether the viewer (a seat, or None for the spectator of ``run``, who sees every hand but
    no face-down pile) may see the card at ``pos`` of zone ``zi`` (of ``size`` cards)."""
    _name, owner, vis, _sh = cg.zone_info[zi]
    if vis == "everyone":
        return True
    if vis == "owner":
        return viewer is None or owner == viewer
    if vis == "top":
        return pos == size - 1
    return False


def zone_rows(words, zones: list, viewer: Optional[int], st=None, limit: int = 20) -> list:
    """The table as rows ``(key, label Text, value Text)``, laid out by player: each player's
    zones (and shown variables) together, the viewer's first, then the zones shared by all.
    Zones marked ``not shown`` are left out, and ``shown when not empty`` ones while empty."""
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
            value = _cards_value(words, cg, zi, cards, viewer, size_hidden, limit)
            extra = cg.shown_with(_with_zones(st, zones), zi) if st is not None else None
            if extra is not None:           # `show "LABEL" with ZONE: ...` of the rule file
                value.append("   ")
                value.append(safe(extra[0]) + ": " + safe(words.text(extra[1], viewer)),
                             style="bold")
            body.append((f"zone:{zi}", Text("  " + safe(words.zone(name))), value))
        if st is not None:
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


def plural_words(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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


def moves_lines(words, before: list, after: list, viewer: Optional[int], told=()) -> list:
    """What moved between two snapshots of the zones, as the viewer may see it: one line per
    (from, to) pair of zones, the cards named where the viewer sees them (in either place), else
    counted ("a card", "3 cards").  Cards in ``told`` (named by a choice just made) and moves
    inside a bookkeeping zone are not told again."""
    cg = words.cg
    where_before = {}
    for zi, cards in enumerate(before):
        size = len(cards)
        for i, c in enumerate(cards):
            where_before[c] = (zi, _sees(cg, zi, i, size, viewer))
    groups = {}
    order = []
    for zi, cards in enumerate(after):
        size = len(cards)
        for i, c in enumerate(cards):
            b = where_before.get(c)
            if b is None or b[0] == zi:
                continue
            key = (b[0], zi)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append((c, b[1] or _sees(cg, zi, i, size, viewer), i))
    lines = []
    for src, dst in order:
        moved = [(c, seen) for c, seen, _i in groups[(src, dst)] if c not in told]
        if not moved:
            continue
        # under the pile: every card moved lies below every card that was there already
        stayed = [i for i, c in enumerate(after[dst]) if where_before.get(c, (None,))[0] == dst]
        under = bool(stayed) and max(i for _c, _s, i in groups[(src, dst)]) < min(stayed)
        sname, dname = cg.zone_info[src][0], cg.zone_info[dst][0]
        s_shown, d_shown = words.shown(sname) != "no", words.shown(dname) != "no"
        if not s_shown and not d_shown:
            continue
        k = len(moved)
        if all(seen for _c, seen in moved) and k <= 8:
            what = Text()
            names = [words.card(cg.card_names[c]) for c, _s in moved]
            sep = ", " if any(" " in nm for nm in names) else " "
            for i, nm in enumerate(names):
                if i:
                    what.append(sep)
                what.append_text(card_text(nm))
        else:
            what = Text("a card" if k == 1 else f"{k} cards")
            if k > 1 and not after[src] and len(before[src]) == k:
                what = Text(f"all {k} cards")
        t = Text("  · ", style="dim")
        t.append_text(what)
        if s_shown:
            t.append(" from " + safe(words.zone_of(src, viewer)))
        if d_shown:
            t.append((" to the bottom of " if under else " to ") + safe(words.zone_of(dst, viewer)))
        else:
            t.append(" put aside")
        lines.append(t)
    return lines


class Narrator:
    """Tells a logged game (``new_game(log=True)``) to one viewer: the spectator of ``run``
    (``viewer`` None) or the seat of ``play``.  :meth:`lines` turns the log entries since the last
    call into lines, each turn numbered in the margin (turns without a decision too), with what
    the rules did between them: cards moved, piles turned over, skips, reversals, shuffles."""

    def __init__(self, words, st, viewer: Optional[int] = None, resumed: bool = False):
        self.words = words
        self.st = st
        self.viewer = viewer
        self.seen = 0
        self.turn = 1               # the number of the turn being played
        self.numbered = 0           # the last turn number printed in the margin
        self.preamble = []          # what setup said, when the story starts after setup
        self.cur = st.cur
        self.dir = st.dir
        start = getattr(words.cg, "_start_zones", None)     # where the deck lay before setup
        if resumed:                 # a saved game goes on: the story starts where it stands
            start = st.zones
            self.turn = st.turns + 1
        self.zones = [z[:] for z in (start if start is not None else st.zones)]
        for i, e in enumerate(st.log or ()):     # the table after setup: the story starts there
            if e[0] == "turn" and e[1] == 0:
                self.seen = i + 1
                self.cur, self.dir, self.zones = e[2], e[3], e[4]
                # what setup said is still told (what it moved is the table after setup)
                self.preamble = [x for x in st.log[:i] if x[0] in ("say", "reveal")]
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

    def lines(self) -> list:
        st, w, viewer = self.st, self.words, self.viewer
        cg = w.cg
        out: list = []
        for e in self.preamble:
            line = said_text(w, e[1], e[2], viewer) if e[0] == "say" else \
                reveal_text(e[1], w.card(e[2]), viewer)
            out.append(with_turn(None, line))
        self.preamble = []
        log = st.log
        entries = log[self.seen:]
        self.seen = len(log)
        revealed = {(e[1], e[2]) for e in entries if e[0] == "reveal"}
        told = set()
        last_choice = None
        for e in entries:
            kind = e[0]
            if kind == "choice":
                seat, action = e[1], e[2]
                hide = self._hidden_choice(seat, action, st.zones, revealed)
                text = w.action(action, viewer, hide_card=hide)
                c = card_of_action(cg, action)
                if c is not None:
                    told.add(c)
                last_choice = (seat, text)
                t = Text("  ")
                t.append_text(seat_text(seat, viewer))
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
            elif kind == "shuffle":
                name = cg.zone_info[e[1]][0]
                for t in moves_lines(w, self.zones, e[2], viewer, told):
                    self._out(out, t)
                self.zones = e[2]
                if w.shown(name) != "no":
                    self._out(out, Text("  · " + safe(w.zone_of(e[1], viewer)) + " is shuffled",
                                        style="dim"))
            elif kind == "turn":
                _k, played, cur, direction, zones = e
                for t in moves_lines(w, self.zones, zones, viewer, told):
                    self._out(out, t)
                told = set()
                last_choice = None
                self.zones = zones
                if self.numbered != self.turn:     # a turn in which nothing was told
                    t = Text("  ")
                    t.append_text(seat_text(self.cur, viewer))
                    t.append(": nothing to do", style="dim")
                    self._out(out, t)
                n = cg.n
                if direction != self.dir:
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
        for t in moves_lines(w, self.zones, st.zones, viewer, told):
            self._out(out, t)
        self.zones = [z[:] for z in st.zones]
        return out

    def turns_told(self) -> int:
        """How many turns the transcript numbered (the result says the same)."""
        return self.numbered
