"""Constraints reach the packet's sections by relevance, with no LLM, on both backends:
the seeds' scenarios (semantic disconnect, dilution, supersession, wrong type) and the
budget. The embedder here is the hashing fake, so meaning cannot help: scope tags and
shared words must do it (the local model's numbers are in benchmarks/cue_trigger.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Settings
from cognimem.errors import InvalidInput
from cognimem.models import Message
from cognimem.providers.tokens import count_tokens

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
UNRELATED_POLICIES = [
    "Never schedule meetings before 10am.",
    "Don't ever share my home address with anyone.",
    "I never fly on Fridays.",
    "Never call me after 9pm.",
    "Don't book anything on Sundays, I rest.",
    "Never post photos of my kids online.",
]


async def test_allergy_is_a_must_follow_for_a_restaurant_question(memory: Memory) -> None:
    await memory.write("I'm deathly allergic to peanuts.", user_id="u", occurred_at=T0)
    await memory.write("We watched a great movie last night.", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "Can you recommend a Thai restaurant for tonight?", user_id="u", reference_time=T0 + DAY
    )
    [rule] = packet.sections.must_follow
    assert rule.key == "user:policy:allergy:peanuts"
    assert rule.signals["tags"] == 1.0
    assert rule.source_event_ids  # provenance down to what was said
    markdown = packet.to_markdown()
    assert markdown.index("### Must follow") < markdown.index("peanuts")


async def test_shellfish_survives_six_unrelated_policies(memory: Memory) -> None:
    for i, text in enumerate(UNRELATED_POLICIES):
        await memory.write(text, user_id="u", occurred_at=T0 + i * DAY)
    await memory.write(
        "I never eat shellfish due to allergy.", user_id="u", occurred_at=T0 + 7 * DAY
    )
    packet = await memory.read(
        "Should I try the lobster?", user_id="u", reference_time=T0 + 9 * DAY
    )
    constraints = packet.sections.must_follow + packet.sections.consider
    assert "shellfish" in constraints[0].text
    # unrelated constraints do not crowd in for being constraints: on a decision the
    # standing profile ranks them below it and the sections hold at most 4 entries
    assert len(constraints) <= 4
    assert all(c.signals.get("profile") for c in constraints[1:])


@pytest.mark.onnx
async def test_with_the_local_embedder_only_the_allergy_bears_on_the_lobster(
    memory_url: str,
) -> None:
    """The hashing embedder of the test above scores closeness as noise; with the local
    model users run, none of the six unrelated policies reaches the sections."""
    async with Memory.open(memory_url, settings=Settings()) as local:
        for i, text in enumerate(UNRELATED_POLICIES):
            await local.write(text, user_id="u", occurred_at=T0 + i * DAY)
        await local.write(
            "I never eat shellfish due to allergy.", user_id="u", occurred_at=T0 + 7 * DAY
        )
        packet = await local.read(
            "Should I try the lobster?", user_id="u", reference_time=T0 + 9 * DAY
        )
    constraints = packet.sections.must_follow + packet.sections.consider
    assert [c.text for c in constraints] == ["I never eat shellfish due to allergy."]


async def test_a_superseded_constraint_never_appears(memory: Memory) -> None:
    await memory.write("I'm vegetarian.", user_id="u", occurred_at=T0)
    await memory.write("Actually I eat fish now.", user_id="u", occurred_at=T0 + 7 * DAY)
    packet = await memory.read(
        "What should I cook for dinner?", user_id="u", reference_time=T0 + 8 * DAY
    )
    texts = [e.text for e in packet.sections.entries()] + [i.text for i in packet.items]
    assert any("fish" in t for t in texts)
    assert not any("vegetarian" in t for t in texts)


async def test_a_goal_reaches_a_budget_question_as_something_to_consider(memory: Memory) -> None:
    await memory.write("I want to save money this year.", user_id="u", occurred_at=T0)
    await memory.write("I'm recovering from knee surgery.", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "Which vacation is budget-friendly?", user_id="u", reference_time=T0 + DAY
    )
    [goal] = packet.sections.consider
    assert goal.category == "goal"
    assert packet.sections.must_follow == []


async def test_sections_fit_the_budget_with_the_memories(memory: Memory) -> None:
    await memory.write_batch(
        [Message(content=t, occurred_at=T0) for t in UNRELATED_POLICIES]
        + [Message(content=f"note {i} about the garden and the roses", occurred_at=T0)
           for i in range(30)],
        user_id="u",
    )  # fmt: skip
    for budget in (60, 120, 400):
        packet = await memory.read(
            "Should I schedule the garden meeting on Friday?",
            user_id="u",
            max_tokens=budget,
            reference_time=T0 + DAY,
        )
        assert packet.sections.entries()
        assert count_tokens(packet.to_markdown()) <= budget
        assert packet.token_count <= budget


async def test_plain_presets_have_no_sections(memory: Memory) -> None:
    await memory.write("I'm deathly allergic to peanuts.", user_id="u", occurred_at=T0)
    for preset in ("lexical", "vector"):
        packet = await memory.read("recommend a restaurant", user_id="u", preset=preset)
        assert packet.sections.entries() == []
    steps = {s.name for s in (await memory.read("recommend a restaurant", user_id="u")).steps}
    assert steps == {
        "lexical",
        "vector",
        "graph",
        "constraints",
        "facts",
        "mandates",
        "learned_procedures",
        "profile",  # a recommendation: the standing profile's step
    }


async def test_what_did_i_do_last_week_reads_exactly_that_week(memory: Memory) -> None:
    # a month of days, one note a day at 23:30 UTC (08:30 the next day in Tokyo)
    start = datetime(2024, 5, 1, 23, 30, tzinfo=UTC)
    await memory.write_batch(
        [
            Message(content=f"day {i + 1} I went to the climbing gym", occurred_at=start + i * DAY)
            for i in range(31)
        ],
        user_id="u",
    )
    reference = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)  # a Saturday
    utc = await memory.read(
        "what did I do last week?", user_id="u", reference_time=reference, limit=50
    )
    # the ISO week before: Mon 20 May .. Sun 26 May (UTC)
    assert sorted(i.occurred_at.day for i in utc.items) == [20, 21, 22, 23, 24, 25, 26]
    assert utc.meta["time_range"] == ["2024-05-20T00:00:00+00:00", "2024-05-27T00:00:00+00:00"]
    tokyo = await memory.read(
        "what did I do last week?",
        user_id="u",
        reference_time=reference,
        timezone="Asia/Tokyo",
        limit=50,
    )
    # the same week in Tokyo starts 9 hours earlier: notes of 19-25 May, 23:30 UTC
    assert sorted(i.occurred_at.day for i in tokyo.items) == [19, 20, 21, 22, 23, 24, 25]
    with pytest.raises(InvalidInput) as exc:
        await memory.read("last week?", user_id="u", timezone="Mars/Olympus")
    assert exc.value.field == "timezone"


async def test_two_facts_from_one_sentence_show_as_one_line(memory: Memory) -> None:
    await memory.write("I adopted a tabby kitten called Noodle.", user_id="u", occurred_at=T0)
    facts = await memory.facts(user_id="u")
    assert len({f.key for f in facts}) >= 2  # e.g. the pet's name and its kind
    packet = await memory.read("what is my cat called?", user_id="u", reference_time=T0 + DAY)
    lines = [line for line in packet.to_markdown().splitlines() if "Noodle" in line]
    assert len(lines) == len(set(lines)) == 1
    shown = [e.key for e in packet.sections.facts + packet.sections.preferences]
    assert len(shown) == 1
