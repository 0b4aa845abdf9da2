"""``GET /metrics`` over real HTTP, and the structured access log."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.errors import ProviderUnavailable
from cognimem.logs import JsonFormatter
from cognimem.metrics import Metrics, degraded_reason
from cognimem.models import ContextPacket, WriteResult
from cognimem.providers.fakes import HashingEmbedder
from tests.conftest import child_env
from tests.e2e.http_server import free_port, output_if_exited, serving, wait_healthy

ADMIN_KEY = "admin-key-for-the-metrics-tests-0123"
METRICS_TOKEN = "metrics-token-for-the-tests-0123456"


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@contextlib.contextmanager
def served_client(url: str) -> Iterator[httpx.Client]:
    """A client of the real app over HTTP, on the database at ``url``; the app's Memory
    has the lifecycle operation ``broken`` too, whose every run fails."""
    settings = Settings.model_validate(
        {"auth": {"admin_key": ADMIN_KEY, "metrics_token": METRICS_TOKEN}}
    )
    memory = Memory.open(url, settings=settings, embedder=HashingEmbedder())

    async def broken(scope: Any, *, dry_run: bool, progress: Any = None) -> Any:
        raise ProviderUnavailable("the LLM timed out", provider="fake", model="fake")

    memory.register_lifecycle_operation("broken", broken)
    try:
        with serving(create_app(memory)) as base, httpx.Client(base_url=base, timeout=30) as c:
            yield c
    finally:
        asyncio.run(memory.aclose())


@pytest.fixture
def client(db_url: str) -> Iterator[httpx.Client]:
    with served_client(db_url) as c:
        yield c


@pytest.fixture
def backend_client(memory_url: str) -> Iterator[httpx.Client]:
    """``client`` on each backend."""
    with served_client(memory_url) as c:
        yield c


def tenant_key(client: httpx.Client) -> dict[str, str]:
    created = client.post("/v1/admin/keys", json={"tenant_id": "acme"}, headers=bearer(ADMIN_KEY))
    assert created.status_code == 201
    return bearer(created.json()["secret"])


def scrape(client: httpx.Client) -> dict[str, list[tuple[dict[str, str], float]]]:
    """Samples by name: ``{name: [(labels, value), ...]}``."""
    response = client.get("/metrics", headers=bearer(METRICS_TOKEN))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(response.text):
        for s in family.samples:
            samples.setdefault(s.name, []).append((s.labels, s.value))
    return samples


def value(
    samples: dict[str, list[tuple[dict[str, str], float]]], name: str, **labels: str
) -> float:
    return sum(v for got, v in samples.get(name, []) if labels.items() <= got.items())


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer nope", "Basic bWV0cmljczp4"],
)
def test_metrics_need_the_metrics_token_or_the_admin_key(
    client: httpx.Client, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    refused = client.get("/metrics", headers=headers)
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    # a tenant's API key is no metrics token either
    assert client.get("/metrics", headers=tenant_key(client)).status_code == 401
    assert client.get("/metrics", headers=bearer(METRICS_TOKEN)).status_code == 200
    assert client.get("/metrics", headers=bearer(ADMIN_KEY)).status_code == 200


async def test_metrics_are_closed_when_no_token_is_configured(db_url: str) -> None:
    async with Memory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        app = create_app(mem)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            response = await c.get("/metrics", headers=bearer("anything"))
    assert response.status_code == 401
    message = response.json()["error"]["message"]
    assert "COGNIMEM_AUTH__METRICS_TOKEN" in message
    assert "COGNIMEM_AUTH__ADMIN_KEY" in message


def test_requests_reads_and_writes_show_up(client: httpx.Client) -> None:
    key = tenant_key(client)
    scope = {"user_id": "sam"}
    writes = [
        client.post(
            "/v1/memory/write", json={"scope": scope, "content": "I keep bees"}, headers=key
        )
        for _ in range(2)
    ]
    assert [w.status_code for w in writes] == [200, 200]
    read = client.post(
        "/v1/memory/read", json={"query": "what do I keep?", "scope": scope}, headers=key
    )
    assert read.status_code == 200
    client.get("/v1/jobs/job_0123", headers=key)  # whatever it answers: a templated route

    samples = scrape(client)

    requests = "cognimem_http_request_duration_seconds_count"
    assert value(samples, requests, method="POST", route="/v1/memory/read", status="200") == 1
    assert value(samples, requests, method="POST", route="/v1/memory/write") == 2
    # the route template, never the raw path
    assert value(samples, requests, route="/v1/jobs/{job_id}") == 1
    assert not any("job_0123" in labels.get("route", "") for labels, _ in samples[requests])
    ran = [s["name"] for s in read.json()["steps"] if s["skipped"] is None]
    assert ran
    for step in ran:
        count = value(samples, "cognimem_retrieval_step_duration_seconds_count", step=step)
        assert count == 1, step
    # the second write repeats the first within the dedupe window
    outcomes = [w.json()["messages"][0]["outcome"] for w in writes]
    assert outcomes == ["stored", "duplicate"]
    assert value(samples, "cognimem_ingest_messages_total", outcome="stored") == 1
    assert value(samples, "cognimem_ingest_messages_total", outcome="duplicate") == 1
    assert value(samples, "cognimem_embedding_cache_misses_total") >= 1
    assert "cognimem_embedding_cache_hit_ratio" in samples
    # the read's scope is held in process, within the default cap (4 GiB)
    assert value(samples, "cognimem_scope_cache_bytes") > 0
    assert value(samples, "cognimem_scope_cache_max_bytes") == 4096 * 2**20
    assert value(samples, "cognimem_scope_cache_evictions_total") == 0
    # the read's vector search of a small SQLite scope: an exact scan, indexes available
    assert value(samples, "cognimem_vector_searches_total", method="exact") >= 1
    assert value(samples, "cognimem_vector_index_degraded") == 0


def fact_entries(packet: dict[str, Any]) -> list[Any]:
    """A packet's fact and constraint entries (``PacketSections.entries``)."""
    names = ("must_follow", "consider", "facts", "preferences", "needs_validation")
    return [e for name in names for e in packet["sections"][name]]


