"""Erasure that holds against the disk and against a worker: the erased text leaves no
bytes in SQLite's files, and a job racing the erasure stores nothing and caches nothing."""

from __future__ import annotations

from pathlib import Path

from cognimem import Memory, Settings
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.sqlite import SQLiteStore

SECRET = "Xylophonequartz"  # one distinctive word, found in any case and any table


def database_bytes(path: Path) -> bytes:
    """The main file, the WAL and the shared-memory index, as they are on disk."""
    found = b""
    for suffix in ("", "-wal", "-shm"):
        part = path.with_name(path.name + suffix)
        if part.exists():
            found += part.read_bytes()
    return found


def holds(data: bytes, word: str) -> bool:
    """Whether ``word`` is in ``data`` in any case (the FTS index keeps it lower-cased)."""
    return word.lower().encode() in data.lower()


async def test_sqlite_erasure_leaves_no_bytes_of_the_text_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    settings = Settings()
    async with Memory.open(
        f"sqlite:///{path}", settings=settings, embedder=HashingEmbedder()
    ) as mem:
        for i in range(30):
            await mem.write(f"my locker {i} holds the {SECRET} crystal", user_id="zed")
        await mem.write("my bike is green", user_id="bob")
        assert isinstance(mem.store, SQLiteStore)
        assert holds(database_bytes(path), SECRET)

        report = await mem.erase_user("zed")
        assert report.removed["events"] == 30
        assert not holds(database_bytes(path), SECRET)
        # the other user's text is still there, and still found
        assert holds(database_bytes(path), "my bike is green")
        packet = await mem.read("bike", user_id="bob")
        assert [i.text for i in packet.items] == ["my bike is green"]
