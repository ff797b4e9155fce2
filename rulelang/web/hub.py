"""The lobby of one server: the rule file it serves, the host's token, the games started from
it (each a :class:`~rulelang.web.tables.Table`) and every token that opens one of their seats.

The host (whoever holds the link ``rulelang serve`` prints) chooses the number of players, who
plays each seat (a person, or a computer agent with its budget), the options of the game (as
``--set`` would) and hot-seat play, and starts games; each start is a new table with its own
links.  Everything the host sends is checked here (:func:`start_spec`) before a game is made,
with the rule file loaded as on the command line (the same limits, the same diagnostics).
"""
from __future__ import annotations

import os
import re
import secrets
import time
from typing import Any, Optional

from rulelang.play.agents import AGENTS, AgentError, make_agent
from rulelang.syntax.diagnostics import RuleFileError
from rulelang.web.tables import HUMAN, Table, new_token

MAX_TABLES = 500               # games one server holds at once
MAX_OPTIONS = 64               # options in one start
MAX_TEXT = 80                  # characters of an option's name or value, of an agent's name
IDLE = 6 * 3600                # seconds after which a table nobody touches may be dropped
MAX_SAVES = 200                # saved games the lobby lists
SAVE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.json")


class LobbyError(ValueError):
    """A start the lobby refuses, with the reason in words."""


class Hub:
    """The games of one server."""

    def __init__(self, file: str, overrides: Optional[dict] = None, players: Optional[int] = None,
                 include=(), pace: float = 0.0, max_tables: int = MAX_TABLES,
                 saves: Optional[str] = None):
        from rulelang.compile.loader import load
        self.file = file
        self.include = tuple(include)
        self.overrides = dict(overrides or {})
        self.pace = pace
        self.max_tables = max_tables
        self.game = load(file, self.overrides, include=self.include)    # RuleFileError
        lo, hi = self.game.players
        self.players = players if players is not None else lo
        self.host_token = new_token()
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, tuple] = {}          # token -> (table, role, seat)
        self._games: dict = {(): self.game} if not self.overrides else {}
        self._games[tuple(sorted(self.overrides.items()))] = self.game
        self.tasks: set = set()
        self.saves = saves          # the folder of saved games (None: saving is off)

    # ---- what the lobby shows ------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """The game as the lobby offers it: its name, the players it allows, its options with the
        values they have, the agents a seat may be given."""
        from rulelang.engine.display_names import humanize
        g = self.game
        opts = []
        for name, o in g.model.options.items():
            opts.append({"name": name, "label": o.decl.display or humanize(name),
                         "value": _text(o.value)})
        return {"game": g.name, "players": list(g.players), "default_players": self.players,
                "options": opts,
                "agents": [{"name": c.name, "description": c.description,
                            "budget": c.number[0] if c.number else None}
                           for c in AGENTS.values() if c.name != HUMAN],
                "tables": [t.summary() | {"links": t.links} for t in self.tables.values()],
                "saves": self.saved()}

    # ---- starting a game ---------------------------------------------------------------------
    def game_for(self, overrides: dict):
        from rulelang.compile.loader import load
        key = tuple(sorted(overrides.items()))
        game = self._games.get(key)
        if game is None:
            try:
                game = load(self.file, overrides, include=self.include)
            except RuleFileError as e:
                raise LobbyError("; ".join(d.message for d in e.diagnostics[:3])) from None
            if len(self._games) >= 32:
                self._games.pop(next(iter(self._games)))
            self._games[key] = game
        return game

    def start(self, spec: Any) -> Table:
        """A new game from the host's ``spec`` (checked by :func:`start_spec`)."""
        players, seats, options, hotseat, seed = start_spec(spec, self.game.players)
        self._drop_idle()
        if len(self.tables) >= self.max_tables:
            raise LobbyError(f"this server holds at most {self.max_tables} games at once")
        game = self.game_for({**self.overrides, **options})
        lo, hi = game.players
        if not lo <= players <= hi:
            raise LobbyError(f"this game is for {lo} to {hi} players")
        try:
            table = Table(game, players, seats, seed, hotseat=hotseat, pace=self.pace,
                          file=self.file, overrides={**self.overrides, **options})
        except RuleFileError as e:
            raise LobbyError("; ".join(d.message for d in e.diagnostics[:3])) from None
        self.add(table)
        return table

    def add(self, table: Table) -> None:
        self.tables[table.id] = table
        for t, (role, seat) in table.tokens.items():
            self.tokens[t] = (table, role, seat)

    def lookup(self, token: str) -> Optional[tuple]:
        """``(table, role, seat)`` of a token, or None.  A seat taken over by a computer player
        has become a spectator's link."""
        found = self.tokens.get(token)
        if found is None:
            return None
        table = found[0]
        role, seat = table.tokens.get(token, (None, None))
        if role is None:
            return None
        return table, role, seat

    def _drop_idle(self) -> None:
        now = time.monotonic()
        for tid, t in list(self.tables.items()):
            if not t.conns and now - getattr(t, "touched", now) > IDLE:    # (a replay stays)
                self.remove(tid)

    def remove(self, tid: str) -> None:
        t = self.tables.pop(tid, None)
        if t is not None:
            for token in t.tokens:
                self.tokens.pop(token, None)


    # ---- saving and resuming ------------------------------------------------------------------
    def saved(self) -> list:
        """The names of the saved games in the saves folder (the newest first)."""
        if self.saves is None or not os.path.isdir(self.saves):
            return []
        try:
            names = [n for n in os.listdir(self.saves) if SAVE_NAME.fullmatch(n)]
        except OSError:
            return []
        names.sort(key=lambda n: _mtime(os.path.join(self.saves, n)), reverse=True)
        return names[:MAX_SAVES]

    def save(self, tid: Any) -> str:
        """Save a table's game in the saves folder, as `play --save` does (every hidden card,
        the computer players' own state); its file name, made here (never the browser's)."""
        from rulelang.compile.loader import OutputError
        from rulelang.play.saves import GameFileError, write_save
        table = self.tables.get(tid) if isinstance(tid, str) else None
        if table is None:
            raise LobbyError("no such table")
        if self.saves is None:
            raise LobbyError("saving is off: start the server with --saves DIR")
        os.makedirs(self.saves, exist_ok=True)
        slug = re.sub(r"[^a-z0-9]+", "_", table.game.name.lower()).strip("_")[:40] or "game"
        name = f"{slug}-{table.id[:10].replace('-', 'x').replace('_', 'y')}.json"
        humans = table.humans()
        try:
            write_save(os.path.join(self.saves, name), file=self.file, overrides=table.overrides,
                       players=table.n, seat=(humans[0] + 1) if humans else 1,
                       agents=list(table.seats), seed=table.seed, st=table.st,
                       agent_objects=table.agents, include=self.include)
        except (GameFileError, OutputError, OSError) as e:
            raise LobbyError(f"cannot save: {getattr(e, 'message', None) or e}") from None
        return name

    def resume(self, name: Any, hotseat: bool = False) -> Table:
        """A new table going on with the saved game ``name`` (a file of the saves folder),
        with new links; refused when the save is of another rule text."""
        from rulelang.play.saves import GameFileError, read_save, restore_agent, resume_state, \
            rule_file_of
        if self.saves is None:
            raise LobbyError("saving is off: start the server with --saves DIR")
        if not isinstance(name, str) or not SAVE_NAME.fullmatch(name) or name not in self.saved():
            raise LobbyError("no such saved game")
        path = os.path.join(self.saves, name)
        try:
            data = read_save(path)
            rule_file_of(data, path, self.file, self.include)
            game = self.game_for({k: str(v) for k, v in data["options"].items()})
            n = data["players"]
            seats = [str(a).strip().lower() for a in data["agents"]]
            start_spec({"players": n, "seats": seats}, game.players)
            st = resume_state(game.compiled(n), data, path)
            table = Table(game, n, seats, data["seed"], hotseat=hotseat, pace=self.pace,
                          state=st, file=self.file, overrides=data["options"])
            for agent, state in zip(table.agents, data["agent_states"]):
                if agent is not None and state is not None:
                    restore_agent(agent, state, path)
        except GameFileError as e:
            raise LobbyError(e.diagnostic.message) from None
        except RuleFileError as e:
            raise LobbyError("; ".join(d.message for d in e.diagnostics[:3])) from None
        self._drop_idle()
        if len(self.tables) >= self.max_tables:
            raise LobbyError(f"this server holds at most {self.max_tables} games at once")
        self.add(table)
        return table


    def replay(self, path: str):
        """A game log of ``run --log`` of this server's rule file, to step through in the
        browser (:class:`rulelang.web.replay.Replay`); GameFileError for a log that is not one,
        or of another rule text."""
        from rulelang.play.saves import read_log, rule_file_of
        from rulelang.web.replay import Replay
        data = read_log(path)
        rule_file_of(data, path, self.file, self.include)
        try:
            game = self.game_for({k: str(v) for k, v in data["options"].items()})
        except LobbyError as e:
            from rulelang.play.saves import GameFileError
            raise GameFileError("RL520", f"`{path}`: {e}") from None
        replay = Replay(game, data)
        self.tables[replay.id] = replay
        self.tokens[replay.token] = (replay, "replay", None)
        return replay


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


