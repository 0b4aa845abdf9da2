"""The one write funnel every write goes through."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from cognimem.config import IngestSettings
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
    WriteResult,
)
from cognimem.models.clock import Clock, to_utc
from cognimem.models.ids import content_hash, new_id
from cognimem.providers.embeddings import Embedder
from cognimem.store.base import PendingItem, PendingMessage, Store

log = logging.getLogger(__name__)


def index_text(author: str | None, text: str) -> str:
    """The text indexed for search: the author's name belongs to what was said."""
    return f"{author}: {text}" if author else text


def mask_secrets(text: str) -> str:
    """Replace every secret span with ``[SECRET:<kind>]`` (last first, so offsets hold)."""
    for finding in sorted(find_secrets(text), key=lambda f: f.start, reverse=True):
        text = f"{text[: finding.start]}[SECRET:{finding.kind}]{text[finding.end :]}"
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
    ) -> None:
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
        window = self._settings.dedupe_window_s
        known = await self._store.find_duplicates(events, window)

        contexts = await self._contexts(events, skip=known)
        pending: list[PendingMessage] = []
        for index, (message, event) in enumerate(zip(messages, events, strict=True)):
            if index in known:
                continue
            pending.append(self._gate(message, event, kind, contexts[index]))

        items = [p for m in pending for p in m.items]
        if items:
            vectors = await self._embedder.embed([p.embed_text for p in items], "document")
            for p, vector in zip(items, vectors, strict=True):
                p.embedding = vector

        committed = iter(await self._store.commit(pending, window))
        results: list[MessageResult] = []
        for index in range(len(messages)):
            results.append(known[index] if index in known else next(committed))
        return WriteResult(messages=results)

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
        previous = await self._store.previous_event(first.scope, first.occurred_at)
        texts = [index_text(previous.name, previous.content) if previous else ""]
        texts += [index_text(e.name, e.content) for e in events[:-1]]
        return [text[-limit:] for text in texts]

    def _gate(self, message: Message, event: Event, kind: ItemKind, context: str) -> PendingMessage:
        result = PendingMessage(event=event)
        for chunk in chunk_text(message.content, self._settings.chunk_tokens, self._count):
            if self._settings.skip_secrets and find_secrets(chunk):
                result.skipped_chunks += 1
                continue
            text = chunk
            if self._settings.redact_pii:
                redaction = redact_pii(chunk)
                text = redaction.text
                for pii_kind, n in redaction.counts.items():
                    result.redactions[pii_kind] = result.redactions.get(pii_kind, 0) + n
            item = MemoryItem(
                id=new_id("mem"),
                scope=event.scope,
                text=text,
                kind=kind,
                tier=Tier.MEDIUM,
                source_event_ids=[event.id],
                external_ids=[message.external_id] if message.external_id else [],
                author=message.name,
                occurred_at=event.occurred_at,
                recorded_at=event.recorded_at,
                token_count=self._count(text),
                embedding_model=self._embedder.model_id,
                metadata=message.metadata,
            )
            own = index_text(message.name, text)
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
