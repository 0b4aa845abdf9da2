"""How a relative time is composed, as the round-5 time-expression set's tune half and
the forms written around it asked: a hedge, "another" or a filler word before a count
("just over a week ago", "in another month", "a good month ago"); a holiday counted as a
weekday is ("two Thanksgivings ago"); a date after "N units ago" read in the period
that far back ("two years ago in August"); a time told inside a period told from today
("last week on Friday", "next year around Easter", "Wednesday of next week"); "since
the new year"; a span from a day still ahead ("for ten days from next Monday"); and
"have" after a modal, which is not the perfect ("we'll have the party in three weeks").
Each case is a sentence written for this test, read on Wednesday 12 June 2024."""

from __future__ import annotations

from datetime import date

import pytest

from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one

d = date


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        # a hedge, "another" or a filler word before the count
        ("We moved in just over a week ago.", False, d(2024, 6, 5), d(2024, 6, 6)),
        ("The results arrive in under a month.", True, d(2024, 7, 12), d(2024, 7, 13)),
        ("She left a good month ago.", False, d(2024, 5, 12), d(2024, 5, 13)),
        ("He retired some three weeks ago.", False, d(2024, 5, 22), d(2024, 5, 23)),
        ("I'll be back in another fortnight.", True, d(2024, 6, 26), d(2024, 6, 27)),
        ("The cast comes off in another month.", True, d(2024, 7, 12), d(2024, 7, 13)),
        # "the other night" as "the other day"; "on this day last year"
        ("The other night we saw a fox.", False, d(2024, 6, 5), d(2024, 6, 12)),
        ("On this day last year we got married.", False, d(2023, 6, 12), d(2023, 6, 13)),
        # "earlier / later on this year"; "earlier last month" as "early last month"
        ("It should calm down later on this year.", True, d(2024, 6, 13), d(2025, 1, 1)),
        ("We painted the hall earlier last month.", False, d(2024, 5, 1), d(2024, 5, 11)),
        ("The builders come later next month.", True, d(2024, 7, 21), d(2024, 8, 1)),
    ],
)
def test_a_count_with_a_hedge_and_the_words_around_a_unit(
    text: str, future: bool, start: date, end: date
) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


@pytest.mark.parametrize(
    ("text", "future", "start"),
    [
        ("We hosted two Thanksgivings ago.", False, d(2022, 11, 24)),
        ("Three Easters ago it snowed.", False, d(2022, 4, 17)),
        ("We'll be there two Christmases from now.", True, d(2025, 12, 25)),
    ],
)
def test_a_holiday_is_counted_as_a_weekday_is(text: str, future: bool, start: date) -> None:
    assert days(one(text, prefer_future=future)) == (
        start,
        start.fromordinal(start.toordinal() + 1),
    )


def test_a_plural_holiday_with_no_count_names_no_time() -> None:
    assert find_times("I love Christmases.", WED) == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("We met a year ago in March.", d(2023, 3, 1), d(2023, 4, 1)),
        ("We moved two years ago in August.", d(2022, 8, 1), d(2022, 9, 1)),
        ("We married a year ago last Christmas.", d(2022, 12, 25), d(2022, 12, 26)),
        ("We went a year ago at Easter.", d(2023, 4, 9), d(2023, 4, 10)),
    ],
)
def test_a_date_after_a_count_back_is_the_one_of_that_time(
    text: str, start: date, end: date
) -> None:
    assert days(one(text)) == (start, end)


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        ("I saw her last week on Friday.", False, d(2024, 6, 7), d(2024, 6, 8)),
        ("The party is on Saturday next week.", True, d(2024, 6, 22), d(2024, 6, 23)),
        ("We moved last year in March.", False, d(2023, 3, 1), d(2023, 4, 1)),
        ("The bill came last month on the 3rd.", False, d(2024, 5, 3), d(2024, 5, 4)),
        ("We'll go next year around Easter.", True, d(2025, 4, 20), d(2025, 4, 21)),
        ("It starts on the Wednesday of next week.", True, d(2024, 6, 19), d(2024, 6, 20)),
        ("It ended last week's Sunday.", False, d(2024, 6, 9), d(2024, 6, 10)),
    ],
)
def test_a_time_told_inside_a_period_told_from_today(
    text: str, future: bool, start: date, end: date
) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


