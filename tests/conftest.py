"""The order of the tests under pytest-xdist (``-n auto``): the few long tests first.

pytest-xdist hands each worker a share of the tests in collection order and more as it runs low.
A test of a minute or more collected late (the fuzz tests sit in the middle of the alphabet)
may still be running on one core when the other has nothing left to do; started first, the
long tests run while the other worker works through the short ones, and the run ends on short
tests on both cores.  Only the order changes: every test runs as it would, and a run without
xdist keeps the collection's order.
"""

import os
import re
import sys

import pytest

from rulelang.compile import loader as _loader

# Node ids, or their beginnings, of the tests that take several seconds or more (the longest
# first: `pytest --durations=40` shows them); a whole module where it shares a fixture.
LONG_FIRST = [
    "tests/test_fuzz_grammar.py::test_generated_inputs_never_fail_in_an_unknown_way",
    "tests/test_fuzz_differential.py::test_generated_games_agree_with_the_reference_under_every",
    "tests/test_fuzz_check.py::test_mutated_rule_files_never_crash",
    "tests/test_fuzz_check.py::test_mutated_lines_of_one_rule",
    "tests/test_fuzz_differential.py::test_generated_games_check_play_long",
    "tests/test_fuzz_files.py::test_mutated_tests_logs_and_saves",
    "tests/test_fuzz_playout.py::test_generated_games_end_alike",
    "tests/test_card_sets.py::test_generated_games_end_alike",
    "tests/test_cluster.py::",
    "tests/test_ai_vector.py::test_a_linear_policy_learns_to_beat_random",
    "tests/test_limits.py::test_a_step_is_charged_by_the_size_of_what_it_evaluates",
    "tests/test_benchmarks.py::test_benchmark_command_runs_on_a_tiny_budget",
    "tests/test_docs.py::test_shown_command_runs[docs/games/follow_the_leader.md: rulelang check --sim",
    "tests/test_effects.py::test_each_statement_does_what_its_description_says",
    "tests/test_web_browser.py::",
]


def _rank(nodeid: str) -> int:
    for i, prefix in enumerate(LONG_FIRST):
        if nodeid.startswith(prefix):
            return i
    return len(LONG_FIRST)


def pytest_collection_modifyitems(session, config, items):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    items.sort(key=lambda item: _rank(item.nodeid))  # (stable: the rest keep their order)


# ---- One load of each rule file of rules/ and examples/ per worker ----------------------------
# Most tests load a seed game or an example (``load(path)``, the in-process commands of the
# docs, the AI wrappers), and the same few files were checked and compiled again in test after
# test: about an eighth of the suite's CPU time.  The loader and the compiler are deterministic, so
# within a worker ``load`` gives each call a new ``Game`` made from one checked model per rule
# text, and the games compiled from it are shared (each ``new_game`` is a fresh state; of the
# games played, a compiled game keeps only tables it makes on first use, the same whichever game
# made them: a test of that first use compiles a game of its own).  The key is everything that makes the game: the
# bytes of the file and of each file it extends, the options set, the optimisations asked for
# (the compiled games are kept by number of players and the optimisations in force, the
# environment's RULELANG_OPT included, as ``Game.compiled`` keeps them).  Only the files of
# rules/ and examples/, which no test writes, and only without ``text`` or ``include``: any
# other load is the loader's own.  A test that patches rulelang (anything but sys, the
# terminal's environment variables or the folder it runs in) loads and compiles its own games,
# from the patch to its end, so that what it patched is what it tests.
# A test that leaves a shared compiled game changed (a rule's function replaced) fails.
# tests/test_load_cache.py checks the key and that a shared game plays as a fresh one does.

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHED_FOLDERS = tuple(os.path.join(ROOT, d) + os.sep for d in ("rules", "examples"))
_EXTENDS = re.compile(rb'^extends\s+"([^"]+)"', re.M)
_fresh_load = _loader.load
_LOADED: dict = {}  # key -> (the first Game, the compiled games shared)
_patched = [False]  # the running test has patched rulelang (until it ends)
_SHARED_PROCS: list = []  # (compiled games, key, a shared compiled game, its rules' functions)
_SAFE_TARGETS = (sys,)
_SAFE_ENV = {"NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TERM"}


