"""A read's access counts are kept in memory and written off the read path: one
transaction per ``recall.access_flush_s`` (after the first uncounted read) and at close.
They survive a normal close; a crash loses at most the reads not flushed yet (the kill
is real: a subprocess calls ``os._exit``). Checked on each backend from a second
``Memory`` on the same database."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cognimem import Memory, Settings
from cognimem.config import RecallSettings
from cognimem.models import MemoryItem
from cognimem.providers.fakes import HashingEmbedder

ROOT = Path(__file__).resolve().parents[2]
USER = "ada"
SAID = "The spare key is under the third flowerpot."
QUESTION = "Where is the spare key?"
T0 = datetime(2025, 3, 1, 9, tzinfo=UTC)
KILLED = 137

# the child: read three times, wait until its own flush is in the database (when told
# to), then die without closing
CHILD = """
import asyncio, os, sys
from tests.e2e.test_access_counts import KILLED, QUESTION, USER, counted, opened

async def main(url, flush_s, wait):
    mem = opened(url, float(flush_s))
    await mem.start()
    for _ in range(3):
        await mem.read(QUESTION, user_id=USER)
    while wait == "wait" and (await counted(mem)).access_count < 3:
        await asyncio.sleep(0.02)
    os._exit(KILLED)

asyncio.run(main(*sys.argv[1:]))
"""


def opened(url: str, flush_s: float, clock: list[datetime] | None = None) -> Memory:
    settings = Settings(recall=RecallSettings(access_flush_s=flush_s))
    now = clock or [T0]
    return Memory.open(url, settings=settings, embedder=HashingEmbedder(), clock=lambda: now[0])


async def counted(mem: Memory) -> MemoryItem:
    """The remembered sentence as the database holds it now (a listing counts nothing)."""
    [item] = [i for i in await mem.list_items(user_id=USER) if i.text == SAID]
    return item


async def seed(url: str) -> None:
    async with opened(url, 1.0) as mem:
        await mem.write(SAID, user_id=USER)
        await mem.write("I had pasta for lunch.", user_id=USER)


async def test_reads_are_counted_off_the_read_path_and_a_close_writes_them(
    memory_url: str,
) -> None:
    await seed(memory_url)
    clock = [T0]
    async with opened(memory_url, 3_600, clock) as other:
        async with opened(memory_url, 3_600, clock) as mem:
            for hour in range(3):
                clock[0] = T0 + timedelta(hours=hour)
                packet = await mem.read(QUESTION, user_id=USER)
                assert SAID in [i.text for i in packet.items]
            # the reads wrote nothing yet: their counts wait for the flush
            assert (await counted(other)).access_count == 0
        item = await counted(other)
        assert (item.access_count, item.last_accessed_at) == (3, T0 + timedelta(hours=2))


async def test_counts_are_flushed_in_the_background_while_reads_go_on(memory_url: str) -> None:
    await seed(memory_url)
    async with opened(memory_url, 3_600) as other, opened(memory_url, 0.05) as mem:
        for _ in range(2):
            await mem.read(QUESTION, user_id=USER)
        for _ in range(1_500):  # bounded: the flush is due 0.05 s after the first read
            if (await counted(other)).access_count == 2:
                break
            await asyncio.sleep(0.02)
        assert (await counted(other)).access_count == 2
        await mem.read(QUESTION, user_id=USER)
    async with opened(memory_url, 3_600) as after:
        assert (await counted(after)).access_count == 3


def crash_after_reads(url: str, flush_s: float, wait: bool) -> None:
    child = subprocess.run(
        [sys.executable, "-c", CHILD, url, str(flush_s), "wait" if wait else "no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert child.returncode == KILLED, child.stdout + child.stderr


async def test_a_crash_loses_at_most_the_reads_not_flushed_yet(memory_url: str) -> None:
    await seed(memory_url)
    # flushed before the crash: kept
    crash_after_reads(memory_url, 0.05, wait=True)
    async with opened(memory_url, 3_600) as mem:
        assert (await counted(mem)).access_count == 3
    # still in the window when the process died: those reads' counts are lost, and only
    # those (what was flushed before stays)
    crash_after_reads(memory_url, 3_600, wait=False)
    async with opened(memory_url, 3_600) as mem:
        assert (await counted(mem)).access_count == 3
