"""Balance reports shown: on the terminal (rich) and as a self-contained HTML page (matplotlib).

The terminal report draws its key plot, the win rate of each seat with its 95% interval, as
rich bars; the length of the games as a small histogram.  :func:`write_html` needs matplotlib
(``pip install 'rulelang[report]'``): the plots are embedded as base64 PNG, so the page is one
file that can be mailed or committed.  matplotlib is imported only there.
"""
from __future__ import annotations

import html
import os
from typing import Optional

from rich.bar import Bar
from rich.console import Group
from rich.table import Table
from rich.text import Text


class ReportUnavailable(Exception):
    """matplotlib is not installed."""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _heading(r: dict, label: Optional[str] = None) -> Text:
    k = r["games"]
    head = Text((label + ": " if label else "") + r["game"], style="bold")
    head.append(f" — {k} games, {r['players']} players, seeds {r['seed']}..{r['seed'] + k - 1}, "
                f"agents {', '.join(r['agents'])}")
    if r.get("options"):
        head.append("\noptions: " + ", ".join(f"{a}={b}" for a, b in r["options"].items()),
                    style="dim")
    if r.get("interrupted"):
        head.append(f"\ninterrupted: {k} of {r['requested']} games played", style="yellow")
    return head


def seats_table(r: dict) -> Table:
    """Wins per seat with the 95% Wilson interval drawn as a bar (the key plot)."""
    top = max([s["ci95"][1] for s in r["seats"]] + [0.05])
    t = Table(title=None, show_edge=False, pad_edge=False)
    t.add_column("seat")
    t.add_column("agent")
    t.add_column("wins", justify="right")
    t.add_column("win rate", justify="right")
    t.add_column("95% interval", justify="right")
    t.add_column(f"0 {'─' * 10} {_pct(top)}", no_wrap=True)
    for s in r["seats"]:
        lo, hi = s["ci95"]
        wins = str(s["wins"]) + (f" (+{s['shared_wins']} shared)" if s["shared_wins"] else "")
        t.add_row(f"seat {s['seat']}", s["agent"], wins, _pct(s["win_rate"]),
                  f"{_pct(lo)}–{_pct(hi)}",
                  Bar(size=top, begin=lo, end=hi, width=28, color="cyan"))
    return t


def teams_table(r: dict) -> Table:
    """Wins per team (the games its players won together), in a game with teams."""
    t = Table(title=None, show_edge=False, pad_edge=False)
    for col in ("team", "players", "wins", "win rate", "95% interval"):
        t.add_column(col, justify="right" if col in ("wins", "win rate", "95% interval") else "left")
    for row in r.get("teams") or ():
        lo, hi = row["ci95"]
        t.add_row(f"team {row['team']}", ", ".join(str(p) for p in row["players"]),
                  str(row["wins"]), _pct(row["win_rate"]), f"{_pct(lo)}–{_pct(hi)}")
    return t


def _seat_line(r: dict) -> Text:
    t = r.get("seat_advantage")
    if t is None:
        return Text("seat advantage: no game had a sole winner, nothing to test", style="dim")
    if t["significant"]:
        best = max(r["seats"], key=lambda s: s["wins"])
        line = Text(f"seat advantage: significant, seat {best['seat']} wins most ", style="bold")
    else:
        line = Text("seat advantage: not significant ")
    line.append(f"({t['test']} over {t['games']} games with one winner, {_p(t['p_value'])})",
                style="dim")
    return line


def _ends_line(r: dict) -> Text:
    return Text(f"draws {r['draws']}   shared wins {r['shared_wins']}   "
                f"no winner {r['no_winner']} (draws and failed games)   "
                f"failed {r['errors']} (of them stopped by the step budget {r['budget_stops']})")


def length_table(r: dict) -> Table:
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("per game")
    for c in ("mean", "median", "p10", "p90", "max"):
        t.add_column(c, justify="right")
    for what in ("decisions", "turns"):
        d = r["length"][what]
        t.add_row(what, f"{d['mean']:.1f}", f"{d['median']:g}", f"{d['p10']:g}",
                  f"{d['p90']:g}", str(d["max"]))
    return t


