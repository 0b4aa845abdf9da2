"""Entity resolution (L2): exact name → known alias (the user's before the namespace's)
→ fuzzy → new entity.

Confident resolutions learn the name as an alias; an ambiguous mention (two entities
match about equally well) is reported with its candidates and left unlinked — never
guessed. Pronoun coreference is the LLM extractor's job: when an LLM is configured its
prompt asks for names instead of pronouns, so the names arriving here are already
resolved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from rapidfuzz import fuzz, process

from cognimem.models import Scope
from cognimem.models.ids import new_id
from cognimem.models.knowledge import Alias, AliasSource, Entity, EntityType
from cognimem.store.roles import KnowledgeStore
from cognimem.text.keys import normalize_name

Method = Literal["alias", "fuzzy", "new", "ambiguous"]

# the author's own entity carries this property (names are not unique enough)
SELF_PROPERTY = "self"


@dataclass(frozen=True)
class Mention:
    name: str
    type: EntityType = EntityType.OTHER


@dataclass
class Resolution:
    mention: str  # normalised
    method: Method
    entity_id: str | None = None
    candidates: list[str] = field(default_factory=list)
    score: float = 1.0


@dataclass
class Resolved:
    """The outcome for a batch: by normalised mention, plus what must be written."""

    by_name: dict[str, Resolution] = field(default_factory=dict)
    new_entities: list[Entity] = field(default_factory=list)
    aliases: list[Alias] = field(default_factory=list)

    def entity_id(self, name: str) -> str | None:
        found = self.by_name.get(normalize_name(name))
        return None if found is None else found.entity_id


class EntityResolver:
    """Resolves a batch of mentions with at most two store queries."""

    def __init__(
        self,
        store: KnowledgeStore,
        *,
        fuzzy_threshold: float = 85.0,
        ambiguity_margin: float = 3.0,
        min_fuzzy_chars: int = 4,
    ) -> None:
        self._store = store
        self._fuzzy_threshold = fuzzy_threshold
        self._margin = ambiguity_margin
        self._min_fuzzy = min_fuzzy_chars

    async def resolve(self, scope: Scope, mentions: Sequence[Mention], now: datetime) -> Resolved:
        out = Resolved()
        wanted: dict[str, Mention] = {}
        for m in mentions:
            norm = normalize_name(m.name)
            if norm and norm not in wanted:
                wanted[norm] = m
        if not wanted:
            return out
        t, ns, user = scope.tenant_id, scope.namespace, scope.user_id
        known = await self._store.find_aliases(t, ns, user, list(wanted))
        unresolved: list[str] = []
        for norm in wanted:
            matches = [a for a in known if a.alias == norm]
            own = [a for a in matches if a.user_id is not None]
            tier = own or matches  # the user's own aliases before the namespace's
            ids = list(dict.fromkeys(a.entity_id for a in tier))
            if len(ids) == 1:
                out.by_name[norm] = Resolution(norm, "alias", ids[0])
                out.aliases.append(_alias(ids[0], norm, user, AliasSource.EXACT, 1.0))
            elif len(ids) > 1:
                out.by_name[norm] = Resolution(norm, "ambiguous", candidates=ids, score=0.0)
            else:
                unresolved.append(norm)
        if unresolved:
            fuzzy_pool = [
                a
                for a in await self._store.find_aliases(t, ns, user, None)
                if len(a.alias) >= self._min_fuzzy
            ]
            for norm in unresolved:
                found = self._fuzzy(norm, fuzzy_pool) if len(norm) >= self._min_fuzzy else None
                if found is not None:
                    out.by_name[norm] = found
                    if found.entity_id is not None:
                        out.aliases.append(
                            _alias(
                                found.entity_id, norm, user, AliasSource.FUZZY, found.score / 100
                            )
                        )
                    continue
                mention = wanted[norm]
                entity = Entity(
                    id=new_id("ent"),
                    tenant_id=t,
                    namespace=ns,
                    user_id=user,
                    name=mention.name.strip(),
                    type=mention.type,
                    created_at=now,
                )
                out.new_entities.append(entity)
                out.aliases.append(_alias(entity.id, norm, user, AliasSource.EXACT, 1.0))
                out.by_name[norm] = Resolution(norm, "new", entity.id)
        return out

    def _fuzzy(self, norm: str, pool: Sequence[Alias]) -> Resolution | None:
        if not pool:
            return None
        texts = [a.alias for a in pool]
        best = process.extract(norm, texts, scorer=fuzz.ratio, limit=5)
        hits = [(pool[i], score) for _, score, i in best if score >= self._fuzzy_threshold]
        if not hits:
            return None
        top_alias, top = hits[0]
        rivals = {
            a.entity_id
            for a, score in hits
            if a.entity_id != top_alias.entity_id and top - score < self._margin
        }
        if rivals:
            ids = [top_alias.entity_id, *sorted(rivals)]
            return Resolution(norm, "ambiguous", candidates=ids, score=top)
        return Resolution(norm, "fuzzy", top_alias.entity_id, score=top)


def _alias(
    entity_id: str, alias: str, user_id: str | None, source: AliasSource, confidence: float
) -> Alias:
    return Alias(
        entity_id=entity_id, alias=alias, user_id=user_id, source=source, confidence=confidence
    )
