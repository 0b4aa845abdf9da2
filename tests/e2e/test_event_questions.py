"""Counting and ordering questions (issue 31 item 4), through ``Memory`` on both
backends: a user tells of adopting pets over months, with many turns on pets that tell
of no event between; "how many pets do I have as of <date>?" gets every adoption of the
window however far apart, an ordering question gets them in the order they happened,
and an event told with no time word is dated by when it was said or by the question it
answers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory, Message

USER = "rosa"
START = datetime(2025, 1, 10, 18, 0, tzinfo=UTC)
ADOPTIONS = (
    (START, "Big news: we adopted a beagle puppy named Max, the first of our pets!"),
    (
        START + timedelta(days=60),
        "We adopted a kitten called Luna, so two pets at home now.",
    ),
    (
        START + timedelta(days=150),
        "We adopted a parrot named Kiwi, that makes three pets.",
    ),
)
LATER_ADOPTION = (
    START + timedelta(days=240),
    "We adopted a hamster named Nibbles, four pets now.",
)
# about pets, telling of no event: on main the ten nearest turns are these
CHATTER = (
    "Pets are such good company on {}.",
    "My neighbour's pets are loud on {}.",
    "Pets need a lot of patience on {}.",
    "Do pets get bored on {}? I wonder.",
    "Pets make a flat feel like home on {}.",
    "Walking the pets is hard work on {}.",
    "Pets and kids mean a lot of laundry on {}.",
    "The vet says pets like calm {}.",
)
WHEN = ("rainy evenings", "long weekends", "cold mornings", "quiet Sundays", "busy Mondays")


def chatter(n: int) -> list[str]:
    """``n`` different sentences about pets (at most 40)."""
    return [c.format(w) for w in WHEN for c in CHATTER][:n]


async def tell_story(memory: Memory) -> None:
    """The adoptions, 40 turns of chatter after each, one batch an adoption."""
    for at, text in (*ADOPTIONS, LATER_ADOPTION):
        messages = [Message(content=text, occurred_at=at)]
        messages += [
            Message(content=t, occurred_at=at + timedelta(hours=1 + i))
            for i, t in enumerate(chatter(40))
        ]
        await memory.write_batch(messages, user_id=USER)


async def test_how_many_pets_as_of_a_date_reads_every_adoption_of_the_window(
    memory: Memory,
) -> None:
    await tell_story(memory)
    packet = await memory.read(
        "How many pets do I have as of August 2025?",
        user_id=USER,
        reference_time=START + timedelta(days=300),
        explain=True,
    )
    texts = [i.text for i in packet.items]
    for _, adoption in ADOPTIONS:
        assert adoption in texts
    assert LATER_ADOPTION[1] not in texts  # adopted after August
    assert packet.meta["events"]["form"] == "count"
    steps = [s["step"] for g in packet.meta["plan"]["groups"] for s in g["steps"]]
    assert "events" in steps
    reasons = {e.id: e.reason or "" for e in packet.explain or []}
    for item in packet.items:
        if item.text in dict(ADOPTIONS).values():
            assert "events plan: count" in reasons[item.id]


async def test_an_ordering_question_gets_its_events_in_the_order_they_happened(
    memory: Memory,
) -> None:
    await tell_story(memory)
    packet = await memory.read(
        "Which pets did we adopt first, Kiwi or Max?",
        user_id=USER,
        reference_time=START + timedelta(days=300),
    )
    texts = [i.text for i in packet.items]
    shown = [t for t in texts if t in {ADOPTIONS[0][1], ADOPTIONS[2][1]}]
    assert shown == [ADOPTIONS[0][1], ADOPTIONS[2][1]]
    assert packet.meta["events"]["form"] == "order"
    # the adoptions in the order they happened, in the places they held by rank
    adoptions = [i for i in packet.items if i.text in dict(ADOPTIONS).values()]
    told = [i.event_start or i.occurred_at for i in adoptions]
    assert len(told) >= 2
    assert told == sorted(told)


async def test_an_event_with_no_time_word_is_dated_by_the_question_it_answers(
    memory: Memory,
) -> None:
    monday = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
    await memory.write_batch(
        [
            Message(content="What did you two get up to last weekend?", occurred_at=monday),
            Message(content="We adopted a kitten!", occurred_at=monday + timedelta(minutes=1)),
            Message(content="I moved my desk to the window.", occurred_at=monday),
        ],
        user_id=USER,
    )
    packet = await memory.read(
        "adopted kitten desk", user_id=USER, reference_time=monday + timedelta(days=1)
    )
    by_text = {i.text: i for i in packet.items}
    kitten = by_text["We adopted a kitten!"]
    assert (kitten.event_start, kitten.event_end) == (
        datetime(2025, 3, 8, tzinfo=UTC),
        datetime(2025, 3, 10, tzinfo=UTC),
    )
    desk = by_text["I moved my desk to the window."]  # answers nothing: when said
    assert (desk.event_start, desk.event_end) == (monday, monday + timedelta(seconds=1))
