"""The ``EmbeddingStore`` role on every backend: the embedding cache."""

from __future__ import annotations

import numpy as np

from cognimem.store import Store
from tests.contract.conftest import vec


async def test_embedding_cache_round_trip(store: Store) -> None:
    vectors = {"h1": vec("one"), "h2": vec("two")}
    await store.put_embeddings("m", vectors)
    got = await store.get_embeddings("m", ["h1", "h2", "missing"])
    assert set(got) == {"h1", "h2"}
    assert np.allclose(got["h1"], vectors["h1"])
    assert await store.get_embeddings("other-model", ["h1"]) == {}


async def test_delete_embeddings_drops_every_model(store: Store) -> None:
    v = np.ones(4, dtype=np.float32) / 2
    await store.put_embeddings("m1", {"h1": v, "h2": v})
    await store.put_embeddings("m2", {"h1": v})
    assert await store.delete_embeddings(["h1", "h9"]) == 2
    assert await store.delete_embeddings([]) == 0
    assert list(await store.get_embeddings("m1", ["h1", "h2"])) == ["h2"]
