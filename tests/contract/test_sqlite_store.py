"""What only SQLiteStore does: migrations of one file, several stores (and processes)
on one file, and its per-process caches following another store's writes."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from cognimem.errors import (
    SchemaMismatch,
    StoreError,
)
from cognimem.models import ItemStatus, Scope
from cognimem.models.clock import to_micros
from cognimem.models.knowledge import (
    FactCategory,
)
from cognimem.store import ItemFilter
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.lifecycle_due import due_sql
from cognimem.store.sqlite import SQLiteStore, migrations
from cognimem.store.sqlite.connection import connect
from cognimem.store.sqlite.migrations import MIGRATIONS
from cognimem.store.types import (
    Knowledge,
)
from tests.contract.builders import (
    ALICE,
    BOB,
    WINDOW,
    bare,
    counters_carried_into_item_usage,
    fact,
    new,
    session,
)
from tests.contract.conftest import T0, message, vec


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
        (12, "lifecycle_runs"),
        (13, "item_novelty"),
        (14, "item_usage"),
        (15, "procedures"),
        (18, "fact_provenance"),
        (19, "fact_times"),
        (20, "items_kind"),
        (21, "api_key_levels"),
        (22, "procedure_agents"),
        (25, "items_shared_level"),
        (26, "scope_row_changes"),
        (27, "api_key_changes"),
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
        await b.forget_items(ItemsForgetting("t1", r.item_ids, ItemStatus.DELETED, now=T0))
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


async def test_sqlite_applies_a_migration_numbered_below_the_applied_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Version 6 may land after 7 was applied (two branches): it is applied then (with
    21, which adds columns to its table, and 27, which adds triggers on it)."""
    path = tmp_path / "gap.db"
    without_six = [m for m in migrations.MIGRATIONS if m[0] not in (6, 21, 27)]
    monkeypatch.setattr(migrations, "MIGRATIONS", without_six[::-1])  # any order
    early = SQLiteStore(path)
    await early.open()
    assert await early.schema_version() == max(m[0] for m in without_six)
    await early.close()
    monkeypatch.undo()
    later = SQLiteStore(path)
    await later.open()
    try:
        assert await later.schema_version() == max(m[0] for m in migrations.MIGRATIONS)
        assert await later.list_api_keys(None) == []
        await later.put_session(session("s1"))
    finally:
        await later.close()


async def test_sqlite_upgrade_marks_events_without_items_unprocessed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cognimem.store.sqlite import SQLiteStore, migrations

    path = tmp_path / "old.db"
    with monkeypatch.context() as m:
        # today's commit also writes an item's event period and novelty, whose columns
        # migrations 11 and 13 add to the items table (no migration in between rebuilds
        # that table), and the scope's row changes, which migration 26 adds
        event_period = [
            g
            for g in migrations.MIGRATIONS
            if g[1] in ("item_event_period", "item_novelty", "scope_row_changes")
        ]
        m.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS[:2], *event_period])
        old = SQLiteStore(path)
        await old.open()
        # (no session: today's commit checks the sessions table, which came later)
        derived, (queued, _) = message("derived long ago", BOB), bare("queued long ago", BOB)
        queued.processed = True  # the old schema has no column to say otherwise
        await old.commit([derived, queued], WINDOW)
        await old.close()
    upgraded = SQLiteStore(path)
    await upgraded.open()
    try:
        ids = [derived.event.id, queued.event.id]
        assert await upgraded.unprocessed("t1", ids) == [queued.event.id]
    finally:
        await upgraded.close()


async def test_sqlite_keys_made_before_levels_write_every_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cognimem.models.admin import KeyLevel

    path = tmp_path / "old.db"
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", [g for g in MIGRATIONS if g[1] != "api_key_levels"])
        old = SQLiteStore(path)
        await old.open()
        await old.close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO api_keys (id, tenant_id, name, key_hash, prefix, created_at)"
            " VALUES ('key_old', 'acme', 'ci', 'hash_old', 'cm_old', ?)",
            (to_micros(T0),),
        )
    upgraded = SQLiteStore(path)
    await upgraded.open()
    try:
        found = await upgraded.find_api_key("hash_old")
        assert found is not None
        assert (found.level, found.user_id, found.agent_id) == (KeyLevel.ORGANISATION, None, None)
    finally:
        await upgraded.close()