def length_histogram(r: dict, width: int = 40) -> Table:
    """Decisions per game as a horizontal histogram."""
    h = r["length"]["decisions"]["histogram"]
    edges, counts = list(h["edges"]), list(h["counts"])
    while len(counts) > 10:              # the terminal gets ten rows at most
        counts = [sum(counts[i:i + 2]) for i in range(0, len(counts), 2)]
        edges = edges[::2] + ([edges[-1]] if (len(edges) - 1) % 2 else [])
    h = {"edges": edges, "counts": counts}
    t = Table(show_edge=False, pad_edge=False, show_header=True)
    t.add_column("decisions")
    t.add_column("games", justify="right")
    t.add_column("", no_wrap=True)
    top = max(h["counts"] or [1])
    for i, c in enumerate(h["counts"]):
        lo, hi = h["edges"][i], h["edges"][i + 1] - 1
        t.add_row(f"{lo}–{hi}" if hi > lo else str(lo), str(c),
                  Bar(size=top, begin=0, end=c, width=width, color="green"))
    return t


def _shorten(text: str, k: int = 48) -> str:
    return text if len(text) <= k else text[:k - 1] + "…"


def coverage_table(r: dict, limit: Optional[int] = None) -> Table:
    """Coverage rows; the place is a line number when every row is in one file (named above
    the table), file:line when a variant and its base both have rows."""
    rows = (r.get("coverage") or [])[:limit]
    one_file = len({x["file"] for x in rows}) <= 1

    def where(x):
        return str(x["line"]) if one_file else f"{os.path.basename(x['file'])}:{x['line']}"

    def widest(texts, least):
        return max([least] + [len(x) for x in texts])
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("ran", justify="right", no_wrap=True,
                 min_width=widest([str(x["taken"]) for x in rows], 3))
    t.add_column("in games", justify="right", no_wrap=True,
                 min_width=widest([str(x["games"]) for x in rows], 8))
    t.add_column("line" if one_file else "where", justify="right" if one_file else "left",
                 no_wrap=True, min_width=widest([where(x) for x in rows], 4))
    t.add_column("rule", no_wrap=True, overflow="ellipsis", max_width=14)
    t.add_column("the line", no_wrap=True, overflow="ellipsis", max_width=48)
    for row in rows:
        style = "bold red" if row["taken"] == 0 else None
        t.add_row(str(row["taken"]), str(row["games"]), where(row), row["rule"],
                  _shorten(row.get("source") or row["what"]), style=style)
    return t


def stats_verdict(r: dict) -> str:
    """The report in one line of words: the length, the seats, the lead, skill (with
    ``--skill``), a rule that never runs."""
    said = []
    d = r["length"]["decisions"]
    med = d["median"]
    size = "long" if med >= 100 else "short" if med <= 20 else "of middling length"
    said.append(f"{size}: a median of {med:g} decisions")
    t = r.get("seat_advantage")
    if t and t["significant"]:
        best = max(r["seats"], key=lambda s: s["wins"])
        said.append(f"seat {best['seat']} wins significantly more often")
    elif t:
        said.append("no seat wins significantly more often")
    lead = (r.get("measures") or {}).get("lead")
    if lead and lead["lead_changes"]["mean"] is not None:
        ch = lead["lead_changes"]["mean"]
        said.append("lead changes hands often" if ch >= 2 else
                    "the lead never changes hands" if ch == 0 else
                    "the lead seldom changes hands")
    elif r.get("measures"):
        said.append("no score or progress, so no lead to follow")
    sk = r.get("skill")
    if sk:
        g = sk["gain"]
        share = (f"{sk['strong']} wins {100 * g['win_rate']:.0f}% against {sk['weak']}, luck "
                 f"alone {100 * g['fair']:.0f}%")
        said.append({"yes": f"skill matters ({share})",
                     "no": f"skill does not matter ({share})",
                     "worse": f"{sk['strong']} does worse than {sk['weak']} ({share})"}.get(
                         sk["matters"], "too few games to tell whether skill matters"))
    never = [x for x in r.get("coverage") or () if x["taken"] == 0]
    if never:
        x = never[0]
        what = _shorten(x.get("source") or x["what"], 40)
        said.append(f"`{what}` (line {x['line']}) never runs"
                    + (f", and {len(never) - 1} more place{'s' if len(never) > 2 else ''}"
                       if len(never) > 1 else ""))
    return "; ".join(said) + "."


