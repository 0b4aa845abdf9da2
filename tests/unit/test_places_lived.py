"""Where someone lives, said beside their job ("a paramedic in Leeds":
``ingest/extract/job_places.py``) or with the speaker as the subject said once before
"live" ("I work in Leeds but live in York"). Fixtures written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
EXTRACTOR = RuleExtractor()


def cities(text: str) -> set[tuple[str, str]]:
    message = ExtractionInput(text=text, occurred_at=WHEN)
    return {
        (f.subject, f.value)
        for f in EXTRACTOR.extract_one(message).facts
        if f.category.value == "location" and f.predicate in {"city", "country"}
    }


def test_a_job_said_with_a_known_place_gives_the_holders_city() -> None:
    assert cities("My sister Maren is a midwife in Marseille.") == {("Maren", "Marseille")}
    assert cities("I'm a welder at Volvo in Gothenburg.") == {("user", "Gothenburg")}


def test_a_place_of_work_beside_a_home_is_not_the_home() -> None:
    assert cities("I'm a chef in Lyon but live in Villeurbanne.") == {("user", "Villeurbanne")}
    assert cities("I live in Delft. I'm a nurse in Rotterdam.") == {("user", "Delft")}


def test_no_city_from_a_field_or_a_business() -> None:
    assert cities("I'm a consultant in IT.") == set()
    assert cities("My uncle runs a cafe in Lisbon.") == set()


def test_live_whose_subject_the_speaker_said_before() -> None:
    assert cities("I work in Glasgow but live in Paisley.") == {("user", "Paisley")}
    assert cities("I grew up in Cork, studied in Galway and now live in Dublin.") == {
        ("user", "Dublin")
    }
    assert cities("We work nights, and we live out in Hove.") == {("user", "Hove")}
    # others' home: "live" after their subject is theirs, not the speaker's
    assert cities("My parents work in Derby but live in Leicester.") == set()
