"""`cognimem serve --workers N`: several processes serve one port and one database.

Real processes over real HTTP, on a SQLite file the workers share and on PostgreSQL:
writes sent at once to the workers all commit, every read (each on a new connection,
so the kernel hands it to any worker) sees every write, the migrations ran once before
the workers started, and SIGTERM stops the parent and its workers with status 0.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx

from tests.conftest import child_env
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, free_port, output_if_exited, wait_healthy

WORKERS = 3
WORDS = ["garage", "office", "bicycle", "mailbox", "cellar", "attic", "boat", "shed"]
FACTS = [f"My locker number {n} holds the spare {word} key." for n, word in enumerate(WORDS)]


def spawned_workers(pid: int) -> list[int]:
    """The worker processes ``pid`` spawned (from /proc; not multiprocessing's resource
    tracker, which outlives its parent by a moment)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in cmdline:
            found.append(int(stat.parent.name))
    return found


async def _write_all(base: str, auth: dict[str, str]) -> list[int]:
    """Every fact in its own request, all at once, each on its own connection."""

    async def one(text: str) -> int:
        async with httpx.AsyncClient(base_url=base, headers=auth, timeout=PATIENT) as client:
            response = await client.post(
                "/v1/memory/write",
                json={"scope": {"user_id": "ada"}, "content": text, "name": "Ada"},
            )
            return response.status_code

    return list(await asyncio.gather(*(one(t) for t in FACTS)))


def _read_top(base: str, auth: dict[str, str], word: str) -> str:
    # a new client each time: a new connection, which any worker may accept
    with httpx.Client(base_url=base, headers=auth, timeout=PATIENT) as client:
        response = client.post(
            "/v1/memory/read",
            json={
                "query": f"where is the spare {word} key?",
                "scope": {"user_id": "ada"},
                "limit": 1,
            },
        )
    assert response.status_code == 200, response.text
    return str(response.json()["items"][0]["text"])


def _serve_workers_scenario(env: dict[str, str]) -> str:
    # each fact's word in its own lexical index only: the index also reads the message
    # said before it in the scope, which for writes sent at once is whichever committed
    # first; BM25 then ties a fact with the one after it, and the hashing embedder can
    # tie them too ("where" or "is" may hash to the other fact's word's slot)
    env = {**env, "COGNIMEM_INGEST__CONTEXT_CHARS": "0"}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cognimem", "serve", "--port", str(port), "--workers", str(WORKERS)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # three processes each open the store and start up: minutes on a busy machine
        wait_healthy(base, lambda: output_if_exited(proc), timeout=300)
        assert len(spawned_workers(proc.pid)) == WORKERS
        # issued in this process: `cognimem keys create` has its own tests, and its process
        # start was a fifth of this scenario's wall time
        auth = {"Authorization": f"Bearer {issue_api_key(env['COGNIMEM_DATABASE_URL'])}"}
        assert asyncio.run(_write_all(base, auth)) == [200] * len(FACTS)
        for _ in range(2):
            for n, word in enumerate(WORDS):
                assert _read_top(base, auth, word) == FACTS[n]
        workers = spawned_workers(proc.pid)
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, output
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()], output
    assert f"cognimem serving on {base}" in output
    assert f"{WORKERS} workers" in output
    return output


def test_serve_workers_share_one_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"  # a new file: the parent creates and migrates it
    env = child_env(COGNIMEM_EMBEDDING__MODEL="hashing", COGNIMEM_DATABASE_URL=f"sqlite:///{path}")
    _serve_workers_scenario(env)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations")]
    assert versions
    assert len(versions) == len(set(versions))


def test_serve_workers_on_postgres(postgres_dsn: str) -> None:
    env = child_env(COGNIMEM_EMBEDDING__MODEL="hashing", COGNIMEM_DATABASE_URL=postgres_dsn)
    _serve_workers_scenario(env)


def test_serve_refuses_zero_workers(tmp_path: Path) -> None:
    env = child_env(
        COGNIMEM_EMBEDDING__MODEL="hashing", COGNIMEM_DATABASE_URL=f"sqlite:///{tmp_path}/x.db"
    )
    done = subprocess.run(
        [sys.executable, "-m", "cognimem", "serve", "--port", str(free_port()), "--workers", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "--workers" in done.stderr
    assert not (tmp_path / "x.db").exists()
