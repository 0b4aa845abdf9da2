"""RedisEmbeddingCache against a real redis-server.

Round trips are counted two ways: the server's own ``INFO commandstats`` (how many MGET /
GET / SET commands it executed) and a counting wrapper around the asyncio client's
``send_packed_command`` (one call per request written to the socket: a pipeline is one).
The admin client reading the stats is the synchronous one, so it is not counted.

The outage test runs its own server, so stopping it disturbs nobody else.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cognimem.errors import StoreUnavailable, UsageError
from cognimem.providers import CachedEmbedder, text_hash
from cognimem.providers.embeddings import FloatMatrix
from tests import servers
from tests.doubles import CountingEmbedder, DictBackend

pytest.importorskip("redis")

import redis
from redis.asyncio.connection import AbstractConnection

from cognimem.providers.redis_cache import RedisEmbeddingCache

MODEL = "hashing-32"
LOGGER = "cognimem.providers.redis_cache"


@pytest.fixture
def admin(redis_server: servers.RedisServer) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server.url)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def prefix() -> str:
    return f"t{uuid.uuid4().hex[:12]}:emb:"


@pytest.fixture
async def caches(
    redis_server: servers.RedisServer, prefix: str
) -> AsyncIterator[list[RedisEmbeddingCache]]:
    """Caches a test opens on the session server, closed afterwards."""
    opened: list[RedisEmbeddingCache] = []
    yield opened
    for cache in opened:
        await cache.aclose()


@pytest.fixture
def make_cache(
    redis_server: servers.RedisServer, prefix: str, caches: list[RedisEmbeddingCache]
) -> Any:
    def make(**kwargs: Any) -> RedisEmbeddingCache:
        kwargs.setdefault("behind", None)
        kwargs.setdefault("prefix", prefix)
        cache = RedisEmbeddingCache(redis_server.url, **kwargs)
        caches.append(cache)
        return cache

    return make


class Sends:
    """Counts requests the asyncio redis client writes (a pipeline is one)."""

    def __init__(self) -> None:
        self.count = 0


@pytest.fixture
def sends(monkeypatch: pytest.MonkeyPatch) -> Sends:
    counter = Sends()
    original = AbstractConnection.send_packed_command

    async def counting(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        counter.count += 1
        await original(self, *args, **kwargs)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)
    return counter


def calls(admin: redis.Redis, command: str) -> int:
    """How many times the server has executed ``command`` (INFO commandstats)."""
    stats: dict[str, Any] = admin.info("commandstats")
    return int(stats.get(f"cmdstat_{command}", {}).get("calls", 0))


def command_calls(admin: redis.Redis) -> dict[str, int]:
    return {c: calls(admin, c) for c in ("mget", "get", "set")}


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {c: after[c] - before[c] for c in before}


def vectors(*names: str, dim: int = 8) -> dict[str, FloatMatrix]:
    rng = np.random.default_rng(7)
    return {text_hash(n): rng.standard_normal(dim).astype(np.float32) for n in names}


def assert_same(got: Mapping[str, FloatMatrix], want: Mapping[str, FloatMatrix]) -> None:
    assert set(got) == set(want)
    for h, v in want.items():
        assert got[h].dtype == np.float32
        np.testing.assert_array_equal(got[h], v)


async def test_a_batch_is_one_mget_and_a_put_is_one_pipeline(
    make_cache: Any, admin: redis.Redis, sends: Sends
) -> None:
    backend = DictBackend()
    cache: RedisEmbeddingCache = make_cache(behind=backend)
    await cache.get_embeddings(MODEL, [text_hash("warm-up")])  # connect (HELLO/SETINFO)
    known = vectors(*(f"text {i}" for i in range(5)))

    before, sends.count = command_calls(admin), 0
    await cache.put_embeddings(MODEL, known)
    assert sends.count == 1
    assert delta(before, command_calls(admin)) == {"mget": 0, "get": 0, "set": 5}
    assert backend.puts == [known]

    unknown = [text_hash("nobody"), text_hash("knows")]
    before, sends.count = command_calls(admin), 0
    found = await cache.get_embeddings(MODEL, [*known, *unknown])
    assert sends.count == 1  # nothing from behind: no write-back
    assert delta(before, command_calls(admin)) == {"mget": 1, "get": 0, "set": 0}
    assert backend.gets[-1] == unknown
    assert_same(found, known)


async def test_another_process_gets_hits_from_redis_without_embedding(
    make_cache: Any, admin: redis.Redis
) -> None:
    texts = ["alpha", "beta", "gamma", "alpha"]
    first = CountingEmbedder()
    embedder_a = CachedEmbedder(first, make_cache())
    vecs_a = await embedder_a.embed(texts)
    assert first.embedded == ["alpha", "beta", "gamma"]

    # "another process": a fresh LRU and a fresh Redis client
    second = CountingEmbedder()
    embedder_b = CachedEmbedder(second, make_cache())
    before = command_calls(admin)
    vecs_b = await embedder_b.embed(texts)
    assert second.batches == []
    assert (embedder_b.hits, embedder_b.misses) == (3, 0)
    assert delta(before, command_calls(admin)) == {"mget": 1, "get": 0, "set": 0}
    np.testing.assert_array_equal(vecs_a, vecs_b)


async def test_misses_fall_through_to_behind_and_are_written_back(
    make_cache: Any, admin: redis.Redis, sends: Sends, prefix: str
) -> None:
    backend = DictBackend()
    stored = vectors("one", "two", "three")
    for h, v in stored.items():
        backend.data[(MODEL, h)] = v
    cache: RedisEmbeddingCache = make_cache(behind=backend, ttl_s=600)
    await cache.get_embeddings(MODEL, [])  # no hashes: no call at all
    assert backend.gets == []

    wanted = [*stored, text_hash("four")]
    before, sends.count = command_calls(admin), 0
    found = await cache.get_embeddings(MODEL, wanted)
    assert_same(found, stored)
    assert backend.gets == [wanted]  # all misses in one call
    assert delta(before, command_calls(admin)) == {"mget": 1, "get": 0, "set": 3}
    assert sends.count >= 2  # the first call also connects
    for h, v in stored.items():
        key = f"{prefix}{MODEL}:{h}"
        assert admin.get(key) == v.astype("<f4").tobytes()
        assert 0 < admin.ttl(key) <= 600
    assert admin.exists(f"{prefix}{MODEL}:{text_hash('four')}") == 0

    # the next process finds them in Redis: behind is asked only for the real miss
    fresh: RedisEmbeddingCache = make_cache(behind=backend)
    assert_same(await fresh.get_embeddings(MODEL, wanted), stored)
    assert backend.gets[-1] == [text_hash("four")]

    # and a write-back costs one pipelined round trip after the MGET
    backend.data[(MODEL, text_hash("four"))] = vectors("four")[text_hash("four")]
    sends.count = 0
    await fresh.get_embeddings(MODEL, wanted)
    assert sends.count == 2


async def test_put_sets_the_ttl_and_writes_behind(
    make_cache: Any, admin: redis.Redis, prefix: str
) -> None:
    backend = DictBackend()
    cache: RedisEmbeddingCache = make_cache(behind=backend, ttl_s=120)
    vecs = vectors("ttl me")
    await cache.put_embeddings(MODEL, vecs)
    (h,) = vecs
    assert 0 < admin.ttl(f"{prefix}{MODEL}:{h}") <= 120
    assert backend.data[(MODEL, h)] is vecs[h]

    default: RedisEmbeddingCache = make_cache(prefix=prefix + "d:")
    await default.put_embeddings(MODEL, vecs)
    assert 7 * 86400 - 60 < admin.ttl(f"{prefix}d:{MODEL}:{h}") <= 7 * 86400


async def test_a_value_that_is_not_float32_bytes_is_a_miss(
    make_cache: Any, admin: redis.Redis, prefix: str
) -> None:
    backend = DictBackend()
    good = vectors("broken", "empty")
    for h, v in good.items():
        backend.data[(MODEL, h)] = v
    broken, empty = good
    admin.set(f"{prefix}{MODEL}:{broken}", b"abc")  # 3 bytes
    admin.set(f"{prefix}{MODEL}:{empty}", b"")
    cache: RedisEmbeddingCache = make_cache(behind=backend)

    assert_same(await cache.get_embeddings(MODEL, [broken, empty]), good)
    assert backend.gets == [[broken, empty]]
    # repaired by the write-back
    assert admin.get(f"{prefix}{MODEL}:{broken}") == good[broken].astype("<f4").tobytes()


def test_invalid_settings_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="ttl_s"):
        RedisEmbeddingCache("redis://127.0.0.1:1/0", behind=None, ttl_s=0)


async def test_redis_down_is_visible_or_bypassed_when_configured(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    servers.require("redis")
    server = servers.start_redis(tmp_path)
    opened: list[RedisEmbeddingCache] = []

    def make(url: str = server.url, **kwargs: Any) -> RedisEmbeddingCache:
        cache = RedisEmbeddingCache(url, prefix="outage:", **kwargs)
        opened.append(cache)
        return cache

    try:
        backend = DictBackend()
        on_disk = vectors("on disk")
        (h_disk,) = on_disk
        backend.data[(MODEL, h_disk)] = on_disk[h_disk]
        in_redis = vectors("in redis")
        (h_redis,) = in_redis

        strict = make(behind=backend)
        loose = make(behind=backend, fail_open=True)
        await strict.put_embeddings(MODEL, in_redis)
        assert_same(await loose.get_embeddings(MODEL, [h_redis]), in_redis)  # pooled conn

        server.stop()

        # default: the outage is an error, not a silent slowdown
        with pytest.raises(StoreUnavailable) as info:
            await strict.get_embeddings(MODEL, [h_redis, h_disk])
        assert info.value.status_code == 503
        puts = len(backend.puts)
        with pytest.raises(StoreUnavailable):
            await strict.put_embeddings(MODEL, vectors("late"))
        assert len(backend.puts) == puts + 1  # the persistent tier got it first

        secret_url = f"redis://cognimem:s3cret-pw@127.0.0.1:{server.port}/0"
        with pytest.raises(StoreUnavailable) as info:
            await make(secret_url, behind=None).get_embeddings(MODEL, [h_redis])
        assert "s3cret-pw" not in str(info.value)
        assert "cognimem:***@127.0.0.1" in str(info.value)

        # fail_open: straight to behind, counted, one warning for the whole outage
        caplog.set_level(logging.INFO, logger=LOGGER)
        found = await loose.get_embeddings(MODEL, [h_redis, h_disk])
        assert_same(found, {**in_redis, **on_disk})  # strict.put_embeddings wrote behind too
        assert loose.errors == 1
        await loose.put_embeddings(MODEL, vectors("while down"))
        assert loose.errors == 2
        assert (MODEL, text_hash("while down")) in backend.data
        inner = CountingEmbedder()
        backend.data[(inner.model_id, h_disk)] = (await inner.inner.embed(["on disk"]))[0]
        embedder = CachedEmbedder(inner, loose)
        await embedder.embed(["on disk", "brand new"])
        assert inner.embedded == ["brand new"]
        assert loose.errors == 4  # the MGET and the write of "brand new"
        warnings = [r for r in caplog.records if r.name == LOGGER]
        assert [r.levelno for r in warnings] == [logging.WARNING]
        assert "unavailable" in warnings[0].getMessage()

        server.start()

        # back: both work again (the restarted server is empty: no persistence)
        await strict.put_embeddings(MODEL, in_redis)
        assert_same(await strict.get_embeddings(MODEL, [h_redis]), in_redis)
        caplog.clear()
        assert_same(await loose.get_embeddings(MODEL, [h_redis, h_disk]), {**in_redis, **on_disk})
        assert loose.errors == 4
        assert [r.levelno for r in caplog.records if r.name == LOGGER] == [logging.INFO]
        # h_disk was written back to Redis by that lookup
        fresh = make(behind=None)
        assert_same(await fresh.get_embeddings(MODEL, [h_disk]), on_disk)

        # a second outage is reported again
        server.stop()
        caplog.clear()
        await loose.get_embeddings(MODEL, [h_disk])
        await loose.get_embeddings(MODEL, [h_disk])
        assert loose.errors == 6
        assert [r.levelno for r in caplog.records if r.name == LOGGER] == [logging.WARNING]
    finally:
        for cache in opened:
            await cache.aclose()
        server.destroy()
