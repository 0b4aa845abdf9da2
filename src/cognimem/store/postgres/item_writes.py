"""The write path of ``PostgresStore``'s items, run inside the caller's transaction: a
commit's dedupe, which reproduces SQLiteStore's message-by-message semantics on top of
one lookup for the whole batch, its inserts (one per table, ``rows.py``), its merges
(into its own items as they are inserted, into stored items in one pipelined
statement), and the items an async job attaches to events already stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from cognimem.errors import StaleKnowledge
from cognimem.models import Event, MessageResult, WriteOutcome
from cognimem.models.clock import to_utc
from cognimem.store import records
from cognimem.store.postgres.rows import (
    INSERT_EVENTS,
    INSERT_ITEM_EVENTS,
    INSERT_ITEMS,
    by_column,
    decode_time,
    event_columns,
    event_from_row,
    item_columns,
)
from cognimem.store.records import EVENT_COLUMNS, USAGE_COUNTERS
from cognimem.store.repeats import repeats_in_batch, reused_key
from cognimem.store.types import PendingItem, PendingMessage

if TYPE_CHECKING:
    from asyncpg import Connection

_FIND_ORIGINALS = """
SELECT m.ord, e.id, e.content_hash, coalesce(x.item_ids, '{}') AS item_ids
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
            $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::timestamptz[])
     WITH ORDINALITY AS m(tenant_id, idem, namespace, user_id, agent_id, session_id,
                          role, name, content_hash, lo, hi, ord)
CROSS JOIN LATERAL (
    SELECT k.id, k.content_hash FROM events k
    WHERE m.idem IS NOT NULL AND k.tenant_id = m.tenant_id AND k.idempotency_key = m.idem
    UNION ALL
    (SELECT d.id, d.content_hash FROM events d
     WHERE m.idem IS NULL AND d.tenant_id = m.tenant_id AND d.content_hash = m.content_hash
       AND d.occurred_at BETWEEN m.lo AND m.hi AND d.namespace = m.namespace
       AND d.user_id IS NOT DISTINCT FROM m.user_id
       AND d.agent_id IS NOT DISTINCT FROM m.agent_id
       AND d.session_id IS NOT DISTINCT FROM m.session_id
       AND d.role = m.role AND d.name IS NOT DISTINCT FROM m.name
       AND d.idempotency_key IS NULL
     ORDER BY d.seq LIMIT 1)
) e
CROSS JOIN LATERAL (
    SELECT array_agg(ie.item_id ORDER BY i.seq) AS item_ids
    FROM item_events ie JOIN items i ON i.id = ie.item_id WHERE ie.event_id = e.id
) x
"""


@dataclass(frozen=True)
class Original:
    """A stored event a new message duplicates, with the items linked to it."""

    event_id: str
    content_hash: str
    item_ids: list[str]


def check_key(event: Event, original: Original) -> None:
    if event.idempotency_key is not None and original.content_hash != event.content_hash:
        raise reused_key(event, original.event_id)


def duplicate(original: Original) -> MessageResult:
    return MessageResult(
        event_id=original.event_id,
        item_ids=list(original.item_ids),
        outcome=WriteOutcome.DUPLICATE,
    )


async def find_originals(
    conn: Connection, events: Sequence[Event], dedupe_window_s: float
) -> dict[int, Original]:
    """Each event's stored original (by idempotency key, else within the dedupe window)."""
    window = timedelta(microseconds=int(dedupe_window_s * 1_000_000))
    columns: list[list[Any]] = [[] for _ in range(11)]
    for e in events:
        s, at = e.scope, to_utc(e.occurred_at)
        values = (
            s.tenant_id, e.idempotency_key, s.namespace, s.user_id, s.agent_id, s.session_id,
            e.role.value, e.name, e.content_hash, at - window, at + window,
        )  # fmt: skip
        for column, value in zip(columns, values, strict=True):
            column.append(value)
    found = await conn.fetch(_FIND_ORIGINALS, *columns)
    return {
        int(r["ord"]) - 1: Original(r["id"], r["content_hash"], list(r["item_ids"])) for r in found
    }


