"""From extractions to committed knowledge: resolve entities, build facts with stable
keys, reconcile them with what the store holds, and draw the graph edges."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from cognimem.ingest.domain_linking import DomainLinker
from cognimem.ingest.entities import EntityResolver, Mention, Resolved
from cognimem.ingest.reconcile import NewFact, Outcome, reconcile
from cognimem.ingest.restatement import Restatements
from cognimem.ingest.speakers import Speakers, identify
from cognimem.models import Event, KnowledgeReport, Scope
from cognimem.models.extraction import ExtractedFact, Extraction
from cognimem.models.fact_changes import LIVE, SILENCED_BY_SUPERSESSION, silenced_entries
from cognimem.models.ids import new_id
from cognimem.models.knowledge import (
    CONSTRAINT_CATEGORIES,
    Alias,
    AliasSource,
    EntityType,
    Fact,
    FactCategory,
    HistoryEntry,
    Relation,
)
from cognimem.models.references import COREFERENCE, ItemReference
from cognimem.store.arguments import KnowledgeView
from cognimem.store.protocols import KnowledgeStore
from cognimem.store.types import FactQuery, Knowledge, PendingFact
from cognimem.text.areas import AREA_TAG
from cognimem.text.names import (
    SELF_SUBJECT,
    fact_key,
    is_self,
    normalize_name,
    shortens,
    slug,
    subject_slug,
)

_DEFAULT_IMPORTANCE = {
    FactCategory.IDENTITY: 0.8,
    FactCategory.RELATIONSHIP: 0.7,
    FactCategory.LOCATION: 0.7,
    FactCategory.OCCUPATION: 0.7,
}


@dataclass
class Said:
    """One stored (or about to be stored) message and what was read from it."""

    event: Event
    item_ids: list[str]
    extraction: Extraction


@dataclass
class Built:
    knowledge: Knowledge
    report: KnowledgeReport = field(default_factory=KnowledgeReport)
    degraded: list[str] = field(default_factory=list)


def fact_text(f: ExtractedFact) -> str:
    """What a fact says, for embedding and display: its evidence sentence, else a line;
    with the LLM's line of what later requests it should change, when it gave one."""
    if f.evidence.strip():
        said = f.evidence.strip()
    else:
        negation = "not " if not f.polarity else ""
        said = f"{f.subject} {f.category.value} {f.predicate}: {negation}{f.value}"
    implication = " ".join(f.implication.split())
    return f"{said} (bears on: {implication})" if implication else said


