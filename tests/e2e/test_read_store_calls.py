"""A read asks the store once for what it used to ask in two calls (each a thread hop
on SQLite, a round trip on PostgreSQL): the fact rows with the open conflicts, the
packet's items with its facts, the named entities' aliases with the graph. Counted on
the real store of each backend."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from cognimem import Memory, Settings
from cognimem.providers.embeddings import EmbedKind, FloatMatrix
from cognimem.providers.fakes import HashingEmbedder

COUNTED = (
    "fact_rows",
    "find_conflicts",
    "get_items",
    "get_facts",
    "fact_rows_and_conflicts",
    "fact_rows_conflicts_shared",
    "items_and_facts",
    "find_aliases",
    "graph_edges",
    "aliases_and_graph",
)


def count_calls(store: Any, calls: Counter[str]) -> None:
    def wrap(name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return await method(*args, **kwargs)

        return counted

    for name in COUNTED:
        setattr(store, name, wrap(name, getattr(store, name)))


async def test_a_read_fetches_facts_with_conflicts_and_items_with_facts(memory: Memory) -> None:
    await memory.write(
        {"role": "user", "name": "Ann", "content": "I'm allergic to peanuts and my sister is Bea"},
        user_id="u",
    )
    calls: Counter[str] = Counter()
    count_calls(memory.store, calls)
    packet = await memory.read("what is Ann allergic to?", user_id="u")
    assert packet.items
    assert packet.sections.entries()  # the fact rows were read and picked from
    assert calls == Counter(
        {"fact_rows_conflicts_shared": 1, "items_and_facts": 1, "aliases_and_graph": 1}
    )


class QueryOrder(HashingEmbedder):
    """The hashing embedder, noting each query it embeds in ``order``."""

    def __init__(self, order: list[str]) -> None:
        super().__init__()
        self.order = order

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        if kind == "query":
            self.order.append("embed the query")
        return await super().embed(texts, kind)


STEP_CALLS = (
    "lexical_search",
    "vector_searches",
    "fact_rows_conflicts_shared",
    "aliases_and_graph",
    "find_facts",
    "list_procedures",
)


async def test_a_read_starts_embedding_the_query_before_its_steps_ask_the_store(
    memory_url: str,
) -> None:
    order: list[str] = []
    async with Memory.open(memory_url, settings=Settings(), embedder=QueryOrder(order)) as mem:
        await mem.write(
            {"role": "user", "name": "Ann", "content": "I'm allergic to peanuts, says Ann"},
            user_id="u",
        )
        order.clear()
        for name in STEP_CALLS:
            method = getattr(mem.store, name)

            async def noted(
                *args: Any, _name: str = name, _method: Any = method, **kwargs: Any
            ) -> Any:
                order.append(_name)
                return await _method(*args, **kwargs)

            setattr(mem.store, name, noted)
        packet = await mem.read("what is Ann allergic to?", user_id="u")
    assert packet.items
    # the embedding (the read's longest wait) is asked for first, then the steps run
    assert order[0] == "embed the query"
    assert {"lexical_search", "vector_searches", "fact_rows_conflicts_shared"} <= set(order)
