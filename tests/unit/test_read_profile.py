"""benchmarks/read_profile.py puts each py-spy sample where its CPU went: a thread that
waits counts nowhere, and a busy stack goes to the bucket of its deepest known frame."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).parent.parent.parent / "benchmarks"


@pytest.fixture
def read_profile(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("read_profile")


def test_the_deepest_known_frame_decides_the_bucket(read_profile: ModuleType) -> None:
    stack = (
        "Runner.run (asyncio/runners.py:118);ReadService.read (cognimem/services/reading.py:90);"
        "assemble (cognimem/recall/assemble.py:40);embed_sync (cognimem/providers/onnx.py:70);"
        "0x7f00 (libonnxruntime.so)"
    )
    assert read_profile.bucket_of(stack) == "query embedding (onnx, tokenizer)"
    shallower = "Runner.run (asyncio/runners.py:118);assemble (cognimem/recall/assemble.py:40)"
    assert read_profile.bucket_of(shallower) == "assembly and packing"
    assert read_profile.bucket_of("main (x.py:1);mystery (y.py:2)") == read_profile.OTHER


def test_waiting_threads_are_left_out(read_profile: ModuleType, tmp_path: Path) -> None:
    raw = tmp_path / "raw.txt"
    raw.write_text(
        "_worker (concurrent/futures/thread.py:81);_queue_SimpleQueue_get_impl (libpython);"
        "PyThread_acquire_lock_timed (libpython3.11.so);0x7f1f (libc.so.6);0x7f2e (libc.so.6) 900\n"
        "_run_once (asyncio/base_events.py:1);select_epoll_poll_impl (libpython);"
        "epoll_wait (libc.so.6) 50\n"
        "fetchall (cognimem/store/sqlite/items.py:12);_pysqlite_fetch_one_row (sqlite3) 7\n"
        "read (cognimem/recall/fuse.py:3) 3\n"
    )
    counts = read_profile.aggregate(raw)
    assert dict(counts) == {
        "fetch and decode rows (SQL, records)": 7,
        "fusion and rerank": 3,
    }
    rows = read_profile.table(counts, cpu_ms=10.0)
    assert [r["ms_per_read"] for r in rows] == [7.0, 3.0]