def measures_lines(r: dict) -> list:
    """The game-quality measures, a few lines (docs/workbench.md defines them)."""
    m = r.get("measures")
    if not m:
        return []
    out = [Text("game-quality measures", style="bold")]
    fs = m.get("first_seat")
    if fs:
        out.append(Text(f"first seat: wins {_pct(fs['win_rate'])} of {fs['games']} games with one "
                        f"winner (even chances: {_pct(fs['fair'])}; {_pct(fs['ci95'][0])}–"
                        f"{_pct(fs['ci95'][1])}, {_p(fs['p_value'])})"))
    lead = m.get("lead")
    if lead is None:
        out.append(Text(f"who leads: {m.get('no_lead')}; no lead measures", style="dim"))
        return out
    lc, dr, de, un = (lead["lead_changes"], lead["drama"], lead["decisiveness"],
                      lead["uncertainty"])

    def f(x, fmt="{:.2f}"):
        return "–" if x is None else fmt.format(x)
    out.append(Text(f"who leads: {m['who_leads']} (alone)"))
    out.append(Text(f"lead changes: {f(lc['mean'])} per game (max {lc['max']}; in "
                    f"{f(lc['games_with_any'], '{:.0%}')} of the games)"))
    out.append(Text(f"drama: the winner was behind in {f(dr['games_winner_behind'], '{:.0%}')} of "
                    f"the games won alone, for {f(dr['mean_share_behind'], '{:.0%}')} of a game "
                    f"on average"))
    out.append(Text(f"decisiveness: the winner leads for good after {f(de['median_decided_at'], '{:.0%}')} "
                    f"of a game (median; mean {f(de['mean_decided_at'], '{:.0%}')})"))
    out.append(Text(f"uncertainty: {f(un['mean'], '{:.0%}')} of the time the leader is not the "
                    f"eventual winner (at 10%..90% of a game)"))
    st = m.get("stability")
    if st:
        out.append(Text(f"stability: variance {f(st['mean_variance'], '{:.3f}')} of a seat's "
                        f"standing over a game (on its range); setbacks in "
                        f"{f(st['setbacks'], '{:.1%}')} of the steps, in "
                        f"{f(st['games_with_setbacks'], '{:.0%}')} of the games"))
    tr = m.get("trend")
    if tr:
        what = "progress" if m.get("lead_by") == "progress" else "score"
        for s in tr["seats"]:
            marks = ", ".join(f"{s['mean'][i]:.1f}±{s['sd'][i]:.1f}" for i in (0, 5, 10))
            out.append(Text(f"trend, seat {s['seat']}'s {what} (mean±sd) at the start, half-way, "
                            f"the end: {marks}"))
    return out


def stats_renderable(r: dict):
    """The whole report for the terminal."""
    parts = [Text("in short: " + stats_verdict(r), style="bold"), _heading(r), Text(""), seats_table(r), *((teams_table(r),) if r.get("teams") else ()), _seat_line(r), _ends_line(r), Text(""),
             length_table(r), Text(""), length_histogram(r), Text("")]
    d = r["decisions"]
    parts.append(Text(f"decisions: {d['branching']:.2f} legal choices on average (branching); "
                      f"{_pct(d['forced_share'])} forced (one legal choice)"))
    if "coverage" in r:
        never = r["never_run"]
        total = len(r["coverage"])
        parts.append(Text(""))
        parts.append(Text(f"rule coverage: {total - never} of {total} rules, alternatives, "
                          f"branches and endings ran; {never} never ran"
                          + (" (listed first)" if never else "")
                          + (f"; lines of {r['coverage'][0]['file']}"
                             if len({x["file"] for x in r["coverage"]}) == 1 else ""),
                          style="bold red" if never else "bold"))
        parts.append(coverage_table(r))
    if r.get("measures"):
        parts.append(Text(""))
        parts.extend(measures_lines(r))
    if r.get("skill"):
        from rulelang.cli.report_quality import skill_lines
        parts.append(Text(""))
        parts.extend(skill_lines(r["skill"]))
    parts.append(Text(f"{r['games_per_second']:.0f} games/s ({r['seconds']:.2f} s, "
                      f"{r['workers']} worker{'s' if r['workers'] != 1 else ''})", style="dim"))
    return Group(*parts)