def _texts(path):
    """The bytes of ``path`` and of each file it extends, or None when a file of the chain is
    outside rules/ and examples/ or cannot be read (then the loader's own answer is given)."""
    out, seen = [], set()
    real = os.path.realpath(path)
    while True:
        if not real.startswith(CACHED_FOLDERS) or real in seen or len(seen) > 16:
            return None
        seen.add(real)
        try:
            with open(real, "rb") as fh:
                data = fh.read()
        except OSError:
            return None
        out.append((real, data))
        base = _EXTENDS.search(data)
        if base is None:
            return tuple(out)
        real = os.path.realpath(os.path.join(os.path.dirname(real), base.group(1).decode("utf-8", "replace")))


def load_key(path, overrides=None, optimize=None):
    """What a shared game is kept under; None for a load that is not shared."""
    texts = _texts(path) if isinstance(path, str) else None
    if texts is None:
        return None
    opts = frozenset(optimize) if isinstance(optimize, (set, frozenset)) else optimize
    return texts, tuple(sorted((k, repr(v)) for k, v in (overrides or {}).items())), opts


class SharedCompiled(dict):
    """``Game._compiled`` of a game handed out by the shared load: the games compiled for the
    worker, or this game's own in a test that has patched rulelang."""

    def __init__(self, shared: dict):
        super().__init__()
        self.shared = shared

    def _now(self) -> dict:
        return self if _patched[0] else self.shared

    def get(self, key, default=None):
        return dict.get(self._now(), key, default)

    def __setitem__(self, key, value):
        if not _patched[0]:
            _SHARED_PROCS.append((self.shared, key, value, tuple(value.procs)))
        dict.__setitem__(self._now(), key, value)

    def __iter__(self):
        return iter(dict.keys(self._now()))

    def __contains__(self, key):
        return dict.__contains__(self._now(), key)

    def __len__(self):
        return dict.__len__(self._now())


def shared_load(path, overrides=None, text=None, include=(), optimize=None):
    """``load`` as the loader does it, its result shared within the worker (see above)."""
    key = None
    if text is None and not include and not _patched[0]:
        key = load_key(path, overrides, optimize)
    if key is None:
        return _fresh_load(path, overrides, text, include, optimize)
    got = _LOADED.get(key)
    if got is None:
        first = _fresh_load(path, overrides, text, include, optimize)
        got = _LOADED[key] = (first, {})
    first, compiled = got
    game = _loader.Game(first.model, list(first.diagnostics), first.decls, path, dict(overrides or {}))
    game.include, game.optimize = first.include, first.optimize
    game._compiled = SharedCompiled(compiled)
    return game


def _replace_load():
    _loader.load = shared_load
    for module in list(sys.modules.values()):  # (any module that took it already)
        if (
            module is not None
            and module.__name__.startswith(("rulelang", "benchmarks"))
            and getattr(module, "load", None) is _fresh_load
        ):
            module.load = shared_load


_replace_load()


def _mark_patched(target, name=None):
    if isinstance(target, str):
        if not target.startswith("sys."):
            _patched[0] = True
    elif not any(target is t for t in _SAFE_TARGETS):
        _patched[0] = True


_mp_setattr, _mp_delattr = pytest.MonkeyPatch.setattr, pytest.MonkeyPatch.delattr
_mp_setitem = pytest.MonkeyPatch.setitem


def _setattr(self, target, *args, **kwargs):
    _mark_patched(target)
    return _mp_setattr(self, target, *args, **kwargs)


def _delattr(self, target, *args, **kwargs):
    _mark_patched(target)
    return _mp_delattr(self, target, *args, **kwargs)


def _setitem(self, dic, name, value):  # (setenv too)
    if not (dic is os.environ and name in _SAFE_ENV):
        _patched[0] = True
    return _mp_setitem(self, dic, name, value)


pytest.MonkeyPatch.setattr, pytest.MonkeyPatch.delattr = _setattr, _delattr
pytest.MonkeyPatch.setitem = _setitem


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _patched[0] = False
    yield
    _patched[0] = False


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """A test that leaves a shared compiled game changed (a rule's function replaced) fails, and
    the game is dropped, so that no later test plays it."""
    result = yield
    changed = [e for e in _SHARED_PROCS if tuple(e[2].procs) != e[3]]
    if changed:
        for games, key, cg, _procs in changed:
            if games.get(key) is cg:
                del games[key]
        _SHARED_PROCS[:] = [e for e in _SHARED_PROCS if not any(e is c for c in changed)]
        raise AssertionError(
            f"{item.nodeid} left {len(changed)} shared compiled game(s) changed: put back what it "
            "replaced, or compile a game of its own"
        )
    return result
