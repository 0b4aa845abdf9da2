"""The time expressions of issue 31's second parser round: ordinal day words, weekday
abbreviations, days of a relative month, quarters, decades, month ranges, halves of a
unit, hours, parts of a relative unit ("early next month") and the weekends and weeks
said around "coming" and "past". Each case is a
sentence written for this test, resolved against a Saturday."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cognimem.text.temporal import find_times

# a Saturday, at noon
REF = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def span(text: str, reference: datetime = REF, *, future: bool = False) -> tuple[date, date]:
    found = find_times(text, reference, prefer_future=future)
    assert len(found) == 1, found
    assert found[0].end is not None
    return found[0].start.date(), found[0].end.date()


def d(year: int, month: int, day: int) -> date:
    return date(year, month, day)


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        # ordinal words for the day of a month
        ("We met on the third of March.", False, d(2024, 3, 3), d(2024, 3, 4)),
        ("It was March third, I think.", False, d(2024, 3, 3), d(2024, 3, 4)),
        ("Her party was on the twenty-first of February.", False, d(2024, 2, 21), d(2024, 2, 22)),
        ("Her party was on the twenty first of February.", False, d(2024, 2, 21), d(2024, 2, 22)),
        # weekday abbreviations beside a day number or after last / next
        ("The match was on Thu 13th.", False, d(2024, 6, 13), d(2024, 6, 14)),
        ("We went out on Sat the 8th.", False, d(2024, 6, 8), d(2024, 6, 9)),
        ("I saw her last Fri.", False, d(2024, 6, 14), d(2024, 6, 15)),
        ("Let's meet next tues.", True, d(2024, 6, 18), d(2024, 6, 19)),
        # a day of a month counted from this one
        ("Rent is due on the first of next month.", True, d(2024, 7, 1), d(2024, 7, 2)),
        ("I paid it on the 5th of last month.", False, d(2024, 5, 5), d(2024, 5, 6)),
        ("It came on the 20th of the previous month.", False, d(2024, 5, 20), d(2024, 5, 21)),
        ("The book club is the last Friday of the month.", True, d(2024, 6, 28), d(2024, 6, 29)),
        ("Start on the first Monday of next month.", True, d(2024, 7, 1), d(2024, 7, 2)),
        # ranges of days and of months
        ("We were in Rome May 3-7.", False, d(2024, 5, 3), d(2024, 5, 8)),
        ("The fair ran March 10 to 14, 2023.", False, d(2023, 3, 10), d(2023, 3, 15)),
        ("I was away from the 3rd to the 7th of May.", False, d(2024, 5, 3), d(2024, 5, 8)),
        ("I worked there from May to July.", False, d(2024, 5, 1), d(2024, 8, 1)),
        ("We rented it between June and August 2023.", False, d(2023, 6, 1), d(2023, 9, 1)),
        ("The lake froze from November to February.", False, d(2023, 11, 1), d(2024, 3, 1)),
        # quarters and decades
        ("Sales dipped in Q3 2023.", False, d(2023, 7, 1), d(2023, 10, 1)),
        ("Sales dipped in the third quarter.", False, d(2023, 7, 1), d(2023, 10, 1)),
        ("We launch in the third quarter.", True, d(2024, 7, 1), d(2024, 10, 1)),
        ("The first quarter of 2022 was slow.", False, d(2022, 1, 1), d(2022, 4, 1)),
        ("I grew up in the 90s.", False, d(1990, 1, 1), d(2000, 1, 1)),
        ("I grew up in the nineties.", False, d(1990, 1, 1), d(2000, 1, 1)),
        ("That song is from the '80s.", False, d(1980, 1, 1), d(1990, 1, 1)),
        ("That was the 1970s.", False, d(1970, 1, 1), d(1980, 1, 1)),
        # halves of a unit
        ("I quit half a year ago.", False, d(2023, 12, 15), d(2023, 12, 16)),
        ("We moved a year and a half ago.", False, d(2022, 12, 15), d(2022, 12, 16)),
        ("The exam is in two and a half weeks.", True, d(2024, 7, 2), d(2024, 7, 3)),
        # weeks and weekends around "coming" and "past"
        ("We are busy this coming weekend.", True, d(2024, 6, 22), d(2024, 6, 24)),
        ("We are away the weekend after next.", True, d(2024, 6, 29), d(2024, 7, 1)),
        ("It rained the past weekend.", False, d(2024, 6, 8), d(2024, 6, 10)),
        ("I'm off the upcoming week.", True, d(2024, 6, 17), d(2024, 6, 24)),
        ("Prices rise the coming month.", True, d(2024, 7, 1), d(2024, 8, 1)),
        ("See you next week Wednesday.", True, d(2024, 6, 19), d(2024, 6, 20)),
        ("I called last week Tuesday.", False, d(2024, 6, 4), d(2024, 6, 5)),
        # parts of a relative unit, and the day two away without "the"
        ("We move early next month.", True, d(2024, 7, 1), d(2024, 7, 11)),
        ("It opens late next year.", True, d(2025, 9, 1), d(2026, 1, 1)),
        ("I'm free mid next week.", True, d(2024, 6, 19), d(2024, 6, 22)),
        ("See you day after tomorrow.", True, d(2024, 6, 17), d(2024, 6, 18)),
        ("I saw her day before yesterday.", False, d(2024, 6, 13), d(2024, 6, 14)),
    ],
)
def test_the_forms_resolve_to_their_interval(
    text: str, future: bool, start: date, end: date
) -> None:
    assert span(text, future=future) == (start, end)


def test_hours_and_minutes_date_the_day_they_reach() -> None:
    late = datetime(2024, 6, 15, 23, 0, tzinfo=UTC)
    early = datetime(2024, 6, 15, 0, 30, tzinfo=UTC)
    assert span("I'll call you in 2 hours.", late, future=True) == (d(2024, 6, 16), d(2024, 6, 17))
    assert span("She left two hours ago.", early) == (d(2024, 6, 14), d(2024, 6, 15))
    assert span("Dinner is 30 minutes from now.", REF, future=True) == (
        d(2024, 6, 15),
        d(2024, 6, 16),
    )


@pytest.mark.parametrize(
    "text",
    [
        "The second may be harder.",  # "second may" is no date without "of"
        "I sat 3rd in the race.",  # lower-case "sat", "sun", "wed" are words
        "I last sat there in silence.",
        "She is in her thirties.",  # ages, not decades
        "I was in my 20s then.",
        "It took half a year.",  # a length, dated nowhere
        "I worked for two hours.",
    ],
)
def test_words_that_only_look_like_times_are_left_alone(text: str) -> None:
    assert find_times(text, REF) == []


@pytest.mark.parametrize(
    ("text", "future", "expected"),
    [
        ("I'll call you Wed.", True, (d(2024, 6, 19), d(2024, 6, 20))),
        ("See you Thurs!", True, (d(2024, 6, 20), d(2024, 6, 21))),
        ("It's due by fri, I think.", True, (d(2024, 6, 21), d(2024, 6, 22))),
        ("We met on Tues.", False, (d(2024, 6, 11), d(2024, 6, 12))),
    ],
)
def test_a_weekday_abbreviation_after_on_or_ending_a_clause_is_the_day(
    text: str, future: bool, expected: tuple[date, date]
) -> None:
    assert span(text, future=future) == expected


def test_a_lower_case_abbreviation_that_is_a_word_is_no_day() -> None:
    assert find_times("I'll call you wed.", REF, prefer_future=True) == []
    assert find_times("I sat on the sun lounger.", REF) == []


def test_a_holiday_before_last_or_after_next_skips_one() -> None:
    assert span("The Christmas before last was quiet.") == (d(2022, 12, 25), d(2022, 12, 26))
    assert span("the Easter after next", future=True) == (d(2026, 4, 5), d(2026, 4, 6))


@pytest.mark.parametrize(
    ("text", "future", "expected"),
    [
        ("Can't make it tmrw, sorry.", True, (d(2024, 6, 16), d(2024, 6, 17))),
        ("See you 2moro!", True, (d(2024, 6, 16), d(2024, 6, 17))),
        ("She called me yday.", False, (d(2024, 6, 14), d(2024, 6, 15))),
        ("Are you free tonite?", True, (d(2024, 6, 15), d(2024, 6, 16))),
        ("Let's do it the day after next.", True, (d(2024, 6, 17), d(2024, 6, 18))),
    ],
)
def test_chat_spellings_of_the_days_and_the_day_after_next(
    text: str, future: bool, expected: tuple[date, date]
) -> None:
    assert span(text, future=future) == expected


def test_a_month_abbreviation_alone_and_next_sat_are_times() -> None:
    assert span("Sept.") == (d(2023, 9, 1), d(2023, 10, 1))
    assert span("Feb", future=True) == (d(2025, 2, 1), d(2025, 3, 1))
    assert span("next sat", future=True) == (d(2024, 6, 22), d(2024, 6, 23))
    assert find_times("The man who last sat here left.", REF) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2019 was a rough year for us.", (d(2019, 1, 1), d(2020, 1, 1))),
        ("It was 1998, I think.", (d(1998, 1, 1), d(1999, 1, 1))),
        ("I think it was 2011 or so.", (d(2011, 1, 1), d(2012, 1, 1))),
        ("The invoice is dated 15-Mar-2024.", (d(2024, 3, 15), d(2024, 3, 16))),
        ("It expires 03/Jun/2027.", (d(2027, 6, 3), d(2027, 6, 4))),
    ],
)
def test_a_bare_year_beside_was_and_a_date_written_with_dashes(
    text: str, expected: tuple[date, date]
) -> None:
    assert span(text) == expected


def test_a_number_that_is_no_year_stays_unread() -> None:
    assert find_times("About 2000 people came.", REF) == []
    assert find_times("The score was 2019 points.", REF) == []


@pytest.mark.parametrize(
    ("text", "future", "start", "end"),
    [
        # a month a plan is set for (issue 31's plans): after "planned / booked / scheduled"
        ("The wedding is planned for July.", True, d(2024, 7, 1), d(2024, 8, 1)),
        ("The trip was booked for March.", False, d(2024, 3, 1), d(2024, 4, 1)),
        ("Surgery is scheduled for Sept.", True, d(2024, 9, 1), d(2024, 10, 1)),
        # a plan in the present is ahead whatever the caller's tense; one in the past not
        ("The wedding is planned for March.", False, d(2025, 3, 1), d(2025, 4, 1)),
        ("We're booked for April, sadly.", False, d(2025, 4, 1), d(2025, 5, 1)),
        ("The party was planned for May.", False, d(2024, 5, 1), d(2024, 6, 1)),
        ("We had booked for March.", False, d(2024, 3, 1), d(2024, 4, 1)),
    ],
)
def test_a_month_a_plan_is_set_for(text: str, future: bool, start: date, end: date) -> None:
    assert span(text, future=future) == (start, end)


def test_a_month_after_for_alone_is_no_time() -> None:
    # "June" is a name as often: "for" alone does not make it a month
    assert find_times("I bought a gift for June.", REF) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a year that qualifies a noun after a determiner
        ("The 2018 season was our best.", (d(2018, 1, 1), d(2019, 1, 1))),
        ("We still talk about our 2016 road trip.", (d(2016, 1, 1), d(2017, 1, 1))),
        ("That 2019 concert was loud.", (d(2019, 1, 1), d(2020, 1, 1))),
        # a year hedged at a clause's end, or after "in like"
        ("That was ages ago, maybe 2014.", (d(2014, 1, 1), d(2015, 1, 1))),
        ("It was like 2010 or so.", (d(2010, 1, 1), d(2011, 1, 1))),
        ("That was back in like 2012 when we met.", (d(2012, 1, 1), d(2013, 1, 1))),
    ],
)
def test_a_year_before_a_noun_or_hedged_is_that_year(
    text: str, expected: tuple[date, date]
) -> None:
    assert span(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The 2000 people in the hall cheered.",
        "Our 2000 points were not enough.",
        "It cost like 2000 dollars.",
        "Like 2000 people showed up.",
        "My 2000 calories today were too few.",
    ],
)
def test_a_count_after_a_determiner_or_hedge_is_no_year(text: str) -> None:
    assert [t for t in find_times(text, REF) if t.start.year in (2000,)] == []


@pytest.mark.parametrize(
    "text",
    [
        "When did Ravi buy the 1964 Telecaster?",
        "I still drive my 1989 Volvo to work.",
        "She restored a 1972 Beetle.",
        "Their 2011 Passat broke down again.",
    ],
)
def test_a_year_before_a_name_is_a_model_not_a_time(text: str) -> None:
    assert find_times(text, REF) == []


def test_a_year_before_a_noun_after_a_name_still_dates() -> None:
    assert span("Rosa loved our 2018 holiday.") == (d(2018, 1, 1), d(2019, 1, 1))


def test_a_year_before_a_range_word_is_the_range() -> None:
    assert span("the 2019 to 2021 stretch") == (d(2019, 1, 1), d(2022, 1, 1))


def test_a_compound_ordinal_alone_is_a_day_but_a_short_one_is_not() -> None:
    assert span("twenty-second", future=True) == (d(2024, 6, 22), d(2024, 6, 23))
    assert span("the twenty-eighth", future=True) == (d(2024, 6, 28), d(2024, 6, 29))
    assert span("Twenty-first.") == (d(2024, 5, 21), d(2024, 5, 22))
    assert find_times("second", REF) == []
    assert find_times("Third.", REF) == []


@pytest.mark.parametrize(
    ("text", "future", "expected"),
    [
        # units written short, as in chat
        ("I saw her 2 wks ago.", False, (d(2024, 6, 1), d(2024, 6, 2))),
        ("We moved 3 mos ago.", False, (d(2024, 3, 15), d(2024, 3, 16))),
        ("I quit 2 yrs back.", False, (d(2022, 6, 15), d(2022, 6, 16))),
        ("It was 1 yr ago.", False, (d(2023, 6, 15), d(2023, 6, 16))),
        ("See you in 3 wks!", True, (d(2024, 7, 6), d(2024, 7, 7))),
        ("I called 3 hrs ago.", False, (d(2024, 6, 15), d(2024, 6, 16))),
        ("We've been together for 5 yrs.", False, (d(2019, 6, 15), d(2024, 6, 15))),
    ],
)
def test_a_unit_written_short_is_the_unit(
    text: str, future: bool, expected: tuple[date, date]
) -> None:
    assert span(text, future=future) == expected


def test_a_short_unit_inside_a_longer_word_is_no_unit() -> None:
    assert find_times("We need 2 more chairs.", REF) == []
    assert find_times("I bought 2 yrsa rugs.", REF) == []


def _numeric(text: str, future: bool = False) -> tuple[date, date]:
    found = find_times(text, REF, prefer_future=future, date_order="month_first")
    assert len(found) == 1, found
    assert found[0].end is not None
    return found[0].start.date(), found[0].end.date()


@pytest.mark.parametrize(
    ("text", "future", "expected"),
    [
        # a numeric date without a year after before / after / around / through / till
        ("The report is due before 10/15.", True, (d(2024, 10, 15), d(2024, 10, 16))),
        ("She left right after 5/4.", False, (d(2024, 5, 4), d(2024, 5, 5))),
        ("I think it was around 3/20.", False, (d(2024, 3, 20), d(2024, 3, 21))),
        ("We'll stay through 12/2.", True, (d(2024, 12, 2), d(2024, 12, 3))),
        ("I'm off till 7/5.", True, (d(2024, 7, 5), d(2024, 7, 6))),
        # the week of one: that ISO week
        ("The week of 6/26 works.", True, (d(2024, 6, 24), d(2024, 7, 1))),
        # a year-first date written with dots
        ("The invoice is dated 2024.04.03.", False, (d(2024, 4, 3), d(2024, 4, 4))),
    ],
)
def test_a_numeric_date_after_more_words(
    text: str, future: bool, expected: tuple[date, date]
) -> None:
    assert _numeric(text, future) == expected


def test_a_fraction_or_a_rating_after_those_words_is_no_date() -> None:
    assert find_times("Add it after 1/2 cup of flour.", REF, date_order="month_first") == []
    assert find_times("Fill it around 3/4 of the way.", REF, date_order="month_first") == []
    assert find_times("Version 2024.04.03.1 is out.", REF) == []


@pytest.mark.parametrize(
    ("text", "future", "expected"),
    [
        # a range of numeric dates, joined by a dash or by "between ... and"
        ("I'm away 6/18-6/20.", True, (d(2024, 6, 18), d(2024, 6, 21))),
        ("We'll be there 7/3 - 7/5.", True, (d(2024, 7, 3), d(2024, 7, 6))),
        ("I was out between 5/4 and 5/8.", False, (d(2024, 5, 4), d(2024, 5, 9))),
        # a numeric date after a weekday's abbreviation
        ("Mon 6/24 works for me.", True, (d(2024, 6, 24), d(2024, 6, 25))),
        ("We met up Fri 6/14.", False, (d(2024, 6, 14), d(2024, 6, 15))),
        # a two-digit year between dashes
        ("Her birthday is 10-31-74.", False, (d(1974, 10, 31), d(1974, 11, 1))),
    ],
)
def test_a_numeric_date_in_a_range_beside_a_weekday_or_with_a_short_year(
    text: str, future: bool, expected: tuple[date, date]
) -> None:
    assert _numeric(text, future) == expected


def test_numbers_that_only_look_like_such_dates_are_left_alone() -> None:
    for text in ("I sat 2/3 of the way back.", "Mix 1/2-3/4 cup.", "I'd rate it 7/10 and 8/10."):
        assert find_times(text, REF, date_order="month_first") == [], text
    assert find_times("Version 1.2.24 is out.", REF, date_order="month_first") == []
    assert find_times("Call 555-12-34 now.", REF, date_order="month_first") == []
