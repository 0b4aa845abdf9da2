"""A user's search reads the user's rows and the shared levels' (the namespace's, the
organisation's) from the store's in-process copies. Each copy stays true to the
database when another store (another process, as far as the copies can tell) writes to
any one of those levels after the copies were cached: the search finds exactly what a
store loading them afresh finds, lexical and vector alike. On SQLite the three
entries' versions are checked in one statement (``scopes.read_versions``), which
answers as the per-entry check (``scopes.read_version``) does."""

from __future__ import annotations

import sqlite3

from cognimem.models import Scope
from cognimem.models.scope import ORGANISATION_NAMESPACE
from cognimem.store import ItemFilter, Store
from cognimem.store.sqlite.scopes import ALL_USERS, SHARED, read_version, read_versions
from cognimem.store.types import Candidate
from tests.contract.builders import WINDOW
from tests.contract.conftest import message, twin, vec

ALICE = Scope(tenant_id="t1", user_id="alice")
NAMESPACE = Scope(tenant_id="t1")
ORGANISATION = Scope(tenant_id="t1", namespace=ORGANISATION_NAMESPACE)
READ = ItemFilter(scope=ALICE, with_organisation=True)


def _ranked(found: list[Candidate]) -> list[tuple[str, float]]:
    return [(c.item_id, round(c.score, 6)) for c in found]


async def _both(store: Store, terms: list[str]) -> tuple[list[str], list[str]]:
    """The ids the lexical and the vector search of ``terms`` find, checked equal to
    those of a store that never cached a scope."""
    fresh = twin(store)
    await fresh.open()
    try:
        theirs = (
            _ranked(await fresh.lexical_search(READ, terms, 50)),
            _ranked(await fresh.vector_search(READ, vec(" ".join(terms)), 50)),
        )
    finally:
        await fresh.close()
    ours = (
        _ranked(await store.lexical_search(READ, terms, 50)),
        _ranked(await store.vector_search(READ, vec(" ".join(terms)), 50)),
    )
    assert ours == theirs, terms
    return [i for i, _ in ours[0]], [i for i, _ in ours[1]]


async def test_a_write_to_any_level_after_the_copies_are_cached_is_found(
    store: Store, writer: Store
) -> None:
    await writer.commit([message("kayaks on the fjord", ALICE)], WINDOW)
    await writer.commit([message("the kayak club meets on Fridays", NAMESPACE)], WINDOW)
    await writer.commit([message("kayak insurance is company policy", ORGANISATION)], WINDOW)
    await store.load_scope(ALICE)
    lexical, dense = await _both(store, ["kayak"])
    assert len(lexical) == 3
    assert len(dense) == 3

    for scope, text in (
        (ORGANISATION, "kayak rental for staff"),
        (NAMESPACE, "kayak storage by the boathouse"),
        (ALICE, "a new kayak paddle"),
    ):
        [late] = await writer.commit([message(text, scope)], WINDOW)
        lexical, dense = await _both(store, ["kayak"])
        assert late.item_ids[0] in lexical, scope
        assert late.item_ids[0] in dense, scope


def test_the_versions_of_several_entries_read_in_one_statement_as_one_by_one() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE TABLE scope_versions (tenant_id TEXT, namespace TEXT, user_key TEXT,"
        " version INTEGER, mutations INTEGER, row_changes INTEGER,"
        " PRIMARY KEY (tenant_id, namespace, user_key))"
    )
    conn.executemany(
        "INSERT INTO scope_versions VALUES (?, ?, ?, ?, ?, ?)",
        [
            ("t1", "ns", "u:alice", 3, 1, 0),
            ("t1", "ns", ALL_USERS, 9, 2, 1),
            ("t1", "org", ALL_USERS, 5, 4, 4),
            ("t2", "ns", "u:bob", 7, 7, 6),
            ("t2", "ns", ALL_USERS, 8, 7, 6),
        ],
    )
    wanted = [
        ("ns", "u:alice"),  # its own row
        ("ns", "u:carol"),  # none of its own: the namespace's row
        ("ns", SHARED),  # the rows of no user: dated by the namespace's row
        ("org", SHARED),
        ("empty", "u:alice"),  # no row at all
        ("ns", ALL_USERS),
    ]
    expected = [read_version(conn, "t1", ns, key) for ns, key in wanted]
    assert read_versions(conn, "t1", wanted) == expected
    assert expected == [(3, 1, 0), (9, 2, 1), (9, 2, 1), (5, 4, 4), (0, 0, 0), (9, 2, 1)]
    found = read_versions(conn, "t2", [("ns", "u:bob"), ("ns", "u:alice")])
    assert found == [(7, 7, 6), (8, 7, 6)]
