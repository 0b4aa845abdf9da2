"""Single-threaded BLAS for cognimem's matrix products.

The products cognimem computes (one query against up to ~100k 384-float rows) are too
small for a multi-threaded BLAS: OpenBLAS wakes its worker threads for each one and
they spin after it, so with two cores a read spent twice the CPU and its other steps
(the SQLite search, the query embedding) waited for a core. Measured on the 10k-item
read benchmark: ~44 → ~23 ms of CPU per read and a 10k×384 product at 1.05 → 0.46 ms.

:func:`single_threaded` limits BLAS to one thread while any cognimem product runs and
restores the process's own setting when the last one ends (reference-counted, so
concurrent products in several threads do not restore it under each other).

The limit is set through OpenBLAS's own ``openblas_set_num_threads`` when the library
runs its own thread pool: threadpoolctl (3.8 here) ignores ``set_num_threads`` for that
pool from every thread but the first that called it, so a product in a SQLite reader
thread ran on two threads whenever the main thread had limited BLAS first — and its
worker then spun for ~10 ms of CPU per read on the 10k-item benchmark.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from threadpoolctl import ThreadpoolController

_lock = threading.Lock()
_blas: list[tuple[Any, Callable[[int], Any]]] | None = None  # (controller, its setter)
_saved: list[int] = []
_depth = 0


def thread_setter(controller: Any) -> Callable[[int], Any]:
    """What sets ``controller``'s library's thread count from any thread: OpenBLAS's
    own setter for its pthreads pool (found under the affixes threadpoolctl knows:
    ``scipy_openblas_set_num_threads64_`` in numpy's wheels), the controller's
    ``set_num_threads`` for the rest (per-thread limits already: OpenMP, MKL)."""
    if controller.internal_api == "openblas" and controller.threading_layer != "openmp":
        for prefix, suffix in itertools.product(("", "scipy_"), ("", "64_", "_64")):
            found = getattr(controller.dynlib, f"{prefix}openblas_set_num_threads{suffix}", None)
            if found is not None:
                return found  # type: ignore[no-any-return]
    return controller.set_num_threads  # type: ignore[no-any-return]


@contextmanager
def single_threaded() -> Iterator[None]:
    global _blas, _saved, _depth
    with _lock:
        if _depth == 0:
            if _blas is None:
                found = ThreadpoolController().lib_controllers
                _blas = [(c, thread_setter(c)) for c in found if c.user_api == "blas"]
            _saved = [c.get_num_threads() for c, _ in _blas]
            for (_, set_threads), n in zip(_blas, _saved, strict=True):
                if n != 1:
                    set_threads(1)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _blas is not None:
                for (_, set_threads), n in zip(_blas, _saved, strict=True):
                    if n != 1:
                        set_threads(n)
