"""The lifecycle through ``Memory`` on a real database (SQLite and PostgreSQL): edits
and feedback, forgetting, conflicts settled by the user, sessions, statistics, erasure
of a user, export and import."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cognimem import (
    Conflict,
    InvalidInput,
    ItemStatus,
    Memory,
    Message,
    NotFound,
    Settings,
    SyncMemory,
    Tier,
)
from cognimem.models import Scope
from cognimem.models.admin import ExportRecord, SessionStatus
from cognimem.models.ids import content_hash
from cognimem.models.knowledge import ConflictStatus, ConflictStrategy, Fact, FactStatus
from cognimem.providers.embeddings import CachedEmbedder, EmbedKind, FloatMatrix
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store import ItemFilter
from cognimem.store.sqlite import SQLiteStore
from cognimem.store.transfer import FORMAT_VERSION, embedded_text
from tests import servers
from tests.erasure import leftovers, sqlite_leftovers

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
ASYNC = Settings.model_validate({"ingest": {"mode": "async"}})


async def texts(memory: Memory, query: str, **scope: Any) -> list[str]:
    """What a read finds for ``query`` by its words (a read also returns what is merely
    nearest: with the hashing embedder, texts without a shared word score 0)."""
    packet = await memory.read(query, **scope)
    return [
        i.text
        for i in packet.items
        if i.signals.get("lexical", 0.0) > 0 or i.signals.get("vector", 0.0) >= 0.3
    ]


async def open_memory(url: str, **kw: Any) -> Memory:
    mem = Memory.open(
        url, settings=kw.pop("settings", Settings()), embedder=HashingEmbedder(), **kw
    )
    await mem.start()
    return mem


@pytest.fixture
async def fresh(tmp_path: Path) -> AsyncIterator[Memory]:
    """A second, empty database (SQLite) to import into."""
    mem = await open_memory(f"sqlite:///{tmp_path / 'fresh.db'}")
    try:
        yield mem
    finally:
        await mem.aclose()


# -- update ----------------------------------------------------------------------------


async def test_an_edited_text_is_found_by_its_new_words_only(memory: Memory) -> None:
    result = await memory.write("I collect vintage stamps from Norway", user_id="u")
    [item_id] = result.item_ids
    updated = await memory.update(item_id, text="I collect antique postcards from Peru")
    assert updated.text == "I collect antique postcards from Peru"
    assert (await memory.get(item_id)).text == updated.text
    assert await texts(memory, "antique postcards Peru", user_id="u") == [updated.text]
    assert await texts(memory, "vintage stamps Norway", user_id="u") == []
    [entry] = await memory.history(item_id)
    assert (entry.action, entry.actor) == ("updated", "api")
    assert entry.before is not None
    assert entry.before["text"].startswith("I collect vintage")
    assert entry.after is not None
    assert entry.after["text"] == updated.text
    # the same text again changes nothing and records nothing
    assert (await memory.update(item_id, text=updated.text)).text == updated.text
    assert len(await memory.history(item_id)) == 1


async def test_concurrent_updates_of_one_memory_all_count(memory: Memory) -> None:
    [item_id] = (await memory.write("the boiler is serviced in October", user_id="u")).item_ids
    # every update reads the memory before any of them writes: without the check that
    # the stored state is still the one an edit was made from, nine counts would be lost
    await asyncio.gather(
        *(memory.update(item_id, feedback="correct") for _ in range(10)),
        memory.update(item_id, importance=0.9),
    )
    item = await memory.get(item_id)
    assert (item.success_count, item.importance) == (10, 0.9)
    history = await memory.history(item_id)
    assert sorted(h.action for h in history) == ["feedback"] * 10 + ["updated"]


async def test_importance_tier_and_feedback(memory: Memory) -> None:
    result = await memory.write_batch(
        ["my gate code is on the fridge", "the plumber comes on Monday", "I drive a blue car"],
        user_id="u",
    )
    gate, plumber, car = result.item_ids
    scored = (await memory.get(gate)).importance  # the write gate's score
    assert scored != 0.9
    item = await memory.update(gate, importance=0.9, tier="high")
    assert (item.importance, item.tier) == (0.9, Tier.HIGH)

    good = await memory.update(gate, feedback="correct")
    assert good.success_count == 1
    assert good.confidence >= item.confidence
    wrong = await memory.update(plumber, feedback="incorrect")
    assert (wrong.status, wrong.failure_count) == (ItemStatus.SILENT, 1)
    assert "the plumber comes on Monday" not in await texts(memory, "plumber Monday", user_id="u")
    old = await memory.update(car, feedback="outdated")
    assert old.status is ItemStatus.ARCHIVED
    assert "I drive a blue car" not in await texts(memory, "blue car", user_id="u")
    assert (await memory.get(car)).status is ItemStatus.ARCHIVED

    history = await memory.history(gate)
    assert [h.action for h in history] == ["updated", "feedback"]
    assert history[0].before == {"importance": scored, "tier": "medium"}
    assert history[1].after == {"success_count": 1, "confidence": 1.0, "feedback": "correct"}
    [silenced] = await memory.history(plumber)
    assert silenced.after == {"status": "silent", "failure_count": 1, "feedback": "incorrect"}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"importance": 1.5}, "importance"),
        ({"tier": "sometimes"}, "tier"),
        ({"feedback": "meh"}, "feedback"),
        ({"text": "   "}, "text"),
        ({"text": "my key is sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}, "text"),
        ({}, None),
    ],
)
async def test_bad_updates_name_the_field(
    memory: Memory, kwargs: dict[str, Any], field: str | None
) -> None:
    [item_id] = (await memory.write("a note", user_id="u")).item_ids
    with pytest.raises(InvalidInput) as err:
        await memory.update(item_id, **kwargs)
    assert err.value.field == field
    assert await memory.history(item_id) == []


async def test_updating_an_unknown_or_foreign_item_is_not_found(memory: Memory) -> None:
    [item_id] = (await memory.write("a note", user_id="u")).item_ids
    with pytest.raises(NotFound):
        await memory.update("mem_missing", importance=0.1)
    with pytest.raises(NotFound):
        await memory.update(item_id, importance=0.1, tenant_id="other")


# -- forget ----------------------------------------------------------------------------


async def test_forget_modes_do_what_their_names_say(memory: Memory) -> None:
    result = await memory.write_batch(
        [
            Message(content="I had sushi in Osaka", occurred_at=T0),
            Message(content="the quarterly tax return is due", occurred_at=T0),
            Message(content="we adopted a kitten named Miso", occurred_at=T0 + timedelta(days=9)),
            Message(content="my dentist is Dr Lund", occurred_at=T0 + timedelta(days=9)),
        ],
        user_id="u",
    )
    sushi, tax, kitten, dentist = result.item_ids

    deleted = await memory.forget(ids=[sushi, "mem_missing"], user_id="u")
    assert (deleted.mode, deleted.item_ids, deleted.dry_run) == ("delete", [sushi], False)
    with pytest.raises(NotFound):
        await memory.get(sushi)
    assert await memory.store.get_items("default", [sushi]) == []
    assert [h.action for h in await memory.history(sushi)] == ["deleted"]

    preview = await memory.forget(
        query="quarterly tax return", mode="archive", user_id="u", dry_run=True
    )
    assert preview.item_ids == [tax]
    assert preview.dry_run
    assert (await memory.get(tax)).status is ItemStatus.ACTIVE
    archived = await memory.forget(query="quarterly tax return", mode="archive", user_id="u")
    assert archived.item_ids == [tax]
    assert (await memory.get(tax)).status is ItemStatus.ARCHIVED
    # the next message is indexed with it (as its context) and was not forgotten, but
    # that context alone is no evidence for the query: a read returns neither
    assert await texts(memory, "quarterly tax return", user_id="u") == []
    assert await texts(memory, "kitten Miso", user_id="u") == ["we adopted a kitten named Miso"]

    silenced = await memory.forget(
        since=T0 + timedelta(days=8), mode="silence", user_id="u", limit=1
    )
    assert silenced.item_ids == [dentist]  # newest first, at most `limit`
    silenced = await memory.forget(since=T0 + timedelta(days=8), mode="silence", user_id="u")
    assert silenced.item_ids == [kitten]  # the dentist is silent already
    assert (await memory.get(kitten)).status is ItemStatus.SILENT
    assert "we adopted a kitten named Miso" not in await texts(memory, "kitten Miso", user_id="u")
    assert [h.after for h in await memory.history(kitten)] == [{"status": "silent"}]

    # nothing matched: nothing happens, no error
    assert (await memory.forget(query="volcano eruption", user_id="u")).item_ids == []
    assert (await memory.forget(ids=[tax], user_id="someone-else")).item_ids == []
    assert (await memory.forget(until=T0 - timedelta(days=1), user_id="u")).item_ids == []
    # a time range deletes whatever the status
    gone = await memory.forget(until=T0 + timedelta(days=30), user_id="u")
    assert sorted(gone.item_ids) == sorted([tax, kitten, dentist])
    assert (await memory.stats(user_id="u")).items == {}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({}, "ids"),
        ({"ids": ["x"], "query": "y"}, "ids"),
        ({"query": "y", "since": T0}, "ids"),
        ({"ids": ["x"], "mode": "shred"}, "mode"),
        ({"ids": ["x"], "limit": 0}, "limit"),
        ({"since": T0, "until": T0 - timedelta(days=1)}, "since"),
        ({"query": ""}, "query"),
    ],
)
async def test_bad_forgets_name_the_field(
    memory: Memory, kwargs: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        await memory.forget(user_id="u", **kwargs)
    assert err.value.field == field


# -- conflicts -------------------------------------------------------------------------


async def conflict_between_paris_and_rome(memory: Memory) -> str:
    await memory.write_batch(
        [
            Message(content="I live in Paris", occurred_at=T0),
            Message(content="I live in Rome", occurred_at=T0),
        ],
        user_id="u",
    )
    [conflict] = await memory.conflicts(user_id="u")
    assert conflict.strategy is ConflictStrategy.ASK_USER
    return conflict.id


async def test_resolving_a_conflict_with_a_winner_supersedes_the_other(memory: Memory) -> None:
    conflict_id = await conflict_between_paris_and_rome(memory)
    rome = await memory.get_fact("user:location:city", user_id="u")  # the newest
    paris = next(f for f in await memory.facts(user_id="u") if f.value == "Paris")
    with pytest.raises(InvalidInput) as err:
        await memory.resolve_conflict(conflict_id, winner_fact_id="fct_other")
    assert err.value.field == "winner_fact_id"

    resolved = await memory.resolve_conflict(conflict_id, winner_fact_id=paris.id, note="moved")
    assert (resolved.status, resolved.winner_fact_id, resolved.note) == (
        ConflictStatus.RESOLVED, paris.id, "moved",
    )  # fmt: skip
    assert [f.value for f in await memory.facts(key="user:location:city", user_id="u")] == ["Paris"]
    [ended] = await memory.store.get_facts("default", [rome.id])
    assert (ended.status, ended.superseded_by) == (FactStatus.SUPERSEDED, paris.id)
    assert [(h.action, h.actor) for h in await memory.history(rome.id)][-1] == (
        "superseded", "api",
    )  # fmt: skip
    assert [h.action for h in await memory.history(conflict_id)] == ["resolved"]
    assert await memory.conflicts(user_id="u") == []
    # the same again is a no-op; another way is a conflict
    assert await memory.resolve_conflict(conflict_id, winner_fact_id=paris.id) == resolved
    with pytest.raises(Conflict):
        await memory.resolve_conflict(conflict_id, winner_fact_id=rome.id)
    with pytest.raises(NotFound):
        await memory.resolve_conflict("cfl_missing")
    with pytest.raises(NotFound):
        await memory.resolve_conflict(conflict_id, tenant_id="other")


async def test_resolving_a_conflict_without_a_winner_keeps_both(memory: Memory) -> None:
    conflict_id = await conflict_between_paris_and_rome(memory)
    resolved = await memory.resolve_conflict(conflict_id)
    assert (resolved.status, resolved.strategy) == (
        ConflictStatus.RESOLVED, ConflictStrategy.BOTH_VALID,
    )  # fmt: skip
    values = {f.value for f in await memory.facts(key="user:location:city", user_id="u")}
    assert values == {"Paris", "Rome"}
    assert await memory.conflicts(user_id="u") == []


# -- sessions and statistics -----------------------------------------------------------


class _ClosesTheSession(HashingEmbedder):
    """Closes a session while a write naming it is being embedded: after the write's
    own check that the session is open, before its commit."""

    def __init__(self) -> None:
        super().__init__()
        self.memory: Memory | None = None

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if self.memory is not None and kind == "document":
            memory, self.memory = self.memory, None
            await memory.close_session("s1")
        return await super().embed(texts, kind)


async def test_a_session_closed_during_a_write_refuses_it(memory_url: str) -> None:
    embedder = _ClosesTheSession()
    async with Memory.open(memory_url, settings=Settings(), embedder=embedder) as memory:
        await memory.create_session("s1", user_id="u")
        before = await memory.stats(user_id="u")
        embedder.memory = memory
        with pytest.raises(Conflict, match="session s1 is closed"):
            await memory.write("said as the session closed", user_id="u", session_id="s1")
        assert embedder.memory is None  # the session was closed mid-write
        assert (await memory.get_session("s1")).status is SessionStatus.CLOSED
        after = await memory.stats(user_id="u")
        assert (after.events, after.items) == (before.events, before.items) == (0, {})


async def test_a_closed_session_refuses_writes_and_stores_nothing(memory: Memory) -> None:
    created = await memory.create_session("s1", user_id="u", metadata={"channel": "web"})
    assert created.status is SessionStatus.OPEN
    assert created.scope.user_id == "u"
    assert await memory.create_session("s1", user_id="u") == created  # open: unchanged
    await memory.write("first message in the session", user_id="u", session_id="s1")

    closed = await memory.close_session("s1")
    assert closed.status is SessionStatus.CLOSED
    assert closed.closed_at is not None
    assert await memory.close_session("s1") == closed
    assert await memory.get_session("s1") == closed
    before = await memory.stats(user_id="u")
    with pytest.raises(Conflict, match="session s1 is closed"):
        await memory.write("too late", user_id="u", session_id="s1")
    with pytest.raises(Conflict):
        await memory.write_batch(["too", "late"], user_id="u", session_id="s1")
    with pytest.raises(Conflict):
        await memory.create_session("s1", user_id="u")
    assert await memory.stats(user_id="u") == before

    # sessions are optional: one never created accepts writes; so does another namespace
    await memory.write("no session record", user_id="u", session_id="s2")
    await memory.write("elsewhere", scope={"namespace": "work", "user_id": "u", "session_id": "s1"})
    with pytest.raises(NotFound):
        await memory.get_session("s2")
    with pytest.raises(NotFound):
        await memory.close_session("s2")

    await memory.create_session("s3", user_id="v")
    assert [s.id for s in await memory.list_sessions(all_users=True)] == ["s3", "s1"]
    assert [s.id for s in await memory.list_sessions(user_id="u")] == ["s1"]
    stats = await memory.stats(user_id="u")
    assert (stats.events, stats.sessions) == (2, {"closed": 1})


async def test_stats_count_the_scope(memory: Memory) -> None:
    await memory.write_batch(
        ["I'm allergic to shellfish", "My sister Kim lives in Oslo"], user_id="u"
    )
    await memory.write("unrelated", user_id="v")
    stats = await memory.stats(user_id="u")
    assert stats.events == 2
    assert stats.items == {"active": 2}
    assert stats.items_by_kind == {"episode": 2}
    assert stats.facts.get("active", 0) >= 2
    assert stats.entities >= 1
    assert (await memory.stats(all_users=True)).events == 3


# -- erasure ---------------------------------------------------------------------------


async def footprint(memory: Memory, user_id: str, word: str, **scope: Any) -> list[str]:
    """Writes that touch every table; returns ids to look for after an erasure."""
    await memory.create_session(f"{word}-s", user_id=user_id, **scope)
    first = await memory.write_batch(
        [
            Message(content=f"My sister {word.title()} lives in Oslo", occurred_at=T0),
            Message(content=f"I live in {word.title()}ville", occurred_at=T0),
            Message(content=f"I live in {word.title()}burg", occurred_at=T0),
            Message(content=f"I'm allergic to {word}", occurred_at=T0, idempotency_key=word),
        ],
        user_id=user_id,
        session_id=f"{word}-s",
        **scope,
    )
    again = await memory.write(f"I'm allergic to {word}", user_id=user_id, **scope)
    facts = await memory.facts(user_id=user_id, include_history=True, **scope)
    return [*first.event_ids, *first.item_ids, *again.event_ids, *(f.id for f in facts)]


async def test_erasing_a_user_leaves_nothing_of_them(memory: Memory) -> None:
    ids = await footprint(memory, "zed-gone", "quokka")
    ids += await footprint(memory, "zed-gone", "wombat", scope={"namespace": "work"})
    await footprint(memory, "bob", "otter")
    [item_id] = (await memory.write("a quokka note", user_id="zed-gone")).item_ids
    await memory.update(item_id, feedback="correct")
    await memory.read("quokka", user_id="zed-gone")  # warms every cache
    [conflict] = await memory.conflicts(user_id="zed-gone")
    await memory.resolve_conflict(conflict.id)

    report = await memory.erase_user("zed-gone")
    assert report.removed["events"] == 11
    assert report.removed["jobs"] == 0
    assert report.removed["embeddings"] > 0
    needles = ["zed-gone", "quokka", "Quokka", "wombat", "Wombat", *ids, conflict.id]
    assert await leftovers(memory.store, "zed-gone", needles) == {}
    assert await texts(memory, "quokka", user_id="zed-gone") == []
    assert await memory.facts(user_id="zed-gone") == []
    assert (await memory.stats(user_id="zed-gone")).model_dump() == {
        "events": 0, "items": {}, "items_by_kind": {}, "facts": {}, "entities": 0,
        "relations": 0, "open_conflicts": 0, "sessions": {},
    }  # fmt: skip
    # the other user keeps everything
    assert await texts(memory, "allergic otter", user_id="bob")
    assert len(await memory.facts(user_id="bob")) >= 3
    assert await memory.get_session("otter-s")
    with pytest.raises(InvalidInput):
        await memory.erase_user("")


async def test_erasure_purges_queued_jobs_and_the_shared_file(db_url: str) -> None:
    mem = await open_memory(db_url, settings=ASYNC)
    try:
        queued = await mem.write("I'm allergic to quokkas", user_id="zed-gone")
        await mem.write("I'm allergic to otters", user_id="bob")
        done = await mem.write("my quokka is called Pip", user_id="zed-gone")
        assert queued.job_id
        assert done.job_id
        while await mem.process_next_job("w1") is not None:
            pass
        await mem.write("another quokka note", user_id="zed-gone")  # stays queued
        await mem.embedder.embed(["I'm allergic to quokkas"])  # in the process's LRU

        report = await mem.erase_user("zed-gone")
        assert report.removed["jobs"] == 3
        assert report.removed["events"] == 3
        assert isinstance(mem.store, SQLiteStore)
        # the store and its outbox share the file: every table of it is clean
        assert sqlite_leftovers(mem.store.path, "zed-gone", ["zed-gone", "quokka"]) == {}
        assert content_hash("I'm allergic to quokkas") in report.content_hashes
        assert await mem.store.get_embeddings(mem.embedder.model_id, report.content_hashes) == {}
        # not in this process's memory either: embedding the text again is a miss
        assert isinstance(mem.embedder, CachedEmbedder)
        misses = mem.embedder.misses
        await mem.embedder.embed(["I'm allergic to quokkas"])
        assert mem.embedder.misses == misses + 1
        assert await mem.process_next_job("w1") is None
        assert await mem.store.count_items(ItemFilter(scope=Scope(user_id="bob"))) == 1
    finally:
        await mem.aclose()


async def test_erasure_on_postgres_purges_redis_jobs_and_cached_vectors(
    postgres_dsn: str, redis_server: servers.RedisServer
) -> None:
    import redis.asyncio as aioredis

    settings = Settings.model_validate(
        {
            "ingest": {"mode": "async"},
            "queue_url": redis_server.url,
            "embedding": {"redis_url": redis_server.url},
        }
    )
    mem = await open_memory(postgres_dsn, settings=settings)
    client = aioredis.Redis.from_url(redis_server.url)
    try:
        await mem.write("I'm allergic to quokkas", user_id="zed-gone")
        said = embedded_text(None, "I'm allergic to quokkas")
        await mem.embedder.embed([said])  # into the store's table and Redis
        key = f"cognimem:emb:{mem.embedder.model_id}:{content_hash(said)}"
        assert await client.exists(key)

        report = await mem.erase_user("zed-gone")
        assert report.removed["jobs"] == 1
        assert report.removed["events"] == 1
        assert not await client.exists(key)
        assert await mem.store.get_embeddings(mem.embedder.model_id, [content_hash(said)]) == {}
        assert await leftovers(mem.store, "zed-gone", ["zed-gone", "quokka"]) == {}
        jobs = [k async for k in client.scan_iter(match="cognimem:job:*")]
        for k in jobs:
            assert b"zed-gone" not in (await client.hget(k, "payload") or b"")
    finally:
        await client.aclose()
        await mem.aclose()


# -- export and import -----------------------------------------------------------------


QUERIES = ["where does my sister live", "allergies", "what do I drive", "Osaka trip"]


async def write_a_life(memory: Memory) -> None:
    await memory.create_session("trip", user_id="u")
    await memory.write_batch(
        [
            Message(content="My sister Kim lives in Oslo", name="Ada", occurred_at=T0),
            Message(content="I'm allergic to shellfish", name="Ada", occurred_at=T0),
            Message(content="I drive a blue Volvo", name="Ada", occurred_at=T0),
        ],
        user_id="u",
    )
    await memory.write(
        "We had ramen in Osaka last night", user_id="u", session_id="trip", occurred_at=T0
    )
    await memory.write("someone else's note", user_id="v")


async def reads(memory: Memory) -> list[list[str]]:
    """What each query returns, in order (scores may differ by a hair: SQLite's BM25
    counts every user's rows, and the source database has another user's)."""
    out = []
    for q in QUERIES:
        packet = await memory.read(q, user_id="u", reference_time=T0 + timedelta(days=1))
        out.append([i.text for i in packet.items])
    return out


ID_FIELDS = {
    "id", "subject_entity_id", "object_entity_id", "evidence_item_ids", "evidence_event_ids",
    "superseded_by",
}  # fmt: skip


def without_ids(facts: list[Fact]) -> list[dict[str, Any]]:
    return [f.model_dump(exclude=ID_FIELDS) for f in facts]


async def test_export_then_import_into_a_fresh_database_reads_the_same(
    memory: Memory, fresh: Memory
) -> None:
    await write_a_life(memory)
    records = [r async for r in memory.export(user_id="u")]
    header = records[0]
    assert header.type == "header"
    assert header.data["format_version"] == FORMAT_VERSION
    assert header.data["schema_version"] == await memory.store.schema_version()
    assert header.data["embedding_model"] == memory.embedder.model_id
    assert not any("someone else" in json.dumps(r.data) for r in records)

    # as a file would carry them: JSON lines, read back as dicts
    lines = [json.loads(r.model_dump_json()) for r in records]
    counts = await fresh.import_records(lines, tenant_id="default")
    assert counts["items"] == 4
    assert counts["events"] == 4
    assert counts["sessions"] == 1
    assert counts["facts"] >= 3
    assert set((await fresh.import_records(iter(lines))).values()) == {0}
    assert await reads(fresh) == await reads(memory)
    # the copies have ids of their own (made the tenant's on import), and their
    # references lead to the copies
    copies = await fresh.facts(user_id="u")
    assert without_ids(copies) == without_ids(await memory.facts(user_id="u"))
    for f in copies:
        evidence = await fresh.store.get_items("default", f.evidence_item_ids)
        assert [i.id for i in evidence] == f.evidence_item_ids
    assert [s.id for s in await fresh.list_sessions(user_id="u")] == ["trip"]


async def test_import_re_embeds_with_its_own_model(memory: Memory, tmp_path: Path) -> None:
    await write_a_life(memory)
    records = [r async for r in memory.export(user_id="u")]
    other = Memory.open(
        f"sqlite:///{tmp_path / 'other.db'}", settings=Settings(), embedder=HashingEmbedder(dim=96)
    )
    async with other:

        async def stream() -> AsyncIterator[ExportRecord]:
            for r in records:
                yield r

        await other.import_records(stream(), tenant_id="t2")
        hits = await other.read("blue Volvo", scope={"tenant_id": "t2", "user_id": "u"})
        assert [i.text for i in hits.items][:1] == ["I drive a blue Volvo"]
        [item] = hits.items[:1]
        stored = await other.get(item.id, tenant_id="t2")
        assert stored.embedding_model == other.embedder.model_id
        assert (await other.stats(scope={"tenant_id": "t2", "user_id": "u"})).events == 4


async def test_a_bad_import_line_is_named_and_its_batch_not_stored(
    memory: Memory, fresh: Memory
) -> None:
    await write_a_life(memory)
    lines = [
        json.loads(r.model_dump_json()) for r in [r async for r in memory.export(all_users=True)]
    ]
    broken = [*lines[:3], {"type": "item", "data": {"id": "mem_x"}}, *lines[3:]]
    with pytest.raises(InvalidInput, match="line 4") as err:
        await fresh.import_records(broken)
    assert err.value.field == "line 4"
    assert (await fresh.stats(all_users=True)).events == 0
    later = {"format_version": FORMAT_VERSION + 1}
    with pytest.raises(InvalidInput, match="line 1"):
        await fresh.import_records([{"type": "header", "data": later}])
    with pytest.raises(InvalidInput, match="line 2"):
        await fresh.import_records([lines[0], {"type": "nonsense", "data": {}}])


def test_sync_memory_has_the_lifecycle_too(db_url: str, tmp_path: Path) -> None:
    with SyncMemory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        [item_id] = mem.write("I collect stamps", user_id="u").item_ids
        assert mem.update(item_id, importance=0.8).importance == 0.8
        assert mem.create_session("s", user_id="u").id == "s"
        assert [s.id for s in mem.list_sessions(user_id="u")] == ["s"]
        assert mem.close_session("s").status is SessionStatus.CLOSED
        assert mem.get_session("s").status is SessionStatus.CLOSED
        assert mem.stats(user_id="u").events == 1
        records = list(mem.export(user_id="u"))
        assert [r.type for r in records][:2] == ["header", "session"]
        assert mem.forget(ids=[item_id], user_id="u", mode="archive").item_ids == [item_id]
        assert mem.erase_user("u").removed["items"] == 1
        assert mem.import_records(records)["items"] == 1
        with pytest.raises(NotFound):
            mem.resolve_conflict("cfl_missing")
