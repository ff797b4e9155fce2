"""The command line: commands, rendering of games and diagnostics, highlighting, the designer's
workbench and its reports. The only place that prints.
"""
