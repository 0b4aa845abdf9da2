"""Memories people share, ranked: a user's read ranks the organisation's and the read's
agent's items with the user's own, each shared one carrying the ``level`` signal (the
user's own first on a tie) and said so in explain. Through ``Memory`` on both backends."""

from __future__ import annotations

from cognimem import Memory
from cognimem.models import ContextPacket

ORG = {"level": "organisation"}
NOTE = "The quarterly badge renewal happens at the north reception desk."
QUERY = "where does the quarterly badge renewal happen?"


def _texts(packet: ContextPacket) -> list[str]:
    return [i.text for i in packet.items]


async def test_the_organisations_item_is_ranked_in_every_users_read(memory: Memory) -> None:
    await memory.write(NOTE, scope=ORG)
    await memory.write("I had pasta for lunch today.", user_id="bob")

    bob = await memory.read(QUERY, user_id="bob", explain=True)

    (item,) = [i for i in bob.items if i.text == NOTE]
    assert item.signals["level"] == 1.0
    (why,) = [e for e in bob.explain or [] if e.id == item.id]
    assert why.signals["level"] == 1.0
    assert "the organisation's memory, ranked with the user's own" in str(why.reason)
    # another tenant's users never see it
    other = await memory.read(QUERY, user_id="bob", scope={"tenant_id": "globex"})
    assert NOTE not in _texts(other)


async def test_the_users_own_item_ranks_first_on_a_tie(memory: Memory) -> None:
    await memory.write(NOTE, scope=ORG)
    await memory.write(NOTE, agent_id="helper")
    await memory.write(NOTE, user_id="ada", agent_id="helper")

    ada = await memory.read(QUERY, user_id="ada", agent_id="helper", explain=True)

    levels = [i.signals.get("level") for i in ada.items if i.text == NOTE]
    assert levels == [None, 0.5, 1.0]  # the user's own, the agent's, the organisation's
    scores = [i.score for i in ada.items if i.text == NOTE]
    assert scores[0] > scores[1] > scores[2]


async def test_an_agents_item_reaches_only_reads_made_with_that_agent(memory: Memory) -> None:
    await memory.write(NOTE, agent_id="helper")
    await memory.write("I had pasta for lunch today.", user_id="bob")

    assert NOTE in _texts(await memory.read(QUERY, user_id="bob", agent_id="helper"))
    assert NOTE not in _texts(await memory.read(QUERY, user_id="bob", agent_id="sales"))
    assert NOTE not in _texts(await memory.read(QUERY, user_id="bob"))


async def test_another_users_item_and_a_walled_session_stay_out(memory: Memory) -> None:
    await memory.write(NOTE, user_id="carol")
    await memory.write(NOTE.replace("north", "south"), scope=ORG)
    await memory.write("I had pasta for lunch today.", user_id="bob", session_id="s1")

    bob = await memory.read(QUERY, user_id="bob")
    assert NOTE not in _texts(bob)
    assert NOTE.replace("north", "south") in _texts(bob)
    walled = await memory.read(QUERY, user_id="bob", session_id="s1", session_only=True)
    assert NOTE.replace("north", "south") not in _texts(walled)


async def test_an_all_users_read_has_no_level_signal(memory: Memory) -> None:
    await memory.write(NOTE, scope=ORG)
    everyone = await memory.read(QUERY, all_users=True)
    (item,) = [i for i in everyone.items if i.text == NOTE]
    assert "level" not in item.signals
