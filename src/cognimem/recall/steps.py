"""The read's steps: one read's shared state (the query embedding, and the fact rows
with the open conflicts, each computed once, begun at once) and a runner per step kind
(``step_groups`` runs the plan's groups under their timeouts and the plan's budget)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from cognimem.domain.layer import Domain
from cognimem.domain.lookup import Found, look_up
from cognimem.errors import DomainTimeout, ProviderError
from cognimem.models import ItemKind, MemoryItem, Scope
from cognimem.models.directory import ItemText
from cognimem.models.knowledge import AliasSource, Fact, FactConflict
from cognimem.models.scope import LEVELS
from cognimem.recall import eager
from cognimem.recall import procedures as learnt
from cognimem.recall.analyze import QueryAnalysis
from cognimem.recall.constraints import (
    Pick,
    QueryView,
    SectionConfig,
    pick_constraints,
    pick_other_facts,
)
from cognimem.recall.conversation.topic import split_subject
from cognimem.recall.events import EVENT_DEPTH, event_terms
from cognimem.recall.fact_time import FactTime, times_of
from cognimem.recall.graph import expand
from cognimem.recall.levels import (
    Override,
    level_of,
    shared_facts,
    shared_lookup,
    timed_shared,
)
from cognimem.recall.plan import (
    PlannedStep,
    StepKind,
    named_subjects,
    speaks_of_self,
    with_user_keys,
)
from cognimem.recall.presets import RecallConfig
from cognimem.recall.procedures import ProcedureMatch
from cognimem.store.arguments import KnowledgeView, ProcedureQuery
from cognimem.store.degraded import Candidates, fallbacks
from cognimem.store.protocols import Store
from cognimem.store.reach import level_facts, read_reach
from cognimem.store.types import (
    Candidate,
    FactQuery,
    FactRows,
    ItemFilter,
    joined,
)

MAX_FACTS_SCANNED = 500
# a read with a time filter picks its facts from the user's newest this many, any status
MAX_FACTS_TIMED = 5_000
MAX_GRAPH_EDGES = 5_000
MAX_PROCEDURES = 200  # the user's most confident procedures a read matches against
MAX_SECTION_ITEMS = 20  # mandates; summaries and procedures take 3
_STABLE_KINDS = (ItemKind.MANDATE, ItemKind.GUARDRAIL)
VECTOR_STEPS = frozenset({StepKind.VECTOR, StepKind.SUMMARIES, StepKind.PROCEDURES})
# the steps that need the query's embedding (the fact steps score facts by meaning)
EMBEDDING_STEPS = VECTOR_STEPS | {StepKind.CONSTRAINTS, StepKind.FACTS}


async def mandates(store: Store, scope: Scope, level: bool = False) -> StepOutput:
    """The mandates step: tier always, so every one of the organisation's (no user, no
    agent, every namespace's: the rules a company writes once), then the namespace's
    (no user, no agent: the rules of one deployment), then of the read's agent (no
    user: the rules of one agent, for every user of it) and then of the scope's own,
    the user's of the read's agent and of none (each newest first, at most
    ``MAX_SECTION_ITEMS`` of each) goes to the section's budget — one listing, neither
    the query's embedding nor a vector search, so a streamed read sends them first.
    They hold whatever the period the read asks about. A ``level`` read lists that
    shared level's alone."""
    # the user's own of no agent too (what the user said to no particular agent), but
    # not in a read walled to one session, which reads that session's alone
    flt = read_reach(scope, level=level, mandates=True, kinds=_STABLE_KINDS)
    listed = await store.list_items(flt, ItemText(), len(LEVELS) * MAX_SECTION_ITEMS)
    by_level: dict[str, list[MemoryItem]] = {name: [] for name in reversed(LEVELS)}
    for item in listed:
        by_level[level_of(item.scope)].append(item)
    found = [i for items in by_level.values() for i in items[:MAX_SECTION_ITEMS]]
    return StepOutput([Candidate(i.id, 1.0) for i in found], items=found)


