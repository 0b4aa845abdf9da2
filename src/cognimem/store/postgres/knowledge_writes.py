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
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cognimem.errors import NotFound, StaleKnowledge
from cognimem.models.fact_changes import LIVE_VALUES, NO_LONGER_TRUE, StaleItem
from cognimem.models.knowledge import (
    Alias,
    Entity,
    HistoryEntry,
)
from cognimem.models.references import (
    COREFERENCE,
    ItemLinks,
    ItemReference,
    linked_items,
    with_links,
)
from cognimem.store import records
from cognimem.store import row_values as kv
from cognimem.store.arguments import Relinked
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
from cognimem.store.relinking import merged_away, named_entities
from cognimem.store.types import Knowledge, PendingItem, PendingMessage

if TYPE_CHECKING:
    from asyncpg import Connection

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
# the types of the columns an update rewrites, for the casts of its parameters
_MUTABLE_TYPES = {
    "text": "text", "scope_tags": "jsonb", "confidence": "float8",
    "confidence_factors": "jsonb", "reinforcement_count": "int4",
    "last_validated_at": "timestamptz", "status": "text", "superseded_by": "text",
    "valid_from": "timestamptz", "valid_to": "timestamptz", "evidence_item_ids": "jsonb",
    "evidence_event_ids": "jsonb", "importance": "float8", "revision": "int4",
    "polarity": "bool", "value": "text", "recorded_to": "timestamptz",
}  # fmt: skip
_UPDATE_FACT = (
    "UPDATE facts SET "
    + ", ".join(f"{c} = ${n}::{_MUTABLE_TYPES[c]}" for n, c in enumerate(kv.FACT_MUTABLE, 1))
    + f" WHERE id = ${len(kv.FACT_MUTABLE) + 1} AND revision = ${len(kv.FACT_MUTABLE) + 2}"
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
    this check and the commit. No entity the write names may have been deleted by a
    merge back (``store/relinking.py``: ``named_entities``, ``merged_away``): they are
    read ``FOR SHARE``, so a merge deleting one (which holds its row from its start)
    waits for this write, or has deleted it and this write is made again."""
    named = named_entities(knowledge)
    if named:
        held = await conn.fetch(
            "SELECT id FROM entities WHERE id = ANY($1::text[]) ORDER BY id FOR SHARE", named
        )
        missing = sorted(set(named) - {r["id"] for r in held})
        if missing:
            found = await conn.fetch(
                f"SELECT {records.HISTORY_COLUMNS} FROM history WHERE target_type = 'entity'"
                " AND action = 'deleted' AND target_id = ANY($1::text[])",
                missing,
            )
            if gone := merged_away([records.history_from_row(r, decode_time) for r in found]):
                raise gone
    states = knowledge.read_set
    if not states:
        return
    found = await conn.fetch(
        _READ_SET,
        [s.tenant_id for s in states],
        [s.namespace for s in states],
        [s.user_id for s in states],
        [s.key for s in states],
        list(LIVE_VALUES),
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


async def relink_items(
    conn: Connection,
    entity: Entity,
    user_id: str | None,
    relink: Callable[[ItemLinks], ItemLinks | None],
) -> list[Relinked]:
    """Rewrite the links of ``user_id``'s items (``None``: the items of no user) linked
    to ``entity`` as ``relink`` says; each item rewritten, (before, after)."""
    found = await conn.fetch(
        "SELECT id, entities::text AS entities, metadata::text AS metadata FROM items"
        " WHERE tenant_id = $1 AND namespace = $2 AND user_id IS NOT DISTINCT FROM $3"
        " AND entities @> jsonb_build_array($4::text) ORDER BY occurred_at, id FOR UPDATE",
        entity.tenant_id, entity.namespace, user_id, entity.id,
    )  # fmt: skip
    out: list[Relinked] = []
    for r in found:
        before = ItemLinks.stored(r["id"], json.loads(r["entities"]), json.loads(r["metadata"]))
        after = relink(before)
        if after is None:
            continue
        # an item left with no resolution keeps no empty list
        said = json.dumps(after.links) if after.links else None
        await conn.execute(
            "UPDATE items SET entities = $1::jsonb, metadata = CASE WHEN $2::jsonb IS NULL"
            " THEN metadata - $3::text ELSE metadata || jsonb_build_object($3::text, $2::jsonb)"
            " END WHERE tenant_id = $4 AND id = $5",
            json.dumps(after.entities), said, COREFERENCE, entity.tenant_id, r["id"],
        )  # fmt: skip
        out.append((before, after))
    return out


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
    entities = [kv.entity_values(e, decode_time) for e in knowledge.entities]
    await _insert(conn, "entities", ENTITY_COLUMNS, _ENTITY_TYPES, entities)
    await _upsert_aliases(conn, knowledge)
    await _insert_facts(conn, knowledge)
    await _update_facts(conn, knowledge)
    relations = [kv.relation_values(r, decode_time) for r in knowledge.relations]
    await _insert(conn, "relations", RELATION_COLUMNS, _RELATION_TYPES, relations)
    conflicts = [kv.conflict_values(c, decode_time) for c in knowledge.conflicts]
    await _insert(conn, "conflicts", CONFLICT_COLUMNS, _CONFLICT_TYPES, conflicts)
    await insert_history(conn, knowledge.history)
    await _link_items(conn, knowledge.item_links)


def links_at_insert(
    messages: Sequence[PendingMessage], knowledge: Knowledge
) -> tuple[list[PendingMessage], Knowledge]:
    """``messages`` with the links ``knowledge`` makes to their own items already in
    those items' rows (as ``_link_items`` would leave them), and ``knowledge`` keeping the
    links to other items only: a row is inserted once, not inserted, read back and
    updated in the same transaction (a second HNSW entry and a dead row each). Copies;
    the caller's objects are left as they were. Only for a commit that inserts every
    item of ``messages`` (a strict one: a duplicate message fails it)."""
    by_item = linked_items(knowledge.item_links)
    new = {(p.item.scope.tenant_id, p.item.id) for m in messages for p in m.items}
    if not new & by_item.keys():
        return list(messages), knowledge
    linked = [
        replace(
            m, items=[_linked(p, by_item.get((p.item.scope.tenant_id, p.item.id))) for p in m.items]
        )
        for m in messages
    ]
    rest = [x for x in knowledge.item_links if (x.tenant_id, x.item_id) not in new]
    return linked, replace(knowledge, item_links=rest)


def _linked(pending: PendingItem, links: Sequence[ItemReference] | None) -> PendingItem:
    if not links:
        return pending
    item = pending.item
    # what _link_items would read back: the row's JSON as stored
    entities, metadata = (
        json.loads(json.dumps(item.entities)),
        json.loads(json.dumps(item.metadata)),
    )
    entities, metadata[COREFERENCE] = with_links(entities, metadata, links)
    return replace(
        pending, item=item.model_copy(update={"entities": entities, "metadata": metadata})
    )


async def _link_items(conn: Connection, links: Sequence[ItemReference]) -> None:
    """Each item linked to the people its references name (``models/references.py``):
    the entity joins its ``entities``, the resolution its metadata's list."""
    by_item = linked_items(links)
    if not by_item:
        return
    found = await conn.fetch(
        "SELECT tenant_id, id, entities::text AS entities, metadata::text AS metadata"
        " FROM items WHERE id = ANY($1::text[]) FOR UPDATE",
        sorted({item_id for _, item_id in by_item}),
    )  # an item this write merged into may have been deleted meanwhile
    args = []
    for r in found:
        mine = by_item.get((r["tenant_id"], r["id"]))
        if mine:
            entities, said = with_links(json.loads(r["entities"]), json.loads(r["metadata"]), mine)
            args.append(
                (json.dumps(entities), COREFERENCE, json.dumps(said), r["tenant_id"], r["id"])
            )
    await conn.executemany(
        "UPDATE items SET entities = $1::jsonb,"
        " metadata = metadata || jsonb_build_object($2::text, $3::jsonb)"
        " WHERE tenant_id = $4 AND id = $5",
        args,
    )


async def _insert_facts(conn: Connection, knowledge: Knowledge) -> None:
    rows = [
        (
            *kv.fact_row(p.fact, decode_time),
            None if p.embedding is None else vector_bytes(p.embedding),
        )
        for p in knowledge.facts
    ]
    await _insert(conn, "facts", f"{FACT_COLUMNS}, embedding", _FACT_TYPES, rows)


async def _update_facts(conn: Connection, knowledge: Knowledge) -> None:
    """Each update guarded by the revision the reconciler saw (``StaleKnowledge`` when
    it changed meanwhile); a fact no longer live takes its graph edges with it."""
    # one by one, in order: a fact may be updated twice in one write (revision n, n + 1)
    for update in knowledge.fact_updates:
        status = await conn.fetchval(
            _UPDATE_FACT,
            *kv.fact_mutable(update.fact, decode_time),
            update.fact.id,
            update.expected_revision,
        )
        if status is None:
            raise StaleKnowledge(
                f"fact {update.fact.id} changed during the write", details={"fact": update.fact.id}
            )
        if status not in LIVE_VALUES:
            await conn.execute(
                "UPDATE relations SET active = false WHERE fact_id = $1 AND active",
                update.fact.id,
            )


async def _insert(
    conn: Connection,
    table: str,
    columns: str,
    types: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
) -> None:
    """Insert ``rows`` (values of ``columns``, of ``types``) in one statement."""
    if rows:
        await conn.execute(
            f"INSERT INTO {table} ({columns}) SELECT * FROM unnest({unnest_args(types)})",
            *by_column(rows, len(types)),
        )


async def insert_history(conn: Connection, entries: Sequence[HistoryEntry]) -> None:
    await _insert(
        conn,
        "history",
        HISTORY_COLUMNS,
        _HISTORY_TYPES,
        [kv.history_values(h, decode_time) for h in entries],
    )


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
