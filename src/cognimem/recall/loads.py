"""The items and facts one read loads: some asked for ahead, the rest at the end.

A read's longest wait is the query's embedding, and the lexical step is done long
before it: the lexical step's best items are loaded meanwhile (``StepRun``), and the
assembly loads the items nobody asked for ahead with its facts. Only the lexical
step's: loading the vector steps' best, the sections' items and the picked facts as
soon as they were known put more decoding after the embedding than it saved (10k-item
reads: p50 +0.7 to +1.2 ms, CPU +2.5 ms).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence

from cognimem.models import MemoryItem
from cognimem.models.knowledge import Fact
from cognimem.store.roles import RecallFetchStore


class Loads:
    """One read's item and fact loads (see the module)."""

    def __init__(self, store: RecallFetchStore, tenant_id: str) -> None:
        self._store = store
        self._tenant = tenant_id
        self._asked: set[str] = set()
        self._running: list[asyncio.Task[tuple[list[MemoryItem], list[Fact]]]] = []
        self._items: dict[str, MemoryItem] = {}

    def ahead(self, item_ids: Iterable[str]) -> None:
        """Start loading these items (those not asked for yet); the read goes on."""
        items = [i for i in dict.fromkeys(item_ids) if i not in self._asked]
        if items:
            self._asked.update(items)
            self._running.append(
                asyncio.ensure_future(self._store.items_and_facts(self._tenant, items, []))
            )

    async def get(
        self, item_ids: Sequence[str], fact_ids: Sequence[str]
    ) -> tuple[list[MemoryItem], list[Fact]]:
        """The items (in the order asked; ids of no item of the tenant left out) and the
        facts: the items loaded ahead, and in one more store call the items nobody asked
        for ahead with the facts."""
        wanted = list(dict.fromkeys(item_ids))
        missing = [i for i in wanted if i not in self._asked]
        self._asked.update(missing)
        running, self._running = self._running, []
        for found, _ in await asyncio.gather(*running):
            self._items.update((i.id, i) for i in found)
        facts: list[Fact] = []
        if missing or fact_ids:
            found, facts = await self._store.items_and_facts(self._tenant, missing, fact_ids)
            self._items.update((i.id, i) for i in found)
        return [self._items[i] for i in wanted if i in self._items], facts

    def close(self) -> None:
        """Cancel the loads still running (a read that failed or timed out); a failure
        of one that ended is retrieved (the read already raised or reported it)."""
        for task in self._running:
            if not task.done():
                task.cancel()
            elif not task.cancelled():
                task.exception()
        self._running.clear()
