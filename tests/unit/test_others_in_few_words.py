"""What chat says of other people in few words (issue 32): singular "they" for someone
who said they use it, a pet named "it", a job said as where someone is, and a child's
age in words. The conversations are new, not from any probe set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(*turns: str) -> list[tuple[str, str, str, str]]:
    """What the last turn states, the earlier turns as its conversation window."""
    message = ExtractionInput(text=turns[-1], occurred_at=WHEN, context=turns[:-1])
    found = RuleExtractor().extract_one(message).facts
    return [(f.subject, f.category.value, f.predicate, f.value) for f in found]


@pytest.mark.parametrize(
    ("window", "said", "fact"),
    [
        ("My friend Jordan uses they/them.", "They teach at a high school.",
         ("Jordan", "occupation", "job", "teacher")),
        ("My roommate Kai is nonbinary.", "They're a nurse.",
         ("Kai", "occupation", "job", "nurse")),
        ("Sasha's pronouns are they/them.", "They live in Leeds.",
         ("Sasha", "location", "city", "Leeds")),
    ],
)  # fmt: skip
def test_they_is_the_one_person_who_uses_they(
    window: str, said: str, fact: tuple[str, str, str, str]
) -> None:
    assert fact in read(window, said)


@pytest.mark.parametrize(
    "window",
    [
        "My parents visited last week.",  # a group
        "My friend Jordan is great.",  # no pronoun said
        "My friend Jordan uses they/them. My boss Linda is out.",  # someone named since
        "My friend Jordan uses they/them and Sam is here too.",  # two in one sentence
    ],
)
def test_they_stays_unresolved_without_that_evidence(window: str) -> None:
    assert read(window, "They live in Leeds.") == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I think they live in Leeds.", ("Jordan", "location", "city", "Leeds")),
        ("Honestly, they're a pharmacist now.", ("Jordan", "occupation", "job", "pharmacist")),
        ("I'm pretty sure they work at a bakery.", ("Jordan", "occupation", "employer", "bakery")),
    ],
)
def test_they_inside_a_sentence_is_the_one_person_who_uses_they(
    said: str, fact: tuple[str, str, str, str]
) -> None:
    assert fact in read("My friend Jordan uses they/them.", said)


@pytest.mark.parametrize(
    "said",
    [
        "My parents came over and I think they live in Leeds.",  # a group before it
        "Priya and I think they live in Leeds.",  # someone else named before it
    ],
)
def test_they_inside_a_sentence_stays_unresolved_after_others(said: str) -> None:
    assert read("My friend Jordan uses they/them.", said) == []


def test_pronouns_said_as_she_her_tell_her_pronoun() -> None:
    assert ("Robin", "location", "city", "Leeds") in read(
        "My neighbour Robin uses she/her.", "She lives in Leeds."
    )


def test_a_pet_named_it_after_a_pet_was_mentioned() -> None:
    assert read("My aunt Rosa adopted a kitten.", "She named it Mochi.") == [
        ("Rosa", "relationship", "pet", "Mochi")
    ]
    assert read("We called the puppy Bruno.") == [("user", "relationship", "pet", "Bruno")]
    # "it" with no pet in the window is a boat or a company; "her" may be a baby
    assert read("I bought a sailboat.", "I named it Osprey.") == []
    assert read("We just had a baby girl.", "We named her Iris.") == []


def test_someone_is_at_an_organisation_in_a_window_about_work() -> None:
    assert read("My cousin Mei is an accountant.", "She's at Deloitte now.") == [
        ("Mei", "occupation", "employer", "Deloitte")
    ]
    assert read("My cousin Mei is visiting.", "She's at Deloitte now.") == []


def test_a_childs_age_in_words() -> None:
    assert read("My daughter Noor started school.", "She's six.") == [
        ("Noor", "identity", "age", "six")
    ]
    assert read("My nephew is almost four.") == [
        ("nephew", "identity", "age", "four"),
        ("user", "relationship", "nephew", "nephew"),
    ]
    assert read("My nephew Omar is five minutes away.") == [
        ("user", "relationship", "nephew", "Omar")
    ]


def test_a_hedged_statement_about_a_named_person_is_theirs() -> None:
    message = ExtractionInput(
        text="I think Jordan is allergic to peanuts.",
        occurred_at=WHEN,
        context=("My friend Jordan is a chef.",),
    )
    facts = RuleExtractor().extract_one(message).facts
    found = [
        f for f in facts if (f.subject, f.predicate, f.value) == ("Jordan", "allergy", "peanuts")
    ]
    assert found
    assert found[0].confidence < 0.85  # hedged, as the speaker's own would be
