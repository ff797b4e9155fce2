"""Writing generated source: a tree of lines, written out once, with the rule-file span of each.

The generators write a function as a tree of nodes, never as text they could read back: a
:class:`Code` is one line of Python, a :class:`Suite` the lines under the line before it, one
level in (the body of an ``if``, a loop, a ``def``), and a rule's function has nodes of its own
for what its passes follow (:mod:`rulelang.compile.blocks`): a :class:`Jump` to a block, an
:class:`Enter` into an alternative's block (the playout variant), a :class:`Return`, a
:class:`Decide` (the function stops for a decision), a :class:`Pick` (the playout variant
takes a decision in place), a :class:`Call` (of a rule, through the run loop) and a
:class:`Pass`.  A node knows the span of the statement it was written for (``span``), or None.
No node has an indentation: it is the depth of its suite, and the text of a line exists only
when the tree is written out (:func:`render`).

:class:`CodeWriter` builds such a tree (``writeline``, ``indent``, ``jump``, ``ret``...): every
part of the generator writes through one (each block of a rule's function has its own), and it
gives the function's source and its line map: the span of each generated line, or None.  The
compiled function's namespace keeps the map (:data:`LINE_MAP`), so that a problem raised while
it runs names the rule-file line it comes from (:func:`rule_span`), with nothing added to the
generated code itself.

The passes over a rule's blocks (threading jumps, copying a block where it is entered) work on
the nodes: :func:`walk` visits them, :func:`transform` builds a new tree from an old one (a
suite's body may be shared by several trees: nothing here changes a list it did not make, except
the writer the list belongs to), :func:`size` counts the lines a tree is written as.
"""
from __future__ import annotations

import contextlib
from typing import Callable, Iterable, Optional

from rulelang.kinds import Frame

LINE_MAP = "__rulelang_lines__"     # the namespace entry of a generated function's line map
FILENAME = "<rulelang>"             # the file name generated code is compiled under
STEP = "    "                       # one level of indentation


class Node:
    """A part of a generated function: a line, or the lines under the line before it."""
    __slots__ = ("span",)
    # how many lines it is written as (a decision, a call: more than one)
    width = 1

    def __init__(self, span=None):
        self.span = span

    def text(self) -> str:
        """The line of Python the node is written as (without its indentation)."""
        raise NotImplementedError

    def texts(self) -> tuple:
        """The lines of Python the node is written as."""
        return (self.text(),)


class Code(Node):
    """One line of Python (a statement, or the head of a compound statement, ``if x:``)."""
    __slots__ = ("code",)

    def __init__(self, code: str, span=None):
        super().__init__(span)
        self.code = code

    def text(self) -> str:
        return self.code


class Suite(Node):
    """The lines under the line before it, one level of indentation in."""
    __slots__ = ("body",)

    def __init__(self, body: list, span=None):
        super().__init__(span)
        self.body = body

    def text(self) -> str:
        raise TypeError("a suite is lines, not a line")


class Jump(Node):
    """A jump to block ``target`` of a rule's function: ``pc = N; continue``."""
    __slots__ = ("target",)

    def __init__(self, target: int, span=None):
        super().__init__(span)
        self.target = int(target)

    def text(self) -> str:
        return f"pc = {self.target}; continue"


class Enter(Jump):
    """The playout variant's jump into the body of the alternative just chosen (block
    ``target``), which ``PlayoutGen.expand_entries`` replaces by a copy of that block."""
    __slots__ = ()


class Return(Node):
    """``return CODE``: the function is left (with a code of the run loop, a value...)."""
    __slots__ = ("code",)

    def __init__(self, code, span=None):
        super().__init__(span)
        self.code = str(code)

    def text(self) -> str:
        return f"return {self.code}" if self.code else "return"


class Decide(Return):
    """The function stops for a decision: what the state awaits (``slot``, ``awaiting`` for one
    seat's, ``decision`` for choices made together, set to the code ``value``), then
    ``return SUSPEND`` (``code``).  A pass sees a decision as such, not as lines before a
    return."""
    __slots__ = ("slot", "value")
    width = 2

    def __init__(self, slot: str, value: str, code, span=None):
        super().__init__(code, span)
        self.slot, self.value = slot, value

    def texts(self) -> tuple:
        return (f"g.{self.slot} = {self.value}", f"return {self.code}")


