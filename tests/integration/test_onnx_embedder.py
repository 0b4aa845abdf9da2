from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from cognimem.errors import UsageError
from cognimem.providers import CachedEmbedder, OnnxMiniLMEmbedder, onnx_models
from cognimem.providers.embed_batcher import QueryBatcher
from cognimem.providers.onnx import MAX_TOKENS, OnnxEmbedder, build_tokenizer, default_model_path
from cognimem.providers.onnx_int8 import u8s8_exact
from cognimem.providers.onnx_models import MINILM_FLOAT
from tests.doubles import CountingEmbedder

pytestmark = pytest.mark.onnx


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder(batch_size=4)


async def test_shape_dtype_and_unit_rows(embedder: OnnxMiniLMEmbedder) -> None:
    vecs = await embedder.embed(["hello there", "", "a much longer sentence " * 10])
    assert vecs.shape == (3, 384)
    assert vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert await embedder.dimension() == 384
    assert embedder.model_id == "onnx:all-MiniLM-L6-v2-int8-dynamic"
    assert (await embedder.embed([])).shape == (0, 384)


async def test_semantic_ordering(embedder: OnnxMiniLMEmbedder) -> None:
    allergy, food, car = await embedder.embed(
        ["I am allergic to shellfish", "food allergy seafood", "my car is red"]
    )
    assert float(allergy @ food) > float(allergy @ car) + 0.2


async def test_same_text_gives_identical_vectors(embedder: OnnxMiniLMEmbedder) -> None:
    text = "Claire went to the LGBTQ support group yesterday."
    once = await embedder.embed([text])
    twice = await embedder.embed([text, text])
    assert np.array_equal(twice[0], twice[1])
    assert np.allclose(once[0], twice[0], atol=1e-6)


async def test_batch_equals_one_at_a_time(embedder: OnnxMiniLMEmbedder) -> None:
    # Mixed lengths across several internal batches (batch_size=4): sorting by length and
    # padding must not change any row or its position.
    texts = [
        "short",
        "a considerably longer sentence about hiking in the mountains last summer",
        "mid length text here",
        "",
        "Priya painted a sunrise over the lake in 2022.",
        "ok",
        "The quick brown fox jumps over the lazy dog, again and again and again.",
        "emoji 😀 and Ünïcödé",
        "what did she say?",
    ]
    batched = await embedder.embed(texts)
    singles = np.vstack([await embedder.embed([t]) for t in texts])
    assert np.allclose(batched, singles, atol=1e-5)


async def test_int8_products_stay_close_to_the_float_products(
    embedder: OnnxMiniLMEmbedder,
) -> None:
    # the default runs MiniLM's products as int8; the former default (the same file,
    # float products) gives vectors a cosine of at least ~0.98 away, never the same
    texts = [
        "where did Claire go last weekend?",
        "Priya: I took the kids camping at the lake, they loved roasting marshmallows.",
        "I am allergic to shellfish",
        "emoji 😀 and Ünïcödé",
    ]
    floats = OnnxEmbedder(MINILM_FLOAT, threads=1)
    ints, reference = await embedder.embed(texts), await floats.embed(texts)
    cosines = (ints * reference).sum(axis=1)
    assert cosines.min() > 0.98
    assert cosines.max() < 0.99999
    await floats.aclose()


async def test_unsigned_weights_give_the_vectors_of_signed_ones(
    embedder: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a CPU without VNNI gets MiniLM's weights stored unsigned: the same integer
    # products, so the same vectors as on a CPU whose signed products are exact
    texts = ["where did Claire go last weekend?", "I am allergic to shellfish", "ok"]
    reference = await embedder.embed(texts)
    monkeypatch.setattr(onnx_models, "u8s8_exact", lambda: False)
    asked: list[bool] = []
    rewrite = onnx_models.int8_matmuls

    def noted(data: bytes, *, signed_weights: bool) -> tuple[bytes, int]:
        asked.append(signed_weights)
        return rewrite(data, signed_weights=signed_weights)

    monkeypatch.setattr(onnx_models, "int8_matmuls", noted)
    unsigned = OnnxMiniLMEmbedder(threads=1)
    vectors = await unsigned.embed(texts)
    await unsigned.aclose()
    assert asked == [False]
    if u8s8_exact():
        assert np.allclose(vectors, reference, atol=1e-6)
    else:  # here the reference is unsigned too
        assert np.array_equal(vectors, reference)


async def test_a_file_without_int8_weight_products_is_refused(tmp_path: Path) -> None:
    # a copy given by path without its checksum must still be a model the rewrite applies
    # to, or the vectors would silently be another computation's under MiniLM's name
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Identity", ["input_ids"], ["last_hidden_state"])],
        "g",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, None)],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.INT64, None)],
    )
    path = tmp_path / "other.onnx"
    path.write_bytes(helper.make_model(graph).SerializeToString())
    with pytest.raises(UsageError, match="no products by int8 weights"):
        await OnnxMiniLMEmbedder(path, expected_sha256=None).embed(["x"])


