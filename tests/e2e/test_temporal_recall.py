"""Time in a conversation, end to end on both backends: what a message tells of is
resolved when it is written ("last night", said on 4 May, is 3 May), a read for a
period finds it, a "when" question puts the memory that dates the event first, and an
edit dates the memory again."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem import Memory

MAY_4 = datetime(2023, 5, 4, 10, 0, tzinfo=UTC)
LATER = datetime(2023, 9, 1, tzinfo=UTC)


async def test_a_read_for_a_day_finds_what_was_told_of_it_the_day_after(memory: Memory) -> None:
    await memory.write(
        "My mom and I made some dinner together last night!", user_id="u", occurred_at=MAY_4
    )
    await memory.write("Dinner with my team was fun", user_id="u", occurred_at=LATER)
    packet = await memory.read(
        "Who did I have dinner with on May 3, 2023?", user_id="u", reference_time=LATER
    )
    assert packet.meta["time_range"] == ["2023-05-03T00:00:00+00:00", "2023-05-04T00:00:00+00:00"]
    [found] = packet.items
    assert found.text.startswith("My mom and I made some dinner")
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
    undated = await memory.update(item_id, text="We went hiking")
    assert undated.event_start is None
    [stored] = await memory.store.get_items("default", [item_id])
    assert stored.event_start is None
