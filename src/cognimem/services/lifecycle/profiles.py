"""A profiles-only consolidation pass for some entities: what an alias split or merge
runs once it has committed (``services/editing.py``), so the profiles it archived are
built again at once rather than at the next consolidation pass.

The groups are consolidation's own (``lifecycle.consolidate.profiles`` over the scope's
live facts and the episodes mentioning each entity, ``services/lifecycle/mentions.py``)
restricted to the entities asked for, and each gist is made as a pass makes it
(``services/lifecycle/gists.py``: extractive without an LLM; with one, an LLM that fails
leaves the profile extractive and ``degraded`` says so). A profile the same as a live
one under its key is not written again; one that is written replaces the live one of
its key, if any, as a pass would. It is written through ``apply_consolidation`` (made
again from the store when a concurrent write changed what it read, as a pass is), with
a ``rebuilt`` history entry (actor ``api``, ``after.because`` the edit) naming the
profile of its key the edit archived (``before``), and that profile gets a
``superseded`` entry naming the new one. No episode is marked consolidated and no fact
is read from the gists: that is the next full pass's work.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from cognimem.errors import StaleKnowledge
from cognimem.lifecycle import consolidate as rules
from cognimem.lifecycle.consolidate import ConsolidationPolicy, Group
from cognimem.models import MemoryItem, Scope
from cognimem.models.items import index_text
from cognimem.models.knowledge import Fact, HistoryEntry
from cognimem.models.lifecycle import ConsolidationResult
from cognimem.services.components import Components
from cognimem.services.lifecycle.gists import gist_of
from cognimem.services.lifecycle.mentions import entity_mentions
from cognimem.services.lifecycle.summaries import (
    Pending,
    consolidation_summaries,
    same_summary,
    stage_summaries,
)
from cognimem.store.reach import level_facts
from cognimem.store.types import ConsolidationWrite

ACTOR = "api"
# as a consolidation pass reads (``services/lifecycle/consolidation.py``)
MAX_FACTS = 5_000
MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class Rebuilt:
    """The profiles a rebuild wrote (their ids), and every gist an LLM failed to make
    (the group and why: written extractively instead)."""

    profiles: list[str] = field(default_factory=list)
    degraded: list[str] = field(default_factory=list)


class ProfileRebuild:
    """The profiles of some entities built again (rules in the module docstring)."""

    def __init__(self, parts: Components, policy: ConsolidationPolicy | None = None) -> None:
        self._parts = parts
        self.policy = policy or ConsolidationPolicy()

    async def rebuild(
        self, scope: Scope, entity_ids: Collection[str], archived: Sequence[str], because: str
    ) -> Rebuilt:
        """The profiles of ``entity_ids`` in ``scope`` (one user's, or a shared level's)
        built again after the alias edit ``because`` archived ``archived``."""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return await self._pass(scope, set(entity_ids), archived, because)
            except StaleKnowledge:
                if attempt == MAX_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    async def _pass(
        self, scope: Scope, wanted: set[str], archived: Sequence[str], because: str
    ) -> Rebuilt:
        parts, policy = self._parts, self.policy
        store, tenant = parts.store, scope.tenant_id
        facts = await store.find_facts(level_facts(scope, limit=MAX_FACTS))
        groups = await self._groups(scope, wanted, facts)
        if not groups:
            return Rebuilt()
        constraints = rules.constraint_tags(facts)
        vectors = await self._vectors(list({m.id: m for g in groups for m in g.members}.values()))
        keys = {g.key for g in groups}
        existing = {
            k: s for k, s in (await consolidation_summaries(store, scope)).items() if k in keys
        }
        result = ConsolidationResult(dry_run=False, mode="llm" if parts.llm else "extractive")
        pending: list[Pending] = []
        for group in groups:
            gist = await gist_of(parts.llm, group, vectors, constraints, policy, result.degraded)
            old = existing.get(group.key)
            if old is None or not same_summary(old, gist):
                pending.append((group, gist, old))
        stated = {i for _, g, _ in pending for c in g.claims for i in c.item_ids}
        vectors.update(
            await self._vectors(await store.get_items(tenant, sorted(stated - set(vectors))))
        )
        write = ConsolidationWrite(tenant_id=tenant)
        now = parts.clock()
        stage_summaries(
            write, result, scope, pending, groups=groups, existing=existing, vectors=vectors,
            now=now, model=parts.embedder.model_id,
        )  # fmt: skip
        if write.summaries:
            gone = await store.get_items(tenant, list(archived))
            write.history = noted(write, gone, because, now)
            await store.apply_consolidation(write)
        return Rebuilt([p.item.id for p in write.summaries], result.degraded)

    async def _groups(self, scope: Scope, wanted: set[str], facts: Sequence[Fact]) -> list[Group]:
        """Consolidation's profile groups of the ``wanted`` entities, from the scope's
        live ``facts`` naming one of them and the episodes mentioning them."""
        store = self._parts.store
        theirs = [f for f in facts if {f.subject_entity_id, f.object_entity_id} & wanted]
        mentions, names = await entity_mentions(store, scope, theirs, self.policy)
        about = [f for f in theirs if f.subject_entity_id in wanted]
        mentioning = {e: m for e, m in mentions.items() if e in wanted}
        return rules.profiles(about, self.policy, mentioning, names)

    async def _vectors(self, items: Sequence[MemoryItem]) -> dict[str, np.ndarray]:
        """Unit vectors of the items, as the write path embedded them."""
        if not items:
            return {}
        matrix = await self._parts.embedder.embed([index_text(m.author, m.text) for m in items])
        return {m.id: row for m, row in zip(items, rules.unit_rows(matrix), strict=True)}


def noted(
    write: ConsolidationWrite, archived: Sequence[MemoryItem], because: str, now: datetime
) -> list[HistoryEntry]:
    """``write``'s history with each new profile's ``consolidated`` entry made a
    ``rebuilt`` one (actor ``api``, ``because`` the edit, ``before`` the profile of its
    key the edit archived, if any) and a ``superseded`` entry on that archived one."""
    by_key = {a.key: a for a in archived if a.key}
    made = {p.item.id: p.item for p in write.summaries}
    out: list[HistoryEntry] = []
    for entry in write.history:
        item = made.get(entry.target_id)
        if item is None or entry.action != "consolidated":
            out.append(entry)
            continue
        old = by_key.get(item.key or "")
        before = None if old is None else {"id": old.id, "text": old.text}
        after = (entry.after or {}) | {"because": because, "entities": item.entities}
        out.append(
            entry.model_copy(
                update={"action": "rebuilt", "actor": ACTOR, "before": before, "after": after}
            )
        )
        if old is not None:
            out.append(
                HistoryEntry.new(
                    **HistoryEntry.target(old),
                    action="superseded",
                    actor=ACTOR,
                    at=now,
                    before={"status": old.status.value},
                    after={
                        "status": old.status.value,
                        "superseded_by": item.id,
                        "because": because,
                    },
                )
            )
    return out
