"""The agent level: what an agent learnt from its turns (its procedures) belongs to
the agent and helps every user of that agent, never a user of another agent or a read
made with no agent; nothing of one tenant's agents reaches another tenant. Through
``Memory`` on both backends."""

from __future__ import annotations

from typing import Any

from cognimem import Memory
from cognimem.text.tokens import trigger_terms, word_key
from tests.e2e.cli_runner import cognimem, cognimem_here
from tests.e2e.test_procedures import DAY, T0, agent, deploy_call

ASK = "please deploy the staging build"


async def _procedures_in_read(memory: Memory, **scope: str) -> list[str]:
    packet = await memory.read(ASK, scope=scope)
    return [e.id for e in packet.sections.learned_procedures]


async def test_an_agents_procedure_helps_every_user_of_that_agent(memory: Memory) -> None:
    await agent(memory, user="ada", agent_id="ops")

    learnt = await memory.detect_procedures(user_id="ada", agent_id="ops")

    (created,) = learnt.created
    (p,) = await memory.procedures(agent_id="ops", all_users=True)
    assert p.id == created
    assert (p.scope.user_id, p.scope.agent_id) == (None, "ops")
    assert await memory.procedures(user_id="ada") == []  # the agent's, not ada's
    # another user of the same agent gets it; a user of another agent, or a read
    # made with no agent, does not
    assert await _procedures_in_read(memory, user_id="bob", agent_id="ops") == [p.id]
    assert await _procedures_in_read(memory, user_id="ada", agent_id="ops") == [p.id]
    assert await _procedures_in_read(memory, user_id="bob", agent_id="sales") == []
    assert await _procedures_in_read(memory, user_id="bob") == []
    # a read of the agent's level alone has it; the organisation's level does not
    assert await _procedures_in_read(memory, agent_id="ops") == [p.id]
    assert await _procedures_in_read(memory, level="organisation") == []
    # another tenant's user of an agent of the same name never sees it
    assert (
        await _procedures_in_read(memory, user_id="bob", agent_id="ops", tenant_id="globex") == []
    )


async def test_an_agents_procedures_learn_from_every_user_it_serves(memory: Memory) -> None:
    await agent(memory, user="ada", agent_id="ops")
    await agent(memory, user="cy", agent_id="sales")  # another agent's turns

    learnt = await memory.detect_procedures(agent_id="ops", all_users=True)

    (p,) = await memory.procedures(agent_id="ops", all_users=True)
    assert learnt.created == [p.id]
    assert p.observed_count == 4  # ada's four with ops; none of cy's with sales
    assert await memory.procedures(agent_id="sales", all_users=True) == []


async def test_an_agents_mandates_reach_every_user_of_that_agent(memory: Memory) -> None:
    await memory.write("Never give medical dosage advice.", scope={"level": "organisation"},
                       profile="mandate")  # fmt: skip
    await memory.write("Always sign off as the Ops bot.", agent_id="ops", profile="mandate")
    await memory.write(
        "Answer me in British English.", user_id="bob", agent_id="ops", profile="mandate"
    )

    async def mandates(**scope: str) -> list[str]:
        packet = await memory.read("how do I deploy?", scope=scope)
        return [m.text for m in packet.sections.mandates]

    # the organisation's first, then the agent's, then the user's own
    assert await mandates(user_id="bob", agent_id="ops") == [
        "Never give medical dosage advice.",
        "Always sign off as the Ops bot.",
        "Answer me in British English.",
    ]
    assert await mandates(user_id="ada", agent_id="ops") == [
        "Never give medical dosage advice.",
        "Always sign off as the Ops bot.",
    ]
    assert await mandates(user_id="ada", agent_id="sales") == ["Never give medical dosage advice."]
    assert await mandates(user_id="bob") == [
        "Never give medical dosage advice.",
        "Answer me in British English.",
    ]
    globex = await mandates(user_id="ada", agent_id="ops", tenant_id="globex")
    assert globex == []


