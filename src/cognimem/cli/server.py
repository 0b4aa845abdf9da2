"""``cognimem serve`` and ``cognimem mcp``: the HTTP API and the MCP server over stdio.

``serve --workers N`` runs N uvicorn worker processes on one listening socket. The
parent binds the socket, opens the database once (so the migrations run once, before
any worker starts) and hands the URL to the workers through ``COGNIMEM_DATABASE_URL``;
each worker builds its own app and ``Memory`` with ``worker_app``. On SQLite the workers
share the file: WAL lets them read while one writes, a busy timeout makes a writer
wait for another process's transaction, and the scope caches check ``scope_versions``
on every search, so a worker sees the others' writes.

``--metrics-port P`` (``COGNIMEM_SERVER__METRICS_PORT``) gives each process a metrics
port of its own, the first free one of P … P + N − 1, bound by its app's lifespan
(``api/metrics_port.py``): a scrape of the shared port reaches one process at random.
"""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cognimem.cli.common import DbOption, err, failed
from cognimem.errors import CognimemError, UsageError

if TYPE_CHECKING:
    from fastapi import FastAPI

    from cognimem.config import Settings
    from cognimem.memory import Memory


MetricsPortOption = Annotated[
    int | None,
    typer.Option(
        min=0,
        max=65535,
        help="Serve each process's GET /metrics on a port of its own: the first free"
        " one of this port .. this port + workers - 1 (0: any free port; default:"
        " COGNIMEM_SERVER__METRICS_PORT, off). Needs COGNIMEM_AUTH__METRICS_TOKEN or"
        " COGNIMEM_AUTH__ADMIN_KEY.",
    ),
]
MetricsHostOption = Annotated[
    str | None,
    typer.Option(help="Interface of the metrics ports (default: COGNIMEM_SERVER__METRICS_HOST)."),
]


def serve(
    db: DbOption = None,
    host: Annotated[str | None, typer.Option(help="Interface to bind.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (0: any free port).")] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Worker processes serving the one port (default: COGNIMEM_SERVER__WORKERS, 1).",
        ),
    ] = None,
    metrics_port: MetricsPortOption = None,
    metrics_host: MetricsHostOption = None,
) -> None:
    """Run the HTTP API on the embedded default (or the configured database)."""
    # the server extra is checked here, before the port is bound; the serving
    # functions import what they use
    try:
        import uvicorn  # noqa: F401

        from cognimem.api import create_app  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the install
        err.print(
            "the server needs the 'server' extra: pip install 'cognimem[server]'", markup=False
        )
        raise typer.Exit(1) from exc
    from cognimem.api.metrics_port import check_metrics_port
    from cognimem.config import Settings, redact_url
    from cognimem.memory import Memory
    from cognimem.store.sqlite.database import path_from_url

    settings = Settings()
    url = db or settings.database_url
    host = host or settings.server.host
    port = settings.server.port if port is None else port
    # the apps read these (each process binds its metrics port as its app starts)
    workers = _server_options(settings, workers, metrics_port, metrics_host)
    # the port first: a busy one fails before anything opens or anything says "serving"
    try:
        check_metrics_port(settings)
        sock = bind_tcp(host, port)
        memory = Memory.open(url, settings=settings)
    except CognimemError as exc:
        raise failed(exc) from exc
    port = sock.getsockname()[1]
    where = path_from_url(url) if url.startswith("sqlite") else redact_url(url)
    if workers > 1:
        _serve_workers(memory, url, sock, workers, f"http://{host}:{port}", where)
        return
    _serve_one(memory, settings, sock, f"http://{host}:{port}", where)


def _server_options(
    settings: Settings, workers: int | None, metrics_port: int | None, metrics_host: str | None
) -> int:
    """Put the command's options into ``settings.server``; the number of processes."""
    if workers is not None:
        settings.server.workers = workers
    if metrics_port is not None:
        settings.server.metrics_port = metrics_port
    if metrics_host is not None:
        settings.server.metrics_host = metrics_host
    return settings.server.workers


