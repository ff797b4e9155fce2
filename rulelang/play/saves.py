"""Game logs (``rulelang run --log``, ``rulelang replay``) and saved games (``rulelang play
--save`` / ``--resume``): JSON files that carry the game's identity.

Both name the rule file, a digest of its text (and of every file it ``extends``), the options
set, the number of players and the agents; a file whose rule text has changed since is refused
(RL521), because the same actions or the same state would mean something else.

- A **log** has the seed and every action in order (``[seat, action, words]``): replaying
  re-applies them to a new game with the same seed (:func:`replay_state`).
- A **save** wraps :meth:`rulelang.engine.runtime.State.to_json` in an envelope with the human's seat
  and the computer agents' own state (their random generators, what they remember), so that
  a resumed game goes on exactly as it would have without the pause.

Problems are :class:`GameFileError` with a diagnostic (RL520-RL523); only the CLI prints.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
from typing import Optional

from rulelang.syntax.diagnostics import ERROR, Diagnostic

LOG_FORMAT = "rulelang-log"
SAVE_FORMAT = "rulelang-save"
VERSION = 1


class GameFileError(Exception):
    def __init__(self, code: str, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.diagnostic = Diagnostic(code, ERROR, message, None, hint)


def rule_digest(path: str, include=()) -> str:
    """``sha256:...`` of the rule file's text and of every file it extends (base first; the
    bases found as the game was, with its ``include`` folders)."""
    from rulelang.compile.loader import read_layers
    diags: list = []
    layers = read_layers(path, diags, include=include)
    if not layers or any(d.is_error for d in diags):
        raise GameFileError("RL125", f"cannot read the rule file `{path}`",
                            "the file named in the log or save must be where it was, and the files it "
                            "extends too (give --include DIR if they were found there)")
    h = hashlib.sha256()
    for prog in layers:
        data = prog.source.encode("utf-8")
        h.update(f"{len(data)}\n".encode())
        h.update(data)
    return "sha256:" + h.hexdigest()


def identity(file: str, overrides: dict, players: int, path: Optional[str] = None,
             include=()) -> dict:
    """The game's identity in a log or save written to ``path``: its rule file (as
    :func:`recorded_path` names it), a digest of its text, the options and the players."""
    return {"file": file if path is None else recorded_path(file, path),
            "digest": rule_digest(file, include), "options": dict(overrides),
            "players": players}


def recorded_path(file: str, path: str) -> str:
    """The rule file ``file`` as a log or save written to ``path`` names it: relative to the
    log's folder when it lies inside it, else relative to the current folder when it lies inside
    that, else as given (then :func:`rule_file_of` refuses it, and the rule file must be named
    on the command line).  These are the two places :func:`rule_file_of` looks."""
    target = os.path.abspath(file)
    try:
        folders = [os.path.dirname(os.path.abspath(path)), os.getcwd()]
    except OSError:
        return file
    for folder in folders:
        rel = os.path.relpath(target, folder)
        if rel != os.pardir and not rel.startswith(os.pardir + os.sep) and not os.path.isabs(rel):
            return rel
    return file


def _write(path: str, data: dict, what: str) -> None:
    """Write the JSON file whole or not at all, readable by its owner only, and only to a
    regular file or a new path (:func:`rulelang.compile.loader.write_whole`; raises
    :class:`rulelang.compile.loader.OutputError` for a link, a fifo, a device or a folder)."""
    from rulelang.compile.loader import write_whole
    write_whole(path, json.dumps(data, ensure_ascii=False) + "\n", what, private=True)


def _read(path: str, fmt: str, what: str) -> dict:
    """The JSON object of a log or save: a regular file (a fifo or a device is never opened) of
    at most ``limits.MAX_GAME_FILE_BYTES``, read as the loader reads a rule file."""
    from rulelang.compile.loader import read_rule_bytes
    from rulelang.limits import MAX_GAME_FILE_BYTES
    raw, why = read_rule_bytes(path, MAX_GAME_FILE_BYTES)
    if why == "missing":
        raise GameFileError("RL520", f"there is no {what} `{path}`", None)
    if why == "not-regular":
        raise GameFileError("RL520", f"`{path}` is not a rulelang {what}: not a regular file", None)
    if why == "too-large":
        raise GameFileError("RL520", f"`{path}` is too large for a rulelang {what} (the limit is "
                            f"{MAX_GAME_FILE_BYTES:,} bytes)", None)
    if why is not None:
        raise GameFileError("RL520", f"`{path}` is not a rulelang {what}: {why}", None)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        text = "nested too deeply" if isinstance(e, RecursionError) else e
        raise GameFileError("RL520", f"`{path}` is not a rulelang {what}: {text}", None) from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise GameFileError("RL520", f"`{path}` is not a rulelang {what}",
                            "logs come from `rulelang run --log PATH`, saves from "
                            "`rulelang play --save PATH`")
    if data.get("version") != VERSION:
        raise GameFileError("RL520", f"`{path}` is a {what} of format version "
                            f"{data.get('version')!r}; this rulelang reads version {VERSION}", None)
    for key, typ in (("file", str), ("digest", str), ("options", dict), ("players", int),
                     ("agents", list)):
        if not isinstance(data.get(key), typ):
            raise GameFileError("RL520", f"`{path}` is a damaged {what}: `{key}` is missing "
                                "or wrong", None)
    # (found by benchmarks/fuzzfiles.py: an agent named by a number was an internal error)
    if not all(isinstance(a, str) for a in data["agents"]) or \
            not all(isinstance(k, str) and isinstance(v, (str, int, bool)) and v is not None
                    for k, v in data["options"].items()):
        raise GameFileError("RL520", f"`{path}` is a damaged {what}: `agents` or `options` "
                            "is wrong", None)
    _check_fields(data, path, what)
    return data


def _whole(x) -> bool:
    return x.__class__ is int          # (not true or false, which Python counts as numbers)


def _check_fields(data: dict, path: str, what: str) -> None:
    """Every field of a log's or a save's envelope, by its kind and range (RL520): the game's
    name, its number of players, the seed, the agents (each one rulelang has, its number within
    ``limits.MAX_AGENT_BUDGET``), the options' values (numbers within the bound of every number);
    a log's budget (``limits.MAX_STEPS_OPTION``), moves and result; a save's seat.  A value of
    another kind was an internal error where it was used (a log whose `max_steps` is text made
    `replay` exit 3), a budget of 10^12 playouts a hang."""
    from rulelang.limits import MAX_NUMBER, MAX_PLAYERS, MAX_STEPS_OPTION
    from rulelang.play.agents import AgentError, _spec

    def bad(field, why):
        raise GameFileError("RL520", f"`{path}` is a damaged {what}: `{field}` {why}", None)

    def number(field, x, lo, hi):
        if not _whole(x) or not lo <= x <= hi:
            bad(field, f"must be a whole number from {lo:,} to {hi:,}")
        return x

    if not isinstance(data.get("game"), str):
        bad("game", "must be the game's name")
    players = number("players", data["players"], 1, MAX_PLAYERS)
    number("seed", data.get("seed"), 0, (1 << 64) - 1)      # (a 64-bit seed, as --seed)
    if len(data["agents"]) not in (0, 1, players):
        bad("agents", f"must name one agent for each of the {players} players")
    for name in data["agents"]:
        try:
            _spec(name)
        except AgentError as e:
            bad("agents", f"names an agent rulelang does not have or cannot run "
                          f"({e.message}; {e.hint})")
    for k, v in data["options"].items():
        if _whole(v) and abs(v) > MAX_NUMBER:
            bad("options", f"sets `{k}` to a number beyond {MAX_NUMBER:,} (10^15)")
        if isinstance(v, str) and len(v) > 1000:
            bad("options", f"sets `{k}` to a text of {len(v):,} characters")
    if data["format"] == LOG_FORMAT:
        if data.get("max_steps") is not None:
            number("max_steps", data["max_steps"], 1, MAX_STEPS_OPTION)
        for field in ("decisions", "turns"):
            if field in data and not (_whole(data[field]) and data[field] >= 0):
                bad(field, "must be a whole number of at least 0")
        if "outcome" in data and data["outcome"] is not None and \
                not isinstance(data["outcome"], str):
            bad("outcome", "must be text or null")
        if "winners" in data and (not isinstance(data["winners"], list) or not all(
                _whole(w) and 1 <= w <= players for w in data["winners"])):
            bad("winners", f"must list players from 1 to {players}")
        actions = data.get("actions")
        if isinstance(actions, list):
            for a in actions:
                if not (isinstance(a, list) and len(a) == 3 and _whole(a[0]) and
                        1 <= a[0] <= players and _whole(a[1]) and a[1] >= 0 and
                        isinstance(a[2], str)):
                    bad("actions", f"must be moves [seat, action, words] of players 1 to "
                                   f"{players}")
    else:
        number("seat", data.get("seat"), 1, players)
        states = data.get("agent_states")
        if isinstance(states, list) and not all(x is None or (isinstance(x, dict) and all(
                isinstance(v, dict) for v in x.values())) for x in states):
            bad("agent_states", "must hold, for each player, null or a computer player's state")
        state = data.get("state")
        if isinstance(state, dict) and "max_steps" in state:
            number("state.max_steps", state["max_steps"], 1, MAX_STEPS_OPTION)


def rule_file_of(data: dict, path: str, file: Optional[str] = None, include=()) -> str:
    """The rule file of a log or save: ``file`` if given (the user's own choice), else the path
    it names, read only as `extends` reads a base (:func:`rulelang.compile.loader.find_named_file`,
    docs/security.md): a relative .cardrules path, looked up next to the log, then in the current
    folder, then in each ``include`` folder, and inside one of them once links are followed
    (RL128 otherwise; nothing of a refused file is read).  Refused (RL521) when its text is not
    the one recorded."""
    if file is None:
        from rulelang.compile.loader import GAME_FILE, find_named_file
        try:
            folders = [os.path.dirname(path), ""]
            roots = [os.path.realpath(os.path.dirname(os.path.abspath(path))),
                     os.path.realpath(os.getcwd())]
        except (OSError, ValueError):
            folders, roots = [os.path.dirname(path)], [os.path.realpath(os.path.dirname(
                os.path.abspath(path)))]
        for d in include or ():
            folders.append(d)
            roots.append(os.path.realpath(d))
        diags: list = []
        found = find_named_file(data["file"], folders, roots, None, diags, GAME_FILE)
        if found is None:
            err = GameFileError(diags[0].code, diags[0].message, diags[0].hint)
            err.diagnostic = diags[0]
            raise err
        file = found[0]
    elif not os.path.isfile(file):
        raise GameFileError("RL125", f"cannot find the rule file `{file}` of `{path}`",
                            "run from the folder the game was played in, or name the rule file")
    if rule_digest(file, include) != data["digest"]:
        raise GameFileError("RL521", f"the rule file `{file}` has changed since `{path}` was "
                            "written", "a log or save replays only with the rule text it was "
                            "made with: restore that version of the file")
    return file


# ---- logs -----------------------------------------------------------------------------------

def make_log(file: str, overrides: dict, players: int, seed: int, agents: list, st,
             include=()) -> dict:
    """A log of the finished (or stopped) game ``st``, played with ``log=True``."""
    g = st.game
    actions = [[e[1] + 1, e[2], g.action_to_string(e[2])] for e in st.log if e[0] == "choice"]
    data = {"format": LOG_FORMAT, "version": VERSION, "game": g.name}
    data.update(identity(file, overrides, players, include=include))
    data.update({"seed": seed, "agents": list(agents), "max_steps": st.max_steps,
                 "actions": actions, "outcome": st.outcome,
                 "winners": [w + 1 for w in st.winners], "decisions": st.decisions,
                 "turns": st.turns})
    return data


def write_log(path: str, data: dict) -> None:
    """Write the log ``data`` (from :func:`make_log`) to ``path``, its rule file named as
    :func:`recorded_path` says."""
    _write(path, dict(data, file=recorded_path(data["file"], path)), "the log")


def read_log(path: str) -> dict:
    data = _read(path, LOG_FORMAT, "game log")
    if not _whole(data.get("seed")) or not isinstance(data.get("actions"), list) or not all(
            isinstance(a, list) and len(a) == 3 and _whole(a[0]) and _whole(a[1])
            for a in data["actions"]):
        raise GameFileError("RL520", f"`{path}` is a damaged game log: its actions are not "
                            "[seat, action, words]", None)
    return data


def replay_state(cg, data: dict, upto: Optional[int] = None, on_action=None):
    """A new game with the log's seed and its first ``upto`` actions (all by default) applied,
    each checked against the log (RL522 when the game does not allow it)."""
    st = cg.new_game(seed=data["seed"], log=True, max_steps=data.get("max_steps"))
    actions = data["actions"] if upto is None else data["actions"][:upto]
    for k, (seat, action, words) in enumerate(actions):
        if st.terminal or (seat - 1) not in st.current_players() or \
                action not in st.legal_actions(seat - 1, every_copy=True) or \
                cg.action_to_string(action) != words:
            raise GameFileError("RL522", f"the log does not match the game at move {k + 1} "
                                f"(player {seat}: {words})", "the log was written by another "
                                "version of rulelang, or edited")
        st.apply_action(action, seat - 1)
        if on_action is not None:
            on_action(k, st)
    return st


# ---- saves ----------------------------------------------------------------------------------

def agent_state(agent) -> dict:
    """What an agent carries from one decision to the next, as JSON: its random generators and
    its plain data (an agent is rebuilt from its name, seat and seed, then given this back)."""
    out = {}
    for key, value in vars(agent).items():
        if key in ("ask",):
            continue
        if isinstance(value, random.Random):
            out[key] = {"random": _plain(value.getstate())}
        else:
            try:
                json.dumps(value)
            except (TypeError, ValueError):
                continue
            out[key] = {"value": value}
    return out


def restore_agent(agent, state: dict, path: str = "the save") -> None:
    """Give a computer agent back its saved state; RL520 for a state that is not one."""
    try:
        for key, d in state.items():
            if key.startswith("_") or key in ("ask", "seat", "seed"):
                continue
            if "random" in d and isinstance(getattr(agent, key, None), random.Random):
                getattr(agent, key).setstate(_tuple(d["random"]))
            elif "value" in d and hasattr(agent, key):
                setattr(agent, key, d["value"])
    except (AttributeError, KeyError, TypeError, ValueError, OverflowError) as e:
        raise GameFileError("RL520", f"`{path}` is a damaged saved game: the state of a computer "
                            f"player is not one ({type(e).__name__})", None) from None


def _plain(x):
    return [_plain(y) for y in x] if isinstance(x, (tuple, list)) else x


def _tuple(x):
    return tuple(_tuple(y) for y in x) if isinstance(x, list) else x


def write_save(path: str, *, file: str, overrides: dict, players: int, seat: int, agents: list,
               seed: int, st, agent_objects: list, include=()) -> None:
    """Save the game being played: ``seat`` is the human's (counted from 1); ``include``, the
    folders its bases were found in."""
    data = {"format": SAVE_FORMAT, "version": VERSION, "game": st.game.name}
    data.update(identity(file, overrides, players, path, include))
    data.update({"seat": seat, "agents": list(agents), "seed": seed,
                 "agent_states": [None if a is None or getattr(a, "name", "") == "human"
                                  else agent_state(a) for a in agent_objects],
                 "state": st.to_json()})
    _write(path, data, "the save")


def read_save(path: str) -> dict:
    data = _read(path, SAVE_FORMAT, "saved game")
    if not isinstance(data.get("seat"), int) or not isinstance(data.get("state"), dict) or \
            not isinstance(data.get("seed"), int) or data["state"].get("n") != data["players"] or \
            not isinstance(data.get("agent_states"), list) or \
            len(data["agent_states"]) != data["players"] or len(data["agents"]) != data["players"]:
        raise GameFileError("RL520", f"`{path}` is a damaged saved game", None)
    return data


def resume_state(cg, data: dict, path: str = "the save"):
    """The saved state, for ``cg`` (the game compiled for the save's number of players)."""
    from rulelang.engine.runtime import State
    try:
        st = State.from_json(cg, data["state"])
    except (KeyError, TypeError, ValueError) as e:
        raise GameFileError("RL520", f"`{path}` is a damaged saved game: {e}", None) from None
    st.log = []
    return st
