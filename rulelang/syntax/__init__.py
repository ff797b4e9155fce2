"""Text to syntax tree: the grammar's parser, the AST nodes with their spans, syntax errors in words,
and the vocabulary (keyword lists) derived from the grammar.
"""
