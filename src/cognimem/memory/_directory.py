"""``Memory``'s calls for browsing across records (a mixin, so ``memory/_facade.py`` keeps to
the write, read and record surface): a tenant's users with what each holds, and items
listed by scope, kind, tier, status, time and text. The work is
``services.directory``'s."""

from __future__ import annotations

from typing import Unpack

from cognimem.models import MemoryItem
from cognimem.models.browse_requests import ItemListKeywords
from cognimem.models.directory import TenantOverview
from cognimem.services.directory import DirectoryService


class DirectoryCalls:
    _directory: DirectoryService

    async def users(self, *, tenant_id: str = "default", limit: int = 100) -> TenantOverview:
        """The tenant's users (each namespace and user its raw events name), most
        recently active first, each with what it holds (``stats``' counts: events, items
        by status and kind, facts, entities, relations, open conflicts, sessions)."""
        return await self._directory.tenant(tenant_id=tenant_id, limit=limit)

    async def list_items(self, **options: Unpack[ItemListKeywords]) -> list[MemoryItem]:
        """The user's items (every user's with ``all_users``), newest first by
        ``occurred_at``, of any status unless ``statuses`` says, filtered by ``kinds``,
        ``tiers``, ``since``/``until`` (on ``occurred_at``, inclusive) and ``contains``
        (a piece of the text; ASCII letters match without regard to case) and
        ``external_id`` (the id a write gave its message, exactly). Unlike
        ``read``, nothing is ranked and nothing is recorded as used. With ``shared``,
        instead of the scope's own, the shared levels' items its reads reach: the
        organisation's (no user, no agent) and, with an ``agent_id``, that agent's (no
        user)."""
        return await self._directory.list_items(options)
