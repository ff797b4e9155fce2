"""``rulelang rulebook``: a rule file as a rulebook (Markdown or HTML), written by
:mod:`rulelang.cli.rulebook`; this module reads the file and prints (or writes ``--out``)."""
from __future__ import annotations

import argparse
import os
import sys

from rulelang.cli.common import (EXIT_ERRORS, EXIT_OK, Out, UsageError, _compile, _include,
                                 _load_game, _overrides, _players_usage, _positive, _set_value,
                                 _folder)

RULEBOOK_DESCRIPTION = """\
Write a rule file as a rulebook a person can read and play from: the object of the game, the
players, the cards (the decks, their suits, ranks and extra cards, the cards' attributes) and
the zones they lie in with who sees them, what is kept track of, the options, the setup, a turn
with every choice and what it does, the rules it uses, how the game ends and is scored, the
terms the rules use, and the cards the rules name.  Everything is said in the rule file's own
words (its display names, labels and `say` texts); a variant (a file that `extends` another)
begins with how it differs from its base.  The rulebook is worked out from the checked rules,
so a file with errors has none (they are printed as `check` prints them, exit 1).

Markdown is printed on the terminal; --format html writes one self-contained page (no
script, nothing fetched).  The options in force (--set) and the number of players (--players:
the deck may depend on it) are those the rulebook describes."""

RULEBOOK_EPILOG = """\
examples:
  rulelang rulebook examples/crazy_eights.cardrules                 Markdown on the terminal
  rulelang rulebook examples/crazy_eights.cardrules --out rules.md  the same, into a file
  rulelang rulebook examples/golf.cardrules --format html --out golf.html   one page
  rulelang rulebook examples/sevens_strict.cardrules                a variant: its differences first
  rulelang rulebook examples/sevens.cardrules --set hand_size=5 --players 4"""


def add_command(sub) -> None:
    """Register ``rulebook`` on the subparsers of :mod:`rulelang.cli.commands`."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser("rulebook", help="the rule file as a rulebook to read and play from",
                       description=RULEBOOK_DESCRIPTION, epilog=RULEBOOK_EPILOG,
                       formatter_class=fmt)
    p.add_argument("file", metavar="FILE", help="the .cardrules file")
    p.add_argument("--format", "-f", choices=("markdown", "html"), default="markdown",
                   help="markdown (default) or html")
    p.add_argument("--out", "-o", metavar="PATH",
                   help="write the rulebook to PATH instead of printing it")
    p.add_argument("--players", "-n", type=_positive, metavar="N",
                   help="number of players the deck is counted for (default: the fewest)")
    p.add_argument("--set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="change one of the game's options (repeatable), e.g. --set decks=2")
    p.add_argument("--include", "-I", action="append", type=_folder, metavar="DIR",
                   help="a folder that `extends` may also read base files from (repeatable)")
    p.set_defaults(func=cmd_rulebook)


def rulebook_of(game, players=None):
    """The :class:`~rulelang.cli.rulebook.Rulebook` of a loaded game (``loader.Game``): compiled
    for ``players`` (default: the fewest) to count its cards; for a variant, with its base's
    name and its own declarations."""
    from rulelang.cli.rulebook import build
    from rulelang.compile.loader import read_layers
    from rulelang.syntax import ast as A
    from rulelang.syntax.diagnostics import RuleFileError
    n = players if players is not None else game.players[0]
    try:
        cg = game.compiled(n)
    except RuleFileError:
        cg = None
    base = None
    layers = read_layers(game.file, [], include=game.include)
    if len(layers) > 1:
        names = [d.name for d in layers[-2].decls if isinstance(d, A.GameName)]
        base_name = names[0] if names else os.path.basename(layers[-2].file)
        base = (base_name, layers[-1].decls, os.path.basename(layers[-2].file))
    return build(game.model, game.decls, cg, base)


def cmd_rulebook(args) -> int:
    from rulelang.cli.rulebook import to_html, to_markdown
    out, err = Out(sys.stdout), Out(sys.stderr)
    game = _load_game(args.file, _overrides(args), err, include=_include(args))
    if game is None:
        return EXIT_ERRORS
    _players_usage(game, args.players)
    if _compile(game, args.players, args.file, err) is None:
        return EXIT_ERRORS
    book = rulebook_of(game, args.players)
    text = to_html(book) if args.format == "html" else to_markdown(book)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise UsageError(f"cannot write {args.out}: {e.strerror or e}") from None
        return EXIT_OK
    out.write(text)
    return EXIT_OK
