"""``SqlDomainSource``: the ``DomainSource`` over a user's SQLite or PostgreSQL database,
shaped by a mapping file.

Lookups are batched: names are matched with one statement per entity type, rows are
read with one per entity type, related rows with one per relation and direction (the
reverse side keeps the newest ``related_limit`` per row by key, with a window function).
Name and alias columns are compared with ``lower(column)``: an index on
``lower(name)`` keeps the match an index lookup at any size.

Every statement carries the entity type's row rule for the viewer (``user_column`` =
the viewer's id, bound as a parameter); a type the viewer may see no row of is not
queried at all. The rule sits in the ``WHERE`` beside the match, so a hidden row is
never read and the reverse side's ``related_limit`` counts only rows the viewer may
see."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from cognimem.domain.drivers import Driver, Rows, Statement, driver_for, quote
from cognimem.domain.mapping import DomainMapping, EntityMapping, RelationMapping, Visibility
from cognimem.domain.source import DomainRecord, DomainRef, DomainRow, Matches, RelatedRow
from cognimem.errors import DomainMappingError, UsageError
from cognimem.text.names import normalize_name


class SqlDomainSource:
    """A read-only view of the user's database through ``mapping``."""

    def __init__(self, mapping: DomainMapping) -> None:
        db = mapping.database
        if db is None:
            raise UsageError(
                f"the mapping {mapping.source} has no [database]: it is an ontology only"
            )
        self.mapping = mapping
        self.driver: Driver = driver_for(
            db.url, pool_size=db.pool_size, timeout_ms=db.statement_timeout_ms
        )
        self._types: dict[tuple[str, str], str] = {}  # (table, column) -> type

    async def open(self) -> None:
        await self.driver.open()
        try:
            await self._check_schema()
        except BaseException:
            await self.driver.close()
            raise

    async def close(self) -> None:
        await self.driver.close()

    async def ping(self) -> None:
        await self.driver.fetch([("SELECT 1", [])])

    async def _check_schema(self) -> None:
        """Every table and column the mapping names exists (views count)."""
        m = self.mapping
        for e in m.entities.values():
            found = await self.driver.columns(e.table)
            where = f"entities.{e.name}"
            if found is None:
                raise DomainMappingError(
                    f"domain mapping {m.source}: [{where}] names the table {e.table!r},"
                    f" which the domain database ({self.driver.backend}) does not have",
                    file=m.source,
                    entry=where,
                    table=e.table,
                )
            wanted = [*e.columns(), *(r.foreign_key for r in m.relations if r.subject == e.name)]
            if e.rows.user_column is not None:
                wanted.append(e.rows.user_column)
            for column in wanted:
                if column not in found:
                    raise DomainMappingError(
                        f"domain mapping {m.source}: [{where}] names the column"
                        f" {e.table}.{column}, which does not exist (the table has:"
                        f" {', '.join(sorted(found))})",
                        file=m.source,
                        entry=where,
                        table=e.table,
                        column=column,
                    )
                self._types[(e.table, column)] = found[column]
        if m.user is not None and m.user.column is not None:
            e = m.entities[m.user.entity]
            found = await self.driver.columns(e.table) or {}
            if m.user.column not in found:
                raise DomainMappingError(
                    f"domain mapping {m.source}: user.column names {e.table}.{m.user.column},"
                    " which does not exist",
                    file=m.source,
                    entry="user.column",
                    table=e.table,
                    column=m.user.column,
                )
            self._types[(e.table, m.user.column)] = found[m.user.column]

    # -- lookups -----------------------------------------------------------------------
    async def match_names(self, names: Sequence[str], *, viewer: str | None) -> list[DomainRow]:
        statements, read = self._matching(names, viewer)
        return read(await self.driver.fetch(statements)) if statements else []

    async def rows(self, refs: Sequence[DomainRef], *, viewer: str | None) -> list[DomainRow]:
        statements, read = self._by_refs(refs, viewer)
        return read(await self.driver.fetch(statements)) if statements else []

    async def user_row(self, *, viewer: str | None) -> DomainRow | None:
        statements, read = self._users(viewer)
        return read(await self.driver.fetch(statements)) if statements else None

    async def records(self, refs: Sequence[DomainRef], *, viewer: str | None) -> list[DomainRecord]:
        return await self.expand(await self.rows(refs, viewer=viewer), viewer=viewer)

    async def expand(self, rows: Sequence[DomainRow], *, viewer: str | None) -> list[DomainRecord]:
        statements, read = self._related(rows, viewer)
        return read(await self.driver.fetch(statements) if statements else [])

    async def find(
        self, names: Sequence[str], limit: int, *, viewer: str | None, own: bool
    ) -> Matches:
        match, read_match = self._matching(names, viewer)
        users, read_users = self._users(viewer if own else None)
        if not match and not users:
            return Matches([], None)
        chosen: list[DomainRow] = []  # filled by then(), read with its related rows
        reads: list[Callable[[list[Rows]], list[DomainRecord]]] = []

        def then(first: list[Rows]) -> list[Statement]:
            mine = read_users(first[len(match) :]) if users else None
            found = [*([mine] if mine else []), *read_match(first[: len(match)])]
            rows = {r.ref: r for r in found}
            chosen.extend(list(rows.values())[:limit])
            statements, read = self._related(chosen, viewer)
            reads.append(read)
            return statements

        # the matches and their related rows on one connection, in one call of the driver
        first, second = await self.driver.fetch_then([*match, *users], then)
        mine = read_users(first[len(match) :]) if users else None
        return Matches(reads[0](second), mine.ref if mine is not None else None)

    # -- statements and how their rows are read ----------------------------------------
    def _visible(self, e: EntityMapping, viewer: str | None) -> bool:
        """Whether the viewer may see any row of ``e`` (else it is not queried)."""
        rule = e.rows.visibility
        return rule is Visibility.TENANT or (rule is Visibility.USER and viewer is not None)

    def _where(self, e: EntityMapping, test: str, viewer: str | None, params: list[Any]) -> str:
        """``test`` and the viewer's row rule on ``e``. Callers skip a type the viewer
        may see nothing of; should one slip through, its statement matches no row."""
        column = e.rows.user_column
        if e.rows.visibility is Visibility.TENANT:
            return test
        if not self._visible(e, viewer) or column is None or viewer is None:
            return f"({test}) AND 1 = 0"
        mine = self.driver.any_of(
            quote(column), [viewer], self._types.get((e.table, column), ""), params
        )
        return f"({test}) AND {mine}"

    def _matching(
        self, names: Sequence[str], viewer: str | None
    ) -> tuple[list[Statement], Callable[[list[Rows]], list[DomainRow]]]:
        wanted = sorted({normalize_name(n) for n in names} - {""})
        entities = (
            [e for e in self.mapping.entities.values() if self._visible(e, viewer)]
            if wanted
            else []
        )
        statements: list[Statement] = []
        for e in entities:
            params: list[Any] = []
            tests = [
                self.driver.any_of(f"lower({quote(c)})", wanted, "text", params)
                for c in (e.name_column, *e.alias_columns)
            ]
            where = self._where(e, " OR ".join(tests), viewer, params)
            statements.append((f"{_select(e, self.mapping)} WHERE {where}", params))

        def read(found: list[Rows]) -> list[DomainRow]:
            return [self._row(e, r) for e, rows in zip(entities, found, strict=True) for r in rows]

        return statements, read

    def _by_refs(
        self, refs: Sequence[DomainRef], viewer: str | None
    ) -> tuple[list[Statement], Callable[[list[Rows]], list[DomainRow]]]:
        by_type = [
            (self.mapping.entity(t), keys)
            for t, keys in _by_type(refs, self.mapping)
            if self._visible(self.mapping.entity(t), viewer)
        ]
        statements = [self._by_column(e, None, keys, viewer) for e, keys in by_type]

        def read(found: list[Rows]) -> list[DomainRow]:
            return [
                self._row(e, r) for (e, _), rows in zip(by_type, found, strict=True) for r in rows
            ]

        return statements, read

    def _users(
        self, viewer: str | None
    ) -> tuple[list[Statement], Callable[[list[Rows]], DomainRow | None]]:
        """The statement reading the viewer's own row (the ``[user]`` link), if the
        viewer may see it."""
        link = self.mapping.user
        if link is None or viewer is None:
            return [], lambda found: None
        e = self.mapping.entity(link.entity)
        if not self._visible(e, viewer):
            return [], lambda found: None

        def read(found: list[Rows]) -> DomainRow | None:
            return self._row(e, found[0][0]) if found[0] else None

        return [self._by_column(e, link.column or e.key, [viewer], viewer)], read

    def _related(
        self, rows: Sequence[DomainRow], viewer: str | None
    ) -> tuple[list[Statement], Callable[[list[Rows]], list[DomainRecord]]]:
        """The statements that read ``rows``' related rows the viewer may see, and how
        their answers become records: forward (a row's foreign key names its object
        row) and reverse (the subject rows whose foreign key names a row, newest
        ``related_limit`` per row)."""
        plan: list[tuple[RelationMapping, bool, dict[str, list[DomainRef]]]] = []
        statements: list[Statement] = []
        for rel in self.mapping.relations:
            subject, obj = self.mapping.entity(rel.subject), self.mapping.entity(rel.object)
            forward: dict[str, list[DomainRef]] = defaultdict(list)
            for row in rows:
                if row.ref.entity_type == rel.subject:
                    fk = row.foreign_keys.get(rel.foreign_key)
                    if fk is not None:
                        forward[fk].append(row.ref)
            if forward and self._visible(obj, viewer):
                plan.append((rel, True, forward))
                statements.append(self._by_column(obj, None, list(forward), viewer))
            backward = {r.ref.key: [r.ref] for r in rows if r.ref.entity_type == rel.object}
            if backward and self._visible(subject, viewer):
                plan.append((rel, False, backward))
                statements.append(self._newest_by(subject, rel.foreign_key, list(backward), viewer))

        def read(found: list[Rows]) -> list[DomainRecord]:
            related: dict[DomainRef, list[RelatedRow]] = defaultdict(list)
            for (rel, forward_side, owners), result in zip(plan, found, strict=True):
                other = self.mapping.entity(rel.object if forward_side else rel.subject)
                for r in result:
                    row = self._row(other, r)
                    link = row.ref.key if forward_side else str(r[rel.foreign_key])
                    for owner in owners.get(link, []):
                        related[owner].append(RelatedRow(rel.name, row, inverse=not forward_side))
            return [DomainRecord(row, tuple(related.get(row.ref, ()))) for row in rows]

        return statements, read

    # -- SQL ---------------------------------------------------------------------------
    def _by_column(
        self, e: EntityMapping, column: str | None, values: Sequence[str], viewer: str | None
    ) -> Statement:
        column = column or e.key
        params: list[Any] = []
        test = self.driver.any_of(
            quote(column), values, self._types.get((e.table, column), ""), params
        )
        return f"{_select(e, self.mapping)} WHERE {self._where(e, test, viewer, params)}", params

    def _newest_by(
        self, e: EntityMapping, fk: str, values: Sequence[str], viewer: str | None
    ) -> Statement:
        params: list[Any] = []
        test = self.driver.any_of(quote(fk), values, self._types.get((e.table, fk), ""), params)
        limit = self.mapping.database.related_limit if self.mapping.database else 5
        inner = (
            f"SELECT {_columns(e, self.mapping, extra=(fk,))}, ROW_NUMBER() OVER"
            f" (PARTITION BY {quote(fk)} ORDER BY {quote(e.key)} DESC) AS rn_"
            f" FROM {quote(e.table)} WHERE {self._where(e, test, viewer, params)}"
        )
        return f"SELECT * FROM ({inner}) AS ranked_ WHERE rn_ <= {int(limit)}", params

    def _row(self, e: EntityMapping, r: dict[str, Any]) -> DomainRow:
        values = {p: _text(r[c]) for p, c in e.facts.items() if r.get(c) is not None}
        keys = {
            rel.foreign_key: _text(r[rel.foreign_key])
            for rel in self.mapping.relations
            if rel.subject == e.name and r.get(rel.foreign_key) is not None
        }
        aliases = tuple(_text(r[c]) for c in e.alias_columns if r.get(c) not in (None, ""))
        return DomainRow(
            ref=DomainRef(e.name, _text(r[e.key])),
            table=e.table,
            name=_text(r[e.name_column]),
            aliases=aliases,
            values=values,
            foreign_keys=keys,
        )


def _columns(
    e: EntityMapping, mapping: DomainMapping | None = None, extra: Sequence[str] = ()
) -> str:
    """The columns a row is read with: the mapping's, and the foreign keys it holds."""
    columns = list(e.columns())
    if mapping is not None:
        columns += [r.foreign_key for r in mapping.relations if r.subject == e.name]
    columns += extra
    return ", ".join(quote(c) for c in dict.fromkeys(columns))


def _select(e: EntityMapping, mapping: DomainMapping | None = None) -> str:
    return f"SELECT {_columns(e, mapping)} FROM {quote(e.table)}"


def _by_type(refs: Sequence[DomainRef], mapping: DomainMapping) -> list[tuple[str, list[str]]]:
    grouped: dict[str, list[str]] = defaultdict(list)
    for ref in dict.fromkeys(refs):
        if ref.entity_type in mapping.entities:
            grouped[ref.entity_type].append(ref.key)
    return sorted(grouped.items())


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)
