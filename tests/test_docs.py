"""The documentation is true, and stays true.

- every ```cardrules block that is a whole game (`game "..."` with a `turn:`) checks without
  errors and plays to its end;
- every other ```cardrules block parses, as it stands or as the body of a rule or of a `choose`
  (a fragment); the "Wrong" examples of the syntax errors in errors.md do not;
- the snippets of docs/language.md said to come from the seed games' rule files are lines of
  those files, and the tutorial builds exactly examples/sevens.cardrules;
- every error code documented in rulelang/errors.md is emitted by rulelang/ and vice versa;
- every `rulelang ...` command shown in README.md, docs/tutorial.md and docs/games/*.md runs
  and exits with status 0, or the one its comment gives (with fewer games, `play` answered `q`);
- every rule file has a page in docs/games/ that names it and numbers as many decisions as the
  files of that game have `DECISION:` comments; the pages' rule-line counts, option tables and
  the declarations they name agree with the files;
- the table of games (docs/games/README.md: players, options, pages), README.md's JSON example and the diagnostic shown
  after `rulelang check` are what rulelang says; every repository path the docs name exists.
"""
import glob
import io
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap

import pytest

from rulelang.cli.commands import main
from rulelang.syntax.recover import without_comment
from rulelang.compile.loader import check_file, load
from rulelang.syntax.parser import parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ([os.path.join(ROOT, "README.md")]
        + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
        + sorted(glob.glob(os.path.join(ROOT, "docs", "games", "*.md"))))
ERRORS_MD = os.path.join(ROOT, "rulelang", "errors.md")
RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules")))


def rel(path):
    return os.path.relpath(path, ROOT)


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def fenced(text, lang):
    """(line number of the first line, text) of every ```lang block ("": blocks without a language)."""
    inside, start, body = None, 0, []
    for i, line in enumerate(text.splitlines(), 1):
        if inside is None and line.startswith("```"):
            inside, start, body = line[3:].strip(), i + 1, []
        elif inside is not None and line.rstrip() == "```":
            if inside == lang:
                yield start, "".join(l + "\n" for l in body)
            inside = None
        elif inside is not None:
            body.append(line)


def is_whole_game(block):
    return block.startswith('game "') and re.search(r"^turn:", block, re.M) is not None


def strip_comment(line):
    """The line without its `# comment` (a `#` inside a quoted text stays), whitespace-normalised."""
    return " ".join(without_comment(line).split())


def code_lines(text):
    return [n for n in (strip_comment(l) for l in text.splitlines()) if n]


# ---- (a) whole games check clean and play ---------------------------------------------------

WHOLE = [(rel(p), line, b) for p in DOCS if not p.endswith("errors.md")
         for line, b in fenced(read(p), "cardrules") if is_whole_game(b)]


def test_there_are_whole_games_in_the_docs():
    assert {p for p, _l, _b in WHOLE} >= {"README.md", os.path.join("docs", "language.md")}


@pytest.mark.parametrize("doc,line,block", WHOLE, ids=[f"{p}:{l}" for p, l, _b in WHOLE])
def test_whole_game_block_checks_and_plays(tmp_path, doc, line, block):
    path = tmp_path / "doc_game.cardrules"
    path.write_text(block, encoding="utf-8")
    diags, model, _ = check_file(str(path))
    assert model is not None and not [str(d) for d in diags], f"{doc}:{line}: {diags}"
    game = load(str(path))
    for players in sorted({model.players[0], model.players[-1]}):
        for seed in range(3):
            st = game.new_game(players, seed=seed)
            while not st.is_terminal():
                p = st.current_players()[0]
                acts = st.legal_actions(p)
                assert acts, f"{doc}:{line}: no legal choice"
                st.apply_action(acts[seed % len(acts)], p)


def test_language_md_complete_game_is_the_crazy_eights_example():
    doc = read(os.path.join(ROOT, "docs", "language.md"))
    section = doc.split("## A small complete game", 1)[1]
    block = next(b for _l, b in fenced(section, "cardrules"))
    assert code_lines(block) == code_lines(read(os.path.join(ROOT, "examples", "crazy_eights.cardrules")))


