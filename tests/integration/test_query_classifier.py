"""The LLM query classifier over real HTTP: the OpenAI-compatible client against
FakeChatServer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator

import pytest

from cognimem.errors import ProviderOutputError, ProviderUnavailable
from cognimem.models.knowledge import FactCategory
from cognimem.providers.llm import FakeChatServer, OpenAICompatibleChat
from cognimem.providers.llm.fakes import fixed_classification_responder
from cognimem.recall.analyze import Intent
from cognimem.recall.classify import SCHEMA_NAME, ClassificationOutput, LLMQueryClassifier

QUERY = "Given my situation, can I afford a trip to Japan?"


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


@pytest.fixture
async def chat(server: FakeChatServer) -> AsyncIterator[OpenAICompatibleChat]:
    client = OpenAICompatibleChat(
        "fake-chat", server.base_url, timeout_s=2.0, max_retries=1, backoff_s=0.01
    )
    yield client
    await client.aclose()


async def test_valid_answer(chat: OpenAICompatibleChat, server: FakeChatServer) -> None:
    server.reply(
        json.dumps(
            {"intent": "constraint_check", "categories": ["goal", "state"], "decision": True}
        )
    )

    result = await LLMQueryClassifier(chat).classify(QUERY)

    assert result.intent is Intent.CONSTRAINT_CHECK
    assert result.categories == (FactCategory.GOAL, FactCategory.STATE)
    assert result.decision
    assert (result.source, result.unsure) == ("llm", False)
    assert server.request_count == 1
    body = server.requests[0]["json"]
    assert body["response_format"]["json_schema"] == {
        "name": SCHEMA_NAME,
        "schema": ClassificationOutput.model_json_schema(),
        "strict": False,
    }
    assert json.loads(body["messages"][1]["content"]) == {"query": QUERY}


async def test_invalid_content_is_retried_over_http(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.reply('{"intent": "whenever"}')
    server.reply('{"intent": "temporal"}')

    result = await LLMQueryClassifier(chat).classify("When did I move to Lyon?")

    assert result.intent is Intent.TEMPORAL
    retry = server.requests[1]["json"]["messages"]
    assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
    assert "whenever" in retry[-1]["content"]


async def test_malformed_body_is_an_output_error(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.malformed_next()
    with pytest.raises(ProviderOutputError, match="invalid JSON"):
        await LLMQueryClassifier(chat).classify(QUERY)
    assert server.request_count == 1


async def test_persistent_500_is_unavailable_after_retries(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.fail_next(status=500, body="overloaded", times=10)
    with pytest.raises(ProviderUnavailable, match="HTTP 500"):
        await LLMQueryClassifier(chat).classify(QUERY)
    assert server.request_count == 2  # the client's own retry; the classifier adds none


async def test_fixed_responder_answers_classifications() -> None:
    responder = fixed_classification_responder("preference", categories=["value"])
    with FakeChatServer(responder) as server:
        chat = OpenAICompatibleChat("fake-chat", server.base_url, timeout_s=2.0)
        try:
            result = await LLMQueryClassifier(chat).classify("What food do I like?")
        finally:
            await chat.aclose()
    assert result.intent is Intent.PREFERENCE
    assert result.categories == (FactCategory.VALUE,)
    assert not result.decision
