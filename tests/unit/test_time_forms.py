"""Time expressions read since the frozen set's tune half was scored: lunar holidays,
counts from a holiday, parts of years and decades, windows inside the current unit,
counted weekdays ahead, numeric dates with dots, and times told back from an earlier
event, in sentences written for these tests."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cognimem.text.holidays import holiday_days
from cognimem.text.temporal import find_times
from tests.unit.time_reading import WED, days, one


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("We fasted through Ramadan 2023.", date(2023, 3, 23), date(2023, 4, 21)),
        ("We lit the candles for Hanukkah 2022.", date(2022, 12, 19), date(2022, 12, 27)),
        ("The seder was at Passover 2024.", date(2024, 4, 23), date(2024, 5, 1)),
        ("Grandma visited for Diwali 2023.", date(2023, 11, 12), date(2023, 11, 13)),
        ("We had dumplings at Chinese New Year.", date(2024, 2, 10), date(2024, 2, 11)),
        ("I fasted on Yom Kippur last year.", date(2023, 9, 25), date(2023, 9, 26)),
        ("The family met for Eid al-Fitr.", date(2024, 4, 10), date(2024, 4, 11)),
        ("We were in Cairo during Eid ul Adha 2019.", date(2019, 8, 11), date(2019, 8, 12)),
        ("We went to synagogue for Rosh Hashanah 2020.", date(2020, 9, 19), date(2020, 9, 21)),
    ],
)
def test_holidays_of_lunar_calendars_come_from_the_table(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


def test_a_lunar_holiday_outside_the_table_names_no_time() -> None:
    assert holiday_days("Diwali", 2070) == []
    assert find_times("at Diwali 2070", WED) == []


@pytest.mark.parametrize(
    ("text", "future", "day"),
    [
        # the count, not the holiday, falls on the side the tense says
        ("a year after Christmas", True, date(2024, 12, 25)),
        ("one year from Christmas", True, date(2024, 12, 25)),
        ("three days after Easter", False, date(2024, 4, 3)),
        ("two weeks before Christmas", True, date(2024, 12, 11)),
        ("two weeks after Christmas", False, date(2024, 1, 8)),
    ],
)
def test_a_count_from_a_holiday_is_one_day(text: str, future: bool, day: date) -> None:
    found = one(text, prefer_future=future)
    assert days(found) == (day, date.fromordinal(day.toordinal() + 1))
    assert found.anchor is not None


@pytest.mark.parametrize(
    ("text", "start", "end", "approximate"),
    [
        ("in early 2019", date(2019, 1, 1), date(2019, 4, 1), True),
        ("around mid-2020", date(2020, 5, 1), date(2020, 9, 1), True),
        ("late 2019", date(2019, 9, 1), date(2020, 1, 1), True),
        ("in 2019", date(2019, 1, 1), date(2020, 1, 1), False),
        ("in the early 2000s", date(2000, 1, 1), date(2004, 1, 1), True),
        ("the mid-90s", date(1993, 1, 1), date(1997, 1, 1), True),
        ("the late nineties", date(1996, 1, 1), date(2000, 1, 1), True),
        ("back in the 1980s", date(1980, 1, 1), date(1990, 1, 1), False),
    ],
)
def test_parts_of_a_year_and_of_a_decade(
    text: str, start: date, end: date, approximate: bool
) -> None:
    found = one(text)
    assert (*days(found), found.approximate) == (start, end, approximate)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("I saw her earlier this week.", date(2024, 6, 10), date(2024, 6, 13)),
        ("earlier this month", date(2024, 6, 1), date(2024, 6, 13)),
        ("earlier this year", date(2024, 1, 1), date(2024, 6, 13)),
        ("We'll meet later this week.", date(2024, 6, 13), date(2024, 6, 17)),
        ("later in the year", date(2024, 6, 13), date(2025, 1, 1)),
        ("this time last year", date(2023, 6, 12), date(2023, 6, 13)),
        ("around this time next month", date(2024, 7, 12), date(2024, 7, 13)),
        ("within two weeks", date(2024, 6, 12), date(2024, 6, 26)),
        ("in the coming days", date(2024, 6, 12), date(2024, 6, 15)),
        ("in about a week", date(2024, 6, 19), date(2024, 6, 20)),
        ("two nights ago", date(2024, 6, 10), date(2024, 6, 11)),
        ("the night before last", date(2024, 6, 10), date(2024, 6, 11)),
        ("I'm at the gym right now.", date(2024, 6, 12), date(2024, 6, 13)),
        ("now", date(2024, 6, 12), date(2024, 6, 13)),
        ("3 Fridays from now", date(2024, 6, 28), date(2024, 6, 29)),
        ("two Tuesdays back", date(2024, 6, 4), date(2024, 6, 5)),
    ],
)
def test_windows_and_counts_from_the_day_said(text: str, start: date, end: date) -> None:
    assert days(one(text, prefer_future=True)) == (start, end)


def test_now_inside_a_sentence_is_no_time() -> None:
    assert find_times("I now work from home.", WED) == []


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("sun", date(2024, 6, 16)),
        ("thurs.", date(2024, 6, 13)),
        ("the 21st", date(2024, 6, 21)),
        ("3rd", date(2024, 7, 3)),
        ("Friday 21st June", date(2024, 6, 21)),
        ("Sat, the 6th of July", date(2024, 7, 6)),
    ],
)
def test_a_weekday_or_a_day_alone_or_beside_its_month(text: str, day: date) -> None:
    assert days(one(text, prefer_future=True))[0] == day


def test_abbreviations_and_day_numbers_inside_a_sentence_stay_words() -> None:
    assert find_times("We sat in the sun for 3rd place.", WED) == []


@pytest.mark.parametrize(
    ("text", "order", "day"),
    [
        ("on 12.06.2024", "day_first", date(2024, 6, 12)),
        ("on 06-12-2024", "month_first", date(2024, 6, 12)),
        ("2024/06/12", None, date(2024, 6, 12)),
    ],
)
def test_numeric_dates_with_dots_dashes_or_the_year_first(
    text: str, order: str | None, day: date
) -> None:
    assert days(one(text, date_order=order))[0] == day


def test_a_version_number_is_no_date() -> None:
    assert find_times("upgrade to v1.2.2024 now", WED, date_order="day_first") == []


# a Friday the conversation told of before
FRI = (datetime(2024, 5, 3, tzinfo=UTC), datetime(2024, 5, 4, tzinfo=UTC))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("The day before I packed.", date(2024, 5, 2), date(2024, 5, 3)),
        ("The previous day was awful.", date(2024, 5, 2), date(2024, 5, 3)),
        ("Two days prior we argued.", date(2024, 5, 1), date(2024, 5, 2)),
        ("A month earlier she had left.", date(2024, 4, 3), date(2024, 4, 4)),
        ("The week before was calm.", date(2024, 4, 22), date(2024, 4, 29)),
        ("The weekend before we shopped.", date(2024, 4, 27), date(2024, 4, 29)),
        ("That evening we ate out.", date(2024, 5, 3), date(2024, 5, 4)),
        ("That same day he called.", date(2024, 5, 3), date(2024, 5, 4)),
        ("That weekend we hiked.", date(2024, 5, 4), date(2024, 5, 6)),
        ("The year before we lived in Leeds.", date(2023, 1, 1), date(2024, 1, 1)),
    ],
)
def test_times_told_back_from_an_earlier_event(text: str, start: date, end: date) -> None:
    found = one(text, after=FRI)
    assert days(found) == (start, end)
    assert found.anchor == FRI


def test_times_told_back_with_no_event_name_no_date() -> None:
    for text in ("The day before I packed.", "That evening we ate out.", "A month earlier."):
        assert find_times(text, WED) == []


def test_a_duration_before_an_event_stays_a_duration() -> None:
    found = one("I smoked for twenty years before that.", after=FRI)
    assert days(found) == (date(2004, 5, 3), date(2024, 5, 3))


@pytest.mark.parametrize(
    "text",
    [
        "I pay rent on the 1st of each month.",
        "We meet every first Monday of the month.",
        "We meet on the first Monday of every month.",
        "Every year in June we go to Cornwall.",
        "The bins go out weekly on Tuesday.",
    ],
)
def test_habits_are_not_dated(text: str) -> None:
    assert find_times(text, WED) == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("I've been playing guitar for a decade.", date(2014, 6, 12), date(2024, 6, 12)),
        ("I've been running for about a year and a half.", date(2022, 12, 12), date(2024, 6, 12)),
        ("I've been vegan for half a year.", date(2023, 12, 12), date(2024, 6, 12)),
        ("I've been here for a little over two years.", date(2022, 6, 12), date(2024, 6, 12)),
        ("I haven't smoked in three years.", date(2021, 6, 12), date(2024, 6, 13)),
        ("It's been two years since I quit.", date(2022, 6, 12), date(2024, 6, 13)),
        ("I've been there since the spring.", date(2024, 3, 1), date(2024, 6, 13)),
        ("I lived in Rome from 2015 until 2018.", date(2015, 1, 1), date(2019, 1, 1)),
        ("I lived there between 2010 and 2014.", date(2010, 1, 1), date(2015, 1, 1)),
        ("We stayed from Feb to April.", date(2024, 2, 1), date(2024, 5, 1)),
        ("I was there from Monday till Wednesday.", date(2024, 6, 10), date(2024, 6, 13)),
        ("between March 3 and March 5", date(2024, 3, 3), date(2024, 3, 6)),
        ("I'm off from the 3rd to the 10th.", date(2024, 6, 3), date(2024, 6, 11)),
        ("the end of March 2014", date(2014, 3, 21), date(2014, 4, 1)),
        ("since March 3", date(2024, 3, 3), date(2024, 6, 13)),
        ("February.", date(2024, 2, 1), date(2024, 3, 1)),
        ("2014", date(2014, 1, 1), date(2015, 1, 1)),
        ("in the year 2014", date(2014, 1, 1), date(2015, 1, 1)),
    ],
)
def test_spans_and_ranges(text: str, start: date, end: date) -> None:
    assert days(one(text)) == (start, end)


def test_a_lone_year_or_month_inside_a_sentence_or_a_day_before_a_noun_is_no_time() -> None:
    assert find_times("I may go.", WED) == []
    assert find_times("welcome to the 21st century", WED) == []
    assert find_times("it costs 2014 pounds", WED) == []


# a Saturday the conversation told of before
SAT = (datetime(2022, 10, 1, tzinfo=UTC), datetime(2022, 10, 2, tzinfo=UTC))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("That Saturday we had a party.", date(2022, 10, 1)),
        ("On the Sunday we rested.", date(2022, 10, 2)),
        ("The Monday after, I went back to work.", date(2022, 10, 3)),
        ("The following Tuesday the landlord came.", date(2022, 10, 4)),
        ("The Friday before we packed.", date(2022, 9, 30)),
        ("Three days after the move the boiler broke.", date(2022, 10, 4)),
        ("The same week my sister visited.", date(2022, 9, 26)),
    ],
)
def test_weekdays_and_counts_told_from_an_earlier_event(text: str, day: date) -> None:
    found = one(text, datetime(2022, 10, 17, tzinfo=UTC), after=SAT)
    assert days(found)[0] == day
    assert found.anchor == SAT


def test_since_then_runs_from_the_event_to_the_day_said() -> None:
    found = one("Since then it's been great.", datetime(2022, 10, 17, tzinfo=UTC), after=SAT)
    assert days(found) == (date(2022, 10, 1), date(2022, 10, 18))


def test_a_weekday_with_no_event_before_is_counted_from_the_day_said() -> None:
    assert days(one("On the Sunday we rested.", datetime(2022, 10, 17, tzinfo=UTC))) == (
        date(2022, 10, 16),
        date(2022, 10, 17),
    )


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("memorial day weekend", date(2025, 5, 24), date(2025, 5, 27)),
        ("over Thanksgiving weekend", date(2024, 11, 28), date(2024, 12, 2)),
        ("Easter weekend", date(2025, 4, 19), date(2025, 4, 21)),
        ("at Christmas weekend", date(2024, 12, 21), date(2024, 12, 23)),
        ("since Lent", date(2025, 3, 5), date(2025, 4, 20)),
        ("on Mardi Gras", date(2025, 3, 4), date(2025, 3, 5)),
        ("Columbus Day", date(2024, 10, 14), date(2024, 10, 15)),
        ("for Juneteenth", date(2024, 6, 19), date(2024, 6, 20)),
        ("at Holi 2020", date(2020, 3, 10), date(2020, 3, 11)),
        ("during Sukkot 2023", date(2023, 9, 30), date(2023, 10, 7)),
        ("this past Monday", date(2024, 6, 10), date(2024, 6, 11)),
        ("the upcoming Friday", date(2024, 6, 14), date(2024, 6, 15)),
        ("coming weekend", date(2024, 6, 15), date(2024, 6, 17)),
        ("weekend after next", date(2024, 6, 29), date(2024, 7, 1)),
        ("the upcoming 3 days", date(2024, 6, 13), date(2024, 6, 16)),
        ("2 days after tomorrow", date(2024, 6, 15), date(2024, 6, 16)),
        ("the 15th next month", date(2024, 7, 15), date(2024, 7, 16)),
        ("same time next week", date(2024, 6, 19), date(2024, 6, 20)),
        ("midweek", date(2024, 6, 12), date(2024, 6, 15)),
    ],
)
def test_holiday_weekends_and_counted_days_ahead(text: str, start: date, end: date) -> None:
    assert days(one(text, prefer_future=True)) == (start, end)


def test_lent_the_verb_and_past_the_preposition_are_no_time() -> None:
    assert find_times("I had lent him money for years", WED) == []
    assert find_times("I walked past Monday's market.", WED) == []


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("the August bank holiday", date(2024, 8, 26), date(2024, 8, 27)),
        ("on Mothering Sunday", date(2025, 3, 30), date(2025, 3, 31)),
        ("the ides of March", date(2025, 3, 15), date(2025, 3, 16)),
        ("throughout 2019", date(2019, 1, 1), date(2020, 1, 1)),
        ("I was off all week.", date(2024, 6, 10), date(2024, 6, 17)),
        ("throughout the summer", date(2024, 6, 1), date(2024, 9, 1)),
        ("the back end of the year", date(2024, 9, 1), date(2025, 1, 1)),
    ],
)
def test_british_counts_and_holidays(text: str, start: date, end: date) -> None:
    assert days(one(text, prefer_future=True)) == (start, end)


@pytest.mark.parametrize(
    ("text", "order", "day"),
    [
        ("31/10/1974", "month_first", date(1974, 10, 31)),
        ("10/31/1974", "day_first", date(1974, 10, 31)),
        ("31.10.1974", "month_first", date(1974, 10, 31)),
    ],
)
def test_a_numeric_date_no_month_can_start_is_read_the_other_way(
    text: str, order: str, day: date
) -> None:
    assert days(one(text, date_order=order))[0] == day


def test_a_month_a_comma_and_its_year_and_this_past_month() -> None:
    assert days(one("We met in March, 2015.")) == (date(2015, 3, 1), date(2015, 4, 1))
    assert days(one("this past March")) == (date(2024, 3, 1), date(2024, 4, 1))


def test_a_numeric_date_after_a_weekday() -> None:
    found = find_times("Friday 3/4 works", WED, date_order="month_first")
    assert [(m.text, days(m)[0]) for m in found][-1] == ("3/4", date(2024, 3, 4))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("March after next", date(2026, 3, 1), date(2026, 4, 1)),
        ("the rest of the month", date(2024, 6, 12), date(2024, 7, 1)),
        ("this decade", date(2020, 1, 1), date(2030, 1, 1)),
        ("a decade ago", date(2014, 6, 12), date(2014, 6, 13)),
        ("Jul 18, Fri", date(2025, 7, 18), date(2025, 7, 19)),
        ("the Friday after 3 May 2023", date(2023, 5, 5), date(2023, 5, 6)),
    ],
)
def test_patterns_the_set_reads_that_no_sentence_test_held(
    text: str, start: date, end: date
) -> None:
    assert days(one(text, prefer_future=True)) == (start, end)


def test_the_weekend_before_an_event_on_a_weekend_is_the_one_before_it() -> None:
    found = one("The weekend before we shopped.", datetime(2022, 10, 17, tzinfo=UTC), after=SAT)
    assert days(found) == (date(2022, 9, 24), date(2022, 9, 26))


@pytest.mark.parametrize(
    ("year", "start", "end"),
    [
        # Christmas on each weekday: a Monday's, Thursday's or Friday's weekend holds it,
        # a Tuesday's or Wednesday's is the one before, a Saturday's or Sunday's its own
        (2023, date(2023, 12, 23), date(2023, 12, 26)),  # Monday
        (2024, date(2024, 12, 21), date(2024, 12, 23)),  # Tuesday
        (2019, date(2019, 12, 21), date(2019, 12, 23)),  # Wednesday
        (2025, date(2025, 12, 25), date(2025, 12, 29)),  # Thursday
        (2020, date(2020, 12, 25), date(2020, 12, 28)),  # Friday
        (2021, date(2021, 12, 25), date(2021, 12, 27)),  # Saturday
        (2022, date(2022, 12, 24), date(2022, 12, 26)),  # Sunday
    ],
)
def test_a_holiday_weekend_on_each_weekday(year: int, start: date, end: date) -> None:
    said = datetime(year + 1, 1, 10, 12, tzinfo=UTC)
    assert days(one("We drove up over Christmas weekend.", said)) == (start, end)
