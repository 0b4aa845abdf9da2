"""What only PostgresStore does: migrations racing on first open, commits racing on
one message, the HNSW index, tsquery safety, pool options from the URL."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from cognimem.errors import SchemaMismatch, StoreError, UsageError
from cognimem.models import ItemKind, ItemStatus, Scope, WriteOutcome
from cognimem.store import ItemFilter, PendingMessage
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.postgres import PostgresStore
from cognimem.store.postgres.migrations import MIGRATIONS as PG_MIGRATIONS
from tests import servers
from tests.contract.builders import (
    ALICE,
    WINDOW,
    counters_carried_into_item_usage,
)
from tests.contract.conftest import T0, message, vec


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
async def blank_postgres_dsn(postgres_server: servers.PostgresServer) -> AsyncIterator[str]:
    """An empty database (no migrations yet)."""
    name = f"blank_{uuid.uuid4().hex[:12]}"
    await _sql(postgres_server.admin_dsn(), f"CREATE DATABASE {name}")
    try:
        yield postgres_server.admin_dsn(name)
    finally:
        await _sql(postgres_server.admin_dsn(), f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


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
        (12, "lifecycle_runs"),
        (13, "item_novelty"),
        (14, "item_usage"),
        (15, "procedures"),
        (16, "item_search_stats"),
        (17, "item_change_seq"),
        (18, "fact_provenance"),
        (19, "fact_times"),
        (21, "api_key_levels"),
        (22, "procedure_agents"),
        (23, "drop_sql_search"),
        (25, "items_shared_level"),
        (26, "vectors_inline"),
        (27, "api_key_changes"),
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


async def test_postgres_a_released_connection_gets_no_reset_query(postgres_dsn: str) -> None:
    """The store keeps no session state on a pooled connection, so it goes back to the
    pool without asyncpg's reset query: a store call is one round trip, not two. The
    server's last statement on the pool's one connection is the call's own."""
    store = PostgresStore(postgres_dsn, min_size=1, max_size=1)
    await store.open()
    try:
        await store.get_meta("schema_version")
        await asyncio.sleep(0)  # the release runs its reset, if any, before this returns
        found = await _sql(
            postgres_dsn,
            "SELECT query FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
        )
    finally:
        await store.close()
    assert [r["query"] for r in found] == ["SELECT value FROM meta WHERE key = $1"]


async def test_postgres_a_failed_transaction_leaves_its_connection_clean(
    postgres_dsn: str,
) -> None:
    """Without the reset query, asyncpg still rolls back what a failure left open: the
    next call on the pool's one connection sees no transaction and no local setting."""
    store = PostgresStore(postgres_dsn, min_size=1, max_size=1)

    async def fail_inside_a_transaction() -> None:
        async with store._connection() as conn:
            await conn.execute("BEGIN")
            await conn.execute("SET LOCAL statement_timeout = 1234")
            await conn.execute("SELECT 1/0")

    await store.open()
    try:
        with pytest.raises(StoreError):
            await fail_inside_a_transaction()
        async with store._connection() as conn:
            assert not conn.is_in_transaction()
            assert await conn.fetchval("SHOW statement_timeout") == "0"
    finally:
        await store.close()


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


def _notes(n: int, rare: ItemKind, *, every: int) -> list[PendingMessage]:
    """``n`` episodes of Alice's, every ``every``-th of kind ``rare`` instead."""
    return [
        message(
            f"note {i} about topic {i % 37} and color {i % 11}",
            ALICE,
            kind=rare if i % every == 7 else ItemKind.EPISODE,
        )
        for i in range(n)
    ]


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
        await store.commit(_notes(2000, ItemKind.CONSTRAINT, every=200), WINDOW)
        flt = ItemFilter(scope=ALICE, kinds=(ItemKind.CONSTRAINT,))
        assert "items_embedding_hnsw_64" in await store.explain_vector_search(flt, vec("x"), 5)
        found = await store.vector_search(flt, vec("topic 3 color 2"), 5)
        assert len(found) == 5
        assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)
        items = await store.get_items("t1", [c.item_id for c in found])
        assert {i.kind for i in items} == {ItemKind.CONSTRAINT}
    finally:
        await store.close()


async def test_postgres_vector_searches_are_planned_for_their_filter_every_time(
    postgres_dsn: str,
) -> None:
    # after five runs a prepared statement may switch to a generic plan, made without
    # the filter's values: for a kind few rows hold it walks the HNSW graph (at 100k
    # episodes, ~90 ms for a scope's summaries instead of ~1 ms by btree)
    store = PostgresStore.from_url(
        f"{postgres_dsn}?min_size=1&max_size=1&hnsw_m=8&hnsw_ef_construction=16"
    )
    await store.open()
    try:
        await store.commit(_notes(1000, ItemKind.SUMMARY, every=100), WINDOW)
        await _sql(postgres_dsn, "ANALYZE items")
        flt = ItemFilter(scope=ALICE, kinds=(ItemKind.SUMMARY,))
        for i in range(12):
            assert len(await store.vector_search(flt, vec(f"topic {i}"), 3)) == 3
        async with store._connection() as conn:  # the pool's one connection
            plans = await conn.fetch(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE statement LIKE '%WITH hits AS MATERIALIZED%'"
                " AND statement NOT LIKE '%pg_prepared_statements%'"
            )
        assert plans, "the vector search ran as a prepared statement"
        assert sum(p["generic_plans"] for p in plans) == 0, plans
        assert sum(p["custom_plans"] for p in plans) >= 12, plans
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


