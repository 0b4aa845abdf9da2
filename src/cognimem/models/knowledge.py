"""Layers 2 and 4 and their support records: entities, aliases, facts, relations,
conflicts and history entries."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from cognimem.models.ids import new_id
from cognimem.models.items import MemoryItem
from cognimem.models.scope import Scope


class FactCategory(StrEnum):
    IDENTITY = "identity"
    PREFERENCE = "preference"
    ATTRIBUTE = "attribute"
    RELATIONSHIP = "relationship"
    LOCATION = "location"
    OCCUPATION = "occupation"
    POSSESSION = "possession"
    EVENT = "event"
    # the five cognitive constraint types
    GOAL = "goal"
    STATE = "state"
    VALUE = "value"
    CAUSAL = "causal"
    POLICY = "policy"
    CUSTOM = "custom"


CONSTRAINT_CATEGORIES = frozenset(
    {
        FactCategory.GOAL,
        FactCategory.STATE,
        FactCategory.VALUE,
        FactCategory.CAUSAL,
        FactCategory.POLICY,
    }
)
# "must follow" constraints; the others are "consider"
BINDING_CATEGORIES = frozenset({FactCategory.VALUE, FactCategory.POLICY})


class FactStatus(StrEnum):
    ACTIVE = "active"
    AGING = "aging"
    SUPERSEDED = "superseded"
    INVALIDATED = "invalidated"


class EntityType(StrEnum):
    PERSON = "person"
    PLACE = "place"
    ORGANIZATION = "organization"
    PET = "pet"
    THING = "thing"
    EVENT = "event"
    CONCEPT = "concept"
    OTHER = "other"


class AliasSource(StrEnum):
    EXACT = "exact"
    FUZZY = "fuzzy"
    COREFERENCE = "coreference"
    USER_STATED = "user_stated"
    DOMAIN = "domain"


class ConflictStrategy(StrEnum):
    TRUST_RECENT = "trust_recent"
    TRUST_DOMAIN = "trust_domain"
    ASK_USER = "ask_user"
    BOTH_VALID = "both_valid"


class ConflictStatus(StrEnum):
    OPEN = "open"
    RESOLVED = "resolved"


class Entity(BaseModel):
    """A person, place, organisation, pet ... known within a tenant and namespace.

    ``user_id`` is the user whose conversations introduced it (``None``: shared by the
    namespace, e.g. from a domain database)."""

    model_config = ConfigDict(frozen=True)

    id: str
    tenant_id: str
    namespace: str
    user_id: str | None
    name: str
    type: EntityType = EntityType.OTHER
    external_ref: str | None = None
    properties: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime


class Alias(BaseModel):
    """Another name for an entity; ``user_id`` set = only that user's words mean it."""

    model_config = ConfigDict(frozen=True)

    entity_id: str
    alias: str  # normalised (see ``text.keys.normalize_name``)
    user_id: str | None
    source: AliasSource
    confidence: float = 1.0
    use_count: int = 1


class Fact(BaseModel):
    """A semantic fact (L4): ``subject`` ``predicate`` ``value``, with its stable key.

    Constraint facts are those whose category is goal, state, value, causal or policy.
    ``revision`` increases with every change and guards concurrent reconciliation.

    Two times (bi-temporal): ``valid_from``/``valid_to`` say when it held in the world
    (from the period its statement tells of, else when it was said; a superseding fact
    closes ``valid_to`` at its own ``valid_from``; ``None``: open on that side);
    ``recorded_at``/``recorded_to`` say when the memory learnt it and when it learnt
    that it no longer holds (superseded, ended or invalidated; ``None`` while live).
    """

    model_config = ConfigDict(frozen=True)

    id: str
    scope: Scope
    key: str
    subject: str  # "user", a speaker's slug, or an entity's normalised name
    subject_entity_id: str | None = None
    predicate: str
    category: FactCategory
    value: str
    polarity: bool = True  # False: the statement is negated ("does not like tea")
    object_entity_id: str | None = None
    text: str  # the statement as a readable sentence
    scope_tags: list[str] = Field(default_factory=list)
    confidence: float = 0.7
    confidence_factors: dict[str, float] = Field(default_factory=dict)
    reinforcement_count: int = 1
    last_validated_at: datetime
    status: FactStatus = FactStatus.ACTIVE
    superseded_by: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_at: datetime
    recorded_to: datetime | None = None
    evidence_item_ids: list[str] = Field(default_factory=list)
    evidence_event_ids: list[str] = Field(default_factory=list)
    importance: float = 0.5
    revision: int = 1
    embedding_model: str | None = None
    # how the fact was read, beyond its evidence: ``{"coreference": [{"said": "She",
    # "name": "Sarah Jones", "evidence": "..."}]}`` when a pronoun or "my sister" in its
    # sentence was resolved to the person it is about (``ingest/extract/coref.py``)
    provenance: dict[str, Any] = Field(default_factory=dict)

    @property
    def is_constraint(self) -> bool:
        return self.category in CONSTRAINT_CATEGORIES