async def commit_batch(
    conn: Connection,
    messages: Sequence[PendingMessage],
    dedupe_window_s: float,
    *,
    strict: bool = False,
) -> list[MessageResult]:
    """The body of ``commit``, inside its transaction with every ``message_lock`` held:
    SQLite's sequential semantics (each message checked against the database and the
    batch before it), then one insert per table.

    ``strict``: a message that turns out to be a duplicate raises ``StaleKnowledge``
    (knowledge derived from it assumed it was new)."""
    events = [m.event for m in messages]
    stored = await find_originals(conn, events, dedupe_window_s)
    batch = _BatchSort(
        messages, stored, repeats_in_batch(events, stored, dedupe_window_s), strict=strict
    )
    results = batch.results
    if batch.fresh:
        await conn.execute(INSERT_EVENTS, *event_columns([m for _, m in batch.fresh]))
    merged = await insert_and_merge(
        conn,
        [p for _, m in batch.fresh for p in m.items],
        [(m.event, m.merged_into) for _, m in batch.fresh],
    )
    for (index, pending), found in zip(batch.fresh, merged, strict=True):
        item_ids = [p.item.id for p in pending.items] + found
        results[index] = records.stored_result(pending, item_ids)
    if batch.repeats:
        # what the database answers: every item linked to the earlier event, in order
        linked = await linked_items(conn, [e.id for e in batch.repeats.values()])
        for index, earlier in batch.repeats.items():
            results[index] = duplicate(
                Original(earlier.id, earlier.content_hash, linked.get(earlier.id, []))
            )
    return [r for r in results if r is not None]


class _BatchSort:
    """A batch's messages sorted, in order, into the fresh ones (to write), repeats of
    one earlier in the batch (``repeats_in_batch``) and duplicates of a stored one (their
    results known)."""

    def __init__(
        self,
        messages: Sequence[PendingMessage],
        stored: dict[int, Original],
        repeated: dict[int, int],
        *,
        strict: bool,
    ) -> None:
        self.fresh: list[tuple[int, PendingMessage]] = []
        self.repeats: dict[int, Event] = {}  # index -> the event earlier in the batch it repeats
        self.results: list[MessageResult | None] = []
        for index, pending in enumerate(messages):
            original = stored.get(index)
            if original is not None:
                check_key(pending.event, original)
            if (original is not None or index in repeated) and strict:
                raise StaleKnowledge(f"event {pending.event.id} became a duplicate")
            if original is not None:
                self.results.append(duplicate(original))
                continue
            if index in repeated:  # its ids are known once the batch is written
                self.repeats[index] = messages[repeated[index]].event
            else:
                self.fresh.append((index, pending))
            self.results.append(None)


async def linked_items(conn: Connection, event_ids: Sequence[str]) -> dict[str, list[str]]:
    """The items each event is part of the provenance of, oldest first."""
    found = await conn.fetch(
        "SELECT ie.event_id, array_agg(ie.item_id ORDER BY i.seq) AS item_ids"
        " FROM item_events ie JOIN items i ON i.id = ie.item_id"
        " WHERE ie.event_id = ANY($1::text[]) GROUP BY ie.event_id",
        list(set(event_ids)),
    )
    return {r["event_id"]: list(r["item_ids"]) for r in found}


async def insert_items(conn: Connection, items: Sequence[PendingItem]) -> None:
    """Items and their provenance links, one statement per table."""
    if not items:
        return
    await conn.execute(INSERT_ITEMS, *item_columns(items))
    links = [(p.item.id, e) for p in items for e in p.item.source_event_ids]
    if links:
        await conn.execute(INSERT_ITEM_EVENTS, [item for item, _ in links], [e for _, e in links])
    used = [
        p.item
        for p in items
        if any(getattr(p.item, c) for c in USAGE_COUNTERS) or p.item.last_accessed_at
    ]
    if used:  # the counters items arrive with (an import's)
        await conn.execute(
            "INSERT INTO item_usage (item_id, tenant_id, access_count, loaded_count,"
            " cited_count, success_count, failure_count, last_accessed_at)"
            " SELECT * FROM unnest($1::text[], $2::text[], $3::int4[], $4::int4[], $5::int4[],"
            " $6::int4[], $7::int4[], $8::timestamptz[]) ON CONFLICT DO NOTHING",
            *by_column(
                [
                    (
                        i.id, i.scope.tenant_id, i.access_count, i.loaded_count, i.cited_count,
                        i.success_count, i.failure_count, decode_time(i.last_accessed_at),
                    )
                    for i in used
                ],
                8,
            ),
        )  # fmt: skip


