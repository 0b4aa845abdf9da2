"""LlamaIndex's own memory interface over cognimem (``cognimem.integrations.llamaindex``),
with the real library and its own mock LLM (no network): the memory block in a
``Memory`` through cognimem's ``Memory`` and over real HTTP on both backends (the
``face`` fixture), blocking through ``SyncMemory``, and a ``FunctionAgent`` whose LLM
sees, in a later session, the constraint said in an earlier one, in its system
message."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.llms import ChatMessage
from llama_index.core.llms.mock import MockFunctionCallingLLMWithChatMemoryOfLastCall
from llama_index.core.memory import Memory as LlamaMemory
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from cognimem import AsyncMemoryClient, Memory, Settings, SyncMemory
from cognimem.integrations.llamaindex import CognimemMemoryBlock
from cognimem.providers.fakes import HashingEmbedder

# llama-index-workflows reads pydantic v1 attributes (`__fields__`, `__fields_set__`,
# `model_computed_fields` on an instance) of the agent when it looks for its steps: the
# library's deprecation warnings, not ours (cognimem's code is covered by the other tests)
pytestmark = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")

ALLERGY = "I'm allergic to shellfish"
ASKED = "Can you recommend a restaurant for dinner?"


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """The database of LlamaIndex's chat store (its short-term queue), closed after."""
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'chat.db'}")
    yield engine
    await engine.dispose()


def chat(engine: AsyncEngine, session_id: str, block: CognimemMemoryBlock) -> LlamaMemory:
    return LlamaMemory.from_defaults(
        session_id=session_id, memory_blocks=[block], async_engine=engine
    )


async def test_a_constraint_said_in_one_session_reaches_the_system_message_of_the_next(
    face: Memory | AsyncMemoryClient, engine: AsyncEngine
) -> None:
    llm = MockFunctionCallingLLMWithChatMemoryOfLastCall()
    agent = FunctionAgent(llm=llm, tools=[], system_prompt="Help the user choose where to eat.")
    block = CognimemMemoryBlock(memory=face, user_id="ada", namespace="chat")

    monday = chat(engine, "monday", block)
    await agent.run(ALLERGY, memory=monday)
    assert llm.last_chat_messages is not None
    assert "shellfish" not in str(llm.last_chat_messages[0].content)

    friday = chat(engine, "friday", block)
    await agent.run(ASKED, memory=friday)
    # the agent's system prompt, then the Memory's system message with the packet
    prompt, memory, asked = llm.last_chat_messages
    assert prompt.content == "Help the user choose where to eat."
    assert memory.role == "system"
    assert str(memory.content).startswith(
        f"<memory>\n<cognimem>\n## Memory\n\n### Must follow\n- {ALLERGY}\n"
    )
    assert asked.content == ASKED
    # each user message was written into its session, as the user's
    for session, text in (("monday", ALLERGY), ("friday", ASKED)):
        items = await face.list_items(
            scope={"namespace": "chat", "session_id": session}, user_id="ada"
        )
        assert [i.text for i in items] == [text]
    # another user's block sees none of it
    bob = CognimemMemoryBlock(memory=face, user_id="bob", namespace="chat")
    assert "shellfish" not in await bob.aget([ChatMessage(role="user", content=ASKED)])


async def test_flushed_messages_are_written_once(face: Memory | AsyncMemoryClient) -> None:
    """What ``Memory`` flushes from its short-term queue reaches the block through
    ``aput``; a message the block wrote when it was asked about is not written again."""
    block = CognimemMemoryBlock(memory=face, user_id="ada")
    said = [ChatMessage(role="user", content=ALLERGY)]
    assert "No relevant memories" in await block.aget(said, session_id="s-1")
    flushed = [
        ChatMessage(role="user", content=ALLERGY),
        ChatMessage(role="assistant", content="Noted: no shellfish."),
    ]
    await block.aput(flushed, from_short_term_memory=True, session_id="s-1")
    await block.aput(flushed, from_short_term_memory=True, session_id="s-1")  # again
    stats = await face.stats(user_id="ada")
    assert stats.events == 2
    items = await face.list_items(scope={"session_id": "s-1"}, user_id="ada")
    assert sorted(i.text for i in items) == sorted(m.content or "" for m in flushed)
    # the same words in another session are another message
    await block.aput(flushed[:1], session_id="s-2")
    assert (await face.stats(user_id="ada")).events == 3
    # a block that takes no flushed messages writes none
    closed = CognimemMemoryBlock(memory=face, user_id="bob", accept_short_term_memory=False)
    await closed.aput(flushed, from_short_term_memory=True, session_id="s-1")
    assert (await face.stats(user_id="bob")).events == 0


async def test_the_async_block_over_sync_memory(tmp_path: Path, engine: AsyncEngine) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    # a blocking Memory cannot open inside a running loop: a script opened it elsewhere
    mem = await asyncio.to_thread(
        SyncMemory.open, url, settings=Settings(), embedder=HashingEmbedder()
    )
    try:
        block = CognimemMemoryBlock(memory=mem, user_id="ada")
        memory = chat(engine, "s-1", block)
        await memory.aput(ChatMessage(role="user", content=ALLERGY))
        await memory.aget()  # the block writes the user's message
        later = chat(engine, "s-2", block)
        [system] = await later.aget(input=ASKED)  # the packet; the history is empty
        assert ALLERGY in str(system.content)
    finally:
        await asyncio.to_thread(mem.close)
