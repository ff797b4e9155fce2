"""What every ``rulelang`` command shares: the exit statuses, the output streams (:class:`Out`,
colour only on a terminal, every character made safe), the option types of the command line, a
usage error, loading and compiling the rule file named on the command line, and playing a game out
between agents.

Nothing here imports the pipeline, ``rich`` or ``lark`` at import time (only inside the
functions), so ``rulelang --help`` stays fast.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional

from rulelang.limits import (MAX_GAMES, MAX_NUMBER, MAX_SEED, MAX_SKILL_GAMES, MAX_STEPS_OPTION,
                             seed_refused)
from rulelang.termsafe import safe

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------


def _wants_color(stream) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _PagerInput:
    """The text stream into a pager's standard input.  It says it is a terminal (the pager
    shows the colours on one), and once the pager has quit (`q` before the end) it takes what
    is still written and drops it, so that the command goes on to its end (a --log is still
    written whole) without a BrokenPipeError."""

    def __init__(self, proc):
        import io
        self.proc = proc
        self.raw = io.TextIOWrapper(proc.stdin, encoding="utf-8", errors="replace")
        self.closed_by_pager = False

    def isatty(self) -> bool:
        return True

    def write(self, text) -> int:
        if not self.closed_by_pager:
            try:
                self.raw.write(text)
            except (BrokenPipeError, OSError, ValueError):
                self.closed_by_pager = True
        return len(text)

    def flush(self) -> None:
        if not self.closed_by_pager:
            try:
                self.raw.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.closed_by_pager = True

    def close(self) -> None:
        try:
            self.raw.close()
        except (BrokenPipeError, OSError, ValueError):
            pass
        self.proc.wait()


def pager_command() -> Optional[str]:
    """The pager a long output goes through on a terminal: $RULELANG_PAGER, else $PAGER, else
    `less` with -F (quit at once when it fits the screen), -R (colours), -X (the output stays on
    the screen after it); None when the output is no terminal or the variable is empty."""
    if not sys.stdout.isatty():
        return None
    for var in ("RULELANG_PAGER", "PAGER"):
        if var in os.environ:
            return os.environ[var].strip() or None
    import shutil
    return "less" if shutil.which("less") else None


def open_pager(command: str):
    """A stream into ``command`` (run by the shell, as git runs its pager), or None when it
    cannot be started.  Close it to wait for the pager to end."""
    import subprocess
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    try:
        proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:
        return None
    return _PagerInput(proc)


class Out:
    """One output stream, with colour only on a terminal (and never with NO_COLOR).

    Everything printed goes through :func:`rulelang.termsafe.safe` (a control character or a
    bidi override from a rule file is shown escaped, never sent to the terminal) and ``rich``
    markup is never interpreted (``markup=False``): see docs/security.md."""

    def __init__(self, stream=None):
        from rich.console import Console
        self.stream = stream if stream is not None else sys.stdout
        self.color = _wants_color(self.stream)
        self.console = Console(file=self.stream, color_system="auto" if self.color else None,
                               force_terminal=self.color or None, highlight=False, emoji=False,
                               soft_wrap=False, markup=False)

    def text(self, text) -> None:
        """A line (or lines) of text, never wrapped: diagnostics must stay greppable."""
        from rulelang.termsafe import is_safe, safe
        plain = text.plain if hasattr(text, "plain") else str(text)
        if self.color:
            if not hasattr(text, "plain") or not is_safe(plain):
                text = self._safe_text(text)
            self.console.print(text, soft_wrap=True)
        else:
            self.stream.write(safe(plain, keep_newlines=True) + "\n")
            self.stream.flush()

    def _safe_text(self, text):
        """A rich Text (or a str) with its styles kept and its characters made safe."""
        from rich.text import Text

        from rulelang.termsafe import safe
        if not hasattr(text, "plain"):
            return Text(safe(str(text), keep_newlines=True))
        return Text.assemble(*[(safe(seg.text, keep_newlines=True), seg.style)
                               for seg in text.render(self.console, end="") if not seg.control])

    def show(self, renderable) -> None:
        """A rich renderable (table, panel...), laid out for the terminal's width; its text is
        made safe after layout (the cells were made safe when built, see rulelang.cli.table and
        rulelang.cli.narration)."""
        from rich.segment import Segment, Segments

        from rulelang.termsafe import is_safe, safe
        segs = list(self.console.render(renderable))
        if not all(seg.control or is_safe(seg.text) for seg in segs):
            segs = [seg if seg.control else Segment(safe(seg.text, keep_newlines=True), seg.style)
                    for seg in segs]
        self.console.print(Segments(segs), end="")

    def write(self, text: str) -> None:
        """Raw text (a prompt, a JSON line), made safe like the rest."""
        from rulelang.termsafe import safe
        self.stream.write(safe(text, keep_newlines=True))

    def blank(self) -> None:
        self.stream.write("\n")


def _diag_out(out: "Out", d, default_file=None) -> None:
    from rulelang.cli.render import diagnostic_text
    out.text(diagnostic_text(d, default_file, color=out.color))


# ---------------------------------------------------------------------------------------------
# Shared option handling
# ---------------------------------------------------------------------------------------------


def _set_value(text: str):
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, e.g. decks=2, not {text!r}")
    return name.strip(), value.strip()


def decimal(text: str) -> Optional[int]:
    """The value of ``text`` if it is plain decimal digits (ASCII 0-9, at most 20 of them), else
    None: Python's int() also reads `1_0`, `+5`, ` 5 ` and the digits of other scripts."""
    if not isinstance(text, str) or not 0 < len(text) <= 20 or \
            not text.isascii() or not text.isdigit():
        return None
    return int(text)


