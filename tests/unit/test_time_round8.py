"""Habits told with a count as the round-8 time-expression set's tune half asked: "every
three months", "every couple of months", "every 2 yrs" are a habit's interval, not a
span up to the day said, and a day after one is the habit's too ("every
two weeks on Friday", as "weekly on Tuesday"); a span beside a habit keeps its dates.
Each case is a sentence written for this test, read on Wednesday 12 June 2024."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one

d = date


@pytest.mark.parametrize(
    "text",
    [
        "I have a blood test every three months.",
        "We meet up every couple of months.",
        "The boiler is serviced every 2 yrs.",
        "We get paid every two weeks on Friday.",
    ],
)
def test_a_counted_habit_is_not_dated(text: str) -> None:
    assert find_times(text, WED) == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("I've been going there every week for two years.", d(2022, 6, 12), d(2024, 6, 12)),
        ("I've seen her every three months for two years.", d(2022, 6, 12), d(2024, 6, 12)),
    ],
)
def test_a_span_beside_a_habit_keeps_its_dates(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)
