"""`cognimem serve` as a user runs it: the default embedded store and the local model."""

from __future__ import annotations

import http.client
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import child_env
from tests.doubles import api_key_from_cli
from tests.e2e.http_server import free_port, output_if_exited, wait_healthy


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
