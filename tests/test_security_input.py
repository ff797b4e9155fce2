"""Rule files are untrusted input (docs/security.md): what `extends` may read, the size limit of a
rule file, its encoding and indentation, text made safe for the terminal, the cap on printed
diagnostics, usage errors."""
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from rulelang.compile import loader
from rulelang.cli.commands import main
from rulelang.compile.loader import MAX_FILE_BYTES, check_file, load, read_rule_bytes
from rulelang.cli.render import forget_sources
from rulelang.termsafe import is_safe, safe, safe_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEVENS = os.path.join(ROOT, "examples", "sevens.cardrules")
SECRET = "TOPSECRET_LINE"          # the first line of files that must never be read


@pytest.fixture(autouse=True)
def _fresh_sources():
    forget_sources()
    yield
    forget_sources()


def codes(diags):
    return [d.code for d in diags]


# ---- extends: only regular .cardrules files inside the allowed folders ----------------------

@pytest.fixture
def tree(tmp_path):
    """tmp/game/ (the folder of the checked file), tmp/other/ (outside it, with a good base and a
    secret), links and special files inside game/."""
    game, other = tmp_path / "game", tmp_path / "other"
    game.mkdir()
    other.mkdir()
    shutil.copy(SEVENS, other / "base.cardrules")
    shutil.copy(SEVENS, game / "inside.cardrules")
    (game / "sub").mkdir()
    shutil.copy(SEVENS, game / "sub" / "deep.cardrules")
    (other / "secret.cardrules").write_text(SECRET + "\n", encoding="utf-8")
    (game / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    os.symlink(other / "secret.cardrules", game / "link_out.cardrules")
    os.symlink(other / "gone.cardrules", game / "dangling_out.cardrules")
    os.symlink(game / "inside.cardrules", game / "link_in.cardrules")
    os.symlink("/dev/zero", game / "zero.cardrules")
    os.mkfifo(game / "fifo.cardrules")
    (game / "folder.cardrules").mkdir()
    return tmp_path


def variant(tree, base, name="v.cardrules", folder="game"):
    path = tree / folder / name
    path.write_text(f'extends "{base}"\n', encoding="utf-8")
    return str(path)


REFUSED = ["/etc/passwd", "/proc/self/environ", "/dev/zero", "/no/such/file.cardrules",
           "{tree}/other/base.cardrules", "{tree}/game/inside.cardrules",
           "../other/base.cardrules", "../other/gone.cardrules", "sub/../../other/secret.cardrules",
           "link_out.cardrules", "dangling_out.cardrules", "zero.cardrules", "fifo.cardrules",
           "folder.cardrules", "secret.txt", "inside.cardrules.bak", "", "~/x.cardrules"]


@pytest.mark.parametrize("base", REFUSED)
def test_refused_paths_get_one_message_that_reveals_nothing(tree, base, monkeypatch):
    base = base.format(tree=tree)
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: opened.append(str(p)) or real_open(p, *a, **k))
    path = variant(tree, base)
    diags, model, _ = check_file(path)
    assert model is None and codes(diags) == ["RL128"]
    d = diags[0]
    # the same words whatever the path is, exists or not, is or is not a file: only the name
    # as written in the rule file differs
    assert d.message == f"cannot use `{base}`: " + loader._REFUSED and d.hint == loader._REFUSED_HINT
    assert d.span.line == 1 and d.span.file.endswith("v.cardrules")
    assert opened == [path], f"opened {opened}"     # decided without opening anything else


def test_refusal_does_not_tell_whether_the_path_exists(tree):
    a, _m, _ = check_file(variant(tree, "../other/base.cardrules", "a.cardrules"))
    b, _m, _ = check_file(variant(tree, "../other/nope.cardrules", "b.cardrules"))
    assert [(d.code, d.message.replace("base", "X"), d.hint) for d in a] == \
        [(d.code, d.message.replace("nope", "X"), d.hint) for d in b]


@pytest.mark.parametrize("base", ["inside.cardrules", "link_in.cardrules", "sub/deep.cardrules",
                                  "sub/../inside.cardrules", "./inside.cardrules"])
def test_allowed_paths_inside_the_folder(tree, base):
    diags, model, _ = check_file(variant(tree, base))
    assert model is not None and not [d for d in diags if d.is_error], diags


