"""What writes return."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field

from cognimem.models.lifecycle import TurnRevision
from cognimem.models.packets import ContextPacket


class WriteOutcome(StrEnum):
    STORED = "stored"
    DUPLICATE = "duplicate"  # idempotency key or identical message within the dedupe window
    SKIPPED_SECRET = "skipped_secret"  # every chunk carried a secret; the event is kept, redacted
    QUEUED = "queued"  # async mode: the raw event is stored; a worker derives its items


class MessageResult(BaseModel):
    """The fate of one written message."""

    event_id: str
    item_ids: list[str] = Field(default_factory=list)
    outcome: WriteOutcome
    skipped_chunks: int = 0
    redactions: dict[str, int] = Field(default_factory=dict)


class KnowledgeReport(BaseModel):
    """What a write did to the knowledge layers (ids of what changed)."""

    facts_created: list[str] = Field(default_factory=list)
    facts_reinforced: list[str] = Field(default_factory=list)
    facts_superseded: list[str] = Field(default_factory=list)
    conflicts_opened: list[str] = Field(default_factory=list)
    entities_created: list[str] = Field(default_factory=list)
    entities_resolved: list[str] = Field(default_factory=list)
    entities_ambiguous: list[str] = Field(default_factory=list)  # mentions left unlinked
    items_merged: list[str] = Field(default_factory=list)  # existing items that absorbed a repeat
    items_silenced: list[str] = Field(default_factory=list)
    # which extractor ran: "rules", "llm", or "none" (the profile does not extract)
    extractor: Literal["rules", "llm", "none"] = "none"
    llm_ran: bool = False


class WriteStepReport(BaseModel):
    """How long one step of a write took (``ingest/timing.py`` names the steps)."""

    name: str
    latency_ms: float


class WriteResult(BaseModel):
    """Result of ``write`` / ``write_batch``: one entry per message, in order; ``steps``
    times the funnel's steps (gate, extraction, embedding, reconciliation, store) as
    ``ContextPacket.steps`` times a read's."""

    messages: list[MessageResult]
    profile: str = "chat"
    knowledge: KnowledgeReport = Field(default_factory=KnowledgeReport)
    degraded: list[str] = Field(default_factory=list)
    mode: Literal["sync", "async"] = "sync"  # how this write was ingested
    job_id: str | None = None  # async mode: the job that derives the items
    steps: list[WriteStepReport] = Field(default_factory=list)

    @property
    def event_ids(self) -> list[str]:
        return [m.event_id for m in self.messages]

    @property
    def item_ids(self) -> list[str]:
        return [i for m in self.messages for i in m.item_ids]


class Turn(BaseModel):
    """One conversational turn: the packet read for the user's message (before the turn
    was stored), what storing the turn's messages did, what the turn did to the facts the
    read retrieved (``revision``), which of its memories the answer cited, and the learnt
    procedures the read matched that the turn did again (``procedures_reinforced``: their
    ids)."""

    packet: ContextPacket
    stored: WriteResult
    revision: TurnRevision = Field(default_factory=TurnRevision)
    procedures_reinforced: list[str] = Field(default_factory=list)
    # the packet's memories the assistant's answer used (``recall/citations.py``), each
    # counted as cited once; empty without an answer
    cited: list[str] = Field(default_factory=list)
