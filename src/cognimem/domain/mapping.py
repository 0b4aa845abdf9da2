"""The declarative mapping of a user's domain database, read from a TOML file.

One file says whose it is (``tenant``: one tenant's, or ``"*"``, every tenant's, for a
single-tenant deployment), which tables are entity types (their key, name and alias
columns, the attribute columns that are facts, which cognimem entity kind they are and
which rows a user may see), which foreign keys are relations, which entity type the
scope's user is, and the ontology (relation types with their allowed subject and object
types, fact predicates per type). A file with only ``[ontology]`` gives an ontology
without a domain database. Parsing checks the file's own consistency;
``SqlDomainSource.open`` checks it against the live schema. Every problem is a
:class:`DomainMappingError` naming the file and the entry to fix.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from cognimem.errors import DomainMappingError
from cognimem.models.knowledge import EntityType
from cognimem.models.scope import ID_PATTERN

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$")
DEFAULT_TIMEOUT_MS = 500
DEFAULT_POOL_SIZE = 2
DEFAULT_RELATED_LIMIT = 5
EVERY_TENANT = "*"  # a server-wide mapping: only for a single-tenant deployment


class Visibility(StrEnum):
    """Which rows of an entity type a user may see."""

    TENANT = "tenant"  # every row, to every user of the mapping's tenant (reference data)
    USER = "user"  # the rows whose ``user_column`` holds the user's id
    NONE = "none"  # no row, to anyone: the default of a type without a row rule


@dataclass(frozen=True)
class RowRule:
    """An entity type's rows a user may see; ``stated`` is False for the default (a
    type the mapping gives no rule: nobody, or for the ``[user]`` type each user their
    own row)."""

    visibility: Visibility = Visibility.NONE
    user_column: str | None = None
    stated: bool = True

    def describe(self, table: str) -> str:
        why = "" if self.stated else " (no row rule: the default)"
        if self.visibility is Visibility.TENANT:
            return f"every user of the tenant{why}"
        if self.visibility is Visibility.USER:
            return f"each user the rows where {table}.{self.user_column} = their user_id{why}"
        return f"no user{why}"


@dataclass(frozen=True)
class EntityMapping:
    """One table (or view) whose rows are entities of type ``name``."""

    name: str  # the entity type ("customer")
    table: str
    key: str
    name_column: str
    alias_columns: tuple[str, ...] = ()
    facts: dict[str, str] = field(default_factory=dict)  # predicate -> column
    kind: EntityType = EntityType.OTHER
    rows: RowRule = field(default_factory=RowRule)  # who may see which rows: nobody unless said

    def columns(self) -> tuple[str, ...]:
        """Every column a lookup reads, each once, the key first."""
        cols = [self.key, self.name_column, *self.alias_columns, *self.facts.values()]
        return tuple(dict.fromkeys(cols))


@dataclass(frozen=True)
class RelationMapping:
    """A foreign key: ``subject``'s table holds, in ``foreign_key``, ``object``'s key."""

    name: str
    subject: str
    object: str
    foreign_key: str


@dataclass(frozen=True)
class RelationType:
    """A relation the ontology knows, with the entity types it may join."""

    name: str
    subjects: frozenset[str]
    objects: frozenset[str]


@dataclass(frozen=True)
class DatabaseMapping:
    url: str
    statement_timeout_ms: int = DEFAULT_TIMEOUT_MS
    pool_size: int = DEFAULT_POOL_SIZE
    related_limit: int = DEFAULT_RELATED_LIMIT  # reverse-related rows per row and relation


@dataclass(frozen=True)
class UserLink:
    """The scope's ``user_id`` names a row of ``entity``: its key, or ``column``."""

    entity: str
    column: str | None = None


