from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Iterator

import httpx
import numpy as np
import pytest

from cognimem.errors import ProviderOutputError, ProviderUnavailable
from cognimem.providers import FakeEmbeddingServer, HashingEmbedder, OpenAICompatibleEmbedder


@pytest.fixture
def server() -> Iterator[FakeEmbeddingServer]:
    with FakeEmbeddingServer(dim=48, reverse_order=True) as srv:
        yield srv


@pytest.fixture
async def embedder(server: FakeEmbeddingServer) -> AsyncIterator[OpenAICompatibleEmbedder]:
    emb = OpenAICompatibleEmbedder(
        "fake-embed",
        server.base_url,
        api_key="sekret",
        timeout_s=2.0,
        max_retries=2,
        batch_size=3,
        backoff_s=0.01,
    )
    yield emb
    await emb.aclose()


async def test_detects_dimension_with_one_probe(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    assert await embedder.dimension() == 48
    assert await embedder.dimension() == 48
    assert server.request_count == 1
    assert embedder.model_id == "openai:fake-embed"


async def test_embeds_batches_in_order(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    texts = [f"text number {i} about topic {i % 3}" for i in range(8)]
    vecs = await embedder.embed(texts)
    assert vecs.shape == (8, 48)
    assert vecs.dtype == np.float32
    # The fake answers each batch in reverse order; rows must follow data[i].index.
    assert np.allclose(vecs, HashingEmbedder(48).embed_sync(texts), atol=1e-6)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert [r["json"]["input"] for r in server.requests] == [texts[0:3], texts[3:6], texts[6:8]]
    assert {r["json"]["model"] for r in server.requests} == {"fake-embed"}
    assert server.requests[0]["headers"]["authorization"] == "Bearer sekret"
    assert await embedder.dimension() == 48
    assert server.request_count == 3  # dimension came from the first answer


async def test_empty_input_probes_dimension(embedder: OpenAICompatibleEmbedder) -> None:
    assert (await embedder.embed([])).shape == (0, 48)


async def test_retries_a_500_then_succeeds(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    server.fail_next(status=500)
    server.fail_next(status=429)
    vecs = await embedder.embed(["retry me"])
    assert vecs.shape == (1, 48)
    assert server.request_count == 3


async def test_persistent_500_is_unavailable(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    server.fail_next(status=503, body="overloaded, try later", times=10)
    with pytest.raises(ProviderUnavailable) as info:
        await embedder.embed(["doomed"])
    assert server.request_count == 3  # 1 + max_retries
    assert "503" in info.value.message
    assert "overloaded" in info.value.message
    assert info.value.provider == "openai"
    assert info.value.model == "fake-embed"


async def test_client_error_is_not_retried(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    server.fail_next(status=401, body='{"error": "bad key"}')
    with pytest.raises(ProviderUnavailable, match="401") as info:
        await embedder.embed(["x"])
    assert server.request_count == 1
    assert info.value.details["status"] == 401
    assert "COGNIMEM_EMBEDDING__API_KEY" in info.value.message


async def test_request_timeout_status_is_retried(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    server.fail_next(status=408)
    assert (await embedder.embed(["again"])).shape == (1, 48)
    assert server.request_count == 2


async def test_malformed_json_is_an_output_error(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    server.fail_next(malformed=True)
    with pytest.raises(ProviderOutputError, match="invalid JSON"):
        await embedder.embed(["x"])
    assert server.request_count == 1


@pytest.mark.parametrize(
    "payload",
    [
        {"nodata": []},
        {"data": [{"index": 0, "embedding": [0.1, 0.2]}]},  # one row for two texts
        {"data": [{"index": 0, "embedding": [0.1, 0.2]}, {"index": 1, "embedding": [0.3]}]},
        {"data": [{"index": 0, "embedding": [0.1, 0.2]}, {"index": 0, "embedding": [0.3, 0.1]}]},
        {"data": [{"index": 0, "embedding": [0.1, "x"]}, {"index": 1, "embedding": [0.3, 0.1]}]},
        {"data": [{"index": 0, "embedding": []}, {"index": 1, "embedding": []}]},
    ],
)
async def test_unusable_answers_are_output_errors(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer, payload: object
) -> None:
    server.fail_next(payload=payload)
    with pytest.raises(ProviderOutputError):
        await embedder.embed(["one", "two"])


async def test_dimension_change_is_an_output_error(
    embedder: OpenAICompatibleEmbedder, server: FakeEmbeddingServer
) -> None:
    await embedder.embed(["first"])
    server.fail_next(payload={"data": [{"index": 0, "embedding": [1.0, 0.0]}]})
    with pytest.raises(ProviderOutputError, match="dimension changed"):
        await embedder.embed(["second"])


async def test_slow_beyond_timeout_is_unavailable(server: FakeEmbeddingServer) -> None:
    emb = OpenAICompatibleEmbedder(
        "fake-embed", server.base_url, timeout_s=0.2, max_retries=1, backoff_s=0.01
    )
    server.delay_next(2.0, times=2)
    try:
        with pytest.raises(ProviderUnavailable, match="timed out"):
            await emb.embed(["slow"])
        assert server.request_count == 2
    finally:
        await emb.aclose()


async def test_slow_once_then_fast_recovers(server: FakeEmbeddingServer) -> None:
    emb = OpenAICompatibleEmbedder(
        "fake-embed", server.base_url, timeout_s=0.3, max_retries=1, backoff_s=0.01
    )
    server.delay_next(2.0)
    try:
        assert (await emb.embed(["eventually"])).shape == (1, 48)
    finally:
        await emb.aclose()


async def test_connection_refused_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    emb = OpenAICompatibleEmbedder(
        "m", f"http://127.0.0.1:{port}/v1", timeout_s=1.0, max_retries=1, backoff_s=0.01
    )
    try:
        with pytest.raises(ProviderUnavailable, match="connection failed"):
            await emb.embed(["x"])
    finally:
        await emb.aclose()


async def test_mock_transport_is_accepted() -> None:
    seen: list[dict[str, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        data = [{"index": i, "embedding": [3.0, 4.0]} for i in range(len(body["input"]))]
        return httpx.Response(200, json={"data": data})

    emb = OpenAICompatibleEmbedder(
        "m", "http://embeddings.invalid/v1", transport=httpx.MockTransport(handler)
    )
    try:
        vecs = await emb.embed(["a", "b"])
    finally:
        await emb.aclose()
    assert np.allclose(vecs, [[0.6, 0.8], [0.6, 0.8]])
    assert seen == [{"model": "m", "input": ["a", "b"]}]


def test_reusable_after_aclose_in_another_event_loop(server: FakeEmbeddingServer) -> None:
    emb = OpenAICompatibleEmbedder("fake-embed", server.base_url, backoff_s=0.01)

    async def embed_and_close() -> np.ndarray:
        try:
            return await emb.embed(["same text"])
        finally:
            await emb.aclose()

    first = asyncio.run(embed_and_close())
    second = asyncio.run(embed_and_close())
    assert np.array_equal(first, second)
    assert server.request_count == 2