class KnowledgeBuilder:
    def __init__(
        self,
        store: KnowledgeStore,
        resolver: EntityResolver,
        embedding_model: str,
        domain: DomainLinker | None = None,
        restatements: Restatements | None = None,
    ) -> None:
        self._store = store
        self._restatements = restatements
        self._resolver = resolver
        self._model = embedding_model
        self._domain = domain

    async def build(
        self, scope: Scope, said: Sequence[Said], vectors: Mapping[str, np.ndarray], now: datetime
    ) -> Built:
        """Everything the messages in ``said`` change, ready for ``Store.commit``."""
        if not any(
            s.extraction.facts or s.extraction.entities or s.extraction.coreference for s in said
        ):
            return Built(Knowledge())
        resolved = await self._resolver.resolve(scope, _mentions(said), now)
        degraded = await self._domain.link(scope, resolved, now) if self._domain else []
        authors = [s.event.name for s in said if s.event.name and s.extraction.facts]
        speakers = await identify(self._store, scope, authors, resolved)
        proposals = [
            self._proposal(s, f, resolved, speakers, now) for s in said for f in s.extraction.facts
        ]
        current = await self._current(scope, sorted({p.fact.key for p in proposals}))
        if self._restatements is not None:
            proposals = await self._restatements.renew(scope, proposals, current, vectors)
        outcome = reconcile(proposals, current, now)
        learned = _nicknames(proposals, said, resolved, scope)
        resolved.aliases += learned
        relations = self._relations(outcome.created, resolved, said, now)
        if self._domain is not None:  # the ontology's edges, the domain's conflicts
            review = await self._domain.review(
                scope, outcome.created, relations, resolved.new_entities, now
            )
            relations = review.relations
            outcome.conflicts += review.conflicts
            outcome.history += review.history
            degraded += review.degraded
        fresh = await self._fresh(scope, relations)
        silenced = list(dict.fromkeys(outcome.silence_items))
        history = (
            outcome.history
            + _alias_history(resolved, learned, said, now)
            + _silenced_history(scope, silenced, now)
        )
        knowledge = Knowledge(
            entities=resolved.new_entities,
            aliases=resolved.aliases,
            facts=[
                PendingFact(fact=f, embedding=vectors.get(f.text), embed_text=f.text)
                for f in outcome.created
            ],
            fact_updates=list(outcome.updates.values()),
            relations=fresh,
            conflicts=outcome.conflicts,
            history=history,
            silence_items=silenced,
            stale_items=outcome.stale_items,
            read_set=outcome.read_set,
            item_links=_item_links(said, resolved, speakers),
        )
        return Built(knowledge, _report(outcome, resolved, knowledge), degraded)

    async def _current(self, scope: Scope, keys: Sequence[str]) -> dict[str, list[Fact]]:
        """The stored facts under ``keys`` that reconciliation weighs, by key: the live
        ones and those still valid (no end of validity)."""
        current: dict[str, list[Fact]] = {}
        if keys:
            stored = await self._store.find_facts(
                FactQuery(scope.tenant_id, scope.namespace, scope.user_id, keys=tuple(keys),
                          statuses=None, limit=10_000)
            )  # fmt: skip
            for f in stored:
                if f.key not in keys or not scope.shares_facts_with(f.scope):
                    continue
                if f.status in LIVE or f.valid_to is None:
                    current.setdefault(f.key, []).append(f)
        return current

    async def _fresh(self, scope: Scope, relations: Sequence[Relation]) -> list[Relation]:
        """``relations`` without the edges the graph (or an earlier one of them) already
        draws; an edge a fact draws is always kept."""
        existing = await self._store.find_relations(
            KnowledgeView(scope.tenant_id, scope.namespace, scope.user_id),
            sorted({r.source_entity_id for r in relations}),
        )
        seen = {(r.source_entity_id, r.relation, r.target_entity_id) for r in existing}
        fresh: list[Relation] = []
        for r in relations:
            edge = (r.source_entity_id, r.relation, r.target_entity_id)
            if r.fact_id is not None or edge not in seen:
                seen.add(edge)
                fresh.append(r)
        return fresh

    def _proposal(
        self, s: Said, f: ExtractedFact, resolved: Resolved, speakers: Speakers, now: datetime
    ) -> NewFact:
        event = s.event
        if is_self(f.subject):  # the author: the user, or another speaker by name
            about = SELF_SUBJECT if speakers.is_user(event) else (event.name or SELF_SUBJECT)
        else:
            named_user = speakers.names_user(f.subject, resolved)
            about = SELF_SUBJECT if named_user else resolved.canonical(f.subject)
        own = about == SELF_SUBJECT
        subject = SELF_SUBJECT if own else subject_slug(about)
        named = about if is_self(f.subject) else f.subject  # as the message named them
        subject_entity = speakers.self_id if own else resolved.entity_id(named)
        obj = resolved.entity_id(f.object_entity) if f.object_entity else None
        importance = s.extraction.importance
        if importance is None:
            importance = 0.9 if f.category in CONSTRAINT_CATEGORIES else 0.6
            importance = _DEFAULT_IMPORTANCE.get(f.category, importance)
        fact = Fact(
            id=new_id("fct"),
            scope=event.scope,
            key=fact_key(subject, f.category.value, f.predicate, f.value,
                         multi_valued=f.multi_valued),
            subject=subject,
            subject_entity_id=subject_entity,
            predicate=slug(f.predicate) or "general",
            category=f.category,
            value=f.value.strip(),
            polarity=f.polarity,
            object_entity_id=obj,
            text=fact_text(f),
            scope_tags=sorted(
                {slug(t) for t in f.scope_tags if slug(t)} | {AREA_TAG + a for a in f.areas}
            ),
            confidence=f.confidence,
            confidence_factors={"extraction": f.confidence},
            reinforcement_count=1,
            last_validated_at=event.occurred_at,
            # valid time: the period the statement tells of, else when it was said (a
            # statement about the past has no known start)
            valid_from=f.valid_from or (event.occurred_at if f.holds else None),
            valid_to=f.valid_to,
            recorded_at=now,
            evidence_item_ids=list(s.item_ids),
            evidence_event_ids=[event.id],
            importance=importance,
            embedding_model=self._model,
            provenance=(
                {COREFERENCE: [link.model_dump() for link in f.coreference]}
                if f.coreference else {}
            ),
        )  # fmt: skip
        return NewFact(fact=fact, said_at=event.occurred_at, holds=f.holds, event_id=event.id)

    def _relations(
        self, created: Sequence[Fact], resolved: Resolved, said: Sequence[Said], now: datetime
    ) -> list[Relation]:
        out: list[Relation] = []
        for f in created:
            if f.subject_entity_id and f.object_entity_id:
                out.append(
                    Relation(
                        id=new_id("rel"),
                        scope=f.scope,
                        source_entity_id=f.subject_entity_id,
                        relation=f.predicate,
                        target_entity_id=f.object_entity_id,
                        fact_id=f.id,
                        confidence=f.confidence,
                        active=f.status in LIVE,
                        created_at=now,
                    )
                )
        for s in said:
            for r in s.extraction.relations:
                source, target = resolved.entity_id(r.source), resolved.entity_id(r.target)
                if source and target and source != target:
                    out.append(
                        Relation(
                            id=new_id("rel"),
                            scope=s.event.scope,
                            source_entity_id=source,
                            relation=slug(r.relation) or "related_to",
                            target_entity_id=target,
                            created_at=now,
                        )
                    )
        return out


def _silenced_history(scope: Scope, silenced: Sequence[str], now: datetime) -> list[HistoryEntry]:
    """An entry for each item silenced because its constraint was superseded."""
    return silenced_entries(scope.tenant_id, silenced, now, SILENCED_BY_SUPERSESSION)


