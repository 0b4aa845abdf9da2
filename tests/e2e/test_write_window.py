"""The earlier turns a batch's first message is read with (who its pronouns name) when
the latest stored turns are not the user's: the window reaches back as far as the batch
is long, on SQLite and PostgreSQL."""

from __future__ import annotations

from cognimem import Memory, Message

U = "u1"
S = "s1"


async def test_a_large_batch_reads_back_past_the_assistants_turns(memory: Memory) -> None:
    await memory.write("My sister Sarah Jones is a nurse.", user_id=U, session_id=S)
    # 25 turns of the assistant's after it: the latest stored events hold none of the user's
    await memory.write_batch(
        [Message(content=f"Noted, item {n}.", role="assistant") for n in range(25)],
        user_id=U,
        session_id=S,
    )
    # a batch of 30: the window reads up to 6 + 30 stored events, so it reaches her
    said = ["She just got promoted."] + [f"I walked {n} miles today." for n in range(29)]
    await memory.write_batch([Message(content=t) for t in said], user_id=U, session_id=S)
    facts = {f.key: f for f in await memory.facts(user_id=U)}
    promoted = facts["sarah_jones:event:got_promoted:promoted"]
    [link] = promoted.provenance["coreference"]
    assert (link["said"], link["name"]) == ("She", "Sarah Jones")


async def test_a_short_batch_reads_no_further_than_its_length(memory: Memory) -> None:
    await memory.write("My sister Sarah Jones is a nurse.", user_id=U, session_id=S)
    await memory.write_batch(
        [Message(content=f"Noted, item {n}.", role="assistant") for n in range(25)],
        user_id=U,
        session_id=S,
    )
    # one message: the window reads the 7 latest events, all the assistant's
    await memory.write("She just got promoted.", user_id=U, session_id=S)
    assert not any("got_promoted" in f.key for f in await memory.facts(user_id=U))
