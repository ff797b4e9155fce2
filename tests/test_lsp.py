"""`rulelang lsp` driven by a real Language Server Protocol client over stdio (pytest-lsp): one
server for the module, given every rule file of rules/ and examples/ and broken ones, asked for
diagnostics, hover, completion, definition, references, symbols and rename as an editor asks.
Skipped without pygls and pytest-lsp (the `lsp` extra)."""
import asyncio
import glob
import os
import sys

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types as T  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
                    + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "rulelang", "lsp"],
    server_env={**os.environ, "PYTHONPATH": ROOT}))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=from_fs_path(ROOT)))
    yield
    await lsp_client.shutdown_session()


async def opened(client, path, text=None, wait_compile=False):
    """Open ``path`` (with ``text``, else its own) and wait for its diagnostics."""
    uri = from_fs_path(path)
    if text is None:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=uri, language_id="cardrules", version=1, text=text)))
    while uri not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
    return uri


def close(client, uri):
    client.text_document_did_close(T.DidCloseTextDocumentParams(
        text_document=T.TextDocumentIdentifier(uri=uri)))


def pos(text, needle, nth=0, offset=0):
    """The position of the ``nth`` occurrence of ``needle`` in ``text`` (plus ``offset`` chars)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    return T.Position(line=line, character=col)


async def hover_text(client, uri, position):
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=position))
    return h.contents.value if h is not None else ""


@pytest.mark.parametrize("path", RULE_FILES, ids=[os.path.relpath(p, ROOT) for p in RULE_FILES])
async def test_every_rule_file(client, path):
    """No diagnostics, an outline, and hovering a zone's name says it is a zone and who sees it."""
    uri = await opened(client, path)
    try:
        assert list(client.diagnostics[uri]) == []
        symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(
            text_document=T.TextDocumentIdentifier(uri=uri)))
        assert symbols and all(s.name for s in symbols)
        zone = next((s for s in symbols if s.kind == T.SymbolKind.Array), None)
        if zone is None:                 # a variant without zones of its own
            return
        said = await hover_text(client, uri, zone.selection_range.start)
        assert f"zone `{zone.name}" in said or "zones `" in said
        assert any(w in said for w in ("sees", "seen", "face"))
    finally:
        close(client, uri)


BROKEN = """\
game "Broken"
players 2 to 4

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner
var turns_left per player = 3

define playable(c) = rank of c is 8 or suit of c is suit of top of stock

setup:
    shuffle stock
    deal 5 from stock to hand of each player

turn:
    choose:
        play card c from hand where playable(c):
            move c from hand to stock
            subtract 1 from turns_left
        draw:
            move top card from stock to hand to
"""


async def test_a_file_that_does_not_parse(client, tmp_path):
    """A syntax error: its diagnostic with its code and where it is; hover on it explains the
    code; the outline, definition, references and completion still work on the rest."""
    path = tmp_path / "broken.cardrules"
    path.write_text(BROKEN, encoding="utf-8")
    uri = await opened(client, str(path), BROKEN)
    try:
        diags = client.diagnostics[uri]
        assert [d.code for d in diags] == ["RL001"]
        assert diags[0].range.start.line == BROKEN.count("\n") - 1     # the last line
        assert diags[0].code_description is not None and diags[0].code_description.href.endswith("errors.md")
        said = await hover_text(client, uri, diags[0].range.start)
        assert "RL001" in said and "syntax error" in said

        symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(
            text_document=T.TextDocumentIdentifier(uri=uri)))
        assert [s.name for s in symbols] == ["Broken", "players 2 to 4", "standard", "stock", "hand",
                                             "turns_left", "playable", "setup", "turn"]

        where = pos(BROKEN, "playable(c):", offset=2)
        loc = await client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=where))
        assert loc.uri == uri and loc.range.start == pos(BROKEN, "playable(c) =")

        local = pos(BROKEN, "move c from", offset=5)
        loc = await client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=local))
        assert loc.range.start == pos(BROKEN, "card c from", offset=5)

        refs = await client.text_document_references_async(T.ReferenceParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=pos(BROKEN, "zone stock", offset=5),
            context=T.ReferenceContext(include_declaration=True)))
        assert len(refs) == BROKEN.count("stock") - 0
        said = await hover_text(client, uri, pos(BROKEN, "turns_left", 1))
        assert "variable `turns_left`" in said and "one for each player" in said
        said = await hover_text(client, uri, pos(BROKEN, "playable(c)", 1))
        assert "define `playable(c)`" in said and "rank of c is 8" in said

        items = await completion(client, uri, pos(BROKEN, "            subtract", offset=12))
        assert {"move", "shuffle", "if", "choose", "say"} <= items
        assert {"turns_left", "stock", "c", "playable"} <= items
    finally:
        close(client, uri)


