"""The ``SessionStore`` role on every backend."""

from __future__ import annotations

from cognimem.models import Scope
from cognimem.models.admin import SessionStatus
from cognimem.store import Store
from tests.contract.builders import (
    ALICE,
    BOB,
    session,
)
from tests.contract.conftest import T0


async def test_sessions_are_stored_replaced_and_listed_newest_first(store: Store) -> None:
    first = session("s1", ALICE, metadata={"channel": "web"})
    second = session("s2", ALICE, minutes=5)
    bobs = session("s3", BOB, minutes=9)
    elsewhere = session("s1", ALICE.model_copy(update={"namespace": "work"}))
    for s in (first, second, bobs, elsewhere):
        await store.put_session(s)
    assert await store.get_session("t1", "default", "s1") == first
    assert await store.get_session("t1", "work", "s1") == elsewhere
    assert await store.get_session("t2", "default", "s1") is None
    assert await store.list_sessions(Scope(tenant_id="t1"), 10) == [bobs, second, first]
    assert await store.list_sessions(Scope(tenant_id="t1", user_id="alice"), 1) == [second]

    closed = first.model_copy(update={"status": SessionStatus.CLOSED, "closed_at": T0})
    await store.put_session(closed)
    assert await store.get_session("t1", "default", "s1") == closed
