"""The ``rulelang`` command: run, play, check and explain rule files.

This module builds the command line (:func:`build_parser`) and runs it (:func:`main`, the console
script); each command is a module of :mod:`rulelang.cli` (run, play, check, explain, workbench),
and what they share is in :mod:`rulelang.cli.common`.  The commands import the pipeline, ``rich``
and ``lark`` inside their functions, so ``rulelang --help`` stays fast.

Exit status: 0 success; 1 the rule file has errors or the game failed; 2 bad command line;
3 internal error (a bug in rulelang, reported as a diagnostic, never a traceback);
130 interrupted.
"""
from __future__ import annotations

import argparse
import os
import sys

from rulelang.cli.check import DEFAULT_MAX_ERRORS, DEFAULT_MAX_JSON, cmd_check, cmd_test
from rulelang.cli.common import (EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError,
                                 _count, _folder, _games, _max_steps, _positive, _seed,
                                 _set_value)
from rulelang.cli.explain import cmd_explain
from rulelang.cli.play import cmd_play
from rulelang.cli.run import cmd_replay, cmd_run


# ---------------------------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------------------------


MAIN_DESCRIPTION = """\
rulelang plays card games described as data.  A game is a `.cardrules` file: its deck,
zones, setup, turn and ending, written in a small language that reads like a rule book.
`rulelang check` finds every mistake in a rule file, with the line, a caret and a hint;
`rulelang run` plays a game between computer agents and shows it move by move; `rulelang play`
lets you take a seat against them; `rulelang explain` tells what an error code means."""

MAIN_EPILOG = """\
examples:
  rulelang run examples/crazy_eights.cardrules               watch one game, move by move
  rulelang run examples/crazy_eights.cardrules --games 1000  win rates and games/s
  rulelang play examples/crazy_eights.cardrules              play seat 1 against the computer
  rulelang check rules/*.cardrules                           find every mistake in the files
  rulelang stats examples/crazy_eights.cardrules             balance and rule coverage
  rulelang rulebook examples/crazy_eights.cardrules          the rules in words, to play from
  rulelang serve examples/crazy_eights.cardrules             play in web browsers, with friends
  rulelang explain RL101                                     what an error code means

Run `rulelang COMMAND --help` for each command's options.
Exit status: 0 ok, 1 errors in a rule file or a failed game, 2 bad command line (also a
number of players or an option the game does not have), 3 internal error (please report it),
130 interrupted.  Rule files are untrusted input: see docs/security.md."""

RUN_DESCRIPTION = """\
Play one whole game between computer agents and show it move by move: every choice,
what the rules say and reveal, the table now and then (as a spectator who sees every hand),
and the result (on a terminal through a pager: $RULELANG_PAGER, $PAGER or less; --no-pager
prints it).  The same --seed always gives the same game.  With --json, print one JSON
object instead.  With --games K, play K games (seeds S to S+K-1) and print a summary: wins
per seat, mean decisions, games per second.  Exit 0 when the game finished, 1 when the rule file
has errors or a rule failed while playing (reported like `check` reports errors)."""

RUN_EPILOG = """\
examples:
  rulelang run examples/crazy_eights.cardrules
  rulelang run examples/crazy_eights.cardrules --players 3 --seed 42
  rulelang run examples/crazy_eights.cardrules --agents first,random --json
  rulelang run examples/crazy_eights.cardrules --agents mc,random --games 20
  rulelang run examples/sevens.cardrules --set hand_size=5 --quiet
  rulelang run examples/crazy_eights.cardrules --games 2000 --json
  rulelang run examples/crazy_eights.cardrules --log game.json    then: rulelang replay game.json

agents: random (uniform among the legal choices, seeded from --seed and the seat),
        first (always the first legal choice),
        mc (flat Monte Carlo: plays each choice out in random games of worlds sampled from
            what its seat sees, never the hidden cards; stronger and slower; mc:N plays
            N playouts per decision, default 100),
        ismcts (information-set MCTS: one search tree over worlds sampled from what its seat
            sees; ismcts:N runs N iterations per decision, default 200; see docs/ai.md)."""

