"""A metrics port per API process (``COGNIMEM_SERVER__METRICS_PORT``, ``cognimem serve
--metrics-port``).

``serve --workers N`` runs N processes on one listening socket, so a scrape of the API
port reaches whichever process the kernel hands it. With a metrics port P, each process
serves its own app's registry (the one its ``/metrics`` route shows) with
:class:`~cognimem.metrics_http.MetricsServer` on the first free port of P … P + N − 1,
bound when the app starts (its lifespan, so in the process that serves, never in
uvicorn's parent) and released when it stops. Binding is atomic: two processes never
take one port, and a process that finds every port taken fails its start-up (uvicorn
then stops the server) with an error naming the range. Scrapes are rendered off the
app's event loop, so they are answered while the loop is held.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from cognimem.errors import UsageError
from cognimem.metrics_http import metrics_readable, serve_first_free

if TYPE_CHECKING:
    from cognimem.config import Settings
    from cognimem.memory import Memory
    from cognimem.metrics import Metrics
    from cognimem.metrics_http import MetricsServer

log = logging.getLogger(__name__)


def check_metrics_port(settings: Settings) -> None:
    """Refuse a metrics port nobody may read (no metrics token, no admin key), or a
    range of them past the last port."""
    first = settings.server.metrics_port
    if first is None:
        return
    last = first + settings.server.workers - 1
    if first and last > 65535:
        raise UsageError(f"metrics ports {first}..{last} run past 65535: pick a lower port")
    if not metrics_readable(settings.auth):
        raise UsageError(
            "a metrics port (COGNIMEM_SERVER__METRICS_PORT, --metrics-port) needs "
            "COGNIMEM_AUTH__METRICS_TOKEN or COGNIMEM_AUTH__ADMIN_KEY (its scrapes are "
            "checked as /metrics is)"
        )


def open_metrics_port(memory: Memory, metrics: Metrics) -> MetricsServer | None:
    """This process's metrics port serving ``metrics`` when one is configured, else
    ``None``; called on the app's loop as it starts."""
    settings = memory.settings
    first = settings.server.metrics_port
    if first is None:
        return None
    check_metrics_port(settings)
    host = settings.server.metrics_host
    count = settings.server.workers
    try:
        server = serve_first_free(
            memory, settings.auth, host=host, first=first, count=count, metrics=metrics
        )
    except UsageError as exc:
        log.error("process %d serves no metrics port: %s", os.getpid(), exc.message)
        raise
    log.info(
        "process %d serves its metrics on %s",
        os.getpid(),
        server.url,
        extra={"pid": os.getpid(), "metrics_url": server.url},
    )
    return server


@asynccontextmanager
async def metrics_port_running(state: Any, memory: Memory, metrics: Metrics) -> AsyncIterator[None]:
    """This process's metrics port (``state.metrics_port``, else ``None``) while the
    body runs: opened on entering, closed (its port released) on leaving."""
    state.metrics_port = server = open_metrics_port(memory, metrics)
    try:
        yield
    finally:
        if server is not None:
            server.close()
            state.metrics_port = None


__all__ = ["check_metrics_port", "metrics_port_running", "open_metrics_port"]
