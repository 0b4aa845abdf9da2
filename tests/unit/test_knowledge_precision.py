"""Gates of the rule extractor that keep a sentence from stating what it does not
(issue 32, precision): a job said with a grade is a judgement of the speaker, not a job,
and a name where someone works is a workplace "he" cannot point back to. The sentences
are written for these tests, not taken from any labelled set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract.appraisals import is_appraisal
from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput
from cognimem.models.knowledge import EntityType


def read(*turns: str) -> list[str]:
    """What the last turn states, the earlier turns as its conversation window."""
    message = ExtractionInput(
        text=turns[-1], occurred_at=datetime(2024, 3, 1, tzinfo=UTC), context=turns[:-1]
    )
    return [f"{f.subject}:{f.category.value}/{f.predicate}={f.value}"
            for f in RuleExtractor().extract_one(message).facts]  # fmt: skip


@pytest.mark.parametrize(
    "job",
    ["great cook", "terrible singer", "world-class baker", "first-rate mechanic", "best dad"],
)
def test_a_graded_job_is_an_appraisal(job: str) -> None:
    assert is_appraisal(job)


@pytest.mark.parametrize(
    "job", ["head nurse", "freelance translator", "struggling painter", "senior analyst", "cook"]
)
def test_a_described_job_is_not(job: str) -> None:
    assert not is_appraisal(job)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm a lousy swimmer.",
        "I'm an amazing baker, if I say so myself.",
        "I'm a top-notch napper.",
    ],
)
def test_a_graded_job_states_no_job(sentence: str) -> None:
    assert not any("/job=" in f for f in read(sentence))


def test_a_described_job_is_still_read() -> None:
    assert "user:occupation/job=freelance translator" in read("I'm a freelance translator.")


def test_where_someone_teaches_is_a_workplace_not_a_person() -> None:
    message = ExtractionInput(
        text="My old tutor Ngozi lectures at Cornell.", occurred_at=datetime(2024, 3, 1, tzinfo=UTC)
    )
    found = {e.name: e.type for e in RuleExtractor().extract_one(message).entities}
    assert found.get("Cornell") is EntityType.ORGANIZATION


def test_he_never_points_back_to_a_workplace() -> None:
    later = read("My old tutor Ngozi lectures at Cornell.", "He grew up in Kumasi.")
    assert not any(f.startswith("Cornell:") for f in later)


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I live in Dundee, which my sister thinks is too cold.", "user:location/city=Dundee"),
        ("I'm 44, which my kids say is ancient.", "user:identity/age=44"),
        ("I'm a welder, which my mother believes is dangerous.", "user:occupation/job=welder"),
    ],
)
def test_a_remark_after_a_statement_leaves_it_the_speakers(sentence: str, fact: str) -> None:
    assert read(sentence) == [fact]


@pytest.mark.parametrize(
    "sentence", ["I live in Dundee, my sister thinks.", "I'm a welder, or so my mother believes."]
)
def test_a_statement_given_as_someone_elses_belief_states_nothing(sentence: str) -> None:
    assert read(sentence) == []


def test_a_job_said_after_where_one_works_is_read() -> None:
    assert read("I work for Basecamp as a copywriter.") == [
        "user:occupation/job=copywriter",
        "user:occupation/employer=Basecamp",
    ]


def test_a_role_for_a_person_is_no_job() -> None:
    assert not any("/job=" in f for f in read("I work for my uncle as his chauffeur."))


def test_a_model_year_before_a_make_is_no_obstacle() -> None:
    assert read("We own a 2011 Volvo V70.") == ["user:possession/owns=Volvo V70"]


def test_kin_visited_as_a_group_is_an_event() -> None:
    assert read("We visited my grandparents in Galway.") == ["user:event/visited=grandparents"]


@pytest.mark.parametrize(
    ("sentence", "holds"),
    [
        ("Siemens Energy has been my employer since 2019.", True),
        ("Lidl was my first employer.", False),
    ],
)
def test_a_workplace_said_first_is_the_employer(sentence: str, holds: bool) -> None:
    message = ExtractionInput(text=sentence, occurred_at=datetime(2024, 3, 1, tzinfo=UTC))
    found = RuleExtractor().extract_one(message).facts
    assert [(f.predicate, f.holds) for f in found] == [("employer", holds)]
