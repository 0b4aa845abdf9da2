"""The in-process lexical index of each backend stays true to the database when another
store (another process, as far as the index can tell) writes, edits, forgets and erases:
a store that cached a scope finds exactly what a store loading it afresh finds, with the
same scores."""

from __future__ import annotations

import asyncio

from cognimem.models import ItemStatus, Scope
from cognimem.store import ItemFilter, Store
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.types import Candidate
from tests.contract.builders import WINDOW, text_edit
from tests.contract.conftest import T0, message, twin

ALICE = Scope(tenant_id="t1", user_id="alice")
BOB = Scope(tenant_id="t1", user_id="bob")
NAMESPACE = Scope(tenant_id="t1")
ACTIVE = ItemFilter(scope=ALICE)
EITHER = ItemFilter(scope=ALICE, statuses=(ItemStatus.ACTIVE, ItemStatus.SILENT))


def _ranked(found: list[Candidate]) -> list[tuple[str, float]]:
    return [(c.item_id, round(c.score, 9)) for c in found]


async def _assert_as_fresh(reader: Store, flt: ItemFilter, terms: list[str]) -> list[str]:
    """``reader``'s results equal those of a store that never cached the scope."""
    fresh = twin(reader)
    await fresh.open()
    try:
        theirs = _ranked(await fresh.lexical_search(flt, terms, 50))
    finally:
        await fresh.close()
    ours = _ranked(await reader.lexical_search(flt, terms, 50))
    assert ours == theirs, terms
    return [i for i, _ in ours]


async def test_a_cached_index_follows_another_stores_writes_edits_and_forgetting(
    store: Store, writer: Store
) -> None:
    first = [message(t, ALICE) for t in ("kayaks on the fjord", "a red kayak", "tea at dawn")]
    await writer.commit(first, WINDOW)
    await writer.commit([message("bob paddles a kayak", BOB)], WINDOW)
    await store.load_scope(ALICE)
    assert len(await _assert_as_fresh(store, ACTIVE, ["kayak"])) == 2

    # appended by the other store
    [late] = await writer.commit([message("kayak lessons on Sunday", ALICE)], WINDOW)
    assert late.item_ids[0] in await _assert_as_fresh(store, ACTIVE, ["kayak", "sunday"])

    # a status changed in place: out of the active search, in the one allowing silent
    silenced = first[0].items[0].item.id
    await writer.forget_items(ItemsForgetting("t1", [silenced], ItemStatus.SILENT, now=T0))
    assert silenced not in await _assert_as_fresh(store, ACTIVE, ["kayak", "fjord"])
    assert silenced in await _assert_as_fresh(store, EITHER, ["kayak", "fjord"])

    # a text edited in place: found by its new words only
    [item] = await writer.get_items("t1", [first[1].items[0].item.id])
    text = "a red canoe"
    edited = item.model_copy(update={"text": text})
    await writer.update_item(text_edit(item, edited))
    assert item.id not in await _assert_as_fresh(store, ACTIVE, ["kayak"])
    assert await _assert_as_fresh(store, ACTIVE, ["canoe"]) == [item.id]

    # a row deleted
    await writer.forget_items(ItemsForgetting("t1", [late.item_ids[0]], ItemStatus.DELETED, now=T0))
    assert late.item_ids[0] not in await _assert_as_fresh(store, EITHER, ["kayak", "sunday"])
    # the namespace-wide view (every user's rows) follows all of it too
    assert len(await _assert_as_fresh(store, ItemFilter(scope=NAMESPACE), ["kayak"])) == 1


async def test_an_erased_user_leaves_another_stores_index(store: Store, writer: Store) -> None:
    await writer.commit([message("alice sails a dinghy", ALICE)], WINDOW)
    await writer.commit([message("bob sails a dinghy too", BOB)], WINDOW)
    assert len(await store.lexical_search(ItemFilter(scope=NAMESPACE), ["dinghy"], 10)) == 2
    assert len(await store.lexical_search(ACTIVE, ["dinghy"], 10)) == 1
    await writer.erase_user("t1", "alice")
    assert await _assert_as_fresh(store, ACTIVE, ["dinghy", "sails"]) == []
    assert len(await _assert_as_fresh(store, ItemFilter(scope=NAMESPACE), ["dinghy"])) == 1


async def test_concurrent_writers_leave_no_row_out_of_a_cached_index(
    store: Store, writer: Store
) -> None:
    await writer.commit([message("marker row zero", ALICE)], WINDOW)
    await store.load_scope(ALICE)
    rounds, per = 6, 5
    done = asyncio.Event()
    seen: list[int] = []

    async def write(n: int) -> None:
        await writer.commit([message(f"marker row {n} {i}", ALICE) for i in range(per)], WINDOW)

    async def read() -> None:
        while not done.is_set():  # catch-ups interleaved with the commits
            seen.append(len(await store.lexical_search(ACTIVE, ["marker"], 100)))
            await asyncio.sleep(0)

    async def writes() -> None:
        await asyncio.gather(*(write(n) for n in range(1, rounds + 1)))
        done.set()

    await asyncio.gather(read(), writes())
    assert seen
    assert len(await _assert_as_fresh(store, ACTIVE, ["marker"])) == 1 + rounds * per


async def test_postgres_change_numbers_commit_in_order_within_a_namespace(
    postgres_dsn: str,
) -> None:
    """A second writer of the namespace waits for the first's commit before it takes its
    change number, so a reader never sees a later number before an earlier one; an
    update of columns no search reads takes no number."""
    import asyncpg

    from cognimem.store.postgres import PostgresStore

    store = PostgresStore(postgres_dsn, max_size=2)
    await store.open()
    try:
        a, b = message("first oar", ALICE), message("second oar", ALICE)
        await store.commit([a, b], WINDOW)
    finally:
        await store.close()
    ida, idb = a.items[0].item.id, b.items[0].item.id
    one, two = await asyncpg.connect(postgres_dsn), await asyncpg.connect(postgres_dsn)
    try:
        seq = "SELECT change_seq FROM items WHERE id = $1"
        before = await one.fetchval(seq, ida)
        await one.execute("UPDATE items SET importance = 0.9 WHERE id = $1", ida)
        assert await one.fetchval(seq, ida) == before  # not a searched column

        first = one.transaction()
        await first.start()
        await one.execute("UPDATE items SET status = 'silent' WHERE id = $1", ida)
        pid = two.get_server_pid()
        second = asyncio.ensure_future(
            two.execute("UPDATE items SET status = 'silent' WHERE id = $1", idb)
        )
        waiting = "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1"
        while await one.fetchval(waiting, pid) != "Lock":  # the second waits on the lock
            assert not second.done()
            await asyncio.sleep(0.01)
        await first.commit()
        await second
        assert before < await one.fetchval(seq, ida) < await one.fetchval(seq, idb)
    finally:
        await one.close()
        await two.close()
