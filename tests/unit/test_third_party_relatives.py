"""What is said of a named person by "his" / "her" or their name with "'s" reaches a
fact of theirs (issue 32, item 2): their relative, named or not, the career they want,
and what happened to what is theirs ("He broke his hip")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str, *window: str) -> list[tuple[str, str, str, str]]:
    message = ExtractionInput(text=text, occurred_at=WHEN, context=window)
    found = RuleExtractor().extract_one(message).facts
    return [(f.subject, f.category.value, f.predicate, f.value) for f in found]


def test_a_named_persons_relative_is_theirs() -> None:
    assert ("Marco", "relationship", "sister", "Ingrid") in read("Marco's sister Ingrid is a chef.")


def test_her_relative_after_she_was_named_is_hers() -> None:
    said = read("Her daughter was born in May.", "My friend Paula is on leave.")
    assert ("Paula", "relationship", "daughter", "daughter") in said
    said = read("His brother Yannick came along.", "My neighbor Ahmed stopped by.")
    assert ("Ahmed", "relationship", "brother", "Yannick") in said


@pytest.mark.parametrize(
    "text", ["McDonald's manager Tom called.", "Apple's founder Steve was a genius."]
)
def test_a_company_with_a_relation_word_is_no_persons_relative(text: str) -> None:
    assert not [f for f in read(text) if f[1] == "relationship"]


def test_a_career_wanted_is_a_goal_of_work() -> None:
    assert ("user", "goal", "work", "become a firefighter") in read(
        "I want to become a firefighter."
    )
    said = read("She wants to be an architect.", "My niece Zara loves drawing.")
    assert ("Zara", "goal", "work", "be an architect") in said


def test_what_is_no_occupation_is_no_career() -> None:
    assert not [f for f in read("I want to be a better cook.") if f[2] == "work"]
    assert not [f for f in read("Zara wants to be a princess.") if f[1] == "goal"]


def test_his_or_her_own_in_what_is_said_of_them_stays_theirs() -> None:
    said = read("She lost her job.", "My neighbor Greta is worried.")
    assert ("Greta", "state", "work", "lost her job") in said
    said = read("He sprained his wrist.", "My son Theo fell at practice.")
    assert [f for f in said if f[0] == "Theo" and f[3] == "sprained his wrist"]
    assert not [f for f in said if "my" in f[3].split()]


@pytest.mark.parametrize(
    ("text", "fact", "relation"),
    [
        ("My wife is allergic to shellfish.", ("wife", "policy", "allergy", "shellfish"),
         ("user", "relationship", "wife", "wife")),
        ("My boss grew up in Lagos.", ("boss", "location", "hometown", "Lagos"),
         ("user", "relationship", "boss", "boss")),
        ("My mum works at the Co-op.", ("mother", "occupation", "employer", "Co-op"),
         ("user", "relationship", "mother", "mum")),
        ("My sister lives in Berlin.", ("sister", "location", "city", "Berlin"),
         ("user", "relationship", "sister", "sister")),
    ],
)  # fmt: skip
def test_an_unnamed_relatives_statement_is_theirs_and_names_the_relation(
    text: str, fact: tuple[str, str, str, str], relation: tuple[str, str, str, str]
) -> None:
    said = read(text)
    assert fact in said
    assert relation in said
    assert not [f for f in said if f[0] == "user" and f[1] != "relationship"]


@pytest.mark.parametrize(
    "text",
    [
        "My mum keeps saying I should be a dentist.",
        "My coworker thinks I'm from Spain.",
        "My sister was like, I'm moving to Berlin next month.",
        "My brother claims he's allergic to homework.",
    ],
)
def test_what_an_unnamed_relative_says_is_no_fact(text: str) -> None:
    assert read(text) == []


def test_a_relative_named_after_the_relation_word_keeps_the_name() -> None:
    said = read("My cousin Ines studies medicine.")
    assert ("Ines", "occupation", "studies", "medicine") in said
    assert not [f for f in said if f[0] == "cousin"]


def test_the_familys_state_is_not_read_again_as_the_relatives() -> None:
    # read as the speaker's family's state: the mother gets no fact of her own
    assert not [f for f in read("My mom is in the hospital.") if f[0] == "mother"]


def test_grandad_is_a_grandfather() -> None:
    said = read("My grandad Bill is 88.")
    assert ("user", "relationship", "grandfather", "Bill") in said
    assert ("Bill", "identity", "age", "88") in said
