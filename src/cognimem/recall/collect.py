"""From the steps' outputs to what the rerank and the sections take: the fused item
list with its graph and key-lookup evidence, the facts and items the sections show,
the conflicts the answer may touch, and the read's filters applied to items that came
by id."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter

from cognimem.domain.lookup import domain_entries, overruled
from cognimem.models import MemoryItem
from cognimem.models.knowledge import Fact, FactConflict
from cognimem.models.packets import ConflictEntry, PacketItem
from cognimem.recall import procedures as learnt
from cognimem.recall.analyze import QueryAnalysis
from cognimem.recall.assemble import SectionInputs, packet_item
from cognimem.recall.constraints import Pick, Scored
from cognimem.recall.fuse import fused_scores, signals_of
from cognimem.recall.plan import StepKind
from cognimem.recall.presets import RecallConfig
from cognimem.recall.rerank import Ranked, RankInput
from cognimem.recall.steps import StepOutput
from cognimem.recall.temporal import belongs
from cognimem.store.types import Candidate, ItemFilter

_EMPTY = StepOutput()
# the shortlist keeps this many of each fused list's best (lexical, vector)
KEEP_PER_LIST = 3
# the steps whose items fill a section of their own, by section name
SECTION_STEPS = (
    (StepKind.MANDATES, "mandates"),
    (StepKind.SUMMARIES, "summaries"),
    (StepKind.PROCEDURES, "procedures"),
)


def output(outputs: dict[StepKind, StepOutput], kind: StepKind) -> StepOutput:
    """A step's output; an empty one when the step did not run or failed."""
    return outputs.get(kind, _EMPTY)


class RankInputs:
    """What the retrieval steps said about each candidate: the lexical and vector lists
    fused, then the graph and key-lookup evidence added (each normalised by its best
    score). A read fuses ~200 candidates and reranks a shortlist of them, so a
    candidate's :class:`RankInput` is built when first asked for (``get``); the rest
    stay as their fused scores."""

    def __init__(self, outputs: dict[StepKind, StepOutput], config: RecallConfig) -> None:
        self._lists = {
            k.value: outputs[k].candidates
            for k in (StepKind.LEXICAL, StepKind.VECTOR)
            if k in outputs
        }
        scores, self._raw = fused_scores(self._lists, config)
        # best first, ties by id (two stable sorts: by id, then by score descending):
        # the order the shortlist breaks its own ties by
        by_id = sorted(scores.items(), key=itemgetter(0))
        self._fused = sorted(by_id, key=itemgetter(1), reverse=True)
        self._top = self._fused[0][1] if self._fused else 0.0
        self._scores = scores
        self._built: dict[str, RankInput] = {}
        self._extra: list[str] = []  # ids only the graph or the key lookup found
        graph = output(outputs, StepKind.GRAPH).candidates
        for c, share in _shares(graph):
            ri = self.get(c.item_id)
            ri.graph = max(ri.graph, share)
            ri.steps = (*ri.steps, _GRAPH)
        for c, share in _shares(output(outputs, StepKind.FACT_LOOKUP).candidates):
            ri = self.get(c.item_id)
            ri.fact = max(ri.fact, share)
            ri.steps = (*ri.steps, _FACT_LOOKUP)

    def get(self, item_id: str) -> RankInput:
        """The candidate's input (a blank one, kept, for an id no step found)."""
        ri = self._built.get(item_id)
        if ri is None:
            score = self._scores.get(item_id)
            if score is None:
                ri = RankInput()
                self._extra.append(item_id)
            else:
                top = self._top
                raw = signals_of(item_id, self._lists, self._raw)
                ri = RankInput(relevance=score / top if top > 0 else 0.0, raw=raw, steps=tuple(raw))
            self._built[item_id] = ri
        return ri

    def shortlist(self, config: RecallConfig, limit: int) -> list[str]:
        """The ids worth loading for the rerank: the best by relevance, graph and key
        evidence, a few times the packet's limit (ties in the fused order, then the
        order the graph and the key lookup found them), always with each fused list's
        best ``KEEP_PER_LIST`` in place of the lowest others."""
        w = config.rerank
        wr, top, built = w.relevance, self._top, self._built
        ids = [i for i, _ in self._fused] + self._extra
        # one fusion alone found: its relevance (graph and fact 0.0 add nothing)
        keys = [-(wr * (score / top)) if top > 0 else -0.0 for _, score in self._fused]
        keys += [0.0] * len(self._extra)
        # the candidates built so far (the graph's and the key lookup's, ~50 of ~200)
        # have every signal: their keys by position, not a lookup for every id
        position = dict(zip(ids, range(len(ids)), strict=True))
        for item_id, ri in built.items():
            keys[position[item_id]] = -(wr * ri.relevance + w.graph * ri.graph + w.fact * ri.fact)
        order = sorted(range(len(ids)), key=keys.__getitem__)
        # each list's best few, whatever their fused score: a list of near-equal noise
        # (BM25 of a floored-idf word alone) stretched by min-max can push another
        # list's best hits below the cut (benchmarks/results/fuse_shortlist.md)
        kept = {
            c.item_id
            for found in self._lists.values()
            for c in heapq.nlargest(KEEP_PER_LIST, found, key=attrgetter("score"))
        }
        room = max(limit * 3, limit + 20) - len(kept)
        out: list[str] = []
        for n in order:
            if ids[n] in kept:
                out.append(ids[n])
            elif room > 0:
                out.append(ids[n])
                room -= 1
        return out


_GRAPH, _FACT_LOOKUP = StepKind.GRAPH.value, StepKind.FACT_LOOKUP.value