def test_missing_file_inside_the_folder_is_still_rl125(tree):
    diags, _m, _ = check_file(variant(tree, "sub/nothing.cardrules"))
    assert codes(diags) == ["RL125"] and "nothing.cardrules" in diags[0].message


def test_cli_never_prints_what_it_refused(tree, capsys):
    for base in ("../other/secret.cardrules", "link_out.cardrules", "secret.txt"):
        path = variant(tree, base)
        for cmd in (["check", path], ["run", path], ["check", "--json", path], ["run", "--json", path]):
            assert main(cmd) == 1
            cap = capsys.readouterr()
            assert SECRET not in cap.out + cap.err and "RL128" in cap.out + cap.err


def test_include_folder_lets_extends_read_there(tree, capsys, monkeypatch):
    path = variant(tree, "base.cardrules")
    assert codes(check_file(path)[0]) == ["RL125"]            # not next to the variant
    diags, model, _ = check_file(path, include=[str(tree / "other")])
    assert model is not None and not diags
    game = load(path, include=[str(tree / "other")])
    assert game.name == "Sevens in a Row" and game.include == (str(tree / "other"),)
    # the variant's own folder comes first; an include folder is searched after it
    assert main(["check", path, "--include", str(tree / "other")]) == 0
    assert main(["check", "--simulate", "2", path, "--include", str(tree / "other")]) == 0
    assert main(["run", "--quiet", path, "--include", str(tree / "other")]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", path, "--agents", "first", "--include", str(tree / "other")]) == 0
    capsys.readouterr()
    # an include folder does not open the rest of the file system
    diags, _m, _ = check_file(variant(tree, "../game/fifo.cardrules", "w.cardrules"),
                              include=[str(tree / "other")])
    assert codes(diags) == ["RL128"]
    assert main(["check", path, "--include", str(tree / "nope")]) == 2


def test_command_line_file_that_links_outside_its_folder_is_refused(tree, capsys):
    assert main(["check", str(tree / "game" / "link_out.cardrules")]) == 1
    out = capsys.readouterr().out
    assert "RL128" in out and SECRET not in out
    assert main(["check", str(tree / "game")]) == 1         # a folder of contributed files
    out = capsys.readouterr().out
    assert SECRET not in out and "fifo.cardrules` is not a regular file" in out
    assert "zero.cardrules` is not a regular file" in out


def test_fifo_and_dev_zero_do_not_hang(tree):
    """In a subprocess with a time limit: a fifo opened for reading would wait for a writer
    forever, /dev/zero would fill the memory."""
    for name in ("fifo.cardrules", "zero.cardrules"):
        for argv in (["check", name], ["check", variant(tree, name, "x_" + name)]):
            p = subprocess.run([sys.executable, "-m", "rulelang"] + argv, cwd=tree / "game",
                               capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, PYTHONPATH=ROOT, NO_COLOR="1"))
            assert p.returncode == 1, p.stderr


def test_the_prelude_stays_available(tree):
    """`deck standard` comes from the bundled prelude, outside every allowed folder."""
    diags, model, _ = check_file(str(tree / "game" / "inside.cardrules"))
    assert model is not None and not diags
    assert model.deck.name == "standard" and model.suits == ["clubs", "diamonds", "hearts", "spades"]


def test_a_link_swapped_in_after_the_path_was_resolved_is_not_followed(tmp_path):
    """`extends` opens the resolved path without following links, so a file replaced by a link
    between the check and the open is refused, not read."""
    (tmp_path / "secret.cardrules").write_text(SECRET, encoding="utf-8")
    os.symlink(tmp_path / "secret.cardrules", tmp_path / "swapped.cardrules")
    assert read_rule_bytes(str(tmp_path / "swapped.cardrules"), follow=False) == (None, "not-regular")
    assert read_rule_bytes(str(tmp_path / "swapped.cardrules"))[0] == SECRET.encode()


# ---- the size limit --------------------------------------------------------------------------

def test_main_file_over_the_limit(tmp_path, capsys):
    big = tmp_path / "big.cardrules"
    big.write_bytes(open(SEVENS, "rb").read() + b"#" * MAX_FILE_BYTES + b"\n")
    diags, model, _ = check_file(str(big))
    assert codes(diags) == ["RL129"] and "1,048,576 bytes" in diags[0].message
    for cmd in ("check", "run"):
        assert main([cmd, str(big)]) == 1
        cap = capsys.readouterr()
        assert "error[RL129]" in cap.out + cap.err
    assert codes(check_file("t.cardrules", text="#" * (MAX_FILE_BYTES + 1))[0]) == ["RL129"]


