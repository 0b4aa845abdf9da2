"""``IN (...)`` lists on SQLite: a long list of ids asked for a part at a time.

SQLite caps the parameters a statement binds (32,766 since 3.32, 999 before), so the
store asks for ids 500 at a time — far below either cap, and short enough that one
statement's plan stays cheap. One helper for every such loop in the SQLite modules.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

IN_LIST = 500  # ids per IN (...) list


def marks(count: int) -> str:
    """``?, ?, …`` for ``count`` parameters."""
    return ", ".join("?" * count)


def in_chunks(values: Sequence[T], size: int = IN_LIST) -> Iterator[tuple[Sequence[T], str]]:
    """``values`` a part of at most ``size`` at a time, each with its ``?`` marks."""
    for start in range(0, len(values), size):
        part = values[start : start + size]
        yield part, marks(len(part))
