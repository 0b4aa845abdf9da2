"""Facts about the scope's user have one subject whether or not the message carried the
speaker's name, with the rule extractor and with the LLM extractor, on both backends:
"I am vegan now" supersedes "I'm vegetarian" said as Ada, and only the new diet is in
the packet. A third person the user talks about stays a subject of their own."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cognimem import Memory, Settings
from cognimem.config import LLMSettings
from cognimem.models import Event, Role, Scope
from cognimem.models.ids import content_hash, new_id
from cognimem.models.knowledge import (
    Alias,
    AliasSource,
    Entity,
    EntityType,
    Fact,
    FactCategory,
    FactStatus,
    Relation,
)
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm import FakeChatServer
from cognimem.store.postgres import migrations as postgres_migrations
from cognimem.store.sqlite import migrations as sqlite_migrations
from cognimem.store.types import Knowledge, PendingFact, PendingMessage

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


async def test_the_user_is_found_by_the_name_they_spoke_under(memory: Memory) -> None:
    # a transcript of two speakers in one scope: the first is the scope's user (keyed
    # user:...), the other keeps their name; a question naming either finds their facts
    await memory.write("I love Thai food.", user_id="conv", name="Rosa", occurred_at=T0)
    await memory.write("I love Italian food.", user_id="conv", name="Vivian", occurred_at=T0)
    keys = sorted(f.key for f in await memory.facts(user_id="conv"))
    assert keys == ["user:preference:cuisine:thai", "vivian:preference:cuisine:italian"]
    for name, said in (("Rosa", "I love Thai food."), ("Vivian", "I love Italian food.")):
        packet = await memory.read(f"What food does {name} like?", user_id="conv")
        by_key = [i.text for i in packet.items if i.signals.get("fact")]
        assert by_key == [said]


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


# -- facts stored before: keyed by the name the message carried ----------------------------


async def legacy_split(memory: Memory) -> dict[str, str]:
    """What the old keys left: Ada's facts under ``ada:`` with an entity "Ada", her
    unnamed ones under ``user:`` with an entity "user", and her sister's under ``ana:``."""
    scope = Scope(user_id="ada")
    ada, me, ana, paris = (
        Entity(id=new_id("ent"), tenant_id="default", namespace="default", user_id="ada",
               name=name, type=EntityType.PERSON, created_at=T0)
        for name in ("Ada", "user", "Ana", "Paris")
    )  # fmt: skip
    said = [("I'm vegetarian.", "Ada", T0), ("I am vegan now.", None, T0 + DAY),
            ("I live in Paris. My sister Ana lives in Lyon.", "Ada", T0 + 2 * DAY)]  # fmt: skip
    messages = [
        PendingMessage(
            event=Event(id=new_id("evt"), scope=scope, role=Role.USER, name=name, content=text,
                        content_hash=content_hash(text), idempotency_key=None, external_id=None,
                        occurred_at=at, recorded_at=at)
        )
        for text, name, at in said
    ]  # fmt: skip

    def fact(key: str, value: str, entity: Entity, n: int, **kw: Any) -> Fact:
        subject, category, predicate = key.split(":")[:3]
        return Fact(
            id=new_id("fct"), scope=scope, key=key, subject=subject, predicate=predicate,
            subject_entity_id=entity.id, category=FactCategory(category), value=value,
            text=said[n][0], last_validated_at=said[n][2], recorded_at=said[n][2],
            evidence_event_ids=[messages[n].event.id], **kw,
        )  # fmt: skip

    facts = [
        fact("ada:value:diet", "vegetarian", ada, 0, scope_tags=["diet", "food"]),
        fact("user:value:diet", "vegan", me, 1, scope_tags=["diet", "food"]),
        fact("ada:location:city", "Paris", ada, 2, object_entity_id=paris.id),
        fact("ana:location:city", "Lyon", ana, 2),
    ]
    await memory.store.commit(
        messages,
        300.0,
        Knowledge(
            entities=[ada, me, ana, paris],
            aliases=[
                Alias(
                    entity_id=e.id,
                    alias=e.name.casefold(),
                    user_id="ada",
                    source=AliasSource.EXACT,
                    confidence=1.0,
                )
                for e in (ada, me, ana, paris)
            ],
            facts=[PendingFact(fact=f, embedding=None, embed_text=f.text) for f in facts],
            relations=[
                Relation(
                    id=new_id("rel"),
                    scope=scope,
                    source_entity_id=ada.id,
                    relation="city",
                    target_entity_id=paris.id,
                    fact_id=facts[2].id,
                    created_at=T0,
                )
            ],
        ),
    )
    return {"ada": ada.id, "me": me.id, "ana": ana.id, "vegan": facts[1].id}


async def migrate_again(url: str, version: int) -> None:
    """Run one migration's SQL again, on a database already past it."""
    if url.startswith("sqlite:///"):
        [sql] = [sql for v, _, sql in sqlite_migrations.MIGRATIONS if v == version]
        with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as conn:
            conn.executescript(f"BEGIN;\n{sql}\nCOMMIT;")
        return
    import asyncpg

    [sql] = [sql for v, _, sql in postgres_migrations.MIGRATIONS if v == version]
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute(sql)
    finally:
        await conn.close()


async def test_facts_stored_under_the_name_move_to_the_user(
    memory: Memory, memory_url: str
) -> None:
    ids = await legacy_split(memory)
    assert len(await memory.facts(user_id="ada")) == 4  # both diets live: the old split
    await migrate_again(memory_url, 9)

    live = {f.key: f for f in await memory.facts(user_id="ada")}
    assert {k: f.value for k, f in live.items()} == {
        "user:value:diet": "vegan",
        "user:location:city": "Paris",
        "ana:location:city": "Lyon",
    }
    assert live["user:value:diet"].id == ids["vegan"]  # the newer one
    [old] = [f for f in await memory.facts(user_id="ada", include_history=True)
             if f.value == "vegetarian"]  # fmt: skip
    assert (old.key, old.status, old.superseded_by) == (
        "user:value:diet", FactStatus.SUPERSEDED, ids["vegan"],
    )  # fmt: skip
    # one entity for the user, named by both aliases; the graph edge moved to it
    me, aliases = await user_entity(memory)
    assert me == ids["me"]
    assert aliases == {"user", "ada"}
    assert live["user:location:city"].subject_entity_id == me
    assert [r.relation for r in await memory.relations([me], user_id="ada")] == ["city"]
    assert live["ana:location:city"].subject_entity_id == ids["ana"]
    must, _ = await constraint_texts(memory)
    assert must == ["I am vegan now."]

    # and new writes, named or not, land on the same subject
    await memory.write("I'm vegetarian again.", user_id="ada", name="Ada", occurred_at=T0 + 3 * DAY)
    [diet] = await memory.facts(key="user:value:diet", user_id="ada")
    assert diet.value == "vegetarian"
    assert {f.key.split(":")[0] for f in await memory.facts(user_id="ada")} == {"user", "ana"}