def _report(outcome: Outcome, resolved: Resolved, knowledge: Knowledge) -> KnowledgeReport:
    """What the write tells its caller it changed."""
    return KnowledgeReport(
        facts_created=[f.id for f in outcome.created],
        facts_reinforced=list(dict.fromkeys(outcome.reinforced)),
        facts_superseded=list(dict.fromkeys(outcome.superseded)),
        conflicts_opened=[c.id for c in outcome.conflicts],
        entities_created=[e.id for e in resolved.new_entities],
        entities_resolved=sorted(
            {r.entity_id for r in resolved.by_name.values()
             if r.entity_id and r.method in ("alias", "fuzzy")}
        ),
        entities_ambiguous=sorted(
            r.mention for r in resolved.by_name.values() if r.method == "ambiguous"
        ),
        items_silenced=knowledge.silence_items,
    )  # fmt: skip


def _mentions(said: Sequence[Said]) -> list[Mention]:
    out: list[Mention] = []
    for s in said:
        x = s.extraction
        if x.facts:  # the user's entity, and the author's name to tell whether it is theirs
            out.append(Mention(SELF_SUBJECT, EntityType.PERSON))
            if s.event.name:
                out.append(Mention(s.event.name, EntityType.PERSON))
        out += [Mention(e.name, e.type) for e in x.entities]
        for f in x.facts:
            if not is_self(f.subject):
                out.append(Mention(f.subject, EntityType.OTHER))
            if f.object_entity:
                out.append(Mention(f.object_entity, f.object_type or EntityType.OTHER))
        for r in x.relations:
            out += [Mention(r.source), Mention(r.target)]
        out += [Mention(link.name, EntityType.PERSON) for link in x.coreference]
        out += [
            Mention(link.said, EntityType.PERSON, link_only=True)
            for link in x.coreference
            if shortens(link.said, link.name)
        ]
    return out


def _item_links(
    said: Sequence[Said], resolved: Resolved, speakers: Speakers
) -> list[ItemReference]:
    """Each message's items linked to the people its pronouns and role words were read
    as, a fact read from it or not ("Her clinic is in Brooklyn" is Maya's), each with
    the resolution as its evidence; never to the user."""
    out: list[ItemReference] = []
    for s in said:
        for link in dict.fromkeys(s.extraction.coreference):
            entity_id = resolved.entity_id(link.name)
            if entity_id is None or entity_id == speakers.self_id:
                continue
            shown = link.model_dump() | {"entity_id": entity_id}
            out += [
                ItemReference(s.event.scope.tenant_id, item_id, entity_id, shown)
                for item_id in s.item_ids
            ]
    return out


def _nicknames(
    proposals: Sequence[NewFact], said: Sequence[Said], resolved: Resolved, scope: Scope
) -> list[Alias]:
    """A nickname ("She goes by Sally", "call me Sam") and the user's own name ("I'm
    Marta") are names of the person they are about: aliases the user stated, never an
    entity of their own. The rule path gives a
    third party's as an alias of their entity, the LLM (and "call me") as a fact."""
    named = [
        (p.fact.subject_entity_id, p.fact.value)
        for p in proposals
        if p.fact.category is FactCategory.IDENTITY and p.holds and _another_name(p.fact)
    ]
    named += [
        (resolved.entity_id(e.name), alias)
        for s in said
        for e in s.extraction.entities
        for alias in e.aliases
    ]
    out: list[Alias] = []
    for entity_id, name in named:
        alias = normalize_name(name)
        known = resolved.entity_id(name) is not None  # a name of someone else already
        if entity_id and alias and not known and all(a.alias != alias for a in out):
            out.append(
                Alias(entity_id=entity_id, alias=alias, user_id=scope.user_id,
                      source=AliasSource.USER_STATED, confidence=0.9)
            )  # fmt: skip
    return out


def _another_name(fact: Fact) -> bool:
    """A nickname, or the user's own name: another name of the entity it is about."""
    return fact.predicate == "nickname" or (fact.predicate == "name" and is_self(fact.subject))


def _alias_history(
    resolved: Resolved, learned: Sequence[Alias], said: Sequence[Said], now: datetime
) -> list[HistoryEntry]:
    """Each name linked to an existing entity (a first name, a nickname): what was
    merged, from which message, so that it can be reviewed and undone."""
    if not said:
        return []
    event = said[0].event
    links = (
        [
            (r.entity_id, r.mention, AliasSource.COREFERENCE.value, r.canonical)
            for r in resolved.by_name.values()
            if r.method == "first_name" and r.entity_id
        ]
        + [(a.entity_id, a.alias, a.source.value, full) for a, full in resolved.first_names]
        + [(a.entity_id, a.alias, a.source.value, None) for a in learned]
    )
    return [
        HistoryEntry.new(
            tenant_id=event.scope.tenant_id,
            target_type="entity",
            target_id=entity_id,
            action="alias_added",
            at=now,
            after={"alias": alias, "source": source, "linked_to": canonical},
            event_id=event.id,
        )
        for entity_id, alias, source, canonical in links
    ]
