"""The paths of untrusted files (docs/security.md, "What a rule file can read" and "Files
rulelang writes"): a rule test's `rules` line, the rule file a log or a save names and the
`.cardtest` files of a folder are read only as `extends` reads a base (one function,
`loader.find_named_file`; a refused path is always RL128 and no line of it is ever printed);
`run --log`, `play --save` and `stats --report` write only to a regular file or a new path; and
Ctrl-C while `play --save` waits for a move saves the game."""
import io
import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

from rulelang.cli.commands import main
from rulelang.compile import loader
from rulelang.compile.loader import check_file
from rulelang.play.cardtest_plan import check_test_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEVENS = os.path.join(ROOT, "examples", "sevens.cardrules")
CRAZY = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
SECRET = "TOPSECRET_LINE"          # in files that must never be printed


@pytest.fixture
def tree(tmp_path):
    """tmp/game/ (the folder of the files used), tmp/other/ (outside it: a good rule file, a
    secret, a rule test with a secret line), and links out of game/."""
    game, other = tmp_path / "game", tmp_path / "other"
    game.mkdir()
    other.mkdir()
    shutil.copy(SEVENS, game / "sevens.cardrules")
    shutil.copy(SEVENS, other / "base.cardrules")
    (other / "secret.cardrules").write_text(SECRET + "\n", encoding="utf-8")
    (other / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (other / "evil.cardtest").write_text(f'rules "base.cardrules"\n{SECRET}\n', encoding="utf-8")
    os.symlink(other / "secret.cardrules", game / "link_out.cardrules")
    os.symlink(other, game / "linked_folder")
    os.symlink(other / "evil.cardtest", game / "evil.cardtest")
    os.mkfifo(game / "fifo.cardrules")
    return tmp_path


def cli(capsys, monkeypatch, *argv, stdin=None):
    monkeypatch.setenv("NO_COLOR", "1")
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    cap = capsys.readouterr()
    return status, cap.out + cap.err


GOOD_TEST = '''rules "{rules}"

test "a test":
    given:
        the rest: stock
    expect:
        1 is 1
'''


def rule_test(tree, rules, name="t.cardtest"):
    path = tree / "game" / name
    path.write_text(GOOD_TEST.format(rules=rules), encoding="utf-8")
    return str(path)


# ---- a rule test's `rules` line --------------------------------------------------------------

RULES_REFUSED = ["/etc/passwd", "/proc/self/environ", "{tree}/other/base.cardrules",
                 "../other/secret.cardrules", "../../../../../../../../etc/passwd",
                 "../other/secret.txt", "link_out.cardrules", "linked_folder/secret.cardrules",
                 "fifo.cardrules", "~/x.cardrules", "../other/gone.cardrules"]


@pytest.mark.parametrize("rules", RULES_REFUSED)
def test_a_rule_test_reads_only_what_extends_may(tree, rules, capsys, monkeypatch):
    rules = rules.format(tree=tree)
    path = rule_test(tree, rules)
    tf = check_test_file(path)
    assert [d.code for d in tf.diagnostics] == ["RL128"] and tf.rules_path is None
    d = tf.diagnostics[0]
    # one message whatever the path is, and whether or not it exists
    assert d.message == (f"cannot use `{rules}`: `rules` in a rule test can name only a "
                         ".cardrules file inside the folder of the test file (or a folder given "
                         "with --include)")
    assert d.span.line == 1 and d.span.column == 7
    status, out = cli(capsys, monkeypatch, "test", path)
    assert status == 1 and "error[RL128]" in out
    assert SECRET not in out and "root:" not in out and "PATH=" not in out


def test_a_rule_test_reads_its_own_folder_and_include_folders(tree, capsys, monkeypatch):
    assert check_test_file(rule_test(tree, "sevens.cardrules")).tests[0].plan is not None
    os.mkdir(tree / "game" / "sub")
    shutil.copy(SEVENS, tree / "game" / "sub" / "s.cardrules")
    assert check_test_file(rule_test(tree, "sub/../sub/s.cardrules")).tests[0].plan is not None
    path = rule_test(tree, "base.cardrules")
    assert [d.code for d in check_test_file(path).diagnostics] == ["RL125"]
    tf = check_test_file(path, include=[str(tree / "other")])
    assert not tf.diagnostics and tf.rules_path == os.path.join(str(tree / "other"), "base.cardrules")
    status, out = cli(capsys, monkeypatch, "test", path, "--include", str(tree / "other"))
    assert status == 0 and "1 passed" in out
    # an include folder opens only itself
    path = rule_test(tree, "../other/secret.txt", "u.cardtest")
    status, out = cli(capsys, monkeypatch, "test", path, "--include", str(tree / "other"))
    assert status == 1 and "error[RL128]" in out and SECRET not in out


def test_test_dir_refuses_a_cardtest_link_that_points_outside(tree, capsys, monkeypatch):
    rule_test(tree, "sevens.cardrules")
    status, out = cli(capsys, monkeypatch, "test", str(tree / "game"))
    assert status == 1 and SECRET not in out
    assert f"cannot use `{tree / 'game' / 'evil.cardtest'}`: it is a link to a file outside its " \
           "folder" in out and "error[RL128]" in out
    assert "1 passed, 1 error" in out
    # as `check DIR` refuses such a rule file
    status, out = cli(capsys, monkeypatch, "check", str(tree / "game" / "link_out.cardrules"))
    assert status == 1 and "error[RL128]" in out and SECRET not in out


def test_a_cardtest_that_is_a_fifo_is_not_opened(tree):
    """In a subprocess with a time limit: a fifo opened for reading waits for a writer."""
    os.mkfifo(tree / "game" / "f.cardtest")
    p = subprocess.run([sys.executable, "-m", "rulelang", "test", str(tree / "game")],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=ROOT, NO_COLOR="1"))
    assert p.returncode == 1 and "f.cardtest` is not a regular file" in p.stdout
    tf = check_test_file(str(tree / "game" / "f.cardtest"))
    assert [d.code for d in tf.diagnostics] == ["RL125"]


