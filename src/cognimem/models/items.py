"""Layer 3: memory items (episodes now; preferences, facts, constraints later)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cognimem.models.scope import Scope


class ItemKind(StrEnum):
    EPISODE = "episode"
    PREFERENCE = "preference"
    FACT = "fact"
    CONSTRAINT = "constraint"
    PROCEDURE_HINT = "procedure_hint"
    MANDATE = "mandate"
    GUARDRAIL = "guardrail"
    SUMMARY = "summary"


class Tier(StrEnum):
    ALWAYS = "always"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    NEVER = "never"


class ItemStatus(StrEnum):
    ACTIVE = "active"
    SILENT = "silent"
    ARCHIVED = "archived"
    DELETED = "deleted"


# the metadata key under which a summary or profile keeps how consolidation made it: its
# group, the episodes it covers and its claims (``services.consolidation``)
CONSOLIDATION_META = "consolidation"
# the consolidation group whose summaries are ranked among the memories: a theme's
# short claims state one speaker's turns across sessions for the tokens of one or two
# (``lifecycle/themes.py``); every other summary is read in the Summaries section
THEME_GROUP = "theme"


def index_text(author: str | None, text: str) -> str:
    """The text indexed for search: the author's name belongs to what was said."""
    return f"{author}: {text}" if author else text


class MemoryItem(BaseModel):
    """A stored memory item with its provenance (``source_event_ids``)."""

    model_config = ConfigDict(frozen=True)

    id: str
    scope: Scope
    text: str
    kind: ItemKind = ItemKind.EPISODE
    key: str | None = None
    entities: list[str] = Field(default_factory=list)
    source_event_ids: list[str] = Field(default_factory=list)
    external_ids: list[str] = Field(default_factory=list)
    author: str | None = None
    occurred_at: datetime
    recorded_at: datetime
    # when what it tells of happened: its time expressions resolved against occurred_at
    # ("made dinner last night", said on 4 May, tells of 3 May), ``[start, end)`` in UTC;
    # both None when it names no time (text/events.py: event_period)
    event_start: datetime | None = None
    event_end: datetime | None = None
    importance: float = 0.5
    # how much the item told that its scope did not know when it was written: 1 - the
    # cosine similarity to the nearest item stored before it (ingest/scoring.py); None
    # for items not scored at write time (summaries, items written before migration 13)
    novelty: float | None = None
    confidence: float = 1.0
    tier: Tier = Tier.MEDIUM
    status: ItemStatus = ItemStatus.ACTIVE
    token_count: int = 0
    access_count: int = 0
    last_accessed_at: datetime | None = None
    loaded_count: int = 0
    cited_count: int = 0
    success_count: int = 0
    failure_count: int = 0
    consolidated: bool = False
    supersedes: str | None = None
    superseded_by: str | None = None
    embedding_model: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _event_period(self) -> MemoryItem:
        problem = _period_problem(self.event_start, self.event_end)
        if problem is not None:
            raise ValueError(problem)
        return self


def _period_problem(start: datetime | None, end: datetime | None) -> str | None:
    """Why ``[start, end)`` is not an item's event period, or None when it is one
    (both None, or start before end)."""
    if (start is None) != (end is None):
        return "event_start and event_end are given together or not at all"
    if start is not None and end is not None and start >= end:
        return "event_start must be before event_end"
    return None


M = TypeVar("M", bound=BaseModel)


def trusted(model: type[M], values: dict[str, Any]) -> M:
    """A ``model`` of ``values`` not validated again: every field given, in the model's
    field order (the order ``model_dump`` writes), each already of its field's type (a
    stored row decoded: it was written from a validated model). What
    ``model.model_construct`` makes, without its walk over the fields (~1 against ~5
    microseconds for a validated item)."""
    made = model.__new__(model)
    object.__setattr__(made, "__dict__", values)
    object.__setattr__(made, "__pydantic_fields_set__", set(values))
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


def stored_item(values: dict[str, Any]) -> MemoryItem:
    """An item from a stored row's values (``trusted``'s terms). Its rule across fields
    is still checked, and a float field holding anything but a float (never written so)
    is validated: such values raise or convert as a validated item's would."""
    novelty = values["novelty"]
    if (
        _period_problem(values["event_start"], values["event_end"]) is not None
        or type(values["importance"]) is not float
        or type(values["confidence"]) is not float
        or (novelty is not None and type(novelty) is not float)
    ):
        return MemoryItem(**values)
    return trusted(MemoryItem, values)


def utility(item: MemoryItem) -> float:
    """How often the item was useful when it was used: (cited + successes + 1) /
    (loaded + successes + failures + 2), Laplace-smoothed, so 0.5 for an item never
    used. The rerank (``recall/rerank.py``) and promotion (``lifecycle/promote.py``)
    weigh the same number."""
    tried = item.loaded_count + item.success_count + item.failure_count
    useful = item.cited_count + item.success_count
    return min((useful + 1) / (tried + 2), 1.0)
