"""Where the speaker works, said after another statement whose subject they were ("I
live in Leeds and work for Asda") or as a new start ("I've just started working at ...
as a ..."). Fixtures written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
EXTRACTOR = RuleExtractor()


def work(text: str) -> set[tuple[str, str, str]]:
    message = ExtractionInput(text=text, occurred_at=WHEN)
    return {
        (f.subject, f.predicate, f.value)
        for f in EXTRACTOR.extract_one(message).facts
        if f.category.value == "occupation"
    }


def test_work_whose_subject_the_speaker_said_before() -> None:
    assert work("I live in Hove and work for the Argus.") == {("user", "employer", "Argus")}
    # "live ... and work" said of others is theirs, not the speaker's
    assert work("My parents live in Hove and work for the Argus.") == set()


def test_a_new_job_started_with_its_title() -> None:
    assert work("I've just started working at Aldi as a baker.") == {
        ("user", "employer", "Aldi"),
        ("user", "job", "baker"),
    }
