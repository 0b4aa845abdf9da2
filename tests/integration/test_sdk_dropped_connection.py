"""The SDK against a real ``cognimem serve`` whose connection closes without an answer.

A pooled connection can close under a request: the server closing an idle keep-alive
connection after its timeout, or httpcore 1.0.9 closing a connection it has just handed
to a waiting request (encode/httpcore#1110, after a stall of the client); the
scale-out scenario's intermittent ``httpx.ReadError`` under load had this face. A
relay between the SDK and the server (``tests/relay.py``) drops connections on cue, the
instant a request arrives on one: before the server sees the request, or after the
server acted on it (its answer thrown away). A request that is safe to ask again (a
GET, a read, a write, a lifecycle run) is answered on a new connection, up to
``retries`` times; the server acts on it once. Any other raises ``TransportError``.

The server runs with no dedupe window (``COGNIMEM_INGEST__DEDUPE_WINDOW_S=0``): a write
without a key is then a duplicate of the stored one only because the SDK sent both
copies at the same ``occurred_at``, so each test of one fails if a repeat is stored.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cognimem import AsyncMemoryClient, Conflict, InvalidInput, MemoryClient, WriteOutcome
from cognimem.client import TransportError
from cognimem.models import Event
from cognimem.services.lifecycle.operations import LIFECYCLE_JOB
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
    env = child_env(
        COGNIMEM_DATABASE_URL=memory_url,
        COGNIMEM_EMBEDDING__MODEL="hashing",
        COGNIMEM_INGEST__DEDUPE_WINDOW_S="0",
    )
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


async def _events(sdk: AsyncMemoryClient, user: str) -> list[Event]:
    """Every raw event behind the user's items, oldest first (each once)."""
    items = await sdk.list_items(user_id=user)
    ids = list(dict.fromkeys(i for item in items for i in item.source_event_ids))
    events = await sdk.get_events(ids)
    return sorted(events, key=lambda e: (e.recorded_at, e.id))


def _said(events: list[Event]) -> list[str]:
    return sorted(e.content for e in events)


async def test_a_request_safe_to_repeat_is_asked_again_and_acts_once(
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
                f"GET /v1/memory/get/{item_id}: the connection closed without an answer"
                " (ReadError: no message); asking again",
                "POST /v1/memory/read: the connection closed without an answer"
                " (RemoteProtocolError: Server disconnected without sending a response.);"
                " asking again",
            ]

            # a write with the caller's key, dropped after the server stored it: asked
            # again, it is the duplicate of the stored one, under the caller's key
            relay.drop_next("after", "reset")
            keyed = await sdk.write("the hive is painted blue", user_id="ada", idempotency_key="k1")
            assert [m.outcome for m in keyed.messages] == [WriteOutcome.DUPLICATE]
            # a write without one, dropped after the server stored it: asked again too,
            # and answered with the event and item the first attempt stored
            relay.drop_next("after", "reset")
            sent = relay.requests
            plain = await sdk.write("the queen was replaced in May", user_id="ada")
            assert relay.requests - sent == 2
            assert relay.dropped == 4
            [answered] = plain.messages
            assert answered.outcome is WriteOutcome.DUPLICATE

            events = await _events(sdk, "ada")
            assert _said(events) == [
                "I keep bees on the roof",
                "the hive is painted blue",
                "the queen was replaced in May",
            ]
            by_text = {e.content: e for e in events}
            assert by_text["the hive is painted blue"].idempotency_key == "k1"
            assert keyed.event_ids == [by_text["the hive is painted blue"].id]
            queen = by_text["the queen was replaced in May"]
            assert queen.idempotency_key is None  # the SDK made up no key
            assert plain.event_ids == [queen.id]
            items = await sdk.list_items(user_id="ada")
            assert answered.item_ids == [i.id for i in items if queen.id in i.source_event_ids]


async def test_a_batch_whose_answer_is_lost_is_stored_once(served: tuple[str, int]) -> None:
    key, port = served
    with relaying(port) as relay:
        async with AsyncMemoryClient(relay.url, api_key=key, timeout=PATIENT.read) as sdk:
            relay.drop_next("after", "close")
            batch = await sdk.write_batch(
                [
                    "I moved to Porto in March",
                    {"content": "my sister lives in Braga", "idempotency_key": "own-7"},
                    "I commute by train",
                ],
                user_id="bea",
            )
            assert (relay.dropped, relay.requests) == (1, 2)
            assert [m.outcome for m in batch.messages] == [WriteOutcome.DUPLICATE] * 3
            events = await _events(sdk, "bea")
            assert _said(events) == [
                "I commute by train",
                "I moved to Porto in March",
                "my sister lives in Braga",
            ]
            keys = {e.content: e.idempotency_key for e in events}
            assert keys["my sister lives in Braga"] == "own-7"  # the caller's, as given
            assert keys["I moved to Porto in March"] is None
            assert sorted(batch.event_ids) == sorted(e.id for e in events)