def test_a_period_told_from_today_beside_another_stays_apart() -> None:
    found = find_times("I was in Paris last month in the rain.", WED)
    assert [(m.text, *days(m)) for m in found] == [("last month", d(2024, 5, 1), d(2024, 6, 1))]
    found = find_times("He'll be six months old the month after next.", WED, prefer_future=True)
    assert ("the month after next", d(2024, 8, 1), d(2024, 9, 1)) in [
        (m.text, *days(m)) for m in found
    ]


def test_since_the_new_year_runs_up_to_the_day_said() -> None:
    assert days(one("I've felt better since the new year.")) == (d(2024, 1, 1), d(2024, 6, 13))


def test_a_span_runs_from_a_day_told_from_today_only_when_it_is_ahead() -> None:
    said = one("The road will close for ten days from next Monday.", prefer_future=True)
    assert days(said) == (d(2024, 6, 17), d(2024, 6, 28))
    assert said.text.startswith("for ten days from next Monday")


def test_have_after_a_modal_is_not_the_perfect() -> None:
    party = one("We'll have the party in three weeks' time.", prefer_future=True)
    assert days(party) == (d(2024, 7, 3), d(2024, 7, 4))
    drink = one("I haven't had a drink in three weeks.")
    assert days(drink) == (d(2024, 5, 22), d(2024, 6, 13))


@pytest.mark.parametrize(
    ("text", "future", "said", "start", "end"),
    [
        ("see u nxt week!", True, "nxt week", d(2024, 6, 17), d(2024, 6, 24)),
        ("we're off this wknd", True, "this wknd", d(2024, 6, 15), d(2024, 6, 17)),
        ("moved in lst yr", False, "lst yr", d(2023, 1, 1), d(2024, 1, 1)),
        ("got the job 3wks ago", False, "3wks ago", d(2024, 5, 22), d(2024, 5, 23)),
        ("back in a fortnite", True, "in a fortnite", d(2024, 6, 26), d(2024, 6, 27)),
        ("c u tmrw at the gym", True, "tmrw", d(2024, 6, 13), d(2024, 6, 14)),
    ],
)
def test_chat_spellings_are_read_as_the_words_and_keep_their_span(
    text: str, future: bool, said: str, start: date, end: date
) -> None:
    mention = one(text, prefer_future=future)
    assert (mention.text, *days(mention)) == (said, start, end)
    assert text[slice(*mention.span)] == said


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        ("We went there last year but one.", False, d(2022, 1, 1), d(2023, 1, 1)),
        ("The boiler gets fixed next week but one.", True, d(2024, 6, 24), d(2024, 7, 1)),
        # "before last" followed by a day is a count from that day
        ("I paid a week before last Friday.", False, d(2024, 5, 31), d(2024, 6, 1)),
    ],
)
def test_but_one_is_one_unit_further(text: str, future: bool, start: date, end: date) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        # a count from a period told from today moves the period
        ("The lease ends a year from next month.", True, d(2025, 7, 1), d(2025, 8, 1)),
        ("We'll go back a year from this summer.", True, d(2025, 6, 1), d(2025, 9, 1)),
        ("The match is a week after next weekend.", True, d(2024, 6, 29), d(2024, 7, 1)),
        ("We went a year before last summer.", False, d(2022, 6, 1), d(2022, 9, 1)),
        # a unit with no count: that unit beside it
        ("I paid the day before last weekend.", False, d(2024, 6, 7), d(2024, 6, 8)),
        ("It opens the week after next month.", True, d(2024, 8, 1), d(2024, 8, 8)),
    ],
)
def test_a_count_from_a_period_told_from_today(
    text: str, future: bool, start: date, end: date
) -> None:
    assert days(one(text, prefer_future=future)) == (start, end)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # the first week is the first Monday-to-Sunday week with four days in the month
        ("We start the first week of November.", d(2024, 11, 4), d(2024, 11, 11)),
        ("It was hectic the second week of March.", d(2024, 3, 11), d(2024, 3, 18)),
        ("I'm off the first week of May.", d(2024, 4, 29), d(2024, 5, 6)),
    ],
)
def test_a_numbered_week_of_a_month(text: str, start: date, end: date) -> None:
    assert days(one(text, prefer_future=text.startswith("We"))) == (start, end)


def test_a_span_counted_back_runs_up_to_now_when_its_clause_is_in_the_perfect() -> None:
    after = one("Over the last couple of years I've moved three times.")
    assert days(after) == (d(2022, 6, 12), d(2024, 6, 13))
    before = one("I moved twice over the last couple of years.")
    assert days(before) == (d(2022, 1, 1), d(2024, 1, 1))
