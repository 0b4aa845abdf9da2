"""The context packet: what a read returns to the agent."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from cognimem.models.items import ItemKind

MARKDOWN_HEADER = "## Memory\n\n"


def markdown_line(item: PacketItem) -> str:
    """One memory as a prompt line; the token budget is counted on these lines.

    Caller-supplied external ids are shown so an answer can cite them; internal event
    ids are left to the JSON form (they cost ~20 tokens a line and mean nothing to a model).
    """
    when = item.occurred_at.strftime("%Y-%m-%d %H:%M")
    who = f"{item.author}: " if item.author else ""
    source = f" ({', '.join(item.external_ids)})" if item.external_ids else ""
    return f"- [{when}] {who}{item.text}{source}"


class PacketItem(BaseModel):
    """One retrieved memory with its score and provenance."""

    id: str
    text: str
    kind: ItemKind
    score: float
    signals: dict[str, float] = Field(default_factory=dict)
    occurred_at: datetime
    author: str | None = None
    source_event_ids: list[str] = Field(default_factory=list)
    external_ids: list[str] = Field(default_factory=list)
    confidence: float = 1.0
    token_count: int = 0


class StepReport(BaseModel):
    """How one retrieval step went."""

    name: str
    latency_ms: float
    results: int
    timed_out: bool = False
    error: str | None = None


class ContextPacket(BaseModel):
    """The memories that matter for a query, cut to a token budget.

    ``token_count`` is the size of the markdown rendering (header and one line per
    item, cl100k_base), so ``to_markdown()`` fits ``max_tokens``.
    """

    query: str
    items: list[PacketItem]
    token_count: int
    max_tokens: int
    truncated: bool = False
    reference_time: datetime
    preset: str
    degraded: list[str] = Field(default_factory=list)
    steps: list[StepReport] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    def to_markdown(self) -> str:
        """Render the packet for a prompt."""
        if not self.items:
            return "## Memory\n\n_No relevant memories._\n"
        lines = [MARKDOWN_HEADER.rstrip("\n"), ""]
        lines += [markdown_line(item) for item in self.items]
        if self.degraded:
            lines += ["", f"_Degraded: {', '.join(self.degraded)}_"]
        return "\n".join(lines) + "\n"
