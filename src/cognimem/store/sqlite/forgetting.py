"""Forgetting items in SQLite: the rows the cascade reads and the fact and relation
changes it writes, inside the caller's transaction (see ``store/forgetting.py``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cognimem.models import ItemKind, ItemStatus
from cognimem.models.clock import to_micros
from cognimem.models.knowledge import ConflictStatus, FactStatus
from cognimem.store.forgetting import (
    CONFLICT_NOTE,
    Cascade,
    ForgottenItem,
    SourcedFact,
    cascade,
)
from cognimem.store.records import user_key
from cognimem.store.sqlite.knowledge_writes import bump_fact_version

# a JSON array bound as one parameter: no limit on how many ids a statement names
_IDS = "(SELECT value FROM json_each(?))"


def plan(
    conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str], status: ItemStatus
) -> tuple[list[ForgottenItem], Cascade, int]:
    """The items of ``ids`` in the tenant, what forgetting them into ``status`` changes,
    and how many graph edges go with the orphaned facts."""
    found = _items(conn, tenant_id, ids)
    items = [ForgottenItem(r[0], r[1], ItemStatus(r[2])) for r in found]
    if not items:
        return [], Cascade(), 0
    forgotten = json.dumps([i.id for i in items])
    owners = sorted({(r[3], r[4]) for r in found}, key=lambda o: (o[0], o[1] or ""))
    facts = _sourced_facts(conn, tenant_id, owners, forgotten)
    live = _live_items(conn, tenant_id, facts, forgotten)
    events, gone = _gone_events(conn, forgotten)
    summaries, summary_events = _summaries(conn, tenant_id, events)
    done = cascade(
        status,
        {i.id for i in items},
        facts,
        live,
        gone,
        summaries.values(),
        summary_events,
    )
    return items, done, _orphaned_relations(conn, done, status)


def _items(conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str]) -> list[Any]:
    """The rows (id, tenant, status, namespace, user) of the tenant's items of ``ids``,
    in the order of ``ids``."""
    found = conn.execute(
        f"SELECT id, tenant_id, status, namespace, user_id FROM items"
        f" WHERE +tenant_id = ? AND id IN {_IDS}",
        (tenant_id, json.dumps(list(dict.fromkeys(ids)))),
    ).fetchall()
    order = {item_id: n for n, item_id in enumerate(ids)}
    found.sort(key=lambda r: order[r[0]])
    return found


def _sourced_facts(
    conn: sqlite3.Connection,
    tenant_id: str,
    owners: Sequence[tuple[str, str | None]],
    forgotten: str,
) -> list[SourcedFact]:
    """The facts of each owner (namespace, user) that cite a ``forgotten`` item."""
    return [
        SourcedFact(
            id=r[0], tenant_id=tenant_id, namespace=r[1], user_id=r[2], key=r[3],
            status=FactStatus(r[4]), revision=int(r[5]),
            evidence_item_ids=tuple(json.loads(r[6])), evidence_event_ids=tuple(json.loads(r[7])),
        )
        for namespace, user_id in owners
        for r in conn.execute(
            "SELECT id, namespace, user_id, key, status, revision, evidence_item_ids,"
            " evidence_event_ids FROM facts WHERE tenant_id = ? AND namespace = ?"
            f" AND user_id IS ? AND EXISTS (SELECT 1 FROM json_each(facts.evidence_item_ids) j"
            f" WHERE j.value IN {_IDS}) ORDER BY rowid",
            (tenant_id, namespace, user_id, forgotten),
        )
    ]  # fmt: skip


def _live_items(
    conn: sqlite3.Connection, tenant_id: str, facts: Sequence[SourcedFact], forgotten: str
) -> set[str]:
    """The facts' other evidence items that are active and not forgotten."""
    cited = json.dumps(sorted({i for f in facts for i in f.evidence_item_ids}))
    return {
        r[0]
        for r in conn.execute(
            f"SELECT id FROM items WHERE +tenant_id = ? AND id IN {_IDS} AND status = ?"
            f" AND id NOT IN {_IDS}",
            (tenant_id, cited, ItemStatus.ACTIVE.value, forgotten),
        )
    }