async def completion(client, uri, position):
    got = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=position))
    items = got.items if isinstance(got, T.CompletionList) else got
    return {i.label for i in items}


async def test_completion_follows_the_grammar(client, tmp_path):
    text = BROKEN.replace("seen by owner", "seen by owner, ").replace("hand to\n", "hand\n")
    path = tmp_path / "complete.cardrules"
    uri = await opened(client, str(path), text)
    try:
        after_comma = await completion(client, uri, pos(text, "seen by owner, ", offset=15))
        assert {"seen", "face", "size", "shared"} <= after_comma
        assert "move" not in after_comma and "stock" not in after_comma
        at_margin = await completion(client, uri, T.Position(line=text.count("\n"), character=0))
        assert {"zone", "var", "rule", "define", "option"} <= at_margin
        value = await completion(client, uri, pos(text, "rank of c is 8", offset=13))
        assert {"queen", "hearts", "stock"} <= value          # ranks, suits, names
    finally:
        close(client, uri)


async def test_semantic_diagnostics_and_hover(client, tmp_path):
    text = BROKEN.replace("hand to\n", "hand\n").replace("move c from hand to stock",
                                                          "move c from hand to stok")
    path = tmp_path / "names.cardrules"
    uri = await opened(client, str(path), text)
    try:
        diags = [d for d in client.diagnostics[uri] if d.code == "RL101"]
        assert len(diags) == 1 and diags[0].severity == T.DiagnosticSeverity.Error
        assert diags[0].range.start == pos(text, "stok\n")
        assert "did you mean `stock`" in diags[0].message
        said = await hover_text(client, uri, pos(text, "stok\n", offset=1))
        assert "RL101" in said
        said = await hover_text(client, uri, pos(text, "Q♠") if "Q♠" in text else pos(text, "stock", 1))
        assert "zone `stock`" in said and "nobody" in said
    finally:
        close(client, uri)


BASE = """\
game "Base"
players 2

deck standard, into pile

zone pile: shared, face down
zone hand: per player, seen by owner

rule draw:
    move top card from pile to hand

setup:
    repeat 3 times:
        draw

turn:
    draw
    end game with winner you
"""

VARIANT = """\
extends "base.cardrules"
game "Variant"

replace rule draw:
    if pile is not empty:
        move top card from pile to hand
"""


