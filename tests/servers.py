"""Throw-away PostgreSQL (+ pgvector) and Redis servers on loopback for the tests.

`scripts/provision-services.sh` installs the binaries; these helpers only run them:

- `start_postgres(tmpdir)`: a fresh cluster (`initdb -A trust -U postgres`) on a free
  127.0.0.1 port with its unix socket inside the temp dir, durability switched off for
  speed, database ``cognimem_test``, and a check that ``vector`` and ``pg_trgm`` load.
  Running as root (initdb refuses root) the server runs as the ``postgres`` system user.
- `start_redis(tmpdir)`: ``redis-server`` on a free loopback port, no persistence.
- `why_unavailable()`: for "postgres" and "redis", why it cannot run here, or None.
- `require(service)`: skip the calling test with that reason (or fail, when the
  environment variable ``COGNIMEM_REQUIRE_SERVICES=1`` says the services must be there).

Both servers can be stopped and started again on the same port and data, for tests of
how the library copes with a server that goes away. Only the standard library is used.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import pwd
import secrets
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PG_MAJOR = os.environ.get("PG_MAJOR", "15")
PG_USER = "postgres"
PG_DATABASE = "cognimem_test"
PROVISION_HINT = "run `bash scripts/provision-services.sh` as root to install it"
# sun_path is 108 bytes; keep room for "/.s.PGSQL.NNNNN".
_MAX_SOCKET_DIR = 90

_live: list[PostgresServer | RedisServer] = []


class ServiceError(RuntimeError):
    """A server could not be started or stopped; the message carries its log."""


# --------------------------------------------------------------------------- helpers


# Ports a test chooses for a server it starts in another process are drawn below the
# kernel's ephemeral range (32768-60999 on Linux), where ``bind(0)`` and every outgoing
# connection take theirs. A port the kernel handed out and took back is soon handed out
# again: at load 10-20 a `cognimem serve` child still importing lost its port to an
# in-process test server of another xdist worker (bound to port 0), the health check
# answered from that server, and the test read the child's empty output.
_CHOSEN_PORTS = range(20_000, 32_000)


def free_port() -> int:
    """A loopback port free now, outside the ephemeral range (see above)."""
    for _ in range(200):
        port = _CHOSEN_PORTS.start + secrets.randbelow(len(_CHOSEN_PORTS))
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise ServiceError(f"no free loopback port in {_CHOSEN_PORTS}")


def stop(proc: subprocess.Popen[Any], timeout: float = 10) -> None:
    """Ask a child process to end, and kill it when it has not within ``timeout`` s."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return f"(no log at {path})"


def _run(cmd: list[str], what: str, timeout: float = 120, log: Path | None = None) -> str:
    try:
        proc = subprocess.run(
            cmd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        extra = f"\n--- log ---\n{_tail(log)}" if log else ""
        raise ServiceError(f"{what}: timed out after {timeout} s{extra}") from exc
    if proc.returncode != 0:
        extra = f"\n--- log ---\n{_tail(log)}" if log else ""
        raise ServiceError(
            f"{what}: exit status {proc.returncode}\n{proc.stdout}{proc.stderr}{extra}".rstrip()
        )
    return proc.stdout


def _is_root() -> bool:
    return os.geteuid() == 0


# ------------------------------------------------------------------------- discovery


@functools.cache
def pg_bindir() -> Path | None:
    """The PostgreSQL server binaries: $PG_BINDIR, Debian's layout, else PATH."""
    candidates: list[Path] = []
    if env := os.environ.get("PG_BINDIR"):
        candidates.append(Path(env))
    candidates.append(Path(f"/usr/lib/postgresql/{PG_MAJOR}/bin"))
    if which := shutil.which("pg_ctl"):
        candidates.append(Path(which).resolve().parent)
    for d in candidates:
        if all((d / exe).is_file() for exe in ("postgres", "initdb", "pg_ctl", "psql")):
            return d
    return None


@functools.cache
def pg_sharedir(bindir: Path) -> Path:
    pg_config = bindir / "pg_config"
    if pg_config.is_file():
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [str(pg_config), "--sharedir"],
                capture_output=True,
                text=True,
                timeout=10,
                check=True,
            ).stdout.strip()
            if out:
                return Path(out)
    debian = Path(f"/usr/share/postgresql/{PG_MAJOR}")
    return debian if debian.is_dir() else bindir.parent / "share" / "postgresql"


