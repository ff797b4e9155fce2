"""`rulelang serve` on the command line: it prints the links (the host's, and each seat's of a
game started with --agents), warns when other computers may reach it, stops on Ctrl-C, and
refuses what `run` refuses with the same messages."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EIGHTS = os.path.join(ROOT, "examples", "crazy_eights.cardrules")


def serve(*args):
    return subprocess.Popen([sys.executable, "-m", "rulelang", "serve", EIGHTS, "--port", "0",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)


def read_links(proc, timeout=30):
    lines, end = [], time.time() + timeout
    while time.time() < end:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Ctrl-C" in line:
            return lines
    raise AssertionError("".join(lines) + proc.stderr.read())


def test_serve_prints_its_links_and_stops_on_ctrl_c():
    proc = serve("--agents", "human,random", "--hotseat")
    try:
        lines = read_links(proc)
        text = "".join(lines)
        assert "Crazy Eights at http://127.0.0.1:" in text
        host = re.search(r"(http://127\.0\.0\.1:\d+)/#host=([\w-]+)", text)
        assert host and re.search(r"seat 1: http://\S+/#seat=[\w-]{24}", text)
        assert "spectator: " in text and "hotseat: " in text and "seat 2" not in text
        r = httpx.post(host.group(1) + "/api/lobby", json={"token": host.group(2)})
        assert r.status_code == 200 and len(r.json()["tables"]) == 1
        assert httpx.get(host.group(1) + "/").status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "warning" not in err


def test_serve_warns_when_other_computers_may_reach_it():
    proc = serve("--host", "0.0.0.0")
    try:
        read_links(proc)
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=20)
    assert "warning: listening on 0.0.0.0" in err and "not encrypted" in err


@pytest.mark.parametrize("args, code, words", [
    (["--players", "9"], 2, "is for 2 to 4 players"),
    (["--agents", "human,wizard"], 2, "unknown agent"),
    (["--set", "nope=1"], 2, "nope"),
    (["--port", "70000"], 2, "port"),
])
def test_serve_refuses_a_bad_command_line(args, code, words):
    r = subprocess.run([sys.executable, "-m", "rulelang", "serve", EIGHTS, *args],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == code and words in r.stderr, r.stderr


def test_serve_refuses_a_rule_file_with_errors(tmp_path):
    bad = tmp_path / "bad.cardrules"
    bad.write_text("game \"Bad\"\nplayers 2\nturn:\n  nonsense here\n")
    r = subprocess.run([sys.executable, "-m", "rulelang", "serve", str(bad)],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 1 and "error[RL" in r.stderr
