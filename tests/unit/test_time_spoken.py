"""Years said in words, counted weekends, a range of bare days after "between", a
season but one, "the year 2015" and a day of an abbreviated month (``text/dates.py``,
``text/relative.py``), read at Wednesday 12 June 2024 in sentences written for these
tests."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("We moved in twenty nineteen.", 2019),
        ("Twenty twenty-two was a rough year.", 2022),
        ("In two thousand and eight we got married.", 2008),
        ("She was born in nineteen ninety-five.", 1995),
        ("The house was built in twenty oh five.", 2005),
        ("That was back in twenty ten.", 2010),
    ],
)
def test_a_year_said_in_words_is_that_year(text: str, year: int) -> None:
    assert days(one(text)) == (date(year, 1, 1), date(year + 1, 1, 1))


@pytest.mark.parametrize(
    "text", ["I have twenty five cats.", "We ran twenty miles.", "About two thousand people came."]
)
def test_a_count_in_words_is_no_year(text: str) -> None:
    assert find_times(text, WED) == []


def test_weekends_are_counted_from_the_last_or_the_coming_one() -> None:
    assert days(one("Three weekends ago we hiked.")) == (date(2024, 5, 25), date(2024, 5, 27))
    assert days(one("a weekend ago")) == (date(2024, 6, 8), date(2024, 6, 10))
    assert days(one("We'll go in two weekends.")) == (date(2024, 6, 22), date(2024, 6, 24))


def test_between_two_bare_days_is_the_range_of_their_month() -> None:
    assert days(one("Between the 5th and the 8th we were away.")) == (
        date(2024, 6, 5),
        date(2024, 6, 9),
    )
    assert days(one("between the 3rd and 7th")) == (date(2024, 6, 3), date(2024, 6, 8))
    assert find_times("between the 8th and the 5th", WED) == []  # a range runs forwards


def test_a_season_but_one() -> None:
    assert days(one("We went to Spain the summer before last.")) == (
        date(2022, 6, 1),
        date(2022, 9, 1),
    )
    assert days(one("the winter after next")) == (date(2025, 12, 1), date(2026, 3, 1))


def test_the_year_and_an_abbreviated_month_after_a_day_of_it() -> None:
    assert days(one("In the year 2015 we moved.")) == (date(2015, 1, 1), date(2016, 1, 1))
    assert days(one("The last day of Feb 2014 was cold.")) == (date(2014, 2, 28), date(2014, 3, 1))
    assert days(one("the first Monday of Sept")) == (date(2023, 9, 4), date(2023, 9, 5))
