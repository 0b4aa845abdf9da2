"""The domain on the write path: mentions that name a domain row resolve to that row's
entity, relations that violate the ontology are not stored as graph edges, and a new
fact that disagrees with the domain's current value opens a ``trust_domain`` conflict.

All of it with the writer's tenant's mapping (none: the write knows no domain) and
only with rows the writer may see (the mapping's row rules): a mention of a row they
may not see stays an ordinary mention, and no fact is checked against such a row. A
row every user of the tenant may see links to an entity the namespace shares; a row
only its user may see links to an entity (and aliases) of the writer's own, so the
link does not tell anyone else the row's names.

The knowledge builder calls :meth:`DomainLinker.link` after entity resolution and
:meth:`DomainLinker.review` before it commits; nothing else of the write path knows
about the domain."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cognimem.domain.agreement import disagreements
from cognimem.domain.layer import Domain, Domains
from cognimem.domain.mapping import Visibility
from cognimem.domain.ontology import DOMAIN_TABLE, DOMAIN_TYPE, allows, type_of
from cognimem.domain.source import DomainRef, DomainRow, DomainSource
from cognimem.errors import DomainUnavailable
from cognimem.ingest.entities import Resolution, Resolved
from cognimem.models import Scope
from cognimem.models.ids import new_id
from cognimem.models.knowledge import (
    Alias,
    AliasSource,
    ConflictStatus,
    ConflictStrategy,
    Entity,
    Fact,
    FactConflict,
    HistoryEntry,
    Relation,
)
from cognimem.store.arguments import KnowledgeView
from cognimem.store.protocols import KnowledgeStore
from cognimem.text.names import SELF_SUBJECT, normalize_name

log = logging.getLogger(__name__)


@dataclass
class Review:
    """What the domain changes in a write about to commit."""

    relations: list[Relation]
    conflicts: list[FactConflict] = field(default_factory=list)
    history: list[HistoryEntry] = field(default_factory=list)
    dropped_relations: int = 0
    degraded: list[str] = field(default_factory=list)


class DomainLinker:
    def __init__(self, domains: Domains, store: KnowledgeStore) -> None:
        self.domains = domains
        self._store = store

    def _owner(self, domain: Domain, row: DomainRow, scope: Scope) -> str | None:
        """Whose the entity linked to ``row`` is: the namespace's (None) for a row every
        user of the tenant sees, else the writer's."""
        rule = domain.mapping.entity(row.ref.entity_type).rows
        return None if rule.visibility is Visibility.TENANT else scope.user_id

    async def link(self, scope: Scope, resolved: Resolved, now: datetime) -> list[str]:
        """Point the batch's new mentions that name a domain row the writer may see
        (its name or an alias) at that row's entity — the one already linked to it,
        else a new one (the namespace's, or the writer's for a row only its user sees)
        with ``external_ref`` set and its names as ``domain`` aliases. A name two rows
        share is left unlinked and reported ambiguous. Returns what degraded (the
        domain could not answer: the mentions stay as they were)."""
        domain = self.domains.for_tenant(scope.tenant_id)
        source = None if domain is None else domain.source
        fresh = {
            norm: r
            for norm, r in resolved.by_name.items()
            if r.method == "new" and norm != SELF_SUBJECT
        }
        if domain is None or source is None or not fresh:
            return []
        try:
            rows = await source.match_names(list(fresh), viewer=scope.user_id)
        except DomainUnavailable as exc:
            log.warning("domain linking skipped: %s", exc.message)
            return [f"domain linking: {exc.message}"]
        by_name: dict[str, dict[DomainRef, DomainRow]] = {}
        for row in rows:
            for name in row.names():
                by_name.setdefault(normalize_name(name), {})[row.ref] = row
        matched = {norm: by_name[norm] for norm in fresh if norm in by_name}
        if not matched:
            return []
        linked = await self._linked_entities(
            domain, [r for m in matched.values() for r in m.values()], scope
        )
        for norm, candidates in matched.items():
            dropped_id = fresh[norm].entity_id
            resolved.new_entities = [e for e in resolved.new_entities if e.id != dropped_id]
            resolved.aliases = [a for a in resolved.aliases if a.entity_id != dropped_id]
            if len(candidates) > 1:
                refs = sorted(r.external_ref for r in candidates)
                resolved.by_name[norm] = Resolution(norm, "ambiguous", candidates=refs, score=0.0)
                continue
            row = next(iter(candidates.values()))
            entity = linked.get(row.ref)
            if entity is None:
                entity = self._new_entity(domain, row, scope, now)
                linked[row.ref] = entity
                resolved.new_entities.append(entity)
                resolved.aliases += [
                    Alias(
                        entity_id=entity.id,
                        alias=n,
                        user_id=entity.user_id,
                        source=AliasSource.DOMAIN,
                    )
                    for n in dict.fromkeys(normalize_name(x) for x in row.names())
                    if n
                ]
                resolved.by_name[norm] = Resolution(norm, "new", entity.id)
            else:
                resolved.by_name[norm] = Resolution(norm, "alias", entity.id)
        return []

    async def _linked_entities(
        self, domain: Domain, rows: Sequence[DomainRow], scope: Scope
    ) -> dict[DomainRef, Entity]:
        """The entities already linked to ``rows``: found by the rows' names among the
        ``domain`` aliases the writer sees, confirmed by their ``external_ref`` and
        their owner (the namespace, or the writer for a row only its user sees)."""
        names = sorted({normalize_name(n) for r in rows for n in r.names()} - {""})
        aliases = await self._store.find_aliases(
            KnowledgeView(scope.tenant_id, scope.namespace, scope.user_id), names
        )
        ids = sorted({a.entity_id for a in aliases if a.source is AliasSource.DOMAIN})
        wanted = {r.ref.external_ref: r for r in rows}
        out: dict[DomainRef, Entity] = {}
        for e in await self._store.get_entities(scope.tenant_id, ids) if ids else []:
            row = wanted.get(e.external_ref or "")
            if row is not None and e.user_id == self._owner(domain, row, scope):
                out[row.ref] = e
        return out

    def _new_entity(self, domain: Domain, row: DomainRow, scope: Scope, now: datetime) -> Entity:
        kind = domain.mapping.entity(row.ref.entity_type).kind
        return Entity(
            id=new_id("ent"),
            tenant_id=scope.tenant_id,
            namespace=scope.namespace,
            user_id=self._owner(domain, row, scope),
            name=row.name,
            type=kind,
            external_ref=row.ref.external_ref,
            properties={DOMAIN_TYPE: row.ref.entity_type, DOMAIN_TABLE: row.table},
            created_at=now,
        )

    async def review(
        self,
        scope: Scope,
        created: Sequence[Fact],
        relations: Sequence[Relation],
        new_entities: Sequence[Entity],
        now: datetime,
    ) -> Review:
        """Drop the relations the ontology forbids; open a resolved ``trust_domain``
        conflict (and a history entry) for each new fact a row the writer may see
        contradicts."""
        domain = self.domains.for_tenant(scope.tenant_id)
        if domain is None:
            return Review(list(relations))
        known = {e.id: e for e in new_entities}
        wanted = {r.source_entity_id for r in relations} | {r.target_entity_id for r in relations}
        wanted |= {f.subject_entity_id for f in created if f.subject_entity_id}
        missing = sorted(wanted - set(known))
        if missing:
            known.update(
                (e.id, e) for e in await self._store.get_entities(scope.tenant_id, missing)
            )
        kept: list[Relation] = []
        for r in relations:
            s, t = known.get(r.source_entity_id), known.get(r.target_entity_id)
            if s is None or t is None or allows(domain.mapping, r.relation, type_of(s), type_of(t)):
                kept.append(r)
        review = Review(kept, dropped_relations=len(relations) - len(kept))
        if domain.source is not None and created:
            try:
                await self._conflicts(domain.source, scope, created, known, now, review)
            except DomainUnavailable as exc:
                log.warning("domain conflict check skipped: %s", exc.message)
                review.degraded.append(f"domain conflict check: {exc.message}")
        return review

    async def _conflicts(
        self,
        source: DomainSource,
        scope: Scope,
        created: Sequence[Fact],
        entities: dict[str, Entity],
        now: datetime,
        review: Review,
    ) -> None:
        about: dict[str, DomainRef] = {}  # fact id -> the row it speaks of
        for f in created:
            e = entities.get(f.subject_entity_id or "")
            ref = DomainRef.parse(e.external_ref) if e is not None else None
            if ref is not None:
                about[f.id] = ref
        own = [f for f in created if f.subject == SELF_SUBJECT and f.id not in about]
        viewer = scope.user_id
        refs = sorted(set(about.values()))
        rows = {r.ref: r for r in await source.rows(refs, viewer=viewer)} if about else {}
        mine = await source.user_row(viewer=viewer) if own else None
        pairs: list[tuple[Fact, DomainRow]] = [
            (f, rows[about[f.id]]) for f in created if f.id in about and about[f.id] in rows
        ]
        if mine is not None:
            pairs += [(f, mine) for f in own]
        for d in disagreements(pairs):
            conflict = FactConflict(
                id=new_id("cfl"),
                scope=d.fact.scope,
                key=d.fact.key,
                fact_ids=[d.fact.id],
                strategy=ConflictStrategy.TRUST_DOMAIN,
                status=ConflictStatus.RESOLVED,
                created_at=now,
                resolved_at=now,
                note=d.note(),
            )
            review.conflicts.append(conflict)
            review.history.append(
                HistoryEntry.new(
                    tenant_id=scope.tenant_id,
                    target_type="fact",
                    target_id=d.fact.id,
                    action="conflict",
                    at=now,
                    after={
                        "conflict_id": conflict.id,
                        "strategy": ConflictStrategy.TRUST_DOMAIN.value,
                        "domain": {
                            "table": d.row.table,
                            "key": d.row.ref.key,
                            "predicate": d.predicate,
                            "value": d.domain_value,
                        },
                    },
                )
            )
