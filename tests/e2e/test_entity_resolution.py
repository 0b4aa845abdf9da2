"""Entity resolution against a real SQLite store: alias, fuzzy, ambiguous, new."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cognimem.ingest.entities import EntityResolver, Mention
from cognimem.models import Scope
from cognimem.models.knowledge import EntityType
from cognimem.store.sqlite import SQLiteStore
from cognimem.store.types import Knowledge

NOW = datetime(2024, 1, 1, tzinfo=UTC)
ALICE = Scope(user_id="alice")
BOB = Scope(user_id="bob")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "e.db")
    await s.open()
    yield s
    await s.close()


async def learn(store: SQLiteStore, scope: Scope, *names: str) -> dict[str, str]:
    resolved = await EntityResolver(store).resolve(
        scope, [Mention(n, EntityType.PERSON) for n in names], NOW
    )
    await store.commit([], 300, Knowledge(entities=resolved.new_entities, aliases=resolved.aliases))
    return {n: resolved.entity_id(n) or "" for n in names}


async def test_exact_alias_fuzzy_and_new(store: SQLiteStore) -> None:
    first = await learn(store, ALICE, "Sarah", "Christopher")
    resolver = EntityResolver(store)
    again = await resolver.resolve(
        ALICE, [Mention("sarah"), Mention("Christoper"), Mention("Dmitri")], NOW
    )
    assert again.by_name["sarah"].method == "alias"
    assert again.by_name["sarah"].entity_id == first["Sarah"]
    typo = again.by_name["christoper"]
    assert (typo.method, typo.entity_id) == ("fuzzy", first["Christopher"])
    assert again.by_name["dmitri"].method == "new"
    assert [e.name for e in again.new_entities] == ["Dmitri"]
    # the fuzzy match is learned as an alias: next time it is exact
    await store.commit([], 300, Knowledge(entities=again.new_entities, aliases=again.aliases))
    later = await resolver.resolve(ALICE, [Mention("Christoper")], NOW)
    assert later.by_name["christoper"].method == "alias"


async def test_ambiguous_mentions_keep_candidates_and_do_not_guess(store: SQLiteStore) -> None:
    ids = await learn(store, ALICE, "Jonathan", "Jonathon")
    resolved = await EntityResolver(store).resolve(ALICE, [Mention("Jonathen")], NOW)
    found = resolved.by_name["jonathen"]
    assert found.method == "ambiguous"
    assert found.entity_id is None
    assert sorted(found.candidates) == sorted(ids.values())
    assert resolved.new_entities == []
    assert resolved.aliases == []


async def test_users_do_not_share_their_entities(store: SQLiteStore) -> None:
    mine = await learn(store, ALICE, "Sarah")
    theirs = await EntityResolver(store).resolve(BOB, [Mention("Sarah")], NOW)
    assert theirs.by_name["sarah"].method == "new"
    assert theirs.entity_id("Sarah") != mine["Sarah"]
