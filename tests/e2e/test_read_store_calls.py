"""A read asks the store once for what it used to ask in two calls (each a thread hop
on SQLite, a round trip on PostgreSQL): the fact rows with the open conflicts, the
packet's items with its facts, the named entities' aliases with the graph. Counted on
the real store of each backend."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from cognimem import Memory

COUNTED = (
    "fact_rows",
    "find_conflicts",
    "get_items",
    "get_facts",
    "fact_rows_and_conflicts",
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
        {"fact_rows_and_conflicts": 1, "items_and_facts": 1, "aliases_and_graph": 1}
    )
