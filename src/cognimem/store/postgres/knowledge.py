"""Knowledge in PostgreSQL, as reads see it: the ``KnowledgeStore`` role (facts,
entities, aliases, relations, conflicts, history), with the semantics of
``store/sqlite/knowledge.py``. Written with the messages they come from
(``knowledge_writes.apply``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from cognimem.models.fact_changes import LIVE_VALUES
from cognimem.models.knowledge import (
    Alias,
    ConflictStatus,
    Fact,
    FactConflict,
    HistoryEntry,
    Relation,
)
from cognimem.store import records, scored_facts
from cognimem.store.arguments import KnowledgeView, RowsById
from cognimem.store.by_id import KnowledgeByIds
from cognimem.store.fact_rows import Source
from cognimem.store.postgres.database import PostgresDatabase
from cognimem.store.postgres.row_copies import Pieces, RowCopies
from cognimem.store.postgres.rows import BY_ID, Params, decode_time
from cognimem.store.records import user_key
from cognimem.store.scored_facts import SCORED_FACT_COLUMNS, FactColumns
from cognimem.store.types import FactQuery, FactRowParts, FactRows, GraphEdge, ScopeFacts

if TYPE_CHECKING:
    from asyncpg import Connection, Record

T = TypeVar("T")


def fact_from_row(row: Record) -> Fact:
    return records.fact_from_row(row, decode_time)


FACTS = BY_ID.facts


def _equals(column: str, value: str | None, params: Params) -> str:
    # "IS NULL" / "= $n" rather than IS NOT DISTINCT FROM, which no index serves
    return f"{column} IS NULL" if value is None else f"{column} = {params.add(value)}"


async def find_facts(conn: Connection, q: FactQuery) -> list[Fact]:
    params = Params(q.tenant_id, q.namespace)
    clauses = ["tenant_id = $1", "namespace = $2"]
    if not q.all_users:
        clauses.append(_equals("user_id", q.user_id, params))
        if q.level_only and q.user_id is None:  # one shared level: the agent's, or none
            clauses.append(_equals("agent_id", q.agent_id, params))
    if q.keys is not None:
        if not q.keys:
            return []
        # exact, or a multi-valued key below it: ':' < ';' so [k:, k;) is the prefix range
        # (the column is COLLATE "C", so this is a bytewise range an index serves)
        alternatives = [
            f"key = {params.add(k)} OR (key >= {params.add(k + ':')}"
            f" AND key < {params.add(k + ';')})"
            for k in q.keys
        ]
        clauses.append("(" + " OR ".join(alternatives) + ")")
    if q.statuses is not None:
        clauses.append(f"status = ANY({params.add([s.value for s in q.statuses])}::text[])")
    if q.categories is not None:
        clauses.append(f"category = ANY({params.add([c.value for c in q.categories])}::text[])")
    sql = (
        f"SELECT {records.FACT_COLUMNS} FROM facts WHERE {' AND '.join(clauses)}"
        f" ORDER BY recorded_at DESC, seq DESC LIMIT {params.add(q.limit)}"
    )
    return [fact_from_row(r) for r in await conn.fetch(sql, *params.values)]


async def find_aliases(
    conn: Connection, view: KnowledgeView, names: Sequence[str] | None, limit: int = 20_000
) -> list[Alias]:
    params = Params(view.tenant_id, view.namespace)
    sql = f"SELECT {records.ALIAS_COLUMNS} FROM aliases WHERE tenant_id = $1 AND namespace = $2"
    if not view.all_users:
        keys = ["", user_key(view.user_id)] if view.user_id is not None else [""]
        sql += f" AND user_key = ANY({params.add(keys)}::text[])"
    if names is not None:
        if not names:
            return []
        sql += f" AND alias = ANY({params.add(list(names))}::text[])"
    sql += (
        # ties in a fixed, bytewise order (as SQLite sorts them)
        ' ORDER BY use_count DESC, alias, entity_id COLLATE "C", user_key COLLATE "C"'
        f" LIMIT {params.add(limit)}"
    )
    return [records.alias_from_row(r) for r in await conn.fetch(sql, *params.values)]


async def find_relations(
    conn: Connection, view: KnowledgeView, entity_ids: Sequence[str]
) -> list[Relation]:
    if not entity_ids:
        return []
    params = Params(view.tenant_id, view.namespace, list(entity_ids))
    if view.all_users:
        visible = "TRUE"
    elif view.user_id is None:
        visible = "user_id IS NULL"
    else:
        visible = f"(user_id = {params.add(view.user_id)} OR user_id IS NULL)"
    sql = (
        f"SELECT {records.RELATION_COLUMNS} FROM relations WHERE tenant_id = $1 AND namespace = $2"
        f" AND {visible} AND active"
        " AND (source_entity_id = ANY($3::text[]) OR target_entity_id = ANY($3::text[]))"
        " ORDER BY seq"
    )
    return [
        records.relation_from_row(r, decode_time) for r in await conn.fetch(sql, *params.values)
    ]


async def graph_edges(
    conn: Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    limit: int,
    copies: RowCopies[list[GraphEdge]],
) -> list[GraphEdge]:
    """The scope's active relations, newest first, with their facts' evidence items:
    this process's copy while it is current (see ``RowCopies``)."""
    params = Params(tenant_id, namespace, list(LIVE_VALUES), limit)
    visible = (
        "r.user_id IS NULL"
        if user_id is None
        else f"(r.user_id = {params.add(user_id)} OR r.user_id IS NULL)"
    )

    def edges(found: list[Any]) -> list[GraphEdge]:
        return [
            GraphEdge(
                source_entity_id=r["source_entity_id"],
                target_entity_id=r["target_entity_id"],
                relation=r["relation"],
                confidence=float(r["confidence"]),
                fact_id=r["fact_id"],
                item_ids=()
                if r["evidence_item_ids"] is None
                else tuple(json.loads(r["evidence_item_ids"])),
            )
            for r in found
        ]

    return await copies.current(
        conn,
        (tenant_id, namespace, user_id, limit),
        source=(
            "FROM relations r"
            " LEFT JOIN facts f ON f.id = r.fact_id AND f.tenant_id = r.tenant_id"
            " AND f.status = ANY($3::text[])"
            f" WHERE r.tenant_id = $1 AND r.namespace = $2 AND {visible} AND r.active"
            " ORDER BY r.created_at DESC, r.seq DESC LIMIT $4"
        ),
        args=params.values,
        # a relation's row version and its fact's (whose evidence the edge carries)
        version="r.id || '@' || r.xmin::text || '@' || coalesce(f.xmin::text, '')",
        columns=(
            "r.source_entity_id, r.target_entity_id, r.relation, r.confidence, r.fact_id,"
            " f.evidence_item_ids"
        ),
        build=edges,
    )


