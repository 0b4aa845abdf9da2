"""A world for the dashboard's browser tests and its screenshots: ``cognimem serve`` as a
user runs it (a subprocess on a free loopback port, a SQLite file), API keys made by the
admin API (and an expired one written as the key store writes it), memories written
through the public API, and headless Chromium driven by selenium.

The browser is Debian's ``chromium`` with its ``chromedriver`` (``scripts/
provision-browser.sh`` installs both); nothing is downloaded at run time."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.conftest import child_env
from tests.e2e.http_server import free_port, wait_healthy
from tests.servers import stop

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

ADMIN_KEY = "dashboard-admin-key-0123456789abcdef"
TENANT = "acme"
T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1366,900",
)


def why_no_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is not installed (pip install -e '.[dev]')"
    for binary, package in (("chromium", "chromium"), ("chromedriver", "chromium-driver")):
        if shutil.which(binary) is None:
            return (
                f"{binary} not found on PATH (Debian package {package}); "
                "run `bash scripts/provision-browser.sh` as root to install it"
            )
    return None


def require_browser() -> None:
    """Skip with the reason when no browser can run here; with
    ``COGNIMEM_REQUIRE_SERVICES=1`` (CI) fail instead, as for PostgreSQL and Redis."""
    reason = why_no_browser()
    if reason is None:
        return
    message = f"browser UNAVAILABLE: {reason}"
    if os.environ.get("COGNIMEM_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{message} (COGNIMEM_REQUIRE_SERVICES=1)", pytrace=False)
    pytest.skip(message)


@dataclass
class Server:
    base: str
    db_path: Path
    proc: subprocess.Popen[str]

    def key(self, tenant: str = TENANT) -> str:
        answer = httpx.post(
            f"{self.base}/v1/admin/keys",
            json={"tenant_id": tenant, "name": "dashboard"},
            headers={"Authorization": f"Bearer {ADMIN_KEY}"},
            timeout=30,
        )
        assert answer.status_code == 201, answer.text
        secret: str = answer.json()["secret"]
        return secret

    def expired_key(self, tenant: str = TENANT) -> str:
        """A key of ``tenant`` that expired yesterday (the admin API refuses to make one)."""
        from cognimem.api.auth import issue_key
        from cognimem.store.sqlite import SQLiteStore

        async def issue() -> str:
            store = SQLiteStore(self.db_path)
            await store.open()
            try:
                past = datetime.now(UTC) - timedelta(days=2)
                _, secret = await issue_key(
                    store, tenant, expires_at=past + timedelta(days=1), now=past
                )
            finally:
                await store.close()
            return secret

        return asyncio.run(issue())


@contextmanager
def serving(tmp_path: Path, **settings: str) -> Iterator[Server]:
    """``cognimem serve`` on a fresh SQLite file until the block ends."""
    port = free_port()
    db_path = tmp_path / "dashboard.db"
    env = child_env(
        COGNIMEM_AUTH__ADMIN_KEY=ADMIN_KEY,
        COGNIMEM_EMBEDDING__MODEL=settings.pop("embedding", "hashing"),
        **settings,
    )
    command = [sys.executable, "-m", "cognimem", "serve", "--db", f"sqlite:///{db_path}"]
    # the server's log goes to a file: a pipe nobody reads fills up and blocks the server
    log_path = tmp_path / "server.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [*command, "--port", str(port)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    base = f"http://127.0.0.1:{port}"

    def exited() -> str | None:
        return None if proc.poll() is None else log_path.read_text(errors="replace")

    try:
        wait_healthy(base, exited)
        yield Server(base, db_path, proc)
    finally:
        stop(proc, timeout=30)


def _at(days: float) -> str:
    return (T0 + timedelta(days=days)).isoformat()


# what Ada and Ben said, in the order they said it (days after T0)
ADA = [
    (0, "My name is Ada."),
    (0, "My name is Adaline."),
    (1, "I'm allergic to peanuts."),
    (2, "My sister Sarah lives in Boston."),
    (3, "I work at Globex as a data engineer."),
    (5, "I went hiking in the Alps with Sarah last weekend."),
    (8, "I love Italian food, especially risotto."),
    (20, "I moved to Lisbon."),
    (21, "My dog Biscuit loves the beach in Lisbon."),
    (30, "I'm vegetarian now."),
]
BEN = [
    (1, "I live in Porto."),
    (2, "My brother Tom works at Initech."),
    (3, "I grew up in Porto."),  # a second relation between Ben and Porto: hometown
]


def seed(base: str, key: str) -> None:
    """Write Ada's and Ben's conversations through the API, and queue a consolidation."""
    auth = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, headers=auth, timeout=60) as client:
        # Ben first: Ada, the most recently active user, is the one the dashboard opens on
        for user, said in (("ben", BEN), ("ada", ADA)):
            messages = [
                {"content": text, "occurred_at": _at(day), "name": user.title()}
                for day, text in said
            ]
            done = client.post(
                "/v1/memory/write_batch", json={"scope": {"user_id": user}, "messages": messages}
            )
            assert done.status_code == 200, done.text
        queued = client.post("/v1/lifecycle/consolidate", json={"scope": {"user_id": "ada"}})
        assert queued.status_code == 202, queued.text


def api(base: str, key: str, method: str, path: str, body: Any = None) -> Any:
    """One call of the public API (for a test to check what the browser changed)."""
    answer = httpx.request(
        method, f"{base}{path}", json=body, headers={"Authorization": f"Bearer {key}"}, timeout=60
    )
    assert answer.status_code < 300, answer.text
    return answer.json()


def consolidated(server: Server, user: str, tenant: str = TENANT) -> None:
    """A consolidation pass on ``user``'s memories, run as the background job runs it
    (its own ``Memory`` on the server's file: ``cognimem serve`` queues jobs for a worker
    and runs none), so the user has profiles."""
    from cognimem import Memory
    from cognimem.providers.fakes import HashingEmbedder

    async def run() -> None:
        url = f"sqlite:///{server.db_path}"
        async with Memory.open(url, embedder=HashingEmbedder()) as job:
            await job.consolidate({"tenant_id": tenant, "user_id": user})

    asyncio.run(run())


@contextmanager
def browser() -> Iterator[WebDriver]:
    """Headless Debian Chromium through its chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    service = Service(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
