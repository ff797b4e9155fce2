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
        made safe after layout (the cells were made safe when built, see rulelang.cli.render)."""
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


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, not {v}")
    return v


def _count(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, not {v}")
    return v


SEED_LIMIT = 1 << 64     # a seed is a 64-bit number: the game's generator keeps 64 bits


def _seed(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if not 0 <= v < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {SEED_LIMIT - 1}, "
                                         f"not {v}")
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


def _play_out(st, agents, after=None):
    """Play ``st`` to the end: each pending seat's agent decides from its own view.  ``after`` is
    called after every action with the zones as they were before it."""
    from rulelang.play.agents import View
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
    from rulelang.termsafe import safe_json
    out, err = Out(sys.stdout), Out(sys.stderr)
    overrides = _overrides(args)
    failed: list = []
    game = _load_game(args.file, overrides, err, failed, _include(args))
    if game is None:
        return _json_failure(out, args, failed) if args.json else EXIT_ERRORS
    _players_usage(game, args.players)
    n = args.players if args.players is not None else game.players[0]
    cg = _compile(game, n, args.file, err, failed)
    if cg is None:
        return _json_failure(out, args, failed) if args.json else EXIT_ERRORS
    names = _agent_names(args.agents, n)
    if "human" in names:
        raise UsageError("`run` plays computer agents only",
                         "use `rulelang play FILE --seat K` to play a seat yourself")
    if args.games is not None:
        if args.log:
            raise UsageError("--log records one game", "leave out --games, or --log")
        return _run_many(args, game, cg, n, names, out, err)

    from rulelang.play.agents import make_agent
    from rulelang.cli.render import problem_diagnostic, result_text, scores_of
    seed = args.seed
    show = not (args.json or args.quiet)
    st = cg.new_game(seed=seed, log=show or bool(args.log), max_steps=args.max_steps)
    agents = [make_agent(nm, p, seed) for p, nm in enumerate(names)]

    if show:
        from rich.text import Text

        from rulelang.cli.render import Narrator, rows_table, zone_rows
        from rulelang.termsafe import safe
        from rulelang.engine.words import Words
        words = Words(cg)
        head = Text(safe(game.name), style="bold")
        head.append(f" — {n} players, seed {seed}, agents {', '.join(names)}", style="dim")
        opts = game.options()
        if opts:
            head.append("\noptions: " + safe(words.options(opts)), style="dim")
        out.text(head)
        story = Narrator(words, st)
        state = {"table_turn": 0}
        after_setup = story.seen > 0
        if after_setup:         # the zones as setup left them (the log kept them)
            out.show(rows_table(zone_rows(words, story.zones, None, st), "the table after setup"))

        def flush(_before=None):
            for line in story.lines():
                out.text(line)
            if not st.terminal and st.turns - state["table_turn"] >= max(n, 1) * args.table_every:
                state["table_turn"] = st.turns
                out.show(rows_table(zone_rows(words, st.zones, None, st), f"the table in turn {story.turn}"))

        flush()
        if not after_setup:     # setup stopped for a decision: what it did is told above
            out.show(rows_table(zone_rows(words, st.zones, None, st), "the table at the first decision"))
        _play_out(st, agents, flush)
        flush()
        out.show(rows_table(zone_rows(words, st.zones, None, st), "the table at the end"))
        out.text(result_text(st, turns=story.turns_told()))
    else:
        _play_out(st, agents)
    if args.log:
        _write_log(args.log, args.file, overrides, n, seed, names, st, err)

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
            res["results"] = st.results()           # each seat's own win, loss or draw
        if st.problem:
            res["problem"] = st.problem
        out.write(safe_json(res) + "\n")
    elif args.quiet:
        out.text(result_text(st))
    if st.outcome == "error":
        _diag_out(err, problem_diagnostic(st.problem or {}, args.file), args.file)
        return EXIT_ERRORS
    return EXIT_OK


def _run_many(args, game, cg, n, names, out, err) -> int:
    from rulelang.termsafe import safe_json

    from rulelang.play.parallel import progress_bar
    from rulelang.cli.render import problem_diagnostic, summary_table
    from rulelang.play.stats import play_games, summarize
    k = args.games
    workers = _workers(args)
    _need_ray(args)
    bar, advance = progress_bar(err.console, k) if k >= 200 and not args.quiet else (None, None)
    if bar is not None:
        bar.start()
    try:
        played = play_games(args.file, game.overrides, n, k, args.seed, names, args.max_steps,
                            coverage=False, workers=workers, advance=advance,
                            include=_include(args), ray=args.ray)
    finally:
        if bar is not None:
            bar.stop()
    r = summarize(played, game.name, n, args.seed, names, None, workers)
    k = r["games"]
    stats = {"game": game.name, "players": n, "seed": args.seed, "games": k, "agents": names,
             "wins": [s["wins"] for s in r["seats"]],
             "shared_wins": [s["shared_wins"] for s in r["seats"]],
             "shared": r["shared_wins"], "draws": r["draws"], "no_winner": r["no_winner"],
             "errors": r["errors"], "budget_stops": r["budget_stops"],
             "mean_decisions": r["length"]["decisions"]["mean"],
             "mean_turns": r["length"]["turns"]["mean"],
             "games_per_second": r["games_per_second"], "seconds": r["seconds"],
             "workers": workers}
    if played.interrupted:
        stats["interrupted"] = True
    if game.options():
        stats["options"] = game.options()
    if args.json:
        out.write(safe_json(stats) + "\n")
    else:
        out.show(summary_table(stats))
    failed = [rec for rec in played.records if rec[1] == "error"]
    if failed:
        seed = (args.seed + failed[0][0]) % SEED_LIMIT
        d = problem_diagnostic(_problem_of(cg, names, seed, args.max_steps), args.file)
        _diag_out(err, d, args.file)
        err.text(f"  = note: {len(failed)} of {k} games failed; the first was seed {seed} "
                 f"(replay it with --seed {seed})")
        return EXIT_ERRORS
    return EXIT_INTERRUPTED if played.interrupted else EXIT_OK


def _problem_of(cg, names, seed, max_steps) -> dict:
    """The problem of the failed game ``seed`` (played again)."""
    from rulelang.play.agents import make_agent
    st = cg.new_game(seed=seed, max_steps=max_steps)
    _play_out(st, [make_agent(nm, p, seed) for p, nm in enumerate(names)])
    return st.problem or {}


# ---------------------------------------------------------------------------------------------
# rulelang play
# ---------------------------------------------------------------------------------------------


def _replay_commands(args, n, seed) -> list:
    """The commands that replay a game of `play` (shown only once it is over): the same deal
    and the same opponents with `play`, the same deal between computer agents with `run`."""
    import shlex
    common = [shlex.quote(args.file), "--seed", str(seed), "--players", str(n)]
    for name, value in args.set or []:
        common += ["--set", shlex.quote(f"{name}={value}")]
    play = ["rulelang", "play", *common, "--seat", str(args.seat)]
    if args.agents is not None:
        play += ["--agents", shlex.quote(args.agents)]
    return [" ".join(play), " ".join(["rulelang", "run", *common])]


def _replay_text(args, n, seed):
    from rich.text import Text
    play, run = _replay_commands(args, n, seed)
    t = Text("To play this deal again: ", style="dim")
    t.append(play)
    t.append("\nTo watch it between computer agents: ", style="dim")
    t.append(run)
    return t


def cmd_play(args) -> int:
    import secrets

    from rulelang.play.agents import HumanAgent, QuitGame, make_agent
    from rulelang.cli.render import (Narrator, changed_rows, choices_text, result_text,
                         rows_table, seat_style, seat_text, zone_rows)
    from rulelang.engine.words import Words
    from rulelang.termsafe import safe
    from rich.text import Text
    out, err = Out(sys.stdout), Out(sys.stderr)
    saved = _resume_args(args, err) if args.resume else None
    if saved is False:
        return EXIT_ERRORS
    if args.file is None:
        raise UsageError("which game? name a rule file, or --resume a saved game")
    overrides = _overrides(args)
    game = _load_game(args.file, overrides, err, include=_include(args))
    if game is None:
        return EXIT_ERRORS
    _players_usage(game, args.players)
    n = args.players if args.players is not None else game.players[0]
    cg = _compile(game, n, args.file, err)
    if cg is None:
        return EXIT_ERRORS
    if not 1 <= args.seat <= n:
        raise UsageError(f"there is no seat {args.seat} in a game of {n} players",
                         f"choose --seat from 1 to {n}")
    you = args.seat - 1
    others = _others(args.agents, n, you)
    # The seed deals every hidden card: it is drawn from the operating system (64 bits, too many
    # to search for the one that dealt your hand) and shown only when the game is over.
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    st = cg.new_game(seed=seed, log=True, max_steps=args.max_steps)
    if saved is not None:
        from rulelang.play.saves import GameFileError, resume_state
        try:
            st = resume_state(cg, saved, args.resume)
        except GameFileError as e:          # a damaged save: a diagnostic, not exit 3
            _diag_out(err, e.diagnostic, args.resume)
            return EXIT_ERRORS
    echo = not _isatty(sys.stdin)
    read = _input
    words = Words(cg)
    story = Narrator(words, st, you, resumed=saved is not None)
    last_rows: dict = {}

    def table(title, whole):
        rows = zone_rows(words, st.zones, you, st)
        if whole:
            changed_rows(rows, last_rows)
            out.show(rows_table(rows, title))
            return
        rows = changed_rows(rows, last_rows)
        if rows:
            out.show(rows_table(rows, title + ": what changed (? for the whole table)"))

    def ask(view):
        labels = []
        for a in view.legal:
            lab = words.label(a)
            if lab not in labels:
                labels.append(lab)
        choices = [words.action(a, you) for a in view.legal]
        out.blank()
        table("The table", not last_rows)
        head = Text()
        if st.cur != you:
            head.append_text(seat_text(st.cur, you))
            head.append("'s turn, ")
        head.append("your decision" if st.cur != you else "Your decision", style="bold")
        if st.sim is not None:
            head.append(" (the others choose at the same time, in secret)")
        head.append(": " + safe(" or ".join(labels)))
        out.text(head)
        if len(choices) == 1:
            out.text(Text("  (your only choice, made for you)", style="dim"))
            return view.legal[0]
        out.text(choices_text(choices))
        while True:
            out.stream.write(f"Choose 1-{len(choices)} (? the whole table, q to quit): ")
            out.stream.flush()
            line = read()
            if line is None:
                raise QuitGame("end of input")
            if echo:
                out.write(line + "\n")
            s = line.strip().lower()
            if s in ("q", "quit", "exit"):
                raise QuitGame("quit")
            if s == "save" or s.startswith("save "):
                save(line.strip()[4:].strip() or args.save)
                continue
            if s in ("?", "t", "table", "h", "help"):
                table("The table", True)
                out.text(head)
                out.text(choices_text(choices))
                continue
            if s.isdigit() and 1 <= int(s) <= len(choices):
                return view.legal[int(s) - 1]
            exact = [a for a, w in zip(view.legal, choices) if w.lower() == s]
            if exact:
                return exact[0]
            out.text(Text(f"  please type a number from 1 to {len(choices)}, ? or q"
                          + (f" (not {line.strip()!r})" if s else ""), style="yellow"))

    agents = [make_agent(nm, p, seed) for p, nm in enumerate(others)]
    agents[you] = HumanAgent(you, seed, ask=ask)
    if saved is not None:
        from rulelang.play.saves import GameFileError, restore_agent
        try:
            for agent, state in zip(agents, saved["agent_states"]):
                if state is not None and agent is not agents[you]:
                    restore_agent(agent, state, args.resume)
        except GameFileError as e:
            _diag_out(err, e.diagnostic, args.resume)
            return EXIT_ERRORS

    def save(path):
        """`--save PATH` or `save PATH`: the game as it is now, to go on with `--resume`."""
        from rulelang.play.saves import GameFileError, write_save
        if not path:
            out.text(Text("  save where? type `save FILE` (or start with --save FILE)",
                          style="yellow"))
            return False
        try:
            write_save(path, file=args.file, overrides=overrides, players=n, seat=you + 1,
                       agents=["human" if k == you else a for k, a in enumerate(others)],
                       seed=seed, st=st, agent_objects=agents)
        except GameFileError as e:
            _diag_out(err, e.diagnostic)
            return False
        except OSError as e:
            out.text(Text(f"  cannot save to {path}: {e.strerror or e}", style="yellow"))
            return False
        out.text(Text(f"  Game saved to {path}; go on with `rulelang play --resume {path}`.",
                      style="bold"))
        return True
    head = Text(safe(game.name), style="bold")
    head.append(f" — against {', '.join(others[:you] + others[you + 1:])}", style="dim")
    out.text(head)
    seat_line = Text("You are ")
    seat_line.append(f"player {you + 1} of {n}", style=seat_style(you))
    seat_line.append(" (shown as ")
    seat_line.append_text(seat_text(you, you))
    seat_line.append("; the others: ")
    for i, p in enumerate(q for q in range(n) if q != you):
        if i:
            seat_line.append(", ")
        seat_line.append_text(seat_text(p, you))
    seat_line.append(")")
    for label, value in words.vars_of(st, you):
        seat_line.append(f"; your {safe(label)}: {safe(value)}")
    out.text(seat_line)
    opts = game.options()
    if opts:
        out.text(Text("options: " + safe(words.options(opts)), style="dim"))
    if saved is not None:
        out.text(Text(f"(the game saved in {args.resume}, at turn {st.turns + 1})", style="dim"))

    def flush(before=None):
        for line in story.lines():
            out.text(line)

    flush()
    try:
        _play_out(st, agents, flush)
    except QuitGame:
        out.blank()
        if not (args.save and save(args.save)):
            out.text(Text("Game abandoned.", style="bold"))
            out.text(_replay_text(args, n, seed))
        return EXIT_OK
    except KeyboardInterrupt:
        out.blank()
        out.text(Text("Game abandoned (interrupted).", style="bold"))
        out.text(_replay_text(args, n, seed))
        return EXIT_INTERRUPTED
    flush()
    out.blank()
    out.show(rows_table(zone_rows(words, st.zones, you, st), "The table at the end"))
    out.text(result_text(st, you, turns=story.turns_told()))
    out.text(_replay_text(args, n, seed))
    if st.outcome == "error":
        from rulelang.cli.render import problem_diagnostic
        _diag_out(err, problem_diagnostic(st.problem or {}, args.file), args.file)
        return EXIT_ERRORS
    return EXIT_OK


def _resume_args(args, err):
    """`play --resume PATH`: the saved game's file, options, players, seat, agents and seed in
    ``args`` (a rule file named as well must be the same text); the save, or False."""
    from rulelang.play.saves import GameFileError, read_save, rule_file_of
    try:
        saved = read_save(args.resume)
        args.file = rule_file_of(saved, args.resume, args.file)
    except GameFileError as e:
        _diag_out(err, e.diagnostic, args.resume)
        return False
    if args.set or args.players is not None or args.agents is not None or args.seed is not None:
        raise UsageError("--resume goes on with the saved game's options, players, agents "
                         "and seed", "leave out --set, --players, --agents and --seed")
    args.set = sorted(saved["options"].items())
    args.players = saved["players"]
    args.seat = saved["seat"]
    args.agents = ",".join(a for k, a in enumerate(saved["agents"]) if k != args.seat - 1) or None
    args.seed = saved["seed"]
    args.save = args.save or args.resume
    return saved


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
# rulelang test, rulelang replay (and the logs of `run --log`)
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
            tf = check_test_file(path)
            out.text(Text(path, style="bold") + Text(
                f"  ({os.path.relpath(tf.rules_path)})" if tf.rules_path else "",
                style="dim"))
            for d in tf.diagnostics:
                _diag_out(out, d, path)
            if tf.diagnostics and not tf.tests:
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


def _write_log(path, file, overrides, n, seed, names, st, err) -> None:
    """`run --log PATH`: the game's identity and every action, for `rulelang replay PATH`."""
    from rulelang.play.saves import GameFileError, make_log, write_log
    try:
        write_log(path, make_log(file, overrides, n, seed, names, st))
    except GameFileError as e:
        _diag_out(err, e.diagnostic)
    except OSError as e:
        raise UsageError(f"cannot write the log `{path}`: {e.strerror or e}") from None