def test_fact_hit_rate_counts_reads_with_facts_and_cited_turns(
    backend_client: httpx.Client,
) -> None:
    client = backend_client
    key = tenant_key(client)
    sam, kim = {"user_id": "sam"}, {"user_id": "kim"}
    wrote = client.post(
        "/v1/memory/write",
        json={"scope": sam, "content": "I live in Lisbon and I am allergic to peanuts"},
        headers=key,
    )
    assert wrote.json()["knowledge"]["facts_created"]
    reads = [
        client.post("/v1/memory/read", json={"query": q, "scope": s}, headers=key).json()
        for q, s in (("where do I live?", sam), ("where do I live?", kim))
    ]
    # which reads found facts: sam's did, kim (who said nothing) did not
    assert [bool(fact_entries(r)) for r in reads] == [True, False]

    def turn(answer: str | None) -> dict[str, object]:
        body: dict[str, object] = {"scope": sam, "user": {"content": "Where do I live?"}}
        if answer is not None:
            body["assistant"] = {"role": "assistant", "content": answer}
        done = client.post("/v1/memory/turn", json=body, headers=key)
        assert done.status_code == 200
        result: dict[str, object] = done.json()
        return result

    cited = turn("You live in Lisbon.")
    uncited = turn("I could not say, sorry.")
    turn(None)  # no answer: nothing to cite, not counted as a miss
    assert cited["cited"]
    assert not uncited["cited"]

    samples = scrape(client)
    reads_with = "cognimem_reads_with_facts_total"
    # two reads plus the three turns' reads (sam's: they all find the fact)
    assert value(samples, reads_with, with_facts="true") == 4
    assert value(samples, reads_with, with_facts="false") == 1
    turns_cited = "cognimem_turns_facts_cited_total"
    assert value(samples, turns_cited, cited="true") == 1
    assert value(samples, turns_cited, cited="false") == 1


def test_a_read_records_its_cpu_time(backend_client: httpx.Client) -> None:
    client = backend_client
    key = tenant_key(client)
    scope = {"user_id": "sam"}
    wrote = client.post(
        "/v1/memory/write", json={"scope": scope, "content": "I live in Lisbon"}, headers=key
    )
    assert wrote.status_code == 200
    # a write records no read CPU time
    assert value(scrape(client), "cognimem_read_cpu_seconds_count") == 0
    read = client.post(
        "/v1/memory/read", json={"query": "where do I live?", "scope": scope}, headers=key
    )
    assert read.status_code == 200
    samples = scrape(client)
    assert value(samples, "cognimem_read_cpu_seconds_count") == 1
    assert value(samples, "cognimem_read_cpu_seconds_sum") > 0


