"""A batch that holds the same message twice (same content, same time) is written as the
same messages written one by one: the repeat is a duplicate of the first copy (its
result names the first copy's event and items), nothing it says is counted twice, and
the batch is neither refused nor retried away, adjacent or not, when a later message of
the batch supersedes what the repeat said, and in async mode."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cognimem import Memory, Message, Settings, WriteOutcome
from cognimem.errors import Conflict
from cognimem.models.knowledge import FactStatus
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store import Store
from cognimem.store.sqlite import SQLiteStore
from tests import servers
from tests.e2e.test_bulk_write import stored

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
VEGETARIAN = "I'm vegetarian."
PARTNER = "I live in Lisbon with my partner Tom."
NURSE = "I work as a nurse at the city hospital."
NO_LONGER = "I'm not vegetarian anymore, I eat meat now."


def said(*texts: str, at: list[int] | None = None) -> list[Message]:
    """The messages, each at its hour after ``T0`` (``at``), else all at ``T0``."""
    hours = at or [0] * len(texts)
    return [
        Message(role="user", name="Sam", content=t, occurred_at=T0 + timedelta(hours=h))
        for t, h in zip(texts, hours, strict=True)
    ]


async def one_by_one(mem: Memory, messages: list[Message], user: str) -> list[tuple[str, str]]:
    """Each message written alone, in order; each result's outcome and what it names."""
    results = [(await mem.write(m, user_id=user)).messages[0] for m in messages]
    return [(r.outcome.value, r.event_id) for r in results]


def shape(outcomes: list[tuple[str, str]]) -> list[tuple[str, int]]:
    """Outcomes with each event id replaced by the index of its first result."""
    first: dict[str, int] = {}
    return [(o, first.setdefault(e, i)) for i, (o, e) in enumerate(outcomes)]


CASES = {
    "adjacent": said(VEGETARIAN, VEGETARIAN),
    "apart": said(VEGETARIAN, PARTNER, VEGETARIAN, NURSE),
    "superseded later": said(VEGETARIAN, VEGETARIAN, NO_LONGER, at=[0, 0, 1]),
    "superseded between": said(VEGETARIAN, NO_LONGER, VEGETARIAN, at=[0, 1, 0]),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_repeat_in_a_batch_is_a_duplicate_as_in_single_writes(
    memory: Memory, case: str
) -> None:
    messages = CASES[case]
    result = await memory.write_batch(messages, user_id="batched")
    single = await one_by_one(memory, messages, "single")
    batched = [(r.outcome.value, r.event_id) for r in result.messages]
    assert shape(batched) == shape(single)
    assert WriteOutcome.DUPLICATE.value in {o for o, _ in batched}
    # the repeat names the first copy's event and items
    by_event = {r.event_id: r.item_ids for r in result.messages if r.outcome.value == "stored"}
    for r in result.messages:
        assert r.item_ids == by_event[r.event_id]
    held, alone = await stored(memory, "batched"), await stored(memory, "single")
    assert held["facts"], "the messages state facts"
    assert held == alone


async def test_a_repeat_superseded_later_in_the_batch_stays_superseded(memory: Memory) -> None:
    await memory.write_batch(CASES["superseded later"], user_id="sam")
    facts = await memory.facts(user_id="sam", include_history=True)
    diet = sorted((f.value, f.polarity, f.status) for f in facts if f.key == "user:value:diet")
    assert diet == [
        ("eats meat", True, FactStatus.ACTIVE),
        ("vegetarian", False, FactStatus.ACTIVE),
        ("vegetarian", True, FactStatus.SUPERSEDED),
    ]
    [positive] = [f for f in facts if f.value == "vegetarian" and f.polarity]
    assert positive.reinforcement_count == 1  # said once, however often it was sent


async def test_a_repeated_idempotency_key_in_a_batch(memory: Memory) -> None:
    same = [m.model_copy(update={"idempotency_key": "k"}) for m in said(VEGETARIAN, VEGETARIAN)]
    result = await memory.write_batch(same, user_id="sam")
    assert [r.outcome for r in result.messages] == [WriteOutcome.STORED, WriteOutcome.DUPLICATE]
    assert len(set(result.event_ids)) == 1
    # the key reused for other content refuses the whole batch, as before
    other = said(NURSE, PARTNER)
    keyed = [m.model_copy(update={"idempotency_key": "k2"}) for m in other]
    with pytest.raises(Conflict):
        await memory.write_batch([said(NO_LONGER)[0], *keyed], user_id="ana")
    assert await memory.list_items(user_id="ana") == []
    assert await memory.facts(user_id="ana", include_history=True) == []


def _queued_memory(store: Store, url: str, on_unavailable: str = "fail") -> Memory:
    from cognimem.queue.redis import RedisJobQueue

    name = f"rep{uuid.uuid4().hex[:10]}"
    queue = RedisJobQueue(
        url, stream=f"{name}:jobs", dead_letter_stream=f"{name}:dead", key_prefix=f"{name}:job:"
    )
    settings = Settings.model_validate(
        {"ingest": {"mode": "async", "on_queue_unavailable": on_unavailable}}
    )
    return Memory(store, HashingEmbedder(), settings, queue=queue)


def _store(request: pytest.FixtureRequest, memory_url: str) -> Store:
    if memory_url.startswith("sqlite:///"):
        return SQLiteStore(Path(memory_url.removeprefix("sqlite:///")))
    from cognimem.store.postgres import PostgresStore

    return PostgresStore(memory_url, max_size=4)


@pytest.fixture
async def async_memory(request: pytest.FixtureRequest, memory_url: str) -> AsyncIterator[Memory]:
    """Async ingestion on each backend: SQLite's outbox, PostgreSQL with Redis."""
    settings = Settings.model_validate({"ingest": {"mode": "async"}})
    if memory_url.startswith("sqlite:///"):
        async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
            yield mem
        return
    redis: servers.RedisServer = request.getfixturevalue("redis_server")
    async with _queued_memory(_store(request, memory_url), redis.url) as mem:
        yield mem


async def drain(mem: Memory) -> None:
    while await mem.process_next_job("w") is not None:
        pass


async def test_a_repeat_in_an_async_batch(async_memory: Memory) -> None:
    messages = CASES["superseded later"]
    result = await async_memory.write_batch(messages, user_id="batched")
    assert [r.outcome for r in result.messages] == [
        WriteOutcome.QUEUED,
        WriteOutcome.DUPLICATE,
        WriteOutcome.QUEUED,
    ]
    assert result.messages[1].event_id == result.messages[0].event_id
    for m in messages:
        await async_memory.write(m, user_id="single")
    await drain(async_memory)
    held, alone = await stored(async_memory, "batched"), await stored(async_memory, "single")
    assert held["facts"]
    assert held == alone


async def test_a_repeat_written_now_when_the_queue_is_down(
    request: pytest.FixtureRequest, memory_url: str
) -> None:
    closed = f"redis://127.0.0.1:{servers.free_port()}/0"
    async with _queued_memory(_store(request, memory_url), closed, "sync") as mem:
        result = await mem.write_batch(CASES["adjacent"], user_id="sam")
        assert result.mode == "sync"
        assert [r.outcome for r in result.messages] == [
            WriteOutcome.STORED,
            WriteOutcome.DUPLICATE,
        ]
        assert result.messages[1].event_id == result.messages[0].event_id
        assert len(await mem.list_items(user_id="sam")) == 1