def test_a_file_just_under_the_limit_is_read(tmp_path):
    ok = tmp_path / "ok.cardrules"
    data = open(SEVENS, "rb").read()
    ok.write_bytes(data + b"#" * (MAX_FILE_BYTES - len(data) - 1) + b"\n")
    assert os.path.getsize(ok) == MAX_FILE_BYTES
    diags, model, _ = check_file(str(ok))
    assert model is not None and not diags


def test_base_over_the_limit(tmp_path):
    (tmp_path / "huge.cardrules").write_bytes(b"#" * (3 * MAX_FILE_BYTES))
    v = tmp_path / "v.cardrules"
    v.write_text('extends "huge.cardrules"\n', encoding="utf-8")
    diags, _m, _ = check_file(str(v))
    assert codes(diags) == ["RL129"] and diags[0].span.line == 1 and "3,145,728 bytes" in diags[0].message


def test_reads_at_most_limit_plus_one_bytes(monkeypatch):
    """/proc files say they are empty: the size check cannot stop them, the read must."""
    got = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: got.append(n) or real_read(fd, n))
    data, why = read_rule_bytes("/proc/self/status", limit=10)
    assert data is None and why == "too-large" and sum(got) <= 11


# ---- encoding and indentation ------------------------------------------------------------------

def test_bom_is_accepted_silently(tmp_path, capsys):
    p = tmp_path / "bom.cardrules"
    p.write_bytes(b"\xef\xbb\xbf" + open(SEVENS, "rb").read())
    diags, model, _ = check_file(str(p))
    assert model is not None and not diags
    assert main(["check", str(p)]) == 0
    broken = tmp_path / "bom_broken.cardrules"
    broken.write_bytes(b"\xef\xbb\xbfgame \"X\"\nplayers 2 to\n")
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "\ufeff" not in out and "\\ufeff" not in out and ':2:' in out


def test_invalid_utf8_is_a_diagnostic_with_its_place(tmp_path, capsys):
    p = tmp_path / "latin1.cardrules"
    p.write_bytes(b'game "X"\nplayers 2\n# caf\xe9\n')
    diags, _m, _ = check_file(str(p))
    assert codes(diags) == ["RL126"] and (diags[0].span.line, diags[0].span.column) == (3, 6)
    assert "0xe9" in diags[0].message
    for cmd in ("check", "run", "play"):
        assert main([cmd, str(p)]) == 1, cmd
    v = tmp_path / "v.cardrules"
    v.write_text('extends "latin1.cardrules"\n', encoding="utf-8")
    assert codes(check_file(str(v))[0]) == ["RL126"]
    capsys.readouterr()


TAB_FILE = 'game "T"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n' \
           'zone hand: per player, seen by owner\nsetup:\n\tshuffle stock\nturn:\n\tpass\n' \
           'game ends when hand is empty:\n\tend game with winner you\n'


def test_tab_indentation_is_an_error_as_documented():
    diags, model, _ = check_file("t.cardrules", text=TAB_FILE)
    assert model is None and codes(diags) == ["RL002"] and diags[0].span.line == 7
    assert "indented with a tab" in diags[0].message
    # tabs elsewhere are allowed: between words, before a comment, on a blank line
    fine = TAB_FILE.replace("\t", "    ").replace("    shuffle stock", "    shuffle\tstock") \
        + "\t# a comment\n\t\n"
    diags, model, _ = check_file("t.cardrules", text=fine)
    assert model is not None and not [d for d in diags if d.is_error], diags
    # every syntax error is reported, a tab in the indentation among them
    earlier = TAB_FILE.replace("players 2", "players 2 to")
    assert [(d.code, d.span.line) for d in check_file("t.cardrules", text=earlier)[0]] == \
        [("RL001", 2), ("RL002", 7)]


def test_line_numbers_ignore_other_line_breaks(tmp_path, capsys):
    """U+2028, form feed and \\x1c break lines for str.splitlines, not for the parser: the line
    quoted in a diagnostic is the line the parser means."""
    p = tmp_path / "odd.cardrules"
    text = open(SEVENS, encoding="utf-8").read().replace(
        'game "Sevens in a Row"', 'game "Sev\u2028ens\x0c\x1c"').replace(
        "move top card from stock to hand", "move top card from stok to hand")
    p.write_text(text, encoding="utf-8")
    assert main(["check", str(p)]) == 1
    out = capsys.readouterr().out
    assert "stok to hand" in out.split("error[RL101]")[1].splitlines()[1]


