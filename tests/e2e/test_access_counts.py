"""Access counts of what reads return are written in the background, in batches: all
of them, exactly once per read, within the window or on flush / close."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from cognimem import Memory, Settings
from cognimem.providers.fakes import HashingEmbedder
from cognimem.recall.access import AccessLog

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_every_read_is_counted_once_after_a_flush(memory: Memory) -> None:
    [item_id] = (await memory.write("I keep bees on the roof", user_id="u")).item_ids
    for _ in range(3):
        packet = await memory.read("bees on the roof", user_id="u")
        assert [i.id for i in packet.items] == [item_id]
    await memory.flush()
    item = await memory.get(item_id)
    assert (item.access_count, item.loaded_count) == (3, 3)
    assert item.last_accessed_at is not None


async def test_counts_are_written_within_the_window_without_a_flush(memory: Memory) -> None:
    [item_id] = (await memory.write("The spare key is under the blue pot", user_id="u")).item_ids
    await memory.read("spare key blue pot", user_id="u")
    deadline = asyncio.get_running_loop().time() + 5
    while (await memory.get(item_id)).access_count == 0:
        assert asyncio.get_running_loop().time() < deadline, "not written within 5 s"
        await asyncio.sleep(0.05)
    assert (await memory.get(item_id)).access_count == 1


async def test_close_writes_what_is_pending(db_url: str) -> None:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        [item_id] = (await memory.write("My bike is a green Brompton", user_id="u")).item_ids
        await memory.read("green Brompton bike", user_id="u")
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        assert (await memory.get(item_id)).access_count == 1


class FailingStore:
    def __init__(self) -> None:
        self.calls = 0

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        self.calls += 1
        raise RuntimeError("disk full")


async def test_a_failed_write_is_logged_and_the_next_window_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = FailingStore()
    access = AccessLog(store, interval_s=0.01)  # type: ignore[arg-type]
    access.note("t", ["a", "b"], T0)
    access.note("t", ["a"], T0)
    with caplog.at_level(logging.ERROR, logger="cognimem.recall.access"):
        await access.aclose()
    assert store.calls == 2  # "a" was read twice: two rounds
    assert [r.getMessage() for r in caplog.records] == [
        "access counts of 2 items of tenant t were not written",
        "access counts of 1 items of tenant t were not written",
    ]
    access.note("t", ["c"], T0)
    await access.aclose()
    assert store.calls == 3
