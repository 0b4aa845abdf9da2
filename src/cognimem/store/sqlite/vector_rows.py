"""A SQLite scope's embedded rows and their vectors, read a part at a time (``vectors.py``
keeps them as the scope's matrix)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from cognimem.errors import StoreError
from cognimem.store.sqlite.scopes import OWN, ROW_COLUMNS, ScopeRef

# rows read at a time
LOAD_ROWS = 20_000


def read(
    conn: sqlite3.Connection, scope: ScopeRef, after_rowid: int
) -> tuple[list[Any], np.ndarray]:
    """The scope's embedded rows after a rowid (their columns, without the vector) in
    rowid order, and their vectors as one matrix.

    Read :data:`LOAD_ROWS` at a time into a matrix with a row for each of the scope's
    rows, so the vectors are never held twice over (at 1M rows, holding every row's
    bytes and then their join kept 3.5 GiB resident for a 1.5 GiB matrix). The rows
    come in the order of the ``items_scope`` index and each goes to its place among
    the scope's rowids (read first from that index): asked for in rowid order, SQLite
    copied every row with its vector into a temporary B-tree to sort them first, which
    more than doubled the read (100k rows: 0.29 -> 0.65-0.73 s of CPU)."""
    with _snapshot(conn):  # the rowids and the rows of one state of the file
        order = scope.rowids(conn, after_rowid)
        cursor = scope.cursor(
            conn,
            f"SELECT {ROW_COLUMNS}, embedding FROM items i",
            after_rowid,
            " AND embedding IS NOT NULL",
            ordered=False,
        )
        slots: list[Any] = [None] * len(order)
        held = np.zeros(len(order), dtype=bool)
        matrix: np.ndarray | None = None
        while chunk := cursor.fetchmany(LOAD_ROWS):
            if matrix is None:
                matrix = np.empty((len(order), len(chunk[0][OWN]) // 4), np.float32)
                size = matrix.shape[1] * 4
                into = matrix.data.cast("B")  # each vector's bytes copied in place
            at = _places(order, chunk)
            for place, row in zip(at.tolist(), chunk, strict=True):
                slots[place] = row[:OWN]
                into[place * size : (place + 1) * size] = row[OWN]
            held[at] = True
    if matrix is None:
        return [], np.zeros((0, 0), dtype=np.float32)
    return _packed(slots, held, matrix)


@contextmanager
def _snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """The statements inside read one snapshot: the caller's transaction, else one
    begun here."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def _places(order: np.ndarray, chunk: list[Any]) -> np.ndarray:
    """Each row's place among the scope's rowids ``order``."""
    rowids = np.fromiter((r[0] for r in chunk), dtype=np.int64, count=len(chunk))
    at = np.searchsorted(order, rowids)
    if at.size and (int(at.max()) >= len(order) or not np.array_equal(order[at], rowids)):
        raise StoreError("a scope's rows changed while its vectors were read")
    return at


def _packed(slots: list[Any], held: np.ndarray, matrix: np.ndarray) -> tuple[list[Any], np.ndarray]:
    """The rows that had a vector and their matrix rows, moved up over the places of the
    rows without one; a matrix with many such places is copied tight."""
    keep = np.flatnonzero(held)
    n = len(keep)
    if n == len(slots):
        return slots, matrix
    rows = [slots[place] for place in keep.tolist()]
    for start in range(0, n, LOAD_ROWS):  # a row never moves down: in place, in order
        part = keep[start : start + LOAD_ROWS]
        matrix[start : start + len(part)] = matrix[part]
    if len(matrix) - n > LOAD_ROWS:  # many rows without a vector: hold no room
        return rows, matrix[:n].copy()
    return rows, matrix[:n]
