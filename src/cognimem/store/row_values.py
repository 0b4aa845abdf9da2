"""The values both backends write for a model's row, in the order of the shared column
lists of ``store/records.py`` (which reads them back): events, items, sessions, facts,
entities, relations, conflicts, history. Each backend encodes times its own way
(``TimeEncoder``: SQLite integer microseconds, PostgreSQL aware UTC datetimes; ``None``
stays ``None``) and writes what follows the shared columns (an item's or a fact's
embedding, an event's processing state)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from cognimem.models import Event, MemoryItem, Scope
from cognimem.models.admin import ApiKey, Session
from cognimem.models.knowledge import Entity, Fact, FactConflict, HistoryEntry, Relation
from cognimem.store.records import FACT_COLUMNS

TimeEncoder = Callable[[datetime | None], Any]

FACT_COLUMN_NAMES = tuple(FACT_COLUMNS.split(", "))
# the columns an update of a fact rewrites (a reconciliation's or an edit's)
FACT_MUTABLE = (
    "text", "scope_tags", "confidence", "confidence_factors", "reinforcement_count",
    "last_validated_at", "status", "superseded_by", "valid_from", "valid_to",
    "evidence_item_ids", "evidence_event_ids", "importance", "revision", "polarity", "value",
    "recorded_to",
)  # fmt: skip


def scope_values(s: Scope) -> tuple[str, str, str | None, str | None, str | None]:
    return (s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id)


def event_values(e: Event, time: TimeEncoder) -> tuple[Any, ...]:
    """The values of ``EVENT_COLUMNS``."""
    return (
        e.id, *scope_values(e.scope), e.role.value, e.name, e.content, e.content_hash,
        e.idempotency_key, e.external_id, time(e.occurred_at), time(e.recorded_at),
        json.dumps(e.metadata),
    )  # fmt: skip


def item_values(i: MemoryItem, time: TimeEncoder) -> tuple[Any, ...]:
    """The values of ``ITEM_COLUMNS``."""
    return (
        i.id, *scope_values(i.scope), i.text, i.kind.value, i.key, json.dumps(i.entities),
        json.dumps(i.source_event_ids), json.dumps(i.external_ids), i.author,
        time(i.occurred_at), time(i.recorded_at), i.importance, i.confidence, i.tier.value,
        i.status.value, i.token_count, i.access_count, time(i.last_accessed_at),
        i.loaded_count, i.cited_count, i.success_count, i.failure_count, i.consolidated,
        i.supersedes, i.superseded_by, i.embedding_model, json.dumps(i.metadata),
        time(i.event_start), time(i.event_end), i.novelty,
    )  # fmt: skip


def api_key_values(k: ApiKey, time: TimeEncoder) -> tuple[Any, ...]:
    """The values of ``API_KEY_COLUMNS``."""
    return (
        k.id, k.tenant_id, k.name, k.key_hash, k.prefix, time(k.created_at),
        time(k.expires_at), time(k.revoked_at), k.rate_limit_per_minute, k.level.value,
        k.user_id, k.agent_id,
    )  # fmt: skip


def session_values(s: Session, time: TimeEncoder) -> tuple[Any, ...]:
    """The values of ``SESSION_COLUMNS``."""
    return (
        s.scope.tenant_id, s.scope.namespace, s.id, s.scope.user_id, s.scope.agent_id,
        s.status.value, time(s.created_at), time(s.closed_at), json.dumps(s.metadata),
    )  # fmt: skip


def fact_values(f: Fact, time: TimeEncoder) -> dict[str, Any]:
    """Every column of ``FACT_COLUMNS``, by name."""
    tenant_id, namespace, user_id, agent_id, session_id = scope_values(f.scope)
    return {
        "id": f.id, "tenant_id": tenant_id, "namespace": namespace, "user_id": user_id,
        "agent_id": agent_id, "session_id": session_id, "key": f.key, "subject": f.subject,
        "subject_entity_id": f.subject_entity_id, "predicate": f.predicate,
        "category": f.category.value, "value": f.value, "polarity": f.polarity,
        "object_entity_id": f.object_entity_id, "text": f.text,
        "scope_tags": json.dumps(f.scope_tags), "confidence": f.confidence,
        "confidence_factors": json.dumps(f.confidence_factors),
        "reinforcement_count": f.reinforcement_count,
        "last_validated_at": time(f.last_validated_at), "status": f.status.value,
        "superseded_by": f.superseded_by, "valid_from": time(f.valid_from),
        "valid_to": time(f.valid_to), "recorded_at": time(f.recorded_at),
        "evidence_item_ids": json.dumps(f.evidence_item_ids),
        "evidence_event_ids": json.dumps(f.evidence_event_ids), "importance": f.importance,
        "revision": f.revision, "embedding_model": f.embedding_model,
        "provenance": json.dumps(f.provenance), "recorded_to": time(f.recorded_to),
    }  # fmt: skip


def fact_row(f: Fact, time: TimeEncoder) -> tuple[Any, ...]:
    """The values of ``FACT_COLUMNS``."""
    values = fact_values(f, time)
    return tuple(values[c] for c in FACT_COLUMN_NAMES)


def fact_mutable(f: Fact, time: TimeEncoder) -> list[Any]:
    """The values of ``FACT_MUTABLE``."""
    values = fact_values(f, time)
    return [values[c] for c in FACT_MUTABLE]


def entity_values(e: Entity, time: TimeEncoder) -> tuple[Any, ...]:
    return (
        e.id, e.tenant_id, e.namespace, e.user_id, e.name, e.type.value, e.external_ref,
        json.dumps(e.properties), time(e.created_at),
    )  # fmt: skip


def relation_values(r: Relation, time: TimeEncoder) -> tuple[Any, ...]:
    return (
        r.id, *scope_values(r.scope), r.source_entity_id, r.relation, r.target_entity_id,
        r.fact_id, r.confidence, r.active, time(r.created_at),
    )  # fmt: skip


def conflict_values(c: FactConflict, time: TimeEncoder) -> tuple[Any, ...]:
    return (
        c.id, *scope_values(c.scope), c.key, json.dumps(c.fact_ids), c.strategy.value,
        c.status.value, c.winner_fact_id, time(c.created_at), time(c.resolved_at), c.note,
    )  # fmt: skip


def history_values(h: HistoryEntry, time: TimeEncoder) -> tuple[Any, ...]:
    return (
        h.id, h.tenant_id, h.target_type, h.target_id, h.action, h.actor, time(h.at),
        _json_or_none(h.before), _json_or_none(h.after), h.event_id,
    )  # fmt: skip


def _json_or_none(value: Mapping[str, Any] | None) -> str | None:
    # default=str: history snapshots may hold datetimes, written as their text
    return None if value is None else json.dumps(value, default=str)
