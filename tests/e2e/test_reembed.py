"""Changing the embedding model of a database: another model is refused at open, of any
dimension, and ``Memory.reembed`` moves every vector to the new model — reads keep the
old model until one transaction switches — on both backends."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import pytest

from cognimem import Memory, ProviderUnavailable, Settings, UsageError
from cognimem.models import Scope
from cognimem.providers.embeddings import Embedder, EmbedKind, FloatMatrix, WrappingEmbedder
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store import ItemFilter
from tests.doubles import CountingEmbedder

OLD = HashingEmbedder(dim=64)
NEW = HashingEmbedder(dim=64, salt="v2")  # another model of the same dimension
KEY = "the spare key is under the blue flowerpot"
SAID = [KEY, "my sister Ana lives in Lisbon", "I am allergic to shellfish"]


async def seed(url: str) -> None:
    async with Memory.open(url, embedder=OLD) as mem:
        for text in SAID:
            await mem.write(text, user_id="u")


async def similarity(mem: Memory, embedder: Embedder, text: str) -> float:
    """The cosine of ``text`` embedded by ``embedder`` to the item nearest it."""
    [vector] = await embedder.embed([text], "query")
    [best] = await mem.store.vector_search(ItemFilter(scope=Scope(user_id="u")), vector, 1)
    return best.score


class Meanwhile(WrappingEmbedder):
    """``NEW`` that runs ``step`` before each batch it embeds, or fails at batch
    ``fail_at`` (a run stopped midway)."""

    def __init__(
        self, step: Callable[[], Awaitable[None]] | None = None, fail_at: int | None = None
    ) -> None:
        super().__init__(NEW)
        self.step = step
        self.fail_at = fail_at
        self.batches = 0
        self.embedded: set[str] = set()

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        self.batches += 1
        if self.batches == self.fail_at:
            raise ProviderUnavailable("stopped midway", provider="test", model=NEW.model_id)
        if self.step is not None:
            await self.step()
        self.embedded.update(texts)
        return await self.inner.embed(texts, kind)


async def test_another_model_of_the_same_dimension_is_refused_and_mixes_nothing(
    memory_url: str,
) -> None:
    await seed(memory_url)
    with pytest.raises(UsageError) as refused:
        async with Memory.open(memory_url, embedder=NEW) as mem:
            await mem.write("my sister Ana lives in Porto", user_id="u")
    # the message names both ways out: the database's model, or re-embedding it
    assert "set COGNIMEM_EMBEDDING__MODEL to 'hashing:64'" in refused.value.message
    assert "cognimem reembed --model hashing:64:v2" in refused.value.message
    async with Memory.open(memory_url, embedder=OLD) as mem:
        items = await mem.list_items(user_id="u")
        assert {i.embedding_model for i in items} == {"hashing:64"}


async def test_reembed_moves_every_vector_to_the_new_model(memory_url: str) -> None:
    await seed(memory_url)
    result = await Memory.reembed(memory_url, embedder=HashingEmbedder(dim=64, salt="v2"))
    async with Memory.open(memory_url, embedder=NEW) as mem:
        items = await mem.list_items(user_id="u")
        facts = await mem.facts(user_id="u")
        assert facts, "the seed states facts: their vectors move too"
        assert {i.embedding_model for i in items} == {NEW.model_id}
        assert {f.embedding_model for f in facts} == {NEW.model_id}
        # the stored vectors are the new model's: its query finds the text exactly
        assert await similarity(mem, NEW, KEY) == pytest.approx(1.0, abs=1e-5)
        packet = await mem.read("where is the spare key?", user_id="u")
        assert KEY in packet.items[0].text
    assert (result.model, result.previous_model, result.dimension) == (
        NEW.model_id,
        OLD.model_id,
        64,
    )
    assert result.items == len(items)
    assert result.facts >= len(facts)
    with pytest.raises(UsageError, match="hashing:64:v2"):
        async with Memory.open(memory_url, embedder=OLD):
            pass


async def test_reads_and_writes_keep_the_old_model_until_the_switch(memory_url: str) -> None:
    await seed(memory_url)
    seen: list[float] = []
    async with Memory.open(memory_url, embedder=OLD) as old:

        async def read_and_write() -> None:
            # a process still on the old model, while the new vectors are being made
            seen.append(await similarity(old, OLD, KEY))
            if len(seen) <= 2:  # while the items' and the facts' vectors are made
                await old.write(f"note number {len(seen)} about the garden shed", user_id="u")

        result = await Memory.reembed(memory_url, embedder=Meanwhile(read_and_write))
    assert len(seen) >= 2
    assert all(s == pytest.approx(1.0, abs=1e-5) for s in seen)
    async with Memory.open(memory_url, embedder=NEW) as mem:
        items = await mem.list_items(user_id="u")
        # what was written meanwhile was switched too: no vector of the old model is left
        assert len(items) == len(SAID) + 2
        assert {i.embedding_model for i in items} == {NEW.model_id}
        assert result.items == len(items)
        assert await similarity(mem, NEW, "note number 1 about the garden shed") == (
            pytest.approx(1.0, abs=1e-5)
        )


async def test_a_run_stopped_midway_changes_nothing_and_the_next_one_finishes_it(
    memory_url: str,
) -> None:
    await seed(memory_url)
    stopped = Meanwhile(fail_at=2)
    two_a_batch = Settings(embedding={"batch_size": 2})
    with pytest.raises(ProviderUnavailable):
        await Memory.reembed(memory_url, embedder=stopped, settings=two_a_batch)
    async with Memory.open(memory_url, embedder=OLD) as mem:  # still the old model's
        assert {i.embedding_model for i in await mem.list_items(user_id="u")} == {OLD.model_id}
        assert await similarity(mem, OLD, KEY) == pytest.approx(1.0, abs=1e-5)
    resumed = CountingEmbedder(NEW)
    await Memory.reembed(memory_url, embedder=resumed, settings=two_a_batch)
    embedded = {text for batch in resumed.batches for text in batch}
    # the vectors made before the stop were kept: only the rest are made now
    assert len(stopped.embedded) == 2
    assert embedded
    assert embedded.isdisjoint(stopped.embedded)
    again = CountingEmbedder(NEW)
    await Memory.reembed(memory_url, embedder=again)
    assert again.batches == []  # a run after a finished one embeds nothing
    async with Memory.open(memory_url, embedder=NEW) as mem:
        assert await similarity(mem, NEW, KEY) == pytest.approx(1.0, abs=1e-5)


async def test_reembed_moves_a_database_to_a_model_of_another_dimension(
    memory_url: str,
) -> None:
    await seed(memory_url)
    smaller = HashingEmbedder(dim=32)
    with pytest.raises(UsageError, match="cognimem reembed --model hashing:32"):
        async with Memory.open(memory_url, embedder=smaller):
            pass
    await Memory.reembed(memory_url, model="hashing:32")
    async with Memory.open(memory_url, embedder=smaller) as mem:
        assert await similarity(mem, smaller, KEY) == pytest.approx(1.0, abs=1e-5)
        # a write after the switch lands beside the switched vectors
        bike = "my bike is parked behind the library"
        await mem.write(bike, user_id="u")
        assert await similarity(mem, smaller, bike) == pytest.approx(1.0, abs=1e-5)
