"""A figure of speech said as what someone or something *is* (issue 32): "my coworker is
a snake" has the grammar of "my sister is a nurse"; WordNet's class of each noun's most
frequent sense tells them apart. The sentences are new, not from any probe set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.ingest.extract.figures import copula, is_figure, kind_owned
from cognimem.text.noun_senses import first_class, noun_classes

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[str, str, str, str]]:
    found = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.subject, f.category.value, f.predicate, f.value) for f in found]


def test_wordnet_classes_come_most_frequent_sense_first() -> None:
    assert first_class("nurse") == "person"
    assert noun_classes("snake")[:2] == ("animal", "person")
    assert first_class("puppies") == "animal"  # a regular plural
    assert first_class("feet") == "body"  # an irregular one
    assert first_class("Qwzlrb") is None
    assert noun_classes("inbox") == ()


@pytest.mark.parametrize(
    "text",
    [
        "My landlord is a shark.",  # a person (by WordNet, not a relation word) as an animal
        "My husband is a grumpy old bear in the mornings.",
        "My manager is a robot.",
        "My uncle is a walking dictionary.",
        "My hamster is a tiny burglar.",  # a pet as a person
        "My parrot is an alarm clock.",
        "My printer is a dinosaur.",  # a thing as a creature
        "My apartment is a nightmare.",
        "This heat is killing me.",  # killing me, no part of the body
        "My in-laws are killing me.",
    ],
)
def test_a_figure_said_as_what_someone_or_something_is_states_nothing(text: str) -> None:
    assert is_figure(text.rstrip("."))
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My neighbour is a dentist.", ("neighbor", "occupation", "job", "dentist")),
        ("My son is a toddler.", ("user", "relationship", "son", "son")),
        ("My shoulder is killing me.", ("user", "state", "health", "shoulder is killing me")),
        ("My big toe is killing me.", ("user", "state", "health", "big toe is killing me")),
        ("My allergies are killing me.", ("user", "state", "health", "allergies")),
    ],
)
def test_the_same_grammar_said_literally_is_still_read(
    text: str, fact: tuple[str, str, str, str]
) -> None:
    assert not is_figure(text.rstrip("."))
    assert fact in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "My brother is a big fan of jazz",  # a person sense, and what he is a fan of
        "My sister is a model",  # first a cognition, but also a person: no evidence
        "My sister is pregnant",  # no noun
        "My favorite animal is a sloth",  # a favourite, not a figure
        "My biggest worry is my son",  # an abstract subject may be anyone
        "My cat is a Bengal",  # a name
    ],
)
def test_no_evidence_is_no_figure(text: str) -> None:
    assert not is_figure(text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("My car is a Honda", "Honda"),
        ("My laptop is a Lenovo ThinkPad", "Lenovo ThinkPad"),
        ("My dog is a dachshund", "dachshund"),
        ("My cat is a Bengal", "Bengal"),
        ("My dog is a puppy", None),  # a pet word is no breed
        ("My car is a wreck", None),  # no name: a thing's make is a name
        ("My office is a WeWork", None),  # not a thing the rules know people own
        ("My car is my baby", None),
    ],
)
def test_a_make_or_breed_is_what_a_thing_or_pet_is(text: str, kind: str | None) -> None:
    said = copula(text)
    assert said is not None
    assert kind_owned(said) == kind


def test_a_make_or_breed_is_read_as_owned() -> None:
    assert read("My car is a Honda.") == [("user", "possession", "owns", "Honda")]
    assert read("My dog is a dachshund.") == [("user", "possession", "owns", "dachshund")]
    assert read("My dog is a clown.") == []


def test_a_make_read_beside_a_state_leaves_the_state_read() -> None:
    # the kind owned is read, and the sentence is still read whole as a state of
    # old equipment, as it was before makes were read
    facts = read("My phone is an ancient Nokia.")
    assert ("user", "possession", "owns", "ancient Nokia") in facts
    assert ("user", "state", "technology", "My phone is an ancient Nokia") in facts
    assert read("My bike is a Trek.") == [("user", "possession", "owns", "Trek")]
