"""Conversions between SQLite rows and domain models."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, Role, Tier
from cognimem.models.clock import from_micros, to_micros
from cognimem.store.records import scope_of

ITEM_COLUMNS = (
    "id, tenant_id, namespace, user_id, agent_id, session_id, text, kind, key, entities,"
    " source_event_ids, external_ids, author, occurred_at, recorded_at, importance, confidence,"
    " tier, status, token_count, access_count, last_accessed_at, loaded_count, cited_count,"
    " success_count, failure_count, consolidated, supersedes, superseded_by, embedding_model,"
    " metadata, event_start, event_end"
)

EVENT_COLUMNS = (
    "id, tenant_id, namespace, user_id, agent_id, session_id, role, name, content, content_hash,"
    " idempotency_key, external_id, occurred_at, recorded_at, metadata"
)


def item_from_row(row: sqlite3.Row) -> MemoryItem:
    last = row["last_accessed_at"]
    return MemoryItem(
        id=row["id"],
        scope=scope_of(row),
        text=row["text"],
        kind=ItemKind(row["kind"]),
        key=row["key"],
        entities=json.loads(row["entities"]),
        source_event_ids=json.loads(row["source_event_ids"]),
        external_ids=json.loads(row["external_ids"]),
        author=row["author"],
        occurred_at=from_micros(row["occurred_at"]),
        recorded_at=from_micros(row["recorded_at"]),
        importance=row["importance"],
        confidence=row["confidence"],
        tier=Tier(row["tier"]),
        status=ItemStatus(row["status"]),
        token_count=row["token_count"],
        access_count=row["access_count"],
        last_accessed_at=None if last is None else from_micros(last),
        loaded_count=row["loaded_count"],
        cited_count=row["cited_count"],
        success_count=row["success_count"],
        failure_count=row["failure_count"],
        consolidated=bool(row["consolidated"]),
        supersedes=row["supersedes"],
        superseded_by=row["superseded_by"],
        embedding_model=row["embedding_model"],
        metadata=json.loads(row["metadata"]),
        event_start=_time(row["event_start"]),
        event_end=_time(row["event_end"]),
    )


def _time(micros: int | None) -> datetime | None:
    return None if micros is None else from_micros(micros)


def _micros(value: datetime | None) -> int | None:
    return None if value is None else to_micros(value)


def item_params(item: MemoryItem, embedding: bytes | None) -> tuple[Any, ...]:
    s = item.scope
    return (
        item.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, item.text,
        item.kind.value, item.key, json.dumps(item.entities), json.dumps(item.source_event_ids),
        json.dumps(item.external_ids), item.author, to_micros(item.occurred_at),
        to_micros(item.recorded_at), item.importance, item.confidence, item.tier.value,
        item.status.value, item.token_count, item.access_count,
        None if item.last_accessed_at is None else to_micros(item.last_accessed_at),
        item.loaded_count, item.cited_count, item.success_count, item.failure_count,
        int(item.consolidated), item.supersedes, item.superseded_by, item.embedding_model,
        json.dumps(item.metadata), _micros(item.event_start), _micros(item.event_end),
        embedding,
    )  # fmt: skip


INSERT_ITEM = f"INSERT INTO items ({ITEM_COLUMNS}, embedding) VALUES ({', '.join('?' * 34)})"


def event_from_row(row: sqlite3.Row) -> Event:
    return Event(
        id=row["id"],
        scope=scope_of(row),
        role=Role(row["role"]),
        name=row["name"],
        content=row["content"],
        content_hash=row["content_hash"],
        idempotency_key=row["idempotency_key"],
        external_id=row["external_id"],
        occurred_at=from_micros(row["occurred_at"]),
        recorded_at=from_micros(row["recorded_at"]),
        metadata=json.loads(row["metadata"]),
    )


def event_params(event: Event) -> tuple[Any, ...]:
    s = event.scope
    return (
        event.id, s.tenant_id, s.namespace, s.user_id, s.agent_id, s.session_id, event.role.value,
        event.name, event.content, event.content_hash, event.idempotency_key, event.external_id,
        to_micros(event.occurred_at), to_micros(event.recorded_at), json.dumps(event.metadata),
    )  # fmt: skip


INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join('?' * 15)})"
