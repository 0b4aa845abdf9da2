"""SQLite's cached scope matrix takes a write's new rows without copying its old ones."""

from __future__ import annotations

import numpy as np

from cognimem.store.sqlite.scopes import Columns
from cognimem.store.sqlite.vectors import ScopeMatrix

DIM = 4


def _rows(start: int, n: int, seed: int) -> ScopeMatrix:
    """``n`` rows from rowid ``start``, as a load after ``start - 1`` would give them."""
    rows = [(start + i, f"m{start + i}", None, None, "episode", "active", 0, None, None)
            for i in range(n)]  # fmt: skip
    matrix = np.random.default_rng(seed).random((n, DIM), dtype=np.float32)
    return ScopeMatrix(start + n, 0, start + n - 1, Columns.of(rows), matrix)


def test_appends_fill_the_room_after_the_rows_and_leave_older_entries_as_they_were() -> None:
    base = _rows(0, 8, 1)
    parts = [base, _rows(8, 1, 2), _rows(9, 1, 3), _rows(10, 5, 4), _rows(15, 1, 5)]
    entries = [base]
    for part in parts[1:]:
        entries.append(entries[-1].append(part))
    for i, entry in enumerate(entries):  # each still holds exactly its own rows
        expected = np.vstack([p.matrix for p in parts[: i + 1]])
        assert np.array_equal(entry.matrix, expected)
        assert entry.cols.ids.tolist() == [f"m{r}" for r in range(len(expected))]
        assert entry.max_rowid == len(expected) - 1
    # one row after ten (room for two more): written after them, not a copy of them
    assert np.shares_memory(entries[1].matrix, entries[2].matrix)
    # five after eleven did not fit: a new array, with room again
    assert not np.shares_memory(entries[2].matrix, entries[3].matrix)
    assert np.shares_memory(entries[3].matrix, entries[4].matrix)
    # an older entry appending the same rows again (another reader) agrees
    again = entries[2].append(_rows(10, 5, 4))
    assert np.array_equal(again.matrix, entries[3].matrix)
    assert np.array_equal(entries[4].matrix[:15], again.matrix)


def test_an_append_of_no_rows_keeps_the_matrix_and_takes_the_version() -> None:
    base = _rows(0, 3, 1)
    empty = ScopeMatrix(9, 0, 2, Columns.of([]), np.zeros((0, 0), dtype=np.float32))
    same = base.append(empty)
    assert same.matrix is base.matrix
    assert same.version == 9
