"""Forgetting items in SQLite: the rows the cascade reads and the fact and relation
changes it writes, inside the caller's transaction (see ``store/forgetting.py``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime

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
    wanted = json.dumps(list(dict.fromkeys(ids)))
    found = conn.execute(
        f"SELECT id, tenant_id, status, namespace, user_id FROM items"
        f" WHERE +tenant_id = ? AND id IN {_IDS}",
        (tenant_id, wanted),
    ).fetchall()
    order = {item_id: n for n, item_id in enumerate(ids)}
    found.sort(key=lambda r: order[r[0]])
    items = [ForgottenItem(r[0], r[1], ItemStatus(r[2])) for r in found]
    if not items:
        return [], Cascade(), 0
    forgotten = json.dumps([i.id for i in items])
    owners = sorted({(r[3], r[4]) for r in found}, key=lambda o: (o[0], o[1] or ""))
    facts = [
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
    cited = json.dumps(sorted({i for f in facts for i in f.evidence_item_ids}))
    live = {
        r[0]
        for r in conn.execute(
            f"SELECT id FROM items WHERE +tenant_id = ? AND id IN {_IDS} AND status = ?"
            f" AND id NOT IN {_IDS}",
            (tenant_id, cited, ItemStatus.ACTIVE.value, forgotten),
        )
    }
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
    gone = set(json.loads(events)) - kept
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
    done = cascade(
        status,
        {i.id for i in items},
        facts,
        live,
        gone,
        summaries.values(),
        summary_events,
    )
    relations = 0
    if done.orphaned:
        condition = "" if status is ItemStatus.DELETED else " AND active = 1"
        relations = int(
            conn.execute(
                f"SELECT count(*) FROM relations WHERE fact_id IN {_IDS}{condition}",
                (json.dumps([f.id for f in done.orphaned]),),
            ).fetchone()[0]
        )
    return items, done, relations


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
