"""What an extractor returns for one message: the shared output model of the rule and
LLM extractors. The LLM's JSON schema is derived from these models."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from cognimem.models.areas import Area
from cognimem.models.knowledge import EntityType, FactCategory

# the scope tags a fact may carry, shared by both extractors; any other tag is dropped.
# The decision areas (``text/areas.py``) are among them: the broad tags the finer ones
# fall under
SCOPE_TAGS: tuple[str, ...] = (
    "food",
    "diet",
    "health",
    "allergy",
    "medical",
    "finance",
    "budget",
    "travel",
    "work",
    "family",
    "schedule",
    "fitness",
    "education",
    "home",
    "pets",
    "social",
    "entertainment",
    "shopping",
    "technology",
    "privacy",
    "communication",
    "legal",
    "religion",
    "environment",
    "leisure",
    "values",
)


class Link(BaseModel):
    """One reference the rule extractor resolved (``ingest/extract/coref.py``): what was
    said, who it is, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    said: str  # "She", "his", "my sister"
    name: str  # "Sarah Jones"
    evidence: str  # "she: the latest woman named (as my sister)"
    sentence: str = ""  # the sentence as said, before the rewrite


class ExtractedEntity(BaseModel):
    """An entity mentioned in the message, by the name used there."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    type: EntityType = EntityType.OTHER
    # other names the message gives it ("Sarah goes by Sally", "everyone calls him
    # Will"): learned as aliases the user stated (the rule path; the LLM states a
    # nickname as a fact)
    aliases: SkipJsonSchema[list[str]] = Field(default_factory=list)


class ExtractedFact(BaseModel):
    """One statement: ``subject`` ``predicate`` ``value``.

    ``subject`` is ``"user"`` for the message's author speaking about themselves (the
    funnel keys it as the scope's user, or as the author's name when the author is
    another speaker of the conversation: ``ingest/speakers.py``), otherwise the name of
    the entity it is about.
    ``predicate`` is a short snake_case name within the category (``name``, ``city``,
    ``cuisine``, ``allergy``, ``diet``, ``sister`` ...). ``multi_valued``: several values
    may hold at once (likes, allergies, pets, siblings), so the value is part of the key;
    otherwise a new value replaces the old (name, current city, diet).
    ``holds=False``: the statement is about the past and no longer true ("I used to live
    in Paris"); ``valid_to`` says until when, when known.
    """

    model_config = ConfigDict(extra="forbid")

    subject: str = Field(default="user", min_length=1, max_length=200)
    category: FactCategory
    predicate: str = Field(min_length=1, max_length=80)
    value: str = Field(min_length=1, max_length=500)
    polarity: bool = True
    multi_valued: bool = False
    holds: bool = True
    scope_tags: list[str] = Field(default_factory=list, max_length=12)
    # a constraint's decision areas (``text/areas.py``): what later requests it bears
    # on, and that in one line ("restaurant picks, dinner menus, grocery lists"); the
    # LLM answers both, the rule path fills the areas from the embedder and the turns
    # around it (``ingest/implications.py``)
    areas: list[Area] = Field(default_factory=list, max_length=6)
    implication: str = Field(default="", max_length=300)
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    # the entity the value names, when it is one ("Berlin", "Sarah"): a graph edge
    object_entity: str | None = Field(default=None, max_length=200)
    object_type: EntityType | None = None
    # the sentence (or clause) the fact was read from
    evidence: str = Field(default="", max_length=2_000)
    # the references the rule extractor resolved in that sentence ("She" -> "Sarah
    # Jones", ``coref.py``), kept on the fact's provenance; not part of the LLM's schema
    coreference: SkipJsonSchema[list[Link]] = Field(default_factory=list)


class ExtractedRelation(BaseModel):
    """A graph edge between two named entities that no fact states ("Rosa"
    -founded-> "Acme"); a fact with an ``object_entity`` is an edge already."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(min_length=1, max_length=200)
    relation: str = Field(min_length=1, max_length=80)
    target: str = Field(min_length=1, max_length=200)


class Extraction(BaseModel):
    """Everything read from one message."""

    model_config = ConfigDict(extra="forbid")

    entities: list[ExtractedEntity] = Field(default_factory=list)
    facts: list[ExtractedFact] = Field(default_factory=list)
    relations: list[ExtractedRelation] = Field(default_factory=list)
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    # when what the message describes happened, if it says ("yesterday I ...")
    event_time: datetime | None = None
    # every reference the rule extractor resolved in the message, a fact read from it or
    # not ("Her clinic is in Brooklyn": "Her" -> "Maya"): the message's items are
    # linked to that person (``coref.Discourse.heard``); not part of the LLM's schema
    coreference: SkipJsonSchema[list[Link]] = Field(default_factory=list)


class ExtractionInput(BaseModel):
    """One message to read: its text, who said it and when (relative times resolve
    against ``occurred_at``, never against now)."""

    model_config = ConfigDict(frozen=True)

    text: str
    occurred_at: datetime
    author: str | None = None  # the speaker's display name, if any
    role: str = "user"
    # the user's messages said just before in the same conversation, oldest first: who
    # "she" or "my sister" may be (the rule extractor's coreference reads them)
    context: tuple[str, ...] = ()


class Extractor(Protocol):
    """Reads a batch of messages; one result per message, in order."""

    name: str

    async def extract(self, messages: list[ExtractionInput]) -> list[Extraction]: ...


class ReadsOne(Protocol):
    """Reads one message in process, at once: the rule extractor
    (``ingest/extract/rules.py``: ``RuleExtractor``), which consolidation's question and
    answer pairs are read with (``lifecycle/group_facts.py``)."""

    def extract_one(self, message: ExtractionInput) -> Extraction: ...
