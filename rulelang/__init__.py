"""rulelang: card games written as data.

The pipeline, one module per stage: :mod:`rulelang.parser` (text to AST), :mod:`rulelang.checker`
(AST to diagnostics and a resolved model), :mod:`rulelang.compiler` (model to generated Python functions) and
:mod:`rulelang.runtime` (the game state and its OpenSpiel-like API).  :mod:`rulelang.loader` ties
them together for a file on disk.
"""
__version__ = "0.1.0"
