"""Single-threaded BLAS for cognimem's matrix products.

The products cognimem computes (one query against up to ~100k 384-float rows) are too
small for a multi-threaded BLAS: OpenBLAS wakes its worker threads for each one and
they spin after it, so with two cores a read spent twice the CPU and its other steps
(the SQLite search, the query embedding) waited for a core. Measured on the 10k-item
read benchmark: ~44 → ~23 ms of CPU per read and a 10k×384 product at 1.05 → 0.46 ms.

:func:`single_threaded` limits BLAS to one thread while any cognimem product runs and
restores the process's own setting when the last one ends (reference-counted, so
concurrent products in several threads do not restore it under each other).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from threadpoolctl import ThreadpoolController

_lock = threading.Lock()
_blas: list[Any] | None = None  # threadpoolctl's controllers of the loaded BLAS libraries
_saved: list[int] = []
_depth = 0


@contextmanager
def single_threaded() -> Iterator[None]:
    global _blas, _saved, _depth
    with _lock:
        if _depth == 0:
            if _blas is None:
                found = ThreadpoolController().lib_controllers
                _blas = [c for c in found if c.user_api == "blas"]
            _saved = [c.num_threads for c in _blas]
            for c in _blas:
                if c.num_threads != 1:
                    c.set_num_threads(1)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _blas is not None:
                for c, n in zip(_blas, _saved, strict=True):
                    if n != 1:
                        c.set_num_threads(n)
