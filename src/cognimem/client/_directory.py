"""The SDK's browsing calls (a mixin of ``AsyncMemoryClient``): the tenant's users, items
listed by scope and field, and raw events by id, as ``Memory.users``,
``Memory.list_items`` and ``Memory.get_events``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from cognimem.client._wire import DEFAULT_TENANT, ClientCalls, check_tenant, parse, scope_body
from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, Tier
from cognimem.models.arguments import ScopeLike
from cognimem.models.directory import TenantOverview

_ITEMS = TypeAdapter(list[MemoryItem])
_EVENTS = TypeAdapter(list[Event])


class DirectoryClientCalls(ClientCalls):
    """Users, item listings and raw events."""

    async def users(self, *, tenant_id: str = DEFAULT_TENANT, limit: int = 100) -> TenantOverview:
        """The caller's tenant and its users, most recently active first (see
        :meth:`Memory.users`); over HTTP the tenant is the API key's."""
        check_tenant(tenant_id)
        return await self._call_model(TenantOverview, "POST", "/v1/users/query", {"limit": limit})

    async def list_items(
        self,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
        kinds: Sequence[ItemKind | str] | None = None,
        tiers: Sequence[Tier | str] | None = None,
        statuses: Sequence[ItemStatus | str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        contains: str | None = None,
        external_id: str | None = None,
        limit: int = 100,
        shared: bool = False,
    ) -> list[MemoryItem]:
        """The user's items newest first, filtered (see :meth:`Memory.list_items`)."""
        options: dict[str, Any] = {
            "kinds": None if kinds is None else list(kinds),
            "tiers": None if tiers is None else list(tiers),
            "statuses": None if statuses is None else list(statuses),
            "since": since,
            "until": until,
            "contains": contains,
            "external_id": external_id,
            "shared": shared or None,
        }
        body = {
            "scope": scope_body(scope, all_users=all_users, user_id=user_id),
            "limit": limit,
            **{k: v for k, v in options.items() if v is not None},
        }
        response = await self._call("POST", "/v1/memory/query", body)
        return parse(response, _ITEMS.validate_python)

    async def get_events(
        self, event_ids: Sequence[str], *, tenant_id: str = DEFAULT_TENANT
    ) -> list[Event]:
        """The raw events of these ids that exist, in the order asked."""
        check_tenant(tenant_id)
        if not event_ids:
            return []
        response = await self._call("POST", "/v1/events/query", {"ids": list(event_ids)})
        return parse(response, _EVENTS.validate_python)