# ---- text made safe for the terminal -----------------------------------------------------------

ESC = "\x1b"
EVIL = f'''game "Evil{ESC}[2J{ESC}]0;pwned\x07 [red]Game[/red] \u202eriht"
players 2
option speed = 1 from 1 to 3 "how [bold]fast[/bold]{ESC}[31m"

deck type evil:
    suits bolts "{ESC}[5m[link=http://evil.example]x[/link]", cups "\u202ec\r"
    ranks one = 1 "1{ESC}[0m", two = 2 "2\x85"
    copies 2 of two
    cards shown as "{ESC}[2J{{suit}}\u200f{{rank}}\x9b"

deck evil, into stock

zone stock: shared, face down
zone pile: shared, top face up
zone hand: per player, seen by owner

var count = 0

game ends when hand is empty:
    end game with winner you

setup:
    shuffle stock
    deal 2 from stock to hand of each player
    say "setup{ESC}[2K\rPlayer 2 wins! [red]fake[/red] \u202edlrow"   # {ESC}]0;comment\x07

turn:
    choose:
        play card c from hand:
            move c from hand to pile
            say "played{ESC}]8;;http://evil.example{ESC}\\\\link{ESC}]8;;{ESC}\\\\ \u2066x\u2069"
        wait:
            set count to count + speed
'''
# The same file with a mistake on a line with a hostile comment (its source line is quoted), and
# a file with a syntax error on a raw escape character.
EVIL_BROKEN = EVIL.replace("    shuffle stock\n", f"    shuffle stok   # \u202e{ESC}[2J\n")
EVIL_SYNTAX = EVIL.replace("var count = 0", f"var count = 0 {ESC}[2J")
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def assert_terminal_safe(text, color=False, progress=False):
    if color:       # rich's own colour codes are fine; nothing from the rule file is
        text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    if progress:    # and so are those of its progress bar (on stderr): cursor off/on, up, erase
        text = re.sub(r"\x1b\[\?25[lh]|\x1b\[2K|\x1b\[1A|\r", "", text)
    bad = sorted({hex(ord(c)) for c in UNSAFE.findall(text)})
    assert not bad, f"raw control characters {bad} in:\n{text[:3000]}"


def run_cli(argv, tmp_path, stdin="", color=False):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    env["FORCE_COLOR" if color else "NO_COLOR"] = "1"
    p = subprocess.run([sys.executable, "-m", "rulelang"] + argv, cwd=tmp_path, input=stdin,
                       capture_output=True, text=True, encoding="utf-8", timeout=120, env=env)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture
def evil(tmp_path):
    (tmp_path / "evil.cardrules").write_text(EVIL, encoding="utf-8")
    (tmp_path / "broken.cardrules").write_text(EVIL_BROKEN, encoding="utf-8")
    (tmp_path / "syntax.cardrules").write_text(EVIL_SYNTAX, encoding="utf-8")
    return tmp_path


COMMANDS = [
    (["run", "evil.cardrules", "--seed", "3"], ""),
    (["run", "evil.cardrules", "--json"], ""),
    (["run", "evil.cardrules", "--games", "3"], ""),
    (["play", "evil.cardrules", "--seed", "3"], "1\n" * 30),
    (["play", "evil.cardrules", "--seed", "4"], f"?\n{ESC}[2J\n1\n" * 30),
    (["check", "evil.cardrules", "broken.cardrules", "syntax.cardrules"], ""),
    (["check", "--json", "evil.cardrules", "broken.cardrules", "syntax.cardrules"], ""),
    (["check", "--simulate", "3", "evil.cardrules"], ""),
    (["run", "broken.cardrules"], ""),
    (["explain", f"RL1{ESC}[2J"], ""),
    (["run", "evil.cardrules", "--set", f"sp{ESC}]0;x\x07eed=2"], ""),
]


