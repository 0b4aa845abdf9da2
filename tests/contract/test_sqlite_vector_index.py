"""A SQLite scope past ``vector_index_min_rows`` is searched through its HNSW index
(``store/sqlite/ann.py``), which stays in step with the scope: after a write, a delete, a
forgetting, an edit of an item's text and another store's write, the index's searches
find what an exact scan of a store that never cached the scope finds, and the index
holds exactly the scope's embedded rows. After status changes alone (forgetting into
archived or silent, here or in another store) the cached matrix re-reads its rows'
statuses and keeps its vectors and its index as they were; any other change of stored
rows loads it anew. The indexes live in the store's cache budget and are evicted, least
recently used, beyond its cap. Real SQLite files throughout."""

from __future__ import annotations

import random
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cognimem.models import ItemStatus, Scope
from cognimem.store import ItemFilter
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.sqlite import SQLiteStore, ann, vectors
from cognimem.store.sqlite.scopes import user_key
from cognimem.store.types import Candidate
from tests.contract.builders import WINDOW, text_edit
from tests.contract.conftest import T0, message, vec

ALICE = Scope(tenant_id="t1", user_id="alice")
BOB = Scope(tenant_id="t1", user_id="bob")
MIN_ROWS = 100


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(3000)]
    return [" ".join(rng.sample(words, 5)) for _ in range(n)]


async def _fill(store: SQLiteStore, scope: Scope, texts: list[str]) -> list[str]:
    done = await store.commit([message(t, scope) for t in texts], WINDOW)
    return [r.item_ids[0] for r in done]


def _searches(store: SQLiteStore) -> dict[str, int]:
    return dict(store.vector_index_status()["searches"])  # type: ignore[call-overload]


async def _exact(path: Path, flt: ItemFilter, text: str, limit: int = 5) -> list[Candidate]:
    """What a store that never cached the scope and never indexes finds."""
    fresh = SQLiteStore(path, vector_index_min_rows=None)
    await fresh.open()
    try:
        return await fresh.vector_search(flt, vec(text), limit)
    finally:
        await fresh.close()


async def _indexed(store: SQLiteStore, flt: ItemFilter, text: str) -> list[Candidate]:
    """The search of ``text`` through the scope's index (checked to have gone through it)."""
    before = _searches(store).get("hnsw", 0)
    found = await store.vector_search(flt, vec(text), 5)
    assert _searches(store).get("hnsw", 0) == before + 1
    return found


def _ranked(found: list[Candidate]) -> list[tuple[str, float]]:
    return [(c.item_id, round(c.score, 5)) for c in found]


def _same(ours: list[Candidate], exact: list[Candidate]) -> bool:
    """The same scores in order, and the same items above the last score (rows tied at
    the last score may be any of them: the exact scan's order among ties is arbitrary)."""
    a, b = _ranked(ours), _ranked(exact)
    if [s for _, s in a] != [s for _, s in b]:
        return False
    last = a[-1][1] if a else 0.0
    return {i for i, s in a if s > last} == {i for i, s in b if s > last}