def compare_renderable(c: dict, label_a: str, label_b: str):
    """Two reports side by side and their differences, on one screen."""
    from rulelang.cli.report_quality import coverage_lines, significance
    a, b = c["a"], c["b"]
    head = Group(_heading(a, "A"), _heading(b, "B"))
    side = Table(show_edge=False, pad_edge=False)
    for name in ("", "A", "B", "B − A", "95% interval", "p", "significant"):
        side.add_column(name, justify="left" if not name else "right", no_wrap=True)
    for d in c["differences"]:
        is_rate = "share" in d["what"] or "rate" in d["what"]
        fmt = _pct if is_rate else (lambda x: f"{x:.1f}")
        diff = d["difference"]
        if is_rate:
            dtxt = f"{100 * diff:+.1f} pts"
        else:
            rel = d.get("relative")
            dtxt = f"{diff:+.1f}" + (f" {100 * rel:+.0f}%" if rel is not None else "")
        ci = d.get("ci95")
        p = d["p_value"]
        what = _SHORT.get(d["what"], d["what"]).replace(" win rate", " wins")
        side.add_row(what, fmt(d["a"]), fmt(d["b"]), dtxt,
                     f"{ci[0]:+.1f} {ci[1]:+.1f}" if ci else "",
                     "<0.001" if p < 0.001 else f"{p:.3f}",
                     Text(significance(p), style="bold") if d["significant"]
                     else Text("no", style="dim"))
    lines = [Text("in short: " + verdict(c), style="bold"), head,
             Text(f"A = {label_a}\nB = {label_b}", style="dim"), Text(""), side,
             Text("lengths: Welch's t-test; rates and shares: two-proportion z-test; "
                  "significant: p < 0.05", style="dim"), Text("")]
    for key, r in (("A", a), ("B", b)):
        line = _seat_line(r)
        lines.append(Text(f"{key}: ") + line)
    for side, other, items in coverage_lines(c):
        lines.append(Text(""))
        lines.append(Text(f"ran in {side}'s games, never in {other}'s:", style="bold"))
        for where, rule, text, taken in items[:12]:
            lines.append(Text(f"  {where}  {rule}: {_shorten(text, 60)}  ({taken} times)"))
        if len(items) > 12:
            lines.append(Text(f"  ... and {len(items) - 12} more"))
    return Group(*lines)


_SHORT = {"mean decisions per game": "decisions/game", "mean turns per game": "turns/game",
          "share of draws": "draws", "share of shared wins": "shared wins",
          "share of games stopped by the step budget": "budget stops"}


def verdict(c: dict) -> str:
    """One sentence on what differs significantly."""
    said = []
    for d in c["differences"]:
        if not d["significant"]:
            continue
        if d["what"].startswith("mean decisions"):
            rel = d.get("relative")
            word = "shorter" if d["difference"] < 0 else "longer"
            said.append(f"B's games are {abs(100 * rel):.0f}% {word} in decisions" if rel
                        else f"B's games are {word}")
        elif "win rate" in d["what"]:
            said.append(f"{d['what']} {'drops' if d['difference'] < 0 else 'rises'} "
                        f"from {_pct(d['a'])} to {_pct(d['b'])}")
        elif d["what"].startswith("share"):
            said.append(f"{d['what']} {_pct(d['a'])} → {_pct(d['b'])}")
    cov = c.get("coverage") or {}
    if cov.get("only_a"):
        n = len(cov["only_a"])
        said.append(f"{n} place{'s' if n != 1 else ''} of the rules that ran in A never ran in B")
    if cov.get("only_b"):
        n = len(cov["only_b"])
        said.append(f"{n} place{'s' if n != 1 else ''} of the rules ran only in B")
    sa, sb = c["a"].get("seat_advantage"), c["b"].get("seat_advantage")
    if sa and sb and sa["significant"] != sb["significant"]:
        said.append("a seat advantage in A is gone in B" if sa["significant"]
                    else "B has a seat advantage that A has not")
    return "; ".join(said) + "." if said else "no significant difference at the 5% level."


# ---------------------------------------------------------------------------------------------
# HTML
# ---------------------------------------------------------------------------------------------

def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ReportUnavailable("--report needs matplotlib, an optional extra: "
                                "pip install 'rulelang[report]'") from None
    return plt


