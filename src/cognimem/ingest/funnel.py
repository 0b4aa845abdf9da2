"""The one write funnel every write goes through."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from cognimem.config import IngestSettings
from cognimem.errors import InvalidInput, StoreUnavailable
from cognimem.ingest.chunking import chunk_text
from cognimem.ingest.gate import find_secrets, redact_pii
from cognimem.ingest.validate import validate_messages
from cognimem.models import (
    Event,
    ItemKind,
    MemoryItem,
    Message,
    MessageResult,
    Scope,
    Tier,
    WriteOutcome,
    WriteResult,
)
from cognimem.models.clock import Clock, to_utc
from cognimem.models.ids import content_hash, new_id
from cognimem.providers.embeddings import Embedder
from cognimem.queue.base import JobQueue
from cognimem.store.base import PendingItem, PendingMessage, Store

log = logging.getLogger(__name__)


def index_text(author: str | None, text: str) -> str:
    """The text indexed for search: the author's name belongs to what was said."""
    return f"{author}: {text}" if author else text


SECRET_MARK = "[SECRET:"
INGEST_JOB = "ingest"


def _in_order(
    known: Mapping[int, MessageResult], committed: Sequence[MessageResult], total: int
) -> list[MessageResult]:
    """One result per message: the known duplicates in their places, the commit's
    results (in order) filling the rest."""
    rest = iter(committed)
    return [known[i] if i in known else next(rest) for i in range(total)]


def mask_secrets(text: str) -> str:
    """Replace every secret span with ``[SECRET:<kind>]`` (last first, so offsets hold)."""
    for finding in sorted(find_secrets(text), key=lambda f: f.start, reverse=True):
        text = f"{text[: finding.start]}{SECRET_MARK}{finding.kind}]{text[finding.end :]}"
    return text


