"""Before and after: `python -m benchmarks.compare --before B.json [B2.json ...] --after A.json [...]`.

Reads the JSON that `python -m benchmarks --json PATH` writes, from runs of two versions of the
code (run them alternately, so that the machine's load affects both alike), and prints what a
change did: Crazy Eights' ratios to the hand-written game (each run's, in order), its bytecodes
per decision, and for every file of rules/ the mean decisions/s through the API and on the fast
path, before → after, with the change in percent.  ``--markdown`` prints the rules/ table as
Markdown (as the README shows it).  The figures are the benchmark's own; nothing is measured
here.
"""
from __future__ import annotations

import argparse
import json
import sys


def _load(paths: list) -> list:
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            out.append(json.load(fh))
    return out


def _mean(xs: list) -> float:
    return sum(xs) / len(xs)


def rules_rows(before: list, after: list) -> list:
    """Per file and number of players, in the order of the first run before: ``(file, players,
    API before, API after, fast before, fast after)``, each the mean over the runs (a file
    missing from a side: None there)."""
    def means(runs):
        got: dict = {}
        for run in runs:
            for row in run.get("rules", []):
                if "error" in row:
                    continue
                key = (row["file"], row["players"])
                got.setdefault(key, []).append((row["decisions_per_s"], row["fast_decisions_per_s"]))
        return {k: (_mean([a for a, _ in v]), _mean([f for _, f in v])) for k, v in got.items()}
    b, a = means(before), means(after)
    rows = []
    for key in list(b) + [k for k in a if k not in b]:
        api_b, fast_b = b.get(key, (None, None))
        api_a, fast_a = a.get(key, (None, None))
        rows.append((key[0], key[1], api_b, api_a, fast_b, fast_a))
    return rows


def _change(old, new) -> str:
    if old is None or new is None or not old:
        return ""
    return f"{100 * (new - old) / old:+.1f}%"


def _num(x) -> str:
    return "-" if x is None else f"{x:,.0f}"


def report(before: list, after: list, markdown: bool = False) -> str:
    lines = []
    ce_b = [{r["players"]: r for r in run.get("crazy_eights", [])} for run in before]
    ce_a = [{r["players"]: r for r in run.get("crazy_eights", [])} for run in after]
    players = sorted({n for run in ce_b + ce_a for n in run})
    if players:
        lines.append("Crazy Eights, reference games/s over rulelang's (each run, in order):")
        for n in players:
            for label, key in (("fast path", "fast_ratio"), ("API", "ratio")):
                old = " and ".join(f"{run[n][key]:.2f}" for run in ce_b if n in run)
                new = " and ".join(f"{run[n][key]:.2f}" for run in ce_a if n in run)
                lines.append(f"  {n} players, {label:9s} {old} → {new}")
    bc_b = [run["bytecodes"] for run in before if run.get("bytecodes")]
    bc_a = [run["bytecodes"] for run in after if run.get("bytecodes")]
    if bc_b and bc_a:
        lines.append("bytecodes per decision, Crazy Eights (the first run of each side):")
        for key in bc_a[0]:
            if key in bc_b[0]:
                lines.append(f"  {key:14s} {bc_b[0][key]:.0f} → {bc_a[0][key]:.0f}")
    ad_b = [run["adapters"] for run in before if run.get("adapters")]
    ad_a = [run["adapters"] for run in after if run.get("adapters")]
    if ad_b and ad_a:
        lines.append("game-AI adapters, µs per decision (the mean of the runs):")
        for name, games in ad_a[0].items():
            for game in games:
                old = [r[name][game] for r in ad_b if game in r.get(name, {})]
                new = [r[name][game] for r in ad_a if game in r.get(name, {})]
                if old and new:
                    lines.append(f"  {name:11s} {game:44s} {_mean(old):7.1f} → {_mean(new):7.1f} "
                                 f"{_change(_mean(old), _mean(new)):>7s}")
    rows = rules_rows(before, after)
    if rows:
        lines.append("")
        if markdown:
            lines.append("| file | players | API dec/s before → after | fast path dec/s before → after "
                         "| fast ÷ API |")
            lines.append("|---|---:|---:|---:|---:|")
        else:
            lines.append(f"{'file':44s} {'n':>2s} {'API before → after':>24s} {'':>7s} "
                         f"{'fast before → after':>24s} {'':>7s}")
        for file, n, api_b, api_a, fast_b, fast_a in rows:
            name = file.split("/")[-1]
            if markdown:
                ratio = f"{fast_a / api_a:.2f}" if fast_a and api_a else "-"
                lines.append(f"| {name} | {n} | {_num(api_b)} → {_num(api_a)} | "
                             f"{_num(fast_b)} → {_num(fast_a)} | {ratio} |")
            else:
                lines.append(f"{file:44s} {n:2d} {_num(api_b) + ' → ' + _num(api_a):>24s} "
                             f"{_change(api_b, api_a):>7s} "
                             f"{_num(fast_b) + ' → ' + _num(fast_a):>24s} {_change(fast_b, fast_a):>7s}")
    targets = after[-1].get("targets", {}) if after else {}
    if targets:
        lines.append("")
        lines.append("targets (the last run after):")
        for t in targets.values():
            v = t["value"]
            shown = "-" if v is None else (f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.2f}")
            lines.append(f"  {t['what']:60s} {t['goal']:>10s} {shown:>10s}  "
                         f"{'met' if t['met'] else 'NOT MET'}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.compare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", nargs="+", required=True, metavar="JSON",
                    help="results of the code before (python -m benchmarks --json PATH)")
    ap.add_argument("--after", nargs="+", required=True, metavar="JSON",
                    help="results of the code after")
    ap.add_argument("--markdown", action="store_true", help="the rules/ table as Markdown")
    a = ap.parse_args(argv)
    try:
        before, after = _load(a.before), _load(a.after)
    except (OSError, ValueError) as e:
        print(f"error: cannot read the results: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(report(before, after, a.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