class Relation(BaseModel):
    """A graph edge between two entities, tied to the fact that states it."""

    model_config = ConfigDict(frozen=True)

    id: str
    scope: Scope
    source_entity_id: str
    relation: str
    target_entity_id: str
    fact_id: str | None = None
    confidence: float = 0.7
    active: bool = True
    created_at: datetime


class FactConflict(BaseModel):
    """Two facts under one key whose values disagree and cannot be ordered in time."""

    model_config = ConfigDict(frozen=True)

    id: str
    scope: Scope
    key: str
    fact_ids: list[str]
    strategy: ConflictStrategy = ConflictStrategy.TRUST_RECENT
    status: ConflictStatus = ConflictStatus.OPEN
    winner_fact_id: str | None = None
    created_at: datetime
    resolved_at: datetime | None = None
    note: str = ""


class HistoryTarget(TypedDict):
    """What a history entry names its record by: the record's tenant, type and id."""

    tenant_id: str
    target_type: str
    target_id: str


class HistoryEntry(BaseModel):
    """One change to an item or a fact: who, when, what it was before and after."""

    model_config = ConfigDict(frozen=True)

    id: str
    tenant_id: str
    target_type: str  # "item" | "fact" | "conflict" | "entity"
    target_id: str
    action: str  # created, reinforced, superseded, merged, silenced, conflict, ...
    actor: str = "ingest"
    at: datetime
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    event_id: str | None = None

    @classmethod
    def new(
        cls,
        *,
        tenant_id: str,
        target_type: str,
        target_id: str,
        action: str,
        at: datetime,
        actor: str = "ingest",
        before: dict[str, Any] | None = None,
        after: dict[str, Any] | None = None,
        event_id: str | None = None,
        id_prefix: str = "hst",
    ) -> HistoryEntry:
        """A new entry with a fresh id; ``at`` comes from the caller's clock. The one
        place entries are made (rows read back from a store are rebuilt, not made)."""
        return cls(
            id=new_id(id_prefix),
            tenant_id=tenant_id,
            target_type=target_type,
            target_id=target_id,
            action=action,
            actor=actor,
            at=at,
            before=before,
            after=after,
            event_id=event_id,
        )

    @staticmethod
    def target(record: MemoryItem | Fact | FactConflict | Entity) -> HistoryTarget:
        """The tenant, type and id of the record an entry is about, as ``new`` takes them
        (``HistoryEntry.new(**HistoryEntry.target(item), action=..., at=...)``): the one
        place a record's ``target_type`` is named."""
        if isinstance(record, Entity):
            tenant_id, target_type = record.tenant_id, "entity"
        elif isinstance(record, Fact):
            tenant_id, target_type = record.scope.tenant_id, "fact"
        elif isinstance(record, FactConflict):
            tenant_id, target_type = record.scope.tenant_id, "conflict"
        else:
            tenant_id, target_type = record.scope.tenant_id, "item"
        return HistoryTarget(tenant_id=tenant_id, target_type=target_type, target_id=record.id)


class EntityWithAliases(BaseModel):
    """An entity and every alias it is known by (to the user and shared)."""

    entity: Entity
    aliases: list[Alias]


class AliasAddition(BaseModel):
    """What giving a name to an entity did: the entity with the aliases it now has, the
    rows added, and the entity split off it under that name that was merged back
    (``None`` when no split held the name); the consolidation profiles the merge built
    again (their ids) and, when a profile's gist or the rebuild itself failed, why
    (``degraded``: the profile was written extractively, or is left to the next
    consolidation pass)."""

    entity: EntityWithAliases
    added: list[Alias]
    merged_from: EntityWithAliases | None = None
    rebuilt_profiles: list[str] = Field(default_factory=list)
    degraded: list[str] = Field(default_factory=list)


class AliasRemoval(BaseModel):
    """What removing an alias did: the entity with the aliases it keeps, the rows that
    were removed, and the entity the name was split into (``None`` without a split);
    the consolidation profiles the split built again and ``degraded`` as for
    ``AliasAddition``."""

    entity: EntityWithAliases
    removed: list[Alias]
    split_into: EntityWithAliases | None = None
    rebuilt_profiles: list[str] = Field(default_factory=list)
    degraded: list[str] = Field(default_factory=list)
