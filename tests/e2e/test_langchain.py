"""LangChain's own interfaces over cognimem (``cognimem.integrations.langchain``), with
the real library: the chat message history and the retriever through ``Memory`` and
over real HTTP on both backends (the ``face`` fixture), blocking through ``SyncMemory``,
and a chain with history whose fake chat model sees, in a later session, the constraint
said in an earlier one."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import RunnablePassthrough

from cognimem import Memory, Settings, SyncMemory
from cognimem.integrations.langchain import CognimemChatMessageHistory, CognimemRetriever
from cognimem.providers.fakes import HashingEmbedder

ALLERGY = "I'm allergic to shellfish"


def conversation() -> list[BaseMessage]:
    call = {"name": "find_restaurant", "args": {"city": "Lisbon"}, "id": "call-1"}
    return [
        HumanMessage(ALLERGY),
        AIMessage("Noted: no shellfish."),
        HumanMessage("Find me a restaurant in Lisbon"),
        AIMessage("", tool_calls=[call]),
        ToolMessage("Tasca do Chico", tool_call_id="call-1"),
        AIMessage("Tasca do Chico is a good fit."),
        HumanMessage("yes"),
        HumanMessage("yes"),  # said twice: two messages
    ]


async def test_the_history_gives_back_every_message_in_order(face: Any) -> None:
    history = CognimemChatMessageHistory(face, user_id="ada", session_id="s-1", namespace="chat")
    said = conversation()
    await history.aadd_messages(said[:3])
    await history.aadd_messages(said[3:])
    assert await history.aget_messages() == said
    other = CognimemChatMessageHistory(face, user_id="ada", session_id="s-2", namespace="chat")
    assert await other.aget_messages() == []
    await other.aadd_messages([HumanMessage("another session")])
    await history.aclear()
    assert await history.aget_messages() == []
    assert [m.text for m in await other.aget_messages()] == ["another session"]


async def test_the_retriever_returns_the_constraint_first_with_its_provenance(
    face: Any,
) -> None:
    history = CognimemChatMessageHistory(face, user_id="ada", session_id="s-1")
    await history.aadd_messages(
        [HumanMessage(ALLERGY), HumanMessage("I went hiking in the Alps last summer")]
    )
    retriever = CognimemRetriever(memory=face, user_id="ada")
    docs = await retriever.ainvoke("Can you recommend a restaurant for dinner?")
    first = docs[0]
    assert first.page_content == ALLERGY
    assert first.metadata["section"] == "must_follow"
    [event] = await face.get_events(first.metadata["source_event_ids"])
    assert event.content == ALLERGY
    memories = [d for d in docs if d.metadata["section"] == "memories"]
    assert memories, docs
    for doc in memories:
        assert doc.metadata["source_event_ids"]
        assert doc.metadata["score"] > 0
    # another user's memories are not this one's
    assert await CognimemRetriever(memory=face, user_id="bob").ainvoke("shellfish") == []


def test_blocking_history_and_retriever_over_sync_memory(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    with SyncMemory.open(url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        history = CognimemChatMessageHistory(mem, user_id="ada", session_id="s-1")
        history.add_messages([HumanMessage(ALLERGY), AIMessage("Noted.")])
        assert [m.text for m in history.messages] == [ALLERGY, "Noted."]
        docs = CognimemRetriever(memory=mem, user_id="ada").invoke("a restaurant for dinner?")
        assert docs[0].page_content == ALLERGY
        history.clear()
        assert history.messages == []


class Prompts(BaseCallbackHandler):
    def __init__(self) -> None:
        self.prompts: list[list[BaseMessage]] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        **kwargs: Any,
    ) -> None:
        self.prompts.extend(messages)


def as_text(docs: list[Document]) -> str:
    return "\n".join(d.page_content for d in docs)


async def test_a_constraint_said_in_one_session_reaches_the_prompt_of_the_next(
    memory: Memory,
) -> None:
    prompts = Prompts()
    model = GenericFakeChatModel(
        messages=iter([AIMessage("Noted."), AIMessage("Try the mushroom risotto place.")]),
        callbacks=[prompts],
    )
    retriever = CognimemRetriever(memory=memory, user_id="ada")
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "What you know of the user:\n{memory}"),
            MessagesPlaceholder("history"),
            ("human", "{question}"),
        ]
    )
    chain = (
        RunnablePassthrough.assign(memory=(lambda x: x["question"]) | retriever | as_text)
        | prompt
        | model
    )

    async def ask(question: str, session_id: str) -> None:
        history = CognimemChatMessageHistory(memory, user_id="ada", session_id=session_id)
        past = await history.aget_messages()
        answer = await chain.ainvoke({"question": question, "history": past})
        await history.aadd_messages([HumanMessage(question), answer])

    await ask(ALLERGY, "monday")
    await ask("Can you recommend a restaurant for dinner?", "friday")
    _, later = prompts.prompts
    system, asked = later  # a new session: no history, the memory in the system prompt
    assert system.type == "system"
    assert ALLERGY in system.text
    assert asked.text == "Can you recommend a restaurant for dinner?"
    monday = CognimemChatMessageHistory(memory, user_id="ada", session_id="monday")
    assert [m.text for m in await monday.aget_messages()] == [ALLERGY, "Noted."]
