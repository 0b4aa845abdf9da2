"""``cognimem keys``: create, list and revoke API keys from the command line, as a real
subprocess (each command's first start: ``list`` and ``revoke`` in the first test,
``create`` from the tests that print or use its key) and otherwise in this process, on
a real SQLite file; the key it prints opens the HTTP API."""

from __future__ import annotations

import asyncio
import subprocess
from datetime import UTC, datetime, timedelta

import httpx

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.api.auth import hash_secret
from cognimem.models.admin import ApiKey
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.sqlite import SQLiteStore
from cognimem.store.sqlite.database import path_from_url
from tests.e2e.cli_runner import cognimem, cognimem_here


def cli(
    *args: str, db_url: str, check: bool = True, here: bool = False, **settings: str
) -> subprocess.CompletedProcess[str]:
    """``cognimem keys ARGS`` in a process of its own, or with ``here`` in this one."""
    if here:
        return cognimem_here("keys", *args, db_url=db_url, check=check, **settings)
    return cognimem("keys", *args, db_url=db_url, check=check, **settings)


def printed(out: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)


def test_create_list_revoke(db_url: str) -> None:
    created = printed(
        cli(
            "create", "--tenant", "acme", "--name", "ci", "--expires-in-days", "30",
            "--rate-limit", "120", db_url=db_url, here=True,
        ).stdout
    )  # fmt: skip
    other = printed(cli("create", "--tenant", "globex", db_url=db_url, here=True).stdout)
    key_id, secret = created["id"], created["secret"]
    assert key_id.startswith("key_")
    assert secret.startswith("cm_")

    acme = cli("list", "--tenant", "acme", db_url=db_url).stdout.splitlines()
    everyone = cli("list", db_url=db_url, here=True).stdout

    assert len(acme) == 1
    assert acme[0].startswith(f"{key_id}\tacme\t{secret[:10]}")
    assert "ci" in acme[0]
    assert "120/min" in acme[0]
    assert other["id"] in everyone
    assert secret not in everyone
    assert other["secret"] not in everyone

    revoked = cli("revoke", key_id, db_url=db_url)
    assert f"revoked {key_id}" in revoked.stdout
    assert "revoked" in cli("list", "--tenant", "acme", db_url=db_url, here=True).stdout

    async def stored() -> tuple[ApiKey | None, ApiKey | None]:
        store = SQLiteStore(path_from_url(db_url))
        await store.open()
        try:
            return (
                await store.find_api_key(hash_secret(secret)),
                await store.find_api_key(hash_secret(other["secret"])),
            )
        finally:
            await store.close()

    mine, theirs = asyncio.run(stored())
    now = datetime.now(UTC)
    assert mine is not None
    assert theirs is not None
    assert not mine.usable_at(now)
    assert theirs.usable_at(now)
    expires = mine.expires_at
    assert expires is not None
    assert now + timedelta(days=29) < expires < now + timedelta(days=31)


async def test_a_created_key_opens_the_api_for_its_tenant(db_url: str) -> None:
    secret = printed(cli("create", "--tenant", "acme", db_url=db_url).stdout)["secret"]

    mem = Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder())
    app = create_app(mem)
    transport = httpx.ASGITransport(app=app)
    async with (
        mem,
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        response = await client.post(
            "/v1/facts/query",
            json={"scope": {"user_id": "u"}},
            headers={"Authorization": f"Bearer {secret}"},
        )
    assert response.status_code == 200


def test_create_says_the_secret_is_shown_once_in_whole_lines_at_any_width(db_url: str) -> None:
    for columns in ("60", "80"):
        created = cli("create", "--tenant", "acme", db_url=db_url, COLUMNS=columns)
        key_id = printed(created.stdout)["id"]
        assert created.stderr.splitlines() == [
            f"created key {key_id} for tenant acme (organisation level)",
            "the secret is shown only once:",
        ], columns


def test_errors_are_messages_and_exit_codes(db_url: str) -> None:
    bad_tenant = cli(
        "create", "--tenant", "no spaces please", db_url=db_url, check=False, here=True
    )
    missing = cli("revoke", "key_missing", db_url=db_url, check=False, here=True)

    assert bad_tenant.returncode == 1
    assert "tenant_id" in bad_tenant.stderr
    assert missing.returncode == 1
    assert "not found" in missing.stderr
    assert cli("list", db_url=db_url, here=True).stdout == ""


def test_every_keys_command_has_help(db_url: str) -> None:
    for command in ("create", "list", "revoke"):
        assert cli(command, "--help", db_url=db_url).returncode == 0