@dataclass(frozen=True)
class DomainMapping:
    source: Path  # the file it came from (errors name it)
    tenant: str  # the tenant whose mapping it is, or EVERY_TENANT
    database: DatabaseMapping | None
    entities: dict[str, EntityMapping]
    relations: tuple[RelationMapping, ...]
    relation_types: dict[str, RelationType]  # the ontology's, domain relations included
    predicates: dict[str, frozenset[str]]  # fact predicates per entity type
    closed: bool  # an undeclared relation violates the ontology
    user: UserLink | None = None

    def entity(self, name: str) -> EntityMapping:
        return self.entities[name]

    def describe(self) -> str:
        """Whose mapping this is and who sees which rows: what the memory states when
        it opens."""
        whose = (
            "every tenant (server-wide: a single-tenant deployment only)"
            if self.tenant == EVERY_TENANT
            else f"tenant {self.tenant!r} only"
        )
        rules = "; ".join(
            f"{e.name} rows: {e.rows.describe(e.table)}" for e in self.entities.values()
        )
        return f"domain mapping {self.source} serves {whose}" + (f"; {rules}" if rules else "")


def load_mapping(path: str | Path) -> DomainMapping:
    """Read and check a mapping file (TOML)."""
    file = Path(path).expanduser()
    try:
        raw = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DomainMappingError(f"domain mapping file {file} does not exist", file=file) from exc
    except tomllib.TOMLDecodeError as exc:
        raise DomainMappingError(
            f"domain mapping {file} is not valid TOML: {exc}", file=file
        ) from exc
    return parse_mapping(raw, file)


def parse_mapping(raw: dict[str, Any], file: Path) -> DomainMapping:
    """A mapping from the TOML document ``raw`` read from ``file``."""
    p = _Parser(file)
    p.only(raw, "", {"tenant", "database", "user", "entities", "relations", "ontology"})
    tenant = p.tenant(raw.get("tenant"))
    database = p.database(raw.get("database"), file.parent)
    entities = {name: p.entity(name, spec) for name, spec in p.table(raw, "entities", "").items()}
    if database is None and entities:
        p.fail("[entities] need a [database] with a url", entry="database")
    if database is not None and not entities:
        p.fail("a [database] needs at least one [entities.<type>] table", entry="entities")
    relations = tuple(
        p.relation(i, spec, entities) for i, spec in enumerate(p.array(raw, "relations", ""))
    )
    ontology = p.table(raw, "ontology", "")
    p.only(ontology, "ontology", {"closed", "relations", "types"})
    types: set[str] = set(entities) | {k.value for k in EntityType}
    predicates: dict[str, set[str]] = {n: set(e.facts) for n, e in entities.items()}
    for name, spec in p.table(ontology, "types", "ontology").items():
        where = f"ontology.types.{name}"
        p.only(spec, where, {"predicates"})
        types.add(name)
        predicates.setdefault(name, set()).update(p.strings(spec, "predicates", where))
    relation_types: dict[str, RelationType] = {
        r.name: RelationType(r.name, frozenset({r.subject}), frozenset({r.object}))
        for r in relations
    }
    for i, spec in enumerate(p.array(ontology, "relations", "ontology")):
        where = f"ontology.relations[{i}]"
        p.only(spec, where, {"name", "subjects", "objects"})
        name = p.string(spec, "name", where)
        subjects = p.strings(spec, "subjects", where, required=True)
        objects = p.strings(spec, "objects", where, required=True)
        for t in (*subjects, *objects):
            if t not in types:
                p.fail(f"{where} names the entity type {t!r}, which is not declared", entry=where)
        known = relation_types.get(name)
        if known is not None:  # a foreign key's relation widened by the ontology
            subjects = (*subjects, *known.subjects)
            objects = (*objects, *known.objects)
        relation_types[name] = RelationType(name, frozenset(subjects), frozenset(objects))
    closed = ontology.get("closed", False)
    if not isinstance(closed, bool):
        p.fail("ontology.closed must be true or false", entry="ontology.closed")
    user = p.user(raw.get("user"), entities)
    if user is not None and not entities[user.entity].rows.stated:
        # the [user] link names each user's own row: theirs to see, nobody else's
        own = RowRule(Visibility.USER, user.column or entities[user.entity].key, stated=False)
        entities[user.entity] = replace(entities[user.entity], rows=own)
    return DomainMapping(
        source=file,
        tenant=tenant,
        database=database,
        entities=entities,
        relations=relations,
        relation_types=relation_types,
        predicates={k: frozenset(v) for k, v in predicates.items()},
        closed=closed,
        user=user,
    )


