"""``FactChangeLog``: the steps of a scope's fact version that this connection's
committed transactions made, with the facts they touched; nothing across a step it did
not see, a rollback or a deleted version row."""

from __future__ import annotations

import sqlite3

from cognimem.store.sqlite.fact_changes import FactChangeLog

ALICE = ("t1", "default", "u:alice")


def _db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE facts (id TEXT, tenant_id TEXT, namespace TEXT, user_id TEXT)")
    conn.execute(
        "CREATE TABLE fact_versions (tenant_id TEXT, namespace TEXT, user_key TEXT,"
        " version INTEGER, PRIMARY KEY (tenant_id, namespace, user_key))"
    )
    return conn


def _bump(conn: sqlite3.Connection, user: str = "u:alice") -> None:
    conn.execute(
        "INSERT INTO fact_versions VALUES ('t1', 'default', ?, 1)"
        " ON CONFLICT DO UPDATE SET version = version + 1",
        (user,),
    )


def _write(log: FactChangeLog, conn: sqlite3.Connection, sql: str, *, commit: bool = True) -> None:
    assert log.watch(conn)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(sql)
    _bump(conn)
    seen = log.collect(conn)
    if not commit:
        conn.execute("ROLLBACK")
        return
    conn.execute("COMMIT")
    log.committed(seen)


def test_committed_steps_chain_and_name_the_facts_they_touched() -> None:
    log, conn = FactChangeLog(), _db()
    _write(log, conn, "INSERT INTO facts VALUES ('f1', 't1', 'default', 'alice')")
    _write(log, conn, "UPDATE facts SET namespace = 'default' WHERE id = 'f1'")
    _write(log, conn, "INSERT INTO facts VALUES ('f2', 't1', 'default', 'alice')")
    assert log.between(ALICE, 0, 1) == {"f1"}
    assert log.between(ALICE, 1, 3) == {"f1", "f2"}
    assert log.between(ALICE, 2, 2) == frozenset()
    assert log.between(ALICE, 3, 1) is None  # backwards: no chain
    assert log.between(("t1", "default", ""), 0, 1) is None  # another scope


def test_a_step_made_elsewhere_breaks_the_chain() -> None:
    log, conn = FactChangeLog(), _db()
    _write(log, conn, "INSERT INTO facts VALUES ('f1', 't1', 'default', 'alice')")
    # a step this log never sees (another process's, say): version 1 -> 2
    conn.execute("UPDATE fact_versions SET version = version + 1")
    conn.execute("DELETE FROM temp.cm_version_steps")
    _write(log, conn, "INSERT INTO facts VALUES ('f2', 't1', 'default', 'alice')")
    assert log.between(ALICE, 0, 1) == {"f1"}
    assert log.between(ALICE, 1, 3) is None
    assert log.between(ALICE, 2, 3) == {"f2"}


def test_a_rolled_back_write_records_nothing() -> None:
    log, conn = FactChangeLog(), _db()
    _write(log, conn, "INSERT INTO facts VALUES ('f1', 't1', 'default', 'alice')", commit=False)
    assert log.between(ALICE, 0, 1) is None
    _write(log, conn, "INSERT INTO facts VALUES ('f2', 't1', 'default', 'alice')")
    assert log.between(ALICE, 0, 1) == {"f2"}


def test_a_deleted_version_row_forgets_the_scope() -> None:
    log, conn = FactChangeLog(), _db()
    _write(log, conn, "INSERT INTO facts VALUES ('f1', 't1', 'default', 'alice')")
    log.watch(conn)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("DELETE FROM facts")
    conn.execute("DELETE FROM fact_versions")
    seen = log.collect(conn)
    conn.execute("COMMIT")
    log.committed(seen)
    assert log.between(ALICE, 0, 1) is None
