"""The read path: analyze the query, plan the steps, run them (``recall/steps.py``),
fuse and rerank the items, fill the sections, assemble the packet."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np

from cognimem.domain.layer import Domains
from cognimem.models import ContextPacket, ItemKind, Scope, StepReport
from cognimem.models.clock import to_utc
from cognimem.models.packets import NOTHING_RELEVANT
from cognimem.providers.embeddings import Embedder
from cognimem.providers.tokens import count_tokens
from cognimem.recall import procedures as learnt
from cognimem.recall.analyze import QueryAnalysis, analyze, speaks_in_person
from cognimem.recall.assemble import SectionInputs, assemble, assemble_sections
from cognimem.recall.classify import QueryClassifier
from cognimem.recall.collect import (
    SECTION_STEPS,
    FactPicks,
    admits,
    output,
    packet_signals,
    rank_inputs,
    section_inputs,
    shortlist,
)
from cognimem.recall.constraints import SectionConfig
from cognimem.recall.conversation.cross import CrossEncoders
from cognimem.recall.conversation.evidence import EvidenceCheck
from cognimem.recall.conversation.focus import focus
from cognimem.recall.conversation.pairs import rank_answers
from cognimem.recall.conversation.stated import give_way, is_theme
from cognimem.recall.events import EventPlan
from cognimem.recall.explain import explanations
from cognimem.recall.fact_time import fact_time, stale_since, told_by
from cognimem.recall.fuse import for_request
from cognimem.recall.graph import candidate_names
from cognimem.recall.levels import level_of, override_explanations
from cognimem.recall.plan import RetrievalPlan, StepGroup, StepKind, make_plan
from cognimem.recall.presets import RecallConfig
from cognimem.recall.profile import ProfileChoice
from cognimem.recall.profile_read import explain_profile, profile_entries
from cognimem.recall.rerank import Ranked, RankInput, mmr, rerank
from cognimem.recall.steps import StepOutput, StepRun, execute, mandates, timed
from cognimem.recall.temporal import dated_signal
from cognimem.store.protocols import Store
from cognimem.store.types import ItemFilter
from cognimem.text.areas import AreaDescriptions

# a streamed read's sections as each is ready: (section name, its entries)
SectionSink = Callable[[str, list[Any]], Awaitable[None]]
# the order a streamed read sends the sections the plan's steps fill (mandates go first,
# before the plan runs): constraints, then facts, then the rest
STREAMED_AFTER_MANDATES = (
    "must_follow",
    "consider",
    "domain_facts",
    "facts",
    "preferences",
    "needs_validation",
    "learned_procedures",
    "procedures",
    "summaries",
    "conflicts",
)


def without_step(plan: RetrievalPlan, kind: StepKind) -> RetrievalPlan:
    """``plan`` without its ``kind`` step (a group left empty is dropped)."""
    groups = (
        StepGroup(tuple(s for s in g.steps if s.kind is not kind), g.skip_if_found)
        for g in plan.groups
    )
    return RetrievalPlan(tuple(g for g in groups if g.steps), plan.budget_s)


class Reader:
    """Runs one read: analyze, plan, retrieve, rerank, assemble."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        sections: SectionConfig | None = None,
        classifier: QueryClassifier | None = None,
        domains: Domains | None = None,
    ) -> None:
        self.store = store
        self.domains = domains
        self.embedder = embedder
        self.sections = sections or SectionConfig()
        self.classifier = classifier
        self.cross_encoders = CrossEncoders()
        self._areas = AreaDescriptions()

    async def aclose(self) -> None:
        """Release the cross-encoders' models (the store and embedder are the caller's)."""
        await self.cross_encoders.aclose()

    async def area_vectors(self) -> np.ndarray:
        """The decision areas' descriptions embedded (once per reader)."""
        return await self._areas.matrix(lambda texts: self.embedder.embed(texts, "document"))

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

        found, report = await timed("classify", ask, config.step_timeout_s)
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
        session: str | None = None,
        on_section: SectionSink | None = None,
        as_of: datetime | None = None,
        as_of_recorded: datetime | None = None,
    ) -> ContextPacket:
        """The packet for ``query`` in ``scope``; ``session`` (a session of the scope's
        user, which ``scope`` does not wall the read to) ranks that session's memories
        up (the ``session`` signal). ``on_section`` is sent each section as soon as it
        is final: the mandates before any search runs, the others once the plan's steps
        are in (``STREAMED_AFTER_MANDATES``), all before the items are ranked.
        ``as_of``: the facts valid then and the items that tell of it or earlier;
        ``as_of_recorded``: what the memory knew then (facts recorded by then, later ends
        ignored; items said by then). A question that names a period selects the facts
        valid in it (``recall/fact_time.py``)."""
        # a scope's first read loads its search caches (1.7 s at 100k items on SQLite):
        # before the clock of the steps' timeouts and the plan's budget starts
        await self.store.load_scope(scope)
        started = time.perf_counter()
        reference_time = to_utc(reference_time)
        end = reference_time if until is None else min(to_utc(until), reference_time)
        if as_of_recorded is not None:
            end = min(end, to_utc(as_of_recorded))
        start = None if since is None else to_utc(since)
        # the domain step runs only against the scope's tenant's database (an ontology
        # alone has no rows; another tenant's mapping is not this scope's)
        domain = None if self.domains is None else self.domains.for_tenant(scope.tenant_id)
        if domain is not None and domain.source is None:
            domain = None
        names = tuple(candidate_names(query)) if config.graph or domain else ()
        analysis = analyze(
            query, reference_time, timezone, time_filter=config.time_filter, names=names
        )
        early: tuple[StepOutput | None, StepReport] | None = None
        if on_section is not None:  # before the classifier: it may ask an LLM
            early = await self._stream_mandates(
                scope, analysis, config, max_tokens, reference_time, on_section
            )
        analysis, classify_report = await self._classify(analysis, config)
        meta: dict[str, Any] = {
            "intent": analysis.intent.value,
            "intent_source": analysis.classification.source,
            "dimensions": [c.value for c in analysis.classification.categories],
            "decision": analysis.decision,
        }
        if session is not None:
            meta["session"] = session
        period = analysis.time_range
        if period is not None:
            meta["time_range"] = [period[0].isoformat(), period[1].isoformat()]
        facts_at = fact_time(
            None if as_of is None else to_utc(as_of),
            None if as_of_recorded is None else to_utc(as_of_recorded),
            period,
        )
        if period is None and as_of is not None:
            period = told_by(to_utc(as_of))
        if facts_at is not None:
            meta["time_filter"] = facts_at.describe()
        # summaries are read through their section (the summaries step), themes but:
        # in the ranked list a gist would crowd out the turns it states (measured on
        # the LoCoMo dev five: frac@10 0.733 -> 0.72, tokens@10 327 -> 411), a theme's
        # short claims state several scattered turns for the tokens of one or two
        themes_only = kinds is None and config.sections
        # a user's read ranks the shared levels' items (the organisation's, the read's
        # agent's) with the user's own; a read walled to one session reads it alone
        shared = scope.user_id is not None and scope.session_id is None
        flt = ItemFilter(
            scope=scope,
            kinds=kinds,
            since=start,
            until=end,
            period=period,
            with_organisation=shared,
        )
        # a personal request's fusion weights, here so the run and explain use the same
        config = for_request(config, analysis.decision and speaks_in_person(analysis.query))
        plan = make_plan(analysis, config, domain=domain is not None)
        meta["plan"] = plan.describe()
        if early is not None:  # its step ran already
            plan = without_step(plan, StepKind.MANDATES)
        run = StepRun(
            self.store,
            self.embed_query,
            self.sections,
            analysis,
            scope,
            flt,
            config,
            max(config.candidates, limit),
            domain,
            self.area_vectors,
            facts_at,
        )
        if run.dense_query != analysis.query:
            meta["dense_query"] = run.dense_query
        try:
            outputs, reports = await execute(plan, run, started)
        finally:
            run.close()
        if early is not None:
            found, report = early
            reports.insert(0, report)
            if found is not None:
                outputs[StepKind.MANDATES] = found
        if classify_report is not None:
            reports.insert(0, classify_report)
        degraded = [
            f"{r.name}: {'timed out' if r.timed_out else r.error}"
            for r in reports
            if r.timed_out or r.error
        ]
        return await self._assemble(
            run,
            outputs,
            reports,
            degraded,
            meta,
            limit,
            max_tokens,
            reference_time,
            explain,
            themes_only,
            session,
            on_section,
        )

    async def _stream_mandates(
        self,
        scope: Scope,
        analysis: QueryAnalysis,
        config: RecallConfig,
        max_tokens: int,
        now: datetime,
        on_section: SectionSink,
    ) -> tuple[StepOutput | None, StepReport]:
        """The mandates step run ahead of the plan, and its section sent as the packet
        will have it (mandates are filled first, from the whole budget). Returns the
        step's output and report for the read to keep."""
        found, report = await timed(
            StepKind.MANDATES.value, lambda: mandates(self.store, scope), config.step_timeout_s
        )
        report.results = found.count if found is not None else 0
        entries = []
        if found is not None and found.candidates:
            by_id = {i.id: i for i in found.items}
            inputs, _ = section_inputs(
                {StepKind.MANDATES: found}, FactPicks.of({}), by_id, {}, analysis
            )
            sections, _, _ = assemble_sections(
                SectionInputs(mandates=inputs.mandates),
                max_tokens,
                self.sections,
                count_tokens,
                now,
            )
            entries = sections.mandates
        await on_section("mandates", entries)
        return found, report

    async def _assemble(
        self,
        run: StepRun,
        outputs: dict[StepKind, StepOutput],
        reports: list[StepReport],
        degraded: list[str],
        meta: dict[str, Any],
        limit: int,
        max_tokens: int,
        now: datetime,
        explain: bool,
        themes_only: bool,
        session: str | None,
        on_section: SectionSink | None,
    ) -> ContextPacket:
        config, tenant = run.config, run.scope.tenant_id
        # -- items: fuse the ranked lists, add graph and key-lookup evidence ----------
        inputs = rank_inputs(outputs, config)
        wanted = shortlist(inputs, config, limit)
        section_ids = [
            c.item_id for kind, _ in SECTION_STEPS for c in output(outputs, kind).candidates
        ]
        found_events = outputs.get(StepKind.EVENTS)
        events = EventPlan.of(
            run.analysis, None if found_events is None else found_events.candidates
        )
        searched = [] if events is None else list(events.found)
        # -- load the items and the sections' facts, then fill the sections -----------
        fact_picks = FactPicks.of(outputs)
        items, facts = await self.store.items_and_facts(
            tenant,
            list(dict.fromkeys([*wanted, *section_ids, *searched])),
            fact_picks.fact_ids(),
        )
        by_id = {item.id: item for item in items}
        # the events of the kind a question counts or orders join the rerank
        kind: set[str] = set()
        if events is not None:
            kind = events.of_kind([by_id[i] for i in searched if i in by_id])
            for item_id in kind:
                ri = inputs.setdefault(item_id, RankInput())
                ri.steps = (*ri.steps, StepKind.EVENTS.value)
            wanted = list(dict.fromkeys([*wanted, *sorted(kind)]))
            meta["events"] = events.describe(kind)
        inputs_sections, scored_of = section_inputs(
            outputs, fact_picks, by_id, {f.id: f for f in facts}, run.analysis
        )
        inputs_sections.profile = await self._profile(run, now, reports, degraded)
        sections, reserved, dropped = assemble_sections(
            inputs_sections, max_tokens, self.sections, count_tokens, now
        )
        if on_section is not None:
            for name in STREAMED_AFTER_MANDATES:
                await on_section(name, getattr(sections, name))
        shown = frozenset(
            [
                *(e.id for _, name in SECTION_STEPS for e in getattr(sections, name)),
                *(i for e in sections.entries() for i in e.item_ids),
            ]
        )
        # -- rerank the items --------------------------------------------------------
        candidates = []
        dating = dated_signal(run.analysis, kind)
        for item_id in wanted:
            item = by_id.get(item_id)
            if item is None or not admits(run.flt, item):
                continue
            if themes_only and item.kind is ItemKind.SUMMARY and not is_theme(item):
                continue
            ri = inputs[item_id]
            ri.item = item
            ri.dated = dating(item)
            ri.session = float(session is not None and item.scope.session_id == session)
            if run.flt.with_organisation:  # whose memory it is, for the level signal
                ri.level = level_of(item.scope)
            ri.stale_since = stale_since(item, run.fact_time)
            candidates.append(ri)
        entity_names = output(outputs, StepKind.GRAPH).entity_names
        ranked = focus(
            rank_answers(rerank(candidates, config, now, entity_names), config.rerank.answer),
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
            author=run.left_out,
            drop_filler=config.drop_filler,
        )
        supported, unsupported = check.split(ranked)
        dropped.update((r.item.id, why) for r, why in unsupported)
        meta["no_evidence"] = len(unsupported)
        evidence = {r.item.id: why for r, why in supported}
        ordered = mmr([r for r, _ in supported], config.mmr_lambda, len(supported))
        floor = config.episode_floor * (ordered[0].score if ordered else 0.0)
        # a turn a summary above it states gives way to what the packet does not say yet
        kept = give_way([r for r in ordered if r.score >= floor])
        for r in ordered:
            if r.score < floor:
                dropped[r.item.id] = "dropped: below the relevance floor"
        room = limit
        if events is not None:  # every event of the kind, past the limit
            kept = events.keep(kept, limit, kind)
            room = len(kept)
            for r in kept:
                if r.item.id in kind:
                    evidence[r.item.id] = "; ".join(
                        x for x in (evidence.get(r.item.id), events.reason()) if x
                    )
        rows = [(r.item, r.score, packet_signals(r)) for r in kept]
        stale = {r.item.id: r.stale_since for r in kept if r.stale_since is not None}
        chosen, used, truncated, cut = assemble(
            rows, room, max_tokens, count_tokens, reserved, shown, not sections.is_empty(), stale
        )
        dropped.update(cut)
        if events is not None and events.orders:
            chosen = events.in_order(chosen, kind, limit)
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
            lookups = output(outputs, StepKind.FACT_LOOKUP).facts
            matched = output(outputs, StepKind.LEARNED_PROCEDURES).procedures
            packet.explain = explanations(
                ranked,
                fact_picks.picks,
                scored_of,
                sections,
                chosen,
                dropped,
                lookups,
                now,
                evidence,
            ) + learnt.explain(matched, sections, dropped)
            packet.explain += explain_profile(
                inputs_sections.profile, sections, dropped, {p.fact_id for p in fact_picks.picks}
            )
            if run.fact_time is not None:  # every fact it saw passed the time filter
                why = run.fact_time.reason()
                packet.explain = [
                    e.model_copy(update={"reason": why}) if e.type == "fact" else e
                    for e in packet.explain
                ]
            packet.explain = override_explanations(run.overrides, packet.explain)
            packet.recall_config = config.model_dump(mode="json")
        return packet

    async def _profile(
        self, run: StepRun, now: datetime, reports: list[StepReport], degraded: list[str]
    ) -> ProfileChoice:
        """The standing profile's entries for a decision-like request, timed and
        reported like a step (``recall/profile_read.py``)."""
        if not run.analysis.decision or not run.config.sections:
            return ProfileChoice()
        if run.sections.profile.max_tokens <= 0:
            return ProfileChoice()
        found, report = await timed(
            "profile", lambda: profile_entries(run, now), run.config.step_timeout_s
        )
        report.results = len(found.entries) if found is not None else 0
        reports.append(report)
        if found is None:
            degraded.append(f"profile: {'timed out' if report.timed_out else report.error}")
            return ProfileChoice()
        return found

    async def _cross_rerank(
        self, ranked: list[Ranked], run: StepRun, reports: list[StepReport], degraded: list[str]
    ) -> list[Ranked]:
        """The cross-encoder stage, timed and reported like a step; when it fails or
        times out the rerank's order stands and the packet says so in ``degraded``."""
        config = run.config
        found, report = await timed(
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
