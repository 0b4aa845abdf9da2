"""Forms the round-4 time-expression set's tune half found unread, each read by
widening a rule that exists: a count from a day with no word between them (the British
"a week on Saturday", "two weeks tomorrow", "a week yesterday": away from today, ahead
only after "on"), a word between a count and its unit ("nine consecutive days"), "for
the first week" of an event told before, "since" a counted season ("since the summer
before last"), "since" after a habit ("every other week since spring") and weekdays
joined before a plural part of the day ("Tuesday and Thursday evenings": a habit).
Each case is a sentence written for this test, read on Wednesday 12 June 2024."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one, told

d = date


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        # a count from a day said from today, ahead: from the coming day
        ("We go on holiday a week on Saturday.", True, d(2024, 6, 22), d(2024, 6, 23)),
        ("The exam is three weeks on Monday.", True, d(2024, 7, 8), d(2024, 7, 9)),
        ("The lease ends a month on Friday.", True, d(2024, 7, 14), d(2024, 7, 15)),
        ("Her birthday is two weeks tomorrow.", True, d(2024, 6, 27), d(2024, 6, 28)),
        ("The sale ends a fortnight today.", True, d(2024, 6, 26), d(2024, 6, 27)),
        # ... and back from a day gone by
        ("I saw him a week yesterday.", False, d(2024, 6, 4), d(2024, 6, 5)),
        ("It started a week last Monday.", False, d(2024, 6, 3), d(2024, 6, 4)),
    ],
)
def test_a_count_from_a_day_with_no_word_between(
    text: str, future: bool, start: date, end: date
) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


@pytest.mark.parametrize(
    ("text", "future", "start"),
    [
        # an anniversary: the day itself, not a count from it
        ("It'll be two years on Friday since Dad died.", True, d(2024, 6, 14)),
        # "on" a day gone by: a count of the work done that day
        ("I worked two days on Saturday.", False, d(2024, 6, 8)),
    ],
)
def test_a_count_before_a_day_that_is_not_counted_from_it(
    text: str, future: bool, start: date
) -> None:
    found = one(text, prefer_future=future)
    assert found.text.lower().startswith("on")
    assert days(found)[0] == start


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Prices have risen for nine consecutive days.", d(2024, 6, 3), d(2024, 6, 12)),
        ("We've lived here for a whole year.", d(2023, 6, 12), d(2024, 6, 12)),
        ("I've kept it up for two solid months.", d(2024, 4, 12), d(2024, 6, 12)),
    ],
)
def test_a_word_between_a_count_and_its_unit(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


def test_the_first_week_is_that_of_the_event_told_before() -> None:
    found = one("For the first week I barely slept.", **told(d(2024, 5, 3), d(2024, 5, 4)))
    assert days(found) == (d(2024, 5, 3), d(2024, 5, 10))


def test_the_first_week_with_no_event_told_names_no_time() -> None:
    assert find_times("For the first week I barely slept.", WED) == []


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("I haven't seen her since the summer before last.", d(2022, 6, 1)),
        ("We've met every other week since spring.", d(2024, 3, 1)),
    ],
)
def test_since_a_counted_season_or_after_a_habit_runs_up_to_now(text: str, start: date) -> None:
    assert days(one(text)) == (start, d(2024, 6, 13))


@pytest.mark.parametrize(
    "text", ["I run on Tuesday and Thursday evenings.", "We swim on Monday, Wednesday mornings."]
)
def test_weekdays_before_a_plural_part_of_the_day_are_a_habit(text: str) -> None:
    assert find_times(text, WED) == []


def test_a_weekday_before_a_part_of_the_day_is_still_read() -> None:
    found = one("I ran on Tuesday evening.")
    assert days(found) == (d(2024, 6, 11), d(2024, 6, 12))


def test_a_word_that_starts_with_a_holiday_name_is_no_holiday() -> None:
    # "holiday" is not Holi: a holiday's name ends at a word's end
    assert find_times("We go on holiday soon.", WED) == []
