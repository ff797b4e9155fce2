"""Cards, seats, moves, the table and results as text for the terminal (``rich`` texts and
tables): a card in its suit's colour, a seat in its own, what a seat may see of a card, the
table of a position, the result of a game and the summary of many (``run --games``).

Everything here returns values; only the commands print.
"""
from __future__ import annotations

from typing import Optional

from rich.table import Table
from rich.text import Text

from rulelang.termsafe import safe

SEAT_STYLES = ["bold cyan", "bold purple", "bold green", "bold yellow", "bold blue",
               "bold red", "bold white", "cyan", "purple", "green"]
RED_SUITS = ("♥", "♦")

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
            return (vis == "top" and cards[-1] == card) or (vis == "bottom" and cards[0] == card)
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
        elif vis == "bottom":
            out[key] = {"bottom": cg.card_names[cards[0]] if cards else None, "size": len(cards)}
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
    if "bottom" in v:
        t = Text()
        if v["bottom"] is None:
            t.append("(empty)", style="dim")
            return t
        t.append(f"{size} card{'' if size == 1 else 's'}, bottom ", style="dim")
        t.append_text(card_text(v["bottom"]))
        return t
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
        elif isinstance(val, dict):         # a variable of each team: {"team 1": ..., ...}
            t.append(safe(", ".join(f"{k}: {v}" for k, v in val.items())))
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

def plural_words(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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
