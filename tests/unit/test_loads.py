"""A read's item and fact loads (``recall/loads.py``): asked for ahead, gathered once,
only the rest loaded at the end."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from cognimem.errors import StoreUnavailable
from cognimem.models import MemoryItem, Scope
from cognimem.models.knowledge import Fact
from cognimem.recall.loads import Loads

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def item(item_id: str) -> MemoryItem:
    return MemoryItem(
        id=item_id, scope=Scope(user_id="u"), text=item_id, occurred_at=T0, recorded_at=T0
    )


class Store:
    """Items ``i0``..``i9`` of tenant ``t``; no facts. Notes every call."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[list[str], list[str]]] = []
        self.fail = fail
        self.release = asyncio.Event()
        self.release.set()

    async def items_and_facts(
        self, tenant_id: str, item_ids: Sequence[str], fact_ids: Sequence[str]
    ) -> tuple[list[MemoryItem], list[Fact]]:
        self.calls.append((list(item_ids), list(fact_ids)))
        await self.release.wait()
        if self.fail:
            raise StoreUnavailable("the store is down", retry_after=1)
        known = {f"i{n}" for n in range(10)} if tenant_id == "t" else set()
        return [item(i) for i in item_ids if i in known], []


async def test_get_loads_only_what_was_not_asked_ahead_in_the_order_asked() -> None:
    store = Store()
    loads = Loads(store, "t")  # type: ignore[arg-type]
    loads.ahead(["i1", "i2", "i1"])
    loads.ahead(["i2", "i3"])  # i2 asked already
    items, facts = await loads.get(["i3", "missing", "i4", "i1"], [])
    assert [i.id for i in items] == ["i3", "i4", "i1"]  # no such item: left out
    assert facts == []
    assert store.calls == [(["i1", "i2"], []), (["i3"], []), (["missing", "i4"], [])]


async def test_what_was_loaded_once_is_not_loaded_again() -> None:
    store = Store()
    loads = Loads(store, "t")  # type: ignore[arg-type]
    loads.ahead(["i1"])
    first, _ = await loads.get(["i1"], [])
    loads.ahead([])
    again, _ = await loads.get(["i1", "i2"], [])
    assert [i.id for i in first] == ["i1"]
    assert [i.id for i in again] == ["i1", "i2"]
    assert store.calls == [(["i1"], []), (["i2"], [])]


async def test_a_failed_load_raises_from_get() -> None:
    loads = Loads(Store(fail=True), "t")  # type: ignore[arg-type]
    loads.ahead(["i1"])
    with pytest.raises(StoreUnavailable):
        await loads.get(["i1"], [])


async def test_close_cancels_loads_still_running() -> None:
    store = Store()
    store.release.clear()
    loads = Loads(store, "t")  # type: ignore[arg-type]
    loads.ahead(["i1"])
    await asyncio.sleep(0)  # the load started and waits
    task = loads._running[0]
    loads.close()
    await asyncio.sleep(0)
    assert task.cancelled()
