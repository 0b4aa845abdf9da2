"""The cyclic garbage collector's young generation held back while reads run.

A read of a 10k scope holds ~1,000–2,000 tracked objects (candidates, rows, dicts) live
at its peak and frees nearly all of them by reference counting when it returns. At
CPython's default threshold (700 allocations net of frees) nearly every read triggers a
young collection that finds those objects alive and moves them to the older
generations, and every ~200 reads that growth triggers a full collection of the whole
heap (~108k objects, ~70 ms under load): ~0.6 ms of CPU a read, all of it spent finding
nothing to free. While at least one read runs, ``reading`` raises the young
generation's threshold to ``READ_THRESHOLD`` (over five times the largest peak
measured), so a read's temporaries die before any collection looks at them; the
process's own thresholds come back when the last read ends. Cyclic garbage is still
collected: a read rarely leaves more than a few dozen objects behind, and the restored
threshold collects them after the reads as before."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

READ_THRESHOLD = 10_000

_lock = threading.Lock()
_running = 0
_saved: tuple[int, int, int] | None = None


@contextmanager
def reading() -> Iterator[None]:
    """Raise the young generation's threshold while this and any other read run.

    A threshold of 0 (collection turned off) or one already higher is left alone; the
    thresholds seen when the first read started are restored when the last one ends."""
    global _running, _saved
    with _lock:
        if _running == 0:
            now = gc.get_threshold()
            if 0 < now[0] < READ_THRESHOLD:
                _saved = now
                gc.set_threshold(READ_THRESHOLD, now[1], now[2])
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None
