"""Implication tags at write time, on both backends: each stated constraint records the
decision areas it bears on (``text/areas.py``) — without an LLM from its words, the
embedder and the turns around it; with the fake LLM from the extraction call, which also
says in one line what later requests the constraint should change (schema-validated,
retried once, the write ``degraded`` when both answers are invalid)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from cognimem import Memory, Settings
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, Fact
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm.fakes import ScriptedLLM

T0 = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
ASKED = "Want me to sign you up for yoga again on Saturday morning?"
DECLINED = "I'd rather not do that again."


def batch(*contents: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"role": role, "content": text, "occurred_at": T0} for role, text in contents]


async def constraints(memory: Memory) -> list[Fact]:
    return [f for f in await memory.facts(user_id="u1") if f.category in CONSTRAINT_CATEGORIES]


async def test_a_constraint_naming_no_area_takes_the_areas_of_the_turns_around_it(
    memory_url: str,
) -> None:
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        await mem.write_batch(batch(("assistant", ASKED), ("user", DECLINED)), user_id="u1")
        [declined] = await constraints(mem)
    assert declined.value == "do that"
    # fitness and morning are the question's: health, leisure and schedule
    assert {"area:health", "area:leisure", "area:schedule"} <= set(declined.scope_tags)


def llm_answer(*areas: str) -> str:
    fact = {
        "category": "policy",
        "predicate": "food",
        "value": "red meat",
        "polarity": False,
        "multi_valued": True,
        "areas": list(areas),
        "implication": "restaurant picks, dinner menus and grocery lists",
        "evidence": "I gave up red meat last year.",
        "confidence": 0.9,
    }
    return json.dumps({"messages": [{"index": 0, "extraction": {"facts": [fact]}}]})


async def test_the_llm_answers_the_areas_and_what_later_requests_it_changes(
    memory_url: str,
) -> None:
    llm = ScriptedLLM(llm_answer("food", "health"))
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=llm
    ) as mem:
        result = await mem.write_batch(
            batch(("user", "I gave up red meat last year.")), user_id="u1"
        )
        [fact] = await constraints(mem)
    assert result.degraded == []
    assert result.knowledge.extractor == "llm"
    assert llm.call_count == 1
    assert llm.calls[0].json_schema is not None
    assert "areas" in json.dumps(llm.calls[0].json_schema)
    assert {"area:food", "area:health"} <= set(fact.scope_tags)
    assert fact.text == (
        "I gave up red meat last year. (bears on: restaurant picks, dinner menus and grocery lists)"
    )


async def test_an_area_outside_the_taxonomy_is_retried_once_then_the_write_degrades(
    memory_url: str,
) -> None:
    llm = ScriptedLLM(llm_answer("cooking"), llm_answer("cuisine"))
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=llm
    ) as mem:
        result = await mem.write_batch(
            batch(("assistant", ASKED), ("user", DECLINED)), user_id="u1"
        )
        [declined] = await constraints(mem)
    assert llm.call_count == 2  # the invalid answer, and the one retry
    assert "cooking" in llm.calls[1].messages[-1].content  # the error is sent back
    assert result.knowledge.extractor == "rules"
    assert result.degraded
    assert "llm extraction failed" in result.degraded[0]
    # the rules' areas
    assert {"area:health", "area:leisure", "area:schedule"} <= set(declined.scope_tags)
