"""``RecallFetchStore`` on PostgreSQL: two reads of one recall on one pooled
connection, one acquire instead of two."""

from __future__ import annotations

from collections.abc import Sequence

from cognimem.models import MemoryItem
from cognimem.models.knowledge import Alias, Fact, FactConflict
from cognimem.models.scope import ORGANISATION_NAMESPACE
from cognimem.store.arguments import KnowledgeView
from cognimem.store.postgres.database import PostgresDatabase, rows_by_ids
from cognimem.store.postgres.items import items_by_ids
from cognimem.store.postgres.knowledge import (
    FACTS,
    fact_rows,
    find_aliases,
    find_conflicts,
    graph_edges,
)
from cognimem.store.types import FactRows, GraphEdge, joined


class PostgresRecallFetch(PostgresDatabase):
    """``RecallFetchStore`` on PostgreSQL."""

    async def fact_rows_and_conflicts(
        self, tenant_id: str, namespace: str, user_id: str | None, limit: int
    ) -> tuple[FactRows, list[FactConflict]]:
        async with self._connection() as conn:
            found = await fact_rows(conn, tenant_id, namespace, user_id, limit, self._fact_rows)
            view = KnowledgeView(tenant_id, namespace, user_id)
            conflicts = await find_conflicts(conn, view, True)
        return found, conflicts

    async def fact_rows_conflicts_shared(
        self, tenant_id: str, namespace: str, user_id: str, limit: int
    ) -> tuple[FactRows, list[FactConflict], FactRows]:
        async with self._connection() as conn:
            found = await fact_rows(conn, tenant_id, namespace, user_id, limit, self._fact_rows)
            view = KnowledgeView(tenant_id, namespace, user_id)
            conflicts = await find_conflicts(conn, view, True)
            shared = await fact_rows(conn, tenant_id, namespace, None, limit, self._fact_rows)
            organisation = await fact_rows(
                conn, tenant_id, ORGANISATION_NAMESPACE, None, limit, self._fact_rows
            )
        return found, conflicts, joined(shared, organisation) if organisation.ids else shared

    async def aliases_and_graph(
        self, view: KnowledgeView, names: Sequence[str], limit: int
    ) -> tuple[list[Alias], list[GraphEdge]]:
        async with self._connection() as conn:
            aliases = await find_aliases(conn, view, names)
            if not aliases:
                return aliases, []
            tenant_id, namespace, user_id = view.tenant_id, view.namespace, view.user_id
            edges = await graph_edges(conn, tenant_id, namespace, user_id, limit, self._graphs)
            return aliases, edges

    async def items_and_facts(
        self, tenant_id: str, item_ids: Sequence[str], fact_ids: Sequence[str]
    ) -> tuple[list[MemoryItem], list[Fact]]:
        if not item_ids and not fact_ids:
            return [], []
        async with self._connection() as conn:
            items = await items_by_ids(conn, tenant_id, item_ids)
            facts = await rows_by_ids(conn, FACTS, tenant_id, fact_ids)
        return items, facts
