"""`cognimem serve` as a user runs it: the default embedded store and the local model."""

from __future__ import annotations

import asyncio
import http.client
import json
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
import uvicorn

from cognimem.cli.server import bind_tcp
from tests.conftest import child_env
from tests.doubles import api_key_from_cli
from tests.e2e.http_server import PATIENT, free_port, output_if_exited, wait_healthy


@pytest.mark.onnx
def test_serve_on_the_embedded_default(tmp_path: Path) -> None:
    port = free_port()
    env = child_env()
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cognimem", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    secret = api_key_from_cli(env)
    auth = {"Authorization": f"Bearer {secret}"}
    try:
        wait_healthy(base, lambda: output_if_exited(proc))

        write = httpx.post(
            f"{base}/v1/memory/write_batch",
            json={
                "scope": {"user_id": "ada"},
                "messages": [
                    {"content": "I adopted a tabby kitten called Noodle.", "name": "Ada"},
                    {"content": "We are moving to Lisbon in June.", "name": "Ada"},
                ],
            },
            timeout=30,
            headers=auth,
        )
        assert write.status_code == 200, write.text
        read = httpx.post(
            f"{base}/v1/memory/read",
            json={"query": "what pet do I have?", "scope": {"user_id": "ada"}, "limit": 1},
            timeout=30,
            headers=auth,
        )
        assert read.status_code == 200, read.text
        assert [i["text"] for i in read.json()["items"]] == [
            "I adopted a tabby kitten called Noodle."
        ]
        # an idle keep-alive connection outlives a client's own idle timeout (httpx: 5 s),
        # so the client closes it first and never sends on a connection being closed
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("GET", "/v1/health")
            assert conn.getresponse().read() == b'{"status":"ok"}'
            first = conn.sock
            time.sleep(6)
            conn.request("GET", "/v1/health")  # RemoteDisconnected if the server closed it
            assert conn.getresponse().read() == b'{"status":"ok"}'
            assert conn.sock is first
        finally:
            conn.close()
        # the data file lives where serve said it would
        assert (tmp_path / "data" / "cognimem" / "cognimem.db").exists()
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=30)
    assert f"cognimem serving on http://127.0.0.1:{port}" in output
    assert str(tmp_path / "data" / "cognimem" / "cognimem.db") in output


