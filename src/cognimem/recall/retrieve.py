"""The read path: lexical, vector and fact steps in parallel under timeouts, fused,
sections for the constraints and facts that bear on the query, budgeted."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TypeVar

import numpy as np

from cognimem.errors import ProviderError
from cognimem.models import ContextPacket, ItemKind, Scope, StepReport
from cognimem.models.clock import to_utc
from cognimem.models.packets import MARKDOWN_HEADER, PacketSections
from cognimem.providers.embeddings import Embedder
from cognimem.providers.tokens import count_tokens
from cognimem.recall.analyze import asks_about_past, query_terms, query_time_range
from cognimem.recall.assemble import assemble, assemble_sections
from cognimem.recall.constraints import QueryView, Scored, SectionConfig, pick_facts
from cognimem.recall.fuse import fuse
from cognimem.recall.presets import RecallConfig
from cognimem.store.base import Candidate, FactRows, ItemFilter, Store

T = TypeVar("T")
MAX_FACTS_SCANNED = 500

log = logging.getLogger(__name__)


class Reader:
    """Runs one read: plan the steps, run them under timeouts, fuse, assemble."""

    def __init__(
        self, store: Store, embedder: Embedder, sections: SectionConfig | None = None
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._sections = sections or SectionConfig()

    async def _embed_query(self, query: str) -> np.ndarray:
        embedded = await self._embedder.embed([query], "query")
        return np.asarray(embedded[0], dtype=np.float32)

    async def _facts(
        self, scope: Scope, embedding: asyncio.Task[np.ndarray]
    ) -> tuple[FactRows, np.ndarray | None]:
        """The user's live facts in compact form, and the query's embedding (None if
        embedding failed: tags and words still select constraints)."""
        rows = await self._store.fact_rows(
            scope.tenant_id, scope.namespace, scope.user_id, MAX_FACTS_SCANNED
        )
        if not rows.ids:
            return rows, None
        try:
            query_vector: np.ndarray | None = await embedding
        except ProviderError:
            query_vector = None  # the vector step reports the failure
        return rows, query_vector

    async def read(
        self,
        query: str,
        scope: Scope,
        *,
        config: RecallConfig,
        limit: int,
        max_tokens: int,
        reference_time: datetime,
        kinds: tuple[ItemKind, ...] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        timezone: str | None = None,
    ) -> ContextPacket:
        reference_time = to_utc(reference_time)
        end = reference_time if until is None else min(to_utc(until), reference_time)
        start = None if since is None else to_utc(since)
        meta: dict[str, object] = {}
        period = query_time_range(query, reference_time, timezone) if config.time_filter else None
        if period is not None and period[0] < reference_time and asks_about_past(query):
            # the query asks what happened in a period ("what did I do last week?"):
            # only it counts. A request that merely names a time ("move the review to
            # Thursday", "plan this weekend") is not a recall of it
            start = period[0] if start is None else max(start, period[0])
            end = min(end, period[1] - timedelta(microseconds=1))
            meta["time_range"] = [period[0].isoformat(), period[1].isoformat()]
        flt = ItemFilter(scope=scope, kinds=kinds, since=start, until=end)
        depth = max(config.candidates, limit)
        embedding: asyncio.Task[np.ndarray] | None = None
        if config.vector or config.sections:
            embedding = asyncio.ensure_future(self._embed_query(query))
        steps: dict[str, Callable[[], Awaitable[list[Candidate]]]] = {}
        if config.lexical:
            terms = query_terms(query)
            steps["lexical"] = lambda: self._store.lexical_search(flt, terms, depth)
        if config.vector:
            assert embedding is not None

            async def vector() -> list[Candidate]:
                return await self._store.vector_search(flt, await embedding, depth)

            steps["vector"] = vector

        names = list(steps)
        runs: list[Awaitable[tuple[object, StepReport]]] = [
            _timed(name, steps[name], config.step_timeout_s) for name in names
        ]
        if config.sections:
            assert embedding is not None
            runs.append(
                _timed("facts", lambda: self._facts(scope, embedding), config.step_timeout_s)
            )
        outcomes = await asyncio.gather(*runs)
        if embedding is not None:
            if not embedding.done():
                embedding.cancel()
            elif not embedding.cancelled():
                embedding.exception()  # retrieved: a failure is already in a step's report
        lists = {
            name: found
            for name, (found, _) in zip(names, outcomes, strict=False)
            if isinstance(found, list)
        }
        reports = [report for _, report in outcomes]
        degraded = [
            f"{r.name}: {'timed out' if r.timed_out else r.error}"
            for r in reports
            if r.timed_out or r.error
        ]
        sections, reserved = PacketSections(), 0
        if config.sections:
            found_facts = outcomes[-1][0]
            if isinstance(found_facts, tuple):
                rows, query_vector = found_facts
                picks = pick_facts(QueryView.of(query, query_vector), rows, self._sections)
                fetched = await self._store.get_facts(scope.tenant_id, [p.fact_id for p in picks])
                facts_by_id = {f.id: f for f in fetched}
                chosen_facts = [
                    (Scored(facts_by_id[p.fact_id], p.score, p.signals), p.constraint)
                    for p in picks
                    if p.fact_id in facts_by_id
                ]
                sections, reserved = assemble_sections(
                    [s for s, constraint in chosen_facts if constraint],
                    [s for s, constraint in chosen_facts if not constraint],
                    int(max_tokens * self._sections.share_of_budget),
                    count_tokens,
                    first_budget=max_tokens - count_tokens(MARKDOWN_HEADER),
                )
        ranked = fuse(lists, config)
        wanted = ranked[: max(limit * 3, limit + 20)]
        items = await self._store.get_items(scope.tenant_id, [i for i, _, _ in wanted])
        by_id = {item.id: item for item in items}
        rows = [(by_id[i], score, sig) for i, score, sig in wanted if i in by_id]
        chosen, used, truncated = assemble(rows, limit, max_tokens, count_tokens, reserved)
        return ContextPacket(
            query=query,
            items=chosen,
            sections=sections,
            token_count=used,
            max_tokens=max_tokens,
            truncated=truncated,
            reference_time=reference_time,
            preset=config.name,
            degraded=degraded,
            steps=reports,
            meta=meta,
        )


async def _timed(
    name: str, step: Callable[[], Awaitable[T]], timeout_s: float
) -> tuple[T | None, StepReport]:
    """Run a step under its timeout; a failure or timeout is reported, never hidden."""
    start = time.perf_counter()
    found: T | None = None
    timed_out = False
    error: str | None = None
    try:
        found = await asyncio.wait_for(step(), timeout=timeout_s)
    except TimeoutError:
        timed_out = True
        log.warning("retrieval step %s timed out after %.3fs", name, timeout_s)
    except ProviderError as exc:
        error = f"{exc.type}: {exc.message}"
        log.warning("retrieval step %s degraded: %s", name, error)
    latency = (time.perf_counter() - start) * 1000
    report = StepReport(
        name=name,
        latency_ms=round(latency, 3),
        results=_count(found),
        timed_out=timed_out,
        error=error,
    )
    return found, report


def _count(found: object) -> int:
    if isinstance(found, list):
        return len(found)
    if isinstance(found, tuple):  # the facts step: (fact rows, query vector)
        return len(found[0].ids)
    return 0