def cmd_replay(args) -> int:
    """Step through a game log written by `rulelang run --log` (rulelang/play/saves.py)."""
    from rich.text import Text

    from rulelang.cli.render import Narrator, result_text, rows_table, zone_rows
    from rulelang.play.saves import GameFileError, read_log, replay_state, rule_file_of
    from rulelang.termsafe import safe
    from rulelang.engine.words import Words
    out, err = Out(sys.stdout), Out(sys.stderr)
    try:
        data = read_log(args.log)
        file = rule_file_of(data, args.log, args.rules)
    except GameFileError as e:
        _diag_out(err, e.diagnostic, args.log)
        return EXIT_ERRORS
    game = _load_game(file, data["options"], err)
    if game is None:
        return EXIT_ERRORS
    cg = _compile(game, data["players"], file, err)
    if cg is None:
        return EXIT_ERRORS
    total = len(data["actions"])
    turn_at = [0] * (total + 1)          # turns played after k actions

    def note(k, st):
        turn_at[k + 1] = st.turns
    try:
        final = replay_state(cg, data, on_action=note)
    except GameFileError as e:
        _diag_out(err, e.diagnostic, args.log)
        return EXIT_ERRORS
    turn_at[0] = cg.new_game(seed=data["seed"], max_steps=data.get("max_steps")).turns
    words = Words(cg)
    n = data["players"]

    def table(state, title, zones=None):
        out.show(rows_table(zone_rows(words, state.zones if zones is None else zones, None, state),
                            title))
    head = Text(safe(game.name), style="bold")
    head.append(f" — replay of {args.log}: {data['players']} players, seed {data['seed']}, "
                f"agents {', '.join(data['agents'])}, {total} moves", style="dim")
    opts = game.options()
    if opts:
        head.append("\noptions: " + safe(words.options(opts)), style="dim")
    out.text(head)

    def moves_to_turn(t):
        """The number of moves after which turn ``t`` is being played (or the game is over)."""
        for k in range(total + 1):
            if turn_at[k] >= t - 1:
                return k
        return total

    if args.to_end or args.turn is not None:
        upto = total if args.to_end else moves_to_turn(args.turn)
        # told as `rulelang run` tells a game: the same narration, the same tables
        st = cg.new_game(seed=data["seed"], log=True, max_steps=data.get("max_steps"))
        story = Narrator(words, st)
        table_turn = [0]
        after_setup = story.seen > 0
        if after_setup:
            table(st, "the table after setup", story.zones)

        def flush():
            for line in story.lines():
                out.text(line)
            if not st.terminal and st.turns - table_turn[0] >= max(n, 1) * args.table_every:
                table_turn[0] = st.turns
                table(st, f"the table in turn {story.turn}")
        flush()
        if not after_setup:
            table(st, "the table at the first decision")
        for seat, action, _words in data["actions"][:upto]:
            st.apply_action(action, seat - 1)
            flush()
        if upto == total:
            table(st, "the table at the end")
            out.text(result_text(st, turns=story.turns_told()))
        else:
            table(st, f"the table at the start of turn {args.turn} (after move {upto} of {total})")
        return EXIT_OK

    # Interactive: one move at a time, back, jump to a turn.
    echo = not _isatty(sys.stdin)
    st = cg.new_game(seed=data["seed"], log=True, max_steps=data.get("max_steps"))
    pos = 0
    help_text = ("  Enter or n: next move   b: back one move   t N (or N): go to turn N   "
                 "s: start   e: end   q: quit")

    def where(k):
        if k == total and final.terminal:
            return f"move {k} of {total}, the end"
        return f"move {k} of {total}, turn {turn_at[k] + 1}"

    def show_table(k, state):
        table(state, where(k))
        if k == total and state.terminal:
            out.text(result_text(state))

    def narrator(state):
        """A narrator of ``state`` that has told everything up to now."""
        story = Narrator(words, state)
        story.lines()
        return story
    story = narrator(st)

    show_table(0, st)
    out.text(Text(help_text, style="dim"))
    while True:
        out.stream.write(f"[{where(pos)}] > ")
        out.stream.flush()
        line = _input()
        if line is None:
            out.blank()
            return EXIT_OK
        if echo:
            out.stream.write(line + "\n")
        cmd = line.strip().lower()
        target = None
        if cmd in ("", "n", "next", "f"):
            if pos == total:
                out.text(Text("  this is the end of the game (b: back, q: quit)", style="yellow"))
                continue
            seat, action, _w = data["actions"][pos]
            st.apply_action(action, seat - 1)
            pos += 1
            for told in story.lines():
                out.text(told)
            show_table(pos, st)
            continue
        if cmd in ("q", "quit", "exit"):
            return EXIT_OK
        if cmd in ("?", "h", "help"):
            out.text(help_text)
            continue
        if cmd in ("b", "back", "p"):
            target = max(pos - 1, 0)
        elif cmd in ("s", "start"):
            target = 0
        elif cmd in ("e", "end"):
            target = total
        else:
            parts = cmd.split()
            if parts and parts[0] in ("t", "turn"):
                parts = parts[1:]
            if len(parts) == 1 and parts[0].isdigit():
                target = moves_to_turn(int(parts[0]))
            else:
                out.text(Text(f"  not a command: {line.strip()!r}", style="yellow"))
                out.text(help_text)
                continue
        pos = target
        st = replay_state(cg, data, pos)
        story = narrator(st)
        out.text(Text(f"  ... {where(pos)}", style="bold"))
        show_table(pos, st)


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
    from rulelang.check.checker import _checker_deck_size
    lo, hi = model.players
    if hi - lo < 4:
        return range(lo, hi + 1)
    return sorted({lo, hi} | {n for n in range(lo + 1, hi) if _checker_deck_size(model, n) is None})