# ---- (b) fragments parse ---------------------------------------------------------------------

def parses(text):
    try:
        parse(text, "<doc>")
        return True
    except Exception:                   # RuleFileError (a syntax error) or anything else
        return False


def chunks(text):
    """Split a block at blank lines followed by an unindented line: its separate examples."""
    out, cur = [], []
    for line in text.splitlines():
        if line.strip() and not line[0].isspace() and cur and not cur[-1].strip():
            out.append("\n".join(cur) + "\n")
            cur = []
        cur.append(line)
    if cur:
        out.append("\n".join(cur) + "\n")
    return [c for c in out if c.strip()]


def wrappings(chunk):
    chunk = re.sub(r"(?m)^(\s*)\.\.\.\s*$", r"\1pass", chunk)        # `...` stands for more lines
    yield chunk                                                      # declarations
    yield "rule doc_fragment:\n" + textwrap.indent(chunk, "    ")    # statements
    yield "rule doc_fragment:\n    choose:\n" + textwrap.indent(chunk, "        ")   # alternatives


def parses_as_fragment(text):
    return parses(text) or all(any(parses(w) for w in wrappings(c)) for c in chunks(text))


FRAGMENTS = [(rel(p), line, b) for p in DOCS if not p.endswith("errors.md")
             for line, b in fenced(read(p), "cardrules") if not is_whole_game(b)]


def test_fragment_wrapping_rejects_nonsense():
    assert parses_as_fragment("move top card from stock to hand")
    assert parses_as_fragment("zone hand: per player, seen by owner\n\nshuffle stock\n")
    assert not parses_as_fragment("move top card from stock to")
    assert not parses_as_fragment("zone hand per player")


@pytest.mark.parametrize("doc,line,block", FRAGMENTS, ids=[f"{p}:{l}" for p, l, _b in FRAGMENTS])
def test_fragment_block_parses(doc, line, block):
    assert parses_as_fragment(block), f"{doc}:{line} does not parse:\n{block}"


def error_entries():
    return re.findall(r"^## (RL\d{3}): .*\n((?:(?!^## ).*\n?)*)", read(ERRORS_MD), re.M)


PARSER_LIMITS = ("RL202", "RL203", "RL206")  # limits the parser reports (RL201's example is a sketch)


@pytest.mark.parametrize("code,body", error_entries(), ids=[c for c, _b in error_entries()])
def test_errors_md_examples(code, body):
    """The right example parses; the wrong one of a syntax error (RL0xx) does not.  A code of
    a rule test file has ```cardtest examples: the wrong one is reported with the code, the
    right one checks clean."""
    tests = [b for _l, b in fenced(body, "cardtest")]
    if tests:
        from rulelang.play.cardtest_plan import check_test_file
        assert len(tests) >= 2
        wrong = check_test_file(os.path.join(ROOT, "example.cardtest"), tests[0], base=ROOT)
        assert code in [d.code for d in wrong.diagnostics], f"{code}: the wrong example"
        right = check_test_file(os.path.join(ROOT, "example.cardtest"), tests[-1], base=ROOT)
        assert right.diagnostics == [], f"{code}: the right example: {right.diagnostics}"
        return
    blocks = [b for _l, b in fenced(body, "cardrules")]
    if "There is no example of it" in body:    # a bug of rulelang (RL905, RL999), no rule file's
        assert blocks == []
        return
    assert len(blocks) >= 2
    assert parses_as_fragment(blocks[-1]), f"{code}: the right example does not parse"
    if code.startswith("RL0") or code in PARSER_LIMITS:
        assert not parses_as_fragment(blocks[0]), f"{code}: the wrong example parses"
    else:
        assert parses_as_fragment(blocks[0]), f"{code}: the wrong example is a syntax error"


# ---- (b) snippets said to come from the rule files ------------------------------------------

GAME_OF_HEADING = {"CIQ": "ciq", "Internecine": "internecine", "Follow the Leader": "follow_the_leader",
                   "Mages Wild": "mages_wild", "Attack!": "attack"}


