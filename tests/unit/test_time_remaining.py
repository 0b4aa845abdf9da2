"""Forms the time-expression set and the chat turns read that no other test read: a
count ahead said with both "in" and "from now", and a quarter without its year; and a
score written as a range of fractions ("7/10-8/10"), which month first is no date, in
sentences written for these tests."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one

d = date


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        ("We close the deal in two weeks from now.", True, d(2024, 6, 26), d(2024, 6, 27)),
        ("The results come in 3 days from today.", True, d(2024, 6, 15), d(2024, 6, 16)),
        # a quarter without a year: the latest that has begun, or ahead the next
        ("Sales were slow in Q3.", False, d(2023, 7, 1), d(2023, 10, 1)),
        ("We launch in Q3.", True, d(2024, 7, 1), d(2024, 10, 1)),
        ("Q2 was our best.", False, d(2024, 4, 1), d(2024, 7, 1)),
    ],
)
def test_read(text: str, future: bool, start: date, end: date) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


@pytest.mark.parametrize(
    "text", ["I'd rate it 7/10-8/10.", "Honestly a 7/10-8/10 for me.", "Critics gave it 4/5-5/5."]
)
def test_a_score_range_month_first_is_no_date(text: str) -> None:
    assert find_times(text, WED, date_order="month_first") == []


@pytest.mark.parametrize(
    ("text", "order", "start", "end"),
    [
        # after a word that makes a pair a date, the same form is one
        ("We were away from 7/10-8/10.", "month_first", d(2023, 7, 10), d(2023, 8, 11)),
        # the word may open the sentence
        ("From 7/10-8/10 we were away.", "month_first", d(2023, 7, 10), d(2023, 8, 11)),
        ("Between 7/10-8/10 the shop is shut.", "month_first", d(2023, 7, 10), d(2023, 8, 11)),
        # day first it is two days of one month
        ("I was off 7/10-8/10.", "day_first", d(2023, 10, 7), d(2023, 10, 9)),
        # two days of one month, month first
        ("I was away 6/3-6/5.", "month_first", d(2024, 6, 3), d(2024, 6, 6)),
    ],
)
def test_a_pair_range_that_is_a_date(text: str, order: str, start: date, end: date) -> None:
    assert days(one(text, date_order=order)) == (start, end)
