"""Revision (reconsolidation) through ``Memory`` on a real database (SQLite and
PostgreSQL): after a turn, what the read retrieved is checked against the user's
message — confirmed facts are reinforced, contradicted ones superseded, ended or put in
conflict, corrected ones invalidated — and ``Memory.revise`` does the same over a
user's recent turns, with a dry run that changes nothing."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import InvalidInput, ItemStatus, Memory, Message, ProviderUnavailable, Settings
from cognimem.models.knowledge import ConflictStatus, ConflictStrategy, Fact, FactStatus
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm.base import ChatMessage
from cognimem.providers.llm.fakes import ScriptedLLM

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
ASYNC = Settings.model_validate({"ingest": {"mode": "async"}})
# reads do not ask the LLM to classify queries: the LLM tests script revision calls only
NO_CLASSIFIER = Settings.model_validate({"recall": {"llm_classifier": False}})


async def said(memory: Memory, text: str, at: datetime, user: str = "u") -> None:
    await memory.write(Message(content=text, occurred_at=at), user_id=user)


async def fact(memory: Memory, key: str, value: str, user: str = "u") -> Fact:
    """The one fact under ``key`` saying ``value`` (positively), whatever its status."""
    found = [
        f
        for f in await memory.facts(key=key, include_history=True, user_id=user)
        if f.value == value and f.polarity
    ]
    assert len(found) == 1, found
    return found[0]


async def test_an_affirmation_reinforces_what_the_turn_retrieved(memory: Memory) -> None:
    await said(memory, "I'm vegetarian.", T0)
    before = await fact(memory, "user:value:diet", "vegetarian")
    turn = await memory.turn(
        Message(content="Yes, still vegetarian.", occurred_at=T0 + timedelta(days=30)),
        user_id="u",
    )
    assert before.id in [e.id for e in turn.packet.sections.entries()]
    assert turn.revision.reinforced == [before.id]
    assert turn.stored.knowledge.facts_reinforced == []  # the write path saw no statement
    after = await fact(memory, "user:value:diet", "vegetarian")
    assert after.reinforcement_count == 2
    assert after.confidence > before.confidence
    assert after.last_validated_at == T0 + timedelta(days=30)
    assert turn.stored.event_ids[0] in after.evidence_event_ids
    history = await memory.history(before.id)
    assert [(h.action, h.actor) for h in history][-1] == ("reinforced", "revision")


async def test_a_restatement_is_reinforced_once(memory: Memory) -> None:
    """The write path reinforces a restated fact; revision reports it and does not
    count it a second time."""
    await said(memory, "I live in Berlin.", T0)
    berlin = await fact(memory, "user:location:city", "Berlin")
    turn = await memory.turn(
        Message(content="Right, I live in Berlin.", occurred_at=T0 + timedelta(days=3)),
        user_id="u",
    )
    assert turn.revision.reinforced == [berlin.id]
    assert (await fact(memory, "user:location:city", "Berlin")).reinforcement_count == 2


async def test_a_contradiction_supersedes_what_the_turn_retrieved(memory: Memory) -> None:
    await said(memory, "I live in Berlin.", T0)
    berlin = await fact(memory, "user:location:city", "Berlin")
    turn = await memory.turn(
        Message(content="I live in Munich now.", occurred_at=T0 + timedelta(days=10)),
        user_id="u",
    )
    assert berlin.id in [e.id for e in turn.packet.sections.entries()]
    assert turn.revision.superseded == [berlin.id]
    assert turn.revision.invalidated == []
    old = await fact(memory, "user:location:city", "Berlin")
    new = await fact(memory, "user:location:city", "Munich")
    assert old.status is FactStatus.SUPERSEDED
    assert old.superseded_by == new.id
    assert old.valid_to == T0 + timedelta(days=10)  # a time slice: it held until then


async def test_no_longer_ends_what_the_turn_retrieved(memory: Memory) -> None:
    await said(memory, "I live in Berlin.", T0)
    berlin = await fact(memory, "user:location:city", "Berlin")
    turn = await memory.turn(
        Message(content="I don't live in Berlin anymore.", occurred_at=T0 + timedelta(days=5)),
        user_id="u",
    )
    assert turn.revision.superseded == [berlin.id]
    ended = await fact(memory, "user:location:city", "Berlin")
    assert ended.status is FactStatus.SUPERSEDED
    assert ended.valid_to == T0 + timedelta(days=5)


async def test_a_contradiction_said_at_the_same_instant_opens_a_conflict(
    memory: Memory,
) -> None:
    await said(memory, "I live in Berlin.", T0)
    berlin = await fact(memory, "user:location:city", "Berlin")
    turn = await memory.turn(Message(content="I live in Hamburg.", occurred_at=T0), user_id="u")
    assert berlin.id in [e.id for e in turn.packet.sections.entries()]
    assert len(turn.revision.conflicts_opened) == 1
    conflicts = await memory.conflicts(user_id="u")
    assert [c.id for c in conflicts] == turn.revision.conflicts_opened
    assert conflicts[0].strategy is ConflictStrategy.ASK_USER
    assert conflicts[0].status is ConflictStatus.OPEN
    assert berlin.id in conflicts[0].fact_ids
    assert (await fact(memory, "user:location:city", "Berlin")).status is FactStatus.ACTIVE


async def test_a_correction_invalidates_what_the_turn_retrieved(memory: Memory) -> None:
    await said(memory, "I'm vegetarian.", T0)
    veg = await fact(memory, "user:value:diet", "vegetarian")
    turn = await memory.turn(
        Message(
            content="No, that's wrong, I'm not vegetarian.",
            occurred_at=T0 + timedelta(days=2),
        ),
        user_id="u",
    )
    assert turn.revision.invalidated == [veg.id]
    assert turn.revision.superseded == []  # never held: not a time slice
    wrong = await fact(memory, "user:value:diet", "vegetarian")
    assert wrong.status is FactStatus.INVALIDATED
    # the constraint's episode no longer surfaces as a live memory
    for item_id in veg.evidence_item_ids:
        assert (await memory.get(item_id)).status is ItemStatus.SILENT
    history = await memory.history(veg.id)
    assert history[-1].action == "invalidated"
    assert history[-1].actor == "revision"
    packet = await memory.read("what is my diet", user_id="u")
    assert veg.id not in [e.id for e in packet.sections.entries()]


async def test_a_question_naming_a_fact_revises_nothing(memory: Memory) -> None:
    await said(memory, "I'm vegetarian.", T0)
    veg = await fact(memory, "user:value:diet", "vegetarian")
    turn = await memory.turn(
        Message(content="Yes, and is vegetarian food cheap?", occurred_at=T0 + timedelta(1)),
        user_id="u",
    )
    assert turn.revision.is_empty()
    assert (await fact(memory, "user:value:diet", "vegetarian")).revision == veg.revision


async def test_concurrent_turns_confirming_one_fact_lose_no_update(
    memory: Memory, memory_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight turns in two Memory instances affirm one fact at once. Each revision's
    commit (``add_items`` with no items) first waits until all eight have decided, so
    all decide from the same state: seven commits are stale and must decide again."""
    await said(memory, "I'm vegetarian.", T0)
    veg = await fact(memory, "user:value:diet", "vegetarian")
    other = Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder())
    await other.start()
    n = 8
    barrier = asyncio.Barrier(n)
    held = 0
    for mem in (memory, other):
        commit = mem.store.add_items

        async def add_items(attached, _commit=commit):  # type: ignore[no-untyped-def]
            nonlocal held
            if not attached.items and held < n:  # a revision's first commit
                held += 1
                await barrier.wait()
            return await _commit(attached)

        monkeypatch.setattr(mem.store, "add_items", add_items)
    try:
        turns = await asyncio.gather(
            *(
                (memory if i % 2 else other).turn(
                    Message(content="Yes, still vegetarian.", occurred_at=T0 + timedelta(days=i)),
                    user_id="u",
                )
                for i in range(1, n + 1)
            )
        )
    finally:
        await other.aclose()
    assert held == n
    assert all(t.revision.reinforced == [veg.id] for t in turns)
    after = await fact(memory, "user:value:diet", "vegetarian")
    assert after.reinforcement_count == 1 + n
    assert after.revision == veg.revision + n
    assert after.last_validated_at == T0 + timedelta(days=n)
    reinforced = [h for h in await memory.history(veg.id) if h.action == "reinforced"]
    assert len(reinforced) == n


