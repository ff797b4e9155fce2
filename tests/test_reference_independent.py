"""The reference interpreter (tests/reference) stays independent of the compiler: it imports
nothing from ``rulelang.compile`` (nor the compiler's package as a whole), and its game is not a
``CompiledGame``; otherwise a mistake in the compiler's layout, dealing, endings, budget or memory
would be made by both backends alike, and the differential tests could not see it."""
import ast
import pathlib

import rulelang.compile.compiler as C
from reference import ReferenceGame

REFERENCE = pathlib.Path(__file__).parent / "reference"


def _imports(path):
    """Every module a file imports, at any depth of its code (an import inside a function too)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            out.append((mod, node.lineno))
            if mod in ("rulelang", ""):
                out += [(f"{mod}.{a.name}", node.lineno) for a in node.names]
    return out


def test_the_reference_imports_nothing_from_the_compiler():
    files = sorted(REFERENCE.glob("*.py"))
    assert len(files) >= 5
    bad = [(p.name, line, mod) for p in files for mod, line in _imports(p)
           if mod == "rulelang.compile" or mod.startswith("rulelang.compile.")
           or mod.endswith(".compile") or "importlib" in mod]
    assert not bad, bad


def test_the_reference_imports_only_the_checked_model_and_the_engine():
    """Outside its own package, the reference reads the checked model (syntax tree, checker,
    kinds, limits) and the engine's runtime; docs in reference/__init__.py say why."""
    allowed = ("rulelang.syntax", "rulelang.check", "rulelang.engine", "rulelang.kinds",
               "rulelang.limits", "reference", "__future__", "attrs", "typing", "itertools",
               "operator", "functools")
    files = sorted(REFERENCE.glob("*.py"))
    bad = [(p.name, line, mod) for p in files for mod, line in _imports(p)
           if not any(mod == a or mod.startswith(a + ".") for a in allowed)]
    assert not bad, bad


def test_the_reference_game_is_not_a_compiled_game():
    assert not issubclass(ReferenceGame, C.CompiledGame)
    assert not any(k.__module__.startswith("rulelang.compile") for k in ReferenceGame.__mro__)
