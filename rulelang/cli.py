"""The ``rulelang`` command: run, play, check and explain rule files.

This is the only module that prints.  It imports the pipeline, ``rich`` and ``lark`` inside the
commands, so ``rulelang --help`` stays fast.

Exit status: 0 success; 1 the rule file has errors or the game failed; 2 bad command line;
3 internal error (a bug in rulelang, reported as a diagnostic, never a traceback);
130 interrupted.
"""
from __future__ import annotations

import argparse
import os
import sys

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


class Out:
    """One output stream, with colour only on a terminal (and never with NO_COLOR)."""

    def __init__(self, stream=None):
        from rich.console import Console
        self.stream = stream if stream is not None else sys.stdout
        self.color = _wants_color(self.stream)
        self.console = Console(file=self.stream, color_system="auto" if self.color else None,
                               force_terminal=self.color or None, highlight=False, emoji=False,
                               soft_wrap=False)

    def text(self, text) -> None:
        """A line (or lines) of text, never wrapped: diagnostics must stay greppable."""
        if self.color:
            self.console.print(text, soft_wrap=True)
        else:
            plain = text.plain if hasattr(text, "plain") else str(text)
            self.stream.write(plain + "\n")
            self.stream.flush()

    def show(self, renderable) -> None:
        """A rich renderable (table, panel...), laid out for the terminal's width."""
        self.console.print(renderable)

    def blank(self) -> None:
        self.stream.write("\n")


def _diag_out(out: "Out", d, default_file=None) -> None:
    from .render import diagnostic_text
    out.text(diagnostic_text(d, default_file, color=out.color))


# ---------------------------------------------------------------------------------------------
# Shared option handling
# ---------------------------------------------------------------------------------------------


def _set_value(text: str):
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, e.g. decks=2, not {text!r}")
    return name.strip(), value.strip()


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, not {v}")
    return v


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def _overrides(args) -> dict:
    return dict(args.set or [])


class UsageError(Exception):
    def __init__(self, message, hint=None):
        super().__init__(message)
        self.message, self.hint = message, hint


def _missing_file(path: str):
    """A diagnostic when the file named on the command line is not there."""
    if os.path.isfile(path):
        return None
    from .diagnostics import ERROR, Diagnostic
    what = "is a folder, not a rule file" if os.path.isdir(path) else "does not exist"
    return Diagnostic("RL125", ERROR, f"`{path}` {what}", None,
                      "give the path of a .cardrules file, relative to the current folder "
                      f"({os.getcwd()}) or absolute")


def _load_game(path: str, overrides: dict, err: Out, failed=None):
    """The checked game, or None after printing its diagnostics (also added to ``failed``)."""
    from .diagnostics import RuleFileError
    from .loader import load
    missing = _missing_file(path)
    diags = [missing] if missing is not None else []
    if not diags:
        try:
            return load(path, overrides)
        except RuleFileError as e:
            diags = e.diagnostics
    for d in diags:
        _diag_out(err, d, path)
    if failed is not None:
        failed.extend(diags)
    return None


def _compile(game, players, path, err: Out, failed=None):
    from .diagnostics import RuleFileError
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
    import json
    items = []
    for d in diags:
        j = d.to_json()
        j.setdefault("file", args.file)
        items.append(j)
    res = {"game": None, "players": args.players, "seed": args.seed, "outcome": "invalid",
           "winners": [], "decisions": 0, "turns": 0,
           "problem": items[0] if items else None, "diagnostics": items}
    out.stream.write(json.dumps(res, ensure_ascii=False) + "\n")
    return EXIT_ERRORS


def _agent_names(spec, seats, default="random"):
    from .agents import AgentError, agent_names
    try:
        return agent_names(spec, seats, default)
    except AgentError as e:
        raise UsageError(e.message, e.hint) from None


