"""Layer 1: raw events, immutable, exactly what was said."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cognimem.models.scope import Scope


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class Message(BaseModel):
    """One message a caller writes. ``name`` is the author's display name (a speaker)."""

    model_config = ConfigDict(extra="forbid")

    content: str
    role: Role = Role.USER
    name: str | None = Field(default=None, max_length=200)
    occurred_at: datetime | None = None
    idempotency_key: str | None = Field(default=None, min_length=1, max_length=200)
    external_id: str | None = Field(default=None, max_length=200)
    metadata: dict[str, Any] = Field(default_factory=dict)


class Event(BaseModel):
    """A stored raw event (L1)."""

    model_config = ConfigDict(frozen=True)

    id: str
    scope: Scope
    role: Role
    name: str | None
    content: str
    content_hash: str
    idempotency_key: str | None
    external_id: str | None
    occurred_at: datetime
    recorded_at: datetime
    metadata: dict[str, Any] = Field(default_factory=dict)
