"""What the reader (``recall/reader.py``) builds a packet from, step by step: the plan
run (``execute_plan``, ``StepsRun``), the read's settled options (``Asked``), the items
and facts loaded (``Loaded``), the sections filled (``Filled``); and the pure steps
between: the packet's ``meta`` (``describe``), the read's filters (``read_filter``),
what of the ranked items the packet keeps (``keep``) and its explanations
(``explain_packet``)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cognimem.models import ContextPacket, ItemKind, MemoryItem, PacketItem, Scope, StepReport
from cognimem.models.clock import to_utc
from cognimem.models.knowledge import Fact
from cognimem.models.packets import FactEntry, PacketSections
from cognimem.models.requests import ReadArgs
from cognimem.recall import procedures as learnt
from cognimem.recall.analyze import QueryAnalysis
from cognimem.recall.assemble import SectionInputs
from cognimem.recall.collect import FactPicks, RankInputs, output
from cognimem.recall.constraints import Scored
from cognimem.recall.conversation.evidence import EvidenceCheck
from cognimem.recall.conversation.stated import give_way
from cognimem.recall.events import EventPlan
from cognimem.recall.explain import explanations
from cognimem.recall.fact_time import FactTime, fact_time, told_by
from cognimem.recall.levels import override_explanations
from cognimem.recall.plan import RetrievalPlan, StepGroup, StepKind, make_plan
from cognimem.recall.profile_read import explain_profile
from cognimem.recall.rerank import Ranked, mmr
from cognimem.recall.step_groups import execute
from cognimem.recall.steps import StepOutput, StepRun
from cognimem.store.degraded import fallbacks
from cognimem.store.reach import read_reach
from cognimem.store.types import ItemFilter

log = logging.getLogger(__name__)

# a streamed read's sections as each is ready: (section name, its entries)
SectionSink = Callable[[str, list[Any]], Awaitable[None]]


@dataclass
class StepsRun:
    """A read's steps run: their outputs and reports, what failed, and the packet's
    ``meta`` so far."""

    run: StepRun
    outputs: dict[StepKind, StepOutput]
    reports: list[StepReport]
    meta: dict[str, Any]
    degraded: list[str] = field(default_factory=list)

    def settle(
        self,
        early: tuple[StepOutput | None, StepReport] | None,
        classify_report: StepReport | None,
    ) -> None:
        """Add the steps run before the plan (the streamed mandates, the classifier) and
        list the steps that failed or timed out."""
        if early is not None:
            found, report = early
            self.reports.insert(0, report)
            if found is not None:
                self.outputs[StepKind.MANDATES] = found
        if classify_report is not None:
            self.reports.insert(0, classify_report)
        self.degraded = [
            f"{r.name}: {'timed out' if r.timed_out else r.error}"
            for r in self.reports
            if r.timed_out or r.error
        ]  # and the searches that fell back (a large SQLite scope's failed index)
        self.degraded += fallbacks(o.candidates for o in self.outputs.values())
        failed = self.run.failed.get("query_embedding")  # said once: by the vector step
        if failed and not any(r.name == "vector" and r.error for r in self.reports):
            self.degraded.append(f"query_embedding: {failed}")

    def done_without(self) -> list[str]:
        """``degraded``'s entries for the embeddings beside the query's that failed, the
        read going on without them (each logged): a part of a request for several
        things (``query_part_embedding``, judged by its words and tags alone), the
        decision areas' descriptions (``area_descriptions``, only the lexicon's areas
        count). Asked once the packet's sections are filled: the profile embeds both."""
        notes = [f"{what}: {why}" for what, why in self.run.failed.items()]
        notes = [n for n in notes if not n.startswith("query_embedding:")]  # settle's
        for note in notes:
            log.warning("read degraded: %s", note)
        return notes


@dataclass(frozen=True)
class Asked:
    """What the packet is built to: the read's settled budget and options."""

    limit: int
    max_tokens: int
    now: datetime
    explain: bool
    themes_only: bool
    session: str | None
    on_section: SectionSink | None


@dataclass(frozen=True)
class Loaded:
    """The items and facts loaded for the rerank and the sections."""

    inputs: RankInputs
    wanted: list[str]
    by_id: dict[str, MemoryItem]
    facts: dict[str, Fact]
    fact_picks: FactPicks
    events: EventPlan | None
    kind: set[str]  # the events of the kind a question counts or orders


@dataclass(frozen=True)
class Filled:
    """The packet's sections, what they reserve of the budget, show already and
    dropped."""

    inputs: SectionInputs
    scored_of: dict[str, Scored]
    sections: PacketSections
    reserved: int
    dropped: dict[str, str]
    shown: frozenset[str]


def shown_evidence(entries: Sequence[FactEntry], by_id: Mapping[str, MemoryItem]) -> set[str]:
    """The evidence items the section entries already show: those that hold the
    sentence the entry renders. A fact renewed in other words ("… in the morning",
    then "… in the evening") shows one sentence; an item holding another keeps its own
    line among the memories, or what it says would leave the rendered packet. An item
    not loaded is not rendered either way."""
    shown: set[str] = set()
    for entry in entries:
        said = _plain(entry.text)
        for item_id in entry.item_ids:
            item = by_id.get(item_id)
            if item is None or said in _plain(item.text):
                shown.add(item_id)
    return shown


def _plain(text: str) -> str:
    return " ".join(text.split()).casefold()


def describe(analysis: QueryAnalysis, session: str | None) -> dict[str, Any]:
    """The packet's ``meta`` for the query's analysis and the session it ranks up."""
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
    return meta


