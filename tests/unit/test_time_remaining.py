"""Forms the time-expression set and the chat turns read that no other test read: a
count ahead said with both "in" and "from now", and a quarter without its year, in
sentences written for these tests."""

from __future__ import annotations

from datetime import date

import pytest

from tests.unit.time_reading import days, one

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
