"""A real uvicorn server on loopback for an app, in a thread (for the HTTP e2e tests)."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import uvicorn
from fastapi import FastAPI

from cognimem.config import ServerSettings
from tests.servers import free_port as free_port  # re-exported for server subprocesses

# httpx waits 5 s for an answer by default; on a busy 2-core machine (CI at load 15) one
# request to a test server can take longer, and a test failed on ReadTimeout while it
# checked a 422's body. Tests check answers, not speed: every real-socket client and
# httpx.get / post call in the suite waits this long.
PATIENT = httpx.Timeout(120.0)


def output_if_exited(proc: subprocess.Popen[str]) -> str | None:
    """What a server subprocess printed to its piped stream, once it has stopped."""
    if proc.poll() is None:
        return None
    stream = proc.stdout or proc.stderr
    return stream.read() if stream else ""


def wait_healthy(base: str, exited: Callable[[], str | None], timeout: float = 180) -> None:
    """Poll ``GET {base}/v1/health`` until it answers 200. ``exited`` returns the server
    process's output once it has stopped (None while it runs): a server that dies while
    starting fails the wait at once, with what it printed. A live one gets minutes: at
    load ~16 a `cognimem serve` had printed nothing after 60 s (still importing)."""
    deadline = time.monotonic() + timeout
    # one client for every poll: each new one builds a TLS context (~40 ms of CPU), ten
    # times a second, while the server it waits for starts on the same cores
    with httpx.Client(timeout=1) as client:
        while True:
            output = exited()
            assert output is None, f"server exited early:\n{output}"
            try:
                if client.get(f"{base}/v1/health").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"server not healthy in {timeout} s"
            time.sleep(0.1)


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """Run ``app`` until the block ends; yields its base URL.

    The server listens on a socket bound here to a port the kernel picks, so no other
    process (another pytest-xdist worker, another run on the machine) can take the port
    between choosing and binding it.
    """
    # the socket names its protocol: asyncio turns Nagle's algorithm off only on accepted
    # sockets that say TCP, and with it on every response waited ~40 ms for the client's
    # delayed ACK (as `cognimem serve`'s bind_tcp explains) -- 90% of the isolation
    # property's wall time, and of every other test's here that makes many requests
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    # idle connections kept as `cognimem serve` keeps them: uvicorn's own 5 s would race
    # the clients' own 5 s expiry (a request sent as the server closes its connection)
    keep_alive_s = ServerSettings().keep_alive_s
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_keep_alive=keep_alive_s
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60  # a busy machine starts it late, not never
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()
