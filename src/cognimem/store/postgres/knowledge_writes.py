"""Writing knowledge in PostgreSQL: what reconciliation decided (``Knowledge``:
entities, aliases, facts and their updates, relations, conflicts, history), applied
inside the caller's transaction after its read set is checked.

The semantics are those of ``store/sqlite/knowledge_writes.py``. What PostgreSQL adds is
concurrency: SQLite has one writer at a time, here the read-set check is made safe by
transaction-level advisory locks on every key it covers (see ``read_set_locks``), and
updates are guarded by the revision the reconciler saw, so a concurrent change makes
the ``UPDATE`` match nothing and the write fail as ``StaleKnowledge``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cognimem.errors import NotFound, StaleKnowledge
from cognimem.models import Scope
from cognimem.models.clock import to_utc
from cognimem.models.fact_changes import NO_LONGER_TRUE, StaleItem
from cognimem.models.knowledge import (
    Alias,
    Entity,
    Fact,
    FactStatus,
    HistoryEntry,
)
from cognimem.store import records
from cognimem.store.postgres.locks import advisory_key
from cognimem.store.postgres.rows import (
    by_column,
    decode_time,
    unnest_args,
    vector_bytes,
)
from cognimem.store.records import (
    CONFLICT_COLUMNS,
    ENTITY_COLUMNS,
    FACT_COLUMNS,
    HISTORY_COLUMNS,
    RELATION_COLUMNS,
    user_key,
)
from cognimem.store.types import Knowledge

if TYPE_CHECKING:
    from asyncpg import Connection

LIVE = [FactStatus.ACTIVE.value, FactStatus.AGING.value]

_FACT_TYPES = [
    *["text"] * 12,  # id .. value
    "bool",  # polarity
    "text",  # object_entity_id
    "text",  # text
    "jsonb",  # scope_tags
    "float8",  # confidence
    "jsonb",  # confidence_factors
    "int4",  # reinforcement_count
    "timestamptz",  # last_validated_at
    "text",  # status
    "text",  # superseded_by
    *["timestamptz"] * 3,  # valid_from, valid_to, recorded_at
    *["jsonb"] * 2,  # evidence ids
    "float8",  # importance
    "int4",  # revision
    "text",  # embedding_model
    "jsonb",  # provenance
    "timestamptz",  # recorded_to
    "vector",  # embedding
]
# what a reconciliation may change; identity (key, subject, scope ...) never changes
_FACT_MUTABLE = [
    ("text", "text"), ("scope_tags", "jsonb"), ("confidence", "float8"),
    ("confidence_factors", "jsonb"), ("reinforcement_count", "int4"),
    ("last_validated_at", "timestamptz"), ("status", "text"), ("superseded_by", "text"),
    ("valid_from", "timestamptz"), ("valid_to", "timestamptz"), ("evidence_item_ids", "jsonb"),
    ("evidence_event_ids", "jsonb"), ("importance", "float8"), ("revision", "int4"),
    ("polarity", "bool"), ("value", "text"), ("recorded_to", "timestamptz"),
]  # fmt: skip
_UPDATE_FACT = (
    "UPDATE facts SET "
    + ", ".join(f"{c} = ${n}::{t}" for n, (c, t) in enumerate(_FACT_MUTABLE, start=1))
    + f" WHERE id = ${len(_FACT_MUTABLE) + 1} AND revision = ${len(_FACT_MUTABLE) + 2}"
    " RETURNING status"
)

# column types for the unnest() bulk inserts, in the order of the shared column lists
_ENTITY_TYPES = [*["text"] * 7, "jsonb", "timestamptz"]
_RELATION_TYPES = [*["text"] * 10, "float8", "bool", "timestamptz"]
_CONFLICT_TYPES = [*["text"] * 7, "jsonb", *["text"] * 3, "timestamptz", "timestamptz", "text"]
_HISTORY_TYPES = [*["text"] * 6, "timestamptz", "jsonb", "jsonb", "text"]

_UPSERT_ALIAS = (
    "INSERT INTO aliases (tenant_id, namespace, user_key, alias, entity_id, source, confidence,"
    " use_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    " ON CONFLICT (tenant_id, namespace, user_key, alias, entity_id) DO UPDATE SET"
    " use_count = aliases.use_count + 1,"
    " confidence = greatest(aliases.confidence, excluded.confidence)"
)

_READ_SET = """
SELECT s.ord, f.id, f.revision
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $6::text[]) WITH ORDINALITY
     AS s(tenant_id, namespace, user_id, key, agent_id, ord)
JOIN facts f ON f.tenant_id = s.tenant_id AND f.namespace = s.namespace AND f.key = s.key
     AND f.user_id IS NOT DISTINCT FROM s.user_id AND f.status = ANY($5::text[])
     AND (f.user_id IS NOT NULL OR f.agent_id IS NOT DISTINCT FROM s.agent_id)
