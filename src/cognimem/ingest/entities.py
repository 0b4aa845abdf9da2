"""Entity resolution (L2): exact name → known alias (the user's before the namespace's)
→ a first name that fits exactly one full name → fuzzy → new entity.

Confident resolutions learn the name as an alias; an ambiguous mention (two entities
match about equally well) is reported with its candidates and left unlinked — never
guessed. A lone first name ("Sarah"), or a short form of one ("Chris"), is the person of
that first name already known in the scope, or named in full in the same write ("Sarah
Jones"), when exactly one fits; the link is learned as a ``coreference`` alias (an alias
edit undoes it). A short form the rules read as a person's name ("Dom" for Dominic
Price, ``Mention.link_only``) is linked so too, and left alone when none or several fit:
never an entity of its own. A person named in full keeps their first name as such an alias at
once, unless another name in the scope is or starts with it; a second full name of a
first name kept so gets it too, which leaves it ambiguous alone. Pronouns are
resolved before this (``ingest/extract/coref.py`` on the rule path, the LLM's prompt
on the LLM path), so the names arriving here are names.
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
from cognimem.store.arguments import KnowledgeView
from cognimem.store.protocols import KnowledgeStore
from cognimem.text.names import normalize_name

Method = Literal["alias", "first_name", "fuzzy", "new", "ambiguous"]

# the author's own entity carries this property (names are not unique enough)
SELF_PROPERTY = "self"


@dataclass(frozen=True)
class Mention:
    name: str
    type: EntityType = EntityType.OTHER
    # a short form the rule extractor read as a person's name ("Dom": Dominic Price):
    # linked when exactly one person fits, else left alone (never an entity of its own)
    link_only: bool = False


@dataclass
class Resolution:
    mention: str  # normalised
    method: Method
    entity_id: str | None = None
    candidates: list[str] = field(default_factory=list)
    score: float = 1.0
    # the entity's own name when the mention is another name of it ("Sarah" for Sarah
    # Jones, a nickname): facts about the mention are keyed by this name
    canonical: str | None = None


@dataclass
class Resolved:
    """The outcome for a batch: by normalised mention, plus what must be written."""

    by_name: dict[str, Resolution] = field(default_factory=dict)
    new_entities: list[Entity] = field(default_factory=list)
    aliases: list[Alias] = field(default_factory=list)
    # first names kept for a person named in full ("sarah" for Sarah Jones), each with
    # that full name: a link, reviewed and undone like one
    first_names: list[tuple[Alias, str]] = field(default_factory=list)

    def entity_id(self, name: str) -> str | None:
        found = self.by_name.get(normalize_name(name))
        return None if found is None else found.entity_id

    def canonical(self, name: str) -> str:
        """The name facts about ``name`` are keyed by: the full name it was linked to."""
        found = self.by_name.get(normalize_name(name))
        return found.canonical if found is not None and found.canonical else name


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
        unresolved = await self._by_alias(scope, wanted, out)
        if unresolved:
            await self._by_likeness(scope, wanted, unresolved, out, now)
        return out

    async def _by_alias(self, scope: Scope, wanted: dict[str, Mention], out: Resolved) -> list[str]:
        """The mentions an alias names exactly, into ``out`` (one entity: resolved, with
        the canonical name of a link learned earlier; several: ambiguous); the names
        no alias holds."""
        t, ns, user = scope.tenant_id, scope.namespace, scope.user_id
        known = await self._store.find_aliases(KnowledgeView(t, ns, user), list(wanted))
        unresolved: list[str] = []
        linked: dict[str, str] = {}  # mention -> entity, through a link learned earlier
        for norm in wanted:
            matches = [a for a in known if a.alias == norm]
            own = [a for a in matches if a.user_id is not None]
            tier = own or matches  # the user's own aliases before the namespace's
            ids = list(dict.fromkeys(a.entity_id for a in tier))
            if len(ids) == 1:
                out.by_name[norm] = Resolution(norm, "alias", ids[0])
                out.aliases.append(_alias(ids[0], norm, user, AliasSource.EXACT, 1.0))
                if any(a.source in _LINKS for a in tier):
                    linked[norm] = ids[0]
            elif len(ids) > 1:
                out.by_name[norm] = Resolution(norm, "ambiguous", candidates=ids, score=0.0)
            else:
                unresolved.append(norm)
        if linked:  # facts about "Sally" are keyed by the name of the entity she is
            names = {
                e.id: e.name for e in await self._store.get_entities(t, list(set(linked.values())))
            }
            for norm, entity_id in linked.items():
                out.by_name[norm].canonical = names.get(entity_id)
        return unresolved

    async def _by_likeness(
        self,
        scope: Scope,
        wanted: dict[str, Mention],
        unresolved: list[str],
        out: Resolved,
        now: datetime,
    ) -> None:
        """The names no alias holds, into ``out``: a first name linked to the one full
        name it starts, else a close spelling of a known alias, else a new entity."""
        t, ns, user = scope.tenant_id, scope.namespace, scope.user_id
        pool = await self._store.find_aliases(KnowledgeView(t, ns, user), None)
        fuzzy_pool = [a for a in pool if len(a.alias) >= self._min_fuzzy]
        unresolved.sort(key=lambda n: -len(n.split()))  # full names before first names
        for norm in unresolved:
            if len(norm.split()) == 1 and wanted[norm].type in _MAY_BE_PEOPLE:
                found = await self._first_name(scope, norm, pool, wanted, out)
                if found is not None:
                    out.by_name[norm] = found
                    assert found.entity_id is not None
                    out.aliases.append(
                        _alias(found.entity_id, norm, user, AliasSource.COREFERENCE, 0.8)
                    )
                    continue
            if wanted[norm].link_only:
                continue
            found = self._fuzzy(norm, fuzzy_pool) if len(norm) >= self._min_fuzzy else None
            if found is not None:
                out.by_name[norm] = found
                if found.entity_id is not None:
                    out.aliases.append(
                        _alias(found.entity_id, norm, user, AliasSource.FUZZY, found.score / 100)
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
            first = _first_name_alias(norm, mention, pool, wanted, out)
            if first is not None:
                kept = _alias(entity.id, first, user, AliasSource.COREFERENCE, 0.8)
                out.aliases.append(kept)
                out.first_names.append((kept, entity.name))

    async def _first_name(
        self,
        scope: Scope,
        norm: str,
        pool: Sequence[Alias],
        wanted: dict[str, Mention],
        out: Resolved,
    ) -> Resolution | None:
        """``norm`` linked to the one person whose full name starts with it: known in
        the scope, or named in full earlier in this write; ``None`` when none or
        several fit."""
        full: dict[str, str] = {}  # entity id -> full name
        for other, mention in wanted.items():
            done = out.by_name.get(other)
            if (
                _names_first(other, norm)
                and done
                and done.entity_id
                and mention.type is EntityType.PERSON
            ):
                full[done.entity_id] = mention.name.strip()
        stored = {a.entity_id for a in pool if _names_first(a.alias, norm)
                  and a.entity_id not in full}  # fmt: skip
        if stored:
            for e in await self._store.get_entities(scope.tenant_id, sorted(stored)):
                if e.type is EntityType.PERSON:
                    full[e.id] = e.name
        if len(full) != 1:
            return None
        [(entity_id, name)] = full.items()
        return Resolution(norm, "first_name", entity_id, score=0.8, canonical=name)

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


def _names_first(full: str, short: str) -> bool:
    """Whether the normalised name ``short`` is the first name of the normalised
    ``full`` ("sarah" of "sarah jones"), or a short form of it ("chris" of "christopher
    lee", "will" of "william"): the first name's opening, three letters at least."""
    first, *rest = full.split() or [""]
    if first == short:
        return bool(rest)
    return len(short) >= _SHORT_FORM and first.startswith(short)


def _first_name_alias(
    norm: str, mention: Mention, pool: Sequence[Alias], wanted: dict[str, Mention], out: Resolved
) -> str | None:
    """The first name of a new person named in full ("sarah" for "Sarah Jones"), to keep
    as an alias, when no other name in the scope or the write is or starts with it."""
    words = norm.split()
    if mention.type is not EntityType.PERSON or len(words) < 2 or len(words[0]) < 2:
        return None
    first = words[0]
    if first in wanted:
        return None  # linked by ``_first_name`` when it fits one person
    learned = [a for a in (*pool, *out.aliases) if a.alias == first]
    if learned and all(a.source is AliasSource.COREFERENCE for a in learned):
        return first  # a second person of that first name: it names neither alone now
    if learned or any(_names_first(a.alias, first) for a in pool):
        return None
    taken = (o for o in wanted if o != norm and o in out.by_name and o.split()[0] == first)
    return None if any(taken) else first


# a short form of a first name is its opening this long at least ("Chris", "Will")
_SHORT_FORM = 3
# aliases that link another name to an entity: facts about them are keyed by its name
_LINKS = frozenset({AliasSource.COREFERENCE, AliasSource.USER_STATED})
_MAY_BE_PEOPLE = frozenset({EntityType.PERSON, EntityType.OTHER})


def _alias(
    entity_id: str, alias: str, user_id: str | None, source: AliasSource, confidence: float
) -> Alias:
    return Alias(
        entity_id=entity_id, alias=alias, user_id=user_id, source=source, confidence=confidence
    )
