"""The context packet: what a read returns to the agent."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from cognimem.models.items import ItemKind

MARKDOWN_HEADER = "## Memory\n\n"
MEMORIES_TITLE = "### Memories"


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


class FactEntry(BaseModel):
    """A fact or constraint in a packet section, with its provenance."""

    id: str
    key: str
    text: str  # what was said (the evidence sentence)
    category: str
    value: str
    polarity: bool = True
    scope_tags: list[str] = Field(default_factory=list)
    confidence: float
    score: float  # relevance to the query
    signals: dict[str, float] = Field(default_factory=dict)
    valid_from: datetime | None = None
    recorded_at: datetime
    source_event_ids: list[str] = Field(default_factory=list)
    item_ids: list[str] = Field(default_factory=list)
    token_count: int = 0


class PacketSections(BaseModel):
    """What must shape the answer, ahead of the ranked memories: active constraints
    split into "must follow" (value, policy) and "consider" (goal, state, causal), and
    the user's facts that bear on the query."""

    must_follow: list[FactEntry] = Field(default_factory=list)
    consider: list[FactEntry] = Field(default_factory=list)
    facts: list[FactEntry] = Field(default_factory=list)

    def entries(self) -> list[FactEntry]:
        return [*self.must_follow, *self.consider, *self.facts]


def fact_line(entry: FactEntry) -> str:
    """One fact or constraint as a prompt line (counted against the token budget)."""
    since = f" (since {entry.valid_from:%Y-%m-%d})" if entry.valid_from else ""
    return f"- {entry.text}{since}"


SECTION_TITLES = (
    ("must_follow", "### Must follow"),
    ("consider", "### Consider"),
    ("facts", "### Known facts"),
)


class StepReport(BaseModel):
    """How one retrieval step went."""

    name: str
    latency_ms: float
    results: int
    timed_out: bool = False
    error: str | None = None


class ContextPacket(BaseModel):
    """The memories that matter for a query, cut to a token budget.

    ``items`` is the ranked list of memories (what evidence-recall benchmarks score);
    ``sections`` hold the constraints and facts that must shape the answer, rendered
    first. ``token_count`` is the size of the markdown rendering (cl100k_base), so
    ``to_markdown()`` fits ``max_tokens``.
    """

    query: str
    items: list[PacketItem]
    sections: PacketSections = Field(default_factory=PacketSections)
    token_count: int
    max_tokens: int
    truncated: bool = False
    reference_time: datetime
    preset: str
    degraded: list[str] = Field(default_factory=list)
    steps: list[StepReport] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    def to_markdown(self) -> str:
        """Render the packet for a prompt: sections first, then the ranked memories."""
        if not self.items and not self.sections.entries():
            return "## Memory\n\n_No relevant memories._\n"
        lines = [MARKDOWN_HEADER.rstrip("\n"), ""]
        for name, title in SECTION_TITLES:
            entries: list[FactEntry] = getattr(self.sections, name)
            if entries:
                lines += [title, *(fact_line(e) for e in entries), ""]
        if self.items and self.sections.entries():
            lines.append(MEMORIES_TITLE)
        lines += [markdown_line(item) for item in self.items]
        if self.degraded:
            lines += ["", f"_Degraded: {', '.join(self.degraded)}_"]
        return "\n".join(lines) + "\n"
