"""What a person browses across records (the dashboard): the users of a tenant with
what each holds, and items listed by every field one filters on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from cognimem.errors import InvalidInput
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Tier
from cognimem.models.arguments import check_ids
from cognimem.models.browse_requests import ItemListArgs, ItemListKeywords
from cognimem.models.directory import ItemText, TenantOverview, UserOverview
from cognimem.models.requests import made
from cognimem.models.scope import Scope
from cognimem.services.components import Components
from cognimem.store.types import ItemFilter
from cognimem.text.validate import check_period

# the most users one overview lists, and the most items one listing returns
MAX_USERS = 1_000
MAX_ITEMS = 1_000

E = TypeVar("E", ItemKind, Tier, ItemStatus)


def _parse(values: Sequence[E | str] | None, kind: type[E], field: str) -> tuple[E, ...] | None:
    """``values`` as members of ``kind`` (None: any); an empty list or an unknown name
    is an ``InvalidInput`` naming ``field``."""
    if values is None:
        return None
    if not values:
        raise InvalidInput(f"{field}: name at least one, or leave it out for any", field=field)
    try:
        return tuple(kind(v) for v in values)
    except ValueError as exc:
        allowed = ", ".join(m.value for m in kind)
        raise InvalidInput(f"{field}: {exc} (one of {allowed})", field=field) from exc


class DirectoryService:
    """``Memory``'s tenant overview and item listing (documented there)."""

    def __init__(self, parts: Components) -> None:
        self._parts = parts

    async def tenant(self, *, tenant_id: str, limit: int) -> TenantOverview:
        self._parts.require_open()
        check_ids(tenant_id=tenant_id)
        if not 1 <= limit <= MAX_USERS:
            raise InvalidInput(f"limit must be between 1 and {MAX_USERS}", field="limit")
        store = self._parts.store
        users = []
        for found in await store.list_users(tenant_id, limit):
            scope = Scope(tenant_id=tenant_id, namespace=found.namespace, user_id=found.user_id)
            users.append(
                UserOverview(
                    namespace=found.namespace,
                    user_id=found.user_id,
                    last_event_at=found.last_event_at,
                    stats=await store.scope_stats(scope),
                )
            )
        levels = await store.list_levels(tenant_id, limit)
        return TenantOverview(tenant_id=tenant_id, users=users, levels=levels)

    async def list_items(self, options: ItemListKeywords) -> list[MemoryItem]:
        self._parts.require_open()
        args = made(ItemListArgs, options)
        target, contains, limit = args.scope, args.contains, args.limit
        since, until = args.since, args.until
        check_ids(contains=contains, external_id=args.external_id)
        if contains is not None and not contains.strip():
            # the schema's pattern: a filter of nothing is a mistake, not "no filter"
            raise InvalidInput(
                "contains is blank: leave it out to list every item", field="contains"
            )
        if not 1 <= limit <= MAX_ITEMS:
            raise InvalidInput(f"limit must be between 1 and {MAX_ITEMS}", field="limit")
        check_period(since, until)
        flt = ItemFilter(
            target,
            kinds=_parse(args.kinds, ItemKind, "kinds"),
            statuses=_parse(args.statuses, ItemStatus, "statuses") or tuple(ItemStatus),
            since=since,
            until=until,
            shared_only=args.shared,
        )
        text = ItemText(
            tiers=_parse(args.tiers, Tier, "tiers"), contains=contains, external_id=args.external_id
        )
        await self._parts.access.flush()  # the counters include the reads so far
        return await self._parts.store.list_items(flt, text, limit)
