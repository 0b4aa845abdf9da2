"""A read whose question names a time picks from the scope's facts of any status,
decoded once per scope while no fact changes (``KnowledgeStore.scope_facts``, issue 35):
the same answers warm as cold, and a write in between (in this process or another) is
seen. On both backends."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem import Memory
from cognimem.config import Settings
from cognimem.models import ContextPacket
from cognimem.providers.fakes import HashingEmbedder
from cognimem.recall.steps import MAX_FACTS_TIMED

USER = "ana"
SAID = (
    (datetime(2023, 1, 5, 9, tzinfo=UTC), "I live in Seattle."),
    (datetime(2023, 1, 12, 9, tzinfo=UTC), "I work as a nurse."),
    (datetime(2023, 5, 5, 9, tzinfo=UTC), "I moved to Portland."),
    (datetime(2023, 5, 12, 9, tzinfo=UTC), "I work as a teacher now."),
)
QUESTIONS = (
    "Where did I live in March 2023?",
    "Where did I live in July 2023?",
    "What was my job in July 2023?",
)


def opened(url: str) -> Memory:
    return Memory.open(url, settings=Settings(), embedder=HashingEmbedder())


async def write(mem: Memory, at: datetime, text: str) -> None:
    await mem.write({"content": text, "role": "user", "occurred_at": at}, user_id=USER)


def answer(packet: ContextPacket) -> list[tuple[str | None, str | None, list[str]]]:
    """What a read gave: its fact and constraint entries and its ranked items."""
    entries = [(e.key, e.value, list(e.item_ids)) for e in packet.sections.entries()]
    return [*entries, *((None, None, [i.id]) for i in packet.items)]


async def test_a_warm_read_answers_as_a_cold_one(memory_url: str) -> None:
    async with opened(memory_url) as warm:
        for at, text in SAID:
            await write(warm, at, text)
        first = [answer(await warm.read(q, user_id=USER)) for q in QUESTIONS]
        again = [answer(await warm.read(q, user_id=USER)) for q in QUESTIONS]
        # the repeat decoded nothing: the store handed back the same decoded facts
        store = warm.store
        known = await store.scope_facts("default", "default", USER, MAX_FACTS_TIMED)
        assert known is await store.scope_facts("default", "default", USER, MAX_FACTS_TIMED)
        assert {f.value for f in known.facts} == {"Seattle", "Portland", "nurse", "teacher"}
    async with opened(memory_url) as cold:  # a new process's first read: no copy yet
        fresh = [answer(await cold.read(q, user_id=USER)) for q in QUESTIONS]
    assert first == again == fresh
    where_march = {e[1] for e in first[0] if e[0] == "user:location:city"}
    assert where_march == {"Seattle"}


async def test_a_write_between_two_reads_is_seen(memory_url: str) -> None:
    question = "Where did I live in September 2023?"
    async with opened(memory_url) as reader, opened(memory_url) as other:
        for at, text in SAID:
            await write(reader, at, text)

        async def where() -> set[str | None]:
            packet = await reader.read(question, user_id=USER)
            return {e[1] for e in answer(packet) if e[0] == "user:location:city"}

        assert await where() == {"Portland"}
        await write(reader, datetime(2023, 8, 5, 9, tzinfo=UTC), "I moved to Denver.")
        assert await where() == {"Denver"}
        # written by another Memory (as another process would): its copy is not current
        await write(other, datetime(2023, 8, 20, 9, tzinfo=UTC), "I moved to Austin.")
        assert await where() == {"Austin"}
