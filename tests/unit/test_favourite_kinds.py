"""A favourite named by a word for a hobby or an activity that is not "hobby" itself:
"my favorite pastime", "my favorite way to unwind" (issue 32, item 7: a like said again
as a favourite must be read to renew it). The sentences are new, not from any set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Pottery is my favorite pastime.", ("favorite_hobby", "Pottery")),
        ("My favourite pastime is birdwatching.", ("favorite_hobby", "birdwatching")),
        ("Swimming is my favorite way to unwind.", ("favorite_activity", "Swimming")),
    ],
)
def test_a_pastime_or_a_way_to_spend_time_is_a_favourite(text: str, fact: tuple[str, str]) -> None:
    found = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    # a favourite way to spend time is also a choice for it (``strong_likes.py``)
    preferences = [f for f in found if f.category.value == "preference"]
    assert [(f.category.value, f.predicate, f.value) for f in preferences] == [
        ("preference", *fact)
    ]