def _gone_events(conn: sqlite3.Connection, forgotten: str) -> tuple[str, set[str]]:
    """The forgotten items' source events (as a JSON array), and those of them no live
    item other than a summary still comes from."""
    events = json.dumps(
        sorted(
            r[0]
            for r in conn.execute(
                f"SELECT DISTINCT event_id FROM item_events WHERE item_id IN {_IDS}", (forgotten,)
            )
        )
    )
    kept = {
        r[0]
        for r in conn.execute(
            f"SELECT DISTINCT ie.event_id FROM item_events ie JOIN items i ON i.id = ie.item_id"
            f" WHERE ie.event_id IN {_IDS} AND ie.item_id NOT IN {_IDS}"
            " AND i.status = ? AND i.kind != ?",
            (events, forgotten, ItemStatus.ACTIVE.value, ItemKind.SUMMARY.value),
        )
    }
    return events, set(json.loads(events)) - kept


def _summaries(
    conn: sqlite3.Connection, tenant_id: str, events: str
) -> tuple[dict[str, ForgottenItem], dict[str, list[str]]]:
    """The summaries that share a source event with ``events``, and every source event
    of each."""
    summary_events: dict[str, list[str]] = {}
    summaries: dict[str, ForgottenItem] = {}
    for item_id, item_status, event_id in conn.execute(
        "SELECT i.id, i.status, ie.event_id FROM items i JOIN item_events ie"
        f" ON ie.item_id = i.id WHERE i.id IN (SELECT ie2.item_id FROM item_events ie2"
        f" WHERE ie2.event_id IN {_IDS}) AND +i.tenant_id = ? AND i.kind = ? ORDER BY i.rowid",
        (events, tenant_id, ItemKind.SUMMARY.value),
    ):
        summaries[item_id] = ForgottenItem(item_id, tenant_id, ItemStatus(item_status))
        summary_events.setdefault(item_id, []).append(event_id)
    return summaries, summary_events


def _orphaned_relations(conn: sqlite3.Connection, done: Cascade, status: ItemStatus) -> int:
    """How many graph edges go with the orphaned facts (a delete counts the inactive
    ones too)."""
    if not done.orphaned:
        return 0
    condition = "" if status is ItemStatus.DELETED else " AND active = 1"
    return int(
        conn.execute(
            f"SELECT count(*) FROM relations WHERE fact_id IN {_IDS}{condition}",
            (json.dumps([f.id for f in done.orphaned]),),
        ).fetchone()[0]
    )


def apply(conn: sqlite3.Connection, done: Cascade, status: ItemStatus, now: datetime) -> None:
    """Write the fact, relation and conflict changes of ``done`` (the items are the
    caller's)."""
    if not done.orphaned and not done.trimmed:
        return
    orphans = json.dumps([f.id for f in done.orphaned])
    conn.execute(
        "UPDATE conflicts SET status = ?, resolved_at = ?, note = ? WHERE status = ?"
        f" AND EXISTS (SELECT 1 FROM json_each(conflicts.fact_ids) j WHERE j.value IN {_IDS})",
        (ConflictStatus.RESOLVED.value, to_micros(now), CONFLICT_NOTE,
         ConflictStatus.OPEN.value, orphans),
    )  # fmt: skip
    if status is ItemStatus.DELETED:
        conn.execute(f"DELETE FROM relations WHERE fact_id IN {_IDS}", (orphans,))
        conn.execute(f"DELETE FROM facts WHERE id IN {_IDS}", (orphans,))
    else:
        conn.execute(f"UPDATE relations SET active = 0 WHERE fact_id IN {_IDS}", (orphans,))
        conn.execute(
            "UPDATE facts SET status = ?, recorded_to = coalesce(recorded_to, ?),"
            f" revision = revision + 1 WHERE id IN {_IDS}",
            (FactStatus.INVALIDATED.value, to_micros(now), orphans),
        )
    conn.executemany(
        "UPDATE facts SET evidence_item_ids = ?, evidence_event_ids = ?,"
        " revision = revision + 1 WHERE id = ?",
        [(json.dumps(t.item_ids), json.dumps(t.event_ids), t.fact.id) for t in done.trimmed],
    )
    # the scopes' cached fact rows and graphs are stale now
    changed = {
        (f.tenant_id, f.namespace, user_key(f.user_id))
        for f in [*done.orphaned, *(t.fact for t in done.trimmed)]
    }
    for tenant_id, namespace, user in sorted(changed):
        bump_fact_version(conn, tenant_id, namespace, user)