@dataclass
class StepOutput:
    """What one step found: items (as scored candidates), fact picks, whole facts."""

    candidates: list[Candidate] = field(default_factory=list)
    picks: list[Pick] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    conflicts: list[FactConflict] = field(default_factory=list)
    entity_names: list[str] = field(default_factory=list)
    procedures: list[ProcedureMatch] = field(default_factory=list)
    domain: list[Found] = field(default_factory=list)  # the domain's rows
    items: list[MemoryItem] = field(default_factory=list)  # loaded whole (the mandates)

    @property
    def count(self) -> int:
        found = (
            self.candidates,
            self.picks,
            self.facts,
            self.conflicts,
            self.procedures,
            self.domain,
        )
        return sum(len(f) for f in found)


class StepRun:
    """One read's shared state: the query embedding, and the fact rows with the open
    conflicts (one store call), are each computed once, however many steps need them."""

    def __init__(
        self,
        store: Store,
        embed_query: Callable[[str], Awaitable[np.ndarray]],
        sections: SectionConfig,
        analysis: QueryAnalysis,
        scope: Scope,
        flt: ItemFilter,
        config: RecallConfig,
        depth: int,
        domain: Domain | None = None,
        area_vectors: Callable[[], Awaitable[np.ndarray]] | None = None,
        fact_time: FactTime | None = None,
    ) -> None:
        self.store = store
        self.inline = getattr(store, "reads_inline", False) is True  # ``eager.start``
        self.fact_time = fact_time
        self._area_vectors = area_vectors
        self.domain = domain
        self._embed_query = embed_query
        self.sections = sections
        self.analysis = analysis
        self.scope = scope
        self.flt = flt
        self.level = flt.level_only  # one shared level's read: its facts alone too
        self.config = config
        self.depth = depth
        # what the vector search embeds: a question about a person without the name
        self.dense_query, self.left_out = split_subject(
            analysis.query, config.dense_without_subject
        )
        self._embedding: asyncio.Future[np.ndarray] | None = None
        self.failed: dict[str, str] = {}  # an embedding done without: what -> why (degraded)
        self._rows: asyncio.Future[tuple[FactRows, list[FactConflict]]] | None = None
        self._view: QueryView | None = None
        # the user's facts that override shared ones of the same key (for explain)
        self.overrides: list[Override] = []
        self.has_shared = False  # whether any fact of no user exists (set with the rows)
        # the vector-kind steps of the running group, answered by one store call
        self.group: tuple[PlannedStep, ...] = ()
        self._batches: dict[
            tuple[PlannedStep, ...], asyncio.Future[dict[StepKind, list[Candidate]]]
        ] = {}

    def embedding(self) -> asyncio.Future[np.ndarray]:
        """The query's embedding, in a task of its own (an embedder's client may hold
        a timeout or cancel scope of the task that calls it)."""
        if self._embedding is None:
            self._embedding = asyncio.ensure_future(self._embed_query(self.dense_query))
        return self._embedding

    async def vector_or_none(self) -> np.ndarray | None:
        """The query's embedding; None when embedding failed (the vector step reports
        it; tags and words still select constraints)."""
        try:
            return await asyncio.shield(self.embedding())
        except ProviderError as exc:  # kept for ``degraded`` when no vector step says it
            self.failed["query_embedding"] = f"{exc.type}: {exc.message}"
            return None

    def fact_rows(self) -> asyncio.Future[tuple[FactRows, list[FactConflict]]]:
        """The user's live fact rows and open conflicts, read in one store call; with a
        time filter, the facts it admits instead (``_timed_fact_rows``); begun at once."""
        if self._rows is None:
            s = self.scope
            if self.fact_time is not None:
                rows = self._timed_fact_rows(self.fact_time)
            elif self.level:
                rows = self._level_fact_rows()
            elif s.user_id is None:  # all_users: the rows of no user are its own
                rows = self.store.fact_rows_and_conflicts(
                    s.tenant_id, s.namespace, s.user_id, MAX_FACTS_SCANNED
                )
            else:
                rows = self._with_shared(s.user_id)
            self._rows = eager.start(rows, self.inline)
        return self._rows

    async def _with_shared(self, user_id: str) -> tuple[FactRows, list[FactConflict]]:
        """The user's rows followed by the shared facts no closer level overrides
        (``recall/levels.py``), read in the same store call; the overrides are kept for
        ``explain``."""
        s = self.scope
        rows, conflicts, shared_rows = await self.store.fact_rows_conflicts_shared(
            s.tenant_id, s.namespace, user_id, MAX_FACTS_SCANNED
        )
        self.has_shared = bool(shared_rows.ids)
        shared = await shared_facts(self.store, s, rows, shared_rows)
        self.overrides = shared.overrides
        return shared.rows, conflicts

    async def _level_fact_rows(self) -> tuple[FactRows, list[FactConflict]]:
        """One shared level's live fact rows alone (no user, the scope's agent or none)
        and the open conflicts among them."""
        s = self.scope
        facts = await self.store.find_facts(level_facts(s, limit=MAX_FACTS_SCANNED))
        ids = [f.id for f in facts]
        conflicts = await self.store.find_conflicts(KnowledgeView(s.tenant_id, s.namespace, None))
        rows = await self.store.fact_rows_by_ids(s.tenant_id, ids)
        return rows, [c for c in conflicts if set(ids).intersection(c.fact_ids)]

    def _in_reach(self, of: Scope) -> bool:
        """Whether a fact (or procedure) stored in ``of``, of the scope's user (of no
        user: every level's), is one this read reaches: in a level's read, that
        level's alone."""
        return not self.level or of.agent_id == self.scope.agent_id

    async def _timed_fact_rows(self, at: FactTime) -> tuple[FactRows, list[FactConflict]]:
        """The user's facts the time filter admits (of any status: a fact superseded
        since held then), newest first, and the open conflicts (those recorded by the
        filter's recorded time)."""
        s = self.scope
        # decoded once per scope while no fact changes (a repeated read decodes nothing)
        known = await self.store.scope_facts(s.tenant_id, s.namespace, s.user_id, MAX_FACTS_TIMED)
        # every fact judged at once (``FactTime.admitted``: up to MAX_FACTS_TIMED a read)
        picked = np.flatnonzero(at.admitted(times_of(known.facts))).tolist()
        if self.level:
            picked = [i for i in picked if self._in_reach(known.facts[i].scope)]
        picked = picked[:MAX_FACTS_SCANNED]
        rows = known.rows(picked)
        if s.user_id is not None:  # and the shared levels' facts it admits, by precedence
            rows = await self._timed_shared(at, rows, [known.facts[i] for i in picked])
        conflicts = await self.store.find_conflicts(
            KnowledgeView(s.tenant_id, s.namespace, s.user_id)
        )
        if at.recorded is not None:
            conflicts = [c for c in conflicts if c.created_at <= at.recorded]
        return rows, conflicts

    async def _timed_shared(self, at: FactTime, rows: FactRows, own: list[Fact]) -> FactRows:
        """``rows`` (the user's facts ``at`` admits) followed by the shared facts it
        admits that no closer level overrides (``recall/levels.py``: ``timed_shared``);
        the overrides are kept for ``explain``."""
        s = self.scope
        found = [
            await self.store.scope_facts(s.tenant_id, namespace, None, MAX_FACTS_TIMED)
            for namespace in (s.namespace, s.organisation().namespace)
        ]  # the namespace's (and its agents'), then the organisation's
        admitted = [
            (n, i)
            for n, known in enumerate(found)
            for i in np.flatnonzero(at.admitted(times_of(known.facts))).tolist()
        ]
        self.has_shared = bool(admitted)
        facts = [found[n].facts[i] for n, i in admitted]
        kept, self.overrides = timed_shared(s, own, facts)
        ids = {f.id for f in kept}
        for n, known in enumerate(found):
            picked = [i for m, i in admitted if m == n and known.facts[i].id in ids]
            if picked:
                rows = joined(rows, known.rows(picked[:MAX_FACTS_SCANNED]))
        return rows

    def _search_of(self, kind: StepKind) -> tuple[ItemFilter, int]:
        if kind is StepKind.VECTOR:
            return self.flt, self.depth
        if kind is StepKind.SUMMARIES:  # summaries cover periods: the time filter holds
            return replace(self.flt, kinds=(ItemKind.SUMMARY,)), 3
        # procedures hold whatever the period
        kinds = (ItemKind.PROCEDURE_HINT,)
        return replace(self.flt, kinds=kinds, since=None, until=None, period=None), 3

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
            task = eager.start(self._vector_batch(kinds), self.inline)
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
        """What constraint and fact scoring need of the query, built once per read (by
        the first of the steps waiting for the embedding to have it)."""
        if self._view is None:
            vector = await self.vector_or_none()
            descriptions = None if vector is None else await self.area_descriptions()
            if self._view is None:  # no other step built it while this one waited
                at, a = self.fact_time, self.analysis  # a question's period: the filter's
                query = a.dateless if at is not None and at.source == "question" else a.query
                self._view = QueryView.of(query, vector, a.decision, descriptions)
        return self._view

    async def part_views(self, parts: Sequence[str]) -> list[QueryView]:
        """The view of each part of a request that asks for several things
        (``recall/parts.py``), each embedded on its own; a part whose embedding failed
        is judged by its words and tags alone."""

        async def embedded(text: str) -> np.ndarray | None:
            try:
                return await self._embed_query(text)
            except ProviderError as exc:  # said in ``degraded`` (packing.py)
                self.failed.setdefault("query_part_embedding", f"{exc.type}: {exc.message}")
                return None

        vectors = await asyncio.gather(*(embedded(p) for p in parts))
        return [await self._view_of(p, v) for p, v in zip(parts, vectors, strict=True)]

    async def area_descriptions(self) -> np.ndarray | None:
        """The decision areas' descriptions embedded (``text/areas.py``); None when the
        read has no embedder for them or embedding them failed."""
        if self._area_vectors is None:
            return None
        try:
            return await self._area_vectors()
        except ProviderError as exc:  # said in ``degraded`` (packing.py)
            self.failed.setdefault("area_descriptions", f"{exc.type}: {exc.message}")
            return None

    async def _view_of(self, text: str, vector: np.ndarray | None) -> QueryView:
        # without the descriptions the lexicon's areas still count
        descriptions = None if vector is None else await self.area_descriptions()
        return QueryView.of(text, vector, self.analysis.decision, descriptions)

    # -- the steps -------------------------------------------------------------------
    async def run(self, step: PlannedStep) -> StepOutput:
        kind = step.kind
        if kind is StepKind.LEXICAL:
            terms = list(self.analysis.terms)
            return StepOutput(await self.store.lexical_search(self.flt, terms, self.depth))
        if kind in VECTOR_STEPS:
            return await self.vector_step(kind)
        if kind is StepKind.MANDATES:
            return await mandates(self.store, self.scope, self.level)
        if kind is StepKind.CONSTRAINTS:
            rows, _ = await asyncio.shield(self.fact_rows())
            if not rows.ids:
                return StepOutput()
            view = await self.view()
            picks = pick_constraints(view, rows, self.sections, step.categories, light=step.light)
            return StepOutput(picks=picks)
        if kind is StepKind.FACTS:
            rows, conflicts = await asyncio.shield(self.fact_rows())
            if not rows.ids:
                return StepOutput(conflicts=conflicts)
            view = await self.view()
            picks = pick_other_facts(view, rows, self.sections)
            return StepOutput(picks=picks, conflicts=conflicts)
        if kind is StepKind.FACT_LOOKUP:
            s = self.scope
            keys = await self._with_user_keys(step.keys)
            query = FactQuery(s.tenant_id, s.namespace, s.user_id, keys=keys, limit=20)
            if self.level:
                query = level_facts(s, keys=keys, limit=20)
            if self.fact_time is not None:  # any status, then the ones it admits
                timed = replace(query, statuses=None, limit=MAX_FACTS_TIMED)
                at = self.fact_time
                facts = [f for f in await self.store.find_facts(timed) if at.admits(f)][:20]
            else:
                facts = await self.store.find_facts(query)
            if s.user_id is not None:
                await asyncio.shield(self.fact_rows())  # says whether shared facts exist
                if self.has_shared:
                    admits = None if self.fact_time is None else self.fact_time.admits
                    facts = await shared_lookup(self.store, s, keys, facts, admits)
            found: dict[str, float] = {}
            for f in facts:
                for item_id in f.evidence_item_ids:
                    found.setdefault(item_id, f.confidence)
            return StepOutput([Candidate(i, score) for i, score in found.items()], facts=facts)
        if kind is StepKind.GRAPH:
            return await self._graph()
        if kind is StepKind.LEARNED_PROCEDURES:
            return await self._procedures()
        if kind is StepKind.DOMAIN:
            return await self._domain()
        if kind is StepKind.EVENTS:
            return await self._events()
        raise AssertionError(f"no runner for step {kind}")  # pragma: no cover

    async def _procedures(self) -> StepOutput:
        """The learned-procedures step: the user's procedures, the read's agent's and
        the organisation's (a level's read: that level's alone) matched against the
        query. Each level is its own store query, so another level's many procedures
        never crowd a level's out of the limit."""
        s = self.scope
        if self.level:  # no user and the level's agent (or none)
            levels: list[str | None] = [s.agent_id]
        elif s.user_id is None:  # all_users: every user's
            levels = []
        else:  # and the shared levels': the agent's, the organisation's
            levels = [None] if s.agent_id is None else [s.agent_id, None]
        queries = [
            ProcedureQuery(s.tenant_id, s.namespace, None, MAX_PROCEDURES, levels=(level,))
            for level in levels
        ]
        if not self.level:
            queries.insert(0, ProcedureQuery(s.tenant_id, s.namespace, s.user_id, MAX_PROCEDURES))
        lists = [eager.start(self.store.list_procedures(q), self.inline) for q in queries]
        # inline: each answered at once already; else their round trips overlap
        found = [await f for f in lists] if self.inline else await asyncio.gather(*lists)
        stored = [p for listed in found for p in listed]
        return StepOutput(procedures=learnt.match(self.analysis.query, stored))

    async def _with_user_keys(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        """``keys``, plus the user's own for a subject named by a name the user speaks
        under (see ``plan.named_subjects``)."""
        named = named_subjects(keys)
        if not named:
            return keys
        s = self.scope
        aliases = await self.store.find_aliases(
            KnowledgeView(s.tenant_id, s.namespace, s.user_id), named
        )
        return with_user_keys(
            keys, [a.alias for a in aliases if a.source is AliasSource.USER_STATED]
        )

    async def _events(self) -> StepOutput:
        """The events step: the vector search and the lexical search over the words of
        the kind (``recall/events.py``: ``event_terms``), each ``EVENT_DEPTH`` deep, in
        the read's window. A candidate's score is its cosine to the question; -1.0 for
        one only the lexical search found."""
        found: dict[str, float] = {}
        fell_back: list[str] = []  # the vector search's ``degraded``, kept for the packet
        if self.config.vector:
            vector = await self.vector_or_none()
            if vector is not None:
                (near,) = await self.store.vector_searches([(self.flt, EVENT_DEPTH)], vector)
                found.update((c.item_id, c.score) for c in near)
                fell_back = fallbacks([near])
        terms = event_terms(self.analysis.query, self.analysis.dateless)
        if self.config.lexical and terms:
            for c in await self.store.lexical_search(self.flt, terms, EVENT_DEPTH):
                found.setdefault(c.item_id, -1.0)
        events = (Candidate(i, score) for i, score in found.items())
        return StepOutput(Candidates(events, "; ".join(fell_back) or None))

    async def _domain(self) -> StepOutput:
        """The domain's rows for the query's names (and the user's own row when it
        speaks in the first person); a statement timeout is the step's timeout."""
        assert self.domain is not None
        a = self.analysis
        try:
            found = await look_up(
                self.domain, self.store, self.scope, a.names, about_user=speaks_of_self(a.query)
            )
        except DomainTimeout as exc:
            raise TimeoutError(exc.message) from exc
        return StepOutput(domain=found)

    async def _graph(self) -> StepOutput:
        """Seeds from the alias table; the scope's edges are read (in the same store
        call) only when the query names a known entity (most queries name none)."""
        s = self.scope
        aliases, edges = await self.store.aliases_and_graph(
            KnowledgeView(s.tenant_id, s.namespace, s.user_id),
            list(self.analysis.names),
            MAX_GRAPH_EDGES,
        )
        seeds: dict[str, float] = {}
        for alias in aliases:
            seeds[alias.entity_id] = seeds.get(alias.entity_id, 0.0) + alias.confidence
        names = sorted({a.alias for a in aliases})
        if not seeds:
            return StepOutput(entity_names=names)
        return StepOutput(expand(edges, seeds, limit=self.depth), entity_names=names)
