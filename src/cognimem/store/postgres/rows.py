"""The SQL behind ``PostgresStore``, and conversions between records and models.

Batches travel as one array per column and are expanded server-side with ``unnest``, so
a commit of any size is one ``INSERT`` per table and the bound-parameter limit never
matters. Searches are built here with every filter inside the SQL; so is the write
path's dedupe, which reproduces SQLiteStore's message-by-message semantics on top of
one lookup for the whole batch.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from cognimem.errors import Conflict, StaleKnowledge
from cognimem.models import Event, MemoryItem, MessageResult, WriteOutcome
from cognimem.models.clock import to_micros, to_utc
from cognimem.store import records
from cognimem.store.postgres.locks import dedupe_tuple
from cognimem.store.postgres.migrations import index_type
from cognimem.store.records import EVENT_COLUMNS, ITEM_COLUMNS, USAGE_COUNTERS
from cognimem.store.types import ItemFilter, PendingItem, PendingMessage

if TYPE_CHECKING:
    from asyncpg import Connection

_ITEM_TYPES = [
    *["text"] * 9,  # id .. key
    *["jsonb"] * 3,  # entities, source_event_ids, external_ids
    "text",  # author
    *["timestamptz"] * 2,  # occurred_at, recorded_at
    *["float8"] * 2,  # importance, confidence
    *["text"] * 2,  # tier, status
    *["int4"] * 2,  # token_count, access_count
    "timestamptz",  # last_accessed_at
    *["int4"] * 4,  # loaded, cited, success, failure counts
    "bool",  # consolidated
    *["text"] * 3,  # supersedes, superseded_by, embedding_model
    "jsonb",  # metadata
    *["timestamptz"] * 2,  # event_start, event_end
    "float8",  # novelty
]

_EVENT_TYPES = [*["text"] * 12, "timestamptz", "timestamptz", "jsonb"]


def unnest_args(types: Sequence[str]) -> str:
    """``$1::t1[], $2::t2[], ...``: one array parameter per column, for ``unnest``."""
    return ", ".join(f"${n}::{t}[]" for n, t in enumerate(types, start=1))


INSERT_EVENTS = (
    f"INSERT INTO events ({EVENT_COLUMNS}, processed, job_id, profile)"
    f" SELECT * FROM unnest({unnest_args([*_EVENT_TYPES, 'bool', 'text', 'text'])})"
)

INSERT_ITEMS = (
    f"INSERT INTO items ({ITEM_COLUMNS}, embedding, search_text)"
    f" SELECT * FROM unnest({unnest_args([*_ITEM_TYPES, 'vector', 'text'])})"
)

INSERT_ITEM_EVENTS = (
    "INSERT INTO item_events (item_id, event_id) SELECT * FROM unnest($1::text[], $2::text[])"
    " ON CONFLICT DO NOTHING"
)


# -- vectors: pgvector's binary format (uint16 dim, uint16 unused, float32 big-endian) ----
def encode_vector(value: bytes | np.ndarray) -> bytes:
    """The asyncpg encoder; vectors are passed as bytes already (see ``vector_bytes``)."""
    if isinstance(value, bytes):
        return value
    return vector_bytes(value)


def vector_bytes(vector: np.ndarray) -> bytes:
    # asyncpg would take an ndarray inside an array parameter for a nested list, so
    # vectors cross the driver boundary as opaque bytes
    a = np.asarray(vector, dtype=">f4").ravel()
    return struct.pack(">HH", a.shape[0], 0) + a.tobytes()


def decode_vector(data: bytes) -> np.ndarray:
    dim, _ = struct.unpack_from(">HH", data)
    return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32)


# -- model <-> columns -----------------------------------------------------------------
def decode_time(value: datetime | None) -> datetime | None:
    """A stored time (an aware datetime, or NULL) in UTC."""
    return None if value is None else to_utc(value)


def item_from_row(row: Mapping[str, Any]) -> MemoryItem:
    return records.item_from_row(row, decode_time)


def event_from_row(row: Mapping[str, Any]) -> Event:
    return records.event_from_row(row, decode_time)


def by_column(rows: Sequence[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as one list per column: the arrays an ``unnest`` insert takes."""
    return [[r[c] for r in rows] for c in range(width)]


