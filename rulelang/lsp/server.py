"""``rulelang lsp``: the language server, over stdin and stdout, with pygls.

The only module of rulelang that imports pygls (an optional extra: ``pip install
'rulelang[lsp]'``).  It keeps the editor's text of each open rule file, analyses it after every
change (:func:`rulelang.lsp.analysis.analyse`, in a worker thread, so that completion and hover
answer meanwhile), publishes the checker's diagnostics at once and the compiler's when it has
compiled the game, and answers hover, completion, go to definition, find references, document
symbols and rename from :mod:`rulelang.lsp.scan`, :mod:`~rulelang.lsp.navigate`,
:mod:`~rulelang.lsp.describe` and :mod:`~rulelang.lsp.complete`.
"""
from __future__ import annotations

import asyncio
import os
from typing import Optional
from urllib.parse import unquote

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import from_fs_path

from rulelang.lsp import complete, describe, navigate, scan
from rulelang.lsp.analysis import (Analysis, DeclarationCache, analyse, compile_diagnostics,
                                   read_names)
from rulelang.lsp.worker import Worker

WORKERS = 4     # threads that analyse the open documents (each document has one of them)

# The compiler's pass waits until the text has not changed for this long: it takes longer than
# the checker's, and typing should not wait for it.
COMPILE_AFTER = 0.4

_SYMBOL_KIND = {"zone": T.SymbolKind.Array, "zone family": T.SymbolKind.Array,
                "var": T.SymbolKind.Variable, "define": T.SymbolKind.Function,
                "rule": T.SymbolKind.Method, "option": T.SymbolKind.Property,
                "attribute": T.SymbolKind.Field, "deck type": T.SymbolKind.Class,
                "deck": T.SymbolKind.Object, "suit": T.SymbolKind.EnumMember,
                "rank": T.SymbolKind.EnumMember, "card": T.SymbolKind.Constant,
                "value": T.SymbolKind.EnumMember, "extends": T.SymbolKind.File,
                "game": T.SymbolKind.Module, "players": T.SymbolKind.Number,
                "setup": T.SymbolKind.Event, "turn": T.SymbolKind.Event,
                "ending": T.SymbolKind.Event, "score": T.SymbolKind.Number,
                "show": T.SymbolKind.String}
