"""The error corpus: every file in tests/errors/ is a small broken rule file.

Each line that must be reported carries its expectation in a comment at the end of the line:

    move top card from stok to hand   # error: RL101 unknown name `stok`
    zone trash: shared                # warning: RL192 zone `trash` is never used

(severity, code, and a fragment of the message or of the hint).  The test checks that checking the file gives
exactly those diagnostics, on those lines, and no others, like the Crafting Interpreters test
suite.  Files under tests/errors/bases/ are the bases that variants extend; they are not checked.
"""
import glob
import os
import re

import pytest

from rulelang.compile.loader import check_file

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = sorted(glob.glob(os.path.join(HERE, "errors", "*.cardrules")))
EXPECT = re.compile(r"#\s*(error|warning):\s*(RL\d{3})\s+(.*?)\s*(?=#\s*(?:error|warning):|$)")


def expectations(path):
    out = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            for m in EXPECT.finditer(line):
                out.append((m.group(1), m.group(2), lineno, m.group(3)))
    return out


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 50


@pytest.mark.parametrize("path", CORPUS, ids=[os.path.basename(p)[:-10] for p in CORPUS])
def test_error_file(path):
    expected = expectations(path)
    assert expected, f"{path} states no expected diagnostic"
    diags, _model, _decls = check_file(path)
    real = os.path.realpath(path)
    actual = []
    for d in diags:
        assert d.span is not None, f"diagnostic without a place: {d}"
        assert os.path.realpath(d.span.file) == real, f"diagnostic in another file: {d}"
        assert d.hint is None or d.hint.strip(), d
        actual.append(d)
    unmatched = list(actual)
    missing = []
    for sev, code, line, fragment in expected:
        for d in unmatched:
            if d.code == code and d.severity == sev and d.span.line == line \
                    and (fragment in d.message or fragment in (d.hint or "")):
                unmatched.remove(d)
                break
        else:
            missing.append(f"line {line}: {sev} {code} {fragment!r}")
    extra = [f"line {d.span.line}: {d.severity} {d.code} {d.message!r}" for d in unmatched]
    assert not missing and not extra, (
        "\nexpected but not reported:\n  " + "\n  ".join(missing) +
        "\nreported but not expected:\n  " + "\n  ".join(extra))


def test_every_code_is_explained():
    """Every code the corpus uses, and every code written in rulelang/, has an entry in
    rulelang/errors.md with a wrong and a right example."""
    root = os.path.dirname(HERE)
    with open(os.path.join(root, "rulelang", "errors.md"), encoding="utf-8") as fh:
        doc = fh.read()
    entries = dict(re.findall(r"^## (RL\d{3}): .*\n((?:(?!^## ).*\n?)*)", doc, re.M))
    codes = set()
    for src in glob.glob(os.path.join(root, "rulelang", "**", "*.py"), recursive=True):
        with open(src, encoding="utf-8") as fh:
            codes |= set(re.findall(r'"(RL\d{3})"', fh.read()))
    for path in CORPUS:
        codes |= {c for _s, c, _l, _f in expectations(path)}
    missing = sorted(c for c in codes if c not in entries)
    assert not missing, f"codes without an entry in errors.md: {missing}"
    for code, body in entries.items():
        if "There is no example of it" in body:     # a bug of rulelang, never of a rule file
            assert "```" not in body, f"{code} says it has no example, and shows one"
            continue
        assert body.count("```cardrules") + body.count("```cardtest") >= 2, \
            f"{code} needs a wrong and a right example"
