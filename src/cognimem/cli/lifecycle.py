"""``cognimem lifecycle OP --user U``: a lifecycle operation (consolidate, revise, ...) on
one user's memories, with a progress bar on stderr and the outcome as JSON on stdout."""

from __future__ import annotations

import json
import os
import socket
from typing import Annotated

import typer

from cognimem.cli.common import DbOption, TenantOption, err, progress_bar, run
from cognimem.memory import Memory
from cognimem.models.lifecycle import LifecycleRun
from cognimem.queue import JobState

# how long one wait for a job blocks before the bar is redrawn
POLL_S = 0.2


def lifecycle(
    op: Annotated[
        str, typer.Argument(help="The operation: consolidate, revise, decay, promote, ...")
    ],
    user: Annotated[str, typer.Option("--user", "-u", help="User id of the scope.")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what would change; change nothing.")
    ] = False,
    wait: Annotated[
        bool,
        typer.Option(
            "--wait/--no-wait",
            help="Wait for the job (running queued jobs here meanwhile, as a worker does) "
            "or only queue it.",
        ),
    ] = True,
    key: Annotated[
        str | None, typer.Option(help="Idempotency key: the same key queues one job.")
    ] = None,
    namespace: Annotated[str, typer.Option(help="Namespace of the scope.")] = "default",
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Run a lifecycle operation on a user's memories: queue it as a job and wait for it
    (or with --dry-run, run it here and print what it would change)."""
    scope = {"tenant_id": tenant, "namespace": namespace, "user_id": user}
    worker = f"cli:{socket.gethostname()}:{os.getpid()}"

    async def go() -> LifecycleRun:
        async with Memory.open(db) as mem:
            bar = progress_bar()
            task = bar.add_task(f"{op} {user}", total=1.0)
            bar.start()
            try:
                if dry_run:

                    def show(done: float) -> None:
                        bar.update(task, completed=done)

                    return await mem.run_lifecycle(op, scope=scope, dry_run=True, progress=show)
                started = await mem.run_lifecycle(op, scope=scope, key=key)
                job = started.job
                assert job is not None  # not a dry run: a job was queued
                while wait and job.state in (JobState.QUEUED, JobState.RUNNING):
                    await mem.process_next_job(worker, block_s=POLL_S)
                    job = await mem.get_job(job.id, tenant_id=tenant)
                    bar.update(task, completed=job.progress or 0.0)
                return started.model_copy(update={"job": job})
            finally:
                bar.stop()

    outcome = run(go)
    typer.echo(json.dumps(outcome.model_dump(mode="json"), indent=2))
    if outcome.job is not None and outcome.job.state is JobState.FAILED:
        err.print(f"[red]error[/red]: the job failed: {outcome.job.error}", soft_wrap=True)
        raise typer.Exit(1)
