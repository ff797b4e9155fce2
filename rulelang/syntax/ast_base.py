"""The base of the abstract syntax tree (:mod:`rulelang.syntax.ast`): where a node was written
(:class:`Span`), the node decorator, and a statement's parts declared with their kinds."""
from __future__ import annotations

from typing import Any, TypeVar, dataclass_transform

import attrs

from rulelang.kinds import Kind

T = TypeVar("T")


@attrs.frozen
class Span:
    """A region of a source file: 1-based line and column of its start and end."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"




def part(kind: Kind, what: str) -> Any:
    """A statement's part that must be a value of ``kind`` (a ``player`` part must name a seat);
    ``what`` names it in a message ("what to shuffle must be a zone, but this is a card")."""
    return attrs.field(metadata={"kind": kind, "what": what})


def parts(cls: type) -> list[tuple[str, Kind, str]]:
    """``(field name, kind, what)`` for each part of the statement class ``cls`` that declares
    its kind."""
    return [(f.name, f.metadata["kind"], f.metadata["what"]) for f in attrs.fields(cls)
            if "kind" in f.metadata]


@dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(attrs.field, part))
def node(cls: type[T]) -> type[T]:
    """Class decorator: a frozen attrs node whose identity is its object (nodes are keys in the
    checker's tables, and two identical expressions at different places are different nodes)."""
    return attrs.frozen(eq=False)(cls)
