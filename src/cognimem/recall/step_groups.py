"""Running a read's plan: its groups in order, each group's steps concurrently, each
step under its timeout and the plan's budget (``execute``); a failure, a timeout or a
shared task's cancellation is reported on the step, never hidden (``timed``). A step
begins at once (``begin``): one that finishes without waiting (an SQLite store reads
on the calling thread) costs no task and no timer; only one that waits (for the query
embedding, a round trip) goes on in a task under its timeout."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from cognimem.errors import ProviderError
from cognimem.models import StepReport
from cognimem.recall.eager import Rest
from cognimem.recall.plan import ITEM_STEPS, PlannedStep, RetrievalPlan, StepKind
from cognimem.recall.steps import EMBEDDING_STEPS, StepOutput, StepRun

log = logging.getLogger(__name__)
T = TypeVar("T")
_FACT_STEPS = frozenset({StepKind.CONSTRAINTS, StepKind.FACTS})  # they need the embedding
_OWN_TASK = frozenset({StepKind.DOMAIN})  # the domain's own database client: its own task


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
        if run.inline:
            done = await _run_group(group.steps, run, remaining)
        else:  # each step in a task from the start (a round trip's client may bind one)
            run.group = group.steps
            if any(s.kind in EMBEDDING_STEPS for s in group.steps):
                run.embedding()  # the longest wait, off the GIL: started before the steps
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


Timed = tuple[T | None, StepReport]


async def _run_group(
    steps: tuple[PlannedStep, ...], run: StepRun, remaining: float
) -> list[Timed[StepOutput]]:
    """One group's steps, each under ``min(its timeout, remaining)`` from now. The
    embedding is begun first (the longest wait, off the GIL: its tokenizing does not
    queue behind the steps' Python work), then the steps that do not need it; the ones
    that do are begun once it is there (or their deadlines have passed), so that with
    a store that answers in-process none of them waits: no task, timer or loop turn."""
    run.group = steps
    start = time.perf_counter()
    limits = [min(s.timeout_s, remaining) for s in steps]
    needs = [s.kind in EMBEDDING_STEPS for s in steps]
    embedding = run.embedding() if any(needs) else None
    if embedding is not None and not embedding.done():
        await asyncio.sleep(0)  # one turn: its task hands the embedding to its thread
    if any(s.kind in _FACT_STEPS for s in steps):
        run.fact_rows()  # what those steps read first: a round trip overlaps the embedding
    begun: list[Timed[StepOutput] | asyncio.Task[Timed[StepOutput]] | None] = [None] * len(steps)
    try:
        for n, s in enumerate(steps):
            if not needs[n]:
                begun[n] = begin(s.name, run.run(s), limits[n], start, s.kind not in _OWN_TASK)
        # soonest deadline first: one whose deadline passes before the embedding is
        # there begins waiting for it, and times out (as it would have waited)
        for n in sorted((n for n, need in enumerate(needs) if need), key=limits.__getitem__):
            left = limits[n] - (time.perf_counter() - start)
            if embedding is not None and not embedding.done() and left > 0:
                await asyncio.wait((embedding,), timeout=left)  # its failure: the steps'
            begun[n] = begin(steps[n].name, run.run(steps[n]), limits[n], start)
        waiting = [b for b in begun if isinstance(b, asyncio.Future)]
        if waiting:  # the steps that wait, together (a cancelled read cancels them all)
            await asyncio.gather(*waiting)
    except BaseException:
        for b in begun:
            if isinstance(b, asyncio.Future):
                b.cancel()
        raise
    return [b.result() if isinstance(b, asyncio.Future) else b for b in begun if b is not None]


def begin(
    name: str,
    step: Coroutine[Any, Any, T],
    timeout_s: float,
    start: float | None = None,
    eager: bool = True,
) -> Timed[T] | asyncio.Task[Timed[T]]:
    """``timed`` begun at once: the step's outcome and report when it finished (or
    failed) without waiting; else a task running the rest of it under what is left of
    its timeout (a step cannot be interrupted before its first wait in either case);
    ``start``: when its timeout began, if before this call; not ``eager``: all of it in
    the task (``recall/eager.py`` says which code may run at once)."""
    start = time.perf_counter() if start is None else start
    if not eager:
        left = timeout_s - (time.perf_counter() - start)
        return asyncio.get_running_loop().create_task(timed(name, lambda: step, left, start))
    try:
        pending = step.send(None)
    except StopIteration as done:
        return done.value, _report(name, start)
    except (TimeoutError, ProviderError, asyncio.CancelledError) as exc:
        return None, _report(name, start, *_failure(name, timeout_s, exc))
    rest: Rest[T] = Rest(step, pending)
    left = timeout_s - (time.perf_counter() - start)
    return asyncio.get_running_loop().create_task(timed(name, lambda: rest, left, start))


async def timed(
    name: str, step: Callable[[], Awaitable[T]], timeout_s: float, start: float | None = None
) -> Timed[T]:
    """Run a step under its timeout; a failure or timeout is reported, never hidden
    (``start``: when the step began, ``time.perf_counter``, if before this call)."""
    start = time.perf_counter() if start is None else start
    try:
        # a deadline on the calling task: no task of its own per step (wait_for's)
        async with asyncio.timeout(timeout_s):
            found = await step()
    except (TimeoutError, ProviderError, asyncio.CancelledError) as exc:
        return None, _report(name, start, *_failure(name, timeout_s, exc))
    return found, _report(name, start)


def _failure(name: str, timeout_s: float, exc: BaseException) -> tuple[bool, str | None]:
    """How a step failed: whether it timed out, and the error (logged either way)."""
    if isinstance(exc, TimeoutError):
        log.warning("retrieval step %s timed out after %.3fs", name, timeout_s)
        return True, None
    if isinstance(exc, ProviderError):
        error = f"{exc.type}: {exc.message}"
    else:
        # a shared task the step awaited (the fact rows, a vector batch) was cancelled
        # by another step's timeout: this step failed; the read goes on. A cancellation
        # of the read itself is passed on.
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise exc
        error = "cancelled: a store call it shared with a timed-out step was cancelled"
    log.warning("retrieval step %s degraded: %s", name, error)
    return False, error


def _report(
    name: str, start: float, timed_out: bool = False, error: str | None = None
) -> StepReport:
    latency = (time.perf_counter() - start) * 1000
    return StepReport(
        name=name, latency_ms=round(latency, 3), results=0, timed_out=timed_out, error=error
    )
