"""The read path: analyze the query, plan the steps, run each group of steps
concurrently under per-step timeouts and the plan's total budget, fuse and rerank the
items, fill the sections, assemble the packet."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

import numpy as np

from cognimem.errors import ProviderError
from cognimem.models import ContextPacket, ItemKind, MemoryItem, Scope, StepReport
from cognimem.models.clock import to_utc
from cognimem.models.knowledge import AliasSource, Fact, FactConflict
from cognimem.models.packets import NOTHING_RELEVANT, ConflictEntry, PacketItem
from cognimem.providers.embeddings import Embedder
from cognimem.providers.tokens import count_tokens
from cognimem.recall.analyze import QueryAnalysis, analyze, speaks_in_person
from cognimem.recall.assemble import SectionInputs, assemble, assemble_sections, packet_item
from cognimem.recall.classify import QueryClassifier
from cognimem.recall.constraints import (
    Pick,
    QueryView,
    Scored,
    SectionConfig,
    pick_constraints,
    pick_other_facts,
)
from cognimem.recall.cross import CrossEncoders
from cognimem.recall.evidence import NO_EVIDENCE, EvidenceCheck
from cognimem.recall.explain import explanations
from cognimem.recall.focus import focus
from cognimem.recall.fuse import for_request, fuse
from cognimem.recall.graph import candidate_names, expand
from cognimem.recall.pairs import rank_answers
from cognimem.recall.plan import (
    ITEM_STEPS,
    PlannedStep,
    RetrievalPlan,
    StepKind,
    make_plan,
    named_subjects,
    with_user_keys,
)
from cognimem.recall.presets import RecallConfig
from cognimem.recall.rerank import Ranked, RankInput, mmr, rerank
from cognimem.recall.temporal import belongs, dated_signal
from cognimem.store.base import Candidate, FactQuery, FactRows, ItemFilter
from cognimem.store.roles import Store

MAX_FACTS_SCANNED = 500
MAX_GRAPH_EDGES = 5_000
MAX_SECTION_ITEMS = 20  # mandates; summaries and procedures take 3
_STABLE_KINDS = (ItemKind.MANDATE, ItemKind.GUARDRAIL)
# what a read with sections ranks in its list of memories: every kind but summaries
RANKED_KINDS = tuple(k for k in ItemKind if k is not ItemKind.SUMMARY)
VECTOR_STEPS = frozenset(
    {StepKind.VECTOR, StepKind.MANDATES, StepKind.SUMMARIES, StepKind.PROCEDURES}
)

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass
class StepOutput:
    """What one step found: items (as scored candidates), fact picks, whole facts."""

    candidates: list[Candidate] = field(default_factory=list)
    picks: list[Pick] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    conflicts: list[FactConflict] = field(default_factory=list)
    entity_names: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.candidates) + len(self.picks) + len(self.facts) + len(self.conflicts)


class _Run:
    """One read's shared state: the query embedding and the fact rows are each
    computed once, however many steps need them."""

    def __init__(
        self,
        reader: Reader,
        analysis: QueryAnalysis,
        scope: Scope,
        flt: ItemFilter,
        config: RecallConfig,
        depth: int,
    ) -> None:
        self.reader = reader
        self.store = reader.store
        self.analysis = analysis
        self.scope = scope
        self.flt = flt
        self.config = config
        self.depth = depth
        self._embedding: asyncio.Task[np.ndarray] | None = None
        self._rows: asyncio.Task[FactRows] | None = None
        self._view: QueryView | None = None
        # the vector-kind steps of the running group, answered by one store call
        self.group: tuple[PlannedStep, ...] = ()
        self._batches: dict[
            tuple[PlannedStep, ...], asyncio.Task[dict[StepKind, list[Candidate]]]
        ] = {}

    def embedding(self) -> asyncio.Task[np.ndarray]:
        if self._embedding is None:
            self._embedding = asyncio.ensure_future(self.reader.embed_query(self.analysis.query))
        return self._embedding

    async def vector_or_none(self) -> np.ndarray | None:
        """The query's embedding; None when embedding failed (the vector step reports
        it; tags and words still select constraints)."""
        try:
            return await asyncio.shield(self.embedding())
        except ProviderError:
            return None

    def fact_rows(self) -> asyncio.Task[FactRows]:
        if self._rows is None:
            s = self.scope
            self._rows = asyncio.ensure_future(
                self.store.fact_rows(s.tenant_id, s.namespace, s.user_id, MAX_FACTS_SCANNED)
            )
        return self._rows

    def _search_of(self, kind: StepKind) -> tuple[ItemFilter, int]:
        if kind is StepKind.VECTOR:
            return self.flt, self.depth
        kinds = {
            StepKind.MANDATES: _STABLE_KINDS,
            StepKind.SUMMARIES: (ItemKind.SUMMARY,),
            StepKind.PROCEDURES: (ItemKind.PROCEDURE_HINT,),
        }[kind]
        if kind is StepKind.SUMMARIES:  # summaries cover periods: the time filter holds
            return replace(self.flt, kinds=kinds), 3
        # mandates and procedures hold whatever the period
        limit = MAX_SECTION_ITEMS if kind is StepKind.MANDATES else 3
        return replace(self.flt, kinds=kinds, since=None, until=None, period=None), limit

    async def _vector_batch(self, kinds: tuple[StepKind, ...]) -> dict[StepKind, list[Candidate]]:
        vector = await asyncio.shield(self.embedding())
        found = await self.store.vector_searches([self._search_of(k) for k in kinds], vector)
        return dict(zip(kinds, found, strict=True))

    async def vector_step(self, kind: StepKind) -> StepOutput:
        """One of the group's vector-kind steps; the first to ask starts the group's
        single store call for all of them."""
        group = self.group
        task = self._batches.get(group)
        if task is None:
            kinds = tuple(s.kind for s in group if s.kind in VECTOR_STEPS)
            task = asyncio.ensure_future(self._vector_batch(kinds))
            self._batches[group] = task
        found = await asyncio.shield(task)
        return StepOutput(found[kind])

    def close(self) -> None:
        for task in (self._embedding, self._rows, *self._batches.values()):
            if task is None:
                continue
            if not task.done():
                task.cancel()
            elif not task.cancelled():
                task.exception()  # retrieved: a failure is already in a step's report

    async def view(self) -> QueryView:
        """What constraint and fact scoring need of the query, built once per read."""
        if self._view is None:
            vector = await self.vector_or_none()
            self._view = QueryView.of(self.analysis.query, vector, self.analysis.decision)
        return self._view

    # -- the steps -------------------------------------------------------------------
    async def run(self, step: PlannedStep) -> StepOutput:
        kind = step.kind
        if kind is StepKind.LEXICAL:
            terms = list(self.analysis.terms)
            return StepOutput(await self.store.lexical_search(self.flt, terms, self.depth))
        if kind in VECTOR_STEPS:
            return await self.vector_step(kind)
        if kind is StepKind.CONSTRAINTS:
            rows = await asyncio.shield(self.fact_rows())
            if not rows.ids:
                return StepOutput()
            view = await self.view()
            sections = self.reader.sections
            picks = pick_constraints(view, rows, sections, step.categories, light=step.light)
            return StepOutput(picks=picks)
        if kind is StepKind.FACTS:
            s = self.scope
            rows_task = asyncio.shield(self.fact_rows())
            conflicts = await self.store.find_conflicts(s.tenant_id, s.namespace, s.user_id)
            rows = await rows_task
            if not rows.ids:
                return StepOutput(conflicts=conflicts)
            view = await self.view()
            picks = pick_other_facts(view, rows, self.reader.sections)
            return StepOutput(picks=picks, conflicts=conflicts)
        if kind is StepKind.FACT_LOOKUP:
            s = self.scope
            keys = await self._with_user_keys(step.keys)
            query = FactQuery(s.tenant_id, s.namespace, s.user_id, keys=keys, limit=20)
            facts = await self.store.find_facts(query)
            found: dict[str, float] = {}
            for f in facts:
                for item_id in f.evidence_item_ids:
                    found.setdefault(item_id, f.confidence)
            return StepOutput([Candidate(i, score) for i, score in found.items()], facts=facts)
        if kind is StepKind.GRAPH:
            return await self._graph()
        raise AssertionError(f"no runner for step {kind}")  # pragma: no cover

    async def _with_user_keys(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        """``keys``, plus the user's own for a subject named by a name the user speaks
        under (see ``plan.named_subjects``)."""
        named = named_subjects(keys)
        if not named:
            return keys
        s = self.scope
        aliases = await self.store.find_aliases(s.tenant_id, s.namespace, s.user_id, named)
        return with_user_keys(
            keys, [a.alias for a in aliases if a.source is AliasSource.USER_STATED]
        )

    async def _graph(self) -> StepOutput:
        """Seeds from the alias table; the scope's edges are read only when the query
        names a known entity (most queries name none)."""
        s = self.scope
        aliases = await self.store.find_aliases(
            s.tenant_id, s.namespace, s.user_id, list(self.analysis.names)
        )
        seeds: dict[str, float] = {}
        for alias in aliases:
            seeds[alias.entity_id] = seeds.get(alias.entity_id, 0.0) + alias.confidence
        names = sorted({a.alias for a in aliases})
        if not seeds:
            return StepOutput(entity_names=names)
        edges = await self.store.graph_edges(s.tenant_id, s.namespace, s.user_id, MAX_GRAPH_EDGES)
        return StepOutput(expand(edges, seeds, limit=self.depth), entity_names=names)


class Reader:
    """Runs one read: analyze, plan, retrieve, rerank, assemble."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        sections: SectionConfig | None = None,
        classifier: QueryClassifier | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.sections = sections or SectionConfig()
        self.classifier = classifier
        self.cross_encoders = CrossEncoders()

    async def aclose(self) -> None:
        """Release the cross-encoders' models (the store and embedder are the caller's)."""
        await self.cross_encoders.aclose()

    async def embed_query(self, query: str) -> np.ndarray:
        embedded = await self.embedder.embed([query], "query")
        return np.asarray(embedded[0], dtype=np.float32)

    async def _classify(
        self, analysis: QueryAnalysis, config: RecallConfig
    ) -> tuple[QueryAnalysis, StepReport | None]:
        """Ask the LLM classifier when the rules were unsure; if it fails, the rules'
        answer stands and the report says why."""
        classifier = self.classifier
        if classifier is None or not analysis.classification.unsure or not config.sections:
            return analysis, None

        async def ask() -> QueryAnalysis:
            assert classifier is not None
            found = await classifier.classify(analysis.query)
            return replace(analysis, classification=found)

        found, report = await _timed("classify", ask, config.step_timeout_s)
        return (found or analysis), report

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
        explain: bool = False,
    ) -> ContextPacket:
        # a scope's first read loads its search caches (1.7 s at 100k items on SQLite):
        # before the clock of the steps' timeouts and the plan's budget starts
        await self.store.load_scope(scope)
        started = time.perf_counter()
        reference_time = to_utc(reference_time)
        end = reference_time if until is None else min(to_utc(until), reference_time)
        start = None if since is None else to_utc(since)
        names = tuple(candidate_names(query)) if config.graph else ()
        analysis = analyze(
            query, reference_time, timezone, time_filter=config.time_filter, names=names
        )
        analysis, classify_report = await self._classify(analysis, config)
        meta: dict[str, Any] = {
            "intent": analysis.intent.value,
            "intent_source": analysis.classification.source,
            "dimensions": [c.value for c in analysis.classification.categories],
            "decision": analysis.decision,
        }
        period = analysis.time_range
        if period is not None:
            meta["time_range"] = [period[0].isoformat(), period[1].isoformat()]
        if kinds is None and config.sections:
            # summaries are read through their section (the summaries step): in the
            # ranked list a gist would crowd out the turns it states (measured on the
            # LoCoMo dev five: frac@10 0.733 -> 0.72, tokens@10 327 -> 411)
            kinds = RANKED_KINDS
        flt = ItemFilter(scope=scope, kinds=kinds, since=start, until=end, period=period)
        # a personal request's fusion weights, here so the run and explain use the same
        config = for_request(config, analysis.decision and speaks_in_person(analysis.query))
        plan = make_plan(analysis, config)
        meta["plan"] = plan.describe()
        run = _Run(self, analysis, scope, flt, config, max(config.candidates, limit))
        try:
            outputs, reports = await _execute(plan, run, started)
        finally:
            run.close()
        if classify_report is not None:
            reports.insert(0, classify_report)
        degraded = [
            f"{r.name}: {'timed out' if r.timed_out else r.error}"
            for r in reports
            if r.timed_out or r.error
        ]
        return await self._assemble(
            run, outputs, reports, degraded, meta, limit, max_tokens, reference_time, explain
        )

    async def _assemble(
        self,
        run: _Run,
        outputs: dict[StepKind, StepOutput],
        reports: list[StepReport],
        degraded: list[str],
        meta: dict[str, Any],
        limit: int,
        max_tokens: int,
        now: datetime,
        explain: bool,
    ) -> ContextPacket:
        config, scope = run.config, run.scope
        tenant = scope.tenant_id
        empty = StepOutput()
        # -- items: fuse the ranked lists, add graph and key-lookup evidence ----------
        lists = {
            k.value: outputs[k].candidates
            for k in (StepKind.LEXICAL, StepKind.VECTOR)
            if k in outputs
        }
        fused = fuse(lists, config)
        top = fused[0][1] if fused else 0.0
        inputs: dict[str, RankInput] = {}
        for item_id, score, raw in fused:
            steps = tuple(name for name in lists if name in raw)
            inputs[item_id] = RankInput(
                relevance=score / top if top > 0 else 0.0,
                raw=raw,
                steps=steps,
            )
        for kind, attr in ((StepKind.GRAPH, "graph"), (StepKind.FACT_LOOKUP, "fact")):
            found = outputs.get(kind, empty).candidates
            best = max((c.score for c in found), default=0.0) or 1.0
            for c in found:
                ri = inputs.setdefault(c.item_id, RankInput())
                setattr(ri, attr, max(getattr(ri, attr), c.score / best))
                ri.steps = (*ri.steps, kind.value)
        w = config.rerank
        prelim = sorted(
            inputs.items(),
            key=lambda kv: (
                -(w.relevance * kv[1].relevance + w.graph * kv[1].graph + w.fact * kv[1].fact)
            ),
        )
        wanted = [i for i, _ in prelim[: max(limit * 3, limit + 20)]]
        section_ids = {
            kind: [c.item_id for c in outputs.get(kind, empty).candidates]
            for kind in (StepKind.MANDATES, StepKind.SUMMARIES, StepKind.PROCEDURES)
        }
        # -- facts for the sections ------------------------------------------------
        picks = [
            *outputs.get(StepKind.CONSTRAINTS, empty).picks,
            *outputs.get(StepKind.FACTS, empty).picks,
        ]
        conflicts = outputs.get(StepKind.FACTS, empty).conflicts
        fact_ids = {p.fact_id for p in picks}
        fact_ids.update(i for c in conflicts for i in c.fact_ids)
        items_task = self.store.get_items(
            tenant,
            list(dict.fromkeys([*wanted, *(i for ids in section_ids.values() for i in ids)])),
        )
        facts_task = self.store.get_facts(tenant, sorted(fact_ids))
        items, facts = await asyncio.gather(items_task, facts_task)
        by_id = {item.id: item for item in items}
        facts_by_id = {f.id: f for f in facts}
        # -- sections ----------------------------------------------------------------
        inputs_sections = SectionInputs()
        scored_of = {
            p.fact_id: Scored(facts_by_id[p.fact_id], p.score, p.signals)
            for p in picks
            if p.fact_id in facts_by_id
        }
        inputs_sections.constraints = [
            scored_of[p.fact_id] for p in picks if p.constraint and p.fact_id in scored_of
        ]
        looked_up = [
            Scored(f, 1.0, {"key": 1.0}) for f in outputs.get(StepKind.FACT_LOOKUP, empty).facts
        ]
        seen_facts = {s.fact.id for s in inputs_sections.constraints}
        for s in [
            *looked_up,
            *(scored_of[p.fact_id] for p in picks if not p.constraint and p.fact_id in scored_of),
        ]:
            if s.fact.id not in seen_facts:
                seen_facts.add(s.fact.id)
                inputs_sections.facts.append(s)
        for kind, name in (
            (StepKind.MANDATES, "mandates"),
            (StepKind.SUMMARIES, "summaries"),
            (StepKind.PROCEDURES, "procedures"),
        ):
            entries: list[PacketItem] = [
                packet_item(by_id[c.item_id], c.score, {"semantic": c.score})
                for c in outputs.get(kind, empty).candidates
                if c.item_id in by_id
            ]
            setattr(inputs_sections, name, entries)
        inputs_sections.conflicts = _relevant_conflicts(
            conflicts, facts_by_id, seen_facts, run.analysis
        )
        sections, reserved, dropped = assemble_sections(
            inputs_sections, max_tokens, self.sections, count_tokens, now
        )
        shown = frozenset(
            [
                *(
                    e.id
                    for name in ("mandates", "summaries", "procedures")
                    for e in getattr(sections, name)
                ),
                *(i for e in sections.entries() for i in e.item_ids),
            ]
        )
        # -- rerank the items --------------------------------------------------------
        candidates = []
        dating = dated_signal(run.analysis)
        for item_id in wanted:
            item = by_id.get(item_id)
            if item is None or not _admits(run.flt, item):
                continue
            ri = inputs[item_id]
            ri.item = item
            ri.dated = dating(item)
            candidates.append(ri)
        entity_names = outputs.get(StepKind.GRAPH, empty).entity_names
        ranked = focus(
            rank_answers(rerank(candidates, config, now, entity_names), w.answer),
            run.analysis.query,
            config.speaker_focus,
        )
        if config.cross_encoder is not None:
            ranked = await self._cross_rerank(ranked, run, reports, degraded)
        vector = outputs.get(StepKind.VECTOR)
        check = EvidenceCheck.of(
            run.analysis.query,
            run.analysis.terms,
            None if vector is None else vector.candidates,
            config.min_similarity,
            period=run.analysis.time_range is not None,
        )
        supported, unsupported = check.split(ranked)
        dropped.update((r.item.id, NO_EVIDENCE) for r in unsupported)
        meta["no_evidence"] = len(unsupported)
        ordered = mmr(supported, config.mmr_lambda, len(supported))
        floor = config.episode_floor * (ordered[0].score if ordered else 0.0)
        kept = [r for r in ordered if r.score >= floor]
        for r in ordered:
            if r.score < floor:
                dropped[r.item.id] = "dropped: below the relevance floor"
        rows = [(r.item, r.score, _packet_signals(r)) for r in kept]
        chosen, used, truncated, cut = assemble(
            rows, limit, max_tokens, count_tokens, reserved, shown, not sections.is_empty()
        )
        dropped.update(cut)
        packet = ContextPacket(
            query=run.analysis.query,
            items=chosen,
            sections=sections,
            token_count=used,
            max_tokens=max_tokens,
            truncated=truncated,
            reference_time=now,
            preset=config.name,
            degraded=degraded,
            steps=reports,
            meta=meta,
        )
        if packet.nothing_relevant:  # the markdown says so, and the count includes it
            packet.token_count += count_tokens(NOTHING_RELEVANT + "\n")
        if explain:
            lookups = outputs.get(StepKind.FACT_LOOKUP, empty).facts
            packet.explain = explanations(
                ranked, picks, scored_of, sections, chosen, dropped, lookups
            )
            packet.recall_config = config.model_dump(mode="json")
        return packet

    async def _cross_rerank(
        self, ranked: list[Ranked], run: _Run, reports: list[StepReport], degraded: list[str]
    ) -> list[Ranked]:
        """The cross-encoder stage, timed and reported like a step; when it fails or
        times out the rerank's order stands and the packet says so in ``degraded``."""
        config = run.config
        found, report = await _timed(
            "cross_encoder",
            lambda: self.cross_encoders.rerank(ranked, run.analysis.query, config),
            config.step_timeout_s,
        )
        report.results = min(len(ranked), config.cross_encoder_top) if found is not None else 0
        reports.append(report)
        if found is None:
            degraded.append(f"cross_encoder: {'timed out' if report.timed_out else report.error}")
            return ranked
        return found


