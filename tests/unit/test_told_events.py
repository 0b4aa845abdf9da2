"""A past event told as a cause or a state gives no standing constraint (issue 29: no
false constraint), while a stance begun then and an event that may have left a lasting
state stay. The sentences are new, not from any set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.told_events import tells_one_event
from tests.unit.test_passing_stances import standing as constraints


@pytest.mark.parametrize(
    "text",
    [
        "I spilled my coffee this morning because the lid was loose.",
        "The storm flattened my fence last night.",
        "That ladder scratched my car.",
        "We missed the ferry because the taxi was late.",
        "The prawns gave me a stomach ache yesterday.",
    ],
)
def test_a_past_event_told_as_a_cause_is_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I gave up coffee last month because it made me jittery.", "gave up coffee"),
        ("I stopped eating pork last year because it made me ill.", "eating pork"),
        ("Cheese gave me a rash.", "Cheese gave me a rash"),  # a kind, not one thing
        ("The crash last year left me with a stiff neck.", "stiff neck"),  # it may last
        # what a thing does to a process or a plural, undated; a sentence that goes on
        ("The new pillow finally stopped my snoring.", "stopped my snoring"),
        ("The puppy was sick on the last ferry, so now we drive.", "now we drive"),
    ],
)
def test_a_stance_begun_then_or_a_lasting_effect_stays(text: str, value: str) -> None:
    assert any(value in v for v in constraints(text)), constraints(text)


def test_an_undated_event_of_the_speaker_needs_a_reason_in_the_past() -> None:
    ref = datetime(2024, 6, 15, 12, tzinfo=UTC)
    assert tells_one_event("We sold the boat because it was leaking", (), ref)
    assert not tells_one_event("We sold the boat", (), ref)
    assert not tells_one_event("I always walked to school because it was close", (), ref)
