"""Models of the operational surface: API keys, sessions, scope statistics, erasure
reports and the export format."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import PydanticSerializationError

from cognimem.models.scope import Scope
from cognimem.models.text import printable


class KeyLevel(StrEnum):
    """The level of memory a key may write.

    ``organisation``: every level of its tenant (the organisation's, every agent's and
    every user's), as every key could before keys had levels. ``agent``: the memory of
    its agent (``ApiKey.agent_id``), at the agent level or a user's with that agent.
    ``user``: the memory of its user (``ApiKey.user_id``) only."""

    ORGANISATION = "organisation"
    AGENT = "agent"
    USER = "user"


class ApiKey(BaseModel):
    """A tenant's API key as stored: only the SHA-256 of the secret, never the secret.

    ``prefix`` (the first characters of the secret) lets a person tell keys apart in
    listings. A key is usable while it is neither revoked nor past ``expires_at``.
    ``level`` (with the ``user_id`` or ``agent_id`` it is bound to) decides which
    memory it may write."""

    model_config = ConfigDict(frozen=True)

    id: str
    tenant_id: str
    name: str = ""
    key_hash: str
    prefix: str
    created_at: datetime
    expires_at: datetime | None = None
    revoked_at: datetime | None = None
    # requests per minute for this key; None: the server's default
    rate_limit_per_minute: int | None = None
    level: KeyLevel = KeyLevel.ORGANISATION
    user_id: str | None = None  # the user a ``user`` key is bound to
    agent_id: str | None = None  # the agent an ``agent`` key is bound to

    def usable_at(self, at: datetime) -> bool:
        if self.revoked_at is not None and self.revoked_at <= at:
            return False
        return self.expires_at is None or at < self.expires_at


class SessionStatus(StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class Session(BaseModel):
    """A conversation session. Sessions are optional: a write may name a session that
    was never created. A *closed* session refuses writes (``Conflict``)."""

    model_config = ConfigDict(frozen=True)

    id: str  # the scope's session_id
    scope: Scope  # tenant, namespace, user, agent, session_id (= id)
    status: SessionStatus = SessionStatus.OPEN
    created_at: datetime
    closed_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class ScopeStats(BaseModel):
    """What a scope holds, counted in the store."""

    events: int = 0
    items: dict[str, int] = Field(default_factory=dict)  # by status
    items_by_kind: dict[str, int] = Field(default_factory=dict)  # live (active) items
    facts: dict[str, int] = Field(default_factory=dict)  # by status
    entities: int = 0
    relations: int = 0
    open_conflicts: int = 0
    sessions: dict[str, int] = Field(default_factory=dict)  # by status


class ErasureReport(BaseModel):
    """Rows removed per table by an erasure, and the content hashes of the erased texts
    (so embedding caches can drop their vectors)."""

    removed: dict[str, int] = Field(default_factory=dict)
    content_hashes: list[str] = Field(default_factory=list)


RecordType = Literal[
    "header", "event", "item", "fact", "entity", "alias", "relation", "conflict", "history",
    "session", "procedure", "error",
]  # fmt: skip


class ExportRecord(BaseModel):
    """One line of an export (JSONL). The first line is a ``header`` (format version,
    schema version, embedding model); every other line holds one stored row as the
    domain model's JSON, or an ``error`` record (``record_type``, ``id``, ``message``)
    for a row that could not be written out, so one bad row never cuts the stream.
    Import skips error records. Importing the same file twice changes nothing."""

    type: RecordType
    data: dict[str, Any]

    def json_line(self) -> str:
        """This record as one JSON line (with its newline); an ``error`` record in its
        place when the row cannot be serialised (text that is not Unicode, stored before
        cognimem refused such text)."""
        try:
            return self.model_dump_json() + "\n"
        except PydanticSerializationError as exc:
            return self.failed(str(exc)).model_dump_json() + "\n"

    def failed(self, message: str) -> ExportRecord:
        """The ``error`` record that stands for this row in an export."""
        row_id = self.data.get("id")
        return ExportRecord(
            type="error",
            data={
                "record_type": self.type,
                "id": printable(row_id) if isinstance(row_id, str) else None,
                "message": printable(message),
            },
        )


class ForgetResult(BaseModel):
    """What a forget did (or, with ``dry_run``, would do) to which items, and to what
    was derived from them alone: the facts whose every source was forgotten (deleted,
    or invalidated by ``archive`` and ``silence``), the graph edges drawn from those
    facts, and the summaries whose every source was forgotten."""

    mode: Literal["delete", "archive", "silence"]
    item_ids: list[str] = Field(default_factory=list)
    dry_run: bool = False
    fact_ids: list[str] = Field(default_factory=list)
    summary_ids: list[str] = Field(default_factory=list)
    facts: int = 0
    relations: int = 0
    summaries: int = 0


class ReembedResult(BaseModel):
    """What re-embedding a database did: the model it now uses (and its dimension), the
    model it used before (None: none was recorded), the items and facts whose vectors
    were replaced, and how many distinct texts the model embedded (a run after one that
    was stopped embeds only what that one had not)."""

    model: str
    dimension: int
    previous_model: str | None
    items: int
    facts: int
    embedded: int
