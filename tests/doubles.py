"""Test doubles shared by several test modules: an embedder that records its batches,
an in-memory embedding-cache backend that records its calls, and API keys for tests
of the HTTP API."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence

from cognimem.api.auth import issue_key
from cognimem.providers.embeddings import Embedder, EmbedKind, FloatMatrix, WrappingEmbedder
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store import Store, open_store
from tests.conftest import run_in_thread


class CountingEmbedder(WrappingEmbedder):
    """Wraps an embedder and records every batch it is asked to embed."""

    def __init__(self, inner: Embedder | None = None) -> None:
        super().__init__(inner or HashingEmbedder(dim=32))
        self.batches: list[list[str]] = []
        self.closed = False

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


async def new_api_key(store: Store, tenant_id: str = "default", **level: str) -> str:
    """The secret of a fresh API key of ``tenant_id`` in an open store (``level``:
    ``issue_key``'s level, user_id, agent_id)."""
    _, secret = await issue_key(store, tenant_id, **level)
    return secret


def issue_api_key(url: str, tenant_id: str = "default", **level: str) -> str:
    """The secret of a fresh API key of ``tenant_id`` in the database at ``url``, from
    sync fixture code (e.g. before a server on that database starts)."""

    async def go() -> str:
        store = open_store(url)
        await store.open()
        try:
            return await new_api_key(store, tenant_id, **level)
        finally:
            await store.close()

    return run_in_thread(go)


def api_key_from_cli(env: dict[str, str], tenant: str = "default") -> str:
    """The secret printed by ``cognimem keys create --tenant TENANT`` run as a user
    would, against the database ``env`` configures."""
    done = subprocess.run(
        [sys.executable, "-m", "cognimem", "keys", "create", "--tenant", tenant],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return next(
        line.removeprefix("secret: ")
        for line in done.stdout.splitlines()
        if line.startswith("secret: ")
    )
