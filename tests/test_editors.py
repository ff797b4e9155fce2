"""The editor support of editors/vscode/: the TextMate grammar stays in step with the Lark grammar
(every word of the language is highlighted as one, and no word that is not), its JSON is valid
and its regexes compile, and the VS Code extension folder has the layout VS Code loads."""
import json
import os
import re
import shutil
import subprocess

import pytest

from rulelang.syntax.vocabulary import KEYWORDS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VSCODE = os.path.join(ROOT, "editors", "vscode")
GRAMMAR = os.path.join(VSCODE, "syntaxes", "cardrules.tmLanguage.json")


def load(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def patterns(node):
    """Every pattern of a TextMate grammar (with its repository's)."""
    if isinstance(node, dict):
        if "match" in node or "begin" in node:
            yield node
        for key in ("patterns", "repository"):
            value = node.get(key)
            if isinstance(value, list):
                for p in value:
                    yield from patterns(p)
            elif isinstance(value, dict):
                for p in value.values():
                    yield from patterns(p)


def keyword_patterns():
    g = load(GRAMMAR)
    return [re.compile(p["match"]) for p in patterns(g)
            if p.get("name", "").startswith(("keyword.", "constant.language"))]


def test_grammar_is_valid_and_its_regexes_compile():
    g = load(GRAMMAR)
    assert g["scopeName"] == "source.cardrules" and "cardrules" in g["fileTypes"]
    found = list(patterns(g))
    assert len(found) >= 10
    for p in found:
        for key in ("match", "begin", "end"):
            if key in p:
                re.compile(p[key])
    includes = re.findall(r'"include": "#([^"]+)"', json.dumps(g))
    assert includes and all(name in g["repository"] for name in includes)


@pytest.mark.parametrize("word", sorted(KEYWORDS))
def test_every_word_of_the_lark_grammar_is_a_keyword(word):
    line = f"x {word} y"
    assert any(any(m.group() == word for m in p.finditer(line)) for p in keyword_patterns()), word


def test_no_keyword_pattern_names_a_word_the_language_lacks():
    words = set()
    for p in keyword_patterns():
        words |= set(re.findall(r"[a-z]+", re.sub(r"\\[a-z]", "", p.pattern)))
    assert words - KEYWORDS == set()


def test_a_line_is_highlighted_as_the_language_reads_it():
    """Names are not keywords: `stock` and `hand` are not matched, `move ... from ... to` is."""
    line = "    move top card from stock to hand  # a comment"
    hits = {m.group() for p in keyword_patterns() for m in p.finditer(line.split("#")[0])}
    assert hits == {"move", "top", "card", "from", "to"}


def test_vscode_extension_layout():
    pkg = load(os.path.join(VSCODE, "package.json"))
    assert pkg["main"] == "./extension.js" and "onLanguage:cardrules" in pkg["activationEvents"]
    lang = pkg["contributes"]["languages"][0]
    assert lang["id"] == "cardrules" and ".cardrules" in lang["extensions"]
    assert os.path.isfile(os.path.join(VSCODE, lang["configuration"]))
    load(os.path.join(VSCODE, lang["configuration"]))
    grammar = pkg["contributes"]["grammars"][0]
    assert grammar["scopeName"] == load(GRAMMAR)["scopeName"]
    assert os.path.samefile(os.path.join(VSCODE, grammar["path"]), GRAMMAR)
    assert "vscode-languageclient" in pkg["dependencies"] and "vscode" in pkg["engines"]
    with open(os.path.join(VSCODE, "extension.js"), encoding="utf-8") as fh:
        js = fh.read()
    assert 'require("vscode-languageclient/node")' in js and "activate" in js
    assert pkg["contributes"]["configuration"]["properties"]["rulelang.server.command"]["default"] \
        == ["rulelang", "lsp"]
    node = shutil.which("node")
    if node:
        subprocess.run([node, "--check", os.path.join(VSCODE, "extension.js")], check=True)
