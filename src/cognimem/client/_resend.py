"""Which requests the SDK sends again when their answer is lost, and what makes a write
and a lifecycle run safe to send again.

An answer is lost when the connection closes or is reset after the request went out,
or the wait for the answer times out: the server may or may not have acted on it. Such
a request is sent again (``retries`` times at most, at once, on a new connection) only
when a second copy cannot change anything twice:

- a ``GET``, or a ``POST`` that only reads (``/v1/memory/read``, ``/v1/stats``, the
  ``.../query`` listings; a read counts its items as used, an approximate signal);
- a write whose every message carries an ``idempotency_key`` (a repeat is answered as
  the ``duplicate`` of the stored event) or says when it ``occurred_at``: a repeat of a
  message without a key — the same scope, role, name, text and time — is a duplicate
  inside any dedupe window, being 0 s from the stored one. ``stamped`` gives every
  message of an SDK write that has neither its time (the client's clock, when the call
  is made); it makes up no key, because a message with a key is left out of the dedupe
  window (two keys, two messages), so a made-up key would store a repeated message
  (a document re-sent under ``profile="document"``) that ``Memory.write`` answers as a
  duplicate;
- a lifecycle run with a ``key`` (the same operation, level and key queue one job: the
  SDK makes one up when the caller gives none), or a dry run (it changes nothing).

Anything else (``turn``, ``update``, ``forget``, an import, ...) is not sent again.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import httpx

from cognimem.client._wire import TransportError

# the answer is lost: the connection closed (RemoteProtocolError: "Server disconnected
# without sending a response") or was reset (ReadError) or refused the request's bytes
# (WriteError), or the wait timed out after the request went out; a refused connection
# (ConnectError) or a connect / pool timeout is no request sent at all
LOST = (
    httpx.RemoteProtocolError,
    httpx.ReadError,
    httpx.WriteError,
    httpx.ReadTimeout,
    httpx.WriteTimeout,
)
READ_POSTS = frozenset({"/v1/memory/read", "/v1/stats"})
WRITES = frozenset({"/v1/memory/write", "/v1/memory/write_batch"})
LIFECYCLE = "/v1/lifecycle/"


def stamped(message: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """``message`` (a write's body) with ``occurred_at`` set to ``now`` when it has
    neither an ``idempotency_key`` nor an ``occurred_at``: its repeat is then a
    duplicate of it however the server's dedupe window is set."""
    body = dict(message)
    if not body.get("idempotency_key") and body.get("occurred_at") is None:
        body["occurred_at"] = now
    return body


def call_time() -> datetime:
    return datetime.now(UTC)


def run_key() -> str:
    """A lifecycle run's key when the caller gives none (a run's own, as an unkeyed
    run's job is): the server's ``key`` pattern, and no caller's key looks like it."""
    return f"sdk-{uuid.uuid4().hex}"


def replayable(method: str, path: str, body: Any) -> bool:
    """Whether sending the request a second time cannot change anything twice (see the
    module's docstring)."""
    route = path.partition("?")[0]
    if method == "GET" or (method == "POST" and (route in READ_POSTS or route.endswith("/query"))):
        return True
    if method != "POST" or not isinstance(body, dict):
        return False
    if route.startswith(LIFECYCLE):
        return body.get("dry_run") is True or bool(body.get("key"))
    if route not in WRITES:
        return False
    messages = body.get("messages", [body])
    return isinstance(messages, list) and all(
        isinstance(m, dict) and (m.get("idempotency_key") or m.get("occurred_at") is not None)
        for m in messages
    )


def lost_reason(exc: Exception) -> str:
    """What became of the answer, for the log and the error."""
    if isinstance(exc, httpx.TimeoutException):
        return f"the answer did not come in time ({type(exc).__name__})"
    said = str(exc) or "no message"
    return f"the connection closed without an answer ({type(exc).__name__}: {said})"


def lost_answer(where: str, exc: Exception, *, attempts: int, safe: bool) -> TransportError:
    """The error for a request whose answer was lost each of the ``attempts`` times it
    was sent; ``safe``: a repeat of it cannot act twice."""
    reason = lost_reason(exc)
    if attempts > 1:
        message = (
            f"{where}: no answer in {attempts} attempts, the last because {reason}; a"
            " repeat cannot act twice, so the server acted on it once or not at all"
        )
    elif safe:
        message = f"{where}: {reason}; not sent again (retries=0)"
    else:
        message = (
            f"{where}: {reason}; not sent again, as a repeat could act twice: the server"
            " may have acted on it"
        )
    return TransportError(message, sent=True, attempts=attempts)
