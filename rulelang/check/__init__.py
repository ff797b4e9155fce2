"""Syntax tree to diagnostics and a resolved model: names, kinds, variants, constant arithmetic.
"""
