"""The language server's parts that need no pygls (rulelang/lsp/ but server.py): the line-by-line
reading of declarations agrees with the checker on every rule file, names resolve to what they
mean in a file that does not parse, completion asks the grammar, and `rulelang lsp` without
pygls says how to install it."""
import glob
import importlib.util
import os
import subprocess
import sys
import time

import pytest

from rulelang.cli.commands import main
from rulelang.lsp import complete, navigate, scan
from rulelang.lsp.analysis import DeclarationCache, analyse, bases, variants
from rulelang.syntax import ast as A

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
                    + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


@pytest.mark.parametrize("path", RULE_FILES, ids=[os.path.relpath(p, ROOT) for p in RULE_FILES])
def test_declarations_read_line_by_line_are_the_checkers(path):
    """The zones, variables, rules, defines, options and attributes the scan finds in a file and
    the files it extends are exactly those of the checked model."""
    text = read(path)
    a = analyse(text, path)
    assert a.model is not None and not a.diagnostics
    layers = [navigate.Layer(path, text, tuple(a.symbols))] + bases(path, text)
    found = {}
    for layer in layers:
        for s in scan.flat(layer.symbols):
            found.setdefault(s.kind, set()).add(s.name)
    m = a.model
    zones = {z for z in m.zones if not m.zones[z].family}
    assert found.get("zone", set()) == zones
    assert {f for f in found.get("zone family", set())} == {z.family[0] for z in m.zones.values() if z.family}
    files = {os.path.realpath(layer.path) for layer in layers}
    implicit = {v for v in m.vars if v.startswith(" ")} | ({"out"} if m.players_leave else set()) \
        | ({A.TEAM, A.PARTNER} if m.teams is not None else set())     # kept by the game itself
    assert found.get("var", set()) == {v for v, info in m.vars.items() if v not in implicit
                                       and os.path.realpath(info.decl.span.file) in files}
    assert found.get("option", set()) == set(m.options)
    assert found.get("attribute", set()) == set(m.attributes)
    assert found.get("rule", set()) == set(m.rules) - {"setup", "turn"} - {r for r in m.rules if r.startswith(" ")}


BROKEN = """\
zone stock: shared, face down
zone hand: per player, seen by owner

define good(c) = rank of c is 8

turn:
    choose:
        play card c from hand where good(c):
            let n = size of hand
            move c from hand to stock to
        draw:
            move top card from stock to hand
"""


def at(text, needle, offset=0, nth=0):
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += offset
    return text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1)


def test_names_resolve_in_a_file_that_does_not_parse(tmp_path):
    path = str(tmp_path / "broken.cardrules")
    a = analyse(BROKEN, path)
    assert a.model is None and [d.code for d in a.diagnostics] == ["RL001"]
    t = navigate.target_at(a, *at(BROKEN, "good(c):"))
    assert t.symbol.kind == "define" and navigate.definition(t).line == 3
    t = navigate.target_at(a, *at(BROKEN, "c from hand to stock"))
    assert t.binder is not None and t.binder.what == "card"
    uses = navigate.references(t, a)
    assert [(p.line, p.col) for p in uses] == [at(BROKEN, "c from hand where"), at(BROKEN, "c):"),
                                               at(BROKEN, "c from hand to")]
    t = navigate.target_at(a, *at(BROKEN, "c is 8"))       # the define's own parameter
    assert t.binder.what == "parameter" and t.binder.line == 3
    assert navigate.target_at(a, *at(BROKEN, "play")) is None           # a label names nothing
    assert navigate.target_at(a, *at(BROKEN, "draw")) is None
    t = navigate.target_at(a, *at(BROKEN, "hand", nth=2))
    assert t.symbol.kind == "zone"
    assert len(navigate.references(t, a)) == BROKEN.count("hand")


def test_no_position_of_a_broken_file_fails(tmp_path):
    """Every position of broken texts: what it means and what may come next, never an
    exception."""
    texts = [BROKEN, BROKEN.replace(":", ""), BROKEN[:120], "rule (:\n  \"\n\tx", "zone\n", "",
             "define f(a, = a\nrule r(:\n    f(\n"]
    for i, text in enumerate(texts):
        a = analyse(text, str(tmp_path / f"b{i}.cardrules"))
        layers = navigate.game_layers(a)
        for line, code in enumerate(a.lines + [""]):
            for col in range(len(code) + 1):
                t = navigate.target_at(a, line, col, layers=layers)
                if t is not None:
                    navigate.references(t, a)
                complete.candidates(a.lines, line, col, a.binders, layers)


