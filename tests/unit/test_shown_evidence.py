"""Which evidence items a packet's section entries already show (not rendered twice)."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.models import MemoryItem, Scope
from cognimem.models.packets import FactEntry
from cognimem.recall.packing import shown_evidence

T0 = datetime(2025, 3, 1, 9, tzinfo=UTC)


def item(item_id: str, text: str) -> MemoryItem:
    return MemoryItem(
        id=item_id, scope=Scope(user_id="ada"), text=text, occurred_at=T0, recorded_at=T0
    )


def entry(text: str, *item_ids: str) -> FactEntry:
    return FactEntry(
        id="fct_1",
        key="user:preference:drink:green_tea",
        text=text,
        category="preference",
        value="green tea",
        confidence=0.9,
        score=1.0,
        recorded_at=T0,
        item_ids=list(item_ids),
    )


def test_an_entry_shows_the_items_that_hold_its_sentence_and_no_other() -> None:
    by_id = {
        "m1": item("m1", "I drink green tea in the morning"),
        "m2": item("m2", "I drink green tea in the evening"),
        "m3": item("m3", "Hi!  I drink green TEA in the morning. Off to work now."),
    }
    shown = shown_evidence([entry("I drink green tea in the morning", "m1", "m2", "m3")], by_id)

    # the renewal in other words keeps its own line: what it says is not in the entry
    assert shown == {"m1", "m3"}


def test_an_item_not_loaded_counts_as_shown() -> None:
    assert shown_evidence([entry("I drink green tea", "gone")], {}) == {"gone"}