async def test_an_answer_lost_every_time_is_a_transport_error_after_the_retries(
    served: tuple[str, int],
) -> None:
    key, port = served
    with relaying(port) as relay:
        async with AsyncMemoryClient(relay.url, api_key=key, timeout=PATIENT.read) as sdk:
            relay.drop_next("after", "reset", times=3)
            with pytest.raises(TransportError, match="no answer in 3 attempts") as lost:
                await sdk.write("the smoker needs new fuel", user_id="cy")
            assert (lost.value.sent, lost.value.attempts) == (True, 3)
            assert (relay.dropped, relay.requests) == (3, 3)
            # the server acted on it once
            assert _said(await _events(sdk, "cy")) == ["the smoker needs new fuel"]


async def test_an_error_answer_is_not_sent_again(served: tuple[str, int]) -> None:
    key, port = served
    with relaying(port) as relay:
        async with AsyncMemoryClient(relay.url, api_key=key, timeout=PATIENT.read) as sdk:
            await sdk.write("my bike is green", user_id="dee", idempotency_key="bike")
            sent = relay.requests
            with pytest.raises(Conflict):  # 409: the key was used for other content
                await sdk.write("my bike is red", user_id="dee", idempotency_key="bike")
            with pytest.raises(InvalidInput):  # 422
                await sdk.write("   ", user_id="dee")
            assert relay.requests - sent == 2
            assert relay.dropped == 0
            assert _said(await _events(sdk, "dee")) == ["my bike is green"]


@pytest.mark.parametrize("memory_url", ["sqlite"], indirect=True)
async def test_a_lifecycle_run_whose_answer_is_lost_queues_one_job(
    served: tuple[str, int],
) -> None:
    key, port = served
    with relaying(port) as relay:
        async with AsyncMemoryClient(relay.url, api_key=key, timeout=PATIENT.read) as sdk:
            await sdk.write("I water the garden at dawn", user_id="eve")
            relay.drop_next("after", "reset")
            run = await sdk.run_lifecycle("consolidate", user_id="eve")
            assert (relay.dropped, run.dry_run) == (1, False)
            assert run.job is not None
            assert [j.id for j in await sdk.list_jobs(kind=LIFECYCLE_JOB)] == [run.job.id]
            # a run of its own: another call queues another job
            again = await sdk.run_lifecycle("consolidate", user_id="eve")
            assert again.job is not None
            assert again.job.id != run.job.id


@pytest.mark.parametrize("memory_url", ["sqlite"], indirect=True)
def test_the_blocking_client_asks_again_up_to_its_retries(served: tuple[str, int]) -> None:
    key, port = served
    with relaying(port) as relay:
        with MemoryClient(relay.url, api_key=key, timeout=PATIENT.read) as sdk:
            assert sdk.health() == {"status": "ok"}
            relay.drop_next("before", "reset", times=2)
            assert sdk.health() == {"status": "ok"}  # asked twice more, on new connections
            assert relay.dropped == 2
            # every attempt dropped: the error after the third (1 + retries)
            relay.drop_next("before", "reset", times=3)
            with pytest.raises(TransportError, match="no answer in 3 attempts"):
                sdk.list_jobs()
            assert relay.dropped == 5
            # a turn is not safe to repeat: the error at once
            relay.drop_next("before", "reset")
            with pytest.raises(TransportError, match="a repeat could act twice") as lost:
                sdk.turn("I bought a new veil", user_id="fay")
            assert (lost.value.sent, lost.value.attempts) == (True, 1)
            assert relay.dropped == 6
        # retries=0 asks once, whatever the request
        with MemoryClient(relay.url, api_key=key, timeout=PATIENT.read, retries=0) as sdk:
            relay.drop_next("before", "reset")
            with pytest.raises(TransportError, match=r"not sent again \(retries=0\)"):
                sdk.health()
            assert relay.dropped == 7
            assert sdk.health() == {"status": "ok"}