WRITE_STEPS = {"gate", "extraction", "embedding", "reconciliation", "store"}


def test_write_steps_are_timed_on_the_result_and_the_histogram(
    backend_client: httpx.Client,
) -> None:
    client = backend_client
    key = tenant_key(client)
    scope = {"user_id": "sam"}
    wrote = client.post(
        "/v1/memory/write",
        json={"scope": scope, "content": "I live in Lisbon and I am allergic to peanuts"},
        headers=key,
    ).json()
    turned = client.post(
        "/v1/memory/turn",
        json={"scope": scope, "user": {"content": "I adopted a kitten named Miso"}},
        headers=key,
    ).json()

    steps = {s["name"]: s["latency_ms"] for s in wrote["steps"]}
    assert set(steps) == WRITE_STEPS
    assert all(ms > 0 for ms in steps.values())
    turn_steps = {s["name"]: s["latency_ms"] for s in turned["stored"]["steps"]}
    assert set(turn_steps) == WRITE_STEPS
    samples = scrape(client)
    histogram = "cognimem_write_step_duration_seconds"
    for step in WRITE_STEPS:
        # the write and the turn's write, each observed once, in seconds
        assert value(samples, f"{histogram}_count", path="write", step=step) == 2, step
        seconds = (steps[step] + turn_steps[step]) / 1000
        assert value(samples, f"{histogram}_sum", step=step) == pytest.approx(seconds), step
    assert value(samples, f"{histogram}_count", path="ingest_job") == 0


