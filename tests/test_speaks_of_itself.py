"""The project's text speaks of rulelang as it is, never of how it was built: no file of the
README, CONTRIBUTING, docs/, rulelang/, tests/, benchmarks/, examples/, rules/ or the CI names a work session
or an issue by its number (the word, maybe plural, then a number), which a reader cannot
resolve.  A measurement says what was measured, on what and how to
reproduce it; a change of meaning is in docs/changes.md, by version and date."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLACES = [
    "README.md",
    "CONTRIBUTING.md",
    ".pre-commit-config.yaml",
    "pyproject.toml",
    ".ci",
    "docs",
    "rulelang",
    "tests",
    "benchmarks",
    "examples",
    "rules",
]
# "session" or "issue", maybe plural, then a number (across a line break too): the word and the
# number are written apart here so that this file does not match itself.
REFERENCE = re.compile(r"\b(?:" + "sess" + "ion|iss" + "ue" + r")s?\s+#?\d+", re.I)


def text_files():
    for place in PLACES:
        path = os.path.join(ROOT, place)
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "results") and not d.startswith(".")]
            for name in files:
                yield os.path.join(folder, name)


def read_text(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (UnicodeDecodeError, OSError):
        return None  # an image, a binary: not text


def references(text):
    return [
        (text.count("\n", 0, m.start()) + 1, " ".join(m.group(0).split())) for m in REFERENCE.finditer(text)
    ]


def test_the_pattern_finds_what_it_must():
    assert references("measured in sess" + "ion 23 on CIQ") == [(1, "sess" + "ion 23")]
    assert references("until Iss" + "ue #15\n") == [(1, "Iss" + "ue #15")]
    assert references("(sess" + "ion\n    21)")[0][0] == 1
    assert references("Sess" + "ions 14 and 19 tried") == [(1, "Sess" + "ions 14")]
    assert references("a test session; an issue of the deck, 23 cards") == []


def test_the_scan_reads_the_docs_and_the_code():
    files = [os.path.relpath(p, ROOT) for p in text_files()]
    assert "README.md" in files and os.path.join("docs", "scale.md") in files
    assert os.path.join("rulelang", "play", "simulate.py") in files
    assert len(files) > 300


def test_no_text_names_a_work_session_or_an_issue():
    found = []
    for path in text_files():
        text = read_text(path)
        if text is None:
            continue
        found += [f"{os.path.relpath(path, ROOT)}:{line}: {ref}" for line, ref in references(text)]
    assert not found, (
        "name what was measured, on what and how to reproduce it, or put a "
        "change of meaning in docs/changes.md:\n  " + "\n  ".join(found)
    )