def test_completion_asks_the_grammar():
    assert complete.expected("zone hand: per player, ") == (
        ["bottom", "face", "not", "per", "seen", "shared", "shown", "size", "top"], False)
    words, name = complete.expected("turn:\n    ")
    assert {"move", "shuffle", "choose", "if", "repeat"} <= set(words) and name
    words, name = complete.expected("turn:\n    move top card from stock ")
    assert "to" in words and "from" not in words and "move" not in words
    assert complete.expected("turn:\n    move top card to ") is None   # a mistake before the cursor


def test_variants_are_the_files_that_extend_a_file():
    names = {os.path.basename(v.path) for v in variants(os.path.join(ROOT, "rules", "attack.cardrules"))}
    assert names == {os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "rules", "attack_*.cardrules"))}
    assert variants(os.path.join(ROOT, "rules", "ciq.cardrules")) == []


def test_an_option_value_and_an_attribute_of_one_name_are_told_apart():
    path = os.path.join(ROOT, "rules", "attack.cardrules")
    text = read(path)
    a = analyse(text, path)
    line = text.splitlines().index(next(l for l in text.splitlines() if l.startswith("option scoring")))
    col = text.splitlines()[line].index(", value") + 2
    t = navigate.target_at(a, line, col)
    assert t.symbol.kind == "value"
    t2 = navigate.target_at(a, *at(text, "value:"))
    assert t2.symbol.kind == "attribute"
    value_uses = navigate.references(t, a)
    attribute_uses = navigate.references(t2, a)
    assert not {(p.path, p.line, p.col) for p in value_uses} & {(p.path, p.line, p.col) for p in attribute_uses}
    assert all("value of" in read(p.path).splitlines()[p.line][p.col:] or
               "attribute value" in read(p.path).splitlines()[p.line]
               or "total value" in read(p.path).splitlines()[p.line] for p in attribute_uses)