def _packet_signals(r: Ranked) -> dict[str, float]:
    """The per-method raw scores (what a caller compares across reads) and the final
    signals that moved the rank."""
    out = dict(r.raw)
    for name in ("graph", "fact", "entity", "dated", "speaker"):
        if r.signals.get(name):
            out[name] = r.signals[name]
    return out


def _admits(flt: ItemFilter, item: MemoryItem) -> bool:
    """Whether a search with ``flt`` could have returned ``item`` (graph and key-lookup
    evidence comes by id, so the read's filters are applied here)."""
    s, i = flt.scope, item.scope
    if (i.tenant_id, i.namespace) != (s.tenant_id, s.namespace):
        return False
    for name in ("user_id", "agent_id", "session_id"):
        wanted = getattr(s, name)
        if wanted is not None and getattr(i, name) != wanted:
            return False
    if item.status not in flt.statuses:
        return False
    if flt.kinds is not None and item.kind not in flt.kinds:
        return False
    if flt.since is not None and item.occurred_at < flt.since:
        return False
    if flt.period is not None and not belongs(item, flt.period):
        return False
    return not (flt.until is not None and item.occurred_at > flt.until)


def _relevant_conflicts(
    conflicts: Sequence[FactConflict],
    facts: dict[str, Fact],
    picked: set[str],
    analysis: QueryAnalysis,
) -> list[ConflictEntry]:
    """Open conflicts the answer may touch: one of their facts is in the sections, or
    the query names their subject or topic."""
    terms = set(analysis.terms)
    out: list[ConflictEntry] = []
    for c in conflicts:
        key_words = set(c.key.replace("_", ":").split(":"))
        if not (picked.intersection(c.fact_ids) or terms & key_words):
            continue
        texts = [facts[i].text for i in c.fact_ids if i in facts]
        out.append(
            ConflictEntry(
                id=c.id,
                key=c.key,
                fact_ids=c.fact_ids,
                texts=texts,
                strategy=c.strategy.value,
                created_at=c.created_at,
            )
        )
    return out


