"""``cognimem worker``: runs async-ingestion and lifecycle jobs, and schedules the latter.

With ``--metrics-port`` (``COGNIMEM_WORKER__METRICS_PORT``) it also serves ``GET
/metrics`` for its own ``Memory`` (``metrics_http.py``, answered while a job runs): the
jobs it runs are counted there and nowhere else (docs/metrics.md)."""

from __future__ import annotations

import asyncio
import signal
from typing import TYPE_CHECKING, Annotated

import typer

from cognimem.cli.common import DbOption, run

if TYPE_CHECKING:
    from cognimem.config import Settings
    from cognimem.memory import Memory
    from cognimem.metrics_http import MetricsServer


def worker(
    db: DbOption = None,
    name: Annotated[str | None, typer.Option(help="Worker name (default: host:pid).")] = None,
    metrics_port: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=65535,
            help="Serve GET /metrics of this worker's jobs on this port (0: any free port;"
            " default: COGNIMEM_WORKER__METRICS_PORT, unset: none). Needs"
            " COGNIMEM_AUTH__METRICS_TOKEN or COGNIMEM_AUTH__ADMIN_KEY, as the API's.",
        ),
    ] = None,
    metrics_host: Annotated[
        str | None,
        typer.Option(
            help="Interface of the metrics port (default: COGNIMEM_WORKER__METRICS_HOST)."
        ),
    ] = None,
) -> None:
    """Run async-ingestion and lifecycle jobs until interrupted (SIGINT / SIGTERM), and
    queue lifecycle jobs by their schedules (COGNIMEM_LIFECYCLE__...)."""
    import os
    import socket

    from cognimem.config import Settings
    from cognimem.memory import Memory

    settings = Settings()
    if metrics_port is not None:
        settings.worker.metrics_port = metrics_port
    if metrics_host is not None:
        settings.worker.metrics_host = metrics_host
    worker_name = name or f"{socket.gethostname()}:{os.getpid()}"

    async def go() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        async with Memory.open(db, settings=settings) as mem:
            server = _serve_metrics(mem, settings)
            try:
                print(f"cognimem worker {worker_name} started", flush=True)
                return await mem.run_worker(worker_name, stop=stop)
            finally:
                if server is not None:
                    server.close()

    handled = run(go)
    print(f"cognimem worker {worker_name} stopped after {handled} job(s)", flush=True)


def _serve_metrics(mem: Memory, settings: Settings) -> MetricsServer | None:
    """The worker's metrics port when one is configured (bound now: a busy port fails
    the start with a clear error), else ``None``."""
    port = settings.worker.metrics_port
    if port is None:
        return None
    from cognimem.errors import UsageError
    from cognimem.metrics_http import MetricsServer, metrics_readable

    host = settings.worker.metrics_host
    if not metrics_readable(settings.auth):
        raise UsageError(
            "a worker's metrics port needs COGNIMEM_AUTH__METRICS_TOKEN or "
            "COGNIMEM_AUTH__ADMIN_KEY (its scrapes are checked as the API's /metrics)"
        )
    try:
        server = MetricsServer(mem, settings.auth, host=host, port=port)
    except OSError as exc:
        raise UsageError(f"cannot serve worker metrics on {host}:{port}: {exc}") from exc
    print(f"cognimem worker metrics on {server.url}", flush=True)
    return server