def redis_server_binary() -> str | None:
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file() else None
    )


def why_unavailable() -> dict[str, str | None]:
    """For "postgres" and "redis": why that server cannot run here, or None if it can."""
    reasons: dict[str, str | None] = {"postgres": None, "redis": None}

    bindir = pg_bindir()
    if bindir is None:
        reasons["postgres"] = (
            f"PostgreSQL {PG_MAJOR} server binaries (postgres, initdb, pg_ctl, psql) not found "
            f"in /usr/lib/postgresql/{PG_MAJOR}/bin, $PG_BINDIR or PATH; {PROVISION_HINT}"
        )
    else:
        ext = pg_sharedir(bindir) / "extension"
        if not (ext / "vector.control").is_file():
            reasons["postgres"] = (
                f"the pgvector extension is not installed (no {ext}/vector.control); "
                + PROVISION_HINT
            )
        elif not (ext / "pg_trgm.control").is_file():
            reasons["postgres"] = (
                f"the pg_trgm extension is not installed ({ext}); {PROVISION_HINT}"
            )
        elif _is_root() and shutil.which("runuser") is None:
            reasons["postgres"] = "running as root but `runuser` is missing (initdb refuses root)"
        elif _is_root() and not _pg_user_exists() and shutil.which("useradd") is None:
            reasons["postgres"] = (
                f"running as root, no `{PG_USER}` user to run PostgreSQL and no `useradd`"
            )

    if redis_server_binary() is None:
        reasons["redis"] = f"redis-server not found on PATH; {PROVISION_HINT}"
    return reasons


def require(service: str) -> None:
    """Skip (loudly, with the reason) when `service` cannot run here.

    With COGNIMEM_REQUIRE_SERVICES=1 (e.g. in CI after provisioning) it fails instead,
    so a broken install cannot hide behind skipped tests.
    """
    reason = why_unavailable()[service]
    if reason is None:
        return
    message = f"{service} UNAVAILABLE: {reason}"
    if os.environ.get("COGNIMEM_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{message} (COGNIMEM_REQUIRE_SERVICES=1)", pytrace=False)
    pytest.skip(message)


# ------------------------------------------------------------------------- PostgreSQL


def _pg_user_exists() -> bool:
    try:
        pwd.getpwnam(PG_USER)
    except KeyError:
        return False
    return True


def _ensure_pg_user() -> pwd.struct_passwd:
    if not _pg_user_exists():
        _run(
            [
                "useradd",
                "--system",
                "--user-group",
                "--no-create-home",
                "--home-dir",
                "/nonexistent",
                "--shell",
                "/usr/sbin/nologin",
                PG_USER,
            ],
            f"useradd {PG_USER}",
        )
    return pwd.getpwnam(PG_USER)


def _reachable_by(path: Path, user: pwd.struct_passwd) -> bool:
    """Can `user` traverse every directory down to and including `path`?"""
    groups = {user.pw_gid} | set(os.getgrouplist(user.pw_name, user.pw_gid))
    for d in [path, *path.parents]:
        try:
            st = d.stat()
        except OSError:
            return False
        if st.st_uid == user.pw_uid:
            ok = bool(st.st_mode & stat.S_IXUSR)
        elif st.st_gid in groups:
            ok = bool(st.st_mode & stat.S_IXGRP)
        else:
            ok = bool(st.st_mode & stat.S_IXOTH)
        if not ok:
            return False
    return True


