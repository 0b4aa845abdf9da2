"""Consolidation: a scope's unconsolidated episodes grouped into session windows and
topic clusters, its subjects' facts into profiles, each group written as one summary
item whose every sentence carries the events it states. The decisions are pure
(``lifecycle.consolidate``, ``lifecycle.gist_llm`` for the LLM's gist); this service
loads, embeds, asks the LLM (``services/lifecycle/gists.py``) and stores.

A pass is idempotent: a group is named by a stable key, and its summary is written only
when its text or its sources changed, replacing the earlier one (archived, kept in
history). Episodes are marked consolidated, never deleted or copied; a window that new
episodes continue is summarised again with its earlier members, under its old key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from cognimem.errors import InvalidInput, StaleKnowledge
from cognimem.ingest.entities import EntityResolver
from cognimem.ingest.extract import RuleExtractor
from cognimem.ingest.knowledge import Built, KnowledgeBuilder, Said, fact_text
from cognimem.lifecycle import consolidate as rules
from cognimem.lifecycle import group_facts, themes
from cognimem.lifecycle.consolidate import (
    ConsolidationPolicy,
    ConstraintTag,
    Group,
    StatedFact,
)
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Scope
from cognimem.models.extraction import Extraction
from cognimem.models.items import CONSOLIDATION_META, index_text
from cognimem.models.lifecycle import ConsolidationResult
from cognimem.services.components import Components
from cognimem.services.lifecycle.gists import gist_of
from cognimem.services.lifecycle.mentions import entity_mentions
from cognimem.services.lifecycle.operations import OperationService, Progress
from cognimem.services.lifecycle.summaries import (
    Pending,
    consolidation_summaries,
    same_summary,
    stage_summaries,
)
from cognimem.store.reach import level_facts, level_filter
from cognimem.store.types import ConsolidationWrite

# one pass takes at most this many unconsolidated episodes (newest first); the rest wait
# for the next pass
MAX_EPISODES = 20_000
MAX_FACTS = 5_000
MAX_ATTEMPTS = 3
META = CONSOLIDATION_META  # the summary item's metadata key


@dataclass
class _Gathered:
    """What a pass read and the groups it made of it."""

    new: list[MemoryItem]  # the episodes this pass consolidates
    existing: dict[str, MemoryItem]  # the earlier summaries, by key
    pool_by_id: dict[str, MemoryItem]  # the new episodes and the windows they continue
    vectors: dict[str, np.ndarray]  # unit vectors by item id, extended as the pass goes
    constraints: dict[str, ConstraintTag]
    windows: list[Group]
    groups: list[Group]  # the groups to summarise: windows with new members, topics ...


class ConsolidationService(OperationService[ConsolidationResult]):
    """``Memory.consolidate`` (documented there)."""

    def __init__(self, parts: Components, policy: ConsolidationPolicy | None = None) -> None:
        super().__init__(parts)
        self.policy = policy or ConsolidationPolicy()

    async def fold(
        self, scope: Scope, episodes: Sequence[MemoryItem], *, dry_run: bool
    ) -> ConsolidationResult:
        """A pass over ``episodes`` alone (the forgetting policy's ``compress``): those
        not consolidated yet are grouped into windows and topics and summarised as
        ``run`` does (no profiles), and marked consolidated."""
        self._parts.require_open()
        return await self._operate(scope, dry_run, None, episodes)

    async def _operate(
        self,
        scope: Scope,
        dry_run: bool,
        progress: Progress | None,
        only: Sequence[MemoryItem] | None = None,
    ) -> ConsolidationResult:
        if scope.user_id is None and scope.session_id is not None:
            raise InvalidInput(
                "a shared level's consolidation takes no session: leave out scope.session_id",
                field="scope.session_id",
            )
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return await self._pass(scope, dry_run, progress, only)
            except StaleKnowledge:
                # a write or another pass changed what this one read: a pass is computed
                # from the store alone, so it is simply made again
                if attempt == MAX_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    async def _pass(
        self,
        scope: Scope,
        dry_run: bool,
        progress: Progress | None,
        only: Sequence[MemoryItem] | None,
    ) -> ConsolidationResult:
        parts = self._parts
        tenant = scope.tenant_id
        result = ConsolidationResult(dry_run=dry_run, mode="llm" if parts.llm else "extractive")
        found = await self._gather(scope, only)
        result.episodes = len(found.new)
        result.groups = len(found.groups)
        write = ConsolidationWrite(tenant_id=tenant)
        now = parts.clock()
        pending = await self._changed(found, result, progress)
        if not dry_run:
            stated = {i for _, g, _ in pending for c in g.claims for i in c.item_ids}
            found.vectors.update(
                await self._vectors(
                    await parts.store.get_items(tenant, sorted(stated - set(found.vectors)))
                )
            )
        stage_summaries(
            write,
            result,
            scope,
            pending,
            groups=found.groups,
            existing=found.existing,
            vectors=found.vectors,
            now=now,
            model=parts.embedder.model_id,
        )
        await self._stage_knowledge(write, result, scope, found, pending, now)
        write.consolidated = [m.id for m in found.new]
        result.consolidated = len(write.consolidated)
        learned = write.knowledge is not None and not write.knowledge.is_empty()
        if not dry_run and (write.summaries or write.consolidated or learned):
            await parts.store.apply_consolidation(write)
        return result

    async def _gather(self, scope: Scope, only: Sequence[MemoryItem] | None) -> _Gathered:
        """What a pass reads and the groups it makes of it: the unconsolidated episodes
        (of ``only`` when given), the earlier summaries by key, and the windows, topics,
        profiles (not for ``only``) and themes (nor) over them."""
        store, policy = self._parts.store, self.policy
        new = await self._unconsolidated(scope, only)
        existing = await consolidation_summaries(self._parts.store, scope)
        continued = await self._continued_windows(new, existing.values())
        pool_by_id = {m.id: m for m in [*new, *continued]}
        pool = list(pool_by_id.values())
        vectors = await self._vectors(pool)
        facts = await store.find_facts(level_facts(scope, limit=MAX_FACTS))
        constraints = rules.constraint_tags(facts)
        windows = [self._keep_key(g, existing) for g in rules.windows(pool, policy)]
        window_of = {m.id: g.key for g in windows for m in g.members}
        new_set = {m.id for m in new}
        topics = rules.topics(new, vectors, window_of, policy)
        profiles: list[Group] = []
        if only is None and (new or facts):
            mentions, names = await entity_mentions(store, scope, facts, policy)
            profiles = rules.profiles(facts, policy, mentions, names)
            missing = {m.id: m for g in profiles for m in g.members if m.id not in vectors}
            vectors.update(await self._vectors(list(missing.values())))
        themed = await self._themes(scope, new, vectors) if only is None and new else []
        continuing = [g for g in windows if new_set & set(g.member_ids)]
        return _Gathered(
            new=new,
            existing=existing,
            pool_by_id=pool_by_id,
            vectors=vectors,
            constraints=constraints,
            windows=windows,
            groups=continuing + topics + profiles + themed,
        )

    async def _unconsolidated(
        self, scope: Scope, only: Sequence[MemoryItem] | None
    ) -> list[MemoryItem]:
        """The scope's episodes not consolidated yet (at most ``MAX_EPISODES``), or
        those of ``only``."""
        if only is not None:
            return [e for e in only if e.kind is ItemKind.EPISODE and not e.consolidated]
        store = self._parts.store
        ids = await store.list_item_ids(
            level_filter(scope, kinds=(ItemKind.EPISODE,), consolidated=False),
            MAX_EPISODES,
        )
        return await store.get_items(scope.tenant_id, ids)

    async def _changed(
        self,
        found: _Gathered,
        result: ConsolidationResult,
        progress: Progress | None,
    ) -> list[Pending]:
        """Each group's gist, with the summary it replaces, where it differs from the
        stored summary (a group whose summary is unchanged is counted, not kept)."""
        pending: list[Pending] = []
        groups = found.groups
        for n, group in enumerate(groups):
            gist = await gist_of(
                self._parts.llm, group, found.vectors, found.constraints, self.policy,
                result.degraded,
            )  # fmt: skip
            old = found.existing.get(group.key)
            if old is not None and same_summary(old, gist):
                result.unchanged += 1
            else:
                pending.append((group, gist, old))
            if progress is not None:
                progress(0.9 * (n + 1) / max(len(groups), 1))
        return pending

    async def _stage_knowledge(
        self,
        write: ConsolidationWrite,
        result: ConsolidationResult,
        scope: Scope,
        found: _Gathered,
        pending: Sequence[Pending],
        now: datetime,
    ) -> None:
        """The facts the groups state, re-read (from the LLM's gists, else from the
        windows' questions and answers) and reconciled into ``write``."""
        if self._parts.llm is not None:
            said = await self._said_by_llm(
                scope, [sf for _, g, _ in pending for sf in g.facts], found.pool_by_id
            )
        else:
            said = await self._answered(scope, found.windows, {m.id for m in found.new})
        if said:
            built = await self._knowledge(scope, said, now)
            write.knowledge = built.knowledge
            result.facts_created = len(built.report.facts_created)
            result.facts_reinforced = len(built.report.facts_reinforced)

    async def _themes(
        self, scope: Scope, new: Sequence[MemoryItem], vectors: dict[str, np.ndarray]
    ) -> list[Group]:
        """The themes of all the scope's episodes (``lifecycle.themes``): a theme
        gathers a speaker's turns across sessions, consolidated or not. ``vectors`` is
        extended with the episodes it lacked."""
        store = self._parts.store
        ids = await store.list_item_ids(
            level_filter(scope, kinds=(ItemKind.EPISODE,)), MAX_EPISODES
        )
        known = {m.id: m for m in new}
        episodes = [
            *known.values(),
            *await store.get_items(scope.tenant_id, [i for i in ids if i not in known]),
        ]
        vectors.update(await self._vectors([m for m in episodes if m.id not in vectors]))
        return themes.themes(episodes, vectors, self.policy)

    async def _continued_windows(
        self, new: Sequence[MemoryItem], summaries: Iterable[MemoryItem]
    ) -> list[MemoryItem]:
        """The earlier members of window summaries that new episodes continue (in the
        same session, within the window gap of their period)."""
        gap = self.policy.window_gap
        wanted: list[str] = []
        for s in summaries:
            meta = s.metadata[META]
            if meta.get("group") != rules.GroupKind.WINDOW.value:
                continue
            period = meta.get("period")
            if not period:
                continue
            start, end = (datetime.fromisoformat(p) for p in period)
            if any(
                e.scope.session_id == s.scope.session_id
                and start - gap <= e.occurred_at <= end + gap
                for e in new
            ):
                wanted += meta.get("covers", [])
        if not wanted:
            return []
        found = await self._parts.store.get_items(new[0].scope.tenant_id, wanted)
        return [m for m in found if m.status is ItemStatus.ACTIVE]

    def _keep_key(self, group: Group, existing: dict[str, MemoryItem]) -> Group:
        """``group`` under the key of an earlier window summary covering its members."""
        members = set(group.member_ids)
        for key, s in existing.items():
            meta = s.metadata[META]
            if meta.get("group") == rules.GroupKind.WINDOW.value and members & set(
                meta.get("covers", [])
            ):
                return Group(group.kind, key, group.members, group.facts, group.title)
        return group

    async def _said_by_llm(
        self, scope: Scope, stated: Sequence[StatedFact], members: dict[str, MemoryItem]
    ) -> list[Said]:
        """The facts the LLM's gists read, each said by the first episode that states
        it, its evidence the episodes that state it."""
        if not stated:
            return []
        first = {sf.item_ids[0]: members[sf.item_ids[0]].source_event_ids[0] for sf in stated}
        events = {
            e.id: e
            for e in await self._parts.store.get_events(
                scope.tenant_id, sorted(set(first.values()))
            )
        }
        return [
            Said(events[first[sf.item_ids[0]]], list(sf.item_ids), Extraction(facts=[sf.fact]))
            for sf in stated
            if first[sf.item_ids[0]] in events
        ]

    async def _answered(self, scope: Scope, windows: Sequence[Group], new: set[str]) -> list[Said]:
        """Without an LLM, the facts the windows' questions and answers state together
        (``lifecycle.group_facts``), each said by the answer, its evidence both turns.
        Only answers new to this pass are read, so a re-run reads none again."""
        pairs = [p for g in windows for p in group_facts.pairs(list(g.members), new)]
        if not pairs:
            return []
        wanted = sorted({a.source_event_ids[0] for _, a in pairs if a.source_event_ids})
        events = {e.id: e for e in await self._parts.store.get_events(scope.tenant_id, wanted)}
        extractor = RuleExtractor()
        said: list[Said] = []
        for question, answer in pairs:
            event = events.get(answer.source_event_ids[0]) if answer.source_event_ids else None
            if event is None:
                continue
            read = group_facts.read_pair(
                question, answer, event.occurred_at, event.role.value, extractor
            )
            if read is not None:
                said.append(
                    Said(event, [question.id, answer.id], Extraction(facts=list(read.facts)))
                )
        return said

    async def _knowledge(self, scope: Scope, said: Sequence[Said], now: datetime) -> Built:
        """What the facts re-read from the groups change, reconciled with the stored ones
        as a write's are (a known fact reinforced, a new one created)."""
        parts = self._parts
        texts = list(dict.fromkeys(fact_text(f) for s in said for f in s.extraction.facts))
        vectors: dict[str, np.ndarray] = {}
        if texts:
            matrix = np.asarray(await parts.embedder.embed(texts), dtype=np.float32)
            vectors = dict(zip(texts, matrix, strict=True))
        builder = KnowledgeBuilder(
            parts.store, EntityResolver(parts.store), parts.embedder.model_id
        )
        return await builder.build(scope, said, vectors, now)

    async def _vectors(self, items: Sequence[MemoryItem]) -> dict[str, np.ndarray]:
        """Unit vectors of the items, as the write path embedded them (the embedding
        cache answers)."""
        if not items:
            return {}
        matrix = await self._parts.embedder.embed([index_text(m.author, m.text) for m in items])
        return {m.id: row for m, row in zip(items, rules.unit_rows(matrix), strict=True)}
