"""Browsing what is stored: items and events by id, facts, entities, relations,
conflicts, the history of a record, and what a scope holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field, TypeAdapter

from cognimem.editing.edits import in_scope
from cognimem.errors import NotFound
from cognimem.models import Event, MemoryItem
from cognimem.models.admin import ScopeStats
from cognimem.models.arguments import (
    ScopeLike,
    check_ids,
    make_reach_scope,
    make_read_scope,
    make_scope,
    validated,
)
from cognimem.models.knowledge import (
    Alias,
    Entity,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.services.components import Components
from cognimem.store.types import FactQuery

# how many facts a listing returns unless told otherwise
DEFAULT_FACT_LIMIT = 1_000
# a listing's arguments, checked as the HTTP API checks them (the same messages)
_CATEGORIES = TypeAdapter(tuple[FactCategory, ...])
_FACT_LIMIT = TypeAdapter(Annotated[int, Field(ge=1, le=10_000)])


class BrowseService:
    """``Memory``'s lookups and listings (documented there)."""

    def __init__(self, parts: Components) -> None:
        self._parts = parts

    async def get(self, item_id: str, *, tenant_id: str, scope: ScopeLike = None) -> MemoryItem:
        self._parts.require_open()
        check_ids(item_id=item_id)
        within = None if scope is None else make_scope(scope, tenant_id=tenant_id)
        await self._parts.access.flush()  # its counters include the reads so far
        found = await self._parts.store.get_items(tenant_id, [item_id])
        if not found or (within is not None and not in_scope(found[0], within)):
            raise NotFound("memory", item_id)
        return found[0]

    async def get_events(self, event_ids: Sequence[str], *, tenant_id: str) -> list[Event]:
        self._parts.require_open()
        check_ids(event_ids=list(event_ids))
        return await self._parts.store.get_events(tenant_id, list(event_ids))

    async def facts(
        self,
        *,
        key: str | Sequence[str] | None,
        categories: Sequence[FactCategory | str] | None,
        include_history: bool,
        scope: ScopeLike,
        user_id: str | None,
        all_users: bool,
        limit: int,
    ) -> list[Fact]:
        self._parts.require_open()
        target, level = make_reach_scope(scope, all_users=all_users, user_id=user_id)
        keys = (key,) if isinstance(key, str) else (None if key is None else tuple(key))
        check_ids(key=key if key is None or isinstance(key, str) else list(key))
        cats = None if categories is None else validated(_CATEGORIES, categories, "categories")
        limit = validated(_FACT_LIMIT, limit, "limit")
        return await self._parts.store.find_facts(
            FactQuery(
                target.tenant_id,
                target.namespace,
                target.user_id,
                all_users=target.user_id is None and not level,
                keys=keys,
                statuses=None if include_history else (FactStatus.ACTIVE, FactStatus.AGING),
                categories=cats,
                limit=limit,
                agent_id=target.agent_id,
                level_only=level,
            )
        )

    async def get_fact(
        self, key: str, *, scope: ScopeLike, user_id: str | None, all_users: bool
    ) -> Fact:
        listed = await self.facts(
            key=key,
            categories=None,
            include_history=False,
            scope=scope,
            user_id=user_id,
            all_users=all_users,
            limit=DEFAULT_FACT_LIMIT,
        )
        found = [f for f in listed if f.key == key]
        if not found:
            raise NotFound("fact", key)
        return found[0]

    async def entities(
        self, *, scope: ScopeLike, user_id: str | None, all_users: bool
    ) -> list[tuple[Entity, list[Alias]]]:
        self._parts.require_open()
        target, level = make_reach_scope(scope, all_users=all_users, user_id=user_id)
        aliases = await self._parts.store.find_aliases(
            target.tenant_id,
            target.namespace,
            target.user_id,
            None,
            all_users=target.user_id is None and not level,
        )
        by_entity: dict[str, list[Alias]] = {}
        for a in aliases:
            by_entity.setdefault(a.entity_id, []).append(a)
        found = await self._parts.store.get_entities(target.tenant_id, list(by_entity))
        return [(e, by_entity[e.id]) for e in found]

    async def relations(
        self,
        entity_ids: Sequence[str],
        *,
        scope: ScopeLike,
        user_id: str | None,
        all_users: bool,
    ) -> list[Relation]:
        self._parts.require_open()
        target, level = make_reach_scope(scope, all_users=all_users, user_id=user_id)
        return await self._parts.store.find_relations(
            target.tenant_id,
            target.namespace,
            target.user_id,
            list(entity_ids),
            all_users=target.user_id is None and not level,
        )

    async def conflicts(
        self, *, open_only: bool, scope: ScopeLike, user_id: str | None, all_users: bool
    ) -> list[FactConflict]:
        self._parts.require_open()
        target, level = make_reach_scope(scope, all_users=all_users, user_id=user_id)
        return await self._parts.store.find_conflicts(
            target.tenant_id,
            target.namespace,
            target.user_id,
            open_only=open_only,
            all_users=target.user_id is None and not level,
        )

    async def history(self, target_id: str, *, tenant_id: str) -> list[HistoryEntry]:
        self._parts.require_open()
        check_ids(target_id=target_id)
        return await self._parts.store.get_history(tenant_id, target_id)

    async def stats(
        self,
        *,
        scope: ScopeLike,
        user_id: str | None,
        agent_id: str | None,
        session_id: str | None,
        all_users: bool,
    ) -> ScopeStats:
        self._parts.require_open()
        target = make_read_scope(
            scope,
            all_users=all_users,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
        )
        return await self._parts.store.scope_stats(target)
