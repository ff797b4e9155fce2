"""rulelang: card games written as data.

The package is laid out as its pipeline, one sub-package per stage (README, "How it is built"):
:mod:`rulelang.syntax` (text to a syntax tree), :mod:`rulelang.check` (diagnostics and a resolved
model), :mod:`rulelang.compile` (generated Python, and the loader that runs the stages for a file),
:mod:`rulelang.engine` (the game state at run time), :mod:`rulelang.play` (agents, simulation,
rule tests, saves), :mod:`rulelang.ai` (OpenSpiel, PettingZoo, tensors) and :mod:`rulelang.cli`
(the command line, the only part that prints).

The public API, imported on first use so that ``rulelang --help`` stays quick::

    import rulelang
    game = rulelang.load("examples/crazy_eights.cardrules")   # a Game: check and compile
    state = game.new_game(seed=1)        # a State: legal_actions, apply_action, ...
"""

__version__ = "0.1.0"

_API = {
    "load": "rulelang.compile.loader",
    "check_file": "rulelang.compile.loader",
    "Game": "rulelang.compile.loader",
    "State": "rulelang.engine.runtime",
    "GameProblem": "rulelang.engine.control",
    "SaveError": "rulelang.engine.save_format",
    "RuleFileError": "rulelang.syntax.diagnostics",
}
__all__ = ["__version__", *_API]  # noqa: PLE0604 (the keys of _API are names)


def __getattr__(name):
    if name in _API:
        import importlib

        value = getattr(importlib.import_module(_API[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
