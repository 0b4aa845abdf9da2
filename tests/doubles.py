"""Test doubles shared by several test modules: an embedder that records its batches
and an in-memory embedding-cache backend that records its calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cognimem.providers.embeddings import Embedder, EmbedKind, FloatMatrix
from cognimem.providers.fakes import HashingEmbedder


class CountingEmbedder:
    """Wraps an embedder and records every batch it is asked to embed."""

    def __init__(self, inner: Embedder | None = None) -> None:
        self.inner = inner or HashingEmbedder(dim=32)
        self.batches: list[list[str]] = []
        self.closed = False

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    async def dimension(self) -> int:
        return await self.inner.dimension()

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        self.batches.append(list(texts))
        return await self.inner.embed(texts, kind)

    async def aclose(self) -> None:
        self.closed = True

    @property
    def embedded(self) -> list[str]:
        return [t for batch in self.batches for t in batch]


class DictBackend:
    """In-memory EmbeddingCacheBackend that records its calls."""

    def __init__(self) -> None:
        self.data: dict[tuple[str, str], FloatMatrix] = {}
        self.gets: list[list[str]] = []
        self.puts: list[dict[str, FloatMatrix]] = []

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, FloatMatrix]:
        self.gets.append(list(hashes))
        return {h: self.data[(model, h)] for h in hashes if (model, h) in self.data}

    async def put_embeddings(self, model: str, vectors: Mapping[str, FloatMatrix]) -> None:
        self.puts.append(dict(vectors))
        for h, v in vectors.items():
            self.data[(model, h)] = v
