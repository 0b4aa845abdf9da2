"""Facts and preferences people share: the organisation's, the namespace's and an
agent's are in a user's read, and for the same key the user's own wins over the
agent's, the agent's over the namespace's, the namespace's over the organisation's —
said so in explain. Through ``Memory`` on both backends."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem import Memory
from cognimem.models import ContextPacket

ORG = {"level": "organisation"}
NAMESPACE = {"level": "namespace"}
KEY = "user:preference:favorite_color"
QUERY = "what is my favorite color?"


def _colours(packet: ContextPacket) -> list[str]:
    return [e.value for e in packet.sections.entries() if e.key == KEY]


def _explained(packet: ContextPacket) -> dict[str, tuple[str, str | None]]:
    return {e.id: (e.outcome, e.reason) for e in packet.explain or [] if e.type == "fact"}


async def _fact_id(memory: Memory, value: str) -> str:
    """The fact of ``value`` in the default namespace (every user's, its levels') or
    the organisation's (every namespace's)."""
    facts = [*await memory.facts(all_users=True), *await memory.facts(scope=ORG)]
    (found,) = [f.id for f in facts if f.value == value]
    return found


async def test_the_organisations_preference_reaches_every_user(memory: Memory) -> None:
    await memory.write("My favorite color is blue.", scope=ORG)
    await memory.write("I live in Lisbon.", user_id="bob")
    bob = await memory.read(QUERY, user_id="bob")
    assert _colours(bob) == ["blue"]
    # another tenant never sees it
    other = await memory.read(QUERY, user_id="bob", scope={"tenant_id": "globex"})
    assert _colours(other) == []


async def test_the_users_own_fact_overrides_the_organisations(memory: Memory) -> None:
    await memory.write("My favorite color is blue.", scope=ORG)
    await memory.write("My favorite color is green.", user_id="ada")
    blue, green = await _fact_id(memory, "blue"), await _fact_id(memory, "green")

    ada = await memory.read(QUERY, user_id="ada", explain=True)

    assert _colours(ada) == ["green"]
    explained = _explained(ada)
    outcome, reason = explained[green]
    assert outcome.startswith("section:")
    assert reason is not None
    assert f"overrides the organisation's {KEY} = 'blue' ({blue})" in reason
    assert explained[blue][0] == f"dropped: overridden by the user's fact {green}"
    # the organisation's fact is intact: a user without one of their own still gets it
    assert _colours(await memory.read(QUERY, user_id="bob")) == ["blue"]


async def test_the_agents_fact_overrides_the_organisations_and_yields_to_the_users(
    memory: Memory,
) -> None:
    await memory.write("My favorite color is blue.", scope=ORG)
    await memory.write("My favorite color is red.", agent_id="helper")
    await memory.write("My favorite color is green.", user_id="ada")
    blue = await _fact_id(memory, "blue")

    with_helper = await memory.read(QUERY, user_id="bob", agent_id="helper", explain=True)
    assert _colours(with_helper) == ["red"]
    red = await _fact_id(memory, "red")
    assert f"overrides the organisation's {KEY} = 'blue'" in str(_explained(with_helper)[red][1])
    assert _colours(await memory.read(QUERY, user_id="bob")) == ["blue"]
    assert _colours(await memory.read(QUERY, user_id="bob", agent_id="sales")) == ["blue"]
    assert _colours(await memory.read(QUERY, user_id="ada", agent_id="helper")) == ["green"]
    # neither shared level superseded the other when it was written
    assert {f.value for f in await memory.facts(all_users=True)} == {"red", "green"}
    assert {f.id for f in await memory.facts(scope=ORG)} == {blue}


def _said(text: str, day: int) -> dict[str, object]:
    return {"content": text, "role": "user", "occurred_at": datetime(2025, 1, day, tzinfo=UTC)}


async def test_a_timed_read_takes_the_shared_facts_valid_then(memory: Memory) -> None:
    await memory.write(_said("My favorite color is blue.", 1), scope=ORG)
    await memory.write(_said("My favorite color is purple.", 20), scope=ORG)
    await memory.write(_said("I live in Lisbon.", 2), user_id="bob")
    then, later = datetime(2025, 1, 10, tzinfo=UTC), datetime(2025, 1, 25, tzinfo=UTC)

    assert _colours(await memory.read(QUERY, user_id="bob", as_of=then)) == ["blue"]
    assert _colours(await memory.read(QUERY, user_id="bob", as_of=later)) == ["purple"]
    # recorded time: what the memory knew (both were recorded as written, just now)
    recorded = await memory.read(QUERY, user_id="bob", as_of_recorded=datetime.now(UTC))
    assert _colours(recorded) == ["purple"]
    # another tenant's timed read sees none of it
    other = await memory.read(QUERY, user_id="bob", as_of=later, scope={"tenant_id": "globex"})
    assert _colours(other) == []


async def test_a_timed_read_keeps_the_precedence(memory: Memory) -> None:
    await memory.write(_said("My favorite color is blue.", 1), scope=ORG)
    await memory.write(_said("My favorite color is red.", 2), agent_id="helper")
    await memory.write(_said("My favorite color is green.", 3), user_id="ada")
    at = datetime(2025, 1, 10, tzinfo=UTC)

    ada = await memory.read(QUERY, user_id="ada", agent_id="helper", as_of=at, explain=True)
    assert _colours(ada) == ["green"]
    green, red = await _fact_id(memory, "green"), await _fact_id(memory, "red")
    explained = _explained(ada)
    assert f"overrides the agent's {KEY} = 'red' ({red})" in str(explained[green][1])
    assert explained[red][0] == f"dropped: overridden by the user's fact {green}"
    bob = await memory.read(QUERY, user_id="bob", agent_id="helper", as_of=at)
    assert _colours(bob) == ["red"]
    assert _colours(await memory.read(QUERY, user_id="bob", as_of=at)) == ["blue"]
    # before the organisation said it, a timed read has nothing
    early = datetime(2024, 12, 1, tzinfo=UTC)
    assert _colours(await memory.read(QUERY, user_id="bob", as_of=early)) == []


async def test_precedence_runs_user_agent_namespace_organisation(memory: Memory) -> None:
    await memory.write("My favorite color is blue.", scope=ORG)
    await memory.write("My favorite color is red.", scope=NAMESPACE)
    await memory.write("My favorite color is yellow.", agent_id="helper")
    await memory.write("My favorite color is green.", user_id="ada")
    blue, red = await _fact_id(memory, "blue"), await _fact_id(memory, "red")
    yellow, green = await _fact_id(memory, "yellow"), await _fact_id(memory, "green")

    ada = await memory.read(QUERY, user_id="ada", agent_id="helper", explain=True)
    assert _colours(ada) == ["green"]
    explained = _explained(ada)
    assert f"overrides the agent's {KEY} = 'yellow' ({yellow})" in str(explained[green][1])
    assert explained[yellow][0] == f"dropped: overridden by the user's fact {green}"
    assert explained[red][0] == f"dropped: overridden by the agent's fact {yellow}"
    assert explained[blue][0] == f"dropped: overridden by the agent's fact {yellow}"

    assert _colours(await memory.read(QUERY, user_id="bob", agent_id="helper")) == ["yellow"]
    bob = await memory.read(QUERY, user_id="bob", explain=True)
    assert _colours(bob) == ["red"]
    explained = _explained(bob)
    assert f"overrides the organisation's {KEY} = 'blue' ({blue})" in str(explained[red][1])
    assert explained[blue][0] == f"dropped: overridden by the namespace's fact {red}"
    assert "the namespace's 'red' wins over the organisation's 'blue'" in str(explained[blue][1])
    # another namespace: the organisation's alone (the namespace's is its own)
    sales = await memory.read(QUERY, user_id="bob", scope={"namespace": "sales"})
    assert _colours(sales) == ["blue"]
    # a timed read keeps the same order
    at = datetime.now(UTC)
    assert _colours(await memory.read(QUERY, user_id="bob", as_of_recorded=at)) == ["red"]
    timed = await memory.read(QUERY, user_id="bob", scope={"namespace": "sales"}, as_of=at)
    assert _colours(timed) == ["blue"]
    # no level superseded another when it was written
    assert {f.value for f in await memory.facts(scope=ORG)} == {"blue"}
    assert {f.value for f in await memory.facts(scope=NAMESPACE)} == {"red"}