async def test_an_api_process_times_the_write_steps_of_the_jobs_it_runs(db_url: str) -> None:
    settings = Settings.model_validate(
        {
            "auth": {"admin_key": ADMIN_KEY, "metrics_token": METRICS_TOKEN},
            "ingest": {"mode": "async"},
        }
    )
    mem = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    app = create_app(mem)
    transport = httpx.ASGITransport(app=app)
    async with (
        mem,
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        created = await client.post(
            "/v1/admin/keys", json={"tenant_id": "acme"}, headers=bearer(ADMIN_KEY)
        )
        key = bearer(created.json()["secret"])
        wrote = await client.post(
            "/v1/memory/write",
            json={"scope": {"user_id": "sam"}, "content": "I moved to Lisbon in May"},
            headers=key,
        )
        assert wrote.json()["job_id"] is not None
        job = await mem.process_next_job("w1")
        assert job is not None
        scraped = await client.get("/metrics", headers=bearer(METRICS_TOKEN))
    counts = {
        (s.labels["path"], s.labels["step"]): s.value
        for family in text_string_to_metric_families(scraped.text)
        for s in family.samples
        if s.name == "cognimem_write_step_duration_seconds_count"
    }
    # the route's part of the async write (its raw events), then the job's five steps
    assert counts == {
        ("write", "gate"): 1,
        ("write", "store"): 1,
        **{("ingest_job", step): 1 for step in WRITE_STEPS},
    }


def test_lifecycle_runs_in_the_api_process_are_timed_and_counted(
    backend_client: httpx.Client,
) -> None:
    client = backend_client
    key = tenant_key(client)
    for text in ("I moved to Lisbon in May", "I play the cello", "My sister is Ana"):
        wrote = client.post(
            "/v1/memory/write", json={"scope": {"user_id": "sam"}, "content": text}, headers=key
        )
        assert wrote.status_code == 200

    def dry_run(op: str) -> httpx.Response:
        body = {"scope": {"user_id": "sam"}, "dry_run": True}
        return client.post(f"/v1/lifecycle/{op}", json=body, headers=key)

    consolidated = dry_run("consolidate")
    assert consolidated.status_code == 200
    weighed = consolidated.json()["result"]["episodes"]
    assert weighed == 3  # sam's three messages, none consolidated yet
    assert dry_run("broken").status_code == 502
    assert dry_run("no_such_op").status_code == 404  # no run: nothing recorded

    samples = scrape(client)
    duration = "cognimem_lifecycle_duration_seconds_count"
    assert value(samples, duration, operation="consolidate") == 1
    assert value(samples, duration, operation="broken") == 1
    assert value(samples, duration) == 2
    assert value(samples, "cognimem_lifecycle_items_total", operation="consolidate") == weighed
    assert value(samples, "cognimem_lifecycle_items_total", operation="broken") == 0
    assert value(samples, "cognimem_lifecycle_failures_total", operation="broken") == 1
    assert value(samples, "cognimem_lifecycle_failures_total", operation="consolidate") == 0


def test_degraded_and_skipped_steps_are_counted() -> None:
    metrics = Metrics()
    packet = ContextPacket.model_validate(
        {
            "query": "q",
            "items": [],
            "token_count": 0,
            "max_tokens": 100,
            "reference_time": "2024-01-01T00:00:00Z",
            "preset": "balanced",
            "degraded": ["vector: timed out", "llm classifier failed: ProviderUnavailable: x"],
            "steps": [
                {"name": "vector", "latency_ms": 250.0, "results": 0, "timed_out": True},
                {"name": "graph", "latency_ms": 0.0, "results": 0, "skipped": "budget"},
                {"name": "lexical", "latency_ms": 3.0, "results": 2},
            ],
        }
    )
    result = WriteResult.model_validate(
        {
            "messages": [{"event_id": "evt_1", "outcome": "queued"}],
            "degraded": ["queue unavailable, ingested synchronously: down"],
        }
    )

    metrics.observe_read(packet)
    metrics.observe_write(result)

    got = {(name, tuple(sorted(labels.items()))): v for name, labels, v in metrics.samples()}
    assert (
        got[
            (
                "cognimem_retrieval_steps_incomplete_total",
                (("reason", "timeout"), ("step", "vector")),
            )
        ]
        == 1
    )
    assert (
        got[
            (
                "cognimem_retrieval_steps_incomplete_total",
                (("reason", "skipped"), ("step", "graph")),
            )
        ]
        == 1
    )
    assert got[("cognimem_retrieval_step_duration_seconds_count", (("step", "lexical"),))] == 1
    assert ("cognimem_retrieval_step_duration_seconds_count", (("step", "graph"),)) not in got
    assert got[("cognimem_degraded_total", (("path", "read"), ("reason", "vector")))] == 1
    assert (
        got[("cognimem_degraded_total", (("path", "read"), ("reason", "llm classifier failed")))]
        == 1
    )
    assert (
        got[
            (
                "cognimem_degraded_total",
                (("path", "write"), ("reason", "queue unavailable, ingested synchronously")),
            )
        ]
        == 1
    )
    assert got[("cognimem_ingest_messages_total", (("outcome", "queued"),))] == 1
    assert degraded_reason("") == "unknown"


def test_each_app_has_its_own_registry() -> None:
    first, second = Metrics(), Metrics()
    first.observe_http("GET", "/v1/health", 200, 0.01)
    assert not any(
        name == "cognimem_http_request_duration_seconds_count" for name, _, _ in second.samples()
    )


# -- logs -----------------------------------------------------------------------------------
@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("cognimem.access")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def wait_logged(log: io.StringIO, *request_ids: str) -> None:
    """The server thread writes a request's access line once its answer is sent, so
    the client may read the answer first: wait (up to a minute: a busy machine) for the
    lines."""
    deadline = time.monotonic() + 60
    while not all(r in log.getvalue() for r in request_ids) and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_request_logs_one_json_line_with_its_echoed_request_id(
    client: httpx.Client, json_log: io.StringIO
) -> None:
    key = tenant_key(client)
    json_log.truncate(0)
    json_log.seek(0)

    response = client.post("/v1/facts/query", json={"scope": {"user_id": "sam"}}, headers=key)

    request_id = response.headers["X-Request-ID"]
    wait_logged(json_log, request_id)
    lines = [json.loads(line) for line in json_log.getvalue().splitlines()]
    mine = [entry for entry in lines if entry["request_id"] == request_id]
    assert len(mine) == 1
    (entry,) = mine
    assert entry["level"] == "INFO"
    assert entry["logger"] == "cognimem.access"
    assert (entry["method"], entry["path"], entry["status"]) == ("POST", "/v1/facts/query", 200)
    assert entry["tenant_id"] == "acme"
    assert entry["duration_ms"] >= 0
    assert entry["time"].endswith("Z")
    secret = key["Authorization"].removeprefix("Bearer ")
    assert secret not in json_log.getvalue()


def test_a_sane_incoming_request_id_is_kept_and_a_bad_one_replaced(
    client: httpx.Client, json_log: io.StringIO
) -> None:
    kept = client.get("/v1/health", headers={"X-Request-ID": "trace-42.a:b"})
    replaced = client.get("/v1/health", headers={"X-Request-ID": "x" * 129})
    weird = client.get("/v1/health", headers={"X-Request-ID": 'a b"{}'})

    assert kept.headers["X-Request-ID"] == "trace-42.a:b"
    assert replaced.headers["X-Request-ID"] not in ("", "x" * 129)
    assert weird.headers["X-Request-ID"] != 'a b"{}'
    wait_logged(json_log, "trace-42.a:b", replaced.headers["X-Request-ID"])
    logged = {json.loads(line)["request_id"] for line in json_log.getvalue().splitlines()}
    assert {"trace-42.a:b", replaced.headers["X-Request-ID"]} <= logged


def test_the_formatter_masks_secrets_and_keeps_extra_fields() -> None:
    record = logging.LogRecord(
        "cognimem.test",
        logging.WARNING,
        __file__,
        1,
        "sent Bearer %s and %s",
        ("abc.def", "cm_" + "x" * 43),
        None,
    )
    record.tenant_id = "acme"

    entry = json.loads(JsonFormatter().format(record))

    assert entry["message"] == "sent Bearer *** and cm_***"
    assert entry["tenant_id"] == "acme"
    assert entry["request_id"] is None


def test_serve_writes_json_log_lines(db_url: str) -> None:
    port = free_port()
    env = child_env()
    env.update(
        {
            "COGNIMEM_DATABASE_URL": db_url,
            "COGNIMEM_EMBEDDING__MODEL": "hashing",
            "COGNIMEM_AUTH__ADMIN_KEY": ADMIN_KEY,
        }
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "cognimem", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, lambda: output_if_exited(proc))
        httpx.get(f"{base}/v1/health", headers={"X-Request-ID": "serve-log-1"}, timeout=10)
        httpx.get(f"{base}/v1/admin/keys", headers=bearer(ADMIN_KEY), timeout=10)
    finally:
        proc.terminate()
        _, errors = proc.communicate(timeout=30)

    lines = [json.loads(line) for line in errors.splitlines() if line.strip()]
    (health,) = [entry for entry in lines if entry["request_id"] == "serve-log-1"]
    assert health["logger"] == "cognimem.access"
    assert health["status"] == 200
    # uvicorn's own lines are JSON too, and nothing carries the admin key
    assert any(entry["logger"].startswith("uvicorn") for entry in lines)
    assert ADMIN_KEY not in errors


async def test_queue_depth_is_read_at_scrape_time(db_url: str) -> None:
    settings = Settings.model_validate(
        {"auth": {"metrics_token": METRICS_TOKEN}, "ingest": {"mode": "async"}}
    )
    mem = Memory.open(db_url, settings=settings, embedder=HashingEmbedder())
    app = create_app(mem)
    transport = httpx.ASGITransport(app=app)
    async with (
        mem,
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        await mem.write("We are moving to Lisbon in June", user_id="sam")
        await mem.write("I adopted a kitten", user_id="sam")
        before = await client.get("/metrics", headers=bearer(METRICS_TOKEN))
        await mem.process_next_job("w1")
        after = await client.get("/metrics", headers=bearer(METRICS_TOKEN))

    def depth(text: str) -> float:
        (family,) = [
            f for f in text_string_to_metric_families(text) if f.name == "cognimem_queue_depth"
        ]
        return float(family.samples[0].value)

    assert (depth(before.text), depth(after.text)) == (2.0, 1.0)


async def test_no_queue_means_no_queue_depth_series(postgres_dsn: str) -> None:
    # PostgreSQL without COGNIMEM_QUEUE_URL has no queue (SQLite always has its outbox:
    # lifecycle jobs run on it)
    async with Memory.open(postgres_dsn, settings=Settings(), embedder=HashingEmbedder()) as mem:
        assert mem.queue is None
        metrics = Metrics(mem)
        body, _ = await metrics.render()
    assert b"cognimem_queue_depth" not in body
