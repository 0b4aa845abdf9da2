"""A turn whose pronoun the rules resolve but that states no fact ("Her clinic is in
Brooklyn") is still the person's (issue 32): its item is linked to their entity, with
the resolution as its evidence, and explain shows it. Through ``Memory`` on SQLite and
PostgreSQL."""

from __future__ import annotations

from cognimem import Memory
from cognimem.models.knowledge import Entity

U = "u1"
S = "s1"


async def people(memory: Memory) -> dict[str, Entity]:
    return {e.name: e for e, _ in await memory.entities(user_id=U)}


async def test_a_pronoun_turn_with_no_fact_is_linked_to_the_person(memory: Memory) -> None:
    await memory.write("My sister Maya is a vet.", user_id=U, session_id=S)
    said = await memory.write("Her clinic is in Brooklyn.", user_id=U, session_id=S)
    facts = await memory.facts(user_id=U)
    assert not any(said.event_ids[0] in f.evidence_event_ids for f in facts)  # no fact
    maya = (await people(memory))["Maya"]
    [item_id] = said.item_ids
    item = await memory.get(item_id)
    assert item.entities == [maya.id]
    [link] = item.metadata["coreference"]
    assert (link["said"], link["name"], link["entity_id"]) == ("Her", "Maya", maya.id)
    assert link["sentence"] == "Her clinic is in Brooklyn."
    assert "my sister" in link["evidence"]
    # explain says who "Her" was read as
    packet = await memory.read("Where is the clinic?", user_id=U, explain=True)
    reasons = [e.reason or "" for e in packet.explain or [] if e.id == item_id]
    assert reasons
    assert '"Her" is Maya' in reasons[0]


async def test_a_turn_with_a_fact_links_its_item_too_and_others_stay_unlinked(
    memory: Memory,
) -> None:
    await memory.write("My friend Luis moved here last year.", user_id=U, session_id=S)
    fact_turn = await memory.write("He's a doctor.", user_id=U, session_id=S)
    nobody = await memory.write("She called me yesterday.", user_id=U, session_id=S)
    plain = await memory.write("I had pasta for lunch.", user_id=U, session_id=S)
    luis = (await people(memory))["Luis"]
    assert (await memory.get(fact_turn.item_ids[0])).entities == [luis.id]
    # no woman was named: "She" resolves to nobody, and no item is linked by a guess
    for written in (nobody, plain):
        item = await memory.get(written.item_ids[0])
        assert item.entities == []
        assert "coreference" not in item.metadata


async def test_links_stay_in_their_conversation_and_never_name_the_user(memory: Memory) -> None:
    await memory.write("My brother William lives in Perth.", user_id=U, session_id=S)
    other = await memory.write("Everyone calls him Will.", user_id=U, session_id="s2")
    assert (await memory.get(other.item_ids[0])).entities == []
    mine = await memory.write("Everyone calls him Will.", user_id=U, session_id=S)
    william = (await people(memory))["William"]
    item = await memory.get(mine.item_ids[0])
    assert item.entities == [william.id]
    assert [x["name"] for x in item.metadata["coreference"]] == ["William"]
