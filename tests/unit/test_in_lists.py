"""``in_chunks``: every id asked for exactly once, in order, in parts SQLite can bind."""

from __future__ import annotations

import sqlite3

import pytest

from cognimem.store.sqlite.in_lists import IN_LIST, in_chunks, marks


@pytest.mark.parametrize("count", [0, 1, IN_LIST - 1, IN_LIST, IN_LIST + 1, 3 * IN_LIST + 7])
def test_parts_cover_every_value_once_in_order(count: int) -> None:
    values = [f"id{i}" for i in range(count)]
    parts = list(in_chunks(values))
    assert [v for part, _ in parts for v in part] == values
    assert all(0 < len(part) <= IN_LIST for part, _ in parts)
    assert len(parts) == -(-count // IN_LIST)
    assert all(m.count("?") == len(part) for part, m in parts)


def test_each_part_runs_as_one_statement() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
    conn.executemany("INSERT INTO t VALUES (?)", [(f"id{i}",) for i in range(0, 1200, 2)])
    wanted = [f"id{i}" for i in range(1200)]
    found = [
        r[0]
        for part, m in in_chunks(wanted, size=250)
        for r in conn.execute(f"SELECT id FROM t WHERE id IN ({m}) ORDER BY rowid", part)
    ]
    assert found == [f"id{i}" for i in range(0, 1200, 2)]


def test_marks() -> None:
    assert marks(0) == ""
    assert marks(3) == "?, ?, ?"
