"""A store's in-process copies of scopes within ``cache_max_bytes``: reading many scopes
keeps the bytes held under the cap, evicted scopes load again, and every read finds
what a store without a cap finds, on both backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cognimem.models import Scope
from cognimem.store import ItemFilter, Store
from cognimem.store.postgres import PostgresStore
from cognimem.store.sqlite import SQLiteStore
from tests.contract.conftest import T0, message, vec

USERS = [f"user{i}" for i in range(10)]
WORDS = ["garden", "bakery", "river", "tomato", "violin", "harbour", "pasta", "ledger"]
WINDOW = 300.0


def _scope(user: str) -> Scope:
    return Scope(tenant_id="t1", user_id=user)


def _open(backend: str, where: str, cap: int | None) -> Store:
    if backend == "sqlite":
        return SQLiteStore(where, cache_max_bytes=cap)
    return PostgresStore(where, max_size=4, cache_max_bytes=cap)


async def _read(store: Store, user: str) -> list[Any]:
    flt = ItemFilter(scope=_scope(user))
    lexical = await store.lexical_search(flt, [WORDS[len(user) % 8], "morning"], 5)
    vector = await store.vector_search(flt, vec(f"{user} walks by the river"), 5)
    return [
        [(c.item_id, round(c.score, 6)) for c in lexical],
        [(c.item_id, round(c.score, 5)) for c in vector],
    ]


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    if request.param == "sqlite":
        return "sqlite", str(tmp_path / "budget.db")
    return "postgres", request.getfixturevalue("postgres_dsn")


async def test_reading_many_scopes_stays_within_the_cap_and_finds_the_same(
    where: tuple[str, str],
) -> None:
    backend, place = where
    whole = _open(backend, place, None)
    await whole.open()
    try:
        for u, user in enumerate(USERS):
            lines = [
                f"{user} said the {WORDS[(u + i) % 8]} was lovely one morning, note {i}"
                for i in range(40)
            ]
            await whole.commit([message(t, _scope(user), at=T0) for t in lines], WINDOW)
        expected = {user: await _read(whole, user) for user in USERS}
        per_scope = whole.cache_budget.held_bytes / len(USERS)  # type: ignore[attr-defined]
    finally:
        await whole.close()
    assert per_scope > 0
    cap = int(3.5 * per_scope)  # room for three users' copies, not ten
    capped = _open(backend, place, cap)
    nothing = _open(backend, place, 1)  # smaller than any scope: nothing is kept
    await capped.open()
    await nothing.open()
    try:
        budget = capped.cache_budget  # type: ignore[attr-defined]
        held = []
        for order in (USERS, USERS[::-1], USERS[::3] + USERS):
            for user in order:
                assert await _read(capped, user) == expected[user], user
                assert budget.held_bytes <= cap
                held.append(budget.held_bytes)
                assert await _read(nothing, user) == expected[user], user
        assert max(held) > per_scope  # it did keep scopes, more than one at times
        assert budget.evictions > 0
        assert nothing.cache_budget.held_bytes == 0  # type: ignore[attr-defined]
    finally:
        await capped.close()
        await nothing.close()
