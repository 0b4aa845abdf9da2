"""Layer 1: raw events, immutable, exactly what was said."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from cognimem.models.scope import Scope
from cognimem.models.wire import IsoTime

# holds a character that is not whitespace as Python's str.strip() (what the write
# funnel checks) sees it, spelled out: "\S" differs between regex engines
NOT_BLANK = (
    "[^\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a"
    "\\u2028\\u2029\\u202f\\u205f\\u3000]"
)
_TEXT: dict[str, Any] = {"pattern": NOT_BLANK}


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class Message(BaseModel):
    """One message a caller writes. ``name`` is the author's display name (a speaker)."""

    model_config = ConfigDict(extra="forbid")

    # "pattern": documented, not enforced here: the write funnel refuses blank text with
    # a message that says so ("content is empty")
    content: str = Field(json_schema_extra={"pattern": NOT_BLANK})
    role: Role = Role.USER
    name: Annotated[str, Field(max_length=200, json_schema_extra=_TEXT)] | None = None
    occurred_at: IsoTime | None = None  # with a UTC offset
    idempotency_key: (
        Annotated[str, Field(min_length=1, max_length=200, json_schema_extra=_TEXT)] | None
    ) = None
    external_id: Annotated[str, Field(max_length=200, json_schema_extra=_TEXT)] | None = None
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
