"""Consolidation: a scope's unconsolidated episodes grouped into session windows and
topic clusters, its subjects' facts into profiles, each group written as one summary
item whose every sentence carries the events it states. The decisions are pure
(``lifecycle.consolidate``, ``lifecycle.gist_llm`` for the LLM's gist); this service
loads, embeds, asks the LLM and stores.

A pass is idempotent: a group is named by a stable key, and its summary is written only
when its text or its sources changed, replacing the earlier one (archived, kept in
history). Episodes are marked consolidated, never deleted or copied; a window that new
episodes continue is summarised again with its earlier members, under its old key.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from cognimem.errors import InvalidInput, ProviderError, StaleKnowledge
from cognimem.ingest.entities import EntityResolver
from cognimem.ingest.extract.schema import Extraction
from cognimem.ingest.knowledge import Built, KnowledgeBuilder, Said, fact_text
from cognimem.lifecycle import consolidate as rules
from cognimem.lifecycle.consolidate import (
    ConsolidationPolicy,
    ConstraintTag,
    Gist,
    Group,
    StatedFact,
)
from cognimem.lifecycle.gist_llm import llm_gist
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Scope
from cognimem.models.ids import new_id
from cognimem.models.items import index_text
from cognimem.models.knowledge import HistoryEntry
from cognimem.models.lifecycle import ConsolidationResult
from cognimem.providers.tokens import count_tokens
from cognimem.services.components import Components
from cognimem.store.base import ConsolidationWrite, FactQuery, ItemFilter, PendingItem

log = logging.getLogger(__name__)

# one pass takes at most this many unconsolidated episodes (newest first); the rest wait
# for the next pass
MAX_EPISODES = 20_000
MAX_SUMMARIES = 20_000
MAX_FACTS = 5_000
MAX_ATTEMPTS = 3
ACTOR = "consolidation"
META = "consolidation"  # the summary item's metadata key


class ConsolidationService:
    """``Memory.consolidate`` (documented there)."""

    def __init__(self, parts: Components, policy: ConsolidationPolicy | None = None) -> None:
        self._parts = parts
        self.policy = policy or ConsolidationPolicy()

    async def consolidate(
        self,
        scope: Scope,
        *,
        dry_run: bool,
        progress: Callable[[float], None] | None = None,
    ) -> ConsolidationResult:
        return await self._run(scope, dry_run, progress, None)

    async def fold(
        self, scope: Scope, episodes: Sequence[MemoryItem], *, dry_run: bool
    ) -> ConsolidationResult:
        """A pass over ``episodes`` alone (the forgetting policy's ``compress``): those
        not consolidated yet are grouped into windows and topics and summarised as
        ``consolidate`` does (no profiles), and marked consolidated."""
        return await self._run(scope, dry_run, None, episodes)

    async def _run(
        self,
        scope: Scope,
        dry_run: bool,
        progress: Callable[[float], None] | None,
        only: Sequence[MemoryItem] | None,
    ) -> ConsolidationResult:
        self._parts.require_open()
        if scope.user_id is None:
            raise InvalidInput("consolidation needs a user_id", field="user_id")
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
        progress: Callable[[float], None] | None,
        only: Sequence[MemoryItem] | None = None,
    ) -> ConsolidationResult:
        parts = self._parts
        store, policy = parts.store, self.policy
        tenant = scope.tenant_id
        llm = parts.llm
        result = ConsolidationResult(dry_run=dry_run, mode="llm" if llm else "extractive")
        if only is None:
            new_ids = await store.list_item_ids(
                ItemFilter(scope=scope, kinds=(ItemKind.EPISODE,), consolidated=False),
                MAX_EPISODES,
            )
            new = await store.get_items(tenant, new_ids)
        else:
            new = [e for e in only if e.kind is ItemKind.EPISODE and not e.consolidated]
        result.episodes = len(new)
        summary_ids = await store.list_item_ids(
            ItemFilter(scope=scope, kinds=(ItemKind.SUMMARY,)), MAX_SUMMARIES
        )
        existing = {
            s.key: s
            for s in await store.get_items(tenant, summary_ids)
            if s.key and isinstance(s.metadata.get(META), dict)
        }
        continued = await self._continued_windows(new, existing.values())
        pool_by_id = {m.id: m for m in [*new, *continued]}
        pool = list(pool_by_id.values())
        vectors = await self._vectors(pool)
        facts = await store.find_facts(
            FactQuery(tenant, scope.namespace, scope.user_id, limit=MAX_FACTS)
        )
        constraints = rules.constraint_tags(facts)
        windows = [self._keep_key(g, existing) for g in rules.windows(pool, policy)]
        window_of = {m.id: g.key for g in windows for m in g.members}
        new_set = {m.id for m in new}
        topics = rules.topics(new, vectors, window_of, policy)
        profiles = rules.profiles(facts, policy) if only is None and (new or facts) else []
        groups = [g for g in windows if new_set & set(g.member_ids)] + topics + profiles
        result.groups = len(groups)
        write = ConsolidationWrite(tenant_id=tenant)
        now = parts.clock()
        pending: list[tuple[Group, Gist, MemoryItem | None]] = []
        for n, group in enumerate(groups):
            gist = await self._gist(group, vectors, constraints, result)
            old = existing.get(group.key)
            if old is not None and _same(old, gist):
                result.unchanged += 1
            else:
                pending.append((group, gist, old))
            if progress is not None:
                progress(0.9 * (n + 1) / max(len(groups), 1))
        if not dry_run:
            stated = {i for _, g, _ in pending for c in g.claims for i in c.item_ids}
            vectors.update(
                await self._vectors(await store.get_items(tenant, sorted(stated - set(vectors))))
            )
        for group, gist, old in pending:
            item = _summary_item(scope, group, gist, now, parts.embedder.model_id)
            vector = None if dry_run else summary_vector(gist, vectors)
            write.summaries.append(PendingItem(item, vector, gist.text(), gist.text()))
            result.summary_ids.append(item.id)
            result.profiles += group.kind is rules.GroupKind.PROFILE
            if old is None:
                result.written += 1
            else:
                result.replaced += 1
                write.replaced[old.id] = item.id
            write.history += _history(tenant, item, old, now)
            # new episodes that bridge two earlier windows merge them: the other one
            # is replaced by this summary too
            for other in _merged_windows(group, existing, old):
                write.replaced[other.id] = item.id
                write.history += _history(tenant, item, other, now)[1:]
        stated_facts = [sf for _, g, _ in pending for sf in g.facts]
        if stated_facts:
            built = await self._knowledge(scope, stated_facts, pool_by_id, now)
            write.knowledge = built.knowledge
            result.facts_created = len(built.report.facts_created)
            result.facts_reinforced = len(built.report.facts_reinforced)
        write.consolidated = [m.id for m in new]
        result.consolidated = len(write.consolidated)
        learned = write.knowledge is not None and not write.knowledge.is_empty()
        if not dry_run and (write.summaries or write.consolidated or learned):
            await store.apply_consolidation(write)
        if progress is not None:
            progress(1.0)
        return result

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

    async def _knowledge(
        self,
        scope: Scope,
        stated: Sequence[StatedFact],
        members: dict[str, MemoryItem],
        now: datetime,
    ) -> Built:
        """The facts the LLM's gists read, reconciled with the stored ones as a write's
        are: each said by the first episode that states it, its evidence the episodes
        that state it."""
        parts = self._parts
        first = {sf.item_ids[0]: members[sf.item_ids[0]].source_event_ids[0] for sf in stated}
        events = {
            e.id: e
            for e in await parts.store.get_events(scope.tenant_id, sorted(set(first.values())))
        }
        said = [
            Said(events[first[sf.item_ids[0]]], list(sf.item_ids), Extraction(facts=[sf.fact]))
            for sf in stated
            if first[sf.item_ids[0]] in events
        ]
        texts = list(dict.fromkeys(fact_text(s.extraction.facts[0]) for s in said))
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
        out: dict[str, np.ndarray] = {}
        for m, row in zip(items, np.asarray(matrix, dtype=np.float32), strict=True):
            norm = float(np.linalg.norm(row))
            out[m.id] = row / norm if norm else row
        return out

    async def _gist(
        self,
        group: Group,
        vectors: dict[str, np.ndarray],
        constraints: dict[str, ConstraintTag],
        result: ConsolidationResult,
    ) -> Gist:
        llm = self._parts.llm
        if llm is not None and group.kind is not rules.GroupKind.PROFILE:
            try:
                return await llm_gist(llm, group, constraints, self.policy)
            except ProviderError as exc:
                # visible: the result names the group and why; the gist is extractive
                log.warning("consolidation: LLM gist of %s failed: %s", group.key, exc.message)
                result.degraded.append(f"{group.key}: {exc.message}")
        return rules.extractive_gist(group, vectors, constraints, self.policy)


def _merged_windows(
    group: Group, existing: dict[str, MemoryItem], kept: MemoryItem | None
) -> list[MemoryItem]:
    """Earlier window summaries, other than ``kept``, covering members of ``group``."""
    if group.kind is not rules.GroupKind.WINDOW:
        return []
    members = set(group.member_ids)
    return [
        s
        for s in existing.values()
        if s is not kept
        and s.metadata[META].get("group") == rules.GroupKind.WINDOW.value
        and members & set(s.metadata[META].get("covers", []))
    ]


def summary_vector(gist: Gist, vectors: dict[str, np.ndarray]) -> np.ndarray | None:
    """A summary's embedding: the normalised mean of the vectors of the items its
    sentences state (what it says, weighed as said; embedding a long gist with the
    model costs a second a summary on a small CPU and blurs it no less)."""
    rows = [vectors[i] for c in gist.claims for i in c.item_ids if i in vectors]
    if not rows:
        return None
    mean = np.mean(np.stack(rows), axis=0).astype(np.float32)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm else None


def _same(old: MemoryItem, gist: Gist) -> bool:
    return old.text == gist.text() and list(old.source_event_ids) == gist.event_ids()


def _summary_item(scope: Scope, group: Group, gist: Gist, now: datetime, model: str) -> MemoryItem:
    period = rules.group_period(group)
    text = gist.text()
    meta: dict[str, Any] = {
        "group": group.kind.value,
        "key": group.key,
        "covers": list(group.member_ids),
        "facts": [f.id for f in group.facts],
        "claims": [c.to_json() for c in gist.claims],
        "period": None if period is None else [p.isoformat() for p in period],
    }
    entities = sorted({e for m in group.members for e in m.entities})
    return MemoryItem(
        id=new_id("mem"),
        scope=Scope(
            tenant_id=scope.tenant_id,
            namespace=scope.namespace,
            user_id=scope.user_id,
            agent_id=scope.agent_id,
            session_id=group.members[0].scope.session_id if group.members else None,
        ),
        text=text,
        kind=ItemKind.SUMMARY,
        key=group.key,
        entities=entities,
        source_event_ids=gist.event_ids(),
        external_ids=gist.external_ids(),
        occurred_at=period[1] if period else now,
        recorded_at=now,
        importance=0.6,
        token_count=count_tokens(text),
        embedding_model=model,
        metadata={META: meta},
    )


def _history(
    tenant: str, item: MemoryItem, old: MemoryItem | None, now: datetime
) -> list[HistoryEntry]:
    """The new summary's entry and, when it replaces one, the old summary's."""
    entries = [
        HistoryEntry(
            id=new_id("hist"),
            tenant_id=tenant,
            target_type="item",
            target_id=item.id,
            action="consolidated" if old is None else "replaced",
            actor=ACTOR,
            at=now,
            before=None if old is None else {"id": old.id, "text": old.text},
            after={"text": item.text, "key": item.key},
        )
    ]
    if old is not None:
        entries.append(
            HistoryEntry(
                id=new_id("hist"),
                tenant_id=tenant,
                target_type="item",
                target_id=old.id,
                action="superseded",
                actor=ACTOR,
                at=now,
                before={"status": old.status.value},
                after={"status": ItemStatus.ARCHIVED.value, "superseded_by": item.id},
            )
        )
    return entries
