"""The SDK against a real ``cognimem serve`` whose connection closes without an answer.

A server closes an idle keep-alive connection after its timeout; a client that sends a
request on that pooled connection at that instant gets no answer (the scale-out
scenario's intermittent ``httpx.ReadError`` under load had this face). A relay between
the SDK and the server (``tests/relay.py``) drops one connection on cue, the instant a
request arrives on it: before the server sees the request, or after the server acted on
it. A request that is safe to ask twice (a GET, a read, a write with an idempotency key)
is answered on a second connection; any other raises ``TransportError`` and is not sent
again, so the server never acts on it twice.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cognimem import AsyncMemoryClient, MemoryClient, WriteOutcome
from cognimem.client import TransportError
from tests.conftest import child_env
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, wait_healthy
from tests.relay import relaying
from tests.servers import free_port, stop


@pytest.fixture
def served(memory_url: str, tmp_path: Path) -> Iterator[tuple[str, int]]:
    """(an API key, the port) of a ``cognimem serve`` process on ``memory_url``."""
    key = issue_api_key(memory_url)
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    env = child_env(COGNIMEM_DATABASE_URL=memory_url, COGNIMEM_EMBEDDING__MODEL="hashing")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cognimem", "serve", "--port", str(port)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def exited() -> str | None:
        return None if proc.poll() is None else (tmp_path / "serve.log").read_text()

    try:
        wait_healthy(f"http://127.0.0.1:{port}", exited)
        yield key, port
    finally:
        stop(proc, timeout=30)
        log.close()


async def _events(sdk: AsyncMemoryClient, user: str) -> list[str]:
    items = await sdk.list_items(user_id=user)
    events = await sdk.get_events([i for item in items for i in item.source_event_ids])
    return [e.content for e in events]


async def test_a_request_safe_to_repeat_is_asked_again_and_a_write_is_not(
    served: tuple[str, int], caplog: pytest.LogCaptureFixture
) -> None:
    key, port = served
    caplog.set_level(logging.WARNING, logger="cognimem.client")
    with relaying(port) as relay:
        async with AsyncMemoryClient(relay.url, api_key=key, timeout=PATIENT.read) as sdk:
            written = await sdk.write("I keep bees on the roof", user_id="ada")
            [item_id] = written.messages[0].item_ids

            # a GET on the pooled connection, reset before the server saw it
            relay.drop_next("before", "reset")
            assert (await sdk.get(item_id)).text == "I keep bees on the roof"
            # a read, closed (FIN) before the server saw it
            relay.drop_next("before", "close")
            packet = await sdk.read("bees", user_id="ada", limit=1)
            assert [i.text for i in packet.items] == ["I keep bees on the roof"]
            assert relay.dropped == 2
            asked = [r.getMessage() for r in caplog.records if r.name == "cognimem.client"]
            assert asked == [
                "GET /v1/memory/get/" + item_id + ": the connection closed without an "
                "answer (ReadError); asking again",
                "POST /v1/memory/read: the connection closed without an answer "
                "(RemoteProtocolError); asking again",
            ]

            # a write with an idempotency key, dropped after the server stored it: asked
            # again, it is the duplicate of the stored one
            relay.drop_next("after", "reset")
            keyed = await sdk.write("the hive is painted blue", user_id="ada", idempotency_key="k1")
            assert [m.outcome for m in keyed.messages] == [WriteOutcome.DUPLICATE]
            # a write without one, dropped after the server stored it: not sent again
            relay.drop_next("after", "reset")
            with pytest.raises(TransportError, match="closed without an answer"):
                await sdk.write("the queen was replaced in May", user_id="ada")
            assert relay.dropped == 4

            events = await _events(sdk, "ada")
            assert sorted(events) == [
                "I keep bees on the roof",
                "the hive is painted blue",
                "the queen was replaced in May",
            ]


@pytest.mark.parametrize("memory_url", ["sqlite"], indirect=True)
def test_the_blocking_client_asks_once_more_and_no_more(served: tuple[str, int]) -> None:
    key, port = served
    with relaying(port) as relay:
        with MemoryClient(relay.url, api_key=key, timeout=PATIENT.read) as sdk:
            assert sdk.health() == {"status": "ok"}
            relay.drop_next("before", "reset")
            assert sdk.health() == {"status": "ok"}  # asked again on a new connection
            assert relay.dropped == 1
            # the second attempt dropped too: the error, not a third attempt
            relay.drop_next("before", "reset", times=2)
            with pytest.raises(TransportError, match="closed without an answer"):
                sdk.list_jobs()
            assert relay.dropped == 3
        # retries=0 asks once, whatever the request
        with MemoryClient(relay.url, api_key=key, timeout=PATIENT.read, retries=0) as sdk:
            relay.drop_next("before", "reset")
            with pytest.raises(TransportError, match="closed without an answer"):
                sdk.health()
            assert relay.dropped == 4
            assert sdk.health() == {"status": "ok"}