def _whole(text: str, lo: int, hi: int, what: str = "a number") -> int:
    v = decimal(text)
    if v is None:
        shown = safe(text if len(text) <= 40 else text[:37] + "...")
        raise argparse.ArgumentTypeError(f"expected a whole number written with the digits 0-9, "
                                         f"not '{shown}'")
    if not lo <= v <= hi:
        raise argparse.ArgumentTypeError(f"{what} is a whole number from {lo:,} to {hi:,}, not "
                                         f"{v:,}" if v <= 10 ** 20 else
                                         f"{what} is a whole number from {lo:,} to {hi:,}")
    return v


def _positive(text: str) -> int:
    return _whole(text, 1, MAX_NUMBER, "this")


def _count(text: str) -> int:
    return _whole(text, 0, MAX_NUMBER, "this")


def _games(text: str) -> int:
    """``--games K`` / ``--simulate K``: 1 to limits.MAX_GAMES."""
    return _whole(text, 1, MAX_GAMES, "the number of games")


def _skill_games(text: str) -> int:
    """``stats --skill-games K``: 1 to limits.MAX_SKILL_GAMES."""
    return _whole(text, 1, MAX_SKILL_GAMES, "the number of games of the skill report")


def _max_steps(text: str) -> int:
    """``--max-steps N``: 1 to limits.MAX_STEPS_OPTION."""
    return _whole(text, 1, MAX_STEPS_OPTION, "the step budget")


SEED_LIMIT = MAX_SEED + 1    # a seed is a 64-bit number: the game's generator keeps 64 bits


def _seed(text: str) -> int:
    minus = text.startswith("-")            # (refused below, as a rule test's `seed -5` is)
    v = decimal(text[1:] if minus else text)
    if v is None:
        raise argparse.ArgumentTypeError(f"expected a whole number written with the digits 0-9, "
                                         f"not '{safe(text[:40])}'")
    why = seed_refused(-v if minus else v)
    if why is not None:
        raise argparse.ArgumentTypeError(why)
    return v


def _overrides(args) -> dict:
    return dict(args.set or [])


def _folder(text: str) -> str:
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def _include(args) -> tuple:
    return tuple(getattr(args, "include", None) or ())


def _unknown_set_option(diags):
    """The diagnostic of a `--set NAME=...` naming no option of the game (a usage error), or
    None.  The checker reports it without a place in the file (RL140)."""
    for d in diags:
        if d.code == "RL140" and d.span is None:
            return d
    return None


def _players_usage(game, players) -> None:
    """`--players N` outside the game's range is a usage error (exit 2), said in words."""
    lo, hi = game.players
    if players is not None and not lo <= players <= hi:
        count = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise UsageError(f"`{game.name}` is for {count} players, not {players}",
                         f"choose --players from {lo} to {hi}" if lo != hi
                         else f"leave out --players, or give --players {lo}")


class UsageError(Exception):
    def __init__(self, message, hint=None):
        super().__init__(message)
        self.message, self.hint = message, hint


def _output_path(path, what: str) -> None:
    """A path rulelang will write to (`run --log`, `play --save`, `--report`), checked before the
    work starts: a link, a fifo, a device, a folder or a missing folder is a usage error (exit 2;
    rulelang/compile/loader.py)."""
    if path is None:
        return
    from rulelang.compile.loader import OutputError, check_output
    try:
        check_output(path, what)
    except OutputError as e:
        raise UsageError(e.message, e.hint) from None


def _records_file(path):
    """The file ``--records PATH`` writes to (a context manager; nothing without a path)."""
    import contextlib
    if path is None:
        return contextlib.nullcontext(None)
    return open(path, "w", encoding="utf-8")


def _missing_file(path: str):
    """A diagnostic when the file named on the command line is not there (or is not a regular
    file: a fifo or a device is never opened)."""
    if os.path.isfile(path):
        return None
    from rulelang.syntax.diagnostics import ERROR, Diagnostic
    what = ("is a folder, not a rule file" if os.path.isdir(path)
            else "is not a regular file" if os.path.exists(path) else "does not exist")
    return Diagnostic("RL125", ERROR, f"`{path}` {what}", None,
                      "give the path of a .cardrules file, relative to the current folder "
                      f"({os.getcwd()}) or absolute")


