"""A user undoing a name merge, as a pure decision.

Entity resolution links another name to a known entity (a first name to the one full
name it fits, a nickname that was stated, a close spelling) and records each link as an
``alias_added`` entity history entry. When a link is wrong, removing the alias takes
the name off the entity: the alias rows of that name go (the user's own, or the shared
ones for a call over every user) with an ``alias_removed`` history entry (actor
``api``) that keeps what they were.

Removing alone does not stop the rules from linking the name again (a lone first name
still fits the one full name it starts). ``split`` makes the removal stick: the name
becomes an entity of its own (same type, named by the alias's words, properties
``split_from``) holding the alias, which exact-name resolution finds before any first-
name or fuzzy link; the removal's entry names it (``split_into``) and the new entity
gets a ``split`` entry naming where it came from. Facts keep the
entity they were written about; the history says which message made the link.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cognimem.models.ids import new_id
from cognimem.models.knowledge import Alias, AliasSource, Entity, HistoryEntry
from cognimem.store.types import Knowledge

ACTOR = "api"


def removal(
    entity: Entity,
    removed: Sequence[Alias],
    user_id: str | None,
    *,
    split: bool,
    now: datetime,
) -> tuple[Knowledge, Entity | None]:
    """What removing ``removed`` (the rows of one name) from ``entity`` writes beside
    the deletion, and the entity split off (``None`` without ``split``)."""
    alias = removed[0].alias
    twin: Entity | None = None
    out = Knowledge()
    if split:
        twin = Entity(
            id=new_id("ent"),
            tenant_id=entity.tenant_id,
            namespace=entity.namespace,
            user_id=user_id,
            name=string.capwords(alias),
            type=entity.type,
            properties={"split_from": entity.id},
            created_at=now,
        )
        out.entities.append(twin)
        out.aliases.append(
            Alias(entity_id=twin.id, alias=alias, user_id=user_id,
                  source=AliasSource.USER_STATED, confidence=1.0)
        )  # fmt: skip
        out.history.append(
            _entry(twin, "split", None, {"alias": alias, "split_from": entity.id}, now)
        )
    before: dict[str, Any] = {
        "alias": alias,
        "rows": [a.model_dump(mode="json", exclude={"entity_id"}) for a in removed],
    }
    after: dict[str, Any] = {"alias": None, "split_into": None if twin is None else twin.id}
    out.history.insert(0, _entry(entity, "alias_removed", before, after, now))
    return out, twin


def _entry(
    entity: Entity,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any],
    now: datetime,
) -> HistoryEntry:
    return HistoryEntry.new(
        **HistoryEntry.target(entity),
        action=action,
        actor=ACTOR,
        at=now,
        before=before,
        after=after,
    )