async def test_postgres_upgrade_marks_events_without_items_unprocessed(
    blank_postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncpg

    from cognimem.store.postgres import PostgresStore, migrations

    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:1])
        old = PostgresStore(blank_postgres_dsn, min_size=0)
        await old.open()
        await old.close()
    # rows as the old schema held them: one event with an item, one without
    conn = await asyncpg.connect(blank_postgres_dsn, timeout=10)
    try:
        for event_id in ("evt_derived", "evt_queued"):
            await conn.execute(
                "INSERT INTO events (id, tenant_id, namespace, user_id, role, content,"
                " content_hash, occurred_at, recorded_at)"
                " VALUES ($1, 't1', 'default', 'alice', 'user', 'x', 'h', $2, $2)",
                event_id,
                T0,
            )
        await conn.execute(
            "INSERT INTO items (id, tenant_id, namespace, user_id, text, kind, occurred_at,"
            " recorded_at) VALUES ('mem_1', 't1', 'default', 'alice', 'x', 'episode', $1, $1)",
            T0,
        )
        await conn.execute("INSERT INTO item_events VALUES ('mem_1', 'evt_derived')")
    finally:
        await conn.close()
    upgraded = PostgresStore(blank_postgres_dsn, min_size=0)
    await upgraded.open()
    try:
        assert await upgraded.schema_version() == max(v for v, _, _ in migrations.MIGRATIONS)
        assert await upgraded.unprocessed("t1", ["evt_derived", "evt_queued"]) == ["evt_queued"]
    finally:
        await upgraded.close()