def _shares(found: Sequence[Candidate]) -> zip[tuple[Candidate, float]]:
    """Each candidate of a step with its score as a share of the step's best."""
    scores = [c.score for c in found]
    best = (max(scores) if scores else 0.0) or 1.0
    return zip(found, [score / best for score in scores], strict=True)


def rank_inputs(outputs: dict[StepKind, StepOutput], config: RecallConfig) -> RankInputs:
    """The fused candidates with their graph and key-lookup evidence."""
    return RankInputs(outputs, config)


def shortlist(inputs: RankInputs, config: RecallConfig, limit: int) -> list[str]:
    """The ids worth loading for the rerank (``RankInputs.shortlist``)."""
    return inputs.shortlist(config, limit)


@dataclass
class FactPicks:
    """The fact steps' picks and the open conflicts, before their facts are loaded."""

    picks: list[Pick]
    conflicts: list[FactConflict]

    @classmethod
    def of(cls, outputs: dict[StepKind, StepOutput]) -> FactPicks:
        picks = [
            *output(outputs, StepKind.CONSTRAINTS).picks,
            *output(outputs, StepKind.FACTS).picks,
        ]
        return cls(picks, output(outputs, StepKind.FACTS).conflicts)

    def fact_ids(self) -> list[str]:
        ids = {p.fact_id for p in self.picks}
        ids.update(i for c in self.conflicts for i in c.fact_ids)
        return sorted(ids)


def section_inputs(
    outputs: dict[StepKind, StepOutput],
    fact_picks: FactPicks,
    by_id: dict[str, MemoryItem],
    facts_by_id: dict[str, Fact],
    analysis: QueryAnalysis,
) -> tuple[SectionInputs, dict[str, Scored]]:
    """What each section may show: constraints first, then looked-up and other facts
    (each fact once), the section steps' items, and the conflicts the answer may touch.
    Also returns each picked fact's score by id (explain shows it)."""
    inputs = SectionInputs()
    picks = fact_picks.picks
    scored_of = {
        p.fact_id: Scored(facts_by_id[p.fact_id], p.score, p.signals)
        for p in picks
        if p.fact_id in facts_by_id
    }
    inputs.constraints = [
        scored_of[p.fact_id] for p in picks if p.constraint and p.fact_id in scored_of
    ]
    looked_up = [Scored(f, 1.0, {"key": 1.0}) for f in output(outputs, StepKind.FACT_LOOKUP).facts]
    seen_facts = {s.fact.id for s in inputs.constraints}
    for s in [
        *looked_up,
        *(scored_of[p.fact_id] for p in picks if not p.constraint and p.fact_id in scored_of),
    ]:
        if s.fact.id not in seen_facts:
            seen_facts.add(s.fact.id)
            inputs.facts.append(s)
    found = output(outputs, StepKind.DOMAIN).domain
    if found:  # the domain's current values win over the memory facts they contradict
        over = overruled([s.fact for s in [*inputs.constraints, *inputs.facts]], found)
        inputs.constraints = [s for s in inputs.constraints if s.fact.id not in over]
        inputs.facts = [s for s in inputs.facts if s.fact.id not in over]
        inputs.domain_facts = domain_entries(found, over)
    for kind, name in SECTION_STEPS:
        # mandates are listed, not searched: no score of meaning to show
        listed = kind is StepKind.MANDATES
        entries: list[PacketItem] = [
            packet_item(by_id[c.item_id], c.score, {} if listed else {"semantic": c.score})
            for c in output(outputs, kind).candidates
            if c.item_id in by_id
        ]
        setattr(inputs, name, entries)
    matched = output(outputs, StepKind.LEARNED_PROCEDURES).procedures
    inputs.learned_procedures = [learnt.entry(m) for m in matched]
    inputs.conflicts = relevant_conflicts(fact_picks.conflicts, facts_by_id, seen_facts, analysis)
    return inputs, scored_of


def packet_signals(r: Ranked) -> dict[str, float]:
    """The per-method raw scores (what a caller compares across reads) and the final
    signals that moved the rank."""
    out = dict(r.raw)
    names = (
        "graph",
        "fact",
        "entity",
        "dated",
        "speaker",
        "session",
        "no_longer_true",
        "level",
        "told_before",
        "told_after",
    )
    for name in names:
        if r.signals.get(name):
            out[name] = r.signals[name]
    return out


def admits(flt: ItemFilter, item: MemoryItem) -> bool:
    """Whether a search with ``flt`` could have returned ``item`` (graph and key-lookup
    evidence comes by id, so the read's filters are applied here)."""
    s, i = flt.scope, item.scope
    if i.tenant_id != s.tenant_id:
        return False
    # the test ``own_and_shared`` makes, without building the two filters (per item)
    shared = flt.with_organisation and s.user_id is not None
    if i.namespace != s.namespace:  # the organisation's alone, in a read that reaches it
        reach = flt.with_organisation or flt.shared_only
        if not (reach and i.level == "organisation"):
            return False
    elif flt.level_only and s.user_id is None:  # one shared level alone
        if (i.user_id, i.agent_id) != (None, s.agent_id):
            return False
    elif shared and i.user_id is None:  # a shared level's: the namespace's
        if i.agent_id not in (None, s.agent_id):  # or the read's agent's
            return False
    else:  # the filter's user, agent and session, each when it names one
        if s.user_id is not None and i.user_id != s.user_id:
            return False
        if s.agent_id is not None and i.agent_id != s.agent_id:
            # the user's own of no agent, in a read that reaches them
            mine = flt.own_of_no_agent and i.agent_id is None
            if not (mine and s.user_id is not None):
                return False
        if s.session_id is not None and i.session_id != s.session_id:
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


def relevant_conflicts(
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
