"""The blocks of a generated rule function, and the jumps between them.

A rule's function (:mod:`rulelang.compile.rulegen`) is a loop over blocks chosen by ``pc``: the
places where the rule can be resumed (after a call, the body of each alternative of a decision).
:class:`Blocks` is the part of :class:`~rulelang.compile.rulegen.RuleGen` that makes blocks, closes
them with a jump or a return, chooses the block for ``pc`` in few tests, threads jumps that only
lead to other jumps and copies a block where it is jumped to.  Each block has its own code writer
(``_Block.w``), through which everything in the block is written: a tree of nodes
(:mod:`rulelang.compile.writer`) in which a jump is a :class:`~rulelang.compile.writer.Jump`
and a return a :class:`~rulelang.compile.writer.Return`, so that the passes here follow them on
the nodes, never on generated text, and the function is written out once, at the end.
"""
from __future__ import annotations

from rulelang.compile.writer import CodeWriter, Jump, Return, size, transform, walk

# The most blocks where an alternative begins that the API's function tests first, one test
# each, before the halves of the others (Blocks.tested_first).
MAX_FIRST_TESTED = 3


class _Block:
    """A place where the rule can be resumed: its nodes (``items``), written by its writer
    (``w``); they take the indentation of a block in the function only when it is written
    out (``Blocks.dispatch``)."""

    def __init__(self, number):
        self.number = number
        self.w = CodeWriter()
        self.closed = False

    @property
    def items(self) -> list:
        return self.w.items

    def replace(self, items) -> None:
        """The block's nodes become ``items`` (a pass's result), still its writer's list."""
        self.w.items[:] = items


class Blocks:
    """Making and joining the blocks of one rule's function (a part of RuleGen)."""

    def dispatch(self, blocks, w, first=()):
        """Choose the block for ``pc`` (written by the writer ``w``): block 0 (where every call
        enters) first, then the blocks numbered in ``first`` (each with its own test), then
        halves of the others, so that resuming deep in a long rule takes a few tests, not one
        per block.  Each block's nodes go under the test that chooses it."""
        if blocks and blocks[0].number == 0:
            self._choose(blocks[0], w)
            blocks = blocks[1:]
        for b in blocks:
            if b.number in first:
                self._choose(b, w)
        blocks = [b for b in blocks if b.number not in first]
        if len(blocks) <= 3:
            for b in blocks:
                self._choose(b, w)
            return
        mid = len(blocks) // 2
        w.writeline(f"if pc < {blocks[mid].number}:")
        with w.indent():
            self.dispatch(blocks[:mid], w)
        w.writeline("else:")
        with w.indent():
            self.dispatch(blocks[mid:], w)

    @staticmethod
    def _choose(b, w):
        w.writeline(f"if pc == {b.number}:")
        with w.indent():
            w.extend(b.items)

    def tested_first(self, cx) -> set:
        """The blocks whose test of ``pc`` comes first, one test each (``dispatch``).  A playout
        variant enters a block by a jump that could not be copied (a loop goes back to its
        first block, a block many jumps lead to); the others only where a frame is resumed,
        which a playout most often never does: the blocks jumped to.  The API's function is
        entered, after a decision, where the alternative chosen begins (apply_action): those
        blocks, when they are at most MAX_FIRST_TESTED."""
        if cx.playout:
            return self.jumped_to(cx)
        entered = {int(b) for _, b in cx.scope.alt_blocks}
        return entered if len(entered) <= MAX_FIRST_TESTED else set()

    def jumped_to(self, cx) -> set:
        """The numbers of the blocks that a node of a block jumps to."""
        return {n.target for b in cx.scope.blocks for n in walk(b.items) if isinstance(n, Jump)}

    def thread_jumps(self, cx):
        """A jump to a block that only jumps (or only returns) goes where that block leads."""
        final = {}
        for b in cx.scope.blocks:
            if len(b.items) == 1 and size(b.items) == 1:
                node = b.items[0]
                if type(node) is Jump:
                    final[b.number] = ("goto", node.target)
                elif isinstance(node, Return):
                    final[b.number] = ("return", node.code)

        def resolve(n):
            seen = set()
            while n in final and final[n][0] == "goto" and n not in seen:
                seen.add(n)
                n = final[n][1]
            if n in final and final[n][0] == "return":
                return final[n][1]
            return n

        def thread(node):
            if type(node) is not Jump:
                return None
            target = resolve(node.target)
            return [Return(target, node.span) if isinstance(target, str) else Jump(target, node.span)]

        for b in cx.scope.blocks:
            b.replace(transform(b.items, thread))

    def inline_block(self, cx, target):
        """Copy a block's nodes to every jump to it (the next turn: one test of ``pc`` less)."""
        def copy(node):
            return list(target.items) if type(node) is Jump and node.target == target.number else None

        for b in cx.scope.blocks:
            if b is not target:
                b.replace(transform(b.items, copy))

    def new_block(self, cx):
        b = _Block(len(cx.scope.blocks))
        cx.scope.blocks.append(b)
        return b

    def close(self, b, code):
        """End block ``b`` (unless it has ended) with ``return code``."""
        if not b.closed:
            b.w.ret(code)
            b.closed = True

    def decide(self, b, slot, value, code):
        """End block ``b`` with a decision (writer.Decide): ``g.<slot> = value``, ``return code``."""
        b.w.decide(slot, value, code)
        b.closed = True

    def call(self, b, resume, frame, code):
        """End block ``b`` with a call through the run loop (writer.Call): resumed at block
        ``resume``, the callee's frame ``frame``."""
        b.w.call(resume.number, frame, code)
        b.closed = True

    def goto(self, b, target):
        """End block ``b`` (unless it has ended) with a jump to block ``target``."""
        if not b.closed:
            b.w.jump(target.number)
            b.closed = True

    @staticmethod
    def jump(w, target):
        """A jump to block number ``target``, written by ``w`` at its current level."""
        w.jump(target)
