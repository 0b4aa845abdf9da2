"""Item and event rows in SQLite: conversions to and from models, and the row-level
writes every role shares (inserting items with their index entries, merging an event
into an item's provenance, changing items' status, deleting items). Times are UTC
microseconds.

Every change to a scope's items bumps ``scope_versions`` in the same transaction, so no
process serves a cached vector matrix or lexical index that no longer matches the rows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from cognimem.models import Event, ItemStatus, MemoryItem
from cognimem.models.clock import to_micros
from cognimem.models.knowledge import Fact
from cognimem.store import records, row_values
from cognimem.store.by_id import by_id_reads
from cognimem.store.records import EVENT_COLUMNS, ITEM_COLUMNS, USAGE_COUNTERS
from cognimem.store.sqlite import scopes
from cognimem.store.sqlite.in_lists import in_chunks
from cognimem.store.types import PendingItem

_from_timestamp = datetime.fromtimestamp


def decode_time(value: Any) -> datetime | None:
    """A stored time (integer microseconds, or NULL) as an aware UTC datetime:
    ``from_micros(int(value))``, its formula in this one call (~130 times a read)."""
    return None if value is None else _from_timestamp(int(value) / 1_000_000, UTC)


def encode_time(value: datetime | None) -> int | None:
    """A time (or None) as stored: integer UTC microseconds, or NULL."""
    return None if value is None else to_micros(value)


def query(conn: sqlite3.Connection, sql: str, params: Sequence[object]) -> list[sqlite3.Row]:
    """The rows of ``sql``, read by column name."""
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    return cur.execute(sql, params).fetchall()


class Params:
    """Collects bound parameters and hands out their ``?`` placeholders (the SQLite
    side of ``store/postgres/rows.Params``)."""

    def __init__(self, *initial: object) -> None:
        self.values: list[object] = list(initial)

    def add(self, value: object) -> str:
        self.values.append(value)
        return "?"


def blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, np.float32).tobytes()


def item_from_row(row: sqlite3.Row) -> MemoryItem:
    """An item from a row of ``ITEM_SELECT``'s columns in their order (and any after)."""
    return records.item_from_row(row, decode_time)


def fact_from_row(row: sqlite3.Row) -> Fact:
    """A fact from a row of ``FACT_COLUMNS`` in their order (and any after)."""
    return records.fact_from_row(row, decode_time)


def event_from_row(row: sqlite3.Row) -> Event:
    return records.event_from_row(row, decode_time)


BY_ID = by_id_reads(decode_time)


def item_params(item: MemoryItem, embedding: bytes | None) -> tuple[Any, ...]:
    return (*row_values.item_values(item, encode_time), embedding)


INSERT_ITEM = f"INSERT INTO items ({ITEM_COLUMNS}, embedding) VALUES ({', '.join('?' * 35)})"


def event_params(event: Event) -> tuple[Any, ...]:
    return row_values.event_values(event, encode_time)


INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join('?' * 15)})"


def insert_usage(conn: sqlite3.Connection, items: Sequence[MemoryItem]) -> None:
    """The counters items arrive with (an import's), for the items just inserted."""
    used = [i for i in items if any(getattr(i, c) for c in USAGE_COUNTERS) or i.last_accessed_at]
    if not used:  # a write's new items: nothing counted yet
        return
    conn.executemany(
        "INSERT OR IGNORE INTO item_usage (item_id, tenant_id, access_count, loaded_count,"
        " cited_count, success_count, failure_count, last_accessed_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                i.id, i.scope.tenant_id, i.access_count, i.loaded_count, i.cited_count,
                i.success_count, i.failure_count,
                None if i.last_accessed_at is None else to_micros(i.last_accessed_at),
            )
            for i in used
        ],
    )  # fmt: skip


