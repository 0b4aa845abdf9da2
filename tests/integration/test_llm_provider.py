"""The OpenAI-compatible chat client over real HTTP against FakeChatServer."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime

import pytest
from pydantic import SecretStr

from cognimem.config import LLMSettings
from cognimem.errors import ProviderOutputError, ProviderUnavailable, UsageError
from cognimem.ingest.extract.llm import ExtractionBatch, LLMExtractor
from cognimem.models.extraction import ExtractionInput
from cognimem.providers.llm import (
    ChatLLM,
    ChatMessage,
    FakeChatServer,
    OpenAICompatibleChat,
    build_llm,
)

HELLO = [ChatMessage(role="user", content="hello")]
SCHEMA = {"type": "object", "properties": {"greeting": {"type": "string"}}}


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer() as srv:
        yield srv


@pytest.fixture
async def chat(server: FakeChatServer) -> AsyncIterator[OpenAICompatibleChat]:
    client = OpenAICompatibleChat(
        "fake-chat",
        server.base_url,
        api_key="sekret",
        timeout_s=2.0,
        max_retries=2,
        temperature=0.2,
        max_output_tokens=321,
        backoff_s=0.01,
    )
    yield client
    await client.aclose()


async def test_valid_answer_and_request_shape(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.reply('{"greeting": "hi"}')

    content = await chat.complete(HELLO, json_schema=SCHEMA, schema_name="greet")

    assert content == '{"greeting": "hi"}'
    assert chat.model_id == "openai:fake-chat"
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["authorization"] == "Bearer sekret"
    body = request["json"]
    assert body["model"] == "fake-chat"
    assert body["messages"] == [{"role": "user", "content": "hello"}]
    assert body["temperature"] == 0.2
    assert body["max_tokens"] == 321
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "greet", "schema": SCHEMA, "strict": False},
    }


async def test_no_schema_no_response_format(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.reply("plain words")
    assert await chat.complete(HELLO) == "plain words"
    assert "response_format" not in server.requests[0]["json"]


async def test_500_is_retried_then_succeeds(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.fail_next(status=500)
    server.reply("recovered")
    assert await chat.complete(HELLO) == "recovered"
    assert server.request_count == 2


async def test_429_honours_retry_after(chat: OpenAICompatibleChat, server: FakeChatServer) -> None:
    server.fail_next(status=429, retry_after=0.3)
    server.reply("after the wait")

    started = time.monotonic()
    assert await chat.complete(HELLO) == "after the wait"

    assert time.monotonic() - started >= 0.29  # backoff_s alone would wait 0.01 s
    assert server.request_count == 2


async def test_slow_answer_times_out_after_retries(server: FakeChatServer) -> None:
    server.delay_next(2.0, times=3)
    chat = OpenAICompatibleChat(
        "fake-chat", server.base_url, timeout_s=0.2, max_retries=2, backoff_s=0.01
    )
    try:
        with pytest.raises(ProviderUnavailable) as info:
            await chat.complete(HELLO)
    finally:
        await chat.aclose()
    assert "timed out" in str(info.value)
    assert info.value.provider == "openai-chat"
    assert info.value.model == "fake-chat"
    assert server.request_count == 3


async def test_malformed_body_is_an_output_error_without_retry(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.malformed_next()
    with pytest.raises(ProviderOutputError, match="invalid JSON"):
        await chat.complete(HELLO)
    assert server.request_count == 1


async def test_missing_content_is_an_output_error(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.payload_next({"choices": []})
    with pytest.raises(ProviderOutputError, match=r"choices\[0\]\.message\.content"):
        await chat.complete(HELLO)


async def test_answer_cut_off_by_max_tokens_is_an_output_error(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.reply('{"greet', finish_reason="length")
    with pytest.raises(ProviderOutputError, match="max_output_tokens=321"):
        await chat.complete(HELLO, json_schema=SCHEMA)


async def test_persistent_500_is_unavailable(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.fail_next(status=500, body="overloaded", times=10)
    with pytest.raises(ProviderUnavailable, match="HTTP 500") as info:
        await chat.complete(HELLO)
    assert "3 attempt(s)" in str(info.value)
    assert server.request_count == 3


async def test_client_error_is_unavailable_without_retry(
    chat: OpenAICompatibleChat, server: FakeChatServer
) -> None:
    server.fail_next(status=401, body='{"error": "bad key"}')
    with pytest.raises(ProviderUnavailable, match="API_KEY") as info:
        await chat.complete(HELLO)
    assert info.value.details["status"] == 401
    assert server.request_count == 1


async def test_refused_connection_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    chat = OpenAICompatibleChat(
        "m", f"http://127.0.0.1:{port}/v1", timeout_s=1.0, max_retries=1, backoff_s=0.01
    )
    try:
        with pytest.raises(ProviderUnavailable, match="connection failed"):
            await chat.complete(HELLO)
    finally:
        await chat.aclose()


async def test_build_llm_from_settings(server: FakeChatServer) -> None:
    settings = LLMSettings(
        model="openai:fake-chat", base_url=server.base_url, api_key=SecretStr("from-settings")
    )
    llm = build_llm(settings)
    assert isinstance(llm, ChatLLM)
    try:
        server.reply("ok")
        assert await llm.complete(HELLO) == "ok"
    finally:
        await llm.aclose()
    assert server.requests[0]["json"]["model"] == "fake-chat"
    assert server.requests[0]["headers"]["authorization"] == "Bearer from-settings"


def test_build_llm_model_strings() -> None:
    assert build_llm(LLMSettings()) is None
    url = "http://127.0.0.1:9/v1"
    bare = build_llm(LLMSettings(model="llama3.1:8b", base_url=url))
    assert bare is not None
    assert bare.model_id == "openai:llama3.1:8b"
    with pytest.raises(UsageError, match="COGNIMEM_LLM__BASE_URL"):
        build_llm(LLMSettings(model="openai:gpt-4o-mini"))
    with pytest.raises(UsageError, match="names no model"):
        build_llm(LLMSettings(model="openai:", base_url=url))


async def test_extractor_end_to_end_retries_a_schema_violation(server: FakeChatServer) -> None:
    server.reply(json.dumps({"messages": [{"index": 0, "extraction": {"facts": [{}]}}]}))
    server.reply(
        json.dumps(
            {
                "messages": [
                    {
                        "index": 0,
                        "extraction": {
                            "facts": [{"category": "value", "predicate": "diet", "value": "vegan"}]
                        },
                    },
                    {"index": 1, "extraction": {}},
                ]
            }
        )
    )
    chat = OpenAICompatibleChat("fake-chat", server.base_url, timeout_s=2.0, backoff_s=0.01)
    messages = [
        ExtractionInput(text="I'm vegan", occurred_at=datetime(2024, 5, 3, tzinfo=UTC)),
        ExtractionInput(text="thanks!", occurred_at=datetime(2024, 5, 3, tzinfo=UTC)),
    ]
    try:
        results = await LLMExtractor(chat).extract(messages)
    finally:
        await chat.aclose()

    assert [f.value for f in results[0].facts] == ["vegan"]
    assert results[1].facts == []
    assert server.request_count == 2
    first, retry = (r["json"] for r in server.requests)
    assert first["response_format"]["json_schema"]["schema"] == (
        ExtractionBatch.model_json_schema()
    )
    assert [m["role"] for m in retry["messages"]] == ["system", "user", "assistant", "user"]
    assert "category" in retry["messages"][-1]["content"]


async def test_fake_server_default_answers_an_empty_extraction(server: FakeChatServer) -> None:
    chat = OpenAICompatibleChat("fake-chat", server.base_url, timeout_s=2.0)
    stamp = datetime(2024, 5, 3, tzinfo=UTC)
    try:
        results = await LLMExtractor(chat).extract(
            [ExtractionInput(text=f"m{i}", occurred_at=stamp) for i in range(3)]
        )
    finally:
        await chat.aclose()
    assert [r.facts for r in results] == [[], [], []]
    assert server.request_count == 1