def _play_out(st, agents, after=None):
    """Play ``st`` to the end: each pending seat's agent decides from its own view.  ``after`` is
    called after every action with the zones as they were before it."""
    from .agents import View
    watching = [ag for ag in agents if hasattr(ag, "observe")]   # agents that remember

    def step(p):
        a = agents[p].act(View(st, p))
        before = [z[:] for z in st.zones] if after is not None else None
        st.apply_action(a, p)
        for ag in watching:
            ag.observe(View(st, ag.seat))
        if after is not None:
            after(before)

    while not st.terminal:
        if st.sim is None:
            step(st.pending[0])
        else:
            for p in list(st.current_players()):
                step(p)
                if st.terminal or st.sim is None:
                    break
    return st


# ---------------------------------------------------------------------------------------------
# rulelang run
# ---------------------------------------------------------------------------------------------


def cmd_run(args) -> int:
    import json
    out, err = Out(sys.stdout), Out(sys.stderr)
    overrides = _overrides(args)
    failed: list = []
    game = _load_game(args.file, overrides, err, failed)
    if game is None:
        return _json_failure(out, args, failed) if args.json else EXIT_ERRORS
    n = args.players if args.players is not None else game.players[0]
    cg = _compile(game, n, args.file, err, failed)
    if cg is None:
        return _json_failure(out, args, failed) if args.json else EXIT_ERRORS
    names = _agent_names(args.agents, n)
    if "human" in names:
        raise UsageError("`run` plays computer agents only",
                         "use `rulelang play FILE --seat K` to play a seat yourself")
    if args.games is not None:
        return _run_many(args, game, cg, n, names, out, err)

    from .agents import make_agent
    from .render import (move_text, problem_diagnostic, result_text, reveal_text, say_text,
                         scores_of, spectator_table, with_turn)
    seed = args.seed
    show = not (args.json or args.quiet)
    st = cg.new_game(seed=seed, log=show, max_steps=args.max_steps)
    agents = [make_agent(nm, p, seed) for p, nm in enumerate(names)]

    if show:
        from rich.text import Text
        head = Text(game.name, style="bold")
        head.append(f" — {n} players, seed {seed}, agents {', '.join(names)}", style="dim")
        opts = game.options()
        if opts:
            head.append("\noptions: " + ", ".join(f"{k}={v}" for k, v in opts.items()), style="dim")
        out.text(head)
        state = {"seen": 0, "table_turn": 0, "turn": 0, "shown_turn": None}

        def flush(_before=None):
            log = st.log
            for entry in log[state["seen"]:]:
                kind = entry[0]
                turn = None
                if kind == "choice":     # logged when made, so it belongs to the turn before
                    line = move_text(entry[1], cg.action_to_string(entry[2]))
                    turn = state["turn"] + 1
                    if turn == state["shown_turn"]:
                        turn = None
                    else:
                        state["shown_turn"] = turn
                elif kind == "say":
                    line = say_text(entry[1], entry[2])
                elif kind == "reveal":
                    line = reveal_text(entry[1], entry[2])
                else:
                    continue
                out.text(with_turn(turn, line))
            state["seen"] = len(log)
            state["turn"] = st.turns
            if not st.terminal and st.turns - state["table_turn"] >= max(n, 1) * args.table_every:
                state["table_turn"] = st.turns
                out.show(spectator_table(st, f"after turn {st.turns}"))

        flush()
        # Turns that needed no decision may already have been played (and printed above).
        out.show(spectator_table(st, "the table at the first decision" if st.turns or st.terminal
                                 else "the table after setup"))
        _play_out(st, agents, flush)
        flush()
        out.show(spectator_table(st, "the table at the end"))
        out.text(result_text(st))
    else:
        _play_out(st, agents)

    if args.json:
        res = {"game": game.name, "players": n, "seed": seed, "outcome": st.outcome,
               "winners": [w + 1 for w in st.winners], "decisions": st.decisions,
               "turns": st.turns, "agents": names}
        if game.options():
            res["options"] = game.options()
        scores = scores_of(st)
        if scores is not None:
            res["scores"] = scores
        if st.ranking and st.outcome != "error":
            res["ranking"] = [p + 1 for p in st.ranking]
        if st.problem:
            res["problem"] = st.problem
        out.stream.write(json.dumps(res, ensure_ascii=False) + "\n")
    elif args.quiet:
        out.text(result_text(st))
    if st.outcome == "error":
        _diag_out(err, problem_diagnostic(st.problem or {}, args.file), args.file)
        return EXIT_ERRORS
    return EXIT_OK