def _png(fig) -> str:
    import base64
    import io
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def figures(r: dict, plt=None) -> dict:
    """The report's plots as matplotlib figures: ``length``, ``seats``, ``coverage``."""
    plt = plt or _pyplot()
    figs = {}
    h = r["length"]["decisions"]["histogram"]
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    if h["counts"]:
        widths = [h["edges"][i + 1] - h["edges"][i] for i in range(len(h["counts"]))]
        ax.bar(h["edges"][:-1], h["counts"], width=widths, align="edge", color="#4c9a6a",
               edgecolor="white")
    d = r["length"]["decisions"]
    for (x, style, name), height in zip(((d["p10"], ":", "p10"), (d["median"], "-", "median"),
                                         (d["p90"], ":", "p90")), (0.95, 0.85, 0.95)):
        ax.axvline(x, color="#333333", linestyle=style, linewidth=1)
        ax.annotate(f"{name} {x:g}", (x, ax.get_ylim()[1] * height), fontsize=8, ha="left",
                    xytext=(2, 0), textcoords="offset points")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title(f"{r['game']}: length of {r['games']} games")
    figs["length"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.45 * (len(r["seats"]) + 2)))
    labels, rates, los, his = [], [], [], []
    for s in r["seats"]:
        labels.append(f"seat {s['seat']} ({s['agent']})")
        rates.append(s["win_rate"])
        los.append(s["win_rate"] - s["ci95"][0])
        his.append(s["ci95"][1] - s["win_rate"])
    k = max(1, r["games"])
    for name, key in (("draws", "draws"), ("shared wins", "shared_wins"),
                      ("step-budget stops", "budget_stops")):
        if r[key]:
            from rulelang.play.stats import wilson
            lo, hi = wilson(r[key], k)
            labels.append(name)
            rates.append(r[key] / k)
            los.append(r[key] / k - lo)
            his.append(hi - r[key] / k)
    y = list(range(len(labels)))[::-1]
    ax.barh(y, rates, xerr=[los, his], color="#4a7fb5", capsize=4, height=0.6)
    fair = 1 / max(1, r["players"])
    ax.axvline(fair, color="#aa3333", linestyle="--", linewidth=1)
    ax.text(fair, 1.01, " equal chances", fontsize=8, color="#aa3333",
            transform=ax.get_xaxis_transform(), va="bottom")
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.set_xlabel("share of games (bars: 95% Wilson interval)")
    ax.set_xlim(0, min(1, max(r + h for r, h in zip(rates, his)) * 1.15 + 0.02))
    ax.set_title("wins per seat")
    figs["seats"] = fig

    rows = r.get("coverage")
    if rows:
        shown = sorted(rows, key=lambda x: (x["file"], x["line"]))
        fig, ax = plt.subplots(figsize=(6.4, 0.5 + 0.22 * len(shown)))
        y = list(range(len(shown)))[::-1]
        per_game = [x["taken"] / k for x in shown]
        colors = ["#cc3333" if x["taken"] == 0 else "#4a7fb5" for x in shown]
        left = min([v for v in per_game if v > 0] + [1.0]) / 10
        ax.barh(y, [v if v > 0 else 0 for v in per_game], left=0, color=colors, height=0.7)
        ax.set_xscale("log")
        ax.set_xlim(left=left)
        for yy, x in zip(y, shown):
            if x["taken"] == 0:
                ax.annotate("never ran", (left, yy), fontsize=7, color="#cc3333",
                            va="center", xytext=(3, 0), textcoords="offset points")
        ax.set_yticks(y)
        ax.set_yticklabels([_shorten(f"{x['line']}: {x.get('source') or x['what']}", 44)
                            for x in shown], fontsize=7)
        for label, x in zip(ax.get_yticklabels(), shown):
            if x["taken"] == 0:
                label.set_color("#cc3333")
        ax.set_xlabel("times run per game (log scale)")
        ax.set_title("rule coverage (in file order)")
        figs["coverage"] = fig
    if (r.get("measures") or {}).get("trend"):
        from rulelang.cli.report_quality import trend_figure
        figs["trend"] = trend_figure(r, plt)
    return figs


_CSS = """body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;
text-align:right}td.l,th.l{text-align:left}tr.never td{color:#b00;font-weight:bold}
img{max-width:100%}.dim{color:#777}"""


def _table(head, rows, left=()) -> str:
    h = "".join(f"<th class='{'l' if i in left else ''}'>{html.escape(str(x))}</th>"
                for i, x in enumerate(head))
    body = []
    for row, cls in rows:
        tds = "".join(f"<td class='{'l' if i in left else ''}'>{html.escape(str(x))}</td>"
                      for i, x in enumerate(row))
        body.append(f"<tr class='{cls}'>{tds}</tr>")
    return f"<table><tr>{h}</tr>{''.join(body)}</table>"


