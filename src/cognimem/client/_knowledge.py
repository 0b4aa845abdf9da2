"""The SDK's knowledge calls (a mixin of ``AsyncMemoryClient``): facts, entities and
conflicts, as ``Memory.facts``, ``Memory.entities`` and ``Memory.conflicts``."""

from __future__ import annotations

from typing import Unpack
from urllib.parse import quote

from cognimem.client._wire import (
    DEFAULT_TENANT,
    ClientCalls,
    check_tenant,
    options_body,
    parse_list,
)
from cognimem.errors import NotFound, UsageError
from cognimem.models.knowledge import (
    Alias,
    AliasAddition,
    AliasRemoval,
    Entity,
    EntityWithAliases,
    Fact,
    FactConflict,
)
from cognimem.models.knowledge_requests import (
    AliasAdditionKeywords,
    AliasRemovalKeywords,
    ConflictsKeywords,
    FactsKeywords,
)
from cognimem.models.requests import UserScopeKeywords


class KnowledgeClientCalls(ClientCalls):
    """Facts, entities and conflicts: ``Memory``'s keywords
    (``models/knowledge_requests.py``), sent as the body's fields."""

    async def facts(self, **options: Unpack[FactsKeywords]) -> list[Fact]:
        """The user's facts, newest first (see :meth:`Memory.facts`). The HTTP API takes
        one ``key``: a sequence of more than one key is a ``UsageError``."""
        key = options.get("key")
        if key is not None and not isinstance(key, str):
            keys = list(key)
            if len(keys) > 1:
                raise UsageError(
                    "the HTTP API queries one fact key at a time: call facts() once per key"
                )
            options["key"] = keys[0] if keys else None
        response = await self._call("POST", "/v1/facts/query", options_body(options, FactsKeywords))
        return parse_list(response, Fact)

    async def get_fact(self, key: str, **options: Unpack[UserScopeKeywords]) -> Fact:
        """The live fact under exactly ``key``; ``NotFound`` when there is none."""
        listed = await self.facts(key=key, **options)
        found = [f for f in listed if f.key == key]
        if not found:
            raise NotFound("fact", key)
        return found[0]

    async def entities(
        self, **options: Unpack[UserScopeKeywords]
    ) -> list[tuple[Entity, list[Alias]]]:
        """The entities visible to the user, each with its aliases."""
        response = await self._call(
            "POST", "/v1/entities/query", options_body(options, UserScopeKeywords)
        )
        return [(e.entity, e.aliases) for e in parse_list(response, EntityWithAliases)]

    async def remove_alias(
        self, entity_id: str, alias: str, **options: Unpack[AliasRemovalKeywords]
    ) -> AliasRemoval:
        """Undo a name merge (see :meth:`Memory.remove_alias`)."""
        body = {"alias": alias, **options_body(options, AliasRemovalKeywords)}
        path = f"/v1/entities/{quote(entity_id, safe='')}/aliases/remove"
        return await self._call_model(AliasRemoval, "POST", path, body)

    async def add_alias(
        self, entity_id: str, alias: str, **options: Unpack[AliasAdditionKeywords]
    ) -> AliasAddition:
        """Give a name to an entity, merging back one split off it (see
        :meth:`Memory.add_alias`)."""
        body = {"alias": alias, **options_body(options, AliasAdditionKeywords)}
        path = f"/v1/entities/{quote(entity_id, safe='')}/aliases/add"
        return await self._call_model(AliasAddition, "POST", path, body)

    async def conflicts(self, **options: Unpack[ConflictsKeywords]) -> list[FactConflict]:
        """Contradictions between the user's facts."""
        response = await self._call(
            "POST", "/v1/conflicts/query", options_body(options, ConflictsKeywords)
        )
        return parse_list(response, FactConflict)

    async def resolve_conflict(
        self,
        conflict_id: str,
        *,
        winner_fact_id: str | None = None,
        note: str = "",
        tenant_id: str = DEFAULT_TENANT,
    ) -> FactConflict:
        """Close a conflict (see :meth:`Memory.resolve_conflict`)."""
        check_tenant(tenant_id)
        body = {"winner_fact_id": winner_fact_id, "note": note}
        path = f"/v1/conflicts/{quote(conflict_id, safe='')}/resolve"
        return await self._call_model(FactConflict, "POST", path, body)
