"""``recall.eager.start`` and ``recall.step_groups.begin``: a coroutine runs at once up to
its first wait; one that never waits is done there (its value or its failure kept for
whoever awaits it), one that waits goes on in a task that a cancellation still reaches;
a step begun so keeps its report, its timeout and its deadline."""

from __future__ import annotations

import asyncio
import time

import pytest

from cognimem.errors import ProviderError
from cognimem.recall.eager import start
from cognimem.recall.step_groups import begin


async def test_a_coroutine_that_never_waits_is_done_when_started() -> None:
    async def rows() -> list[int]:
        return [1, 2]

    found = start(rows())
    assert found.done()
    assert await found == [1, 2]


async def test_a_coroutine_runs_up_to_its_wait_at_once_and_the_rest_later() -> None:
    said: list[str] = []
    gate: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def embedding() -> int:
        said.append("submitted")
        value = await gate
        said.append("resumed")
        return value * 2

    found = start(embedding())
    assert said == ["submitted"]  # before this task gave the loop a turn
    assert not found.done()
    gate.set_result(21)
    assert await found == 42
    assert said == ["submitted", "resumed"]


async def test_a_failure_without_a_wait_is_kept_for_whoever_awaits_it() -> None:
    async def broken() -> int:
        raise ValueError("no rows")

    found = start(broken())
    assert found.done()
    with pytest.raises(ValueError, match="no rows"):
        await found


async def test_a_failure_after_a_wait_reaches_whoever_awaits_it() -> None:
    gate: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def step() -> int:
        return await gate

    found = start(step())
    gate.set_exception(ValueError("round trip failed"))
    with pytest.raises(ValueError, match="round trip failed"):
        await found


async def test_cancelling_a_started_coroutine_reaches_it() -> None:
    said: list[str] = []

    async def step() -> int:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            said.append("cancelled")
            raise
        return 1

    found = start(step())
    await asyncio.sleep(0)
    found.cancel()
    with pytest.raises(asyncio.CancelledError):
        await found
    assert said == ["cancelled"]


async def test_a_step_done_at_once_is_reported_without_a_task() -> None:
    async def lexical() -> list[str]:
        return ["a", "b"]

    outcome = begin("lexical", lexical(), timeout_s=5)
    assert isinstance(outcome, tuple)
    found, report = outcome
    assert found == ["a", "b"]
    assert report.name == "lexical"
    assert report.error is None
    assert not report.timed_out


async def test_a_provider_failure_at_once_is_reported_not_raised() -> None:
    async def vector() -> list[str]:
        raise ProviderError("the embedder is down", provider="fake", model="m")

    outcome = begin("vector", vector(), timeout_s=5)
    assert isinstance(outcome, tuple)
    found, report = outcome
    assert found is None
    assert report.error is not None
    assert "the embedder is down" in report.error


async def test_a_step_that_waits_past_its_timeout_times_out() -> None:
    async def hangs() -> int:
        await asyncio.sleep(3600)
        return 1

    outcome = begin("graph", hangs(), timeout_s=0.01)
    assert isinstance(outcome, asyncio.Task)
    async with asyncio.timeout(60):  # a guard: the step's own timeout ends it first
        found, report = await outcome
    assert found is None
    assert report.timed_out


async def test_a_step_begun_late_keeps_the_deadline_its_group_began() -> None:
    async def hangs() -> int:
        await asyncio.sleep(3600)
        return 1

    # begun 10 s after its group with a 5 s timeout: its deadline has passed already
    outcome = begin("facts", hangs(), timeout_s=5, start=time.perf_counter() - 10)
    assert isinstance(outcome, asyncio.Task)
    async with asyncio.timeout(60):  # a guard: not the 5 s from now
        found, report = await outcome
    assert found is None
    assert report.timed_out
    assert report.latency_ms >= 10_000


async def test_a_coroutine_not_inline_runs_in_a_task_of_its_own() -> None:
    tasks: list[asyncio.Task[object] | None] = []

    async def client_call() -> int:
        tasks.append(asyncio.current_task())  # what a cancel scope or timeout binds to
        return 7

    found = start(client_call(), inline=False)
    assert tasks == []  # not begun in the caller's task
    assert await found == 7
    assert tasks == [found]


async def test_a_step_not_eager_runs_in_its_task_from_the_start() -> None:
    tasks: list[asyncio.Task[object] | None] = []

    async def domain() -> int:
        tasks.append(asyncio.current_task())
        return 3

    outcome = begin("domain", domain(), timeout_s=5, eager=False)
    assert isinstance(outcome, asyncio.Task)
    found, report = await outcome
    assert found == 3
    assert report.error is None
    assert tasks == [outcome]