async def test_revise_over_recent_turns_with_a_dry_run_that_changes_nothing(
    memory: Memory,
) -> None:
    await said(memory, "I'm vegetarian.", T0)
    await said(memory, "I live in Berlin.", T0)
    veg = await fact(memory, "user:value:diet", "vegetarian")
    berlin = await fact(memory, "user:location:city", "Berlin")
    # written, not turned: nothing revised them yet
    await said(memory, "Yes, still vegetarian.", T0 + timedelta(days=1))
    await said(memory, "That's not true, I never lived in Berlin.", T0 + timedelta(days=2))
    history = {f: await memory.history(f) for f in (veg.id, berlin.id)}
    seen: list[float] = []

    dry = await memory.revise(user_id="u", since=T0, dry_run=True, progress=seen.append)
    assert dry.dry_run
    assert dry.reinforced == [veg.id]
    assert dry.invalidated == [berlin.id]
    assert dry.turns == 4
    assert dry.summary() == {"turns": 4, "reinforced": 1, "invalidated": 1, "items_silenced": 0}
    assert seen[-1] == 1.0
    assert seen == sorted(seen)
    assert await fact(memory, "user:value:diet", "vegetarian") == veg
    assert await fact(memory, "user:location:city", "Berlin") == berlin
    assert {f: await memory.history(f) for f in (veg.id, berlin.id)} == history

    # the lifecycle operation "revise" is the same call (default: the last day's turns,
    # none here: they were said at T0)
    assert "revise" in memory.lifecycle_operations
    run = await memory.run_lifecycle("revise", user_id="u", dry_run=True)
    assert run.dry_run
    assert run.job is None
    assert run.summary == {"turns": 0, "reinforced": 0, "invalidated": 0, "items_silenced": 0}

    done = await memory.revise(user_id="u", since=T0)
    assert (done.reinforced, done.invalidated) == (dry.reinforced, dry.invalidated)
    assert not done.dry_run
    assert (await fact(memory, "user:value:diet", "vegetarian")).reinforcement_count == 2
    assert (await fact(memory, "user:location:city", "Berlin")).status is FactStatus.INVALIDATED

    again = await memory.revise(user_id="u", since=T0)  # idempotent
    assert (again.reinforced, again.invalidated) == ([], [])
    assert (await fact(memory, "user:value:diet", "vegetarian")).reinforcement_count == 2


