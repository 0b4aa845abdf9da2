"""Employers and places lived said as a list, and the one said to hold now
(``ingest/extract/then_now.py``): each member is its own fact, the ones before the
current one no longer hold. Fixtures written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
EXTRACTOR = RuleExtractor()


def said(text: str) -> set[tuple[str, str, bool]]:
    message = ExtractionInput(text=text, occurred_at=WHEN)
    return {
        (f"{f.category.value}/{f.predicate}", f.value, f.holds)
        for f in EXTRACTOR.extract_one(message).facts
    }


def test_employers_before_the_current_one_have_ended() -> None:
    assert said("I've worked at Qualcomm and Broadcom, and now I'm at AMD.") == {
        ("occupation/employer", "Qualcomm", False),
        ("occupation/employer", "Broadcom", False),
        ("occupation/employer", "AMD", True),
    }
    assert said("I used to work for Lego and Hasbro, now I'm with Mattel.") == {
        ("occupation/employer", "Lego", False),
        ("occupation/employer", "Hasbro", False),
        ("occupation/employer", "Mattel", True),
    }


def test_a_list_of_past_employers_is_each_of_them() -> None:
    assert said("I worked at Fiat and Ferrari.") == {
        ("occupation/employer", "Fiat", False),
        ("occupation/employer", "Ferrari", False),
    }


def test_a_name_with_and_inside_stays_one_employer() -> None:
    assert said("I work at Marks and Spencer.") == {
        ("occupation/employer", "Marks and Spencer", True)
    }


def test_a_place_lived_before_the_current_one_no_longer_holds() -> None:
    assert said("I've lived in Ghent, and now I'm in Antwerp.") == {
        ("location/city", "Ghent", False),
        ("location/city", "Antwerp", True),
    }
    assert said("I lived in Graz and Linz before moving to Salzburg.") == {
        ("location/city", "Graz", False),
        ("location/city", "Linz", False),
        ("location/city", "Salzburg", True),
    }


def test_one_place_stays_one_place() -> None:
    assert said("I live in Portland, Oregon.") == {("location/city", "Portland, Oregon", True)}
    assert ("location/city", "Trinidad", True) in said("I live in Trinidad and Tobago.")
    # "now" before someone else: no member of the list
    assert said("I've lived in Ghent, and now Tom lives there.") == {
        ("location/city", "Ghent", True)
    }
