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
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

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
class _Step:
    status: int = 200
    content: str | None = None  # None: the responder answers
    body: str | None = None
    payload: Any = None
    malformed: bool = False
    delay_s: float = 0.0
    retry_after: str | None = None
    finish_reason: str = "stop"


@dataclass
class _Reply:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


class FakeChatServer:
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

    def __init__(self, responder: Responder | None = None) -> None:
        self.responder: Responder = responder or empty_extraction_responder
        self.requests: list[dict[str, Any]] = []
        self._script: deque[_Step] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``; valid once started."""
        if self._server is None:
            raise RuntimeError("FakeChatServer is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

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
        header = None if retry_after is None else str(retry_after)
        self._push(_Step(status=status, body=body, retry_after=header), times)

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

    def start(self) -> FakeChatServer:
        if self._server is not None:
            return self
        self._stopping.clear()
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeChatServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _push(self, step: _Step, times: int) -> None:
        with self._lock:
            self._script.extend(replace(step) for _ in range(times))

    def _respond(self, path: str, headers: dict[str, str], raw: bytes) -> _Reply:
        if path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            return _Reply(404, b'{"error": {"message": "not found"}}')
        try:
            request = json.loads(raw)
        except ValueError:
            request = None
        with self._lock:
            self.requests.append({"path": path, "headers": headers, "json": request})
            number = len(self.requests)
            step = self._script.popleft() if self._script else _Step()
        if step.delay_s and self._stopping.wait(step.delay_s):
            return _Reply(503, b'{"error": {"message": "server stopping"}}')
        if step.status != 200:
            body = step.body if step.body is not None else f'{{"error": "scripted {step.status}"}}'
            extra = {"Retry-After": step.retry_after} if step.retry_after is not None else {}
            return _Reply(step.status, body.encode(), extra)
        if step.malformed:
            return _Reply(200, b'{"choices": [{"message": {"content": "')
        if step.payload is not None:
            return _Reply(200, json.dumps(step.payload).encode())
        if not isinstance(request, dict) or not isinstance(request.get("messages"), list):
            return _Reply(400, b'{"error": {"message": "messages must be a list"}}')
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
        return _Reply(200, json.dumps(response).encode())


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeChatServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that time out hang up mid-response; that is the point of the test.
        return None


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without this, Nagle's algorithm meets
    # the client's delayed ACK and every response takes 40 ms.
    disable_nagle_algorithm = True

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        reply = self.server.fake._respond(self.path, headers, raw)
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        return None


__all__ = [
    "FakeChatServer",
    "LLMCall",
    "Responder",
    "ScriptedLLM",
    "empty_extraction_reply",
    "empty_extraction_responder",
]
