"""Find runtime problems by playing random games (``rulelang check --simulate N``).

:func:`simulate` plays ``n_games`` games with uniformly random choices for every allowed number of
players, first with the options as they are, then with each value of every yes/no or
``one of`` option (one option changed at a time).  What goes wrong becomes a diagnostic that
points at the rule that was running:

* RL901 a game that does not end within the step budget;
* RL902 a move of a card that is not in the zone the rule names;
* RL903 a number choice with an impossible range;
* RL904 a decision with no legal choice;
* RL905 a card created or lost between two decisions (the number of cards in all zones changed);
* RL999 an internal error of rulelang while playing.

* RL909 every game that ended, at every number of players and option setting, ended before
  anybody decided anything (a forgotten `setup:`, an ending that holds from the start): a game
  in which nobody ever chooses is a mistake of the file, not a game.

* RL906 (a warning) a move of the top, bottom or a random card, or of N cards, from a zone that
  is empty at that moment, so that nothing (or less) is moved.

To see moves from empty zones, the games are compiled with the generator's option
``watch_empty`` (``CompiledGame(model, n, watch_empty=True)``), which writes a check before each
such move.  Normal play never pays for that check.
"""
from __future__ import annotations

import random
from typing import Optional

from rulelang.syntax.ast import Span
from rulelang.compile.compiler import CompiledGame
from rulelang.syntax.diagnostics import ERROR, WARNING, Diagnostic, RuleFileError
from rulelang.compile.loader import load

DEFAULT_MAX_STEPS = 100_000
MAX_DECISIONS = 20_000


def option_settings(game) -> list[dict]:
    """The option settings to try: none changed, then each other value of each yes/no or choice
    option, one at a time."""
    out = [{}]
    for name, info in game.model.options.items():
        decl = info.decl
        if getattr(decl.span, "file", None) == "<prelude>":
            continue
        if isinstance(decl.default, bool):
            values = [not info.value]
        elif decl.choices is not None:
            values = [c for c in decl.choices if c != info.value]
        else:
            continue
        for v in values:
            out.append({name: "yes" if v is True else "no" if v is False else str(v)})
    return out


def _describe(n, overrides, seed):
    opts = "".join(f", --set {k}={v}" for k, v in overrides.items())
    return f"{n} players{opts}, seed {seed}"


def _rule_span(cg, st, file) -> Optional[Span]:
    """The span of the rule whose frame is on top of the stack (the one making the decision)."""
    try:
        for fr in reversed(st.stack):
            name = cg.proc_names[fr[0]]
            r = cg.model.rules.get(name)
            if r is not None:
                return r.decl.span
    except (AttributeError, IndexError, TypeError):
        pass
    return Span(file, 0, 0, 0, 0)


def _rule_name(cg, st) -> str:
    try:
        for fr in reversed(st.stack):
            name = cg.proc_names[fr[0]]
            if name in cg.model.rules:
                return name
    except (AttributeError, IndexError, TypeError):
        pass
    return "?"


def play_one(game, n, seed, max_steps=DEFAULT_MAX_STEPS):
    """Play one random game.  Returns None, or (code, message, span, hint)."""
    return play_one_counted(game, n, seed, max_steps)[0]


def play_one_counted(game, n, seed, max_steps=DEFAULT_MAX_STEPS):
    """:func:`play_one`, and the number of decisions the game made: ``(found, decisions)``.

    The game is played on the fast path (:meth:`State.playout`, the same choices as
    ``random.Random(seed).choice``); only when something went wrong (a problem, a card created
    or lost by the end, more than MAX_DECISIONS decisions) is it played again through the API,
    the same game, to find the decision where it went wrong.  (So a card created and lost again
    before the game ends unremarked is no longer caught after the decision that created it.)
    The playout has no budget of decisions, only the game's budget of steps, which bounds its
    decisions too: so it goes on in the playout variants' structured turn, which cannot stop at
    a decision (the games of a seed game 12 to 25% faster than in a playout stopped at every
    decision to count it).  A game of more decisions
    is played again through the API all the same, which stops it at MAX_DECISIONS: the same
    finding as when the playout stopped there."""
    cg = _watched(game, n)
    st = cg.new_game(seed=seed, max_steps=max_steps)
    total = sum(len(z) for z in st.zones)
    rnd = random.Random(seed)
    st.playout([getattr(rnd, "_randbelow", rnd.randrange)] * n)
    if (st.terminal and st.problem is None and st.decisions <= MAX_DECISIONS
            and sum(len(z) for z in st.zones) == total):
        return None, st.decisions
    cg.empty_moves.clear()               # the game again: only what it shows until it stops
    return _play_one_api(game, n, seed, max_steps), st.decisions


