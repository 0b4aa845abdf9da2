"""What both backends share for export and import: the order an export streams its
rows in and its paging (:func:`export_stream`), stored rows as
:class:`~cognimem.models.admin.ExportRecord` lines (:func:`row_record`) and back
(:func:`parse`), and which of an import's rows are new (:class:`ImportBatch`). What
erasure shares is in ``store/erasure.py``.

A record's ``data`` is the domain model's JSON, plus what the model does not carry but
the row does: an event's ``processed`` flag, an item's ``search_text`` (the lexical
index holds the message said before it too, so reads rank alike after an import) and
an alias's ``namespace``. Embeddings are not exported: the importer embeds item and
fact texts again with its own model. Which table an export carries, and why the others
are left out, is :data:`TABLES`.
"""

from __future__ import annotations

import hashlib
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
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from cognimem.errors import InvalidInput
from cognimem.models import Event, MemoryItem
from cognimem.models.admin import ExportRecord, RecordType, Session
from cognimem.models.fact_changes import NO_LONGER_TRUE
from cognimem.models.items import CONSOLIDATION_META, index_text
from cognimem.models.knowledge import Alias, Entity, Fact, FactConflict, HistoryEntry, Relation
from cognimem.models.procedures import Procedure
from cognimem.store import procedure_records, records
from cognimem.store.records import Columns, Row, TimeDecoder
from cognimem.store.types import Knowledge, PendingFact

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
    "lifecycle_runs": "left out: leases and last runs of lifecycle operations; each is"
    " idempotent, so a copy's first run finds what is left to do",
    "queue_jobs": "left out: jobs of this deployment; an unprocessed event is exported",
    "api_keys": "left out: credentials of this server, not a user's memory",
    "api_key_changes": "left out: this database's cache version counter of api_keys",
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


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


H = TypeVar("H", bound=_Identified)


# where the next page of one record type starts (a backend's keyset); None: no more pages
Cursor = tuple[Any, ...]
Page = tuple[list[ExportRecord], Cursor | None]
# an alias page's cursor: the columns its rows are ordered by (aliases have no seq)
ALIAS_CURSOR = ("namespace", "user_key", "alias", "entity_id")


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
    "entity": records.entity_from_row,
    "relation": records.relation_from_row,
    "conflict": records.conflict_from_row,
    "session": records.session_from_row,
    "history": records.history_from_row,
    "procedure": procedure_records.procedure_from_row,
}


def row_record(kind: RecordType, row: Columns, time: TimeDecoder) -> ExportRecord:
    """A stored row of ``kind`` as its export record, with what the row holds beyond
    the model: an event's ``processed``, an item's ``search_text``, an alias's
    ``namespace``."""
    if kind == "event":
        event = records.event_from_row(row, time)
        return record(kind, event, processed=bool(row["processed"]))
    if kind == "item":
        # the page's rows: ``seq``, then the item's columns in order (``ITEM_COLUMNS``)
        item = records.item_from_row(row, time, at=1)
        return record(kind, item, search_text=row["search_text"] or "")
    if kind == "fact":  # ``seq``, then ``FACT_COLUMNS``
        return record(kind, records.fact_from_row(row, time, at=1))
    if kind == "alias":
        return record(kind, records.alias_from_row(row), namespace=row["namespace"])
    decode = _DECODERS.get(kind)
    if decode is not None:
        return record(kind, decode(row, time))
    raise ValueError(f"no stored rows of type {kind!r}")


def page(
    kind: RecordType,
    found: Sequence[Columns],
    limit: int,
    time: TimeDecoder,
    cursor: tuple[str, ...] = ("seq",),
) -> Page:
    """One export page: the ``found`` rows of ``kind`` (at most ``limit``, in the order
    the page runs) as records, and the next page's cursor, the last row's ``cursor``
    columns when the page is full (None: this was the last page)."""
    out = [row_record(kind, r, time) for r in found]
    if len(found) < limit:
        return out, None
    last = found[-1]
    return out, tuple(last[c] for c in cursor)


embedded_text = index_text
"""The text the write path embeds for an item: the author's name belongs to what was
said (one function, ``models.items.index_text``, for the write path and the store)."""


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

    def knowledge_ids(self) -> dict[str, list[str]]:
        """The ids of the batch's knowledge rows by table, each once: what an import
        asks the store which of it holds."""
        return {
            "entities": ids_of(self.entities),
            "facts": ids_of(self.facts),
            "relations": ids_of(self.relations),
            "conflicts": ids_of(self.conflicts),
            "history": ids_of(self.history),
        }

    def new_knowledge(
        self, stored: Mapping[str, Collection[str]], embeddings: Mapping[str, Any]
    ) -> Knowledge:
        """The batch's knowledge rows (one per id) whose id is not in ``stored`` (ids by
        table), facts with their vectors from ``embeddings``."""
        return Knowledge(
            entities=unstored(self.entities, stored["entities"]),
            facts=[
                PendingFact(fact=f, embedding=embeddings.get(f.id), embed_text=f.text)
                for f in unstored(self.facts, stored["facts"])
            ],
            relations=unstored(self.relations, stored["relations"]),
            conflicts=unstored(self.conflicts, stored["conflicts"]),
            history=unstored(self.history, stored["history"]),
        )


def ids_of(models: Iterable[Any]) -> list[str]:
    """The ids of ``models``, each once, in their order."""
    return list(dict.fromkeys(m.id for m in models))


def unstored(models: Iterable[H], stored: Collection[str]) -> list[H]:
    """``models`` one per id (the last of an id), those whose id is not ``stored``."""
    return [m for m in {m.id: m for m in models}.values() if m.id not in stored]


def knowledge_counts(knowledge: Knowledge) -> dict[str, int]:
    """How many rows of each table an import wrote of ``knowledge``."""
    return {
        "entities": len(knowledge.entities),
        "facts": len(knowledge.facts),
        "relations": len(knowledge.relations),
        "conflicts": len(knowledge.conflicts),
        "history": len(knowledge.history),
    }


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
