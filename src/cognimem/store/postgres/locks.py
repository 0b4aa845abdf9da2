"""PostgreSQL transaction advisory locks: the keys that serialise writers of the same
message, of one event's items, of one fact key or of an import, and taking several in
one order."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from cognimem.models import Event
from cognimem.store.repeats import dedupe_tuple

if TYPE_CHECKING:
    from asyncpg import Connection


def advisory_key(*parts: object) -> int:
    """A transaction advisory lock key for ``parts`` (a collision only serialises two
    unrelated writers)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def message_lock(event: Event) -> int:
    """The lock that serialises writers of the same message."""
    if event.idempotency_key is not None:
        return advisory_key("key", event.scope.tenant_id, event.idempotency_key)
    return advisory_key("dedupe", *dedupe_tuple(event))


def event_lock(event_id: str) -> int:
    """The lock that serialises workers deriving the items of one stored event."""
    return advisory_key("items", event_id)


async def take_locks(conn: Connection, keys: Iterable[int]) -> None:
    """Transaction advisory locks, all in one ascending order, so two writers that want
    some of the same locks never wait for each other in a cycle."""
    ordered = sorted(set(keys))
    if ordered:
        await conn.execute(
            "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) WITH ORDINALITY"
            " AS t(k, o) ORDER BY o",
            ordered,
        )
