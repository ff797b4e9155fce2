"""The resource limits of a rule file (docs/security.md, "Resource limits").

A rule file is untrusted input: whatever it says, checking it and playing it must end in bounded
time and memory, with a diagnostic (or a run-time problem) that says which limit was reached and
where.  Every limit is here, with the code it is reported under; each value is far above what a
real game needs (the largest figures of the games in ``rules/`` are noted) and low enough that
every recursive walk of the pipeline stays well inside Python's recursion limit.
"""
from __future__ import annotations

# RL201: blocks inside blocks (a rule's own block is the first; `choose` and each alternative
# add one each).  The games of rules/ and examples/ nest at most 6 deep.
MAX_BLOCK_DEPTH = 32

# RL202: operators, `of`s and parentheses inside one another in one expression, and again once
# defines are expanded into it.  The games of rules/ and examples/ reach 6 as written, 16 with
# their defines expanded.
MAX_EXPR_DEPTH = 100

# RL203 (a number written in the file) and RL910 (a number computed while a game is played):
# numbers are whole numbers from -MAX_NUMBER to MAX_NUMBER.
MAX_NUMBER = 10 ** 15
MAX_NUMBER_DIGITS = len(str(MAX_NUMBER))

# RL206: syntax errors reported for one file (rulelang.syntax.recover): after this many, the rest of
# the file is left out.  Each error costs a parse of the declaration that holds it, up to the next
# error.
MAX_SYNTAX_ERRORS = 50

# RL204: players in one game (every per-player zone and variable exists once per player, and
# a game is compiled for each allowed number of players).
MAX_PLAYERS = 64

# RL901: the step budget (`--max-steps`, 200,000 by default) counts loop rounds, rule calls and
# turns, each charged by the work it may do: 1 + W // WORK_UNIT, where W is the size of what
# the step evaluates (the parts of its expressions and statements, a define's expansion once; a
# condition over the cards of a zone counted once).  Every step of the games of rules/ and
# examples/ costs 1 (their largest W is 867); a turn whose condition is a 30,000-term `and`
# costs 91, so a run evaluates about WORK_UNIT parts per step of the budget at most, but for
# conditions over cards (docs/security.md).
WORK_UNIT = 1000

# RL901 too: the parts that loops inside expressions evaluate (a condition over the cards of a zone,
# the players, a range of numbers, the suits or ranks), each charged when it begins as what it
# looks at times the parts looked at for each (genruntime.spend): at most WORK_UNIT per step of
# the budget in all, and at least LOOP_WORK_FLOOR parts whatever the budget (so a small
# `--max-steps` does not stop a game whose last step weighs every hand: the largest use of the
# games of examples/ is 68,530 parts in loops, in 32 steps; docs/security.md).  A condition
# over cards inside another costs what it really costs: 1,023^3 looks in a turn stop the game.
LOOP_WORK_FLOOR = 1_000_000


def loop_work_bound(max_steps: int) -> int:
    """The parts the loops of a run with the step budget ``max_steps`` may evaluate (RL901)."""
    return max(max_steps * WORK_UNIT, LOOP_WORK_FLOOR)


class no_gc:
    """``with no_gc():`` the garbage collector does not run.  Parsing and checking a large file
    make hundreds of thousands of objects that live on (the tree, the checker's tables); the
    collector's passes over them were a third of the check time of a 1 MiB file, and found
    nothing: they make few cycles.  (Memory is unchanged: 150 MB for that file either way.)"""

    def __enter__(self):
        import gc
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        import gc
        if self.was:
            gc.enable()

# Actions: an alternative's number above ACTION_SHIFT bits, the value it chooses (a card, a
# player...) below them; so a game has at most VALUE_MASK cards (the checker's limit).
ACTION_SHIFT = 10
VALUE_MASK = (1 << ACTION_SHIFT) - 1

# The most named values a file declares, all its `values` sets together (RL261): a value chosen
# is the value of an action, below VALUE_MASK.
MAX_VALUES = 512

# A set of ranks (`var asked: set of ranks`) keeps one bit for each rank's number: the deck's
# ranks are numbered at most this (RL327), and a number beyond it is no rank that could be in it.
MAX_SET_RANK = 1023

# The most numbers `any number n from A to B where C` tries (RL251 when written so, RL257 while a
# game is played): each is a test of C.
MAX_RANGE = 10_000

# What the command line and the files rulelang reads back (logs, saves) may ask for.  A number
# on the command line (`--games`, `--max-steps`, `--seed`, `--set decks=2`, `--agents mc:200`)
# is plain decimal digits (0-9): `1_0`, `+5`, ` 5` and other scripts' digits, which Python's
# int() reads, are refused.
# `--seed S`, and `seed N` in a rule test: a whole number from 0 to MAX_SEED (the game's
# generator keeps 64 bits; a negative seed is refused, not taken modulo 2**64).
MAX_SEED = 2 ** 64 - 1


def seed_refused(v: int) -> "str | None":
    """Why ``v`` is no seed, in the words `--seed` and a rule test's `seed N` both say, or
    None."""
    if 0 <= v <= MAX_SEED:
        return None
    return f"a seed is a whole number from 0 to {MAX_SEED}, not {v}"


# `run --games K`, `check --simulate K`, `stats --games K`, `compare --games K`: at most this
# many games (seeds are never listed whole: a chunk of seeds at a time).
MAX_GAMES = 1_000_000
# `--max-steps N`, and the budget a log or a save names: 50 times the default.
MAX_STEPS_OPTION = 10_000_000
MAX_GAME_FILE_BYTES = 64 << 20   # the largest log or save read (RL520): about 1.5 million moves
# `--agents mc:N` / `ismcts:N` (also named by a log or a save): playouts or iterations per decision.
MAX_AGENT_BUDGET = 100_000
# `stats --skill [AGENT]`: the stronger agent by default, and `--skill-games K` (games with it in
# each seat): its default and its most (an mc game costs its budget's playouts per decision).
SKILL_AGENT = "mc:20"
SKILL_GAMES = 40
MAX_SKILL_GAMES = 10_000

# RL293: the most cards `number of combinations of cards in Z whose total A is N` counts among
# (the sums of every set of them are listed: 2^16 = 65,536 at most, a few milliseconds). A
# counting game's hand and starter are 5 to 8 cards; the other counts of combinations (runs,
# pairs, the most of one rank or suit) take time in proportion to the cards and have no limit.
MAX_COMBINATION_CARDS = 16

# A choice of a set of cards (`a set of 1 or more cards s from table to won ...`, docs/language.md,
# "A set of cards in one choice"): the sets are offered one action each, numbered below
# VALUE_MASK, so at most MAX_SET_OFFERED of them (RL284 while a game is played); they are chosen
# among at most MAX_SET_POOL cards (a count written above it is RL281, more cards to choose among
# while a game is played RL285), and the search looks at most MAX_SET_SEARCH sets (RL285).
MAX_SET_OFFERED = 1000
MAX_SET_POOL = 24
MAX_SET_SEARCH = 200_000
