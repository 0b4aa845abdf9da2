"""The read plan at work, with no LLM unless a test scripts one, on both backends:
intent and dimensions, typed constraint steps, time budgets under an injected slow
source, skip_if_found, sections (mandates, conflicts, needs-validation), explain."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.config import Settings
from cognimem.errors import ProviderUnavailable
from cognimem.models import ContextPacket, Message
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm import ScriptedLLM
from cognimem.providers.llm.fakes import empty_extraction_reply
from cognimem.providers.tokens import count_tokens
from cognimem.store.types import Candidate, ItemFilter

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


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


async def _hang(flt: ItemFilter, terms: Sequence[str], limit: int) -> list[Candidate]:
    """A lexical search that never answers: only a time limit ends the read."""
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


async def _read_cut_by_a_limit(memory_url: str, **limits: float) -> ContextPacket:
    """A read of a stored memory through a memory whose settings set the read's time
    limits (``COGNIMEM_RECALL__STEP_TIMEOUT_S`` / ``__BUDGET_S``), its lexical search
    hanging. The guard only turns a read that never ends into a failure."""
    settings = Settings.model_validate({"recall": limits})
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        await mem.write("My cat is called Miso.", user_id="u", occurred_at=T0)
        mem.store.lexical_search = _hang  # type: ignore[method-assign]
        return await asyncio.wait_for(mem.read("what is my cat called?", user_id="u"), 120)


# the limit the tests cut at: long enough that the other steps finish on a busy machine
CUT_S = 3.0


async def test_a_slow_source_is_cut_at_its_timeout_and_the_others_still_answer(
    memory_url: str,
) -> None:
    packet = await _read_cut_by_a_limit(memory_url, step_timeout_s=CUT_S, budget_s=3600)
    plan = packet.meta["plan"]
    assert plan["budget_s"] == 3600
    assert {s["timeout_s"] for g in plan["groups"] for s in g["steps"]} == {CUT_S}
    steps = {s.name: s for s in packet.steps}
    assert steps["lexical"].timed_out
    assert steps["lexical"].results == 0
    assert steps["lexical"].latency_ms >= CUT_S * 1000 * 0.99  # cut at its limit
    assert "lexical: timed out" in packet.degraded
    assert not steps["vector"].timed_out, packet.steps
    assert [i.text for i in packet.items][:1] == ["My cat is called Miso."]  # vector answered


async def test_the_plan_budget_bounds_the_read_even_with_long_step_timeouts(
    memory_url: str,
) -> None:
    packet = await _read_cut_by_a_limit(memory_url, step_timeout_s=3600, budget_s=CUT_S)
    assert packet.meta["plan"]["budget_s"] == CUT_S
    # cut by the budget, not the step's hour
    assert [s.name for s in packet.steps if s.timed_out] == ["lexical"], packet.steps
    [lexical] = [s for s in packet.steps if s.name == "lexical"]
    assert lexical.latency_ms >= CUT_S * 1000 * 0.99
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
        reference_time=T0 + 730 * DAY,
    )
    [conflict] = packet.sections.conflicts
    assert conflict.key == "user:location:city"
    assert {"I live in Lisbon.", "I live in Porto."} == set(conflict.texts)
    # a preference said once, two half-lives (365 days each) ago: its confidence decayed
    # below 0.35, so it is shown as needing validation, not as known
    assert any("green" in e.text for e in packet.sections.needs_validation)
    assert not any("green" in e.text for e in packet.sections.preferences)
    markdown = packet.to_markdown()
    assert "### Open conflicts" in markdown
    assert "### Needs validation" in markdown


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
