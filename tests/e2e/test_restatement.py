"""Paraphrase renewal through ``Memory`` on a real database (SQLite and PostgreSQL): a
fact said again in other words renews the fact it restates, so it does not decay while
the user keeps saying it; another fact of the same family stands on its own. With the
default local embedder: how alike two wordings are is what is under test, and the
hashing fake sees shared words only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Message, Settings

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def local(memory_url: str) -> AsyncIterator[Memory]:
    async with Memory.open(memory_url, settings=Settings()) as mem:
        yield mem


async def test_a_restatement_in_other_words_renews_the_fact(local: Memory) -> None:
    said = ["My knee hurts.", "My knee still hurts.", "My knee's been killing me."]
    events = []
    for day, text in enumerate(said):
        written = await local.write(
            Message(content=text, occurred_at=T0 + timedelta(days=7 * day)), user_id="u"
        )
        events += written.event_ids
    [knee] = await local.facts(key="user:state:health", user_id="u")
    assert knee.value == "knee hurts"
    assert knee.reinforcement_count == 3
    assert knee.last_validated_at == T0 + timedelta(days=14)
    assert knee.evidence_event_ids == events


async def test_another_fact_of_the_family_is_not_a_restatement(local: Memory) -> None:
    await local.write(Message(content="My knee hurts.", occurred_at=T0), user_id="u")
    await local.write(
        Message(content="I broke my toe this morning.", occurred_at=T0 + timedelta(days=1)),
        user_id="u",
    )
    facts = await local.facts(key="user:state:health", user_id="u")
    assert sorted(f.value for f in facts) == ["broke my toe", "knee hurts"]
    assert all(f.reinforcement_count == 1 for f in facts)


@pytest.mark.parametrize(
    ("first", "second", "key"),
    [
        ("I never eat pork.", "I never eat shellfish.", "user:policy"),
        ("My knee hurts.", "My back hurts.", "user:state:health"),
    ],
)
async def test_a_close_statement_about_another_thing_stands_on_its_own(
    local: Memory, first: str, second: str, key: str
) -> None:
    """The local model puts each pair above the paraphrase floor (0.66, 0.67): alike in
    wording, about different things, and neither may swallow the other."""
    await local.write(Message(content=first, occurred_at=T0), user_id="u")
    await local.write(Message(content=second, occurred_at=T0 + timedelta(days=1)), user_id="u")
    facts = await local.facts(key=key, user_id="u")
    assert len(facts) == 2, [(f.key, f.value) for f in facts]
    assert all(f.reinforcement_count == 1 for f in facts)


async def test_a_restatement_said_the_other_way_round_renews_the_fact(local: Memory) -> None:
    await local.write(Message(content="My wrist hurts when I type.", occurred_at=T0), user_id="u")
    later = T0 + timedelta(days=3)
    await local.write(
        Message(content="Typing still hurts my wrist.", occurred_at=later), user_id="u"
    )
    [wrist] = await local.facts(key="user:state:health", user_id="u")
    assert wrist.reinforcement_count == 2


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("My ankle is swollen.", "The swelling in my ankle hasn't gone down."),
        ("I have a cough.", "This cough just won't go away."),
        ("I'm exhausted.", "I'm so tired all the time lately."),
    ],
)
async def test_a_condition_said_again_by_how_it_lasts_renews_the_fact(
    local: Memory, first: str, second: str
) -> None:
    """The second wording names the condition by what it does ("won't go away"), by
    another word for it ("tired") or by the body part alone: the same state, renewed."""
    await local.write(Message(content=first, occurred_at=T0), user_id="u")
    later = T0 + timedelta(days=2)
    await local.write(Message(content=second, occurred_at=later), user_id="u")
    facts = await local.facts(key="user:state:health", user_id="u")
    assert len(facts) == 1, [(f.key, f.value) for f in facts]
    assert facts[0].reinforcement_count == 2
    assert facts[0].last_validated_at == later


@pytest.mark.parametrize(
    ("first", "second", "key"),
    [
        ("I'm exhausted.", "Still feeling drained.", "user:state:health"),
        ("I'm stressed at work.", "Work has been insane lately.", "user:state:work"),
    ],
)
async def test_a_loose_restatement_of_the_same_condition_renews_the_fact(
    local: Memory, first: str, second: str, key: str
) -> None:
    """The local model puts each pair under the former floor (0.49, 0.44): the same
    condition in other words, with its subject left out or said of work."""
    await local.write(Message(content=first, occurred_at=T0), user_id="u")
    await local.write(Message(content=second, occurred_at=T0 + timedelta(days=1)), user_id="u")
    [fact] = await local.facts(key=key, user_id="u")
    assert fact.reinforcement_count == 2


async def test_a_cause_said_of_the_same_thing_is_another_cause(local: Memory) -> None:
    """Two causes said of one activity are two facts: a clause's first word is not its
    topic, and the floor lowered for conditions (0.40) would merge this pair; a goal,
    value, cause or rule keeps the former floor (restatement.CLAUSE_FLOOR)."""
    said = ["Cooking helps me unwind after work.", "Cooking helps me feel close to my gran."]
    for day, text in enumerate(said):
        await local.write(Message(content=text, occurred_at=T0 + timedelta(days=day)), user_id="u")
    facts = await local.facts(user_id="u")
    causes = sorted(f.value for f in facts if f.category.value == "causal")
    assert causes == [
        "Cooking helps me feel close to my gran",
        "Cooking helps me unwind after work",
    ]
    assert all(f.reinforcement_count == 1 for f in facts if f.category.value == "causal")


async def test_a_favourite_renews_the_liking_it_restates_and_is_kept(local: Memory) -> None:
    """ "I love cycling" is a preference/activity; "Cycling is my favorite hobby" a
    favorite_hobby: another predicate of the same category, about the same thing."""
    await local.write(Message(content="I love cycling.", occurred_at=T0), user_id="u")
    later = T0 + timedelta(days=5)
    await local.write(
        Message(content="Cycling is my favorite hobby.", occurred_at=later), user_id="u"
    )
    facts = await local.facts(key="user:preference", user_id="u")
    [liking] = [f for f in facts if f.predicate == "activity"]
    assert liking.reinforcement_count == 2
    assert liking.last_validated_at == later
    assert [f.value for f in facts if f.predicate == "favorite_hobby"] == ["Cycling"]
    # another thing liked renews nothing
    await local.write(Message(content="Chess is my favorite game.", occurred_at=later), user_id="u")
    [liking] = [f for f in await local.facts(key="user:preference", user_id="u")
                if f.predicate == "activity"]  # fmt: skip
    assert liking.reinforcement_count == 2
