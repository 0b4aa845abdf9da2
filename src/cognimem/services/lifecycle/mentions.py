"""The episodes that mention each entity of a scope's graph, for its profile
(``lifecycle.consolidate.profiles``): read by a consolidation pass and by the profiles-
only pass an alias edit runs (``services/lifecycle/profiles.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from cognimem.lifecycle.consolidate import ConsolidationPolicy
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Scope
from cognimem.models.knowledge import Fact
from cognimem.store import Store
from cognimem.store.arguments import KnowledgeView
from cognimem.store.lexical_index import tokens
from cognimem.store.reach import level_filter


async def entity_mentions(
    store: Store, scope: Scope, facts: Sequence[Fact], policy: ConsolidationPolicy
) -> tuple[dict[str, list[MemoryItem]], dict[str, str]]:
    """The episodes that mention each entity of ``facts`` (subject or object), by entity
    id, and the entities' names. Mentions come from the graph's links (the evidence of
    every fact the entity is the subject or the object of) and from the lexical index,
    searched under the entity's names in the alias table (those it was said under), at
    most ``max_profile_mentions`` of them, kept when the episode's own words say a name
    (an episode's search text carries the turn before it, which is not a mention)."""
    tenant = scope.tenant_id
    linked: dict[str, dict[str, None]] = {}
    for f in facts:
        for entity in (f.subject_entity_id, f.object_entity_id):
            if entity:
                linked.setdefault(entity, {}).update(dict.fromkeys(f.evidence_item_ids))
    if not linked:
        return {}, {}
    aliases = await store.find_aliases(KnowledgeView(tenant, scope.namespace, scope.user_id), None)
    names_of: dict[str, set[str]] = {}
    for a in aliases:
        if a.entity_id in linked:
            names_of.setdefault(a.entity_id, set()).add(a.alias)
    episodes_only = level_filter(scope, kinds=(ItemKind.EPISODE,))
    searched: dict[str, list[str]] = {}
    for entity, names in sorted(names_of.items()):
        found = await store.lexical_search(
            episodes_only, sorted(names), policy.max_profile_mentions
        )
        searched[entity] = [c.item_id for c in found]
    wanted = sorted({i for ids in [*linked.values(), *searched.values()] for i in ids})
    by_id = {
        m.id: m
        for m in await store.get_items(tenant, wanted)
        if m.kind is ItemKind.EPISODE and m.status is ItemStatus.ACTIVE
    }
    for entity, ids in searched.items():  # found by a name its own words say
        named = names_said(names_of[entity])
        linked[entity].update(dict.fromkeys(i for i in ids if named(by_id.get(i))))
    mentions = {e: [by_id[i] for i in ids if i in by_id] for e, ids in linked.items()}
    entities = await store.get_entities(tenant, sorted(linked))
    return mentions, {e.id: e.name for e in entities}


def names_said(names: Iterable[str]) -> Callable[[MemoryItem | None], bool]:
    """Whether an episode's own text says one of ``names`` (each as its index terms, in
    order: "Anna Jones" needs both words)."""
    wanted = [tokens(n) for n in names]

    def said(item: MemoryItem | None) -> bool:
        if item is None:
            return False
        words = tokens(item.text)
        return any(
            w and any(words[i : i + len(w)] == w for i in range(len(words) - len(w) + 1))
            for w in wanted
        )

    return said
