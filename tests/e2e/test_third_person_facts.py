"""What the rules read when the speaker says it of themselves, said of someone else,
reaches the store as that person's fact (issue 32, twelfth round): a habit, an illness,
a workplace said with a shift, a home said with whom they live; and a joke said of
someone, or a liking the sentence does not mean, writes nothing. Each runs through
``Memory`` on SQLite and PostgreSQL, with no LLM."""

from __future__ import annotations

from typing import Any

from cognimem import Memory
from tests.e2e.conversation_world import SESSION, say
from tests.e2e.conversation_world import USER as U


async def facts_of(memory: Memory, subject: str) -> dict[tuple[str, str], Any]:
    """The current facts about ``subject``, by category and value."""
    return {
        (f.category.value, f.value): f
        for f in await memory.facts(user_id=U)
        if f.key.startswith(f"{subject}:")
    }


def said_as(fact: Any) -> set[tuple[str, str]]:
    """Who each pronoun the fact was read through was read as ("He": "Oskar")."""
    return {(link["said"], link["name"]) for link in fact.provenance["coreference"]}


async def test_a_habit_and_an_illness_said_by_a_pronoun_are_the_persons(
    memory: Memory,
) -> None:
    await say(
        memory,
        "My friend Oskar is in great shape.",
        "He cycles to the office every day.",
        "My aunt Brigitte had a hard winter.",
        "She's fighting lymphoma.",
    )
    oskar = await facts_of(memory, "oskar")
    habit = oskar[("preference", "cycle")]
    assert said_as(habit) == {("He", "Oskar")}
    brigitte = await facts_of(memory, "brigitte")
    illness = brigitte[("state", "lymphoma")]
    assert said_as(illness) == {("She", "Brigitte")}


async def test_a_workplace_with_a_shift_and_a_home_with_a_partner(memory: Memory) -> None:
    await say(
        memory,
        "My cousin Ilse needed a second job.",
        "She works weekends at a pharmacy.",
        "My brother Piet got a new place.",
        "He lives with his partner in Tallinn.",
    )
    ilse = await facts_of(memory, "ilse")
    assert said_as(ilse[("occupation", "pharmacy")]) == {("She", "Ilse")}
    piet = await facts_of(memory, "piet")
    home = piet[("location", "Tallinn")]
    assert home.predicate == "city"
    assert said_as(home) == {("He", "Piet"), ("his", "Piet")}


async def test_a_figure_of_someone_and_a_liking_left_to_see_through_write_nothing(
    memory: Memory,
) -> None:
    for line in (
        "My uncle is a walking dictionary.",
        "I'm a huge fan of paying taxes, as you can imagine.",
        "I'm on fire at the office lately.",
    ):
        result = await memory.write(line, user_id=U, session_id=SESSION)
        assert result.knowledge.facts_created == []
        assert result.item_ids  # the message is kept, only not read as a fact
    assert await memory.facts(include_history=True, user_id=U) == []
