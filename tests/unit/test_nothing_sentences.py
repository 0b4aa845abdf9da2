"""Sentences that state no fact (issue 32 item 5): what someone else says or believes,
hearsay, suppositions, wondering aloud, a belief taken back, and a figurative
"allergy". The sentences are new, not from the knowledge set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput


def facts(*turns: str) -> list[str]:
    """What the last turn states, the earlier turns as its conversation window."""
    message = ExtractionInput(
        text=turns[-1], occurred_at=datetime(2024, 3, 1, tzinfo=UTC), context=turns[:-1]
    )
    return [f"{f.subject}:{f.category.value}/{f.predicate}={f.value}"
            for f in RuleExtractor().extract_one(message).facts]  # fmt: skip


@pytest.mark.parametrize(
    "sentence",
    [
        "Rumor has it my neighbour Tom is a spy.",
        "According to my wife, I'm addicted to coffee.",
        "I heard that my cousin Dana moved to Quito.",
        "My husband swears I snore every night.",
        "People say I'm a great cook.",
        "My mother-in-law believes I'm allergic to cats.",
        "Everyone assumes I'm vegetarian.",
        "My sister keeps telling me I'm a workaholic.",
    ],
)
def test_what_others_say_or_believe_is_not_a_fact(sentence: str) -> None:
    assert facts(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Let's say I live in Boston.",
        "Pretend I'm a vegetarian for this recipe.",
        "Assuming I move to Lyon next spring, what should I pack?",
        "Wonder if I should get a cat.",
        "I'm wondering whether to become a nurse.",
        "In another life I'd be a chef in Naples.",
        "I used to think I was allergic to cats but I'm not.",
    ],
)
def test_suppositions_and_wondering_are_not_facts(sentence: str) -> None:
    assert facts(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Let's pretend I work at Ford.",
        "Okay, just imagine I'm a surgeon.",
        "Humour me and suppose I live in Perth.",
        "Now picture that I'm 80.",
        "In an alternate timeline I'm a pilot.",
        "In a different world I live in Reykjavik.",
    ],
)
def test_a_supposition_after_a_lead_in_is_not_a_fact(sentence: str) -> None:
    assert facts(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I live in Leeds and assume the trains are fine.", "user:location/city=Leeds"),
        ("I moved to Lyon and let's just say I love it.", "user:location/city=Lyon"),
    ],
)
def test_a_supposition_not_on_the_speaker_leaves_the_fact(sentence: str, fact: str) -> None:
    assert fact in facts(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["I'm allergic to Mondays.", "I'm seriously allergic to exercise.", "I'm allergic to work."],
)
def test_an_allergy_to_a_day_or_a_chore_is_a_joke(sentence: str) -> None:
    assert facts(sentence) == []


def test_real_allergies_and_a_doctor_s_word_still_count() -> None:
    assert facts("I'm allergic to cats and penicillin.") == [
        "user:policy/allergy=cats",
        "user:policy/allergy=penicillin",
    ]
    assert facts("I'm allergic to pollen.") == ["user:policy/allergy=pollen"]
    assert facts("My doctor says I have asthma.") != []
