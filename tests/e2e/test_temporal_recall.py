"""Time in a conversation, end to end on both backends: what a message tells of is
resolved when it is written ("last night", said on 4 May, is 3 May), a read for a
period finds it, a "when" question puts the memory that dates the event first, and an
edit dates the memory again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.config import IngestSettings, Settings
from cognimem.providers.fakes import HashingEmbedder

MAY_4 = datetime(2023, 5, 4, 10, 0, tzinfo=UTC)
LATER = datetime(2023, 9, 1, tzinfo=UTC)


async def test_a_read_for_a_day_finds_what_was_told_of_it_the_day_after(memory: Memory) -> None:
    await memory.write(
        "My aunt and I cooked dinner at her flat last night!", user_id="u", occurred_at=MAY_4
    )
    await memory.write("Dinner with my team was fun", user_id="u", occurred_at=LATER)
    packet = await memory.read(
        "Who did I cook dinner with on 3 May 2023?", user_id="u", reference_time=LATER
    )
    assert packet.meta["time_range"] == ["2023-05-03T00:00:00+00:00", "2023-05-04T00:00:00+00:00"]
    [found] = packet.items
    assert found.text.startswith("My aunt and I cooked dinner")
    assert found.event_start == datetime(2023, 5, 3, 18, tzinfo=UTC)
    assert "[2023-05-04 10:00; tells of 2023-05-03]" in packet.to_markdown()


async def test_a_when_question_puts_the_dated_memory_first(memory: Memory) -> None:
    for text in ("pizza tastes good", "cats sleep often", "a race on tv"):
        await memory.write(text, user_id="u", occurred_at=MAY_4)
    # in sessions of their own: each is indexed without the other as its context
    undated = "I ran the charity race with my sister"
    dated = undated + " last weekend"
    await memory.write(undated, user_id="u", session_id="s1", occurred_at=MAY_4)
    await memory.write(dated, user_id="u", session_id="s2", occurred_at=MAY_4)
    what = await memory.read("What was the charity race like?", user_id="u", reference_time=LATER)
    assert [i.text for i in what.items[:2]] == [undated, dated]
    when = await memory.read("When did I run the charity race?", user_id="u", reference_time=LATER)
    assert [i.text for i in when.items[:2]] == [dated, undated]
    assert when.items[0].signals["dated"] == 1.0


async def test_an_edit_dates_the_memory_again(memory: Memory) -> None:
    result = await memory.write("We went hiking last weekend", user_id="u", occurred_at=MAY_4)
    [item_id] = result.item_ids
    [item] = await memory.store.get_items("default", [item_id])
    assert (item.event_start, item.event_end) == (
        datetime(2023, 4, 29, tzinfo=UTC),
        datetime(2023, 5, 1, tzinfo=UTC),
    )
    edited = await memory.update(item_id, text="We went hiking yesterday")
    assert (edited.event_start, edited.event_end) == (
        datetime(2023, 5, 3, tzinfo=UTC),
        datetime(2023, 5, 4, tzinfo=UTC),
    )
    # an event told with no time word: the moment it was said
    said = await memory.update(item_id, text="We went hiking")
    assert (said.event_start, said.event_end) == (MAY_4, MAY_4 + timedelta(seconds=1))
    undated = await memory.update(item_id, text="Hiking is lovely")
    assert undated.event_start is None
    [stored] = await memory.store.get_items("default", [item_id])
    assert stored.event_start is None


OCT_17 = datetime(2022, 10, 17, 10, 0, tzinfo=UTC)


async def _period(memory: Memory, item_id: str) -> tuple[datetime | None, datetime | None]:
    [item] = await memory.store.get_items("default", [item_id])
    return item.event_start, item.event_end


async def test_a_time_told_after_an_event_counts_from_the_previous_turn(memory: Memory) -> None:
    # one message at a time: the second counts from the event the first told of
    await memory.write(
        "We moved into the new flat on October 1st.", user_id="u", occurred_at=OCT_17
    )
    broke = await memory.write("Two days later the boiler broke.", user_id="u", occurred_at=OCT_17)
    assert await _period(memory, broke.item_ids[0]) == (
        datetime(2022, 10, 3, tzinfo=UTC),
        datetime(2022, 10, 4, tzinfo=UTC),
    )
    # in one batch: each message counts from the event the one before told of
    batch = await memory.write_batch(
        [
            {"content": "My sister visited on the 2nd.", "occurred_at": OCT_17},
            {"content": "She stayed with us and it was lovely.", "occurred_at": OCT_17},
            {"content": "She left a week after that.", "occurred_at": OCT_17},
        ],
        user_id="v",
    )
    assert await _period(memory, batch.item_ids[1]) == (None, None)
    assert await _period(memory, batch.item_ids[2]) == (
        datetime(2022, 10, 9, tzinfo=UTC),
        datetime(2022, 10, 10, tzinfo=UTC),
    )


async def test_numeric_dates_are_read_in_the_configured_order(memory_url: str) -> None:
    said = "Her birthday party was on 5/6/2022."
    for order, day in (("month_first", 6), ("day_first", 5)):
        settings = Settings(ingest=IngestSettings(date_order=order))
        async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
            result = await mem.write(said, user_id=order, occurred_at=OCT_17)
            assert await _period(mem, result.item_ids[0]) == (
                datetime(2022, 5 if order == "month_first" else 6, day, tzinfo=UTC),
                datetime(2022, 5 if order == "month_first" else 6, day + 1, tzinfo=UTC),
            )


async def test_a_span_told_after_an_event_that_ended_it_ends_there(memory: Memory) -> None:
    ten_days = (datetime(2022, 9, 29, tzinfo=UTC), datetime(2022, 10, 9, tzinfo=UTC))
    # one message at a time: the thread read back from the store carries the ending
    await memory.write("I got back from Lisbon on the 9th.", user_id="u", occurred_at=OCT_17)
    stay = await memory.write("We were there for ten days.", user_id="u", occurred_at=OCT_17)
    assert await _period(memory, stay.item_ids[0]) == ten_days
    # in one batch; after an event that starts it, the span runs from it
    batch = await memory.write_batch(
        [
            {"content": "I got back from Lisbon on the 9th.", "occurred_at": OCT_17},
            {"content": "We were there for ten days.", "occurred_at": OCT_17},
            {"content": "My sister arrived on the 9th.", "occurred_at": OCT_17},
            {"content": "She was here for ten days.", "occurred_at": OCT_17},
        ],
        user_id="v",
    )
    assert await _period(memory, batch.item_ids[1]) == ten_days
    assert await _period(memory, batch.item_ids[3]) == (
        datetime(2022, 10, 9, tzinfo=UTC),
        datetime(2022, 10, 19, tzinfo=UTC),
    )


async def test_a_turn_whose_time_reads_empty_is_stored_with_its_batch(memory: Memory) -> None:
    # "since then", said before the June the previous turn told of, names no time; it
    # once failed the whole batch with an inverted period
    said = datetime(2024, 5, 9, 23, 28, tzinfo=UTC)
    batch = await memory.write_batch(
        [
            {"content": "We fly to Lisbon in June 2024.", "occurred_at": said},
            {"content": "So much has been happening since then!", "occurred_at": said},
            {"content": "I adopted a kitten last week.", "occurred_at": said},
        ],
        user_id="u",
    )
    assert len(batch.item_ids) == 3
    assert await _period(memory, batch.item_ids[1]) == (None, None)
