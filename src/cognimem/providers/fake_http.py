"""The local HTTP server behind the shipped fake endpoints, written once.

:class:`ScriptedHTTPServer` runs a threaded server on 127.0.0.1 (ephemeral port), records
every request to its endpoint and plays scripted failures, delays and broken bodies;
a subclass answers the requests that get through with :meth:`ScriptedHTTPServer._answer`.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, ClassVar, Generic, Self, TypeVar


@dataclass
class Step:
    """One scripted answer: an error ``status`` (with ``body`` and ``headers``), a
    ``malformed`` 200, a JSON 200 ``payload``, or, by default, the server's own answer;
    each after ``delay_s``."""

    status: int = 200
    body: str | None = None
    payload: Any = None
    malformed: bool = False
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


StepT = TypeVar("StepT", bound=Step)


class ScriptedHTTPServer(Generic[StepT]):
    """Base of the fake endpoint servers; use one as a context manager.

    Subclasses set :attr:`paths` and :attr:`malformed_body`, pass the step that answers
    unscripted requests to ``__init__`` and implement :meth:`_answer`. Scripted steps are
    consumed one per request, in order. ``requests`` keeps every request's path,
    lowercased headers and JSON body.
    """

    paths: ClassVar[tuple[str, ...]]
    """The request paths served; any other answers 404."""
    malformed_body: ClassVar[bytes]
    """The cut-off JSON a ``malformed`` step answers with."""

    def __init__(self, unscripted: StepT) -> None:
        self.requests: list[dict[str, Any]] = []
        self._unscripted = unscripted
        self._script: deque[StepT] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``; valid once started."""
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    def start(self) -> Self:
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

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _push(self, step: StepT, times: int) -> None:
        with self._lock:
            self._script.extend(replace(step) for _ in range(times))

    def _respond(self, path: str, headers: dict[str, str], raw: bytes) -> Reply:
        if path.rstrip("/") not in self.paths:
            return Reply(404, b'{"error": {"message": "not found"}}')
        try:
            request = json.loads(raw)
        except ValueError:
            request = None
        with self._lock:
            self.requests.append({"path": path, "headers": headers, "json": request})
            number = len(self.requests)
            step = self._script.popleft() if self._script else self._unscripted
        if step.delay_s and self._stopping.wait(step.delay_s):
            return Reply(503, b'{"error": {"message": "server stopping"}}')
        if step.status != 200:
            body = step.body if step.body is not None else f'{{"error": "scripted {step.status}"}}'
            return Reply(step.status, body.encode(), dict(step.headers))
        if step.malformed:
            return Reply(200, self.malformed_body)
        if step.payload is not None:
            return Reply(200, json.dumps(step.payload).encode())
        return self._answer(step, request, number)

    def _answer(self, step: StepT, request: Any, number: int) -> Reply:
        """The server's own answer to the ``number``-th request, whose JSON is ``request``
        (``None`` when the body was not JSON)."""
        raise NotImplementedError


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: ScriptedHTTPServer[Any]

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


__all__ = ["Reply", "ScriptedHTTPServer", "Step"]