def html_page(r: dict) -> str:
    """The report as one HTML page with its plots embedded."""
    plt = _pyplot()
    figs = figures(r, plt)
    imgs = {name: _png(f) for name, f in figs.items()}
    for f in figs.values():
        plt.close(f)
    e = html.escape
    k = r["games"]
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(r['game'])}: balance "
           f"report</title><style>{_CSS}</style></head><body>",
           f"<h1>{e(r['game'])}: balance report</h1>",
           f"<p id='verdict'><b>In short: {e(stats_verdict(r))}</b></p>",
           f"<p>{k} games, {r['players']} players, seeds {r['seed']}..{r['seed'] + k - 1}, "
           f"agents {e(', '.join(r['agents']))}"
           + (f"; options {e(', '.join(f'{a}={b}' for a, b in r['options'].items()))}"
              if r.get("options") else "") + "</p>"]
    if r.get("interrupted"):
        out.append(f"<p><b>Interrupted: {k} of {r['requested']} games played.</b></p>")
    out.append("<h2>Wins per seat</h2>")
    out.append(f"<img alt='win rates' src='data:image/png;base64,{imgs['seats']}'>")
    out.append(_table(["seat", "agent", "wins", "shared wins", "win rate", "95% interval"],
                      [((f"seat {s['seat']}", s["agent"], s["wins"], s["shared_wins"],
                         _pct(s["win_rate"]), f"{_pct(s['ci95'][0])} – {_pct(s['ci95'][1])}"), "")
                       for s in r["seats"]], left=(0, 1)))
    out.append(f"<p>{e(_seat_line(r).plain)}</p><p>{e(_ends_line(r).plain)}</p>")
    out.append("<h2>Length</h2>")
    out.append(f"<img alt='length histogram' src='data:image/png;base64,{imgs['length']}'>")
    rows = []
    for what in ("decisions", "turns"):
        d = r["length"][what]
        rows.append(((what, f"{d['mean']:.1f}", f"{d['median']:g}", f"{d['p10']:g}",
                      f"{d['p90']:g}", d["max"]), ""))
    out.append(_table(["per game", "mean", "median", "p10", "p90", "max"], rows, left=(0,)))
    d = r["decisions"]
    out.append(f"<p>Decisions: {d['branching']:.2f} legal choices on average (branching); "
               f"{_pct(d['forced_share'])} forced (one legal choice).</p>")
    if "coverage" in r:
        out.append("<h2>Rule coverage</h2>")
        out.append(f"<p>{len(r['coverage']) - r['never_run']} of {len(r['coverage'])} rules, "
                   f"alternatives, branches and endings ran; {r['never_run']} never ran "
                   f"(listed first, in red).</p>")
        if "coverage" in imgs:
            out.append(f"<img alt='coverage' src='data:image/png;base64,{imgs['coverage']}'>")
        out.append(_table(["ran", "in games", "where", "rule", "the line"],
                          [((x["taken"], x["games"], f"{x['file']}:{x['line']}", x["rule"],
                             x.get("source") or x["what"]), "never" if x["taken"] == 0 else "")
                           for x in r["coverage"]], left=(2, 3, 4)))
    if r.get("measures"):
        out.append("<h2>Game-quality measures</h2>")
        out.append("".join(f"<p>{e(t.plain)}</p>" for t in measures_lines(r)[1:]))
        if "trend" in imgs:
            from rulelang.cli.report_quality import trend_note
            out.append("<h3>The trend over a game</h3>")
            out.append(f"<img id='trend' alt='each seat&#39;s standing over a game' "
                       f"src='data:image/png;base64,{imgs['trend']}'>")
            out.append(f"<p class='dim'>{e(trend_note(r))}</p>")
    if r.get("skill"):
        from rulelang.cli.report_quality import skill_html
        out.append(skill_html(r["skill"]))
    out.append(f"<p class='dim'>{r['games_per_second']:.0f} games/s, {r['seconds']:.2f} s, "
               f"{r['workers']} worker{'s' if r['workers'] != 1 else ''}. Made by rulelang stats."
               "</p></body></html>")
    return "\n".join(out)


def write_html(r: dict, path: str) -> None:
    from rulelang.compile.loader import write_whole
    write_whole(path, html_page(r), "the report")


def write_compare_html(c: dict, path: str, label_a: str, label_b: str) -> None:
    """The two reports of a comparison, and the differences, on one page
    (:func:`rulelang.cli.report_quality.compare_page`)."""
    from rulelang.cli.report_quality import compare_page
    from rulelang.compile.loader import write_whole

    def body(r):
        p = html_page(r)
        return p[p.index("<body>") + 6:p.rindex("</body>")]
    write_whole(path, compare_page(c, label_a, label_b, body, verdict(c), _CSS, _pyplot(), _png),
                "the report")
