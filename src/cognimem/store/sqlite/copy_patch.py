"""What SQLite's per-process copies of a scope's facts share when a read patches one
after this process's own writes (``fact_changes.FactChangeLog`` names the facts they
touched) instead of loading it again: each row's place, the touched facts read again by
id, and the rows the patched copy holds.

A copy holds a scope's newest ``limit`` facts (of any status: ``scope_facts.py``; live
ones: ``live_rows.py``) by (recorded time, rowid). A copy of fewer than ``limit`` holds
them all; a full one may have left older facts unread: it keeps the rows from its
oldest up, and when a write left fewer than ``limit`` of them (a fact superseded or
deleted, moved below) the next older rows are read to fill it (``below``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from cognimem.store.fact_copies import Kept
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.sqlite.rows import query

T = TypeVar("T")
E = TypeVar("E")

# a fact's place, newest first: (recorded_at, rowid), both integers
Order = tuple[int, int]

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
    for part, marks in in_chunks(ordered):
        found += query(conn, f"{select} AND id IN ({marks})", (*args, *part))
    return found


def read_below(
    conn: sqlite3.Connection, select: str, where: str, args: Sequence[object], at: Order, n: int
) -> list[sqlite3.Row]:
    """The ``n`` newest rows of ``select ... FROM facts WHERE where`` (``args`` its values)
    older than the place ``at``, newest first."""
    return query(
        conn,
        # the rows are chosen without touching the embedding blobs (as a load chooses them)
        f"{select} FROM facts WHERE rowid IN (SELECT rowid FROM facts WHERE {where}"
        " AND (recorded_at < ? OR (recorded_at = ? AND rowid < ?))"
        " ORDER BY recorded_at DESC, rowid DESC LIMIT ?) ORDER BY recorded_at DESC, rowid DESC",
        (*args, at[0], at[0], at[1], n),
    )


def placed(
    places: Sequence[Order],
    entries: list[tuple[Order, E]],
    limit: int,
    below: Callable[[Order, int], list[tuple[Order, E]]],
) -> list[tuple[Order, E]]:
    """The rows a copy holds once patched, newest first: ``entries`` are the rows of the
    copy (at ``places``) that no write touched and the touched facts read again that
    belong in it; ``below(place, n)`` reads the ``n`` newest rows older than ``place``."""
    entries.sort(key=lambda e: e[0], reverse=True)  # nearly sorted: about linear
    if len(places) < limit or not places:  # the copy held every fact: it still does
        return entries[:limit]
    # a full copy may have left older facts unread: it holds what it knows from its
    # oldest fact up (``Order`` values are unique, rowid last; a touched fact now below
    # it is read there again), and the rows below that, when a write left it short
    oldest = places[-1]
    above = [e for e in entries if e[0] >= oldest]
    if len(above) < limit:
        above += below(oldest, limit - len(above))
    return above[:limit]


__all__ = [
    "SCOPE",
    "CopyKind",
    "Loaded",
    "Order",
    "ScopeRead",
    "place",
    "placed",
    "read_again",
    "read_below",
]
