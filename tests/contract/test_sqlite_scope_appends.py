"""A cached SQLite scope brought up to date after a write (``store/sqlite/scopes.py``): the
rows appended since its last row are read by rowid when the table holds few rows past
it (not through ``items_scope``, whose every entry of the scope such a read scanned),
and through the index otherwise; either way the entry is the one a cold load gives.
Real SQLite files; other users' rows, the shared level's and a row without a vector
interleaved with the scope's."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cognimem.models import ItemStatus, Scope
from cognimem.store import ItemFilter
from cognimem.store.scope_columns import STATUS_CODES
from cognimem.store.sqlite import SQLiteStore, lexical, rows, vectors
from cognimem.store.sqlite.scopes import ScopeRef, read_version, user_key
from tests.contract.builders import WINDOW
from tests.contract.conftest import message, vec

ALICE = Scope(tenant_id="t1", user_id="alice")
BOB = Scope(tenant_id="t1", user_id="bob")
SHARED = Scope(tenant_id="t1")
OWNERS = [ALICE, BOB, ALICE, SHARED, ALICE]


def _text(n: int) -> str:
    return f"walked the dog to pier {n % 13} and back before {n % 7} o'clock"


async def _write(store: SQLiteStore, start: int, end: int) -> None:
    await store.commit(
        [
            message(f"event {n}", OWNERS[n % len(OWNERS)], chunks=[_text(n)])
            for n in range(start, end)
        ],
        WINDOW,
    )


def _plans(conn: sqlite3.Connection, statements: list[str]) -> list[str]:
    """SQLite's plan of each statement that read the scope's rows after a rowid."""
    return [
        " ".join(str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        for sql in statements
        if "i.rowid >" in sql
    ]


@pytest.mark.parametrize(
    "ref", [ScopeRef("t1", "default", "alice"), ScopeRef("t1", "default", None, shared=True)]
)
async def test_sqlite_rows_after_a_cached_entry_read_by_rowid_are_a_cold_loads_rows(
    tmp_path: Path, ref: ScopeRef
) -> None:
    store = SQLiteStore(tmp_path / "appends.db", vector_index_min_rows=None)
    await store.open()
    try:
        await _write(store, 0, 120)
        conn = sqlite3.connect(store.path)
        with conn:  # a row of the scope without a vector: no row of the matrix
            conn.execute(
                "UPDATE items SET embedding = NULL WHERE rowid = (SELECT max(rowid) - 3 FROM items)"
            )
        rowids = [r[0] for r in conn.execute("SELECT rowid FROM items ORDER BY rowid")]
        version = read_version(conn, "t1", "default", user_key(ref.user_id, shared=ref.shared))
        cold = vectors.load(conn, ref, 0, version)
        statements: list[str] = []
        conn.set_trace_callback(statements.append)
        # (rows past the cut, rows the entry holds): few past many held → by rowid
        for past, held, by_rowid in ((10, 100, True), (10, 79, False), (40, 100, False)):
            after = rowids[-past - 1]
            statements.clear()
            fresh = vectors.load(conn, replace(ref, held=held), after, version)
            keep = cold.rowids > after
            assert fresh.rowids.tolist() == cold.rowids[keep].tolist()
            assert fresh.cols.ids.tolist() == cold.cols.ids[keep].tolist()
            assert fresh.cols.status.tolist() == cold.cols.status[keep].tolist()
            assert np.array_equal(fresh.matrix, cold.matrix[keep])
            plans = _plans(conn, statements)
            assert len(plans) == 2  # the rowids, then the rows with their vectors
            assert all(("INTEGER PRIMARY KEY" in p) is by_rowid for p in plans), plans
            assert all(("items_scope" in p) is not by_rowid for p in plans), plans
            statements.clear()
            terms = lexical.load(conn, replace(ref, held=held), after, version)
            assert terms.cols.ids.tolist() == [  # every row of the scope, with a vector or not
                r[0]
                for r in conn.execute(
                    "SELECT id FROM items WHERE tenant_id = 't1' AND namespace = 'default'"
                    " AND user_id IS ? AND rowid > ? ORDER BY rowid",
                    (ref.user_id, after),
                )
            ]
            [plan] = _plans(conn, statements)
            assert ("INTEGER PRIMARY KEY" in plan) is by_rowid, plan
        conn.close()
    finally:
        await store.close()


async def test_sqlite_a_scope_brought_up_after_writes_searches_as_a_cold_one(
    tmp_path: Path,
) -> None:
    # writes of a few rows each to a scope cached at 100: each search appends them (by
    # rowid); the scope's searches then answer as a store that loads it cold
    path = tmp_path / "warm.db"
    store = SQLiteStore(path, vector_index_min_rows=None)
    await store.open()
    try:
        await _write(store, 0, 250)
        flt = ItemFilter(scope=ALICE)
        await store.vector_search(flt, vec(_text(1)), 5)
        for start in range(250, 290, 8):
            await _write(store, start, start + 8)
            await store.vector_search(flt, vec(_text(start)), 5)
            await store.lexical_search(flt, ["pier", "dog"], 5)
        warm = [await store.vector_search(flt, vec(_text(n)), 20) for n in range(290, 296)]
        words = await store.lexical_search(flt, ["pier", "clock"], 20)
    finally:
        await store.close()
    cold_store = SQLiteStore(path, vector_index_min_rows=None)
    await cold_store.open()
    try:
        cold = [await cold_store.vector_search(flt, vec(_text(n)), 20) for n in range(290, 296)]
        assert words == await cold_store.lexical_search(flt, ["pier", "clock"], 20)
    finally:
        await cold_store.close()
    assert [[(c.item_id, c.score) for c in one] for one in warm] == [
        [(c.item_id, c.score) for c in one] for one in cold
    ]


async def test_sqlite_statuses_read_again_are_a_cold_loads_after_changes_both_ways(
    tmp_path: Path,
) -> None:
    # after status changes alone the entry reads the statuses of the rows not active
    # (``vectors.restatus``): a row silenced, archived, then made active again, and rows
    # of another user changed beside them, leave it as a cold load of the scope
    store = SQLiteStore(tmp_path / "statuses.db", vector_index_min_rows=None)
    await store.open()
    try:
        await _write(store, 0, 60)
        conn = sqlite3.connect(store.path)
        ref = ScopeRef("t1", "default", "alice")
        ukey = user_key("alice")
        entry = vectors.load(conn, ref, 0, read_version(conn, "t1", "default", ukey))
        ids = entry.cols.ids.tolist()
        bob = [r[0] for r in conn.execute("SELECT id FROM items WHERE user_id = 'bob'")]
        steps = [
            ([ids[1], ids[4], bob[0]], ItemStatus.SILENT),
            ([ids[7]], ItemStatus.ARCHIVED),
            ([ids[1]], ItemStatus.ACTIVE),
            ([ids[9], bob[1]], ItemStatus.DELETED),
        ]
        for changed, status in steps:
            with conn:
                rows.set_status(conn, changed, status)
            version = read_version(conn, "t1", "default", ukey)
            again = vectors.restatus(conn, ref, entry, version)
            assert again is not None
            cold = vectors.load(conn, ref, 0, version)
            assert again.cols.ids.tolist() == cold.cols.ids.tolist()
            assert again.cols.status.tolist() == cold.cols.status.tolist()
            assert (again.version, again.mutations) == (cold.version, cold.mutations)
            entry = again
        assert (
            entry.cols.status.tolist().count(STATUS_CODES["active"]) == len(ids) - 3
        )  # 4, 7 and 9
        conn.close()
    finally:
        await store.close()
