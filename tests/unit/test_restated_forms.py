"""The forms a restatement takes that the rule extractor reads (issue 32, item 7): a
condition that still does what it did, "I'm still so <state>", a bare feeling, "I'm
still at <organisation>", "<City> is where I live", "Home (for us) is <City>", "<X> is
my favorite thing to do"; and the sentences beside them that must not read as one.
Sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

EXTRACTOR = RuleExtractor()
WHEN = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def read(text: str) -> set[tuple[str, str, str]]:
    facts = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return {(f.category.value, f.predicate, f.value) for f in facts if f.subject == "user"}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My sinus infection is still throbbing.", ("state", "health", "sinus infection")),
        ("This earache is still pounding.", ("state", "health", "earache")),
        ("I'm still so tired.", ("state", "health", "tired")),
        ("I've been tired for weeks.", ("state", "health", "tired")),
        ("I'm lonely.", ("state", "health", "lonely")),
        ("I've been feeling really homesick lately.", ("state", "health", "homesick")),
        ("Been feeling restless lately.", ("state", "health", "restless")),
        ("I've been sad for weeks.", ("state", "health", "sad")),
        ("I'm still at Siemens.", ("occupation", "employer", "Siemens")),
        ("Leeds is where I live now.", ("location", "city", "Leeds")),
        ("Home for us is Lisbon.", ("location", "city", "Lisbon")),
        ("Home is still Dublin.", ("location", "city", "Dublin")),
        ("Knitting is my favorite thing to do.", ("preference", "favorite_hobby", "Knitting")),
    ],
)
def test_a_restated_form_reads_its_fact(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in read(text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I'm not lonely.", ("state", "health")),
        ("I'm lonely at work.", ("state", "health")),  # what it is about: not bare
        ("I'm so bored right now.", ("state", "health")),  # a mood of the moment
        ("I'm nervous.", ("state", "health")),  # passes with the moment unless said to last
        ("When the kids are away and I'm lonely, I read.", ("state", "health")),  # a habit
        ("I'm tired, goodnight.", ("state", "health")),  # a moment, not a lasting state
        ("I'm so tired I could sleep for a week.", ("state", "health")),
        ("I'm still at the office.", ("occupation", "employer")),
        ("I'm still at Sarah's.", ("occupation", "employer")),
        ("I'm still at Starbucks waiting for you.", ("occupation", "employer")),
        ("Boston is where my sister lives.", ("location", "city")),
        ("Home for my parents is Phoenix.", ("location", "city")),
        ("Home is where the heart is.", ("location", "city")),
        ("My favorite thing to eat is pizza.", ("preference", "favorite_hobby")),
    ],
)
def test_a_near_form_reads_no_such_fact(text: str, kind: tuple[str, str]) -> None:
    assert not any((c, p) == kind for c, p, _ in read(text))
