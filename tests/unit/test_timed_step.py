"""``recall.step_groups.timed``: a step whose shared store task was cancelled elsewhere fails
alone and says so; a cancellation of the read itself still stops the read."""

from __future__ import annotations

import asyncio

import pytest

from cognimem.recall.step_groups import timed


async def test_a_step_whose_shared_task_was_cancelled_is_reported_not_raised() -> None:
    shared: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    shared.cancel()  # as another step's timeout cancels the rows both awaited

    async def step() -> int:
        return await asyncio.shield(shared)

    found, report = await timed("profile", step, timeout_s=5)
    assert found is None
    assert report.error is not None
    assert report.error.startswith("cancelled")
    assert not report.timed_out


async def test_cancelling_the_read_still_cancels_a_running_step() -> None:
    started = asyncio.Event()

    async def step() -> int:
        started.set()
        await asyncio.sleep(3600)
        return 1

    read = asyncio.ensure_future(timed("facts", step, timeout_s=3600))
    await started.wait()
    read.cancel()
    with pytest.raises(asyncio.CancelledError):
        await read
