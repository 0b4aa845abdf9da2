"""A read of a large SQLite scope whose HNSW index failed is answered by the exact scan
and says so in the packet's ``degraded`` (``store/sqlite/ann.py``), and so does a
write's near-duplicate search, through ``Memory`` on a real SQLite file; the index is
built again after its back-off. (PostgreSQL's searches have no such fallback.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cognimem import Memory, Settings
from cognimem.metrics import degraded_reason
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.sqlite import SQLiteStore, ann

MIN_ROWS = 100
THINGS = ["lantern", "compass", "kettle", "ukulele", "telescope", "hammock", "atlas"]
PLACES = ["attic", "garage", "cellar", "shed", "pantry", "wardrobe", "workshop"]


def _lines(n: int) -> list[str]:
    return [
        f"I stored the {THINGS[i % 7]} number {i} in the {PLACES[(i // 7) % 7]} on shelf {i}"
        for i in range(n)
    ]


async def test_a_read_whose_index_failed_says_degraded_until_it_is_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(ann, "monotonic", lambda: now[0])
    settings = Settings(vector_index_min_rows=MIN_ROWS)
    url = f"sqlite:///{tmp_path / 'large.db'}"
    query = "where did I store the telescope number 151?"
    async with Memory.open(url, settings=settings, embedder=HashingEmbedder()) as mem:
        await mem.write_batch(_lines(220), user_id="alice")
        store = mem.store
        assert isinstance(store, SQLiteStore)
        with monkeypatch.context() as broken:
            broken.setitem(sys.modules, "usearch.index", None)  # importing it fails
            await mem.read(query, user_id="alice")  # starts the build, which fails
            store.wait_for_vector_indexes()
            packet = await mem.read(query, user_id="alice")
            # "fast" skips its vector step once the lexical one found items: the events
            # step's own vector search is the one that fell back
            counted = await mem.read(
                "How many times did I store a telescope?", user_id="alice", preset="fast"
            )
        assert "vector" not in [s.name for s in counted.steps if s.skipped is None]
        assert [degraded_reason(d) for d in counted.degraded] == ["vector_index"]
        entries = [d for d in packet.degraded if degraded_reason(d) == "vector_index"]
        assert len(entries) == 1, packet.degraded
        assert "usearch cannot be imported" in entries[0]
        # the exact scan still answered
        assert "telescope number 151 " in packet.items[0].text

        now[0] += ann.DEFAULT_RETRY_S + 1  # past the back-off: built again
        await mem.read(query, user_id="alice")
        store.wait_for_vector_indexes()
        packet = await mem.read(query, user_id="alice")
        assert packet.degraded == []
        assert "telescope number 151 " in packet.items[0].text
        status = store.vector_index_status()
        assert (status["indexes"], status["failed"], status["degraded"]) == (1, 0, None)


async def test_a_write_whose_near_duplicate_search_fell_back_says_degraded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write's near-duplicate search (``ingest/understand.py``) of such a scope is
    the exact scan too: its result says so, and the repeat is still merged."""
    now = [1000.0]
    monkeypatch.setattr(ann, "monotonic", lambda: now[0])
    settings = Settings(vector_index_min_rows=MIN_ROWS)
    url = f"sqlite:///{tmp_path / 'large.db'}"
    lines = _lines(220)
    async with Memory.open(url, settings=settings, embedder=HashingEmbedder()) as mem:
        await mem.write_batch(lines, user_id="alice")
        store = mem.store
        assert isinstance(store, SQLiteStore)
        with monkeypatch.context() as broken:
            broken.setitem(sys.modules, "usearch.index", None)  # importing it fails
            await mem.write("I fixed the garden gate on Sunday", user_id="alice")  # builds
            store.wait_for_vector_indexes()
            # nearly a stored line (the very same text is the gate's duplicate)
            repeat = await mem.write(lines[151] + " again", user_id="alice")
        assert [degraded_reason(d) for d in repeat.degraded] == ["vector_index"]
        assert "usearch cannot be imported" in repeat.degraded[0]
        # the exact scan still found the stored line: merged into it, nothing inserted
        [merged] = repeat.knowledge.items_merged
        assert repeat.messages[0].item_ids == [merged]
        assert [i.text for i in await mem.store.get_items("default", [merged])] == [lines[151]]

        now[0] += ann.DEFAULT_RETRY_S + 1  # past the back-off: built again
        await mem.write("I oiled the garden gate on Monday", user_id="alice")
        store.wait_for_vector_indexes()
        fresh = await mem.write("I painted the garden gate on Tuesday", user_id="alice")
        assert fresh.degraded == []
