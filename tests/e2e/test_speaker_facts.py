"""Facts about the scope's user have one subject whether or not the message carried the
speaker's name, with the rule extractor and with the LLM extractor, on both backends:
"I am vegan now" supersedes "I'm vegetarian" said as Ada, and only the new diet is in
the packet. A third person the user talks about stays a subject of their own."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Settings
from cognimem.config import LLMSettings
from cognimem.models.knowledge import FactStatus
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm import FakeChatServer

T0 = datetime(2024, 7, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
QUESTION = "what should I cook for dinner tonight?"


async def constraint_texts(memory: Memory, user: str = "ada") -> tuple[list[str], str]:
    """The packet's must-follow lines, and every fact line of any section."""
    sections = (await memory.read(QUESTION, user_id=user)).sections
    return [e.text for e in sections.must_follow], "\n".join(e.text for e in sections.entries())


async def user_entity(memory: Memory, user: str = "ada") -> tuple[str, set[str]]:
    [(me, aliases)] = [
        (e, a) for e, a in await memory.entities(user_id=user) if e.properties.get("self")
    ]
    return me.id, {a.alias for a in aliases}


@pytest.mark.parametrize("names", [("Ada", None), (None, "Ada")], ids=["named-first", "named-last"])
async def test_the_user_is_one_subject_named_or_not(
    memory: Memory, names: tuple[str | None, str | None]
) -> None:
    first, second = names
    old = await memory.write("I'm vegetarian.", user_id="ada", name=first, occurred_at=T0)
    new = await memory.write("I am vegan now.", user_id="ada", name=second, occurred_at=T0 + DAY)
    [old_fact] = old.knowledge.facts_created
    assert new.knowledge.facts_superseded == [old_fact]
    [live] = await memory.facts(user_id="ada")
    assert (live.key, live.value, live.subject) == ("user:value:diet", "vegan", "user")
    every = await memory.facts(user_id="ada", include_history=True)
    assert {f.value: f.status for f in every} == {
        "vegan": FactStatus.ACTIVE,
        "vegetarian": FactStatus.SUPERSEDED,
    }
    must, facts = await constraint_texts(memory)
    assert must == ["I am vegan now."]
    assert "vegetarian" not in facts
    # one entity for the user, the name they spoke under recorded as its alias
    me, aliases = await user_entity(memory)
    assert aliases == {"user", "ada"}
    assert {f.subject_entity_id for f in every} == {me}


async def test_a_third_person_the_user_talks_about_is_not_the_user(memory: Memory) -> None:
    await memory.write("I'm vegetarian.", user_id="ada", name="Ada", occurred_at=T0)
    await memory.write("My sister Ana lives in Lyon.", user_id="ada", occurred_at=T0 + DAY)
    await memory.write("I live in Paris.", user_id="ada", name="Ada", occurred_at=T0 + 2 * DAY)
    live = {f.key: f for f in await memory.facts(user_id="ada")}
    assert set(live) == {
        "user:value:diet",
        "user:relationship:sister:ana",
        "ana:location:city",
        "user:location:city",
    }
    assert (live["ana:location:city"].value, live["user:location:city"].value) == ("Lyon", "Paris")
    me, aliases = await user_entity(memory)
    assert "ana" not in aliases
    assert live["ana:location:city"].subject_entity_id not in (None, me)
    assert live["user:relationship:sister:ana"].object_entity_id == (
        live["ana:location:city"].subject_entity_id
    )


# -- the LLM extractor -------------------------------------------------------------------


def answer(*facts: dict[str, object]) -> str:
    extraction = {"facts": list(facts)}
    return json.dumps({"messages": [{"index": 0, "extraction": extraction}]})


def diet(value: str, subject: str, evidence: str) -> dict[str, object]:
    return {
        "subject": subject, "category": "value", "predicate": "diet", "value": value,
        "scope_tags": ["diet", "food"], "confidence": 0.9, "evidence": evidence,
    }  # fmt: skip


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


@pytest.fixture
async def llm_memory(memory_url: str, server: FakeChatServer) -> AsyncIterator[Memory]:
    settings = Settings(
        llm=LLMSettings(model="fake-chat", base_url=server.base_url, timeout_s=5, max_retries=0)
    )
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        yield mem


async def test_the_llm_extractor_names_the_user_one_way_too(
    llm_memory: Memory, server: FakeChatServer
) -> None:
    # the model may call the author by the name it was given rather than "user"
    server.reply(answer(diet("vegetarian", "Ada", "I'm vegetarian.")))
    first = await llm_memory.write("I'm vegetarian.", user_id="ada", name="Ada", occurred_at=T0)
    assert first.knowledge.extractor == "llm"
    server.reply(answer(diet("vegan", "user", "I am vegan now.")))
    await llm_memory.write("I am vegan now.", user_id="ada", occurred_at=T0 + DAY)
    [live] = await llm_memory.facts(user_id="ada")
    assert (live.key, live.value) == ("user:value:diet", "vegan")
    must, facts = await constraint_texts(llm_memory)
    assert must == ["I am vegan now."]
    assert "vegetarian" not in facts

    # a third person's diet is theirs: the user's stays
    server.reply(answer(diet("vegetarian", "Ana", "My sister Ana is vegetarian.")))
    await llm_memory.write(
        "My sister Ana is vegetarian.", user_id="ada", name="Ada", occurred_at=T0 + 2 * DAY
    )
    live_keys = {f.key: f.value for f in await llm_memory.facts(user_id="ada")}
    assert live_keys == {"user:value:diet": "vegan", "ana:value:diet": "vegetarian"}