"""


def _scope_values(s: Scope) -> tuple[str, str, str | None, str | None, str | None]:
    return (s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id)


# -- conversions -----------------------------------------------------------------------
def _mutable_values(f: Fact) -> list[Any]:
    values = {
        "text": f.text,
        "scope_tags": json.dumps(f.scope_tags),
        "confidence": f.confidence,
        "confidence_factors": json.dumps(f.confidence_factors),
        "reinforcement_count": f.reinforcement_count,
        "last_validated_at": to_utc(f.last_validated_at),
        "status": f.status.value,
        "superseded_by": f.superseded_by,
        "valid_from": decode_time(f.valid_from),
        "valid_to": decode_time(f.valid_to),
        "evidence_item_ids": json.dumps(f.evidence_item_ids),
        "evidence_event_ids": json.dumps(f.evidence_event_ids),
        "importance": f.importance,
        "revision": f.revision,
        "polarity": f.polarity,
        "value": f.value,
        "recorded_to": decode_time(f.recorded_to),
    }
    return [values[c] for c, _ in _FACT_MUTABLE]


# -- the read set ----------------------------------------------------------------------
def read_set_locks(knowledge: Knowledge | None) -> list[int]:
    """Advisory lock keys of every key the reconciliation read: two writers that
    reconciled against the same key take turns, and the second one's check sees what
    the first one committed."""
    if knowledge is None:
        return []
    return [
        advisory_key("fact-key", s.tenant_id, s.namespace, s.user_id, s.key)
        for s in knowledge.read_set
    ]


async def check_read_set(conn: Connection, knowledge: Knowledge) -> None:
    """Raise ``StaleKnowledge`` unless every key's live facts are what was reconciled.

    Call with the ``read_set_locks`` held, or a concurrent writer can slip in between
    this check and the commit."""
    states = knowledge.read_set
    if not states:
        return
    found = await conn.fetch(
        _READ_SET,
        [s.tenant_id for s in states],
        [s.namespace for s in states],
        [s.user_id for s in states],
        [s.key for s in states],
        LIVE,
        [s.agent_id for s in states],
    )
    live: dict[int, set[tuple[str, int]]] = {}
    for r in found:
        live.setdefault(int(r["ord"]) - 1, set()).add((r["id"], int(r["revision"])))
    for index, state in enumerate(states):
        if frozenset(live.get(index, ())) != state.facts:
            raise StaleKnowledge(
                f"facts under key {state.key!r} changed during the write",
                details={"key": state.key},
            )


# -- writing ---------------------------------------------------------------------------
async def delete_aliases(
    conn: Connection, entity: Entity, alias: str, user_id: str | None
) -> list[Alias]:
    """Delete ``entity``'s rows of ``alias`` that ``user_id``'s words use; the rows
    deleted (``NotFound`` when none)."""
    found = await conn.fetch(
        "DELETE FROM aliases WHERE tenant_id = $1 AND namespace = $2 AND user_key = $3"
        " AND alias = $4 AND entity_id = $5"
        " RETURNING entity_id, alias, user_key, source, confidence, use_count",
        entity.tenant_id, entity.namespace, user_key(user_id), alias, entity.id,
    )  # fmt: skip
    if not found:
        raise NotFound("alias", alias)
    return [records.alias_from_row(r) for r in found]


async def mark_stale(conn: Connection, marks: Sequence[StaleItem]) -> None:
    """Mark items as stating what no longer holds; an item marked once keeps its first
    mark (what ended it first)."""
    if marks:
        await conn.executemany(
            "UPDATE items SET superseded_by = $1,"
            " metadata = metadata || jsonb_build_object($2::text, $3::jsonb)"
            " WHERE tenant_id = $4 AND id = $5 AND superseded_by IS NULL",
            [(m.by, NO_LONGER_TRUE, json.dumps(m.meta()), m.tenant_id, m.item_id) for m in marks],
        )


async def apply(conn: Connection, knowledge: Knowledge) -> None:
    """Write ``knowledge`` inside the caller's transaction (after ``check_read_set``).

    Items to silence are the caller's business (they belong to the items table)."""
    await _insert_entities(conn, knowledge)
    await _upsert_aliases(conn, knowledge)
    await _insert_facts(conn, knowledge)
    await _update_facts(conn, knowledge)
    await _insert_relations(conn, knowledge)
    await _insert_conflicts(conn, knowledge)
    await insert_history(conn, knowledge.history)


async def _insert_entities(conn: Connection, knowledge: Knowledge) -> None:
    if not knowledge.entities:
        return
    await conn.execute(
        f"INSERT INTO entities ({ENTITY_COLUMNS})"
        f" SELECT * FROM unnest({unnest_args(_ENTITY_TYPES)})",
        *by_column(
            [
                (
                    e.id, e.tenant_id, e.namespace, e.user_id, e.name, e.type.value,
                    e.external_ref, json.dumps(e.properties), to_utc(e.created_at),
                )
                for e in knowledge.entities
            ],
            len(_ENTITY_TYPES),
        ),
    )  # fmt: skip


