"""An export holds a user's whole memory: imported into a fresh database (of the same
backend, and of the other one), 50 reads with different queries answer the same packets
as the source — ranked items, every section, learnt procedures, summaries with their
claims — on SQLite and PostgreSQL. Ids of the copy are those the import derives (the
exported id followed by 16 hex digits of ``sha256(tenant, id)``), so packets compare
exactly once each exported id is mapped to its copy's."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cognimem import Memory, Message, Settings
from cognimem.models import ContextPacket
from cognimem.models.admin import ExportRecord
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.transfer import local_id
from tests.e2e.test_import_tenants import counts_of

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=10)  # the clock of every Memory here, and every read's time
DAY = timedelta(days=1)
USER = "ada"
# a made id (models.ids.new_id): a prefix, 12 hex digits of milliseconds and 16 random
MADE_ID = re.compile(r"\b([a-z]+)_([0-9a-f]{28})\b")

CHATS = [
    [
        ("Ada", "My sister Kim lives in Oslo and works as a nurse."),
        ("Ada", "I'm allergic to shellfish, so never suggest prawns."),
        ("Ada", "I live in Paris near the canal."),
        ("Ada", "I went to the pottery class yesterday and made a blue bowl."),
        ("Ada", "My manager Tom wants the quarterly report by Friday."),
        ("Ada", "I prefer window seats on long flights."),
    ],
    [
        ("Ada", "I'm vegetarian since last spring."),
        ("Ada", "The pottery class teacher said my bowl was the best glaze."),
        ("Ada", "Kim is visiting Paris in June with her husband Lars."),
        ("Ada", "I started training for the Berlin marathon."),
        ("Ada", "The quarterly report is finally done and Tom liked it."),
        ("Ada", "I live in Lyon now, I moved for the new job."),
    ],
    [
        ("Ada", "My marathon training plan has four runs a week."),
        ("Ada", "I bought new running shoes from the shop on the canal."),
        ("Ada", "Lars and Kim adopted a cat called Miso."),
        ("Ada", "I always book trains instead of flights inside France."),
        ("Ada", "The pottery class moves to Thursdays next month."),
        ("Ada", "I want to learn Norwegian before visiting Oslo."),
    ],
]

QUERIES = [
    "Deploy the staging build",
    "please deploy the staging build now",
    "Run the unit tests",
    "run the unit tests again",
    "where does my sister live",
    "what does Kim do for work",
    "who is Lars",
    "what is the cat called",
    "allergies",
    "what should I cook for dinner",
    "can you suggest prawns for dinner",
    "am I vegetarian",
    "where do I live",
    "did I move recently",
    "pottery class",
    "what colour was my bowl",
    "when is the pottery class",
    "who is my manager",
    "quarterly report deadline",
    "did Tom like the report",
    "seat preference on flights",
    "how do I travel inside France",
    "marathon training",
    "how many runs a week do I do",
    "which marathon am I training for",
    "running shoes",
    "the shop on the canal",
    "learning a language",
    "trip to Oslo",
    "Kim visiting Paris in June",
    "what happened last week",
    "summarise my conversations",
    "what do you know about Kim",
    "what do you know about me",
    "new job",
    "book a flight for me",
    "book a train to Lyon",
    "what did I make in class",
    "glaze",
    "Norwegian lessons",
    "tell me about my family",
    "any food restrictions I have",
    "what was deployed to staging",
    "build number",
    "tests failing",
    "what are my hobbies",
    "sports I do",
    "who adopted a pet",
    "Paris canal",
    "what did the teacher say",
]


def deploy(build: int) -> dict[str, Any]:
    return {"name": "deploy", "arguments": {"env": "staging", "build": build}}


def run_tests(suite: str) -> dict[str, Any]:
    return {"name": "run_tests", "arguments": {"suite": suite}}


async def a_life(mem: Memory) -> None:
    """Three sessions of talk (facts, constraints, entities, a changed fact), a
    tool-using agent doing two things again and again (procedures), then the
    lifecycle's consolidation (summaries, profiles, themes)."""
    for n, chat in enumerate(CHATS):
        at = T0 + n * DAY
        await mem.write_batch(
            [
                Message(content=text, name=name, occurred_at=at + timedelta(minutes=i))
                for i, (name, text) in enumerate(chat)
            ],
            user_id=USER,
            session_id=f"chat{n}",
        )
    for day in range(4):
        at = T0 + (day + 3) * DAY
        for ask, call, answer in (
            ("Deploy the staging build", deploy(40 + day), f"Deploying build {40 + day}."),
            ("Run the unit tests", run_tests("unit"), "Running the unit tests."),
        ):
            await mem.turn(
                {"content": ask, "occurred_at": at},
                {"content": answer, "occurred_at": at, "metadata": {"tool_calls": [call]}},
                user_id=USER,
                session_id=f"work{day}",
            )
    assert len((await mem.detect_procedures(user_id=USER)).created) == 2
    assert (await mem.consolidate(user_id=USER)).written > 0


def seen(packet: ContextPacket) -> dict[str, Any]:
    """What a reader sees of ``packet`` (its step timings aside), as JSON."""
    return {
        "items": [i.model_dump(mode="json") for i in packet.items],
        "sections": packet.sections.model_dump(mode="json"),
        "markdown": packet.to_markdown(),
        "token_count": packet.token_count,
        "truncated": packet.truncated,
        "degraded": packet.degraded,
        "explain": [e.model_dump(mode="json") for e in packet.explain or []],
    }


