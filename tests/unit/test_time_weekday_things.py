"""A weekday that modifies a noun ("the Sunday market", "my Monday class") names a
recurring thing, not a day: it dates nothing, and the sentence's own time dates the event
(issue 31). A weekday that is a day keeps its reading."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cognimem.text.events import event_period
from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one


@pytest.mark.parametrize(
    "text",
    [
        "We love the Sunday market.",
        "My Monday class got moved.",
        "Skipped Wednesday football, my knee hurts.",
        "This morning the Saturday farmers' market closed",
        "Mum's Sunday roast is the best.",
    ],
)
def test_a_weekday_before_a_noun_dates_nothing(text: str) -> None:
    assert [m for m in find_times(text, WED) if m.text.lower().strip().endswith("day")] == []


def test_the_sentences_own_time_dates_the_event() -> None:
    said = "Started my bakery stall at the Sunday market today!"
    assert days(one(said)) == (date(2024, 6, 12), date(2024, 6, 13))
    period = event_period(said, WED)
    assert period is not None
    assert period[0].date() == date(2024, 6, 12)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("Tuesday works for me.", date(2024, 6, 11)),  # a verb after it: a subject
        ("We moved in the Saturday we got the keys.", date(2024, 6, 8)),
        ("I saw her Sunday morning.", date(2024, 6, 9)),  # a time after it
        ("We went to the market on Sunday.", date(2024, 6, 9)),
    ],
)
def test_a_weekday_that_is_a_day_keeps_its_date(text: str, start: date) -> None:
    assert days(one(text))[0] == start


def test_an_ordinal_after_a_weekday_is_no_noun() -> None:
    tuesday = datetime(2024, 8, 20, 12, tzinfo=UTC)
    said = one("I'll send it Monday first thing.", tuesday, prefer_future=True)
    assert days(said)[0] == date(2024, 8, 26)
