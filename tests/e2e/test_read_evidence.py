"""A read returns only memories with evidence for the query, and says so when nothing in
memory bears on it: through ``Memory`` and through the HTTP app, on both backends.

The embedder is the hashing fake (texts are close only by shared words), so "close in
meaning" here is shared words; the last tests use the real local model."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from cognimem import Memory, Message
from cognimem.api import create_app
from cognimem.providers.tokens import count_tokens
from tests.doubles import new_api_key

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=1)
NOTES = [
    "I adopted a rescue greyhound called Pepper",
    "We are planning a trip to Lisbon in June",
    "My sister plays the cello",
]
NOTE_MESSAGES = [Message(content=text, occurred_at=T0) for text in NOTES]
UNRELATED = "Kubernetes ingress controller configuration"
# the answer's lexical context (the message before it) is long, the filler's is the
# answer itself: the filler's indexed text is the shorter match for the answer's words
CHAT = [
    Message(
        content="I spent the whole weekend repainting the fence, fixing the gutters, "
        "mowing the lawn and cooking a big dinner for my parents.",
        name="Ben",
        occurred_at=T0,
    ),
    Message(content="Nice. My cat is called Miso, by the way.", name="Ada", occurred_at=T0),
    Message(content="That's great! How is it going?", name="Ben", occurred_at=T0),
]
ANSWER, FILLER = CHAT[1].content, CHAT[2].content


async def test_an_unrelated_query_returns_no_items_and_says_nothing_is_relevant(
    memory: Memory,
) -> None:
    await memory.write_batch(NOTE_MESSAGES, user_id="u")
    packet = await memory.read(UNRELATED, user_id="u", reference_time=LATER, explain=True)
    assert packet.items == []
    assert packet.nothing_relevant
    assert packet.meta["no_evidence"] == len(NOTES)
    assert packet.explain is not None
    outcomes = {e.outcome for e in packet.explain if e.type == "item"}
    assert outcomes == {"dropped: no evidence for the query (no shared word, not close in meaning)"}
    markdown = packet.to_markdown()
    assert markdown == "## Memory\n\n_No relevant memories._\n"
    assert packet.token_count == count_tokens(markdown)

    related = await memory.read("what is my dog called?", user_id="u", reference_time=LATER)
    assert [i.text for i in related.items] == [NOTES[0]]
    assert not related.nothing_relevant


async def test_a_filler_reply_does_not_outrank_the_answer_through_its_context(
    memory: Memory,
) -> None:
    await memory.write_batch(CHAT, user_id="ada")
    packet = await memory.read("what is my cat called?", user_id="ada", reference_time=LATER)
    texts = [i.text for i in packet.items]
    assert texts[0] == ANSWER
    assert FILLER not in texts  # its only match is the answer's words, before it


async def test_a_constraint_without_shared_words_still_reaches_the_packet(
    memory: Memory,
) -> None:
    await memory.write("I'm deathly allergic to peanuts.", user_id="u", occurred_at=T0)
    await memory.write("My sister plays the cello", user_id="u", occurred_at=T0)
    packet = await memory.read("Can you recommend a Thai restaurant?", user_id="u")
    assert [c.key for c in packet.sections.must_follow] == ["user:policy:allergy:peanuts"]
    assert "cello" not in " ".join(i.text for i in packet.items)
    assert not packet.nothing_relevant
    assert "No relevant memories" not in packet.to_markdown()


@pytest.fixture
async def http(memory: Memory) -> AsyncIterator[httpx.AsyncClient]:
    """The real app in-process, with a key of the default tenant."""
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(
        transport=transport, base_url="http://cognimem.test", headers=headers
    ) as client:
        yield client


async def test_http_read_says_nothing_is_relevant_in_json_and_markdown(
    memory: Memory, http: httpx.AsyncClient
) -> None:
    await memory.write_batch(NOTE_MESSAGES, user_id="u")
    body = {"query": UNRELATED, "scope": {"user_id": "u"}}
    answer = await http.post("/v1/memory/read", json=body)
    assert answer.status_code == 200, answer.text
    packet = answer.json()
    assert packet["items"] == []
    assert packet["nothing_relevant"] is True
    markdown = await http.post("/v1/memory/read", json={**body, "format": "markdown"})
    assert markdown.status_code == 200, markdown.text
    assert markdown.text == "## Memory\n\n_No relevant memories._\n"

    related = await http.post(
        "/v1/memory/read", json={"query": "greyhound Pepper", "scope": {"user_id": "u"}}
    )
    assert related.json()["nothing_relevant"] is False
    assert [i["text"] for i in related.json()["items"]] == [NOTES[0]]


@pytest.mark.onnx
async def test_the_local_model_drops_unrelated_memories_and_the_filler(db_url: str) -> None:
    """The default embedder and ``min_similarity`` together: the floor fits its cosines."""
    async with Memory.open(db_url) as memory:
        await memory.write_batch(NOTE_MESSAGES, user_id="u")
        await memory.write_batch(CHAT, user_id="ada")
        for query in (UNRELATED, "What is the boiling point of mercury?"):
            packet = await memory.read(query, user_id="u", reference_time=LATER)
            assert packet.items == [], query
            assert packet.nothing_relevant
        packet = await memory.read("what is my cat called?", user_id="ada")
        assert [i.text for i in packet.items] == [ANSWER]
        # close in meaning without a shared word still counts
        packet = await memory.read("Who owns a dog?", user_id="u")
        assert NOTES[0] in [i.text for i in packet.items]
