"""Forms the round-2 time-expression set's tune half found unread: British counted
weekdays ("Friday week", "a week on Saturday", "Monday before last"), a count after a
verb's "in" ("I moved in three weeks ago"), "the past year and a half", nights counted
from an event, chat spellings ("a cpl weeks", "4 mths", "Weds"), "10+ years", a hedged
year ("2015ish"), the parts of a season and "this spring" said once it is over. Each
case is a sentence written for this test, read on Wednesday 12 June 2024."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one, told

d = date


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        # a week after the coming Friday / Saturday; a week before the last Monday
        ("The rent is due Friday week.", True, d(2024, 6, 21), d(2024, 6, 22)),
        ("We fly out a week on Saturday.", True, d(2024, 6, 22), d(2024, 6, 23)),
        ("I saw him Monday before last.", False, d(2024, 6, 3), d(2024, 6, 4)),
        ("The house sold the March before last.", False, d(2023, 3, 1), d(2023, 4, 1)),
        # "in" belongs to "moved in": the count is back from the day said
        ("I moved in three weeks ago.", False, d(2024, 5, 22), d(2024, 5, 23)),
        (
            "I've been practising for the past year and a half.",
            False,
            d(2022, 12, 12),
            d(2024, 6, 13),
        ),
        ("it was a cpl weeks ago", False, d(2024, 5, 29), d(2024, 5, 30)),
        ("I sent it on Weds.", False, d(2024, 6, 5), d(2024, 6, 6)),
        ("I started the job 4 mths ago.", False, d(2024, 2, 12), d(2024, 2, 13)),
        ("I've worked here for 10+ years.", False, d(2014, 6, 12), d(2024, 6, 12)),
        ("We've lived here since 2015ish.", False, d(2015, 1, 1), d(2024, 6, 13)),
        # the parts of a season: its first, middle or last month
        ("It was freezing at the end of winter.", False, d(2024, 2, 1), d(2024, 3, 1)),
        ("I'll repaint it at the start of autumn.", True, d(2024, 9, 1), d(2024, 10, 1)),
        # "this spring", said in June in the past tense: the one just over
        ("This spring was so wet.", False, d(2024, 3, 1), d(2024, 6, 1)),
        ("This summer will be hot.", True, d(2024, 6, 1), d(2024, 9, 1)),
        ("This winter we're going skiing.", True, d(2024, 12, 1), d(2025, 3, 1)),
    ],
)
def test_a_round2_form_is_read(text: str, future: bool, start: date, end: date) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


def test_nights_count_from_the_event_told_before() -> None:
    found = one("Three nights later we flew home.", **told(d(2024, 6, 1), d(2024, 6, 2)))
    assert days(found) == (d(2024, 6, 4), d(2024, 6, 5))


def test_weds_in_lower_case_is_a_verb() -> None:
    assert find_times("The prince weds.", WED) == []


@pytest.mark.parametrize(
    "text", ["We meet on Friday weekends.", "I'll grab it on Friday, weeks ahead of the rush."]
)
def test_friday_then_a_week_word_is_no_friday_week(text: str) -> None:
    assert days(one(text, prefer_future=True)) == (d(2024, 6, 14), d(2024, 6, 15))
