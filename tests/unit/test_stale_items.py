"""Which reads see an item marked no longer true as stale (``recall/fact_time.py``
``stale_since``): pure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem.models import MemoryItem, Scope
from cognimem.models.fact_changes import NO_LONGER_TRUE, StaleItem
from cognimem.recall.fact_time import FactTime, instant, stale_since

T0 = datetime(2024, 1, 1, tzinfo=UTC)
ENDED = T0 + timedelta(days=30)
MARKED = T0 + timedelta(days=31)


def item(reason: str | None) -> MemoryItem:
    meta = {}
    if reason is not None:
        mark = StaleItem("default", "mem_1", "fct_new", "fct_old", ENDED, reason, MARKED)
        meta = {NO_LONGER_TRUE: mark.meta()}
    return MemoryItem(
        id="mem_1", scope=Scope(user_id="u"), text="I live in Paris.",
        occurred_at=T0, recorded_at=T0, metadata=meta,
    )  # fmt: skip


def test_an_unmarked_item_is_never_stale() -> None:
    assert stale_since(item(None), None) is None


def test_a_read_of_the_present_sees_either_mark() -> None:
    assert stale_since(item("superseded"), None) == ENDED
    assert stale_since(item("invalidated"), None) == ENDED


def test_a_superseded_value_holds_for_a_read_of_its_period() -> None:
    during = FactTime(instant(T0 + timedelta(days=10)), None, "as_of")
    after = FactTime(instant(ENDED + timedelta(days=1)), None, "as_of")
    spanning = FactTime((T0, ENDED + timedelta(days=5)), None, "question")
    assert stale_since(item("superseded"), during) is None
    assert stale_since(item("superseded"), spanning) is None
    assert stale_since(item("superseded"), after) == ENDED


def test_an_invalidated_value_never_held() -> None:
    during = FactTime(instant(T0 + timedelta(days=10)), None, "as_of")
    assert stale_since(item("invalidated"), during) == ENDED


def test_the_memory_as_it_was_before_the_mark_did_not_know() -> None:
    assert stale_since(item("invalidated"), FactTime(None, MARKED - timedelta(days=1))) is None
    assert stale_since(item("invalidated"), FactTime(None, MARKED)) == ENDED
