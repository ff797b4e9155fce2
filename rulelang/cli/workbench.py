"""The designer's commands: ``rulelang stats`` (a balance report over many games, with rule
coverage) and ``rulelang compare`` (two games or two option sets side by side).

:func:`add_commands` registers them on the command line's parser; the work is done by
:mod:`rulelang.play.stats` (playing and statistics), :mod:`rulelang.play.parallel` (every core) and
:mod:`rulelang.cli.report` (terminal and HTML).
"""
from __future__ import annotations

import argparse
import json
import sys

from rulelang.cli.common import (_agent_names, _compile, _games, _load_game, _max_steps,
                                 _need_ray, _output_path, _overrides, _positive, _records_file,
                                 _seed, _set_value, _skill_games)
from rulelang.limits import SKILL_AGENT, SKILL_GAMES

STATS_DESCRIPTION = """\
Play K games between computer agents (seeds S to S+K-1, on every core) and report on the
game's balance: wins per seat with a 95% confidence interval (Wilson) and whether a seat has
an advantage (an exact binomial test with two seats, a chi-square test with more), draws,
shared wins and games without a winner as such, games stopped by the step budget; the length
of the games (decisions and turns: mean, median, p10, p90, max, and a histogram); the shape of
the decisions (mean number of legal choices, share of forced moves); and rule coverage: how
often every rule, every alternative of every `choose`, every if/else branch and every ending
ran, with file:line, those that never ran first; and the game-quality measures (who leads by
the game's declared `progress:` or else its score, lead changes, drama, decisiveness,
uncertainty, stability, the trend of each seat's standing over a game, the first seat's
advantage: docs/workbench.md), with a verdict in words first.  With --skill, also how much a stronger
agent gains over the weaker one (mc over random by default), seated in every seat in turn: does
skill matter in this game?  The results are the same for any --workers.  Ctrl-C stops early and
reports on the games played so far."""

STATS_EPILOG = """\
examples:
  rulelang stats examples/crazy_eights.cardrules --games 2000
  rulelang stats examples/crazy_eights.cardrules --players 4 --workers 2
  rulelang stats examples/sevens.cardrules --set hand_size=5
  rulelang stats examples/crazy_eights.cardrules --agents mc:20,random --games 50
  rulelang stats examples/crazy_eights.cardrules --json > report.json
  rulelang stats examples/crazy_eights.cardrules --report report.html   # a page with plots
  rulelang stats examples/crazy_eights.cardrules --skill --skill-games 40   # skill vs luck

In --json: `wins` counts games a seat won alone; a shared win (a tie for the best score) is
counted in `shared_wins`, not as a win of each; `no_winner` = `draws` (the rules ended the game
without a winner) + `errors` (failed games, of which `budget_stops` ran out of steps).
`measures` has the game-quality measures; `measures.lead` is null in a game with neither a
score nor a `progress:`.  `skill` (with --skill) has the stronger agent's gain over the weaker."""

COMPARE_DESCRIPTION = """\
Play the same seeds with two rule files, or with one file and two sets of options, and show
the two balance reports side by side with the differences that are significant at the 5% level:
the mean length (Welch's t-test, with a 95% interval of the difference) and each seat's win
rate, the share of draws, shared wins and step-budget stops (two-proportion z-tests), each
p-value said in words, and the places of the rules that ran on one side only, with their text.
--report draws A and B overlaid in each plot."""

COMPARE_EPILOG = """\
examples:
  rulelang compare examples/sevens.cardrules examples/sevens_strict.cardrules
  rulelang compare examples/sevens.cardrules --a-set hand_size=5 --b-set hand_size=9
  rulelang compare examples/sevens.cardrules --players 3 --b-set hand_size=9 --games 2000

--set applies to both sides, --a-set to A only, --b-set to B only (each repeatable)."""