def mechanics_sections():
    doc = read(os.path.join(ROOT, "docs", "language.md"))
    part = doc.split("## How the hard mechanics of the seed games are written", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^### (.*)\n((?:(?!^### ).*\n?)*)", part, re.M)


@pytest.mark.parametrize("heading,body", mechanics_sections(), ids=[h for h, _b in mechanics_sections()])
def test_mechanics_snippet_lines_are_in_the_rule_files(heading, body):
    games = [g for name, g in GAME_OF_HEADING.items() if heading.split(":")[0].find(name) >= 0]
    assert games, f"which game is {heading!r}?"
    files = [f for g in games for f in RULE_FILES if os.path.basename(f).startswith(g)]
    said = re.findall(r"rules/(\w+\.cardrules)", body)        # "from `rules/X.cardrules`"
    if said:
        files = [os.path.join(ROOT, "rules", f) for f in said]
    real = {n for f in files for n in code_lines(read(f))}
    blocks = [b for _l, b in fenced(body, "cardrules")]
    assert blocks
    missing = [n for b in blocks for n in code_lines(b) if n not in real]
    assert not missing, f"{heading}: not in {[rel(f) for f in files]}: {missing}"


def top_level_items(text):
    """Each declaration with its indented lines, as a tuple of code lines."""
    items = []
    for line in text.splitlines():
        code = strip_comment(line)
        if not code:
            continue
        if line[0].isspace() and items:
            items[-1].append(code)
        else:
            items.append([code])
    return [tuple(i) for i in items]


def test_tutorial_builds_the_sevens_example():
    tut = read(os.path.join(ROOT, "docs", "tutorial.md"))
    blocks = [b for _l, b in fenced(tut, "cardrules")]
    variant = [b for b in blocks if "extends" in b]
    base = [b for b in blocks if "extends" not in b]
    assert len(variant) == 1
    strict = code_lines(read(os.path.join(ROOT, "examples", "sevens_strict.cardrules")))
    built = {}                          # a later `setup:` (step 8) replaces the first (step 3)
    for b in base:
        for item in top_level_items(b):
            built[item[0]] = item
    assert sorted(built.values()) == sorted(top_level_items(read(os.path.join(ROOT, "examples", "sevens.cardrules"))))
    assert code_lines(variant[0]) == strict
    # steps 1-5, one after the other, are a game that checks clean (step 8 adds the option)
    first = "\n".join(b for b in base if "hand_size" not in b)
    diags, model, _ = check_file("tutorial.cardrules", text=first)
    assert model is not None and not [str(d) for d in diags]


# ---- (c) error codes: documented <-> emitted ---------------------------------------------------

def test_error_codes_documented_and_emitted_agree():
    documented = {c for c, _b in error_entries()}
    emitted = set()
    for src in glob.glob(os.path.join(ROOT, "rulelang", "**", "*.py"), recursive=True):
        emitted |= set(re.findall(r'"(RL\d{3})"', read(src)))
    assert sorted(documented - emitted) == [], "documented in errors.md but emitted nowhere"
    assert sorted(emitted - documented) == [], "emitted by rulelang/ but not in errors.md"


# ---- (d) the command lines of the docs run -------------------------------------------------

def shown_commands():
    """(doc, command line, working directory) of every `rulelang ...` line in a ```sh block.
    A command expected to fail says so in its comment: `# exit status 1`.  Commands chained on
    one line with `&&` (`rulelang run ... --log game.json && rulelang replay game.json`) stay
    together, as `A && B`: they run in order."""
    out = []
    for doc, cwd in ([("README.md", ROOT), (os.path.join("docs", "tutorial.md"), os.path.join(ROOT, "examples"))]
                     + [(rel(p), ROOT) for p in sorted(glob.glob(os.path.join(ROOT, "docs", "games", "*.md")))]):
        for _l, block in fenced(read(os.path.join(ROOT, doc)), "sh"):
            for line in block.splitlines():
                status = re.search(r"#.*\bexit status (\d+)", line)
                parts = [part.strip() for part in strip_comment(line).split("&&")
                         if part.strip().startswith("rulelang ")]
                if parts:
                    out.append((doc, " && ".join(parts), cwd, int(status.group(1)) if status else 0))
    return out


COMMANDS = shown_commands()


def test_commands_are_found():
    docs = {d for d, _c, _w, _s in COMMANDS}
    assert "README.md" in docs and os.path.join("docs", "tutorial.md") in docs
    assert len(docs) >= 7 and len(COMMANDS) >= 40


def runnable(command, cwd):
    """argv for a shown command: globs expanded, fewer games and simulations, played in this
    process (a pool of worker processes for a handful of games costs more than the games: that
    any number of workers plays the same games is tests/test_stats.py's); and the input."""
    words = shlex.split(command)[1:]
    argv = []
    for i, w in enumerate(words):
        if i > 0 and words[i - 1] in ("--games", "--simulate"):
            w = str(min(int(w), 10 if words[i - 1] == "--games" else 3))
        if any(ch in w for ch in "*?") and not w.startswith("-"):
            found = sorted(glob.glob(os.path.join(cwd, w)))
            assert found, f"{w} names no file"
            argv += [os.path.relpath(f, cwd) for f in found]
        else:
            argv.append(w)
    if {"--games", "--simulate"} & set(words) and not {"--workers", "-w", "--ray"} & set(words):
        argv += ["--workers", "1"]
    return argv, ("q\n" if words[0] == "play" else "")


def run_shown(command, cwd, monkeypatch, capsys):
    """Run a command the docs show, in process, as `rulelang` would run it from `cwd` (a
    subprocess each costs a second); (exit status, stdout, stderr)."""
    argv, stdin = runnable(command, cwd)
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("doc,command,cwd,expected", COMMANDS, ids=[f"{d}: {c}" for d, c, _w, _s in COMMANDS])
def test_shown_command_runs(doc, command, cwd, expected, monkeypatch, capsys):
    """Each command of a chain in order; a file a chain writes (a log) is removed afterwards."""
    before = set(os.listdir(cwd))
    try:
        parts = command.split(" && ")
        for i, part in enumerate(parts):
            status, out, err = run_shown(part, cwd, monkeypatch, capsys)
            want = expected if i == len(parts) - 1 else 0
            assert status == want, f"{doc}: {part}\n{out[-2000:]}\n{err[-2000:]}"
    finally:
        for name in set(os.listdir(cwd)) - before:          # only a file the chain names
            if name in command.split() and os.path.isfile(os.path.join(cwd, name)):
                os.remove(os.path.join(cwd, name))


def test_shown_check_output_is_what_check_prints(tmp_path):
    """The diagnostic shown after `rulelang check` (README, tutorial): sevens.cardrules with
    `stock` mistyped `stok` in the draw."""
    text = read(os.path.join(ROOT, "examples", "sevens.cardrules"))
    broken = text.replace("move top card from stock to hand", "move top card from stok to hand")
    assert broken != text
    (tmp_path / "sevens.cardrules").write_text(broken, encoding="utf-8")
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, "-m", "rulelang", "check", "sevens.cardrules"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert p.returncode == 1
    for doc in ("README.md", os.path.join("docs", "tutorial.md")):
        shown = [b for _l, b in fenced(read(os.path.join(ROOT, doc)), "") if "error[RL101]" in b]
        assert len(shown) == 1, doc
        for line in shown[0].splitlines():
            assert line.rstrip() in [l.rstrip() for l in p.stdout.splitlines()], f"{doc}: {line!r}\n{p.stdout}"


# ---- (e) every rule file's decisions are on its game's page ----------------------------------

DECISION = re.compile(r"DECISION( \([^)]*\))?:")


def page_of(rule_file):
    """docs/games/<longest prefix of the file's name with a page>.md"""
    parts = os.path.basename(rule_file)[:-len(".cardrules")].split("_")
    for k in range(len(parts), 0, -1):
        page = os.path.join(ROOT, "docs", "games", "_".join(parts[:k]) + ".md")
        if os.path.exists(page):
            return page
    return None


@pytest.mark.parametrize("path", RULE_FILES, ids=[os.path.basename(p) for p in RULE_FILES])
def test_rule_file_has_a_page_that_names_it(path):
    page = page_of(path)
    assert page, f"no page in docs/games/ for {rel(path)}"
    assert os.path.basename(path) in read(page)


PAGES = sorted({page_of(f) for f in RULE_FILES if page_of(f)})


@pytest.mark.parametrize("page", PAGES, ids=[os.path.basename(p) for p in PAGES])
def test_page_numbers_every_decision_of_its_files(page):
    files = [f for f in RULE_FILES if page_of(f) == page]
    in_rules = sum(len(DECISION.findall(read(f))) for f in files)
    doc = read(page)
    assert "## Decisions" in doc
    section = doc.split("## Decisions", 1)[1].split("\n## ", 1)[0]
    numbered = [int(n) for n in re.findall(r"^(\d+)\. ", section, re.M)]
    assert numbered == list(range(1, len(numbered) + 1)), "decisions are numbered 1, 2, 3 ..."
    assert in_rules == len(numbered), (
        f"{[os.path.basename(f) for f in files]} have {in_rules} DECISION comments, "
        f"{rel(page)} numbers {len(numbered)} decisions")


# ---- docs/games/README.md: the table of games -----------------------------------------------------------

GAMES_PAGE = os.path.join(ROOT, "docs", "games", "README.md")


def readme_game_rows():
    """The rows of the table of games (docs/games/README.md, which the README links): rule file
    -> its cells, the links made relative to the project's folder."""
    rows = {}
    for line in read(GAMES_PAGE).splitlines():
        m = re.match(r"\| \[`((?:rules|examples)/\w+\.cardrules)`\]\(\.\./\.\./\1\) \|(.*)\|\s*$", line)
        if m:
            cells = [c.strip() for c in m.group(2).split("|")]
            rows[m.group(1)] = cells
    return rows


def test_the_games_page_lists_every_game_with_its_players_options_and_page():
    rows = readme_game_rows()
    files = sorted(rel(f) for f in RULE_FILES + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))
    assert sorted(rows) == files
    for path, (_name, players, options, page) in rows.items():
        diags, model, _ = check_file(os.path.join(ROOT, path))
        assert model is not None, path
        low, high = model.players
        assert players == (str(low) if low == high else f"{low}–{high}"), path
        assert set(re.findall(r"`(\w+)`", options)) == set(model.options), path
        for link in re.findall(r"\]\(([^)]+)\)", page):
            assert os.path.exists(os.path.join(os.path.dirname(GAMES_PAGE), link)), f"{path}: {link}"
        if path.startswith("rules/"):
            assert f"({os.path.basename(page_of(os.path.join(ROOT, path)))})" in page, path
    assert "docs/games/README.md" in read(os.path.join(ROOT, "README.md"))