def _run_many(args, game, cg, n, names, out, err) -> int:
    import json
    import time

    from .agents import make_agent
    from .render import problem_diagnostic, summary_table
    k = args.games
    wins = [0] * n
    no_winner = errors = decisions = turns = 0
    first_problem = None
    progress = None
    if k >= 200 and not args.quiet and _wants_color(sys.stderr):
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeRemainingColumn)
        progress = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=err.console, transient=True)
        task = progress.add_task("games", total=k)
        progress.start()
    t0 = time.perf_counter()
    try:
        for i in range(k):
            seed = args.seed + i
            st = cg.new_game(seed=seed, max_steps=args.max_steps)
            _play_out(st, [make_agent(nm, p, seed) for p, nm in enumerate(names)])
            decisions += st.decisions
            turns += st.turns
            if st.outcome == "error":
                errors += 1
                if first_problem is None:
                    first_problem = (seed, st.problem or {})
            elif not st.winners:
                no_winner += 1
            for w in st.winners:
                wins[w] += 1
            if progress is not None and (i % 50 == 49 or i == k - 1):
                progress.update(task, completed=i + 1)
    finally:
        if progress is not None:
            progress.stop()
    elapsed = max(time.perf_counter() - t0, 1e-9)
    stats = {"game": game.name, "players": n, "seed": args.seed, "games": k, "agents": names,
             "wins": wins, "no_winner": no_winner, "errors": errors,
             "mean_decisions": decisions / k, "mean_turns": turns / k,
             "games_per_second": k / elapsed, "seconds": elapsed}
    if game.options():
        stats["options"] = game.options()
    if args.json:
        out.stream.write(json.dumps(stats, ensure_ascii=False) + "\n")
    else:
        out.show(summary_table(stats))
    if first_problem is not None:
        seed, problem = first_problem
        d = problem_diagnostic(problem, args.file)
        _diag_out(err, d, args.file)
        err.text(f"  = note: {errors} of {k} games failed; the first was seed {seed} "
                 f"(replay it with --seed {seed})")
        return EXIT_ERRORS
    return EXIT_OK


# ---------------------------------------------------------------------------------------------
# rulelang play
# ---------------------------------------------------------------------------------------------


