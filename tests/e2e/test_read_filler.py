"""Packets without filler, through ``Memory`` on both backends: the user's own questions
and small talk never take a statement's place, a question counts through the reply that
follows it, a query nothing bears on gets no padded items, and explain says why each
returned item is there.

The embedder is the hashing fake (texts are close only by shared words): a question
that shares the query's words is the nearest memory, which is what is under test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory, Message
from cognimem.recall.conversation.evidence import ONLY_ASKS, SMALL_TALK

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=2)
STATEMENT = "On Fridays I cook a green curry for dinner."
CHAT = [
    Message(content="Hi there!", name="Ada", occurred_at=T0),
    Message(content="What should I cook for dinner on Fridays?", name="Ada", occurred_at=T0),
    Message(content="Any ideas for dinner tonight?", name="Ada", occurred_at=T0),
    Message(content="Thanks, that's great!", name="Ada", occurred_at=T0),
    Message(content=STATEMENT, name="Ada", occurred_at=T0 + timedelta(hours=1)),
]


async def test_the_users_own_questions_never_outrank_the_statement(memory: Memory) -> None:
    await memory.write_batch(CHAT, user_id="ada")
    packet = await memory.read(
        "What do I cook for dinner on Fridays?", user_id="ada", reference_time=LATER, explain=True
    )
    assert [i.text for i in packet.items] == [STATEMENT]
    assert packet.explain is not None
    outcomes = {e.outcome for e in packet.explain if e.type == "item"}
    assert ONLY_ASKS in outcomes  # the questions were found, and left out for asking
    # the statement is there whether or not the questions scored higher
    assert outcomes - {ONLY_ASKS, SMALL_TALK, "returned"} <= {
        "dropped: no evidence for the query (no shared word, not close in meaning)"
    }


async def test_a_query_nothing_bears_on_gets_no_item_for_a_shared_word(memory: Memory) -> None:
    await memory.write_batch(
        [
            Message(content="What cat food is best for a kitten?", name="Ada", occurred_at=T0),
            Message(content="Haha, thanks!", name="Ada", occurred_at=T0),
            Message(content="I play tennis with Carol every Sunday.", name="Ada", occurred_at=T0),
        ],
        user_id="ada",
    )
    packet = await memory.read("what is my cat called?", user_id="ada", reference_time=LATER)
    assert packet.items == []
    assert packet.nothing_relevant
    assert packet.to_markdown() == "## Memory\n\n_No relevant memories._\n"


async def test_a_question_is_evidence_through_the_reply_that_follows_it(memory: Memory) -> None:
    question = "What game do you play?"
    reply = "Mostly chess, with my cousin Ravi."
    await memory.write_batch(
        [
            Message(content=question, name="Ben", occurred_at=T0),
            Message(content=reply, name="Ada", occurred_at=T0 + timedelta(minutes=1)),
        ],
        user_id="ada",
    )
    packet = await memory.read(
        "what game do I play?", user_id="ada", reference_time=LATER, explain=True
    )
    assert [i.text for i in packet.items] == [reply]
    assert packet.explain is not None
    why = {e.id: e.reason for e in packet.explain if e.outcome == "returned"}
    assert why == {packet.items[0].id: "replies to a question that bears on the query"}


async def test_explain_says_why_each_returned_item_is_there(memory: Memory) -> None:
    await memory.write("I'm deathly allergic to peanuts.", user_id="u", occurred_at=T0)
    await memory.write("I love spicy Thai curries.", user_id="u", occurred_at=T0)
    await memory.write("My sister plays the cello", user_id="u", occurred_at=T0)
    packet = await memory.read(
        "Can you recommend a Thai restaurant?", user_id="u", reference_time=LATER, explain=True
    )
    assert packet.explain is not None
    returned = {e.id: e for e in packet.explain if e.outcome == "returned"}
    assert {i.id for i in packet.items} == set(returned)
    reasons = {i.text: returned[i.id].reason for i in packet.items}
    # the allergy shares no word with the request and scores lowest: it is there for its
    # constraint
    allergy = reasons["I'm deathly allergic to peanuts."]
    assert allergy is not None
    assert allergy.startswith("behind the Must follow entry user:policy:allergy:peanuts")
    assert "shares the word 'thai'" in (reasons["I love spicy Thai curries."] or "")
    assert all(reasons.values())


async def test_chat_that_only_touches_the_requests_domain_is_not_returned(
    memory: Memory,
) -> None:
    """The seeds' dilution: a constraint among chatty lines. Coffee and tea are food, as
    a dinner recipe is, but a shared scope tag says nothing about the request: only the
    constraint (in its section, and the memory it was drawn from) comes back."""
    await memory.write("We keep halal at home.", user_id="u", occurred_at=T0)
    for text in (
        "Morning! The coffee machine is finally working again.",
        "I spilled tea on my notebook, the pages are all wavy.",
    ):
        await memory.write(text, user_id="u", occurred_at=T0 + timedelta(hours=1))
    packet = await memory.read(
        "Give me a recipe for the family dinner.", user_id="u", reference_time=LATER, explain=True
    )
    assert [e.text for e in packet.sections.must_follow] == ["We keep halal at home."]
    assert [i.text for i in packet.items] == ["We keep halal at home."]
    assert packet.explain is not None
    [why] = [e.reason for e in packet.explain if e.outcome == "returned"]
    assert why is not None
    assert why.startswith("behind the Must follow entry")
    assert why.endswith("the evidence of an entry the packet's sections show")