def test_readme_json_example_is_what_run_prints(capsys):
    shown = next(b for _l, b in fenced(read(os.path.join(ROOT, "README.md")), "json"))
    expected = json.loads(shown)
    assert main(["run", os.path.join(ROOT, "examples", "crazy_eights.cardrules"), "--json",
                 "--seed", str(expected["seed"]), "--players", str(expected["players"])]) == 0
    assert json.loads(capsys.readouterr().out) == expected


# ---- every file the docs name exists -----------------------------------------------------------

PATH_RE = re.compile(r"(?<![\w/.])((?:rules|examples|tests|docs|rulelang|benchmarks|grammar)/[\w./*<>{},-]*[\w*>}])")


def expand_braces(p):
    m = re.search(r"\{([^{}]*)\}", p)
    if not m:
        return [p]
    return [q for alt in m.group(1).split(",") for q in expand_braces(p[:m.start()] + alt + p[m.end():])]


def git_ignored(path):
    """Files the repository never holds (they are made by running something, e.g. the
    benchmark's results): named in the docs, but absent from a fresh clone."""
    import fnmatch
    pats = [ln.strip().rstrip("/") for ln in read(os.path.join(ROOT, ".gitignore")).splitlines()
            if ln.strip() and not ln.startswith("#")]
    parts = path.split("/")
    return any(fnmatch.fnmatch("/".join(parts[:i]), pat) or fnmatch.fnmatch(parts[i - 1], pat)
               for pat in pats for i in range(1, len(parts) + 1))