def cmd_play(args) -> int:
    import random as _random

    from .agents import HumanAgent, QuitGame, make_agent
    from .render import (card_of_action, card_visible_to, choices_text, gained_text,
                         hidden_choice_words, move_text, observation_table, result_text, reveal_text, say_text)
    from rich.text import Text
    out, err = Out(sys.stdout), Out(sys.stderr)
    overrides = _overrides(args)
    game = _load_game(args.file, overrides, err)
    if game is None:
        return EXIT_ERRORS
    n = args.players if args.players is not None else game.players[0]
    cg = _compile(game, n, args.file, err)
    if cg is None:
        return EXIT_ERRORS
    if not 1 <= args.seat <= n:
        raise UsageError(f"there is no seat {args.seat} in a game of {n} players",
                         f"choose --seat from 1 to {n}")
    you = args.seat - 1
    others = _others(args.agents, n, you)
    seed = args.seed if args.seed is not None else _random.randrange(1, 1_000_000)
    st = cg.new_game(seed=seed, log=True, max_steps=args.max_steps)
    echo = not _isatty(sys.stdin)
    read = _input

    def ask(view):
        obs = view.observation
        words = [view.words(a) for a in view.legal]
        out.blank()
        title = "Your choice" + (" (the others choose at the same time, in secret)"
                                 if st.sim is not None else "")
        out.show(observation_table(obs, title))
        if len(words) == 1:
            t = Text("  your only choice: ", style="dim")
            t.append(words[0], style="bold")
            out.text(t)
            return view.legal[0]
        out.text(choices_text(words))
        while True:
            out.stream.write(f"Choose 1-{len(words)} (q to quit): ")
            out.stream.flush()
            line = read()
            if line is None:
                raise QuitGame("end of input")
            if echo:
                out.stream.write(line + "\n")
            s = line.strip().lower()
            if s in ("q", "quit", "exit"):
                raise QuitGame("quit")
            if s in ("?", "t", "table", "h", "help"):
                out.show(observation_table(obs, title))
                out.text(choices_text(words))
                continue
            if s.isdigit() and 1 <= int(s) <= len(words):
                return view.legal[int(s) - 1]
            exact = [a for a, w in zip(view.legal, words) if w.lower() == s]
            if exact:
                return exact[0]
            out.text(Text(f"  please type a number from 1 to {len(words)}"
                          + (f" (not {line.strip()!r})" if s else ""), style="yellow"))

    agents = [make_agent(nm, p, seed) for p, nm in enumerate(others)]
    agents[you] = HumanAgent(you, seed, ask=ask)
    head = Text(game.name, style="bold")
    head.append(f" — you are player {you + 1} of {n}, against {', '.join(others[:you] + others[you + 1:])}"
                f"; seed {seed}", style="dim")
    out.text(head)
    seen = [0]

    def flush(before=None):
        # a card the rules reveal in the same moves may be named in the choice that played it
        revealed = {(e[1], e[2]) for e in st.log[seen[0]:] if e[0] == "reveal"}
        for entry in st.log[seen[0]:]:
            kind = entry[0]
            if kind == "choice":
                seat, action = entry[1], entry[2]
                words = cg.action_to_string(action)
                if seat != you:
                    c = card_of_action(cg, action)
                    if c is not None and (seat, cg.card_names[c]) not in revealed and not (
                            card_visible_to(cg, st.zones, c, you) or (
                            before is not None and card_visible_to(cg, before, c, you))):
                        words = hidden_choice_words(cg, action)
                out.text(move_text(seat, words, you))
            elif kind == "say":
                out.text(say_text(entry[1], entry[2], you))
            elif kind == "reveal":
                out.text(reveal_text(entry[1], entry[2], you))
        seen[0] = len(st.log)
        if before is not None:
            for t in gained_text(cg, before, st.zones, you):
                out.text(t)

    flush()
    try:
        _play_out(st, agents, flush)
    except QuitGame:
        out.blank()
        out.text(Text("Game abandoned.", style="bold"))
        return EXIT_OK
    except KeyboardInterrupt:
        out.blank()
        out.text(Text("Game abandoned (interrupted).", style="bold"))
        return EXIT_INTERRUPTED
    flush()
    out.blank()
    out.show(observation_table(st.observation(you), "The table at the end"))
    out.text(result_text(st, you))
    if st.outcome == "error":
        from .render import problem_diagnostic
        _diag_out(err, problem_diagnostic(st.problem or {}, args.file), args.file)
        return EXIT_ERRORS
    return EXIT_OK


def _others(spec, n, you):
    """Agent names for every seat (the human's entry is a placeholder)."""
    if spec is None:
        return ["random"] * n
    names = [s.strip() for s in spec.split(",")]
    if len(names) == n - 1 and n > 1:
        names = names[:you] + ["human"] + names[you:]
    elif len(names) == n:
        names = names[:you] + ["human"] + names[you + 1:]
    elif len(names) != 1:
        raise UsageError(f"--agents names {len(names)} agents, but there are {n - 1} other players",
                         "give one name for all of them, or one per other seat")
    names = _agent_names(",".join(names), n)
    names[you] = "human"
    if names.count("human") > 1:
        raise UsageError("only one seat can be played at this terminal",
                         "give the other seats computer agents such as `random` or `first`")
    return names


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