# the appends are computed from the row the UPDATE locks, so two merges into one item
# at once both land (a read-modify-write from Python would lose one)
_MERGE = """
WITH merged AS (
    UPDATE items SET
        source_event_ids = CASE WHEN source_event_ids ? $2::text THEN source_event_ids
                                ELSE source_event_ids || jsonb_build_array($2::text) END,
        external_ids = CASE WHEN $3::text IS NULL OR external_ids ? $3::text THEN external_ids
                            ELSE external_ids || jsonb_build_array($3::text) END
    WHERE id = $1 RETURNING id
)
INSERT INTO item_events (item_id, event_id) SELECT id, $2 FROM merged ON CONFLICT DO NOTHING
"""


def _fold_merges(
    items: Sequence[PendingItem], merges: Sequence[tuple[Event, Sequence[str]]]
) -> list[PendingItem]:
    """``items`` with the merges into them applied before they are inserted: each
    merged event (and its external id) joins the target's provenance as ``_MERGE``
    would append it, in the merges' order. The caller's items are left as they are."""
    into: dict[str, list[Event]] = {}
    for event, targets in merges:
        for target in targets:
            into.setdefault(target, []).append(event)
    out = []
    for p in items:
        events = into.get(p.item.id)
        if events:
            sources, externals = list(p.item.source_event_ids), list(p.item.external_ids)
            for event in events:
                if event.id not in sources:
                    sources.append(event.id)
                if event.external_id is not None and event.external_id not in externals:
                    externals.append(event.external_id)
            update = {"source_event_ids": sources, "external_ids": externals}
            p = replace(p, item=p.item.model_copy(update=update))
        out.append(p)
    return out


async def insert_and_merge(
    conn: Connection,
    items: Sequence[PendingItem],
    merges: Sequence[tuple[Event, Sequence[str]]],
) -> list[list[str]]:
    """Insert ``items`` and add each merge's event (and its external id) to the
    provenance of the items it repeats; returns, for each merge, its targets that
    exist, in the order given.

    A target among ``items`` takes the event in its inserted row (no second row
    version, so no second entry in the HNSW index and the btrees); the stored targets
    are locked in one statement and merged in one pipelined ``executemany``, in the
    merges' order, whatever the number of messages."""
    inserted = {p.item.id for p in items}
    await insert_items(conn, _fold_merges(items, merges))
    stored = sorted({t for _, targets in merges for t in targets} - inserted)
    existing = inserted
    if stored:
        # KEY SHARE: no one deletes them before we commit, yet updates are not blocked
        locked = await conn.fetch(
            "SELECT id FROM items WHERE id = ANY($1::text[]) ORDER BY id FOR KEY SHARE", stored
        )
        existing = inserted | {r["id"] for r in locked}
        args = [
            (t, event.id, event.external_id)
            for event, targets in merges
            for t in targets
            if t in existing and t not in inserted
        ]
        if args:
            await conn.executemany(_MERGE, args)
    return [[t for t in targets if t in existing] for _, targets in merges]


async def attach_items(
    conn: Connection,
    items: Sequence[PendingItem],
    merges: Mapping[str, Sequence[str]],
    event_ids: Sequence[str] = (),
) -> list[str] | None:
    """The items part of ``add_items``, inside its transaction with every ``event_lock``
    held. ``None`` (nothing written) when any of the events was processed already;
    otherwise the items and merges are written and every event (``event_ids`` too) is
    marked processed. Also ``None`` when any of the events no longer exists (erased since
    it was queued): the events are locked ``FOR SHARE`` here, as an erasure locks its
    events ``FOR UPDATE`` before it reads anything, so one of the two waits for the other
    and an erasure never misses items committed meanwhile."""
    events = sorted(
        {e for p in items for e in p.item.source_event_ids} | set(merges) | set(event_ids)
    )
    if events:
        found = await conn.fetch(
            "SELECT processed FROM events WHERE id = ANY($1::text[]) FOR SHARE", events
        )
        stored, done = len(found), sum(1 for r in found if r["processed"])
        if done or stored < len(events):
            # applied already, or the events were erased meanwhile: deriving items from
            # them would bring them back
            return None
    by_id: dict[str, Event] = {}
    if merges:
        found = await conn.fetch(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ANY($1::text[])", list(merges)
        )
        by_id = {r["id"]: event_from_row(r) for r in found}
    # an event deleted meanwhile has nothing to merge
    await insert_and_merge(
        conn, items, [(by_id[e], targets) for e, targets in merges.items() if e in by_id]
    )
    if events:
        await conn.execute("UPDATE events SET processed = true WHERE id = ANY($1::text[])", events)
    return [p.item.id for p in items]
