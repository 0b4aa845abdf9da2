"""The read plan at work, with no LLM unless a test scripts one, on both backends:
intent and dimensions, typed constraint steps, time budgets under an injected slow
source, skip_if_found, sections (mandates, conflicts, needs-validation), explain."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.config import Settings
from cognimem.errors import ProviderUnavailable
from cognimem.models import Message
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm import ScriptedLLM
from cognimem.providers.llm.fakes import empty_extraction_reply
from cognimem.providers.tokens import count_tokens
from cognimem.recall import presets
from cognimem.store.base import Candidate, ItemFilter

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def _with_preset(config: presets.RecallConfig) -> str:
    presets.PRESETS[config.name] = config
    return config.name


async def test_an_old_policy_outranks_yesterdays_chit_chat_for_a_decision(memory: Memory) -> None:
    await memory.write("I never drink alcohol.", user_id="u", occurred_at=T0)
    now = T0 + 90 * DAY
    for text in (
        "Had a nice chat about the weather.",
        "The party last night was loud.",
        "We talked about wine labels for a while.",
    ):
        await memory.write(text, user_id="u", occurred_at=now - DAY)
    packet = await memory.read(
        "Should I order a bottle of wine for the party?", user_id="u", reference_time=now
    )
    assert packet.meta["decision"] is True
    [rule] = packet.sections.must_follow
    assert "alcohol" in rule.text
    markdown = packet.to_markdown()
    assert markdown.index("alcohol") < markdown.index("weather")


async def test_a_goal_query_gets_goals_before_states(memory: Memory) -> None:
    await memory.write("I'm currently between jobs.", user_id="u", occurred_at=T0)
    await memory.write("I want to save money for a house.", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "How can I reach my savings goal faster?", user_id="u", reference_time=T0 + DAY
    )
    assert packet.meta["dimensions"] == ["goal"]
    considered = packet.sections.consider
    assert considered
    assert considered[0].category == "goal"
    assert [c.category for c in considered].index("goal") == 0


async def test_a_slow_source_is_cut_at_its_timeout_and_the_others_still_answer(
    memory: Memory,
) -> None:
    await memory.write("My cat is called Miso.", user_id="u", occurred_at=T0)

    async def slow(flt: ItemFilter, terms: Sequence[str], limit: int) -> list[Candidate]:
        await asyncio.sleep(10)
        return []

    memory.store.lexical_search = slow  # type: ignore[method-assign]
    name = _with_preset(presets.RecallConfig(name="test:slow", step_timeout_s=0.3, budget_s=5))
    try:
        started = time.perf_counter()
        packet = await memory.read("what is my cat called?", user_id="u", preset=name)
        elapsed = time.perf_counter() - started
    finally:
        del presets.PRESETS[name]
    assert elapsed < 1.5
    [lexical] = [s for s in packet.steps if s.name == "lexical"]
    assert lexical.timed_out
    assert lexical.results == 0
    assert "lexical: timed out" in packet.degraded
    assert [i.text for i in packet.items][:1] == ["My cat is called Miso."]  # vector answered


async def test_the_plan_budget_bounds_the_read_even_with_long_step_timeouts(
    memory: Memory,
) -> None:
    await memory.write("My cat is called Miso.", user_id="u", occurred_at=T0)

    async def slow(flt: ItemFilter, terms: Sequence[str], limit: int) -> list[Candidate]:
        await asyncio.sleep(10)
        return []

    memory.store.lexical_search = slow  # type: ignore[method-assign]
    config = presets.RecallConfig(name="test:budget", step_timeout_s=8, budget_s=0.4)
    name = _with_preset(config)
    try:
        started = time.perf_counter()
        packet = await memory.read("what is my cat called?", user_id="u", preset=name)
        elapsed = time.perf_counter() - started
    finally:
        del presets.PRESETS[name]
    assert elapsed < 1.5  # the budget (0.4 s), not the step timeout (8 s)
    assert [s.name for s in packet.steps if s.timed_out] == ["lexical"]
    assert packet.items


async def test_fast_preset_skips_the_vector_step_when_lexical_found_items(
    memory: Memory,
) -> None:
    await memory.write("My cat is called Miso.", user_id="u", occurred_at=T0)
    found = await memory.read("cat Miso", user_id="u", preset="fast")
    [vector] = [s for s in found.steps if s.name == "vector"]
    assert vector.skipped == "an earlier group found items"
    assert vector.group == 1
    assert vector.results == 0
    nothing = await memory.read("feline name", user_id="u", preset="fast")
    [vector] = [s for s in nothing.steps if s.name == "vector"]
    assert vector.skipped is None
    assert vector.results >= 1


async def test_mandates_are_always_in_the_packet_first(memory: Memory) -> None:
    await memory.write(
        "Always answer in British English.", user_id="u", occurred_at=T0, profile="mandate"
    )
    for i in range(5):
        await memory.write(f"I visited museum number {i}.", user_id="u", occurred_at=T0)
    packet = await memory.read("which museums did I visit?", user_id="u", max_tokens=200)
    assert [m.text for m in packet.sections.mandates] == ["Always answer in British English."]
    markdown = packet.to_markdown()
    assert markdown.index("British English") < markdown.index("museum")
    assert markdown.count("British English") == 1  # not repeated among the memories
    assert packet.token_count == count_tokens(markdown)


async def test_open_conflicts_and_unconfirmed_facts_have_their_sections(memory: Memory) -> None:
    # the same instant, two different cities: an ask-the-user conflict
    await memory.write_batch(
        [
            Message(content="I live in Lisbon.", occurred_at=T0),
            Message(content="I live in Porto.", occurred_at=T0),
        ],
        user_id="u",
    )
    await memory.write("My favourite colour is green.", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "Where do I live, and what is my favourite colour?",
        user_id="u",
        reference_time=T0 + 400 * DAY,
    )
    [conflict] = packet.sections.conflicts
    assert conflict.key == "user:location:city"
    assert {"I live in Lisbon.", "I live in Porto."} == set(conflict.texts)
    # said once, more than 180 days ago: shown, flagged as needing validation
    assert any("green" in e.text for e in packet.sections.needs_validation)
    markdown = packet.to_markdown()
    assert "### Open conflicts" in markdown
    assert "### Unconfirmed" in markdown


async def test_explain_gives_every_signal_and_the_step_for_returned_and_dropped(
    memory: Memory,
) -> None:
    await memory.write("I'm deathly allergic to peanuts.", user_id="u", occurred_at=T0)
    for i in range(12):
        await memory.write(f"Note {i} about the garden shed.", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "Can you recommend a Thai restaurant near the garden?", user_id="u", limit=3, explain=True
    )
    assert packet.explain is not None
    items = [e for e in packet.explain if e.type == "item"]
    returned = [e for e in items if e.outcome == "returned"]
    assert {e.id for e in returned} == {i.id for i in packet.items}
    assert any(e.outcome.startswith("dropped") for e in items)
    for e in items:
        assert {"relevance", "recency", "importance", "utility", "confidence"} <= set(e.signals)
        assert e.steps
        assert set(e.steps) <= {"lexical", "vector", "graph", "fact_lookup"}
    [allergy] = [e for e in packet.explain if e.type == "fact"]
    assert allergy.outcome == "section:must_follow"
    assert allergy.steps == ["constraints"]
    assert allergy.signals["tags"] == 1.0
    plain = await memory.read("garden", user_id="u")
    assert plain.explain is None


async def test_an_unsure_query_asks_the_llm_and_a_failing_llm_leaves_the_rules(
    memory_url: str,
) -> None:
    llm = ScriptedLLM(responder=empty_extraction_reply)
    settings = Settings()
    async with Memory.open(
        memory_url, settings=settings, embedder=HashingEmbedder(), llm=llm
    ) as mem:
        await mem.write_batch(["hello there"], user_id="u")  # the extractor's call
        calls = llm.call_count
        llm.reply('{"intent": "decision", "categories": ["goal"], "decision": true}')
        packet = await mem.read("thoughts on the new flat", user_id="u")
        assert packet.meta["intent"] == "decision"
        assert packet.meta["intent_source"] == "llm"
        assert packet.meta["dimensions"] == ["goal"]
        # a rule-typed query never reaches the LLM
        await mem.read("when did I move?", user_id="u")
        assert llm.call_count == calls + 1
        llm.fail_next(ProviderUnavailable("down", provider="llm", model="scripted"))
        packet = await mem.read("thoughts on the new flat", user_id="u")
        assert packet.meta["intent"] == "general"
        assert packet.meta["intent_source"] == "rules"
        assert any(d.startswith("classify:") for d in packet.degraded)
