"""LangGraph's own interfaces over cognimem (``cognimem.integrations.langgraph``), with
the real library: the ``BaseStore`` through ``Memory`` and over HTTP on both backends,
blocking through ``SyncMemory`` and ``MemoryClient``, and a compiled graph whose fake
chat model sees, in its second turn, the constraint said in its first."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.store.base import BaseStore, InvalidNamespaceError

from cognimem import AsyncMemoryClient, Memory, MemoryClient, Settings, SyncMemory, UsageError
from cognimem.api import create_app
from cognimem.integrations.langgraph import CognimemStore, MemoryHooks
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import serving

ALLERGY = "I'm allergic to shellfish"


@pytest.fixture
def store(face: Memory | AsyncMemoryClient) -> CognimemStore:
    """The store over ``Memory`` in-process, and over real HTTP."""
    return CognimemStore(face, fields=["text"])


async def test_put_get_search_delete_and_list_namespaces(store: CognimemStore) -> None:
    alice, bob = ("memories", "alice"), ("memories", "bob")
    await store.aput(alice, "allergy", {"text": ALLERGY, "topic": "health"})
    await store.aput(alice, "hobby", {"text": "I love hiking in the Alps", "topic": "leisure"})
    await store.aput(bob, "allergy", {"text": "I love swimming in the sea", "topic": "leisure"})

    got = await store.aget(alice, "allergy")
    assert got is not None
    assert (got.namespace, got.key, got.value) == (
        alice,
        "allergy",
        {"text": ALLERGY, "topic": "health"},
    )
    assert await store.aget(alice, "nothing") is None
    assert await store.aget(("memories", "carol"), "allergy") is None

    # cognimem's ranking: the allergy is the constraint a restaurant question needs
    [first, *_] = await store.asearch(alice, query="recommend a restaurant for dinner")
    assert (first.key, first.namespace) == ("allergy", alice)
    assert first.score is not None
    assert first.score > 0
    hits = await store.asearch(alice, query="hiking in the mountains", limit=1)
    assert [h.key for h in hits] == ["hobby"]
    # only alice's, though bob's key is the same
    assert {h.namespace for h in await store.asearch(alice, query="allergic")} == {alice}
    # a shorter namespace spans every user of it; a filter matches the values
    leisure = await store.asearch(("memories",), filter={"topic": "leisure"})
    assert sorted((h.namespace, h.key) for h in leisure) == [(alice, "hobby"), (bob, "allergy")]
    assert [h.key for h in await store.asearch(alice, filter={"topic": {"$ne": "health"}})] == [
        "hobby"
    ]
    assert len(await store.asearch(("memories",), limit=2, offset=2)) == 1

    # a put to a key replaces its value and keeps when it was first put
    await store.aput(alice, "allergy", {"text": "I'm allergic to peanuts", "topic": "health"})
    updated = await store.aget(alice, "allergy")
    assert updated is not None
    assert updated.value["text"] == "I'm allergic to peanuts"
    assert updated.created_at == got.created_at
    assert updated.updated_at > got.updated_at
    # the same value again, after it was replaced, is stored again (not a duplicate)
    await store.aput(alice, "allergy", {"text": ALLERGY, "topic": "health"})
    again = await store.aget(alice, "allergy")
    assert again is not None
    assert again.value["text"] == ALLERGY
    assert [h.key for h in await store.asearch(alice, filter={"topic": "health"})] == ["allergy"]

    await store.adelete(alice, "allergy")
    assert await store.aget(alice, "allergy") is None
    assert [h.key for h in await store.asearch(alice)] == ["hobby"]
    assert (await store.aget(bob, "allergy")) is not None

    await store.aput(("memories", "alice", "trip-1"), "plan", {"text": "Lisbon in June"})
    assert await store.alist_namespaces() == [
        ("memories", "alice"),
        ("memories", "alice", "trip-1"),
        ("memories", "bob"),
    ]
    assert await store.alist_namespaces(suffix=("bob",)) == [bob]
    assert await store.alist_namespaces(prefix=("memories", "*"), max_depth=2) == [alice, bob]
    assert await store.alist_namespaces(limit=1, offset=1) == [("memories", "alice", "trip-1")]


async def test_a_memory_written_elsewhere_is_found_by_its_item_id(memory: Memory) -> None:
    store = CognimemStore(memory)
    written = await memory.write("We adopted a cat named Miso", scope={"namespace": "memories"},
                                 user_id="alice")  # fmt: skip
    [item_id] = written.item_ids
    found = await store.aget(("memories", "alice"), item_id)
    assert found is not None
    assert found.value == {"text": "We adopted a cat named Miso", "kind": "episode"}
    assert await store.aget(("memories", "bob"), item_id) is None
    [hit] = await store.asearch(("memories", "alice"), query="cat Miso")
    assert hit.key == item_id
    await store.adelete(("memories", "alice"), item_id)
    assert await store.asearch(("memories", "alice"), query="cat Miso") == []


async def test_what_cognimem_cannot_hold_is_refused_before_anything_is_written(
    memory: Memory,
) -> None:
    store = CognimemStore(memory)
    with pytest.raises(InvalidNamespaceError, match="at most 3 labels"):
        await store.aput(("a", "b", "c", "d"), "k", {"text": "deep"})
    with pytest.raises(InvalidNamespaceError, match="not a cognimem id"):
        await store.aput(("memories", "ada lovelace"), "k", {"text": "a space"})
    with pytest.raises(InvalidNamespaceError, match="at least"):
        await store.asearch((), query="anything")
    with pytest.raises(NotImplementedError, match="TTL"):
        await store.aput(("memories", "ada"), "k", {"text": "x"}, ttl=5)
    with pytest.raises(ValueError, match="no text"):
        await CognimemStore(memory, fields=["text"]).aput(("memories", "ada"), "k", {"n": 1})
    assert (await memory.stats(all_users=True, scope={"namespace": "memories"})).events == 0
    # a blocking call from inside the Memory's event loop would wait on itself
    with pytest.raises(UsageError, match="aget"):
        store.get(("memories", "ada"), "k")


# -- blocking callers ------------------------------------------------------------------
def check_blocking(store: BaseStore) -> None:
    store.put(("memories", "ada"), "allergy", {"text": ALLERGY})
    store.put(("memories", "ada"), "pet", {"text": "My tabby kitten is called Tofu"})
    got = store.get(("memories", "ada"), "allergy")
    assert got is not None
    assert got.value == {"text": ALLERGY}
    hits = store.search(("memories", "ada"), query="what is my kitten called?", limit=1)
    assert [h.key for h in hits] == ["pet"]
    store.delete(("memories", "ada"), "pet")
    assert store.get(("memories", "ada"), "pet") is None
    assert store.list_namespaces() == [("memories", "ada")]


def test_a_blocking_store_over_sync_memory(db_url: str) -> None:
    with SyncMemory.open(db_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        check_blocking(CognimemStore(mem, fields=["text"]))


@pytest.fixture
def base_url(db_url: str) -> Iterator[str]:
    memory = Memory.open(db_url, embedder=HashingEmbedder())
    with serving(create_app(memory)) as url:
        yield url


def test_a_blocking_store_over_the_blocking_client(base_url: str, db_url: str) -> None:
    with MemoryClient(base_url, api_key=issue_api_key(db_url), timeout=30) as client:
        check_blocking(CognimemStore(client, fields=["text"]))


async def test_the_async_methods_over_a_blocking_memory(db_url: str) -> None:
    # a blocking Memory cannot open inside a running loop: a script opened it elsewhere
    mem = await asyncio.to_thread(
        SyncMemory.open, db_url, settings=Settings(), embedder=HashingEmbedder()
    )
    try:
        store = CognimemStore(mem, fields=["text"])
        await store.aput(("memories", "ada"), "allergy", {"text": ALLERGY})
        assert [h.key for h in await store.asearch(("memories", "ada"), query="shellfish")] == [
            "allergy"
        ]
    finally:
        await asyncio.to_thread(mem.close)


# -- a graph with a fake chat model ------------------------------------------------------
class Prompts(BaseCallbackHandler):
    """What each chat model call was prompted with, by LangChain's own callbacks."""

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


