"""Constant values: what an expression is when it depends only on the options and the number of
players (a deal's count, a divisor, the deck's copies), worked out for each allowed number of
players; the numbers of players said as ranges (``2 to 4, 7``)."""
from __future__ import annotations

from rulelang.kinds import FLAG, NUMBER
from rulelang.syntax import ast as A
from rulelang.check.ir import Const, DefineUse
from rulelang.check.model import Arg, Expanded


class _NotConstant(Exception):
    pass


def const_value(checker, e, n):
    """The value of an expression that depends only on options and the number of players ``n``,
    or None."""
    try:
        return _const(checker, e, n)
    except (_NotConstant, ZeroDivisionError, TypeError, RecursionError):
        return None


def _const(c, e, n):
    if isinstance(e, A.Int):
        return e.value
    if isinstance(e, A.Bool):
        return e.value
    if isinstance(e, A.Keyword) and e.word == "number of players":
        return n
    if isinstance(e, A.Name):
        ref = c.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return _const_expanded(c, ref.expanded, n)
        o = c.options.get(e.name)
        if o is not None and o.type in (NUMBER, FLAG) and isinstance(ref, Const):
            return o.value
        raise _NotConstant
    if isinstance(e, (Expanded,)):
        return _const_expanded(c, e, n)
    if isinstance(e, Arg):
        return _const(c, e.expr, n)
    if isinstance(e, A.Call):
        ref = c.refs.of(e, None)
        if isinstance(ref, DefineUse):
            return _const_expanded(c, ref.expanded, n)
        raise _NotConstant
    if isinstance(e, A.Arith):
        a, b = _const(c, e.left, n), _const(c, e.right, n)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "/": lambda: a // b, "mod": lambda: a % b}[e.op]()
    if isinstance(e, A.Unary) and e.op == "neg":
        return -_const(c, e.operand, n)
    if isinstance(e, A.Unary) and e.op == "not":
        return not _const(c, e.operand, n)
    if isinstance(e, A.Compare):
        a, b = _const(c, e.left, n), _const(c, e.right, n)
        return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[e.op]
    if isinstance(e, A.BoolOp):
        vals = [_const(c, i, n) for i in e.items]
        return all(vals) if e.op == "and" else any(vals)
    if isinstance(e, A.Cases):
        for value, cond in e.cases:
            if _const(c, cond, n):
                return _const(c, value, n)
        return _const(c, e.default, n)
    raise _NotConstant


def _const_expanded(c, ex, n):
    """The value of a use of a define, computed once per shared copy (see Checker.expand)."""
    memo = c.__dict__.setdefault("_const_memo", {})
    key = (id(ex), n)
    if key not in memo:
        try:
            memo[key] = (_const(c, ex.body, n), ex)
        except _NotConstant:
            memo[key] = (_NotConstant, ex)
    value = memo[key][0]
    if value is _NotConstant:
        raise _NotConstant
    return value


def _counted(c, e, counts):
    """The value of ``e`` for each number of players in ``counts`` (None where it is not known
    before the game), worked out once when ``e`` does not depend on the number of players."""
    k = const_value(c, e, None)
    if k is not None:
        return {n: k for n in counts}
    return {n: const_value(c, e, n) for n in counts}


def _ranges(counts) -> str:
    """``2, 3, 4, 7`` as ``2 to 4, 7``."""
    out, start, prev = [], None, None
    for n in list(counts) + [None]:
        if start is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(str(start) if start == prev else
                       f"{start}, {prev}" if prev == start + 1 else f"{start} to {prev}")
        start = prev = n
    return ", ".join(out)