@pytest.mark.parametrize("doc", [rel(p) for p in DOCS])
def test_every_path_named_exists(doc):
    here = os.path.dirname(os.path.join(ROOT, doc))
    missing = []
    for m in PATH_RE.finditer(read(os.path.join(ROOT, doc))):
        if git_ignored(m.group(1)):
            continue
        for p in expand_braces(m.group(1)):
            pattern = re.sub(r"<[^>]*>", "*", p)
            if not (glob.glob(os.path.join(ROOT, pattern)) or glob.glob(os.path.join(here, pattern))):
                missing.append(m.group(1))
    assert not missing, f"{doc} names files that do not exist: {missing}"


def test_rule_line_counts_on_the_game_pages():
    """The pages' tables of files give each file's lines that are neither blank nor comments."""
    rows = [(page, m.group(1), int(m.group(2)))
            for page in sorted(glob.glob(os.path.join(ROOT, "docs", "games", "*.md")))
            for m in re.finditer(r"^\| `(rules/\w+\.cardrules)` \|.*\| (\d+) \|\s*$", read(page), re.M)]
    assert len(rows) >= len(RULE_FILES) - 1
    for page, path, shown in rows:
        lines = [l for l in read(os.path.join(ROOT, path)).splitlines() if l.strip() and not l.strip().startswith("#")]
        assert shown == len(lines), f"{rel(page)}: {path} has {len(lines)} rule lines, not {shown}"


