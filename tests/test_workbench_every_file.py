"""The workbench commands on every rule file of rules/: a balance report with coverage, a comparison with a changed option (or
with the base it extends), a logged game replayed to the same end, and a save resumed."""
import glob
import json
import os

import pytest

from rulelang.cli.commands import main
from rulelang.compile.loader import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch):
    """A log or save names its rule file relative to its own folder or to the current folder
    (docs/security.md): these tests write them in a temporary folder and run from the project."""
    monkeypatch.chdir(ROOT)
FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules")))
IDS = [os.path.basename(f)[:-len(".cardrules")] for f in FILES]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_stats_compare_log_and_replay(path, capsys, tmp_path):
    assert main(["stats", path, "--games", "6", "--workers", "1", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["games"] == 6 and len(r["seats"]) == r["players"]
    assert sum(s["wins"] for s in r["seats"]) + r["draws"] + r["shared_wins"] + r["errors"] \
        + r["budget_stops"] >= 6 - r["no_winner"]
    assert r["coverage"] and all(e["line"] > 0 for e in r["coverage"])
    # compare: the game against itself with its first option changed
    options = load(path).options()
    game = load(path)
    if options:
        name, value = next(iter(options.items()))
        decl = game.model.options[name].decl
        other = next((c for c in (decl.choices or ()) if c != value), None)
        if other is None and isinstance(value, bool):
            other = not value
        if other is None and isinstance(value, int) and not isinstance(value, bool):
            other = value + 1 if decl.high is None or value + 1 <= decl.high else value - 1
        assert other is not None, f"no other value for the option {name}"
        if other is not None:
            word = ("yes" if other else "no") if isinstance(other, bool) else str(other)
            assert main(["compare", path, "--b-set", f"{name}={word}", "--games", "6",
                         "--workers", "1", "--json"]) == 0
            c = json.loads(capsys.readouterr().out)
            assert c["a"]["games"] == c["b"]["games"] == 6 and "coverage" in c
    # a logged game replays to the end that run printed
    log = str(tmp_path / "game.json")
    assert main(["run", path, "--seed", "3", "--log", log, "--max-steps", "20000"]) in (0, 1)
    ran = capsys.readouterr().out
    assert main(["replay", log, "--to-end"]) == 0
    replayed = capsys.readouterr().out
    assert replayed.splitlines()[1:] == ran.splitlines()[1:]


def test_every_rule_test_file_passes(capsys):
    assert main(["test", os.path.join(ROOT, "rules")]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out and "PASS" in out
