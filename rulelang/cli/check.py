"""``rulelang check`` (every diagnostic of rule files: the checker's, the compiler's for each
number of players (the rules written once, the game laid out for each number), and with ``--simulate`` those of random games; :func:`check_one` does one file
and prints nothing) and ``rulelang test`` (the rule tests of ``.cardtest`` files).
"""
from __future__ import annotations

import os
import sys

from rulelang.cli.common import (EXIT_ERRORS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, Out,
                                 UsageError, _diag_out, _include, _missing_file, _need_ray,
                                 _overrides, _unknown_set_option, _workers)


# ---------------------------------------------------------------------------------------------
# rulelang check
# ---------------------------------------------------------------------------------------------


def _sort_key(d):
    sp = d.span
    if sp is None:
        return ("", 0, 0)
    return (sp.file, sp.line, sp.column)


def check_one(path: str, overrides: dict, players=None, simulate=None, include=(), workers=1,
              progress=None, ray=None, fallbacks=None):
    """Every diagnostic for one file: the checker's, the compiler's for each allowed number of
    players, and (with ``simulate``) those of random games.  Returns (diagnostics, internal).
    Ctrl-C during the games raises :class:`~rulelang.play.simulate.SimulationInterrupted` holding
    every diagnostic found so far (the static ones too).  With a list ``fallbacks``: each
    optimisation of the compiler that could not apply to a rule is added to it, as ``(number of
    players, compile.passes.Fallback)`` (the playout variants made too, to find theirs)."""
    from rulelang.compile.loader import Game, check_file, compiler_diagnostics, counts_to_compile
    from rulelang.cli.render import internal_error
    internal = False
    missing = _missing_file(path)
    if missing is not None:
        return [missing], False
    try:
        diags, model, decls = check_file(path, overrides, players=players, include=include)
        diags = list(diags)
        if model is not None and not any(d.is_error for d in diags):
            game = Game(model, diags, decls, path, overrides)
            game.include = tuple(include)
            diags.extend(compiler_diagnostics(game, diags, players))
            if fallbacks is not None and not any(d.is_error for d in diags):
                # (--verbose: the rules written for every number of players checked, each may
                # leave out other optimisations; check alone writes them once)
                for k in [players] if players is not None else counts_to_compile(model):
                    cg = game.compiled(k)
                    cg.playout_procs()
                    fallbacks.extend((k, f) for f in cg.fallbacks)
            if simulate and not any(d.is_error for d in diags):
                from rulelang.play.simulate import SimulationInterrupted, simulate as run_simulation
                try:
                    diags.extend(run_simulation(path, simulate, overrides, include=include,
                                                workers=workers, progress=progress, ray=ray,
                                                game=game))
                except SimulationInterrupted as stop:
                    stop.diagnostics = sorted(diags + stop.diagnostics, key=_sort_key)
                    raise
    except RecursionError as e:
        from rulelang.syntax.diagnostics import ERROR, Diagnostic
        diags = [Diagnostic("RL003", ERROR, "the file is nested too deeply to read", None,
                            "split deeply nested expressions or blocks into rules or defines")]
        del e
    except Exception as e:  # a bug: report it, never a traceback
        diags = [internal_error(e, f"checking {path}")]
        internal = True
    diags.sort(key=_sort_key)
    return diags, internal


def _grouped(found) -> list:
    """``[(Fallback, [numbers of players]), ...]`` from ``(players, Fallback)`` pairs, in the
    order first found."""
    out: dict = {}
    for n, f in found:
        out.setdefault(f, [])
        if n not in out[f]:
            out[f].append(n)
    return list(out.items())


def _fallbacks_text(path: str, found) -> str:
    """``check --verbose``: the optimisations of the compiler left out, rule by rule."""
    if not found:
        return f"{path}: every optimisation of the compiler applies"
    lines = [f"{path}: optimisations of the compiler left out (the game plays the same, slower):"]
    for f, players in found:
        counts = ", ".join(map(str, players))
        lines.append(f"  {f.rule}: {f.optimisation} ({counts} players): {f.why}")
    return "\n".join(lines)


DEFAULT_MAX_ERRORS = 100          # diagnostics printed per file (`check --max-errors`)
DEFAULT_MAX_JSON = 1000           # diagnostics per file in `check --json` unless --max-errors


