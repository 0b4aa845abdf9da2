"""An item's event period (what it tells of, ``MemoryItem.event_start``/``event_end``)
is stored, edited and searched alike on every backend: ``ItemFilter.period`` admits the
items that occurred in a period or tell of it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem.models import Scope
from cognimem.models.ids import new_id
from cognimem.models.knowledge import HistoryEntry
from cognimem.store import ItemFilter, PendingMessage, Store
from cognimem.store.arguments import ItemEdit
from tests.contract.conftest import message, vec

ALICE = Scope(tenant_id="t1", user_id="alice")
WINDOW = 300.0
MAY_3 = (datetime(2023, 5, 3, tzinfo=UTC), datetime(2023, 5, 4, tzinfo=UTC))
MAY_4 = datetime(2023, 5, 4, 10, 0, tzinfo=UTC)


def said(
    text: str, at: datetime, period: tuple[datetime, datetime] | None = None
) -> PendingMessage:
    pending = message(text, ALICE, at=at)
    if period is not None:
        p = pending.items[0]
        p.item = p.item.model_copy(update={"event_start": period[0], "event_end": period[1]})
    return pending


async def texts(store: Store, flt: ItemFilter, word: str) -> tuple[set[str], set[str]]:
    lexical = await store.lexical_search(flt, [word], 10)
    vector = await store.vector_search(flt, vec(word), 10)
    by_lexical = await store.get_items("t1", [c.item_id for c in lexical])
    by_vector = await store.get_items("t1", [c.item_id for c in vector])
    return {i.text for i in by_lexical}, {i.text for i in by_vector}


async def test_event_period_round_trips(store: Store) -> None:
    dated = said("made dinner last night", MAY_4, MAY_3)
    plain = said("dinner is my favourite meal", MAY_4)
    await store.commit([dated, plain], WINDOW)
    [stored] = await store.get_items("t1", [dated.items[0].item.id])
    assert (stored.event_start, stored.event_end) == MAY_3
    [undated] = await store.get_items("t1", [plain.items[0].item.id])
    assert (undated.event_start, undated.event_end) == (None, None)


async def test_period_admits_items_that_occurred_in_it_or_tell_of_it(store: Store) -> None:
    await store.commit(
        [
            said("dinner with mom last night", MAY_4, MAY_3),  # tells of 3 May
            said("dinner at the harbour", MAY_3[0] + timedelta(hours=19)),  # occurred on it
            said("dinner plans for next week", MAY_4),  # neither
            said(
                "dinner party last month",
                MAY_4,
                (datetime(2023, 4, 1, tzinfo=UTC), datetime(2023, 5, 1, tzinfo=UTC)),
            ),  # tells of April
        ],
        WINDOW,
    )
    flt = ItemFilter(scope=ALICE, period=MAY_3)
    lexical, vector = await texts(store, flt, "dinner")
    assert lexical == vector == {"dinner with mom last night", "dinner at the harbour"}
    assert await store.count_items(flt) == 2
    assert len(await store.list_item_ids(flt, 10)) == 2
    # since/until still read occurred_at alone
    by_occurrence = ItemFilter(scope=ALICE, since=MAY_3[0], until=MAY_3[1])
    assert await texts(store, by_occurrence, "dinner") == (
        {"dinner at the harbour"},
        {"dinner at the harbour"},
    )


async def test_editing_an_item_replaces_its_event_period(store: Store) -> None:
    pending = said("dinner with mom last night", MAY_4, MAY_3)
    await store.commit([pending], WINDOW)
    [item] = await store.get_items("t1", [pending.items[0].item.id])
    text = "dinner with mom, some time ago"
    edited = item.model_copy(update={"text": text, "event_start": None, "event_end": None})
    entry = HistoryEntry(
        id=new_id("hst"),
        tenant_id="t1",
        target_type="item",
        target_id=item.id,
        action="updated",
        at=MAY_4,
    )
    await store.update_item(
        ItemEdit(edited, expected=item, history=entry, embedding=vec(text), search_text=text)
    )
    [stored] = await store.get_items("t1", [item.id])
    assert (stored.event_start, stored.event_end) == (None, None)
    assert await texts(store, ItemFilter(scope=ALICE, period=MAY_3), "dinner") == (set(), set())
