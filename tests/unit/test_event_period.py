"""What an item tells of: its event period, resolved at write time from its own time
expressions; how a read uses it (the period a query names, the ``dated`` signal) and
how a packet shows it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from cognimem.models import MemoryItem, PacketItem, Scope
from cognimem.models.items import ItemKind
from cognimem.models.packets import markdown_line, period_text
from cognimem.recall.analyze import analyze, asks_when, query_time_range
from cognimem.recall.temporal import belongs, dated_signal, share_in, tells_of
from cognimem.text.events import SAID, event_period

ALICE = Scope(tenant_id="t1", user_id="alice")
MAY_4 = datetime(2023, 5, 4, 10, 0, tzinfo=UTC)  # a Thursday
LATER = datetime(2023, 9, 1, tzinfo=UTC)


def at(month: int, day: int, hour: int = 0, year: int = 2023) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


def item(text: str, occurred_at: datetime = MAY_4, *, id: str = "mem_1") -> MemoryItem:
    """An item as the write path makes it: its event period from its own words."""
    start, end = event_period(text, occurred_at) or (None, None)
    return MemoryItem(
        id=id,
        scope=ALICE,
        text=text,
        occurred_at=occurred_at,
        recorded_at=occurred_at,
        event_start=start,
        event_end=end,
    )


# -- write side: event_period --------------------------------------------------------


def test_a_relative_expression_resolves_against_when_it_was_said() -> None:
    assert event_period("My mom and I made dinner last night!", MAY_4) == (
        at(5, 3, 18),
        at(5, 4),
    )
    assert event_period("I ran a 5K last weekend.", MAY_4) == (at(4, 29), at(5, 1))
    assert event_period("We moved two weeks ago", MAY_4) == (at(4, 20), at(4, 21))


def test_a_sentence_that_looks_ahead_reads_forwards() -> None:
    # "on Friday" said on a Thursday: tomorrow when planned, last week's when told
    assert event_period("I'll see them on Friday.", MAY_4) == (at(5, 5), at(5, 6))
    assert event_period("I saw them on Friday.", MAY_4) == (at(4, 28), at(4, 29))
    # each sentence is read in its own tense
    told = event_period("We met on Friday. I can't wait for more.", MAY_4)
    assert told == (at(4, 28), at(4, 29))


def test_the_most_specific_expression_is_what_the_item_tells_of() -> None:
    text = "Our bake sale last week went well; I took up the cello three years ago."
    assert event_period(text, MAY_4) == (at(4, 24), at(5, 1))


def test_a_text_naming_no_time_has_no_event_period() -> None:
    assert event_period("Dinner with mom is always fun", MAY_4) is None
    assert item("Dinner with mom is always fun").event_start is None


def test_an_event_with_no_time_word_tells_of_the_moment_it_was_said() -> None:
    said = (MAY_4, MAY_4 + SAID)  # the moment: its day depends on the user's time zone
    assert event_period("Big news, we adopted a puppy! A beagle named Max.", MAY_4) == said
    assert event_period("Sam and I have just moved in together", MAY_4) == said
    # no event: a wish, a negation, a question, an opinion
    for text in (
        "I'd love to travel to Iceland one day.",
        "We never moved, we like it here.",
        "Did you adopt the puppy?",
        "Pet food is so expensive these days.",
    ):
        assert event_period(text, MAY_4) is None, text


def test_an_event_answering_a_question_tells_of_the_period_it_asked_about() -> None:
    last_weekend = (at(4, 29), at(5, 1))
    told = event_period("We adopted a puppy!", MAY_4, answers=last_weekend)
    assert told == last_weekend
    # its own time word wins over the question's
    assert event_period("I moved on Tuesday", MAY_4, answers=last_weekend) == (at(5, 2), at(5, 3))


def test_an_event_period_needs_both_ends_in_order() -> None:
    fields = {"id": "m", "scope": ALICE, "text": "x", "occurred_at": MAY_4, "recorded_at": MAY_4}
    with pytest.raises(ValidationError, match="together"):
        MemoryItem(**fields, event_start=at(5, 3))
    with pytest.raises(ValidationError, match="before"):
        MemoryItem(**fields, event_start=at(5, 4), event_end=at(5, 3))


# -- read side: the period a query names, the dated signal ----------------------------


def test_an_item_belongs_to_a_period_it_occurred_in_or_tells_of() -> None:
    may_3 = (at(5, 3), at(5, 4))
    told = item("made dinner last night")
    assert tells_of(told, may_3)
    assert belongs(told, may_3)
    said_then = item("dinner at the harbour", occurred_at=at(5, 3, 19))
    assert not tells_of(said_then, may_3)
    assert belongs(said_then, may_3)
    assert not belongs(item("dinner plans"), may_3)


def test_share_in_is_how_much_of_what_the_item_tells_of_lies_in_the_period() -> None:
    june = (at(6, 1), at(7, 1))
    assert share_in(item("we go camping next month"), june) == 1.0
    summer = share_in(item("camping this summer sounds great"), june)
    assert summer == pytest.approx(30 / 92)
    assert share_in(item("camping last weekend"), june) == 0.0
    assert share_in(item("camping is fun"), june) == 0.0


def test_a_when_question_favours_items_that_name_a_time() -> None:
    when = analyze("When did Alice run the charity race?", LATER)
    assert when.time_range is None
    assert asks_when(when.query)
    signal = dated_signal(when)
    assert signal(item("Last weekend I ran a charity race")) == 1.0
    # an event told with no time word is dated by when it was said: its words add no time
    assert item("I ran a charity race, it was great").event_start == MAY_4
    assert signal(item("I ran a charity race, it was great")) == 0.0
    # ... but it is one of the events a counting question counts (the events plan's)
    ran = item("I ran a charity race, it was great")
    counting = analyze("How many charity races did Alice run?", LATER)
    counted = dated_signal(counting, {ran.id})
    assert counted(ran) == 1.0
    assert counted(item("The charity race is a great cause", id="mem_2")) == 0.0
    # a memory of another kind that names a time is not lifted over the ranked answer
    assert counted(item("Last weekend I baked a cake", id="mem_2")) == 0.0
    assert dated_signal(counting)(ran) == 0.0
    assert signal(item("The charity race is a great cause")) == 0.0
    # a question that asks no time leaves the signal out
    what = analyze("What race did Alice run?", LATER)
    assert dated_signal(what)(item("Last weekend I ran a charity race")) == 0.0


def test_a_how_long_question_favours_items_that_date_a_span() -> None:
    # "how long" asks for a span, which a memory dates by its own words
    for question in ("How long has Alice had her cat?", "How long did the course take?"):
        how_long = analyze(question, LATER)
        assert not asks_when(how_long.query)
        signal = dated_signal(how_long)
        assert signal(item("I've had her for three years now")) == 1.0
        assert signal(item("I started the course recently")) == 1.0
        # a time that is not a span up to when it was said answers less of "how long"
        assert signal(item("I got her last June")) == 0.5
        assert signal(item("She is a lovely cat")) == 0.0
    assert dated_signal(analyze("How tall is Alice?", LATER))(item("I grew a lot last year")) == 0.0


def test_a_query_naming_a_period_favours_items_that_tell_of_it() -> None:
    query = analyze("What did Alice cook on 3 May 2023?", LATER)
    assert query.time_range == (at(5, 3), at(5, 4))
    signal = dated_signal(query)
    assert signal(item("I cooked a big dinner yesterday")) == 1.0
    assert signal(item("I cooked dinner last night")) == 1.0  # 18h to 24h that day
    # said that day but naming no time: the period filter admits it, the signal is 0
    assert signal(item("I cooked dinner, so good", occurred_at=at(5, 3, 12))) == 0.0


# -- what a packet shows -------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "text"),
    [
        (at(5, 3), at(5, 4), "2023-05-03"),
        (at(5, 3, 18), at(5, 4, 6), "2023-05-03"),  # a night
        (at(5, 1), at(6, 1), "2023-05"),
        (at(1, 1), at(1, 1, year=2024), "2023"),
        (at(4, 29), at(5, 1), "2023-04-29 to 2023-04-30"),
        (at(6, 1), at(9, 1), "2023-06-01 to 2023-08-31"),
    ],
)
def test_period_text(start: datetime, end: datetime, text: str) -> None:
    assert period_text(start, end) == text


def test_the_markdown_line_says_what_a_memory_tells_of() -> None:
    dated = PacketItem(
        id="m",
        text="My mom and I made dinner last night!",
        kind=ItemKind.EPISODE,
        score=1.0,
        occurred_at=MAY_4,
        event_start=at(5, 3, 18),
        event_end=at(5, 4, 6),
        author="Hana",
    )
    line = markdown_line(dated)
    assert line.startswith("- [2023-05-04 10:00; tells of 2023-05-03] Hana: My mom")
    plain = dated.model_copy(update={"event_start": None, "event_end": None})
    assert markdown_line(plain).startswith("- [2023-05-04 10:00] Hana:")


# -- a question asked from a date it names ------------------------------------------


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        # the week before the date, and the date itself (when it was said)
        ("Where was Marco in the week before 14 September 2023?", at(9, 7), at(9, 15)),
        # counted from the date the question names, not from the reference time
        ("Which film did she see last Friday on 13 March, 2023?", at(3, 10), at(3, 14)),
        ("What did he fret over last week, as noted on October 9, 2023?", at(10, 2), at(10, 10)),
        # a relative time far from the date still counts from the reference
        ("Did he run last week? He had a race on 6 November 2023.", at(8, 21), at(11, 7)),
    ],
)
def test_a_question_asked_from_a_date_counts_from_it(
    query: str, start: datetime, end: datetime
) -> None:
    assert query_time_range(query, LATER) == (start, end)


def test_recently_in_a_question_sets_no_period() -> None:
    # the answer may be older than a month: a vague window must not filter the read
    assert query_time_range("What did Alice paint recently?", LATER) is None
    assert query_time_range("What has Alice been reading lately?", LATER) is None
    # beside a named period, that period alone
    assert query_time_range("What did Alice paint recently, in May 2023?", LATER) == (
        at(5, 1),
        at(6, 1),
    )
