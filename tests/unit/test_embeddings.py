from __future__ import annotations

import numpy as np
import pytest

import cognimem.providers as providers
from cognimem.errors import SchemaMismatch, UsageError
from cognimem.providers import (
    CachedEmbedder,
    Embedder,
    HashingEmbedder,
    OnnxEmbedder,
    OnnxMiniLMEmbedder,
    OpenAICompatibleEmbedder,
    build_embedder,
    l2_normalize,
    text_hash,
)
from cognimem.providers.factory import same_weights, spec_of
from tests.doubles import CountingEmbedder, DictBackend

# --- HashingEmbedder ---------------------------------------------------------------


async def test_hashing_embedder_shape_and_unit_rows() -> None:
    emb = HashingEmbedder(dim=64)
    vecs = await emb.embed(["the cat sat", "a dog barked loudly", ""])
    assert vecs.shape == (3, 64)
    assert vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs[:2], axis=1), 1.0, atol=1e-6)
    assert not vecs[2].any()  # no words -> zero vector, not NaN
    assert emb.model_id == "hashing:64"
    assert await emb.dimension() == 64


async def test_hashing_embedder_empty_batch() -> None:
    assert (await HashingEmbedder(dim=8).embed([])).shape == (0, 8)


async def test_hashing_embedder_is_case_insensitive_and_ignores_punctuation() -> None:
    vecs = await HashingEmbedder().embed(["Hello, World!", "hello world"])
    assert np.array_equal(vecs[0], vecs[1])


def test_hashing_embedder_vectors_are_pinned() -> None:
    # Golden values: blake2b-based, so every process and machine must produce exactly
    # these; a change here silently invalidates vectors already stored with "hashing:256".
    vec = HashingEmbedder(dim=256).embed_sync(["Memory layers for agents"])[0]
    expected = np.zeros(256, dtype=np.float32)
    expected[[50, 69, 239, 243]] = [0.5, -0.5, -0.5, -0.5]
    assert np.array_equal(vec, expected)


async def test_hashing_embedder_ranks_shared_words_higher() -> None:
    query, near, far = await HashingEmbedder().embed(
        ["allergic to shellfish", "she is allergic to shellfish and peanuts", "my car is red"]
    )
    assert float(query @ near) > 0.5
    assert float(query @ near) > float(query @ far)


def test_hashing_embedder_rejects_bad_dim() -> None:
    with pytest.raises(UsageError):
        HashingEmbedder(dim=0)


def test_l2_normalize_keeps_zero_rows() -> None:
    out = l2_normalize([[3.0, 4.0], [0.0, 0.0]])
    assert out.dtype == np.float32
    assert np.allclose(out, [[0.6, 0.8], [0.0, 0.0]])


# --- CachedEmbedder ----------------------------------------------------------------


async def test_cached_embedder_second_call_served_from_lru() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    first = await cached.embed(["alpha beta", "gamma"])
    second = await cached.embed(["gamma", "alpha beta"])
    assert inner.embedded == ["alpha beta", "gamma"]
    assert np.array_equal(second, first[::-1])
    assert (cached.hits, cached.misses) == (2, 2)


async def test_cached_embedder_matches_inner_vectors() -> None:
    texts = ["one two", "three", "one two", "four five six"]
    cached = CachedEmbedder(HashingEmbedder(dim=32))
    expected = await HashingEmbedder(dim=32).embed(texts)
    assert np.array_equal(await cached.embed(texts), expected)
    assert np.array_equal(await cached.embed(texts), expected)


async def test_cached_embedder_embeds_duplicates_once() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    out = await cached.embed(["same", "other", "same", "same"])
    assert inner.batches == [["same", "other"]]
    assert out.shape == (4, 32)
    assert np.array_equal(out[0], out[2])
    assert np.array_equal(out[0], out[3])
    assert cached.misses == 2


async def test_cached_embedder_backend_hit_avoids_inner() -> None:
    backend = DictBackend()
    writer = CachedEmbedder(HashingEmbedder(dim=32), backend)
    stored = await writer.embed(["remember me"])
    assert len(backend.puts) == 1
    assert list(backend.puts[0]) == [text_hash("remember me")]

    inner = CountingEmbedder()
    reader = CachedEmbedder(inner, backend)  # fresh LRU, same persistent backend
    got = await reader.embed(["remember me"])
    assert inner.batches == []
    assert np.array_equal(got, stored)
    assert (reader.hits, reader.misses) == (1, 0)