class AgentState(MessagesState):
    llm_input_messages: list[AnyMessage]


def agent(hooks: MemoryHooks, prompts: Prompts) -> Any:
    """pre-model hook → model → post-model hook, as LangGraph's prebuilt agents wire them."""
    model = GenericFakeChatModel(
        messages=iter(
            [AIMessage("Noted, no shellfish."), AIMessage("Try the mushroom risotto place.")]
        ),
        callbacks=[prompts],
    )

    async def call_model(state: AgentState) -> dict[str, list[AnyMessage]]:
        return {"messages": [await model.ainvoke(state["llm_input_messages"])]}

    graph = StateGraph(AgentState)
    graph.add_node("recall", hooks.pre_model_hook)
    graph.add_node("model", call_model)
    graph.add_node("remember", hooks.post_model_hook)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "model")
    graph.add_edge("model", "remember")
    graph.add_edge("remember", END)
    return graph.compile()


async def test_a_constraint_said_in_one_turn_reaches_the_prompt_of_the_next(
    memory: Memory,
) -> None:
    prompts = Prompts()
    graph = agent(MemoryHooks(memory, namespace="chat"), prompts)
    config = {"configurable": {"user_id": "ada", "thread_id": "t-1"}}
    await graph.ainvoke({"messages": [HumanMessage(ALLERGY)]}, config)
    # another thread: the constraint is the user's, not the thread's
    second = {"configurable": {"user_id": "ada", "thread_id": "t-2"}}
    out = await graph.ainvoke(
        {"messages": [HumanMessage("Can you recommend a restaurant for dinner?")]}, second
    )
    first_prompt, second_prompt = prompts.prompts
    assert "shellfish" not in first_prompt[0].text
    assert first_prompt[-1].text == ALLERGY
    system, asked = second_prompt
    assert system.type == "system"
    assert "shellfish" in system.text
    # the constraint heads the packet, before any ranked memory
    assert system.text.startswith(f"## Memory\n\n### Must follow\n- {ALLERGY}\n")
    assert asked.text == "Can you recommend a restaurant for dinner?"
    # the state keeps the conversation, not the packet
    assert [m.type for m in out["messages"]] == ["human", "ai"]
    # both turns were written, each in its thread's session
    sessions = {
        s.id for s in await memory.list_sessions(scope={"namespace": "chat"}, user_id="ada")
    }
    stats = await memory.stats(scope={"namespace": "chat"}, user_id="ada")
    assert stats.events == 4
    assert sessions <= {"t-1", "t-2"}


def test_the_hooks_need_a_user(tmp_path: Path) -> None:
    with SyncMemory.open(
        f"sqlite:///{tmp_path / 'm.db'}", settings=Settings(), embedder=HashingEmbedder()
    ) as mem:
        hooks = MemoryHooks(mem)
        with pytest.raises(UsageError, match="user_id"):
            hooks.pre_model_hook.invoke({"messages": [HumanMessage("hi")]}, {})
        state = {"messages": [HumanMessage(ALLERGY), AIMessage("Noted.")]}
        config = {"configurable": {"user_id": "ada"}}
        assert hooks.post_model_hook.invoke(state, config) == {}
        packet = hooks.pre_model_hook.invoke({"messages": [HumanMessage("dinner ideas?")]}, config)
        assert "shellfish" in packet["llm_input_messages"][0].text
