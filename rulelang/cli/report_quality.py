"""The plots and lines of the reports that go beyond balance: the trend of each seat's standing
over a game (mean and spread, from ``measures.trend``), ``compare``'s plots with A and B
overlaid, and the skill report (``stats --skill``).

Like :mod:`rulelang.cli.report`, pure functions from a report (a JSON-ready dict) to matplotlib
figures, rich texts or HTML; matplotlib is given by the caller (``plt``), never imported here.
"""
from __future__ import annotations

import html

from rich.text import Text

# The colours of side A and side B in every plot of a comparison.
COLOUR_A, COLOUR_B = "#4a7fb5", "#d9822b"
SEAT_COLOURS = ("#4a7fb5", "#d9822b", "#4c9a6a", "#b5485d", "#7d5ba6", "#8c6d31", "#3b8c8c",
                "#666666")


def _what(r: dict) -> str:
    m = r.get("measures") or {}
    return "progress" if m.get("lead_by") == "progress" else "score"


def trend_axes(ax, r: dict, colours=SEAT_COLOURS, label=None, style="-") -> None:
    """Each seat's mean standing at each tenth of a game, a line, and the band of one standard
    deviation either side, on ``ax``; ``label`` prefixes each seat's name (a side of a
    comparison)."""
    tr = (r.get("measures") or {}).get("trend")
    if not tr:
        return
    xs = [100 * f for f in tr["checkpoints"]]
    for i, s in enumerate(tr["seats"]):
        c = colours[i % len(colours)]
        lo = [m - d for m, d in zip(s["mean"], s["sd"])]
        hi = [m + d for m, d in zip(s["mean"], s["sd"])]
        ax.fill_between(xs, lo, hi, color=c, alpha=0.15, linewidth=0)
        name = f"seat {s['seat']}" + (f" ({r['agents'][i]})" if i < len(r.get("agents", ())) else "")
        ax.plot(xs, s["mean"], style, color=c, marker="o", markersize=3,
                label=(f"{label}: " if label else "") + name)


