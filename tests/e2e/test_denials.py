"""What must never become a fact, through ``Memory`` on a real database (SQLite and
PostgreSQL): a denial of a stored fact invalidates it and writes nothing else, and
negations, hypotheticals, questions, hearsay and jokes write no fact or policy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Message
from cognimem.models.knowledge import FactStatus

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


async def test_a_denial_invalidates_the_fact_and_writes_nothing_else(memory: Memory) -> None:
    await memory.write(Message(content="I live in Seattle.", occurred_at=T0), user_id="u")
    [seattle] = await memory.facts(key="user:location:city", user_id="u")
    turn = await memory.turn(
        Message(
            content="No, that's wrong. I never lived in Seattle.",
            occurred_at=T0 + timedelta(days=1),
        ),
        user_id="u",
    )
    assert turn.revision.invalidated == [seattle.id]
    everything = await memory.facts(include_history=True, user_id="u")
    assert [(f.key, f.status) for f in everything] == [
        ("user:location:city", FactStatus.INVALIDATED)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "That's not true, I never liked Coldplay.",  # a denial
        "I never worked at Google.",  # a denial of the past
        "Apparently I'm allergic to Mondays.",  # hearsay
        "I'm a vegetarian, just kidding, I love steak too much.",  # a joke taken back
        "I'm allergic to exercise, lol.",  # a joke
        "If I lived in Paris I'd eat croissants every day.",  # a hypothetical
        "Should I quit my job at the bank?",  # a question
        "My friend said she moved to Boston.",  # reported speech
        "I'm moving to Anchorage. Kidding!",  # a claim taken back by the next sentence
        "I'm a vegan /s",  # sarcasm
        "Trying to figure out if I'm allergic to oats.",  # a question inside a statement
        "My daughter tells everyone I'm a chef.",  # others' words
        "The receptionist assumed I lived in Denver.",  # any reporter's word on the speaker
        "Okay, let's pretend I work at Ford.",  # a supposition after a lead-in
        "Because clearly I work at Tesla.",  # a retort: sarcasm
    ],
)
async def test_what_is_not_asserted_writes_no_fact(memory: Memory, text: str) -> None:
    await memory.write(Message(content=text, occurred_at=T0), user_id="u")
    assert await memory.facts(include_history=True, user_id="u") == []
