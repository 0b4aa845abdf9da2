"""``RecallFetchStore`` on SQLite: two reads of one recall on one reader connection,
one thread hop instead of two."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from cognimem.models import MemoryItem
from cognimem.models.knowledge import Alias, Fact, FactConflict
from cognimem.models.scope import ORGANISATION_NAMESPACE
from cognimem.store.arguments import KnowledgeView
from cognimem.store.records import user_key
from cognimem.store.sqlite.copy_patch import ScopeRead
from cognimem.store.sqlite.database import rows_by_ids
from cognimem.store.sqlite.items import items_by_ids
from cognimem.store.sqlite.knowledge import (
    FACTS,
    SQLiteKnowledge,
    fact_versions,
    find_aliases,
    find_conflicts,
)
from cognimem.store.types import FactRows, GraphEdge, joined


class SQLiteRecallFetch(SQLiteKnowledge):
    """``RecallFetchStore`` on SQLite."""

    async def fact_rows_and_conflicts(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> tuple[FactRows, list[FactConflict]]:
        return await self._db.read(
            lambda conn: (
                self.fact_rows_in(conn, ScopeRead(tenant_id, namespace, user_id, limit)),
                find_conflicts(conn, KnowledgeView(tenant_id, namespace, user_id), True),
            ),
            here=True,  # at most ``limit`` rows
        )

    async def fact_rows_conflicts_shared(
        self, tenant_id: str, namespace: str, user_id: str, limit: int
    ) -> tuple[FactRows, list[FactConflict], FactRows]:
        own, org = (namespace, user_key(user_id)), (ORGANISATION_NAMESPACE, user_key(None))
        level = (namespace, user_key(None))

        def q(conn: sqlite3.Connection) -> tuple[FactRows, list[FactConflict], FactRows]:
            # the three copies' versions in one statement
            versions = fact_versions(conn, tenant_id, [own, level, org])
            shared = self.fact_rows_in(
                conn, ScopeRead(tenant_id, namespace, None, limit), versions[level]
            )
            organisation = self.fact_rows_in(
                conn, ScopeRead(tenant_id, ORGANISATION_NAMESPACE, None, limit), versions[org]
            )
            asked = ScopeRead(tenant_id, namespace, user_id, limit)
            return (
                self.fact_rows_in(conn, asked, versions[own]),
                find_conflicts(conn, KnowledgeView(tenant_id, namespace, user_id), True),
                joined(shared, organisation) if organisation.ids else shared,
            )

        return await self._db.read(q, here=True)  # at most three times ``limit`` rows

    async def aliases_and_graph(
        self, view: KnowledgeView, names: Sequence[str], limit: int
    ) -> tuple[list[Alias], list[GraphEdge]]:
        tenant_id, namespace, user_id = view.tenant_id, view.namespace, view.user_id

        def q(conn: sqlite3.Connection) -> tuple[list[Alias], list[GraphEdge]]:
            aliases = find_aliases(conn, view, names)
            if not aliases:
                return aliases, []
            return aliases, self.graph_edges_in(
                conn, ScopeRead(tenant_id, namespace, user_id, limit)
            )

        return await self._db.read(q, here=True)  # by name; at most ``limit`` edges

    async def items_and_facts(
        self, tenant_id: str, item_ids: Sequence[str], fact_ids: Sequence[str]
    ) -> tuple[list[MemoryItem], list[Fact]]:
        if not item_ids and not fact_ids:
            return [], []
        return await self._db.read(
            lambda conn: (
                items_by_ids(conn, tenant_id, item_ids),
                rows_by_ids(conn, FACTS, tenant_id, fact_ids),
            ),
            here=True,  # by key
        )