class _Parser:
    def __init__(self, file: Path) -> None:
        self.file = file

    def fail(self, message: str, *, entry: str, **details: str) -> None:
        raise DomainMappingError(
            f"domain mapping {self.file}: {message}", file=self.file, entry=entry, **details
        )

    def only(self, spec: dict[str, Any], where: str, allowed: set[str]) -> None:
        unknown = sorted(set(spec) - allowed)
        if unknown:
            at = f"[{where}]" if where else "the top level"
            self.fail(
                f"unknown key {unknown[0]!r} in {at} (allowed: {', '.join(sorted(allowed))})",
                entry=f"{where}.{unknown[0]}" if where else unknown[0],
            )

    def table(self, spec: dict[str, Any], key: str, where: str) -> dict[str, Any]:
        value = spec.get(key, {})
        if not isinstance(value, dict):
            self.fail(f"{_join(where, key)} must be a table", entry=_join(where, key))
        return value  # type: ignore[no-any-return]

    def array(self, spec: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
        value = spec.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(f"{_join(where, key)} must be an array of tables", entry=_join(where, key))
        return value  # type: ignore[no-any-return]

    def string(self, spec: dict[str, Any], key: str, where: str, *, ident: bool = False) -> str:
        value = spec.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{_join(where, key)} must be a non-empty string", entry=_join(where, key))
        assert isinstance(value, str)
        if ident and not _IDENTIFIER.match(value):
            self.fail(
                f"{_join(where, key)} = {value!r} is not a table or column name",
                entry=_join(where, key),
            )
        return value

    def strings(
        self,
        spec: dict[str, Any],
        key: str,
        where: str,
        *,
        required: bool = False,
        ident: bool = False,
    ) -> tuple[str, ...]:
        value = spec.get(key, None if required else [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(f"{_join(where, key)} must be a list of strings", entry=_join(where, key))
        assert isinstance(value, list)
        if required and not value:
            self.fail(f"{_join(where, key)} must not be empty", entry=_join(where, key))
        for v in value:
            if ident and not _IDENTIFIER.match(v):
                self.fail(
                    f"{_join(where, key)}: {v!r} is not a column name", entry=_join(where, key)
                )
        return tuple(value)

    def positive(self, spec: dict[str, Any], key: str, where: str, default: int) -> int:
        value = spec.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            self.fail(f"{_join(where, key)} must be a positive integer", entry=_join(where, key))
        return int(value)

    def database(self, spec: Any, folder: Path) -> DatabaseMapping | None:
        if spec is None:
            return None
        if not isinstance(spec, dict):
            self.fail("[database] must be a table", entry="database")
        self.only(spec, "database", {"url", "statement_timeout_ms", "pool_size", "related_limit"})
        url = self.string(spec, "url", "database")
        if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
            # relative to the mapping file, so a mapping and its database travel together
            url = f"sqlite:///{(folder / url.removeprefix('sqlite:///')).resolve()}"
        elif not url.startswith(("sqlite:", "postgresql://", "postgres://")):
            self.fail(
                "database.url must be sqlite:///path or postgresql://...,"
                f" got {url.split(':')[0]!r}",
                entry="database.url",
            )
        return DatabaseMapping(
            url=url,
            statement_timeout_ms=self.positive(
                spec, "statement_timeout_ms", "database", DEFAULT_TIMEOUT_MS
            ),
            pool_size=self.positive(spec, "pool_size", "database", DEFAULT_POOL_SIZE),
            related_limit=self.positive(spec, "related_limit", "database", DEFAULT_RELATED_LIMIT),
        )

    def entity(self, name: str, spec: Any) -> EntityMapping:
        where = f"entities.{name}"
        if not isinstance(spec, dict):
            self.fail(f"[{where}] must be a table", entry=where)
        self.only(
            spec,
            where,
            {"table", "key", "name", "aliases", "facts", "kind", "visibility", "user_column"},
        )
        if name in {k.value for k in EntityType}:
            self.fail(
                f"entity type {name!r} is a built-in kind; name the domain type after its"
                " table (customer, order, ...) and set kind = " + repr(name),
                entry=where,
            )
        facts_raw = self.table(spec, "facts", where)
        facts: dict[str, str] = {}
        for predicate, column in facts_raw.items():
            if not isinstance(column, str) or not _IDENTIFIER.match(column):
                self.fail(f"{where}.facts.{predicate} must name a column", entry=f"{where}.facts")
            facts[predicate] = column
        kind_raw = spec.get("kind", EntityType.OTHER.value)
        try:
            kind = EntityType(kind_raw)
        except ValueError:
            kinds = ", ".join(k.value for k in EntityType)
            self.fail(f"{where}.kind = {kind_raw!r} is not one of {kinds}", entry=f"{where}.kind")
            raise  # pragma: no cover - fail raised
        return EntityMapping(
            name=name,
            table=self.string(spec, "table", where, ident=True),
            key=self.string(spec, "key", where, ident=True),
            name_column=self.string(spec, "name", where, ident=True),
            alias_columns=self.strings(spec, "aliases", where, ident=True),
            facts=facts,
            kind=kind,
            rows=self.rows(spec, where),
        )

    def rows(self, spec: dict[str, Any], where: str) -> RowRule:
        """The entity type's row rule: ``user_column`` alone means ``visibility =
        "user"``; neither key, nobody sees a row (``[user]`` may open the user's own)."""
        column = spec.get("user_column")
        if column is not None:
            column = self.string(spec, "user_column", where, ident=True)
        raw = spec.get("visibility", Visibility.USER.value if column else None)
        if raw is None:
            return RowRule(stated=False)
        try:
            visibility = Visibility(raw)
        except ValueError:
            allowed = ", ".join(repr(v.value) for v in Visibility)
            self.fail(
                f"{where}.visibility = {raw!r} is not one of {allowed}",
                entry=f"{where}.visibility",
            )
            raise  # pragma: no cover - fail raised
        if visibility is Visibility.USER and column is None:
            self.fail(
                f'{where}: visibility = "user" needs user_column, the column that holds'
                " the id of the user who may see the row",
                entry=f"{where}.user_column",
            )
        if visibility is not Visibility.USER and column is not None:
            self.fail(
                f'{where}: user_column applies to visibility = "user" only,'
                f" not {visibility.value!r}",
                entry=f"{where}.user_column",
            )
        return RowRule(visibility, column)

    def tenant(self, value: Any) -> str:
        if value is None:
            self.fail(
                'say whose mapping this is: tenant = "<tenant id>" (only that tenant\'s'
                ' scopes see its rows), or tenant = "*" for a single-tenant deployment'
                " (every tenant's keys read it)",
                entry="tenant",
            )
        if not isinstance(value, str) or (
            value != EVERY_TENANT and not re.match(ID_PATTERN, value)
        ):
            self.fail(
                f'tenant = {value!r} is not a tenant id (or "*", every tenant)', entry="tenant"
            )
        assert isinstance(value, str)
        return value

    def relation(
        self, i: int, spec: dict[str, Any], entities: dict[str, EntityMapping]
    ) -> RelationMapping:
        where = f"relations[{i}]"
        self.only(spec, where, {"name", "subject", "object", "foreign_key"})
        name = self.string(spec, "name", where)
        subject = self.string(spec, "subject", where)
        obj = self.string(spec, "object", where)
        for side in (subject, obj):
            if side not in entities:
                self.fail(f"{where} names {side!r}, which is not an [entities] type", entry=where)
        return RelationMapping(
            name=name,
            subject=subject,
            object=obj,
            foreign_key=self.string(spec, "foreign_key", where, ident=True),
        )

    def user(self, spec: Any, entities: dict[str, EntityMapping]) -> UserLink | None:
        if spec is None:
            return None
        if not isinstance(spec, dict):
            self.fail("[user] must be a table", entry="user")
        self.only(spec, "user", {"entity", "column"})
        entity = self.string(spec, "entity", "user")
        if entity not in entities:
            self.fail(
                f"user.entity names {entity!r}, which is not an [entities] type", entry="user"
            )
        column = spec.get("column")
        if column is not None and (not isinstance(column, str) or not _IDENTIFIER.match(column)):
            self.fail("user.column must name a column", entry="user.column")
        return UserLink(entity, column)


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