class Call(Return):
    """The function calls a rule through the run loop: where to resume (``resume``, a block),
    the callee's new frame (``frame``, the code of its entries) pushed on the game's stack, then
    ``return CALL`` (``code``)."""
    __slots__ = ("resume", "frame")
    width = 3

    def __init__(self, resume: int, frame: str, code, span=None):
        super().__init__(code, span)
        self.resume, self.frame = int(resume), frame

    def texts(self) -> tuple:
        return (f"fr[{Frame.POSITION}] = {self.resume}", f"g.stack.append([{self.frame}])",
                f"return {self.code}")


class Pick(Node):
    """The playout variant takes a decision in place (PlayoutGen.policy_pick), where the API's
    function stops for it (:class:`Decide`): the action ``action`` that the playout's index
    policy (the code ``policy``) picks for the chooser ``chooser`` among the legal actions
    ``legal`` (``out``, or the list ``merge``, a line, makes of it by merging the copies of a
    card), counted as ``State.playout`` counts a decision (``counts``: the codes of the
    decisions, the choices offered and the forced decisions; ``size`` names how many there
    are); a forced decision asks the policy unless ``skip``.  With ``driver``, where no index
    policy is set the playout's driver picks (``_pick``), counting on the state.  Written as
    the lines that do it; a pass sees one decision, not lines."""
    __slots__ = ("action", "chooser", "legal", "merge", "size", "counts", "policy", "skip",
                 "driver")

    def __init__(self, action: str, chooser: str, legal: str, merge: Optional[str], size: str,
                 counts: tuple, policy: str, skip: str, driver: bool, span=None):
        super().__init__(span)
        self.action, self.chooser, self.legal, self.merge = action, chooser, legal, merge
        self.size, self.counts, self.policy, self.skip = size, counts, policy, skip
        self.driver = driver

    @property               # type: ignore[override]
    def width(self) -> int:
        return len(self.texts())

    def texts(self) -> tuple:
        a, who, legal, k, pk = self.action, self.chooser, self.legal, self.size, self.policy
        dc, ch, fo = self.counts
        body = ((self.merge,) if self.merge is not None else ()) + (
            f"{k} = len({legal})", f"{ch} += {k}", f"if {k} == 1:", STEP + f"{fo} += 1",
            STEP + f"{a} = {legal}[0] if {self.skip} else {legal}[{pk}[{who}](1)]", "else:",
            STEP + f"{a} = {legal}[{pk}[{who}]({k})]", f"{dc} += 1")
        if not self.driver:
            return body
        return (f"if {pk} is None:", STEP + f"{a} = _pick(g, out, {who})",
                STEP + "g.decisions += 1", "else:") + tuple(STEP + t for t in body)


class Pass(Node):
    """``pass``: a statement with nothing to do (a body may then be found to do nothing)."""
    __slots__ = ()

    def text(self) -> str:
        return "pass"


class Later(Code):
    """A line whose text is known only after the lines that follow it are written (the
    structured turn's zones, bound before the loop that reads them); left out while empty."""
    __slots__ = ()

    def __init__(self, span=None):
        super().__init__("", span)


def walk(items: Iterable[Node]):
    """Every node of ``items``, suites' bodies included, in the order they are written."""
    stack = [iter(items)]
    while stack:
        for node in stack[-1]:
            yield node
            if type(node) is Suite:
                stack.append(iter(node.body))
                break
        else:
            stack.pop()


def size(items: Iterable[Node]) -> int:
    """How many lines ``items`` are written as (a suite is the lines of its body)."""
    return sum(size(n.body) if isinstance(n, Suite) else n.width for n in items)


def transform(items: Iterable[Node], fn: Callable[[Node], Optional[list]]) -> list:
    """A new list of nodes: each node of ``items`` but a suite replaced by ``fn(node)`` when that
    is not None (a list of nodes), else kept; a suite by a new suite of its body transformed."""
    out = []
    for node in items:
        if isinstance(node, Suite):
            out.append(Suite(transform(node.body, fn), node.span))
            continue
        new = fn(node)
        if new is None:
            out.append(node)
        else:
            out.extend(new)
    return out


def remove(items: list, gone) -> None:
    """Take the node ``gone`` (that very node) out of ``items`` or the suites in them."""
    for i, node in enumerate(items):
        if node is gone:
            del items[i]
            return
        if isinstance(node, Suite):
            remove(node.body, gone)


