"""Erasure that holds against the disk and against a worker: the erased text leaves no
bytes in SQLite's files, and a job racing the erasure stores nothing and caches nothing."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from cognimem import Memory, Settings
from cognimem.models import Scope
from cognimem.providers.embeddings import CachedEmbedder, EmbedKind, FloatMatrix, text_hash
from cognimem.providers.fakes import HashingEmbedder
from cognimem.queue import JobQueue, SqliteJobQueue
from cognimem.store import ItemFilter, open_store
from cognimem.store.arguments import Attachment
from cognimem.store.sqlite import SQLiteStore
from tests import servers
from tests.erasure import leftovers

ASYNC = Settings.model_validate({"ingest": {"mode": "async"}})
# bounds a wait for a condition on a busy machine; never a pause
WAIT_S = 120

SECRET = "Xylophonequartz"  # one distinctive word, found in any case and any table


def database_bytes(path: Path) -> bytes:
    """The main file, the WAL and the shared-memory index, as they are on disk."""
    found = b""
    for suffix in ("", "-wal", "-shm"):
        part = path.with_name(path.name + suffix)
        if part.exists():
            found += part.read_bytes()
    return found


def holds(data: bytes, word: str) -> bool:
    """Whether ``word`` is in ``data`` in any case (the FTS index keeps it lower-cased)."""
    return word.lower().encode() in data.lower()


async def test_sqlite_erasure_leaves_no_bytes_of_the_text_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    settings = Settings()
    async with Memory.open(
        f"sqlite:///{path}", settings=settings, embedder=HashingEmbedder()
    ) as mem:
        for i in range(30):
            await mem.write(f"my locker {i} holds the {SECRET} crystal", user_id="zed")
        await mem.write("my bike is green", user_id="bob")
        assert isinstance(mem.store, SQLiteStore)
        assert holds(database_bytes(path), SECRET)

        report = await mem.erase_user("zed")
        assert report.removed["events"] == 30
        assert not holds(database_bytes(path), SECRET)
        # the other user's text is still there, and still found
        assert holds(database_bytes(path), "my bike is green")
        packet = await mem.read("bike", user_id="bob")
        assert [i.text for i in packet.items] == ["my bike is green"]


class PausingEmbedder(HashingEmbedder):
    """Embeds like the hashing fake, records what it embeds, and once ``armed`` stops in
    the middle of its next document batch until ``release`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.texts: list[str] = []

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if kind == "document":
            self.texts += texts
            if self.armed:
                self.armed = False
                self.entered.set()
                await self.release.wait()
        return await super().embed(texts, kind)


@pytest.fixture(params=["sqlite", "postgres+redis"])
async def racing(
    request: pytest.FixtureRequest, db_url: str
) -> AsyncIterator[tuple[Memory, PausingEmbedder]]:
    """Async ingestion on each backend, behind an embedder the test can pause (the
    embedding cache is the store's table, as ``Memory.open`` sets it up)."""
    store = open_store(db_url)
    queue: JobQueue
    if request.param == "sqlite":
        queue = SqliteJobQueue(getattr(store, "path"))  # noqa: B009
    else:
        from cognimem.queue.redis import RedisJobQueue

        store = open_store(str(request.getfixturevalue("postgres_dsn")))
        redis: servers.RedisServer = request.getfixturevalue("redis_server")
        name = f"race{uuid.uuid4().hex[:8]}"
        queue = RedisJobQueue(
            redis.url, stream=f"{name}:jobs", dead_letter_stream=f"{name}:dead",
            key_prefix=f"{name}:job:",
        )  # fmt: skip
    inner = PausingEmbedder()
    async with Memory(store, CachedEmbedder(inner, store), ASYNC, queue=queue) as mem:
        yield mem, inner


async def cached(mem: Memory, texts: Sequence[str]) -> dict[str, Any]:
    return await mem.store.get_embeddings(mem.embedder.model_id, [text_hash(t) for t in texts])


@pytest.mark.parametrize("pause", ["while embedding", "after caching, before committing"])
async def test_an_erasure_racing_a_worker_leaves_no_items_and_no_cached_embeddings(
    racing: tuple[Memory, PausingEmbedder], pause: str
) -> None:
    mem, embedder = racing
    await mem.write("my bike is green", user_id="bob", name="Bob")
    assert await mem.process_next_job("w") is not None
    said = [f"the {SECRET} crystal number {i} is in locker {i}" for i in range(5)]
    queued = await mem.write_batch(
        [{"content": text, "name": "Zed"} for text in said], user_id="zed"
    )
    assert queued.job_id is not None

    reached = asyncio.Event()
    go_on = asyncio.Event()
    if pause == "while embedding":
        embedder.armed = True
        reached, go_on = embedder.entered, embedder.release
    else:
        add_items = mem.store.add_items

        async def add_items_after_a_pause(*args: Any, **kwargs: Any) -> list[str]:
            reached.set()
            await go_on.wait()
            return await add_items(*args, **kwargs)

        mem.store.add_items = add_items_after_a_pause  # type: ignore[method-assign]
    before = list(embedder.texts)
    job = asyncio.create_task(mem.process_next_job("w"))
    await asyncio.wait_for(reached.wait(), WAIT_S)
    if pause != "while embedding":
        # the race the erasure must win: the job's vectors are cached, its items not stored
        embedded = [t for t in embedder.texts if t not in before]
        assert len(await cached(mem, embedded)) == len(embedded) > 0

    report = await mem.erase_user("zed")
    assert report.removed["events"] == 5
    go_on.set()
    assert await asyncio.wait_for(job, WAIT_S) is not None

    embedded = [t for t in embedder.texts if t not in before]
    assert embedded  # what the job embedded: the texts "Zed: ..." as items
    assert await cached(mem, embedded) == {}
    assert await mem.store.count_items(ItemFilter(scope=Scope(user_id="zed"))) == 0
    needles = ["zed", "Zed", SECRET, *(text_hash(t) for t in embedded)]
    assert await leftovers(mem.store, "zed", needles) == {}
    # the other user keeps everything, and the queue is empty
    assert await mem.store.count_items(ItemFilter(scope=Scope(user_id="bob"))) == 1
    assert await cached(mem, ["Bob: my bike is green"])
    assert await mem.process_next_job("w") is None


async def test_on_postgres_an_erasure_waits_for_a_job_committing_and_removes_its_items(
    postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tightest race: a worker inside the transaction that attaches items to the
    user's events when the erasure starts. The erasure waits for it, then sees (and
    deletes) its items; without that wait the items outlive their erased events."""
    import asyncpg

    from cognimem.store.postgres import PostgresStore, item_writes
    from cognimem.store.types import PendingMessage
    from tests.contract.conftest import message

    store = PostgresStore(postgres_dsn, max_size=4)
    await store.open()
    watcher = await asyncpg.connect(postgres_dsn)
    try:
        # another user's item first: its commit builds the vector index, which the
        # worker's commit would otherwise build (and lock the table while doing so)
        await store.commit([message("my bike is green", Scope(tenant_id="t1", user_id="bob"))], 0)
        zed = Scope(tenant_id="t1", user_id="zed")
        said = message(f"the {SECRET} crystal is in locker 9", zed)
        await store.commit([PendingMessage(event=said.event, processed=False)], 0)

        inside = asyncio.Event()
        go_on = asyncio.Event()
        insert_items = item_writes.insert_items

        async def insert_after_a_pause(*args: Any) -> None:
            inside.set()  # the worker holds its events FOR SHARE, in its transaction
            await go_on.wait()
            await insert_items(*args)

        monkeypatch.setattr(item_writes, "insert_items", insert_after_a_pause)
        worker = asyncio.create_task(store.add_items(Attachment(said.items)))
        await asyncio.wait_for(inside.wait(), WAIT_S)
        erasure = asyncio.create_task(store.erase_user("t1", "zed"))
        deadline = asyncio.get_running_loop().time() + WAIT_S
        while not erasure.done() and not await watcher.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ):
            assert asyncio.get_running_loop().time() < deadline, "the erasure never started"
            await asyncio.sleep(0.01)  # polls a condition; the order does not rest on it
        go_on.set()
        assert await asyncio.wait_for(worker, WAIT_S) == [said.items[0].item.id]
        report = await asyncio.wait_for(erasure, WAIT_S)
        assert report.removed["items"] == 1
        assert await store.count_items(ItemFilter(scope=zed)) == 0
        assert await leftovers(store, "zed", [SECRET]) == {}
    finally:
        await watcher.close()
        await store.close()
