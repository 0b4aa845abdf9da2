"""Times told from another event, habits and holidays, as the round-6 time-expression
set's tune half asked: "two weekends later" (weekends counted from the event's day),
"a year to the day after that"; "just before Christmas" (the week before it); "since
Jan" (a month, not a name, before a subject or a stop); a time in a clause with
"usually" is a habit's (no date). Each case is a sentence written for this test, read
on Wednesday 12 June 2024 unless it says otherwise."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one, told

d = date
# an event told before: Saturday 4 May 2024
SAT = told(d(2024, 5, 4), d(2024, 5, 5))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # the event's own weekend is not counted; the next one is the first
        ("Two weekends later we went camping.", d(2024, 5, 18), d(2024, 5, 20)),
        ("A weekend after the match we rested.", d(2024, 5, 11), d(2024, 5, 13)),
        ("Three weekends before that we had moved.", d(2024, 4, 13), d(2024, 4, 15)),
        # "to the day": the same date that many units on
        ("A year to the day after that we went back.", d(2025, 5, 4), d(2025, 5, 5)),
        ("Six months to the day after the fire it reopened.", d(2024, 11, 4), d(2024, 11, 5)),
    ],
)
def test_weekends_and_to_the_day_counted_from_an_event(text: str, start: date, end: date) -> None:
    assert days(one(text, **SAT)) == (start, end)


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        ("The shop closed just before Christmas.", False, d(2023, 12, 18), d(2023, 12, 25)),
        ("We'll decorate right before Easter.", True, d(2025, 4, 13), d(2025, 4, 20)),
        ("We met just after New Year.", False, d(2024, 1, 2), d(2024, 1, 9)),
        # without "just" the holiday itself
        ("The shop closed before Christmas.", False, d(2023, 12, 25), d(2023, 12, 26)),
    ],
)
def test_just_before_or_after_a_holiday_is_the_week_beside_it(
    text: str, future: bool, start: date, end: date
) -> None:
    found = one(text, prefer_future=future)
    assert days(found) == (start, end)
    assert found.approximate == ("just" in text or "right" in text)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("Since Jan I've been swimming.", d(2024, 1, 1)),
        ("Been swimming since Jan and loving it.", d(2024, 1, 1)),
        ("We last spoke in Jan.", d(2024, 1, 1)),
    ],
)
def test_jan_is_a_month_before_a_subject_or_a_stop(text: str, start: date) -> None:
    assert one(text).start.date() == start


@pytest.mark.parametrize(
    "text",
    ["I've known her since Jan introduced us.", "We've been friends since Jan and I met."],
)
def test_jan_before_a_verb_or_and_a_subject_is_a_name(text: str) -> None:
    assert find_times(text, WED) == []


@pytest.mark.parametrize(
    "text",
    [
        "I usually skip the gym at the weekend.",
        "We normally cut the hedge at the end of August.",
        "They tend to visit in the spring.",
    ],
)
def test_a_time_in_a_clause_with_usually_is_a_habit(text: str) -> None:
    assert find_times(text, WED) == []


@pytest.mark.parametrize(
    ("text", "start"),
    [
        # told from today or in another clause: dated
        ("We usually go in May, but last May we stayed home.", d(2024, 5, 1)),
        ("I usually run, but at the weekend I rested.", d(2024, 6, 8)),
        ("We usually travel, though in 2019 we stayed put.", d(2019, 1, 1)),
    ],
)
def test_a_time_told_from_today_or_outside_the_habit_is_dated(text: str, start: date) -> None:
    assert one(text).start.date() == start


def test_ever_since_ending_a_clause_runs_from_the_event_told_before() -> None:
    found = one("I've felt old ever since.", **SAT)
    assert days(found) == (d(2024, 5, 4), d(2024, 6, 13))


def test_ever_since_with_no_event_told_names_no_time() -> None:
    assert find_times("I've felt old ever since.", WED) == []
