"""The same end-to-end scenarios through both faces of cognimem: ``Memory`` in-process
and the SDK (``AsyncMemoryClient``) against the real app. Each scenario is written once
against the shared method names; the ``face`` fixture runs it through each."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from cognimem import AsyncMemoryClient, Conflict, Memory, NotFound, Settings
from cognimem.api import create_app
from cognimem.models import ItemStatus
from cognimem.models.admin import ExportRecord
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import new_api_key

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["memory", "sdk"])
async def face(request: pytest.FixtureRequest, db_url: str) -> AsyncIterator[Any]:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as memory:
        if request.param == "memory":
            yield memory
            return
        key = await new_api_key(memory.store)
        transport = httpx.ASGITransport(app=create_app(memory))
        async with AsyncMemoryClient(
            "http://cognimem.test", api_key=key, transport=transport
        ) as sdk:
            yield sdk


async def texts(face: Any, query: str, user: str = "ada") -> list[str]:
    return [i.text for i in (await face.read(query, user_id=user, limit=5)).items]


async def test_a_turn_reads_before_it_remembers(face: Any) -> None:
    first = await face.turn("I am allergic to peanuts", "Noted, no peanuts.", user_id="ada")
    assert first.packet.items == []  # nothing was known before this turn
    assert len(first.stored.messages) == 2
    second = await face.turn("Can I eat satay? it has peanuts", user_id="ada")
    assert "I am allergic to peanuts" in [i.text for i in second.packet.items]
    assert "Noted, no peanuts." in [i.text for i in second.packet.items]


async def test_an_edit_is_found_by_its_new_words_and_kept_in_history(face: Any) -> None:
    written = await face.write("My locker code is on the blue card", user_id="ada")
    [item_id] = written.item_ids
    updated = await face.update(item_id, text="My gym bag is in the red locker")
    assert updated.text == "My gym bag is in the red locker"
    assert await texts(face, "gym bag red locker") == ["My gym bag is in the red locker"]
    assert "blue card" not in " ".join(await texts(face, "blue card"))
    [entry] = await face.history(item_id)
    assert entry.before is not None
    assert entry.after is not None
    assert entry.before["text"] == "My locker code is on the blue card"
    assert entry.after["text"] == "My gym bag is in the red locker"

    await face.update(item_id, feedback="incorrect")
    assert (await face.get(item_id)).status is ItemStatus.SILENT
    assert await texts(face, "gym bag red locker") == []


async def test_forget_modes_do_what_their_names_say(face: Any) -> None:
    written = await face.write_batch(
        [
            {"content": "I parked on level three", "occurred_at": T0},
            {"content": "The plumber comes on Tuesday", "occurred_at": T0 + timedelta(days=1)},
            {"content": "I ordered a green sofa", "occurred_at": T0 + timedelta(days=2)},
        ],
        user_id="ada",
    )
    parked, plumber, sofa = written.item_ids
    dry = await face.forget(ids=[parked], user_id="ada", dry_run=True)
    assert (dry.item_ids, dry.dry_run) == ([parked], True)
    assert (await face.get(parked)).status is ItemStatus.ACTIVE

    assert (await face.forget(ids=[parked], user_id="ada")).item_ids == [parked]
    with pytest.raises(NotFound):
        await face.get(parked)
    since = T0 + timedelta(hours=12)
    archived = await face.forget(since=since, until=since + timedelta(days=1), user_id="ada",
                                 mode="archive")  # fmt: skip
    assert archived.item_ids == [plumber]
    assert (await face.get(plumber)).status is ItemStatus.ARCHIVED
    assert (await face.forget(query="green sofa", user_id="ada", mode="silence")).item_ids == [sofa]
    assert (await face.get(sofa)).status is ItemStatus.SILENT
    assert await texts(face, "plumber Tuesday green sofa parked level") == []


async def test_a_closed_session_refuses_writes(face: Any) -> None:
    opened = await face.create_session("s-1", user_id="ada", metadata={"channel": "web"})
    assert opened.status == "open"
    await face.write("We talked about the garden", user_id="ada", session_id="s-1")
    closed = await face.close_session("s-1")
    assert closed.status == "closed"
    before = await face.stats(user_id="ada")
    with pytest.raises(Conflict):
        await face.write("One more thing about the garden", user_id="ada", session_id="s-1")
    assert await face.stats(user_id="ada") == before
    assert [s.id for s in await face.list_sessions(user_id="ada")] == ["s-1"]


async def test_export_erase_import_round_trip(face: Any) -> None:
    await face.write_batch(
        ["My daughter is called Mia", "I work as a nurse in Leeds"], user_id="ada"
    )
    await face.write("I collect stamps", user_id="bob")
    records: list[ExportRecord] = [r async for r in face.export(user_id="ada")]
    assert records[0].type == "header"
    assert {r.type for r in records} >= {"event", "item"}
    before = await texts(face, "nurse Leeds daughter Mia")

    report = await face.erase_user("ada")
    assert report.removed["items"] >= 2
    stats = await face.stats(user_id="ada")
    assert (stats.events, sum(stats.items.values())) == (0, 0)
    assert await texts(face, "nurse Leeds daughter Mia") == []
    assert await texts(face, "stamps", user="bob") == ["I collect stamps"]

    inserted = await face.import_records(records)
    assert inserted["items"] >= 2
    assert await texts(face, "nurse Leeds daughter Mia") == before
    again = await face.import_records(records)
    assert sum(again.values()) == 0


async def test_usage_promotion_and_mandate_candidates_through_each_face(face: Any) -> None:
    [rule] = (await face.write("Always answer in British English", user_id="ada")).item_ids
    turn = await face.turn(
        "How should you answer me?", "In British English, as you asked.", user_id="ada"
    )
    assert turn.cited == [rule]
    await face.update(rule, tier="high")
    for _ in range(10):
        await face.update(rule, feedback="correct")
    run = await face.run_lifecycle("promote", user_id="ada", dry_run=True)
    assert run.result is not None
    assert [c["item_id"] for c in run.result["mandate_candidates"]] == [rule]
    [candidate] = await face.mandate_candidates(user_id="ada")
    assert (candidate.item_id, candidate.cited_count, candidate.success_count) == (rule, 1, 10)
    accepted = await face.accept_mandate(rule)
    assert (accepted.kind, accepted.tier) == ("mandate", "always")
    with pytest.raises(NotFound):
        await face.accept_mandate("mem_missing")
    decay = await face.run_lifecycle("decay", user_id="ada", dry_run=True)
    assert decay.result is not None
    assert decay.result["changes"] == []