# ---- extends: a refused path is always RL128 -------------------------------------------------

def test_extends_through_a_linked_folder_is_rl128_with_or_without_include(tree, capsys,
                                                                          monkeypatch):
    (tree / "inc").mkdir()
    path = tree / "game" / "v.cardrules"
    for base in ("linked_folder/base.cardrules", "linked_folder/nothing.cardrules"):
        path.write_text(f'extends "{base}"\n', encoding="utf-8")
        for include in ([], [str(tree / "inc")]):
            diags, model, _ = check_file(str(path), include=include)
            assert [d.code for d in diags] == ["RL128"], (base, include)
            assert diags[0].message == f"cannot use `{base}`: " + loader._REFUSED
        status, out = cli(capsys, monkeypatch, "check", str(path), "--include", str(tree / "inc"))
        assert status == 1 and "error[RL128]" in out and "RL125" not in out


def test_a_hard_link_inside_the_folder_is_the_file_itself(tree):
    """docs/security.md: a hard link is not a path to somewhere else but a name of the file in
    the folder; it is read like any file there."""
    try:
        os.link(tree / "other" / "base.cardrules", tree / "game" / "hard.cardrules")
    except OSError:
        pytest.skip("no hard links here")
    path = tree / "game" / "v.cardrules"
    path.write_text('extends "hard.cardrules"\n', encoding="utf-8")
    diags, model, _ = check_file(str(path))
    assert model is not None and not diags


# ---- the rule file of a log or a save --------------------------------------------------------

GAME_FILE_REFUSED = ["/etc/passwd", "/proc/self/environ", "{tree}/game/sevens.cardrules",
                     "../other/base.cardrules", "../other/secret.cardrules",
                     "link_out.cardrules", "linked_folder/base.cardrules", "fifo.cardrules",
                     "../other/gone.cardrules", "sevens.cardrules.bak", ""]


def written(tree, capsys, monkeypatch, kind):
    """A log (``run --log``) or a save (``play --save``, quit at once) of sevens in game/."""
    game = str(tree / "game" / "sevens.cardrules")
    path = str(tree / "game" / f"x.{kind}.json")
    if kind == "log":
        status, out = cli(capsys, monkeypatch, "run", game, "--quiet", "--log", path)
    else:
        status, out = cli(capsys, monkeypatch, "play", game, "--seed", "3", "--save", path,
                          stdin="q\n")
    assert status == 0, out
    return path


def reread(capsys, monkeypatch, kind, path, *more):
    if kind == "log":
        return cli(capsys, monkeypatch, "replay", path, "--to-end", *more)
    return cli(capsys, monkeypatch, "play", "--resume", path, *more, stdin="q\n")