def trend_figure(r: dict, plt):
    """The trend plot of a report: each seat's standing over a game, mean and ±1 sd."""
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    trend_axes(ax, r)
    ax.set_xlabel("share of the game (%)")
    ax.set_ylabel(f"{_what(r)} (mean, band: ±1 sd)")
    ax.set_title(f"{r['game']}: each seat's {_what(r)} over a game "
                 f"({(r['measures']['trend'] or {}).get('games', 0)} games)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def trend_note(r: dict) -> str:
    """What the trend plot shows, in words, under it."""
    return (f"Each seat's {_what(r)} at the start of a game, at each tenth of it and at its end "
            "(the turn nearest round(f (T-1)) of T points): the line is the mean over the games, "
            "the band one standard deviation either side.")


# ---------------------------------------------------------------------------------------------
# compare: A and B overlaid
# ---------------------------------------------------------------------------------------------

def overlay_figures(c: dict, label_a: str, label_b: str, plt) -> dict:
    """The plots of a comparison, A and B in each, both named: ``seats`` (win rates with their
    intervals side by side), ``length`` (the two histograms of decisions, overlaid as steps),
    ``trend`` (when both have one)."""
    import os

    from rulelang.play.stats import wilson
    a, b = c["a"], c["b"]
    # in the legends, a file by its name (the page names the whole path)
    label_a, label_b = (" ".join(os.path.basename(w) if w.endswith(".cardrules") else w
                                 for w in x.split(" ")) for x in (label_a, label_b))
    figs = {}
    seats = max(len(a["seats"]), len(b["seats"]))
    fig, ax = plt.subplots(figsize=(6.4, 1.2 + 0.5 * (seats + 3)))
    # draws, shared wins and step-budget stops when either side has any
    extra = [(k, n) for k, n in (("draws", "draws"), ("shared_wins", "shared wins"),
                                 ("budget_stops", "budget stops")) if a[k] or b[k]]
    rows = [f"seat {i + 1}" for i in range(seats)] + [n for _k, n in extra]
    keys = [k for k, _n in extra]
    for side, (r, colour, off) in enumerate(((a, COLOUR_A, 0.18), (b, COLOUR_B, -0.18))):
        k = max(1, r["games"])
        vals, lo, hi = [], [], []
        for i in range(seats):
            s = r["seats"][i] if i < len(r["seats"]) else None
            v = s["win_rate"] if s else 0.0
            w = s["ci95"] if s else (0.0, 0.0)
            vals.append(v)
            lo.append(v - w[0])
            hi.append(w[1] - v)
        for key in keys:
            v = r[key] / k
            w = wilson(r[key], k)
            vals.append(v)
            lo.append(v - w[0])
            hi.append(w[1] - v)
        y = [len(rows) - 1 - i + off for i in range(len(rows))]
        ax.barh(y, vals, xerr=[lo, hi], height=0.34, color=colour, capsize=3,
                label=("A: " if side == 0 else "B: ") + (label_a if side == 0 else label_b))
    ax.set_yticks(list(range(len(rows)))[::-1])
    ax.set_yticklabels(rows)
    ax.set_xlabel("share of games (bars: 95% Wilson interval)")
    ax.set_title("wins per seat: A and B")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22))
    figs["seats"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    for r, colour, name in ((a, COLOUR_A, "A: " + label_a), (b, COLOUR_B, "B: " + label_b)):
        h = r["length"]["decisions"]["histogram"]
        if h["counts"]:
            share = [x / max(1, r["games"]) for x in h["counts"]]
            ax.stairs(share, h["edges"], color=colour, fill=True, alpha=0.35)
            ax.stairs(share, h["edges"], color=colour, linewidth=1.5, label=name)
        ax.axvline(r["length"]["decisions"]["median"], color=colour, linestyle="--", linewidth=1)
    ax.set_xlabel("decisions per game (dashed: the medians)")
    ax.set_ylabel("share of games")
    ax.set_title("length: A and B")
    ax.legend(fontsize=7)
    figs["length"] = fig

    if (a.get("measures") or {}).get("trend") and (b.get("measures") or {}).get("trend"):
        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        shades_a = (COLOUR_A, "#9cc0e6", "#27496b", "#6f9fcf")
        shades_b = (COLOUR_B, "#f2bb85", "#8a4d12", "#e8a25c")
        trend_axes(ax, a, shades_a, "A", "-")
        trend_axes(ax, b, shades_b, "B", "--")
        ax.set_xlabel("share of the game (%)")
        ax.set_ylabel("standing (mean, band: ±1 sd)")
        ax.set_title("each seat's standing over a game: A (solid) and B (dashed)")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
        figs["trend"] = fig
    return figs


def p_words(p: float) -> str:
    """A p-value as a person reads it: the number, formatted, and what it says."""
    num = "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
    if p < 0.001:
        return f"{num}: a clear difference"
    if p < 0.01:
        return f"{num}: a difference (significant at 1%)"
    if p < 0.05:
        return f"{num}: a difference (significant at 5%)"
    if p < 0.1:
        return f"{num}: perhaps a difference, not significant"
    return f"{num}: no sign of a difference"


# ---------------------------------------------------------------------------------------------
# Skill versus luck
# ---------------------------------------------------------------------------------------------

def skill_lines(sk: dict) -> list:
    """The skill report for the terminal: a verdict, then how the stronger agent did."""
    out = [Text("skill versus luck", style="bold"), Text(sk["verdict"], style="bold")]
    if sk.get("interrupted"):
        out.append(Text(f"interrupted: {sk['strong']} played {len(sk['by_seat'])} of "
                        f"{sk['players']} seats; with seats left out the share is not rotated",
                        style="yellow"))
    g = sk["gain"]
    out.append(Text(f"{sk['strong']} against {sk['weak']}, seats rotated: {sk['strong']} won "
                    f"{g['wins']} of the {g['games']} games with one winner ({_pct(g['win_rate'])}; 95% interval "
                    f"{_pct(g['ci95'][0])}–{_pct(g['ci95'][1])}); with no skill it would win "
                    f"{_pct(g['fair'])} (its share of the players)"))
    out.append(Text(f"gain over {sk['weak']}: {100 * g['gain']:+.1f} points (bootstrap 95% "
                    f"interval {100 * g['gain_ci95'][0]:+.1f} to {100 * g['gain_ci95'][1]:+.1f}); "
                    f"{g['test']}: {p_words(g['p_value'])}"))
    for s in sk["by_seat"]:
        out.append(Text(f"  {sk['strong']} in seat {s['seat']}: won {s['wins']} of the "
                        f"{s['sole_winner_games']} games with one winner, of {s['games']} "
                        f"({_pct(s['win_rate'])})", style="dim"))
    fs = sk.get("first_seat")
    if fs:
        out.append(Text(f"first seat ({sk['weak']} against itself): wins {_pct(fs['win_rate'])} "
                        f"of {fs['games']} games with one winner (even chances {_pct(fs['fair'])}; "
                        f"{_pct(fs['ci95'][0])}–{_pct(fs['ci95'][1])}, {p_words(fs['p_value'])})"))
    return out


def skill_html(sk: dict) -> str:
    e = html.escape
    parts = [f"<h2>Skill versus luck</h2><p id='skill'><b>{e(sk['verdict'])}</b></p>"]
    parts.extend(f"<p>{e(t.plain)}</p>" for t in skill_lines(sk)[2:])
    return "".join(parts)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def significance(p: float) -> str:
    """Whether a difference is significant, in a word or two (the compare table's last column):
    clearly below p = 0.001, yes below 0.01, just below 0.05, else no."""
    return ("clearly" if p < 0.001 else "yes" if p < 0.01 else "yes, just" if p < 0.05 else "no")


def difference_rows(c: dict) -> list:
    """The rows of the comparison's table: what, A, B, B - A, the 95% interval, the test, p
    formatted and its meaning in words."""
    rows = []
    for d in c["differences"]:
        is_rate = "share" in d["what"] or "rate" in d["what"]
        if is_rate:
            va, vb = _pct(d["a"]), _pct(d["b"])
            diff = f"{100 * d['difference']:+.1f} points"
        else:
            va, vb = f"{d['a']:.1f}", f"{d['b']:.1f}"
            rel = d.get("relative")
            diff = f"{d['difference']:+.1f}" + (f" ({100 * rel:+.0f}%)" if rel is not None else "")
        ci = d.get("ci95")
        rows.append((d["what"], va, vb, diff, f"{ci[0]:+.1f} to {ci[1]:+.1f}" if ci else "",
                     d["test"], p_words(d["p_value"]), d["significant"]))
    return rows


def coverage_lines(c: dict) -> list:
    """The places of the rules that ran on one side only, each with its line's text:
    ``(side, other side, [(file:line, rule, the line's text, times run)])``."""
    cov = c.get("coverage") or {}
    out = []
    for side, other, items in (("A", "B", cov.get("only_a") or []),
                               ("B", "A", cov.get("only_b") or [])):
        if items:
            out.append((side, other, [(f"{e['file']}:{e['line']}", e["rule"],
                                       e.get("source") or e["what"], e["taken"]) for e in items]))
    return out


def compare_page(c: dict, label_a: str, label_b: str, body_of, verdict: str, css: str,
                 plt, png) -> str:
    """The HTML page of a comparison: the verdict, both sides named, the plots with A and B
    overlaid, the table of differences with p-values in words, the places of the rules that ran
    on one side only (with their lines' text), then each side's own report (``body_of``)."""
    e = html.escape
    figs = overlay_figures(c, label_a, label_b, plt)
    imgs = {k: png(f) for k, f in figs.items()}
    for f in figs.values():
        plt.close(f)
    head = "".join(f"<th class='{'l' if x in ('', 'test', 'p, in words') else ''}'>{e(x)}</th>"
                   for x in ("", "A", "B", "B − A", "95% interval", "test", "p, in words"))
    body = []
    for what, va, vb, diff, ci, test, pw, sig in difference_rows(c):
        style = " style='font-weight:bold'" if sig else " class='dim'"
        body.append(f"<tr{style}><td class='l'>{e(what)}</td><td>{e(va)}</td><td>{e(vb)}</td>"
                    f"<td>{e(diff)}</td><td>{e(ci)}</td><td class='l'>{e(test)}</td>"
                    f"<td class='l'>{e(pw)}</td></tr>")
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>comparison: "
           f"{e(c['a']['game'])} and {e(c['b']['game'])}</title><style>{css}</style></head><body>",
           "<h1>A against B</h1>",
           f"<p id='verdict'><b>In short: {e(verdict)}</b></p>",
           f"<p><span style='color:{COLOUR_A}'>■</span> A = {e(label_a)}<br>"
           f"<span style='color:{COLOUR_B}'>■</span> B = {e(label_b)}</p>",
           f"<table><tr>{head}</tr>{''.join(body)}</table>",
           "<p class='dim'>Bold: significant at the 5% level. Lengths: Welch's t-test; rates and "
           "shares: two-proportion z-test.</p>"]
    for key, alt in (("seats", "wins per seat, A and B"), ("length", "length, A and B"),
                     ("trend", "each seat's standing over a game, A and B")):
        if key in imgs:
            out.append(f"<img id='compare-{key}' alt='{e(alt)}' "
                       f"src='data:image/png;base64,{imgs[key]}'>")
    cov = coverage_lines(c)
    if cov:
        out.append("<h2>Places of the rules that ran on one side only</h2>")
    for side, other, items in cov:
        rows = "".join(f"<tr><td class='l'>{e(w)}</td><td class='l'>{e(r)}</td>"
                       f"<td class='l'><code>{e(t)}</code></td><td>{n}</td></tr>"
                       for w, r, t, n in items)
        out.append(f"<p>Ran in {side}'s games, never in {other}'s:</p><table><tr>"
                   f"<th class='l'>where</th><th class='l'>rule</th><th class='l'>the line</th>"
                   f"<th>times in {side}</th></tr>{rows}</table>")
    out.append(f"<hr><h1>A: {e(label_a)}</h1>{body_of(c['a'])}<hr><h1>B: {e(label_b)}</h1>"
               f"{body_of(c['b'])}</body></html>")
    return "\n".join(out)
