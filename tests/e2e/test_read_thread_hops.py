"""A read of a warm SQLite scope of ordinary size spends no hop to the store's threads:
its mandates listing (few rows, sought by ``items_kind``), searches and fetches run on
the calling thread, and its access counts are written later by a background flush.
Checked with every reader thread and the writer thread held, so a read that needed one
could not finish (or would time its step out)."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cognimem import Memory
from cognimem.models.packets import ContextPacket
from cognimem.providers.fakes import HashingEmbedder

USER = "ann"
RULE = "Never share the door code with visitors."
# generous: a read that waits for a held thread never finishes, one that does not
# finishes in milliseconds
NEVER = 60


async def read_with_threads_held(mem: Memory, question: str, **options: Any) -> ContextPacket:
    """``mem.read(question, **options)`` while every reader thread and the writer thread of
    the store are held: it finishes only if it needs none of them."""
    threads = mem.store._db  # type: ignore[attr-defined]
    release = threading.Event()
    held = [threads._reader_pool.submit(release.wait) for _ in range(2)]
    held.append(threads._writer_pool.submit(release.wait))
    try:
        return await asyncio.wait_for(mem.read(question, **options), NEVER)
    finally:
        release.set()
        for h in held:
            h.result()


async def test_a_warm_read_runs_without_the_stores_threads(tmp_path: Path) -> None:
    async with Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=HashingEmbedder()) as mem:
        await mem.write(RULE, user_id=USER, profile="mandate")
        await mem.write("I keep bees on the roof.", user_id=USER)
        await mem.read("what do I keep on the roof?", user_id=USER)  # loads the caches
        packet = await read_with_threads_held(mem, "what do I keep on the roof?", user_id=USER)
        assert packet.degraded == []
        assert [m.text for m in packet.sections.mandates] == [RULE]
        assert "bees" in packet.items[0].text


async def test_a_warm_read_naming_a_time_runs_without_the_stores_threads(
    tmp_path: Path,
) -> None:
    # such a read picks its facts from the scope's decoded facts (the user's, the
    # namespace's, the organisation's: each a copy kept while current) and reads the
    # open conflicts: a hop each before, though the copies were current
    async with Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=HashingEmbedder()) as mem:
        await mem.write("I live in Seattle and I keep bees on the roof.", user_id=USER)
        question = "what did I keep on the roof last summer?"
        at = datetime(2024, 11, 1, tzinfo=UTC)
        first = await mem.read(question, user_id=USER, reference_time=at)  # loads the copies
        assert "time_filter" in first.meta
        packet = await read_with_threads_held(mem, question, user_id=USER, reference_time=at)
        assert packet.degraded == []
        assert packet.model_dump(exclude={"steps"}) == first.model_dump(exclude={"steps"})


def test_the_mandates_listing_of_every_level_runs_inline() -> None:
    # the mandates step lists MAX_SECTION_ITEMS of each level in one call; a listing
    # larger than the inline cap goes to a reader thread (a level added must raise it)
    from cognimem.models.scope import LEVELS
    from cognimem.recall.steps import MAX_SECTION_ITEMS
    from cognimem.store.sqlite.listing import INLINE_LIST_ROWS

    assert len(LEVELS) * MAX_SECTION_ITEMS <= INLINE_LIST_ROWS
