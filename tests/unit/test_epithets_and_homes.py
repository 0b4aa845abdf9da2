"""A person called a name instead of a role, a "home" no one lives in and an allergy to
a field of knowledge (issue 32): "my cousin is a villain" has the grammar of "my cousin
is a paratrooper", "I live in my truck" that of "I live in my apartment"; where each noun
sits in WordNet's tree of kinds tells them apart. The sentences are new, not from any
probe set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.ingest.extract.figures import is_figure, no_allergen
from cognimem.text.noun_roots import (
    is_field_of_knowledge,
    is_no_home,
    is_person_judgement,
    is_person_role,
    is_person_work,
)

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[str, str, str]]:
    found = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.category.value, f.predicate, f.value) for f in found]


def test_wordnet_parts_roles_from_judgements_of_people() -> None:
    assert is_person_role("paratrooper")
    assert is_person_role("toddlers")
    assert not is_person_judgement("paratrooper")
    assert is_person_judgement("villain")
    assert is_person_judgement("workaholic")
    assert is_person_judgement("control freak")  # a phrase WordNet holds
    # one sense in six of "runner" is a smuggler: most are no judgement
    assert not is_person_judgement("runner")
    assert not is_person_role("runner")
    assert not is_person_judgement("Qwzlrb")


def test_wordnet_work_is_a_kind_of_person_not_one_person() -> None:
    assert is_person_work("chemist")
    assert is_person_work("mayor")
    assert is_person_work("barber")  # its first person sense is Samuel Barber
    assert is_person_work("ceo")  # written as an acronym
    assert not is_person_work("darwin")
    assert not is_person_work("bach")
    assert not is_person_work("introvert")
    assert is_person_role("chemist")
    assert is_person_role("canadian")  # roles are as before


def test_wordnet_knows_what_no_one_lives_in_and_fields_of_knowledge() -> None:
    assert is_no_home("truck")
    assert is_no_home("pajamas")
    assert is_no_home("recliner")
    assert not is_no_home("apartment")
    assert not is_no_home("motor home")
    assert is_field_of_knowledge("algebra")
    assert not is_field_of_knowledge("history")  # first of all a time
    assert not is_field_of_knowledge("peanuts")


@pytest.mark.parametrize(
    "text",
    [
        "My cousin is a villain.",
        "My father-in-law is an angel.",
        "My uncle is a workaholic.",
        "My aunt is a nag about my hair.",
        "I live in my truck right now.",
        "I live in my pajamas these days.",
        "I'm allergic to algebra.",
    ],
)
def test_an_epithet_a_home_no_one_lives_in_and_a_joke_allergy_read_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My cousin is a paratrooper.", ("relationship", "cousin", "cousin")),
        ("My nephew is a toddler.", ("relationship", "nephew", "nephew")),
        ("My brother is a runner.", ("relationship", "brother", "brother")),
        # a scholar's or an organiser's work is a role, though WordNet files it under
        # intellectuals beside "a genius"
        ("My aunt is a historian.", ("relationship", "aunt", "aunt")),
        ("My cousin is a coordinator at the museum.", ("relationship", "cousin", "cousin")),
        ("I live in my apartment in Tucson.", ("location", "city", "Tucson")),
        ("I'm allergic to sulfites.", ("policy", "allergy", "sulfites")),
    ],
)
def test_the_same_grammar_said_literally_is_read(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in read(text)


def test_the_gates_answer_for_the_clause() -> None:
    assert is_figure("my cousin is a villain")
    assert not is_figure("my cousin is a paratrooper")
    assert not is_figure("my cousin is a big fan of villains")  # what it is of follows
    assert is_figure("I live in my truck right now")
    assert not is_figure("I live in my motor home")
    assert no_allergen("algebra")
    assert not no_allergen("shellfish")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My cousin is a paratrooper.", ("cousin", "occupation", "job", "paratrooper")),
        ("My aunt Rosa is a stonemason.", ("Rosa", "occupation", "job", "stonemason")),
        ("I'm a 911 dispatcher.", ("user", "occupation", "job", "911 dispatcher")),
        # a scientist and a civil authority are work though WordNet files them apart
        ("I'm a geologist.", ("user", "occupation", "job", "geologist")),
        ("My aunt Joan is a mayor.", ("Joan", "occupation", "job", "mayor")),
        # a spouse said by their job, of the list or of WordNet
        ("I'm married to a firefighter named Dan.", ("Dan", "occupation", "job", "firefighter")),
        ("I'm married to a zoologist named Kim.", ("Kim", "occupation", "job", "zoologist")),
        ("I'm married to a zoologist named Kim.", ("user", "relationship", "partner", "Kim")),
    ],
)
def test_a_job_the_list_lacks_is_read_when_wordnet_calls_it_work(
    text: str, fact: tuple[str, str, str, str]
) -> None:
    found = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    assert fact in [(f.subject, f.category.value, f.predicate, f.value) for f in found]


@pytest.mark.parametrize(
    "text",
    [
        "I'm a teenager.",  # a role, no work
        "My nephew is a toddler.",
        "I'm a certified sofa critic.",  # a noun of work made a thing's: a joke title
        "My brother is a runner.",
        "I'm married to a night owl named Sue.",  # a partner, no job
        "I'm a Darwin.",  # one scientist, not a kind of person
    ],
)
def test_no_job_from_a_role_or_a_joke_title(text: str) -> None:
    assert [f for f in read(text) if f[0] == "occupation"] == []


@pytest.mark.parametrize("text", ["My wife calls me Mr. Fix-It.", "My nickname is Dr. Dre."])
def test_a_title_alone_is_no_nickname(text: str) -> None:
    assert [f for f in read(text) if f[:2] == ("identity", "nickname")] == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I basically grew up in Tucson.", ("location", "hometown", "Tucson")),
        ("We live by the river in Portland.", ("location", "city", "Portland")),
        ("We have six grandchildren.", ("relationship", "grandchild", "six grandchildren")),
    ],
)
def test_a_home_said_with_a_hedge_or_a_landmark_and_grandchildren_are_read(
    text: str, fact: tuple[str, str, str]
) -> None:
    assert fact in read(text)


def test_a_language_spoken_is_read_and_a_joke_language_is_not() -> None:
    assert ("identity", "language", "Portuguese") in read("I speak conversational Portuguese.")
    both = read("I'm fluent in Tagalog and Cantonese.")
    assert ("identity", "language", "Tagalog") in both
    assert ("identity", "language", "Cantonese") in both
    assert read("I speak fluent emoji.") == []
    assert read("I'm fluent in small talk.") == []