def test_option_tables_on_the_game_pages():
    """Each row `| `name` | `default` | ...` of a page's Options table is an option of one of the
    page's files, with that default; and every option of the page's files has its row."""
    def shown(v):
        return ("yes" if v else "no") if isinstance(v, bool) else str(v)
    for page in PAGES:
        doc = read(page)
        if "## Options" not in doc:
            continue
        table = doc.split("## Options", 1)[1].split("\n## ", 1)[0]
        rows = dict(re.findall(r"^\| `(\w+)`[^|]*\| `([^`]*)` \|", table, re.M))
        options = {}
        for f in RULE_FILES:
            if page_of(f) == page and "replace option" not in read(f):
                _d, model, _ = check_file(f)
                options.update({n: shown(o.decl.default) for n, o in model.options.items()})
        assert rows == options, rel(page)


@pytest.mark.parametrize("page", PAGES, ids=[os.path.basename(p) for p in PAGES])
def test_declarations_named_on_a_page_exist(page):
    """`rule X`, `define X`, `zone X`, `var X`, `attribute X`, `option X` on a game's page are
    declared in one of its files."""
    text = "\n".join(read(f) for f in RULE_FILES if page_of(f) == page)
    missing = [f"{kind} {name}" for kind, name in
               re.findall(r"`(?:replace )?(rule|define|zone|var|attribute|option) (\w+)", read(page))
               if not re.search(rf"^(?:replace )?{kind} {name}\b", text, re.M)]
    assert not missing, f"{rel(page)} names what its files do not declare: {missing}"


# Commands that start a server and run until they are stopped: tests/test_web_cli.py and
# tests/test_lsp.py start them; the docs test runs only their --help.
SERVERS = ("serve", "lsp")


def inline_commands():
    """`rulelang ...` written inside a sentence, when it names no placeholder (FILE, N, CODE):
    (doc, command, working directory, expected status, code it reports).  "`...` reports RLnnn"
    means exit status 1 with that code."""
    out = []
    for path in DOCS:
        doc = rel(path)
        cwd = os.path.join(ROOT, "examples") if doc.endswith("tutorial.md") else ROOT
        text = read(path)
        for m in re.finditer(r"`(rulelang [^`]*)`", text):
            words = m.group(1).split()
            if any(re.fullmatch(r"[A-Z]+", w) for w in words) or (len(words) < 3 and "--help" not in words):
                continue
            if words[1] in SERVERS and "--help" not in words:
                continue        # (a server runs until stopped: its own tests start it)
            reports = re.match(r"\s*reports (RL\d{3})", text[m.end():m.end() + 40])
            out.append((doc, m.group(1), cwd, 1 if reports else 0, reports.group(1) if reports else None))
    return out


