"""Stand-ins for a real chat model, shipped so tests use real objects and never a network.

- :class:`ScriptedLLM`: an in-process :class:`~cognimem.providers.llm.base.ChatLLM` that
  returns scripted answers (or raises scripted errors) in order and records every call.
- :class:`FakeChatServer`: a tiny OpenAI-compatible ``/v1/chat/completions`` HTTP server
  on 127.0.0.1 with scripted answers, failures, delays and broken bodies.

Both can answer unscripted calls with a *responder*. :func:`empty_extraction_responder`
(the server's default) answers an extraction request with an empty extraction for every
message: it reads the batch from the first user message whose content is a JSON object
with a ``messages`` list of objects carrying an ``index`` (the format
:func:`cognimem.ingest.extract.llm.extraction_prompt` sends).
:func:`fixed_classification_responder` also answers query classification requests.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cognimem.providers.fake_http import Reply, ScriptedHTTPServer, Step
from cognimem.providers.llm.base import ChatMessage

Responder = Callable[[dict[str, Any]], str]
"""Answers a ``/chat/completions`` request body with the assistant's content."""


def _batch_indexes(user_contents: Iterable[str]) -> list[int]:
    for content in user_contents:
        try:
            data = json.loads(content)
        except ValueError:
            continue
        items = data.get("messages") if isinstance(data, dict) else None
        if isinstance(items, list) and all(
            isinstance(item, dict) and isinstance(item.get("index"), int) for item in items
        ):
            return [item["index"] for item in items]
    return []


def _empty_batch_answer(user_contents: Iterable[str]) -> str:
    indexes = _batch_indexes(user_contents)
    return json.dumps({"messages": [{"index": i, "extraction": {}} for i in indexes]})


def empty_extraction_responder(request_json: dict[str, Any]) -> str:
    """A valid extraction answer with nothing extracted, one entry per message asked about."""
    messages = request_json.get("messages")
    contents = (
        str(m.get("content", ""))
        for m in (messages if isinstance(messages, list) else [])
        if isinstance(m, dict) and m.get("role") == "user"
    )
    return _empty_batch_answer(contents)


def empty_extraction_reply(messages: list[ChatMessage]) -> str:
    """:func:`empty_extraction_responder` for :class:`ScriptedLLM` (takes chat messages)."""
    return _empty_batch_answer(m.content for m in messages if m.role == "user")


def fixed_classification_responder(
    intent: str = "general", *, categories: Iterable[str] = (), decision: bool = False
) -> Responder:
    """A responder answering every query classification request (structured-output
    format ``query_classification``, as :mod:`cognimem.recall.classify` sends) with this
    classification, and anything else as :func:`empty_extraction_responder` does."""
    answer = json.dumps({"intent": intent, "categories": list(categories), "decision": decision})

    def respond(request_json: dict[str, Any]) -> str:
        response_format = request_json.get("response_format")
        schema = response_format.get("json_schema") if isinstance(response_format, dict) else None
        if isinstance(schema, dict) and schema.get("name") == "query_classification":
            return answer
        return empty_extraction_responder(request_json)

    return respond


@dataclass(frozen=True)
class LLMCall:
    """One call :class:`ScriptedLLM` received."""

    messages: list[ChatMessage]
    json_schema: dict[str, Any] | None
    schema_name: str