async def test_a_users_own_mandate_of_no_agent_reaches_her_read_with_an_agent(
    memory: Memory,
) -> None:
    # what ada said to no particular agent is hers: a read made with an agent is its
    # context, not a filter that hides it
    await memory.write("Answer me in British English.", user_id="ada", profile="mandate")
    await memory.write("Quote prices in euros.", agent_id="sales", profile="mandate")
    await memory.write("Always sign off as the Ops bot.", agent_id="ops", profile="mandate")
    await memory.write("Call me Bobby.", user_id="bob", profile="mandate")
    await memory.write("Page me on call.", user_id="ada", agent_id="ops", profile="mandate")
    await memory.write(
        "Keep it short.", user_id="ada", agent_id="sales", session_id="s1", profile="mandate"
    )

    async def mandates(**options: Any) -> list[str]:
        packet = await memory.read("what should I buy?", **options)
        return [m.text for m in packet.sections.mandates]

    # the agent's first, then the user's own (of the read's agent and of none)
    assert await mandates(user_id="ada", agent_id="sales") == [
        "Quote prices in euros.",
        "Keep it short.",
        "Answer me in British English.",
    ]
    # a read with no agent reads all of hers, as before
    assert await mandates(user_id="ada") == [
        "Keep it short.",
        "Page me on call.",
        "Answer me in British English.",
    ]
    # another agent's level, and what ada said to another agent, never reach
    assert await mandates(user_id="ada", agent_id="ops") == [
        "Always sign off as the Ops bot.",
        "Page me on call.",
        "Answer me in British English.",
    ]
    # another user's never do
    assert await mandates(user_id="bob", agent_id="sales") == [
        "Quote prices in euros.",
        "Call me Bobby.",
    ]
    # a read walled to one session reads that session's alone, as before
    walled = await mandates(user_id="ada", agent_id="sales", session_id="s1", session_only=True)
    assert walled == ["Quote prices in euros.", "Keep it short."]


async def test_a_users_own_constraint_of_no_agent_reaches_her_read_with_an_agent(
    memory: Memory,
) -> None:
    await memory.write("I'm deathly allergic to peanuts.", user_id="ada")
    await memory.write("I'm deathly allergic to shellfish.", user_id="bob")
    packet = await memory.read(
        "Can you recommend a Thai restaurant for tonight?", user_id="ada", agent_id="sales"
    )
    assert [r.key for r in packet.sections.must_follow] == ["user:policy:allergy:peanuts"]


def test_the_cli_writes_and_reads_with_an_agent(db_url: str) -> None:
    rule = "Always sign off as the Ops bot."
    cognimem("remember", rule, "--agent", "ops", "--profile", "mandate", db_url=db_url)
    assert (
        rule
        in cognimem_here(
            "recall", "deploy?", "--user", "ada", "--agent", "ops", db_url=db_url
        ).stdout
    )
    assert rule not in cognimem_here("recall", "deploy?", "--user", "ada", db_url=db_url).stdout


async def test_erasing_a_user_scrubs_them_from_the_agents_procedures(memory: Memory) -> None:
    asked = set(await agent(memory, user="ada", agent_id="ops"))
    await agent(memory, user="bob", agent_id="ops")
    await memory.detect_procedures(agent_id="ops", all_users=True)
    (before,) = await memory.procedures(agent_id="ops", all_users=True)
    sources = await memory.get_events(before.source_event_ids)
    adas = asked | {e.id for e in sources if e.scope.user_id == "ada"}
    assert asked <= set(before.request_event_ids)
    assert adas - asked  # and the tool calls of ada's turns

    await memory.erase_user("ada")

    (after,) = await memory.procedures(agent_id="ops", all_users=True)
    assert after.id == before.id  # bob's turns taught it too: it stays, without ada
    assert not adas & {*after.request_event_ids, *after.source_event_ids}
    assert after.request_event_ids  # bob's requests
    assert await _procedures_in_read(memory, user_id="cy", agent_id="ops") == [after.id]


async def test_an_agents_procedure_learnt_from_one_user_goes_with_them(memory: Memory) -> None:
    await agent(memory, user="ada", agent_id="ops")
    await memory.write("Always sign off as the Ops bot.", agent_id="ops", profile="mandate")
    await memory.detect_procedures(agent_id="ops", all_users=True)
    assert len(await memory.procedures(agent_id="ops", all_users=True)) == 1

    await memory.erase_user("ada")

    assert await memory.procedures(agent_id="ops", all_users=True) == []
    # the agent's own memory is a shared level: erasing a user never touches it
    packet = await memory.read("how do I deploy?", user_id="cy", agent_id="ops")
    assert [m.text for m in packet.sections.mandates] == ["Always sign off as the Ops bot."]


LONG_ASK = (
    "Please deploy the staging build with the release notes, migrate the database schema,"
    " warm the caches, restart the workers, check the health endpoints, notify the"
    " operators channel, rotate the logs, verify the metrics dashboard, confirm the"
    " feature flags, record the change ticket in the tracker and archive the previous"
    " artifacts carefully"
)