# ---------------------------------------------------------------------------------------------
# rulelang check
# ---------------------------------------------------------------------------------------------


def _sort_key(d):
    sp = d.span
    if sp is None:
        return ("", 0, 0)
    return (sp.file, sp.line, sp.column)


def _counts_to_compile(model):
    """The numbers of players ``check`` compiles the game for: all of a small range; of a large
    one (up to MAX_PLAYERS counts) the first, the last and those whose deck the checker could
    not count (compiling is what finds the count-dependent problems, RL172: the checker has
    already tried the others)."""
    from .checker import _checker_deck_size
    lo, hi = model.players
    if hi - lo < 4:
        return range(lo, hi + 1)
    return sorted({lo, hi} | {n for n in range(lo + 1, hi) if _checker_deck_size(model, n) is None})


def check_one(path: str, overrides: dict, players=None, simulate=None):
    """Every diagnostic for one file: the checker's, the compiler's for each allowed number of
    players, and (with ``simulate``) those of random games.  Returns (diagnostics, internal)."""
    from .diagnostics import RuleFileError
    from .loader import Game, check_file
    from .render import internal_error
    internal = False
    missing = _missing_file(path)
    if missing is not None:
        return [missing], False
    try:
        diags, model, decls = check_file(path, overrides, players=players)
        diags = list(diags)
        if model is not None and not any(d.is_error for d in diags):
            game = Game(model, diags, decls, path, overrides)
            lo, hi = model.players
            counts = [players] if players is not None else _counts_to_compile(model)
            seen = {(d.code, d.message) for d in diags}
            for k in counts:
                try:
                    game.compiled(k)
                except RuleFileError as e:
                    for d in e.diagnostics:
                        if (d.code, d.message) not in seen:
                            seen.add((d.code, d.message))
                            diags.append(d)
            if simulate and not any(d.is_error for d in diags):
                try:
                    from .simulate import simulate as run_simulation
                except ImportError:
                    run_simulation = None
                if run_simulation is None:
                    sys.stderr.write("note: --simulate is not available in this version of "
                                     "rulelang; only the static checks ran\n")
                else:
                    diags.extend(run_simulation(path, simulate, overrides))
    except RecursionError as e:
        from .diagnostics import ERROR, Diagnostic
        diags = [Diagnostic("RL003", ERROR, "the file is nested too deeply to read", None,
                            "split deeply nested expressions or blocks into rules or defines")]
        del e
    except Exception as e:  # a bug: report it, never a traceback
        diags = [internal_error(e, f"checking {path}")]
        internal = True
    diags.sort(key=_sort_key)
    return diags, internal


def cmd_check(args) -> int:
    import json
    out = Out(sys.stdout)
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
    for path in files:
        diags, bad = check_one(path, overrides, args.players, args.simulate)
        internal |= bad
        all_diags.extend((path, d) for d in diags)
    n_err = sum(d.is_error for _, d in all_diags)
    n_warn = len(all_diags) - n_err
    if args.json:
        items = []
        for path, d in all_diags:
            j = d.to_json()
            j.setdefault("file", path)
            items.append(j)
        out.stream.write(json.dumps(items, ensure_ascii=False, indent=2) + "\n")
    else:
        from .render import diagnostic_text, summary_text
        for path, d in all_diags:
            out.text(diagnostic_text(d, path, color=out.color))
            out.blank()
        if not args.quiet or all_diags:
            out.text(summary_text(n_err, n_warn, len(args.files)))
    if internal:
        return EXIT_INTERNAL
    return EXIT_ERRORS if n_err else EXIT_OK