class ScriptedLLM:
    """A :class:`~cognimem.providers.llm.base.ChatLLM` answering from a script.

    ::

        llm = ScriptedLLM('{"messages": []}', ProviderUnavailable(...))
        llm.reply("...")                      # appended to the script

    Each call takes the next script entry: a string is returned, an exception is raised.
    With the script used up, ``responder(messages)`` answers when given, otherwise the
    call fails with ``RuntimeError`` (a test asked for more than it scripted).
    """

    def __init__(
        self,
        *script: str | BaseException,
        responder: Callable[[list[ChatMessage]], str] | None = None,
        model: str = "scripted",
    ) -> None:
        self.model = model
        self.responder = responder
        self.calls: list[LLMCall] = []
        self._script: deque[str | BaseException] = deque(script)
        self.closed = False

    @property
    def model_id(self) -> str:
        return f"scripted:{self.model}"

    @property
    def call_count(self) -> int:
        return len(self.calls)

    def reply(self, content: str, *, times: int = 1) -> None:
        """Answer the next ``times`` unscripted calls with ``content``."""
        self._script.extend([content] * times)

    def fail_next(self, error: BaseException, *, times: int = 1) -> None:
        """Raise ``error`` on the next ``times`` unscripted calls."""
        self._script.extend([error] * times)

    async def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        schema_name: str = "output",
    ) -> str:
        self.calls.append(LLMCall(list(messages), json_schema, schema_name))
        if self._script:
            step = self._script.popleft()
            if isinstance(step, BaseException):
                raise step
            return step
        if self.responder is not None:
            return self.responder(list(messages))
        raise RuntimeError(
            f"ScriptedLLM has no scripted answer left for call {len(self.calls)}; script more "
            "answers or pass a responder"
        )

    async def aclose(self) -> None:
        self.closed = True


@dataclass
class _Step(Step):
    content: str | None = None  # None: the responder answers
    finish_reason: str = "stop"


class FakeChatServer(ScriptedHTTPServer[_Step]):
    """OpenAI-compatible chat completions server for tests, on 127.0.0.1 (ephemeral port).

    ::

        with FakeChatServer() as server:
            server.fail_next(status=429, retry_after=0.05)
            server.reply('{"messages": []}')
            llm = OpenAICompatibleChat("fake", server.base_url)

    Scripted responses are consumed one per request, in order; unscripted requests are
    answered with ``responder(request_json)`` (default: :func:`empty_extraction_responder`).
    ``requests`` keeps every request's path, lowercased headers and JSON body.
    """

    paths = ("/v1/chat/completions", "/chat/completions")
    malformed_body = b'{"choices": [{"message": {"content": "'

    def __init__(self, responder: Responder | None = None) -> None:
        super().__init__(_Step())
        self.responder: Responder = responder or empty_extraction_responder

    def reply(self, content: str, *, finish_reason: str = "stop", times: int = 1) -> None:
        """Answer the next ``times`` requests with a 200 carrying ``content``."""
        self._push(_Step(content=content, finish_reason=finish_reason), times)

    def fail_next(
        self,
        status: int = 500,
        *,
        retry_after: float | str | None = None,
        body: str | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` requests with HTTP ``status`` (and a ``Retry-After``
        header when ``retry_after`` is given)."""
        headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
        self._push(_Step(status=status, body=body, headers=headers), times)

    def malformed_next(self, *, times: int = 1) -> None:
        """Answer the next ``times`` requests with a 200 whose body is not JSON."""
        self._push(_Step(malformed=True), times)

    def payload_next(self, payload: Any, *, times: int = 1) -> None:
        """Answer the next ``times`` requests with a 200 carrying ``payload`` as JSON."""
        self._push(_Step(payload=payload), times)

    def delay_next(self, seconds: float, *, content: str | None = None, times: int = 1) -> None:
        """Answer the next ``times`` requests after ``seconds``, with ``content`` (default:
        the responder's answer)."""
        self._push(_Step(content=content, delay_s=seconds), times)

    def _answer(self, step: _Step, request: Any, number: int) -> Reply:
        if not isinstance(request, dict) or not isinstance(request.get("messages"), list):
            return Reply(400, b'{"error": {"message": "messages must be a list"}}')
        content = step.content if step.content is not None else self.responder(request)
        response = {
            "id": f"chatcmpl-fake-{number}",
            "object": "chat.completion",
            "created": 0,
            "model": request.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": step.finish_reason,
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }
        return Reply(200, json.dumps(response).encode())


__all__ = [
    "FakeChatServer",
    "LLMCall",
    "Responder",
    "ScriptedLLM",
    "empty_extraction_reply",
    "empty_extraction_responder",
    "fixed_classification_responder",
]