async def test_rename_across_a_file_and_its_variants(client, tmp_path):
    (tmp_path / "base.cardrules").write_text(BASE, encoding="utf-8")
    (tmp_path / "variant.cardrules").write_text(VARIANT, encoding="utf-8")
    (tmp_path / "other.cardrules").write_text(BASE.replace("Base", "Other"), encoding="utf-8")
    vuri = await opened(client, str(tmp_path / "variant.cardrules"))
    try:
        assert list(client.diagnostics[vuri]) == []
        # definition: a name of the base, and the base file itself
        loc = await client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=vuri), position=pos(VARIANT, "pile is", offset=1)))
        assert loc.uri == from_fs_path(str(tmp_path / "base.cardrules"))
        assert loc.range.start == pos(BASE, "pile: shared")
        loc = await client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=vuri), position=pos(VARIANT, "base.card")))
        assert loc.uri == from_fs_path(str(tmp_path / "base.cardrules"))

        edit = await client.text_document_rename_async(T.RenameParams(
            text_document=T.TextDocumentIdentifier(uri=vuri), position=pos(VARIANT, "pile is"),
            new_name="deck_pile"))
        changed = {os.path.basename(k): len(v) for k, v in edit.changes.items()}
        assert changed == {"base.cardrules": BASE.count("pile"), "variant.cardrules": 2}
        for uri, edits in edit.changes.items():
            assert all(e.new_text == "deck_pile" for e in edits)
            assert all(e.range.end.character - e.range.start.character == 4 for e in edits)

        with pytest.raises(Exception, match="word of the language"):
            await client.text_document_rename_async(T.RenameParams(
                text_document=T.TextDocumentIdentifier(uri=vuri), position=pos(VARIANT, "pile is"),
                new_name="shuffle"))
    finally:
        close(client, vuri)


async def test_a_mistake_in_the_base_is_shown_on_the_extends_line(client, tmp_path):
    (tmp_path / "base.cardrules").write_text(
        BASE.replace("turn:\n    draw", "turn:\n    shuffle piel\n    draw"), encoding="utf-8")
    (tmp_path / "variant.cardrules").write_text(VARIANT, encoding="utf-8")
    uri = await opened(client, str(tmp_path / "variant.cardrules"))
    try:
        (d,) = [d for d in client.diagnostics[uri] if d.code == "RL101"]
        assert d.range.start.line == 0 and d.message.startswith("in base.cardrules:17:")
    finally:
        close(client, uri)


async def test_hover_on_a_card_and_a_rank(client, tmp_path):
    text = BROKEN.replace("hand to\n", "hand\n") + "\ngame ends when stock is empty:\n    end game with no winner\n"
    text = text.replace(
        "define playable(c) = rank of c is 8",
        "attribute points:\n    queen: 10\n    otherwise: 1\n\ndefine playable(c) = c is Q♠ or rank of c is queen")
    uri = await opened(client, str(tmp_path / "cards.cardrules"), text)
    try:
        assert [d for d in client.diagnostics[uri] if d.severity == T.DiagnosticSeverity.Error] == []
        said = await hover_text(client, uri, pos(text, "Q♠"))
        assert "the queen of spades" in said and "`points`: `queen: 10`" in said
        said = await hover_text(client, uri, pos(text, "is queen", offset=3))
        assert "rank `queen`, number 12" in said and "standard.cardrules" in said
        loc = await client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=pos(text, "is queen", offset=3)))
        assert loc.uri.endswith("standard.cardrules")
    finally:
        close(client, uri)


async def test_a_document_the_editor_has_not_opened_is_not_read(client, tmp_path):
    """A request may name any URI; the server answers from the documents the editor opened only,
    never reading the file: a fifo would block the server for good, /dev/zero never end, and a
    file outside the workspace is none of its business."""
    fifo = tmp_path / "fifo.cardrules"
    os.mkfifo(fifo)
    on_disk = tmp_path / "on_disk.cardrules"
    on_disk.write_text("zone secret: shared\n")
    shown = len(client.messages)
    for path in (str(fifo), "/dev/zero", str(on_disk)):
        doc = T.TextDocumentIdentifier(uri=from_fs_path(path))
        at = T.Position(line=0, character=6)
        symbols = await asyncio.wait_for(client.text_document_document_symbol_async(
            T.DocumentSymbolParams(text_document=doc)), 5)
        assert not symbols
        assert await asyncio.wait_for(client.text_document_hover_async(
            T.HoverParams(text_document=doc, position=at)), 5) is None
        found = await asyncio.wait_for(client.text_document_completion_async(
            T.CompletionParams(text_document=doc, position=at)), 5)
        assert "secret" not in {item.label for item in found.items}    # keywords only
        assert not await asyncio.wait_for(client.text_document_references_async(T.ReferenceParams(
            text_document=doc, position=at,
            context=T.ReferenceContext(include_declaration=True))), 5)
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=doc.uri, version=2),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text="zone z: shared\n")]))
    uri = await opened(client, os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    try:                                        # and the server goes on answering
        assert await asyncio.wait_for(client.text_document_document_symbol_async(
            T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=uri))), 5)
        assert client.messages[shown:] == []    # no "Error in server" shown to the editor
    finally:
        close(client, uri)


