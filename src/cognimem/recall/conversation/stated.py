"""Consolidated sources give way to the summaries that state them (pure).

A read with sections ranks one kind of summary among its memories: a theme
(``lifecycle/themes.py``), whose claims carry the item ids of the turns they state.
Once a summary is in the ranked list, a turn it states adds little the packet does not
already say: it gives way, moved below every item that does add something, keeping
its order among those that gave way. A summary gives way the same when fewer than
``MIN_NEW`` of the turns it states are not already in the list above it (one new turn
is a turn's worth, at the tokens of several); one stating fewer turns gives way only
when one of them is above it. Nothing is dropped: with room for every candidate
the same items are returned, only their order changes, so under a token budget what
gave way is what is cut first. A source that no summary in the list states keeps its
rank: being consolidated alone never costs a turn its place (every turn is
consolidated after a pass, and the turns are what answers cite).
"""

from __future__ import annotations

from collections.abc import Sequence

from cognimem.models import ItemKind, MemoryItem
from cognimem.models.items import CONSOLIDATION_META, THEME_GROUP
from cognimem.models.packets import claims_of
from cognimem.recall.rerank import Ranked

# a summary stating fewer new turns than this gives way (measured on the LoCoMo dev
# five with --consolidate: 1 gave frac@10 0.7960, 2 gave 0.7967, 3 gave 0.7954)
MIN_NEW = 2


def is_theme(item: MemoryItem) -> bool:
    """Whether ``item`` is a theme's summary (the one summary a read ranks)."""
    made = item.metadata.get(CONSOLIDATION_META)
    return (
        item.kind is ItemKind.SUMMARY
        and isinstance(made, dict)
        and made.get("group") == THEME_GROUP
    )


def stated_ids(r: Ranked) -> frozenset[str]:
    """The item ids a summary's claims state (none for any other item)."""
    if r.item.kind is not ItemKind.SUMMARY:
        return frozenset()
    return frozenset(i for c in claims_of(r.item) for i in c.item_ids)


def give_way(ordered: Sequence[Ranked], min_new: int = MIN_NEW) -> list[Ranked]:
    """``ordered`` with what a summary above already states moved below the rest: a
    turn stated by a summary taken before it, and a summary fewer than ``min_new`` of
    whose turns (or not all, when it states fewer) are new."""
    said: set[str] = set()
    kept: list[Ranked] = []
    yielded: list[Ranked] = []
    for r in ordered:
        states = stated_ids(r)
        if r.item.id in said or (states and len(states - said) < min(min_new, len(states))):
            yielded.append(r)
            continue
        kept.append(r)
        said.add(r.item.id)
        said |= states
    return kept + yielded
