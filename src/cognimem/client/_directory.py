"""The SDK's browsing calls (a mixin of ``AsyncMemoryClient``): the tenant's users, items
listed by scope and field, and raw events by id, as ``Memory.users``,
``Memory.list_items`` and ``Memory.get_events``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from cognimem.client._wire import (
    DEFAULT_TENANT,
    ClientCalls,
    check_tenant,
    options_body,
    parse_list,
)
from cognimem.models import Event, MemoryItem
from cognimem.models.browse_requests import ItemListKeywords
from cognimem.models.directory import TenantOverview


class DirectoryClientCalls(ClientCalls):
    """Users, item listings and raw events."""

    async def users(self, *, tenant_id: str = DEFAULT_TENANT, limit: int = 100) -> TenantOverview:
        """The caller's tenant and its users, most recently active first (see
        :meth:`Memory.users`); over HTTP the tenant is the API key's."""
        check_tenant(tenant_id)
        return await self._call_model(TenantOverview, "POST", "/v1/users/query", {"limit": limit})

    async def list_items(self, **options: Unpack[ItemListKeywords]) -> list[MemoryItem]:
        """The user's items newest first, filtered (see :meth:`Memory.list_items`)."""
        response = await self._call(
            "POST", "/v1/memory/query", options_body(options, ItemListKeywords)
        )
        return parse_list(response, MemoryItem)

    async def get_events(
        self, event_ids: Sequence[str], *, tenant_id: str = DEFAULT_TENANT
    ) -> list[Event]:
        """The raw events of these ids that exist, in the order asked."""
        check_tenant(tenant_id)
        if not event_ids:
            return []
        response = await self._call("POST", "/v1/events/query", {"ids": list(event_ids)})
        return parse_list(response, Event)