_ITEM_KIND = {"keyword": T.CompletionItemKind.Keyword, "local": T.CompletionItemKind.Variable,
              "zone": T.CompletionItemKind.Field, "zone family": T.CompletionItemKind.Field,
              "var": T.CompletionItemKind.Variable, "define": T.CompletionItemKind.Function,
              "rule": T.CompletionItemKind.Method, "option": T.CompletionItemKind.Property,
              "attribute": T.CompletionItemKind.Property, "suit": T.CompletionItemKind.EnumMember,
              "rank": T.CompletionItemKind.EnumMember, "card": T.CompletionItemKind.Constant,
              "value": T.CompletionItemKind.EnumMember}


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, but a change to a document the editor has not opened is ignored
    (pygls's own handler fails with a KeyError and shows the editor "Error in server")."""

    @lsp_method(T.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: T.DidChangeTextDocumentParams):
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            return
        yield from super().lsp_text_document__did_change(params)


class RulelangServer(LanguageServer):
    """The server's state: the last analysis of each open file, and its last model (kept while
    the file does not check, for hover and completion)."""

    def __init__(self, explanations: Optional[dict] = None, errors_uri: Optional[str] = None,
                 version: str = ""):
        super().__init__("rulelang", version, protocol_cls=_Protocol)
        self.explanations = explanations or {}
        self.errors_uri = errors_uri
        self.analyses: dict = {}
        self.models: dict = {}
        self.names: dict = {}                 # the names read of a text not analysed yet
        # the worker threads (each its analyses one at a time, a stale one stopped) and their
        # declaration caches (each used in its thread only); the open documents are given
        # them in turn, so that a long analysis of one holds up no document opened after it
        # but every WORKERS-th, and no number of documents makes more threads
        self.workers: list = [None] * WORKERS
        self.assigned: dict = {}              # an open document -> the index of its worker
        self.opened = 0                       # documents given a worker so far

    # ---- documents -------------------------------------------------------------------------
    def open_text(self, path: str) -> Optional[str]:
        """The editor's text of a file that is open, or None."""
        real = os.path.realpath(path)
        for doc in list(self.workspace.text_documents.values()):
            if doc.path and os.path.realpath(doc.path) == real:
                return doc.source
        return None

    def document(self, uri: str):
        """The editor's document ``uri`` if it is open, else None.  A request may name any URI:
        the server never reads one the editor has not opened (pygls's ``get_text_document``
        would read it from disk: a fifo would block the server, ``/dev/zero`` never end)."""
        return self.workspace.text_documents.get(unquote(uri))

    def doc_version(self, uri: str):
        doc = self.document(uri)
        return None if doc is None else doc.version

    def current(self, uri: str) -> Analysis:
        """The analysis of the document's text as it is now: the last one if the text has not
        changed since, else the declarations and bound names only (read at once).  A document
        that is not open has no text."""
        doc = self.document(uri)
        if doc is None:
            return read_names("", "untitled.cardrules")
        a = self.analyses.get(uri)
        if a is not None and a.text == doc.source:
            return a
        a = self.names.get(uri)                 # read once for every request on this text
        if a is None or a.text != doc.source:
            a = self.names[uri] = read_names(doc.source, doc.path or "untitled.cardrules")
        return a

    def model(self, uri: str):
        a = self.analyses.get(uri)
        return a.model if a is not None and a.model is not None else self.models.get(uri)

    def worker(self, uri: str):
        """The worker and declaration cache of the open document ``uri`` (given at its first
        analysis: the next of the :data:`WORKERS`, made at its first use), or None when it is
        not open."""
        i = self.assigned.get(uri)
        if i is None:
            if self.document(uri) is None:
                return None
            i = self.assigned[uri] = self.opened % WORKERS
            self.opened += 1
        if self.workers[i] is None:
            self.workers[i] = (Worker(), DeclarationCache())
        return self.workers[i]

    def stop_stale(self, uri: str) -> None:
        """Stop the analysis running in the worker of ``uri`` if its text has changed since."""
        i = self.assigned.get(uri)
        if i is not None and self.workers[i] is not None:
            self.workers[i][0].stop_stale()

    def forget(self, uri: str) -> None:
        """A closed document: its analysis stopped, what was known of it dropped."""
        self.stop_stale(uri)
        self.assigned.pop(uri, None)
        self.analyses.pop(uri, None)
        self.models.pop(uri, None)
        self.names.pop(uri, None)

    async def refresh(self, uri: str) -> None:
        """Analyse the document (in the worker thread) and publish its diagnostics, unless it
        changed meanwhile; then compile it and publish what compiling adds."""
        doc = self.document(uri)
        if doc is None:
            return
        version, text, path = doc.version, doc.source, doc.path or "untitled.cardrules"

        def stale() -> bool:
            # the text changed or was closed since: a newer analysis is on its way, or none
            return self.doc_version(uri) != version

        got = self.worker(uri)
        if got is None:
            return
        worker, cache = got
        a = await worker.run(lambda: analyse(text, path, (), cache), stale)
        if a is None or stale():
            return
        self.analyses[uri] = a
        self.names.pop(uri, None)
        if a.model is not None:
            self.models[uri] = a.model
        self.publish(uri, a, a.diagnostics)
        if a.model is None:
            return
        await asyncio.sleep(COMPILE_AFTER)
        if self.doc_version(uri) != version:
            return
        more = await worker.run(lambda: compile_diagnostics(a), stale)
        if more and not stale():
            a.diagnostics = a.diagnostics + more
            self.publish(uri, a, a.diagnostics)

    def publish(self, uri: str, a: Analysis, diags: list) -> None:
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, diagnostics=[self.lsp_diagnostic(a, d) for d in diags],
            version=self.doc_version(uri)))

    def lsp_diagnostic(self, a: Analysis, d) -> T.Diagnostic:
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        sp = d.span
        if sp is not None and sp.line > 0 and _same(sp.file, a.path):
            rng = self.to_range(a.lines, sp.line - 1, sp.column - 1, sp.end_line - 1,
                                sp.end_column - 1)
        else:
            line = 0
            if sp is not None and sp.line > 0:        # in a file this one extends
                message = f"in {os.path.basename(sp.file)}:{sp.line}:{sp.column}: {message}"
                line = next((s.line for s in a.symbols if s.kind == "extends"), 0)
            rng = self.to_range(a.lines, line, 0, line, len(a.lines[line]) if line < len(a.lines) else 0)
        return T.Diagnostic(
            range=rng, message=message, code=d.code, source="rulelang",
            severity=T.DiagnosticSeverity.Error if d.is_error else T.DiagnosticSeverity.Warning,
            code_description=T.CodeDescription(href=self.errors_uri) if self.errors_uri else None)

    # ---- positions: the editor counts UTF-16 units, rulelang characters ----------------------
    def col_to_client(self, lines: list, line: int, col: int) -> int:
        text = lines[line] if 0 <= line < len(lines) else ""
        return self.workspace.position_codec.client_num_units(text[:max(col, 0)])

    def col_from_client(self, lines: list, pos: T.Position) -> int:
        text = lines[pos.line] if 0 <= pos.line < len(lines) else ""
        units = 0
        for i, ch in enumerate(text):
            if units >= pos.character:
                return i
            units += self.workspace.position_codec.client_num_units(ch)
        return len(text)

    def to_range(self, lines, line, col, end_line, end_col) -> T.Range:
        line, end_line = max(line, 0), max(end_line, line)
        if end_line == line and end_col < col:
            end_col = col
        return T.Range(start=T.Position(line=line, character=self.col_to_client(lines, line, col)),
                       end=T.Position(line=end_line, character=self.col_to_client(lines, end_line, end_col)))

    def place_location(self, p: navigate.Place) -> T.Location:
        lines = scan.lines_of(self.open_text(p.path) or _read(p.path))
        return T.Location(uri=from_fs_path(p.path),
                          range=self.to_range(lines, p.line, p.col, p.line, p.end))

    def target(self, uri: str, pos: T.Position):
        a = self.current(uri)
        col = self.col_from_client(a.lines, pos)
        return a, navigate.target_at(a, pos.line, col, self.open_text)