def insert_items(
    conn: sqlite3.Connection, items: Sequence[PendingItem], *, skip_existing: bool = False
) -> list[str]:
    """Insert items with their index entries and provenance links; bump the scope
    versions. ``skip_existing``: an id already stored is left as it is (an import);
    otherwise it is an error. Returns the ids inserted."""
    sql = (
        INSERT_ITEM.replace("INSERT INTO", "INSERT OR IGNORE INTO", 1)
        if skip_existing
        else INSERT_ITEM
    )
    inserted: list[str] = []
    touched: set[tuple[str, str, str | None]] = set()
    for p in items:
        cur = conn.execute(sql, item_params(p.item, blob(p.embedding)))
        if cur.rowcount != 1:
            continue
        inserted.append(p.item.id)
        conn.execute(
            "INSERT INTO items_fts (rowid, search_text) VALUES (?, ?)",
            (cur.lastrowid, p.search_text),
        )
        conn.executemany(
            "INSERT OR IGNORE INTO item_events (item_id, event_id) VALUES (?, ?)",
            [(p.item.id, eid) for eid in p.item.source_event_ids],
        )
        s = p.item.scope
        touched.add((s.tenant_id, s.namespace, s.user_id))
    done = set(inserted)
    insert_usage(conn, [p.item for p in items if p.item.id in done])
    for tenant_id, namespace, user_id in sorted(touched, key=str):
        scopes.bump_version(conn, tenant_id, namespace, user_id, mutation=False)
    return inserted


def merge(conn: sqlite3.Connection, event: Event, targets: Sequence[str]) -> list[str]:
    """Add ``event`` (and its external id) to the provenance of existing items; returns
    the targets that exist, in the order given."""
    merged = []
    for item_id in targets:
        row = conn.execute(
            "SELECT source_event_ids, external_ids FROM items WHERE id = ?", (item_id,)
        ).fetchone()
        if row is None:
            continue
        sources, externals = json.loads(row[0]), json.loads(row[1])
        if event.id not in sources:
            sources.append(event.id)
        if event.external_id is not None and event.external_id not in externals:
            externals.append(event.external_id)
        conn.execute(
            "UPDATE items SET source_event_ids = ?, external_ids = ? WHERE id = ?",
            (json.dumps(sources), json.dumps(externals), item_id),
        )
        conn.execute(
            "INSERT OR IGNORE INTO item_events (item_id, event_id) VALUES (?, ?)",
            (item_id, event.id),
        )
        merged.append(item_id)
    return merged


def set_status(conn: sqlite3.Connection, ids: Sequence[str], status: ItemStatus) -> int:
    """Put the items ``ids`` into ``status``; returns how many changed."""
    changed = 0
    for item_id in ids:
        row = conn.execute(
            "SELECT tenant_id, namespace, user_id FROM items WHERE id = ? AND status != ?",
            (item_id, status.value),
        ).fetchone()
        if row is None:
            continue
        conn.execute("UPDATE items SET status = ? WHERE id = ?", (status.value, item_id))
        scopes.bump_version(conn, row[0], row[1], row[2], mutation=True, status_only=True)
        changed += 1
    return changed


def count_present(conn: sqlite3.Connection, table: str, tenant_id: str, ids: Sequence[str]) -> int:
    """How many of the tenant's rows ``ids`` (distinct) are in ``table``, asked 500 at a
    time to stay under SQLite's parameter limit."""
    present = 0
    for part, marks in in_chunks(ids):
        (n,) = conn.execute(
            f"SELECT count(*) FROM {table} WHERE tenant_id = ? AND id IN ({marks})",
            (tenant_id, *part),
        ).fetchone()
        present += int(n)
    return present


def delete_items(conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str]) -> int:
    """Remove the tenant's items ``ids`` with their index entries and provenance links;
    returns how many existed."""
    marks = ", ".join("?" * len(ids))
    found = conn.execute(
        f"SELECT rowid, id, namespace, user_id FROM items WHERE +tenant_id = ? AND id IN ({marks})",
        (tenant_id, *ids),
    ).fetchall()
    for rowid, item_id, namespace, user_id in found:
        conn.execute("DELETE FROM items_fts WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM item_events WHERE item_id = ?", (item_id,))
        conn.execute("DELETE FROM items WHERE rowid = ?", (rowid,))
        scopes.bump_version(conn, tenant_id, namespace, user_id, mutation=True)
    return len(found)