@pytest.mark.parametrize("kind", ["log", "save"])
@pytest.mark.parametrize("name", GAME_FILE_REFUSED)
def test_a_log_or_save_names_only_what_extends_may(tree, kind, name, capsys, monkeypatch):
    monkeypatch.chdir(tree / "game")
    path = written(tree, capsys, monkeypatch, kind)
    data = json.load(open(path, encoding="utf-8"))
    assert data["file"] == "sevens.cardrules"            # beside it: moved together, it plays
    data["file"] = name.format(tree=tree) if isinstance(name, str) else name
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    status, out = reread(capsys, monkeypatch, kind, path)
    assert status == 1 and "error[RL128]" in out, out
    assert "a log or a save can name only a .cardrules file inside its own folder or the " \
           "current folder" in out
    assert SECRET not in out and "root:" not in out
    # the rule file named on the command line is the user's choice
    more = ["--rules", str(tree / "game" / "sevens.cardrules")] if kind == "log" else \
        [str(tree / "game" / "sevens.cardrules")]
    status, out = reread(capsys, monkeypatch, kind, path, *more)
    assert status == 0, out


@pytest.mark.parametrize("kind", ["log", "save"])
def test_a_log_or_save_finds_its_rule_file_beside_it_or_from_the_current_folder(
        tree, kind, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    path = written(tree, capsys, monkeypatch, kind)
    assert json.load(open(path, encoding="utf-8"))["file"] == "sevens.cardrules"
    assert reread(capsys, monkeypatch, kind, path)[0] == 0
    # written elsewhere: named from the current folder
    (tree / "logs").mkdir()
    moved = str(tree / "logs" / os.path.basename(path))
    shutil.copy(path, moved)
    data = json.load(open(moved, encoding="utf-8"))
    data["file"] = "game/sevens.cardrules"
    with open(moved, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    assert reread(capsys, monkeypatch, kind, moved)[0] == 0
    monkeypatch.chdir(tree / "other")            # from elsewhere it is not found
    status, out = reread(capsys, monkeypatch, kind, moved)
    assert status == 1 and "error[RL125]" in out and "cannot find the file " \
        "`game/sevens.cardrules`" in out


# ---- the files rulelang writes ---------------------------------------------------------------

@pytest.fixture
def places(tmp_path):
    """Paths of every kind that rulelang must not write to, and what each is, to see that
    it is left as it was."""
    (tmp_path / "target.txt").write_text(SECRET, encoding="utf-8")
    os.mkfifo(tmp_path / "fifo")
    os.symlink(tmp_path / "target.txt", tmp_path / "link")
    os.symlink(tmp_path / "nowhere.json", tmp_path / "dangling")
    (tmp_path / "folder").mkdir()
    made = ["fifo", "link", "dangling", "folder"]
    try:
        os.mknod(tmp_path / "device", stat.S_IFCHR | 0o600, os.makedev(1, 3))   # as /dev/null
        made.append("device")
    except (OSError, AttributeError):
        pass
    return tmp_path, made


def _kind(path):
    st = os.lstat(path)
    return stat.S_IFMT(st.st_mode)


def _unchanged(tmp_path, made, before):
    assert {name: _kind(tmp_path / name) for name in made} == before
    assert (tmp_path / "target.txt").read_text(encoding="utf-8") == SECRET
    assert not os.path.exists(tmp_path / "nowhere.json")
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


WRITERS = {
    "run --log": lambda path: ["run", SEVENS, "--quiet", "--log", path],
    "play --save": lambda path: ["play", SEVENS, "--seed", "1", "--save", path],
    "stats --report": lambda path: ["stats", SEVENS, "--games", "2", "--report", path],
    "compare --report": lambda path: ["compare", SEVENS, "--b-set", "hand_size=5", "--games",
                                      "2", "--report", path],
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_output_goes_only_to_a_regular_file_or_a_new_path(places, writer, capsys, monkeypatch):
    tmp_path, made = places
    before = {name: _kind(tmp_path / name) for name in made}
    what = {"run": "the log", "play": "the save"}.get(writer.split()[0], "the report")
    refusals = {"fifo": "it is a fifo", "link": "it is a link", "dangling": "it is a link",
                "folder": "it is a folder", "device": "it is a device"}
    for name in made:
        path = str(tmp_path / name)
        status, out = cli(capsys, monkeypatch, *WRITERS[writer](path), stdin="q\n")
        assert status == 2, out
        assert f"error: cannot write {what} to `{path}`: {refusals[name]}" in out
        assert "wins" not in out and "Game saved" not in out        # refused before playing
    _unchanged(tmp_path, made, before)
    for path in (str(tmp_path / "missing" / "x.json"), str(tmp_path / "target.txt" / "x.json")):
        status, out = cli(capsys, monkeypatch, *WRITERS[writer](path), stdin="q\n")
        assert status == 2 and f"error: cannot write {what} to `{path}`: " in out, out


def test_a_log_or_save_replaces_a_regular_file_whole(tmp_path, capsys, monkeypatch):
    log, save = tmp_path / "a.json", tmp_path / "b.json"
    log.write_text("old", encoding="utf-8")
    save.write_text("old", encoding="utf-8")
    assert cli(capsys, monkeypatch, "run", SEVENS, "--quiet", "--log", str(log))[0] == 0
    assert json.loads(log.read_text(encoding="utf-8"))["format"] == "rulelang-log"
    assert cli(capsys, monkeypatch, "play", SEVENS, "--save", str(save), stdin="q\n")[0] == 0
    assert json.loads(save.read_text(encoding="utf-8"))["format"] == "rulelang-save"
    assert os.stat(save).st_mode & 0o077 == 0 and sorted(os.listdir(tmp_path)) == ["a.json",
                                                                                  "b.json"]


def test_save_typed_during_play_to_a_link_is_refused_and_play_goes_on(places, capsys,
                                                                      monkeypatch):
    tmp_path, made = places
    before = {name: _kind(tmp_path / name) for name in made}
    link, fifo = tmp_path / "link", tmp_path / "fifo"
    status, out = cli(capsys, monkeypatch, "play", SEVENS, "--seed", "1",
                      stdin=f"save {link}\nsave {fifo}\nsave {tmp_path / 'ok.json'}\nq\n")
    assert status == 0
    assert f"cannot write the save to `{link}`: it is a link" in out
    assert f"cannot write the save to `{fifo}`: it is a fifo" in out
    assert out.count("Game saved to") == 1 and os.path.isfile(tmp_path / "ok.json")
    _unchanged(tmp_path, made, before)


def test_a_path_swapped_for_a_link_while_writing_is_not_replaced(tmp_path, monkeypatch):
    """The check is made again just before the rename."""
    path = tmp_path / "out.json"
    real_fdopen = os.fdopen

    def swap(fd, *a, **k):
        os.symlink(tmp_path / "elsewhere", path)
        return real_fdopen(fd, *a, **k)
    monkeypatch.setattr(loader.os, "fdopen", swap)
    with pytest.raises(loader.OutputError, match="it is a link"):
        loader.write_whole(str(path), "text", "the log")
    assert os.path.islink(path) and os.listdir(tmp_path) == ["out.json"]


# ---- Ctrl-C during `play --save` -------------------------------------------------------------

PROMPT = r"Choose 1-\d+ \(\? the whole table, q to quit\): "


def _spawn(*argv):
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(sys.executable, ["-m", "rulelang", *argv], cwd=ROOT, encoding="utf-8",
                         timeout=60, dimensions=(50, 100),
                         env=dict({k: v for k, v in os.environ.items()
                                   if k not in ("COLUMNS", "LINES")}, NO_COLOR="1",
                                  PYTHONPATH=ROOT))


def _played_to_third_prompt(save, stop):
    """`play --save SAVE` through a pseudo-terminal: two moves, then ``stop`` at the third
    prompt (a line such as `q`, or None for Ctrl-C); (exit status, what was shown)."""
    import pexpect
    child = _spawn("play", CRAZY, "--seed", "4", "--save", save)
    for _ in range(2):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    if stop is None:
        child.sendintr()
    else:
        child.sendline(stop)
    child.expect(pexpect.EOF)
    text = child.before
    child.close()
    return child.exitstatus, text


def test_ctrl_c_during_play_with_save_saves_the_game_and_exits_130(tmp_path):
    from rulelang.play.saves import read_save
    quit_save, ctrl_c_save = str(tmp_path / "q.json"), str(tmp_path / "c.json")
    status, text = _played_to_third_prompt(quit_save, "q")
    assert status == 0 and f"Game saved to {quit_save}" in text
    status, text = _played_to_third_prompt(ctrl_c_save, None)
    assert status == 130, text
    assert f"Game saved to {ctrl_c_save}; go on with `rulelang play --resume {ctrl_c_save}`" \
        in text and "abandoned" not in text
    q, c = read_save(quit_save), read_save(ctrl_c_save)
    assert c["state"] == q["state"] and c["agent_states"] == q["agent_states"]
    assert c["seed"] == q["seed"] and c["seat"] == q["seat"]
    # and it goes on from there
    import pexpect
    child = _spawn("play", "--resume", ctrl_c_save)
    child.expect(PROMPT)
    assert "(the game saved in" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_without_save_still_abandons_with_130(tmp_path):
    import pexpect
    child = _spawn("play", CRAZY, "--seed", "4")
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Game abandoned (interrupted)." in child.before


def test_ctrl_c_is_held_back_while_a_move_is_applied():
    """A game is saved between two moves, never in the middle of one: Ctrl-C while a move is
    applied is raised once it is done; a second Ctrl-C stops it at once, and is not saved."""
    import signal
    from rulelang.cli.common import Interrupts
    it, done = Interrupts(), []
    with pytest.raises(KeyboardInterrupt):
        with it.held():
            os.kill(os.getpid(), signal.SIGINT)
            done.append("the rest of the move")
    assert done == ["the rest of the move"] and not it.torn
    with pytest.raises(KeyboardInterrupt):
        with it.held():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            done.append("not reached")
    assert done == ["the rest of the move"] and it.torn
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("kind", ["log", "save"])
def test_a_log_or_save_of_a_game_whose_base_is_in_an_include_folder(tmp_path, kind, capsys,
                                                                    monkeypatch):
    """Its digest is of the files found as the game found them (with --include)."""
    (tmp_path / "g").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(SEVENS, tmp_path / "b" / "base.cardrules")
    (tmp_path / "g" / "v.cardrules").write_text('extends "base.cardrules"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    path = f"x.{kind}.json"
    if kind == "log":
        status, out = cli(capsys, monkeypatch, "run", "g/v.cardrules", "--include", "b",
                          "--quiet", "--log", path)
    else:
        status, out = cli(capsys, monkeypatch, "play", "g/v.cardrules", "--include", "b",
                          "--save", path, stdin="q\n")
    assert status == 0 and "error" not in out, out
    status, out = reread(capsys, monkeypatch, kind, path, "--include", "b")
    assert status == 0, out


# ---- a log or save itself: a regular file, bounded in size and depth -------------------------

@pytest.mark.parametrize("command", [["replay", "{p}", "--to-end"], ["play", "--resume", "{p}"]])
def test_a_log_or_save_that_is_a_fifo_is_not_opened(tmp_path, command):
    """In a subprocess with a time limit: a fifo opened for reading waits for a writer."""
    os.mkfifo(tmp_path / "game.json")
    argv = [w.format(p=tmp_path / "game.json") for w in command]
    p = subprocess.run([sys.executable, "-m", "rulelang", *argv], capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, PYTHONPATH=ROOT, NO_COLOR="1"))
    assert p.returncode == 1 and "RL520" in p.stdout + p.stderr
    assert "not a regular file" in p.stdout + p.stderr


@pytest.mark.parametrize("command", [["replay", "{p}", "--to-end"], ["play", "--resume", "{p}"]])
def test_a_log_or_save_beyond_the_size_limit_is_refused_unread(tmp_path, command, capsys,
                                                               monkeypatch):
    from rulelang import limits
    path = tmp_path / "game.json"
    with open(path, "wb") as fh:          # sparse: as large as the limit says, nothing written
        fh.truncate(limits.MAX_GAME_FILE_BYTES + 1)
    read = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: read.append(p) or real_open(p, *a, **k))
    status, out = cli(capsys, monkeypatch, *[w.format(p=path) for w in command])
    assert status == 1 and "error[RL520]" in out and "too large" in out
    assert str(path) not in read          # refused from its size, never opened


def test_a_log_nested_too_deeply_is_rl520_not_an_internal_error(tmp_path, capsys, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    status, out = cli(capsys, monkeypatch, "replay", str(path), "--to-end")
    assert status == 1 and "error[RL520]" in out and "nested too deeply" in out
