"""A SQLite scope's embedded rows and their vectors, read a part at a time (``vectors.py``
keeps them as the scope's matrix)."""

from __future__ import annotations

import sqlite3
from typing import Any

import numpy as np

from cognimem.store.sqlite.scopes import OWN, ROW_COLUMNS, ScopeRef

# rows read at a time
LOAD_ROWS = 20_000


def read(
    conn: sqlite3.Connection, scope: ScopeRef, after_rowid: int
) -> tuple[list[Any], np.ndarray]:
    """The scope's embedded rows after a rowid (their columns, without the vector) and
    their vectors as one matrix.

    Read :data:`LOAD_ROWS` at a time into a matrix sized by the scope's row count, so
    the vectors are never held twice over: at 1M rows, holding every row's bytes and
    then their join kept 3.5 GiB resident for a 1.5 GiB matrix."""
    cursor = scope.cursor(
        conn,
        f"SELECT {ROW_COLUMNS}, embedding FROM items i",
        after_rowid,
        " AND embedding IS NOT NULL",
    )
    rows: list[Any] = []
    matrix = np.zeros((0, 0), dtype=np.float32)
    while chunk := cursor.fetchmany(LOAD_ROWS):
        if not rows:  # at most the scope's rows: some may have no vector
            size = max(scope.count(conn, after_rowid), len(chunk))
            matrix = np.empty((size, len(chunk[0][OWN]) // 4), np.float32)
        n, k = len(rows), len(chunk)
        if n + k > len(matrix):  # rows written since the count
            matrix = np.concatenate(
                [matrix, np.empty((n + k - len(matrix), matrix.shape[1]), np.float32)]
            )
        vectors = np.frombuffer(b"".join(r[OWN] for r in chunk), dtype=np.float32)
        matrix[n : n + k] = vectors.reshape(k, -1)
        rows.extend(r[:OWN] for r in chunk)
    if len(matrix) - len(rows) > LOAD_ROWS:  # many rows without a vector: hold no room
        return rows, matrix[: len(rows)].copy()
    return rows, matrix[: len(rows)]
