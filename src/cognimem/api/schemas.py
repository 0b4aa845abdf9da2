"""Request bodies of the HTTP API (responses reuse the domain models)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cognimem.ingest.profiles import DEFAULT_PROFILE
from cognimem.models import ItemKind, Message, Tier
from cognimem.models.knowledge import FactCategory


def error_body(type_: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every error the API returns: ``{"error": {"type", "message", "details"}}``."""
    return {"error": {"type": type_, "message": message, "details": details or {}}}


class ErrorDetail(BaseModel):
    type: str  # the error class: InvalidInput, NotFound, Unauthenticated, ...
    message: str
    details: dict[str, Any]  # e.g. {"field": "scope.user_id"} for InvalidInput


class ErrorResponse(BaseModel):
    """The body of every 4xx and 5xx response."""

    error: ErrorDetail


class ScopeFields(BaseModel):
    """Scope below the tenant. The tenant comes from the API key: a ``tenant_id`` sent
    here is accepted and ignored. A read (and forget, export, stats, the knowledge and
    session listings) needs ``user_id``, or ``all_users: true`` to span every user of the
    tenant; ``Memory`` checks the fields (422 naming ``scope.<field>``)."""

    model_config = ConfigDict(extra="forbid")

    tenant_id: str | None = Field(default=None, description="Ignored: the key decides.")

    user_id: str | None = None
    agent_id: str | None = None
    session_id: str | None = None
    namespace: str = "default"
    all_users: bool = Field(
        default=False,
        description="Read every user of the tenant instead of one (not with user_id; "
        "refused on writes).",
    )

    def for_tenant(self, tenant_id: str) -> dict[str, Any]:
        """The scope for a ``Memory`` call, in the key's tenant."""
        data = self.model_dump(exclude={"tenant_id", "all_users"}, exclude_none=True)
        if self.all_users:
            data["all_users"] = True
        return {**data, "tenant_id": tenant_id}


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


class ReadOptions(BaseModel):
    """How much a read returns and how it ranks (defaults: the server's settings)."""

    model_config = ConfigDict(extra="forbid")

    # checked by Memory.read: 1-200 and 1-200000
    limit: int | None = None
    max_tokens: int | None = None
    preset: str | None = Field(default=None, max_length=32)


class ReadRequest(ReadOptions):
    query: str
    scope: ScopeFields = Field(default_factory=ScopeFields)
    kinds: list[ItemKind] | None = None
    since: datetime | None = None
    until: datetime | None = None
    reference_time: datetime | None = None
    timezone: str | None = Field(default=None, max_length=64)  # IANA name, e.g. Asia/Tokyo
    format: str = Field(default="json", pattern="^(json|markdown)$")
    explain: bool = False  # per candidate: each signal, the final score, the step


class ScopeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)


class UpdateRequest(BaseModel):
    """Edit one memory, or tell cognimem what it got right or wrong."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=128)
    text: str | None = None  # re-embedded and re-indexed
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    tier: Tier | None = None
    # correct: reinforce; incorrect: silence (kept, never recalled); outdated: archive
    feedback: Literal["correct", "incorrect", "outdated"] | None = None


class ForgetRequest(BaseModel):
    """Forget by ids, by query or by time range (exactly one of them)."""

    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)
    ids: list[str] | None = Field(default=None, max_length=1_000)
    query: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    # delete: the rows are removed; archive: kept, out of reads; silence: kept, never
    # recalled
    mode: Literal["delete", "archive", "silence"] = "delete"
    dry_run: bool = False
    limit: int = Field(default=100, ge=1, le=10_000)


class TurnRequest(ReadOptions):
    """One conversational turn: read for the user's message, then remember both."""

    scope: ScopeFields = Field(default_factory=ScopeFields)
    user: Message
    assistant: Message | None = None
    profile: str = DEFAULT_PROFILE
    timezone: str | None = Field(default=None, max_length=64)


class ConflictsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)
    open_only: bool = True


class ResolveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # the fact that stands; the others are superseded by it. None: both stay live
    winner_fact_id: str | None = None
    note: str = Field(default="", max_length=2_000)


class SessionCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(min_length=1, max_length=128)
    scope: ScopeFields = Field(default_factory=ScopeFields)
    metadata: dict[str, Any] = Field(default_factory=dict)


class SessionsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)
    limit: int = Field(default=100, ge=1, le=10_000)