def _play_one_api(game, n, seed, max_steps=DEFAULT_MAX_STEPS):
    """:func:`play_one` through the public API, checking the cards after every decision."""
    file = game.file
    cg = _watched(game, n)
    rnd = random.Random(seed)
    st = cg.new_game(seed=seed, max_steps=max_steps)
    total = sum(len(z) for z in st.zones)
    decisions = 0
    while not st.is_terminal():
        if decisions >= MAX_DECISIONS:
            return ("RL901", f"the game did not end within {MAX_DECISIONS} decisions",
                    _rule_span(cg, st, file), "give the game a way to end")
        players = st.current_players()
        span = _rule_span(cg, st, file)
        name = _rule_name(cg, st)
        for p in players:
            legal = st.legal_actions(p)
            if not legal:
                return ("RL904", f"player {p + 1} has no legal choice in rule `{name}`", span,
                        "add an alternative that is always allowed, such as `pass:`")
            st.apply_action(rnd.choice(legal), p)
            decisions += 1
            if st.is_terminal() or not st.is_simultaneous() and p != players[-1]:
                break
        if st.problem is None:
            now = sum(len(z) for z in st.zones)
            if now != total:
                what = "created" if now > total else "lost"
                return ("RL905", f"{abs(now - total)} card(s) {what} after a choice in rule `{name}` "
                        f"({total} before, {now} after)", span,
                        "this is a bug in rulelang: every move takes a card from one zone to another")
    if st.problem is not None:
        p = st.problem
        sp = p.get("span")
        span = Span(sp[0], sp[1], sp[2], sp[1], sp[2] + 1) if sp else Span(file, 0, 0, 0, 0)
        return (p.get("code", "RL900"), p.get("message", "the game failed"), span, None)
    return None


def _watched(game, n):
    """The game compiled for ``n`` players with its moves watched (cached on the game)."""
    game.compiled(n)                      # the normal compilation's diagnostics, if any
    cache = game.__dict__.setdefault("_watched", {})
    if n not in cache:
        cache[n] = CompiledGame(game.model, n, DEFAULT_MAX_STEPS, watch_empty=True)
    return cache[n]


_HINTS = {
    "RL901": "make sure every path of a turn moves the game towards an end, or add "
             "`game ends when ...:`",
    "RL902": "make sure the card is still in that zone when the rule runs, or move it from "
             "the zone it is in",
    "RL904": "add an alternative that is always allowed, such as `pass:`",
}


def _simulate_chunk(job, seeds):
    """A worker's share of the games of one option setting and number of players: per seed,
    (seed, problem or None, the moves from empty zones in that game, a RuleFileError's
    diagnostics or None, the decisions the game made)."""
    path, setting, n, max_steps, include = job
    key = (path, tuple(sorted(setting.items())))
    g = _LOADED.get(key)
    if g is None:
        g = _LOADED[key] = load(path, setting, include=include)
    out = []
    for s in seeds:
        decisions = 0
        try:
            found, decisions = play_one_counted(g, n, s, max_steps)
        except RuleFileError as err:
            out.append((s, None, [], err.diagnostics, 0))
            break
        except Exception as exc:   # a bug in rulelang: say so, do not crash
            found = ("RL999", f"internal error while playing: {type(exc).__name__}: {exc}",
                     Span(path, 0, 0, 0, 0), "this is a bug in rulelang, not in your rule "
                     "file; please report it")
        watched = _watched(g, n).empty_moves
        out.append((s, found, [(span, zone, have) for span, (zone, have) in watched.items()], None,
                    decisions))
        watched.clear()
    return out


_LOADED: dict = {}


