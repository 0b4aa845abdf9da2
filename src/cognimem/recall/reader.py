"""The read path: analyze the query, plan the steps, run them (``recall/steps.py``),
fuse and rerank the items, fill the sections, assemble the packet."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime
from functools import partial

import numpy as np

from cognimem.domain.layer import Domain, Domains
from cognimem.models import ContextPacket, ItemKind, Scope, StepReport
from cognimem.models.clock import to_utc
from cognimem.models.packets import NOTHING_RELEVANT
from cognimem.models.requests import ReadArgs
from cognimem.providers.embeddings import Embedder
from cognimem.providers.tokens import count_tokens
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
from cognimem.recall.conversation.focus import focus
from cognimem.recall.conversation.pairs import rank_answers
from cognimem.recall.conversation.stated import is_theme
from cognimem.recall.conversation.told_after import bring_told_after
from cognimem.recall.conversation.told_before import bring_told_before
from cognimem.recall.events import EventPlan
from cognimem.recall.fact_time import stale_since
from cognimem.recall.fuse import for_request
from cognimem.recall.graph import candidate_names
from cognimem.recall.levels import level_of
from cognimem.recall.packing import (
    Asked,
    Filled,
    Loaded,
    SectionSink,
    StepsRun,
    describe,
    execute_plan,
    explain_packet,
    keep,
    read_filter,
    shown_evidence,
)
from cognimem.recall.plan import StepKind
from cognimem.recall.presets import RecallConfig
from cognimem.recall.profile import ProfileChoice
from cognimem.recall.profile_items import without_declined
from cognimem.recall.profile_read import profile_entries
from cognimem.recall.rerank import Ranked, rerank
from cognimem.recall.step_groups import timed
from cognimem.recall.steps import StepOutput, StepRun, mandates
from cognimem.recall.temporal import dated_signal
from cognimem.store.protocols import Store
from cognimem.text.areas import AreaDescriptions

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
        """The decision areas' descriptions embedded (once per reader), in a task of
        their own that ``AreaDescriptions`` shares among the steps and reads that wait
        for it: a step may run at once in the read's task (``recall/eager.py``), and a
        step's timeout does not cancel it."""
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
        args: ReadArgs,
        scope: Scope,
        *,
        config: RecallConfig,
        limit: int,
        max_tokens: int,
        reference_time: datetime,
        kinds: tuple[ItemKind, ...] | None = None,
        session: str | None = None,
        on_section: SectionSink | None = None,
        level: bool = False,
    ) -> ContextPacket:
        """The packet for ``args.query`` in ``scope`` (``level``: one shared level
        alone) with the budget, time and kinds settled (the rest of ``args`` as given);
        ``session`` (of the scope's user; ``scope`` does not wall the read to it) ranks
        that session's memories up. ``on_section`` gets each section once final: the
        mandates before any search, the others before the items are ranked
        (``STREAMED_AFTER_MANDATES``). Times select facts and items: ``read_filter``."""
        # a scope's first read loads its search caches (1.7 s at 100k items on SQLite):
        # before the clock of the steps' timeouts and the plan's budget starts
        if not level:  # a level's rows are in the entry of the rows of no user
            await self.store.load_scope(scope)
        started = time.perf_counter()
        now = to_utc(reference_time)
        domain = self._domain(scope.tenant_id)
        analysis = self._analyze(args, config, now, domain is not None)
        early: tuple[StepOutput | None, StepReport] | None = None
        if on_section is not None:  # before the classifier: it may ask an LLM
            early = await self._stream_mandates(
                scope, analysis, config, max_tokens, now, on_section, level
            )
        analysis, classify_report = await self._classify(analysis, config)
        meta = describe(analysis, session)
        facts_at, flt = read_filter(args, scope, kinds, analysis, now, meta, level)
        # a personal request's fusion weights, here so the run and explain use the same
        config = for_request(config, analysis.decision and speaks_in_person(analysis.query))
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
        steps = await execute_plan(run, meta, started, mandates_ran=early is not None)
        steps.settle(early, classify_report)
        # summaries are read through their section (the summaries step), themes but:
        # in the ranked list a gist would crowd out the turns it states (measured on
        # the LoCoMo dev five: frac@10 0.733 -> 0.72, tokens@10 327 -> 411), a theme's
        # short claims state several scattered turns for the tokens of one or two
        themes_only = kinds is None and config.sections
        asked = Asked(limit, max_tokens, now, args.explain, themes_only, session, on_section)
        return await self._assemble(steps, asked)

    def _analyze(
        self, args: ReadArgs, config: RecallConfig, now: datetime, domain: bool
    ) -> QueryAnalysis:
        """The query analysed at ``now`` in the read's time zone, with the names it
        may mention when the graph or the domain step will look them up."""
        names = tuple(candidate_names(args.query)) if config.graph or domain else ()
        return analyze(args.query, now, args.timezone, time_filter=config.time_filter, names=names)

    def _domain(self, tenant_id: str) -> Domain | None:
        """The tenant's domain layer when it has a database: the domain step runs only
        against the scope's tenant's database (an ontology alone has no rows; another
        tenant's mapping is not this scope's)."""
        domain = None if self.domains is None else self.domains.for_tenant(tenant_id)
        if domain is not None and domain.source is None:
            return None
        return domain

    async def _stream_mandates(
        self,
        scope: Scope,
        analysis: QueryAnalysis,
        config: RecallConfig,
        max_tokens: int,
        now: datetime,
        on_section: SectionSink,
        level: bool,
    ) -> tuple[StepOutput | None, StepReport]:
        """The mandates step run ahead of the plan, and its section sent as the packet
        will have it (mandates are filled first, from the whole budget). Returns the
        step's output and report for the read to keep."""
        found, report = await timed(
            StepKind.MANDATES.value,
            lambda: mandates(self.store, scope, level),
            config.step_timeout_s,
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

    async def _assemble(self, steps: StepsRun, asked: Asked) -> ContextPacket:
        """The packet from the steps' outputs: load the items and the sections' facts,
        fill the sections, rerank the items and keep what fits."""
        loaded = await self._load(steps, asked.limit)
        filled = await self._fill_sections(steps, loaded, asked)
        ranked = await self._rank(steps, loaded, asked)
        behind = [i for e in filled.sections.entries() for i in e.item_ids]
        kept, room, evidence = keep(
            steps, loaded, ranked, filled.dropped, asked.limit, behind, asked.explain
        )
        kept, left_out = without_declined(
            kept,
            ranked,
            filled.inputs.profile,
            behind,
            steps.run.analysis.terms,
            steps.run.sections.profile.declined_near,
        )
        filled.dropped.update(left_out)
        rows = [(r.item, r.score, partial(packet_signals, r)) for r in kept]
        stale = {r.item.id: r.stale_since for r in kept if r.stale_since is not None}
        sections = filled.sections
        chosen, used, truncated, cut = assemble(
            rows,
            room,
            asked.max_tokens,
            count_tokens,
            filled.reserved,
            filled.shown,
            not sections.is_empty(),
            stale,
        )
        filled.dropped.update(cut)
        events = loaded.events
        if events is not None and events.orders:
            chosen = events.in_order(chosen, loaded.kind, asked.limit)
        config = steps.run.config
        packet = ContextPacket(
            query=steps.run.analysis.query,
            items=chosen,
            sections=sections,
            token_count=used,
            max_tokens=asked.max_tokens,
            truncated=truncated,
            reference_time=asked.now,
            preset=config.name,
            degraded=steps.degraded + steps.done_without(),
            steps=steps.reports,
            meta=steps.meta,
        )
        if packet.nothing_relevant:  # the markdown says so, and the count includes it
            packet.token_count += count_tokens(NOTHING_RELEVANT + "\n")
        if asked.explain:
            explain_packet(packet, steps, loaded, filled, ranked, chosen, evidence)
        return packet

    async def _load(self, steps: StepsRun, limit: int) -> Loaded:
        """The items worth ranking and the sections' items and facts, loaded; the events
        of the kind a question counts or orders join the rerank."""
        run, outputs = steps.run, steps.outputs
        # fuse the ranked lists, add graph and key-lookup evidence
        inputs = rank_inputs(outputs, run.config)
        wanted = shortlist(inputs, run.config, limit)
        section_ids = [
            c.item_id for kind, _ in SECTION_STEPS for c in output(outputs, kind).candidates
        ]
        found_events = outputs.get(StepKind.EVENTS)
        events = EventPlan.of(
            run.analysis, None if found_events is None else found_events.candidates
        )
        searched = [] if events is None else list(events.found)
        fact_picks = FactPicks.of(outputs)
        items, facts = await self.store.items_and_facts(
            run.scope.tenant_id,
            list(dict.fromkeys([*wanted, *section_ids, *searched])),
            fact_picks.fact_ids(),
        )
        by_id = {item.id: item for item in items}
        kind: set[str] = set()
        if events is not None:
            kind = events.of_kind([by_id[i] for i in searched if i in by_id])
            for item_id in kind:
                ri = inputs.get(item_id)
                ri.steps = (*ri.steps, StepKind.EVENTS.value)
            wanted = list(dict.fromkeys([*wanted, *sorted(kind)]))
            steps.meta["events"] = events.describe(kind)
        facts_by_id = {f.id: f for f in facts}
        return Loaded(inputs, wanted, by_id, facts_by_id, fact_picks, events, kind)

    async def _fill_sections(self, steps: StepsRun, loaded: Loaded, asked: Asked) -> Filled:
        """The packet's sections filled (and streamed, for a streamed read), with what
        they reserve of the budget and show already."""
        run = steps.run
        inputs, scored_of = section_inputs(
            steps.outputs, loaded.fact_picks, loaded.by_id, loaded.facts, run.analysis
        )
        inputs.profile = await self._profile(run, asked.now, steps.reports, steps.degraded)
        sections, reserved, dropped = assemble_sections(
            inputs, asked.max_tokens, self.sections, count_tokens, asked.now
        )
        if asked.on_section is not None:
            for name in STREAMED_AFTER_MANDATES:
                await asked.on_section(name, getattr(sections, name))
        shown = frozenset(
            [
                *(e.id for _, name in SECTION_STEPS for e in getattr(sections, name)),
                *shown_evidence(sections.entries(), loaded.by_id),
            ]
        )
        return Filled(inputs, scored_of, sections, reserved, dropped, shown)

    async def _rank(self, steps: StepsRun, loaded: Loaded, asked: Asked) -> list[Ranked]:
        """The loaded items the read admits, reranked (and by the cross-encoder, when
        the preset has one)."""
        run = steps.run
        config, flt, fact_time = run.config, run.flt, run.fact_time
        candidates = []
        dating = dated_signal(run.analysis, loaded.kind)
        session = asked.session
        themes_only = asked.themes_only
        levels = flt.with_organisation and run.scope.user_id is not None  # the signal
        by_id, inputs = loaded.by_id, loaded.inputs
        for item_id in loaded.wanted:
            item = by_id.get(item_id)
            if item is None or not admits(flt, item):
                continue
            if themes_only and item.kind is ItemKind.SUMMARY and not is_theme(item):
                continue
            ri = inputs.get(item_id)
            ri.item = item
            ri.dated = dating(item)
            ri.session = float(session is not None and item.scope.session_id == session)
            if levels:
                ri.level = level_of(item.scope)
            ri.stale_since = stale_since(item, fact_time)
            candidates.append(ri)
        entity_names = output(steps.outputs, StepKind.GRAPH).entity_names
        ranked = focus(
            rank_answers(rerank(candidates, config, asked.now, entity_names), config.rerank.answer),
            run.analysis.query,
            config.speaker_focus,
        )
        if config.told_before:  # the turn a "when" question's dated reply answers
            ranked = await bring_told_before(self.store, ranked, run.analysis.query, run.flt)
            ranked = await bring_told_after(self.store, ranked, run.analysis.query, run.flt)
        if config.cross_encoder is not None:
            ranked = await self._cross_rerank(ranked, run, steps.reports, steps.degraded)
        return ranked

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
