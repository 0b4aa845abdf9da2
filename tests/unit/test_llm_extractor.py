"""The LLM extractor against the in-process ScriptedLLM: parsing, batching, one retry."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from cognimem.errors import ProviderOutputError, ProviderUnavailable
from cognimem.ingest.extract.llm import ExtractionBatch, LLMExtractor, extraction_prompt
from cognimem.models.extraction import ExtractionInput
from cognimem.models.knowledge import FactCategory
from cognimem.providers.llm.fakes import ScriptedLLM, empty_extraction_reply

T0 = datetime(2024, 5, 3, 10, 0, tzinfo=UTC)


def inputs(*texts: str) -> list[ExtractionInput]:
    return [ExtractionInput(text=text, occurred_at=T0, author="Ann", role="user") for text in texts]


def answer(*extractions: dict[str, Any], reverse: bool = False) -> str:
    entries = [{"index": i, "extraction": e} for i, e in enumerate(extractions)]
    if reverse:
        entries.reverse()
    return json.dumps({"messages": entries})


ALLERGY = {
    "facts": [
        {
            "category": "policy",
            "predicate": "allergy",
            "value": "peanuts",
            "multi_valued": True,
            "scope_tags": ["Food", "allergy", "allergy", "made-up"],
            "confidence": 0.9,
        }
    ]
}
CITY = {
    "facts": [
        {
            "category": "location",
            "predicate": "city",
            "value": "Lyon",
            "valid_from": "2024-05-02T00:00:00",
        }
    ],
    "event_time": "2024-05-02",
}


async def test_valid_answer_is_parsed_in_message_order() -> None:
    llm = ScriptedLLM(answer(ALLERGY, {}, CITY, reverse=True))
    results = await LLMExtractor(llm).extract(
        inputs("I'm allergic to peanuts", "hi there", "I moved to Lyon yesterday")
    )

    assert [len(r.facts) for r in results] == [1, 0, 1]
    allergy = results[0].facts[0]
    assert (allergy.category, allergy.predicate, allergy.value) == (
        FactCategory.POLICY,
        "allergy",
        "peanuts",
    )
    assert allergy.multi_valued
    assert allergy.subject == "user"
    assert allergy.scope_tags == ["food", "allergy"]  # normalised, unknown tags dropped
    city = results[2].facts[0]
    assert city.valid_from == datetime(2024, 5, 2, tzinfo=UTC)  # naive taken as UTC
    assert results[2].event_time == datetime(2024, 5, 2, tzinfo=UTC)


async def test_one_call_sends_the_schema_and_every_message() -> None:
    llm = ScriptedLLM(answer({}, {}))
    await LLMExtractor(llm).extract(inputs("first message", "second message"))

    assert llm.call_count == 1
    call = llm.calls[0]
    assert call.json_schema == ExtractionBatch.model_json_schema()
    assert [m.role for m in call.messages] == ["system", "user"]
    sent = json.loads(call.messages[1].content)["messages"]
    assert [(m["index"], m["text"], m["author"]) for m in sent] == [
        (0, "first message", "Ann"),
        (1, "second message", "Ann"),
    ]
    assert sent[0]["time"] == "2024-05-03T10:00:00+00:00"


def test_prompt_states_the_shared_conventions() -> None:
    system = extraction_prompt(inputs("x"))[0].content
    for convention in ('"user"', "allergy", "diet", "cuisine", "holds=false", "polarity=false"):
        assert convention in system
    assert "environment" in system  # the last scope tag of the vocabulary


async def test_batches_beyond_max_batch_are_split_into_calls() -> None:
    llm = ScriptedLLM(responder=empty_extraction_reply)
    messages = inputs(*(f"message {i}" for i in range(5)))

    results = await LLMExtractor(llm, max_batch=2).extract(messages)

    assert len(results) == 5
    sizes = [len(json.loads(c.messages[1].content)["messages"]) for c in llm.calls]
    assert sizes == [2, 2, 1]


async def test_default_batch_of_twenty_is_one_call() -> None:
    llm = ScriptedLLM(responder=empty_extraction_reply)
    results = await LLMExtractor(llm).extract(inputs(*(f"m{i}" for i in range(20))))
    assert len(results) == 20
    assert llm.call_count == 1


async def test_no_messages_no_call() -> None:
    llm = ScriptedLLM()
    assert await LLMExtractor(llm).extract([]) == []
    assert llm.call_count == 0


async def test_malformed_json_is_retried_once_with_the_error() -> None:
    llm = ScriptedLLM('{"messages": [', answer(ALLERGY))
    results = await LLMExtractor(llm).extract(inputs("I'm allergic to peanuts"))

    assert results[0].facts[0].value == "peanuts"
    assert llm.call_count == 2
    retry = llm.calls[1].messages
    assert [m.role for m in retry] == ["system", "user", "assistant", "user"]
    assert retry[2].content == '{"messages": ['
    assert "invalid" in retry[3].content
    assert "json" in retry[3].content.lower()


async def test_markdown_fenced_json_needs_no_retry() -> None:
    llm = ScriptedLLM("```json\n" + answer(ALLERGY) + "\n```")
    results = await LLMExtractor(llm).extract(inputs("I'm allergic to peanuts"))
    assert results[0].facts[0].predicate == "allergy"
    assert llm.call_count == 1


async def test_two_invalid_answers_raise_provider_output_error() -> None:
    llm = ScriptedLLM("not json at all", "still not json")
    with pytest.raises(ProviderOutputError) as info:
        await LLMExtractor(llm).extract(inputs("hello"))

    assert llm.call_count == 2
    assert "json" in info.value.details["validation_error"].lower()
    assert info.value.details["model"] == "scripted:scripted"


async def test_schema_violation_is_retried() -> None:
    bad = answer({"facts": [{"category": "banana", "predicate": "x", "value": "y"}]})
    worse = answer({"facts": [{"category": "identity", "predicate": "name", "value": "Ann"}]})
    worse = worse.replace('"value": "Ann"', '"value": "Ann", "confidence": 3')
    llm = ScriptedLLM(bad, worse)

    with pytest.raises(ProviderOutputError) as info:
        await LLMExtractor(llm).extract(inputs("I'm Ann"))

    correction = llm.calls[1].messages[-1].content
    assert "category" in correction
    assert "banana" in correction
    assert "confidence" in info.value.details["validation_error"]
    assert "category" in info.value.details["first_validation_error"]


async def test_unknown_field_is_a_schema_violation() -> None:
    llm = ScriptedLLM(answer({"mood": "happy"}), answer({}))
    results = await LLMExtractor(llm).extract(inputs("yay"))
    assert results[0].facts == []
    assert "mood" in llm.calls[1].messages[-1].content


@pytest.mark.parametrize(
    ("bad", "complaint"),
    [
        (answer({}), "missing indexes [1]"),
        (answer({}, {}, {}), "unknown indexes [2]"),
        (json.dumps({"messages": [{"index": 0, "extraction": {}}] * 2}), "missing indexes [1]"),
    ],
)
async def test_wrong_message_count_is_retried(bad: str, complaint: str) -> None:
    llm = ScriptedLLM(bad, answer({}, CITY))
    results = await LLMExtractor(llm).extract(inputs("hi", "I moved to Lyon"))

    assert results[1].facts[0].value == "Lyon"
    assert complaint in llm.calls[1].messages[-1].content


async def test_provider_unavailable_propagates_without_retry() -> None:
    down = ProviderUnavailable("endpoint down", provider="openai-chat", model="m")
    llm = ScriptedLLM(down, answer({}))

    with pytest.raises(ProviderUnavailable) as info:
        await LLMExtractor(llm).extract(inputs("hello"))

    assert info.value is down
    assert llm.call_count == 1


async def test_provider_unavailable_on_the_retry_propagates() -> None:
    down = ProviderUnavailable("endpoint down", provider="openai-chat", model="m")
    llm = ScriptedLLM("nope", down)
    with pytest.raises(ProviderUnavailable):
        await LLMExtractor(llm).extract(inputs("hello"))
