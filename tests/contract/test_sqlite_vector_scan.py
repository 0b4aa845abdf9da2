"""A SQLite scope below the index threshold is scanned exactly (``store/sqlite/vectors.py``):
its search returns the rows a full sort of every allowed row's score gives, highest
first, a tie going to the earlier-written row, on a scope large enough for the scan's
floor of block maxima (≥ 40 × the limit rows) and on one below it, filtered or not.
Real SQLite files throughout."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cognimem.models import ItemKind, Scope
from cognimem.store import ItemFilter
from cognimem.store.sqlite import SQLiteStore
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