async def test_sqlite_fact_rows_cache_sees_another_stores_writes(tmp_path: Path) -> None:
    from cognimem.store.sqlite import SQLiteStore

    path = tmp_path / "shared.db"
    a, b = SQLiteStore(path), SQLiteStore(path)
    await a.open()
    await b.open()
    try:
        first = fact("user:value:diet", "vegan", category=FactCategory.VALUE)
        await a.commit([], WINDOW, Knowledge(facts=new(first)))
        assert (await a.fact_rows("t1", "default", "alice", 10)).ids == [first.id]
        second = fact("user:policy:allergy:nuts", "nuts", category=FactCategory.POLICY)
        await b.commit([], WINDOW, Knowledge(facts=new(second)))
        assert set((await a.fact_rows("t1", "default", "alice", 10)).ids) == {first.id, second.id}
    finally:
        await a.close()
        await b.close()


async def test_sqlite_a_fact_lookup_by_key_reads_the_key_index(tmp_path: Path) -> None:
    # an OR of the keys' conditions made SQLite read every fact of the user through the
    # category index: 2.5 ms a lookup with 3,137 facts, on the read's critical path
    from cognimem.store.sqlite.knowledge import find_facts
    from cognimem.store.types import FactQuery

    path = tmp_path / "facts.db"
    store = SQLiteStore(path)
    await store.open()
    others = [fact(f"user:relationship:friend{i}", f"f{i}") for i in range(200)]
    pet = fact("user:pet:dog", "dog")
    await store.commit([], WINDOW, Knowledge(facts=new(*others, pet)))
    await store.close()
    statements: list[str] = []
    with sqlite3.connect(path) as conn:
        conn.row_factory = sqlite3.Row
        conn.set_trace_callback(statements.append)
        for keys in (("user:pet",), ("user:pet", "user:location", "user:pet:dog")):
            statements.clear()
            query = FactQuery("t1", "default", "alice", keys=keys, limit=20)
            assert [f.id for f in find_facts(conn, query)] == [pet.id]  # found once
            conn.set_trace_callback(None)
            plan = " | ".join(r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {statements[-1]}"))
            conn.set_trace_callback(statements.append)
            assert "facts_key" in plan
            assert "facts_category" not in plan


async def test_migration_14_moves_the_items_counters_into_item_usage(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    s = SQLiteStore(path)
    await s.open()
    [used, unused] = await s.commit(
        [message("read often", ALICE), message("never read", ALICE)], WINDOW
    )
    await s.close()
    with sqlite3.connect(path) as conn:  # the database as migration 12 left it
        conn.execute("DROP TABLE item_usage")
        conn.execute("DELETE FROM schema_migrations WHERE version = 14")
        conn.execute(
            "UPDATE items SET access_count = 3, loaded_count = 2, cited_count = 1,"
            " success_count = 1, last_accessed_at = ? WHERE id = ?",
            (to_micros(T0), used.item_ids[0]),
        )
    await counters_carried_into_item_usage(SQLiteStore(path), used, unused)


# -- which thread a read runs on ----------------------------------------------------


async def test_sqlite_cheap_reads_run_on_the_calling_thread_others_on_a_reader(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "here.db")
    await store.open()
    try:
        here = threading.current_thread().name
        db = store._db
        assert await db.read(lambda conn: threading.current_thread().name, here=True) == here
        pooled = await db.read(lambda conn: threading.current_thread().name)
        assert pooled != here
        assert pooled.startswith("cognimem-r")
        # a driver error is translated on this thread too
        with pytest.raises(StoreError, match="no such table"):
            await db.read(lambda conn: conn.execute("SELECT * FROM nowhere"), here=True)
    finally:
        await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store._db.read(lambda conn: 1, here=True)


async def test_sqlite_a_search_runs_here_only_once_its_scope_is_loaded_and_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cognimem.store.sqlite import items as sqlite_items
    from cognimem.store.sqlite import vectors

    threads: list[str] = []
    search_many = vectors.search_many

    def noted(*args: object) -> object:
        threads.append(threading.current_thread().name)
        return search_many(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(vectors, "search_many", noted)
    monkeypatch.setattr(sqlite_items, "INLINE_SEARCH_ITEMS", 3)
    store = SQLiteStore(tmp_path / "small.db")
    await store.open()
    flt = ItemFilter(scope=ALICE)
    try:
        await store.commit([message(f"kayak trip number {i}", ALICE) for i in range(3)], WINDOW)
        await store.vector_searches([(flt, 5)], vec("kayaks"))  # loads the scope: a reader
        await store.vector_searches([(flt, 5)], vec("kayaks"))  # 3 rows: here
        await store.commit([message("a fourth kayak trip", ALICE)], WINDOW)
        found = await store.vector_searches([(flt, 5)], vec("kayaks"))  # 3 loaded: here
        assert len(found[0]) == 4  # the new row was appended on this thread
        await store.vector_searches([(flt, 5)], vec("kayaks"))  # 4 rows: a reader again
        here = threading.current_thread().name
        assert [t == here for t in threads] == [False, True, True, False]
    finally:
        await store.close()


async def test_migration_25_indexes_the_live_rows_of_no_user_for_the_scheduler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database before version 25 with a user's and two shared levels' rows: the
    upgrade adds the partial index the scheduler's shared-level branch reads through,
    and the scopes it finds due stay the same."""
    path = tmp_path / "m.db"
    org, ops = Scope(tenant_id="t1"), Scope(tenant_id="t1", agent_id="ops")
    with monkeypatch.context() as m:
        # (today's commit counts the scope's row changes: migration 26's column)
        before_25 = [g for g in MIGRATIONS if g[0] < 25 or g[1] == "scope_row_changes"]
        m.setattr(migrations, "MIGRATIONS", before_25)
        old = SQLiteStore(path)
        await old.open()
        try:
            said = [message("Never share prices.", org), message("Sign off as Ops.", ops)]
            await old.commit([*said, message("I deploy on Fridays.", ALICE)], WINDOW)
            before = await old.lifecycle_due("consolidate", limit=10)
        finally:
            await old.close()
    upgraded = SQLiteStore(path)
    await upgraded.open()
    try:
        assert await upgraded.schema_version() == max(v for v, _, _ in MIGRATIONS)
        assert await upgraded.lifecycle_due("consolidate", limit=10) == before
    finally:
        await upgraded.close()
    assert {(d.user_id, d.agent_id) for d in before} == {("alice", None), (None, None),
                                                         (None, "ops")}  # fmt: skip
    with sqlite3.connect(path) as conn:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN " + due_sql(lambda n: f"?{n}", levels=True), ("consolidate", 10)
        ).fetchall()
    assert any("items_shared_level" in row[3] for row in plan)


async def test_sqlite_nearest_across_blocks_of_rows_is_the_exact_nearest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The near-duplicate search scans the scope's matrix a block of rows at a time:
    across blocks, with a filter leaving out rows, each query gets the row a scan of
    every allowed row finds, and a tie goes to the earlier row."""
    import numpy as np

    from cognimem.models import ItemKind
    from cognimem.store.sqlite import vectors

    monkeypatch.setattr(vectors, "_NEAREST_ROWS", 3)
    store = SQLiteStore(tmp_path / "nearest.db")
    await store.open()
    texts = [f"walked the dog {i} times along the river" for i in range(10)]
    texts.append(texts[4])  # the same text again, later: a tie the earlier row wins
    kinds = [ItemKind.EPISODE if i % 3 else ItemKind.FACT for i in range(11)]
    ids: list[str] = []
    try:
        for i, (text, kind) in enumerate(zip(texts, kinds, strict=True)):
            [done] = await store.commit(
                [message(f"event {i}", ALICE, kind=kind, chunks=[text])], WINDOW
            )
            ids += done.item_ids
        queries = np.vstack([vec(t) for t in ("the dog walked 7 times", texts[4], texts[3])])
        for kind in (ItemKind.EPISODE, None):
            flt = ItemFilter(scope=ALICE, kinds=None if kind is None else (kind,))
            rows = [i for i, k in enumerate(kinds) if kind is None or k is kind]
            matrix = np.vstack([vec(texts[i]) for i in rows])
            hits = await store.nearest(flt, queries)
            for query, hit in zip(queries, hits, strict=True):
                scores = matrix @ query
                assert hit is not None
                assert hit.item_id == ids[rows[int(np.argmax(scores))]]
                assert hit.score == pytest.approx(float(scores.max()), abs=1e-6)
            assert hits[1] is not None
            assert hits[1].item_id == ids[4]  # not ids[10], the same text later
    finally:
        await store.close()
