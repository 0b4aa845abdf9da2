"""The one write funnel every write goes through."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cognimem.config import IngestSettings
from cognimem.domain.layer import Domains
from cognimem.errors import InvalidInput, StaleKnowledge, StoreUnavailable
from cognimem.ingest.batch import WriteBatch
from cognimem.ingest.chunking import chunk_text
from cognimem.ingest.domain_linking import DomainLinker
from cognimem.ingest.entities import EntityResolver
from cognimem.ingest.gate import SECRET_MARK, find_secrets, mask_secrets, redact_pii
from cognimem.ingest.jobs import enqueue
from cognimem.ingest.knowledge import KnowledgeBuilder
from cognimem.ingest.restatement import Restatements
from cognimem.ingest.thread import Period, Thread, contexts
from cognimem.ingest.timing import GATE, RECONCILIATION, STORE, StepTimer
from cognimem.ingest.understand import Understander, Understood
from cognimem.models import (
    Event,
    KnowledgeReport,
    MemoryItem,
    Message,
    MessageResult,
    Scope,
    WriteOutcome,
    WriteResult,
    WriteStepReport,
)
from cognimem.models.clock import Clock, to_utc
from cognimem.models.extraction import Extractor
from cognimem.models.ids import content_hash, new_id
from cognimem.models.items import index_text
from cognimem.models.knowledge import HistoryEntry
from cognimem.models.profiles import IngestProfile, get_profile
from cognimem.models.requests import WriteArgs
from cognimem.providers.embeddings import Embedder, erase_embeddings, text_hash
from cognimem.queue.base import JobQueue
from cognimem.store.arguments import Attachment
from cognimem.store.protocols import Store
from cognimem.store.repeats import repeats_in_batch
from cognimem.store.types import (
    Knowledge,
    PendingItem,
    PendingJob,
    PendingMessage,
    job_id_for,
    jobs_of,
)
from cognimem.text.events import ends_a_span, event_period
from cognimem.text.validate import validate_messages

log = logging.getLogger(__name__)


# how often a write reconciles again when a concurrent write changed the same fact key
MAX_RECONCILE_ATTEMPTS = 4


class WriteFunnel:
    """validate → dedupe → chunk → gate → extract → embed (one batch) → resolve entities
    → reconcile → commit (one transaction)."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: IngestSettings,
        *,
        clock: Clock,
        count_tokens: Callable[[str], int],
        queue: JobQueue | None = None,
        llm_extractor: Extractor | None = None,
        domains: Domains | None = None,
    ) -> None:
        self._queue = queue
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._clock = clock
        self._count = count_tokens
        self._understander = Understander(store, embedder, settings.merge_similarity, llm_extractor)
        linker = None if domains is None else DomainLinker(domains, store)
        self._knowledge = KnowledgeBuilder(
            store,
            EntityResolver(store),
            embedder.model_id,
            linker,
            Restatements(store, embedder),
        )

    async def write(self, args: WriteArgs) -> WriteResult:
        """One write (``models/requests.py``), its messages made and its scope made."""
        messages, scope = args.messages, args.scope
        validate_messages(messages, self._settings)
        chosen = get_profile(args.profile)
        timer = StepTimer()
        for attempt in range(MAX_RECONCILE_ATTEMPTS):
            now = self._clock()
            with timer.step(GATE):
                events = [self._event(m, scope, now) for m in messages]
                window = self._window(chosen)
                known = await self._store.find_duplicates(events, window)
                repeats = repeats_in_batch(events, known, window)
            batch = WriteBatch(messages, events, known, repeats, chosen, timer)
            try:
                if self._queue is not None and self._settings.mode == "async":
                    result = await self._write_async(batch)
                else:
                    result = await self._write_sync(batch)
                result.steps = timer.reports()
                return result
            except StaleKnowledge:
                if attempt == MAX_RECONCILE_ATTEMPTS - 1:
                    raise
                log.info("a concurrent write changed the same facts; reconciling again")
        raise AssertionError("unreachable")

    def _window(self, profile: IngestProfile) -> float:
        if profile.dedupe_window_s is None:
            return self._settings.dedupe_window_s
        return profile.dedupe_window_s

    async def _write_sync(self, batch: WriteBatch) -> WriteResult:
        messages, events = batch.messages, batch.events
        profile, timer, fresh = batch.profile, batch.timer, batch.fresh()
        with timer.step(GATE):
            contexts, thread = await self._contexts(events, written=len(fresh))
            # the raw text (not the stored, already redacted one), so redactions count
            gated = []
            for i, e in enumerate(events):
                if not batch.is_fresh(i):  # a repeat is read once, as its first copy
                    continue
                pending, thread = self._gate(messages[i].content, e, profile, contexts[i], thread)
                gated.append(pending)
        knowledge = Knowledge()
        async with self._understander.understand(gated, profile, timer) as understood:
            if fresh:
                now = self._clock()
                with timer.step(RECONCILIATION):
                    built = await self._knowledge.build(
                        fresh[0].scope, understood.said, understood.vectors, now
                    )
                knowledge = built.knowledge
                knowledge.history += _item_history(understood, now)
                understood.report = _merge_reports(understood.report, built.report)
                understood.degraded += built.degraded
            await understood.attach_fact_vectors(knowledge, timer)
        with timer.step(STORE):
            committed = await self._store.commit(
                understood.pending,
                self._window(profile),
                None if knowledge.is_empty() else knowledge,
            )
        return WriteResult(
            messages=batch.in_order(committed),
            profile=profile.name,
            knowledge=understood.report,
            degraded=understood.degraded,
        )

    async def _write_async(self, batch: WriteBatch) -> WriteResult:
        """Commit the raw events (each naming its job), queue the job for the rest of
        the funnel. A retry of a write whose events are not processed yet answers with
        their job (queued again if it was lost)."""
        assert self._queue is not None
        events, profile, timer = batch.events, batch.profile, batch.timer
        fresh = batch.fresh()
        results = batch.in_order([]) if not fresh else []
        jobs: list[PendingJob] = []
        stored: set[str] = set()
        if fresh:
            try:
                await self._queue.depth()  # reachability, before anything is written
            except StoreUnavailable as exc:
                if self._settings.on_queue_unavailable == "fail":
                    raise
                log.warning("job queue unavailable, ingesting synchronously: %s", exc.message)
                result = await self._write_sync(batch)
                result.degraded.append(f"queue unavailable, ingested synchronously: {exc.message}")
                return result
            job_id = job_id_for(fresh[0].id)
            bare = [
                PendingMessage(event=e, processed=False, job_id=job_id, profile=profile.name)
                for e in fresh
            ]
            with timer.step(STORE):
                committed = await self._store.commit(bare, self._window(profile))
            results = batch.in_order(committed)
            stored = {r.event_id for r in committed if r.outcome is WriteOutcome.STORED}
            jobs = jobs_of([m for m in bare if m.event.id in stored])
        # duplicates of events still waiting for their items: their job will process them
        waiting = [r.event_id for r in results if r.outcome is WriteOutcome.DUPLICATE]
        if waiting:
            tenant_id = events[0].scope.tenant_id
            ours = {j.id for j in jobs}
            found = await self._store.pending_jobs(tenant_id, waiting)
            jobs += [j for j in found if j.id not in ours]
        if not jobs:
            return WriteResult(messages=results, mode="async", profile=profile.name)
        try:
            queued = [await enqueue(self._queue, j) for j in jobs]
        except StoreUnavailable as exc:
            # the events are committed: never leave them without their items
            log.warning("enqueue failed after the events were stored, ingesting now: %s", exc)
            return await self._process_now(results, jobs, profile, exc, timer)
        return WriteResult(
            messages=[
                r.model_copy(update={"outcome": WriteOutcome.QUEUED})
                if r.outcome is WriteOutcome.STORED
                else r
                for r in results
            ],
            mode="async",
            job_id=queued[0].id,
            profile=profile.name,
        )

    async def _process_now(
        self,
        results: Sequence[MessageResult],
        jobs: Sequence[PendingJob],
        profile: IngestProfile,
        problem: StoreUnavailable,
        timer: StepTimer,
    ) -> WriteResult:
        """Run the jobs a write could not queue in this process, as a worker would."""
        items: dict[str, list[str]] = {}
        knowledge = KnowledgeReport()
        degraded = [f"queue unavailable, ingested synchronously: {problem.message}"]
        for i, job in enumerate(jobs):
            done = await self.process(job.tenant_id, job.payload(), timer)
            items.update(done.items)
            if i == 0:
                knowledge = done.knowledge
            degraded += done.degraded
        return WriteResult(
            messages=[
                r.model_copy(update={"item_ids": items.get(r.event_id, r.item_ids)})
                for r in results
            ],
            profile=profile.name,
            knowledge=knowledge,
            degraded=degraded,
        )

    async def process(
        self, tenant_id: str, payload: Mapping[str, Any], timer: StepTimer | None = None
    ) -> Processed:
        """Run the funnel after the raw events for stored events (a worker's job), its
        steps timed on ``timer`` (else a new one) and reported on the ``Processed``.
        Idempotent: events already processed are skipped by the store, so a job
        delivered twice changes nothing."""
        try:
            event_ids = [str(e) for e in payload["event_ids"]]
            profile = get_profile(str(payload.get("profile") or "chat"))
        except (KeyError, TypeError, ValueError, InvalidInput) as exc:
            raise InvalidInput(f"malformed ingest job payload: {exc}", field="payload") from exc
        timer = timer or StepTimer()
        for attempt in range(MAX_RECONCILE_ATTEMPTS):
            todo = await self._store.unprocessed(tenant_id, event_ids)
            events = await self._store.get_events(tenant_id, todo)
            if not events:
                return Processed()
            with timer.step(GATE):
                gated = await self._gate_stored(events, profile)
            async with self._understander.understand(gated, profile, timer) as understood:
                now = self._clock()
                with timer.step(RECONCILIATION):
                    built = await self._knowledge.build(
                        events[0].scope, understood.said, understood.vectors, now
                    )
                built.knowledge.history += _item_history(understood, now)
                await understood.attach_fact_vectors(built.knowledge, timer)
            items = [p for m in understood.pending for p in m.items]
            merges = {m.event.id: m.merged_into for m in understood.pending if m.merged_into}
            try:
                with timer.step(STORE):
                    inserted = set(
                        await self._store.add_items(
                            Attachment(items, built.knowledge, merges, event_ids=todo)
                        )
                    )
            except StaleKnowledge:
                if attempt == MAX_RECONCILE_ATTEMPTS - 1:
                    raise
                continue
            if not inserted and len(await self._store.get_events(tenant_id, todo)) < len(todo):
                # the user was erased while this job ran: it stored nothing, and the
                # embedding cache must not keep (the hashes of) the texts it embedded
                hashes = [text_hash(t) for t in understood.vectors]
                await erase_embeddings(self._store, self._embedder, hashes)
                log.info("the events of an ingest job were erased while it ran; it stored nothing")
                return Processed(steps=timer.reports())
            return Processed(
                items={
                    m.event.id: [p.item.id for p in m.items if p.item.id in inserted]
                    + m.merged_into
                    for m in understood.pending
                },
                knowledge=_merge_reports(understood.report, built.report),
                degraded=understood.degraded + built.degraded,
                steps=timer.reports(),
            )
        raise AssertionError("unreachable")

    async def _gate_stored(
        self, events: Sequence[Event], profile: IngestProfile
    ) -> list[PendingMessage]:
        """Stored events (a worker's job) through the gate, in order, each continuing
        the thread the one before it left."""
        contexts, thread = await self._contexts(events, written=len(events))
        gated = []
        for e, c in zip(events, contexts, strict=True):
            pending, thread = self._gate(e.content, e, profile, c, thread)
            gated.append(pending)
        return gated

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

    async def _contexts(self, events: Sequence[Event], written: int) -> tuple[list[str], Thread]:
        """For each event, the message said just before it in the same scope, and the
        thread the first event continues (:func:`~cognimem.ingest.thread.contexts`);
        nothing to read when none of the events is ``written``."""
        if not written:
            return [""] * len(events), Thread()
        return await contexts(
            self._store, events, self._settings.date_order, self._settings.context_chars
        )

    def _gate(
        self,
        text: str,
        event: Event,
        profile: IngestProfile,
        context: str,
        thread: Thread,
    ) -> tuple[PendingMessage, Thread]:
        """Chunk ``text`` (the raw message, or a stored event's masked content) into items,
        each dated by what it tells of ("two days later" counted from ``thread.after``,
        the event the previous messages told of last; an event with no time word by
        ``thread.answers``, the period of the question it answers, else by when it was
        said); and the thread the next message continues."""
        result = PendingMessage(event=event)
        after, ended = thread.after, thread.ended
        told: Period | None = None
        for chunk in chunk_text(text, self._settings.chunk_tokens, self._count):
            clean = self._clean(chunk, result)
            if clean is None:
                continue
            period = event_period(
                clean,
                event.occurred_at,
                after=after,
                date_order=self._settings.date_order,
                answers=thread.answers,
                ended=ended,
            )
            if period is not None:
                after = told = period
                ended = ends_a_span(clean)
            result.items.append(self._pending_item(clean, event, profile, context, period))
        if result.skipped_chunks:
            log.info(
                "skipped %d chunk(s) carrying secrets in event %s", result.skipped_chunks, event.id
            )
        return result, Thread(after, ended=ended).said(text, told)

    def _clean(self, chunk: str, result: PendingMessage) -> str | None:
        """``chunk`` as stored: None when it carries a secret (counted as skipped),
        else with its PII redacted (counted by kind)."""
        if self._settings.skip_secrets and (find_secrets(chunk) or SECRET_MARK in chunk):
            result.skipped_chunks += 1
            return None
        if not self._settings.redact_pii:
            return chunk
        redaction = redact_pii(chunk)
        for pii_kind, n in redaction.counts.items():
            result.redactions[pii_kind] = result.redactions.get(pii_kind, 0) + n
        return redaction.text

    def _pending_item(
        self,
        clean: str,
        event: Event,
        profile: IngestProfile,
        context: str,
        period: Period | None,
    ) -> PendingItem:
        """The item of one clean chunk of ``event``, dated by ``period``, with the texts
        it is embedded and indexed by (the index's with the message said before it)."""
        start, end = period or (None, None)
        item = MemoryItem(
            id=new_id("mem"),
            scope=event.scope,
            text=clean,
            kind=profile.kind,
            tier=profile.tier,
            importance=profile.importance,
            source_event_ids=[event.id],
            external_ids=[event.external_id] if event.external_id else [],
            author=event.name,
            occurred_at=event.occurred_at,
            recorded_at=event.recorded_at,
            event_start=start,
            event_end=end,
            token_count=self._count(clean),
            embedding_model=self._embedder.model_id,
            metadata=event.metadata,
        )
        own = index_text(event.name, clean)
        return PendingItem(
            item=item,
            embedding=None,
            embed_text=own,
            search_text=f"{context}\n{own}" if context else own,
        )


@dataclass
class Processed:
    """What a worker's job did: item ids by event, the knowledge report, problems, and
    its steps' latencies (as a write's ``steps``; none when it had nothing to do)."""

    items: dict[str, list[str]] = field(default_factory=dict)
    knowledge: KnowledgeReport = field(default_factory=KnowledgeReport)
    degraded: list[str] = field(default_factory=list)
    steps: list[WriteStepReport] = field(default_factory=list)


def _merge_reports(a: KnowledgeReport, b: KnowledgeReport) -> KnowledgeReport:
    """``a`` (extraction and merging) completed with ``b`` (reconciliation)."""
    return b.model_copy(
        update={"extractor": a.extractor, "llm_ran": a.llm_ran, "items_merged": a.items_merged}
    )


def _item_history(understood: Understood, now: datetime) -> list[HistoryEntry]:
    """A history entry for every existing item that absorbed a repeated message."""
    return [
        HistoryEntry.new(
            tenant_id=m.event.scope.tenant_id,
            target_type="item",
            target_id=item_id,
            action="merged",
            at=now,
            after={"added_event": m.event.id},
            event_id=m.event.id,
        )
        for m in understood.pending
        for item_id in m.merged_into
    ]
