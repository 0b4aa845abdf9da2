"""Prometheus metrics of one app (``GET /metrics``, see ``docs/metrics.md``).

Each :class:`Metrics` owns its own ``CollectorRegistry``, so several apps in one process
(tests, embedded servers) never share or clash over series. Routes report what they
learned from ``Memory`` with :meth:`Metrics.observe_read`, :meth:`Metrics.observe_write`
and :meth:`Metrics.observe_turn`; request latency is recorded by the HTTP middleware; queue
depth and embedding cache counters are read at scrape time (:meth:`Metrics.render`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.registry import Collector

from cognimem.errors import CognimemError

if TYPE_CHECKING:
    from cognimem.memory import Memory
    from cognimem.models import ContextPacket, Turn, WriteResult, WriteStepReport

log = logging.getLogger(__name__)

# request latency: 5 ms .. 30 s; retrieval steps are faster, 1 ms .. 10 s
_HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_STEP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
# CPU per read: 0.5 ms .. 2.5 s
_CPU_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# lifecycle runs: 10 ms .. 30 min
_LIFECYCLE_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 1800.0)
_MAX_REASON = 64  # label values stay short and few

UNMATCHED_ROUTE = "unmatched"


def degraded_reason(entry: str) -> str:
    """The label of a ``degraded`` entry: the text before its first ``:``."""
    return entry.partition(":")[0].strip()[:_MAX_REASON] or "unknown"


def _label(flag: bool) -> str:
    return "true" if flag else "false"


class _EmbeddingCacheCollector(Collector):
    """Hit and miss counters of the Memory's embedding cache, read at scrape time."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory

    def collect(self) -> Iterable[Metric]:
        embedder = self._memory.embedder
        hits, misses = getattr(embedder, "hits", None), getattr(embedder, "misses", None)
        if not isinstance(hits, int) or not isinstance(misses, int):
            return  # no cache layer: no series
        yield CounterMetricFamily(
            "cognimem_embedding_cache_hits",
            "Texts whose embedding was served by the cache (LRU or shared tier).",
            value=hits,
        )
        yield CounterMetricFamily(
            "cognimem_embedding_cache_misses",
            "Texts the embedding model had to embed.",
            value=misses,
        )
        total = hits + misses
        yield GaugeMetricFamily(
            "cognimem_embedding_cache_hit_ratio",
            "hits / (hits + misses) since the process started (NaN before any lookup).",
            value=hits / total if total else math.nan,
        )


class _ScopeCacheCollector(Collector):
    """Bytes held and evictions of the store's in-process copies of scopes, read at
    scrape time (``store/cache_budget.py``)."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory

    def collect(self) -> Iterable[Metric]:
        budget = getattr(self._memory.store, "cache_budget", None)
        if budget is None:
            return
        yield GaugeMetricFamily(
            "cognimem_scope_cache_bytes",
            "Estimated bytes of the scopes' vector matrices, lexical postings, decoded"
            " facts and graph edges held in this process.",
            value=budget.held_bytes,
        )
        yield GaugeMetricFamily(
            "cognimem_scope_cache_max_bytes",
            "The cap on them (COGNIMEM_CACHE_MAX_MB).",
            value=math.inf if budget.max_bytes is None else budget.max_bytes,
        )
        yield CounterMetricFamily(
            "cognimem_scope_cache_evictions",
            "Scope copies dropped (or not kept) to stay within the cap or a count.",
            value=budget.evictions,
        )
        status = getattr(self._memory.store, "vector_index_status", None)
        if status is None:  # SQLite only: PostgreSQL searches through pgvector
            return
        state = status()
        searches = CounterMetricFamily(
            "cognimem_vector_searches",
            "SQLite vector searches (reads and near-duplicate checks) by how they were"
            " answered: hnsw, exact (a scope below COGNIMEM_VECTOR_INDEX_MIN_ROWS),"
            " exact_unindexed (its index being built, or unavailable), exact_filtered.",
            labels=["method"],
        )
        for method, n in sorted(state["searches"].items()):
            searches.add_metric([method], n)
        yield searches
        yield GaugeMetricFamily(
            "cognimem_vector_index_degraded",
            "1 while a SQLite scope's vector index failed (usearch missing, a build or an"
            " update failed: scanned exactly) and is not built again yet, else 0.",
            value=0 if state["degraded"] is None else 1,
        )


class _BackgroundFailuresCollector(Collector):
    """Failures of the Memory's background tasks (``Memory.background_failures``), read
    at scrape time."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory

    def collect(self) -> Iterable[Metric]:
        failures = CounterMetricFamily(
            "cognimem_background_failures",
            "Failures of this process's background tasks, by task (access_flush: the"
            " reads' access counts not written, kept for the next flush; planner_analyze:"
            " an ANALYZE after bulk writes on PostgreSQL).",
            labels=["task"],
        )
        for task, n in sorted(self._memory.background_failures.items()):
            failures.add_metric([task], n)
        yield failures