async def _execute(
    plan: RetrievalPlan, run: _Run, started: float
) -> tuple[dict[StepKind, StepOutput], list[StepReport]]:
    """Run the groups in order, each group's steps concurrently. A step is cancelled
    at its timeout or when the plan's budget runs out, whichever comes first; a group
    with ``skip_if_found`` that found items stops the later groups."""
    outputs: dict[StepKind, StepOutput] = {}
    reports: list[StepReport] = []
    skip_reason: str | None = None
    for number, group in enumerate(plan.groups):
        remaining = plan.budget_s - (time.perf_counter() - started)
        if skip_reason is None and remaining <= 0:
            skip_reason = "the plan's budget was spent"
        if skip_reason is not None:
            reports += [
                StepReport(
                    name=s.name, latency_ms=0.0, results=0, group=number, skipped=skip_reason
                )
                for s in group.steps
            ]
            continue
        run.group = group.steps
        done = await asyncio.gather(
            *(
                _timed(s.name, (lambda s=s: run.run(s)), min(s.timeout_s, remaining))  # type: ignore[misc]
                for s in group.steps
            )
        )
        for step, (found, report) in zip(group.steps, done, strict=True):
            report.group = number
            report.results = found.count if found is not None else 0
            reports.append(report)
            if found is not None:
                outputs[step.kind] = found
        if group.skip_if_found and any(
            outputs.get(s.kind) and outputs[s.kind].candidates
            for s in group.steps
            if s.kind in ITEM_STEPS
        ):
            skip_reason = "an earlier group found items"
    return outputs, reports


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
        results=0,
        timed_out=timed_out,
        error=error,
    )
    return found, report
