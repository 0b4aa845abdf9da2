"""The learned stance reader tried for issue 29 (benchmarks/stance_reader.py, not wired
into the write funnel): its committed weights load, its inputs are the same on every
run, a plain stance scores above its threshold and a question or small talk below, and
what it reads is a policy fact with the sentence as its value, kept only through the
rules' gates for a whole-sentence stance."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from cognimem.errors import UsageError
from cognimem.models.extraction import Extraction
from cognimem.models.knowledge import FactCategory
from cognimem.providers.onnx import OnnxMiniLMEmbedder

sys.path.insert(0, str(Path(__file__).parent.parent.parent / "benchmarks"))
from stance_reader import WIDTH, StanceReader, features, stated

SAID = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
STANCE = "Horror films are not my cup of tea at all."
NOT_STANCES = ("What time does the pharmacy close?", "Hi there, how's your day going?")


@pytest.fixture(scope="module")
def vectors() -> dict[str, np.ndarray]:
    texts = [STANCE, *NOT_STANCES]
    matrix = asyncio.run(OnnxMiniLMEmbedder().embed(texts, "document"))
    return dict(zip(texts, matrix, strict=True))


def test_the_committed_weights_load() -> None:
    reader = StanceReader.load()
    assert reader.stance.shape == reader.polarity.shape == (WIDTH + 1,)
    assert 0.5 <= reader.threshold < 1.0


def test_a_malformed_weights_file_is_a_typed_error(tmp_path: Path) -> None:
    bad = tmp_path / "weights.npz"
    np.savez(bad, stance=np.zeros(3), polarity=np.zeros(3), threshold=np.float32(0.8))
    with pytest.raises(UsageError):
        StanceReader.load(bad)
    with pytest.raises(UsageError):
        StanceReader.load(tmp_path / "missing.npz")


def test_inputs_are_the_same_on_every_run() -> None:
    vector = np.linspace(-1, 1, 384, dtype=np.float32)
    a, b = features(vector, "I never eat late"), features(vector.copy(), "I never eat late")
    assert np.array_equal(a, b)
    assert a.shape == (WIDTH,)
    assert np.isclose(np.linalg.norm(a[:384]), 1.0)
    assert not np.array_equal(a, features(vector, "I always eat late"))


def test_a_stance_scores_above_and_a_question_or_small_talk_below(
    vectors: dict[str, np.ndarray],
) -> None:
    reader = StanceReader.load()
    stance, for_it = reader.scores(vectors[STANCE], STANCE)
    assert stance >= reader.threshold
    assert for_it < 0.5  # against
    for text in NOT_STANCES:
        assert reader.scores(vectors[text], text)[0] < reader.threshold


def test_what_it_reads_is_a_policy_with_the_sentence_as_value(
    vectors: dict[str, np.ndarray],
) -> None:
    reader = StanceReader.load()
    read = reader.read(Extraction(), STANCE, vectors[STANCE], SAID)
    [fact] = read.facts
    assert fact.category is FactCategory.POLICY
    assert fact.value == STANCE.rstrip(".")
    assert fact.polarity is False
    assert 0 < fact.confidence <= 0.7
    # a sentence that states nothing (a question) is never read, whatever its score
    assert stated(NOT_STANCES[0], SAID) is None
    question = reader.read(Extraction(), NOT_STANCES[0], vectors[STANCE], SAID)
    assert question.facts == []


def test_the_first_person_gate_reads_only_a_sentence_with_a_first_person_word(
    vectors: dict[str, np.ndarray],
) -> None:
    reader = dataclasses.replace(StanceReader.load(), threshold=0.0, first_person=True)
    mine = reader.read(Extraction(), STANCE, vectors[STANCE], SAID)
    assert [f.category for f in mine.facts] == [FactCategory.POLICY]
    # the same vector, a sentence with no first-person word: the gate stops it
    theirs = "Horror films are not to everyone's taste."
    assert reader.read(Extraction(), theirs, vectors[STANCE], SAID).facts == []
    assert (
        dataclasses.replace(reader, first_person=False)
        .read(Extraction(), theirs, vectors[STANCE], SAID)
        .facts
    )


@pytest.mark.parametrize(
    "text",
    [
        "My parents refuse to fly.",  # someone else's stance (``THEIR_STANCE``)
        "I refuse to discuss that.",  # the present instance (``in_the_moment``)
        "I won't go out tonight.",  # the present occasion (``in_the_moment``)
    ],
)
def test_the_rules_gates_drop_what_they_drop_for_the_rules(
    vectors: dict[str, np.ndarray], text: str
) -> None:
    # the same vector as a standing stance and no threshold: only the gates decide
    reader = dataclasses.replace(StanceReader.load(), threshold=0.0)
    assert reader.read(Extraction(), text, vectors[STANCE], SAID).facts == []
    ungated = dataclasses.replace(reader, rule_gates=False)
    assert ungated.read(Extraction(), text, vectors[STANCE], SAID).facts
    kept = reader.read(Extraction(), "I refuse to fly budget airlines.", vectors[STANCE], SAID)
    assert [f.value for f in kept.facts] == ["I refuse to fly budget airlines"]