def _serve(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cognimem", "serve", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _env(**settings: str) -> dict[str, str]:
    return child_env(COGNIMEM_EMBEDDING__MODEL="hashing", **settings)


def _cli(env: dict[str, str], *args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "cognimem", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_readme_tour_then_the_cli_reaches_the_tours_data(tmp_path: Path) -> None:
    # the embedded default, as a reader of the README runs it: which constraints a
    # request carries is decided by closeness in meaning, which the hashing fake has not
    env = child_env(COGNIMEM_DATABASE_URL=f"sqlite:///{tmp_path / 'tour.db'}")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(env, "--port", str(port))
    try:
        wait_healthy(base, lambda: output_if_exited(proc))
        key = api_key_from_cli(env, tenant="demo")  # cognimem keys create --tenant demo
        auth = {"Authorization": f"Bearer {key}"}
        write = httpx.post(
            f"{base}/v1/memory/write_batch",
            headers=auth,
            timeout=30,
            json={
                "scope": {"user_id": "ada"},
                "messages": [
                    {"content": "I adopted a tabby kitten called Noodle.", "name": "Ada"},
                    {"content": "I am allergic to shellfish.", "name": "Ada"},
                    {"content": "We are moving to Lisbon in June.", "name": "Ada"},
                ],
            },
        )
        assert write.status_code == 200, write.text
        read = httpx.post(
            f"{base}/v1/memory/read",
            headers=auth,
            timeout=30,
            json={"query": "what is my cat called?", "scope": {"user_id": "ada"}, "limit": 2},
        )
        assert read.status_code == 200, read.text
        assert read.json()["items"][0]["text"] == "I adopted a tabby kitten called Noodle."
        # the README's next step: the CLI, on the same database, in the tour's tenant
        packet = json.loads(
            _cli(
                env, "recall", "what is my cat called?", "--tenant", "demo", "--user", "ada",
                "--json",
            )
        )  # fmt: skip
        assert packet["items"][0]["text"] == "I adopted a tabby kitten called Noodle."
        # without --tenant the CLI reads the default tenant, which the tour never wrote
        elsewhere = _cli(env, "recall", "what is my cat called?", "--user", "ada")
        assert "Noodle" not in elsewhere
        # the commands the README shows after the tour, as written there
        said = {args[0]: _cli(env, *args, cwd=tmp_path) for args in _readme_tour_commands()}
        assert set(said) == {"recall", "export", "forget"}
        assert "I adopted a tabby kitten called Noodle." in said["recall"]
        exported = (tmp_path / "ada.jsonl").read_text(encoding="utf-8")
        assert "tabby kitten called Noodle" in exported
        assert said["forget"].startswith("would delete 1 memory\n")
        assert "We are moving to Lisbon in June." in said["forget"]
        # and the README's SDK snippet, with the tour's key, against this server
        sdk = _readme_block("The same with the Python SDK").replace("http://127.0.0.1:8420", base)
        done = subprocess.run(
            [sys.executable, "-c", sdk],
            env={**env, "KEY": key},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "vegetarian" in done.stdout
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def _readme_block(after: str) -> str:
    """The first fenced block of the README after the text ``after``."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rest = readme.split(after, 1)[1]
    return rest.split("```", 2)[1].partition("\n")[2]


def _readme_tour_commands() -> list[list[str]]:
    """The ``cognimem`` commands of the README's block after the tour, without the
    ``.venv/bin/`` prefix and comments."""
    block = _readme_block("The command line reads and writes the same database")
    return [
        shlex.split(line.partition("#")[0])[1:]
        for line in block.splitlines()
        if line.startswith(".venv/bin/cognimem ")
    ]


def test_serve_on_a_busy_port_fails_clearly_and_never_says_serving(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = _env(COGNIMEM_DATABASE_URL=f"sqlite:///{tmp_path / 'busy.db'}")
        proc = _serve(env, "--port", str(port))
        output, _ = proc.communicate(timeout=120)
    assert proc.returncode == 1, output
    assert "serving on" not in output
    assert f"cannot listen on 127.0.0.1:{port}" in output
    assert "another server is listening there" in output


def test_serve_never_prints_the_database_password(postgres_dsn: str) -> None:
    parts = urlsplit(postgres_dsn)
    netloc = f"{parts.username}:pw-in-netloc-1@{parts.hostname}:{parts.port}"
    url = urlunsplit(parts._replace(netloc=netloc, query="password=pw-in-query-2"))
    port = free_port()
    proc = _serve(_env(), "--db", url, "--port", str(port))
    try:
        wait_healthy(f"http://127.0.0.1:{port}", lambda: output_if_exited(proc))
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=30)
    assert f"cognimem serving on http://127.0.0.1:{port}" in output
    assert f"{parts.username}:***@{parts.hostname}:{parts.port}" in output
    assert "password=***" in output
    assert "pw-in-netloc-1" not in output
    assert "pw-in-query-2" not in output


async def test_served_connections_send_without_waiting_for_acks() -> None:
    # uvicorn writes a response's headers and its body separately: with Nagle's algorithm
    # on, the body waits for the client's delayed ACK (~40 ms on Linux) on every request.
    # asyncio turns it off only on sockets that say they are TCP, so the socket `serve`
    # binds (and hands to uvicorn and to every worker) must say so.
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})

    sock = bind_tcp("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, lifespan="off"))
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            assert not serving.done(), serving.exception()
            await asyncio.sleep(0.01)
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=PATIENT) as client:
            for _ in range(2):  # the keep-alive connection stays open for the check
                assert (await client.get("/")).status_code == 204
            accepted = [
                c.transport.get_extra_info("socket") for c in server.server_state.connections
            ]
            assert len(accepted) == 1
            assert accepted[0].getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        server.should_exit = True
        await serving
        sock.close()
