"""The reference interpreter's instructions: :class:`Builder` collects a rule's instruction
closures ``op(state, frame) -> next position`` with labels and jumps, and turns them into a list.

The closures themselves are written by the mixins of :class:`reference.ReferenceGame`
(:mod:`reference.closure_values`, :mod:`reference.closure_statements`,
:mod:`reference.closure_control`).
"""
from __future__ import annotations

from rulelang.engine.control import RETURN


class Label:
    __slots__ = ("pos",)

    def __init__(self):
        self.pos = None


class Builder:
    """Collects a rule's instructions.  ``emit(make, *labels)`` appends one; ``make`` is called
    at the end with the position after the instruction and the labels' positions."""

    def __init__(self):
        self.items = []

    def here(self) -> int:
        return len(self.items)

    def place(self, label: Label):
        label.pos = len(self.items)

    def emit(self, make, *labels):
        self.items.append((make, labels))
        return len(self.items) - 1

    def jump(self, label: Label):
        """An unconditional jump.  Jumps are threaded: an instruction whose next instruction
        (or whose target) is a jump goes straight to where the jump leads."""
        self.items.append((_JUMP, (label,)))

    def ret(self):
        """Leave the rule; an instruction followed by ``ret`` returns at once."""
        self.items.append((_RET, ()))

    def finish(self):
        items = self.items

        def dest(i):
            seen = 0
            while i < len(items) and seen <= len(items):
                make, labels = items[i]
                if make is _JUMP:
                    i = labels[0].pos
                elif make is _RET:
                    return RETURN
                else:
                    return i
                seen += 1
            return i

        code = []
        for i, (make, labels) in enumerate(items):
            if make is _JUMP or make is _RET:
                target = dest(i)
                code.append((lambda t: (lambda g, fr: t))(target))
            else:
                code.append(make(dest(i + 1), *[dest(l.pos) for l in labels]))
        return code


def _JUMP(nxt, target):       # markers; finish() replaces them
    raise AssertionError


def _RET(nxt):
    raise AssertionError
