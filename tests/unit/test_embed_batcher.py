"""QueryBatcher: queries that arrive while one is being embedded go together in the next
call; a lone query goes at once; every caller gets the rows of its own texts."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np
import pytest

from cognimem.errors import ProviderUnavailable
from cognimem.providers import HashingEmbedder
from cognimem.providers.embed_batcher import QueryBatcher
from cognimem.providers.embeddings import EmbedKind, FloatMatrix
from tests.doubles import CountingEmbedder


class HeldEmbedder(CountingEmbedder):
    """Records every call; a call waits until ``release`` is set (the first is held so
    that others arrive while it is in flight)."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__(HashingEmbedder(dim=32))
        self.release = asyncio.Event()
        self.fail = fail
        self.kinds: list[EmbedKind] = []

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        self.batches.append(list(texts))
        self.kinds.append(kind)
        await self.release.wait()
        if self.fail:
            raise ProviderUnavailable("the model is down", provider="test", model="held")
        return await self.inner.embed(texts, kind)


async def started(task: asyncio.Task[FloatMatrix], inner: HeldEmbedder, calls: int) -> None:
    """Let the event loop run until ``inner`` has been called ``calls`` times."""
    while len(inner.batches) < calls:
        assert not task.done()
        await asyncio.sleep(0)


async def alone(text: str) -> FloatMatrix:
    return (await HashingEmbedder(dim=32).embed([text], "query"))[0]


async def test_a_lone_query_goes_to_the_embedder_at_once() -> None:
    inner = HeldEmbedder()
    batcher = QueryBatcher(inner)
    task = asyncio.create_task(batcher.embed(["where do I live?"], "query"))
    await started(task, inner, 1)
    assert inner.batches == [["where do I live?"]]
    inner.release.set()
    rows = await task
    assert np.array_equal(rows[0], await alone("where do I live?"))


async def test_queries_arriving_during_a_call_go_together_in_the_next() -> None:
    inner = HeldEmbedder()
    batcher = QueryBatcher(inner)
    first = asyncio.create_task(batcher.embed(["what pet do I have?"], "query"))
    await started(first, inner, 1)
    texts = ["where do I work?", "when is my birthday?", "who is my sister?"]
    later = [asyncio.create_task(batcher.embed([t], "query")) for t in texts]
    await asyncio.sleep(0)
    assert len(inner.batches) == 1  # they wait for the call in flight
    inner.release.set()
    rows = await asyncio.gather(first, *later)
    assert inner.batches == [["what pet do I have?"], texts]
    assert inner.kinds == ["query", "query"]
    for text, got in zip(["what pet do I have?", *texts], rows, strict=True):
        assert got.shape == (1, 32)
        assert np.array_equal(got[0], await alone(text))


async def test_a_call_of_several_texts_gets_its_own_rows_in_order() -> None:
    inner = HeldEmbedder()
    batcher = QueryBatcher(inner)
    first = asyncio.create_task(batcher.embed(["one"], "query"))
    await started(first, inner, 1)
    two = asyncio.create_task(batcher.embed(["red apples", "green pears"], "query"))
    three = asyncio.create_task(batcher.embed(["blue sky"], "query"))
    await asyncio.sleep(0)
    inner.release.set()
    _, rows_two, rows_three = await asyncio.gather(first, two, three)
    assert inner.batches[1] == ["red apples", "green pears", "blue sky"]
    assert np.array_equal(rows_two[0], await alone("red apples"))
    assert np.array_equal(rows_two[1], await alone("green pears"))
    assert np.array_equal(rows_three[0], await alone("blue sky"))


async def test_at_most_max_texts_go_in_one_call() -> None:
    inner = HeldEmbedder()
    batcher = QueryBatcher(inner, max_texts=2)
    first = asyncio.create_task(batcher.embed(["q0"], "query"))
    await started(first, inner, 1)
    later = [asyncio.create_task(batcher.embed([f"q{n}"], "query")) for n in range(1, 6)]
    await asyncio.sleep(0)
    inner.release.set()
    await asyncio.gather(first, *later)
    assert inner.batches == [["q0"], ["q1", "q2"], ["q3", "q4"], ["q5"]]


async def test_a_failed_call_fails_every_query_it_carried() -> None:
    inner = HeldEmbedder(fail=True)
    batcher = QueryBatcher(inner)
    first = asyncio.create_task(batcher.embed(["a"], "query"))
    await started(first, inner, 1)
    later = [asyncio.create_task(batcher.embed([t], "query")) for t in ("b", "c")]
    await asyncio.sleep(0)
    inner.release.set()
    results = await asyncio.gather(first, *later, return_exceptions=True)
    assert all(isinstance(r, ProviderUnavailable) for r in results), results
    # nothing stays stuck: the next query goes at once
    inner.fail = False
    assert (await batcher.embed(["d"], "query")).shape == (1, 32)


async def test_a_query_whose_read_gave_up_is_not_embedded() -> None:
    inner = HeldEmbedder()
    batcher = QueryBatcher(inner)
    first = asyncio.create_task(batcher.embed(["a"], "query"))
    await started(first, inner, 1)
    gave_up = asyncio.create_task(batcher.embed(["b"], "query"))
    kept = asyncio.create_task(batcher.embed(["c"], "query"))
    await asyncio.sleep(0)
    gave_up.cancel()  # e.g. its read's step timed out
    inner.release.set()
    await asyncio.gather(first, kept)
    with pytest.raises(asyncio.CancelledError):
        await gave_up
    assert inner.batches == [["a"], ["c"]]


async def test_documents_are_not_held_back_or_batched() -> None:
    inner = HeldEmbedder()
    batcher = QueryBatcher(inner)
    query = asyncio.create_task(batcher.embed(["a question"], "query"))
    await started(query, inner, 1)
    document = asyncio.create_task(batcher.embed(["a message", "another"], "document"))
    await started(document, inner, 2)  # went to the embedder while the query was in flight
    inner.release.set()
    await asyncio.gather(query, document)
    assert inner.batches == [["a question"], ["a message", "another"]]
    assert inner.kinds == ["query", "document"]
    with pytest.raises(TypeError):
        await batcher.embed("one string", "query")  # type: ignore[arg-type]