def _load_game(path: str, overrides: dict, err: Out, failed=None, include=()):
    """The checked game, or None after printing its diagnostics (also added to ``failed``).
    A `--set` naming no option of the game is a usage error."""
    from rulelang.syntax.diagnostics import RuleFileError
    from rulelang.compile.loader import load
    missing = _missing_file(path)
    diags = [missing] if missing is not None else []
    if not diags:
        try:
            return load(path, overrides, include=include)
        except RuleFileError as e:
            diags = e.diagnostics
        unknown = _unknown_set_option(diags)
        if unknown is not None:
            raise UsageError(unknown.message, unknown.hint)
    for d in diags:
        _diag_out(err, d, path)
    if failed is not None:
        failed.extend(diags)
    return None


def _compile(game, players, path, err: Out, failed=None):
    from rulelang.syntax.diagnostics import RuleFileError
    n = players if players is not None else game.players[0]
    try:
        return game.compiled(n)
    except RuleFileError as e:
        for d in e.diagnostics:
            _diag_out(err, d, path)
        if failed is not None:
            failed.extend(e.diagnostics)
        return None


def _json_failure(out: Out, args, diags) -> int:
    """``run --json`` on a file that cannot be played: still one JSON object."""
    from rulelang.termsafe import safe_json
    items = []
    for d in diags:
        j = d.to_json()
        j.setdefault("file", args.file)
        items.append(j)
    res = {"game": None, "players": args.players, "seed": args.seed, "outcome": "invalid",
           "winners": [], "decisions": 0, "turns": 0,
           "problem": items[0] if items else None, "diagnostics": items}
    out.write(safe_json(res) + "\n")
    return EXIT_ERRORS


def _agent_names(spec, seats, default="random"):
    from rulelang.play.agents import AgentError, agent_names
    try:
        return agent_names(spec, seats, default)
    except AgentError as e:
        raise UsageError(e.message, e.hint) from None


class Interrupts:
    """Ctrl-C held back while a move is applied (`play --save`: an interrupted game is saved, so
    it must be saved between moves, never half-way through one).  Inside :meth:`held`, a first
    Ctrl-C is remembered and raised as KeyboardInterrupt once the move is done; a second one is
    raised at once (a move that takes too long can still be stopped), and then ``torn`` says
    that the game was left in the middle of a move."""

    def __init__(self):
        self.torn = False

    def held(self):
        import contextlib
        import signal
        import threading
        if threading.current_thread() is not threading.main_thread():
            return contextlib.nullcontext()
        pending = []

        def handler(_signum, _frame):
            if pending:
                self.torn = True
                raise KeyboardInterrupt
            pending.append(True)

        @contextlib.contextmanager
        def hold():
            old = signal.signal(signal.SIGINT, handler)
            try:
                yield
            finally:
                signal.signal(signal.SIGINT, old)
            if pending:
                raise KeyboardInterrupt
        return hold()


def _play_out(st, agents, after=None, interrupts=None):
    """Play ``st`` to the end: each pending seat's agent decides from its own view.  ``after`` is
    called after every action with the zones as they were before it.  ``interrupts``: an
    :class:`Interrupts` that holds Ctrl-C back while each action is applied and observed."""
    import contextlib
    from rulelang.play.agents import View, each_decision
    watching = [ag for ag in agents if hasattr(ag, "observe")]   # agents that remember
    held = interrupts.held if interrupts is not None else contextlib.nullcontext

    def step(p):
        a = agents[p].act(View(st, p))
        before = [z[:] for z in st.zones] if after is not None else None
        with held():
            st.apply_action(a, p)
            for ag in watching:
                ag.observe(View(st, ag.seat))
        if after is not None:
            after(before)

    each_decision(st, step)
    return st

# ---------------------------------------------------------------------------------------------
# Running on many cores or a cluster (`run --games`, `check --simulate`, `stats`)
# ---------------------------------------------------------------------------------------------


def _workers(args) -> int:
    from rulelang.play.parallel import default_workers
    return getattr(args, "workers", None) or default_workers()


def _need_ray(args) -> None:
    """With ``--ray``: connect to the cluster now, so that a missing Ray or an unreachable
    cluster is a clear message before any game is played."""
    if getattr(args, "ray", None) is None:
        return
    from rulelang.play.cluster import ClusterError, connect
    try:
        connect(args.ray)
    except ClusterError as e:
        hint = ("pip install 'rulelang[cluster]'" if "not installed" in str(e)
                else "start it with `ray start --head` and give the address it prints")
        raise UsageError(str(e), hint) from None


# ---------------------------------------------------------------------------------------------
# Reading the terminal (`play`, `replay`)
# ---------------------------------------------------------------------------------------------


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _input():
    """One line from standard input, or None at its end."""
    try:
        line = sys.stdin.readline()
    except (OSError, ValueError):
        return None
    if not line:
        return None
    return line.rstrip("\r\n")
