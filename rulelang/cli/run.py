"""``rulelang run`` (one game between computer agents shown move by move, or many games and a
summary, ``--log`` to write the game) and ``rulelang replay`` (step through such a log).
"""
from __future__ import annotations

import sys

from rulelang.cli.common import (EXIT_ERRORS, EXIT_INTERRUPTED, EXIT_OK, SEED_LIMIT, Out,
                                 UsageError, _agent_names, _compile, _diag_out, _include, _input,
                                 _isatty, _json_failure, _load_game, _need_ray, _output_path,
                                 _overrides, _play_out, _players_usage, _workers, decimal)


# ---------------------------------------------------------------------------------------------
# rulelang run
# ---------------------------------------------------------------------------------------------


def cmd_run(args) -> int:
    out, err = Out(sys.stdout), Out(sys.stderr)
    overrides = _overrides(args)
    if args.log and args.games is None:
        _output_path(args.log, "the log")
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
    seed = args.seed
    show = not (args.json or args.quiet)
    st = cg.new_game(seed=seed, log=show or bool(args.log), max_steps=args.max_steps)
    agents = [make_agent(nm, p, seed) for p, nm in enumerate(names)]
    paged = None
    if show and not args.no_pager:       # a long game on a terminal: through a pager
        from rulelang.cli.common import open_pager, pager_command
        command = pager_command()
        paged = open_pager(command) if command else None
        if paged is not None:
            out = Out(paged)
    try:
        return _run_one(args, game, cg, n, names, seed, show, st, agents, out, err, overrides)
    finally:
        if paged is not None:
            paged.close()


def _run_one(args, game, cg, n, names, seed, show, st, agents, out, err, overrides) -> int:
    """One game of `run`, told on ``out`` (a terminal, a pipe or a pager)."""
    from rulelang.cli.render import problem_diagnostic
    from rulelang.cli.table import result_text, scores_of
    from rulelang.termsafe import safe_json
    if show:
        from rich.text import Text

        from rulelang.cli.narration import Narrator, rows_table, zone_rows
        from rulelang.termsafe import safe
        from rulelang.engine.display_names import Words
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
            while True:         # a stretch of turns without a decision: a table now and then
                for line in story.lines(state["table_turn"] + max(n, 1) * args.table_every + 1):
                    out.text(line)
                if story.seen >= len(st.log):
                    break
                state["table_turn"] = story.turn - 1
                out.show(rows_table(zone_rows(words, story.zones, None, st, with_vars=False),
                                    f"the table in turn {story.turn}"))
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
        _write_log(args.log, args.file, overrides, n, seed, names, st, err, _include(args))

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
        teams = st.teams()
        if teams is not None:                       # a team wins, loses or draws together
            results = res.get("results")
            res["teams"] = [{"players": [p + 1 for p in t],
                             **({"result": results[t[0]]} if results else {})} for t in teams]
            _team_vars(st, teams, res["teams"])
        if st.problem:
            res["problem"] = st.problem
        out.write(safe_json(res) + "\n")
    elif args.quiet:
        out.text(result_text(st))
    if st.outcome == "error":
        _diag_out(err, problem_diagnostic(st.problem or {}, args.file), args.file)
        return EXIT_ERRORS
    return EXIT_OK



def _team_vars(st, teams, out) -> None:
    """Each team's variables of each team (`var NAME per team`), as State.variables() gives
    them: ``"vars": {name: value}`` beside the team's players (none in a game without them)."""
    cg = st.game
    if not getattr(cg, "team_vars", ()):
        return
    typed = st.variables()
    for t, entry in zip(teams, out):
        number = st.vars[cg.team_base + t[0]]
        entry["vars"] = {name: typed[name][number] for name in cg.team_vars}