class Metrics:
    """The app's instruments and its registry."""

    def __init__(self, memory: Memory | None = None) -> None:
        self.memory = memory
        self.registry = CollectorRegistry(auto_describe=True)
        # each labelled series, looked up once (``labels`` takes a lock and checks every
        # value on each call; the series never change once made)
        self._series: dict[tuple[MetricWrapperBase, tuple[str, ...]], Any] = {}
        self._add_latency_instruments(self.registry)
        self._add_outcome_counters(self.registry)
        self._add_lifecycle_instruments(self.registry)
        # only with a queue configured: a constant 0 would say "all caught up"
        self.queue_depth: Gauge | None = None
        if memory is not None and memory.queue is not None:
            self.queue_depth = Gauge(
                "cognimem_queue_depth",
                "Jobs queued or running in the async-ingestion queue (at scrape time; "
                "NaN when the queue cannot be reached).",
                registry=self.registry,
            )
        if memory is not None:
            self.registry.register(_EmbeddingCacheCollector(memory))
            self.registry.register(_ScopeCacheCollector(memory))
            self.registry.register(_BackgroundFailuresCollector(memory))
            memory.observe_lifecycle(self.observe_lifecycle)
            memory.observe_jobs(self.observe_job)

    def _add_latency_instruments(self, r: CollectorRegistry) -> None:
        """The HTTP, retrieval-step and write-step latency histograms."""
        self.http_request_duration = Histogram(
            "cognimem_http_request_duration_seconds",
            "HTTP request latency by method, route template and status code.",
            ["method", "route", "status"],
            buckets=_HTTP_BUCKETS,
            registry=r,
        )
        self.retrieval_step_duration = Histogram(
            "cognimem_retrieval_step_duration_seconds",
            "Latency of the retrieval steps that ran, by step kind.",
            ["step"],
            buckets=_STEP_BUCKETS,
            registry=r,
        )
        self.write_step_duration = Histogram(
            "cognimem_write_step_duration_seconds",
            "Latency of the write funnel's steps (gate, extraction, embedding, "
            "reconciliation, store) by path (write: a write this process answered; "
            "ingest_job: a queued write's job it ran) and step.",
            ["path", "step"],
            buckets=_STEP_BUCKETS,
            registry=r,
        )
        self.read_cpu = Histogram(
            "cognimem_read_cpu_seconds",
            "CPU time of the serving process (all its threads) while it answered a read.",
            buckets=_CPU_BUCKETS,
            registry=r,
        )

    def _add_outcome_counters(self, r: CollectorRegistry) -> None:
        """The counters of how reads, turns and writes turned out."""
        self.retrieval_steps_incomplete = Counter(
            "cognimem_retrieval_steps_incomplete",
            "Retrieval steps that did not complete, by step kind and reason "
            "(timeout, error or skipped).",
            ["step", "reason"],
            registry=r,
        )
        self.reads_with_facts = Counter(
            "cognimem_reads_with_facts",
            "Reads (and turns' reads) by whether their fact or constraint sections held an entry.",
            ["with_facts"],
            registry=r,
        )
        self.turns_facts_cited = Counter(
            "cognimem_turns_facts_cited",
            "Turns with an answer whose read had fact or constraint entries, by whether "
            "the answer cited one of them.",
            ["cited"],
            registry=r,
        )
        self.ingest_messages = Counter(
            "cognimem_ingest_messages",
            "Written messages by outcome (stored, duplicate, skipped_secret, queued).",
            ["outcome"],
            registry=r,
        )
        self.degraded = Counter(
            "cognimem_degraded",
            "Reads and writes that ran degraded, by path (read, write) and reason.",
            ["path", "reason"],
            registry=r,
        )

    def _add_lifecycle_instruments(self, r: CollectorRegistry) -> None:
        """The lifecycle runs' duration histogram and item and failure counters."""
        self.lifecycle_duration = Histogram(
            "cognimem_lifecycle_duration_seconds",
            "Wall-clock time of the lifecycle runs in this process (dry runs, and jobs it "
            "ran), failed or not, by operation.",
            ["operation"],
            buckets=_LIFECYCLE_BUCKETS,
            registry=r,
        )
        self.lifecycle_items = Counter(
            "cognimem_lifecycle_items",
            "Records the successful lifecycle runs went through, by operation.",
            ["operation"],
            registry=r,
        )
        self.lifecycle_failures = Counter(
            "cognimem_lifecycle_failures",
            "Lifecycle runs that failed, by operation.",
            ["operation"],
            registry=r,
        )

    # -- what the routes and middleware report ----------------------------------------------
    def _labelled(self, metric: MetricWrapperBase, *values: str) -> Any:
        """``metric.labels(*values)``, from this registry's lookup after the first call."""
        key = (metric, values)
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = metric.labels(*values)
        return series

    def observe_http(self, method: str, route: str, status: int, seconds: float) -> None:
        self._labelled(self.http_request_duration, method, route, str(status)).observe(seconds)

    def observe_read(self, packet: ContextPacket, cpu_seconds: float | None = None) -> None:
        """Count a read's retrieval steps, degradations and whether it found facts; and
        its CPU time when the route measured it."""
        if cpu_seconds is not None:
            self.read_cpu.observe(cpu_seconds)
        with_facts = bool(packet.sections.entries())
        self._labelled(self.reads_with_facts, _label(with_facts)).inc()
        for step in packet.steps:
            if step.skipped is not None:
                self._labelled(self.retrieval_steps_incomplete, step.name, "skipped").inc()
                continue
            self._labelled(self.retrieval_step_duration, step.name).observe(step.latency_ms / 1000)
            if step.timed_out:
                self._labelled(self.retrieval_steps_incomplete, step.name, "timeout").inc()
            elif step.error is not None:
                self._labelled(self.retrieval_steps_incomplete, step.name, "error").inc()
        self._degraded("read", packet.degraded)

    def observe_write(self, result: WriteResult) -> None:
        """Count a write's per-message outcomes, degradations and step latencies."""
        for message in result.messages:
            self.ingest_messages.labels(message.outcome.value).inc()
        self._steps("write", result.steps)
        self._degraded("write", result.degraded)

    def observe_turn(self, turn: Turn, *, answered: bool) -> None:
        """Count a turn's read and write, and (for a turn with an answer whose read had
        fact or constraint entries) whether the answer cited one of them: one of the
        memories an entry came from is among ``turn.cited`` (``recall/citations.py``)."""
        self.observe_read(turn.packet)
        self.observe_write(turn.stored)
        entries = turn.packet.sections.entries()
        if not answered or not entries:
            return
        cited = set(turn.cited)
        hit = any(item_id in cited for entry in entries for item_id in entry.item_ids)
        self.turns_facts_cited.labels(_label(hit)).inc()

    def observe_lifecycle(self, operation: str, seconds: float, touched: int | None) -> None:
        """Time a lifecycle run; count the records it went through, or its failure
        (``touched`` is ``None``)."""
        self.lifecycle_duration.labels(operation).observe(seconds)
        if touched is None:
            self.lifecycle_failures.labels(operation).inc()
        else:
            self.lifecycle_items.labels(operation).inc(touched)

    def observe_job(self, kind: str, degraded: list[str], steps: list[WriteStepReport]) -> None:
        """Count the degradations and time the write steps of a job this process ran
        (``path`` is its kind, ``ingest_job``, beside a write's ``write``)."""
        self._steps(f"{kind}_job", steps)
        self._degraded(f"{kind}_job", degraded)

    def _steps(self, path: str, steps: Iterable[WriteStepReport]) -> None:
        for step in steps:
            self._labelled(self.write_step_duration, path, step.name).observe(
                step.latency_ms / 1000
            )

    def _degraded(self, path: str, entries: Iterable[str]) -> None:
        for entry in entries:
            self._labelled(self.degraded, path, degraded_reason(entry)).inc()

    # -- scraping ---------------------------------------------------------------------------
    async def refresh(self, depth: Callable[[], Awaitable[int]] | None = None) -> None:
        """Update the gauges read at scrape time (queue depth), through ``depth`` when
        given (a metrics port reads it through a queue connection of its own loop), else
        through ``memory.queue``."""
        queue = None if self.memory is None else self.memory.queue
        read = depth or (None if queue is None else queue.depth)
        if read is None or self.queue_depth is None:
            return
        try:
            self.queue_depth.set(await read())
        except CognimemError as exc:
            log.warning("queue depth unavailable for /metrics: %s", exc.message)
            self.queue_depth.set(math.nan)

    async def render(self, depth: Callable[[], Awaitable[int]] | None = None) -> tuple[bytes, str]:
        """The exposition (Prometheus text format) and its content type (``depth``: as
        :meth:`refresh`)."""
        await self.refresh(depth)
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def samples(self) -> Iterator[tuple[str, dict[str, str], float]]:
        """Every current sample as ``(name, labels, value)`` (for tests and debugging)."""
        for metric in self.registry.collect():
            for s in metric.samples:
                yield s.name, dict(s.labels), s.value


__all__ = ["UNMATCHED_ROUTE", "Metrics", "degraded_reason"]
