"""While reads run, the cyclic collector's young generation waits longer
(``services/collector.py``); the process's thresholds are back once the last read ends,
also when reads overlap or one fails, and a collector turned off stays off."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from cognimem import Memory, Settings
from cognimem.errors import InvalidInput
from cognimem.providers.embeddings import EmbedKind
from cognimem.providers.fakes import HashingEmbedder
from cognimem.services import collector

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


class Watching(HashingEmbedder):
    """The hashing embedder, noting the collector's thresholds at each query embedding."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[int, int, int]] = []

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> Any:
        if kind == "query":
            self.seen.append(gc.get_threshold())
        return await super().embed(texts, kind)


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield (700, 10, 10)
    gc.set_threshold(*before)


async def test_overlapping_reads_raise_the_threshold_and_restore_it(
    memory_url: str, thresholds: tuple[int, int, int]
) -> None:
    embedder = Watching()
    async with Memory.open(memory_url, settings=Settings(), embedder=embedder) as memory:
        await memory.write("I cooked a noodle dish.", user_id="ada", occurred_at=T0)
        held, release = asyncio.Event(), asyncio.Event()

        async def hold(name: str, entries: list[Any]) -> None:
            if name == "mandates":  # streamed first, before the query is embedded
                held.set()
                await release.wait()

        first = asyncio.ensure_future(
            memory.read("What did I cook?", user_id="ada", on_section=hold)
        )
        await held.wait()
        assert gc.get_threshold() == (collector.READ_THRESHOLD, 10, 10)
        second = await memory.read("Which dish was it?", user_id="ada")
        assert gc.get_threshold()[0] == collector.READ_THRESHOLD  # the first still runs
        release.set()
        assert (await first).items
        assert second.items
        assert gc.get_threshold() == thresholds
        with pytest.raises(InvalidInput):
            await memory.read("", user_id="ada")
        assert gc.get_threshold() == thresholds
    assert embedder.seen == [(collector.READ_THRESHOLD, 10, 10)] * 2


def test_a_failed_read_restores_and_a_disabled_collector_stays_disabled(
    thresholds: tuple[int, int, int],
) -> None:
    def failing() -> None:
        with collector.reading():
            assert gc.get_threshold() == (collector.READ_THRESHOLD, 10, 10)
            raise RuntimeError

    with pytest.raises(RuntimeError):
        failing()
    assert gc.get_threshold() == thresholds
    gc.set_threshold(0, 10, 10)
    with collector.reading():
        assert gc.get_threshold() == (0, 10, 10)
    assert gc.get_threshold() == (0, 10, 10)
