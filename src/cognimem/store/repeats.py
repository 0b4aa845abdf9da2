"""The dedupe rule within one batch: which of a write's messages repeat one written
earlier in the same batch. The store applies it (with the stored events) when it
commits; the write funnel applies it before it reads anything from the messages, so a
repeat is not read twice."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cognimem.errors import Conflict
from cognimem.models import Event
from cognimem.models.clock import to_micros


def dedupe_tuple(event: Event) -> tuple[object, ...]:
    """What makes two messages without an idempotency key the same message."""
    s = event.scope
    return (
        s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, event.role.value,
        event.name, event.content_hash,
    )  # fmt: skip


def reused_key(event: Event, original_id: str) -> Conflict:
    """The error of ``event``'s idempotency key, already used by ``original_id`` for
    other content."""
    return Conflict(
        f"idempotency key {event.idempotency_key!r} was already used for other content",
        details={"idempotency_key": event.idempotency_key, "event_id": original_id},
    )


def repeats_in_batch(
    events: Sequence[Event], skip: Collection[int], dedupe_window_s: float
) -> dict[int, int]:
    """Each message of a batch that repeats one earlier in it, by index, with the index
    of the earlier one: the same idempotency key in the tenant, or, without a key, the
    same scope, role, name and content (``dedupe_tuple``) within ``dedupe_window_s``.
    Only a message that is written can be repeated: not those in ``skip`` (duplicates of
    stored events), not a repeat. A key reused for other content raises ``Conflict``."""
    window = int(dedupe_window_s * 1_000_000)
    keyed: dict[tuple[str, str], int] = {}
    unkeyed: dict[tuple[object, ...], list[int]] = {}
    found: dict[int, int] = {}
    for index, event in enumerate(events):
        if index in skip:
            continue
        if event.idempotency_key is not None:
            key = (event.scope.tenant_id, event.idempotency_key)
            earlier = keyed.get(key)
            if earlier is None:
                keyed[key] = index
            elif events[earlier].content_hash != event.content_hash:
                raise reused_key(event, events[earlier].id)
            else:
                found[index] = earlier
            continue
        at = to_micros(event.occurred_at)
        same = unkeyed.setdefault(dedupe_tuple(event), [])
        near = (i for i in same if abs(to_micros(events[i].occurred_at) - at) <= window)
        earlier = next(near, None)
        if earlier is None:
            same.append(index)
        else:
            found[index] = earlier
    return found
