"""Forms that once stopped the time parser with an error instead of a reading: a day
number's suffix in capitals ("the 3RD of May") and a half count of nights or weekends
("a night and a half ago"), in sentences written for these tests."""

from __future__ import annotations

from datetime import date

import pytest

from tests.unit.time_reading import WED, days, one

d = date


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("WE MET ON THE 3RD OF MAY!", d(2024, 5, 3), d(2024, 5, 4)),
        ("The party was on May 21ST.", d(2024, 5, 21), d(2024, 5, 22)),
        ("We flew out Tuesday the 11TH.", d(2024, 6, 11), d(2024, 6, 12)),
        ("Rent is due by the 2ND.", d(2024, 6, 2), d(2024, 6, 3)),
        ("I was there from 3RD to 5TH May.", d(2024, 5, 3), d(2024, 5, 6)),
    ],
)
def test_a_day_suffix_in_capitals_is_read(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


@pytest.mark.parametrize(
    ("text", "back"),
    [
        # a night counts as a day; one and a half is one day back, rounded down
        ("We camped there a night and a half ago.", 1),
        ("I slept there two nights and a half ago.", 2),
        # a weekend counts as a week: two and a half are 17 days back
        ("We started two and a half weekends ago.", 17),
    ],
)
def test_a_half_count_of_nights_or_weekends_is_read(text: str, back: int) -> None:
    found = one(text)
    assert days(found)[0] == date.fromordinal(WED.date().toordinal() - back)
    assert found.approximate
