"""The ``Memory`` facade: the whole system behind one async object (and ``SyncMemory``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Self

from pydantic import ValidationError

from cognimem.blocking import BlockingFacade
from cognimem.config import Settings
from cognimem.errors import InvalidInput, NotFound, StoreUnavailable, UsageError
from cognimem.ingest import WriteFunnel
from cognimem.ingest.extract.llm import LLMExtractor
from cognimem.ingest.funnel import INGEST_JOB
from cognimem.ingest.profiles import DEFAULT_PROFILE, IngestProfile
from cognimem.ingest.validate import check_text, check_time
from cognimem.models import (
    ContextPacket,
    Event,
    ItemKind,
    MemoryItem,
    Message,
    Role,
    Scope,
    WriteResult,
)
from cognimem.models.clock import Clock, utc_now
from cognimem.models.knowledge import (
    Alias,
    Entity,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.providers.embeddings import (
    CachedEmbedder,
    Embedder,
    EmbeddingCacheBackend,
    build_embedder,
)
from cognimem.providers.llm import ChatLLM, build_llm
from cognimem.providers.tokens import count_tokens
from cognimem.queue import Job, JobQueue, open_queue
from cognimem.recall import Reader, get_preset
from cognimem.recall.analyze import zone_of
from cognimem.recall.classify import LLMQueryClassifier
from cognimem.store import Store, open_store
from cognimem.store.base import FactQuery
from cognimem.store.sqlite import SQLiteStore

log = logging.getLogger(__name__)

ScopeLike = Scope | Mapping[str, Any] | None


def make_scope(scope: ScopeLike = None, **fields: str | None) -> Scope:
    """A ``Scope`` from a Scope, a mapping and/or keyword fields; bad fields → InvalidInput."""
    data: dict[str, Any] = {}
    if isinstance(scope, Scope):
        data = scope.model_dump()
    elif scope is not None:
        data = dict(scope)
    data.update({k: v for k, v in fields.items() if v is not None})
    try:
        return Scope.model_validate(data)
    except ValidationError as exc:
        raise _invalid(exc, "scope") from exc


def make_message(value: Message | Mapping[str, Any] | str, field: str = "message") -> Message:
    if isinstance(value, Message):
        return value
    if isinstance(value, str):
        value = {"content": value}
    try:
        return Message.model_validate(value)
    except ValidationError as exc:
        raise _invalid(exc, field) from exc


def _invalid(exc: ValidationError, prefix: str) -> InvalidInput:
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    field = f"{prefix}.{loc}" if loc else prefix
    return InvalidInput(f"{field}: {first['msg']}", field=field)


class Memory:
    """cognimem's engine. Open it with :meth:`open` and use it as an async context manager::

    async with Memory.open("sqlite:///memory.db") as mem:
        await mem.write("I'm allergic to shellfish", user_id="u1")
        packet = await mem.read("what should I cook?", user_id="u1")
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: Settings | None = None,
        *,
        clock: Clock = utc_now,
        queue: JobQueue | None = None,
        llm: ChatLLM | None = None,
    ) -> None:
        self.settings = settings or Settings()
        if self.settings.ingest.mode == "async" and queue is None:
            raise UsageError("async ingestion needs a job queue: pass queue= or use Memory.open")
        self.store = store
        self.embedder = embedder
        self.queue = queue
        self.llm = llm
        self._clock = clock
        self._funnel = WriteFunnel(
            store,
            embedder,
            self.settings.ingest,
            clock=clock,
            count_tokens=count_tokens,
            queue=queue,
            llm_extractor=None if llm is None else LLMExtractor(llm),
        )
        classifier = None
        if llm is not None and self.settings.recall.llm_classifier:
            classifier = LLMQueryClassifier(llm)
        self._reader = Reader(store, embedder, classifier=classifier)
        self._opened = False

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        clock: Clock = utc_now,
        llm: ChatLLM | None = None,
    ) -> Memory:
        """Build a Memory from a database URL and settings (read from the environment).

        The internal LLM comes from ``settings.llm`` unless ``llm`` is given; with none,
        rule-based extraction does the work."""
        settings = settings or Settings()
        if llm is None:
            llm = build_llm(settings.llm)
        store = open_store(url or settings.database_url)
        if embedder is None:
            e = settings.embedding
            embedder = build_embedder(
                e.model,
                base_url=e.base_url,
                api_key=e.api_key.get_secret_value() if e.api_key else None,
                timeout_s=e.timeout_s,
                max_retries=e.max_retries,
                batch_size=e.batch_size,
            )
        backend: EmbeddingCacheBackend = store
        if settings.embedding.redis_url:
            from cognimem.providers.redis_cache import RedisEmbeddingCache

            backend = RedisEmbeddingCache(settings.embedding.redis_url, behind=store)
        cached = CachedEmbedder(embedder, backend, lru_size=settings.embedding.cache_size)
        queue = None
        if settings.ingest.mode == "async" or settings.queue_url is not None:
            sqlite_path = store.path if isinstance(store, SQLiteStore) else None
            queue = open_queue(
                settings.queue_url,
                sqlite_path=sqlite_path,
                visibility_timeout_s=settings.ingest.visibility_timeout_s,
                max_attempts=settings.ingest.max_attempts,
            )
        return cls(store, cached, settings, clock=clock, queue=queue, llm=llm)

    async def start(self) -> None:
        """Connect, migrate and check the embedding model against the database."""
        if self._opened:
            return
        await self.store.open()
        try:
            await self._check_embedding_model()
            if self.queue is not None:
                try:
                    await self.queue.open()
                except StoreUnavailable as exc:
                    # writes report it (fail or ingest now, as configured); the queue
                    # connects on its next use
                    log.warning("job queue unavailable at start: %s", exc.message)
        except BaseException:
            await self.store.close()
            raise
        self._opened = True

    async def _check_embedding_model(self) -> None:
        model = self.embedder.model_id
        dim = await self.embedder.dimension()
        stored_model = await self.store.get_meta("embedding_model")
        stored_dim = await self.store.get_meta("embedding_dim")
        if stored_model is None:
            await self.store.set_meta("embedding_model", model)
            await self.store.set_meta("embedding_dim", str(dim))
            return
        if stored_dim is not None and int(stored_dim) != dim:
            raise UsageError(
                f"this database was built with embedding model {stored_model!r} "
                f"({stored_dim} dimensions) but {model!r} gives {dim}: set "
                f"COGNIMEM_EMBEDDING__MODEL to {stored_model!r} or use a new database"
            )
        if stored_model != model:
            log.warning(
                "embedding model changed from %s to %s with the same dimension (%d); "
                "vectors from both models now share one index",
                stored_model,
                model,
                dim,
            )

    async def aclose(self) -> None:
        await self.embedder.aclose()
        if self.llm is not None:
            await self.llm.aclose()
        shared = getattr(self.embedder, "backend", None)
        if shared is not None and shared is not self.store and hasattr(shared, "aclose"):
            await shared.aclose()  # a shared cache tier (Redis) owned by this Memory
        if self.queue is not None:
            await self.queue.close()
        await self.store.close()
        self._opened = False

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def _require_open(self) -> None:
        if not self._opened:
            raise UsageError(
                "Memory is not open: use `async with Memory.open(...)` or await start()"
            )

    # -- writes ----------------------------------------------------------------------
    async def write(
        self,
        content: str | Message | Mapping[str, Any],
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        role: Role | str | None = None,
        name: str | None = None,
        occurred_at: datetime | None = None,
        idempotency_key: str | None = None,
        external_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        profile: str | IngestProfile = DEFAULT_PROFILE,
    ) -> WriteResult:
        """Remember one message. Returns its event and item ids (the originals on a retry)
        and what it changed in the knowledge layers (facts, entities, conflicts)."""
        message = make_message(content)
        overrides = {
            "role": role,
            "name": name,
            "occurred_at": occurred_at,
            "idempotency_key": idempotency_key,
            "external_id": external_id,
            "metadata": dict(metadata) if metadata is not None else None,
        }
        updates = {k: v for k, v in overrides.items() if v is not None}
        if updates:
            message = make_message({**message.model_dump(), **updates})
        return await self.write_batch(
            [message],
            scope=scope,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
            profile=profile,
        )

    async def write_batch(
        self,
        messages: Sequence[Message | Mapping[str, Any] | str],
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        profile: str | IngestProfile = DEFAULT_PROFILE,
    ) -> WriteResult:
        """Remember many messages with one extraction call, one embedding batch and one
        transaction. ``profile`` (chat, document, mandate, guardrail, tool_discovery,
        tool_gotcha, learning) sets the item kind, tier, dedupe window and extraction."""
        self._require_open()
        target = make_scope(scope, user_id=user_id, agent_id=agent_id, session_id=session_id)
        parsed = [make_message(m, f"messages[{i}]") for i, m in enumerate(messages)]
        return await self._funnel.write(parsed, target, profile=profile)

    # -- reads -----------------------------------------------------------------------
    async def read(
        self,
        query: str,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        limit: int | None = None,
        max_tokens: int | None = None,
        preset: str | None = None,
        kinds: Sequence[ItemKind | str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        reference_time: datetime | None = None,
        timezone: str | None = None,
        explain: bool = False,
    ) -> ContextPacket:
        """The memories that matter for ``query``, best first, inside ``max_tokens``,
        with the relevant constraints and facts in the packet's sections. A query that
        names a period ("last week") reads that period, resolved against
        ``reference_time`` (default now) in the user's ``timezone`` (IANA name; UTC).
        ``explain=True`` adds, per returned and dropped candidate, each signal's value,
        the final score and the step that found it."""
        self._require_open()
        check_text(query, "query", self.settings.ingest.max_content_chars)
        target = make_scope(scope, user_id=user_id, agent_id=agent_id, session_id=session_id)
        r = self.settings.recall
        limit = r.default_limit if limit is None else limit
        max_tokens = r.default_max_tokens if max_tokens is None else max_tokens
        if not 1 <= limit <= 200:
            raise InvalidInput("limit must be between 1 and 200", field="limit")
        if max_tokens < 1:
            raise InvalidInput("max_tokens must be positive", field="max_tokens")
        for field, value in (
            ("since", since),
            ("until", until),
            ("reference_time", reference_time),
        ):
            check_time(value, field)
        try:
            kind_filter = None if kinds is None else tuple(ItemKind(k) for k in kinds)
        except ValueError as exc:
            raise InvalidInput(f"kinds: {exc}", field="kinds") from exc
        zone_of(timezone)  # an unknown zone is an InvalidInput naming the field
        config = get_preset(preset or r.preset)
        now = self._clock()
        packet = await self._reader.read(
            query,
            target,
            config=config,
            limit=limit,
            max_tokens=max_tokens,
            reference_time=reference_time or now,
            kinds=kind_filter,
            since=since,
            until=until,
            timezone=timezone,
            explain=explain,
        )
        s = packet.sections
        loaded = [i.id for i in (*packet.items, *s.mandates, *s.summaries, *s.procedures)]
        await self.store.record_access(target.tenant_id, list(dict.fromkeys(loaded)), now)
        return packet

    async def get(self, item_id: str, *, tenant_id: str = "default") -> MemoryItem:
        self._require_open()
        found = await self.store.get_items(tenant_id, [item_id])
        if not found:
            raise NotFound("memory", item_id)
        return found[0]

    async def get_events(
        self, event_ids: Sequence[str], *, tenant_id: str = "default"
    ) -> list[Event]:
        self._require_open()
        return await self.store.get_events(tenant_id, list(event_ids))

    async def delete(self, item_id: str, *, tenant_id: str = "default") -> None:
        """Delete one memory item (its raw events stay in L1)."""
        self._require_open()
        if await self.store.delete_items(tenant_id, [item_id]) == 0:
            raise NotFound("memory", item_id)

    # -- knowledge -------------------------------------------------------------------
    async def facts(
        self,
        *,
        key: str | Sequence[str] | None = None,
        categories: Sequence[FactCategory | str] | None = None,
        include_history: bool = False,
        scope: ScopeLike = None,
        user_id: str | None = None,
        limit: int = 1_000,
    ) -> list[Fact]:
        """The user's facts, newest first: live ones (active, aging), or every version
        with ``include_history``. ``key`` matches exactly or as a prefix of multi-valued
        keys: ``user:preference:cuisine`` finds ``user:preference:cuisine:italian``."""
        self._require_open()
        target = make_scope(scope, user_id=user_id)
        keys = (key,) if isinstance(key, str) else (None if key is None else tuple(key))
        try:
            cats = None if categories is None else tuple(FactCategory(c) for c in categories)
        except ValueError as exc:
            raise InvalidInput(f"categories: {exc}", field="categories") from exc
        if not 1 <= limit <= 10_000:
            raise InvalidInput("limit must be between 1 and 10000", field="limit")
        return await self.store.find_facts(
            FactQuery(
                target.tenant_id,
                target.namespace,
                target.user_id,
                keys=keys,
                statuses=None if include_history else (FactStatus.ACTIVE, FactStatus.AGING),
                categories=cats,
                limit=limit,
            )
        )

    async def get_fact(
        self, key: str, *, scope: ScopeLike = None, user_id: str | None = None
    ) -> Fact:
        """The live fact under exactly ``key`` (the most recent if a conflict left two)."""
        found = [f for f in await self.facts(key=key, scope=scope, user_id=user_id) if f.key == key]
        if not found:
            raise NotFound("fact", key)
        return found[0]

    async def entities(
        self, *, scope: ScopeLike = None, user_id: str | None = None
    ) -> list[tuple[Entity, list[Alias]]]:
        """The entities visible to the user, each with its aliases."""
        self._require_open()
        target = make_scope(scope, user_id=user_id)
        aliases = await self.store.find_aliases(
            target.tenant_id, target.namespace, target.user_id, None
        )
        by_entity: dict[str, list[Alias]] = {}
        for a in aliases:
            by_entity.setdefault(a.entity_id, []).append(a)
        found = await self.store.get_entities(target.tenant_id, list(by_entity))
        return [(e, by_entity[e.id]) for e in found]

    async def relations(
        self, entity_ids: Sequence[str], *, scope: ScopeLike = None, user_id: str | None = None
    ) -> list[Relation]:
        """The active graph edges touching any of ``entity_ids``."""
        self._require_open()
        target = make_scope(scope, user_id=user_id)
        return await self.store.find_relations(
            target.tenant_id, target.namespace, target.user_id, list(entity_ids)
        )

    async def conflicts(
        self, *, open_only: bool = True, scope: ScopeLike = None, user_id: str | None = None
    ) -> list[FactConflict]:
        self._require_open()
        target = make_scope(scope, user_id=user_id)
        return await self.store.find_conflicts(
            target.tenant_id, target.namespace, target.user_id, open_only=open_only
        )

    async def history(self, target_id: str, *, tenant_id: str = "default") -> list[HistoryEntry]:
        """Every recorded change to an item or a fact, oldest first."""
        self._require_open()
        return await self.store.get_history(tenant_id, target_id)

    # -- async ingestion -------------------------------------------------------------
    def _require_queue(self) -> JobQueue:
        self._require_open()
        if self.queue is None:
            raise UsageError(
                "no job queue is configured: set COGNIMEM_INGEST__MODE=async "
                "(and COGNIMEM_QUEUE_URL for Redis)"
            )
        return self.queue

    async def get_job(self, job_id: str, *, tenant_id: str = "default") -> Job:
        """The state of an ingestion job (queued / running / done / failed)."""
        return await self._require_queue().get(tenant_id, job_id)

    async def process_next_job(self, worker: str, *, block_s: float = 0.0) -> Job | None:
        """Claim one job, run it, acknowledge it; ``None`` when the queue is empty.

        A job that raises is returned to the queue (retried until its attempts run out,
        then dead-lettered) and the error is logged and recorded on the job.
        """
        queue = self._require_queue()
        delivery = await queue.claim(worker, block_s=block_s)
        if delivery is None:
            return None
        job = delivery.job
        try:
            if job.kind != INGEST_JOB:
                raise InvalidInput(f"unknown job kind {job.kind!r}", field="kind")
            done = await self._funnel.process(job.tenant_id, job.payload)
        except InvalidInput as exc:
            log.error("job %s is malformed and will not be retried: %s", job.id, exc.message)
            await queue.fail(delivery, f"{exc.type}: {exc.message}", retry=False)
        except Exception as exc:
            log.exception("job %s failed (attempt %d)", job.id, job.attempts)
            await queue.fail(delivery, f"{type(exc).__name__}: {exc}", retry=True)
        else:
            await queue.ack(delivery, "; ".join(done.degraded) or None)
        return await queue.get(job.tenant_id, job.id)

    async def run_worker(self, worker: str, *, stop: asyncio.Event, poll_s: float = 1.0) -> int:
        """Process jobs until ``stop`` is set; returns how many jobs were handled."""
        handled = 0
        while not stop.is_set():
            if await self.process_next_job(worker, block_s=poll_s) is not None:
                handled += 1
        return handled


class SyncMemory(BlockingFacade):
    """Blocking wrapper around :class:`Memory` for scripts and notebooks."""

    def __init__(self, memory: Memory) -> None:
        super().__init__(memory)
        self._memory = memory
        self._run(memory.start())

    @classmethod
    def open(cls, url: str | None = None, **kwargs: Any) -> SyncMemory:
        return cls(Memory.open(url, **kwargs))

    def conflicts(self, **kwargs: Any) -> list[FactConflict]:
        return self._run(self._memory.conflicts(**kwargs))

    def history(self, target_id: str, **kwargs: Any) -> list[HistoryEntry]:
        return self._run(self._memory.history(target_id, **kwargs))

    def get(self, item_id: str, **kwargs: Any) -> MemoryItem:
        return self._run(self._memory.get(item_id, **kwargs))

    def delete(self, item_id: str, **kwargs: Any) -> None:
        self._run(self._memory.delete(item_id, **kwargs))