# ---------------------------------------------------------------------------------------------
# rulelang explain
# ---------------------------------------------------------------------------------------------


def _errors_doc():
    """The text of the error catalogue (shipped in the package; docs/errors.md in a checkout)."""
    from importlib import resources
    candidates = []
    try:
        candidates.append(resources.files("rulelang").joinpath("errors.md"))
    except Exception:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(os.path.dirname(here), "docs", "errors.md"))
    for c in candidates:
        try:
            if isinstance(c, str):
                with open(c, encoding="utf-8") as fh:
                    return fh.read()
            if c.is_file():
                return c.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return None


def error_entries(text: str) -> dict:
    """``{"RL104": "## RL104: ...\\n..."}``: one entry per ``## RLnnn`` heading."""
    import re
    entries = {}
    current = None
    lines: list = []
    for line in text.splitlines():
        m = re.match(r"^#{2,3}\s+`?(RL\d+)`?\b", line)
        if m or (line.startswith("## ") and current is not None):
            if current is not None:
                entries[current] = "\n".join(lines).rstrip() + "\n"
            current = m.group(1).upper() if m else None
            lines = [line] if m else []
        elif line.startswith("# ") and current is not None:
            entries[current] = "\n".join(lines).rstrip() + "\n"
            current, lines = None, []
        elif current is not None:
            lines.append(line)
    if current is not None:
        entries[current] = "\n".join(lines).rstrip() + "\n"
    return entries


def cmd_explain(args) -> int:
    from .diagnostics import did_you_mean
    out, err = Out(sys.stdout), Out(sys.stderr)
    code = args.code.strip().upper()
    if code.isdigit():
        code = "RL" + code
    text = _errors_doc()
    if text is None:
        err.text("error: the error catalogue (errors.md) is not installed with this rulelang")
        return EXIT_ERRORS
    entries = error_entries(text)
    entry = entries.get(code)
    if entry is None:
        hint = did_you_mean(code, entries)
        err.text(f"error: there is no error code `{args.code}`" + (f"; {hint}" if hint else ""))
        if entries:
            err.text("  = note: the codes are " + ", ".join(sorted(entries)))
        return EXIT_ERRORS
    if out.color:
        from rich.markdown import Markdown
        out.show(Markdown(entry))
    else:
        out.stream.write(entry)
    return EXIT_OK


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
  rulelang explain RL101                                     what an error code means

Run `rulelang COMMAND --help` for each command's options.
Exit status: 0 ok, 1 errors in a rule file or a failed game, 2 bad command line,
3 internal error (please report it), 130 interrupted."""

RUN_DESCRIPTION = """\
Play one whole game between computer agents and show it move by move: every choice,
what the rules say and reveal, the table now and then (as a spectator who sees every hand),
and the result.  The same --seed always gives the same game.  With --json, print one JSON
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

agents: random (uniform among the legal choices, seeded from --seed and the seat),
        first (always the first legal choice),
        mc (flat Monte Carlo: plays each choice out in random games of worlds sampled from
            what its seat sees, never the hidden cards; stronger and slower; mc:N plays
            N playouts per decision, default 100)."""

PLAY_DESCRIPTION = """\
Play a game yourself at the terminal, in seat K, against computer agents.  You see your own
cards and whatever the rules let you see of the table; the legal choices are numbered, and you
type a number (`?` shows the table again, `q` quits).  Other players' moves are shown as they
happen, but never a card you are not allowed to see.  Ctrl-C ends the game cleanly."""

PLAY_EPILOG = """\
examples:
  rulelang play examples/crazy_eights.cardrules
  rulelang play examples/crazy_eights.cardrules --players 3 --seat 2 --seed 5
  rulelang play examples/crazy_eights.cardrules --agents first     # predictable opponents
  yes 1 | rulelang play examples/sevens.cardrules                  # always the first choice"""

