"""What both backends share for export, import and erasure: the order an export
streams its rows in and its paging (:func:`export_stream`), stored rows as
:class:`~cognimem.models.admin.ExportRecord` lines (:func:`row_record`) and back
(:func:`parse`), and the content hashes of erased texts.

A record's ``data`` is the domain model's JSON, plus what the model does not carry but
the row does: an event's ``processed`` flag, an item's ``search_text`` (the lexical
index holds the message said before it too, so reads rank alike after an import) and
an alias's ``namespace``. Embeddings are not exported: the importer embeds item and
fact texts again with its own model. Which table an export carries, and why the others
are left out, is :data:`TABLES`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Iterable,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cognimem.errors import InvalidInput
from cognimem.models import Event, MemoryItem
from cognimem.models.admin import ExportRecord, RecordType, Session
from cognimem.models.fact_changes import NO_LONGER_TRUE
from cognimem.models.ids import content_hash
from cognimem.models.items import CONSOLIDATION_META, index_text
from cognimem.models.knowledge import Alias, Entity, Fact, FactConflict, HistoryEntry, Relation
from cognimem.models.procedures import Procedure
from cognimem.store import procedure_records, records
from cognimem.store.records import Row, TimeDecoder
from cognimem.text.tokens import trigger_terms

# 2: procedures are exported (records of type ``procedure``); a format 1 export, which
# has none, imports as it always did
FORMAT_VERSION = 2
READABLE_FORMATS = (1, 2)
# the record types whose ids are unique across a database (a session is keyed by its
# tenant, namespace and name), with the prefix ``models.ids.new_id`` gives each
ID_PREFIX: dict[RecordType, str] = {
    "event": "evt", "item": "mem", "entity": "ent", "fact": "fct", "relation": "rel",
    "conflict": "cfl", "history": "hst", "procedure": "prc",
}  # fmt: skip
# their tables
ROW_TABLES = (
    "events", "items", "entities", "facts", "relations", "conflicts", "history", "procedures",
)  # fmt: skip
# every table of both backends' schemas: what an export carries it as (a record type, or
# the record a table's rows travel inside), or why it is left out. The contract suite
# lists the tables from each database's catalogue, so a table added later must be placed
# here (tests/contract/test_transfer_store.py)
TABLES: dict[str, str] = {
    "events": "event", "items": "item", "entities": "entity", "aliases": "alias",
    "facts": "fact", "relations": "relation", "conflicts": "conflict", "history": "history",
    "sessions": "session", "procedures": "procedure",
    "item_events": "in items: their source_event_ids (the import links them again)",
    "item_usage": "in items: their usage counters",
    "items_fts": "in items: their search_text (the import indexes it again)",
    "embedding_cache": "left out: vectors of the exporting model; the import embeds again",
    "scope_versions": "left out: this database's cache version counters",
    "fact_versions": "left out: this database's cache version counters",
    "item_removals": "left out: this database's cache version counters",
    "item_search_stats": "left out: lexical statistics, kept from the items by triggers",
    "lifecycle_runs": "left out: leases and last runs of lifecycle operations; each is"
    " idempotent, so a copy's first run finds what is left to do",
    "queue_jobs": "left out: jobs of this deployment; an unprocessed event is exported",
    "api_keys": "left out: credentials of this server, not a user's memory",
    "meta": "left out: the database's own settings (its embedding model)",
    "schema_migrations": "left out: the database's own schema version",
}  # fmt: skip
# an id the write path made (new_id: a prefix, 12 hex digits of milliseconds, 16 random),
# or one an import derived from such an id (longer)
_MADE_ID = re.compile(r"^([a-z]+)_[0-9a-f]{28,}$")
_MAX_DERIVED = 100  # an id longer than this is not lengthened again
# fields that hold a person's words, names or scope, never a reference to a row
_NOT_REFERENCES = frozenset({
    "scope", "tenant_id", "namespace", "user_id", "agent_id", "session_id", "content",
    "text", "search_text", "metadata", "properties", "external_id", "external_ids",
    "external_ref", "idempotency_key", "content_hash", "name", "alias", "author", "note",
    "value", "subject", "predicate", "trigger", "trigger_terms", "action",
})  # fmt: skip
# fields made of words and ids joined by ":" (a fact's ``user:location:city``, a
# summary's ``window:<session>:<first episode>`` or ``profile:<entity>``): each part that
# is an id is a reference (a later consolidation finds a summary by its key)
_KEYS = frozenset({"key"})
# the order an export streams its rows in (what a row refers to comes before it)
EXPORT_ORDER: tuple[RecordType, ...] = (
    "session", "event", "item", "entity", "alias", "fact", "relation", "conflict", "history",
    "procedure",
)  # fmt: skip

M = TypeVar("M", bound=BaseModel)

# where the next page of one record type starts (a backend's keyset); None: no more pages
Cursor = tuple[Any, ...]
Page = tuple[list[ExportRecord], Cursor | None]


async def export_stream(
    page: Callable[[RecordType, Cursor | None], Awaitable[Page]],
) -> AsyncIterator[ExportRecord]:
    """Every record type in :data:`EXPORT_ORDER`, each read page by page: ``page(kind,
    after)`` is one backend query, and a consumer that stops early reads no more."""
    for kind in EXPORT_ORDER:
        after: Cursor | None = None
        while True:
            found, after = await page(kind, after)
            for rec in found:
                yield rec
            if after is None:
                break


def record(kind: RecordType, model: BaseModel, **extra: Any) -> ExportRecord:
    data = model.model_dump(mode="json")
    data.update(extra)
    return ExportRecord(type=kind, data=data)


# how a row of each plain kind becomes its model (the kinds whose rows hold more are
# written out in ``row_record``)
_DECODERS: dict[str, Callable[[Row, TimeDecoder], BaseModel]] = {
    "fact": records.fact_from_row,
    "entity": records.entity_from_row,
    "relation": records.relation_from_row,
    "conflict": records.conflict_from_row,
    "session": records.session_from_row,
    "history": records.history_from_row,
    "procedure": procedure_records.procedure_from_row,
}


def row_record(kind: RecordType, row: Row, time: TimeDecoder) -> ExportRecord:
    """A stored row of ``kind`` as its export record, with what the row holds beyond
    the model: an event's ``processed``, an item's ``search_text``, an alias's
    ``namespace``."""
    if kind == "event":
        event = records.event_from_row(row, time)
        return record(kind, event, processed=bool(row["processed"]))
    if kind == "item":
        item = records.item_from_row(row, time)
        return record(kind, item, search_text=row["search_text"] or "")
    if kind == "alias":
        return record(kind, records.alias_from_row(row), namespace=row["namespace"])
    decode = _DECODERS.get(kind)
    if decode is not None:
        return record(kind, decode(row, time))
    raise ValueError(f"no stored rows of type {kind!r}")


embedded_text = index_text
"""The text the write path embeds for an item: the author's name belongs to what was
said (one function, ``models.items.index_text``, for the write path and the store)."""


def erased_hashes(
    items: Iterable[tuple[str | None, str]], texts: Iterable[str], hashes: Iterable[str]
) -> list[str]:
    """Embedding-cache keys of erased content: each item's text alone and as embedded
    (with its author), other texts (facts), and hashes known already (events')."""
    out = set(hashes)
    for author, text in items:
        out.add(content_hash(text))
        out.add(content_hash(embedded_text(author, text)))
    out.update(content_hash(t) for t in texts)
    return sorted(out)


ProcedureRow = tuple[str, str, str, str]  # id, trigger, request ids, source ids (JSON)


def touched_procedures(
    rows: Iterable[ProcedureRow], erased: Collection[str]
) -> tuple[list[ProcedureRow], set[str]]:
    """Of the shared (agent) procedures ``rows``, those the erased events helped learn,
    and the ids of all their request events (whose words ``scrub_procedures`` needs)."""
    touched: list[ProcedureRow] = []
    requests: set[str] = set()
    for row in rows:
        asked, sources = json.loads(row[2]), json.loads(row[3])
        if any(e in erased for e in (*asked, *sources)):
            touched.append(row)
            requests.update(asked)
    return touched, requests


def scrub_procedures(
    touched: Iterable[ProcedureRow], erased: Collection[str], said: Mapping[str, str]
) -> tuple[list[str], list[tuple[str, str, str, str]]]:
    """What erasing a user does to the agents' procedures its events helped learn
    (``touched_procedures``; ``said``: request event id -> content): the ids to delete —
    no other user's request is left, or the trigger is the erased user's words and no
    other request says them — and, for the others, (id, request ids, source ids as
    JSON) with the erased ids taken out."""

    def says(event_id: str, trigger: str) -> bool:
        text = " ".join(said.get(event_id, "").split())
        cut = trigger.removesuffix("…")
        return text == trigger or (cut != trigger and text.startswith(cut))

    deleted: list[str] = []
    kept: list[tuple[str, str, str, str]] = []
    for procedure_id, trigger, requests_json, sources_json in touched:
        requests, sources = json.loads(requests_json), json.loads(sources_json)
        left = [e for e in requests if e not in erased]
        theirs = any(says(e, trigger) for e in requests if e in erased)
        terms = remaining_terms([said.get(e, "") for e in left])
        if not left or not terms or (theirs and not any(says(e, trigger) for e in left)):
            deleted.append(procedure_id)
        else:
            rest = [e for e in sources if e not in erased]
            kept.append((procedure_id, json.dumps(left), json.dumps(rest), json.dumps(terms)))
    return deleted, kept


def remaining_terms(requests: Sequence[str]) -> list[str]:
    """A kept procedure's trigger terms made again from the requests left (in their
    order): the words at least half of them hold, in the first's order (as detection
    makes them, ``lifecycle/procedures.py``), so no erased user's word stays in them."""
    said = [t for t in (trigger_terms(r) for r in requests) if t]
    if not said:
        return []
    counts: dict[str, int] = {}
    for terms in said:
        for t in set(terms):
            counts[t] = counts.get(t, 0) + 1
    common = [t for t in said[0] if 2 * counts[t] >= len(said)]
    return common or said[0]


@dataclass
class ImportBatch:
    """Records parsed into models, their tenant replaced."""

    events: list[tuple[Event, bool]] = field(default_factory=list)  # (event, processed)
    items: list[tuple[MemoryItem, str]] = field(default_factory=list)  # (item, search_text)
    facts: list[Fact] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    aliases: list[tuple[str, Alias]] = field(default_factory=list)  # (namespace, alias)
    relations: list[Relation] = field(default_factory=list)
    conflicts: list[FactConflict] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    procedures: list[Procedure] = field(default_factory=list)


def _parse(kind: type[M], data: dict[str, Any], tenant_id: str) -> M:
    """``data`` as a ``kind`` in ``tenant_id`` (models carry it in their scope or as a
    field of their own)."""
    if isinstance(data.get("scope"), dict):
        data["scope"] = {**data["scope"], "tenant_id": tenant_id}
    elif "tenant_id" in kind.model_fields:
        data["tenant_id"] = tenant_id
    return kind.model_validate(data)


def parse(records: Sequence[ExportRecord], tenant_id: str, *, first_line: int = 1) -> ImportBatch:
    """Every record but headers as a model in ``tenant_id``.

    A record that does not hold its type's model raises ``InvalidInput`` naming its line
    (``first_line`` is the line of ``records[0]``)."""
    out = ImportBatch()
    for index, rec in enumerate(records):
        line = first_line + index
        data = dict(rec.data)
        try:
            if rec.type in ("header", "error"):  # error: a row the exporter could not write
                continue
            if rec.type == "event":
                processed = bool(data.pop("processed", True))
                out.events.append((_parse(Event, data, tenant_id), processed))
            elif rec.type == "item":
                search = data.pop("search_text", None)
                item = _parse(MemoryItem, data, tenant_id)
                text = search if isinstance(search, str) and search else item.text
                out.items.append((item, text))
            elif rec.type == "fact":
                out.facts.append(_parse(Fact, data, tenant_id))
            elif rec.type == "entity":
                out.entities.append(_parse(Entity, data, tenant_id))
            elif rec.type == "alias":
                namespace = data.pop("namespace", None)
                if not isinstance(namespace, str) or not namespace:
                    raise InvalidInput(
                        f"line {line}: an alias record needs its namespace", field=f"line {line}"
                    )
                out.aliases.append((namespace, _parse(Alias, data, tenant_id)))
            elif rec.type == "relation":
                out.relations.append(_parse(Relation, data, tenant_id))
            elif rec.type == "conflict":
                out.conflicts.append(_parse(FactConflict, data, tenant_id))
            elif rec.type == "history":
                out.history.append(_parse(HistoryEntry, data, tenant_id))
            elif rec.type == "session":
                session = _parse(Session, data, tenant_id)
                if session.scope.session_id != session.id:
                    raise InvalidInput(
                        f"line {line}: a session's scope must name the session",
                        field=f"line {line}",
                    )
                out.sessions.append(session)
            elif rec.type == "procedure":
                out.procedures.append(_parse(Procedure, data, tenant_id))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise InvalidInput(
                f"line {line}: not a valid {rec.type} record ({where}: {first['msg']})",
                field=f"line {line}",
            ) from exc
    return out


COUNTED = (
    "events", "items", "facts", "entities", "aliases", "relations", "conflicts", "history",
    "sessions", "procedures",
)  # fmt: skip


def zero_counts() -> dict[str, int]:
    """What an import reports for a batch in which nothing was new."""
    return dict.fromkeys(COUNTED, 0)


# -- tenant-local ids ------------------------------------------------------------------
def local_id(tenant_id: str, record_id: str, prefix: str) -> str:
    """The id a row imported into ``tenant_id`` gets for ``record_id``: derived from
    both, so importing the same row again finds it, and never the id itself, so what
    other tenants hold decides nothing. A made id is kept as the new id's start, so
    imported ids sort as the exported ones did (ties in ranking are broken by id)."""
    digest = hashlib.sha256(f"{tenant_id}\x00{record_id}".encode()).hexdigest()
    if _MADE_ID.match(record_id) is not None and len(record_id) <= _MAX_DERIVED:
        return f"{record_id}{digest[:16]}"
    return f"{prefix}_{digest[:28]}"


class TenantIds:
    """Makes an import's ids the importing tenant's. Ids are unique across a database,
    so an exported id cannot simply be stored again in another tenant, and whether it
    could be stored would tell the importer that another tenant holds it. So every id of
    a row (and every reference to one: provenance, evidence, supersession, relation
    ends, conflict facts, history targets and snapshots) becomes :func:`local_id`,
    except an id the tenant itself already holds — the same row, which an import skips.
    Importing an export into its own tenant therefore inserts nothing that is still
    there; into another tenant (or another database) it inserts copies with new ids."""

    def __init__(self, records: Sequence[ExportRecord]) -> None:
        self._records = records
        self._own: dict[str, str] = {}  # the rows' own ids -> their type's prefix
        for rec in records:
            prefix = ID_PREFIX.get(rec.type)
            record_id = rec.data.get("id")
            if prefix is not None and isinstance(record_id, str):
                self._own[record_id] = prefix

    def candidates(self) -> list[str]:
        """Every id the records hold or refer to (what to ask the store about)."""
        found: dict[str, None] = {}

        def note(value: str) -> str:
            if self._prefix(value) is not None:
                found[value] = None
            return value

        for rec in self._records:
            if rec.type in ID_PREFIX or rec.type == "alias":
                _references(rec, note)
        return list(found)

    def rewrite(self, tenant_id: str, held: set[str]) -> list[ExportRecord]:
        """The records with their ids made ``tenant_id``'s (``held``: the candidates
        the tenant already holds, which stay)."""

        def mapped(value: str) -> str:
            prefix = self._prefix(value)
            if prefix is None or value in held:
                return value
            return local_id(tenant_id, value, prefix)

        return [
            rec.model_copy(update={"data": _references(rec, mapped)})
            if rec.type in ID_PREFIX or rec.type == "alias"
            else rec
            for rec in self._records
        ]

    def _prefix(self, value: str) -> str | None:
        """The prefix of a row id (None: the string is not one)."""
        if value in self._own:
            return self._own[value]
        made = _MADE_ID.match(value)
        return None if made is None else made[1]


def _references(rec: ExportRecord, visit: Callable[[str], str]) -> dict[str, Any]:
    """``rec.data`` with ``visit`` applied to every string that may refer to a row. An
    item's metadata is the caller's, and is left as it is, but for what cognimem wrote
    into it: consolidation into a summary's (the episodes it covers, the facts it read,
    each claim's items and events, its key), and the mark of an episode that no longer
    holds (the fact it stated)."""
    data: dict[str, Any] = _walk(rec.data, None, visit)
    metadata = data.get("metadata")
    if rec.type == "item" and isinstance(metadata, dict):
        for own in (CONSOLIDATION_META, NO_LONGER_TRUE):
            if own in metadata:
                metadata = {**metadata, own: _walk(metadata[own], None, visit)}
        data["metadata"] = metadata
    return data


def _walk(value: Any, key: str | None, visit: Callable[[str], str]) -> Any:
    """``value`` with ``visit`` applied to every string outside the fields of words."""
    if key in _NOT_REFERENCES:
        return value
    if isinstance(value, str) and key in _KEYS:
        return ":".join(visit(part) for part in value.split(":"))
    if isinstance(value, str):
        return visit(value)
    if isinstance(value, list):
        return [_walk(v, key, visit) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, k, visit) for k, v in value.items()}
    return value


def level_holder(agent_id: str | None) -> str:
    """The ``user_id`` a shared level's lifecycle runs are recorded under (as
    ``services/lifecycle/operations.py``: ``level_key`` names them): ``#agent/<id>`` or
    ``#organisation``, characters no user id has."""
    return "#organisation" if agent_id is None else f"#agent/{agent_id}"
