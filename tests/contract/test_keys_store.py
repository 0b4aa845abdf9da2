"""API keys in the store: hashes only, found by hash, listed per tenant, revoked once."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from cognimem.errors import Conflict, NotFound
from cognimem.models.admin import ApiKey, KeyLevel
from cognimem.models.ids import content_hash, new_id
from cognimem.store import Store
from tests.contract.conftest import T0


def key(tenant: str, secret: str, **fields: object) -> ApiKey:
    values: dict[str, object] = {
        "id": new_id("key"),
        "tenant_id": tenant,
        "key_hash": content_hash(secret),
        "prefix": secret[:10],
        "created_at": T0,
    }
    values.update(fields)
    return ApiKey.model_validate(values)


async def test_a_key_is_found_by_its_hash_with_every_field(store: Store) -> None:
    stored = key(
        "acme",
        "cm_one",
        name="ci",
        expires_at=T0 + timedelta(days=30),
        rate_limit_per_minute=120,
    )
    await store.put_api_key(stored)

    assert await store.find_api_key(content_hash("cm_one")) == stored
    assert await store.find_api_key(content_hash("cm_other")) is None


async def test_a_keys_level_and_what_it_is_bound_to_are_stored(
    store: Store, later: Callable[[int], datetime]
) -> None:
    user_key = key("acme", "cm_user", level=KeyLevel.USER, user_id="ada", created_at=later(1))
    agent_key = key(
        "acme", "cm_agent", level=KeyLevel.AGENT, agent_id="helper", created_at=later(2)
    )
    for stored in (user_key, agent_key):
        await store.put_api_key(stored)

    assert await store.find_api_key(content_hash("cm_user")) == user_key
    assert await store.find_api_key(content_hash("cm_agent")) == agent_key
    assert [k.level for k in await store.list_api_keys("acme")] == [KeyLevel.USER, KeyLevel.AGENT]


async def test_keys_are_listed_per_tenant_oldest_first(
    store: Store, later: Callable[[int], datetime]
) -> None:
    first = key("acme", "cm_a", created_at=later(1))
    second = key("acme", "cm_b", created_at=later(2))
    other = key("globex", "cm_c", created_at=later(0))
    for k in (second, other, first):
        await store.put_api_key(k)

    assert await store.list_api_keys("acme") == [first, second]
    assert await store.list_api_keys("globex") == [other]
    assert await store.list_api_keys("initech") == []
    assert await store.list_api_keys(None) == [other, first, second]


async def test_revoking_keeps_the_first_revocation_time(
    store: Store, later: Callable[[int], datetime]
) -> None:
    stored = key("acme", "cm_r")
    await store.put_api_key(stored)

    revoked = await store.revoke_api_key(stored.id, later(5))
    again = await store.revoke_api_key(stored.id, later(9))

    assert revoked.revoked_at == later(5)
    assert again.revoked_at == later(5)
    found = await store.find_api_key(stored.key_hash)
    assert found is not None
    assert found.revoked_at == later(5)
    assert not found.usable_at(later(5))
    assert found.usable_at(later(4))


async def test_revoking_an_unknown_key_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.revoke_api_key("key_missing", T0)


async def test_a_second_key_with_the_same_secret_or_id_conflicts(store: Store) -> None:
    stored = key("acme", "cm_same")
    await store.put_api_key(stored)

    with pytest.raises(Conflict):
        await store.put_api_key(key("globex", "cm_same"))
    with pytest.raises(Conflict):
        await store.put_api_key(key("globex", "cm_different", id=stored.id))
    assert await store.list_api_keys(None) == [stored]


async def test_a_lookup_sees_another_stores_revocation_at_once(
    store: Store, writer: Store, later: Callable[[int], datetime]
) -> None:
    # every HTTP request looks its key up (on SQLite on the request's own thread): a
    # key revoked by another process (a worker, the CLI) is refused from the next
    # request on, never served from an earlier read
    stored = key("acme", "cm_shared")
    await writer.put_api_key(stored)
    assert await store.find_api_key(content_hash("cm_shared")) == stored

    await writer.revoke_api_key(stored.id, later(3))

    found = await store.find_api_key(content_hash("cm_shared"))
    assert found is not None
    assert found.revoked_at == later(3)
    assert not found.usable_at(later(4))


async def test_every_change_to_the_keys_moves_the_change_count(
    store: Store, writer: Store, later: Callable[[int], datetime]
) -> None:
    # what a server's key cache (api/key_cache.py) reads on every request instead of
    # the key: it moves with a key issued or revoked by any store on the database
    counts = [await store.api_key_changes()]
    stored = key("acme", "cm_counted")
    await writer.put_api_key(stored)
    counts.append(await store.api_key_changes())
    assert await store.find_api_key(content_hash("cm_counted")) == stored
    await store.list_api_keys("acme")
    counts.append(await store.api_key_changes())  # looking keys up changes nothing
    await writer.revoke_api_key(stored.id, later(1))
    counts.append(await store.api_key_changes())

    assert counts[0] < counts[1] == counts[2] < counts[3]
