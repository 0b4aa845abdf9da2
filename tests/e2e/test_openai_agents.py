"""The OpenAI Agents SDK's own interfaces over cognimem
(``cognimem.integrations.openai_agents``), with the real SDK and its own scripted model
(``agents.testing.ScriptedModel``, no network): the ``Session`` through ``Memory`` and
over real HTTP on both backends (the ``face`` fixture), blocking through ``SyncMemory``,
and runs of an agent whose model sees, in a later session, the constraint said in an
earlier one, through the ``recall`` tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner, Session, SessionSettings, TResponseInputItem
from agents.testing import ScriptedModel, assistant_message, function_call

from cognimem import AsyncMemoryClient, Memory, Settings, SyncMemory
from cognimem.integrations.openai_agents import CognimemSession, memory_tools
from cognimem.providers.fakes import HashingEmbedder

ALLERGY = "I'm allergic to shellfish"
RUN = RunConfig(tracing_disabled=True)  # the SDK's traces would be sent to its service


def conversation() -> list[TResponseInputItem]:
    """Items of every kind a run adds: messages in both forms, a call and its output,
    and one message said three times (cognimem joins a near-duplicate to the first
    one's memory: each comes back in its place all the same)."""
    return [
        {"role": "user", "content": ALLERGY},
        {"role": "user", "content": "yes"},
        {
            "id": "msg-1",
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Noted.", "annotations": []}],
        },
        {"role": "user", "content": [{"type": "input_text", "text": "Find a place in Lisbon"}]},
        {
            "type": "function_call",
            "call_id": "call-1",
            "name": "find_restaurant",
            "arguments": '{"city": "Lisbon"}',
        },
        {"type": "function_call_output", "call_id": "call-1", "output": "Tasca do Chico"},
        {"role": "user", "content": "yes"},
        {"role": "user", "content": "yes"},
    ]


async def test_the_session_gives_back_every_item_in_order(
    face: Memory | AsyncMemoryClient,
) -> None:
    session = CognimemSession(face, user_id="ada", session_id="s-1", namespace="chat")
    assert isinstance(session, Session)  # the SDK's own (runtime-checkable) protocol
    said = conversation()
    await session.add_items(said[:2])
    await session.add_items(said[2:])
    assert await session.get_items() == said
    assert await session.get_items(limit=3) == said[-3:]
    assert await session.get_items(limit=0) == []
    other = CognimemSession(face, user_id="ada", session_id="s-2", namespace="chat")
    assert await other.get_items() == []
    await other.add_items([{"role": "user", "content": "another session"}])

    assert await session.pop_item() == said[-1]
    assert await session.get_items() == said[:-1]
    await session.clear_session()
    assert await session.get_items() == []
    assert await session.pop_item() is None
    assert await other.get_items() == [{"role": "user", "content": "another session"}]
    # the settings' limit is the default of a read
    limited = CognimemSession(
        face, user_id="ada", session_id="s-2", namespace="chat",
        session_settings=SessionSettings(limit=0),
    )  # fmt: skip
    assert await limited.get_items() == []


def said_to_the_model(model: ScriptedModel) -> list[list[Any]]:
    """The input of each call of the model, as it was called."""
    return [list(call.input) for call in model.calls]


async def test_a_constraint_said_in_one_session_reaches_the_model_in_the_next(
    face: Memory | AsyncMemoryClient,
) -> None:
    model = ScriptedModel(
        [
            # monday: the user states the constraint; the model notes a preference too
            [function_call("remember", {"text": "I prefer a table by the window"}, call_id="r")],
            [assistant_message("Noted: no shellfish.")],
            # monday, later: the session gives the model the conversation so far
            [assistant_message("Anything else?")],
            # friday, a new session: the model recalls before answering
            [function_call("recall", {"query": "a restaurant for dinner"}, call_id="c")],
            [assistant_message("Try the mushroom risotto place, by the window.")],
        ]
    )
    agent = Agent(
        name="assistant",
        instructions="Help the user choose where to eat.",
        model=model,
        tools=memory_tools(face, user_id="ada", namespace="chat"),
    )
    monday = CognimemSession(face, user_id="ada", session_id="monday", namespace="chat")
    await Runner.run(agent, ALLERGY, session=monday, run_config=RUN)
    await Runner.run(agent, "Thanks!", session=monday, run_config=RUN)
    friday = CognimemSession(face, user_id="ada", session_id="friday", namespace="chat")
    result = await Runner.run(
        agent, "Can you recommend a restaurant for dinner?", session=friday, run_config=RUN
    )
    assert result.final_output == "Try the mushroom risotto place, by the window."
    model.assert_complete()

    calls = said_to_the_model(model)
    # the same session: the earlier turn is in the model's input
    later_monday = calls[2]
    assert later_monday[0] == {"role": "user", "content": ALLERGY}
    assert later_monday[-1] == {"role": "user", "content": "Thanks!"}
    # a new session: no history, and the constraint comes back through recall
    friday_input = calls[4]
    asked = {"role": "user", "content": "Can you recommend a restaurant for dinner?"}
    assert friday_input[0] == asked
    [recalled] = [i["output"] for i in friday_input if i.get("type") == "function_call_output"]
    assert recalled.startswith(f"## Memory\n\n### Must follow\n- {ALLERGY}\n")
    assert "window" in recalled
    # each session holds its own turns
    assert (await friday.get_items())[0] == asked
    kinds = [i.get("type", i.get("role")) for i in await monday.get_items()]
    assert kinds == ["user", "function_call", "function_call_output", "message", "user", "message"]


@pytest.mark.usefixtures("closes_the_threads_loop")
def test_a_blocking_run_over_sync_memory(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    with SyncMemory.open(url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        model = ScriptedModel([[assistant_message("Noted.")], [assistant_message("Sure.")]])
        agent = Agent(name="assistant", model=model)
        session = CognimemSession(mem, user_id="ada", session_id="s-1")
        Runner.run_sync(agent, ALLERGY, session=session, run_config=RUN)
        Runner.run_sync(agent, "Where should I eat?", session=session, run_config=RUN)
        assert said_to_the_model(model)[1][0] == {"role": "user", "content": ALLERGY}
        packet = mem.read("a restaurant for dinner", user_id="ada")
        assert [c.text for c in packet.sections.must_follow] == [ALLERGY]
