"""A condition of the speaker's body said by what it does or how long it lasts
(``detect_health``): persistence, "still" with a verb of being ill, a body part with a
symptom word, "I have a toothache". Sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.models.knowledge import FactCategory

EXTRACTOR = RuleExtractor()
WHEN = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def health(text: str) -> list[str]:
    facts = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [
        f.value
        for f in facts
        if f.category is FactCategory.STATE and f.predicate == "health" and f.subject == "user"
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("This cough just won't go away.", "cough"),
        ("My headache won't quit.", "headache"),
        ("Still battling this flu.", "flu"),
        ("I still can't shake this cold.", "cold"),
        ("I keep getting headaches.", "headaches"),
        ("My migraines are back.", "migraines"),
        ("My back has been bad for weeks.", "back has been bad"),
        ("My eyes are really itchy today.", "eyes are itchy"),
        ("The swelling in my knee hasn't gone down.", "swelling in my knee"),
        ("The pain in my lower back is getting worse.", "pain in my lower back"),
        ("I have a toothache.", "toothache"),
        ("I've got a sore back.", "sore back"),
        ("I've been coughing all night.", "coughing"),
        ("I'm so dizzy today.", "dizzy"),
        ("Still congested.", "congested"),
        ("I'm not feeling well.", "not feeling well"),
        ("Knee still hurts.", "knee hurts"),
        ("Still have this cough.", "cough"),
        ("This back pain is getting old.", "back pain"),
        ("The rash is spreading.", "rash"),
        ("My throat still feels raw.", "throat still feels raw"),
    ],
)
def test_a_condition_said_by_how_it_lasts_is_a_health_state(text: str, value: str) -> None:
    assert health(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "This traffic just won't go away.",
        "My cold is finally gone.",
        "My headache went away.",
        "My back feels much better now.",
        "My mom's back has been bad for weeks.",
        "Still waiting for the package.",
        "I can't shake the feeling that I forgot something.",
        "My eyes are blue.",
        "I have a bug in my code.",
        "I feel terrible about what I said.",
        "I don't have a fever.",
        "Back home, it's raining.",
        "Head's up, the meeting moved.",
    ],
)
def test_no_condition_of_the_speaker_no_health_state(text: str) -> None:
    assert health(text) == []


def test_a_condition_named_is_a_state_not_a_refusal() -> None:
    facts = EXTRACTOR.extract_one(
        ExtractionInput(text="I can't shake this cough.", occurred_at=WHEN)
    ).facts
    assert [(f.category, f.value, f.polarity) for f in facts] == [
        (FactCategory.STATE, "cough", True)
    ]


def test_a_symptom_under_a_condition_is_left_to_the_cause_reader() -> None:
    # "I can't sleep if I eat late" says what causes what, not a state that holds now
    assert health("I can't sleep if I eat late.") == []


def test_a_feeling_said_with_its_reason_is_read_as_the_feeling() -> None:
    # the narrow reading wins over the stances' whole sentence, as for every constraint
    assert health("I'm exhausted these days, the new shifts are brutal.") == ["exhausted"]


def test_a_tight_muscle_is_a_state_of_health_and_a_tight_budget_is_not() -> None:
    assert health("My calves are tight.") == ["calves are tight"]
    assert health("My chest feels tight.") == ["chest feels tight"]
    assert health("My budget is tight.") == []
