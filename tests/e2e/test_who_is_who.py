"""Who is who without an LLM (issue 32): pronouns and "my sister" resolved to the person
named before, a first name linked to the full name, a nickname an alias, entity types
by evidence. Each scenario runs through ``Memory`` on SQLite and PostgreSQL."""

from __future__ import annotations

from cognimem import Memory
from cognimem.models.knowledge import AliasSource, EntityType
from tests.e2e.conversation_world import USER as U
from tests.e2e.conversation_world import entities, say


async def test_she_is_the_sister_named_before(memory: Memory) -> None:
    await say(
        memory,
        "My sister Sarah Jones is a nurse.",
        "She just got promoted.",
        "She lives in Boston.",
    )
    facts = {f.key: f for f in await memory.facts(user_id=U)}
    promoted = facts["sarah_jones:event:got_promoted:promoted"]
    sarah = (await entities(memory))["Sarah Jones"][0]
    assert promoted.subject_entity_id == sarah.id
    assert promoted.text == "Sarah Jones just got promoted."  # found by her name
    [link] = promoted.provenance["coreference"]
    assert (link["said"], link["name"]) == ("She", "Sarah Jones")
    assert link["sentence"] == "She just got promoted."  # what was said
    assert "my sister" in link["evidence"]
    # explain says who "She" was read as
    lives = facts["sarah_jones:location:city"]
    assert lives.subject_entity_id == sarah.id
    packet = await memory.read("Where does Sarah Jones live?", user_id=U, explain=True)
    reasons = [e.reason for e in packet.explain or [] if e.id == lives.id]
    assert reasons
    assert reasons[0] is not None
    assert '"She" is Sarah Jones' in reasons[0]


async def test_my_sister_and_he_without_a_match_stay_unresolved(memory: Memory) -> None:
    await say(
        memory,
        "My sister Sarah Jones is a nurse.",
        "My sister lives in Boston.",
        "He got promoted.",  # no man was named: no guess
        "My boss got promoted.",  # no boss was named: the boss's, unnamed, not Sarah's
    )
    keys = {f.key for f in await memory.facts(user_id=U)}
    assert "sarah_jones:location:city" in keys
    promoted = {k for k in keys if "got_promoted" in k}
    assert promoted == {k for k in promoted if k.startswith("boss:")}
    assert len(promoted) == 1  # "He got promoted" gave nobody's


async def test_a_pronoun_does_not_reach_into_another_conversation(memory: Memory) -> None:
    await say(memory, "My sister Sarah Jones is a nurse.")
    await say(memory, "She just got promoted.", session="s2")
    assert not any("got_promoted" in f.key for f in await memory.facts(user_id=U))


async def test_her_relative_and_his_career_reach_the_store_as_theirs(memory: Memory) -> None:
    await say(
        memory,
        "My friend Paula is on leave.",
        "Her daughter was born in May.",
        "My nephew Felix loves trains.",
        "He wants to become a mechanic.",
    )
    facts = {f.key: f for f in await memory.facts(user_id=U)}
    daughter = facts["paula:relationship:daughter:daughter"]
    [link] = daughter.provenance["coreference"]
    assert (link["said"], link["name"]) == ("Her", "Paula")
    career = next(f for k, f in facts.items() if k.startswith("felix:goal:work"))
    assert career.value == "become a mechanic"
    assert career.provenance["coreference"][0]["name"] == "Felix"


async def test_a_first_name_is_the_full_name_already_known(memory: Memory) -> None:
    await say(memory, "My sister Sarah Jones is a nurse.", "Sarah lives in Boston.")
    known = await entities(memory)
    assert "Sarah" not in known
    sarah, aliases = known["Sarah Jones"]
    assert ("sarah", AliasSource.COREFERENCE.value) in aliases
    facts = {f.key: f for f in await memory.facts(user_id=U)}
    assert facts["sarah_jones:location:city"].subject_entity_id == sarah.id


async def test_two_full_names_leave_a_first_name_alone(memory: Memory) -> None:
    await say(memory, "My sister Sarah Jones is a nurse.", "My friend Sarah Lee is a chef.")
    await say(memory, "Sarah lives in Boston.")
    known = await entities(memory)
    # "Sarah" names both, so alone it is ambiguous: linked to neither, no guess
    assert {"Sarah Jones", "Sarah Lee"} <= known.keys()
    [city] = [f for f in await memory.facts(user_id=U) if f.predicate == "city"]
    assert city.subject_entity_id not in {known["Sarah Jones"][0].id, known["Sarah Lee"][0].id}
    assert not city.key.startswith(("sarah_jones", "sarah_lee"))


