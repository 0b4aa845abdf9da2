"""What both backends' ``UsageStore`` share: the checks and the fan-out of the counting
calls, written once over the two writes each backend makes in its own SQL
(``_add_accesses``, ``_add_usage``), and the counters upsert (``counter_upsert``), each
backend binding its parameters in its own style."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime

from cognimem.store.records import check_accesses, check_counters
from cognimem.store.types import Access


def counter_upsert(
    ids: Sequence[str], counts: Mapping[str, int], *, values: str, where: str
) -> str | None:
    """The statement that adds ``counts`` (counter name → increment) to each of the
    tenant's items ``ids`` in ``item_usage`` (ids of other tenants, or of no item, are
    left out): the items ``where`` picks, each with the increments bound at ``values``
    (in ``counts``' order), upserted so that each increment adds to the stored count;
    None when there is nothing to add. A name that is not a counter is a ``ValueError``."""
    if not ids or not counts:
        return None
    check_counters(counts)
    columns = ", ".join(["item_id", "tenant_id", *counts])
    sets = ", ".join(f"{n} = item_usage.{n} + excluded.{n}" for n in counts)
    return (
        f"INSERT INTO item_usage ({columns})"
        f" SELECT id, tenant_id, {values}"
        f" FROM items WHERE {where}"
        f" ON CONFLICT (item_id) DO UPDATE SET {sets}"
    )


class UsageCounting(ABC):
    """``record_access``, ``record_accesses`` and ``record_usage`` of ``UsageStore``."""

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        await self.record_accesses([Access(tenant_id, i, 1, at) for i in dict.fromkeys(ids)])

    async def record_accesses(self, accesses: Sequence[Access]) -> None:
        check_accesses(accesses)
        if accesses:
            await self._add_accesses(accesses)

    async def record_usage(
        self, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
    ) -> None:
        check_counters(counts)
        if ids and counts:
            await self._add_usage(tenant_id, ids, counts)

    @abstractmethod
    async def _add_accesses(self, accesses: Sequence[Access]) -> None:
        """Write checked, non-empty ``accesses`` in one transaction."""

    @abstractmethod
    async def _add_usage(
        self, tenant_id: str, ids: Sequence[str], counts: Mapping[str, int]
    ) -> None:
        """Write checked, non-empty ``counts`` for ``ids``."""