async def test_cached_embedder_one_backend_get_and_put_per_batch() -> None:
    backend = DictBackend()
    await CachedEmbedder(HashingEmbedder(dim=32), backend).embed(["a", "b"])
    backend.gets.clear()
    backend.puts.clear()

    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, backend)
    await cached.embed(["a", "c", "b", "d", "c"])
    assert len(backend.gets) == 1
    assert sorted(backend.gets[0]) == sorted(text_hash(t) for t in "abcd")
    assert inner.batches == [["c", "d"]]
    assert len(backend.puts) == 1
    assert set(backend.puts[0]) == {text_hash("c"), text_hash("d")}

    # Everything is now in the LRU: no backend traffic at all.
    await cached.embed(["d", "a"])
    assert len(backend.gets) == 1
    assert len(backend.puts) == 1


async def test_cached_embedder_queries_stay_out_of_the_persistent_cache() -> None:
    backend = DictBackend()
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, backend)
    await cached.embed(["where did I park?"], "query")
    await cached.embed(["where did I park?"], "query")
    assert backend.gets == []
    assert backend.puts == []
    assert inner.batches == [["where did I park?"]]  # the LRU still serves the repeat


async def test_cached_embedder_keeps_a_texts_query_and_document_vectors_apart() -> None:
    # an asymmetric model (bge's query instruction) embeds the same text differently as a
    # query: a document vector must never answer a query, nor the other way round
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    await cached.embed(["where did I park?"], "document")
    await cached.embed(["where did I park?"], "query")
    await cached.embed(["where did I park?"], "query")
    await cached.embed(["where did I park?"], "document")
    assert inner.batches == [["where did I park?"], ["where did I park?"]]


async def test_cached_embedder_lru_is_bounded() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, lru_size=2)
    await cached.embed(["a"])
    await cached.embed(["b"])
    await cached.embed(["a"])  # refreshes "a"; "b" is now the oldest
    await cached.embed(["c"])  # evicts "b"
    assert len(cached) == 2
    await cached.embed(["a", "c"])
    assert inner.embedded == ["a", "b", "c"]
    await cached.embed(["b"])
    assert inner.embedded == ["a", "b", "c", "b"]


async def test_cached_embedder_keys_by_model() -> None:
    backend = DictBackend()
    await CachedEmbedder(HashingEmbedder(dim=32), backend).embed(["shared text"])
    other = CountingEmbedder(HashingEmbedder(dim=16))
    out = await CachedEmbedder(other, backend).embed(["shared text"])
    assert other.embedded == ["shared text"]
    assert out.shape == (1, 16)


async def test_cached_embedder_results_are_not_aliased_to_the_cache() -> None:
    cached = CachedEmbedder(HashingEmbedder(dim=32))
    first = await cached.embed(["mutable"])
    first[:] = 0.0
    assert (await cached.embed(["mutable"])).any()


async def test_cached_embedder_delegates_and_handles_empty() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    assert cached.model_id == "hashing:32"
    assert await cached.dimension() == 32
    assert (await cached.embed([])).shape == (0, 32)
    assert inner.batches == []
    await cached.aclose()
    assert inner.closed
    assert isinstance(cached, Embedder)


async def test_cached_embedder_inconsistent_backend_dimension() -> None:
    backend = DictBackend()
    backend.data[("hashing:32", text_hash("old"))] = np.ones(8, dtype=np.float32)
    cached = CachedEmbedder(HashingEmbedder(dim=32), backend)
    with pytest.raises(SchemaMismatch):
        await cached.embed(["old", "new"])


async def test_cached_embedder_rejects_a_bare_string() -> None:
    with pytest.raises(TypeError):
        await CachedEmbedder(HashingEmbedder()).embed("not a list")


# --- build_embedder ----------------------------------------------------------------


def test_build_embedder_hashing() -> None:
    assert build_embedder("hashing").model_id == "hashing:256"
    assert build_embedder("hashing:48").model_id == "hashing:48"
    assert build_embedder("hashing:48:v2").model_id == "hashing:48:v2"


def test_a_salted_hashing_embedder_is_another_model_of_the_same_dimension() -> None:
    words = "the spare key is under the blue flowerpot"
    plain, salted = HashingEmbedder(dim=64), HashingEmbedder(dim=64, salt="v2")
    assert salted.model_id != plain.model_id
    assert float(plain.embed_sync([words])[0] @ salted.embed_sync([words])[0]) < 0.5
    again = HashingEmbedder(dim=64, salt="v2").embed_sync([words])
    assert np.array_equal(salted.embed_sync([words]), again)