def _more_text(errors: int, warnings: int) -> str:
    """``... and 49,950 more errors`` (and warnings) for diagnostics left out."""
    parts = []
    if errors:
        parts.append(f"{errors:,} more error{'' if errors == 1 else 's'}")
    if warnings:
        parts.append(f"{warnings:,} more warning{'' if warnings == 1 else 's'}")
    return "... and " + " and ".join(parts)


def cmd_check(args) -> int:
    from rulelang.termsafe import safe_json
    out, err = Out(sys.stdout), Out(sys.stderr)
    overrides = _overrides(args)
    all_diags = []
    internal = False
    files = []
    for path in args.files:          # a folder means every rule file in it
        if os.path.isdir(path):
            inside = sorted(os.path.join(path, f) for f in os.listdir(path)
                            if f.endswith(".cardrules"))
            files.extend(inside or [path])
        else:
            files.append(path)
    args.files = files
    per_file = []
    fallbacks = []                    # --verbose: (path, [(Fallback, players), ...])
    stopped = None                    # Ctrl-C during --simulate: (games played, of how many)
    bars = []

    def progress(total):
        """A progress bar for the random games of --simulate (on a terminal only)."""
        from rulelang.play.parallel import progress_bar
        if args.quiet or args.json:
            return None
        bar, advance = progress_bar(err.console, total, "simulating")
        if bar is not None:
            bar.start()
            bars.append(bar)
        return advance

    from rulelang.play.simulate import SimulationInterrupted
    for path in files:
        if args.simulate:
            _need_ray(args)
        found = [] if args.verbose else None
        try:
            diags, bad = check_one(path, overrides, args.players, args.simulate, _include(args),
                                   _workers(args), progress, args.ray, found)
        except SimulationInterrupted as stop:
            diags, bad, stopped = stop.diagnostics, False, (stop.played, stop.total)
        finally:
            while bars:
                bars.pop().stop()
        internal |= bad
        per_file.append((path, diags))
        if found is not None:
            fallbacks.append((path, _grouped(found)))
        if stopped is not None:
            break
    # A `--set NAME=...` that no checked file has an option for is a bad command line.
    unknown = [_unknown_set_option(diags) for _path, diags in per_file]
    if per_file and all(u is not None for u in unknown) and not internal:
        raise UsageError(unknown[0].message, unknown[0].hint)
    all_diags = [(path, d) for path, diags in per_file for d in diags]
    n_err = sum(d.is_error for _, d in all_diags)
    n_warn = len(all_diags) - n_err
    limit = args.max_errors
    if limit is None:
        limit = DEFAULT_MAX_JSON if args.json else DEFAULT_MAX_ERRORS
    cut = []                          # per file: (path, diagnostics printed, errors and
    for path, diags in per_file:      # warnings left out)
        keep = diags if not limit else diags[:limit]
        rest = diags[len(keep):]
        e = sum(d.is_error for d in rest)
        cut.append((path, keep, e, len(rest) - e))
    if args.json:
        items = []
        for path, keep, _e, _w in cut:
            for d in keep:
                j = d.to_json()
                j.setdefault("file", path)
                items.append(j)
        if args.verbose:
            out.write(safe_json({"diagnostics": items, "fallbacks": [
                {"file": path, "players": players, **f.to_json()}
                for path, found in fallbacks for f, players in found]}, indent=2) + "\n")
        else:
            out.write(safe_json(items, indent=2) + "\n")
        for path, _keep, e, w in cut:
            if e or w:
                err.text(f"{path}: {_more_text(e, w)} not in the JSON (--max-errors N to change "
                         "the limit, 0 for no limit)")
    else:
        from rulelang.cli.render import diagnostic_text, summary_text
        for path, keep, e, w in cut:
            for d in keep:
                out.text(diagnostic_text(d, path, color=out.color))
                out.blank()
            if e or w:
                out.text(f"{path}: {_more_text(e, w)} (--max-errors N shows more, 0 all)")
                out.blank()
        for path, found in fallbacks:
            out.text(_fallbacks_text(path, found))
        if not args.quiet or all_diags:
            out.text(summary_text(n_err, n_warn, len(args.files)))
    if stopped is not None:
        err.text(f"interrupted: {stopped[0]:,} of {stopped[1]:,} random games of {per_file[-1][0]} "
                 f"were played; the report above is what they found"
                 + (f" ({len(files) - len(per_file)} more file(s) not checked)"
                    if len(per_file) < len(files) else ""))
        return EXIT_INTERRUPTED
    if internal:
        return EXIT_INTERNAL
    return EXIT_ERRORS if n_err else EXIT_OK

