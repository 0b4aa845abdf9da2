"""API keys, tenancy and rate limits over real HTTP (a uvicorn server on loopback), and
through the ASGI app where the test controls time or runs two apps side by side."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.api.auth import issue_key
from cognimem.api.rate_limits import LocalRateLimiter
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store.sqlite import SQLiteStore
from tests import servers
from tests.e2e.http_server import free_port, serving

ADMIN_KEY = "admin-key-for-the-tests-0123456789"


def make_settings(**auth: Any) -> Settings:
    return Settings.model_validate({"auth": {"admin_key": ADMIN_KEY, **auth}})


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


ADMIN = bearer(ADMIN_KEY)


@dataclass
class Api:
    client: httpx.Client
    db_path: Path

    def key(self, tenant: str, **fields: Any) -> str:
        response = self.client.post(
            "/v1/admin/keys", json={"tenant_id": tenant, **fields}, headers=ADMIN
        )
        assert response.status_code == 201, response.text
        secret: str = response.json()["secret"]
        return secret

    def write(self, secret: str, content: str, user: str = "sam") -> httpx.Response:
        return self.client.post(
            "/v1/memory/write",
            json={"content": content, "scope": {"user_id": user}},
            headers=bearer(secret),
        )

    def read(self, secret: str, query: str, user: str = "sam") -> httpx.Response:
        return self.client.post(
            "/v1/memory/read",
            json={"query": query, "scope": {"user_id": user}},
            headers=bearer(secret),
        )


def _serve(db_url: str, settings: Settings) -> Iterator[Api]:
    memory = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    try:
        with serving(create_app(memory)) as base, httpx.Client(base_url=base, timeout=30) as c:
            yield Api(c, Path(db_url.removeprefix("sqlite:///")))
    finally:
        asyncio.run(memory.aclose())


@pytest.fixture
def api(db_url: str) -> Iterator[Api]:
    yield from _serve(db_url, make_settings())


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """The app with its lifespan entered, behind an in-process client."""
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c,
    ):
        yield c


# -- who may call ---------------------------------------------------------------------------
def test_health_needs_no_key(api: Api) -> None:
    assert api.client.get("/v1/health").status_code == 200


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Basic c2FtOnNlY3JldA==",
        "Bearer cm_not-a-key-anyone-was-given",
        f"Bearer {ADMIN_KEY}",  # the admin key is no tenant key
    ],
)
def test_tenant_routes_refuse_missing_malformed_unknown_and_admin_keys(
    api: Api, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    calls = [
        ("POST", "/v1/memory/write", {"content": "hello", "scope": {"user_id": "sam"}}),
        ("POST", "/v1/memory/read", {"query": "hello", "scope": {"user_id": "sam"}}),
        ("POST", "/v1/facts/query", {"scope": {"user_id": "sam"}}),
        ("GET", "/v1/jobs/job_0123", None),
    ]
    for method, path, body in calls:
        response = api.client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, (path, response.text)
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.json()["error"]["type"] == "Unauthenticated"


def test_a_key_works_until_it_is_revoked(api: Api) -> None:
    secret = api.key("acme", name="ci")
    assert api.write(secret, "I moved to Porto").status_code == 200
    (listed,) = api.client.get("/v1/admin/keys", params={"tenant_id": "acme"}, headers=ADMIN).json()

    revoked = api.client.delete(f"/v1/admin/keys/{listed['id']}", headers=ADMIN)

    assert revoked.status_code == 200
    assert revoked.json()["revoked_at"] is not None
    refused = api.read(secret, "where do I live?")
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")


def test_an_expired_key_is_refused(api: Api) -> None:
    async def expired() -> str:
        store = SQLiteStore(api.db_path)
        await store.open()
        try:
            past = datetime.now(UTC) - timedelta(days=2)
            _, secret = await issue_key(
                store, "acme", expires_at=past + timedelta(days=1), now=past
            )
        finally:
            await store.close()
        return secret

    secret = asyncio.run(expired())
    response = api.write(secret, "hello")
    assert response.status_code == 401
    assert "expired" in response.json()["error"]["message"]


# -- the admin routes ----------------------------------------------------------------------
def test_admin_creates_lists_and_revokes_keys_without_showing_hashes(api: Api) -> None:
    created = api.client.post(
        "/v1/admin/keys",
        json={"tenant_id": "acme", "name": "worker", "rate_limit_per_minute": 50},
        headers=ADMIN,
    )
    assert created.status_code == 201
    body = created.json()
    assert body["secret"].startswith("cm_")
    assert len(body["secret"]) >= 40
    assert body["secret"].startswith(body["prefix"])
    assert (body["tenant_id"], body["name"], body["rate_limit_per_minute"]) == (
        "acme",
        "worker",
        50,
    )
    api.key("globex")

    acme = api.client.get("/v1/admin/keys", params={"tenant_id": "acme"}, headers=ADMIN).json()
    everyone = api.client.get("/v1/admin/keys", headers=ADMIN).json()

    assert [k["id"] for k in acme] == [body["id"]]
    assert {k["tenant_id"] for k in everyone} == {"acme", "globex"}
    for listed in everyone:
        assert "secret" not in listed
        assert "key_hash" not in listed
    missing = api.client.delete("/v1/admin/keys/key_missing", headers=ADMIN)
    assert missing.status_code == 404


def test_admin_refuses_bad_tenant_ids(api: Api) -> None:
    response = api.client.post("/v1/admin/keys", json={"tenant_id": "a b/c"}, headers=ADMIN)
    assert response.status_code == 422
    assert response.json()["error"]["details"]["field"] == "tenant_id"


@pytest.mark.parametrize("who", ["nobody", "tenant key", "wrong admin key"])
def test_admin_routes_need_the_admin_key(api: Api, who: str) -> None:
    headers = {
        "nobody": {},
        "tenant key": bearer(api.key("acme")),
        "wrong admin key": bearer(ADMIN_KEY + "x"),
    }[who]
    for method, path in [
        ("GET", "/v1/admin/keys"),
        ("POST", "/v1/admin/keys"),
        ("DELETE", "/v1/admin/keys/key_x"),
    ]:
        body = {"tenant_id": "acme"} if method == "POST" else None
        response = api.client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, (method, response.text)
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


async def test_admin_routes_are_disabled_without_an_admin_key(db_url: str) -> None:
    mem = Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder())
    async with mem, running(create_app(mem)) as client:
        response = await client.get("/v1/admin/keys", headers=ADMIN)
    assert response.status_code == 401
    assert "COGNIMEM_AUTH__ADMIN_KEY" in response.json()["error"]["message"]


def test_the_secret_is_not_in_the_database_file(api: Api) -> None:
    secret = api.key("acme")
    assert api.write(secret, "I keep bees").status_code == 200

    stored = b"".join(
        p.read_bytes() for p in api.db_path.parent.iterdir() if p.name.startswith("memory.db")
    )
    assert secret.encode() not in stored
    assert secret[10:].encode() not in stored  # not even past the shown prefix


# -- tenancy --------------------------------------------------------------------------------
def test_a_tenant_never_sees_another_tenants_memories(api: Api) -> None:
    acme, globex = api.key("acme"), api.key("globex")
    mine = api.write(acme, "I am allergic to peanuts").json()
    theirs = api.write(globex, "I am allergic to shellfish").json()
    # a tenant named in the body is ignored: the key decides
    sneaky = api.client.post(
        "/v1/memory/read",
        json={"query": "allergic", "scope": {"user_id": "sam", "tenant_id": "globex"}},
        headers=bearer(acme),
    )

    for packet in (api.read(acme, "what am I allergic to?").json(), sneaky.json()):
        texts = [i["text"] for i in packet["items"]]
        assert any("peanuts" in t for t in texts)
        assert not any("shellfish" in t for t in texts)
    facts = api.client.post(
        "/v1/facts/query", json={"scope": {"user_id": "sam"}}, headers=bearer(acme)
    )
    assert facts.status_code == 200
    assert "shellfish" not in facts.text
    their_item = theirs["messages"][0]["item_ids"][0]
    assert api.client.get(f"/v1/memory/get/{their_item}", headers=bearer(acme)).status_code == 404
    my_item = mine["messages"][0]["item_ids"][0]
    assert api.client.get(f"/v1/memory/get/{my_item}", headers=bearer(acme)).status_code == 200


def test_a_tenant_cannot_read_another_tenants_job(db_url: str) -> None:
    settings = make_settings()
    settings.ingest.mode = "async"
    for api in _serve(db_url, settings):
        acme, globex = api.key("acme"), api.key("globex")
        written = api.write(globex, "We are moving to Lisbon in June")
        assert written.status_code == 202, written.text
        job_id = written.json()["job_id"]

        assert api.client.get(f"/v1/jobs/{job_id}", headers=bearer(acme)).status_code == 404
        assert api.client.get(f"/v1/jobs/{job_id}", headers=bearer(globex)).status_code == 200


# -- rate limits ----------------------------------------------------------------------------
def test_over_the_limit_is_429_with_retry_after(api: Api) -> None:
    secret = api.key("acme", rate_limit_per_minute=2)
    other = api.key("acme")

    statuses = [api.read(secret, "anything").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    refused = api.read(secret, "anything")
    assert refused.json()["error"]["type"] == "RateLimited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 30
    # the limit is per key
    assert api.read(other, "anything").status_code == 200


async def test_the_limit_refills_over_the_minute(db_url: str) -> None:
    now = [1000.0]
    settings = make_settings(rate_limit_per_minute=3)  # the server default
    async with Memory.open(db_url, settings=settings, embedder=HashingEmbedder()) as mem:
        app = create_app(mem)
        app.state.auth.limiter = LocalRateLimiter(clock=lambda: now[0])
        async with running(app) as client:
            _, secret = await issue_key(mem.store, "acme")
            read = {"query": "anything", "scope": {"user_id": "sam"}}

            async def status() -> int:
                response = await client.post("/v1/memory/read", json=read, headers=bearer(secret))
                return response.status_code

            assert [await status() for _ in range(4)] == [200, 200, 200, 429]
            now[0] += 19.0
            assert await status() == 429
            now[0] += 1.5  # one request every 20 s comes back
            assert [await status() for _ in range(2)] == [200, 429]
            now[0] += 60.0  # a quiet minute refills the whole burst, no more
            assert [await status() for _ in range(4)] == [200, 200, 200, 429]


@pytest.fixture
def redis_url(redis_server: servers.RedisServer) -> str:
    return redis_server.url


async def test_a_redis_limit_is_shared_by_every_api_process(db_url: str, redis_url: str) -> None:
    settings = make_settings(redis_url=redis_url)
    mem_a = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    mem_b = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    async with mem_a, mem_b:
        _, secret = await issue_key(mem_a.store, "acme", rate_limit_per_minute=4)
        read = {"query": "anything", "scope": {"user_id": "sam"}}
        async with running(create_app(mem_a)) as a, running(create_app(mem_b)) as b:
            statuses = [
                (await client.post("/v1/memory/read", json=read, headers=bearer(secret)))
                for client in (a, b, a, b, a, b)
            ]
    assert [r.status_code for r in statuses] == [200, 200, 200, 200, 429, 429]
    assert int(statuses[-1].headers["Retry-After"]) >= 1


async def test_the_queue_redis_holds_limits_when_no_auth_redis_is_set(
    db_url: str, redis_url: str
) -> None:
    settings = make_settings()
    settings.queue_url = redis_url
    mem_a = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    mem_b = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    async with mem_a, mem_b:
        _, secret = await issue_key(mem_a.store, "acme", rate_limit_per_minute=1)
        async with running(create_app(mem_a)) as a, running(create_app(mem_b)) as b:
            body = {"scope": {"user_id": "sam"}}
            first = await a.post("/v1/facts/query", json=body, headers=bearer(secret))
            second = await b.post("/v1/facts/query", json=body, headers=bearer(secret))
    assert (first.status_code, second.status_code) == (200, 429)


async def test_an_unreachable_redis_fails_requests_instead_of_dropping_limits(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(redis_url=f"redis://127.0.0.1:{free_port()}/0")
    async with Memory.open(db_url, settings=settings, embedder=HashingEmbedder()) as mem:
        _, secret = await issue_key(mem.store, "acme")
        async with running(create_app(mem)) as client:
            response = await client.post("/v1/facts/query", json={}, headers=bearer(secret))
    assert response.status_code == 503
    assert response.json()["error"]["type"] == "StoreUnavailable"
    assert "Retry-After" in response.headers
    assert any("rate limit store" in r.getMessage() for r in caplog.records)
