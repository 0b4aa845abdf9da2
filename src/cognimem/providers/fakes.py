"""Deterministic stand-ins for real providers, shipped so tests use real objects.

- :class:`HashingEmbedder`: a bag-of-words embedder; texts that share words get similar
  vectors, so ranking tests mean something. Identical output in every process.
- :class:`FakeEmbeddingServer`: a tiny OpenAI-compatible ``/v1/embeddings`` HTTP server on
  127.0.0.1 serving :class:`HashingEmbedder` vectors, with scriptable failures.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import numpy as np

from cognimem.errors import UsageError
from cognimem.providers.embeddings import EmbedKind, FloatMatrix, l2_normalize

_WORD = re.compile(r"\w+")


class HashingEmbedder:
    """Feature-hashing embedder: each lowercase ``\\w+`` word adds ±1 at a hashed dimension.

    Uses blake2b (never Python's salted ``hash()``), so vectors are identical across
    processes and machines. ``kind`` is ignored.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim <= 0:
            raise UsageError(f"HashingEmbedder dimension must be positive, got {dim}")
        self._dim = dim
        self._slots: dict[str, tuple[int, float]] = {}

    @property
    def model_id(self) -> str:
        return f"hashing:{self._dim}"

    async def dimension(self) -> int:
        return self._dim

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        return self.embed_sync(texts)

    def embed_sync(self, texts: Sequence[str]) -> FloatMatrix:
        """The same vectors as :meth:`embed`, without an event loop."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not a single string")
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                index, sign = self._slot(word)
                out[row, index] += sign
        return l2_normalize(out)

    async def aclose(self) -> None:
        return None

    def _slot(self, word: str) -> tuple[int, float]:
        slot = self._slots.get(word)
        if slot is None:
            digest = hashlib.blake2b(word.encode("utf-8"), digest_size=16).digest()
            index = int.from_bytes(digest[:8], "little") % self._dim
            sign = 1.0 if digest[8] & 1 else -1.0
            slot = (index, sign)
            if len(self._slots) < 100_000:
                self._slots[word] = slot
        return slot


@dataclass
class _Scripted:
    status: int = 200
    body: str | None = None
    payload: Any = None
    malformed: bool = False
    delay_s: float = 0.0


class FakeEmbeddingServer:
    """OpenAI-compatible embeddings server for tests, on 127.0.0.1 with an ephemeral port.

    ::

        with FakeEmbeddingServer(dim=32) as server:
            server.fail_next(status=500)          # next request answers 500
            embedder = OpenAICompatibleEmbedder("fake", server.base_url)

    Scripted responses are consumed one per request, in order; unscripted requests get
    :class:`HashingEmbedder` vectors. ``request_count`` counts every ``/embeddings``
    request; ``requests`` keeps their headers and JSON bodies.
    """

    def __init__(self, dim: int = 64, *, reverse_order: bool = False) -> None:
        self.dim = dim
        self.reverse_order = reverse_order
        self.requests: list[dict[str, Any]] = []
        self._embedder = HashingEmbedder(dim)
        self._script: deque[_Scripted] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``; valid once started."""
        if self._server is None:
            raise RuntimeError("FakeEmbeddingServer is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    def fail_next(
        self,
        status: int = 500,
        *,
        body: str | None = None,
        malformed: bool = False,
        payload: Any = None,
        times: int = 1,
    ) -> None:
        """Script the next ``times`` responses: an error ``status`` (with ``body``), a
        non-JSON 200 (``malformed=True``) or an arbitrary JSON 200 ``payload``."""
        if malformed or payload is not None:
            status = 200
        with self._lock:
            for _ in range(times):
                self._script.append(
                    _Scripted(status=status, body=body, payload=payload, malformed=malformed)
                )

    def delay_next(self, seconds: float, *, times: int = 1) -> None:
        """Answer the next ``times`` requests normally, but only after ``seconds``."""
        with self._lock:
            for _ in range(times):
                self._script.append(_Scripted(delay_s=seconds))

    def start(self) -> FakeEmbeddingServer:
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

    def __enter__(self) -> FakeEmbeddingServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _respond(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, bytes]:
        if path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
            return 404, b'{"error": {"message": "not found"}}'
        try:
            request = json.loads(raw)
        except ValueError:
            request = None
        with self._lock:
            self.requests.append({"path": path, "headers": headers, "json": request})
            step = self._script.popleft() if self._script else _Scripted()
        if step.delay_s and self._stopping.wait(step.delay_s):
            return 503, b'{"error": {"message": "server stopping"}}'
        if step.status != 200:
            body = step.body if step.body is not None else f'{{"error": "scripted {step.status}"}}'
            return step.status, body.encode()
        if step.malformed:
            return 200, b'{"data": [{"embedding": [0.1, '
        if step.payload is not None:
            return 200, json.dumps(step.payload).encode()
        inputs = request.get("input") if isinstance(request, dict) else None
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not all(isinstance(t, str) for t in inputs):
            return 400, b'{"error": {"message": "input must be a string or a list of strings"}}'
        vectors = self._embedder.embed_sync(inputs)
        data = [
            {"object": "embedding", "index": i, "embedding": [float(x) for x in vec]}
            for i, vec in enumerate(vectors)
        ]
        if self.reverse_order:
            data.reverse()
        response = {
            "object": "list",
            "model": request.get("model", "fake") if isinstance(request, dict) else "fake",
            "data": data,
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }
        return 200, json.dumps(response).encode()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeEmbeddingServer

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
        status, body = self.server.fake._respond(self.path, headers, raw)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        return None


__all__ = ["FakeEmbeddingServer", "HashingEmbedder"]
