"""``cognimem lifecycle OP --user U`` (or ``--agent A``, ``--namespace-level NS``,
``--organisation``): a lifecycle
operation (consolidate, revise, ...) on one level's memories, with a progress bar on
stderr and the outcome as JSON on stdout."""

from __future__ import annotations

import json
import os
import socket
from typing import TYPE_CHECKING, Annotated

import typer

from cognimem.cli.common import (
    DbOption,
    NamespaceLevelOption,
    OrganisationOption,
    TenantOption,
    checked,
    err,
    level_flags,
    progress_bar,
    run,
)

if TYPE_CHECKING:
    from cognimem.models.lifecycle import LifecycleRun

# how long one wait for a job blocks before the bar is redrawn
POLL_S = 0.2


# the agent's own level, as a lifecycle call names it (no --user)
AgentLevelOption = Annotated[
    str | None,
    typer.Option("--agent", help="The agent's own level (no --user): its memories alone."),
]


def lifecycle(
    op: Annotated[
        str, typer.Argument(help="The operation: consolidate, revise, decay, promote, ...")
    ],
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="User id of the scope (a user's level).")
    ] = None,
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
    agent: AgentLevelOption = None,
    organisation: OrganisationOption = False,
    namespace_level: NamespaceLevelOption = None,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Run a lifecycle operation on one level's memories — a user's (--user), an agent's
    (--agent alone), a namespace's (--namespace-level NS) or the organisation's
    (--organisation): queue it as a job and wait for it (or with --dry-run, run it here
    and print what it would change)."""
    from cognimem.queue import JobState

    scope: dict[str, str | None] = {"tenant_id": tenant, "namespace": namespace}
    scope.update({"user_id": user, "agent_id": agent})
    scope.update(checked(lambda: level_flags(organisation, namespace_level, "lifecycle")))
    outcome = run(lambda: _run_op(op, scope, dry_run=dry_run, key=key, wait=wait, db=db))
    typer.echo(json.dumps(outcome.model_dump(mode="json"), indent=2))
    if outcome.job is not None and outcome.job.state is JobState.FAILED:
        err.print(f"[red]error[/red]: the job failed: {outcome.job.error}", soft_wrap=True)
        raise typer.Exit(1)


async def _run_op(
    op: str, scope: dict[str, str | None], *, dry_run: bool, key: str | None, wait: bool,
    db: str | None,
) -> LifecycleRun:  # fmt: skip
    """The dry run, or the job queued and (with ``wait``) run here until it ends."""
    from cognimem.memory import Memory
    from cognimem.queue import JobState

    worker = f"cli:{socket.gethostname()}:{os.getpid()}"
    whose = scope["user_id"] or scope["agent_id"] or scope.get("level") or "organisation"
    fields = {k: v for k, v in scope.items() if v is not None}
    async with Memory.open(db) as mem:
        bar = progress_bar()
        task = bar.add_task(f"{op} {whose}", total=1.0)
        bar.start()
        try:
            if dry_run:

                def show(done: float) -> None:
                    bar.update(task, completed=done)

                return await mem.run_lifecycle(op, scope=fields, dry_run=True, progress=show)
            started = await mem.run_lifecycle(op, scope=fields, key=key)
            job = started.job
            assert job is not None  # not a dry run: a job was queued
            while wait and job.state in (JobState.QUEUED, JobState.RUNNING):
                await mem.process_next_job(worker, block_s=POLL_S)
                job = await mem.get_job(job.id, tenant_id=str(scope["tenant_id"]))
                bar.update(task, completed=job.progress or 0.0)
            return started.model_copy(update={"job": job})
        finally:
            bar.stop()