def many_defines(n):
    """A long rule file: ``n`` defines, each read by the next (about 30 bytes a line)."""
    return ('game "g"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
            'zone hand: per player, seen by owner\nvar n per player = 0\ndefine d0(p) = n of p\n'
            + "".join(f"define d{i}(p) = d{i - 1}(p) + 1\n" for i in range(1, n))
            + 'setup:\n    deal 5 from stock to hand of each player\n'
              'game ends when stock is empty:\n    end game with winner you\n'
              'turn:\n    move top card from stock to hand\n')


async def analysed_alone(client, tmp_path, text):
    """Seconds from opening ``text`` to its diagnostics, with nothing else to analyse and
    nothing cached (more than a second, or a test that compares with it shows nothing)."""
    import time
    t0 = time.monotonic()
    uri = await opened(client, str(tmp_path / "alone.cardrules"), text)
    alone = time.monotonic() - t0
    close(client, uri)
    assert alone > 1.0, alone
    return alone


async def test_a_new_version_stops_the_analysis_of_the_old_one(client, tmp_path):
    """A change to a document whose analysis is running stops that analysis where it is: the
    new text's diagnostics come at once, not after the old text's analysis would have ended
    (it was left to finish, then the new one waited its turn)."""
    import time
    slow = many_defines(8000)
    alone = await analysed_alone(client, tmp_path, slow)

    path = str(tmp_path / "edited.cardrules")
    uri = await opened(client, path, 'game "g"\n')
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=slow)]))
    await asyncio.sleep(0.3)                    # its analysis has begun
    client.diagnostics.pop(uri, None)
    t0 = time.monotonic()
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text='game "g"\nturn:\n    x(\n')]))
    while uri not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
    took = time.monotonic() - t0
    try:
        diags = client.diagnostics[uri]           # the new text's
        assert diags and all(d.range.start.line < 3 for d in diags), diags
        assert took < alone / 3, (took, alone)
        print(f"alone {alone:.2f} s, the new version's diagnostics after {took:.2f} s")
    finally:
        close(client, uri)


async def test_a_long_analysis_of_one_document_holds_up_no_other(client, tmp_path):
    """The open documents are given the server's analysis threads in turn: a small file opened
    while a long one is analysed has its diagnostics at once, before the long one's (with one
    thread for all, it waited for the long analysis to end)."""
    import time
    slow = many_defines(8000)
    alone = await analysed_alone(client, tmp_path, slow)

    long_uri = from_fs_path(str(tmp_path / "long.cardrules"))
    client.diagnostics.pop(long_uri, None)
    client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=long_uri, language_id="cardrules", version=1, text=slow)))
    await asyncio.sleep(0.3)                    # its analysis has begun
    t0 = time.monotonic()
    small = await opened(client, str(tmp_path / "small.cardrules"), 'game "g"\nturn:\n    x(\n')
    took = time.monotonic() - t0
    try:
        assert client.diagnostics[small], "the small file's mistake"
        assert long_uri not in client.diagnostics, "the long file's analysis had ended first"
        assert took < alone / 3, (took, alone)
        while long_uri not in client.diagnostics:       # and the long one's come in their time
            await asyncio.wait_for(
                client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
        print(f"alone {alone:.2f} s; the small file's diagnostics after {took:.2f} s")
    finally:
        close(client, small)
        close(client, long_uri)