CHECK_DESCRIPTION = """\
Check rule files and print every problem found, each with its place (file:line:column), a
code, the source line with a caret under the mistake, and a hint on how to fix it.  Errors
stop a game from running; warnings (unused zones, options, rules) do not.  With --simulate N,
also play N random games for every allowed number of players and report what goes wrong at
run time.  Exit 0 when there are no errors (warnings allowed), 1 when there is an error."""

CHECK_EPILOG = """\
examples:
  rulelang check examples/crazy_eights.cardrules
  rulelang check rules/*.cardrules
  rulelang check rules/                           every .cardrules file in a folder
  rulelang check examples/crazy_eights.cardrules --players 4
  rulelang check --simulate 100 examples/crazy_eights.cardrules
  rulelang check --json broken.cardrules          for editors and CI
  rulelang explain RL101                          more about one code

Colours only on a terminal; set NO_COLOR=1 for plain text."""

EXPLAIN_DESCRIPTION = """\
Explain an error code printed by `rulelang check`: what it means, a wrong example and a
right one.  The code may be written RL101, rl101 or 101."""

EXPLAIN_EPILOG = """\
examples:
  rulelang explain RL101
  rulelang explain 145"""


def _add_game_options(p, players_help="number of players (default: the fewest the game allows)"):
    p.add_argument("--players", "-n", type=_positive, metavar="N", help=players_help)
    p.add_argument("--set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="change one of the game's options (repeatable), e.g. --set decks=2")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
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
                   help="the game's seed; the same seed plays the same game (default: 1)")
    p.add_argument("--agents", "-a", metavar="NAMES",
                   help="one agent for every seat, or a comma-separated list with one per seat "
                        "(default: random)")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    p.add_argument("--games", "-g", type=_positive, metavar="K",
                   help="play K games (seeds S..S+K-1) and print a summary")
    p.add_argument("--max-steps", type=_positive, metavar="N",
                   help="stop a game that runs more than N rule steps (default: 200000)")
    p.add_argument("--table-every", type=_positive, default=3, metavar="R",
                   help="show the table every R rounds (default: 3)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("play", help="play a seat yourself against computer agents",
                       description=PLAY_DESCRIPTION, epilog=PLAY_EPILOG, formatter_class=fmt)
    p.add_argument("file", metavar="FILE", help="the .cardrules file")
    _add_game_options(p)
    p.add_argument("--seat", "-k", type=_positive, default=1, metavar="K",
                   help="your seat, from 1 (default: 1)")
    p.add_argument("--seed", "-s", type=_seed, metavar="S",
                   help="the game's seed (default: a random one, shown at the start)")
    p.add_argument("--agents", "-a", metavar="NAMES",
                   help="the other players: one name for all, or one per other seat "
                        "(default: random)")
    p.add_argument("--max-steps", type=_positive, metavar="N", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("check", help="find every mistake in rule files",
                       description=CHECK_DESCRIPTION, epilog=CHECK_EPILOG, formatter_class=fmt)
    p.add_argument("files", nargs="+", metavar="FILE", help=".cardrules files to check")
    _add_game_options(p, "check for this number of players only (default: every allowed number)")
    p.add_argument("--json", action="store_true",
                   help="print the diagnostics as a JSON list (for editors and CI)")
    p.add_argument("--simulate", type=_positive, metavar="N",
                   help="also play N random games per player count and report run-time problems")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print nothing when there is nothing to report")
    p.set_defaults(func=cmd_check)

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
        sys.stderr.write(f"rulelang {args.command}: error: {e.message}\n")
        if e.hint:
            sys.stderr.write(f"  = hint: {e.hint}\n")
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
            from .render import diagnostic_plain, internal_error
            sys.stderr.write(diagnostic_plain(internal_error(e, f"running `rulelang {args.command}`"))
                             + "\n")
        except Exception:
            sys.stderr.write(f"rulelang: internal error: {type(e).__name__}: {e}\n"
                             "  = hint: this is a bug in rulelang; please report it\n")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
