"""The SQL behind ``PostgresStore``, and conversions between records and models.

Batches travel as one array per column and are expanded server-side with ``unnest``, so
a commit of any size is one ``INSERT`` per table and the bound-parameter limit never
matters. Searches are built here with every filter inside the SQL. The write path that
runs these inserts (its dedupe, merges and async items) is ``item_writes.py``.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from cognimem.models import Event, MemoryItem
from cognimem.models.clock import to_utc
from cognimem.models.scope import ORGANISATION_NAMESPACE
from cognimem.store import records, row_values
from cognimem.store.by_id import by_id_reads
from cognimem.store.postgres.migrations import index_type
from cognimem.store.reach import own_ids, reaches_organisation
from cognimem.store.records import EVENT_COLUMNS, ITEM_COLUMNS
from cognimem.store.types import ItemFilter, PendingItem, PendingMessage

if TYPE_CHECKING:
    from asyncpg import Record

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


def item_from_row(row: Record) -> MemoryItem:
    return records.item_from_row(row, decode_time)


def event_from_row(row: Record) -> Event:
    return records.event_from_row(row, decode_time)


BY_ID = by_id_reads(decode_time)


def by_column(rows: Sequence[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as one list per column: the arrays an ``unnest`` insert takes."""
    return [[r[c] for r in rows] for c in range(width)]


def event_columns(messages: Sequence[PendingMessage]) -> list[list[Any]]:
    """``INSERT_EVENTS`` arguments: one list per column."""
    rows = [
        (*row_values.event_values(m.event, decode_time), m.processed, m.job_id, m.profile)
        for m in messages
    ]
    return by_column(rows, len(_EVENT_TYPES) + 3)


def item_columns(pending: Sequence[PendingItem]) -> list[list[Any]]:
    """``INSERT_ITEMS`` arguments: one list per column."""
    rows = [
        (
            *row_values.item_values(p.item, decode_time),
            None if p.embedding is None else vector_bytes(p.embedding),
            p.search_text,
        )
        for p in pending
    ]
    return by_column(rows, len(_ITEM_TYPES) + 2)


# -- filters ---------------------------------------------------------------------------
class Params:
    """Collects bound parameters and hands out their ``$n`` placeholders."""

    def __init__(self, *initial: object) -> None:
        self.values: list[object] = list(initial)

    def add(self, value: object) -> str:
        self.values.append(value)
        return f"${len(self.values)}"


def _own_scope(flt: ItemFilter, params: Params, p: str) -> list[str]:
    """The conditions on the scope's own ids (``reach.own_ids``)."""
    out = []
    for column, value, or_unset in own_ids(flt):
        cond = f"{p}{column} = {params.add(value)}"
        out.append(f"({cond} OR {p}{column} IS NULL)" if or_unset else cond)
    return out


def filter_clause(flt: ItemFilter, params: Params, alias: str = "") -> str:
    """Every scope, status, kind and time condition of ``flt``, for a WHERE clause."""
    p = f"{alias}." if alias else ""
    s = flt.scope
    where = [f"{p}tenant_id = {params.add(s.tenant_id)}"]
    where.append(f"{p}namespace = {params.add(s.namespace)}")
    own = [] if flt.shared_only else _own_scope(flt, params, p)
    if flt.level_only and s.user_id is None and not flt.shared_only:  # one shared level
        agent = "IS NULL" if s.agent_id is None else f"= {params.add(s.agent_id)}"
        own.append(f"{p}user_id IS NULL AND {p}agent_id {agent}")
    if flt.shared_only:  # the namespace's rows, the scope's agent's (+ organisation's)
        agent = f" OR {p}agent_id = {params.add(s.agent_id)}" if s.agent_id is not None else ""
        own.append(f"{p}user_id IS NULL AND ({p}agent_id IS NULL{agent})")
    if flt.with_organisation and own and not flt.shared_only:
        shared = f"{p}user_id IS NULL AND {p}agent_id IS NULL"
        if s.user_id is not None and s.agent_id is not None:  # and the agent's own
            shared = f"{p}user_id IS NULL AND ({p}agent_id IS NULL"
            shared += f" OR {p}agent_id = {params.add(s.agent_id)})"
        where.append(f"(({' AND '.join(own)}) OR ({shared}))")
    else:
        where += own
    clauses = [" AND ".join(where)]
    if reaches_organisation(flt):
        # and the organisation's rows (each branch on the scope index)
        clauses = [
            f"(({clauses[0]}) OR ({p}tenant_id = {params.add(s.tenant_id)}"
            f" AND {p}namespace = {params.add(ORGANISATION_NAMESPACE)}"
            f" AND {p}user_id IS NULL AND {p}agent_id IS NULL))"
        ]
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
