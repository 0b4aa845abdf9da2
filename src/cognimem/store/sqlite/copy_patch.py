"""What SQLite's per-process copies of a scope's facts share when a read patches one
after this process's own writes (``fact_changes.FactChangeLog`` names the facts they
touched) instead of loading it again: each row's place, the touched facts read again by
id, and the rows the patched copy holds.

A copy holds a scope's newest ``limit`` facts (of any status: ``scope_facts.py``; live
ones: ``live_rows.py``) by (recorded time, rowid). A copy of fewer than ``limit`` holds
them all; a full one may have left older facts unread, so it is patched only when the
rows it keeps still fill it and none of the touched facts falls below its oldest (else
a fresh load)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from cognimem.store.fact_copies import Kept
from cognimem.store.sqlite.rows import query

T = TypeVar("T")
E = TypeVar("E")

# a fact's place, newest first: (recorded_at, rowid), both integers
Order = tuple[int, int]
_BY_ID = 500  # ids a statement asks for at once

SCOPE = "tenant_id = ? AND namespace = ? AND user_id IS ?"


class ScopeRead(NamedTuple):
    """A scope's newest ``limit`` rows, as the reads that keep a copy per scope ask for
    them (``fact_rows``, ``scope_facts``, ``graph_edges``) and key that copy by."""

    tenant_id: str
    namespace: str
    user_id: str | None
    limit: int


@dataclass(frozen=True)
class Loaded(Generic[T]):
    """A copy and, parallel to its rows, each one's place."""

    value: T
    order: list[Order]


@dataclass(frozen=True)
class CopyKind(Generic[T]):
    """How one kind of copy is read whole (``load``), patched with the facts a write
    touched (``patched``: None when it cannot tell what it would hold) and kept with
    its version and rows' places (``keep``)."""

    load: Callable[[sqlite3.Connection, ScopeRead], Loaded[T]]
    patched: Callable[[sqlite3.Connection, Kept[T], ScopeRead, Collection[str]], Loaded[T] | None]
    keep: Callable[[int, T, Sequence[Order]], Kept[T]]


def place(row: sqlite3.Row) -> Order:
    """A row's place, read with ``recorded_at`` and ``rowid AS row_order``."""
    return int(row["recorded_at"]), int(row["row_order"])


def read_again(
    conn: sqlite3.Connection, select: str, args: Sequence[object], ids: Collection[str]
) -> list[sqlite3.Row]:
    """The rows of ``select`` (a statement whose WHERE ends with its conditions, ``args``
    their values) among the facts ``ids``, a few hundred ids a statement."""
    ordered = sorted(ids)
    found: list[sqlite3.Row] = []
    for start in range(0, len(ordered), _BY_ID):
        part = ordered[start : start + _BY_ID]
        found += query(conn, f"{select} AND id IN ({', '.join('?' * len(part))})", (*args, *part))
    return found


def placed(
    places: Sequence[Order], entries: list[tuple[Order, E]], limit: int
) -> list[tuple[Order, E]] | None:
    """The rows a copy holds once patched, newest first: ``entries`` are the rows of the
    copy (at ``places``) that no write touched and the touched facts read again that
    belong in it; None when a full copy could have left out a row it now needs."""
    entries.sort(key=lambda e: e[0], reverse=True)  # nearly sorted: about linear
    if len(places) < limit:  # the copy held every fact: it still does
        return entries[:limit]
    # a full copy may have left older facts unread: what it holds must still fill it,
    # from above its oldest fact (``Order`` values are unique, rowid last)
    oldest = places[-1] if places else None
    above = [e for e in entries if oldest is None or e[0] >= oldest]
    if len(above) < limit:
        return None
    return above[:limit]


__all__ = ["SCOPE", "CopyKind", "Loaded", "Order", "ScopeRead", "place", "placed", "read_again"]
