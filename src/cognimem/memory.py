"""The ``Memory`` facade: the whole system behind one async object (and ``SyncMemory``)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, Self, cast

import numpy as np
from pydantic import ValidationError

from cognimem.blocking import BlockingFacade
from cognimem.config import Settings
from cognimem.errors import (
    Conflict,
    InvalidInput,
    NotFound,
    StaleKnowledge,
    StoreUnavailable,
    UsageError,
)
from cognimem.ingest import WriteFunnel
from cognimem.ingest.extract.llm import LLMExtractor
from cognimem.ingest.funnel import index_text
from cognimem.ingest.gate import find_secrets, redact_pii
from cognimem.ingest.jobs import requeue_stranded
from cognimem.ingest.profiles import DEFAULT_PROFILE, IngestProfile
from cognimem.ingest.validate import check_message, check_metadata, check_text, check_time
from cognimem.lifecycle import conflicts, edits, transfer
from cognimem.lifecycle.edits import Feedback, ForgetMode
from cognimem.models import (
    ContextPacket,
    Event,
    ItemKind,
    ItemStatus,
    MemoryItem,
    Message,
    Role,
    Scope,
    Tier,
    Turn,
    WriteResult,
)
from cognimem.models.admin import (
    ErasureReport,
    ExportRecord,
    ForgetResult,
    ScopeStats,
    Session,
    SessionStatus,
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
from cognimem.models.text import check_storable
from cognimem.providers.embeddings import (
    CachedEmbedder,
    Embedder,
    EmbeddingCacheBackend,
    build_embedder,
    erase_embeddings,
    spec_of,
)
from cognimem.providers.llm import ChatLLM, build_llm
from cognimem.providers.tokens import count_tokens
from cognimem.queue import Job, JobQueue, SqliteJobQueue, open_queue
from cognimem.recall import Reader, RecallConfig, get_preset
from cognimem.recall.analyze import query_terms, zone_of
from cognimem.recall.classify import LLMQueryClassifier
from cognimem.recall.overrides import RankingOverrides, apply_ranking
from cognimem.store import Store, open_store, records
from cognimem.store.base import INGEST_JOB, FactQuery, ItemFilter
from cognimem.store.sqlite import SQLiteStore

log = logging.getLogger(__name__)

ScopeLike = Scope | Mapping[str, Any] | None


# a packet's largest token budget: beyond any model's context window
MAX_READ_TOKENS = 200_000
# an update is made again from the state a concurrent edit of the same memory left; each
# failed attempt means another edit committed, so this many concurrent editors always finish
_EDIT_ATTEMPTS = 20
# forget by query: what a read returns, scoring at least this share of the best memory,
# and sharing a word with the query or at least this similar to it
FORGET_FLOOR = 0.35
FORGET_MIN_SIMILARITY = 0.5


# why a read (forget, export, ...) without a user is refused, and what to do instead
USER_REQUIRED = "scope.user_id is required: pass all_users=true to span every user of the tenant"
ALL_USERS_WITH_USER = "scope.all_users spans every user of the tenant: leave scope.user_id out"
ALL_USERS_NOT_HERE = (
    "scope.all_users does not apply here: it widens a read (read, turn, forget, export,"
    " stats, facts, entities, relations, conflicts, sessions) to every user; a write"
    " without scope.user_id stores a memory of no user"
)


def make_scope(scope: ScopeLike = None, **fields: str | None) -> Scope:
    """A ``Scope`` from a Scope, a mapping and/or keyword fields; bad fields → InvalidInput."""
    data: dict[str, Any] = {}
    if isinstance(scope, Scope):
        data = scope.model_dump()
    elif scope is not None:
        data = dict(scope)
    if data.pop("all_users", False):
        raise InvalidInput(ALL_USERS_NOT_HERE, field="scope.all_users")
    data.update({k: v for k, v in fields.items() if v is not None})
    try:
        return Scope.model_validate(data)
    except ValidationError as exc:
        raise _invalid(exc, "scope") from exc


def make_read_scope(
    scope: ScopeLike = None, *, all_users: bool = False, **fields: str | None
) -> Scope:
    """The scope of a call that reads or forgets stored memories: one user's, or every
    user's of the tenant when ``all_users`` is true (as a keyword or as
    ``scope["all_users"]``), never every user's because ``user_id`` was left out. The
    returned scope has ``user_id=None`` exactly when the call spans every user."""
    if isinstance(scope, Mapping) and "all_users" in scope:
        flag = scope["all_users"]
        if not isinstance(flag, bool):
            raise InvalidInput("scope.all_users must be true or false", field="scope.all_users")
        all_users = all_users or flag
        scope = {k: v for k, v in scope.items() if k != "all_users"}
    target = make_scope(scope, **fields)
    if all_users and target.user_id is not None:
        raise InvalidInput(ALL_USERS_WITH_USER, field="scope.all_users")
    if not all_users and target.user_id is None:
        raise InvalidInput(USER_REQUIRED, field="scope.user_id")
    return target


def make_message(value: Message | Mapping[str, Any] | str, field: str = "message") -> Message:
    if isinstance(value, Message):
        return value
    if isinstance(value, str):
        value = {"content": value}
    try:
        return Message.model_validate(value)
    except ValidationError as exc:
        raise _invalid(exc, field) from exc


def make_ranking(
    value: RankingOverrides | Mapping[str, Any] | None,
) -> RankingOverrides | None:
    """A read's ranking overrides; a bad one is ``InvalidInput`` naming the field
    (``ranking.rerank.graph``)."""
    if value is None or isinstance(value, RankingOverrides):
        return value
    try:
        return RankingOverrides.model_validate(value)
    except ValidationError as exc:
        raise _invalid(exc, "ranking") from exc


def _check_ids(**values: object) -> None:
    """Ids and keys a call names, checked as stored text is (``InvalidInput`` naming the
    argument for a NUL or an unpaired surrogate), so every backend and every face answers
    the same before a database sees them."""
    for field, value in values.items():
        check_storable(value, field)


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
        if (
            isinstance(store, SQLiteStore)
            and isinstance(queue, SqliteJobQueue)
            and queue.shares_file_with(store.path)
        ):
            # one file: a write's events and their job commit in one transaction
            store.hold_outbox(queue)
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

    @property
    def is_open(self) -> bool:
        """Whether ``start`` has connected this Memory (and ``aclose`` has not closed it)."""
        return self._opened

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
                f"COGNIMEM_EMBEDDING__MODEL to {spec_of(stored_model)!r} or use a new database"
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

    def _recall_config(
        self, preset: str | None = None, ranking: RankingOverrides | None = None
    ) -> RecallConfig:
        """The named preset (default: the configured one) under the configured time
        limits, with the configured ranking overrides and then the read's own, for every
        read this memory runs."""
        r = self.settings.recall
        config = get_preset(
            preset or r.preset, step_timeout_s=r.step_timeout_s, budget_s=r.budget_s
        )
        return apply_ranking(config, r.ranking, ranking)

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
        await self._check_session_open(target)
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
        all_users: bool = False,
        limit: int | None = None,
        max_tokens: int | None = None,
        preset: str | None = None,
        ranking: RankingOverrides | Mapping[str, Any] | None = None,
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
        ``ranking`` changes how the preset ranks (fusion, rerank weights, half-lives,
        MMR, floors: ``RankingOverrides``), over the settings' ``recall.ranking``.
        ``explain=True`` adds, per returned and dropped candidate, each signal's value,
        the final score and the step that found it, and the effective config
        (``recall_config``). The read is one user's (``user_id``), or every user's of the
        tenant with ``all_users=True``; neither is ``InvalidInput``."""
        self._require_open()
        check_text(query, "query", self.settings.ingest.max_content_chars)
        target = make_read_scope(
            scope,
            all_users=all_users,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
        )
        r = self.settings.recall
        limit = r.default_limit if limit is None else limit
        max_tokens = r.default_max_tokens if max_tokens is None else max_tokens
        if not 1 <= limit <= 200:
            raise InvalidInput("limit must be between 1 and 200", field="limit")
        if not 1 <= max_tokens <= MAX_READ_TOKENS:
            raise InvalidInput(
                f"max_tokens must be between 1 and {MAX_READ_TOKENS}", field="max_tokens"
            )
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
        config = self._recall_config(preset, make_ranking(ranking))
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

    async def turn(
        self,
        user_message: str | Message | Mapping[str, Any],
        assistant_message: str | Message | Mapping[str, Any] | None = None,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        all_users: bool = False,
        limit: int | None = None,
        max_tokens: int | None = None,
        preset: str | None = None,
        ranking: RankingOverrides | Mapping[str, Any] | None = None,
        timezone: str | None = None,
        profile: str | IngestProfile = DEFAULT_PROFILE,
    ) -> Turn:
        """One conversational turn: the packet for the user's message (read before the
        turn is stored, at the message's time), then both messages remembered. Both are
        checked before anything is read or written. It reads like :meth:`read` (a user,
        or ``all_users=True``) and stores both messages under the scope's user (none
        with ``all_users``)."""
        self._require_open()
        user = make_message(user_message, "user")
        messages = [user]
        if assistant_message is not None:
            assistant = make_message(assistant_message, "assistant")
            if isinstance(assistant_message, str) or (
                isinstance(assistant_message, Mapping) and "role" not in assistant_message
            ):
                assistant = assistant.model_copy(update={"role": Role.ASSISTANT})
            messages.append(assistant)
        for field, m in zip(("user", "assistant"), messages, strict=False):
            check_message(m, f"{field}.", self.settings.ingest)
        target = make_read_scope(
            scope,
            all_users=all_users,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
        )
        packet = await self.read(
            user.content,
            scope=target,
            all_users=target.user_id is None,
            limit=limit,
            max_tokens=max_tokens,
            preset=preset,
            ranking=ranking,
            reference_time=user.occurred_at,
            timezone=timezone,
        )
        stored = await self.write_batch(messages, scope=target, profile=profile)
        return Turn(packet=packet, stored=stored)

    async def get(self, item_id: str, *, tenant_id: str = "default") -> MemoryItem:
        self._require_open()
        _check_ids(item_id=item_id)
        found = await self.store.get_items(tenant_id, [item_id])
        if not found:
            raise NotFound("memory", item_id)
        return found[0]

    async def get_events(
        self, event_ids: Sequence[str], *, tenant_id: str = "default"
    ) -> list[Event]:
        self._require_open()
        _check_ids(event_ids=list(event_ids))
        return await self.store.get_events(tenant_id, list(event_ids))

    async def delete(self, item_id: str, *, tenant_id: str = "default") -> None:
        """Delete one memory item (its raw events stay in L1), with the facts, graph edges
        and summaries derived from it alone, as ``forget`` does."""
        self._require_open()
        _check_ids(item_id=item_id)
        found = await self.store.get_items(tenant_id, [item_id])
        if not found:
            raise NotFound("memory", item_id)
        await edits.forget(self.store, tenant_id, found, "delete", now=self._clock(), dry_run=False)

    # -- knowledge -------------------------------------------------------------------
    async def facts(
        self,
        *,
        key: str | Sequence[str] | None = None,
        categories: Sequence[FactCategory | str] | None = None,
        include_history: bool = False,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
        limit: int = 1_000,
    ) -> list[Fact]:
        """The user's facts, newest first: live ones (active, aging), or every version
        with ``include_history``. ``key`` matches exactly or as a prefix of multi-valued
        keys: ``user:preference:cuisine`` finds ``user:preference:cuisine:italian``.
        ``all_users=True`` lists every user's facts of the tenant, and those of no user."""
        self._require_open()
        target = make_read_scope(scope, all_users=all_users, user_id=user_id)
        keys = (key,) if isinstance(key, str) else (None if key is None else tuple(key))
        _check_ids(key=key if key is None or isinstance(key, str) else list(key))
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
                all_users=target.user_id is None,
                keys=keys,
                statuses=None if include_history else (FactStatus.ACTIVE, FactStatus.AGING),
                categories=cats,
                limit=limit,
            )
        )

    async def get_fact(
        self,
        key: str,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> Fact:
        """The live fact under exactly ``key`` (the most recent if a conflict left two)."""
        listed = await self.facts(key=key, scope=scope, user_id=user_id, all_users=all_users)
        found = [f for f in listed if f.key == key]
        if not found:
            raise NotFound("fact", key)
        return found[0]

    async def entities(
        self, *, scope: ScopeLike = None, user_id: str | None = None, all_users: bool = False
    ) -> list[tuple[Entity, list[Alias]]]:
        """The entities visible to the user (every user's with ``all_users=True``), each
        with its aliases."""
        self._require_open()
        target = make_read_scope(scope, all_users=all_users, user_id=user_id)
        aliases = await self.store.find_aliases(
            target.tenant_id,
            target.namespace,
            target.user_id,
            None,
            all_users=target.user_id is None,
        )
        by_entity: dict[str, list[Alias]] = {}
        for a in aliases:
            by_entity.setdefault(a.entity_id, []).append(a)
        found = await self.store.get_entities(target.tenant_id, list(by_entity))
        return [(e, by_entity[e.id]) for e in found]

    async def relations(
        self,
        entity_ids: Sequence[str],
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> list[Relation]:
        """The active graph edges touching any of ``entity_ids`` (the user's and those of
        no user; every user's with ``all_users=True``)."""
        self._require_open()
        target = make_read_scope(scope, all_users=all_users, user_id=user_id)
        return await self.store.find_relations(
            target.tenant_id,
            target.namespace,
            target.user_id,
            list(entity_ids),
            all_users=target.user_id is None,
        )

    async def conflicts(
        self,
        *,
        open_only: bool = True,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> list[FactConflict]:
        """Contradictions between the user's facts (every user's with ``all_users``)."""
        self._require_open()
        target = make_read_scope(scope, all_users=all_users, user_id=user_id)
        return await self.store.find_conflicts(
            target.tenant_id,
            target.namespace,
            target.user_id,
            open_only=open_only,
            all_users=target.user_id is None,
        )

    async def history(self, target_id: str, *, tenant_id: str = "default") -> list[HistoryEntry]:
        """Every recorded change to an item or a fact, oldest first."""
        self._require_open()
        _check_ids(target_id=target_id)
        return await self.store.get_history(tenant_id, target_id)

    # -- lifecycle: edits, forgetting, conflicts, sessions, erasure, export ----------
    async def update(
        self,
        item_id: str,
        *,
        text: str | None = None,
        importance: float | None = None,
        tier: Tier | str | None = None,
        feedback: Feedback | str | None = None,
        tenant_id: str = "default",
    ) -> MemoryItem:
        """Edit one memory, or say what it got right or wrong; returns its new state.

        ``text`` is checked like a write (and its PII redacted as configured), then
        embedded and indexed again; facts already derived from the old text stay.
        ``feedback``: ``correct`` counts a success and nudges the confidence up,
        ``incorrect`` counts a failure and silences the memory (kept, never recalled),
        ``outdated`` archives it. Each call that changes something appends one history
        entry (actor ``api``) with the changed fields before and after."""
        self._require_open()
        _check_ids(item_id=item_id)
        if text is None and importance is None and tier is None and feedback is None:
            raise InvalidInput("nothing to update: give text, importance, tier or feedback")
        if importance is not None and not 0.0 <= importance <= 1.0:
            raise InvalidInput("importance must be between 0 and 1", field="importance")
        try:
            chosen_tier = None if tier is None else Tier(tier)
        except ValueError as exc:
            raise InvalidInput(f"tier: {exc}", field="tier") from exc
        if feedback is not None and feedback not in edits.FEEDBACK:
            raise InvalidInput(
                f"feedback must be one of {', '.join(edits.FEEDBACK)}", field="feedback"
            )
        clean = None if text is None else self._clean_text(text)
        edit = edits.Edit(
            text=clean,
            token_count=0 if clean is None else count_tokens(clean),
            importance=importance,
            tier=chosen_tier,
            feedback=cast(edits.Feedback | None, feedback),
        )
        embedded: dict[str, np.ndarray] = {}  # the new text's vector, made once
        attempts = 0
        while True:
            item = await self.get(item_id, tenant_id=tenant_id)
            new, entry = edits.edited(
                item, edit, embedding_model=self.embedder.model_id, now=self._clock()
            )
            if entry is None:
                return item
            search_text = None
            if new.text != item.text:
                search_text = index_text(new.author, new.text)
                if search_text not in embedded:
                    [embedded[search_text]] = await self.embedder.embed([search_text], "document")
            try:
                await self.store.update_item(
                    new,
                    expected=item,
                    history=entry,
                    embedding=None if search_text is None else embedded[search_text],
                    search_text=search_text,
                )
            except StaleKnowledge:
                # another edit of this memory committed between our read and our write:
                # make this one again from the state it left (no feedback count is lost)
                attempts += 1
                if attempts == _EDIT_ATTEMPTS:
                    raise
                continue
            return new

    def _clean_text(self, text: str) -> str:
        """A memory's new text, checked and gated as the write path gates a message."""
        ingest = self.settings.ingest
        check_text(text, "text", ingest.max_content_chars)
        if ingest.skip_secrets and find_secrets(text):
            raise InvalidInput("text holds a secret (a key, token or password)", field="text")
        return redact_pii(text).text if ingest.redact_pii else text

    async def forget(
        self,
        *,
        ids: Sequence[str] | None = None,
        query: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        mode: ForgetMode | str = "delete",
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        all_users: bool = False,
        dry_run: bool = False,
        limit: int = 100,
    ) -> ForgetResult:
        """Forget memories of the scope chosen by ``ids``, by ``query`` or by a time range
        (``since``/``until`` on when they happened) — exactly one of the three.

        ``mode``: ``delete`` removes the rows (their raw events stay), ``archive`` keeps
        them out of every read (``get`` shows them archived), ``silence`` keeps them but
        they are never recalled. A query forgets what a read of it returns (the items,
        not the sections; active memories only), scoring at least ``FORGET_FLOOR`` of the
        best one, and of those only the ones whose own text holds a content word of the
        query or whose similarity to it is at least ``FORGET_MIN_SIMILARITY``: a query
        that matches nothing forgets nothing. At most ``limit`` memories (newest first
        for a time range); ``dry_run`` only says which. Each memory forgotten gets a
        history entry; a forget that matches nothing returns an empty list. Like a read,
        it needs ``user_id``, or ``all_users=True`` to forget across every user."""
        self._require_open()
        chosen = sum([ids is not None, query is not None, since is not None or until is not None])
        if chosen != 1:
            raise InvalidInput(
                "forget needs exactly one of: ids, query, or a time range (since/until)",
                field="ids",
            )
        if mode not in edits.FORGET_MODES:
            raise InvalidInput(f"mode must be one of {', '.join(edits.FORGET_MODES)}", field="mode")
        forget_mode = cast(edits.ForgetMode, mode)
        if not 1 <= limit <= 10_000:
            raise InvalidInput("limit must be between 1 and 10000", field="limit")
        target = make_read_scope(
            scope,
            all_users=all_users,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
        )
        tenant = target.tenant_id
        if ids is not None:
            _check_ids(ids=list(ids))
            wanted = list(dict.fromkeys(ids))[:limit]
            stored = await self.store.get_items(tenant, wanted)
            found = [i for i in stored if edits.in_scope(i, target)]
        elif query is not None:
            found = await self._forget_by_query(query, target, limit)
        else:
            check_time(since, "since")
            check_time(until, "until")
            if since is not None and until is not None and since > until:
                raise InvalidInput("since is after until", field="since")
            keep = edits.FORGET_STATUS[forget_mode]
            statuses = tuple(
                s for s in (ItemStatus.ACTIVE, ItemStatus.SILENT, ItemStatus.ARCHIVED)
                if s is not keep
            )  # fmt: skip
            flt = ItemFilter(scope=target, statuses=statuses, since=since, until=until)
            found = await self.store.get_items(tenant, await self.store.list_item_ids(flt, limit))
        affected = edits.forgettable(found, forget_mode)
        return await edits.forget(
            self.store, tenant, affected, forget_mode, now=self._clock(), dry_run=dry_run
        )

    async def _forget_by_query(self, query: str, target: Scope, limit: int) -> list[MemoryItem]:
        check_text(query, "query", self.settings.ingest.max_content_chars)
        config = self._recall_config()
        config = config.model_copy(
            update={"episode_floor": max(config.episode_floor, FORGET_FLOOR)}
        )
        packet = await self._reader.read(
            query,
            target,
            config=config,
            limit=min(limit, 200),
            max_tokens=MAX_READ_TOKENS,
            reference_time=self._clock(),
        )
        terms = query_terms(query)
        floor = FORGET_MIN_SIMILARITY
        close = {p.id for p in packet.items if p.signals.get("vector", 0.0) >= floor}
        found = await self.store.get_items(target.tenant_id, [p.id for p in packet.items])
        # the lexical index also holds the message said before each memory: a word of
        # that neighbour must not forget this one
        return [i for i in found if i.id in close or edits.mentions(i.text, terms)]

    async def resolve_conflict(
        self,
        conflict_id: str,
        *,
        winner_fact_id: str | None = None,
        note: str = "",
        tenant_id: str = "default",
    ) -> FactConflict:
        """Settle a conflict between facts. With ``winner_fact_id`` the conflict's other
        facts are superseded by it (as reconciliation supersedes an older value); without
        it both stay live (``both_valid``). Resolving a conflict again the same way
        returns it unchanged; another way is a ``Conflict``."""
        self._require_open()
        if len(note) > 2_000:
            raise InvalidInput("note is longer than 2000 characters", field="note")
        _check_ids(conflict_id=conflict_id, winner_fact_id=winner_fact_id, note=note)
        found = await self.store.get_conflict(tenant_id, conflict_id)
        if found is None:
            raise NotFound("conflict", conflict_id)
        facts = await self.store.get_facts(tenant_id, found.fact_ids)
        resolution = conflicts.resolve(found, facts, winner_fact_id, note, self._clock())
        if resolution is None:
            return found
        await self.store.resolve_conflict(
            resolution.conflict,
            resolution.fact_updates,
            resolution.history,
            resolution.silence_items,
        )
        return resolution.conflict

    # -- sessions ----------------------------------------------------------------------
    async def create_session(
        self,
        session_id: str,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Session:
        """Open a session (an existing open one is returned unchanged; a closed one is a
        ``Conflict``). Sessions are optional: writes may name one never created."""
        self._require_open()
        target = make_scope(scope, user_id=user_id, agent_id=agent_id, session_id=session_id)
        if target.session_id is None:
            raise InvalidInput("session_id is empty", field="session_id")
        existing = await self.store.get_session(target.tenant_id, target.namespace, session_id)
        if existing is not None:
            if existing.status is SessionStatus.CLOSED:
                raise Conflict(f"session {session_id} is closed", details={"session": session_id})
            return existing
        check_metadata(dict(metadata or {}), "metadata", self.settings.ingest.max_metadata_bytes)
        session = Session(
            id=session_id, scope=target, created_at=self._clock(), metadata=dict(metadata or {})
        )
        await self.store.put_session(session)
        return session

    async def get_session(self, session_id: str, *, scope: ScopeLike = None) -> Session:
        """The session of this id in the scope's tenant and namespace (``NotFound``)."""
        self._require_open()
        target = make_scope(scope, session_id=session_id)
        found = await self.store.get_session(target.tenant_id, target.namespace, session_id)
        if found is None:
            raise NotFound("session", session_id)
        return found

    async def list_sessions(
        self,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        all_users: bool = False,
        limit: int = 100,
    ) -> list[Session]:
        """The user's sessions (every user's with ``all_users=True``; the agent's when
        given), newest first."""
        self._require_open()
        if not 1 <= limit <= 10_000:
            raise InvalidInput("limit must be between 1 and 10000", field="limit")
        target = make_read_scope(scope, all_users=all_users, user_id=user_id, agent_id=agent_id)
        return await self.store.list_sessions(target, limit)

    async def close_session(self, session_id: str, *, scope: ScopeLike = None) -> Session:
        """Close a session: writes naming it are refused (``Conflict``) from now on.
        Closing a closed session returns it unchanged; an unknown one is ``NotFound``."""
        found = await self.get_session(session_id, scope=scope)
        if found.status is SessionStatus.CLOSED:
            return found
        closed = found.model_copy(
            update={"status": SessionStatus.CLOSED, "closed_at": self._clock()}
        )
        await self.store.put_session(closed)
        return closed

    async def _check_session_open(self, target: Scope) -> None:
        if target.session_id is None:
            return
        found = await self.store.get_session(target.tenant_id, target.namespace, target.session_id)
        if found is not None and found.status is SessionStatus.CLOSED:
            raise records.closed_session(target.session_id)

    # -- statistics, erasure, export -------------------------------------------------
    async def stats(
        self,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        all_users: bool = False,
    ) -> ScopeStats:
        """What the scope holds: events, items by status and kind, facts by status,
        entities, active relations, open conflicts, sessions by status. One user's, or
        every user's of the tenant with ``all_users=True``."""
        self._require_open()
        target = make_read_scope(
            scope,
            all_users=all_users,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session_id,
        )
        return await self.store.scope_stats(target)

    async def erase_user(self, user_id: str, *, tenant_id: str = "default") -> ErasureReport:
        """Erase a user from the tenant, in every namespace: every stored row derived
        from them (events, items with their index entries, facts, their entities and
        aliases, relations, conflicts, history, sessions), then their jobs, then the
        cached embeddings of their texts (the store's table, the Redis tier, this
        process's memory), and last the deleted bytes in the database files (SQLite's
        WAL is truncated). ``removed`` counts rows per table, ``jobs`` and
        ``embeddings`` included."""
        self._require_open()
        target = make_scope(tenant_id=tenant_id, user_id=user_id)
        if target.user_id is None:
            raise InvalidInput("user_id is empty", field="user_id")
        report = await self.store.erase_user(tenant_id, target.user_id)
        # after the events are gone: a worker's sweep then finds none of theirs to requeue
        purged = 0 if self.queue is None else await self.queue.purge_user(tenant_id, target.user_id)
        removed = {**report.removed, "jobs": purged}
        hashes = report.content_hashes
        removed["embeddings"] = await erase_embeddings(self.store, self.embedder, hashes)
        await self.store.flush_deleted()
        return report.model_copy(update={"removed": removed})

    def export(
        self,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
        all_namespaces: bool = False,
    ) -> AsyncIterator[ExportRecord]:
        """Every stored row of the scope as export records, streamed: a ``header`` first
        (format version, schema version, embedding model), then sessions, events, items,
        entities, aliases, facts, relations, conflicts and history. The user's rows, or
        with ``all_users=True`` every row of the namespace (every namespace with
        ``all_namespaces``). ``import_records`` takes the same records back."""
        self._require_open()
        target = make_read_scope(scope, all_users=all_users, user_id=user_id)
        return self._export(target, all_namespaces)

    async def _export(self, target: Scope, all_namespaces: bool) -> AsyncIterator[ExportRecord]:
        yield transfer.header(
            target,
            all_namespaces=all_namespaces,
            schema_version=await self.store.schema_version(),
            embedding_model=self.embedder.model_id,
            now=self._clock(),
        )
        async for record in self.store.export_records(target, all_namespaces=all_namespaces):
            yield record

    async def import_records(
        self,
        records: Iterable[ExportRecord | Mapping[str, Any]]
        | AsyncIterable[ExportRecord | Mapping[str, Any]],
        *,
        tenant_id: str = "default",
    ) -> dict[str, int]:
        """Import export records into ``tenant_id`` (whatever tenant they came from), in
        batches: each batch is validated first (``InvalidInput`` names the bad line and
        nothing of its batch is stored), its item and fact texts are embedded with this
        Memory's embedder, its ids are made the tenant's (one it holds stays, any other
        becomes one derived from the tenant and the id, references included:
        ``store.transfer.TenantIds``), and rows already stored (by id) are skipped, so
        importing twice inserts nothing and another tenant's export imports whole.
        Returns how many rows of each type were inserted."""
        self._require_open()
        make_scope(tenant_id=tenant_id)
        return await transfer.import_records(self.store, self.embedder, records, tenant_id)

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
        """The state of an ingestion job (queued / running / done / failed).
        ``NotFound`` for an unknown id, and always when writes are ingested synchronously
        (no queue is configured, so there are no jobs)."""
        self._require_open()
        _check_ids(job_id=job_id)
        if self.queue is None:
            raise NotFound("job", job_id)
        return await self.queue.get(tenant_id, job_id)

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
        try:
            return await queue.get(job.tenant_id, job.id)
        except NotFound:
            # its user was erased while it ran (the erasure purged it): it stored nothing
            log.info("job %s was purged by an erasure while it ran", job.id)
            return job

    async def requeue_stranded(self, *, limit: int = 500) -> list[str]:
        """Queue the ingest jobs of events left unprocessed for longer than
        ``settings.ingest.sweep_grace_s`` that the queue does not know (a process died
        between committing a write's events and queuing their job); returns their ids.
        Idempotent: a job the queue has is left as it is. Every worker runs this at
        start and every ``sweep_interval_s``."""
        queue = self._require_queue()
        grace = timedelta(seconds=self.settings.ingest.sweep_grace_s)
        return await requeue_stranded(
            self.store, queue, recorded_before=self._clock() - grace, limit=limit
        )

    async def run_worker(self, worker: str, *, stop: asyncio.Event, poll_s: float = 1.0) -> int:
        """Process jobs until ``stop`` is set; returns how many jobs were handled. Sweeps
        for stranded jobs (:meth:`requeue_stranded`) at start and on an interval."""
        handled = 0
        next_sweep = time.monotonic()
        while not stop.is_set():
            if time.monotonic() >= next_sweep:
                try:
                    await self.requeue_stranded()
                except StoreUnavailable as exc:
                    log.warning("sweep for stranded jobs failed, retried later: %s", exc.message)
                next_sweep = time.monotonic() + self.settings.ingest.sweep_interval_s
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

    def get_session(self, session_id: str, **kwargs: Any) -> Session:
        return self._run(self._memory.get_session(session_id, **kwargs))
