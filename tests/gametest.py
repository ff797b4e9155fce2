"""What every game's tests share: loading a rule file once, the legal choices and the rules' words
in a position, and seeded golden transcripts (regenerate with RULELANG_REGEN=1 after a
deliberate change)."""
from __future__ import annotations

import contextlib
import functools
import os
import random
import signal

from rulelang.compile.loader import load

from gameprops import random_playout

HERE = os.path.dirname(__file__)
RULES = os.path.join(HERE, "..", "rules")
GOLDEN = os.path.join(HERE, "golden")


@functools.lru_cache(maxsize=None)
def _load(path, overrides):
    return load(path, dict(overrides))


def rules_game(filename, **overrides):
    """The game of ``rules/<filename>`` with options set, loaded once per test session."""
    return _load(os.path.join(RULES, filename), tuple(sorted((k, str(v)) for k, v in overrides.items())))


def legal(st):
    """The legal choices of the player to decide, in words, sorted."""
    return sorted(st.action_to_string(a) for a in st.legal_actions())


def says(st):
    """What the rules said, as (seat counted from 1, text)."""
    return [(e[1] + 1, e[2]) for e in st.log if e[0] == "say"]


def said(st):
    """What the rules said, the texts alone, in order."""
    return [e[2] for e in st.log if e[0] == "say"]


def choices(st, player=None):
    """The legal choices of ``player`` (default: the player to decide), ``{words: action}``."""
    return {st.action_to_string(a): a for a in st.legal_actions(player)}


def said_in_game(path, players, choose=None, backend="generated", monkeypatch=None, max_steps=None,
                 **opts):
    """A logged game (seed 1) of the rule file ``path`` with options ``opts``, played to its end:
    each decision by ``choose`` (the choices in words -> the words chosen), or uniformly at
    random when there is none; compiled to generated code or, ``backend="closures"``, to the
    reference interpreter (from here on in ``monkeypatch``'s context).  Returns what the rules
    said (:func:`said`) and the final state."""
    if backend == "closures":
        from closures import closures_only
        closures_only(monkeypatch)
    game = load(str(path), {k: str(v) for k, v in opts.items()})
    st = game.new_game(players, seed=1, log=True, max_steps=max_steps)
    if choose is None:
        random_playout(st, random.Random(1))
    else:
        while not st.is_terminal():
            words = choices(st)
            st.apply_action(words[choose(words)])
    return said(st), st


def played(cg, seed, log=True, max_steps=None):
    """A game of ``cg`` played to its end through the API with uniformly random choices seeded
    by ``seed`` (logged unless ``log`` is false; ``max_steps``: the step budget)."""
    st = cg.new_game(seed=seed, log=log, max_steps=max_steps)
    random_playout(st, random.Random(seed))
    return st


def log_lines(st, scores=False):
    """The game's log, a line an entry: choices, what the rules said, reveals, the end."""
    lines = []
    for entry in st.log:
        kind = entry[0]
        if kind == "choice":
            lines.append(f"P{entry[1] + 1}: {st.action_to_string(entry[2])}")
        elif kind == "say":
            lines.append(f"   P{entry[1] + 1} | {entry[2]}")
        elif kind == "reveal":
            lines.append(f"   {'P%d' % (entry[1] + 1) if entry[1] >= 0 else 'the game'} reveals {entry[2]}")
        elif kind == "end":
            _, outcome, winners, score = entry
            end = f"END {outcome}: winners {[w + 1 for w in winners]}"
            lines.append(f"{end}, scores {score}" if scores else end)
    return lines


def match_golden(name, lines):
    """The transcript ``lines`` is the one kept in ``tests/golden/<name>``."""
    path = os.path.join(GOLDEN, name)
    text = "\n".join(lines) + "\n"
    if os.environ.get("RULELANG_REGEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    with open(path, encoding="utf-8") as fh:
        assert text == fh.read(), f"{path} differs; regenerate with RULELANG_REGEN=1 if intended"


# ---- generated rule files (benchmarks/fuzzgen.py), for the differential fuzz tests ----------
class TooLong(Exception):
    """A generated file whose games take too long for a test (``within``)."""


def generated_files(tmp_path, base, count):
    """``(i, source, path)`` for the inputs 1..count of ``fuzzgen.make_input(base, i)``, each
    written to a file in ``tmp_path``, beside copies of rules/ and examples/ (a mutant that
    extends a file of theirs finds it there: the test runs in ``tmp_path``)."""
    from benchmarks.fuzzgen import make_input
    root = os.path.join(HERE, "..")
    for folder in ("rules", "examples"):
        (tmp_path / folder).mkdir(exist_ok=True)
        for name in os.listdir(os.path.join(root, folder)):
            if name.endswith(".cardrules"):
                (tmp_path / folder / name).write_bytes(
                    open(os.path.join(root, folder, name), "rb").read())
    for i in range(1, count + 1):
        source, text, _tags = make_input(base, i)
        path = tmp_path / f"f{i % 50}.cardrules"
        path.write_text(text, encoding="utf-8", errors="replace")
        yield i, source, path


@contextlib.contextmanager
def within(seconds, *skipped):
    """The body, stopped after ``seconds`` of wall time (SIGALRM): a file too long for a test,
    or one that raises one of ``skipped`` (a file that does not check), is left quietly."""
    def too_long(*_):
        raise TooLong()
    old = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(seconds)
    try:
        yield
    except (TooLong, *skipped):
        pass
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def turn_sources(cg):
    """The generated sources of a compiled game's turn: the API's and the playout's variant."""
    from rulelang.compile.rulegen import RuleGen
    out = []
    for playout in (False, True):
        rg = RuleGen(cg, playout=playout)
        rg.compile_rule(cg.model.rules["turn"].decl.body, cg.turn_proc, next_turn=cg._turn_spec)
        out.append(rg.src)
    return out
