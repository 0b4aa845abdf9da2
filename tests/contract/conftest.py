"""The store contract suite runs against every backend: SQLite always, PostgreSQL when a
server can run here (one throw-away cluster per session from ``tests/servers.py``; each
test starts from a freshly migrated, empty database)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from cognimem.models import Event, ItemKind, MemoryItem, Role, Scope
from cognimem.models.ids import content_hash, new_id
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store import PendingItem, PendingMessage, Store
from cognimem.store.sqlite import SQLiteStore

if TYPE_CHECKING:
    from cognimem.store.postgres import PostgresStore

T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
EMBEDDER = HashingEmbedder(dim=64)


def vec(text: str) -> np.ndarray:
    return EMBEDDER.embed_sync([text])[0]


def message(
    text: str,
    scope: Scope,
    *,
    at: datetime = T0,
    key: str | None = None,
    kind: ItemKind = ItemKind.EPISODE,
    name: str | None = None,
    chunks: list[str] | None = None,
) -> PendingMessage:
    event = Event(
        id=new_id("evt"),
        scope=scope,
        role=Role.USER,
        name=name,
        content=text,
        content_hash=content_hash(text),
        idempotency_key=key,
        external_id=None,
        occurred_at=at,
        recorded_at=at,
    )
    items = [
        PendingItem(
            item=MemoryItem(
                id=new_id("mem"),
                scope=scope,
                text=chunk,
                kind=kind,
                source_event_ids=[event.id],
                occurred_at=at,
                recorded_at=at,
                token_count=len(chunk.split()),
                embedding_model=EMBEDDER.model_id,
            ),
            embedding=vec(chunk),
            embed_text=chunk,
            search_text=chunk,
        )
        for chunk in (chunks or [text])
    ]
    return PendingMessage(event=event, items=items)


def _sqlite(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return SQLiteStore(tmp_path / "contract.db")


def _postgres(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    from cognimem.store.postgres import PostgresStore

    return PostgresStore(request.getfixturevalue("postgres_dsn"), max_size=4)


BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Store]] = {
    "postgres": _postgres,
    "sqlite": _sqlite,
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """An unopened store of each backend (sync, so it may pull in sync fixtures)."""
    return BACKENDS[request.param](request, tmp_path)


@pytest.fixture
async def store(backend: Store) -> AsyncIterator[Store]:
    await backend.open()
    try:
        yield backend
    finally:
        await backend.close()


def twin(store: Store) -> Store:
    """Another store on the same database (another process, as far as caches can tell)."""
    if isinstance(store, SQLiteStore):
        return SQLiteStore(store.path)
    from cognimem.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    return PostgresStore(store.dsn, max_size=4)


@pytest.fixture
async def writer(store: Store) -> AsyncIterator[Store]:
    """A second, open store on ``store``'s database."""
    other = twin(store)
    await other.open()
    try:
        yield other
    finally:
        await other.close()


@pytest.fixture
async def pg(postgres_dsn: str) -> AsyncIterator[PostgresStore]:
    """An open PostgresStore on this test's freshly migrated database (for the files
    that test what only PostgreSQL does)."""
    from cognimem.store.postgres import PostgresStore

    s = PostgresStore(postgres_dsn, max_size=4)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def later() -> Callable[[int], datetime]:
    return lambda minutes: T0 + timedelta(minutes=minutes)