@pytest.fixture
async def indexed(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    store = SQLiteStore(tmp_path / "ann.db", vector_index_min_rows=MIN_ROWS)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


async def _built(store: SQLiteStore, scope: Scope) -> None:
    """Search once (which starts the build), wait for the build."""
    await store.vector_search(ItemFilter(scope=scope), vec("w1"), 5)
    store.wait_for_vector_indexes()


async def test_a_scope_is_indexed_once_it_crosses_the_threshold(indexed: SQLiteStore) -> None:
    texts = _texts(MIN_ROWS + 60, seed=1)
    flt = ItemFilter(scope=ALICE)
    await _fill(indexed, ALICE, texts[: MIN_ROWS - 1])
    await indexed.vector_search(flt, vec(texts[3]), 5)
    indexed.wait_for_vector_indexes()
    assert _searches(indexed) == {"exact": 1}
    assert indexed.vector_index_status()["indexes"] == 0

    await _fill(indexed, ALICE, texts[MIN_ROWS - 1 :])
    await indexed.vector_search(flt, vec(texts[3]), 5)  # answered exactly, starts a build
    assert _searches(indexed) == {"exact": 1, "exact_unindexed": 1}
    indexed.wait_for_vector_indexes()
    for text in texts[::7]:
        assert _same(await _indexed(indexed, flt, text), await _exact(indexed.path, flt, text))
    status = indexed.vector_index_status()
    assert (status["indexes"], status["rows"], status["degraded"]) == (1, len(texts), None)


async def test_the_index_follows_writes_deletes_forgetting_and_edits(
    indexed: SQLiteStore,
) -> None:
    texts = _texts(300, seed=2)
    ids = await _fill(indexed, ALICE, texts)
    flt = ItemFilter(scope=ALICE)
    await _built(indexed, ALICE)

    late = _texts(5, seed=3)
    late_ids = await _fill(indexed, ALICE, late)
    found = await _indexed(indexed, flt, late[2])
    assert found[0].item_id == late_ids[2]
    assert indexed.vector_index_status()["rows"] == 305

    await indexed.forget_items(ItemsForgetting("t1", ids[:10], ItemStatus.DELETED, now=T0))
    await indexed.forget_items(ItemsForgetting("t1", ids[10:20], ItemStatus.ARCHIVED, now=T0))
    for text in texts[:20]:
        hits = await _indexed(indexed, flt, text)
        assert not {c.item_id for c in hits} & set(ids[:20])
        assert _same(hits, await _exact(indexed.path, flt, text))
    assert indexed.vector_index_status()["rows"] == 295  # the deleted rows left the index

    [item] = await indexed.get_items("t1", [ids[50]])
    edited = item.model_copy(update={"text": "w4000 w4001 w4002 w4003"})
    await indexed.update_item(text_edit(item, edited))
    found = await _indexed(indexed, flt, edited.text)
    assert (found[0].item_id, round(found[0].score, 5)) == (ids[50], 1.0)
    assert ids[50] not in {c.item_id for c in await _indexed(indexed, flt, texts[50])}


def _matrix(store: SQLiteStore, scope: Scope) -> vectors.ScopeMatrix:
    key = (scope.tenant_id, scope.namespace, user_key(scope.user_id))
    found = store._vectors._entries.get(key)
    assert found is not None
    return found


async def test_a_status_change_rereads_the_statuses_not_the_vectors(
    indexed: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts(300, seed=14)
    ids = await _fill(indexed, ALICE, texts)
    flt = ItemFilter(scope=ALICE)
    await _built(indexed, ALICE)
    await _indexed(indexed, flt, texts[0])
    loads: list[int] = []  # the rowid each load of the scope's rows started after
    load = indexed._vectors._load

    def counted(conn: Any, ref: Any, after_rowid: int, version: Any) -> vectors.ScopeMatrix:
        loads.append(after_rowid)
        return load(conn, ref, after_rowid, version)

    monkeypatch.setattr(indexed._vectors, "_load", counted)

    await indexed.forget_items(ItemsForgetting("t1", ids[:5], ItemStatus.ARCHIVED, now=T0))
    other = SQLiteStore(indexed.path, vector_index_min_rows=MIN_ROWS)
    await other.open()
    try:  # another process's status change, and rows it appends after it
        await other.forget_items(ItemsForgetting("t1", ids[5:10], ItemStatus.SILENT, now=T0))
        late_ids = await _fill(other, ALICE, _texts(3, seed=15))
    finally:
        await other.close()
    for text in texts[:10]:
        hits = await _indexed(indexed, flt, text)
        assert not {c.item_id for c in hits} & set(ids[:10])
        assert _same(hits, await _exact(indexed.path, flt, text))
    assert loads
    assert 0 not in loads
    after = _matrix(indexed, ALICE)
    assert after.rows == 303
    assert after.cols.ids[-1] == late_ids[-1]
    active = after.cols.status == after.cols.status[-1]
    assert np.flatnonzero(~active).tolist() == list(range(10))
    assert indexed.vector_index_status()["rows"] == 303

    await indexed.forget_items(ItemsForgetting("t1", ids[10:12], ItemStatus.DELETED, now=T0))
    hits = await _indexed(indexed, flt, texts[10])
    assert ids[10] not in {c.item_id for c in hits}
    assert _same(hits, await _exact(indexed.path, flt, texts[10]))
    assert loads[-1] == 0  # a row left: loaded anew
    assert _matrix(indexed, ALICE).rows == 301
    assert indexed.vector_index_status()["rows"] == 301


async def test_another_stores_write_reaches_the_index(indexed: SQLiteStore) -> None:
    texts = _texts(200, seed=4)
    await _fill(indexed, ALICE, texts)
    await _built(indexed, ALICE)
    other = SQLiteStore(indexed.path, vector_index_min_rows=MIN_ROWS)
    await other.open()
    try:
        theirs = _texts(3, seed=5)
        their_ids = await _fill(other, ALICE, theirs)
        await other.forget_items(ItemsForgetting("t1", [their_ids[0]], ItemStatus.DELETED, now=T0))
    finally:
        await other.close()
    flt = ItemFilter(scope=ALICE)
    found = await _indexed(indexed, flt, theirs[1])
    assert found[0].item_id == their_ids[1]
    assert their_ids[0] not in {c.item_id for c in await _indexed(indexed, flt, theirs[0])}
    assert indexed.vector_index_status()["rows"] == 202


async def test_many_rows_written_elsewhere_are_indexed_off_the_search(
    indexed: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ann, "INLINE_ROWS", 20)
    await _fill(indexed, ALICE, _texts(200, seed=12))
    await _built(indexed, ALICE)
    other = SQLiteStore(indexed.path, vector_index_min_rows=MIN_ROWS)
    await other.open()
    try:
        theirs = _texts(30, seed=13)  # more than a search adds itself
        their_ids = await _fill(other, ALICE, theirs)
    finally:
        await other.close()
    flt = ItemFilter(scope=ALICE)
    found = await indexed.vector_search(flt, vec(theirs[4]), 5)  # exact, starts a build
    assert found[0].item_id == their_ids[4]
    assert _searches(indexed)["exact_unindexed"] == 2
    indexed.wait_for_vector_indexes()
    found = await _indexed(indexed, flt, theirs[5])
    assert found[0].item_id == their_ids[5]
    assert indexed.vector_index_status()["rows"] == 230


async def test_the_write_paths_nearest_goes_through_the_index(indexed: SQLiteStore) -> None:
    texts = _texts(300, seed=6)
    ids = await _fill(indexed, ALICE, texts)
    await _built(indexed, ALICE)
    before = _searches(indexed).get("hnsw", 0)
    import numpy as np

    queries = np.stack([vec(t) for t in texts[100:110]])
    found = await indexed.nearest(ItemFilter(scope=ALICE), queries)
    assert [(c.item_id, round(c.score, 5)) for c in found if c] == [(i, 1.0) for i in ids[100:110]]
    assert _searches(indexed)["hnsw"] == before + 10


async def test_indexes_are_evicted_beyond_the_cache_cap(tmp_path: Path) -> None:
    # room for one scope's matrix and index (usearch reserves ~16 MiB for a small index),
    # not for two
    store = SQLiteStore(
        tmp_path / "cap.db", cache_max_bytes=24 << 20, vector_index_min_rows=MIN_ROWS
    )
    await store.open()
    try:
        await _fill(store, ALICE, _texts(150, seed=7))
        await _fill(store, BOB, _texts(150, seed=8))
        await _built(store, ALICE)
        assert store.vector_index_status()["indexes"] == 1
        await _built(store, BOB)
        status = store.vector_index_status()
        assert (status["indexes"], status["rows"]) == (1, 150)
        assert store.cache_budget.held_bytes <= 24 << 20
        assert store.cache_budget.evictions >= 1
        # Alice's index was the least recently used: her next search is exact again
        await store.vector_search(ItemFilter(scope=ALICE), vec("w1"), 5)
        assert _searches(store).get("exact_unindexed", 0) == 3
    finally:
        await store.close()


async def test_no_index_below_the_threshold_or_when_disabled(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "off.db", vector_index_min_rows=None)
    await store.open()
    try:
        await _fill(store, ALICE, _texts(150, seed=9))
        await store.vector_search(ItemFilter(scope=ALICE), vec("w1"), 5)
        store.wait_for_vector_indexes()
        assert _searches(store) == {"exact": 1}
        assert store.vector_index_status()["indexes"] == 0
    finally:
        await store.close()


async def test_an_index_that_cannot_be_built_shows_degraded(
    indexed: SQLiteStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    texts = _texts(150, seed=10)
    ids = await _fill(indexed, ALICE, texts)
    monkeypatch.setitem(sys.modules, "usearch.index", None)  # importing it now fails
    flt = ItemFilter(scope=ALICE)
    await _built(indexed, ALICE)
    found = await indexed.vector_search(flt, vec(texts[7]), 5)
    assert (found[0].item_id, round(found[0].score, 5)) == (ids[7], 1.0)  # exactly
    status = indexed.vector_index_status()
    assert "usearch cannot be imported" in str(status["degraded"])
    assert status["indexes"] == 0
    assert _searches(indexed) == {"exact_unindexed": 2}
    assert "degraded" in caplog.text


async def test_an_index_larger_than_the_cap_is_not_built_again(tmp_path: Path) -> None:
    # room for the scope's matrix, not for an index (usearch reserves ~16 MiB)
    store = SQLiteStore(
        tmp_path / "tiny.db", cache_max_bytes=4 << 20, vector_index_min_rows=MIN_ROWS
    )
    await store.open()
    try:
        await _fill(store, ALICE, _texts(150, seed=11))
        for _ in range(3):
            await _built(store, ALICE)
        status = store.vector_index_status()
        assert (status["indexes"], status["building"]) == (0, 0)
        assert _searches(store) == {"exact_unindexed": 3}
        assert store.cache_budget.evictions == 1  # the one build, not kept
    finally:
        await store.close()


class _Clock:
    """``ann.monotonic`` in a test: time moves when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class _BreakingIndex:
    """A real usearch index whose adds fail once ``broken`` is set (an update failing)."""

    broken = False

    def __init__(self, index: object) -> None:
        self._index = index

    def __getattr__(self, name: str) -> object:
        return getattr(self._index, name)

    def __len__(self) -> int:
        return len(self._index)  # type: ignore[arg-type]

    def add(self, *args: object, **kwargs: object) -> object:
        if _BreakingIndex.broken:
            raise RuntimeError("injected add failure")
        return self._index.add(*args, **kwargs)  # type: ignore[attr-defined]


async def test_a_search_whose_index_failed_says_degraded_and_stays_exact(
    indexed: SQLiteStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    texts = _texts(150, seed=14)
    await _fill(indexed, ALICE, texts)
    flt = ItemFilter(scope=ALICE)
    monkeypatch.setitem(sys.modules, "usearch.index", None)  # importing it now fails
    await _built(indexed, ALICE)  # the build fails
    for text in texts[::30]:
        found = await indexed.vector_search(flt, vec(text), 5)
        assert _same(found, await _exact(indexed.path, flt, text))
        note = str(getattr(found, "degraded", None))
        assert note.startswith("vector_index: usearch cannot be imported"), note
    # a batch of searches (a read's vector and section searches) says it on each
    batch = await indexed.vector_searches([(flt, 5), (flt, 3)], vec(texts[1]))
    assert all(str(getattr(b, "degraded", "")).startswith("vector_index:") for b in batch)
    # and so does a write's near-duplicate search, which finds the same rows
    queries = np.stack([vec(t) for t in texts[:3]])
    near = await indexed.nearest(flt, queries)
    assert str(getattr(near, "degraded", "")).startswith("vector_index: usearch"), near
    assert [c.score if c else None for c in near] == pytest.approx([1.0] * 3, abs=1e-5)
    # another user's small scope is exact by design: nothing degraded there
    await _fill(indexed, BOB, _texts(5, seed=15))
    small = await indexed.vector_search(ItemFilter(scope=BOB), vec("w1"), 5)
    assert getattr(small, "degraded", None) is None
    small_near = await indexed.nearest(ItemFilter(scope=BOB), queries)
    assert getattr(small_near, "degraded", None) is None
    assert "degraded" in caplog.text


async def test_a_failed_index_is_built_again_after_the_back_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _Clock()
    monkeypatch.setattr(ann, "monotonic", clock)
    store = SQLiteStore(tmp_path / "retry.db", vector_index_min_rows=MIN_ROWS)
    await store.open()
    try:
        texts = _texts(200, seed=16)
        await _fill(store, ALICE, texts)
        flt = ItemFilter(scope=ALICE)
        with monkeypatch.context() as broken:
            broken.setitem(sys.modules, "usearch.index", None)
            await _built(store, ALICE)  # fails
        assert store.vector_index_status()["degraded"] is not None
        clock.now += 299  # within the default back-off (300 s): not built again
        await _built(store, ALICE)
        assert store.vector_index_status()["indexes"] == 0
        found = await store.vector_search(flt, vec(texts[4]), 5)
        assert str(getattr(found, "degraded", "")).startswith("vector_index:")

        clock.now += 2  # past it: the next search builds the index again
        await _built(store, ALICE)
        status = store.vector_index_status()
        assert (status["indexes"], status["degraded"]) == (1, None)
        found = await _indexed(store, flt, texts[4])
        assert _same(found, await _exact(store.path, flt, texts[4]))
        assert getattr(found, "degraded", None) is None
    finally:
        await store.close()


async def test_a_failed_update_backs_off_and_retries_with_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _Clock()
    monkeypatch.setattr(ann, "monotonic", clock)
    made = ann.new_index
    monkeypatch.setattr(ann, "new_index", lambda dim: _BreakingIndex(made(dim)))
    monkeypatch.setattr(_BreakingIndex, "broken", False)
    store = SQLiteStore(
        tmp_path / "upd.db", vector_index_min_rows=MIN_ROWS, vector_index_retry_s=10
    )
    await store.open()
    try:
        texts = _texts(200, seed=17)
        await _fill(store, ALICE, texts)
        flt = ItemFilter(scope=ALICE)
        await _built(store, ALICE)
        assert store.vector_index_status()["indexes"] == 1

        _BreakingIndex.broken = True
        late = _texts(3, seed=18)
        late_ids = await _fill(store, ALICE, late)  # a search adds them: the add fails
        for _ in range(2):  # the failure, then the back-off: both exact, both say so
            found = await store.vector_search(flt, vec(late[1]), 5)
            assert found[0].item_id == late_ids[1]
            assert "updating a scope's vector index failed" in str(getattr(found, "degraded", ""))
        status = store.vector_index_status()
        assert (status["indexes"], status["failed"], status["building"]) == (0, 1, 0)

        _BreakingIndex.broken = False
        clock.now += 11  # past the 10 s set
        await _built(store, ALICE)
        found = await _indexed(store, flt, late[1])
        assert found[0].item_id == late_ids[1]
        assert store.vector_index_status()["degraded"] is None
    finally:
        await store.close()


async def test_an_index_far_behind_is_caught_up_not_built_again(
    indexed: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bulk import appends rows faster than a whole build ends: the index the search
    # holds is brought up to the scope off the search path, adding only the new rows
    monkeypatch.setattr(ann, "INLINE_ROWS", 20)
    builds: list[int] = []
    build = ann.build

    def counted(m: ann.Rows) -> ann.ScopeIndex:
        builds.append(len(m.rowids))
        return build(m)

    monkeypatch.setattr(ann, "build", counted)
    await _fill(indexed, ALICE, _texts(200, seed=14))
    await _built(indexed, ALICE)
    texts = _texts(30, seed=15)  # more than a search adds itself
    ids = await _fill(indexed, ALICE, texts)
    flt = ItemFilter(scope=ALICE)
    found = await indexed.vector_search(flt, vec(texts[3]), 5)  # exact; catches up off it
    assert found[0].item_id == ids[3]
    indexed.wait_for_vector_indexes()
    found = await _indexed(indexed, flt, texts[4])
    assert found[0].item_id == ids[4]
    assert (builds, indexed.vector_index_status()["rows"]) == ([200], 230)
