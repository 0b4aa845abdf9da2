"""Pieces of the time parser's patterns that no other unit test read (found by taking
each branch out in turn and re-running the calls the unit tests make): a holiday name
inside a sentence, a hedged count, a short month after a word of time, a day of the
month said ahead, and a habit told with no time. Sentences written for these tests;
read on Wednesday 12 June 2024 (``WED``)."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from cognimem.text.told import tells_a_habit
from tests.unit.time_reading import WED, days, one

d = date


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("We went out on Valentine's Day.", d(2024, 2, 14)),
        ("We had a parade on St Patrick's Day.", d(2024, 3, 17)),
        ("We watched fireworks on the Fourth of July.", d(2023, 7, 4)),
        ("We had a bonfire on Guy Fawkes Night.", d(2023, 11, 5)),
        ("We wrapped gifts on Christmas Eve.", d(2023, 12, 24)),
        ("We walked on Easter Monday.", d(2024, 4, 1)),
        ("The office closed on MLK Day.", d(2024, 1, 15)),
        ("We shopped on Presidents' Day.", d(2024, 2, 19)),
        ("I called her on Mother's Day.", d(2024, 5, 12)),
        ("We grilled on Father's Day.", d(2023, 6, 18)),
        ("We camped over Labor Day.", d(2023, 9, 4)),
        ("We marched on Indigenous Peoples' Day.", d(2023, 10, 9)),
        ("We ate cake on Three Kings Day.", d(2024, 1, 6)),
        # names whose words the rule's word gate once lacked (read as "Tuesday", or not)
        ("We had pancakes on Shrove Tuesday.", d(2024, 2, 13)),
        ("We painted skulls on Día de los Muertos.", d(2023, 11, 2)),
    ],
)
def test_a_holiday_said_in_a_sentence_is_its_last_day(text: str, day: date) -> None:
    assert days(one(text)) == (day, d.fromordinal(day.toordinal() + 1))


@pytest.mark.parametrize(
    ("text", "future", "day"),
    [
        ("I moved more than a year ago.", False, d(2023, 6, 12)),
        ("I quit less than a month ago.", False, d(2024, 5, 12)),
        ("I'll finish it in more than a week.", True, d(2024, 6, 19)),
    ],
)
def test_a_count_hedged_by_more_or_less_than_is_the_count(
    text: str, future: bool, day: date
) -> None:
    mention = one(text, prefer_future=future)
    assert days(mention)[0] == day


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("We met during Jan.", d(2024, 1, 1), d(2024, 2, 1)),
        ("Prices rose in mid-Jan this year.", d(2024, 1, 11), d(2024, 1, 21)),
    ],
)
def test_jan_after_a_word_of_time_is_the_month(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


def test_the_day_of_the_month_said_ahead_is_the_next_one() -> None:
    assert days(one("See you on the 5th.", prefer_future=True)) == (d(2024, 7, 5), d(2024, 7, 6))


@pytest.mark.parametrize(
    ("text", "habit"),
    [
        ("On Sundays we went to church.", True),
        ("We always went to the lake.", True),
        ("We used to fish there.", True),
        ("We went to church on Sunday.", False),
        ("We went to the lake.", False),
    ],
)
def test_a_habit_told_with_no_time(text: str, habit: bool) -> None:
    assert tells_a_habit(text) is habit


def test_a_half_of_a_season_names_no_time() -> None:
    assert find_times("I was busy the first half of summer.", WED) == []


@pytest.mark.parametrize(
    "text", ["We left a week prior to next month.", "We met the week of next month."]
)
def test_a_count_or_a_week_of_a_period_told_from_today_is_that_period(text: str) -> None:
    assert [days(m) for m in find_times(text, WED)] == [(d(2024, 7, 1), d(2024, 8, 1))]
