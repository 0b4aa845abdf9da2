"""Utility counting and promotion through ``Memory`` on a real database (SQLite and
PostgreSQL): what a read loaded, what a turn's answer cited and what feedback said are
counted; a promotion pass moves tiers by utility; mandate candidates are proposed and
applied only when an admin accepts one; dry runs change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import InvalidInput, ItemKind, Memory, Settings, Tier
from cognimem.lifecycle.promote import DEMOTE_MIN_LOADS, MANDATE_MIN_USES
from cognimem.providers.fakes import HashingEmbedder

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def mem(memory_url: str) -> AsyncIterator[Memory]:
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), clock=lambda: T0
    ) as m:
        yield m


async def one(mem: Memory, text: str) -> str:
    [item_id] = (await mem.write(text, user_id="u", occurred_at=T0)).item_ids
    return item_id


async def test_a_read_counts_what_it_returned(mem: Memory) -> None:
    cat = await one(mem, "I adopted a cat named Miso.")
    packet = await mem.read("my cat Miso", user_id="u")
    assert cat in [i.id for i in packet.items]
    await mem.read("my cat Miso", user_id="u")
    item = await mem.get(cat)
    # accessed twice; never loaded for an answer, so neither tried nor used
    assert (item.access_count, item.loaded_count, item.cited_count) == (2, 0, 0)
    assert item.last_accessed_at == T0


async def test_a_turn_counts_the_memories_its_answer_cited(mem: Memory) -> None:
    cat = await one(mem, "I adopted a cat named Miso in May.")
    shed = await one(mem, "The garden shed needs a new roof and a lock.")
    turn = await mem.turn(
        "What is my cat called, and what about the garden?",
        "Your cat is Miso, the one you adopted in May.",
        user_id="u",
    )
    shown = [i.id for i in turn.packet.items]
    assert cat in shown
    assert shed in shown
    assert turn.cited == [cat]  # only one was used
    assert (await mem.get(cat)).cited_count == 1
    assert (await mem.get(shed)).cited_count == 0
    assert (await mem.get(shed)).loaded_count == 1
    no_answer = await mem.turn("What is my cat called?", user_id="u")
    assert no_answer.cited == []
    # without an answer nothing shows whether the packet was used: no load, no citation
    assert ((await mem.get(cat)).loaded_count, (await mem.get(cat)).cited_count) == (1, 1)
    assert (await mem.get(cat)).access_count == 2


async def test_feedback_counts_successes_and_failures(mem: Memory) -> None:
    good = await one(mem, "My locker code is 4512.")
    bad = await one(mem, "My locker is number 9.")
    for _ in range(3):
        await mem.update(good, feedback="correct")
    await mem.update(bad, feedback="incorrect")
    assert (await mem.get(good)).success_count == 3
    assert (await mem.get(bad)).failure_count == 1


async def test_promotion_moves_used_items_up_and_unused_ones_down(mem: Memory) -> None:
    used = await one(mem, "My locker code is 4512.")
    ignored = await one(mem, "The lobby has a red carpet.")
    untouched = await one(mem, "The parking lot closes at ten.")
    for _ in range(3):
        await mem.update(used, feedback="correct")
    for _ in range(DEMOTE_MIN_LOADS):  # turns whose answers never used it
        await mem.store.record_usage("default", [ignored], {"loaded_count": 1})

    dry = await mem.promote(user_id="u", dry_run=True)
    moves = {c.item_id: (c.action, c.before, c.after) for c in dry.changes}
    assert moves == {
        used: ("promoted", "medium", "high"),
        ignored: ("demoted", "medium", "low"),
    }
    assert dry.summary() == {"items": 2, "promoted": 1, "demoted": 1, "mandate_candidates": 0}
    assert [(await mem.get(i)).tier for i in (used, ignored)] == [Tier.MEDIUM, Tier.MEDIUM]

    done = await mem.promote(user_id="u")
    assert {c.item_id for c in done.changes} == {used, ignored}
    assert (await mem.get(used)).tier is Tier.HIGH
    assert (await mem.get(ignored)).tier is Tier.LOW
    assert (await mem.get(untouched)).tier is Tier.MEDIUM
    promoted = (await mem.history(used))[-1]
    assert (promoted.action, promoted.actor, promoted.after) == (
        "promoted",
        "promote",
        {"tier": "high", "reason": "used 3 times, utility 0.80"},
    )
    assert (await mem.promote(user_id="u")).changes == []  # settled


async def test_a_high_item_unused_for_long_is_demoted(memory_url: str) -> None:
    now = [T0]
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), clock=lambda: now[0]
    ) as mem:
        item = await one(mem, "The parking lot closes at ten.")
        await mem.update(item, tier="high")
        now[0] = T0 + timedelta(days=89)
        assert (await mem.promote(user_id="u")).changes == []
        now[0] = T0 + timedelta(days=90)
        [change] = (await mem.promote(user_id="u")).changes
        assert (change.item_id, change.after, change.reason) == (
            item,
            "medium",
            "not read since 2024-03-01",
        )


async def test_mandate_candidates_are_proposed_and_applied_only_when_accepted(
    mem: Memory,
) -> None:
    rule = await one(mem, "Always answer in British English.")
    other = await one(mem, "The lobby has a red carpet.")
    await mem.update(rule, tier="high")
    for _ in range(MANDATE_MIN_USES):
        await mem.update(rule, feedback="correct")
    result = await mem.promote(user_id="u")
    [proposed] = result.mandate_candidates
    assert (proposed.item_id, proposed.success_count) == (rule, MANDATE_MIN_USES)
    [listed] = await mem.mandate_candidates(user_id="u")
    assert listed.item_id == rule
    # proposed, never applied by the pass
    assert ((await mem.get(rule)).kind, (await mem.get(rule)).tier) == (ItemKind.EPISODE, Tier.HIGH)
    packet = await mem.read("What is in the lobby?", user_id="u")
    assert not packet.sections.mandates

    with pytest.raises(InvalidInput) as refused:
        await mem.accept_mandate(other)
    assert refused.value.field == "item_id"
    accepted = await mem.accept_mandate(rule)
    assert (accepted.kind, accepted.tier) == (ItemKind.MANDATE, Tier.ALWAYS)
    assert (await mem.history(rule))[-1].action == "mandate_accepted"
    packet = await mem.read("What is in the lobby?", user_id="u")
    assert [m.id for m in packet.sections.mandates] == [rule]
    assert await mem.mandate_candidates(user_id="u") == []


async def test_lifecycle_calls_need_whose_memory_they_run_on(mem: Memory) -> None:
    # promotion runs on one user's memories; decay on one level's (a user, an agent
    # alone, or the organisation said as scope.level), never on "nobody given"
    with pytest.raises(InvalidInput) as no_user:
        await mem.promote()
    assert no_user.value.field == "scope.user_id"
    with pytest.raises(InvalidInput) as no_level:
        await mem.decay()
    assert no_level.value.field == "scope.level"
    with pytest.raises(InvalidInput) as with_agent:
        await mem.mandate_candidates({"user_id": "u", "agent_id": "a"})
    assert with_agent.value.field == "scope.agent_id"