async def _insert_facts(conn: Connection, knowledge: Knowledge) -> None:
    if not knowledge.facts:
        return
    rows = []
    for p in knowledge.facts:
        f = p.fact
        embedding = None if p.embedding is None else vector_bytes(p.embedding)
        rows.append(
            (
                f.id, *_scope_values(f.scope), f.key, f.subject, f.subject_entity_id,
                f.predicate, f.category.value, f.value, f.polarity, f.object_entity_id,
                f.text, json.dumps(f.scope_tags), f.confidence,
                json.dumps(f.confidence_factors), f.reinforcement_count,
                to_utc(f.last_validated_at), f.status.value, f.superseded_by,
                decode_time(f.valid_from), decode_time(f.valid_to), to_utc(f.recorded_at),
                json.dumps(f.evidence_item_ids), json.dumps(f.evidence_event_ids),
                f.importance, f.revision, f.embedding_model, json.dumps(f.provenance),
                decode_time(f.recorded_to),
                embedding,
            )
        )  # fmt: skip
    await conn.execute(
        f"INSERT INTO facts ({FACT_COLUMNS}, embedding)"
        f" SELECT * FROM unnest({unnest_args(_FACT_TYPES)})",
        *by_column(rows, len(_FACT_TYPES)),
    )


async def _update_facts(conn: Connection, knowledge: Knowledge) -> None:
    """Each update guarded by the revision the reconciler saw (``StaleKnowledge`` when
    it changed meanwhile); a fact no longer live takes its graph edges with it."""
    # one by one, in order: a fact may be updated twice in one write (revision n, n + 1)
    for update in knowledge.fact_updates:
        status = await conn.fetchval(
            _UPDATE_FACT, *_mutable_values(update.fact), update.fact.id, update.expected_revision
        )
        if status is None:
            raise StaleKnowledge(
                f"fact {update.fact.id} changed during the write", details={"fact": update.fact.id}
            )
        if status not in LIVE:
            await conn.execute(
                "UPDATE relations SET active = false WHERE fact_id = $1 AND active",
                update.fact.id,
            )


async def _insert_relations(conn: Connection, knowledge: Knowledge) -> None:
    if not knowledge.relations:
        return
    await conn.execute(
        f"INSERT INTO relations ({RELATION_COLUMNS})"
        f" SELECT * FROM unnest({unnest_args(_RELATION_TYPES)})",
        *by_column(
            [
                (
                    r.id, *_scope_values(r.scope), r.source_entity_id, r.relation,
                    r.target_entity_id, r.fact_id, r.confidence, r.active,
                    to_utc(r.created_at),
                )
                for r in knowledge.relations
            ],
            len(_RELATION_TYPES),
        ),
    )  # fmt: skip


async def _insert_conflicts(conn: Connection, knowledge: Knowledge) -> None:
    if not knowledge.conflicts:
        return
    await conn.execute(
        f"INSERT INTO conflicts ({CONFLICT_COLUMNS})"
        f" SELECT * FROM unnest({unnest_args(_CONFLICT_TYPES)})",
        *by_column(
            [
                (
                    c.id, *_scope_values(c.scope), c.key, json.dumps(c.fact_ids),
                    c.strategy.value, c.status.value, c.winner_fact_id,
                    to_utc(c.created_at), decode_time(c.resolved_at), c.note,
                )
                for c in knowledge.conflicts
            ],
            len(_CONFLICT_TYPES),
        ),
    )  # fmt: skip


async def insert_history(conn: Connection, entries: Sequence[HistoryEntry]) -> None:
    if not entries:
        return
    await conn.execute(
        f"INSERT INTO history ({HISTORY_COLUMNS})"
        f" SELECT * FROM unnest({unnest_args(_HISTORY_TYPES)})",
        *by_column(
            [
                (
                    h.id, h.tenant_id, h.target_type, h.target_id, h.action, h.actor,
                    to_utc(h.at), _json_or_none(h.before), _json_or_none(h.after), h.event_id,
                )
                for h in entries
            ],
            len(_HISTORY_TYPES),
        ),
    )  # fmt: skip


def _json_or_none(value: Mapping[str, Any] | None) -> str | None:
    # default=str: history snapshots may hold datetimes; SQLite stores them the same way
    return None if value is None else json.dumps(value, default=str)


async def _upsert_aliases(conn: Connection, knowledge: Knowledge) -> None:
    if not knowledge.aliases:
        return
    scopes = {e.id: (e.tenant_id, e.namespace) for e in knowledge.entities}
    unknown = sorted({a.entity_id for a in knowledge.aliases} - set(scopes))
    if unknown:
        for r in await conn.fetch(
            "SELECT id, tenant_id, namespace FROM entities WHERE id = ANY($1::text[])", unknown
        ):
            scopes[r["id"]] = (r["tenant_id"], r["namespace"])
    args = [
        (
            *scopes[a.entity_id], user_key(a.user_id), a.alias, a.entity_id, a.source.value,
            a.confidence, a.use_count,
        )
        for a in knowledge.aliases
        if a.entity_id in scopes  # an alias of an entity deleted meanwhile is dropped
    ]  # fmt: skip
    if args:
        # one statement per alias, in order: the same alias twice in a write counts
        # twice (a single multi-row upsert may not touch one row twice)
        await conn.executemany(_UPSERT_ALIAS, args)
