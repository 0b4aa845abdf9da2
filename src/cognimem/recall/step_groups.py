"""Running a read's plan: its groups in order, each group's steps concurrently, each
step under its timeout and the plan's budget (``execute``); a failure, a timeout or a
shared task's cancellation is reported on the step, never hidden (``timed``)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from cognimem.errors import ProviderError
from cognimem.models import StepReport
from cognimem.recall.plan import ITEM_STEPS, RetrievalPlan, StepKind
from cognimem.recall.steps import EMBEDDING_STEPS, StepOutput, StepRun

log = logging.getLogger(__name__)
T = TypeVar("T")


async def execute(
    plan: RetrievalPlan, run: StepRun, started: float
) -> tuple[dict[StepKind, StepOutput], list[StepReport]]:
    """Run the groups in order, each group's steps concurrently. A step is cancelled
    at its timeout or when the plan's budget runs out, whichever comes first; a group
    with ``skip_if_found`` that found items stops the later groups."""
    outputs: dict[StepKind, StepOutput] = {}
    reports: list[StepReport] = []
    skip_reason: str | None = None
    for number, group in enumerate(plan.groups):
        remaining = plan.budget_s - (time.perf_counter() - started)
        if skip_reason is None and remaining <= 0:
            skip_reason = "the plan's budget was spent"
        if skip_reason is not None:
            reports += [
                StepReport(
                    name=s.name, latency_ms=0.0, results=0, group=number, skipped=skip_reason
                )
                for s in group.steps
            ]
            continue
        run.group = group.steps
        if any(s.kind in EMBEDDING_STEPS for s in group.steps):
            # the embedding is the longest wait and runs off the GIL: started before the
            # steps, its tokenizing does not queue behind their Python work
            run.embedding()
        done = await asyncio.gather(
            *(
                timed(s.name, (lambda s=s: run.run(s)), min(s.timeout_s, remaining))  # type: ignore[misc]
                for s in group.steps
            )
        )
        for step, (found, report) in zip(group.steps, done, strict=True):
            report.group = number
            report.results = found.count if found is not None else 0
            reports.append(report)
            if found is not None:
                outputs[step.kind] = found
        if group.skip_if_found and any(
            outputs.get(s.kind) and outputs[s.kind].candidates
            for s in group.steps
            if s.kind in ITEM_STEPS
        ):
            skip_reason = "an earlier group found items"
    return outputs, reports


async def timed(
    name: str, step: Callable[[], Awaitable[T]], timeout_s: float
) -> tuple[T | None, StepReport]:
    """Run a step under its timeout; a failure or timeout is reported, never hidden."""
    start = time.perf_counter()
    found: T | None = None
    timed_out = False
    error: str | None = None
    try:
        # a deadline on the calling task: no task of its own per step (wait_for's)
        async with asyncio.timeout(timeout_s):
            found = await step()
    except TimeoutError:
        timed_out = True
        log.warning("retrieval step %s timed out after %.3fs", name, timeout_s)
    except ProviderError as exc:
        error = f"{exc.type}: {exc.message}"
        log.warning("retrieval step %s degraded: %s", name, error)
    except asyncio.CancelledError:
        # a shared task the step awaited (the fact rows, a vector batch) was cancelled
        # by another step's timeout: this step failed; the read goes on. A cancellation
        # of the read itself is passed on.
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        error = "cancelled: a store call it shared with a timed-out step was cancelled"
        log.warning("retrieval step %s degraded: %s", name, error)
    latency = (time.perf_counter() - start) * 1000
    report = StepReport(
        name=name,
        latency_ms=round(latency, 3),
        results=0,
        timed_out=timed_out,
        error=error,
    )
    return found, report
