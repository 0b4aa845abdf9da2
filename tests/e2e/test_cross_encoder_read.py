"""The optional cross-encoder stage of a read (``RecallConfig.cross_encoder``), with the
real local cross-encoder, through ``Memory`` on both backends."""

from __future__ import annotations

import pytest

from cognimem import Memory, Settings
from cognimem.models.items import index_text
from cognimem.providers import CrossEncoder, HashingEmbedder, OnnxCrossEncoder
from cognimem.providers.cross_encoder import build_cross_encoder
from cognimem.recall.conversation import cross
from cognimem.recall.presets import PRESETS, RecallConfig

pytestmark = pytest.mark.onnx

QUERY = "What did Vivian paint?"
TEXTS = [
    "Vivian asked what paint the store had and what it did cost.",
    "Vivian painted a sunrise over the lake last summer.",
    "Vivian said the paint store did close early on Tuesday.",
    "Rosa went hiking with her dog.",
]


@pytest.fixture
def with_cross_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, weight, cap in (("cross", 1.0, 128), ("cross-off", 0.0, 128), ("cross-cut", 1.0, 10)):
        config = PRESETS["balanced"].model_copy(
            update={
                "name": name,
                "cross_encoder": "ms-marco-l12",
                "cross_encoder_weight": weight,
                "cross_encoder_max_tokens": cap,
                # the first read loads the model: a busy machine must not time it out
                "step_timeout_s": 60.0,
                "budget_s": 120.0,
            }
        )
        monkeypatch.setitem(PRESETS, name, config)


@pytest.mark.usefixtures("with_cross_encoder")
async def test_the_cross_encoder_orders_the_best_candidates(memory: Memory) -> None:
    for text in TEXTS:
        await memory.write(text, user_id="u")
    plain = await memory.read(QUERY, user_id="u")
    crossed = await memory.read(QUERY, user_id="u", preset="cross")
    unchanged = await memory.read(QUERY, user_id="u", preset="cross-off")

    texts = [i.text for i in crossed.items]
    scores = await OnnxCrossEncoder().score(QUERY, texts)
    assert texts == [t for _, t in sorted(zip(scores, texts, strict=True), reverse=True)]
    assert texts[0] == TEXTS[1]
    assert plain.items[0].text != TEXTS[1]  # the stage changed the order
    assert [i.text for i in unchanged.items] == [i.text for i in plain.items]
    step = next(s for s in crossed.steps if s.name == "cross_encoder")
    assert step.results >= len(texts)
    assert step.error is None
    assert not step.timed_out
    assert not any(s.name == "cross_encoder" for s in plain.steps)


@pytest.mark.usefixtures("with_cross_encoder")
async def test_the_read_cuts_each_pair_to_the_presets_cap(memory: Memory) -> None:
    for text in TEXTS:
        await memory.write(text, user_id="u")
    encoder = OnnxCrossEncoder()
    probabilities: dict[int, dict[str, float]] = {}
    for preset, cap in (("cross-cut", 10), ("cross", 128)):
        packet = await memory.read(QUERY, user_id="u", preset=preset, explain=True)
        assert packet.explain is not None
        why = {e.id: e.signals for e in packet.explain}
        passages = [index_text(i.author, i.text) for i in packet.items]
        expected = await encoder.score(QUERY, passages, max_tokens=cap)
        assert [why[i.id]["cross_encoder"] for i in packet.items] == [
            round(float(p), 4) for p in expected
        ]
        probabilities[cap] = {i.text: why[i.id]["cross_encoder"] for i in packet.items}
    await encoder.aclose()
    # ten word pieces leave the query and a word or two of each memory: other scores
    shared = probabilities[10].keys() & probabilities[128].keys()
    assert len(shared) >= 2
    assert all(probabilities[10][t] != probabilities[128][t] for t in shared)


def test_the_cap_is_a_word_piece_count_the_model_can_take() -> None:
    assert PRESETS["reranked"].cross_encoder_max_tokens == 128
    for bad in (7, 513):
        with pytest.raises(ValueError, match="cross_encoder_max_tokens"):
            RecallConfig(name="x", cross_encoder_max_tokens=bad)


async def test_the_reranked_preset_runs_the_cross_encoder(
    memory_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[OnnxCrossEncoder] = []

    def build(name: str) -> CrossEncoder:
        encoder = build_cross_encoder(name)
        assert isinstance(encoder, OnnxCrossEncoder)
        built.append(encoder)
        return encoder

    monkeypatch.setattr(cross, "build_cross_encoder", build)
    # the first read loads the model: a busy machine must not time the stage out
    settings = Settings(recall={"step_timeout_s": 60, "budget_s": 120})
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        for name, text in (("Vivian", "I painted a sunrise."), ("Rosa", "I painted a fence.")):
            await mem.write({"role": "user", "name": name, "content": text}, user_id="u")
        packet = await mem.read(
            "What did Vivian paint?", user_id="u", preset="reranked", explain=True
        )
        assert [e.loaded for e in built] == [True]
    # closing the Memory releases the model its reader loaded
    assert [e.loaded for e in built] == [False]
    step = next(s for s in packet.steps if s.name == "cross_encoder")
    assert step.results == 2
    assert step.error is None
    assert packet.preset == "reranked"
    assert packet.items[0].text == "I painted a sunrise."
    assert packet.recall_config is not None
    assert packet.recall_config["cross_encoder_max_tokens"] == 128


async def test_the_operator_sets_the_cross_encoders_cap(memory_url: str) -> None:
    settings = Settings(
        recall={"step_timeout_s": 60, "budget_s": 120, "cross_encoder_max_tokens": 10}
    )
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        await mem.write(TEXTS[1], user_id="u")
        packet = await mem.read(QUERY, user_id="u", preset="reranked", explain=True)
        plain = await mem.read(QUERY, user_id="u", preset="balanced", explain=True)
    assert packet.recall_config is not None
    assert plain.recall_config is not None
    assert packet.recall_config["cross_encoder_max_tokens"] == 10
    assert plain.recall_config["cross_encoder"] is None  # the cap runs nothing by itself
    assert packet.explain is not None
    (why,) = [e for e in packet.explain if e.id == packet.items[0].id]
    encoder = OnnxCrossEncoder()
    (cut,) = await encoder.score(QUERY, [TEXTS[1]], max_tokens=10)
    (whole,) = await encoder.score(QUERY, [TEXTS[1]])
    await encoder.aclose()
    assert why.signals["cross_encoder"] == round(float(cut), 4) != round(float(whole), 4)
    with pytest.raises(ValueError, match="cross_encoder_max_tokens"):
        Settings(recall={"cross_encoder_max_tokens": 4})


def test_an_unknown_cross_encoder_is_rejected() -> None:
    with pytest.raises(ValueError, match="ms-marco-l12"):
        RecallConfig(name="x", cross_encoder="bge-reranker")  # type: ignore[arg-type]