def test_only_one_model_file_computed_two_ways_may_share_an_index() -> None:
    minilm, minilm_float = build_embedder("onnx:minilm"), build_embedder("onnx:minilm-float")
    assert same_weights(minilm.model_id, minilm_float.model_id)
    assert not same_weights(minilm.model_id, build_embedder("onnx:bge-small").model_id)
    assert not same_weights("hashing:64", "hashing:64:v2")


@pytest.mark.parametrize("spec", ["hashing:0", "hashing:-3", "hashing:big"])
def test_build_embedder_bad_hashing_dim(spec: str) -> None:
    with pytest.raises(UsageError, match="positive integer"):
        build_embedder(spec)


def test_build_embedder_onnx_is_lazy() -> None:
    emb = build_embedder("onnx:minilm", batch_size=8)
    assert isinstance(emb, OnnxMiniLMEmbedder)
    assert emb.model_id == "onnx:all-MiniLM-L6-v2-int8-dynamic"
    assert emb.batch_size == 8


def test_the_former_default_keeps_its_name_and_a_spec() -> None:
    # databases built before MiniLM's products ran as int8 record this name; a user
    # told to set the database's model gets a spec that builds exactly it
    assert spec_of("onnx:all-MiniLM-L6-v2-int8") == "onnx:minilm-float"
    emb = build_embedder("onnx:minilm-float")
    assert isinstance(emb, OnnxEmbedder)
    assert not isinstance(emb, OnnxMiniLMEmbedder)
    assert emb.model_id == "onnx:all-MiniLM-L6-v2-int8"


def test_build_embedder_onnx_bge_small_is_lazy() -> None:
    emb = build_embedder("onnx:bge-small", batch_size=8)
    assert isinstance(emb, OnnxEmbedder)
    assert emb.model_id == "onnx:bge-small-en-v1.5-int8"
    assert emb.batch_size == 8


@pytest.mark.parametrize(
    "spec",
    [
        "onnx:minilm",
        "onnx:minilm-float",
        "onnx:bge-small",
        "hashing:64",
        "hashing:64:v2",
        "openai:m",
    ],
)
def test_spec_of_a_model_id_builds_that_model(spec: str) -> None:
    built = build_embedder(spec, base_url="http://127.0.0.1:1/v1")
    again = build_embedder(spec_of(built.model_id), base_url="http://127.0.0.1:1/v1")
    assert again.model_id == built.model_id


def test_build_embedder_openai() -> None:
    emb = build_embedder(
        "openai:nomic-embed-text:latest",
        base_url="http://127.0.0.1:11434/v1/",
        api_key="k",
        timeout_s=5.0,
        max_retries=4,
        batch_size=16,
    )
    assert isinstance(emb, OpenAICompatibleEmbedder)
    assert emb.model_id == "openai:nomic-embed-text:latest"
    assert emb.base_url == "http://127.0.0.1:11434/v1"
    assert (emb.timeout_s, emb.max_retries, emb.batch_size) == (5.0, 4, 16)


def test_build_embedder_openai_needs_base_url() -> None:
    with pytest.raises(UsageError, match="COGNIMEM_EMBEDDING__BASE_URL"):
        build_embedder("openai:text-embedding-3-small")


def test_build_embedder_openai_rejects_non_http_url() -> None:
    with pytest.raises(UsageError, match="http"):
        build_embedder("openai:m", base_url="127.0.0.1:11434/v1")


@pytest.mark.parametrize("spec", ["", "bert", "onnx:bge", "openai", "openai:", "sentence:x"])
def test_build_embedder_unknown_spec_lists_valid_forms(spec: str) -> None:
    with pytest.raises(UsageError) as info:
        build_embedder(spec)
    for form in ("onnx:minilm", "onnx:bge-small", "hashing:<dim>", "openai:<model-name>"):
        assert form in info.value.message


def test_public_names_are_exported() -> None:
    assert set(providers.__all__) >= {
        "CachedEmbedder",
        "Embedder",
        "EmbeddingCacheBackend",
        "EmbedKind",
        "FakeEmbeddingServer",
        "HashingEmbedder",
        "CrossEncoder",
        "OnnxCrossEncoder",
        "OnnxEmbedder",
        "OnnxMiniLMEmbedder",
        "OpenAICompatibleEmbedder",
        "build_embedder",
        "count_tokens",
        "truncate_to_tokens",
    }
    for name in providers.__all__:
        assert getattr(providers, name) is not None
