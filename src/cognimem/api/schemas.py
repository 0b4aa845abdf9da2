"""Request bodies of the HTTP API (responses reuse the domain models)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from cognimem.ingest.profiles import DEFAULT_PROFILE
from cognimem.memory import make_scope
from cognimem.models import ItemKind, Message, Scope
from cognimem.models.knowledge import FactCategory


class ScopeFields(BaseModel):
    """Scope below the tenant; the tenant is not a request field."""

    model_config = ConfigDict(extra="forbid")

    user_id: str | None = None
    agent_id: str | None = None
    session_id: str | None = None
    namespace: str = "default"

    def to_scope(self, tenant_id: str) -> Scope:
        return make_scope(self.model_dump(), tenant_id=tenant_id)


class WriteRequest(Message):
    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)
    # chat, document, mandate, guardrail, tool_discovery, tool_gotcha, learning
    profile: str = DEFAULT_PROFILE


class WriteBatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)
    messages: list[Message]
    profile: str = DEFAULT_PROFILE


class FactsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)
    key: str | None = None
    categories: list[FactCategory] | None = None
    include_history: bool = False
    limit: int = Field(default=1_000, ge=1, le=10_000)


class ReadRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str
    scope: ScopeFields = Field(default_factory=ScopeFields)
    limit: int | None = None
    max_tokens: int | None = None
    preset: str | None = None
    kinds: list[ItemKind] | None = None
    since: datetime | None = None
    until: datetime | None = None
    reference_time: datetime | None = None
    timezone: str | None = Field(default=None, max_length=64)  # IANA name, e.g. Asia/Tokyo
    format: str = Field(default="json", pattern="^(json|markdown)$")
    explain: bool = False  # per candidate: each signal, the final score, the step
