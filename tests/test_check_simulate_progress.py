"""`check --simulate`: its progress (the number of games, advanced as they finish) and Ctrl-C,
which prints the report of the games played so far and exits 130 (all long work
shows progress, and Ctrl-C gives the partial report)."""
import os

import rulelang.play.simulate as simulate_mod
from rulelang.cli.commands import main
from rulelang.play.simulate import SimulationInterrupted, simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRAZY = os.path.join(ROOT, "examples", "crazy_eights.cardrules")      # 2 to 4 players, no options


def test_progress_counts_every_game():
    calls = []

    def progress(total):
        calls.append(("total", total))
        return lambda n: calls.append(("advance", n))
    assert simulate(CRAZY, 7, workers=1, progress=progress) == []
    assert calls[0] == ("total", 3 * 7)                  # 3 player counts, 7 games each
    assert sum(n for kind, n in calls[1:] if kind == "advance") == 3 * 7


def _interrupt_after(monkeypatch, chunks_ok):
    real = simulate_mod._simulate_chunk
    seen = [0]

    def chunk(job, seeds):
        seen[0] += 1
        if seen[0] > chunks_ok:
            raise KeyboardInterrupt
        return real(job, seeds)
    monkeypatch.setattr(simulate_mod, "_simulate_chunk", chunk)


def test_ctrl_c_keeps_what_was_found(monkeypatch):
    _interrupt_after(monkeypatch, 1)
    try:
        simulate(CRAZY, 5, workers=1)
    except SimulationInterrupted as stop:
        assert stop.played == 1 and stop.total == 15 and stop.diagnostics == []   # chunks of 1 game
    else:
        raise AssertionError("the interruption was swallowed")


def test_check_prints_the_partial_report_and_exits_130(monkeypatch, capsys, tmp_path):
    # a file whose first random game finds problems (the stock runs out: RL906, and the game
    # never ends: RL901), then Ctrl-C: what was found is printed, with the count of games played
    path = tmp_path / "g.cardrules"
    path.write_text('game "g"\nplayers 2\ndeck standard, into stock\n'
                    'zone stock: shared, face down\nzone hand: per player, seen by owner\n'
                    'setup:\n    shuffle stock\n'
                    'turn:\n    move top card from stock to hand\n'
                    '    if size of hand > 30:\n        end game with winner you\n', encoding="utf-8")
    _interrupt_after(monkeypatch, 1)
    status = main(["check", "--simulate", "3", "--workers", "1", str(path)])
    out, err = capsys.readouterr()
    assert status == 130
    assert "error[RL901]" in out and "warning[RL906]" in out      # what seed 0 found
    assert "(in a random game: 2 players, seed 1)" not in out     # seed 1 was never played
    assert f"interrupted: 1 of 3 random games of {path} were played" in err