async def test_a_full_name_keeps_its_first_name_and_its_short_form(memory: Memory) -> None:
    await say(memory, "My partner is Christopher Lee.", "Chris works for IBM.")
    known = await entities(memory)
    assert "Chris" not in known
    chris, aliases = known["Christopher Lee"]
    assert {("christopher", "coreference"), ("chris", "coreference")} <= aliases
    employer = next(f for f in await memory.facts(user_id=U) if f.predicate == "employer")
    assert (employer.key, employer.subject_entity_id) == ("christopher_lee:occupation:employer",
                                                          chris.id)  # fmt: skip


async def test_what_others_call_someone_is_an_alias_not_a_fact(memory: Memory) -> None:
    await say(
        memory,
        "My brother William lives in Perth.",
        "Everyone calls him Billy.",
        "My aunt Margaret Hale is a pilot.",
        "Her nickname is Peggy.",
    )
    known = await entities(memory)
    assert ("billy", "user_stated") in known["William"][1]
    assert {("peggy", "user_stated"), ("margaret", "coreference")} <= known["Margaret Hale"][1]
    assert "Billy" not in known
    assert "Peggy" not in known
    assert not [f for f in await memory.facts(user_id=U) if f.predicate == "nickname"]


async def test_a_nickname_is_an_alias_not_a_new_person(memory: Memory) -> None:
    await say(memory, "My sister Sarah Jones is a nurse.", "She goes by Sally.")
    known = await entities(memory)
    assert "Sally" not in known
    sarah, aliases = known["Sarah Jones"]
    assert ("sally", AliasSource.USER_STATED.value) in aliases
    # later mentions of the nickname are her
    await say(memory, "Sally lives in Denver.")
    facts = {f.key: f for f in await memory.facts(user_id=U)}
    assert facts["sarah_jones:location:city"].subject_entity_id == sarah.id
    assert "Sally" not in await entities(memory)


async def test_types_by_evidence(memory: Memory) -> None:
    await say(
        memory,
        "I work at Google.",
        "I work with Sarah.",
        "We had lunch at Nandos and flew to Seattle.",
        "My brother works at Acme Corp.",
        "I ran the Boston Marathon.",
    )
    known = {name: e.type for name, (e, _) in (await entities(memory)).items()}
    assert known["Google"] is EntityType.ORGANIZATION
    assert known["Sarah"] is EntityType.PERSON
    assert known["Seattle"] is EntityType.PLACE
    assert known["Acme Corp"] is EntityType.ORGANIZATION
    assert known.get("Nandos", EntityType.OTHER) is not EntityType.PLACE  # position alone
    keys = {f.key for f in await memory.facts(user_id=U)}
    assert not any(k.startswith("user:occupation:employer") and "sarah" in k for k in keys)
    employer = {
        (f.subject, f.value) for f in await memory.facts(user_id=U) if f.predicate == "employer"
    }
    assert employer == {("user", "Google"), ("brother", "Acme Corp")}  # an unnamed brother's


async def test_the_user_s_own_name_is_theirs_and_a_first_name_a_person(memory: Memory) -> None:
    """ "I'm Tobias" names the user's entity (an alias), not a new person beside them; a
    name led by a first name of the census list is a person wherever it stands."""
    await say(memory, "Hi, I'm Tobias.", "I lent my bike to Rosalind yesterday.")
    known = await entities(memory)
    assert "Tobias" not in known
    [mine] = [aliases for e, aliases in known.values() if ("tobias", "user_stated") in aliases]
    assert mine
    assert known["Rosalind"][0].type is EntityType.PERSON


async def test_a_workplace_named_after_someone_is_the_workplace(memory: Memory) -> None:
    await say(memory, "I work at Jack Henry.", "My wife works for Dr. Amara Osei.")
    known = {name: e.type for name, (e, _) in (await entities(memory)).items()}
    assert known["Jack Henry"] is EntityType.ORGANIZATION
    assert known["Dr. Amara Osei"] is EntityType.PERSON


async def test_a_person_introduced_with_no_fact_is_the_next_pronoun(memory: Memory) -> None:
    await say(
        memory, "My buddy Quintus is a genuinely wonderful guy.", "He works as an electrician."
    )
    facts = await memory.facts(user_id=U)
    # the first turn writes no fact: the person is only an antecedent
    assert not [f for f in facts if "wonderful" in f.text]
    [job] = [f for f in facts if f.key.startswith("quintus:occupation:job")]
    quintus = (await entities(memory))["Quintus"][0]
    assert job.subject_entity_id == quintus.id
    [link] = job.provenance["coreference"]
    assert (link["said"], link["name"]) == ("He", "Quintus")
