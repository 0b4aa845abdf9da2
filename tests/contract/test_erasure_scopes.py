"""An erasure takes exactly its scope's rows: a user's (``erase_user``) or one shared
level's (``erase_level``), in every table that holds them, and not one row of another
user, level or tenant. Each scope gets a whole footprint (``seed``: a row in every
table a scope's data reaches, a lifecycle run beside it), told apart by its own word
and ids; the rows each footprint holds per table are counted before and after."""

from __future__ import annotations

import pytest

from cognimem.models import Scope
from cognimem.models.ids import content_hash
from cognimem.store import Store
from cognimem.store.erasure import level_holder
from cognimem.store.types import ScopeLease
from tests.contract.builders import seed
from tests.erasure import leftovers

SCOPES = {
    "alice": Scope(tenant_id="t1", user_id="alice", session_id="s1"),
    "alice-work": Scope(tenant_id="t1", user_id="alice", namespace="work"),
    "bob": Scope(tenant_id="t1", user_id="bob"),
    "org": Scope(tenant_id="t1").organisation(),
    "default-ns": Scope(tenant_id="t1"),
    "work-ns": Scope(tenant_id="t1", namespace="work"),
    "ops": Scope(tenant_id="t1", agent_id="ops"),
    "sales": Scope(tenant_id="t1", agent_id="sales"),
    "carol": Scope(tenant_id="t2", user_id="carol"),
    "t2-org": Scope(tenant_id="t2").organisation(),
    "t2-ns": Scope(tenant_id="t2"),
}
WORDS = {
    "alice": "quokka", "alice-work": "wombat", "bob": "otter", "org": "numbat",
    "ops": "dingo", "sales": "bilby", "carol": "echidna", "t2-org": "platypus",
    "default-ns": "quoll", "work-ns": "wallaby", "t2-ns": "bandicoot",
}  # fmt: skip
# every table a scope's rows reach (FTS shadow tables and the queue aside)
REACHED = {
    "events", "items", "item_events", "item_usage", "facts", "entities", "aliases",
    "relations", "conflicts", "history", "sessions", "procedures", "lifecycle_runs",
    "embedding_cache",
}  # fmt: skip


def _holder(scope: Scope) -> str:
    """The ``user_id`` a scope's lifecycle runs carry (a level's: its holder)."""
    return scope.user_id or level_holder(scope.agent_id)


async def _footprints(store: Store) -> dict[str, dict[str, list[str]]]:
    prints = {}
    for name, scope in SCOPES.items():
        data = await seed(store, scope, WORDS[name])
        await store.record_access(scope.tenant_id, data["items"], data["conflict"].created_at)
        lease = ScopeLease(scope.tenant_id, scope.namespace, _holder(scope), "consolidate",
                           "worker", f"tok-{name}", f"job-{WORDS[name]}")  # fmt: skip
        now = data["conflict"].created_at
        assert await store.take_lease(lease, now=now, until=now) is None
        needles = [WORDS[name], *data["items"], *data["events"], *data["facts"]]
        needles += [*data["entities"], data["conflict"].id, data["procedure"]]
        needles.append(content_hash(f"I keep a {WORDS[name]} in the garden"))
        prints[name] = {"needles": needles}
    return prints


async def _counts(store: Store, prints: dict[str, dict[str, list[str]]]) -> dict[str, dict]:
    """Per scope, the rows per table that name it (the FTS index's shadow tables aside:
    merging its segments changes their rows, not what they hold)."""
    out = {}
    for name, scope in SCOPES.items():
        # a level's rows have no user: its word and ids name them (a run: its job id)
        found = await leftovers(store, scope.user_id or "-", prints[name]["needles"])
        out[name] = {t: n for t, n in found.items() if not t.startswith("items_fts")}
    return out


@pytest.mark.parametrize("erased", ["alice", "org", "default-ns", "ops"])
async def test_an_erasure_empties_its_scope_in_every_table_and_no_other(
    store: Store, erased: str
) -> None:
    prints = await _footprints(store)
    before = await _counts(store, prints)
    for name in SCOPES:
        assert set(before[name]) >= REACHED, name

    scope = SCOPES[erased]
    if scope.user_id is not None:
        report = await store.erase_user(scope.tenant_id, scope.user_id)
        gone = {"alice", "alice-work"}
    else:
        namespace = None if scope.agent_id is not None else scope.namespace
        report = await store.erase_level(scope.tenant_id, scope.agent_id, namespace)
        gone = {erased}
    await store.delete_embeddings(report.content_hashes)

    after = await _counts(store, prints)
    for name in SCOPES:
        assert after[name] == ({} if name in gone else before[name]), name
    assert report.removed["items"] == report.removed["events"] == 2 * len(gone)
