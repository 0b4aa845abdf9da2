"""What the dashboard browses beyond one record: the users of a tenant with what each
holds, and the query of the item listing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cognimem.models.admin import ScopeStats
from cognimem.models.items import Tier


class UserScope(BaseModel):
    """A user of a tenant in one namespace, as its raw events show it: how many it has
    and when the newest was recorded."""

    model_config = ConfigDict(frozen=True)

    namespace: str
    user_id: str
    events: int
    last_event_at: datetime


class LevelScope(BaseModel):
    """A shared level of a tenant, of no user — the organisation's memory (no agent,
    every namespace's: ``namespace`` is ``ORGANISATION_NAMESPACE``), a namespace's (no
    agent) or an agent's in one namespace (``agent_id``) — as its raw events show it."""

    model_config = ConfigDict(frozen=True)

    level: Literal["organisation", "namespace", "agent"]
    namespace: str
    agent_id: str | None = None
    events: int
    last_event_at: datetime


class UserOverview(BaseModel):
    """A user scope and what it holds (the counts of ``stats`` for that user)."""

    namespace: str
    user_id: str
    last_event_at: datetime
    stats: ScopeStats


class TenantOverview(BaseModel):
    """The caller's tenant (the one its API key belongs to) and its users, most recently
    active first."""

    tenant_id: str
    users: list[UserOverview]
    # the shared levels (the organisation's, each namespace's, each agent's), most
    # recently written first
    levels: list[LevelScope] = Field(default_factory=list)


@dataclass(frozen=True)
class ItemText:
    """Conditions of an item listing beyond ``ItemFilter``'s: the tiers it may have, a
    piece of text it must contain (ASCII letters matched without regard to case) and a
    caller-supplied id it must carry (``MemoryItem.external_ids``, exactly)."""

    tiers: tuple[Tier, ...] | None = None
    contains: str | None = None
    external_id: str | None = None


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """``text`` with only its ASCII letters lowered, as SQLite's ``lower()`` lowers, so
    a listing's needle and its stored texts are lowered alike on every backend."""
    return text.translate(_ASCII_LOWER)
