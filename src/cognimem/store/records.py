"""Stored rows → models, shared by both backends.

SQLite and PostgreSQL name the columns alike and both hand JSON back as text; they
differ only in how a time comes back (SQLite: integer microseconds; PostgreSQL: an aware
datetime), so every converter takes that decoder (``sqlite.rows.decode_time``,
``postgres.rows.decode_time``).
"""

from __future__ import annotations

import json
import json.scanner
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar, get_args, get_origin, overload

from pydantic import BaseModel

from cognimem.errors import Conflict
from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, Scope, Tier
from cognimem.models.admin import ApiKey, Session
from cognimem.models.items import stored_item, trusted
from cognimem.models.knowledge import (
    Alias,
    AliasSource,
    Entity,
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
    PendingJob,
    PendingMessage,
    job_id_for,
)


class Row(Protocol):
    """A result row read by column name (``sqlite3.Row``, ``asyncpg.Record``, a dict)."""

    def __getitem__(self, key: str, /) -> Any: ...


TimeDecoder = Callable[[Any], datetime | None]
M = TypeVar("M", bound=BaseModel)

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
    return [] if text == "[]" else parse_json(text)


def _json_object(text: str) -> dict[str, Any]:
    """A JSON object column; the empty one (most rows' metadata) without a parse."""
    return {} if text == "{}" else parse_json(text)


_DECODER = json.JSONDecoder()
_decode = _DECODER.decode
# the scanner ``JSONDecoder`` makes itself (typeshed types its argument as a scanner, not
# the decoder whose settings it reads)
_scan = json.scanner.make_scanner(_DECODER)  # type: ignore[arg-type]


def parse_json(text: str) -> Any:
    """``json.loads`` of a str: the scanner alone when the value fills the text (a
    column ``json.dumps`` wrote), else ``JSONDecoder.decode`` (which skips surrounding
    whitespace and raises as ``json.loads`` does). ``decode`` wraps the same scan in two
    whitespace matches and two calls (~2 of its ~2.5 microseconds a column)."""
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        return _decode(text)
    return value if end == len(text) else _decode(text)


def _required(time: TimeDecoder, value: Any) -> datetime:
    decoded = time(value)
    assert decoded is not None, "a NOT NULL time column came back NULL"
    return decoded


class Columns(Protocol):
    """A result row read by position as well as by name (``sqlite3.Row``,
    ``asyncpg.Record``)."""

    @overload
    def __getitem__(self, key: str, /) -> Any: ...
    @overload
    def __getitem__(self, key: slice, /) -> tuple[Any, ...]: ...


_ITEM_WIDTH = len(ITEM_COLUMNS.split(","))
_FACT_WIDTH = len(FACT_COLUMNS.split(","))
_KINDS, _TIERS = ItemKind._value2member_map_, Tier._value2member_map_
_STATUSES = ItemStatus._value2member_map_
_CATEGORIES, _FACT_STATUSES = FactCategory._value2member_map_, FactStatus._value2member_map_
# a scope's model, validated once: the rows of a read are of a few scopes (frozen models)
_SCOPES: dict[tuple[Any, ...], Scope] = {}
_MAX_SCOPES = 4_096


def item_from_row(row: Columns, time: TimeDecoder, at: int = 0) -> MemoryItem:
    """An item from a row whose columns from position ``at`` on are ``ITEM_COLUMNS`` (or
    ``ITEM_SELECT``'s) in their order; later columns are not read. By position: a
    ``sqlite3.Row`` finds a column by name by comparing names in turn (~18 -> ~11
    microseconds an item, ~30 a read). The JSON and NOT NULL time columns are read
    inline (``_json_list``, ``_json_object``, ``_required``: ~6 calls an item fewer)."""
    (
        id_, tenant_id, namespace, user_id, agent_id, session_id, text, kind, key, entities,
        source_event_ids, external_ids, author, occurred_at, recorded_at, importance,
        confidence, tier, status, token_count, access_count, last_accessed_at, loaded_count,
        cited_count, success_count, failure_count, consolidated, supersedes, superseded_by,
        embedding_model, metadata, event_start, event_end, novelty,
    ) = row[at : at + _ITEM_WIDTH]  # fmt: skip
    occurred, recorded = time(occurred_at), time(recorded_at)
    assert occurred is not None, "a NOT NULL time column came back NULL"
    assert recorded is not None, "a NOT NULL time column came back NULL"
    return stored_item(
        {  # in MemoryItem's field order
            "id": id_,
            "scope": _scope(tenant_id, namespace, user_id, agent_id, session_id),
            "text": text,
            "kind": _KINDS.get(kind) or ItemKind(kind),
            "key": key,
            # the empty array (most rows' entities and ids) without a parse
            "entities": [] if entities == "[]" else parse_json(entities),
            "source_event_ids": [] if source_event_ids == "[]" else parse_json(source_event_ids),
            "external_ids": [] if external_ids == "[]" else parse_json(external_ids),
            "author": author,
            "occurred_at": occurred,
            "recorded_at": recorded,
            "event_start": time(event_start),
            "event_end": time(event_end),
            "importance": importance,
            "novelty": novelty,
            "confidence": confidence,
            "tier": _TIERS.get(tier) or Tier(tier),
            "status": _STATUSES.get(status) or ItemStatus(status),
            "token_count": token_count,
            "access_count": access_count,
            "last_accessed_at": time(last_accessed_at),
            "loaded_count": loaded_count,
            "cited_count": cited_count,
            "success_count": success_count,
            "failure_count": failure_count,
            "consolidated": bool(consolidated),
            "supersedes": supersedes,
            "superseded_by": superseded_by,
            "embedding_model": embedding_model,
            "metadata": {} if metadata == "{}" else parse_json(metadata),
        }
    )