def copied(packet: ContextPacket, tenant_id: str) -> dict[str, Any]:
    """:func:`seen`, with every made id written as the id an import into a fresh
    database of ``tenant_id`` gives its row."""
    text = json.dumps(seen(packet))
    return json.loads(MADE_ID.sub(lambda m: local_id(tenant_id, m[0], m[1]), text))


@pytest.fixture
def fresh_database(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[str], str]]:
    """``fresh_database(backend)``: the URL of a new, empty database of that backend."""
    made: list[str] = []

    def make(backend: str) -> str:
        if backend == "sqlite":
            return f"sqlite:///{tmp_path / f'fresh-{uuid.uuid4().hex[:8]}.db'}"
        server = request.getfixturevalue("postgres_server")
        name = f"fresh_{uuid.uuid4().hex[:12]}"
        server.psql(f"CREATE DATABASE {name}")
        made.append(name)
        return str(server.admin_dsn(name))

    yield make
    if made:
        server = request.getfixturevalue("postgres_server")
        for name in made:
            server.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@asynccontextmanager
async def opened(url: str) -> AsyncIterator[Memory]:
    async with Memory.open(
        url, settings=Settings(), embedder=HashingEmbedder(), clock=lambda: NOW
    ) as mem:
        yield mem


def rows_of(records: list[ExportRecord]) -> list[str]:
    """The rows of an export (its header aside), sorted, as JSON."""
    return sorted(json.dumps(r.model_dump(mode="json"), sort_keys=True) for r in records[1:])


@pytest.mark.parametrize("source", ["sqlite", "postgres"])
async def test_an_imported_export_answers_the_same_packets(
    source: str, fresh_database: Callable[[str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = "postgres" if source == "sqlite" else "sqlite"
    async with (
        opened(fresh_database(source)) as original,
        opened(fresh_database(source)) as copy,
        opened(fresh_database(other)) as across,
    ):
        await a_life(original)
        exported = [r async for r in original.export(user_id=USER)]
        assert counts_of(exported)["procedures"] == 2
        summaries = [r.data for r in exported if r.type == "item" and r.data["kind"] == "summary"]
        assert summaries
        assert all(s["metadata"]["consolidation"]["claims"] for s in summaries)
        # in batches of 7 lines: a summary's claims state items an earlier batch stored
        monkeypatch.setattr("cognimem.services.transfer_streams.IMPORT_BATCH", 7)
        for target in (copy, across):
            counts = await target.import_records(exported, tenant_id="default")
            assert counts == counts_of(exported)
            # every row arrived as it left, its ids (references included) the copy's
            again = [r async for r in target.export(user_id=USER)]
            want = MADE_ID.sub(
                lambda m: local_id("default", m[0], m[1]), "\n".join(rows_of(exported))
            )
            assert "\n".join(rows_of(again)) == want

        # each query in turn on both, so each has seen the same reads before it (a read
        # counts the accesses of what it returns)
        shown = {"procedures": 0, "summaries": 0, "claims": 0, "facts": 0, "constraints": 0}
        for n, query in enumerate(QUERIES):
            explain = n % 5 == 0
            packets = [
                await mem.read(query, user_id=USER, reference_time=NOW, explain=explain)
                for mem in (original, copy)
            ]
            assert seen(packets[1]) == copied(packets[0], "default"), query
            sections = packets[0].sections
            shown["procedures"] += len(sections.learned_procedures)
            shown["summaries"] += len(sections.summaries)
            shown["claims"] += sum(len(s.claims) for s in sections.summaries)
            shown["facts"] += len(sections.facts) + len(sections.preferences)
            shown["constraints"] += len(sections.must_follow) + len(sections.consider)
        # the reads compared what the issue names, not empty packets
        assert all(shown.values()), shown


FORMAT_1 = Path(__file__).resolve().parents[1] / "fixtures" / "export_format_1.jsonl"


async def test_an_export_of_format_1_still_imports(memory: Memory) -> None:
    # written by cognimem 97b3d4b (format 1: no procedures): two sessions, consolidated
    lines = [json.loads(line) for line in FORMAT_1.read_text().splitlines()]
    assert lines[0]["data"]["format_version"] == 1
    counts = await memory.import_records(lines, tenant_id="default")
    file = [ExportRecord.model_validate(line) for line in lines]
    assert counts == counts_of(file)
    assert counts["procedures"] == 0

    packet = await memory.read("pottery class bowl", user_id=USER, reference_time=NOW)
    assert any("blue bowl" in i.text for i in packet.items)
    summaries = await memory.store.get_items(
        "default",
        [local_id("default", r.data["id"], "mem") for r in file if r.type == "item"
         and r.data["kind"] == "summary"],
    )  # fmt: skip
    assert len(summaries) == 5
    for summary in summaries:  # every claim states rows of the copy
        claims = summary.metadata["consolidation"]["claims"]
        stated = await memory.store.get_items("default", [i for c in claims for i in c["item_ids"]])
        assert {i.id for i in stated} == {i for c in claims for i in c["item_ids"]}
        events = await memory.get_events([e for c in claims for e in c["event_ids"]])
        assert {e.id for e in events} == {e for c in claims for e in c["event_ids"]}
