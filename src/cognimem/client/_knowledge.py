"""The SDK's knowledge calls (a mixin of ``AsyncMemoryClient``): facts, entities and
conflicts, as ``Memory.facts``, ``Memory.entities`` and ``Memory.conflicts``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from pydantic import TypeAdapter

from cognimem.client._wire import DEFAULT_TENANT, ClientCalls, check_tenant, parse, scope_body
from cognimem.errors import NotFound, UsageError
from cognimem.models.arguments import ScopeLike
from cognimem.models.knowledge import (
    Alias,
    AliasRemoval,
    Entity,
    EntityWithAliases,
    Fact,
    FactCategory,
    FactConflict,
)

_FACTS = TypeAdapter(list[Fact])
_CONFLICTS = TypeAdapter(list[FactConflict])
_ENTITIES = TypeAdapter(list[EntityWithAliases])


class KnowledgeClientCalls(ClientCalls):
    """Facts, entities and conflicts."""

    async def facts(
        self,
        *,
        key: str | Sequence[str] | None = None,
        categories: Sequence[FactCategory | str] | None = None,
        include_history: bool = False,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
        limit: int = 1_000,
    ) -> list[Fact]:
        """The user's facts, newest first (see :meth:`Memory.facts`). The HTTP API takes
        one ``key``: a sequence of more than one key is a ``UsageError``."""
        if key is not None and not isinstance(key, str):
            keys = list(key)
            if len(keys) > 1:
                raise UsageError(
                    "the HTTP API queries one fact key at a time: call facts() once per key"
                )
            key = keys[0] if keys else None
        body: dict[str, Any] = {
            "scope": scope_body(scope, all_users=all_users, user_id=user_id),
            "include_history": include_history,
            "limit": limit,
        }
        if key is not None:
            body["key"] = key
        if categories is not None:
            body["categories"] = list(categories)
        response = await self._call("POST", "/v1/facts/query", body)
        return parse(response, _FACTS.validate_python)

    async def get_fact(
        self,
        key: str,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> Fact:
        """The live fact under exactly ``key``; ``NotFound`` when there is none."""
        listed = await self.facts(key=key, scope=scope, user_id=user_id, all_users=all_users)
        found = [f for f in listed if f.key == key]
        if not found:
            raise NotFound("fact", key)
        return found[0]

    async def entities(
        self, *, scope: ScopeLike = None, user_id: str | None = None, all_users: bool = False
    ) -> list[tuple[Entity, list[Alias]]]:
        """The entities visible to the user, each with its aliases."""
        body = {"scope": scope_body(scope, all_users=all_users, user_id=user_id)}
        response = await self._call("POST", "/v1/entities/query", body)
        return [(e.entity, e.aliases) for e in parse(response, _ENTITIES.validate_python)]

    async def remove_alias(
        self,
        entity_id: str,
        alias: str,
        *,
        split: bool = False,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> AliasRemoval:
        """Undo a name merge (see :meth:`Memory.remove_alias`)."""
        body = {
            "alias": alias,
            "split": split,
            "scope": scope_body(scope, all_users=all_users, user_id=user_id),
        }
        path = f"/v1/entities/{quote(entity_id, safe='')}/aliases/remove"
        return await self._call_model(AliasRemoval, "POST", path, body)

    async def conflicts(
        self,
        *,
        open_only: bool = True,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> list[FactConflict]:
        """Contradictions between the user's facts."""
        body = {
            "scope": scope_body(scope, all_users=all_users, user_id=user_id),
            "open_only": open_only,
        }
        response = await self._call("POST", "/v1/conflicts/query", body)
        return parse(response, _CONFLICTS.validate_python)

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