def fact_from_row(row: Columns, time: TimeDecoder, at: int = 0) -> Fact:
    """A fact from a row whose columns from position ``at`` on are ``FACT_COLUMNS`` in
    their order; later columns are not read."""
    (
        id_, tenant_id, namespace, user_id, agent_id, session_id, key, subject,
        subject_entity_id, predicate, category, value, polarity, object_entity_id, text,
        scope_tags, confidence, confidence_factors, reinforcement_count, last_validated_at,
        status, superseded_by, valid_from, valid_to, recorded_at, evidence_item_ids,
        evidence_event_ids, importance, revision, embedding_model, provenance, recorded_to,
    ) = row[at : at + _FACT_WIDTH]  # fmt: skip
    return _stored_fact(
        {  # in Fact's field order
            "id": id_,
            "scope": _scope(tenant_id, namespace, user_id, agent_id, session_id),
            "key": key,
            "subject": subject,
            "subject_entity_id": subject_entity_id,
            "predicate": predicate,
            "category": _CATEGORIES.get(category) or FactCategory(category),
            "value": value,
            "polarity": bool(polarity),
            "object_entity_id": object_entity_id,
            "text": text,
            "scope_tags": _json_list(scope_tags),
            "confidence": confidence,
            "confidence_factors": _json_object(confidence_factors),
            "reinforcement_count": reinforcement_count,
            "last_validated_at": _required(time, last_validated_at),
            "status": _FACT_STATUSES.get(status) or FactStatus(status),
            "superseded_by": superseded_by,
            "valid_from": time(valid_from),
            "valid_to": time(valid_to),
            "recorded_at": _required(time, recorded_at),
            "recorded_to": time(recorded_to),
            "evidence_item_ids": _json_list(evidence_item_ids),
            "evidence_event_ids": _json_list(evidence_event_ids),
            "importance": importance,
            "revision": revision,
            "embedding_model": embedding_model,
            "provenance": _json_object(provenance),
        }
    )


def _stored_fact(values: dict[str, Any]) -> Fact:
    """A fact of a stored row's values (``models.items.trusted``), validated only when a
    float field holds anything but a float (never written so)."""
    floats = [values["confidence"], values["importance"], *values["confidence_factors"].values()]
    return trusted(Fact, values) if all(type(f) is float for f in floats) else Fact(**values)


def _scope(
    tenant_id: str, namespace: str, user_id: str | None, agent_id: str | None, session: str | None
) -> Scope:
    """The scope of these ids, validated the first time they are seen (a frozen model,
    shared by the rows that name it)."""
    key = (tenant_id, namespace, user_id, agent_id, session)
    found = _SCOPES.get(key)
    if found is None:
        found = Scope(
            tenant_id=tenant_id,
            namespace=namespace,
            user_id=user_id,
            agent_id=agent_id,
            session_id=session,
        )
        if len(_SCOPES) >= _MAX_SCOPES:
            _SCOPES.clear()
        _SCOPES[key] = found
    return found


class RowReader(Generic[M]):
    """Reads a ``model`` from a row whose columns bear its fields' names: ``scope`` from
    the scope columns (``session``: the column of its session's id, None for a table
    without one), every other field from its column (``renamed``: field -> column where
    they differ), decoded by the field's type: a time by the backend's decoder, a list,
    a dict or a model from its JSON text, an enum from its value, a flag from 0 / 1."""

    def __init__(
        self,
        model: type[M],
        columns: str,
        *,
        session: str | None = "session_id",
        renamed: Mapping[str, str] | None = None,
    ) -> None:
        named = {c.strip() for c in columns.split(",")}
        self._model = model
        self._session = session
        self._scoped = "scope" in model.model_fields
        self._fields: list[tuple[str, str, _Decode]] = []
        for name, info in model.model_fields.items():
            column = (renamed or {}).get(name, name)
            if name == "scope":
                continue
            if column not in named:
                raise ValueError(f"{model.__name__}.{name} has no column in {columns!r}")
            self._fields.append((name, column, _decoder(info.annotation)))

    def __call__(self, row: Row, time: TimeDecoder) -> M:
        values = {name: decode(row[column], time) for name, column, decode in self._fields}
        if self._scoped:
            values["scope"] = scope_of(row, self._session)
        return self._model(**values)


_Decode = Callable[[Any, TimeDecoder], Any]


def _decoder(annotation: Any) -> _Decode:
    """How a column's value becomes a field of type ``annotation``."""
    if annotation is datetime:
        return lambda value, time: _required(time, value)
    args = [a for a in get_args(annotation) if a is not type(None)]
    if len(args) == 1 and type(None) in get_args(annotation):  # ``X | None``
        if args[0] is datetime:
            return lambda value, time: time(value)
        inner = _decoder(args[0])
        return lambda value, time: None if value is None else inner(value, time)
    if get_origin(annotation) in (list, dict):
        return lambda value, _: json.loads(value)
    if isinstance(annotation, type) and issubclass(annotation, Enum | bool):
        return lambda value, _: annotation(value)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return lambda value, _: annotation.model_validate_json(value)
    return lambda value, _: value


event_from_row = RowReader(Event, EVENT_COLUMNS)
session_from_row = RowReader(Session, SESSION_COLUMNS, session="id")
entity_from_row = RowReader(Entity, ENTITY_COLUMNS)
relation_from_row = RowReader(Relation, RELATION_COLUMNS)
conflict_from_row = RowReader(FactConflict, CONFLICT_COLUMNS)
history_from_row = RowReader(HistoryEntry, HISTORY_COLUMNS)
api_key_from_row = RowReader(ApiKey, API_KEY_COLUMNS)


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