async def test_postgres_keys_made_before_levels_write_every_level(
    blank_postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncpg

    from cognimem.models.admin import KeyLevel
    from cognimem.store.postgres import migrations

    with monkeypatch.context() as m:
        older = [g for g in migrations.MIGRATIONS if g[1] != "api_key_levels"]
        m.setattr(migrations, "MIGRATIONS", older)
        old = PostgresStore(blank_postgres_dsn, min_size=0)
        await old.open()
        await old.close()
    conn = await asyncpg.connect(blank_postgres_dsn, timeout=10)
    try:
        await conn.execute(
            "INSERT INTO api_keys (id, tenant_id, name, key_hash, prefix, created_at)"
            " VALUES ('key_old', 'acme', 'ci', 'hash_old', 'cm_old', $1)",
            T0,
        )
    finally:
        await conn.close()
    upgraded = PostgresStore(blank_postgres_dsn, min_size=0)
    await upgraded.open()
    try:
        found = await upgraded.find_api_key("hash_old")
        assert found is not None
        assert (found.level, found.user_id, found.agent_id) == (KeyLevel.ORGANISATION, None, None)
    finally:
        await upgraded.close()


async def test_migration_14_moves_the_items_counters_into_item_usage(
    blank_postgres_dsn: str,
) -> None:
    s = PostgresStore(blank_postgres_dsn)
    await s.open()
    [used, unused] = await s.commit(
        [message("read often", ALICE), message("never read", ALICE)], WINDOW
    )
    await s.close()
    # the database as migration 12 left it
    await _sql(blank_postgres_dsn, "DROP TABLE item_usage")
    await _sql(blank_postgres_dsn, "DELETE FROM schema_migrations WHERE version = 14")
    await _sql(
        blank_postgres_dsn,
        "UPDATE items SET access_count = 3, loaded_count = 2, cited_count = 1,"
        " success_count = 1, last_accessed_at = $1 WHERE id = $2",
        T0,
        used.item_ids[0],
    )
    await counters_carried_into_item_usage(PostgresStore(blank_postgres_dsn), used, unused)


LINES = [
    "the garden needs water every morning",
    "Alice planted tomatoes in the garden",
    "the bakery on Elm street sells rye bread",
    "a morning run along the river",
    "tomatoes and basil for the pasta sauce",
]


async def _reads(store: PostgresStore) -> list[Any]:
    flt = ItemFilter(scope=ALICE)
    found: list[Any] = [await store.count_items(flt)]
    for terms in (["garden"], ["tomatoes", "morning"], ["bread", "river", "sauce"]):
        hits = await store.lexical_search(flt, terms, 10)
        found.append([(c.item_id, round(c.score, 9)) for c in hits])
    hits = await store.vector_search(flt, vec(LINES[1]), 3)
    found.append([(c.item_id, round(c.score, 6)) for c in hits])
    return found


async def test_migration_23_drops_the_sql_search_and_reads_alike(
    blank_postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database at version 22 with rows: migration 23 drops the SQL search's columns,
    GIN index and statistics, every read finds and ranks what it did, and writes,
    forgetting and erasure still work without the triggers."""
    from cognimem.store.postgres import migrations

    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", [g for g in migrations.MIGRATIONS if g[0] <= 22])
        old = PostgresStore(blank_postgres_dsn, min_size=0)
        await old.open()
        try:
            assert await old.schema_version() == 22
            written = await old.commit(
                [message(t, ALICE, at=T0 + timedelta(minutes=i)) for i, t in enumerate(LINES)],
                WINDOW,
            )
            await old.forget_items(
                ItemsForgetting("t1", written[3].item_ids, ItemStatus.SILENT, now=T0)
            )
            before = await _reads(old)
        finally:
            await old.close()
    upgraded = PostgresStore(blank_postgres_dsn, min_size=0)
    await upgraded.open()
    try:
        assert await upgraded.schema_version() == max(v for v, _, _ in migrations.MIGRATIONS)
        assert await _reads(upgraded) == before
        [new] = await upgraded.commit([message("water the garden at noon", ALICE)], WINDOW)
        garden = await upgraded.lexical_search(ItemFilter(scope=ALICE), ["garden"], 10)
        assert new.item_ids[0] in {c.item_id for c in garden}
        await upgraded.forget_items(ItemsForgetting("t1", new.item_ids, ItemStatus.DELETED, now=T0))
        await upgraded.erase_user("t1", "alice")
        assert await upgraded.count_items(ItemFilter(scope=ALICE)) == 0
    finally:
        await upgraded.close()
    columns = await _sql(
        blank_postgres_dsn,
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'items'"
        " AND column_name LIKE 'search%'",
    )
    assert {r[0] for r in columns} == {"search_text"}
    left = await _sql(
        blank_postgres_dsn,
        "SELECT to_regclass('item_search_stats'), to_regclass('items_search'),"
        " (SELECT count(*) FROM pg_proc WHERE proname LIKE 'cognimem_search_stats%'"
        " OR proname = 'cognimem_token_count')",
    )
    assert tuple(left[0]) == (None, None, 0)


async def test_migration_25_indexes_the_live_rows_of_no_user_for_the_scheduler(
    blank_postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database before version 25 with a user's and two shared levels' rows: the
    upgrade adds the partial index the scheduler's shared-level branch can read
    through, and the scopes it finds due stay the same."""
    from cognimem.store.postgres import migrations

    org, ops = Scope(tenant_id="t1"), Scope(tenant_id="t1", agent_id="ops")
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", [g for g in migrations.MIGRATIONS if g[0] < 25])
        old = PostgresStore(blank_postgres_dsn, min_size=0)
        await old.open()
        try:
            said = [message("Never share prices.", org), message("Sign off as Ops.", ops)]
            await old.commit([*said, message("I deploy on Fridays.", ALICE)], WINDOW)
            before = await old.lifecycle_due("consolidate", limit=10)
        finally:
            await old.close()
    upgraded = PostgresStore(blank_postgres_dsn, min_size=0)
    await upgraded.open()
    try:
        assert await upgraded.schema_version() == max(v for v, _, _ in migrations.MIGRATIONS)
        assert await upgraded.lifecycle_due("consolidate", limit=10) == before
    finally:
        await upgraded.close()
    assert {(d.user_id, d.agent_id) for d in before} == {("alice", None), (None, None),
                                                         (None, "ops")}  # fmt: skip
    (index,) = await _sql(
        blank_postgres_dsn,
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'items_shared_level'",
    )
    assert "(tenant_id, namespace, agent_id, recorded_at)" in index[0]
    assert "user_id IS NULL" in index[0]


async def test_postgres_bulk_commits_keep_the_planner_statistics(blank_postgres_dsn: str) -> None:
    """A fresh database's tables get statistics once bulk commits outgrow them, so the
    write path's lookups are not planned for one-row tables (planner_stats.py)."""
    from cognimem.store.postgres.planner_stats import MIN_ROWS

    def notes(n: int, start: int) -> list[PendingMessage]:
        return [message(f"note {i} about topic {i % 37}", ALICE) for i in range(start, start + n)]

    sql = "SELECT relname, reltuples FROM pg_class WHERE relname IN ('items', 'events')"
    s = PostgresStore(blank_postgres_dsn, max_size=2)
    await s.open()
    try:
        few = MIN_ROWS // 4  # a message and its item: 2 rows each, below MIN_ROWS
        await s.commit(notes(few, 0), WINDOW)
        stats = {r["relname"]: r["reltuples"] for r in await _sql(blank_postgres_dsn, sql)}
        assert stats["events"] < 0, stats  # never analysed
        await s.commit(notes(MIN_ROWS // 2, few), WINDOW)
        stats = {r["relname"]: r["reltuples"] for r in await _sql(blank_postgres_dsn, sql)}
        total = few + MIN_ROWS // 2
        assert stats == {"items": total, "events": total}
    finally:
        await s.close()