async def _long_turn(memory: Memory, user: str, tail: str, day: int) -> None:
    at = T0 + day * DAY
    await memory.turn(
        {"content": f"{LONG_ASK} {tail}", "occurred_at": at},
        {"content": "Deploying to staging.", "occurred_at": at,
         "metadata": {"tool_calls": [deploy_call(40 + day)]}},
        user_id=user, agent_id="ops", session_id=f"{user}{day}",
    )  # fmt: skip


async def test_erasing_a_user_takes_their_words_out_of_a_kept_procedures_trigger(
    memory: Memory,
) -> None:
    # ada asked first and most, so the trigger's features hold her client's name; bob's
    # request says the same (cut) trigger, so the procedure stays when ada is erased
    for day in range(3):
        await _long_turn(memory, "ada", "for client Zyxcorp.", day)
    await _long_turn(memory, "bob", "for the platform team.", 3)
    await memory.detect_procedures(agent_id="ops", all_users=True)
    (before,) = await memory.procedures(agent_id="ops", all_users=True)
    assert word_key("zyxcorp") in before.trigger_terms

    await memory.erase_user("ada")

    (after,) = await memory.procedures(agent_id="ops", all_users=True)
    assert after.id == before.id
    assert word_key("zyxcorp") not in after.trigger_terms
    assert after.trigger_terms == trigger_terms(f"{LONG_ASK} for the platform team.")
    # the procedure still helps the agent's users, on bob's words
    packet = await memory.read(f"{LONG_ASK} now", user_id="cy", agent_id="ops")
    assert [p.id for p in packet.sections.learned_procedures] == [after.id]


async def _recalled(memory: Memory, query: str, **options: Any) -> list[str]:
    packet = await memory.read(query, **options)
    return [i.text for i in packet.items]


async def test_a_users_own_memories_of_no_agent_are_ranked_in_her_read_with_an_agent(
    memory: Memory,
) -> None:
    # the user's own long-term memory: what she said to no particular agent is hers in
    # a read made with any agent; what she said to another agent is that app's private
    # conversation, and another user's is never hers
    await memory.write("My sister Clara sings in the Lisbon choir.", user_id="ada")
    await memory.write("My brother Tom sings in the Oslo choir.", user_id="ada", agent_id="support")
    await memory.write("My cousin Rita sings in the Porto choir.", user_id="bob")
    await memory.write("My aunt Mia sings in the Rome choir.", user_id="bob", agent_id="sales")
    ask = "Who in my family sings in a choir?"

    for preset in ("balanced", "lexical", "vector"):  # each search reaches them
        found = await _recalled(memory, ask, user_id="ada", agent_id="sales", preset=preset)
        assert "My sister Clara sings in the Lisbon choir." in found, preset
        assert not any(("Tom" in t) or ("Rita" in t) or ("Mia" in t) for t in found), preset
    # a read with the other agent reads hers of that agent and of none
    support = await _recalled(memory, ask, user_id="ada", agent_id="support")
    assert {t for t in support if "choir" in t} == {
        "My sister Clara sings in the Lisbon choir.",
        "My brother Tom sings in the Oslo choir.",
    }
    # a read walled to one session reads that session's alone, as before
    walled = await _recalled(
        memory, ask, user_id="ada", agent_id="sales", session_id="s1", session_only=True
    )
    assert walled == []


async def test_a_users_own_fact_of_no_agent_wins_over_the_agents_and_is_ranked(
    memory: Memory,
) -> None:
    await memory.write("My favorite color is red.", agent_id="sales")
    await memory.write("My favorite color is green.", user_id="ada")
    facts = {f.value: f.id for f in await memory.facts(all_users=True)}

    packet = await memory.read(
        "what is my favorite color?", user_id="ada", agent_id="sales", explain=True
    )

    colours = [e.value for e in packet.sections.entries() if e.key.endswith("favorite_color")]
    assert colours == ["green"]
    explained = {e.id: e.outcome for e in packet.explain or [] if e.type == "fact"}
    assert explained[facts["red"]] == f"dropped: overridden by the user's fact {facts['green']}"
    # what she said is one of the read's memories too, ranked above the agent's
    texts = [i.text for i in packet.items]
    assert texts.index("My favorite color is green.") < texts.index("My favorite color is red.")
