"""What both backends' ``ListingStore`` share: which rows of ``events`` name a tenant's
users and shared levels (``OWNERS``), and how a grouped row ``(namespace, owner,
events, last recorded)`` becomes a ``UserScope`` or ``LevelScope``. The query is each
backend's."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

from cognimem.models.directory import LevelScope, UserScope
from cognimem.models.scope import Scope

Owner = Literal["user", "level"]
# the column an owner is grouped by, and the events that are an owner's of that kind
OWNERS: dict[Owner, tuple[str, str]] = {
    "user": ("user_id", "user_id IS NOT NULL"),
    "level": ("agent_id", "user_id IS NULL"),
}

Time = Callable[[Any], datetime | None]


def _at(time: Time, value: Any) -> datetime:
    decoded = time(value)
    assert decoded is not None, "max(recorded_at) of a group came back NULL"
    return decoded


def user_scopes(found: Iterable[Sequence[Any]], time: Time) -> list[UserScope]:
    return [
        UserScope(namespace=ns, user_id=user, events=int(n), last_event_at=_at(time, last))
        for ns, user, n, last in found
    ]


def level_scopes(found: Iterable[Sequence[Any]], time: Time) -> list[LevelScope]:
    return [
        LevelScope(
            level=Scope(namespace=ns, agent_id=agent).level,
            namespace=ns,
            agent_id=agent,
            events=int(n),
            last_event_at=_at(time, last),
        )
        for ns, agent, n, last in found
    ]
