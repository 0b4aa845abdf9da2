"""The cognitive write path end to end, with no LLM configured, on both backends: facts
with stable keys, reinforcement, supersession, past values, constraints, entities,
graph edges, conflicts, profiles and idempotency."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory
from cognimem.errors import InvalidInput, NotFound
from cognimem.models import ItemKind, ItemStatus, Message, Tier, WriteOutcome
from cognimem.models.knowledge import ConflictStrategy, FactCategory, FactStatus

T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


async def test_name_is_readable_by_key_at_once(memory: Memory) -> None:
    result = await memory.write("My name is Alice.", user_id="u1", occurred_at=T0)
    fact = await memory.get_fact("user:identity:name", user_id="u1")
    assert fact.value == "Alice"
    assert fact.category is FactCategory.IDENTITY
    assert fact.status is FactStatus.ACTIVE
    assert result.knowledge.facts_created == [fact.id]
    assert result.knowledge.extractor == "rules"
    assert not result.knowledge.llm_ran
    assert result.degraded == []
    # provenance: the fact points at the event and item it came from
    assert fact.evidence_event_ids == result.event_ids
    assert fact.evidence_item_ids == result.item_ids
    with pytest.raises(NotFound):
        await memory.get_fact("user:identity:name", user_id="someone-else")


async def test_italian_food_and_italian_music_do_not_collide(memory: Memory) -> None:
    await memory.write("I love Italian food.", user_id="u1", occurred_at=T0)
    await memory.write("I love Italian music.", user_id="u1", occurred_at=T0 + DAY)
    facts = await memory.facts(categories=["preference"], user_id="u1")
    assert len(facts) == 2
    assert len({f.key for f in facts}) == 2
    assert {f.status for f in facts} == {FactStatus.ACTIVE}
    assert [f.value for f in await memory.facts(key="user:preference:cuisine", user_id="u1")] == [
        "Italian"
    ]
    assert [f.value for f in await memory.facts(key="user:preference:music", user_id="u1")] == [
        "Italian"
    ]


async def test_vegetarian_then_fish_supersedes_with_history(memory: Memory) -> None:
    first = await memory.write("I'm vegetarian.", user_id="u1", occurred_at=T0)
    second = await memory.write("Actually I eat fish now.", user_id="u1", occurred_at=T0 + 7 * DAY)
    [old_id] = first.knowledge.facts_created
    assert second.knowledge.facts_superseded == [old_id]
    live = await memory.facts(key="user:value:diet", user_id="u1")
    assert len(live) == 1
    assert live[0].id == second.knowledge.facts_created[0]
    assert "fish" in live[0].value.casefold()
    every = await memory.facts(key="user:value:diet", user_id="u1", include_history=True)
    [old] = [f for f in every if f.id == old_id]
    assert old.status is FactStatus.SUPERSEDED
    assert old.superseded_by == live[0].id
    assert old.valid_to == T0 + 7 * DAY
    actions = [h.action for h in await memory.history(old_id)]
    assert actions == ["created", "superseded"]
    # the superseded constraint's episode is silenced: it cannot surface again
    assert second.knowledge.items_silenced == first.item_ids
    [item] = [await memory.get(i) for i in first.item_ids]
    assert item.status is ItemStatus.SILENT
    [silenced] = await memory.history(item.id)
    assert (silenced.action, silenced.after) == (
        "silenced",
        {"status": "silent", "reason": "its constraint was superseded"},
    )
    packet = await memory.read("vegetarian", user_id="u1")
    assert all(i.id not in first.item_ids for i in packet.items)


async def test_tea_five_times_reinforces_one_fact(memory: Memory) -> None:
    results = [
        await memory.write("I like tea.", user_id="u1", occurred_at=T0 + i * DAY) for i in range(5)
    ]
    [fact] = await memory.facts(key="user:preference:drink", user_id="u1")
    assert fact.value == "tea"
    assert fact.reinforcement_count == 5
    first_confidence = (await memory.history(fact.id))[0].after
    assert first_confidence is not None
    assert fact.confidence > first_confidence["confidence"]
    assert fact.confidence <= 0.99
    assert fact.last_validated_at == T0 + 4 * DAY
    assert len(fact.evidence_event_ids) == 5
    assert [len(r.knowledge.facts_reinforced) for r in results] == [0, 1, 1, 1, 1]
    # the repeated message is one item whose provenance holds all five events
    assert {i for r in results for i in r.item_ids} == set(results[0].item_ids)
    [item] = [await memory.get(i) for i in results[0].item_ids]
    assert sorted(item.source_event_ids) == sorted(r.event_ids[0] for r in results)
    assert results[1].knowledge.items_merged == results[0].item_ids


async def test_past_city_ends_where_the_current_one_starts(memory: Memory) -> None:
    await memory.write(
        "I used to live in Paris. I moved to Berlin last year.", user_id="u1", occurred_at=T0
    )
    current = await memory.get_fact("user:location:city", user_id="u1")
    assert current.value == "Berlin"
    assert current.valid_from == datetime(2023, 1, 1, tzinfo=UTC)
    every = await memory.facts(key="user:location:city", user_id="u1", include_history=True)
    [paris] = [f for f in every if f.value == "Paris"]
    assert paris.status is FactStatus.SUPERSEDED
    assert paris.valid_to == datetime(2023, 1, 1, tzinfo=UTC)
    assert paris.superseded_by == current.id
    # the graph: the user lives in Berlin
    [(user, _aliases)] = [
        (e, a) for e, a in await memory.entities(user_id="u1") if e.name == "user"
    ]
    edges = await memory.relations([user.id], user_id="u1")
    berlin = [e for e, _ in await memory.entities(user_id="u1") if e.name == "Berlin"]
    assert [(r.relation, r.target_entity_id) for r in edges] == [("city", berlin[0].id)]


async def test_deathly_peanut_allergy_is_a_policy_constraint(memory: Memory) -> None:
    await memory.write("I'm deathly allergic to peanuts.", user_id="u1", occurred_at=T0)
    [fact] = await memory.facts(categories=["policy"], user_id="u1")
    assert fact.predicate == "allergy"
    assert fact.value == "peanuts"
    assert fact.is_constraint
    assert {"food", "allergy"} <= set(fact.scope_tags)
    assert fact.key == "user:policy:allergy:peanuts"


async def test_retry_with_idempotency_key_stores_nothing_new(memory: Memory) -> None:
    first = await memory.write("My name is Alice.", user_id="u1", idempotency_key="req-1")
    again = await memory.write("My name is Alice.", user_id="u1", idempotency_key="req-1")
    assert again.messages[0].outcome is WriteOutcome.DUPLICATE
    assert again.event_ids == first.event_ids
    assert again.knowledge.facts_created == again.knowledge.facts_reinforced == []
    [fact] = await memory.facts(user_id="u1")
    assert fact.reinforcement_count == 1
    assert len(await memory.history(fact.id)) == 1


async def test_simultaneous_contradiction_opens_a_conflict(memory: Memory) -> None:
    result = await memory.write_batch(
        [
            Message(content="My name is Alice.", occurred_at=T0),
            Message(content="My name is Bob.", occurred_at=T0),
        ],
        user_id="u1",
    )
    [conflict] = result.knowledge.conflicts_opened
    [stored] = await memory.conflicts(user_id="u1")
    assert stored.id == conflict
    assert stored.strategy is ConflictStrategy.ASK_USER  # equal confidence: the user decides
    assert len(await memory.facts(key="user:identity:name", user_id="u1")) == 2


async def test_entities_resolve_to_one_and_learn_aliases(memory: Memory) -> None:
    await memory.write("My sister Sarah lives in Boston.", user_id="u1", occurred_at=T0)
    second = await memory.write("I visited Sarah in Boston.", user_id="u1", occurred_at=T0 + DAY)
    names = [e.name for e, _ in await memory.entities(user_id="u1")]
    assert names.count("Sarah") == 1
    assert names.count("Boston") == 1
    assert second.knowledge.entities_created == []
    # another user's Sarah is another entity
    await memory.write("My sister Sarah lives in Boston.", user_id="u2", occurred_at=T0)
    theirs = [e for e, _ in await memory.entities(user_id="u2") if e.name == "Sarah"]
    mine = [e for e, _ in await memory.entities(user_id="u1") if e.name == "Sarah"]
    assert theirs[0].id != mine[0].id


async def test_profiles_set_kind_tier_and_extraction(memory: Memory) -> None:
    result = await memory.write(
        "Never recommend products from Acme; I'm allergic to peanuts.",
        user_id="u1",
        profile="mandate",
    )
    [item] = [await memory.get(i) for i in result.item_ids]
    assert (item.kind, item.tier) == (ItemKind.MANDATE, Tier.ALWAYS)
    assert result.profile == "mandate"
    assert result.knowledge.extractor == "none"
    assert await memory.facts(user_id="u1") == []
    with pytest.raises(InvalidInput) as exc:
        await memory.write("hello", user_id="u1", profile="nonsense")
    assert exc.value.field == "profile"


async def test_assistant_messages_are_not_read_as_user_facts(memory: Memory) -> None:
    await memory.write("My name is Claude.", user_id="u1", role="assistant", occurred_at=T0)
    assert await memory.facts(user_id="u1") == []


async def test_speakers_get_their_own_keys(memory: Memory) -> None:
    # the first name the scope's user speaks under is theirs; another name is another
    # speaker in the same conversation, whose "I" facts are keyed by their name
    await memory.write_batch(
        [
            Message(content="I love Thai food.", name="Rosa", occurred_at=T0),
            Message(content="I'm vegetarian.", name="Vivian", occurred_at=T0 + DAY),
        ],
        user_id="conv",
    )
    await memory.write("I'm vegan.", user_id="conv", name="Vivian", occurred_at=T0 + 2 * DAY)
    keys = sorted(f.key for f in await memory.facts(user_id="conv"))
    assert keys == ["user:preference:cuisine:thai", "vivian:value:diet"]
    assert (await memory.get_fact("vivian:value:diet", user_id="conv")).value == "vegan"


async def test_graph_edges_let_a_walk_go_two_hops(memory: Memory) -> None:
    await memory.write_batch(
        [
            Message(content="My sister Sarah works at Acme.", name="Rosa", occurred_at=T0),
            Message(content="My friend Tom lives in Denver.", name="Rosa", occurred_at=T0),
        ],
        user_id="conv",
    )
    by_name = {e.name: e for e, _ in await memory.entities(user_id="conv")}
    assert {"Rosa", "Sarah", "Acme", "Tom", "Denver"} <= set(by_name)
    # Rosa -> her sister -> where the sister works, with one query per hop
    first = await memory.relations([by_name["Rosa"].id], user_id="conv")
    sister = [r for r in first if r.relation == "sister"]
    assert [r.target_entity_id for r in sister] == [by_name["Sarah"].id]
    second = await memory.relations([by_name["Sarah"].id], user_id="conv")
    assert by_name["Acme"].id in {
        r.target_entity_id for r in second if r.source_entity_id == by_name["Sarah"].id
    }
    # edges that came from a fact point back at it
    assert all(r.fact_id for r in sister)


async def test_one_statement_about_someone_writes_one_edge(memory: Memory) -> None:
    await memory.write_batch(
        [
            Message(content="Sarah works at Acme.", occurred_at=T0),
            Message(content="Tom lives in Denver.", occurred_at=T0),
        ],
        user_id="u1",
    )
    by_name = {e.name: e for e, _ in await memory.entities(user_id="u1")}
    facts = {f.predicate: f for f in await memory.facts(user_id="u1")}
    edges = await memory.relations([by_name["Sarah"].id, by_name["Tom"].id], user_id="u1")
    # each statement is one fact, and the fact is the one edge between its two names
    assert sorted(
        (r.source_entity_id, r.relation, r.target_entity_id, r.fact_id) for r in edges
    ) == sorted(
        [
            (by_name["Sarah"].id, "employer", by_name["Acme"].id, facts["employer"].id),
            (by_name["Tom"].id, "city", by_name["Denver"].id, facts["city"].id),
        ]
    )
    # said again, the fact is reinforced and still one edge
    await memory.write("Sarah works at Acme.", user_id="u1", occurred_at=T0 + DAY)
    again = await memory.relations([by_name["Sarah"].id], user_id="u1")
    assert [(r.relation, r.target_entity_id) for r in again] == [("employer", by_name["Acme"].id)]


async def test_a_city_corrected_in_its_sentence_is_the_only_one_kept(memory: Memory) -> None:
    await memory.write("I live in Leeds, sorry, I mean Bradford.", user_id="u1", occurred_at=T0)
    facts = await memory.facts(categories=["location"], user_id="u1")
    assert [(f.key, f.value) for f in facts] == [("user:location:city", "Bradford")]


async def test_kids_counted_then_named_are_three_children(memory: Memory) -> None:
    await memory.write("I have three kids: Noah, Ella and Finn.", user_id="u1", occurred_at=T0)
    facts = await memory.facts(categories=["relationship"], user_id="u1")
    assert sorted(f.value for f in facts) == ["Ella", "Finn", "Noah"]