async def test_revise_needs_one_user(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as err:
        await memory.revise(scope={"all_users": True})
    assert err.value.field == "scope.user_id"
    with pytest.raises(InvalidInput) as err:
        await memory.revise()
    assert err.value.field == "scope.user_id"


async def test_an_async_turn_revises_affirmations_at_once(db_url: str) -> None:
    """With async ingestion (the embedded queue) the write's reconciliation runs in the
    worker; an affirmation needs no extraction of the new message and is revised by the
    turn itself."""
    async with Memory.open(db_url, settings=ASYNC, embedder=HashingEmbedder()) as mem:
        await mem.write_batch([Message(content="I'm vegetarian.", occurred_at=T0)], user_id="u")
        assert await mem.process_next_job("w") is not None
        veg = await fact(mem, "user:value:diet", "vegetarian")
        turn = await mem.turn(
            Message(content="Yes, still vegetarian.", occurred_at=T0 + timedelta(days=1)),
            user_id="u",
        )
        assert turn.stored.mode == "async"
        assert turn.revision.reinforced == [veg.id]
        assert (await fact(mem, "user:value:diet", "vegetarian")).reinforcement_count == 2


def no_meat_confirms(messages: list[ChatMessage]) -> str:
    """An LLM judging revision requests: a message about eating no meat confirms every
    fact it is asked about; anything else is unrelated."""
    asked = json.loads(messages[-1].content)
    verdict = "confirmed" if "no meat" in asked["message"] else "unrelated"
    return json.dumps({"verdicts": [{"n": f["n"], "verdict": verdict} for f in asked["facts"]]})


async def test_revise_asks_a_configured_llm_what_the_rules_cannot_tell(memory_url: str) -> None:
    async with Memory.open(memory_url, embedder=HashingEmbedder()) as plain:
        await said(plain, "I'm vegetarian.", T0)
        await said(plain, "Still no meat for me when we eat out tonight.", T0 + timedelta(1))
        veg = await fact(plain, "user:value:diet", "vegetarian")
        assert (await plain.revise(user_id="u", since=T0)).reinforced == []  # rules: nothing
    llm = ScriptedLLM(responder=no_meat_confirms)
    async with Memory.open(
        memory_url, settings=NO_CLASSIFIER, embedder=HashingEmbedder(), llm=llm
    ) as mem:
        assert (await mem.revise(user_id="u", since=T0, use_llm=False)).reinforced == []
        assert llm.call_count == 0  # use_llm=False: the rules alone
        done = await mem.revise(user_id="u", since=T0)
        assert done.reinforced == [veg.id]
        assert done.degraded == []
        assert llm.call_count >= 1
        assert (await fact(mem, "user:value:diet", "vegetarian")).reinforcement_count == 2


async def test_a_failing_llm_leaves_the_rules_verdicts_and_says_so(memory_url: str) -> None:
    async with Memory.open(memory_url, embedder=HashingEmbedder()) as plain:
        await said(plain, "I'm vegetarian.", T0)
        await said(plain, "Still no meat for me when we eat out tonight.", T0 + timedelta(1))
        await said(plain, "Yes, still vegetarian.", T0 + timedelta(2))
        veg = await fact(plain, "user:value:diet", "vegetarian")
    llm = ScriptedLLM(ProviderUnavailable("down", provider="scripted", model="m"))
    async with Memory.open(
        memory_url, settings=NO_CLASSIFIER, embedder=HashingEmbedder(), llm=llm
    ) as mem:
        done = await mem.revise(user_id="u", since=T0)
        assert len(done.degraded) == 1
        assert "llm revision failed" in done.degraded[0]
        assert done.reinforced == [veg.id]  # the rules' affirmation still counts
        assert (await fact(mem, "user:value:diet", "vegetarian")).reinforcement_count == 2