@dataclass
class PostgresServer:
    """A throw-away cluster; `stop()`/`start()` keep its port and data."""

    root: Path
    port: int
    bindir: Path
    run_as: str | None  # a user to run the server as (when we are root), else None
    socket_dir: Path
    startup_seconds: float = 0.0
    _own_dirs: list[Path] = field(default_factory=list)

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def logfile(self) -> Path:
        return self.root / "postgres.log"

    @property
    def dsn(self) -> str:
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{PG_DATABASE}"

    def admin_dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{database}"

    def _as_server_user(self, cmd: list[str]) -> list[str]:
        return ["runuser", "-u", self.run_as, "--", *cmd] if self.run_as else cmd

    def _pg_ctl(self, *args: str, timeout: float = 120) -> None:
        cmd = [str(self.bindir / "pg_ctl"), "-D", str(self.datadir), *args]
        _run(self._as_server_user(cmd), f"pg_ctl {args[0]}", timeout, self.logfile)

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL with psql (ON_ERROR_STOP) over TCP; returns unaligned output."""
        cmd = [
            str(self.bindir / "psql"),
            "-X",
            "-q",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            self.admin_dsn(database),
            "-c",
            sql,
        ]
        return _run(cmd, f"psql {sql[:60]!r}", timeout=60)

    @property
    def running(self) -> bool:
        return (self.datadir / "postmaster.pid").exists() and _port_open(self.port)

    def start(self) -> None:
        """(Re)start on the same port and data directory; waits until it accepts connections."""
        if self.running:
            return
        t0 = time.monotonic()
        self._pg_ctl("start", "-w", "-t", "60", "-l", str(self.logfile))
        self.startup_seconds = time.monotonic() - t0

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (mode: smart, fast or immediate); the data stays."""
        if (self.datadir / "postmaster.pid").exists():
            self._pg_ctl("stop", "-w", "-t", "60", "-m", mode)

    def destroy(self) -> None:
        """Stop the server (immediately) and delete its files."""
        with contextlib.suppress(ServiceError):
            self.stop("immediate")
        for d in [self.root, *self._own_dirs]:
            shutil.rmtree(d, ignore_errors=True)
        with contextlib.suppress(ValueError):
            _live.remove(self)


def start_postgres(tmpdir: Path | str) -> PostgresServer:
    """initdb + start a cluster under `tmpdir`, create ``cognimem_test``, check extensions."""
    reason = why_unavailable()["postgres"]
    if reason is not None:
        raise ServiceError(f"PostgreSQL unavailable: {reason}")
    bindir = pg_bindir()
    assert bindir is not None

    base = Path(tmpdir).resolve()
    base.mkdir(parents=True, exist_ok=True)
    own_dirs: list[Path] = []
    run_as: str | None = None
    if _is_root():
        user = _ensure_pg_user()
        run_as = user.pw_name
        if not _reachable_by(base, user):
            # e.g. pytest's /tmp/pytest-of-root is 0700: use a directory of our own.
            base = Path(tempfile.mkdtemp(prefix="cognimem-pg-"))
            own_dirs.append(base)
    root = Path(tempfile.mkdtemp(prefix="pg-", dir=base))
    socket_dir = root / "sock"
    if len(str(socket_dir)) > _MAX_SOCKET_DIR:
        socket_dir = Path(tempfile.mkdtemp(prefix="pgsock-"))
        own_dirs.append(socket_dir)
    socket_dir.mkdir(exist_ok=True)
    if run_as is not None:
        uid, gid = pwd.getpwnam(run_as).pw_uid, pwd.getpwnam(run_as).pw_gid
        for d in {*own_dirs, root, socket_dir}:
            os.chown(d, uid, gid)

    server = PostgresServer(
        root=root,
        port=0,
        bindir=bindir,
        run_as=run_as,
        socket_dir=socket_dir,
        _own_dirs=own_dirs,
    )
    _live.append(server)
    try:
        _run(
            server._as_server_user(
                [
                    str(bindir / "initdb"),
                    "-D",
                    str(server.datadir),
                    "-A",
                    "trust",
                    "-U",
                    PG_USER,
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                    "--no-instructions",
                ]
            ),
            "initdb",
        )
        # A free port can be taken between choosing and binding it: try a few.
        for attempt in range(3):
            server.port = free_port()
            _write_pg_conf(server)
            try:
                server.start()
                break
            except ServiceError:
                if attempt == 2 or "could not bind" not in _tail(server.logfile).lower():
                    raise
        server.psql(f"CREATE DATABASE {PG_DATABASE}")
        # Prove the extensions load, without leaving them behind (DDL is transactional).
        server.psql(
            "BEGIN; CREATE EXTENSION vector; CREATE EXTENSION pg_trgm; "
            "SELECT '[1,2,3]'::vector <=> '[1,2,4]'::vector; ROLLBACK;",
            database=PG_DATABASE,
        )
    except BaseException:
        server.destroy()
        raise
    return server


