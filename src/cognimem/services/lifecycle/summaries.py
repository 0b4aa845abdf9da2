"""The summary items a consolidation pass writes (``services.consolidation`` decides
which groups changed): each group's item, the earlier summaries it replaces and the
history of both."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from cognimem.lifecycle import consolidate as rules
from cognimem.lifecycle.consolidate import Gist, Group
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Scope
from cognimem.models.ids import new_id
from cognimem.models.items import CONSOLIDATION_META
from cognimem.models.knowledge import HistoryEntry
from cognimem.models.lifecycle import ConsolidationResult
from cognimem.providers.tokens import count_tokens
from cognimem.store.protocols import Store
from cognimem.store.reach import level_filter
from cognimem.store.types import ConsolidationWrite, PendingItem

ACTOR = "consolidation"

# a group whose summary changes: its gist and the summary it replaces, if any
Pending = tuple[Group, Gist, MemoryItem | None]

# the groups whose summary belongs to the session of its first episode (a profile and a
# theme gather several sessions)
_SESSIONED = (rules.GroupKind.WINDOW, rules.GroupKind.TOPIC)


def _merged(
    group: Group, existing: dict[str, MemoryItem], kept: MemoryItem | None, keys: set[str]
) -> list[MemoryItem]:
    """Earlier summaries of ``group``'s kind (a window or a theme), other than ``kept``
    and none a group of this pass (``keys``) writes again, covering members of
    ``group``."""
    if group.kind not in (rules.GroupKind.WINDOW, rules.GroupKind.THEME):
        return []
    members = set(group.member_ids)
    return [
        s
        for key, s in existing.items()
        if s is not kept
        and key not in keys
        and s.metadata[CONSOLIDATION_META].get("group") == group.kind.value
        and members & set(s.metadata[CONSOLIDATION_META].get("covers", []))
    ]


def stage_summaries(
    write: ConsolidationWrite,
    result: ConsolidationResult,
    scope: Scope,
    pending: Sequence[Pending],
    *,
    groups: Sequence[Group],
    existing: dict[str, MemoryItem],
    vectors: dict[str, np.ndarray],
    now: datetime,
    model: str,
) -> None:
    """Each changed group's summary item into ``write``, with what it replaces and its
    history. ``groups``: every group of the pass; ``existing``: the earlier summaries
    by key; ``vectors``: unit vectors by item id."""
    keys = {g.key for g in groups}
    for group, gist, old in pending:
        item = _summary_item(scope, group, gist, now, model)
        claimed = [i for c in gist.claims for i in c.item_ids]
        vector = None if result.dry_run else rules.stated_vector(claimed, vectors)
        write.summaries.append(PendingItem(item, vector, gist.text(), gist.text()))
        result.summary_ids.append(item.id)
        result.profiles += group.kind is rules.GroupKind.PROFILE
        if old is None:
            result.written += 1
        else:
            result.replaced += 1
            write.replaced[old.id] = item.id
        write.history += _history(item, old, now)
        # new episodes that bridge two earlier windows merge them: the other one
        # is replaced by this summary too; a theme whose runs shifted (a turn of
        # it forgotten) replaces the earlier runs it now covers
        for other in _merged(group, existing, old, keys):
            if other.id not in write.replaced:
                write.replaced[other.id] = item.id
                write.history += _history(item, other, now)[1:]


def same_summary(old: MemoryItem, gist: Gist) -> bool:
    """Whether ``gist`` says what the stored summary ``old`` says, from the same events."""
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
    profile = group.kind is rules.GroupKind.PROFILE
    if profile and group.entity_id:
        entities = [group.entity_id]
    session_id = group.members[0].scope.session_id if group.kind in _SESSIONED else None
    return MemoryItem(
        id=new_id("mem"),
        scope=scope.model_copy(update={"session_id": session_id}),
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
        metadata={CONSOLIDATION_META: meta},
    )


def _history(item: MemoryItem, old: MemoryItem | None, now: datetime) -> list[HistoryEntry]:
    """The new summary's entry and, when it replaces one, the old summary's."""
    entries = [
        HistoryEntry.new(
            **HistoryEntry.target(item),
            id_prefix="hist",
            action="consolidated" if old is None else "replaced",
            actor=ACTOR,
            at=now,
            before=None if old is None else {"id": old.id, "text": old.text},
            after={"text": item.text, "key": item.key},
        )
    ]
    if old is not None:
        entries.append(
            HistoryEntry.new(
                **HistoryEntry.target(old),
                id_prefix="hist",
                action="superseded",
                actor=ACTOR,
                at=now,
                before={"status": old.status.value},
                after={"status": ItemStatus.ARCHIVED.value, "superseded_by": item.id},
            )
        )
    return entries


# at most this many summaries of a scope are read
MAX_SUMMARIES = 20_000


async def consolidation_summaries(store: Store, scope: Scope) -> dict[str, MemoryItem]:
    """The scope's consolidation summaries (profiles and themes) by their group's key."""
    ids = await store.list_item_ids(level_filter(scope, kinds=(ItemKind.SUMMARY,)), MAX_SUMMARIES)
    return {
        s.key: s
        for s in await store.get_items(scope.tenant_id, ids)
        if s.key and isinstance(s.metadata.get(CONSOLIDATION_META), dict)
    }
