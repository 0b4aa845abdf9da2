"""A TCP relay on loopback between a client and a real server that can drop a connection
the way a server drops one it is closing as a request arrives on it.

A server closes an idle keep-alive connection after its timeout; a client that sends a
request on that pooled connection at the same instant gets no answer: the connection
closes (``Server disconnected without sending a response``) or is reset (a read error).
Racing a real timeout cannot be made to happen on cue, so the relay does it on cue:
``drop_next()`` makes it take the next request's bytes and close the client's
connection without an answer, either before the server sees the request or after the
server has acted on it (its answer is thrown away). Every other byte is passed on as is.
"""

from __future__ import annotations

import selectors
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

When = Literal["before", "after"]  # the server does not see the request / acts on it
How = Literal["reset", "close"]  # RST (a read error) / FIN (disconnected, no answer)
# how a request line ends (a JSON body never holds a raw CR LF)
REQUEST_LINE_END = b" HTTP/1.1\r\n"


@dataclass
class _Pair:
    client: socket.socket
    server: socket.socket
    doomed: How | None = None  # the server's answer is not passed on; the client dropped
    closed: bool = False
    tail: bytes = b""  # the last bytes passed to the server (a request line may straddle)


class Relay:
    """Listens on ``self.port`` and relays every connection to ``upstream_port``."""

    def __init__(self, upstream_port: int) -> None:
        self._upstream = ("127.0.0.1", upstream_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self.dropped = 0  # connections dropped on cue
        self.forwarded = 0  # client data chunks passed to the server
        self.requests = 0  # HTTP requests passed to the server (their request lines)
        self._armed: list[tuple[When, How]] = []
        self._lock = threading.Lock()
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="relay", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def drop_next(self, when: When = "before", how: How = "reset", *, times: int = 1) -> None:
        """Drop the connection the next request arrives on, without an answer (and so
        for the ``times`` requests that come next)."""
        with self._lock:
            self._armed = [(when, how)] * times

    def _take_armed(self) -> tuple[When, How] | None:
        with self._lock:
            return self._armed.pop(0) if self._armed else None

    # -- the loop ----------------------------------------------------------------------
    def _run(self) -> None:
        self._listener.setblocking(False)
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        while not self._stopping:
            for key, _ in self._selector.select():
                if key.fileobj is self._listener:
                    self._accept()
                elif isinstance(pair := key.data, _Pair) and not pair.closed:
                    # (closed already: its other socket's event came in the same batch)
                    self._pump(pair.client if key.fileobj is pair.client else pair.server, pair)

    def _accept(self) -> None:
        client, _ = self._listener.accept()
        client.setblocking(True)
        server = socket.create_connection(self._upstream)
        pair = _Pair(client, server)
        self._selector.register(client, selectors.EVENT_READ, pair)
        self._selector.register(server, selectors.EVENT_READ, pair)

    def _pump(self, sock: socket.socket, pair: _Pair) -> None:
        try:
            self._pass_on(sock, pair)
        except OSError:  # either side reset or went away: so does the other
            self._close(pair)

    def _pass_on(self, sock: socket.socket, pair: _Pair) -> None:
        data = sock.recv(65536)
        if not data:
            self._close(pair)
        elif sock is pair.client:
            # a request's body may come in a chunk of its own: a drop is armed for the
            # chunk that holds the request line (the one that starts a request)
            seen = pair.tail + data
            starts = seen.count(REQUEST_LINE_END)
            pair.tail = seen[-(len(REQUEST_LINE_END) - 1) :]
            armed = self._take_armed() if starts else None
            if armed is not None and armed[0] == "before":
                self._close(pair, drop=armed[1])
                return
            if armed is not None:
                pair.doomed = armed[1]
            self.forwarded += 1
            self.requests += starts
            pair.server.sendall(data)
        elif pair.doomed is not None:
            self._close(pair, drop=pair.doomed)
        else:
            pair.client.sendall(data)

    def _close(self, pair: _Pair, drop: How | None = None) -> None:
        if pair.closed:
            return
        pair.closed = True
        if drop is not None:
            self.dropped += 1
            if drop == "reset":  # close with unread-data semantics: an RST, not a FIN
                pair.client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        for sock in (pair.client, pair.server):
            self._selector.unregister(sock)
            sock.close()

    # -- start and stop ------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping = True
        self._wake_w.send(b"x")
        self._thread.join(timeout=30)
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._selector.close()
        self._wake_w.close()


@contextmanager
def relaying(upstream_port: int) -> Iterator[Relay]:
    """A running relay to ``upstream_port`` until the block ends."""
    relay = Relay(upstream_port)
    relay.start()
    try:
        yield relay
    finally:
        relay.stop()
