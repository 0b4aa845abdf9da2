"""A SQLite scope below the index threshold is scanned exactly (``store/sqlite/vectors.py``):
its search returns the rows a full sort of every allowed row's score gives, highest
first, a tie going to the earlier-written row, on a scope large enough for the scan's
floor of block maxima (≥ 40 × the limit rows) and on one below it, filtered or not.
Real SQLite files throughout."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cognimem.models import ItemKind, Scope
from cognimem.store import ItemFilter
from cognimem.store.sqlite import SQLiteStore, quantized, vector_rows, vectors
from cognimem.store.sqlite.scopes import ScopeRef, read_version, user_key
from tests.contract.builders import WINDOW
from tests.contract.conftest import message, vec

ALICE = Scope(tenant_id="t1", user_id="alice")
# few texts, each written many times: every score is shared by many rows (ties)
TEXTS = [f"paddled the kayak past bridge {i} at dawn" for i in range(7)]


def _expected(
    texts: list[str], kinds: list[ItemKind], ids: list[str], query: str, kind: ItemKind | None
) -> list[tuple[str, float]]:
    """Every allowed row by score, highest first, ties in the order the rows were written."""
    rows = [n for n, k in enumerate(kinds) if kind is None or k is kind]
    scores = np.vstack([vec(texts[n]) for n in rows]) @ vec(query)
    order = sorted(range(len(rows)), key=lambda i: (-float(scores[i]), i))
    return [(ids[rows[i]], float(scores[i])) for i in order]


@pytest.mark.parametrize("limit", [1, 3, 10, 60])
async def test_sqlite_an_exact_search_is_a_full_sort_ties_to_the_earlier_row(
    tmp_path: Path, limit: int
) -> None:
    store = SQLiteStore(tmp_path / "scan.db", vector_index_min_rows=None)
    await store.open()
    texts = [TEXTS[(n * 5) % len(TEXTS)] for n in range(420)]
    kinds = [ItemKind.FACT if n % 4 == 0 else ItemKind.EPISODE for n in range(420)]
    try:
        done = await store.commit(
            [
                message(f"event {n}", ALICE, kind=k, chunks=[t])
                for n, (t, k) in enumerate(zip(texts, kinds, strict=True))
            ],
            WINDOW,
        )
        ids = [i for d in done for i in d.item_ids]
        assert len(ids) == len(texts)
        for query in ("a kayak under bridge 3", TEXTS[2]):
            for kind in (None, ItemKind.EPISODE, ItemKind.FACT):
                flt = ItemFilter(scope=ALICE, kinds=None if kind is None else (kind,))
                found = await store.vector_search(flt, vec(query), limit)
                want = _expected(texts, kinds, ids, query, kind)[:limit]
                assert [c.item_id for c in found] == [i for i, _ in want]
                assert [c.score for c in found] == pytest.approx([s for _, s in want], abs=1e-6)
    finally:
        await store.close()


async def test_sqlite_a_scan_through_the_int8_copy_is_the_same_full_sort(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scope with an int8 copy of its matrix (``quantized.py``; made here from 300
    rows instead of 4,096) returns what a full sort returns, to the float, before and
    after rows are appended past the copy; the copy did pick the candidates, fewer than
    the rows allowed."""
    monkeypatch.setattr(quantized, "MIN_ROWS", 300)
    picked: list[int] = []
    pick = quantized.candidates

    def counted(*args: Any) -> np.ndarray:
        rows = pick(*args)
        picked.append(rows.size)
        return rows

    monkeypatch.setattr(quantized, "candidates", counted)
    store = SQLiteStore(tmp_path / "copy.db", vector_index_min_rows=None)
    await store.open()
    texts = [f"paddled the kayak past bridge {n % 53} on day {n % 11}" for n in range(420)]
    kinds = [ItemKind.FACT if n % 4 == 0 else ItemKind.EPISODE for n in range(420)]
    ids: list[str] = []

    async def write(start: int, end: int) -> None:
        done = await store.commit(
            [
                message(f"event {n}", ALICE, kind=kinds[n], chunks=[texts[n]])
                for n in range(start, end)
            ],
            WINDOW,
        )
        ids.extend(i for d in done for i in d.item_ids)

    try:
        for end in (360, 420):  # the last 60 rows are appended after the copy is made
            await write(len(ids), end)
            for query in ("a kayak under bridge 3 on day 4", texts[7]):
                for kind in (None, ItemKind.EPISODE):
                    flt = ItemFilter(scope=ALICE, kinds=None if kind is None else (kind,))
                    found = await store.vector_search(flt, vec(query), 25)
                    want = _expected(texts[:end], kinds[:end], ids, query, kind)[:25]
                    assert [c.item_id for c in found] == [i for i, _ in want]
                    assert [c.score for c in found] == pytest.approx([s for _, s in want], abs=1e-6)
    finally:
        await store.close()
    assert len(picked) == 8
    assert min(picked) < 60  # of 270-420 allowed rows


@pytest.mark.parametrize("load_rows", [5, vector_rows.LOAD_ROWS])
async def test_sqlite_a_scope_read_in_the_index_order_is_in_rowid_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, load_rows: int
) -> None:
    # the rows come in the order of the items_scope index (status, then time) and each
    # goes to its place among the scope's rowids; rows without a vector leave no gap:
    # the entry is the rows with a vector in rowid order, whole or a part at a time
    store = SQLiteStore(tmp_path / "parts.db", vector_index_min_rows=None)
    await store.open()
    try:
        await store.commit(
            [message(f"event {n}", ALICE, chunks=[TEXTS[n % len(TEXTS)]]) for n in range(23)],
            WINDOW,
        )
        conn = sqlite3.connect(store.path)
        rowids = [r[0] for r in conn.execute("SELECT rowid FROM items ORDER BY rowid")]
        with conn:  # the index's order is not the rowids': later rows first, some silent
            for n, rowid in enumerate(rowids):
                conn.execute(
                    "UPDATE items SET occurred_at = ?, status = ? WHERE rowid = ?",
                    (10_000 - n, "silent" if n % 5 == 1 else "active", rowid),
                )
            conn.execute("UPDATE items SET embedding = NULL WHERE rowid IN (?, ?, ?)", rowids[3:6])
        scope = ScopeRef("t1", "default", "alice")
        unordered = scope.cursor(conn, "SELECT i.rowid FROM items i", 0, ordered=False)
        assert [r[0] for r in unordered] != rowids
        version = read_version(conn, "t1", "default", user_key("alice"))
        monkeypatch.setattr(vector_rows, "LOAD_ROWS", load_rows)
        for after in (0, rowids[6]):
            expected = conn.execute(
                "SELECT rowid, id, embedding FROM items WHERE rowid > ?"
                " AND embedding IS NOT NULL ORDER BY rowid",
                (after,),
            ).fetchall()
            loaded = vectors.load(conn, scope, after, version)
            assert loaded.rowids.tolist() == [r[0] for r in expected]
            assert loaded.cols.ids.tolist() == [r[1] for r in expected]
            assert loaded.matrix.dtype == np.float32
            want = np.vstack([np.frombuffer(r[2], dtype=np.float32) for r in expected])
            assert np.array_equal(loaded.matrix, want)
            assert loaded.max_rowid == rowids[-1]
        conn.close()
    finally:
        await store.close()
