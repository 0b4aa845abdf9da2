"""Stored rows → models, shared by both backends.

SQLite and PostgreSQL name the columns alike and both hand JSON back as text; they
differ only in how a time comes back (SQLite: integer microseconds; PostgreSQL: an aware
datetime), so every converter takes that decoder (``sqlite.rows.decode_time``,
``postgres.rows.decode_time``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from cognimem.errors import Conflict
from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, Role, Scope, Tier
from cognimem.models.admin import ApiKey, KeyLevel, Session, SessionStatus
from cognimem.models.knowledge import (
    Alias,
    AliasSource,
    ConflictStatus,
    ConflictStrategy,
    Entity,
    EntityType,
    Fact,
    FactCategory,
    FactConflict,
    FactStatus,
    HistoryEntry,
    Relation,
)
from cognimem.models.results import MessageResult, WriteOutcome
from cognimem.store.types import (
    Access,
    FactRowParts,
    FactRows,
    PendingJob,
    PendingMessage,
    job_id_for,
)


class Row(Protocol):
    """A result row read by column name (``sqlite3.Row``, ``asyncpg.Record``, a dict)."""

    def __getitem__(self, key: str, /) -> Any: ...


_WORD = re.compile(r"[a-z0-9']+")
TimeDecoder = Callable[[Any], datetime | None]

ITEM_COLUMNS = (
    "id, tenant_id, namespace, user_id, agent_id, session_id, text, kind, key, entities,"
    " source_event_ids, external_ids, author, occurred_at, recorded_at, importance, confidence,"
    " tier, status, token_count, access_count, last_accessed_at, loaded_count, cited_count,"
    " success_count, failure_count, consolidated, supersedes, superseded_by, embedding_model,"
    " metadata, event_start, event_end, novelty"
)
# an item's use, counted in the narrow ``item_usage`` table (migration 14): a read's bulk
# update rewrites those rows, not the wide item rows. The items' own columns of these
# names hold what was counted before the migration (copied) and are no longer written
USAGE_COUNTERS = ("access_count", "loaded_count", "cited_count", "success_count", "failure_count")
USAGE_COLUMNS = (*USAGE_COUNTERS, "last_accessed_at")


def check_counters(counts: Mapping[str, int]) -> None:
    """A ``ValueError`` unless every name is a usage counter (what ``add_usage`` adds)."""
    for name in counts:
        if name not in USAGE_COUNTERS:
            raise ValueError(f"not a usage counter: {name}")


def check_accesses(accesses: Sequence[Access]) -> None:
    """A ``ValueError`` when two entries count the same item (one statement adds each
    entry: PostgreSQL's upsert cannot touch a row twice) or one counts no read."""
    if len({(a.tenant_id, a.item_id) for a in accesses}) != len(accesses):
        raise ValueError("one access entry per item")
    if any(a.count < 1 for a in accesses):
        raise ValueError("an access entry counts at least one read")


def _item_column(column: str) -> str:
    if column in USAGE_COUNTERS:
        return f"coalesce(u.{column}, 0) AS {column}"
    if column == "last_accessed_at":
        return f"u.{column} AS {column}"
    return f"i.{column}"


# ``ITEM_COLUMNS`` read from ``ITEMS_WITH_USAGE``: the counters from ``item_usage``
ITEM_SELECT = ", ".join(_item_column(c.strip()) for c in ITEM_COLUMNS.split(","))
ITEMS_WITH_USAGE = "items i LEFT JOIN item_usage u ON u.item_id = i.id"
EVENT_COLUMNS = (
    "id, tenant_id, namespace, user_id, agent_id, session_id, role, name, content, content_hash,"
    " idempotency_key, external_id, occurred_at, recorded_at, metadata"
)
SESSION_COLUMNS = (
    "tenant_id, namespace, id, user_id, agent_id, status, created_at, closed_at, metadata"
)
FACT_COLUMNS = (
    "id, tenant_id, namespace, user_id, agent_id, session_id, key, subject, subject_entity_id,"
    " predicate, category, value, polarity, object_entity_id, text, scope_tags, confidence,"
    " confidence_factors, reinforcement_count, last_validated_at, status, superseded_by,"
    " valid_from, valid_to, recorded_at, evidence_item_ids, evidence_event_ids, importance,"
    " revision, embedding_model, provenance, recorded_to"
)
ENTITY_COLUMNS = (
    "id, tenant_id, namespace, user_id, name, type, external_ref, properties, created_at"
)
RELATION_COLUMNS = (
    "id, tenant_id, namespace, user_id, agent_id, session_id, source_entity_id, relation,"
    " target_entity_id, fact_id, confidence, active, created_at"
)
CONFLICT_COLUMNS = (
    "id, tenant_id, namespace, user_id, agent_id, session_id, key, fact_ids, strategy, status,"
    " winner_fact_id, created_at, resolved_at, note"
)
HISTORY_COLUMNS = (
    "id, tenant_id, target_type, target_id, action, actor, at, before, after, event_id"
)
ALIAS_COLUMNS = "entity_id, alias, user_key, source, confidence, use_count"
API_KEY_COLUMNS = (
    "id, tenant_id, name, key_hash, prefix, created_at, expires_at, revoked_at,"
    " rate_limit_per_minute, level, user_id, agent_id"
)


# what an edit of a memory may change, so what it must find as it left it when it commits
# (Store.update_item's ``expected``); its counters are added to ``item_usage`` as
# increments (``usage_increments``), which need no guard
EDIT_GUARD_COLUMNS = ("text", "importance", "confidence", "tier", "status")


def edit_guard(item: MemoryItem) -> list[object]:
    """``item``'s values of :data:`EDIT_GUARD_COLUMNS`, in that order."""
    return [item.text, item.importance, item.confidence, item.tier.value, item.status.value]


def usage_increments(item: MemoryItem, expected: MemoryItem) -> dict[str, int]:
    """The counters an edit raised (``item`` against the ``expected`` state it was made
    from), by how much; an edit never lowers a counter."""
    out: dict[str, int] = {}
    for column in USAGE_COUNTERS:
        delta = getattr(item, column) - getattr(expected, column)
        if delta < 0:
            raise ValueError(f"an edit cannot lower {column}")
        if delta:
            out[column] = delta
    return out


def closed_session(session_id: str) -> Conflict:
    return Conflict(f"session {session_id} is closed", details={"session": session_id})


def stored_result(message: PendingMessage, item_ids: list[str]) -> MessageResult:
    """What a commit answers for ``message`` once stored: the items it wrote or merged
    into; ``skipped_secret`` when it wrote none because every chunk held a secret."""
    skipped = not item_ids and bool(message.skipped_chunks)
    return MessageResult(
        event_id=message.event.id,
        item_ids=item_ids,
        outcome=WriteOutcome.SKIPPED_SECRET if skipped else WriteOutcome.STORED,
        skipped_chunks=message.skipped_chunks,
        redactions=message.redactions,
    )


def named_sessions(messages: Iterable[PendingMessage]) -> list[tuple[str, str, str]]:
    """(tenant, namespace, session) of every session the messages name, sorted."""
    return sorted(
        {
            (m.event.scope.tenant_id, m.event.scope.namespace, m.event.scope.session_id)
            for m in messages
            if m.event.scope.session_id is not None
        }
    )


# an unprocessed event as ``pending_jobs`` reads it, in commit order
PENDING_COLUMNS = "job_id, id, tenant_id, namespace, user_id, agent_id, profile"


def pending_jobs(seeds: Iterable[Row], members: Iterable[Row]) -> list[PendingJob]:
    """Unprocessed events (``PENDING_COLUMNS``) grouped into their jobs, in the order
    the ``seeds`` (the events asked about) name them. ``members`` are every unprocessed
    event of the seeds' jobs, in commit order; an event stored without a job id (before
    the column existed, or imported) is a job of its own."""
    events: dict[str, list[str]] = {}
    for row in members:
        events.setdefault(row["job_id"], []).append(row["id"])
    jobs: dict[str, PendingJob] = {}
    for row in seeds:
        key = row["job_id"]
        job = key or job_id_for(row["id"])
        if job not in jobs:
            jobs[job] = PendingJob(
                id=job,
                tenant_id=row["tenant_id"],
                namespace=row["namespace"],
                user_id=row["user_id"],
                profile=row["profile"],
                event_ids=tuple(events[key]) if key in events else (row["id"],),
                agent_id=row["agent_id"],
            )
    return list(jobs.values())


def user_key(user_id: str | None) -> str:
    """How aliases record whose they are: ``''`` shared by the namespace, else ``u:<id>``."""
    return "" if user_id is None else f"u:{user_id}"


def scope_of(row: Row, session: str | None = "session_id") -> Scope:
    """The scope a row's columns name (``session``: the column that holds its session's
    id, ``None`` for a table without one)."""
    return Scope(
        tenant_id=row["tenant_id"],
        namespace=row["namespace"],
        user_id=row["user_id"],
        agent_id=row["agent_id"],
        session_id=None if session is None else row[session],
    )


def scope_filter(
    scope: Scope, *, agent: bool = True, session_column: str | None = "session_id"
) -> list[tuple[str, object]]:
    """The columns and values a filter on ``scope`` names: tenant and namespace always;
    user, agent (with ``agent``) and session (in ``session_column``; None: the table has
    none) when the scope sets them."""
    wanted: list[tuple[str, object]] = [
        ("tenant_id", scope.tenant_id),
        ("namespace", scope.namespace),
        ("user_id", scope.user_id),
    ]
    if agent:
        wanted.append(("agent_id", scope.agent_id))
    if session_column is not None:
        wanted.append((session_column, scope.session_id))
    return [(column, value) for column, value in wanted if value is not None]


def _json_list(text: str) -> list[Any]:
    """A JSON array column; the empty one (most rows' entities and ids) without a parse."""
    return [] if text == "[]" else json.loads(text)


def _json_object(text: str) -> dict[str, Any]:
    """A JSON object column; the empty one (most rows' metadata) without a parse."""
    return {} if text == "{}" else json.loads(text)


def _required(time: TimeDecoder, value: Any) -> datetime:
    decoded = time(value)
    assert decoded is not None, "a NOT NULL time column came back NULL"
    return decoded


def item_from_row(row: Row, time: TimeDecoder) -> MemoryItem:
    return MemoryItem(
        id=row["id"],
        scope=scope_of(row),
        text=row["text"],
        kind=ItemKind(row["kind"]),
        key=row["key"],
        entities=_json_list(row["entities"]),
        source_event_ids=_json_list(row["source_event_ids"]),
        external_ids=_json_list(row["external_ids"]),
        author=row["author"],
        occurred_at=_required(time, row["occurred_at"]),
        recorded_at=_required(time, row["recorded_at"]),
        importance=row["importance"],
        confidence=row["confidence"],
        tier=Tier(row["tier"]),
        status=ItemStatus(row["status"]),
        token_count=row["token_count"],
        access_count=row["access_count"],
        last_accessed_at=time(row["last_accessed_at"]),
        loaded_count=row["loaded_count"],
        cited_count=row["cited_count"],
        success_count=row["success_count"],
        failure_count=row["failure_count"],
        consolidated=bool(row["consolidated"]),
        supersedes=row["supersedes"],
        superseded_by=row["superseded_by"],
        embedding_model=row["embedding_model"],
        metadata=_json_object(row["metadata"]),
        event_start=time(row["event_start"]),
        event_end=time(row["event_end"]),
        novelty=row["novelty"],
    )


def event_from_row(row: Row, time: TimeDecoder) -> Event:
    return Event(
        id=row["id"],
        scope=scope_of(row),
        role=Role(row["role"]),
        name=row["name"],
        content=row["content"],
        content_hash=row["content_hash"],
        idempotency_key=row["idempotency_key"],
        external_id=row["external_id"],
        occurred_at=_required(time, row["occurred_at"]),
        recorded_at=_required(time, row["recorded_at"]),
        metadata=json.loads(row["metadata"]),
    )


def fact_from_row(row: Row, time: TimeDecoder) -> Fact:
    return Fact(
        id=row["id"],
        scope=scope_of(row),
        key=row["key"],
        subject=row["subject"],
        subject_entity_id=row["subject_entity_id"],
        predicate=row["predicate"],
        category=FactCategory(row["category"]),
        value=row["value"],
        polarity=bool(row["polarity"]),
        object_entity_id=row["object_entity_id"],
        text=row["text"],
        scope_tags=json.loads(row["scope_tags"]),
        confidence=row["confidence"],
        confidence_factors=json.loads(row["confidence_factors"]),
        reinforcement_count=row["reinforcement_count"],
        last_validated_at=_required(time, row["last_validated_at"]),
        status=FactStatus(row["status"]),
        superseded_by=row["superseded_by"],
        valid_from=time(row["valid_from"]),
        valid_to=time(row["valid_to"]),
        recorded_at=_required(time, row["recorded_at"]),
        recorded_to=time(row["recorded_to"]),
        evidence_item_ids=json.loads(row["evidence_item_ids"]),
        evidence_event_ids=json.loads(row["evidence_event_ids"]),
        importance=row["importance"],
        revision=row["revision"],
        embedding_model=row["embedding_model"],
        provenance=json.loads(row["provenance"]),
    )


def session_from_row(row: Row, time: TimeDecoder) -> Session:
    return Session(
        id=row["id"],
        scope=scope_of(row, "id"),
        status=SessionStatus(row["status"]),
        created_at=_required(time, row["created_at"]),
        closed_at=time(row["closed_at"]),
        metadata=json.loads(row["metadata"]),
    )


def entity_from_row(row: Row, time: TimeDecoder) -> Entity:
    return Entity(
        id=row["id"],
        tenant_id=row["tenant_id"],
        namespace=row["namespace"],
        user_id=row["user_id"],
        name=row["name"],
        type=EntityType(row["type"]),
        external_ref=row["external_ref"],
        properties=json.loads(row["properties"]),
        created_at=_required(time, row["created_at"]),
    )


def relation_from_row(row: Row, time: TimeDecoder) -> Relation:
    return Relation(
        id=row["id"],
        scope=scope_of(row),
        source_entity_id=row["source_entity_id"],
        relation=row["relation"],
        target_entity_id=row["target_entity_id"],
        fact_id=row["fact_id"],
        confidence=row["confidence"],
        active=bool(row["active"]),
        created_at=_required(time, row["created_at"]),
    )


def conflict_from_row(row: Row, time: TimeDecoder) -> FactConflict:
    return FactConflict(
        id=row["id"],
        scope=scope_of(row),
        key=row["key"],
        fact_ids=json.loads(row["fact_ids"]),
        strategy=ConflictStrategy(row["strategy"]),
        status=ConflictStatus(row["status"]),
        winner_fact_id=row["winner_fact_id"],
        created_at=_required(time, row["created_at"]),
        resolved_at=time(row["resolved_at"]),
        note=row["note"],
    )


def history_from_row(row: Row, time: TimeDecoder) -> HistoryEntry:
    return HistoryEntry(
        id=row["id"],
        tenant_id=row["tenant_id"],
        target_type=row["target_type"],
        target_id=row["target_id"],
        action=row["action"],
        actor=row["actor"],
        at=_required(time, row["at"]),
        before=None if row["before"] is None else json.loads(row["before"]),
        after=None if row["after"] is None else json.loads(row["after"]),
        event_id=row["event_id"],
    )


def api_key_from_row(row: Row, time: TimeDecoder) -> ApiKey:
    return ApiKey(
        id=row["id"],
        tenant_id=row["tenant_id"],
        name=row["name"],
        key_hash=row["key_hash"],
        prefix=row["prefix"],
        created_at=_required(time, row["created_at"]),
        expires_at=time(row["expires_at"]),
        revoked_at=time(row["revoked_at"]),
        rate_limit_per_minute=row["rate_limit_per_minute"],
        level=KeyLevel(row["level"]),
        user_id=row["user_id"],
        agent_id=row["agent_id"],
    )


def alias_from_row(row: Row) -> Alias:
    key = row["user_key"]
    return Alias(
        entity_id=row["entity_id"],
        alias=row["alias"],
        user_id=key.removeprefix("u:") if key else None,
        source=AliasSource(row["source"]),
        confidence=row["confidence"],
        use_count=row["use_count"],
    )


FactColumns = tuple[str, str, str, str, bytes | np.ndarray | None]


def fact_rows(rows: Sequence[FactColumns]) -> FactRows:
    """``FactRows`` from (id, category, scope_tags JSON, words, embedding blob or array)."""
    return FactRows.of([fact_row_parts(r) for r in rows])


def fact_row_parts(row: FactColumns) -> FactRowParts:
    """One fact's columns decoded: its tags parsed, its words found, its vector read."""
    fact_id, category, tags, words, embedding = row
    if isinstance(embedding, bytes):
        embedding = np.frombuffer(embedding, dtype=np.float32)
    return fact_id, category, json.loads(tags), frozenset(_WORD.findall(words.lower())), embedding
