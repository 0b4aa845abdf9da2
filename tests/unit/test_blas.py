"""``single_threaded`` limits BLAS in whichever thread runs the product.

A read's vector search runs in a SQLite reader thread while the constraint step's
product runs on the event loop's thread; threadpoolctl lets only the first thread that
set OpenBLAS's pool change it, so the reader's product used to run on every BLAS thread.
"""

from __future__ import annotations

import threading

import pytest
from threadpoolctl import ThreadpoolController, threadpool_limits

from cognimem.blas import single_threaded


def blas_threads(controllers: list) -> list[int]:
    return [c.get_num_threads() for c in controllers]


def test_single_threaded_limits_blas_in_a_thread_other_than_the_first() -> None:
    controllers = [c for c in ThreadpoolController().lib_controllers if c.user_api == "blas"]
    if not controllers:
        pytest.skip("no BLAS library is loaded")
    # this thread sets the pool first (threadpoolctl then lets only it set the pool)
    with threadpool_limits(limits=2, user_api="blas"):
        if blas_threads(controllers) != [2] * len(controllers):
            pytest.skip("the BLAS library cannot run two threads here")
        with single_threaded():
            assert blas_threads(controllers) == [1] * len(controllers)
        seen: list[list[int]] = []

        def product_thread() -> None:
            with single_threaded():
                seen.append(blas_threads(controllers))

        worker = threading.Thread(target=product_thread)
        worker.start()
        worker.join()
        assert seen == [[1] * len(controllers)]
        # the last product to end restores the process's own setting
        assert blas_threads(controllers) == [2] * len(controllers)
