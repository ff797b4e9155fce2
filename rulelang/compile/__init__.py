"""Resolved model to generated Python: the layout of a game as integers, the code generator of
rules, expressions and statements, coverage counting, and the loader that runs the whole pipeline
for a file.
"""