class WriteFunnel:
    """validate → dedupe → chunk → gate → embed (one batch) → commit (one transaction)."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: IngestSettings,
        *,
        clock: Clock,
        count_tokens: Callable[[str], int],
        queue: JobQueue | None = None,
    ) -> None:
        self._queue = queue
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._clock = clock
        self._count = count_tokens

    async def write(
        self, messages: Sequence[Message], scope: Scope, *, kind: ItemKind = ItemKind.EPISODE
    ) -> WriteResult:
        validate_messages(messages, self._settings)
        now = self._clock()
        events = [self._event(m, scope, now) for m in messages]
        known = await self._store.find_duplicates(events, self._settings.dedupe_window_s)
        if self._queue is not None and self._settings.mode == "async":
            return await self._write_async(messages, events, known, kind)
        return await self._write_sync(messages, events, known, kind)

    async def _write_sync(
        self,
        messages: Sequence[Message],
        events: Sequence[Event],
        known: Mapping[int, MessageResult],
        kind: ItemKind,
    ) -> WriteResult:
        contexts = await self._contexts(events, skip=known)
        pending: list[PendingMessage] = []
        for index, (message, event) in enumerate(zip(messages, events, strict=True)):
            if index in known:
                continue
            pending.append(self._gate(message.content, event, kind, contexts[index]))
        await self._embed([p for m in pending for p in m.items])
        committed = await self._store.commit(pending, self._settings.dedupe_window_s)
        return WriteResult(messages=_in_order(known, committed, len(events)))

    async def _write_async(
        self,
        messages: Sequence[Message],
        events: Sequence[Event],
        known: Mapping[int, MessageResult],
        kind: ItemKind,
    ) -> WriteResult:
        """Commit the raw events, enqueue one job for the rest of the funnel."""
        assert self._queue is not None
        fresh = [e for i, e in enumerate(events) if i not in known]
        if not fresh:
            return WriteResult(messages=[known[i] for i in range(len(events))], mode="async")
        try:
            await self._queue.depth()  # reachability, before anything is written
        except StoreUnavailable as exc:
            if self._settings.on_queue_unavailable == "fail":
                raise
            log.warning("job queue unavailable, ingesting synchronously: %s", exc.message)
            result = await self._write_sync(messages, events, known, kind)
            result.degraded.append(f"queue unavailable, ingested synchronously: {exc.message}")
            return result

        bare = [PendingMessage(event=e) for e in fresh]
        committed = await self._store.commit(bare, self._settings.dedupe_window_s)
        results = _in_order(known, committed, len(events))
        new_ids = [r.event_id for r in results if r.outcome is WriteOutcome.STORED]
        if not new_ids:  # every message turned out to be a duplicate inside the transaction
            return WriteResult(messages=results, mode="async")
        payload = {"event_ids": new_ids, "kind": kind.value}
        tenant_id = fresh[0].scope.tenant_id
        try:
            job = await self._queue.enqueue(
                INGEST_JOB, tenant_id, payload, job_id=f"job_{new_ids[0].removeprefix('evt_')}"
            )
        except StoreUnavailable as exc:
            # the events are committed: never leave them without their items
            log.warning("enqueue failed after the events were stored, ingesting now: %s", exc)
            by_event = await self.process(tenant_id, payload)
            return WriteResult(
                messages=[
                    r.model_copy(update={"item_ids": by_event.get(r.event_id, r.item_ids)})
                    for r in results
                ],
                degraded=[f"queue unavailable, ingested synchronously: {exc.message}"],
            )
        queued = [
            r.model_copy(update={"outcome": WriteOutcome.QUEUED}) if r.event_id in new_ids else r
            for r in results
        ]
        return WriteResult(messages=queued, mode="async", job_id=job.id)

    async def process(self, tenant_id: str, payload: Mapping[str, Any]) -> dict[str, list[str]]:
        """Run chunk → gate → embed → commit for stored events (a worker's job).

        Idempotent: events that already have items are skipped by the store, so a job
        delivered twice changes nothing.
        """
        try:
            event_ids = [str(e) for e in payload["event_ids"]]
            kind = ItemKind(payload.get("kind", ItemKind.EPISODE.value))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(f"malformed ingest job payload: {exc}", field="payload") from exc
        events = await self._store.get_events(tenant_id, event_ids)
        if not events:
            return {}
        contexts = await self._contexts(events, skip={})
        items = [
            p
            for event, context in zip(events, contexts, strict=True)
            for p in self._gate(event.content, event, kind, context).items
        ]
        await self._embed(items)
        inserted = set(await self._store.add_items(items))
        by_event: dict[str, list[str]] = {}
        for p in items:
            if p.item.id in inserted:
                by_event.setdefault(p.item.source_event_ids[0], []).append(p.item.id)
        return by_event

    async def _embed(self, items: Sequence[PendingItem]) -> None:
        if not items:
            return
        vectors = await self._embedder.embed([p.embed_text for p in items], "document")
        for p, vector in zip(items, vectors, strict=True):
            p.embedding = vector

    def _event(self, message: Message, scope: Scope, now: datetime) -> Event:
        raw = message.content
        stored = mask_secrets(raw) if self._settings.skip_secrets else raw
        if self._settings.redact_pii:
            stored = redact_pii(stored).text
        return Event(
            id=new_id("evt"),
            scope=scope,
            role=message.role,
            name=message.name,
            content=stored,
            content_hash=content_hash(raw),
            idempotency_key=message.idempotency_key,
            external_id=message.external_id,
            occurred_at=to_utc(message.occurred_at) if message.occurred_at else now,
            recorded_at=now,
            metadata=message.metadata,
        )

    async def _contexts(self, events: Sequence[Event], skip: Mapping[int, object]) -> list[str]:
        """For each event, the message said just before it in the same scope.

        The lexical index of an item includes that previous message, so an answer is
        found by the words of the question it answers (measured on the LoCoMo dev set:
        frac@10 0.657 → 0.727, benchmarks/tune_fusion.py). Embeddings stay on the item's
        own text, which measured better. The first message of a batch looks up the
        latest stored event of the scope; later ones use their predecessor in the batch.
        """
        limit = self._settings.context_chars
        if limit == 0 or len(skip) == len(events):
            return [""] * len(events)
        first = events[0]
        previous = await self._store.previous_event(
            first.scope, first.occurred_at, exclude=[e.id for e in events]
        )
        texts = [index_text(previous.name, previous.content) if previous else ""]
        texts += [index_text(e.name, e.content) for e in events[:-1]]
        return [text[-limit:] for text in texts]

    def _gate(self, text: str, event: Event, kind: ItemKind, context: str) -> PendingMessage:
        """Chunk ``text`` (the raw message, or a stored event's masked content) into items."""
        result = PendingMessage(event=event)
        for chunk in chunk_text(text, self._settings.chunk_tokens, self._count):
            if self._settings.skip_secrets and (find_secrets(chunk) or SECRET_MARK in chunk):
                result.skipped_chunks += 1
                continue
            clean = chunk
            if self._settings.redact_pii:
                redaction = redact_pii(chunk)
                clean = redaction.text
                for pii_kind, n in redaction.counts.items():
                    result.redactions[pii_kind] = result.redactions.get(pii_kind, 0) + n
            item = MemoryItem(
                id=new_id("mem"),
                scope=event.scope,
                text=clean,
                kind=kind,
                tier=Tier.MEDIUM,
                source_event_ids=[event.id],
                external_ids=[event.external_id] if event.external_id else [],
                author=event.name,
                occurred_at=event.occurred_at,
                recorded_at=event.recorded_at,
                token_count=self._count(clean),
                embedding_model=self._embedder.model_id,
                metadata=event.metadata,
            )
            own = index_text(event.name, clean)
            result.items.append(
                PendingItem(
                    item=item,
                    embedding=None,
                    embed_text=own,
                    search_text=f"{context}\n{own}" if context else own,
                )
            )
        if result.skipped_chunks:
            log.info(
                "skipped %d chunk(s) carrying secrets in event %s", result.skipped_chunks, event.id
            )
        return result
