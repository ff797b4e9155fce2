"""``rulelang lsp``: run the language server (:mod:`rulelang.lsp.server`) on stdin and stdout.

pygls is an optional extra; without it the command says how to install it (exit 2, a command
line that cannot run).  The server is handed the error catalogue, so that hovering a
diagnostic shows what ``rulelang explain CODE`` prints.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys

from rulelang.cli.common import EXIT_OK, EXIT_USAGE

LSP_DESCRIPTION = """\
Run the language server of rule files on stdin and stdout, for an editor to start: diagnostics
as you type (those of `rulelang check`, with their codes), hover (what a name is, what an error
code means), completion (the words of the language that may come next, the names in scope),
go to definition, find references, the outline of a file and rename across a file and its
variants.  It needs pygls: pip install 'rulelang[lsp]'.  docs/editors.md says how to use it
from VS Code, Neovim and Emacs."""


def add_command(sub) -> None:
    """Register ``lsp`` on the subparsers of :mod:`rulelang.cli.commands`."""
    p = sub.add_parser("lsp", help="the language server for editors (stdio)",
                       description=LSP_DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stdio", action="store_true",
                   help="talk over stdin and stdout (the only way; accepted for editors that pass it)")
    p.set_defaults(func=cmd_lsp)


def cmd_lsp(args) -> int:
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        sys.stderr.write("rulelang lsp: error: the language server needs pygls, which is not "
                         "installed\n  = hint: pip install 'rulelang[lsp]'\n")
        return EXIT_USAGE
    from rulelang.cli.explain import _errors_doc, error_entries
    from rulelang import __version__
    from rulelang.lsp.server import serve
    text = _errors_doc()
    serve(error_entries(text) if text else {}, _errors_uri(), __version__)
    return EXIT_OK


def _errors_uri():
    """A file: URI of the error catalogue shipped with rulelang (what a diagnostic's code links
    to), or None."""
    import os
    from importlib import resources
    from pathlib import Path
    try:
        path = str(resources.files("rulelang").joinpath("errors.md"))
    except Exception:
        return None
    return Path(path).as_uri() if os.path.isfile(path) else None