async def find_conflicts(
    conn: Connection, view: KnowledgeView, open_only: bool
) -> list[FactConflict]:
    params = Params(view.tenant_id, view.namespace)
    clauses = ["tenant_id = $1", "namespace = $2"]
    if not view.all_users:
        clauses.append(_equals("user_id", view.user_id, params))
    if open_only:
        clauses.append(f"status = {params.add(ConflictStatus.OPEN.value)}")
    sql = (
        f"SELECT {records.CONFLICT_COLUMNS} FROM conflicts WHERE {' AND '.join(clauses)}"
        " ORDER BY seq"
    )
    return [
        records.conflict_from_row(r, decode_time) for r in await conn.fetch(sql, *params.values)
    ]


def _fact_row(r: Record) -> FactColumns:
    """A fact's compact row (``scored_facts.fact_rows``) from its columns."""
    vector = None if r["vector"] is None else np.asarray(r["vector"], np.float32)
    return scored_facts.scored_columns(r, vector)


_FACT_ROWS = RowsById("facts", f"{SCORED_FACT_COLUMNS}, embedding AS vector", _fact_row)


async def fact_rows(
    conn: Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    limit: int,
    copies: RowCopies[FactRows],
) -> FactRows:
    """The user's live facts, newest first: what the read's fact steps score; this
    process's copy while it is current (see ``RowCopies``)."""

    def rows(found: list[Any]) -> FactRows:
        return scored_facts.fact_rows([_fact_row(r) for r in found])

    return await _user_facts(
        conn,
        (tenant_id, namespace, user_id, limit),
        copies,
        live_only=True,
        # the vectors come through the binary codec (rows.decode_vector): cast to real[]
        # they cost 7.6 ms of Python and 10 ms in all for 500 facts, 1.3 and 2.5 this way
        columns=_FACT_ROWS.columns,
        build=rows,
        pieces=_LIVE_ROWS,
    )


def _fact_row_parts(r: Record) -> FactRowParts:
    return scored_facts.fact_row_parts(_fact_row(r))


# FactRows patched by the facts whose row versions changed (``RowCopies``): a held
# piece is a row of the kept copy (its number), the others the facts read again
_LIVE_ROWS: Pieces[FactRows, Source] = Pieces(
    split=lambda known: range(len(known.ids)),
    piece=_fact_row_parts,
    join=lambda known, pieces: known.patched(pieces),
    by_ids="FROM facts WHERE tenant_id = $1 AND id = ANY($2::text[])",
)


async def scope_facts(
    conn: Connection,
    tenant_id: str,
    namespace: str,
    user_id: str | None,
    limit: int,
    copies: RowCopies[ScopeFacts],
) -> ScopeFacts:
    """The user's facts of any status, newest first, decoded; this process's copy while
    it is current (see ``RowCopies``)."""

    return await _user_facts(
        conn,
        (tenant_id, namespace, user_id, limit),
        copies,
        live_only=False,
        columns=f"{records.FACT_COLUMNS}, embedding AS vector",
        build=lambda found: _joined_facts([_scope_fact(r) for r in found]),
        pieces=_SCOPE_FACTS,
    )


