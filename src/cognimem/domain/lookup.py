"""The domain on the read path: the rows a query's entities are, with their current
values and related rows, and the memory facts those values overrule."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cognimem.domain.agreement import Disagreement, disagreements
from cognimem.domain.layer import Domain
from cognimem.domain.source import DomainRecord, DomainRef, DomainRow
from cognimem.models import Scope
from cognimem.models.knowledge import Alias, Fact
from cognimem.models.packets import DomainFactEntry, DomainRelated, Overruled
from cognimem.store.arguments import KnowledgeView
from cognimem.store.protocols import KnowledgeStore
from cognimem.text.names import SELF_SUBJECT

MAX_RECORDS = 5  # rows a read shows, the user's own first


@dataclass(frozen=True)
class Found:
    """A row a query touches: the entity linked to it (None when memory has never
    mentioned it) and whether it is the scope's user (the mapping's ``[user]``)."""

    record: DomainRecord
    entity_id: str | None = None
    is_user: bool = False


async def look_up(
    domain: Domain,
    store: KnowledgeStore,
    scope: Scope,
    names: Sequence[str],
    *,
    about_user: bool,
) -> list[Found]:
    """The rows of the entities ``names`` resolve to (through memory's aliases to a
    linked entity, or straight to a row's name or alias), and with ``about_user`` the
    user's own row; each read with its related rows, and only rows the scope's user may
    see (the mapping's row rules). Batched: the alias lookup runs beside one call of the
    source (the matches, the user's row and their related rows, on one connection); a
    second call only for a linked entity whose row the query's words do not name (an
    alias only memory knows)."""
    source = domain.source
    if source is None:
        return []
    t, ns, user = scope.tenant_id, scope.namespace, scope.user_id
    aliases, found = await asyncio.gather(
        store.find_aliases(KnowledgeView(t, ns, user), list(names)) if names else _no_aliases(),
        source.find(names, MAX_RECORDS, viewer=user, own=about_user),
    )
    ids = sorted({a.entity_id for a in aliases})
    entity_of: dict[DomainRef, str] = {}
    for e in await store.get_entities(t, ids) if ids else []:
        ref = DomainRef.parse(e.external_ref)
        if ref is not None and ref.entity_type in domain.mapping.entities:
            entity_of[ref] = e.id
    records = {r.row.ref: r for r in found.records}
    # entities linked to rows the names did not match (a name only memory knows)
    room = MAX_RECORDS - len(records)
    missing = [ref for ref in entity_of if ref not in records][: max(room, 0)]
    if missing:
        records.update((r.row.ref, r) for r in await source.records(missing, viewer=user))
    return [Found(r, entity_of.get(ref), ref == found.user) for ref, r in records.items()]


async def _no_aliases() -> list[Alias]:
    return []


def overruled(facts: Iterable[Fact], found: Sequence[Found]) -> dict[str, Disagreement]:
    """The facts whose subject is a found row (its linked entity, or the user for the
    user's row) and whose value the row's current value contradicts, by fact id."""
    by_entity = {f.entity_id: f.record.row for f in found if f.entity_id}
    user = next((f.record.row for f in found if f.is_user), None)
    pairs: list[tuple[Fact, DomainRow]] = []
    for fact in facts:
        if fact.subject_entity_id in by_entity:
            pairs.append((fact, by_entity[fact.subject_entity_id]))
        elif user is not None and fact.subject == SELF_SUBJECT:
            pairs.append((fact, user))
    return {d.fact.id: d for d in disagreements(pairs)}


def domain_entries(found: Sequence[Found], over: dict[str, Disagreement]) -> list[DomainFactEntry]:
    """The Domain facts section's entries, the user's own row first."""
    out: list[DomainFactEntry] = []
    for f in sorted(found, key=lambda f: not f.is_user):
        row = f.record.row
        out.append(
            DomainFactEntry(
                id=row.ref.external_ref,
                entity_type=row.ref.entity_type,
                table=row.table,
                key=row.ref.key,
                name=row.name,
                values=dict(row.values),
                related=[
                    DomainRelated(
                        relation=r.relation,
                        entity_type=r.row.ref.entity_type,
                        table=r.row.table,
                        key=r.row.ref.key,
                        name=r.row.name,
                        values=dict(r.row.values),
                        inverse=r.inverse,
                    )
                    for r in f.record.related
                ],
                entity_id=f.entity_id,
                overrules=[
                    Overruled(
                        fact_id=d.fact.id,
                        predicate=d.predicate,
                        memory_value=d.fact.value,
                        domain_value=d.domain_value,
                    )
                    for d in over.values()
                    if d.row.ref == row.ref
                ],
            )
        )
    return out