# ---------------------------------------------------------------------------------------------
# rulelang test
# ---------------------------------------------------------------------------------------------


def cmd_test(args) -> int:
    """Run the rule tests of `.cardtest` files and report like pytest (rulelang/play/cardtest.py)."""
    import time

    from rich.text import Text

    from rulelang.play.cardtest_plan import check_test_file
    from rulelang.play.cardtest_run import run_test
    out = Out(sys.stdout)
    files = []
    for path in args.files:             # a folder means every test file in it
        if os.path.isdir(path):
            files.extend(sorted(os.path.join(path, f) for f in os.listdir(path)
                                if f.endswith(".cardtest")) or [path])
        else:
            files.append(path)
    t0 = time.perf_counter()
    counts = {"passed": 0, "failed": 0, "error": 0}
    failures = []

    def run_files():
        for path in files:
            missing = _missing_file(path)
            if missing is not None:
                _diag_out(out, missing, path)
                counts["error"] += 1
                continue
            tf = check_test_file(path, include=_include(args))
            out.text(Text(path, style="bold") + Text(
                f"  ({os.path.relpath(tf.rules_path)})" if tf.rules_path else "",
                style="dim"))
            for d in tf.diagnostics:
                _diag_out(out, d, path)
            # a mistake of the file itself (a header line, the rule file), not of one test:
            # an error of the run, though its tests may pass
            if (tf.diagnostics and not tf.tests) or (
                    any(d.is_error for d in tf.diagnostics)
                    and all(test.plan is not None for test in tf.tests)):
                counts["error"] += 1
            for test in tf.tests:
                if args.k and args.k.lower() not in test.name.lower():
                    continue
                if test.plan is None:
                    counts["error"] += 1
                    out.text(Text("  ERROR ", style="bold red") + Text(test.name)
                             + Text(f"  ({path}:{test.line.no}: see above)", style="dim"))
                    continue
                failure = run_test(test)
                if failure is None:
                    counts["passed"] += 1
                    out.text(Text("  PASS  ", style="bold green") + Text(test.name))
                else:
                    counts["failed"] += 1
                    failures.append((path, test, failure))
                    out.text(Text("  FAIL  ", style="bold red") + Text(test.name)
                             + Text(f"  ({path}:{failure.line.no})", style="dim"))
    interrupted = False
    try:
        run_files()
    except KeyboardInterrupt:          # Ctrl-C: the report of the tests run so far
        interrupted = True
        out.text(Text("  interrupted", style="bold yellow"))
    if failures:
        out.blank()
        out.text(Text(" FAILURES ".center(70, "="), style="bold red"))
        for path, test, f in failures:
            out.text(Text(f" {test.name} ".center(70, "_"), style="bold"))
            out.text(Text(f"{path}:{f.line.no}: ", style="bold") + Text("expected: " + f.message))
            for found in f.found:
                out.text(Text("  found:    ", style="red") + Text(found))
            if f.transcript:
                shown = f.transcript[-args.context:]
                out.text(Text("  transcript" + (f" (the last {len(shown)} entries)"
                                                 if len(shown) < len(f.transcript) else "") + ":",
                              style="dim"))
                for line_no, text in shown:
                    if line_no:
                        out.text(Text(f"    {text:<44}") + Text(f"   line {line_no}", style="dim"))
                    else:
                        out.text(Text(f"    {text}"))
            out.text(Text(f"  {f.line.no:>4} | ", style="dim") + Text(f.line.text, style="bold"))
    total = time.perf_counter() - t0
    parts = [f"{v} {k}" for k, v in (("failed", counts["failed"]), ("passed", counts["passed"]),
                                     ("error", counts["error"])) if v]
    bad = counts["failed"] or counts["error"]
    out.text(Text(f" {', '.join(parts) or 'no tests ran'} in {total:.2f}s ".center(70, "="),
                  style="bold red" if bad else "bold green"))
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_ERRORS if bad or not counts["passed"] else EXIT_OK
