"""Browsing what is stored: items and events by id, facts, entities, relations,
conflicts, the history of a record, and what a scope holds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from cognimem.editing.edits import in_scope
from cognimem.errors import NotFound
from cognimem.models import Event, MemoryItem, Scope
from cognimem.models.admin import ScopeStats
from cognimem.models.arguments import (
    ScopeLike,
    check_ids,
    make_reach_scope,
    make_read_scope,
    make_scope,
    validated,
)
from cognimem.models.fact_changes import LIVE
from cognimem.models.knowledge import (
    Alias,
    Entity,
    Fact,
    FactCategory,
    FactConflict,
    HistoryEntry,
    Relation,
)
from cognimem.models.knowledge_requests import (
    ConflictsArgs,
    ConflictsKeywords,
    FactsArgs,
    FactsKeywords,
)
from cognimem.models.requests import ReadScopeKeywords, UserScopeKeywords, split_scope
from cognimem.services.components import Components
from cognimem.store.arguments import KnowledgeView
from cognimem.store.types import FactQuery

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
        if not found or (within is not None and not _within(found[0], within)):
            raise NotFound("memory", item_id)
        return found[0]

    async def get_events(self, event_ids: Sequence[str], *, tenant_id: str) -> list[Event]:
        self._parts.require_open()
        check_ids(event_ids=list(event_ids))
        return await self._parts.store.get_events(tenant_id, list(event_ids))

    async def facts(self, options: FactsKeywords) -> list[Fact]:
        self._parts.require_open()
        return await self._facts(options)

    async def _facts(self, options: Mapping[str, Any], **given: Any) -> list[Fact]:
        where, rest = split_scope(options)
        target, level = make_reach_scope(**where)
        args = FactsArgs(scope=target, **rest, **given)
        key = args.key
        keys = (key,) if isinstance(key, str) else (None if key is None else tuple(key))
        check_ids(key=key if key is None or isinstance(key, str) else list(key))
        cats = (
            None
            if args.categories is None
            else validated(_CATEGORIES, args.categories, "categories")
        )
        limit = validated(_FACT_LIMIT, args.limit, "limit")
        return await self._parts.store.find_facts(
            FactQuery(
                target.tenant_id,
                target.namespace,
                target.user_id,
                all_users=target.user_id is None and not level,
                keys=keys,
                statuses=None if args.include_history else LIVE,
                categories=cats,
                limit=limit,
                agent_id=target.agent_id,
                level_only=level,
            )
        )

    async def get_fact(self, key: str, options: UserScopeKeywords) -> Fact:
        self._parts.require_open()
        listed = await self._facts(options, key=key)
        found = [f for f in listed if f.key == key]
        if not found:
            raise NotFound("fact", key)
        return found[0]

    async def entities(self, options: UserScopeKeywords) -> list[tuple[Entity, list[Alias]]]:
        self._parts.require_open()
        target, level = make_reach_scope(**options)
        aliases = await self._parts.store.find_aliases(
            _view(target, level),
            None,
        )
        by_entity: dict[str, list[Alias]] = {}
        for a in aliases:
            by_entity.setdefault(a.entity_id, []).append(a)
        found = await self._parts.store.get_entities(target.tenant_id, list(by_entity))
        return [(e, by_entity[e.id]) for e in found]

    async def relations(
        self, entity_ids: Sequence[str], options: UserScopeKeywords
    ) -> list[Relation]:
        self._parts.require_open()
        target, level = make_reach_scope(**options)
        return await self._parts.store.find_relations(
            _view(target, level),
            list(entity_ids),
        )

    async def conflicts(self, options: ConflictsKeywords) -> list[FactConflict]:
        self._parts.require_open()
        where, rest = split_scope(options)
        target, level = make_reach_scope(**where)
        args = ConflictsArgs(scope=target, **rest)
        return await self._parts.store.find_conflicts(
            _view(target, level),
            open_only=args.open_only,
        )

    async def history(self, target_id: str, *, tenant_id: str) -> list[HistoryEntry]:
        self._parts.require_open()
        check_ids(target_id=target_id)
        return await self._parts.store.get_history(tenant_id, target_id)

    async def stats(self, options: ReadScopeKeywords) -> ScopeStats:
        self._parts.require_open()
        return await self._parts.store.scope_stats(make_read_scope(**options))


def _within(item: MemoryItem, scope: Scope) -> bool:
    """Whether ``item`` lies inside ``scope``: the organisation's, every namespace's,
    lies in a scope of any namespace that names no user, agent or session."""
    if item.scope.level == "organisation" and scope.namespace != item.scope.namespace:
        named = (scope.user_id, scope.agent_id, scope.session_id)
        return all(x is None for x in named)
    return in_scope(item, scope)


def _view(target: Scope, level: bool) -> KnowledgeView:
    """What a listing sees: the user's knowledge with the namespace's shared rows, every
    user's for a namespace-wide listing (no user), or a shared level's rows alone."""
    return KnowledgeView(
        target.tenant_id,
        target.namespace,
        target.user_id,
        all_users=target.user_id is None and not level,
    )
