"""The same corpus on both backends: SQLite and PostgreSQL rank and filter it alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cognimem.models import ItemKind, ItemStatus, Scope
from cognimem.store import ItemFilter
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.postgres import PostgresStore
from cognimem.store.sqlite import SQLiteStore
from tests.contract.builders import (
    WINDOW,
)
from tests.contract.conftest import T0, message, vec

PARITY_USERS = (
    Scope(tenant_id="t1", user_id="alice", session_id="s1"),
    Scope(tenant_id="t1", user_id="alice", session_id="s2"),
    Scope(tenant_id="t1", user_id="bob", session_id="s3"),
)


PARITY_CORPUS = [
    "the kayak trip on the lake was long and cold",
    "kayak kayak kayak paddle practice at dawn",
    "we bought a red kayak and a blue canoe",
    "canoe lessons on tuesday at the lake",
    "my sister visits the lake every summer",
    "summer summer summer vacation plans with my sister",
    "the violin recital was on friday evening",
    "violin strings need replacing before the recital",
    "grandma bakes rhubarb pie for the recital",
    "rhubarb grows behind the garage",
    "the garage door squeaks every morning",
    "morning coffee with oat milk",
    "oat milk oat milk oat milk shopping list",
    "allergic to peanuts and shellfish",
    "peanuts are banned at the school",
    "the school play is about a lighthouse",
    "lighthouse keeper stories from maine",
    "maine lobster dinner on friday",
    "dinner reservations for friday at eight",
    "eight hours of sleep is the goal",
    "sleep tracking ring battery died",
    "battery replacement for the car key",
    "car insurance renewal due in june",
    "june wedding of my cousin in portugal",
    "portugal trip planning with my cousin",
    "cousin recommended a portuguese bakery",
    "bakery on elm street sells rhubarb tarts",
    "elm street traffic is terrible on monday",
    "monday standup moved to ten",
    "ten minute walk to the lake from home",
]


@pytest.fixture
async def both_backends(
    tmp_path: Path, postgres_dsn: str
) -> AsyncIterator[tuple[SQLiteStore, PostgresStore]]:
    lite, pg = SQLiteStore(tmp_path / "parity.db"), PostgresStore(postgres_dsn)
    await lite.open()
    await pg.open()
    try:
        corpus = [
            message(
                text,
                PARITY_USERS[i % 3],
                at=T0 + timedelta(hours=i),
                kind=ItemKind.CONSTRAINT if i % 5 == 0 else ItemKind.EPISODE,
            )
            for i, text in enumerate(PARITY_CORPUS)
        ]
        # the very same pending messages (same ids) go into both stores
        assert [r.outcome for r in await lite.commit(corpus, WINDOW)] == [
            r.outcome for r in await pg.commit(corpus, WINDOW)
        ]
        yield lite, pg
    finally:
        await lite.close()
        await pg.close()


def _top(found: list[Any], n: int = 3) -> tuple[list[float], set[str]]:
    """Scores of the top ``n`` and every id scoring at least the ``n``-th (ties aside)."""
    scores = [round(c.score, 5) for c in found[:n]]
    cut = found[min(n, len(found)) - 1].score - 1e-6 if found else 0.0
    return scores, {c.item_id for c in found if c.score >= cut}


async def test_parity_sqlite_and_postgres_rank_the_same_corpus_alike(
    both_backends: tuple[SQLiteStore, PostgresStore],
) -> None:
    lite, pg = both_backends
    tenant = ItemFilter(scope=Scope(tenant_id="t1"))
    for terms in (
        ["kayak"],
        ["lake", "canoe"],
        ["summer", "sister"],
        ["rhubarb", "recital"],
        ["oat", "milk", "coffee"],
        ["friday", "dinner", "maine"],
        ["cousin", "portugal", "bakery"],
    ):
        a = await lite.lexical_search(tenant, terms, 30)
        b = await pg.lexical_search(tenant, terms, 30)
        assert _top(a) == _top(b), terms
        assert {c.item_id for c in a} == {c.item_id for c in b}, terms
    for text in ("kayak on the lake", "oat milk coffee", "friday dinner", "rhubarb pie bakery"):
        a = await lite.vector_search(tenant, vec(text), 10)
        b = await pg.vector_search(tenant, vec(text), 10)
        assert _top(a) == _top(b), text


async def test_parity_sqlite_and_postgres_filter_alike(
    both_backends: tuple[SQLiteStore, PostgresStore],
) -> None:
    lite, pg = both_backends
    alice = Scope(tenant_id="t1", user_id="alice")
    filters = [
        ItemFilter(scope=Scope(tenant_id="t1")),
        ItemFilter(scope=alice),
        ItemFilter(scope=PARITY_USERS[1]),
        ItemFilter(scope=PARITY_USERS[2]),
        ItemFilter(scope=alice, kinds=(ItemKind.CONSTRAINT,)),
        ItemFilter(scope=alice, since=T0 + timedelta(hours=10)),
        ItemFilter(scope=alice, until=T0 + timedelta(hours=10)),
        ItemFilter(scope=alice, since=T0 + timedelta(hours=5), until=T0 + timedelta(hours=20)),
        ItemFilter(scope=alice, statuses=(ItemStatus.ARCHIVED,)),
        ItemFilter(scope=Scope(tenant_id="t1", namespace="other")),
        ItemFilter(scope=Scope(tenant_id="t2", user_id="alice")),
    ]
    terms = ["the", "lake", "rhubarb", "friday", "milk", "my"]
    for flt in filters:
        assert await lite.count_items(flt) == await pg.count_items(flt), flt
        lex_a = await lite.lexical_search(flt, terms, 50)
        lex_b = await pg.lexical_search(flt, terms, 50)
        assert {c.item_id for c in lex_a} == {c.item_id for c in lex_b}, flt
        # both take BM25's statistics from the rows the filter lets through
        assert _top(lex_a, 5) == _top(lex_b, 5), flt
        vec_a = await lite.vector_search(flt, vec("the lake on friday"), 50)
        vec_b = await pg.vector_search(flt, vec("the lake on friday"), 50)
        assert {c.item_id for c in vec_a} == {c.item_id for c in vec_b}, flt
    for scope in PARITY_USERS:
        at = T0 + timedelta(hours=17)
        ea, eb = (
            await lite.previous_events(scope, at, limit=3),
            await pg.previous_events(scope, at, limit=3),
        )
        assert ea == eb


async def _lexical_alike(lite: SQLiteStore, pg: PostgresStore) -> None:
    alice = Scope(tenant_id="t1", user_id="alice")
    for flt in (
        ItemFilter(scope=Scope(tenant_id="t1")),
        ItemFilter(scope=alice),
        ItemFilter(scope=PARITY_USERS[1]),
        ItemFilter(scope=alice, kinds=(ItemKind.CONSTRAINT,)),
        ItemFilter(scope=alice, statuses=(ItemStatus.SILENT,)),
        ItemFilter(scope=alice, statuses=(ItemStatus.ACTIVE, ItemStatus.SILENT)),
    ):
        for terms in (["the", "lake", "rhubarb", "friday", "milk", "my"], ["kayak", "summer"]):
            lex_a = await lite.lexical_search(flt, terms, 50)
            lex_b = await pg.lexical_search(flt, terms, 50)
            assert {c.item_id for c in lex_a} == {c.item_id for c in lex_b}, (flt, terms)
            assert _top(lex_a, 5) == _top(lex_b, 5), (flt, terms)
            # one index and one BM25 on both: the very same ranking, ties included
            assert _ranked(lex_a) == _ranked(lex_b), (flt, terms)


def _ranked(found: list[Any]) -> list[tuple[str, float]]:
    return [(c.item_id, round(c.score, 9)) for c in found]


STEMMED_CORPUS = [
    "Running, runner, ran: connected connections connecting",
    "she runs every morning; he ran yesterday",
    "Café crème, naïve résumé and a piñata at the Zürich fête",
    "cafe creme at the cafe, a resume",
    "e-mail addresses (a.b@c.io), snake_case words and 3.14",
    "dogs and a dog's bowl; caring cares cared carefully",
    "Don't stop believin’ — “quotes”, ellipses… and dashes",
    "she got mentored by her coach; a friendship of years",
]


async def test_parity_words_are_stemmed_and_folded_alike(tmp_path: Path, postgres_dsn: str) -> None:
    """Both backends index words alike (case and diacritics folded, split on what is not
    a letter or digit, in their ``text/stems.py`` forms): "dogs" finds "dog" and
    "mentorship" finds "mentored" on both."""
    lite, pg = SQLiteStore(tmp_path / "stems.db"), PostgresStore(postgres_dsn)
    await lite.open()
    await pg.open()
    alice = Scope(tenant_id="t1", user_id="alice")
    try:
        corpus = [
            message(t, alice, at=T0 + timedelta(hours=i)) for i, t in enumerate(STEMMED_CORPUS)
        ]
        await lite.commit(corpus, WINDOW)
        await pg.commit(corpus, WINDOW)
        flt = ItemFilter(scope=alice)
        for terms in (
            ["run"],
            ["connection"],
            ["cafe", "resume"],
            ["DOG"],
            ["email", "snake"],
            ["mentorship"],
            ["friends"],
        ):
            found = await lite.lexical_search(flt, terms, 50)
            assert found, terms
            assert _ranked(found) == _ranked(await pg.lexical_search(flt, terms, 50)), terms
        assert len(await pg.lexical_search(flt, ["run"], 50)) == 2
        assert len(await pg.lexical_search(flt, ["mentorship"], 50)) == 1
    finally:
        await lite.close()
        await pg.close()


async def test_parity_lexical_statistics_follow_forgetting_and_erasure(
    both_backends: tuple[SQLiteStore, PostgresStore],
) -> None:
    """BM25's row counts and lengths follow every change that moves them (forgetting,
    erasure) alike on both backends: the rankings stay the same."""
    lite, pg = both_backends
    everyone = ItemFilter(scope=Scope(tenant_id="t1"))
    ids = await lite.list_item_ids(everyone, 100)
    assert sorted(ids) == sorted(await pg.list_item_ids(everyone, 100))
    await _lexical_alike(lite, pg)
    for status, chosen in (
        (ItemStatus.SILENT, ids[0:8]),
        (ItemStatus.ARCHIVED, ids[8:11]),
        (ItemStatus.DELETED, ids[11:15]),
    ):
        for store in (lite, pg):
            await store.forget_items(ItemsForgetting("t1", chosen, status, now=T0))
        await _lexical_alike(lite, pg)
    for store in (lite, pg):
        await store.erase_user("t1", "bob")
    await _lexical_alike(lite, pg)
