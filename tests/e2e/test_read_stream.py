"""A streamed read streams: the mandates are sent before the query is even embedded
(they are listed, not searched), then each other section once the plan's steps are in,
then the ranked items, then the whole packet. Through ``Memory`` on both backends and
through the real app's ``/v1/memory/read/stream``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.models.packets import PacketSections
from cognimem.providers.embeddings import EmbedKind
from cognimem.providers.fakes import HashingEmbedder
from cognimem.recall.reader import STREAMED_AFTER_MANDATES
from tests.doubles import new_api_key

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
RULE = "Never give medical dosage advice."
ORDER = ["mandates", *STREAMED_AFTER_MANDATES]


class HeldQueries(HashingEmbedder):
    """The hashing embedder, whose query embeddings wait until ``release`` is set: what
    a read sends before it is set needed no search by meaning."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> Any:
        if kind == "query":
            await self.release.wait()
        return await super().embed(texts, kind)


async def _world(memory: Memory) -> None:
    await memory.write(RULE, user_id="ada", occurred_at=T0, profile="mandate")
    await memory.write("I am allergic to peanuts", user_id="ada", occurred_at=T0)
    for i in range(5):
        await memory.write(f"I cooked noodle dish number {i}.", user_id="ada", occurred_at=T0)


def test_every_section_is_streamed_once() -> None:
    assert sorted(ORDER) == sorted(PacketSections.model_fields)


async def test_the_mandates_arrive_before_the_query_is_embedded(memory_url: str) -> None:
    embedder = HeldQueries()
    embedder.release.set()  # the writes' duplicate checks embed too
    async with Memory.open(memory_url, settings=Settings(), embedder=embedder) as memory:
        await _world(memory)
        embedder.release.clear()
        sent: list[tuple[str, list[Any]]] = []
        first = asyncio.Event()

        async def on_section(name: str, entries: list[Any]) -> None:
            sent.append((name, entries))
            first.set()

        reading = asyncio.ensure_future(
            memory.read("Can I cook satay with peanuts?", user_id="ada", on_section=on_section)
        )
        await first.wait()
        assert not reading.done()
        [(name, entries)] = sent  # nothing else can be ready: the query is not embedded
        assert name == "mandates"
        assert [e.text for e in entries] == [RULE]
        embedder.release.set()
        packet = await reading
    assert [n for n, _ in sent] == ORDER
    for name, entries in sent:  # what was sent is what the packet holds
        assert entries == getattr(packet.sections, name)
    assert [e.value for e in packet.sections.must_follow] == ["peanuts"]
    assert [m.text for m in packet.sections.mandates] == [RULE]


def _events(body: str) -> list[tuple[str, Any]]:
    out = []
    for block in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


@pytest.mark.parametrize("explain", [False, True])
async def test_the_http_stream_sends_sections_items_then_the_whole_packet(
    db_url: str, explain: bool
) -> None:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        await _world(memory)
        key = await new_api_key(memory.store)
        transport = httpx.ASGITransport(app=create_app(memory))
        async with httpx.AsyncClient(
            transport=transport,
            base_url="http://cognimem.test",
            headers={"Authorization": f"Bearer {key}"},
        ) as http:
            body = {
                "query": "Can I cook noodles with peanuts?",
                "scope": {"user_id": "ada"},
                "explain": explain,
            }
            streamed = await http.post("/v1/memory/read/stream", json=body)
            plain = await http.post("/v1/memory/read", json=body)
    assert streamed.status_code == 200, streamed.text
    events = _events(streamed.text)
    sections = [data for kind, data in events if kind == "section"]
    items = [data for kind, data in events if kind == "item"]
    [(last, packet)] = events[-1:]
    assert [kind for kind, _ in events] == ["section"] * len(ORDER) + ["item"] * len(items) + [
        "done"
    ]
    assert [s["name"] for s in sections] == ORDER
    assert sections[0]["entries"][0]["text"] == RULE
    assert last == "done"
    assert packet["items"] == items
    assert {s["name"]: s["entries"] for s in sections} == packet["sections"]
    assert [i["id"] for i in items] == [i["id"] for i in plain.json()["items"]]
    assert (packet["explain"] is not None) is explain


async def test_a_bad_stream_request_is_a_json_error(db_url: str) -> None:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        key = await new_api_key(memory.store)
        transport = httpx.ASGITransport(app=create_app(memory))
        async with httpx.AsyncClient(
            transport=transport,
            base_url="http://cognimem.test",
            headers={"Authorization": f"Bearer {key}"},
        ) as http:
            body = {"query": "noodles", "scope": {"user_id": "ada"}, "session_only": True}
            answer = await http.post("/v1/memory/read/stream", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"]["details"]["field"] == "session_only"
