"""The middle of the write funnel: extract, embed and merge near-duplicate items.

With an LLM extractor, the items' texts go to the embedder as soon as the batch is
gated and the model runs while the LLM is asked (onnxruntime and a remote embedder
leave the event loop free); the fact texts the LLM found are embedded next, while the
funnel merges near-duplicate items and builds the knowledge, and each new fact gets its
vector just before the commit. The rule extractor is Python on the same cores the model
runs on, so beside it the batch's items and facts go to the embedder in one call after
extraction (overlapping the two measured 1.19x slower on a busy 2-core machine, where
the model's two threads wait on each other when one loses its core). Either way every
distinct text is embedded once and gets the same vector.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

import numpy as np

from cognimem.errors import ProviderError
from cognimem.ingest.extract.coref import may_refer
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.ingest.implications import tag_areas
from cognimem.ingest.knowledge import Said, fact_text
from cognimem.ingest.scoring import novelty, write_importance
from cognimem.ingest.short_names import shortens_a_known_name
from cognimem.ingest.timing import EMBEDDING, EXTRACTION, RECONCILIATION, StepTimer
from cognimem.models import Event, KnowledgeReport, MemoryItem, Role
from cognimem.models.extraction import Extraction, ExtractionInput, Extractor
from cognimem.models.profiles import IngestProfile
from cognimem.providers.embeddings import Embedder
from cognimem.store.degraded import fallbacks
from cognimem.store.protocols import ItemStore, KnowledgeStore, ProcedureStore
from cognimem.store.types import ItemFilter, Knowledge, PendingItem, PendingMessage
from cognimem.text.areas import AreaDescriptions

log = logging.getLogger(__name__)

# how many of the user's earlier messages a pronoun may point back through
WINDOW = 6
# stored events :meth:`Understander._window` reads first (all of them when it holds fewer
# than WINDOW of the user's messages before the batch)
_FIRST_READ = 4 * WINDOW


class _Store(ItemStore, ProcedureStore, KnowledgeStore, Protocol):
    """What the middle of the funnel reads: items, the conversation so far, and the
    names the scope knows."""


Vectors = dict[str, np.ndarray]


@dataclass
class Understood:
    """A batch after chunking, gating, extraction and the items' embedding, before
    reconciliation; its fact texts may still be embedding (see :meth:`attach_fact_vectors`)."""

    pending: list[PendingMessage]
    said: list[Said]
    vectors: Vectors
    """Every text embedded for the batch: the items' now, the facts' once attached."""
    report: KnowledgeReport
    degraded: list[str]
    merged: list[str]
    fact_vectors: asyncio.Task[Vectors] | None = None

    async def attach_fact_vectors(self, knowledge: Knowledge, timer: StepTimer) -> None:
        """Wait for the fact texts' vectors (timed as embedding); give each new fact of
        ``knowledge`` its own."""
        if self.fact_vectors is not None:
            with timer.step(EMBEDDING):
                self.vectors.update(await self.fact_vectors)
        for pending in knowledge.facts:
            if pending.embedding is None:
                pending.embedding = self.vectors.get(pending.embed_text)


class Understander:
    """Extract (one call per batch), embed items and facts (each distinct text once), and
    fold near-duplicate items into the ones already stored."""

    def __init__(
        self,
        store: _Store,
        embedder: Embedder,
        merge_similarity: float | None,
        llm_extractor: Extractor | None = None,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._threshold = merge_similarity
        self._rules = RuleExtractor()
        self._llm = llm_extractor
        self._areas = AreaDescriptions()

    @contextlib.asynccontextmanager
    async def understand(
        self, gated: list[PendingMessage], profile: IngestProfile, timer: StepTimer
    ) -> AsyncIterator[Understood]:
        """The batch understood, each step timed on ``timer``; with an LLM extractor, the
        fact texts' embedding runs until the caller awaits
        :meth:`Understood.attach_fact_vectors` inside the block (it is cancelled if the
        block leaves first)."""
        item_texts = list(dict.fromkeys(p.embed_text for m in gated for p in m.items))
        embedding = None
        if self._llm is not None and profile.extract:  # the model runs while the LLM answers
            embedding = asyncio.create_task(self._embed(item_texts))
        facts: asyncio.Task[Vectors] | None = None
        try:
            with timer.step(EXTRACTION):
                extractions, report, degraded = await self._extract_all(gated, profile)
            texts = list(dict.fromkeys(fact_text(f) for x in extractions for f in x.facts))
            with timer.step(EMBEDDING):
                if embedding is None:
                    vectors = await self._embed(list(dict.fromkeys([*item_texts, *texts])))
                else:
                    vectors = await embedding
            for p in (p for m in gated for p in m.items):  # as extraction replaced them
                p.embedding = vectors[p.embed_text]
            with timer.step(EXTRACTION):
                extractions = await self._tag_areas(gated, extractions, vectors, report.extractor)
            fact_texts = [t for t in texts if t not in vectors]
            if fact_texts:
                facts = asyncio.create_task(self._embed(fact_texts))
            with timer.step(RECONCILIATION):
                merged = await self._merge_near_duplicates(gated, profile, degraded)
            report.items_merged = merged
            said = [
                Said(
                    event=m.event,
                    item_ids=[p.item.id for p in m.items] + m.merged_into,
                    extraction=x,
                )
                for m, x in zip(gated, extractions, strict=True)
            ]
            yield Understood(gated, said, dict(vectors), report, degraded, merged, facts)
        finally:
            started = [t for t in (embedding, facts) if t is not None]
            for task in started:
                task.cancel()  # nothing when it is done
            if started:
                await asyncio.wait(started)
            for task in started:  # retrieved: what the block raised, if anything, stands
                if not task.cancelled():
                    task.exception()

    async def _tag_areas(
        self,
        gated: list[PendingMessage],
        extractions: list[Extraction],
        vectors: Vectors,
        extractor: str | None,
    ) -> list[Extraction]:
        """The constraints' decision areas (``ingest/implications.py``); the rule path
        reads the areas' descriptions' vectors (embedded once)."""
        by_llm = extractor == "llm"
        if not any(x.facts for x in extractions):
            return extractions
        descriptions = None if by_llm else await self._areas.matrix(self._embed_matrix)
        texts = [m.event.content for m in gated]
        return tag_areas(extractions, texts, vectors, descriptions, by_llm=by_llm)

    async def _embed_matrix(self, texts: Sequence[str]) -> np.ndarray:
        return await self._embedder.embed(texts, "document")

    async def _extract_all(
        self, gated: list[PendingMessage], profile: IngestProfile
    ) -> tuple[list[Extraction], KnowledgeReport, list[str]]:
        """Each message's extraction (empty for those not read), the items' importance
        set from it."""
        report = KnowledgeReport()
        degraded: list[str] = []
        extractions: list[Extraction] = [Extraction() for _ in gated]
        readable = [
            i
            for i, m in enumerate(gated)
            if profile.extract and m.event.role is Role.USER and (m.items or m.merged_into)
        ]
        if readable:
            inputs = [
                ExtractionInput(
                    text=gated[i].event.content,
                    occurred_at=gated[i].event.occurred_at,
                    author=gated[i].event.name,
                    role=gated[i].event.role.value,
                )
                for i in readable
            ]
            if self._llm is None and await self._refers_back(inputs, gated[readable[0]].event):
                context = await self._window([gated[i].event for i in readable])
                inputs[0] = inputs[0].model_copy(update={"context": context})
            found, report.extractor, problem = await self._extract(inputs)
            report.llm_ran = self._llm is not None
            if problem:
                degraded.append(problem)
            for i, extraction in zip(readable, found, strict=True):
                extractions[i] = extraction
        by_llm = report.extractor == "llm"
        for m, x in zip(gated, extractions, strict=True):
            m.items = [
                replace(
                    p,
                    item=p.item.model_copy(
                        update={
                            "importance": write_importance(
                                p.item.text,
                                profile.importance,
                                judged=x.importance if by_llm else None,
                                fact_importance=None if by_llm else x.importance,
                                categories=[f.category for f in x.facts],
                            )
                        }
                    ),
                )
                for p in m.items
            ]
        return extractions, report, degraded

    async def _extract(
        self, inputs: list[ExtractionInput]
    ) -> tuple[list[Extraction], Literal["rules", "llm"], str | None]:
        if self._llm is not None:
            try:
                return await self._llm.extract(inputs), "llm", None
            except ProviderError as exc:
                log.warning(
                    "LLM extraction failed, the rule extractor ran instead: %s: %s",
                    exc.type,
                    exc.message,
                )
                problem = f"llm extraction failed ({exc.type}: {exc.message}); rules used"
                return await self._rules.extract(inputs), "rules", problem
        return await self._rules.extract(inputs), "rules", None

    async def _refers_back(self, inputs: Sequence[ExtractionInput], first: Event) -> bool:
        """Whether the batch may point back to someone named before it: a pronoun or a
        role word, or a short form of a person's name the scope knows ("Dom")."""
        texts = [x.text for x in inputs]
        if any(map(may_refer, texts)):
            return True
        return await shortens_a_known_name(self._store, first.scope, texts)

    async def _window(self, events: Sequence[Event]) -> tuple[str, ...]:
        """The user's messages said just before ``events`` in the same conversation
        (session and agent), oldest first: who a pronoun may point back to."""
        first = events[0]
        own = {e.id for e in events}
        limit = WINDOW + len(own)
        # the latest few first: the same window whenever they hold WINDOW of its messages
        # (both reads are prefixes of one order), without decoding a whole batch's worth
        # of stored events (~14 ms for 1,006 at a batch of 1,000, against ~0.3 for 24)
        for take in dict.fromkeys((min(_FIRST_READ, limit), limit)):
            recent = await self._store.conversation_events(first.scope, take)
            said = [
                e.content
                for e in recent
                if e.id not in own
                and e.role is Role.USER
                and e.scope == first.scope
                and e.occurred_at <= first.occurred_at
            ]
            if len(said) >= WINDOW or len(recent) < take:
                break
        return tuple(said[-WINDOW:])

    async def _embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return {}
        matrix = await self._embedder.embed(texts, "document")
        return dict(zip(texts, matrix, strict=True))

    async def _merge_near_duplicates(
        self, gated: list[PendingMessage], profile: IngestProfile, degraded: list[str]
    ) -> list[str]:
        """Items nearly identical (cosine ≥ the threshold, and the same numbers) to a
        stored item of the same scope and kind, or to an earlier item of this batch, are
        not inserted: their event joins that item's provenance. Every item kept gets its
        novelty (``ingest/scoring.py``) from the same search."""
        threshold = self._threshold
        merged: list[str] = []
        items = [p for m in gated for p in m.items]
        if not items:
            return []
        nearest, stored = await self._stored_repeats(items, profile, degraded)
        # the items of this write kept so far, and their vectors as the rows of one
        # matrix: each new item is compared with all of them in one product
        kept: list[MemoryItem] = []
        first = next(p.embedding for p in items if p.embedding is not None)
        matrix = np.empty((len(items), first.shape[0]), dtype=first.dtype)
        for m in gated:
            keep: list[PendingItem] = []
            for p in m.items:
                assert p.embedding is not None
                target = stored.get(p.item.id)
                similar = nearest[p.item.id]
                if kept:  # the earlier items of this same write
                    cosines = matrix[: len(kept)] @ p.embedding
                    best = float(cosines.max())
                    similar = best if similar is None else max(similar, best)
                    if target is None and threshold is not None and best >= threshold:
                        target = next(
                            (
                                kept[i].id
                                for i in np.flatnonzero(cosines >= threshold)
                                if _same_numbers(kept[i].text, p.item.text)
                            ),
                            None,
                        )
                if target is None:
                    p.item = p.item.model_copy(update={"novelty": novelty(similar)})
                    keep.append(p)
                    matrix[len(kept)] = p.embedding
                    kept.append(p.item)
                elif target not in m.merged_into:
                    m.merged_into.append(target)
                    merged.append(target)
            m.items = keep
        return list(dict.fromkeys(merged))

    async def _stored_repeats(
        self, items: list[PendingItem], profile: IngestProfile, degraded: list[str]
    ) -> tuple[dict[str, float | None], dict[str, str]]:
        """With one search for the whole write: each new item's closeness to its nearest
        stored item of the same scope and kind (None: none), and the stored item each
        one repeats (as close as the threshold, and the same numbers)."""
        threshold = self._threshold
        flt = ItemFilter(scope=items[0].item.scope, kinds=(profile.kind,))
        queries = np.vstack([p.embedding for p in items if p.embedding is not None])
        hits = await self._store.nearest(flt, queries)
        degraded += fallbacks([hits])  # the search fell back (a failed vector index)
        nearest = {
            p.item.id: None if h is None else h.score for p, h in zip(items, hits, strict=True)
        }
        close = {
            p.item.id: hit.item_id
            for p, hit in zip(items, hits, strict=True)
            if hit is not None and threshold is not None and hit.score >= threshold
        }
        if not close:
            return nearest, {}
        found = await self._store.get_items(
            items[0].item.scope.tenant_id, sorted(set(close.values()))
        )
        texts = {i.id: i.text for i in found}
        by_new = {p.item.id: p for p in items}
        stored = {
            new: old
            for new, old in close.items()
            if old in texts and _same_numbers(texts[old], by_new[new].item.text)
        }
        return nearest, stored


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _same_numbers(a: str, b: str) -> bool:
    """Texts that differ in a number ("ran 5 miles" / "ran 6 miles") say different things,
    however close their embeddings are."""
    return _NUMBER.findall(a) == _NUMBER.findall(b)