PLAY_DESCRIPTION = """\
Play a game yourself at the terminal, in seat K, against computer agents.  You see your own
cards and whatever the rules let you see of the table; the legal choices are numbered, and you
type a number (`?` shows the table again, `q` quits).  Other players' moves are shown as they
happen, but never a card you are not allowed to see.  Ctrl-C ends the game cleanly.  The seed
(it deals every hidden card) is shown only when the game is over, with the commands that replay
it; without --seed it is a random 64-bit number from the operating system.  With --save PATH
the game is saved when you quit (`save` at a prompt saves and goes on), and --resume PATH goes
on with it later."""

PLAY_EPILOG = """\
examples:
  rulelang play examples/crazy_eights.cardrules
  rulelang play examples/crazy_eights.cardrules --players 3 --seat 2 --seed 5
  rulelang play examples/crazy_eights.cardrules --agents first     # predictable opponents
  yes 1 | rulelang play examples/sevens.cardrules                  # always the first choice
  rulelang play examples/crazy_eights.cardrules --save game.json   # q saves the game
  rulelang play --resume game.json                                 # and goes on with it"""

CHECK_DESCRIPTION = """\
Check rule files and print every problem found, each with its place (file:line:column), a
code, the source line with a caret under the mistake, and a hint on how to fix it.  Errors
stop a game from running; warnings (unused zones, options, rules) do not.  With --simulate N,
also play N random games for every allowed number of players and report what goes wrong at
run time.  At most 100 diagnostics are printed per file (--max-errors).  Exit 0 when there are
no errors (warnings allowed), 1 when there is an error, 2 when the command line is wrong."""

CHECK_EPILOG = """\
examples:
  rulelang check examples/crazy_eights.cardrules
  rulelang check rules/*.cardrules
  rulelang check rules/                           every .cardrules file in a folder
  rulelang check examples/crazy_eights.cardrules --players 4
  rulelang check --simulate 100 examples/crazy_eights.cardrules
  rulelang check --json broken.cardrules          for editors and CI
  rulelang check --verbose game.cardrules         also the optimisations left out, and why
  rulelang check variant.cardrules --include ../bases    a variant whose base is elsewhere
  rulelang explain RL101                          more about one code

`extends` reads only .cardrules files inside the checked file's folder and the --include
folders (docs/security.md).  Colours only on a terminal; set NO_COLOR=1 for plain text."""

EXPLAIN_DESCRIPTION = """\
Explain an error code printed by `rulelang check`: what it means, a wrong example and a
right one.  The code may be written RL101, rl101 or 101.  Exit 2 when it is not a code."""

EXPLAIN_EPILOG = """\
examples:
  rulelang explain RL101
  rulelang explain 145"""


TEST_DESCRIPTION = """\
Run rule tests: scenario tests written in `.cardtest` files (docs/testing.md, "Rule tests").
Each test sets up a position in the rule file's words, plays choices as the game words them
and checks what must hold afterwards.  Prints PASS or FAIL for each test; for a failure, the
file:line of the expectation that failed, what was found, and the transcript of the test up to
there.  Exit 0 when every test passed, 1 when one failed or a test file has a mistake."""

TEST_EPILOG = """\
examples:
  rulelang test rules/*.cardtest
  rulelang test rules/                          every .cardtest file in a folder
  rulelang test rules/ -k Queen                 the tests whose name says Queen"""


REPLAY_DESCRIPTION = """\
Replay a game written by `rulelang run --log LOG`: the same game again, move by move, from the
seed and the actions in the log.  By default it waits for a command after every move: Enter (or
n) for the next move, b to go back one, t N to go to turn N, s and e for the start and the end,
q to quit.  --to-end and --turn N print instead, for scripts.  A log is refused when its rule
file has changed since (the same moves would mean something else)."""

REPLAY_EPILOG = """\
examples:
  rulelang run examples/crazy_eights.cardrules --seed 3 --log game.json
  rulelang replay game.json                    step through it
  rulelang replay game.json --turn 5           the game up to the start of turn 5
  rulelang replay game.json --to-end           the whole game, as `run` showed it"""


