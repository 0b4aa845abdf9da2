"""Habits as the round-7 time-expression set's tune half asked: a time that opens its
clause before the subject and "always" / "usually" ("On Boxing Day we always go for a
walk") is a habit's, and so is a time just before a habit ("the first weekend of December
every year", "the 1st of each month"); neither is dated. Each case is a sentence written
for this test, read on Wednesday 12 June 2024."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, one

d = date


@pytest.mark.parametrize(
    "text",
    [
        "On Boxing Day we always go for a long walk.",
        "At Christmas my mum always cooks far too much.",
        "In the summer, we usually rent a boat.",
        "We always have a barbecue at the weekend.",
    ],
)
def test_a_time_opening_a_clause_with_always_or_usually_is_a_habit(text: str) -> None:
    assert find_times(text, WED) == []


@pytest.mark.parametrize(
    "text",
    [
        "We go to the market on the first weekend of December every year.",
        "The rent is paid on the 1st of each month.",
        "She visits in June every year.",
    ],
)
def test_a_time_just_before_a_habit_is_a_habit(text: str) -> None:
    assert find_times(text, WED) == []


@pytest.mark.parametrize(
    ("text", "start"),
    [
        # "always" later in another clause, or after "and": the time is dated
        ("We met on Friday and I have always liked her.", d(2024, 6, 7)),
        ("I saw her on Friday, she always looks tired.", d(2024, 6, 7)),
        # "always" after have / has / had tells of no habit
        ("I have always wanted to go to Japan in May.", d(2024, 5, 1)),
        ("She has always said she met him in March.", d(2024, 3, 1)),
        # told from today or with a year, before "always": dated
        ("Last Christmas we always stayed in.", d(2023, 12, 25)),
        ("In 2019 we always went camping.", d(2019, 1, 1)),
        # a date before "every" that starts no habit of its own: dated
        ("On Friday everyone left early.", d(2024, 6, 7)),
    ],
)
def test_a_time_outside_the_habit_is_dated(text: str, start: date) -> None:
    assert one(text).start.date() == start