def _same(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _read(path: str) -> str:
    from rulelang.compile.loader import read_rule_text
    return read_rule_text(path) or ""


def make_server(explanations: Optional[dict] = None, errors_uri: Optional[str] = None,
                version: str = "") -> RulelangServer:
    """The server, with the error catalogue (code -> its entry), the URI a diagnostic's code
    links to, and rulelang's version."""
    ls = RulelangServer(explanations, errors_uri, version)

    @ls.feature(T.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: RulelangServer, params: T.DidOpenTextDocumentParams):
        ls.stop_stale(params.text_document.uri)
        await ls.refresh(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulelangServer, params: T.DidChangeTextDocumentParams):
        ls.stop_stale(params.text_document.uri)     # the analysis of the text before, if running
        await ls.refresh(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: RulelangServer, params: T.DidSaveTextDocumentParams):
        for uri in list(ls.workspace.text_documents):          # a base may have changed
            if uri.endswith(".cardrules"):
                await ls.refresh(uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulelangServer, params: T.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        ls.forget(uri)
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @ls.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RulelangServer, params: T.DocumentSymbolParams):
        a = ls.current(params.text_document.uri)

        def sym(s: scan.Symbol) -> T.DocumentSymbol:
            end_len = len(a.lines[s.end_line]) if s.end_line < len(a.lines) else 0
            return T.DocumentSymbol(
                name=s.name, detail=s.detail if s.kind in ("zone", "var", "option") else s.kind,
                kind=_SYMBOL_KIND.get(s.kind, T.SymbolKind.Key),
                range=ls.to_range(a.lines, s.line, 0, s.end_line, end_len),
                selection_range=ls.to_range(a.lines, s.line, s.col, s.line,
                                            s.col + (len(s.name) if s.named else len(s.detail))),
                children=[sym(c) for c in s.children] or None)
        return [sym(s) for s in a.symbols]

    @ls.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulelangServer, params: T.HoverParams):
        uri = params.text_document.uri
        a, t = ls.target(uri, params.position)
        parts, rng = [], None
        col = ls.col_from_client(a.lines, params.position)
        if t is not None:
            text = describe.describe(t, a.path, ls.model(uri))
            if text:
                parts.append(text)
                rng = ls.to_range(a.lines, t.place.line, t.place.col, t.place.line, t.place.end)
        else:
            tok = scan.word_at(a.lines, params.position.line, col)
            if tok is not None and tok.kind == "card":
                layers = navigate.game_layers(a, ls.open_text)
                text = describe.card_literal(tok.text, ls.model(uri), layers)
                if text:
                    parts.append(text)
                    rng = ls.to_range(a.lines, tok.line, tok.col, tok.line, tok.end)
        last = ls.analyses.get(uri)
        for d in (last.diagnostics if last is not None and last.text == a.text else []):
            sp = d.span
            if sp is not None and _same(sp.file, a.path) and \
                    (sp.line - 1, sp.column - 1) <= (params.position.line, col) <= (sp.end_line - 1, sp.end_column - 1):
                entry = describe.explanation(d.code, ls.explanations)
                if entry:
                    parts.append(entry)
        if not parts:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                                value="\n\n---\n\n".join(parts)), range=rng)

    @ls.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" ", "("]))
    def completion(ls: RulelangServer, params: T.CompletionParams):
        uri = params.text_document.uri
        a = ls.current(uri)
        col = ls.col_from_client(a.lines, params.position)
        layers = navigate.game_layers(a, ls.open_text)
        _prefix, items = complete.candidates(a.lines, params.position.line, col, a.binders, layers,
                                             ls.model(uri))
        return T.CompletionList(is_incomplete=False, items=[
            T.CompletionItem(label=it.label, kind=_ITEM_KIND.get(it.kind, T.CompletionItemKind.Text),
                             detail=it.detail or it.kind, sort_text=("0" if it.kind == "local" else
                                                                     "2" if it.kind == "keyword" else "1") + it.label)
            for it in items])

    @ls.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulelangServer, params: T.DefinitionParams):
        _a, t = ls.target(params.text_document.uri, params.position)
        place = navigate.definition(t) if t is not None else None
        return ls.place_location(place) if place is not None else None

    @ls.feature(T.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RulelangServer, params: T.ReferenceParams):
        a, t = ls.target(params.text_document.uri, params.position)
        if t is None:
            return []
        found = navigate.references(t, a, ls.open_text,
                                    declaration_too=params.context.include_declaration)
        return [ls.place_location(p) for p in found]

    @ls.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: RulelangServer, params: T.PrepareRenameParams):
        a, t = ls.target(params.text_document.uri, params.position)
        if t is None or t.path is not None:
            return None
        return ls.to_range(a.lines, t.place.line, t.place.col, t.place.line, t.place.end)

    @ls.feature(T.TEXT_DOCUMENT_RENAME)
    def rename(ls: RulelangServer, params: T.RenameParams):
        a, t = ls.target(params.text_document.uri, params.position)
        if t is None:
            raise JsonRpcInvalidRequest("there is no name here to rename")
        try:
            places = navigate.rename(t, a, params.new_name, ls.open_text)
        except navigate.RenameRefused as e:
            raise JsonRpcInvalidRequest(str(e)) from None
        changes = {}
        for path, ps in places.items():
            lines = scan.lines_of(ls.open_text(path) or _read(path))
            changes[from_fs_path(path)] = [
                T.TextEdit(range=ls.to_range(lines, p.line, p.col, p.line, p.end),
                           new_text=params.new_name) for p in ps]
        return T.WorkspaceEdit(changes=changes)

    return ls


def serve(explanations: Optional[dict] = None, errors_uri: Optional[str] = None,
          version: str = "") -> None:
    """Run the server on stdin and stdout until the editor stops it."""
    make_server(explanations, errors_uri, version).start_io()


__all__ = ["make_server", "serve"]