# A command written in a sentence that a ```sh block of the docs also shows, in the same folder
# and with the same exit status expected (and no code to look for), is run once, by
# test_shown_command_runs: run again here it would prove nothing more, and a game page's
# `check --simulate 50` costs seconds.
_SHOWN = {(command, cwd, expected) for _doc, command, cwd, expected in COMMANDS}
INLINE = [(doc, command, cwd, expected, code) for doc, command, cwd, expected, code in inline_commands()
          if code is not None or (command, cwd, expected) not in _SHOWN]


@pytest.mark.parametrize("doc,command,cwd,expected,code", INLINE, ids=[f"{d}: {c}" for d, c, *_r in INLINE])
def test_inline_command_runs(doc, command, cwd, expected, code, monkeypatch, capsys):
    status, out, err = run_shown(command, cwd, monkeypatch, capsys)
    assert status == expected, f"{doc}: {command}\n{out[-2000:]}\n{err[-2000:]}"
    if code:
        assert code in out + err, f"{doc}: {command} does not report {code}"


def test_language_md_snippets_that_name_their_file_are_lines_of_it():
    """A block of docs/language.md whose paragraph just before names `rules/X.cardrules` or
    `examples/X.cardrules`, or that has comment lines `# X.cardrules`, is made of lines of those
    files (comments aside)."""
    text = read(os.path.join(ROOT, "docs", "language.md"))
    lines = text.splitlines()
    checked = 0
    for start, block in fenced(text, "cardrules"):
        before = "\n".join(lines[:start - 2]).rsplit("```", 1)[-1].rstrip().rsplit("\n\n", 1)[-1]
        named = re.findall(r"((?:rules|examples)/\w+\.cardrules)", before)
        named += [f"rules/{f}" for f in re.findall(r"^#\s*(\w+\.cardrules)\b", block, re.M)]
        named = [n for n in named if os.path.exists(os.path.join(ROOT, n))]
        if not named:
            continue
        real = {n for f in named for n in code_lines(read(os.path.join(ROOT, f)))}
        missing = [n for n in code_lines(block) if n not in real]
        assert not missing, f"docs/language.md:{start}: not in {named}: {missing}"
        checked += 1
    assert checked >= 8


ALL_RULE_FILES = RULE_FILES + sorted(glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))


@pytest.mark.parametrize("path", ALL_RULE_FILES, ids=[rel(p) for p in ALL_RULE_FILES])
def test_rule_files_check_without_errors_or_warnings(path):
    """The game pages say `rulelang check` finds "no errors, no warnings" in the rule files."""
    diags, model, _ = check_file(path)
    assert model is not None and [str(d) for d in diags] == []


# ---- README: a newcomer's page ----------------------------------------------------------------

def test_readme_is_a_short_page_for_a_newcomer():
    """About 200 lines: what rulelang is, the install in a virtual environment, the games, one
    short section per command, the agents and the links; the rest is in docs/."""
    text = read(os.path.join(ROOT, "README.md"))
    assert len(text.splitlines()) <= 210
    headings = re.findall(r"^#{2,3} (.*)$", text, re.M)
    for command in ("run", "play", "check", "explain", "test", "replay", "stats", "compare",
                    "rulebook", "lsp", "serve"):
        assert any(f"`{command}`" in h for h in headings), command
    for agent in ("random", "first", "mc", "ismcts"):
        assert f"- `{agent}`" in text, agent
    assert "docs/tutorial.md" in text and "python -m venv .venv && . .venv/bin/activate" in text


def test_readme_test_command_is_what_ci_runs():
    """The README's two commands: one installs and runs the main job, one installs with the
    test extras and runs the tests, and .ci/run runs that second one, extras and options alike."""
    lines = [l for _l, b in fenced(read(os.path.join(ROOT, "README.md")), "sh") for l in b.splitlines()]
    install = [strip_comment(l) for l in lines if strip_comment(l).startswith("pip install ")]
    assert install[0] == "pip install . && rulelang run rules/ciq.cardrules"
    extras, tests = re.fullmatch(r"pip install (\S+) && (python -m pytest .*)", install[1]).groups()
    ci = read(os.path.join(ROOT, ".ci", "run"))
    assert re.search(rf"^python -m pip install -q {re.escape(extras)}$", ci, re.M), ci
    assert re.search(rf"^{re.escape(tests)}$", ci, re.M), ci
