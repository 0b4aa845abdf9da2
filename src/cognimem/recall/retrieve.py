"""The read path, first version: lexical + vector in parallel, fused, budgeted."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime

from cognimem.errors import ProviderError
from cognimem.models import ContextPacket, ItemKind, Scope, StepReport
from cognimem.models.clock import to_utc
from cognimem.providers.embeddings import Embedder
from cognimem.providers.tokens import count_tokens
from cognimem.recall.analyze import query_terms
from cognimem.recall.assemble import assemble
from cognimem.recall.fuse import fuse
from cognimem.recall.presets import RecallConfig
from cognimem.store.base import Candidate, ItemFilter, Store

log = logging.getLogger(__name__)


class Reader:
    """Runs one read: plan the steps, run them under timeouts, fuse, assemble."""

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self._store = store
        self._embedder = embedder

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
    ) -> ContextPacket:
        reference_time = to_utc(reference_time)
        end = reference_time if until is None else min(to_utc(until), reference_time)
        flt = ItemFilter(
            scope=scope,
            kinds=kinds,
            since=None if since is None else to_utc(since),
            until=end,
        )
        depth = max(config.candidates, limit)
        steps: dict[str, Callable[[], Awaitable[list[Candidate]]]] = {}
        if config.lexical:
            terms = query_terms(query)
            steps["lexical"] = lambda: self._store.lexical_search(flt, terms, depth)
        if config.vector:

            async def vector() -> list[Candidate]:
                embedded = await self._embedder.embed([query], "query")
                return await self._store.vector_search(flt, embedded[0], depth)

            steps["vector"] = vector

        names = list(steps)
        outcomes = await asyncio.gather(
            *(_timed(name, steps[name], config.step_timeout_s) for name in names)
        )
        lists = {name: found for name, (found, _) in zip(names, outcomes, strict=True)}
        reports = [report for _, report in outcomes]
        degraded = [
            f"{r.name}: {'timed out' if r.timed_out else r.error}"
            for r in reports
            if r.timed_out or r.error
        ]
        ranked = fuse(lists, config)
        wanted = ranked[: max(limit * 3, limit + 20)]
        items = await self._store.get_items(scope.tenant_id, [i for i, _, _ in wanted])
        by_id = {item.id: item for item in items}
        rows = [(by_id[i], score, sig) for i, score, sig in wanted if i in by_id]
        chosen, used, truncated = assemble(rows, limit, max_tokens, count_tokens)
        return ContextPacket(
            query=query,
            items=chosen,
            token_count=used,
            max_tokens=max_tokens,
            truncated=truncated,
            reference_time=reference_time,
            preset=config.name,
            degraded=degraded,
            steps=reports,
        )


async def _timed(
    name: str, step: Callable[[], Awaitable[list[Candidate]]], timeout_s: float
) -> tuple[list[Candidate], StepReport]:
    """Run a step under its timeout; a failure or timeout is reported, never hidden."""
    start = time.perf_counter()
    found: list[Candidate] = []
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
        results=len(found),
        timed_out=timed_out,
        error=error,
    )
    return found, report