def _made_before_the_pool(g, path, setting, n):
    """What each worker of a local pool would make for its first game, made once here before
    the pool forks, so that the workers share it: the game loaded (as ``_simulate_chunk`` keys
    it), compiled with its moves watched, and its playout variants."""
    _LOADED[(path, tuple(sorted(setting.items())))] = g
    try:
        _watched(g, n).playout_procs()
    except RuleFileError:
        pass                    # (the first game of the first chunk reports it)


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`simulate`: ``diagnostics`` holds what the games played so far found,
    ``played`` and ``total`` how many games of how many."""

    def __init__(self, diagnostics: list, played: int, total: int):
        super().__init__()
        self.diagnostics, self.played, self.total = diagnostics, played, total


def simulate(path: str, n_games: int, overrides: Optional[dict] = None, seed: int = 0,
             max_steps: int = DEFAULT_MAX_STEPS, include=(), workers: int = 1,
             progress=None, ray=None, game=None) -> list[Diagnostic]:
    """Play ``n_games`` random games per number of players and option setting; every runtime
    problem found, once per place and kind, as a diagnostic.  ``include``: more folders the
    file may extend from (as for :func:`~rulelang.compile.loader.load`).  ``workers`` processes share
    the games; the diagnostics are the same for any number.  ``progress(total)``, if given, is
    called once with the number of games and returns ``advance(n)``, called as games finish.
    Ctrl-C raises :class:`SimulationInterrupted` with what was found so far.  ``ray``: run the
    games on that Ray cluster instead (see :mod:`rulelang.play.cluster`; the file must be at the same
    path there).  ``game``: the file already loaded with ``overrides`` (``check`` has it, its
    compiled forms too), not loaded again."""
    from rulelang.play.parallel import run_chunks
    _LOADED.clear()                  # the file may have changed since the last call
    overrides = dict(overrides or {})
    if game is None:
        try:
            game = load(path, overrides, include=include)
        except RuleFileError as err:
            return err.diagnostics
    diags: list = []
    seen: set = set()
    settings = [dict(overrides, **s) for s in option_settings(game)]
    lo, hi = game.players
    total = len(settings) * (hi - lo + 1) * n_games
    advance = progress(total) if progress is not None else None
    played = 0
    ended = decided = 0                 # games that ended by the rules; games with a decision
    for setting in settings:
        try:
            g = game if setting == overrides else load(path, setting, include=include)
        except RuleFileError as err:
            for d in err.diagnostics:
                key = (d.code, d.message)
                if key not in seen:
                    seen.add(key)
                    diags.append(d)
            continue
        _LOADED[(path, tuple(sorted(setting.items())))] = g     # (the games here play it)
        for n in range(lo, hi + 1):
            job = (path, setting, n, max_steps, tuple(include or ()))
            if workers > 1 and ray is None:
                _made_before_the_pool(g, path, setting, n)
            done = run_chunks(_simulate_chunk, job, range(seed, seed + n_games), workers,
                              advance, ray=ray)
            played += len(done.results)
            for s, found, empties, errs, decisions in done.results:   # in seed order, as one process would
                decided += decisions > 0
                ended += errs is None and found is None
                if errs is not None:
                    for d in errs:
                        if (d.code, d.message) not in seen:
                            seen.add((d.code, d.message))
                            diags.append(d)
                    break
                for span, zone, have in empties:
                    key = ("RL906", span.file, span.line)
                    if key in seen:
                        continue
                    seen.add(key)
                    what = "empty" if have == 0 else f"down to {have} card(s)"
                    diags.append(Diagnostic(
                        "RL906", WARNING, f"a move from {zone}, which was {what}, so "
                        f"{'nothing' if have == 0 else 'fewer cards'} moved (in a random game: "
                        f"{_describe(n, setting, s)})", span,
                        "if that can happen, say what happens then: `if ZONE is empty: ...` "
                        "(refill it, or end the game)"))
                if found is None:
                    continue
                code, message, span, hint = found
                key = (code, span.file if span else None, span.line if span else None)
                if key in seen:
                    continue
                seen.add(key)
                diags.append(Diagnostic(code, ERROR, f"{message} (in a random game: "
                                        f"{_describe(n, {k2: v for k2, v in setting.items()}, s)})",
                                        span, hint or _HINTS.get(code)))
            if done.interrupted:
                raise SimulationInterrupted(diags, played, total)
    if ended and not decided:
        diags.append(_nobody_decides(game, ended))
    return diags


def _nobody_decides(game, ended) -> Diagnostic:
    """RL909, at the `turn:` (where the decisions would be): every game that ended did so
    before its first decision."""
    turn = game.model.rules.get("turn")
    span = turn.decl.span if turn is not None else Span(game.file, 1, 1, 1, 2)
    hint = ("add a `setup:` that deals the cards before the first turn" if "setup" not in game.model.rules
            else "does a `game ends when` hold from the start, or does `setup:` deal nothing?")
    return Diagnostic("RL909", ERROR, f"nobody ever decides anything: all {ended} random games "
                      "that ended did so before the first decision", span, hint)
