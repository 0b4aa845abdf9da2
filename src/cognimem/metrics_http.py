"""Who may read metrics, and ``GET /metrics`` on a port of its own, off the process's loop.

:func:`check_metrics_access` is the one check of a scrape's ``Authorization`` header:
the API's ``/metrics`` (``api/auth.py``) and every metrics port call it.
:class:`MetricsServer` serves the :class:`~cognimem.metrics.Metrics` of a worker's
``Memory`` on a port of its own (``cognimem worker --metrics-port``), or an API app's
(``cognimem serve --metrics-port``: one per server process, the first free port of a
range, :func:`serve_first_free`, started and closed by the app's lifespan): the standard
library's HTTP server in a thread, rendering each scrape on an event loop of its own in
another thread, never on the process's own. A job holds the worker's loop for as long as its
CPU-bound steps run (rule extraction, reconciliation, ...); a scrape rendered there
waited for it. On the metrics loop a scrape is answered while a job runs:
prometheus_client's instruments and registry are thread-safe (its own exposition server
collects in a thread too), the collectors read counters and state the store already
shares with its own threads, and the queue depth is read through a connection of the
metrics loop's own (``JobQueue.clone``), since a queue's connections belong to the loop
that opened them.
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import json
import logging
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

from cognimem.errors import CognimemError, Unauthenticated, UsageError
from cognimem.metrics import Metrics

if TYPE_CHECKING:
    from pydantic import SecretStr

    from cognimem.config import AuthSettings
    from cognimem.memory import Memory
    from cognimem.queue import JobQueue

log = logging.getLogger(__name__)

# a scrape waits this long for the metrics loop (a queue that does not answer) before
# it answers 503
_RENDER_TIMEOUT_S = 30.0


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` value, else ``None``."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        return None
    return token


def token_matches(token: str | None, expected: str | None) -> bool:
    """Whether ``token`` is ``expected`` (compared in constant time); never for no token."""
    if token is None or not expected:
        return False
    return hmac.compare_digest(token.encode("utf-8"), expected.encode("utf-8"))


def _secret(value: SecretStr | None) -> str | None:
    return (value.get_secret_value() or None) if value is not None else None  # "" is unset


def metrics_readable(auth: AuthSettings) -> bool:
    """Whether any token may read metrics (else every scrape is refused)."""
    return _secret(auth.admin_key) is not None or _secret(auth.metrics_token) is not None


def check_metrics_access(auth: AuthSettings, authorization: str | None) -> None:
    """Allow the admin key or the metrics token, else ``Unauthenticated``."""
    admin_key, metrics_token = _secret(auth.admin_key), _secret(auth.metrics_token)
    if admin_key is None and metrics_token is None:
        raise Unauthenticated(
            "/metrics is disabled until COGNIMEM_AUTH__METRICS_TOKEN or "
            "COGNIMEM_AUTH__ADMIN_KEY is set"
        )
    presented = bearer_token(authorization)
    # both comparisons always run: timing does not tell which token exists
    ok_admin = token_matches(presented, admin_key)
    ok_metrics = token_matches(presented, metrics_token)
    if not (ok_admin or ok_metrics):
        raise Unauthenticated("metrics token or admin key required")


class MetricsServer:
    """``GET /metrics`` of ``memory`` on ``host:port`` (0: any free port), until
    :meth:`close`; the same token check as the API. Renders ``metrics`` (an app's
    registry, ``cognimem serve --metrics-port``) or, by default, a registry of its own
    that observes ``memory``'s jobs (a worker's). Made on the thread of ``memory``'s
    loop; scrapes are rendered on a loop of the server's own."""

    def __init__(
        self,
        memory: Memory,
        auth: AuthSettings,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        metrics: Metrics | None = None,
    ) -> None:
        self._loop = asyncio.new_event_loop()
        try:
            # binds first: a busy port fails here, before the process says it started
            # and before a registry observes ``memory``
            self._server = ThreadingHTTPServer((host, port), _handler(self._render, auth))
        except OSError:
            self._loop.close()
            raise
        self._queue: JobQueue | None = None if memory.queue is None else memory.queue.clone()
        self._queue_open = False
        self.metrics = metrics if metrics is not None else Metrics(memory)
        self._server.daemon_threads = True
        self.host = host
        self.port: int = self._server.server_address[1]
        self._loop_thread = threading.Thread(
            target=self._loop.run_forever, name="cognimem-metrics-loop", daemon=True
        )
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="cognimem-metrics", daemon=True
        )
        self._loop_thread.start()
        self._thread.start()

    def _render(self) -> tuple[bytes, str]:
        """One scrape's exposition, rendered on the server's loop (called by a request
        thread)."""
        depth = None if self._queue is None else self._depth
        future = asyncio.run_coroutine_threadsafe(self.metrics.render(depth), self._loop)
        try:
            return future.result(_RENDER_TIMEOUT_S)
        except BaseException:
            future.cancel()
            raise

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/metrics"

    async def _depth(self) -> int:
        """The queue's depth through the metrics loop's own connection, opened by the
        first scrape (and by the next one while opening fails: the scrape says NaN)."""
        assert self._queue is not None
        if not self._queue_open:
            await self._queue.open()
            self._queue_open = True
        return await self._queue.depth()

    def close(self) -> None:
        """Stop serving, release the port, close the queue connection and the loop."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
        if self._queue is not None:
            closing = asyncio.run_coroutine_threadsafe(self._queue.close(), self._loop)
            try:
                closing.result(_RENDER_TIMEOUT_S)
            except Exception as exc:  # the process stops anyway
                log.warning("metrics port: closing the queue connection failed: %r", exc)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._loop_thread.join()
        self._loop.close()


def _handler(
    render: Callable[[], tuple[bytes, str]], auth: AuthSettings
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.partition("?")[0] != "/metrics":
                self._error(404, "not_found", "only GET /metrics is served here")
                return
            try:
                check_metrics_access(auth, self.headers.get("Authorization"))
            except CognimemError as exc:
                self._error(401, exc.type, exc.message)
                return
            try:
                body, content_type = render()
            except Exception as exc:  # the scrape fails loudly, the process goes on
                log.warning("metrics port scrape failed: %r", exc)
                self._error(503, "unavailable", f"metrics not rendered: {exc!r}")
                return
            self._send(200, body, content_type)

        def _error(self, status: int, kind: str, message: str) -> None:
            body = json.dumps({"error": {"type": kind, "message": message, "details": {}}}).encode()
            self._send(status, body, "application/json")

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            log.debug("metrics %s", format % args)

    return Handler


def serve_first_free(
    memory: Memory,
    auth: AuthSettings,
    *,
    host: str,
    first: int,
    count: int,
    metrics: Metrics | None = None,
) -> MetricsServer:
    """A :class:`MetricsServer` on the first port of ``first`` … ``first + count - 1``
    that binds (``first`` 0: any free port). Binding is atomic, so processes starting
    at once never take the same port; a ``UsageError`` names the range when every port
    in it is taken, or why a port cannot be bound at all."""
    last = first + count - 1 if first else 0
    if last > 65535:
        raise UsageError(f"metrics ports {first}..{last} run past 65535: pick a lower port")
    for port in range(first, last + 1):
        try:
            return MetricsServer(memory, auth, host=host, port=port, metrics=metrics)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise UsageError(f"cannot serve metrics on {host}:{port}: {exc}") from exc
    raise UsageError(
        f"no free metrics port on {host} in {first}..{last}: another process holds each"
        " (one port per server process; pick another --metrics-port)"
    )


__all__ = [
    "MetricsServer",
    "bearer_token",
    "check_metrics_access",
    "metrics_readable",
    "serve_first_free",
    "token_matches",
]