def _uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What uvicorn is told however the app is served (one process or several)."""
    # uvicorn keeps its hands off logging: records go through our handler, and the
    # app's middleware writes the access log (with request id and tenant)
    return {
        "log_config": None,
        "log_level": settings.log.level.lower(),
        "access_log": False,
        "timeout_keep_alive": settings.server.keep_alive_s,
    }


def _serve_one(
    memory: Memory, settings: Settings, sock: socket.socket, base: str, where: object
) -> None:
    """Serve ``sock`` from this process, saying where once the app has started."""
    import uvicorn

    from cognimem.api import create_app
    from cognimem.logs import configure_logging

    class AnnouncingServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:  # the app started and the socket listens: say where
                # plain print: a console would wrap the path, and users copy it
                print(f"cognimem serving on {base}  (data: {where})", flush=True)
                print(f"API docs: {base}/docs", flush=True)
                print(f"Dashboard: {base}/ui/", flush=True)
                if app.state.metrics_port is not None:
                    print(f"Metrics: {app.state.metrics_port.url}", flush=True)

    # uvicorn re-raises SIGTERM after its graceful shutdown with the handler it found;
    # make that handler a clean exit so a stopped server reports status 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    configure_logging(settings.log.format, settings.log.level)
    app = create_app(memory)
    config = uvicorn.Config(app, **_uvicorn_options(settings))
    with sock:
        AnnouncingServer(config).run(sockets=[sock])


def _serve_workers(
    memory: Memory, url: str, sock: socket.socket, workers: int, base: str, where: object
) -> None:
    """Serve ``sock`` from ``workers`` processes, each with its own app and Memory."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    from cognimem.logs import configure_logging

    settings = memory.settings
    try:
        asyncio.run(_migrate(memory))
    except CognimemError as exc:
        sock.close()
        raise failed(exc) from exc
    # the workers are spawned: they read their settings from this environment
    os.environ["COGNIMEM_DATABASE_URL"] = url
    os.environ["COGNIMEM_SERVER__WORKERS"] = str(workers)
    metrics_port = settings.server.metrics_port
    if metrics_port is not None:
        os.environ["COGNIMEM_SERVER__METRICS_PORT"] = str(metrics_port)
        os.environ["COGNIMEM_SERVER__METRICS_HOST"] = settings.server.metrics_host
    configure_logging(settings.log.format, settings.log.level)
    config = uvicorn.Config(
        "cognimem.cli.server:worker_app",
        factory=True,
        workers=workers,
        **_uvicorn_options(settings),
    )
    with sock:
        # listening before the workers start: connections wait in the backlog meanwhile
        sock.listen(config.backlog)
        print(f"cognimem serving on {base}  (data: {where}, {workers} workers)", flush=True)
        print(f"API docs: {base}/docs", flush=True)
        if metrics_port is not None:
            print(f"Metrics: {_metrics_ports(settings)}", flush=True)
        # the supervisor stops its workers on SIGINT/SIGTERM and returns: exit status 0
        supervisor = Multiprocess(config, sockets=[sock])
        supervisor.run()
    # a worker that could not start (its app's start-up failed, e.g. no free metrics
    # port) makes the supervisor stop them all: say so with a non-zero status
    if any(p.exitcode == STARTUP_FAILURE for p in supervisor.processes):
        err.print("a server process failed to start (its error is logged above)", markup=False)
        raise typer.Exit(STARTUP_FAILURE)


def _metrics_ports(settings: Settings) -> str:
    """Where the processes of ``serve --workers`` serve their metrics."""
    host, first = settings.server.metrics_host, settings.server.metrics_port
    if not first:
        return f"one free port per process on {host} (each process logs its own)"
    last = first + settings.server.workers - 1
    return f"http://{host}:{first}..{last}/metrics, one port per process (each logs its own)"


async def _migrate(memory: Memory) -> None:
    """Open (connect and migrate) and close ``memory``: the workers find the schema current."""
    async with memory:
        pass


def worker_app() -> FastAPI:
    """The app one ``serve --workers`` process serves (settings from the environment)."""
    from cognimem.api import create_app
    from cognimem.config import Settings
    from cognimem.logs import configure_logging
    from cognimem.memory import Memory

    settings = Settings()
    configure_logging(settings.log.format, settings.log.level)
    return create_app(Memory.open(settings=settings))


def bind_tcp(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (uvicorn listens on it), or a ``UsageError``
    that says why not, e.g. another process already listens there.

    The socket names its protocol (TCP) explicitly: asyncio turns Nagle's algorithm off
    (``TCP_NODELAY``) only on accepted sockets whose protocol says TCP, and uvicorn writes
    a response's headers and body separately, so with protocol 0 every response's body
    waited for the client's delayed ACK (~40 ms on Linux)."""
    try:
        family, type_, proto, _, _ = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )[0]
    except socket.gaierror as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    sock = socket.socket(family, type_, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        hint = " (another server is listening there; pick another --port)"
        busy = exc.errno == errno.EADDRINUSE
        raise UsageError(
            f"cannot listen on {host}:{port}: {exc.strerror}{hint if busy else ''}"
        ) from exc
    return sock


def mcp(db: DbOption = None) -> None:
    """Run the MCP server over stdio, for MCP clients (tenant and default user: COGNIMEM_MCP__*)."""
    import logging

    # stdout carries the protocol: every log line goes to stderr
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        from cognimem.mcp import build_server
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.partition(".")[0] != "mcp":
            raise
        # no markup: rich would take "[mcp]" for a style tag and drop it
        err.print("the MCP server needs the 'mcp' extra: pip install 'cognimem[mcp]'", markup=False)
        raise typer.Exit(1) from exc
    from cognimem.config import Settings

    try:
        build_server(Settings(), url=db).run("stdio")
    except* CognimemError as group:
        # the Memory opens inside the server's task group, so its errors come grouped
        first = _first_error(group)
        raise failed(first) from first


def _first_error(group: BaseExceptionGroup[CognimemError]) -> CognimemError:
    found = group.exceptions[0]
    return found if isinstance(found, CognimemError) else _first_error(found)