def _common(p, cli, default_games):
    p.add_argument("--players", "-n", type=_positive, metavar="N",
                   help="number of players (default: the fewest the game allows)")
    p.add_argument("--games", "-g", type=_games, default=default_games, metavar="K",
                   help=f"how many games (default: {default_games})")
    p.add_argument("--seed", "-s", type=_seed, default=1, metavar="S",
                   help="the first game's seed; game i plays seed S+i (default: 1)")
    p.add_argument("--agents", "-a", metavar="NAMES",
                   help="one agent for every seat, or one per seat (default: random)")
    p.add_argument("--workers", "-w", type=_positive, metavar="K",
                   help="processes to play on (default: the number of cores)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="play on the Ray cluster at ADDRESS instead (without one: a local Ray "
                        "instance; the same results); needs pip install 'rulelang[cluster]'")
    p.add_argument("--max-steps", type=_max_steps, metavar="N",
                   help="stop a game that runs more than N rule steps (default: 200000)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--report", metavar="PATH",
                   help="also write an HTML page with plots (needs matplotlib: "
                        "pip install 'rulelang[report]')")


def add_commands(sub, cli) -> None:
    """Register ``stats`` and ``compare`` on the subparsers ``sub`` of :mod:`rulelang.cli.commands`;
    ``cli`` is :mod:`rulelang.cli.common` (what the commands share)."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser("stats", help="a balance report over many games, with rule coverage",
                       description=STATS_DESCRIPTION, epilog=STATS_EPILOG, formatter_class=fmt)
    p.add_argument("file", metavar="FILE", help="the .cardrules file")
    p.add_argument("--set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="change one of the game's options (repeatable), e.g. --set decks=2")
    _common(p, cli, 1000)
    p.add_argument("--no-coverage", action="store_true",
                   help="skip rule coverage (the games then run about 1.7 times faster)")
    p.add_argument("--skill", nargs="?", const=SKILL_AGENT, metavar="AGENT",
                   help=f"also report skill versus luck: AGENT (default {SKILL_AGENT}) against the "
                        "agent of --agents (default random), in every seat in turn")
    p.add_argument("--skill-games", type=_skill_games, default=SKILL_GAMES, metavar="K",
                   help=f"games with the stronger agent in each seat (default {SKILL_GAMES})")
    p.add_argument("--records", metavar="PATH",
                   help="also write each game's record to PATH, one JSON line per game in "
                        "seed order")
    p.set_defaults(func=lambda args: cmd_stats(args, cli))

    p = sub.add_parser("compare", help="two games or two option sets side by side",
                       description=COMPARE_DESCRIPTION, epilog=COMPARE_EPILOG,
                       formatter_class=fmt)
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="two .cardrules files, or one with --a-set/--b-set")
    p.add_argument("--set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="an option for both sides (repeatable)")
    p.add_argument("--a-set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="an option for side A only (repeatable)")
    p.add_argument("--b-set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="an option for side B only (repeatable)")
    _common(p, cli, 1000)
    p.add_argument("--no-coverage", action="store_true",
                   help="skip rule coverage (the places of the rules that ran on one side only)")
    p.set_defaults(func=lambda args: cmd_compare(args, cli))


def _needs_matplotlib(args, cli):
    _output_path(args.report, "the report")
    if args.report:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise cli.UsageError("--report needs matplotlib, which is not installed",
                                 "pip install 'rulelang[report]' (or leave out --report)") \
                from None


def _write_report(cli, path, write) -> None:
    """``--report PATH`` written (rulelang/compile/loader.py); a path it may not write is a usage error."""
    from rulelang.compile.loader import OutputError
    try:
        write()
    except OutputError as e:
        raise cli.UsageError(e.message, e.hint) from None
    except OSError as e:
        raise cli.UsageError(f"cannot write the report to `{path}`: {e.strerror or e}") from None


def _side(cli, path, overrides, args, err):
    """The loaded game, its number of players and agents for one side; None on errors."""
    game = _load_game(path, overrides, err)
    if game is None:
        return None
    n = args.players if args.players is not None else game.players[0]
    if _compile(game, n, path, err) is None:
        return None
    names = _agent_names(args.agents, n)
    if "human" in names:
        raise cli.UsageError("`stats` and `compare` play computer agents only")
    return game, n, names


def _play(cli, path, game, n, names, args, err, coverage, what="playing", measures=False,
          records=None):
    from rulelang.play.parallel import default_workers, progress_bar
    from rulelang.play.stats import play_games, summarize
    from rulelang.check.teams import declared_teams
    workers = args.workers or default_workers()
    _need_ray(args)
    bar, advance = progress_bar(err.console, args.games, what) if args.games >= 50 else (None, None)
    if bar is not None:
        bar.start()
    try:
        played = play_games(path, game.overrides, n, args.games, args.seed, names,
                            args.max_steps, coverage=coverage, workers=workers, advance=advance,
                            ray=args.ray, measures=measures, records_to=records)
    finally:
        if bar is not None:
            bar.stop()
    return summarize(played, game.name, n, args.seed, names, game.options(), workers,
                     teams=declared_teams(game.model, n))


def cmd_stats(args, cli) -> int:
    from rulelang.cli.report import stats_renderable, write_html
    out, err = cli.Out(sys.stdout), cli.Out(sys.stderr)
    _needs_matplotlib(args, cli)
    side = _side(cli, args.file, _overrides(args), args, err)
    if side is None:
        return cli.EXIT_ERRORS
    game, n, names = side
    _output_path(args.records, "the records")
    with _records_file(args.records) as records:
        report = _play(cli, args.file, game, n, names, args, err, not args.no_coverage,
                       measures=True, records=records)
    if args.skill and not report.get("interrupted"):
        report["skill"] = _skill(cli, args, game, n, names, err, report)
        if report["skill"].get("interrupted"):
            report["interrupted"] = True
    if args.json:
        out.stream.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        out.show(stats_renderable(report))
    if args.report:
        _write_report(cli, args.report, lambda: write_html(report, args.report))
        err.text(f"report written to {args.report}")
    return cli.EXIT_INTERRUPTED if report.get("interrupted") else cli.EXIT_OK


def _skill(cli, args, game, n, names, err, report) -> dict:
    """``--skill``: the stronger agent in each seat in turn against the weaker (the first of
    --agents), with one progress bar over all of it."""
    from rulelang.play.parallel import default_workers, progress_bar
    from rulelang.play.skill import play_skill, skill_report
    strong = _agent_names(args.skill, 1)[0]
    weak = names[0]
    if "human" in (strong, weak):
        raise cli.UsageError("`stats --skill` plays computer agents only")
    if strong == weak:
        raise cli.UsageError(f"--skill {strong} is the agent it would be measured against",
                             "name a stronger agent, e.g. --skill mc:20, or another --agents")
    total = args.skill_games * n
    bar, advance = progress_bar(err.console, total, f"skill: {strong} against {weak}")
    if bar is not None:
        bar.start()
    try:
        per_seat, stopped = play_skill(args.file, game.overrides, n, args.skill_games, args.seed,
                                       strong, weak, args.max_steps,
                                       args.workers or default_workers(), advance, ray=args.ray)
    finally:
        if bar is not None:
            bar.stop()
    first = (report.get("measures") or {}).get("first_seat") if len(set(names)) == 1 else None
    return skill_report(per_seat, n, strong, weak, args.skill_games, first, stopped)


def _label(path, opts):
    return path + (" with " + ", ".join(f"{k}={v}" for k, v in opts.items()) if opts else "")


def cmd_compare(args, cli) -> int:
    from rulelang.cli.report import compare_renderable, write_compare_html
    from rulelang.play.stats import compare_reports
    out, err = cli.Out(sys.stdout), cli.Out(sys.stderr)
    _needs_matplotlib(args, cli)
    if len(args.files) > 2:
        raise cli.UsageError(f"compare takes one or two files, not {len(args.files)}",
                             "give two files, or one file with --a-set/--b-set")
    both = dict(args.set or [])
    oa = dict(both, **dict(args.a_set or []))
    ob = dict(both, **dict(args.b_set or []))
    pa = args.files[0]
    pb = args.files[1] if len(args.files) == 2 else pa
    if pa == pb and oa == ob:
        raise cli.UsageError("both sides are the same game with the same options",
                             "give two files, or change an option of one side with "
                             "--a-set NAME=VALUE or --b-set NAME=VALUE")
    sides = []
    for path, opts in ((pa, oa), (pb, ob)):
        s = _side(cli, path, opts, args, err)
        if s is None:
            return cli.EXIT_ERRORS
        sides.append((path, opts, s))
    reports = []
    for key, (path, opts, (game, n, names)) in zip("AB", sides):
        reports.append(_play(cli, path, game, n, names, args, err, not args.no_coverage,
                             f"playing {key}", measures=True))
        if reports[-1].get("interrupted"):
            break
    if len(reports) < 2:            # Ctrl-C while A was played: what there is of A
        from rulelang.cli.report import stats_renderable
        if args.json:
            out.stream.write(json.dumps({"a": reports[0]}, ensure_ascii=False) + "\n")
        else:
            out.show(stats_renderable(reports[0]))
        return cli.EXIT_INTERRUPTED
    c = compare_reports(*reports)
    la, lb = _label(pa, oa), _label(pb, ob)
    c["labels"] = [la, lb]
    if args.json:
        out.stream.write(json.dumps(c, ensure_ascii=False) + "\n")
    else:
        out.show(compare_renderable(c, la, lb))
    if args.report:
        _write_report(cli, args.report, lambda: write_compare_html(c, args.report, la, lb))
        err.text(f"report written to {args.report}")
    interrupted = any(r.get("interrupted") for r in reports)
    return cli.EXIT_INTERRUPTED if interrupted else cli.EXIT_OK
