"""Pydantic AI's own interfaces over cognimem (``cognimem.integrations.pydantic_ai``),
with the real library and its own test models (``FunctionModel``, ``TestModel``; real
model requests are refused for the whole module): the toolset and the instructions
through ``Memory`` and over real HTTP on both backends (the ``face`` fixture), and
runs of an agent whose model sees, in a later run, the constraint said in an earlier one,
in its system prompt."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic_ai import Agent, ModelMessage, ModelResponse, TextPart, ToolCallPart, models
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from cognimem import AsyncMemoryClient, Memory, Settings, SyncMemory
from cognimem.integrations.pydantic_ai import CognimemToolset, MemoryDeps
from cognimem.providers.fakes import HashingEmbedder

ALLERGY = "I'm allergic to shellfish"


@pytest.fixture(autouse=True)
def no_model_requests() -> Iterator[None]:
    """Pydantic AI's kill switch: a real model request fails the test."""
    allowed = models.ALLOW_MODEL_REQUESTS
    models.ALLOW_MODEL_REQUESTS = False
    yield
    models.ALLOW_MODEL_REQUESTS = allowed


class Script:
    """A ``FunctionModel`` function that records each request's instructions: it calls
    ``remember`` with what the user said when asked to remember it, else answers."""

    def __init__(self) -> None:
        self.instructions: list[str] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.instructions.append(info.instructions or "")
        asked = messages[0].parts[-1].content  # the run's prompt
        if len(messages) == 1 and isinstance(asked, str) and asked.startswith("Remember: "):
            text = asked.removeprefix("Remember: ")
            return ModelResponse(parts=[ToolCallPart("remember", {"text": text})])
        return ModelResponse(parts=[TextPart("Noted.")])


async def test_a_constraint_remembered_in_one_run_reaches_the_system_prompt_of_the_next(
    face: Memory | AsyncMemoryClient,
) -> None:
    script = Script()
    agent = Agent(FunctionModel(script), deps_type=MemoryDeps, toolsets=[CognimemToolset()])
    monday = MemoryDeps(face, user_id="ada", namespace="chat", session_id="monday")
    await agent.run(f"Remember: {ALLERGY}", deps=monday)
    friday = MemoryDeps(face, user_id="ada", namespace="chat", session_id="friday")
    result = await agent.run("Can you recommend a restaurant for dinner?", deps=friday)
    assert result.output == "Noted."

    first, _after_the_tool, later = script.instructions
    assert "shellfish" not in first
    # the packet, constraint first, in the system prompt of the later run
    assert later.startswith(f"## Memory\n\n### Must follow\n- {ALLERGY}")
    # the note was written in the session named, as the user's
    noted = await face.list_items(
        scope={"namespace": "chat", "session_id": "monday"}, user_id="ada"
    )
    assert [i.text for i in noted] == [ALLERGY]
    assert [i.role for i in await face.get_events(noted[0].source_event_ids)] == ["user"]
    # another user's runs see none of it
    bob = MemoryDeps(face, user_id="bob", namespace="chat")
    await agent.run("Can you recommend a restaurant for dinner?", deps=bob)
    assert "shellfish" not in script.instructions[-1]


async def test_every_tool_through_the_test_model(face: Memory | AsyncMemoryClient) -> None:
    """Pydantic AI's ``TestModel`` calls each tool with arguments made from its schema,
    then answers with what the tools returned."""
    deps = MemoryDeps(face, user_id="ada")
    await face.write(ALLERGY, user_id="ada")
    model = TestModel(call_tools=["remember", "recall"])
    agent = Agent(model, deps_type=MemoryDeps, toolsets=[CognimemToolset(instructions=False)])
    result = await agent.run("What do you know about me?", deps=deps)
    assert model.last_model_request_parameters is not None
    tools = {t.name for t in model.last_model_request_parameters.function_tools}
    assert tools == {"remember", "recall", "forget"}
    assert "Remembered (1 memories): a" in result.output
    assert "## Memory" in result.output
    # forget: a query the memory matches, and the memory is gone
    forget = Agent(
        forgetting(ALLERGY),
        deps_type=MemoryDeps,
        toolsets=[CognimemToolset(instructions=False)],
    )
    assert (await forget.run("Forget my allergy", deps=deps)).output == "Forgot 1 memories."
    packet = await face.read("shellfish allergy", user_id="ada")
    assert ALLERGY not in packet.to_markdown()


def forgetting(query: str) -> FunctionModel:
    def call(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("forget", {"query": query})])
        return ModelResponse(parts=[TextPart(str(messages[-1].parts[0].content))])

    return FunctionModel(call)


@pytest.mark.usefixtures("closes_the_threads_loop")
def test_a_blocking_run_over_sync_memory(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    with SyncMemory.open(url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        script = Script()
        agent = Agent(FunctionModel(script), deps_type=MemoryDeps, toolsets=[CognimemToolset()])
        deps = MemoryDeps(mem, user_id="ada")
        agent.run_sync(f"Remember: {ALLERGY}", deps=deps)
        agent.run_sync("Where should I eat tonight?", deps=deps)
        assert ALLERGY in script.instructions[-1]
