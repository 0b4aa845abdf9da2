"""One setting bounds every in-process copy of a scope (``COGNIMEM_CACHE_MAX_MB``):
a user's decoded facts and graph edges share the byte cap of the vector and lexical
copies, in one least-recently-used order. Through ``Memory`` on a real SQLite file and
on PostgreSQL: with a cap that holds about two users' copies, reading a third evicts
the least recently read user's, and a read of that user after the eviction finds what
an uncapped store finds."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import UTC, datetime
from typing import Any

from cognimem import Memory
from cognimem.config import Settings
from cognimem.providers.fakes import HashingEmbedder

USERS = ["ada", "bruno", "chiara"]
CITIES = {"ada": "Lisbon", "bruno": "Porto", "chiara": "Turin"}
WHEN = datetime(2030, 1, 1, tzinfo=UTC)


def _said(user: str) -> list[str]:
    city = CITIES[user]
    return [
        f"I live in {city} now.",
        "I love jazz and I play the violin on Sundays.",
        "My sister Marta is a nurse.",
        "I'm allergic to peanuts.",
        "I work as a baker at the corner bakery.",
        f"I prefer trains to planes when I travel from {city}.",
    ]


async def _read(mem: Memory, user: str) -> dict[str, Any]:
    packet = await mem.read(
        "where do I live, what do I like and what am I allergic to?",
        user_id=user,
        limit=20,
        reference_time=WHEN,
    )
    assert packet.degraded == []
    return {
        "items": sorted(i.id for i in packet.items),
        "facts": sorted(e.text for e in packet.sections.entries()),
    }


def _mine(key: Hashable, user: str) -> bool:
    return isinstance(key, tuple) and any(f"u:{user}" == k or user == k for k in key)


def _held(mem: Memory, user: str) -> dict[str, int]:
    """The sections and bytes of the user's copies the store holds now."""
    budget = mem.store.cache_budget  # type: ignore[attr-defined]
    out: dict[str, int] = {}
    for section, key, size in budget.held():
        if _mine(key, user):
            out[section] = out.get(section, 0) + size
    return out


def _same(held: dict[str, int], whole: dict[str, int]) -> bool:
    """The same sections, each of about the same bytes (an estimate from a sample; a
    PostgreSQL copy's row versions may have moved since)."""
    return held.keys() == whole.keys() and all(
        abs(held[k] - whole[k]) <= 0.1 * whole[k] for k in whole
    )


async def test_a_small_cap_evicts_the_least_recently_read_user_and_reads_stay_right(
    memory_url: str,
) -> None:
    uncapped: dict[str, dict[str, Any]] = {}
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        for user in USERS:
            await mem.write_batch(_said(user), user_id=user)
        for user in USERS:
            await _read(mem, user)
            uncapped[user] = await _read(mem, user)  # weighed again: postings built
        whole = {user: _held(mem, user) for user in USERS}
    for user in USERS:
        assert uncapped[user]["facts"], user  # the rules read facts to keep
        # the user's facts are among the copies the cap counts, beside the vectors
        assert any("fact" in section for section in whole[user]), whole[user]
    largest = max(sum(w.values()) for w in whole.values())
    cap = 2.5 * largest  # two users' copies fit, three do not
    settings = Settings(cache_max_mb=cap / 2**20)
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        budget = mem.store.cache_budget  # type: ignore[attr-defined]
        for user in USERS:
            assert await _read(mem, user) == uncapped[user], user
            assert await _read(mem, user) == uncapped[user], user
            assert budget.held_bytes <= cap
        first, _, last = USERS
        assert _same(_held(mem, last), whole[last])  # the most recent user's, whole
        # the least recently read user's went first
        assert sum(_held(mem, first).values()) < sum(whole[first].values())
        assert budget.evictions > 0
        # read again after the eviction: the same answer, and its copies back in
        assert await _read(mem, first) == uncapped[first]
        assert await _read(mem, first) == uncapped[first]
        assert _same(_held(mem, first), whole[first])
        assert budget.held_bytes <= cap