def test_lsp_without_pygls_says_how_to_install_it(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pygls" else real(name, *a))
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'rulelang[lsp]'" in err


def test_the_core_does_not_import_pygls():
    code = ("import sys, rulelang, rulelang.cli.commands, rulelang.lsp.analysis, rulelang.lsp.navigate, "
            "rulelang.lsp.complete, rulelang.lsp.describe; rulelang.cli.commands.build_parser(); "
            "assert not [m for m in sys.modules if m.startswith(('pygls', 'lsprotocol'))]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_declaration_cache_parses_as_the_whole_file():
    """Each declaration parsed by itself (and kept while it does not change, moved when lines
    are added or removed above it) makes the same nodes, spans and all, as the whole file
    parsed at once; a syntax error is the parser's own."""
    from rulelang.lsp.analysis import DeclarationCache
    from rulelang.syntax.diagnostics import RuleFileError
    from rulelang.syntax.parser import parse
    for whole_after in (DeclarationCache.WHOLE_AFTER, 10 ** 9):   # (10**9: each piece alone)
        cache = DeclarationCache()
        cache.WHOLE_AFTER = whole_after
        for path in RULE_FILES:
            text = read(path)
            edited = text.replace("\nturn:\n", "\nturn:\n    # a note\n", 1)
            for t in (text, edited, text, "# a note\n\n" + text, text):
                assert repr(cache.parse(t, path).decls) == repr(parse(t, path).decls), path
    text = read(RULE_FILES[0]) + "\nzone broken: shared,\n(\n"
    with pytest.raises(RuleFileError) as mine:
        cache.parse(text, "x.cardrules")
    with pytest.raises(RuleFileError) as whole:
        parse(text, "x.cardrules")
    assert mine.value.diagnostics == whole.value.diagnostics


def test_untrusted_text_is_read_within_bounds(tmp_path):
    """A text larger than a rule file may be is not read (RL129, as `check`); a line that binds
    thousands of names or lists thousands of values keeps a bounded number of them, each with
    its line cut short, so that looking a name up stays quick."""
    from rulelang.compile.loader import MAX_FILE_BYTES
    huge = "zone a: shared\n" * (MAX_FILE_BYTES // 15 + 1)
    a = analyse(huge, str(tmp_path / "huge.cardrules"))
    assert [d.code for d in a.diagnostics] == ["RL129"] and a.symbols == [] and a.lines == []
    line = "rule r:\n    " + "card c from " * 5000 + "\n"
    b = scan.binders(line)
    assert len(b) == scan.MAX_BINDERS_PER_LINE and all(len(x.detail) <= 400 for x in b)
    values = "option o = v0 one of " + ", ".join(f"v{i}" for i in range(3000)) + "\n"
    (opt,) = scan.declarations(values)
    assert len(opt.children) == scan.MAX_LISTED and len(opt.detail) <= 400


def test_a_file_with_several_syntax_errors_shows_each_and_the_checker_s_findings(tmp_path):
    """As `rulelang check` reports it: every syntax error (the parser goes on after each), then
    what the checker finds in the parts that parse, through the server's declaration cache too."""
    text = ('game "g"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
            'zone hand: per player, seen by owner\nsetup:\n    deal 5 from stock to hand of each player\n'
            'game ends when hand is empty:\n    end game with winner you\nturn:\n'
            '    move all cardss from stock to hand\n'
            '    if size of hand is 8 or or 9:\n        say "x"\n'
            '    move top card from stok to hand\n')
    path = str(tmp_path / "g.cardrules")
    for cache in (None, DeclarationCache()):
        diags = analyse(text, path, cache=cache).diagnostics
        lines = sorted((d.span.line, d.code) for d in diags if d.is_error)
        assert lines == [(11, "RL001"), (12, "RL001"), (14, "RL101")], (cache, lines)


def test_completion_after_a_long_word_answers_at_once(tmp_path):
    """The word being typed was found with a regular expression anchored at the end of the
    line, which tries every start inside a long word: completing after a 60,000-letter name
    took 20 s (the server answers nothing else meanwhile).  Now it is found from the cursor
    back, in time linear in the line."""
    text = 'game "g"\nzone ' + "a" * 60_000 + ": shared\nturn:\n    x" + "b" * 60_000 + "\n"
    a = analyse(text, str(tmp_path / "long.cardrules"))
    layers = navigate.game_layers(a)
    t0 = time.process_time()
    for line in (1, 3):
        for col in (len(a.lines[line]) // 2, len(a.lines[line])):
            prefix, _items = complete.candidates(a.lines, line, col, a.binders, layers, a.model)
    assert prefix == "x" + "b" * 60_000
    assert complete.candidates(["x 9ab_1"], 0, 7, [], [])[0] == "ab_1"
    assert complete.candidates(["x 9"], 0, 3, [], [])[0] == ""
    assert time.process_time() - t0 < 1.0


def test_references_on_a_long_line_are_found_in_linear_time(tmp_path):
    """A name that is also a word of the language (a zone `a`), used thousands of times on one
    line: each use read the line again up to itself to see the word before it (400 uses took
    2 s, 2,000 over a minute, and the server answers nothing else meanwhile)."""
    n = 2000
    text = ('game "g"\nplayers 2\ndeck standard, into a\nzone a: shared\nturn:\n    '
            + "move top card from a to a; " * n + "\n")
    a = analyse(text, str(tmp_path / "long.cardrules"))
    t = navigate.target_at(a, 5, len(a.lines[5]) // 2, layers=navigate.game_layers(a))
    assert t is not None and t.symbol is not None and t.name in complete.KEYWORDS
    t0 = time.process_time()
    found = navigate.references(t, a)
    # past the line's mistake (`;`) a word of the language is the name after `to`, not `from`
    assert len(found) == n + 2 and all(a.lines[p.line][:p.col].endswith("to ") for p in found[2:])
    assert time.process_time() - t0 < 1.0


def test_the_worker_stops_a_stale_job_where_it_is():
    """A job that would never end is stopped once it is stale, a stale job waiting in line is
    never started, and the worker goes on with the next (a new version never waits behind
    the analysis of an old one)."""
    import asyncio
    import threading

    from rulelang.lsp.worker import Worker

    async def main():
        w = Worker()
        version = [1]
        started = threading.Event()

        def endless():
            started.set()
            n = 0
            while True:
                n += 1
        ran = []
        first = asyncio.ensure_future(w.run(endless, lambda: version[0] != 1))
        queued = asyncio.ensure_future(w.run(lambda: ran.append(1), lambda: version[0] != 1))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)
        version[0] = 2
        t0 = time.monotonic()
        w.stop_stale()
        assert await asyncio.wait_for(first, 5) is None
        assert await asyncio.wait_for(queued, 5) is None and ran == []
        assert await asyncio.wait_for(w.run(lambda: 42, lambda: False), 5) == 42
        assert time.monotonic() - t0 < 1.0 and w.stopped == 1
        w.stop_stale()                          # nothing running: nothing raised later
        assert await asyncio.wait_for(w.run(lambda: sum(range(10 ** 6)), lambda: False), 5) \
            == sum(range(10 ** 6))
    asyncio.run(main())