def check_one(path: str, overrides: dict, players=None, simulate=None, include=(), workers=1,
              progress=None, ray=None):
    """Every diagnostic for one file: the checker's, the compiler's for each allowed number of
    players, and (with ``simulate``) those of random games.  Returns (diagnostics, internal).
    Ctrl-C during the games raises :class:`~rulelang.play.simulate.SimulationInterrupted` holding
    every diagnostic found so far (the static ones too)."""
    from rulelang.syntax.diagnostics import RuleFileError
    from rulelang.compile.loader import Game, check_file
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
                from rulelang.play.simulate import SimulationInterrupted, simulate as run_simulation
                try:
                    diags.extend(run_simulation(path, simulate, overrides, include=include,
                                                workers=workers, progress=progress, ray=ray))
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
        try:
            diags, bad = check_one(path, overrides, args.players, args.simulate, _include(args),
                                   _workers(args), progress, args.ray)
        except SimulationInterrupted as stop:
            diags, bad, stopped = stop.diagnostics, False, (stop.played, stop.total)
        finally:
            while bars:
                bars.pop().stop()
        internal |= bad
        per_file.append((path, diags))
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
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates.append(os.path.join(os.path.dirname(package), "docs", "errors.md"))
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
    fenced = False                      # inside a ``` block a line starting with # is code
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or line.startswith("```"):
            if current is not None:
                lines.append(line)
            continue
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
    from rulelang.syntax.diagnostics import did_you_mean
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
        import re
        hint = did_you_mean(code, entries)
        if re.fullmatch(r"RL\d{3}", code):
            message = f"there is no error code `{code}`"
        else:
            message = f"`{args.code}` is not an error code"
        raise UsageError(message, (hint + " " if hint else "")
                         + "error codes look like RL101; they are: " + ", ".join(sorted(entries)))
    if out.color:
        from rich.markdown import Markdown
        out.show(Markdown(entry))
    else:
        out.write(entry)
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
  rulelang stats examples/crazy_eights.cardrules             balance and rule coverage
  rulelang explain RL101                                     what an error code means