def read_filter(
    args: ReadArgs,
    scope: Scope,
    kinds: tuple[ItemKind, ...] | None,
    analysis: QueryAnalysis,
    now: datetime,
    meta: dict[str, Any],
    level: bool = False,
) -> tuple[FactTime | None, ItemFilter]:
    """The read's time filter of facts (``meta["time_filter"]`` says which) and its
    filter of items: the kinds, ``since`` to ``until`` (never past ``now`` or
    ``as_of_recorded``), and the period the question names or ``as_of`` tells of;
    ``level``: of one shared level alone (``store/types.py``: ``read_reach``)."""
    end = now if args.until is None else min(to_utc(args.until), now)
    if args.as_of_recorded is not None:
        end = min(end, to_utc(args.as_of_recorded))
    start = None if args.since is None else to_utc(args.since)
    period = analysis.time_range
    facts_at = fact_time(
        None if args.as_of is None else to_utc(args.as_of),
        None if args.as_of_recorded is None else to_utc(args.as_of_recorded),
        period,
    )
    if period is None and args.as_of is not None:
        period = told_by(to_utc(args.as_of))
    if facts_at is not None:
        meta["time_filter"] = facts_at.describe()
    # a user's read ranks the shared levels' items (the organisation's, the read's
    # agent's) with the user's own; a read walled to one session reads it alone
    return facts_at, read_reach(
        scope, level=level, kinds=kinds, since=start, until=end, period=period
    )


def keep(
    steps: StepsRun,
    loaded: Loaded,
    ranked: list[Ranked],
    dropped: dict[str, str],
    limit: int,
    behind: Sequence[str],
    reasons: bool = True,
) -> tuple[list[Ranked], int, dict[str, str]]:
    """The ranked items with evidence for the question, diversified, above the
    relevance floor (every event of the kind past the limit); the room they have and
    why each is evidence (``reasons``: for explain; without, the same items, each with
    ``HAS_EVIDENCE``). ``behind``: the items the sections' entries were drawn from
    (evidence through the entry). What is left out goes in ``dropped``."""
    run, config = steps.run, steps.run.config
    vector = steps.outputs.get(StepKind.VECTOR)
    check = EvidenceCheck.of(
        run.analysis.query,
        run.analysis.terms,
        None if vector is None else vector.candidates,
        config.min_similarity,
        period=run.analysis.time_range is not None,
        author=run.left_out,
        drop_filler=config.drop_filler,
        behind=behind,
    )
    supported, unsupported = check.split(ranked, reasons=reasons)
    dropped.update((r.item.id, why) for r, why in unsupported)
    steps.meta["no_evidence"] = len(unsupported)
    evidence = {r.item.id: why for r, why in supported}
    ordered = mmr([r for r, _ in supported], config.mmr_lambda, len(supported))
    floor = config.episode_floor * (ordered[0].score if ordered else 0.0)
    # a turn a summary above it states gives way to what the packet does not say yet
    kept = give_way([r for r in ordered if r.score >= floor])
    for r in ordered:
        if r.score < floor:
            dropped[r.item.id] = "dropped: below the relevance floor"
    room = limit
    events, kind = loaded.events, loaded.kind
    if events is not None:  # every event of the kind, past the limit
        kept = events.keep(kept, limit, kind)
        room = len(kept)
        for r in kept:
            if r.item.id in kind:
                evidence[r.item.id] = "; ".join(
                    x for x in (evidence.get(r.item.id), events.reason()) if x
                )
    return kept, room, evidence


def explain_packet(
    packet: ContextPacket,
    steps: StepsRun,
    loaded: Loaded,
    filled: Filled,
    ranked: list[Ranked],
    chosen: list[PacketItem],
    evidence: dict[str, str],
) -> None:
    """Add to ``packet`` why each candidate went in or not, and the effective config."""
    run, outputs, sections, dropped = steps.run, steps.outputs, filled.sections, filled.dropped
    lookups = output(outputs, StepKind.FACT_LOOKUP).facts
    matched = output(outputs, StepKind.LEARNED_PROCEDURES).procedures
    picks = loaded.fact_picks.picks
    packet.explain = explanations(
        ranked,
        picks,
        filled.scored_of,
        sections,
        chosen,
        dropped,
        lookups,
        packet.reference_time,
        evidence,
    ) + learnt.explain(matched, sections, dropped)
    packet.explain += explain_profile(
        filled.inputs.profile, sections, dropped, {p.fact_id for p in picks}
    )
    if run.fact_time is not None:  # every fact it saw passed the time filter
        why = run.fact_time.reason()
        packet.explain = [
            e.model_copy(update={"reason": why}) if e.type == "fact" else e for e in packet.explain
        ]
    packet.explain = override_explanations(run.overrides, packet.explain)
    packet.recall_config = run.config.model_dump(mode="json")


def without_step(plan: RetrievalPlan, kind: StepKind) -> RetrievalPlan:
    """``plan`` without its ``kind`` step (a group left empty is dropped)."""
    groups = (
        StepGroup(tuple(s for s in g.steps if s.kind is not kind), g.skip_if_found)
        for g in plan.groups
    )
    return RetrievalPlan(tuple(g for g in groups if g.steps), plan.budget_s)


async def execute_plan(
    run: StepRun, meta: dict[str, Any], started: float, *, mandates_ran: bool
) -> StepsRun:
    """The read's plan (in ``meta``) run against ``run``, within the budget that
    ``started`` (``time.perf_counter``) began; without the mandates step when a
    streamed read ran it already."""
    plan = make_plan(run.analysis, run.config, domain=run.domain is not None)
    meta["plan"] = plan.describe()
    if mandates_ran:
        plan = without_step(plan, StepKind.MANDATES)
    if run.dense_query != run.analysis.query:
        meta["dense_query"] = run.dense_query
    try:
        outputs, reports = await execute(plan, run, started)
    finally:
        run.close()
    return StepsRun(run, outputs, reports, meta)