def _write_pg_conf(server: PostgresServer) -> None:
    settings = {
        "port": str(server.port),
        "listen_addresses": "'127.0.0.1'",
        "unix_socket_directories": f"'{server.socket_dir}'",
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "100",
        "shared_buffers": "64MB",
        "logging_collector": "off",
        "log_min_messages": "warning",
        "timezone": "'UTC'",
    }
    conf = server.datadir / "postgresql.auto.conf"
    text = "".join(f"{k} = {v}\n" for k, v in settings.items())
    # postgresql.auto.conf is read last, so these win over postgresql.conf.
    conf.write_text(text)
    if server.run_as is not None:
        pw = pwd.getpwnam(server.run_as)
        os.chown(conf, pw.pw_uid, pw.pw_gid)


# ------------------------------------------------------------------------------ Redis


@dataclass
class RedisServer:
    """redis-server as a child process; `stop()`/`start()` keep its port."""

    root: Path
    port: int
    binary: str
    _proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def logfile(self) -> Path:
        return self.root / "redis.log"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self, timeout: float = 30) -> None:
        """(Re)start on the same port; waits until PING answers PONG."""
        if self.running:
            return
        self._proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--dir",
                str(self.root),
                "--logfile",
                str(self.logfile),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while not _redis_ping(self.port):
            if self._proc.poll() is not None:
                code = self._proc.returncode
                self._proc = None
                raise ServiceError(
                    f"redis-server exited with status {code}\n--- log ---\n{_tail(self.logfile)}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise ServiceError(
                    f"redis-server did not answer PING in {timeout} s\n{_tail(self.logfile)}"
                )
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        stop(proc)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
        with contextlib.suppress(ValueError):
            _live.remove(self)


def _redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"*1\r\n$4\r\nPING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(tmpdir: Path | str) -> RedisServer:
    """Start redis-server on a free loopback port with no persistence."""
    binary = redis_server_binary()
    if binary is None:
        raise ServiceError(f"Redis unavailable: {why_unavailable()['redis']}")
    base = Path(tmpdir)
    base.mkdir(parents=True, exist_ok=True)
    server = RedisServer(
        root=Path(tempfile.mkdtemp(prefix="redis-", dir=base)), port=0, binary=binary
    )
    _live.append(server)
    try:
        for attempt in range(3):
            server.port = free_port()
            try:
                server.start()
                break
            except ServiceError:
                if attempt == 2:
                    raise
    except BaseException:
        server.destroy()
        raise
    return server


def keep_after_exit(server: PostgresServer | RedisServer) -> None:
    """Leave ``server`` and its data alone when this process exits (a benchmark's cluster
    that later runs start again); stop it yourself."""
    with contextlib.suppress(ValueError):
        _live.remove(server)


@atexit.register
def _stop_leftovers() -> None:
    """Servers a test run forgot to destroy (or left by a crash of a test) end with it."""
    for server in list(_live):
        with contextlib.suppress(Exception):
            server.destroy()