def _scope_fact(r: Record) -> tuple[Fact, FactRowParts]:
    return fact_from_row(r), scored_facts.fact_row_parts(_fact_row(r))


def _joined_facts(pieces: list[tuple[Fact, FactRowParts]]) -> ScopeFacts:
    return ScopeFacts(facts=[p[0] for p in pieces], parts=[p[1] for p in pieces])


# a ScopeFacts patched by the facts whose row versions changed (``RowCopies``)
_SCOPE_FACTS: Pieces[ScopeFacts, tuple[Fact, FactRowParts]] = Pieces(
    split=lambda known: list(zip(known.facts, known.parts, strict=True)),
    piece=_scope_fact,
    join=lambda _, pieces: _joined_facts(pieces),
    by_ids="FROM facts WHERE tenant_id = $1 AND id = ANY($2::text[])",
)


async def _user_facts(
    conn: Connection,
    key: tuple[str, str, str | None, int],
    copies: RowCopies[T],
    *,
    live_only: bool,
    columns: str,
    build: Callable[[list[Any]], T],
    pieces: Pieces[T, Any] | None = None,
) -> T:
    """``build`` over the ``columns`` of the user's facts (``key``: tenant, namespace,
    user, limit), live ones alone with ``live_only``, newest first; this process's copy
    while it is current, patched by the rows that changed with ``pieces``."""
    tenant_id, namespace, user_id, limit = key
    params = Params(tenant_id, namespace)
    user = _equals("user_id", user_id, params)  # so facts_user serves the scan
    live = f" AND status = ANY({params.add(list(LIVE_VALUES))}::text[])" if live_only else ""
    return await copies.current(
        conn,
        key,
        source=(
            f"FROM facts WHERE tenant_id = $1 AND namespace = $2 AND {user}{live}"
            f" ORDER BY recorded_at DESC, seq DESC LIMIT {params.add(limit)}"
        ),
        args=params.values,
        version="id || '@' || xmin::text",
        columns=columns,
        build=build,
        pieces=pieces,
    )


async def get_history(conn: Connection, tenant_id: str, target_id: str) -> list[HistoryEntry]:
    found = await conn.fetch(
        f"SELECT {records.HISTORY_COLUMNS} FROM history WHERE target_id = $1 AND tenant_id = $2"
        " ORDER BY seq",
        target_id,
        tenant_id,
    )
    return [records.history_from_row(r, decode_time) for r in found]


async def get_conflict(conn: Connection, tenant_id: str, conflict_id: str) -> FactConflict | None:
    row = await conn.fetchrow(
        f"SELECT {records.CONFLICT_COLUMNS} FROM conflicts WHERE id = $1 AND tenant_id = $2",
        conflict_id,
        tenant_id,
    )
    return None if row is None else records.conflict_from_row(row, decode_time)


class PostgresKnowledge(PostgresDatabase, KnowledgeByIds):
    """``KnowledgeStore`` on PostgreSQL."""

    BY_ID = BY_ID
    SCORED_ROWS = _FACT_ROWS

    async def find_facts(self, query: FactQuery) -> list[Fact]:
        async with self._connection() as conn:
            return await find_facts(conn, query)

    async def fact_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> FactRows:
        async with self._connection() as conn:
            return await fact_rows(conn, tenant_id, namespace, user_id, limit, self._fact_rows)

    async def scope_facts(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> ScopeFacts:
        async with self._connection() as conn:
            return await scope_facts(conn, tenant_id, namespace, user_id, limit, self._scope_facts)

    async def find_aliases(self, view: KnowledgeView, names: Sequence[str] | None) -> list[Alias]:
        async with self._connection() as conn:
            return await find_aliases(conn, view, names)

    async def find_relations(
        self, view: KnowledgeView, entity_ids: Sequence[str]
    ) -> list[Relation]:
        async with self._connection() as conn:
            return await find_relations(conn, view, entity_ids)

    async def graph_edges(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> list[GraphEdge]:
        async with self._connection() as conn:
            return await graph_edges(conn, tenant_id, namespace, user_id, limit, self._graphs)

    async def find_conflicts(
        self, view: KnowledgeView, *, open_only: bool = True
    ) -> list[FactConflict]:
        async with self._connection() as conn:
            return await find_conflicts(conn, view, open_only)

    async def get_history(self, tenant_id: str, target_id: str) -> list[HistoryEntry]:
        async with self._connection() as conn:
            return await get_history(conn, tenant_id, target_id)

    async def get_conflict(self, tenant_id: str, conflict_id: str) -> FactConflict | None:
        async with self._connection() as conn:
            return await get_conflict(conn, tenant_id, conflict_id)