def event_columns(messages: Sequence[PendingMessage]) -> list[list[Any]]:
    """``INSERT_EVENTS`` arguments: one list per column."""
    rows = []
    for m in messages:
        e, s = m.event, m.event.scope
        rows.append(
            (
                e.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, e.role.value,
                e.name, e.content, e.content_hash, e.idempotency_key, e.external_id,
                to_utc(e.occurred_at), to_utc(e.recorded_at), json.dumps(e.metadata), m.processed,
                m.job_id, m.profile,
            )
        )  # fmt: skip
    return by_column(rows, len(_EVENT_TYPES) + 3)


def item_columns(pending: Sequence[PendingItem]) -> list[list[Any]]:
    """``INSERT_ITEMS`` arguments: one list per column."""
    rows = []
    for p in pending:
        i, s = p.item, p.item.scope
        last = None if i.last_accessed_at is None else to_utc(i.last_accessed_at)
        rows.append(
            (
                i.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, i.text,
                i.kind.value, i.key, json.dumps(i.entities), json.dumps(i.source_event_ids),
                json.dumps(i.external_ids), i.author, to_utc(i.occurred_at),
                to_utc(i.recorded_at), i.importance, i.confidence, i.tier.value, i.status.value,
                i.token_count, i.access_count, last, i.loaded_count, i.cited_count,
                i.success_count, i.failure_count, i.consolidated, i.supersedes, i.superseded_by,
                i.embedding_model, json.dumps(i.metadata), decode_time(i.event_start),
                decode_time(i.event_end), i.novelty,
                None if p.embedding is None else vector_bytes(p.embedding), p.search_text,
            )
        )  # fmt: skip
    return by_column(rows, len(_ITEM_TYPES) + 2)


# -- filters ---------------------------------------------------------------------------
class Params:
    """Collects bound parameters and hands out their ``$n`` placeholders."""

    def __init__(self, *initial: object) -> None:
        self.values: list[object] = list(initial)

    def add(self, value: object) -> str:
        self.values.append(value)
        return f"${len(self.values)}"


def filter_clause(flt: ItemFilter, params: Params, alias: str = "") -> str:
    """Every scope, status, kind and time condition of ``flt``, for a WHERE clause."""
    p = f"{alias}." if alias else ""
    s = flt.scope
    clauses = [f"{p}tenant_id = {params.add(s.tenant_id)}"]
    clauses.append(f"{p}namespace = {params.add(s.namespace)}")
    own = [
        f"{p}{column} = {params.add(value)}"
        for column, value in (
            ("user_id", s.user_id),
            ("agent_id", s.agent_id),
            ("session_id", s.session_id),
        )
        if value is not None and not flt.shared_only
    ]
    if flt.shared_only:  # the organisation's rows, and the scope's agent's
        agent = f" OR {p}agent_id = {params.add(s.agent_id)}" if s.agent_id is not None else ""
        own.append(f"{p}user_id IS NULL AND ({p}agent_id IS NULL{agent})")
    if flt.with_organisation and own and not flt.shared_only:
        shared = f"{p}user_id IS NULL AND {p}agent_id IS NULL"
        if s.user_id is not None and s.agent_id is not None:  # and the agent's own
            shared = f"{p}user_id IS NULL AND ({p}agent_id IS NULL"
            shared += f" OR {p}agent_id = {params.add(s.agent_id)})"
        clauses.append(f"(({' AND '.join(own)}) OR ({shared}))")
    else:
        clauses += own
    clauses.append(f"{p}status = ANY({params.add([st.value for st in flt.statuses])}::text[])")
    if flt.kinds is not None:
        clauses.append(f"{p}kind = ANY({params.add([k.value for k in flt.kinds])}::text[])")
    if flt.since is not None:
        clauses.append(f"{p}occurred_at >= {params.add(to_utc(flt.since))}")
    if flt.until is not None:
        clauses.append(f"{p}occurred_at <= {params.add(to_utc(flt.until))}")
    if flt.period is not None:
        start, end = (params.add(to_utc(t)) for t in flt.period)
        clauses.append(
            f"(({p}occurred_at >= {start} AND {p}occurred_at < {end})"
            f" OR ({p}event_start < {end} AND {p}event_end > {start}))"
        )
    if flt.consolidated is not None:
        clauses.append(f"{p}consolidated = {params.add(flt.consolidated)}")
    return " AND ".join(clauses)


