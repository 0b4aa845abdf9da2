"""Consolidated sources give way only to a summary in the list that states them
(recall/conversation/stated.py): nothing is dropped, only the order changes."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.models import ItemKind, MemoryItem, Scope
from cognimem.models.items import CONSOLIDATION_META
from cognimem.recall.conversation.stated import give_way, is_theme
from cognimem.recall.rerank import Ranked

T0 = datetime(2023, 5, 8, tzinfo=UTC)


def ranked(
    item_id: str, score: float, states: tuple[str, ...] = (), group: str = "theme"
) -> Ranked:
    meta = {}
    if states:
        claims = [{"text": f"said {i}", "item_ids": [i]} for i in states]
        meta = {CONSOLIDATION_META: {"group": group, "claims": claims}}
    item = MemoryItem(
        id=item_id,
        scope=Scope(user_id="u"),
        text=item_id,
        kind=ItemKind.SUMMARY if states else ItemKind.EPISODE,
        consolidated=not states,
        occurred_at=T0,
        recorded_at=T0,
        metadata=meta,
    )
    return Ranked(item, score, {}, {}, (), frozenset())


def ids(rows: list[Ranked]) -> list[str]:
    return [r.item.id for r in rows]


def test_a_turn_a_summary_above_states_gives_way_to_the_unstated() -> None:
    rows = [
        ranked("t1", 0.9),
        ranked("s", 0.8, states=("t1", "t2", "t3")),
        ranked("t2", 0.7),
        ranked("t4", 0.6),
        ranked("t3", 0.5),
        ranked("t5", 0.4),
    ]
    # t1 is above the summary and keeps its place; t2 and t3 give way, in their order
    assert ids(give_way(rows)) == ["t1", "s", "t4", "t5", "t2", "t3"]


def test_consolidated_turns_no_summary_in_the_list_states_keep_their_rank() -> None:
    rows = [ranked("t1", 0.9), ranked("t2", 0.8), ranked("t3", 0.7)]
    assert ids(give_way(rows)) == ["t1", "t2", "t3"]


def test_a_summary_stating_too_little_that_is_new_gives_way() -> None:
    rows = [
        ranked("t1", 0.9),
        ranked("t2", 0.85),
        ranked("s", 0.8, states=("t1", "t2", "t3")),  # one new turn: gives way
        ranked("t4", 0.6),
    ]
    assert ids(give_way(rows)) == ["t1", "t2", "t4", "s"]
    # with two new turns it keeps its rank
    rows[1] = ranked("t9", 0.85)
    assert ids(give_way(rows)) == ["t1", "t9", "s", "t4"]
    # a summary stating a single turn gives way only when that turn is above it
    one = [ranked("s1", 0.9, states=("t1",)), ranked("t4", 0.8), ranked("t1", 0.7)]
    assert ids(give_way(one)) == ["s1", "t4", "t1"]
    assert ids(give_way([one[2], one[0], one[1]])) == ["t1", "t4", "s1"]


def test_only_a_themes_summary_is_a_theme() -> None:
    assert is_theme(ranked("s", 0.5, states=("t1",)).item)
    assert not is_theme(ranked("w", 0.5, states=("t1",), group="window").item)
    assert not is_theme(ranked("t1", 0.5).item)