Run `rulelang COMMAND --help` for each command's options.
Exit status: 0 ok, 1 errors in a rule file or a failed game, 2 bad command line (also a
number of players or an option the game does not have), 3 internal error (please report it),
130 interrupted.  Rule files are untrusted input: see docs/security.md."""

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
    p.add_argument("--games", "-g", type=_positive, metavar="K",
                   help="play K games (seeds S..S+K-1) and print a summary")
    p.add_argument("--workers", "-w", type=_positive, metavar="K",
                   help="with --games: processes to play on (default: the number of cores)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="with --games: play on the Ray cluster at ADDRESS instead (without one: "
                        "a local Ray instance; the same results); needs pip install "
                        "'rulelang[cluster]'")
    p.add_argument("--max-steps", type=_positive, metavar="N",
                   help="stop a game that runs more than N rule steps (default: 200000)")
    p.add_argument("--table-every", type=_positive, default=3, metavar="R",
                   help="show the table every R rounds (default: 3)")
    p.add_argument("--log", metavar="PATH",
                   help="also write the game to PATH (JSON) for `rulelang replay PATH`")
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
    p.add_argument("--max-steps", type=_positive, metavar="N", help=argparse.SUPPRESS)
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
    p.add_argument("--simulate", type=_positive, metavar="N",
                   help="also play N random games per player count and report run-time problems")
    p.add_argument("--workers", "-w", type=_positive, metavar="K",
                   help="with --simulate: processes to play on (default: the number of cores)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="with --simulate: play on the Ray cluster at ADDRESS instead (without "
                        "one: a local Ray instance); needs pip install 'rulelang[cluster]'")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print nothing when there is nothing to report")
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
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("replay", help="step through a game log written by `run --log`",
                       description=REPLAY_DESCRIPTION, epilog=REPLAY_EPILOG, formatter_class=fmt)
    p.add_argument("log", metavar="LOG", help="the log (JSON) written by `rulelang run --log LOG`")
    p.add_argument("--rules", metavar="FILE",
                   help="the rule file, when it is no longer at the path the log names")
    p.add_argument("--to-end", action="store_true",
                   help="print the whole game as `rulelang run` shows it, then stop")
    p.add_argument("--turn", type=_positive, metavar="N",
                   help="print the game up to the start of turn N, then stop")
    p.add_argument("--table-every", type=_positive, default=3, metavar="R",
                   help="with --to-end or --turn: show the table every R rounds (default: 3)")
    p.set_defaults(func=cmd_replay)

    from rulelang.cli.workbench import add_commands
    add_commands(sub, sys.modules[__name__])          # stats, compare

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