# -- searches --------------------------------------------------------------------------
TIE_SLACK = 32  # rows a vector search reads beyond its limit, to order ties at the limit


def vector_sql(
    flt: ItemFilter, vector: np.ndarray, limit: int, *, indexed_dim: int | None
) -> tuple[str, list[object]]:
    """Nearest items by cosine distance, scored by the dot product.

    For L2-normalised vectors the dot product is 1 - cosine distance, i.e. the exact
    cosine SQLite reports; unlike the distance it stays 0 (not NaN) for a zero vector,
    which is what SQLite gives for a text with no words.

    With ``indexed_dim`` (the query has the dimension the HNSW index was built for) the
    query repeats the index's cast and predicate so the planner can use it; the index
    may return rows slightly out of order (iterative scan, relaxed order), so they are
    sorted again outside. Rows of equal score are in write order (``seq``): the inner
    query, which must order by the distance alone to use the index, takes
    ``TIE_SLACK`` rows more, so rows tied at the limit are not cut by where they lie on
    disk (which a copy of the same rows, an import, lays out otherwise).
    """
    params = Params(vector_bytes(vector))
    hits = _hits_sql(flt, params, int(vector.shape[0]), "$1", limit, indexed_dim)
    return (
        f"WITH hits AS MATERIALIZED ({hits})\n{_BEST.format(limit=params.add(limit))}",
        params.values,
    )


def nearest_sql(
    flt: ItemFilter, vectors: np.ndarray, *, indexed_dim: int | None
) -> tuple[str, list[object]]:
    """Each of ``vectors``' nearest item (as ``vector_sql`` with limit 1), in one query:
    rows ``(n, id, score)`` by the vector's 1-based position, ``id`` NULL where none."""
    params = Params([vector_bytes(v) for v in vectors])
    hits = _hits_sql(flt, params, int(vectors.shape[1]), "q.v", 1, indexed_dim)
    # a subquery with a LIMIT is planned on its own, as the single search's CTE is
    best = _BEST.replace("FROM hits", f"FROM ({hits}) hits").format(limit=1)
    sql = f"""
SELECT q.n, b.id, b.score
FROM unnest($1::vector[]) WITH ORDINALITY AS q(v, n)
LEFT JOIN LATERAL ({best}) b ON true
ORDER BY q.n
"""
    return sql, params.values


_BEST = "SELECT id, score FROM hits ORDER BY score DESC, seq LIMIT {limit}"


def _hits_sql(
    flt: ItemFilter, params: Params, dim: int, query: str, limit: int, indexed_dim: int | None
) -> str:
    """The ``limit + TIE_SLACK`` items nearest the vector ``query`` (an SQL expression)
    by the index's distance, with their scores."""
    where = filter_clause(flt, params)
    nearest = params.add(limit + TIE_SLACK)
    kind = index_type(dim) if indexed_dim == dim else None
    # order by the index's expression; score at full precision (halfvec is 16-bit)
    distance = (
        f"(embedding::{kind}({dim})) <=> {query}::vector::{kind}({dim})"
        if kind
        else f"embedding <=> {query}::vector"
    )
    return f"""
    SELECT id, seq, {distance} AS distance, (embedding <#> {query}::vector) * -1 AS score
    FROM items
    WHERE vector_dims(embedding) = {dim} AND {where}
    ORDER BY distance LIMIT {nearest}
"""


