"""Behaviour every Store must have. Each backend bug becomes a test here."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import uuid
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cognimem.errors import Conflict, SchemaMismatch, StoreError, UsageError
from cognimem.models import ItemKind, ItemStatus, Scope, WriteOutcome
from cognimem.store import ItemFilter, Store
from cognimem.store.postgres import PostgresStore
from cognimem.store.postgres.migrations import MIGRATIONS as PG_MIGRATIONS
from cognimem.store.sqlite import SQLiteStore
from cognimem.store.sqlite.connection import connect
from cognimem.store.sqlite.migrations import MIGRATIONS
from tests import services
from tests.contract.conftest import T0, message, vec

ALICE = Scope(tenant_id="t1", user_id="alice", session_id="s1")
BOB = Scope(tenant_id="t1", user_id="bob")
OTHER_TENANT = Scope(tenant_id="t2", user_id="alice", session_id="s1")
WINDOW = 300.0


async def test_commit_round_trips_events_and_items(store: Store) -> None:
    pending = message("I adopted a cat named Miso", ALICE, name="Alice")
    [result] = await store.commit([pending], WINDOW)
    assert result.outcome is WriteOutcome.STORED
    assert result.event_id == pending.event.id
    assert result.item_ids == [pending.items[0].item.id]

    [item] = await store.get_items("t1", result.item_ids)
    assert item.text == "I adopted a cat named Miso"
    assert item.scope == ALICE
    assert item.source_event_ids == [pending.event.id]
    assert item.occurred_at == T0
    assert item.status is ItemStatus.ACTIVE
    [event] = await store.get_events("t1", [result.event_id])
    assert event.content == "I adopted a cat named Miso"
    assert event.name == "Alice"
    assert event.occurred_at == T0


async def test_get_is_tenant_scoped(store: Store) -> None:
    [result] = await store.commit([message("secret plans", ALICE)], WINDOW)
    assert await store.get_items("t2", result.item_ids) == []
    assert await store.get_events("t2", [result.event_id]) == []


async def test_idempotency_key_returns_original_ids(store: Store) -> None:
    [first] = await store.commit([message("hello there", ALICE, key="k1")], WINDOW)
    retry = message("hello there", ALICE, key="k1")
    assert (await store.find_duplicates([retry.event], WINDOW))[0].event_id == first.event_id
    [again] = await store.commit([retry], WINDOW)
    assert again.outcome is WriteOutcome.DUPLICATE
    assert again.event_id == first.event_id
    assert again.item_ids == first.item_ids
    assert await store.count_items(ItemFilter(scope=ALICE)) == 1


async def test_reused_idempotency_key_with_other_content_conflicts(store: Store) -> None:
    await store.commit([message("first", ALICE, key="k1")], WINDOW)
    with pytest.raises(Conflict):
        await store.commit([message("new", ALICE), message("second", ALICE, key="k1")], WINDOW)
    # nothing of the failed batch was written
    assert await store.count_items(ItemFilter(scope=ALICE)) == 1


async def test_identical_message_in_window_is_deduplicated(
    store: Store, later: Callable[[int], datetime]
) -> None:
    [first] = await store.commit([message("same words", ALICE)], WINDOW)
    [dup] = await store.commit([message("same words", ALICE, at=later(2))], WINDOW)
    assert dup.outcome is WriteOutcome.DUPLICATE
    assert dup.event_id == first.event_id
    [outside] = await store.commit([message("same words", ALICE, at=later(60))], WINDOW)
    assert outside.outcome is WriteOutcome.STORED
    other_session = Scope(tenant_id="t1", user_id="alice", session_id="s2")
    [elsewhere] = await store.commit([message("same words", other_session)], WINDOW)
    assert elsewhere.outcome is WriteOutcome.STORED


async def test_duplicates_within_one_batch(store: Store) -> None:
    results = await store.commit([message("twice", ALICE), message("twice", ALICE)], WINDOW)
    assert [r.outcome for r in results] == [WriteOutcome.STORED, WriteOutcome.DUPLICATE]
    assert results[1].event_id == results[0].event_id


async def test_lexical_search_ranks_rare_terms_and_respects_scope(store: Store) -> None:
    await store.commit(
        [
            message("We went hiking in the mountains", ALICE),
            message("I adopted a golden retriever puppy", ALICE),
            message("The puppy chewed my shoes", ALICE),
        ],
        WINDOW,
    )
    await store.commit([message("My retriever is old", BOB)], WINDOW)
    await store.commit([message("golden retriever breeder", OTHER_TENANT)], WINDOW)

    found = await store.lexical_search(ItemFilter(scope=ALICE), ["golden", "retriever"], 10)
    items = await store.get_items("t1", [c.item_id for c in found])
    assert [i.text for i in items] == ["I adopted a golden retriever puppy"]
    assert all(c.score > 0 for c in found)

    for_bob = await store.lexical_search(ItemFilter(scope=BOB), ["retriever"], 10)
    assert [i.text for i in await store.get_items("t1", [c.item_id for c in for_bob])] == [
        "My retriever is old"
    ]
    # the tenant-wide view (no user) sees alice and bob but never the other tenant
    tenant_wide = await store.lexical_search(
        ItemFilter(scope=Scope(tenant_id="t1")), ["retriever"], 10
    )
    assert len(tenant_wide) == 2


async def test_lexical_search_survives_fts_syntax_in_terms(store: Store) -> None:
    await store.commit([message('He said "NEAR" AND OR NOT * stuff', ALICE)], WINDOW)
    for terms in (['"near"'], ["AND"], ["*"], ["stuff)"], ["-"]):
        await store.lexical_search(ItemFilter(scope=ALICE), terms, 5)  # must not raise
    found = await store.lexical_search(ItemFilter(scope=ALICE), ["near"], 5)
    assert len(found) == 1


async def test_vector_search_is_exact_and_scoped(store: Store) -> None:
    texts = [f"note {i} about topic {i % 7} and color {i % 5}" for i in range(60)]
    await store.commit([message(t, ALICE) for t in texts], WINDOW)
    await store.commit([message("note about topic 3 and color 2", OTHER_TENANT)], WINDOW)
    query = vec("topic 3 color 2")
    found = await store.vector_search(ItemFilter(scope=ALICE), query, 5)
    expected = sorted(texts, key=lambda t: -float(vec(t) @ query))[:5]
    items = await store.get_items("t1", [c.item_id for c in found])
    assert [round(c.score, 5) for c in found] == [round(float(vec(t) @ query), 5) for t in expected]
    assert {i.scope.tenant_id for i in items} == {"t1"}
    assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)


async def test_vector_search_with_a_zero_vector_scores_zero(store: Store) -> None:
    # a query with no words embeds to zeros: every score is 0, never NaN
    await store.commit([message("anything at all", ALICE)], WINDOW)
    found = await store.vector_search(ItemFilter(scope=ALICE), np.zeros(64, np.float32), 5)
    assert [c.score for c in found] == [0.0]


async def test_filters_apply_to_both_searches(
    store: Store, later: Callable[[int], datetime]
) -> None:
    await store.commit(
        [
            message("early breakfast pancakes", ALICE, at=T0),
            message("late dinner pancakes", ALICE, at=later(600)),
            message("always avoid pancakes", ALICE, at=later(300), kind=ItemKind.CONSTRAINT),
        ],
        WINDOW,
    )
    s2 = Scope(tenant_id="t1", user_id="alice", session_id="s2")
    await store.commit([message("other session pancakes", s2)], WINDOW)
    q = vec("pancakes")

    async def texts(flt: ItemFilter) -> tuple[set[str], set[str]]:
        lex = await store.lexical_search(flt, ["pancakes"], 10)
        vecs = await store.vector_search(flt, q, 10)
        lex_items = await store.get_items("t1", [c.item_id for c in lex])
        vec_items = await store.get_items("t1", [c.item_id for c in vecs])
        return {i.text for i in lex_items}, {i.text for i in vec_items}

    lex, vecs = await texts(ItemFilter(scope=ALICE, since=later(100)))
    assert lex == vecs == {"late dinner pancakes", "always avoid pancakes"}
    lex, vecs = await texts(ItemFilter(scope=ALICE, until=later(100)))
    assert lex == vecs == {"early breakfast pancakes"}
    lex, vecs = await texts(ItemFilter(scope=ALICE, kinds=(ItemKind.CONSTRAINT,)))
    assert lex == vecs == {"always avoid pancakes"}
    whole_user = Scope(tenant_id="t1", user_id="alice")
    lex, vecs = await texts(ItemFilter(scope=whole_user))
    assert lex == vecs
    assert "other session pancakes" in lex
    assert len(lex) == 4
    lex, vecs = await texts(ItemFilter(scope=whole_user, statuses=(ItemStatus.ARCHIVED,)))
    assert lex == vecs == set()


async def test_delete_removes_from_every_index(store: Store) -> None:
    [kept, gone] = await store.commit(
        [message("keep the violin", ALICE), message("forget the violin", ALICE)], WINDOW
    )
    assert await store.vector_search(ItemFilter(scope=ALICE), vec("violin"), 5)  # warm the cache
    assert await store.delete_items("t2", gone.item_ids) == 0  # other tenant cannot delete
    assert await store.delete_items("t1", gone.item_ids) == 1
    lex = await store.lexical_search(ItemFilter(scope=ALICE), ["violin"], 5)
    vecs = await store.vector_search(ItemFilter(scope=ALICE), vec("violin"), 5)
    assert [c.item_id for c in lex] == kept.item_ids
    assert [c.item_id for c in vecs] == kept.item_ids
    assert await store.get_items("t1", gone.item_ids) == []


async def test_search_sees_writes_made_after_the_cache_was_built(store: Store) -> None:
    await store.commit([message("first memory about tea", ALICE)], WINDOW)
    assert len(await store.vector_search(ItemFilter(scope=ALICE), vec("tea"), 10)) == 1
    await store.commit([message("second memory about tea", ALICE)], WINDOW)
    assert len(await store.vector_search(ItemFilter(scope=ALICE), vec("tea"), 10)) == 2


async def test_record_access_counts(store: Store) -> None:
    [r] = await store.commit([message("counted", ALICE)], WINDOW)
    await store.record_access("t1", r.item_ids, T0 + timedelta(hours=1))
    await store.record_access("t1", r.item_ids, T0 + timedelta(hours=2))
    [item] = await store.get_items("t1", r.item_ids)
    assert item.access_count == 2
    assert item.loaded_count == 2
    assert item.last_accessed_at == T0 + timedelta(hours=2)


async def test_embedding_cache_round_trip(store: Store) -> None:
    vectors = {"h1": vec("one"), "h2": vec("two")}
    await store.put_embeddings("m", vectors)
    got = await store.get_embeddings("m", ["h1", "h2", "missing"])
    assert set(got) == {"h1", "h2"}
    assert np.allclose(got["h1"], vectors["h1"])
    assert await store.get_embeddings("other-model", ["h1"]) == {}


async def test_meta_round_trip(store: Store) -> None:
    assert await store.get_meta("embedding_model") is None
    await store.set_meta("embedding_model", "x")
    await store.set_meta("embedding_model", "y")
    assert await store.get_meta("embedding_model") == "y"


async def test_readers_never_see_half_a_batch(store: Store) -> None:
    batch = 25
    seen: set[int] = set()
    done = asyncio.Event()

    async def reader() -> None:
        while not done.is_set():
            seen.add(await store.count_items(ItemFilter(scope=ALICE)))
            await asyncio.sleep(0)

    async def writer() -> None:
        for round_ in range(8):
            await store.commit(
                [message(f"round {round_} line {i}", ALICE) for i in range(batch)], WINDOW
            )
        done.set()

    await asyncio.gather(reader(), writer())
    assert seen, "the reader never ran"
    assert all(n % batch == 0 for n in seen), sorted(seen)


# -- SQLite specifics ---------------------------------------------------------------


async def test_sqlite_migrations_are_recorded_and_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    for _ in range(2):
        s = SQLiteStore(path)
        await s.open()
        assert await s.schema_version() == max(v for v, _, _ in MIGRATIONS)
        await s.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        rows = conn.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert rows == [
        (1, "events_items_fts_cache"),
        (2, "items_lexical_filter"),
        (3, "knowledge"),
        (4, "fact_versions"),
        (5, "relations_by_user"),
        (6, "api_keys"),
        (7, "sessions"),
        (8, "drop_items_lexical_filter"),
        (9, "one_subject_for_the_user"),
        (10, "event_jobs"),
        (11, "item_event_period"),
    ]


async def test_sqlite_refuses_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    s = SQLiteStore(path)
    await s.open()
    await s.close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (999, 'future', 'x')")
    with pytest.raises(SchemaMismatch):
        await SQLiteStore(path).open()


async def test_sqlite_two_stores_on_one_file_stay_consistent(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    a, b = SQLiteStore(path), SQLiteStore(path)
    await a.open()
    await b.open()
    try:
        await a.commit([message("written by a about kayaks", ALICE)], WINDOW)
        assert len(await b.vector_search(ItemFilter(scope=ALICE), vec("kayaks"), 5)) == 1
        assert len(await a.vector_search(ItemFilter(scope=ALICE), vec("kayaks"), 5)) == 1
        [r] = await b.commit([message("written by b about kayaks", ALICE)], WINDOW)
        assert len(await a.vector_search(ItemFilter(scope=ALICE), vec("kayaks"), 5)) == 2
        await b.delete_items("t1", r.item_ids)
        assert len(await a.vector_search(ItemFilter(scope=ALICE), vec("kayaks"), 5)) == 1
    finally:
        await a.close()
        await b.close()


def test_sqlite_connect_waits_for_another_process_switching_a_new_file(tmp_path: Path) -> None:
    # a new file is in rollback mode until the first connection turns WAL on; while
    # another holds it (here: a write in progress), SQLite answers "locked" at once
    path = tmp_path / "new.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE t (a)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t VALUES (1)")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        conn = connect(path)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT a FROM t").fetchall() == [(1,)]
        conn.close()
    finally:
        release.join()
        other.close()


async def test_sqlite_failed_transaction_writes_nothing(tmp_path: Path) -> None:
    s = SQLiteStore(tmp_path / "tx.db")
    await s.open()
    try:
        good = message("good one", ALICE)
        clash = message("clashing id", ALICE)
        clash.items[0].item = clash.items[0].item.model_copy(update={"id": good.items[0].item.id})
        with pytest.raises(StoreError):
            await s.commit([good, clash], WINDOW)
        assert await s.count_items(ItemFilter(scope=ALICE)) == 0
        assert await s.get_events("t1", [good.event.id]) == []
    finally:
        await s.close()


async def test_previous_event_is_the_latest_of_exactly_that_scope(
    store: Store, later: Callable[[int], datetime]
) -> None:
    assert await store.previous_event(ALICE, later(100)) is None
    await store.commit([message("first", ALICE, at=T0)], WINDOW)
    await store.commit([message("second", ALICE, at=later(10))], WINDOW)
    await store.commit([message("third", ALICE, at=later(20))], WINDOW)
    other_session = Scope(tenant_id="t1", user_id="alice", session_id="s2")
    await store.commit([message("elsewhere", other_session, at=later(15))], WINDOW)
    found = await store.previous_event(ALICE, later(15))
    assert found is not None
    assert found.content == "second"
    assert (await store.previous_event(ALICE, later(999))).content == "third"  # type: ignore[union-attr]
    assert await store.previous_event(ALICE, T0 - timedelta(seconds=1)) is None


# -- PostgreSQL specifics -----------------------------------------------------------


async def _connect(dsn: str) -> Any:
    import asyncpg

    return await asyncpg.connect(dsn, timeout=10)


async def _sql(dsn: str, sql: str, *args: object) -> list[Any]:
    conn = await _connect(dsn)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


@pytest.fixture
async def blank_postgres_dsn(postgres_server: services.PostgresServer) -> AsyncIterator[str]:
    """An empty database (no migrations yet)."""
    name = f"blank_{uuid.uuid4().hex[:12]}"
    await _sql(postgres_server.admin_dsn(), f"CREATE DATABASE {name}")
    try:
        yield postgres_server.admin_dsn(name)
    finally:
        await _sql(postgres_server.admin_dsn(), f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
async def pg(postgres_dsn: str) -> AsyncIterator[PostgresStore]:
    s = PostgresStore(postgres_dsn, max_size=4)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def test_postgres_concurrent_first_opens_migrate_once(blank_postgres_dsn: str) -> None:
    stores = [PostgresStore(blank_postgres_dsn, max_size=2) for _ in range(5)]
    try:
        await asyncio.gather(*(s.open() for s in stores))
        assert {await s.schema_version() for s in stores} == {max(v for v, _, _ in PG_MIGRATIONS)}
    finally:
        await asyncio.gather(*(s.close() for s in stores))
    again = PostgresStore(blank_postgres_dsn)
    await again.open()
    await again.close()
    found = await _sql(blank_postgres_dsn, "SELECT version, name FROM schema_migrations")
    assert [tuple(r) for r in found] == [
        (1, "events_items_tsvector_cache"),
        (3, "knowledge"),
        (5, "relations_by_user"),
        (6, "api_keys"),
        (7, "sessions"),
        (9, "one_subject_for_the_user"),
        (10, "event_jobs"),
        (11, "item_event_period"),
    ]
    extensions = await _sql(blank_postgres_dsn, "SELECT extname FROM pg_extension")
    assert {"vector", "pg_trgm"} <= {r[0] for r in extensions}


async def test_postgres_refuses_a_newer_schema(blank_postgres_dsn: str) -> None:
    s = PostgresStore(blank_postgres_dsn)
    await s.open()
    await s.close()
    await _sql(blank_postgres_dsn, "INSERT INTO schema_migrations VALUES (999, 'future', now())")
    with pytest.raises(SchemaMismatch):
        await PostgresStore(blank_postgres_dsn).open()


async def test_postgres_failed_transaction_writes_nothing(pg: PostgresStore) -> None:
    good = message("good one", ALICE)
    clash = message("clashing id", ALICE)
    clash.items[0].item = clash.items[0].item.model_copy(update={"id": good.items[0].item.id})
    with pytest.raises(StoreError):
        await pg.commit([good, clash], WINDOW)
    assert await pg.count_items(ItemFilter(scope=ALICE)) == 0
    assert await pg.get_events("t1", [good.event.id]) == []
    # nor was the vector index (built by the first write with a vector) left behind
    assert await pg.get_meta("pg_vector_index_dim") is None


async def test_postgres_racing_commits_of_one_message_store_it_once(postgres_dsn: str) -> None:
    a, b = PostgresStore(postgres_dsn), PostgresStore(postgres_dsn)
    await asyncio.gather(a.open(), b.open())
    try:
        for round_ in range(10):
            keyed = [message(f"keyed {round_}", ALICE, key=f"k{round_}") for _ in range(2)]
            plain = [message(f"plain {round_}", ALICE) for _ in range(2)]
            for x, y in (keyed, plain):
                [rx], [ry] = await asyncio.gather(a.commit([x], WINDOW), b.commit([y], WINDOW))
                outcomes = sorted([rx.outcome, ry.outcome])
                assert outcomes == [WriteOutcome.DUPLICATE, WriteOutcome.STORED]
                assert rx.event_id == ry.event_id
                assert rx.item_ids == ry.item_ids
        assert await a.count_items(ItemFilter(scope=ALICE)) == 20
    finally:
        await asyncio.gather(a.close(), b.close())


async def test_postgres_unique_index_decides_a_race_without_the_lock(
    pg: PostgresStore, postgres_dsn: str
) -> None:
    # a writer that takes no advisory lock (an older version, a manual insert) holds the
    # key uncommitted; our commit blocks on the unique index, then must answer DUPLICATE
    winner = message("hello", ALICE, key="raced")
    conn = await _connect(postgres_dsn)
    try:
        tx = conn.transaction()
        await tx.start()
        await conn.execute(
            "INSERT INTO events (id, tenant_id, namespace, user_id, session_id, role,"
            " content, content_hash, idempotency_key, occurred_at, recorded_at)"
            " VALUES ($1, 't1', 'default', 'alice', 's1', 'user', 'hello', $2, 'raced', $3, $3)",
            winner.event.id,
            winner.event.content_hash,
            T0,
        )
        loser = asyncio.create_task(pg.commit([message("hello", ALICE, key="raced")], WINDOW))
        await asyncio.sleep(0.3)
        assert not loser.done()  # waiting on the unique index
        await tx.commit()
        [result] = await loser
    finally:
        await conn.close()
    assert result.outcome is WriteOutcome.DUPLICATE
    assert result.event_id == winner.event.id


async def test_postgres_large_vector_search_uses_the_hnsw_index(
    pg: PostgresStore, postgres_dsn: str
) -> None:
    texts = [f"note {i} about topic {i % 37} and color {i % 11}" for i in range(500)]
    await pg.commit([message(t, ALICE) for t in texts], WINDOW)
    await _sql(postgres_dsn, "ANALYZE items")
    query = vec("topic 3 color 2")
    plan = await pg.explain_vector_search(ItemFilter(scope=ALICE), query, 10)
    assert "Index Scan using items_embedding_hnsw_64" in plan, plan
    found = await pg.vector_search(ItemFilter(scope=ALICE), query, 10)
    exact = sorted((float(vec(t) @ query) for t in texts), reverse=True)[:10]
    assert [c.score for c in found] == pytest.approx(exact, abs=1e-5)


async def test_postgres_selective_filter_still_fills_k_through_the_index(
    postgres_dsn: str,
) -> None:
    # enable_sort=off pins the plan to the HNSW index even though only 10 of 2,000 rows
    # pass the filter: ef_search alone would find none of them; the iterative scan must
    # (a sparser graph than the default builds faster; it changes nothing here)
    store = PostgresStore.from_url(
        f"{postgres_dsn}?enable_sort=off&hnsw_m=8&hnsw_ef_construction=16"
    )
    await store.open()
    try:
        await store.commit(
            [
                message(
                    f"note {i} about topic {i % 37} and color {i % 11}",
                    ALICE,
                    kind=ItemKind.CONSTRAINT if i % 200 == 7 else ItemKind.EPISODE,
                )
                for i in range(2000)
            ],
            WINDOW,
        )
        flt = ItemFilter(scope=ALICE, kinds=(ItemKind.CONSTRAINT,))
        assert "items_embedding_hnsw_64" in await store.explain_vector_search(flt, vec("x"), 5)
        found = await store.vector_search(flt, vec("topic 3 color 2"), 5)
        assert len(found) == 5
        assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)
        items = await store.get_items("t1", [c.item_id for c in found])
        assert {i.kind for i in items} == {ItemKind.CONSTRAINT}
    finally:
        await store.close()


async def test_postgres_vectors_of_another_dimension_are_searched_exactly(
    pg: PostgresStore,
) -> None:
    await pg.commit([message("sixty four dims", ALICE)], WINDOW)
    odd = message("eight dims", ALICE)
    odd.items[0].embedding = np.eye(8, dtype=np.float32)[0]
    await pg.commit([odd], WINDOW)
    assert await pg.get_meta("pg_vector_index_dim") == "64"
    [hit] = await pg.vector_search(ItemFilter(scope=ALICE), np.eye(8, dtype=np.float32)[0], 5)
    assert hit.item_id == odd.items[0].item.id
    assert hit.score == pytest.approx(1.0)
    assert len(await pg.vector_search(ItemFilter(scope=ALICE), vec("sixty four"), 5)) == 1


def _unit_vectors(n: int, dim: int) -> np.ndarray:
    m = np.random.default_rng(7).standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@pytest.mark.parametrize(("dim", "index"), [(2500, "halfvec"), (4500, None)])
async def test_postgres_wide_embeddings_are_indexed_as_halfvec_or_searched_exactly(
    pg: PostgresStore, postgres_dsn: str, dim: int, index: str | None
) -> None:
    # HNSW holds vector up to 2,000 dimensions and halfvec up to 4,000
    vectors = _unit_vectors(6, dim)
    batch = [message(f"wide {i}", ALICE) for i in range(6)]
    for m, v in zip(batch, vectors, strict=True):
        m.items[0].embedding = v
    await pg.commit(batch, WINDOW)
    assert await pg.get_meta("pg_vector_index_dim") == str(dim)
    found = await _sql(
        postgres_dsn, "SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'items_embedding%'"
    )
    assert [index in r[0] for r in found] == ([True] if index else [])
    hits = await pg.vector_search(ItemFilter(scope=ALICE), vectors[2], 3)
    assert hits[0].item_id == batch[2].items[0].item.id
    exact = sorted((float(v @ vectors[2]) for v in vectors), reverse=True)[:3]
    assert [c.score for c in hits] == pytest.approx(exact, abs=1e-5)


async def test_postgres_lexical_terms_cannot_inject_tsquery_syntax(pg: PostgresStore) -> None:
    await pg.commit([message("it's a back\\slash & pipe | test: with 'quotes'", ALICE)], WINDOW)
    weird = ["'", "''", "\\", "a:*", "!", "&", "|", "(", ")", "<->", "it's", "x' | 'y", ":*"]
    for term in weird:
        await pg.lexical_search(ItemFilter(scope=ALICE), [term], 5)  # must not raise
    assert await pg.lexical_search(ItemFilter(scope=ALICE), [], 5) == []
    found = await pg.lexical_search(ItemFilter(scope=ALICE), ["quotes", "!"], 5)
    assert len(found) == 1


def test_postgres_from_url_takes_pool_options() -> None:
    pytest.importorskip("asyncpg", reason="asyncpg not installed (the `postgres` extra)")
    s = PostgresStore.from_url(
        "postgres://u:secret@db.example:5433/mem?max_size=20&min_size=2&application_name=x"
    )
    assert (s.min_size, s.max_size) == (2, 20)
    assert s.dsn == "postgresql://u:secret@db.example:5433/mem?application_name=x"
    with pytest.raises(UsageError):
        PostgresStore.from_url("postgresql://h/db?max_size=lots")
    with pytest.raises(UsageError):
        PostgresStore("postgresql://h/db", min_size=5, max_size=2)


# -- the same corpus on both backends -----------------------------------------------

PARITY_USERS = (
    Scope(tenant_id="t1", user_id="alice", session_id="s1"),
    Scope(tenant_id="t1", user_id="alice", session_id="s2"),
    Scope(tenant_id="t1", user_id="bob", session_id="s3"),
)
PARITY_CORPUS = [
    "the kayak trip on the lake was long and cold",
    "kayak kayak kayak paddle practice at dawn",
    "we bought a red kayak and a blue canoe",
    "canoe lessons on tuesday at the lake",
    "my sister visits the lake every summer",
    "summer summer summer vacation plans with my sister",
    "the violin recital was on friday evening",
    "violin strings need replacing before the recital",
    "grandma bakes rhubarb pie for the recital",
    "rhubarb grows behind the garage",
    "the garage door squeaks every morning",
    "morning coffee with oat milk",
    "oat milk oat milk oat milk shopping list",
    "allergic to peanuts and shellfish",
    "peanuts are banned at the school",
    "the school play is about a lighthouse",
    "lighthouse keeper stories from maine",
    "maine lobster dinner on friday",
    "dinner reservations for friday at eight",
    "eight hours of sleep is the goal",
    "sleep tracking ring battery died",
    "battery replacement for the car key",
    "car insurance renewal due in june",
    "june wedding of my cousin in portugal",
    "portugal trip planning with my cousin",
    "cousin recommended a portuguese bakery",
    "bakery on elm street sells rhubarb tarts",
    "elm street traffic is terrible on monday",
    "monday standup moved to ten",
    "ten minute walk to the lake from home",
]


@pytest.fixture
async def both_backends(
    tmp_path: Path, postgres_dsn: str
) -> AsyncIterator[tuple[SQLiteStore, PostgresStore]]:
    lite, pg = SQLiteStore(tmp_path / "parity.db"), PostgresStore(postgres_dsn)
    await lite.open()
    await pg.open()
    try:
        corpus = [
            message(
                text,
                PARITY_USERS[i % 3],
                at=T0 + timedelta(hours=i),
                kind=ItemKind.CONSTRAINT if i % 5 == 0 else ItemKind.EPISODE,
            )
            for i, text in enumerate(PARITY_CORPUS)
        ]
        # the very same pending messages (same ids) go into both stores
        assert [r.outcome for r in await lite.commit(corpus, WINDOW)] == [
            r.outcome for r in await pg.commit(corpus, WINDOW)
        ]
        yield lite, pg
    finally:
        await lite.close()
        await pg.close()


def _top(found: list[Any], n: int = 3) -> tuple[list[float], set[str]]:
    """Scores of the top ``n`` and every id scoring at least the ``n``-th (ties aside)."""
    scores = [round(c.score, 5) for c in found[:n]]
    cut = found[min(n, len(found)) - 1].score - 1e-6 if found else 0.0
    return scores, {c.item_id for c in found if c.score >= cut}


async def test_parity_sqlite_and_postgres_rank_the_same_corpus_alike(
    both_backends: tuple[SQLiteStore, PostgresStore],
) -> None:
    lite, pg = both_backends
    tenant = ItemFilter(scope=Scope(tenant_id="t1"))
    for terms in (
        ["kayak"],
        ["lake", "canoe"],
        ["summer", "sister"],
        ["rhubarb", "recital"],
        ["oat", "milk", "coffee"],
        ["friday", "dinner", "maine"],
        ["cousin", "portugal", "bakery"],
    ):
        a = await lite.lexical_search(tenant, terms, 30)
        b = await pg.lexical_search(tenant, terms, 30)
        assert _top(a) == _top(b), terms
        assert {c.item_id for c in a} == {c.item_id for c in b}, terms
    for text in ("kayak on the lake", "oat milk coffee", "friday dinner", "rhubarb pie bakery"):
        a = await lite.vector_search(tenant, vec(text), 10)
        b = await pg.vector_search(tenant, vec(text), 10)
        assert _top(a) == _top(b), text


async def test_parity_sqlite_and_postgres_filter_alike(
    both_backends: tuple[SQLiteStore, PostgresStore],
) -> None:
    lite, pg = both_backends
    alice = Scope(tenant_id="t1", user_id="alice")
    filters = [
        ItemFilter(scope=Scope(tenant_id="t1")),
        ItemFilter(scope=alice),
        ItemFilter(scope=PARITY_USERS[1]),
        ItemFilter(scope=PARITY_USERS[2]),
        ItemFilter(scope=alice, kinds=(ItemKind.CONSTRAINT,)),
        ItemFilter(scope=alice, since=T0 + timedelta(hours=10)),
        ItemFilter(scope=alice, until=T0 + timedelta(hours=10)),
        ItemFilter(scope=alice, since=T0 + timedelta(hours=5), until=T0 + timedelta(hours=20)),
        ItemFilter(scope=alice, statuses=(ItemStatus.ARCHIVED,)),
        ItemFilter(scope=Scope(tenant_id="t1", namespace="other")),
        ItemFilter(scope=Scope(tenant_id="t2", user_id="alice")),
    ]
    terms = ["the", "lake", "rhubarb", "friday", "milk", "my"]
    for flt in filters:
        assert await lite.count_items(flt) == await pg.count_items(flt), flt
        lex_a = await lite.lexical_search(flt, terms, 50)
        lex_b = await pg.lexical_search(flt, terms, 50)
        assert {c.item_id for c in lex_a} == {c.item_id for c in lex_b}, flt
        # both take BM25's statistics from the rows the filter lets through
        assert _top(lex_a, 5) == _top(lex_b, 5), flt
        vec_a = await lite.vector_search(flt, vec("the lake on friday"), 50)
        vec_b = await pg.vector_search(flt, vec("the lake on friday"), 50)
        assert {c.item_id for c in vec_a} == {c.item_id for c in vec_b}, flt
    for scope in PARITY_USERS:
        at = T0 + timedelta(hours=17)
        ea, eb = await lite.previous_event(scope, at), await pg.previous_event(scope, at)
        assert ea == eb


async def test_add_items_attaches_to_stored_events_once(store: Store) -> None:
    bare = message("queued message about violins", ALICE)
    items, bare.items, bare.processed = bare.items, [], False
    [result] = await store.commit([bare], WINDOW)
    assert result.item_ids == []
    assert await store.add_items(items) == [items[0].item.id]
    # a redelivered job builds new item objects for the same event: nothing changes
    again = message("queued message about violins", ALICE).items
    again[0].item = again[0].item.model_copy(update={"source_event_ids": [bare.event.id]})
    assert await store.add_items(again) == []
    found = await store.lexical_search(ItemFilter(scope=ALICE), ["violins"], 5)
    assert [c.item_id for c in found] == [items[0].item.id]
    assert len(await store.vector_search(ItemFilter(scope=ALICE), vec("violins"), 5)) == 1
    assert await store.add_items([]) == []
