"""The language server of rule files (``rulelang lsp``): diagnostics as you type, hover,
completion, go to definition, references, an outline and rename, in any editor that speaks the
Language Server Protocol (docs/editors.md).

Only :mod:`rulelang.lsp.server` imports pygls (the optional extra ``lsp``); the rest reads rule
files with rulelang's own parts: :mod:`~rulelang.lsp.analysis` (diagnostics and the model, the
interface the server is written against), :mod:`~rulelang.lsp.scan` (declarations and bound
names, line by line), :mod:`~rulelang.lsp.navigate`, :mod:`~rulelang.lsp.describe` and
:mod:`~rulelang.lsp.complete`.
"""