@pytest.mark.parametrize("color", [False, True], ids=["plain", "colour"])
@pytest.mark.parametrize("argv,stdin", COMMANDS, ids=[" ".join(a[:2]) + str(i) for i, (a, _s) in enumerate(COMMANDS)])
def test_no_raw_control_character_reaches_the_terminal(evil, argv, stdin, color):
    status, out, err = run_cli(argv, evil, stdin, color)
    assert status in (0, 1, 2), err
    assert "Traceback" not in err and "error[RL999]" not in out + err
    assert_terminal_safe(out, color)
    assert_terminal_safe(err, color, progress=color)
    if argv[0] in ("run", "play") and "--json" not in argv and "--games" not in argv and status == 0:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
        assert "Evil\\x1b[2J\\x1b]0;pwned\\x07 [red]Game[/red] \\u202eriht" in plain
        assert "setup\\x1b[2K\\rPlayer 2 wins! [red]fake[/red]" in plain    # markup printed as is
        assert "[link=http://evil.example]x[/link]" in plain
        assert "\\x1b[2J" in plain and "\\u200f" in plain     # card names `shown as` the text says
    if "--json" in argv:
        parsed = json.loads(out)      # still JSON, with the very strings of the rule file
        if argv[0] == "run":
            assert parsed["game"] == "Evil\x1b[2J\x1b]0;pwned\x07 [red]Game[/red] \u202eriht"


def test_check_quotes_hostile_lines_escaped(evil):
    status, out, _err = run_cli(["check", "broken.cardrules", "syntax.cardrules"], evil)
    assert status == 1
    assert "    shuffle stok   # \\u202e\\x1b[2J\n" in out
    assert "error[RL002]: unexpected character `\\x1b`" in out
    assert "| var count = 0 \\x1b[2J\n" in out


def test_safe_escapes_what_acts_on_a_terminal():
    assert safe("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert safe("x\r\ty\x07\x7f\x85\u202e\u2066\u200b\ufeff\u2028") == \
        "x\\r\\ty\\x07\\x7f\\x85\\u202e\\u2066\\u200b\\ufeff\\u2028"
    assert safe("two\nlines") == "two\\nlines" and safe("two\nlines", keep_newlines=True) == "two\nlines"
    for fine in ("7♥ Q♦ über 日本 [red]x[/red] 🂡", "plain ascii: (a) -> b"):
        assert safe(fine) == fine and is_safe(fine)
    assert not is_safe("\x1b")
    s = safe_json({"a": "\x1b\u202e\x85\U000e0001 ok ♥"})
    assert_terminal_safe(s)
    assert json.loads(s) == {"a": "\x1b\u202e\x85\U000e0001 ok ♥"}


# ---- the cap on printed diagnostics --------------------------------------------------------

def many_errors(tmp_path, n):
    head = ('game "Many"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
            'zone hand: per player, seen by owner\nsetup:\n    shuffle stock\n'
            'game ends when hand is empty:\n    end game with winner you\nturn:\n')
    p = tmp_path / "many.cardrules"
    p.write_text(head + "    shuffle stok\n" * n, encoding="utf-8")
    return str(p)


def test_check_prints_at_most_max_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    path = many_errors(tmp_path, 2000)
    assert main(["check", path]) == 1
    out = capsys.readouterr().out
    assert out.count("error[RL101]") == 100
    assert f"{path}: ... and 1,900 more errors (--max-errors N shows more, 0 all)" in out
    assert out.rstrip().endswith("2000 errors, 0 warnings in 1 file")
    assert main(["check", path, "--max-errors", "7"]) == 1
    out = capsys.readouterr().out
    assert out.count("error[RL101]") == 7 and "... and 1,993 more errors" in out
    assert main(["check", path, "--max-errors", "0"]) == 1
    out = capsys.readouterr().out
    assert out.count("error[RL101]") == 2000 and "more error" not in out
    # JSON: 1,000 by default, the rest counted on stderr; the output stays one JSON list
    assert main(["check", "--json", path]) == 1
    cap = capsys.readouterr()
    assert len(json.loads(cap.out)) == 1000 and "... and 1,000 more errors not in the JSON" in cap.err
    assert main(["check", "--json", path, "--max-errors", "0"]) == 1
    assert len(json.loads(capsys.readouterr().out)) == 2000
    assert main(["check", path, "--max-errors", "-1"]) == 2


def test_cap_is_per_file_and_says_which(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    path = many_errors(tmp_path, 3)
    assert main(["check", path, SEVENS, path, "--max-errors", "1"]) == 1
    out = capsys.readouterr().out
    assert out.count(f"{path}: ... and 2 more errors") == 2 and out.count("error[RL101]") == 2
