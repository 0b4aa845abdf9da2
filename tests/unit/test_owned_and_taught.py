"""What is owned said with "own" and any object, a job said as what one teaches or in
other grammar, job words of ordinary chat, and a plain statement about someone named by
a known first name read as theirs. Sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.models.knowledge import FactCategory

EXTRACTOR = RuleExtractor()
WHEN = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[str, str, str, bool]]:
    facts = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.subject, f"{f.category.value}/{f.predicate}", f.value, f.holds) for f in facts]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I own a small bakery downtown.", "small bakery"),
        ("We own two rental properties.", "rental properties"),
        ("I also own a food truck, believe it or not.", "food truck"),
    ],
)
def test_whatever_is_owned_with_own_is_a_possession(text: str, value: str) -> None:
    assert ("user", "possession/owns", value, True) in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I own up to my mistakes.",
        "I own my decisions.",
        "We own the night.",
        "I own a lot of books.",
    ],
)
def test_own_with_no_owned_thing_is_no_possession(text: str) -> None:
    assert not [f for f in read(text) if f[1] == "possession/owns"]


def test_a_possession_once_owned_no_longer_holds() -> None:
    assert ("user", "possession/owns", "food truck", False) in read("I used to own a food truck.")


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("I teach yoga.", "yoga teacher"),
        ("I teach high school math.", "high school math teacher"),
        ("I teach piano on weekends.", "piano teacher"),
        ("I teach at a community college.", "teacher"),
        ("I teach kids to swim.", "teacher"),
    ],
)
def test_what_one_teaches_names_the_job(text: str, job: str) -> None:
    assert ("user", "occupation/job", job, True) in read(text)


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("I'm a dermatologist at a small clinic.", "dermatologist"),
        ("I'm a news anchor.", "news anchor"),
        ("I'm a vet.", "vet"),
    ],
)
def test_a_job_word_of_ordinary_chat_is_a_job(text: str, job: str) -> None:
    assert ("user", "occupation/job", job, True) in read(text)


def test_a_statement_about_someone_named_by_a_first_name_is_theirs() -> None:
    # no earlier turn named Carlos: his first name says he is a person
    assert ("Carlos", "possession/owns", "taco place", True) in read(
        "Carlos owns a taco place in Phoenix."
    )


def test_a_condition_beside_a_stance_keeps_the_stance() -> None:
    facts = read("I always take the elevator because my knees are bad.")
    categories = {f[1].split("/")[0] for f in facts}
    assert categories == {FactCategory.POLICY.value, FactCategory.STATE.value}


def test_never_having_owned_something_is_no_possession() -> None:
    assert not [f for f in read("I've never owned a car.") if f[1] == "possession/owns"]


@pytest.mark.parametrize(
    ("text", "job", "employer"),
    [
        ("I'm the head of design at Canva.", "head of design", "Canva"),
        ("I'm working at Target this summer.", None, "Target"),
        ("I freelance as a graphic designer.", "graphic designer", None),
        ("I'm a pianist.", "pianist", None),
    ],
)
def test_a_job_said_in_other_grammar_is_a_job(
    text: str, job: str | None, employer: str | None
) -> None:
    facts = read(text)
    if job:
        assert ("user", "occupation/job", job, True) in facts
    if employer:
        assert ("user", "occupation/employer", employer, True) in facts


def test_the_oldest_of_three_is_no_job() -> None:
    assert not [f for f in read("I'm the worst cook of the family.") if f[1] == "occupation/job"]
