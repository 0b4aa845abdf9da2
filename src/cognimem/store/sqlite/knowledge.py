"""Knowledge in SQLite, as reads see it: the ``KnowledgeStore`` role (facts, entities,
aliases, relations, conflicts, history). Written with the messages they come from
(``knowledge_writes.apply``). A user's live facts and graph are cached per process,
dated by ``fact_versions``."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any, TypeVar

from cognimem.models.fact_changes import LIVE_VALUES
from cognimem.models.knowledge import (
    Alias,
    ConflictStatus,
    Fact,
    FactConflict,
    HistoryEntry,
    Relation,
)
from cognimem.store import records
from cognimem.store.arguments import KnowledgeView, RowsById
from cognimem.store.by_id import KnowledgeByIds
from cognimem.store.cache_budget import BudgetSection
from cognimem.store.fact_copies import Kept, kept_edges, resized
from cognimem.store.records import user_key
from cognimem.store.scored_facts import SCORED_FACT_COLUMNS
from cognimem.store.sqlite import rows
from cognimem.store.sqlite.copy_patch import CopyKind, ScopeRead
from cognimem.store.sqlite.database import SQLiteDatabase
from cognimem.store.sqlite.knowledge_writes import fact_version
from cognimem.store.sqlite.live_rows import LIVE_ROWS
from cognimem.store.sqlite.rows import decode_time, query
from cognimem.store.sqlite.scope_facts import SCOPE_FACTS
from cognimem.store.sqlite.scopes import owners_in
from cognimem.store.types import FactQuery, FactRows, GraphEdge, ScopeFacts

T = TypeVar("T")


def fact_versions(
    conn: sqlite3.Connection, tenant_id: str, owners: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], int]:
    """The fact versions of ``owners`` (namespace, user key) in one statement, as
    ``fact_version`` reads each (0 for an owner with none)."""
    namespaces = sorted({n for n, _ in owners})
    users = sorted({u for _, u in owners})
    found = conn.execute(
        "SELECT namespace, user_key, version FROM fact_versions WHERE tenant_id = ?"
        + owners_in(namespaces, users),
        (tenant_id, *namespaces, *users),
    ).fetchall()
    versions = {(n, u): int(v) for n, u, v in found}
    return {owner: versions.get(owner, 0) for owner in owners}


# a fact's row as a read scores it (``scored_facts.FactColumns``), in its columns' order
_SCORED_ROWS: RowsById[sqlite3.Row, tuple[Any, ...]] = RowsById(
    "facts", f"{SCORED_FACT_COLUMNS}, embedding", tuple
)


fact_from_row = rows.fact_from_row


FACTS = rows.BY_ID.facts


def find_facts(conn: sqlite3.Connection, q: FactQuery) -> list[Fact]:
    clauses = ["tenant_id = ?", "namespace = ?"]
    params: list[object] = [q.tenant_id, q.namespace]
    if not q.all_users:
        clauses.append("user_id IS ?")
        params.append(q.user_id)
        if q.level_only and q.user_id is None:  # one shared level: the agent's, or none
            clauses.append("agent_id IS ?")
            params.append(q.agent_id)
    if q.keys is not None:
        if not q.keys:
            return []
        # each key exact, or a multi-valued key below it: one index range per key,
        # [k, k;), which holds k and every "k:..." (':' < ';'), kept to those two. An OR
        # of the keys' conditions made the planner read all the user's facts through
        # another index instead (3,137 facts: 2.5 ms a lookup, against 0.04)
        per_key = (
            f"SELECT rowid FROM facts WHERE {' AND '.join(clauses)}"
            " AND key >= ? AND key < ? AND (key = ? OR key >= ?)"
        )
        scope_params = params
        clauses = [f"rowid IN ({' UNION ALL '.join([per_key] * len(q.keys))})"]
        params = [p for k in q.keys for p in (*scope_params, k, f"{k};", k, f"{k}:")]
    if q.statuses is not None:
        clauses.append(f"status IN ({', '.join('?' * len(q.statuses))})")
        params += [s.value for s in q.statuses]
    if q.categories is not None:
        clauses.append(f"category IN ({', '.join('?' * len(q.categories))})")
        params += [c.value for c in q.categories]
    sql = (
        f"SELECT {records.FACT_COLUMNS} FROM facts WHERE {' AND '.join(clauses)}"
        " ORDER BY recorded_at DESC, rowid DESC LIMIT ?"
    )
    return [fact_from_row(r) for r in query(conn, sql, [*params, q.limit])]


def find_aliases(
    conn: sqlite3.Connection, view: KnowledgeView, names: Sequence[str] | None, limit: int = 20_000
) -> list[Alias]:
    sql = f"SELECT {records.ALIAS_COLUMNS} FROM aliases WHERE tenant_id = ? AND namespace = ?"
    params: list[object] = [view.tenant_id, view.namespace]
    if not view.all_users:
        keys = ["", user_key(view.user_id)] if view.user_id is not None else [""]
        sql += f" AND user_key IN ({', '.join('?' * len(keys))})"
        params += keys
    if names is not None:
        if not names:
            return []
        sql += f" AND alias IN ({', '.join('?' * len(names))})"
        params += list(names)
    # ties in a fixed order, the same on every backend
    sql += " ORDER BY use_count DESC, alias, entity_id, user_key LIMIT ?"
    return [records.alias_from_row(r) for r in query(conn, sql, [*params, limit])]


def find_relations(
    conn: sqlite3.Connection, view: KnowledgeView, entity_ids: Sequence[str]
) -> list[Relation]:
    if not entity_ids:
        return []
    marks = ", ".join("?" * len(entity_ids))
    visible = "" if view.all_users else " AND (user_id IS ? OR user_id IS NULL)"
    sql = (
        f"SELECT {records.RELATION_COLUMNS} FROM relations WHERE tenant_id = ? AND namespace = ?"
        f"{visible} AND active = 1"
        f" AND (source_entity_id IN ({marks}) OR target_entity_id IN ({marks}))"
        " ORDER BY rowid"
    )
    owner = [] if view.all_users else [view.user_id]
    params = [view.tenant_id, view.namespace, *owner, *entity_ids, *entity_ids]
    return [records.relation_from_row(r, decode_time) for r in query(conn, sql, params)]


def graph_edges(
    conn: sqlite3.Connection, tenant_id: str, namespace: str, user_id: str | None, limit: int
) -> list[GraphEdge]:
    # one branch per owner (the user, the namespace) so each reads its own range of
    # relations_user newest first: SQLite uses no index for an OR of the two
    branch = (
        "SELECT rowid FROM (SELECT rowid FROM relations WHERE tenant_id = ? AND namespace = ?"
        " AND user_id IS ? AND active = 1 ORDER BY created_at DESC, rowid DESC LIMIT ?)"
    )
    owners = [None] if user_id is None else [user_id, None]
    sql = (
        "SELECT r.source_entity_id, r.target_entity_id, r.relation, r.confidence, r.fact_id,"
        " f.evidence_item_ids FROM relations r"
        " LEFT JOIN facts f ON f.id = r.fact_id AND f.tenant_id = r.tenant_id"
        f" AND f.status IN (?, ?) WHERE r.rowid IN ({' UNION ALL '.join([branch] * len(owners))})"
        " ORDER BY r.created_at DESC, r.rowid DESC LIMIT ?"
    )
    params: list[object] = [*LIVE_VALUES]
    for owner in owners:
        params += [tenant_id, namespace, owner, limit]
    return [
        GraphEdge(
            source_entity_id=source,
            target_entity_id=target,
            relation=relation,
            confidence=float(confidence),
            fact_id=fact_id,
            item_ids=() if evidence is None else tuple(json.loads(evidence)),
        )
        for source, target, relation, confidence, fact_id, evidence in conn.execute(
            sql, [*params, limit]
        )
    ]


def find_conflicts(
    conn: sqlite3.Connection, view: KnowledgeView, open_only: bool
) -> list[FactConflict]:
    sql = f"SELECT {records.CONFLICT_COLUMNS} FROM conflicts WHERE tenant_id = ? AND namespace = ?"
    params: list[object] = [view.tenant_id, view.namespace]
    if not view.all_users:
        sql += " AND user_id IS ?"
        params.append(view.user_id)
    if open_only:
        sql += " AND status = ?"
        params.append(ConflictStatus.OPEN.value)
    return [
        records.conflict_from_row(r, decode_time)
        for r in query(conn, sql + " ORDER BY rowid", params)
    ]


def get_history(conn: sqlite3.Connection, tenant_id: str, target_id: str) -> list[HistoryEntry]:
    sql = (
        f"SELECT {records.HISTORY_COLUMNS} FROM history WHERE target_id = ? AND tenant_id = ?"
        " ORDER BY rowid"
    )
    return [
        records.history_from_row(r, decode_time) for r in query(conn, sql, [target_id, tenant_id])
    ]


def get_conflict(conn: sqlite3.Connection, tenant_id: str, conflict_id: str) -> FactConflict | None:
    found = query(
        conn,
        f"SELECT {records.CONFLICT_COLUMNS} FROM conflicts WHERE id = ? AND tenant_id = ?",
        (conflict_id, tenant_id),
    )
    return records.conflict_from_row(found[0], decode_time) if found else None


class SQLiteKnowledge(SQLiteDatabase, KnowledgeByIds):
    """``KnowledgeStore`` on SQLite."""

    BY_ID = rows.BY_ID
    SCORED_ROWS = _SCORED_ROWS

    async def find_facts(self, query: FactQuery) -> list[Fact]:
        # a lookup by key reads a few rows: on this thread
        return await self._db.read(
            lambda conn: find_facts(conn, query), here=query.keys is not None
        )

    async def fact_rows(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> FactRows:
        asked = ScopeRead(tenant_id, namespace, user_id, limit)
        return await self._db.read(lambda conn: self.fact_rows_in(conn, asked))

    def fact_rows_in(
        self, conn: sqlite3.Connection, asked: ScopeRead, version: int | None = None
    ) -> FactRows:
        """``fact_rows`` on a reader connection (``version``: the scope's fact version,
        when the caller read it): see ``_kept_copy``."""
        return self._kept_copy(conn, self._fact_rows, asked, LIVE_ROWS, version)

    async def scope_facts(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> ScopeFacts:
        asked = ScopeRead(tenant_id, namespace, user_id, limit)
        # the copy while current, checked on this thread (one primary-key read: a hop to
        # a reader thread and back costs more); a load (up to ``limit`` facts decoded,
        # ~200 ms at 5,000) on a reader thread, leaving the event loop free meanwhile
        kept = await self._db.read(
            lambda conn: self._current(conn, self._scope_facts, asked), here=True
        )
        if kept is not None:
            return kept
        return await self._db.read(
            lambda conn: self._kept_copy(conn, self._scope_facts, asked, SCOPE_FACTS)
        )

    def _kept_copy(
        self,
        conn: sqlite3.Connection,
        cache: BudgetSection[Kept[T]],
        asked: ScopeRead,
        kind: CopyKind[T],
        version: int | None = None,
    ) -> T:
        """A copy of ``kind`` for ``asked``: this process's copy in ``cache`` while the
        scope's fact version (``version``, when the caller read it) is the one it was
        read at; after this process's own writes, that copy patched with the facts they
        touched (``kind.patched``); else read whole (``kind.load``) and kept (within the
        store's byte cap)."""
        tenant_id, namespace, user_id, limit = asked
        user = user_key(user_id)
        key = (tenant_id, namespace, user, limit)
        if version is None:  # one primary-key read tells whether the copy is current
            version = fact_version(conn, tenant_id, namespace, user)
        kept = cache.get(key)
        if kept is not None and kept.version == version:
            return kept.value
        if kept is not None and isinstance(kept.version, int):
            touched = self._fact_changes.between(
                (tenant_id, namespace, user), kept.version, version
            )
            found = None if touched is None else kind.patched(conn, kept, asked, touched)
            if found is not None:
                rows, was = len(found.order), len(kept.order)
                fresh = resized(kept, version, found.value, rows, was, found.order)
                cache.put(key, fresh, fresh.base)
                return fresh.value
        loaded = kind.load(conn, asked)
        fresh = kind.keep(version, loaded.value, loaded.order)
        cache.put(key, fresh, fresh.base)
        return fresh.value

    def _current(
        self, conn: sqlite3.Connection, cache: BudgetSection[Kept[T]], scope: ScopeRead
    ) -> T | None:
        """This process's copy of what ``_versioned`` keeps for ``scope`` while its fact
        version is the one it was read at; None when there is none or it is stale."""
        tenant_id, namespace, user_id, limit = scope
        user = user_key(user_id)
        kept = cache.get((tenant_id, namespace, user, limit))
        if kept is None or kept.version != fact_version(conn, tenant_id, namespace, user):
            return None
        return kept.value

    async def find_aliases(self, view: KnowledgeView, names: Sequence[str] | None) -> list[Alias]:
        return await self._db.read(lambda conn: find_aliases(conn, view, names))

    async def find_relations(
        self, view: KnowledgeView, entity_ids: Sequence[str]
    ) -> list[Relation]:
        return await self._db.read(lambda conn: find_relations(conn, view, entity_ids))

    async def graph_edges(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> list[GraphEdge]:
        asked = ScopeRead(tenant_id, namespace, user_id, limit)
        return await self._db.read(lambda conn: self.graph_edges_in(conn, asked))

    def graph_edges_in(self, conn: sqlite3.Connection, asked: ScopeRead) -> list[GraphEdge]:
        """``graph_edges`` on a reader connection: this process's copy while the fact
        versions of its owners say it is current."""
        tenant_id, namespace, user_id, limit = asked
        owners = [user_key(None)] + ([] if user_id is None else [user_key(user_id)])
        # relations are dated by the fact versions of their owners (the user and the
        # namespace): one statement tells whether this process's copy is current
        versions = fact_versions(conn, tenant_id, [(namespace, o) for o in owners])
        version = tuple(versions[(namespace, o)] for o in owners)
        kept = self._graphs.get(asked)
        if kept is not None and kept.version == version:
            return kept.value
        fresh = kept_edges(version, graph_edges(conn, tenant_id, namespace, user_id, limit))
        self._graphs.put(asked, fresh, fresh.base)
        return fresh.value

    async def find_conflicts(
        self, view: KnowledgeView, *, open_only: bool = True
    ) -> list[FactConflict]:
        # a scope's open conflicts (what a read asks for) are few: read on this thread
        return await self._db.read(
            lambda conn: find_conflicts(conn, view, open_only), here=open_only
        )

    async def get_conflict(self, tenant_id: str, conflict_id: str) -> FactConflict | None:
        return await self._db.read(lambda conn: get_conflict(conn, tenant_id, conflict_id))

    async def get_history(self, tenant_id: str, target_id: str) -> list[HistoryEntry]:
        return await self._db.read(lambda conn: get_history(conn, tenant_id, target_id))
