"""``rulelang play``: a seat played at the terminal against computer agents, with ``--save`` and
``--resume``; the commands that replay the deal are shown once the game is over.
"""
from __future__ import annotations

import sys

from rulelang.cli.common import (EXIT_ERRORS, EXIT_INTERRUPTED, EXIT_OK, Interrupts, Out,
                                 UsageError, _agent_names, _compile, _diag_out, _include,
                                 _input, _isatty, _load_game, _output_path, _overrides,
                                 _play_out, _players_usage, decimal)


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
    from rulelang.cli.narration import Narrator, changed_rows, rows_table, zone_rows
    from rulelang.cli.table import choices_text, result_text, seat_style, seat_text
    from rulelang.engine.display_names import Words
    from rulelang.termsafe import safe
    from rich.text import Text
    out, err = Out(sys.stdout), Out(sys.stderr)
    saved = _resume_args(args, err) if args.resume else None
    if saved is False:
        return EXIT_ERRORS
    if args.file is None:
        raise UsageError("which game? name a rule file, or --resume a saved game")
    _output_path(args.save, "the save")
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
    told_turn = [None]          # the turn whose heading was printed last

    def turn_line():
        """``Turn 7: your turn`` (``Turn 8: Player 2's turn``), once a turn, before its first
        decision at this terminal."""
        turn = (st.turns + 1, st.cur)
        if told_turn[0] == turn:
            return
        told_turn[0] = turn
        t = Text(f"Turn {turn[0]}: ", style="bold")
        if st.cur == you:
            t.append("your turn", style="bold")
        else:
            t.append_text(seat_text(st.cur, you))
            t.append("'s turn", style="bold")
        out.text(t)

    def rules():
        """The rulebook of the game (`rules` at a prompt)."""
        from rulelang.cli.rulebook import to_markdown
        from rulelang.cli.rulebook_cmd import rulebook_of
        out.write(to_markdown(rulebook_of(game, n)))

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
        choices = [words.action(a, you, cards=st) for a in view.legal]
        out.blank()
        turn_line()
        table("The table", not last_rows)
        head = Text()
        if st.cur != you:
            head.append_text(seat_text(st.cur, you))
            head.append("'s turn, ")
        head.append("your decision" if st.cur != you else "Your decision", style="bold")
        if st.is_simultaneous():
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
            if s in ("rules", "rulebook", "r"):
                rules()
                out.text(head)
                out.text(choices_text(choices))
                continue
            if s in ("?", "t", "table", "h", "help"):
                table("The table", True)
                out.text(head)
                out.text(choices_text(choices))
                continue
            k = decimal(s)
            if k is not None and 1 <= k <= len(choices):
                return view.legal[k - 1]
            exact = [a for a, w in zip(view.legal, choices) if w.lower() == s]
            if exact:
                return exact[0]
            out.text(Text(f"  please type a number from 1 to {len(choices)}, ?, rules or q"
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
        from rulelang.compile.loader import OutputError
        from rulelang.play.saves import GameFileError, write_save
        if not path:
            out.text(Text("  save where? type `save FILE` (or start with --save FILE)",
                          style="yellow"))
            return False
        try:
            write_save(path, file=args.file, overrides=overrides, players=n, seat=you + 1,
                       agents=["human" if k == you else a for k, a in enumerate(others)],
                       seed=seed, st=st, agent_objects=agents, include=_include(args))
        except GameFileError as e:
            _diag_out(err, e.diagnostic)
            return False
        except OutputError as e:
            out.text(Text(f"  {e.message}", style="yellow"))
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
    out.text(Text("(at a prompt: a number chooses, ? shows the whole table, rules the rulebook, "
                  "q quits)", style="dim"))
    if saved is not None:
        out.text(Text(f"(the game saved in {args.resume}, at turn {st.turns + 1})", style="dim"))

    def flush(before=None):
        for line in story.lines():
            out.text(line)

    interrupts = Interrupts()
    try:
        flush()
        _play_out(st, agents, flush, interrupts=interrupts)
    except QuitGame:
        out.blank()
        if not (args.save and save(args.save)):
            out.text(Text("Game abandoned.", style="bold"))
            out.text(_replay_text(args, n, seed))
        return EXIT_OK
    except KeyboardInterrupt:
        # Ctrl-C: saved as `q` saves it (between two moves: see Interrupts), then exit 130
        out.blank()
        if args.save and not interrupts.torn and save(args.save):
            return EXIT_INTERRUPTED
        out.text(Text("Game abandoned (interrupted" + (" in the middle of a move, not saved"
                                                       if interrupts.torn and args.save else "")
                      + ").", style="bold"))
        out.text(_replay_text(args, n, seed))
        return EXIT_INTERRUPTED
    flush()
    out.blank()
    # The game is over: every hand is shown (as the spectator of `rulelang run` sees them).
    out.show(rows_table(zone_rows(words, st.zones, you, st, every_hand=True),
                        "The table at the end"))
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
        args.file = rule_file_of(saved, args.resume, args.file, _include(args))
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