def _add_game_options(p, players_help="number of players (default: the fewest the game allows)"):
    p.add_argument("--players", "-n", type=_positive, metavar="N", help=players_help)
    p.add_argument("--set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="change one of the game's options (repeatable), e.g. --set decks=2")
    p.add_argument("--include", "-I", action="append", type=_folder, metavar="DIR",
                   help="a folder that `extends` may also read base files from (repeatable); "
                        "by default only the rule file's own folder (see docs/security.md)")


def build_parser() -> argparse.ArgumentParser:
    from rulelang import __version__
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog="rulelang", description=MAIN_DESCRIPTION,
                                     epilog=MAIN_EPILOG, formatter_class=fmt)
    parser.add_argument("--version", action="version", version=f"rulelang {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("run", help="play a game between computer agents and show it",
                       description=RUN_DESCRIPTION, epilog=RUN_EPILOG, formatter_class=fmt)
    p.add_argument("file", metavar="FILE", help="the .cardrules file")
    _add_game_options(p)
    p.add_argument("--seed", "-s", type=_seed, default=1, metavar="S",
                   help="the game's seed, from 0 to 2**64-1; the same seed plays the same game "
                        "(default: 1)")
    p.add_argument("--agents", "-a", metavar="NAMES",
                   help="one agent for every seat, or a comma-separated list with one per seat "
                        "(default: random)")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    p.add_argument("--games", "-g", type=_games, metavar="K",
                   help="play K games (seeds S..S+K-1) and print a summary")
    p.add_argument("--workers", "-w", type=_positive, metavar="K",
                   help="with --games: processes to play on (default: the number of cores)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="with --games: play on the Ray cluster at ADDRESS instead (without one: "
                        "a local Ray instance; the same results); needs pip install "
                        "'rulelang[cluster]'")
    p.add_argument("--records", metavar="PATH",
                   help="with --games: also write each game's record to PATH, one JSON line "
                        "per game in seed order")
    p.add_argument("--max-steps", type=_max_steps, metavar="N",
                   help="stop a game that runs more than N rule steps (default: 200000)")
    p.add_argument("--table-every", type=_positive, default=3, metavar="R",
                   help="show the table every R rounds (default: 3)")
    p.add_argument("--log", metavar="PATH",
                   help="also write the game to PATH (JSON) for `rulelang replay PATH`")
    p.add_argument("--no-pager", action="store_true",
                   help="on a terminal, print the game instead of showing it through a pager "
                        "($RULELANG_PAGER, else $PAGER, else less; an empty variable also "
                        "turns it off)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("play", help="play a seat yourself against computer agents",
                       description=PLAY_DESCRIPTION, epilog=PLAY_EPILOG, formatter_class=fmt)
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="the .cardrules file (not needed with --resume)")
    _add_game_options(p)
    p.add_argument("--seat", "-k", type=_positive, default=1, metavar="K",
                   help="your seat, from 1 (default: 1)")
    p.add_argument("--seed", "-s", type=_seed, metavar="S",
                   help="the game's seed, from 0 to 2**64-1 (default: a random one from the "
                        "operating system, shown when the game is over)")
    p.add_argument("--agents", "-a", metavar="NAMES",
                   help="the other players: one name for all, or one per other seat "
                        "(default: random)")
    p.add_argument("--max-steps", type=_max_steps, metavar="N", help=argparse.SUPPRESS)
    p.add_argument("--save", metavar="PATH",
                   help="save the game to PATH when you quit (`q`) or type `save`")
    p.add_argument("--resume", metavar="PATH", help="go on with a game saved with --save")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("check", help="find every mistake in rule files",
                       description=CHECK_DESCRIPTION, epilog=CHECK_EPILOG, formatter_class=fmt)
    p.add_argument("files", nargs="+", metavar="FILE", help=".cardrules files to check")
    _add_game_options(p, "check for this number of players only (default: every allowed number)")
    p.add_argument("--json", action="store_true",
                   help="print the diagnostics as a JSON list (for editors and CI)")
    p.add_argument("--simulate", type=_games, metavar="N",
                   help="also play N random games per player count and report run-time problems")
    p.add_argument("--workers", "-w", type=_positive, metavar="K",
                   help="with --simulate: processes to play on (default: the number of cores)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="with --simulate: play on the Ray cluster at ADDRESS instead (without "
                        "one: a local Ray instance); needs pip install 'rulelang[cluster]'")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print nothing when there is nothing to report")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also say which rules an optimisation of the compiler could not apply "
                        "to, and why (with --json: an object with the keys diagnostics and "
                        "fallbacks)")
    p.add_argument("--max-errors", type=_count, metavar="N",
                   help=f"print at most N diagnostics per file, then how many more there are "
                        f"(default: {DEFAULT_MAX_ERRORS}, or {DEFAULT_MAX_JSON} with --json; "
                        "0: no limit)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("test", help="run the rule tests of .cardtest files",
                       description=TEST_DESCRIPTION, epilog=TEST_EPILOG, formatter_class=fmt)
    p.add_argument("files", nargs="+", metavar="FILE", help=".cardtest files (or folders of them)")
    p.add_argument("-k", metavar="TEXT", help="run only the tests whose name contains TEXT")
    p.add_argument("--context", type=_positive, default=12, metavar="N",
                   help="show the last N entries of a failed test's transcript (default: 12)")
    p.add_argument("--include", "-I", action="append", type=_folder, metavar="DIR",
                   help="a folder that a test's `rules` line (and `extends`) may also read "
                        "from (repeatable); by default only the test file's own folder")
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("replay", help="step through a game log written by `run --log`",
                       description=REPLAY_DESCRIPTION, epilog=REPLAY_EPILOG, formatter_class=fmt)
    p.add_argument("log", metavar="LOG", help="the log (JSON) written by `rulelang run --log LOG`")
    p.add_argument("--rules", metavar="FILE",
                   help="the rule file, when it is no longer at the path the log names")
    p.add_argument("--include", "-I", action="append", type=_folder, metavar="DIR",
                   help="a folder that the log's rule file (and `extends`) may also be read "
                        "from (repeatable); by default the log's own folder and the current one")
    p.add_argument("--to-end", action="store_true",
                   help="print the whole game as `rulelang run` shows it, then stop")
    p.add_argument("--turn", type=_positive, metavar="N",
                   help="print the game up to the start of turn N, then stop")
    p.add_argument("--table-every", type=_positive, default=3, metavar="R",
                   help="with --to-end or --turn: show the table every R rounds (default: 3)")
    p.set_defaults(func=cmd_replay)

    from rulelang.cli import common
    from rulelang.cli.workbench import add_commands
    add_commands(sub, common)          # stats, compare
    from rulelang.cli.rulebook_cmd import add_command as add_rulebook
    add_rulebook(sub)
    from rulelang.cli.lsp_cmd import add_command as add_lsp
    add_lsp(sub)
    # `serve` lives with the web server it starts (rulelang/web/); registering it needs only
    # the standard library, so the command line works without the web extra.
    from rulelang.web.command import add_command as add_serve
    add_serve(sub)

    p = sub.add_parser("explain", help="explain an error code, e.g. RL101",
                       description=EXPLAIN_DESCRIPTION, epilog=EXPLAIN_EPILOG, formatter_class=fmt)
    p.add_argument("code", metavar="CODE", help="an error code such as RL101")
    p.set_defaults(func=cmd_explain)
    return parser


def main(argv=None) -> int:
    """The ``rulelang`` console script.  Returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (EXIT_OK if e.code is None else EXIT_USAGE)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args)
    except UsageError as e:
        from rulelang.termsafe import safe
        sys.stderr.write(f"rulelang {args.command}: error: {safe(e.message)}\n")
        if e.hint:
            sys.stderr.write(f"  = hint: {safe(e.hint)}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_OK
    except Exception as e:  # a bug in rulelang: a diagnostic, never a traceback
        try:
            from rulelang.cli.render import diagnostic_plain, internal_error
            sys.stderr.write(diagnostic_plain(internal_error(e, f"running `rulelang {args.command}`"))
                             + "\n")
        except Exception:
            sys.stderr.write(f"rulelang: internal error: {type(e).__name__}: {e}\n"
                             "  = hint: this is a bug in rulelang; please report it\n")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
