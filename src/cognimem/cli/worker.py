"""``cognimem worker``: runs async-ingestion and lifecycle jobs, and schedules the latter."""

from __future__ import annotations

import asyncio
import signal
from typing import Annotated

import typer

from cognimem.cli.common import DbOption, run


def worker(
    db: DbOption = None,
    name: Annotated[str | None, typer.Option(help="Worker name (default: host:pid).")] = None,
) -> None:
    """Run async-ingestion and lifecycle jobs until interrupted (SIGINT / SIGTERM), and
    queue lifecycle jobs by their schedules (COGNIMEM_LIFECYCLE__...)."""
    import os
    import socket

    from cognimem.memory import Memory

    worker_name = name or f"{socket.gethostname()}:{os.getpid()}"

    async def go() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        async with Memory.open(db) as mem:
            print(f"cognimem worker {worker_name} started", flush=True)
            return await mem.run_worker(worker_name, stop=stop)

    handled = run(go)
    print(f"cognimem worker {worker_name} stopped after {handled} job(s)", flush=True)