# -- the write path ---------------------------------------------------------------------
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
        raise Conflict(
            f"idempotency key {event.idempotency_key!r} was already used for other content",
            details={"idempotency_key": event.idempotency_key, "event_id": original.event_id},
        )


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
    stored = await find_originals(conn, [m.event for m in messages], dedupe_window_s)
    batch = _BatchSort(messages, stored, int(dedupe_window_s * 1_000_000), strict=strict)
    results = batch.results
    if batch.fresh:
        await conn.execute(INSERT_EVENTS, *event_columns([m for _, m in batch.fresh]))
    await insert_items(conn, [p for _, m in batch.fresh for p in m.items])
    for index, pending in batch.fresh:
        item_ids = [p.item.id for p in pending.items]
        item_ids += await merge_into(conn, pending.event, pending.merged_into)
        outcome = (
            WriteOutcome.STORED
            if item_ids or not pending.skipped_chunks
            else WriteOutcome.SKIPPED_SECRET
        )
        results[index] = MessageResult(
            event_id=pending.event.id,
            item_ids=item_ids,
            outcome=outcome,
            skipped_chunks=pending.skipped_chunks,
            redactions=pending.redactions,
        )
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
    one earlier in the batch and duplicates of a stored one (their results known)."""

    def __init__(
        self,
        messages: Sequence[PendingMessage],
        stored: dict[int, Original],
        window: int,
        *,
        strict: bool,
    ) -> None:
        self.window = window
        self.keyed: dict[tuple[str, str], Event] = {}  # written earlier in this batch
        self.unkeyed: dict[tuple[object, ...], list[Event]] = {}
        self.fresh: list[tuple[int, PendingMessage]] = []
        self.repeats: dict[int, Event] = {}  # index -> the event earlier in the batch it repeats
        self.results: list[MessageResult | None] = []
        for index, pending in enumerate(messages):
            self._sort(index, pending, stored.get(index), strict=strict)

    def _earlier_in_batch(self, event: Event) -> Event | None:
        if event.idempotency_key is not None:
            return self.keyed.get((event.scope.tenant_id, event.idempotency_key))
        at = to_micros(event.occurred_at)
        same = self.unkeyed.get(dedupe_tuple(event), [])
        return next((e for e in same if abs(to_micros(e.occurred_at) - at) <= self.window), None)

    def _sort(
        self, index: int, pending: PendingMessage, original: Original | None, *, strict: bool
    ) -> None:
        event = pending.event
        earlier = self._earlier_in_batch(event) if original is None else None
        if earlier is not None:
            original = Original(earlier.id, earlier.content_hash, [])
        if original is not None:
            check_key(event, original)
            if strict:
                raise StaleKnowledge(f"event {event.id} became a duplicate")
            if earlier is not None:
                self.repeats[index] = earlier  # its ids are known once the batch is written
                self.results.append(None)
            else:
                self.results.append(duplicate(original))
            return
        self.fresh.append((index, pending))
        self.results.append(None)
        if event.idempotency_key is not None:
            self.keyed[(event.scope.tenant_id, event.idempotency_key)] = event
        else:
            self.unkeyed.setdefault(dedupe_tuple(event), []).append(event)


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


async def merge_into(conn: Connection, event: Event, targets: Sequence[str]) -> list[str]:
    """Add ``event`` (and its external id) to the provenance of existing items; returns
    the targets that exist, in the order given."""
    if not targets:
        return []
    # KEY SHARE: no one deletes them before we commit, yet updates are not blocked
    existing = {
        r["id"]
        for r in await conn.fetch(
            "SELECT id FROM items WHERE id = ANY($1::text[]) ORDER BY id FOR KEY SHARE",
            list(set(targets)),
        )
    }
    found = [t for t in targets if t in existing]
    if found:
        await conn.executemany(_MERGE, [(t, event.id, event.external_id) for t in found])
    return found


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
    await insert_items(conn, items)
    if merges:
        found = await conn.fetch(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ANY($1::text[])", list(merges)
        )
        by_id = {r["id"]: event_from_row(r) for r in found}
        for event_id, targets in merges.items():
            if event_id in by_id:  # an event deleted meanwhile has nothing to merge
                await merge_into(conn, by_id[event_id], targets)
    if events:
        await conn.execute("UPDATE events SET processed = true WHERE id = ANY($1::text[])", events)
    return [p.item.id for p in items]
