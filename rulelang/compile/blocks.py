"""The blocks of a generated rule function, and the jumps between them.

A rule's function (:mod:`rulelang.compile.rulegen`) is a loop over blocks chosen by ``pc``: the
places where the rule can be resumed (after a call, the body of each alternative of a decision).
:class:`Blocks` is the part of :class:`~rulelang.compile.rulegen.RuleGen` that makes blocks, closes
them with a jump or a return, chooses the block for ``pc`` in few tests, threads jumps that only
lead to other jumps and copies a block where it is jumped to.  Each block has its own code writer
(``_Block.w``), through which everything in the block is written.
"""
from __future__ import annotations

from rulelang.compile.writer import CodeWriter, respan

# A block's lines are written at the level they take in the rule's function: inside the ``def``,
# its ``while True:`` over the blocks and the test of ``pc`` that chooses the block
# (RuleGen.loop_over_blocks, Blocks.dispatch).
BLOCK_LEVEL = 3

# The most blocks where an alternative begins that the API's function tests first, one test
# each, before the halves of the others (Blocks.tested_first).
MAX_FIRST_TESTED = 3


class _Jump(str):
    """The line ``pc = N; continue``: a jump to block N, known as one by its type (the passes
    over the blocks below follow jumps without reading the generated text)."""

    def __new__(cls, ind, target):
        line = super().__new__(cls, f"{ind}pc = {int(target)}; continue")
        line.ind, line.target = ind, int(target)
        return line


class _Block:
    """A place where the rule can be resumed: its lines (``lines``), written by its writer
    (``w``) from the indentation of a block (``base``)."""

    def __init__(self, number):
        self.number = number
        self.lines = []
        self.w = CodeWriter.at(self.lines, CodeWriter().step * BLOCK_LEVEL)
        self.base = self.w.base
        self.closed = False


class Blocks:
    """Making and joining the blocks of one rule's function (a part of RuleGen)."""

    def dispatch(self, blocks, w, extra="", first=()):
        """Choose the block for ``pc`` (written by the writer ``w``): block 0 (where every call
        enters) first, then the blocks numbered in ``first`` (each with its own test), then
        halves of the others, so that resuming deep in a long rule takes a few tests, not one
        per block.  ``extra`` indents the blocks' own lines (written for the top level, their
        spans kept) when nested."""
        if blocks and blocks[0].number == 0:
            w.writeline("if pc == 0:")
            w.extend(respan(extra + l, l) for l in blocks[0].lines)
            blocks = blocks[1:]
        for b in blocks:
            if b.number in first:
                w.writeline(f"if pc == {b.number}:")
                w.extend(respan(extra + l, l) for l in b.lines)
        blocks = [b for b in blocks if b.number not in first]
        if len(blocks) <= 3:
            for b in blocks:
                w.writeline(f"if pc == {b.number}:")
                w.extend(respan(extra + l, l) for l in b.lines)
            return
        mid = len(blocks) // 2
        w.writeline(f"if pc < {blocks[mid].number}:")
        with w.indent():
            self.dispatch(blocks[:mid], w, extra + w.step)
        w.writeline("else:")
        with w.indent():
            self.dispatch(blocks[mid:], w, extra + w.step)

    def tested_first(self) -> set:
        """The blocks whose test of ``pc`` comes first, one test each (``dispatch``).  A playout
        variant enters a block by a jump that could not be copied (a loop goes back to its
        first block, a block many jumps lead to); the others only where a frame is resumed,
        which a playout most often never does: the blocks jumped to.  The API's function is
        entered, after a decision, where the alternative chosen begins (apply_action): those
        blocks, when they are at most MAX_FIRST_TESTED."""
        if self.playout:
            return self.jumped_to()
        entered = {int(b) for _, b in self.alt_blocks}
        return entered if len(entered) <= MAX_FIRST_TESTED else set()

    def jumped_to(self) -> set:
        """The numbers of the blocks that a line of a block jumps to."""
        return {line.target for b in self.blocks for line in b.lines
                if getattr(line, "target", None) is not None}

    def thread_jumps(self):
        """A jump to a block that only jumps (or only returns) goes where that block leads."""
        final = {}
        for b in self.blocks:
            if len(b.lines) == 1:
                line = b.lines[0]
                if isinstance(line, _Jump):
                    final[b.number] = ("goto", line.target)
                elif line.strip().startswith("return "):
                    final[b.number] = ("return", line.strip())

        def resolve(n):
            seen = set()
            while n in final and final[n][0] == "goto" and n not in seen:
                seen.add(n)
                n = final[n][1]
            if n in final and final[n][0] == "return":
                return final[n][1]
            return n

        for b in self.blocks:
            for i, line in enumerate(b.lines):
                if isinstance(line, _Jump):
                    target = resolve(line.target)
                    b.lines[i] = respan(line.ind + target if isinstance(target, str)
                                        else _Jump(line.ind, target), line)

    def inline_block(self, target):
        """Copy a block's lines to every jump to it (the next turn: one test of ``pc`` less)."""
        base = target.base
        for b in self.blocks:
            if b is target:
                continue
            out = []
            for line in b.lines:
                if isinstance(line, _Jump) and line.target == target.number:
                    out.extend(respan(line.ind + l[len(base):], l) for l in target.lines)
                else:
                    out.append(line)
            b.lines[:] = out          # (the list its writer writes to)

    def new_block(self):
        b = _Block(len(self.blocks))
        self.blocks.append(b)
        return b

    def close(self, b, line):
        """End block ``b`` (unless it has ended) with ``line`` (a return)."""
        if not b.closed:
            b.w.writeline(line)
            b.closed = True

    def goto(self, b, target):
        """End block ``b`` (unless it has ended) with a jump to block ``target``."""
        if not b.closed:
            self.jump(b.w, target.number)
            b.closed = True

    @staticmethod
    def jump(w, target):
        """A jump to block number ``target``, written by ``w`` at its current level."""
        w.extend([_Jump(w.prefix, target)])