def _run_many(args, game, cg, n, names, out, err) -> int:
    from rulelang.termsafe import safe_json

    from rulelang.play.parallel import progress_bar
    from rulelang.cli.render import problem_diagnostic
    from rulelang.cli.table import summary_table
    from rulelang.play.stats import play_games, summarize
    from rulelang.check.teams import declared_teams
    k = args.games
    workers = _workers(args)
    _need_ray(args)
    bar, advance = progress_bar(err.console, k) if k >= 200 and not args.quiet else (None, None)
    if bar is not None:
        bar.start()
    from rulelang.cli.common import _records_file
    _output_path(args.records, "the records")
    try:
        with _records_file(args.records) as records:
            played = play_games(args.file, game.overrides, n, k, args.seed, names,
                                args.max_steps, coverage=False, workers=workers,
                                advance=advance, include=_include(args), ray=args.ray,
                                records_to=records)
    finally:
        if bar is not None:
            bar.stop()
    r = summarize(played, game.name, n, args.seed, names, None, workers,
                  teams=declared_teams(game.model, n))
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
    failed = played.tally.errors
    if failed:
        seed = (args.seed + played.tally.first_error) % SEED_LIMIT
        d = problem_diagnostic(_problem_of(cg, names, seed, args.max_steps), args.file)
        _diag_out(err, d, args.file)
        err.text(f"  = note: {failed} of {k} games failed; the first was seed {seed} "
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
# rulelang replay (and the logs of `run --log`)
# ---------------------------------------------------------------------------------------------


def _write_log(path, file, overrides, n, seed, names, st, err, include=()) -> None:
    """`run --log PATH`: the game's identity and every action, for `rulelang replay PATH`."""
    from rulelang.compile.loader import OutputError
    from rulelang.play.saves import GameFileError, make_log, write_log
    try:
        write_log(path, make_log(file, overrides, n, seed, names, st, include))
    except GameFileError as e:
        _diag_out(err, e.diagnostic)
    except OutputError as e:
        raise UsageError(e.message, e.hint) from None
    except OSError as e:
        raise UsageError(f"cannot write the log `{path}`: {e.strerror or e}") from None


def cmd_replay(args) -> int:
    """Step through a game log written by `rulelang run --log` (rulelang/play/saves.py)."""
    from rich.text import Text

    from rulelang.cli.narration import Narrator, rows_table, zone_rows
    from rulelang.cli.table import result_text
    from rulelang.play.saves import GameFileError, read_log, replay_state, rule_file_of
    from rulelang.termsafe import safe
    from rulelang.engine.display_names import Words
    out, err = Out(sys.stdout), Out(sys.stderr)
    try:
        data = read_log(args.log)
        file = rule_file_of(data, args.log, args.rules, _include(args))
    except GameFileError as e:
        _diag_out(err, e.diagnostic, args.log)
        return EXIT_ERRORS
    game = _load_game(file, data["options"], err, include=_include(args))
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

    last_turn = turn_at[total - 1] + 1 if total else 1     # the turn of the log's last move

    def past_the_end(t):
        """What to say when turn ``t`` is beyond the last turn of the log."""
        if t <= last_turn:
            return None
        ended = "the game ended" if final.terminal else "the log ends"
        return f"{ended} in turn {last_turn}: there is no turn {t}"

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
            while True:         # a stretch of turns without a decision: a table now and then
                for line in story.lines(table_turn[0] + max(n, 1) * args.table_every + 1):
                    out.text(line)
                if story.seen >= len(st.log):
                    break
                table_turn[0] = story.turn - 1
                out.show(rows_table(zone_rows(words, story.zones, None, st, with_vars=False),
                                    f"the table in turn {story.turn}"))
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
            if args.turn is not None and past_the_end(args.turn):
                out.text(Text(f"({past_the_end(args.turn)}; this is the end)", style="yellow"))
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
            if len(parts) == 1 and decimal(parts[0]) is not None:
                target = moves_to_turn(decimal(parts[0]))
                beyond = past_the_end(decimal(parts[0]))
                if beyond:
                    out.text(Text(f"  {beyond}; here is the end (b: back, q: quit)",
                                  style="yellow"))
            else:
                out.text(Text(f"  not a command: {line.strip()!r}", style="yellow"))
                out.text(help_text)
                continue
        pos = target
        st = replay_state(cg, data, pos)
        story = narrator(st)
        out.text(Text(f"  ... {where(pos)}", style="bold"))
        show_table(pos, st)
