"""End-to-end scenarios through ``Memory`` on a real SQLite file."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cognimem import (
    Conflict,
    InvalidInput,
    ItemKind,
    Memory,
    Message,
    NotFound,
    Settings,
    SyncMemory,
    UsageError,
    WriteOutcome,
)
from cognimem.models import Scope
from cognimem.providers.factory import build_embedder
from cognimem.providers.fakes import FakeEmbeddingServer, HashingEmbedder
from cognimem.providers.openai import OpenAICompatibleEmbedder
from cognimem.providers.tokens import count_tokens
from cognimem.store import ItemFilter

MAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


async def count(memory: Memory, **scope: str) -> int:
    return await memory.store.count_items(ItemFilter(scope=Scope(**scope)))


async def test_write_then_read_sees_it_and_nobody_else_does(memory: Memory) -> None:
    await memory.write_batch(
        [
            "I adopted a rescue greyhound called Pepper",
            "We are planning a trip to Lisbon in June",
            "My sister plays the cello",
        ],
        user_id="alice",
    )
    packet = await memory.read("what is my dog called?", user_id="alice", limit=1)
    assert [i.text for i in packet.items] == ["I adopted a rescue greyhound called Pepper"]
    assert packet.items[0].source_event_ids
    # the budget counts the rendered markdown, which is what goes into a prompt
    assert packet.token_count == count_tokens(packet.to_markdown())
    assert packet.token_count > packet.items[0].token_count > 0

    assert (await memory.read("greyhound Pepper", user_id="bob")).items == []
    other_tenant = await memory.read(
        "greyhound Pepper", scope={"tenant_id": "t2", "user_id": "alice"}
    )
    assert other_tenant.items == []


async def test_provenance_reaches_the_raw_event_and_external_ids(memory: Memory) -> None:
    result = await memory.write(
        "Rosa went to the LGBTQ support group yesterday",
        user_id="conv",
        name="Rosa",
        occurred_at=MAY,
        external_id="D1:3",
        metadata={"session": 1},
    )
    packet = await memory.read(
        "LGBTQ support group", user_id="conv", reference_time=MAY + timedelta(days=1)
    )
    [item] = packet.items
    assert item.external_ids == ["D1:3"]
    assert item.author == "Rosa"
    assert item.occurred_at == MAY
    [event] = await memory.get_events(item.source_event_ids)
    assert event.id == result.event_ids[0]
    assert event.content == "Rosa went to the LGBTQ support group yesterday"
    assert event.metadata == {"session": 1}


async def test_retry_with_idempotency_key_returns_original_ids(memory: Memory) -> None:
    first = await memory.write("book the dentist", user_id="u", idempotency_key="req-1")
    again = await memory.write("book the dentist", user_id="u", idempotency_key="req-1")
    assert again.messages[0].outcome is WriteOutcome.DUPLICATE
    assert again.event_ids == first.event_ids
    assert again.item_ids == first.item_ids
    with pytest.raises(Conflict):
        await memory.write("something else", user_id="u", idempotency_key="req-1")
    assert await count(memory, user_id="u") == 1


async def test_identical_message_in_the_window_is_stored_once(memory: Memory) -> None:
    first = await memory.write("see you at 5", user_id="u", session_id="s", occurred_at=MAY)
    second = await memory.write(
        "see you at 5", user_id="u", session_id="s", occurred_at=MAY + timedelta(seconds=30)
    )
    assert second.messages[0].outcome is WriteOutcome.DUPLICATE
    assert second.event_ids == first.event_ids
    later = await memory.write(
        "see you at 5", user_id="u", session_id="s", occurred_at=MAY + timedelta(days=1)
    )
    assert later.messages[0].outcome is WriteOutcome.STORED


async def dump_database(url: str) -> str:
    """Every row of every table of the database behind ``url``, as text."""
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            return "\n".join(conn.iterdump())
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        dumps = [str(await conn.fetch(f'SELECT t::text FROM "{t["tablename"]}" t')) for t in tables]
    finally:
        await conn.close()
    return "\n".join(dumps)


async def test_secrets_are_skipped_and_pii_redacted_everywhere(
    memory: Memory, memory_url: str
) -> None:
    result = await memory.write_batch(
        [
            "my password is Hunter2!",
            "Email me at jane.doe@example.com or call (555) 123-4567.",
        ],
        user_id="u",
    )
    secret, pii = result.messages
    assert secret.outcome is WriteOutcome.SKIPPED_SECRET
    assert secret.item_ids == []
    assert pii.redactions == {"email": 1, "phone": 1}
    item = await memory.get(pii.item_ids[0])
    assert "example.com" not in item.text
    assert "[EMAIL]" in item.text
    # nothing of the secret or the PII reaches the database, not even the raw events
    dump = await dump_database(memory_url)
    assert "[EMAIL]" in dump  # the dump really holds the rows
    assert "Hunter2" not in dump
    assert "jane.doe" not in dump
    assert "123-4567" not in dump


async def test_long_message_is_chunked_on_sentences_with_shared_provenance(db_url: str) -> None:
    settings = Settings.model_validate({"ingest": {"chunk_tokens": 16}})
    async with Memory.open(db_url, settings=settings, embedder=HashingEmbedder()) as mem:
        text = " ".join(f"Sentence number {i} talks about topic {i}." for i in range(10))
        result = await mem.write(text, user_id="u")
        assert len(result.item_ids) > 1
        items = [await mem.get(i) for i in result.item_ids]
        assert " ".join(i.text for i in items).split() == text.split()
        assert {tuple(i.source_event_ids) for i in items} == {tuple(result.event_ids)}
        assert all(i.text.endswith(".") for i in items)


async def test_budget_limit_and_filters(memory: Memory) -> None:
    day = timedelta(days=1)
    await memory.write_batch(
        [
            Message(content="breakfast was pancakes with syrup", occurred_at=MAY),
            Message(content="lunch was pancakes again", occurred_at=MAY + day),
            Message(content="dinner was pancakes, sadly", occurred_at=MAY + 2 * day),
        ],
        user_id="u",
    )
    await memory.write_batch(["never eat pancakes after 9pm"], user_id="u", profile="guardrail")
    ref = MAY + 3 * day
    everything = await memory.read("pancakes", user_id="u")  # reference time: now
    assert len(everything.items) == 4
    tight = await memory.read("pancakes", user_id="u", max_tokens=40, reference_time=ref)
    assert 0 < len(tight.items) < 3
    assert tight.token_count <= 40
    assert count_tokens(tight.to_markdown()) <= 40
    assert tight.truncated
    window = await memory.read(
        "pancakes", user_id="u", since=MAY + day, until=MAY + day, reference_time=ref
    )
    assert [i.text for i in window.items] == ["lunch was pancakes again"]
    # memories after the reference time do not exist yet for that read
    past = await memory.read("pancakes", user_id="u", reference_time=MAY + timedelta(hours=1))
    assert [i.text for i in past.items] == ["breakfast was pancakes with syrup"]
    guardrails = await memory.read("pancakes", user_id="u", kinds=["guardrail"])
    assert [i.kind for i in guardrails.items] == [ItemKind.GUARDRAIL]
    markdown = tight.to_markdown()
    assert markdown.startswith("## Memory")


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda m: m.write("", user_id="u"), "content"),
        (lambda m: m.write("   \n\t", user_id="u"), "content"),
        (lambda m: m.write("x" * 40_000, user_id="u"), "content"),
        (lambda m: m.write("bad \ud800 surrogate", user_id="u"), "content"),
        (lambda m: m.write("hi", scope={"user_id": "u", "planet": "mars"}), "scope.planet"),
        (lambda m: m.write("hi", scope={"user_id": "has spaces"}), "scope.user_id"),
        (lambda m: m.write({"content": "hi", "occurred_at": "not a time"}), "message.occurred_at"),
        (lambda m: m.write("hi", occurred_at=datetime(1, 1, 1, tzinfo=UTC)), "occurred_at"),
        (lambda m: m.write_batch(["ok"] * 1001, user_id="u"), "messages"),
        (lambda m: m.write_batch(["fine", ""], user_id="u"), "messages[1].content"),
        (
            lambda m: m.write_batch([{"content": "x", "colour": "red"}], user_id="u"),
            "messages[0].colour",
        ),
        (lambda m: m.read("", user_id="u"), "query"),
        (lambda m: m.read("q", user_id="u", limit=0), "limit"),
        (lambda m: m.read("q", user_id="u", kinds=["nonsense"]), "kinds"),
    ],
)
async def test_bad_input_is_a_typed_error_and_writes_nothing(
    memory: Memory, call, field: str
) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInput) as info:
        await call(memory)
    assert info.value.field == field
    assert await count(memory) == 0
    assert await count(memory, user_id="u") == 0


async def test_get_and_delete(memory: Memory) -> None:
    result = await memory.write("temporary note about a parcel", user_id="u")
    [item_id] = result.item_ids
    assert (await memory.get(item_id)).text == "temporary note about a parcel"
    with pytest.raises(NotFound):
        await memory.get(item_id, tenant_id="someone-else")
    await memory.delete(item_id)
    with pytest.raises(NotFound):
        await memory.get(item_id)
    with pytest.raises(NotFound):
        await memory.delete(item_id)
    assert (await memory.read("parcel", user_id="u")).items == []


async def test_reopening_with_another_embedding_dimension_fails_clearly(db_url: str) -> None:
    async with Memory.open(db_url, embedder=HashingEmbedder(dim=64)) as mem:
        await mem.write("hello", user_id="u")
    with pytest.raises(UsageError, match="hashing:64"):
        async with Memory.open(db_url, embedder=HashingEmbedder(dim=32)):
            pass


@pytest.mark.parametrize("built_with", ["onnx:minilm", "hashing:64"])
async def test_the_embedding_model_the_mismatch_error_names_opens_the_database(
    db_url: str, built_with: str
) -> None:
    async with Memory.open(db_url, settings=Settings(embedding={"model": built_with})):
        pass  # records the model (and its dimension) in the new database
    with pytest.raises(UsageError) as caught:
        async with Memory.open(db_url, embedder=HashingEmbedder(dim=32)):
            pass
    suggested = re.search(r"set COGNIMEM_EMBEDDING__MODEL to '([^']+)'", caught.value.message)
    assert suggested is not None, caught.value.message
    settings = Settings(embedding={"model": suggested.group(1)})
    async with Memory.open(db_url, settings=settings) as mem:
        assert mem.embedder.model_id == build_embedder(built_with).model_id


async def test_embedding_provider_failure_on_read_is_degraded_not_hidden(db_url: str) -> None:
    with FakeEmbeddingServer(dim=32) as server:
        embedder = OpenAICompatibleEmbedder(base_url=server.base_url, model="fake", max_retries=0)
        async with Memory.open(db_url, embedder=embedder) as mem:
            await mem.write("the spare key is under the blue flowerpot", user_id="u")
            server.fail_next(status=500, times=5)
            packet = await mem.read("where is the spare key", user_id="u")
    assert packet.degraded
    assert packet.degraded[0].startswith("vector")
    vector_step = next(s for s in packet.steps if s.name == "vector")
    assert vector_step.error is not None
    # the lexical step still answered
    assert [i.text for i in packet.items] == ["the spare key is under the blue flowerpot"]


def test_sync_memory(db_url: str) -> None:
    with SyncMemory(Memory.open(db_url, embedder=HashingEmbedder())) as mem:
        mem.write("the wifi router is in the hallway", user_id="u")
        packet = mem.read("where is the router", user_id="u")
    assert [i.text for i in packet.items] == ["the wifi router is in the hallway"]


def test_a_second_process_writing_the_same_file(db_url: str, tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        from cognimem import Memory, SyncMemory
        from cognimem.providers.fakes import HashingEmbedder
        with SyncMemory(Memory.open({db_url!r}, embedder=HashingEmbedder())) as mem:
            for i in range(40):
                mem.write(f"child process line {{i}}", user_id="u")
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script])
    with SyncMemory(Memory.open(db_url, embedder=HashingEmbedder())) as mem:
        for i in range(40):
            mem.write(f"parent process line {i}", user_id="u")
        assert child.wait(timeout=120) == 0
        packet = mem.read("child process line", user_id="u", limit=200, max_tokens=100_000)
    assert len(packet.items) == 80
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 80
        assert conn.execute("SELECT COUNT(*) FROM items_fts").fetchone()[0] == 80


async def test_an_answer_is_found_by_the_words_of_its_question(memory: Memory) -> None:
    await memory.write(
        "Where did you go for the holidays?", user_id="u", name="Ben", occurred_at=MAY
    )
    await memory.write_batch(
        [
            Message(
                content="Portugal! The beaches were lovely.",
                name="Ada",
                occurred_at=MAY + timedelta(seconds=1),
            ),
            Message(
                content="I also bought new shoes.",
                name="Ada",
                occurred_at=MAY + timedelta(seconds=2),
            ),
        ],
        user_id="u",
    )
    packet = await memory.read("holidays", user_id="u", preset="lexical")
    # the answer matches through its question; the unrelated follow-up does not
    assert [i.text for i in packet.items] == [
        "Where did you go for the holidays?",
        "Portugal! The beaches were lovely.",
    ]


async def test_context_can_be_turned_off(db_url: str) -> None:
    settings = Settings.model_validate({"ingest": {"context_chars": 0}})
    async with Memory.open(db_url, settings=settings, embedder=HashingEmbedder()) as mem:
        await mem.write_batch(["Where did you go for the holidays?", "Portugal!"], user_id="u")
        packet = await mem.read("holidays", user_id="u", preset="lexical")
    assert [i.text for i in packet.items] == ["Where did you go for the holidays?"]
