"""A short form of a known person's first name ("Dom" for Dominic Price) through
``Memory`` on SQLite and PostgreSQL (issue 32 items 2-3): a message with no pronoun
still reads the conversation before it, the fact is that person's, the short form
becomes an alias with its provenance; a short form two people's names open is nobody."""

from __future__ import annotations

from cognimem import Memory, Settings
from cognimem.providers.fakes import HashingEmbedder
from tests.e2e.conversation_world import USER as U
from tests.e2e.conversation_world import entities as people
from tests.e2e.conversation_world import say

NAMED = "My colleague Dominic Price just moved to Lisbon."
SAID = "Dom is a huge rugby fan."  # no pronoun, no role word, no first name of a list


async def test_a_short_form_without_a_pronoun_is_the_person_named_before(memory: Memory) -> None:
    await say(memory, NAMED, SAID)
    known = await people(memory)
    assert "Dom" not in known
    dominic, aliases = known["Dominic Price"]
    [rugby] = [f for f in await memory.facts(user_id=U) if f.predicate == "sport"]
    assert (rugby.key, rugby.subject_entity_id) == ("dominic_price:preference:sport:rugby",
                                                    dominic.id)  # fmt: skip
    [link] = rugby.provenance["coreference"]
    assert (link["said"], link["name"], link["sentence"]) == ("Dom", "Dominic Price", SAID)
    # the short form is a name of his now, learnt from that message: undoable as a link
    assert ("dom", "coreference") in aliases
    added = [h for h in await memory.history(dominic.id) if h.action == "alias_added"]
    dom = [h for h in added if h.after and h.after["alias"] == "dom"]
    assert [(h.after["linked_to"], h.after["source"]) for h in dom if h.after] == [
        ("Dominic Price", "coreference")
    ]
    [event_id] = rugby.evidence_event_ids
    assert dom[0].event_id == event_id


async def test_a_short_form_two_people_share_is_nobody(memory: Memory) -> None:
    await say(memory, NAMED, "My friend Dominique Roy is a chef.", SAID)
    known = await people(memory)
    assert "Dom" not in known
    assert not any(f.predicate == "sport" for f in await memory.facts(user_id=U))
    for name in ("Dominic Price", "Dominique Roy"):
        assert not any(alias == "dom" for alias, _ in known[name][1])


async def test_a_later_process_reads_the_names_from_the_store(memory_url: str) -> None:
    settings, embedder = Settings(), HashingEmbedder()
    async with Memory.open(memory_url, settings=settings, embedder=embedder) as first:
        await say(first, NAMED)
    async with Memory.open(memory_url, settings=settings, embedder=embedder) as later:
        await say(later, "Dom has two kids.")
        kids = [f for f in await later.facts(user_id=U) if f.predicate == "child"]
        dominic = (await people(later))["Dominic Price"][0]
        assert [f.subject_entity_id for f in kids] == [dominic.id]


async def test_a_short_form_the_scope_shares_is_no_alias(memory: Memory) -> None:
    # the conversation names one Dominic (so "Dom" is read as his), but the scope knows
    # a Dominique too: the short form names neither, and is no entity of its own
    await memory.write("My friend Dominique Roy is a chef.", user_id=U, session_id="s0")
    await say(memory, NAMED, "Dom is a huge rugby fan and he plays every week.")
    known = await people(memory)
    assert "Dom" not in known
    for name in ("Dominic Price", "Dominique Roy"):
        assert not any(alias == "dom" for alias, _ in known[name][1])


async def test_a_read_that_says_the_short_form_finds_the_person(memory: Memory) -> None:
    await say(memory, NAMED, SAID, "I had pasta for lunch.", "The weather was nice today.")
    packet = await memory.read("Where does Dom live?", user_id=U, explain=True)
    [moved] = [i for i in packet.items if i.text == NAMED]  # says no "Dom" itself
    reasons = [e.reason or "" for e in packet.explain or [] if e.id == moved.id]
    assert any("through the graph from an entity the query names" in r for r in reasons)
