"""Walking and copying the tree: every node under a node (:func:`_walk`), whether the file uses a
kind of node, the shape of a define's arguments (uses of the same shape share one checked copy)
and the copy of a define's body with its arguments in place (:func:`_substitute`)."""
from __future__ import annotations

import attrs

from rulelang.syntax import ast as A
from rulelang.check.model import Arg


_FIELD_NAMES: dict = {}     # class -> names of its attrs fields (None: not an attrs class)


def _fields_of(cls):
    names = _FIELD_NAMES.get(cls, ())
    if names == ():
        names = _FIELD_NAMES[cls] = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else None
    return names


def _walk(node):
    """Every node under ``node``, depth first: lists and tuples are flattened, and from a node
    the walk goes into those of its fields that hold nodes, lists or tuples.  Kept tight: the
    checker walks the whole file several times, and this was a fifth of its time."""
    stack = [node]
    pop, push, extend, get = stack.pop, stack.append, stack.extend, _FIELD_NAMES.get
    seq = (list, tuple)
    while stack:
        n = pop()
        if isinstance(n, seq):
            extend(n)
            continue
        yield n
        names = get(type(n), ())
        if names == ():
            names = _fields_of(type(n))
        for name in names or ():
            v = getattr(n, name)
            if isinstance(v, seq):
                push(v)
            else:
                kind = get(type(v), ())
                if kind == ():
                    kind = _fields_of(type(v))
                if kind is not None:
                    push(v)


def rebuilt(n, fix):
    """``n`` with ``fix`` applied to each of its parts (the items of a tuple, the fields of a
    node; spans and plain values as they are): ``n`` itself when no part changed, so a rewrite
    that finds nothing to do copies nothing."""
    if isinstance(n, tuple):
        out = tuple(fix(x) for x in n)
        return out if any(a is not b for a, b in zip(out, n)) else n
    if not attrs.has(type(n)) or isinstance(n, A.Span):
        return n
    changes = {}
    for f in attrs.fields(type(n)):
        v = getattr(n, f.name)
        nv = fix(v)
        if nv is not v:
            changes[f.name] = nv
    return attrs.evolve(n, **changes) if changes else n


def _mentions(decls, cls):
    return any(isinstance(n, cls) for n in _walk(decls))


def _shape(node, refs):
    """A key equal for two checked argument lists that mean the same: the structure without
    spans, with what each node was resolved to; an argument already placed (Arg) by the node
    it stands for."""
    if isinstance(node, Arg):
        while isinstance(node, Arg):
            node = node.expr
        return ("arg", id(node))
    if isinstance(node, tuple):
        return tuple(_shape(x, refs) for x in node)
    if isinstance(node, A.Span):
        return None
    if attrs.has(type(node)):
        ref = refs.of(node, None)
        return (type(node).__name__, ref) + \
            tuple(_shape(getattr(node, f.name), refs) for f in attrs.fields(type(node)))
    return node


def _substitute(node, mapping):
    """A copy of an expression with each parameter name replaced by its argument."""
    if isinstance(node, A.Name) and node.name in mapping:
        return mapping[node.name]
    if isinstance(node, tuple):
        return tuple(_substitute(x, mapping) for x in node)
    if isinstance(node, (Arg,)):
        return node
    if attrs.has(type(node)) and isinstance(node, A.Expr):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if isinstance(v, (A.Expr, tuple)):
                changes[f.name] = _substitute(v, mapping)
        return attrs.evolve(node, **changes)
    return node