def mark(items: Iterable[Node], span) -> None:
    """The nodes of ``items`` that have no span yet were written for the statement at ``span``
    (the nodes of the statements inside it were marked first, with their own)."""
    if span is None:
        return
    todo = [items]
    while todo:
        for node in todo.pop():
            if type(node) is Suite:
                todo.append(node.body)
            elif node.span is None:
                node.span = span


def render(items: Iterable[Node], level: int = 0) -> list:
    """The lines of ``items`` at indentation ``level``: ``(text, span)`` each."""
    out: list = []
    _render(items, level, out)
    return out


def _render(items, level, out):
    ind = STEP * level
    for node in items:
        if type(node) is Suite:
            _render(node.body, level + 1, out)
        elif type(node) is Code:
            out.append((ind + node.code, node.span))
        elif node.width > 1:
            out.extend((ind + t, node.span) for t in node.texts())
        elif not isinstance(node, Later) or node.code:
            out.append((ind + node.text(), node.span))


class CodeWriter:
    """The nodes of one generated function (or of one block of it): ``writeline`` at the
    current level, ``indent`` for a suite, ``extend`` for nodes written elsewhere, and the nodes
    of a rule's function (``jump``, ``enter``, ``ret``, ``pass_``).  ``items`` is what it wrote
    at its own first level."""

    def __init__(self, items: Optional[list] = None):
        self.items: list = [] if items is None else items
        self._open = [self.items]     # the suites being written, innermost last

    @property
    def level(self) -> int:
        return len(self._open) - 1

    def _add(self, node: Node) -> Node:
        self._open[-1].append(node)
        return node

    def writeline(self, text: str, span=None) -> Code:
        return self._add(Code(text, span))

    def jump(self, target: int) -> Jump:
        return self._add(Jump(target))

    def enter(self, target: int) -> Enter:
        return self._add(Enter(target))

    def ret(self, code) -> Return:
        return self._add(Return(code))

    def decide(self, slot: str, value: str, code) -> Decide:
        return self._add(Decide(slot, value, code))

    def call(self, resume: int, frame: str, code) -> Call:
        return self._add(Call(resume, frame, code))

    def pick(self, *args, **kwargs) -> Pick:
        return self._add(Pick(*args, **kwargs))

    def pass_(self) -> Pass:
        return self._add(Pass())

    def later(self) -> Later:
        return self._add(Later())

    @contextlib.contextmanager
    def indent(self):
        suite = self._add(Suite([]))
        self._open.append(suite.body)
        try:
            yield self
        finally:
            self._open.pop()

    def nested(self) -> "CodeWriter":
        """A writer of a new suite here: what it writes is one level in from this writer's
        current level (the rest of a statement under an ``else:``)."""
        return CodeWriter(self._add(Suite([])).body)

    def extend(self, nodes: Iterable[Node]) -> None:
        self._open[-1].extend(nodes)

    def position(self) -> tuple:
        """Where the next node goes: for :meth:`since`, :meth:`truncate` and :meth:`spanning`."""
        return self._open[-1], len(self._open[-1])

    @staticmethod
    def since(pos) -> list:
        """The nodes written at the level of ``pos`` from there on (with their suites)."""
        items, start = pos
        return items[start:]

    @staticmethod
    def truncate(pos) -> None:
        """Take back what was written from ``pos`` on."""
        items, start = pos
        del items[start:]

    @contextlib.contextmanager
    def spanning(self, span):
        """The nodes written meanwhile that have no span of their own were written for the
        statement at ``span`` (:func:`mark`)."""
        pos = self.position()
        try:
            yield self
        finally:
            mark(self.since(pos), span)

    def source(self) -> str:
        return "\n".join(t for t, _ in render(self.items)) + "\n"

    def line_map(self) -> tuple:
        """The span of each line of :meth:`source` (line 1 first), None where unknown."""
        return tuple(span for _, span in render(self.items))


def rule_span(tb) -> Optional[object]:
    """The rule-file span of the innermost line of generated code in the traceback ``tb`` whose
    function has a line map and whose line has a span; None if there is none."""
    found = None
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename == FILENAME:
            spans = frame.f_globals.get(LINE_MAP)
            if spans and 0 < tb.tb_lineno <= len(spans) and spans[tb.tb_lineno - 1] is not None:
                found = spans[tb.tb_lineno - 1]
        tb = tb.tb_next
    return found
