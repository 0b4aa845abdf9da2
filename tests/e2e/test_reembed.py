"""Changing the embedding model of a database: another model is refused at open, of any
dimension, on both backends."""

from __future__ import annotations

import pytest

from cognimem import Memory, UsageError
from cognimem.providers.fakes import HashingEmbedder

OLD = HashingEmbedder(dim=64)
NEW = HashingEmbedder(dim=64, salt="v2")  # another model of the same dimension


async def test_another_model_of_the_same_dimension_is_refused_and_mixes_nothing(
    memory_url: str,
) -> None:
    async with Memory.open(memory_url, embedder=OLD) as mem:
        await mem.write("the spare key is under the blue flowerpot", user_id="u")
    with pytest.raises(UsageError) as refused:
        async with Memory.open(memory_url, embedder=NEW) as mem:
            await mem.write("my sister Ana lives in Lisbon", user_id="u")
    # the message names the way out: the database's model
    assert "set COGNIMEM_EMBEDDING__MODEL to 'hashing:64'" in refused.value.message
    async with Memory.open(memory_url, embedder=OLD) as mem:
        items = await mem.list_items(user_id="u")
        assert [i.embedding_model for i in items] == ["hashing:64"]