def _text(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def start_spec(spec: Any, allowed: tuple) -> tuple:
    """``(players, seats, options, hotseat, seed)`` of a start request, every field checked:
    ``{"players": N, "seats": ["human", "mc:200", ...], "options": {name: value},
    "hotseat": bool, "seed": S}`` (``options``, ``hotseat`` and ``seed`` may be left out)."""
    if not isinstance(spec, dict):
        raise LobbyError("a start is a JSON object")
    known = {"players", "seats", "options", "hotseat", "seed"}
    if set(spec) - known:
        raise LobbyError("unknown field in the start")
    players = spec.get("players")
    lo, hi = allowed
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 64:
        raise LobbyError("`players` is a whole number")
    seats = spec.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise LobbyError("`seats` names who plays each seat, one entry per player")
    names = []
    for s in seats:
        if not isinstance(s, str) or not 0 < len(s) <= MAX_TEXT:
            raise LobbyError("a seat is `human` or a computer agent such as `random` or `mc:200`")
        s = s.strip().lower()
        if s != HUMAN:
            try:
                make_agent(s, 0, 0)
            except AgentError as e:
                raise LobbyError(e.message + (f" ({e.hint})" if e.hint else "")) from None
        names.append(s)
    options = spec.get("options", {})
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise LobbyError("`options` is an object of option names and values")
    opts = {}
    for k, v in options.items():
        if isinstance(v, bool):
            v = "yes" if v else "no"
        if isinstance(v, int):
            v = str(v)
        if not isinstance(k, str) or not isinstance(v, str) or not 0 < len(k) <= MAX_TEXT or \
                not 0 < len(v) <= MAX_TEXT or not k.isprintable() or not v.isprintable():
            raise LobbyError("an option is a name and a value, as with --set NAME=VALUE")
        opts[k] = v
    hotseat = spec.get("hotseat", False)
    if not isinstance(hotseat, bool):
        raise LobbyError("`hotseat` is true or false")
    seed = spec.get("seed")
    if seed is None:
        seed = secrets.randbits(64)
    elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 64:
        raise LobbyError("`seed` is a whole number from 0 to 2**64-1")
    return players, names, opts, hotseat, seed
