"""What every service of a ``Memory`` works with, held once and shared, and how it is
opened and closed."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from cognimem.config import EmbeddingSettings, Settings
from cognimem.domain.layer import Domains
from cognimem.errors import StoreUnavailable, UsageError
from cognimem.models.clock import Clock
from cognimem.providers.embeddings import (
    CachedEmbedder,
    Embedder,
    EmbeddingCacheBackend,
    load_local_model,
)
from cognimem.providers.factory import build_embedder
from cognimem.providers.llm import ChatLLM
from cognimem.providers.llm.factory import build_llm
from cognimem.queue import JobQueue, SqliteJobQueue, open_queue
from cognimem.services.access import AccessCounts
from cognimem.services.embedding_check import check_embedding_model
from cognimem.store import Store, open_store
from cognimem.store.sqlite import SQLiteStore

log = logging.getLogger(__name__)


@dataclass
class Components:
    """The store, embedder, settings, clock, job queue (on SQLite always, else with a
    queue URL), internal LLM and domain layer (with a mapping file) of one ``Memory``, and
    whether they are open: every service call checks that first."""

    store: Store
    embedder: Embedder
    settings: Settings
    clock: Clock
    queue: JobQueue | None
    llm: ChatLLM | None
    domains: Domains | None = None  # each tenant's domain database and ontology, if mapped
    opened: bool = False
    # reads' access counts, written off the read path; a service that shows or weighs
    # the counters (get, list_items, export, forgetting, promotion) flushes them first
    access: AccessCounts = field(init=False)

    def __post_init__(self) -> None:
        self.access = AccessCounts(self.store, self.settings.recall.access_flush_s)
        if self.settings.ingest.mode == "async" and self.queue is None:
            raise UsageError("async ingestion needs a job queue: pass queue= or use Memory.open")
        if (
            isinstance(self.store, SQLiteStore)
            and isinstance(self.queue, SqliteJobQueue)
            and self.queue.shares_file_with(self.store.path)
        ):
            # one file: a write's events and their job commit in one transaction
            self.store.hold_outbox(self.queue)

    def require_open(self) -> None:
        if not self.opened:
            raise UsageError(
                "Memory is not open: use `async with Memory.open(...)` or await start()"
            )

    def require_queue(self, missing: str) -> JobQueue:
        """The job queue of an open ``Memory``; a ``UsageError`` saying ``missing`` (what
        to configure) when there is none."""
        self.require_open()
        if self.queue is None:
            raise UsageError(missing)
        return self.queue

    async def open(self) -> None:
        """Connect the store (migrating it), check the embedding model against the
        database, load a local embedding model (so a read's first vector step does not
        load it under its timeout), connect the queue; a queue that cannot connect yet
        is logged, not fatal. Opening an open set does nothing."""
        if self.opened:
            return
        await self.store.open()
        try:
            await check_embedding_model(self.store, self.embedder)
            await load_local_model(self.embedder)
            if self.queue is not None:
                try:
                    await self.queue.open()
                except StoreUnavailable as exc:
                    # writes report it (fail or ingest now, as configured); the queue
                    # connects on its next use
                    log.warning("job queue unavailable at start: %s", exc.message)
            if self.domains is not None:  # a mapping that does not fit its database stops here
                await self.domains.open()
        except BaseException:
            if self.queue is not None:
                await self.queue.close()
            await self.store.close()
            raise
        self.opened = True

    async def close(self) -> None:
        """Write the pending access counts, then close everything, a shared embedding
        cache tier (Redis) included."""
        await self.access.close()
        await self.embedder.aclose()
        if self.llm is not None:
            await self.llm.aclose()
        shared = getattr(self.embedder, "backend", None)
        if shared is not None and shared is not self.store and hasattr(shared, "aclose"):
            await shared.aclose()  # a shared cache tier (Redis) owned by this Memory
        if self.queue is not None:
            await self.queue.close()
        if self.domains is not None:
            await self.domains.close()
        await self.store.close()
        self.opened = False


def configured_embedder(e: EmbeddingSettings, model: str | None = None) -> Embedder:
    """The embedder ``e`` configures, or with ``model`` (a spec), that model with the
    endpoint, key, timeouts and batch size ``e`` gives."""
    return build_embedder(
        model or e.model,
        base_url=e.base_url,
        api_key=e.api_key.get_secret_value() if e.api_key else None,
        timeout_s=e.timeout_s,
        max_retries=e.max_retries,
        batch_size=e.batch_size,
    )


def open_parts(
    url: str | None, settings: Settings, *, embedder: Embedder | None, llm: ChatLLM | None
) -> tuple[Store, Embedder, JobQueue | None, ChatLLM | None]:
    """The store (of ``url``, else ``settings.database_url``), the embedder behind its
    caches, the job queue (the SQLite outbox on SQLite, Redis with a queue URL) and the
    internal LLM that
    ``settings`` describe; an ``embedder`` or ``llm`` given is used instead of the
    configured one. Nothing is connected yet."""
    if llm is None:
        llm = build_llm(settings.llm)
    store = open_store(
        url or settings.database_url,
        cache_max_bytes=int(settings.cache_max_mb * (1 << 20)),
        vector_index_min_rows=settings.vector_index_min_rows or None,
        vector_index_retry_s=settings.vector_index_retry_s,
    )
    if embedder is None:
        embedder = configured_embedder(settings.embedding)
    backend: EmbeddingCacheBackend = store
    if settings.embedding.redis_url:
        from cognimem.providers.redis_cache import RedisEmbeddingCache

        backend = RedisEmbeddingCache(settings.embedding.redis_url, behind=store)
    cached = CachedEmbedder(embedder, backend, lru_size=settings.embedding.cache_size)
    queue = None
    # the embedded store always has its outbox: lifecycle jobs run on it
    if (
        settings.ingest.mode == "async"
        or settings.queue_url is not None
        or isinstance(store, SQLiteStore)
    ):
        sqlite_path = store.path if isinstance(store, SQLiteStore) else None
        queue = open_queue(
            settings.queue_url,
            sqlite_path=sqlite_path,
            visibility_timeout_s=settings.ingest.visibility_timeout_s,
            max_attempts=settings.ingest.max_attempts,
        )
    return store, cached, queue, llm
