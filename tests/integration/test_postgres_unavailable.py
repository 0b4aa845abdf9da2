"""A PostgreSQL server that goes away: StoreUnavailable, nothing half-written, recovery.

Each test runs its own throw-away cluster, so stopping it disturbs nobody else.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cognimem.errors import StoreUnavailable
from cognimem.models import Scope, WriteOutcome
from cognimem.store import ItemFilter
from cognimem.store.postgres import PostgresStore
from tests import servers
from tests.conftest import require_postgres
from tests.contract.conftest import message, vec

ALICE = Scope(tenant_id="t1", user_id="alice", session_id="s1")
WINDOW = 300.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[servers.PostgresServer]:
    require_postgres()
    pg = servers.start_postgres(tmp_path)
    try:
        yield pg
    finally:
        pg.destroy()


async def test_commit_while_the_server_is_down_then_recovers(
    server: servers.PostgresServer,
) -> None:
    store = PostgresStore(server.dsn, min_size=2, max_size=4, connect_timeout=5)
    await store.open()
    try:
        await store.commit([message("before the outage", ALICE)], WINDOW)
        server.stop()

        pending = message("during the outage", ALICE, chunks=["during", "the outage"])
        with pytest.raises(StoreUnavailable) as caught:
            await store.commit([pending], WINDOW)
        assert caught.value.retry_after > 0
        assert caught.value.status_code == 503
        with pytest.raises(StoreUnavailable):
            await store.count_items(ItemFilter(scope=ALICE))
        with pytest.raises(StoreUnavailable):
            await store.vector_search(ItemFilter(scope=ALICE), vec("outage"), 5)

        server.start()
        # the same store (same pool) works again; the failed commit left nothing behind
        assert await store.count_items(ItemFilter(scope=ALICE)) == 1
        assert await store.get_events("t1", [pending.event.id]) == []
        [result] = await store.commit([pending], WINDOW)
        assert result.outcome is WriteOutcome.STORED
        assert len(result.item_ids) == 2
        assert await store.count_items(ItemFilter(scope=ALICE)) == 3
        assert len(await store.lexical_search(ItemFilter(scope=ALICE), ["outage"], 5)) == 2
    finally:
        await store.close()


async def test_a_server_killed_mid_session_is_unavailable_not_an_error(
    server: servers.PostgresServer,
) -> None:
    store = PostgresStore(server.dsn, max_size=2, connect_timeout=5)
    await store.open()
    try:
        await store.commit([message("warm the pool", ALICE)], WINDOW)
        server.stop(mode="immediate")  # no goodbye to the clients
        with pytest.raises(StoreUnavailable):
            await store.commit([message("lost", ALICE)], WINDOW)
        server.start()
        [result] = await store.commit([message("lost", ALICE)], WINDOW)
        assert result.outcome is WriteOutcome.STORED
    finally:
        await store.close()


async def test_open_against_no_server_is_unavailable_and_hides_the_password() -> None:
    pytest.importorskip("asyncpg", reason="asyncpg not installed (the `postgres` extra)")
    port = servers.free_port()  # nothing listens there
    store = PostgresStore(f"postgresql://u:hunter2@127.0.0.1:{port}/db", connect_timeout=5)
    with pytest.raises(StoreUnavailable) as caught:
        await store.open()
    assert "hunter2" not in str(caught.value)
    assert f"127.0.0.1:{port}/db" in str(caught.value)
    await store.close()