async def test_long_text_is_truncated_not_rejected(embedder: OnnxMiniLMEmbedder) -> None:
    long_text = "memory " * 2000
    assert len(build_tokenizer().encode(long_text).ids) == MAX_TOKENS
    vecs = await embedder.embed([long_text, long_text + " tail"])
    assert np.allclose(vecs[0], vecs[1], atol=1e-6)  # the tail is past the limit


async def test_works_behind_the_cache(embedder: OnnxMiniLMEmbedder) -> None:
    cached = CachedEmbedder(embedder)
    first = await cached.embed(["cached sentence"])
    assert np.array_equal(await cached.embed(["cached sentence"]), first)
    assert cached.hits == 1


async def test_checksum_mismatch_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(UsageError, match="reinstall"):
        await OnnxMiniLMEmbedder(bad).embed(["x"])


async def test_missing_model_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="reinstall"):
        await OnnxMiniLMEmbedder(tmp_path / "absent.onnx").embed(["x"])


async def test_explicit_path_without_checksum(tmp_path: Path) -> None:
    copy = tmp_path / "copy.onnx"
    copy.write_bytes(default_model_path().read_bytes())
    emb = OnnxMiniLMEmbedder(copy, expected_sha256=None, threads=1)
    vec = await emb.embed(["explicit path"])
    assert vec.shape == (1, 384)
    await emb.aclose()


async def test_turns_and_short_facts_in_one_call_equal_one_at_a_time() -> None:
    # what one ingest batch embeds: long turns and the short fact texts read from them,
    # run in batches of similar length (default batch size) instead of one padded batch
    embedder = OnnxMiniLMEmbedder()
    turns = [
        "Claire: I joined a choir rehearsal yesterday and it was such a lift, honestly "
        "the way the older singers helped the new ones has stayed with me all week.",
        "Priya: Sounds wonderful! We took the dog hiking by the river last weekend.",
        "Claire: I'm thinking about studying counseling, maybe a master's next fall.",
    ] * 5
    facts = ["Claire attended choir rehearsal", "Priya likes hiking", "Claire: counseling"]
    texts = [*turns, *facts]
    together = await embedder.embed(texts)
    singles = np.vstack([await embedder.embed([t]) for t in texts])
    assert np.allclose(together, singles, atol=1e-5)
    await embedder.aclose()


async def test_batches_on_two_threads_give_the_vectors_of_one_thread() -> None:
    # a session's turns run as several batches at once, each on its own thread; the
    # rows must not depend on which thread, or which batch beside them, ran them
    texts = [
        f"speaker {i % 3}: " + "we talked about the trip to the lake " * (1 + i % 7)
        for i in range(40)
    ]
    one, two = OnnxMiniLMEmbedder(threads=1), OnnxMiniLMEmbedder(threads=2)
    assert two.threads == 2
    alone, spread_out = await one.embed(texts), await two.embed(texts)
    assert np.allclose(alone, spread_out, atol=1e-6)
    await one.aclose()
    await two.aclose()


async def test_concurrent_queries_batched_get_the_vectors_they_get_alone() -> None:
    queries = [
        "where did I go on holiday last summer?",
        "what is my dog called?",
        "when did Priya start painting?",
        "who did I meet at the conference in Berlin?",
        "what do I do for work",
        "how old is my sister?",
        "which books did I read this year and which one did I like best?",
        "favourite food?",
    ]
    model = OnnxMiniLMEmbedder()
    alone = [(await model.embed([q], "query"))[0] for q in queries]
    counted = CountingEmbedder(model)
    batcher = QueryBatcher(counted)
    together = await asyncio.gather(*(batcher.embed([q], "query") for q in queries))
    assert len(counted.batches) < len(queries)  # the ones that waited went together
    assert sorted(counted.embedded) == sorted(queries)
    for one, rows in zip(alone, together, strict=True):
        assert rows.shape == (1, 384)
        assert np.allclose(rows[0], one, atol=1e-5)
