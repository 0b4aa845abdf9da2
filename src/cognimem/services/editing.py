"""Editing and forgetting: a memory's new text, importance or tier, feedback on it
(retried from the state a concurrent edit left), deleting one memory, forgetting many
(by ids, by query or by time range), a user settling a fact conflict, a user
undoing a name merge (an alias removed, or split into an entity of its own) and giving
a name back (an alias added, merging back the entity split off under it). The
decisions are pure (``editing.edits``, ``editing.conflicts``,
``editing.aliases``); this service loads, checks and stores."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Annotated, Any, TypeVar, cast

import numpy as np
from pydantic import Field, TypeAdapter

from cognimem.editing import alias_facts, alias_settle, aliases, conflicts, edits
from cognimem.editing.edits import Feedback
from cognimem.errors import Conflict, InvalidInput, NotFound, ProviderError, StaleKnowledge
from cognimem.ingest.gate import find_secrets, redact_pii
from cognimem.models import ItemStatus, MemoryItem, Scope, Tier
from cognimem.models.admin import ForgetResult
from cognimem.models.arguments import check_ids, make_reach_scope, validated
from cognimem.models.browse_requests import ForgetKeywords, ForgetOptions, UpdateArgs
from cognimem.models.items import index_text
from cognimem.models.knowledge import (
    Alias,
    AliasAddition,
    AliasRemoval,
    AliasSource,
    Entity,
    EntityWithAliases,
    FactConflict,
)
from cognimem.models.knowledge_requests import (
    AliasAdditionArgs,
    AliasAdditionKeywords,
    AliasRemovalArgs,
    AliasRemovalKeywords,
)
from cognimem.models.references import ItemLinks
from cognimem.models.requests import ReadArgs, made, split_scope
from cognimem.providers.tokens import count_tokens
from cognimem.recall.analyze import query_terms
from cognimem.recall.conversation.evidence import mentions
from cognimem.services.browsing import BrowseService
from cognimem.services.components import Components
from cognimem.services.lifecycle.profiles import ProfileRebuild, Rebuilt
from cognimem.services.reading import MAX_READ_TOKENS, ReadService
from cognimem.store.arguments import (
    AliasDeletion,
    AliasesRemoved,
    AliasGiving,
    ItemEdit,
    KnowledgeView,
    Moved,
    Relinked,
    Resummarised,
)
from cognimem.store.types import ItemFilter, Knowledge
from cognimem.text.names import normalize_name
from cognimem.text.validate import check_period, check_text

# an update is made again from the state a concurrent edit of the same memory left; each
# failed attempt means another edit committed, so this many concurrent editors always finish
EDIT_ATTEMPTS = 20
# forget by query: what a read returns, scoring at least this share of the best memory,
# and sharing a word with the query or at least this similar to it
FORGET_FLOOR = 0.35
FORGET_MIN_SIMILARITY = 0.5
# an edit's fields (None: unchanged), checked as the HTTP API checks them (the same messages)
_IMPORTANCE = TypeAdapter(Annotated[float, Field(ge=0.0, le=1.0)] | None)
_TIER = TypeAdapter(Tier | None)
_FEEDBACK: TypeAdapter[Feedback | None] = TypeAdapter(Feedback | None)
A = TypeVar("A")
log = logging.getLogger(__name__)


class EditService:
    """``Memory.update``, ``delete``, ``forget``, ``resolve_conflict``,
    ``remove_alias`` and ``add_alias`` (documented there)."""

    def __init__(self, parts: Components, browsing: BrowseService, reading: ReadService) -> None:
        self._parts = parts
        self._browsing = browsing
        self._reading = reading
        self._profiles = ProfileRebuild(parts)

    async def delete(self, item_id: str, *, tenant_id: str) -> None:
        parts = self._parts
        found = await self._browsing.get(item_id, tenant_id=tenant_id)
        await edits.forget(
            parts.store, tenant_id, [found], "delete", now=parts.clock(), dry_run=False
        )

    async def update(self, item_id: str, asked: UpdateArgs) -> MemoryItem:
        parts = self._parts
        parts.require_open()
        check_ids(item_id=item_id)
        text, tenant_id = asked.text, asked.tenant_id
        changes = (text, asked.importance, asked.tier, asked.feedback)
        if all(change is None for change in changes):
            raise InvalidInput("nothing to update: give text, importance, tier or feedback")
        importance = validated(_IMPORTANCE, asked.importance, "importance")
        chosen_tier = validated(_TIER, asked.tier, "tier")
        chosen_feedback = validated(_FEEDBACK, asked.feedback, "feedback")
        clean = None if text is None else self._clean_text(text)
        edit = edits.Edit(
            text=clean,
            token_count=0 if clean is None else count_tokens(clean),
            importance=importance,
            tier=chosen_tier,
            feedback=chosen_feedback,
        )
        embedded: dict[str, np.ndarray] = {}  # the new text's vector, made once
        attempts = 0
        while True:
            item = await self._browsing.get(item_id, tenant_id=tenant_id)
            new, entry = edits.edited(
                item,
                edit,
                embedding_model=parts.embedder.model_id,
                now=parts.clock(),
                date_order=parts.settings.ingest.date_order,
            )
            if entry is None:
                return item
            search_text = None
            if new.text != item.text:
                search_text = index_text(new.author, new.text)
                if search_text not in embedded:
                    [embedded[search_text]] = await parts.embedder.embed([search_text], "document")
            try:
                embedding = None if search_text is None else embedded[search_text]
                await parts.store.update_item(ItemEdit(new, item, entry, embedding, search_text))
            except StaleKnowledge:
                # another edit of this memory committed between our read and our write:
                # make this one again from the state it left (no feedback count is lost)
                attempts += 1
                if attempts == EDIT_ATTEMPTS:
                    raise
                continue
            return new

    def _clean_text(self, text: str) -> str:
        """A memory's new text, checked and gated as the write path gates a message."""
        ingest = self._parts.settings.ingest
        check_text(text, "text", ingest.max_content_chars)
        if ingest.skip_secrets and find_secrets(text):
            raise InvalidInput("text holds a secret (a key, token or password)", field="text")
        return redact_pii(text).text if ingest.redact_pii else text

    async def forget(self, options: ForgetKeywords) -> ForgetResult:
        parts = self._parts
        parts.require_open()
        where, rest = split_scope(options)
        asked = ForgetOptions(**rest)
        ids, query, since, until = asked.ids, asked.query, asked.since, asked.until
        mode, dry_run, limit = asked.mode, asked.dry_run, asked.limit
        chosen = sum([ids is not None, query is not None, since is not None or until is not None])
        if chosen != 1:
            raise InvalidInput(
                "forget needs exactly one of: ids, query, or a time range (since/until)",
                field="ids",
            )
        if mode not in edits.FORGET_MODES:
            raise InvalidInput(f"mode must be one of {', '.join(edits.FORGET_MODES)}", field="mode")
        forget_mode = cast(edits.ForgetMode, mode)
        if not 1 <= limit <= 10_000:
            raise InvalidInput("limit must be between 1 and 10000", field="limit")
        target, level = make_reach_scope(**where)
        tenant = target.tenant_id
        if ids is not None:
            check_ids(ids=list(ids))
            wanted = list(dict.fromkeys(ids))[:limit]
            stored = await parts.store.get_items(tenant, wanted)
            found = [i for i in stored if edits.in_scope(i, target, level_only=level)]
        elif query is not None:
            found = await self._forget_by_query(query, target, limit, level)
            found = [i for i in found if edits.in_scope(i, target, level_only=level)]
        else:
            found = await self._forget_by_time(target, level, since, until, forget_mode, limit)
        affected = edits.forgettable(found, forget_mode)
        return await edits.forget(
            parts.store, tenant, affected, forget_mode, now=parts.clock(), dry_run=dry_run
        )

    async def _forget_by_time(
        self,
        target: Scope,
        level: bool,
        since: datetime | None,
        until: datetime | None,
        mode: edits.ForgetMode,
        limit: int,
    ) -> list[MemoryItem]:
        """The newest ``limit`` items of ``target`` (one shared level's alone with
        ``level``) that happened between ``since`` and ``until`` and ``mode`` changes."""
        check_period(since, until)
        keep = edits.FORGET_STATUS[mode]
        statuses = tuple(
            s for s in (ItemStatus.ACTIVE, ItemStatus.SILENT, ItemStatus.ARCHIVED) if s is not keep
        )
        flt = ItemFilter(
            scope=target, statuses=statuses, since=since, until=until, level_only=level
        )
        store = self._parts.store
        return await store.get_items(target.tenant_id, await store.list_item_ids(flt, limit))

    async def _forget_by_query(
        self, query: str, target: Scope, limit: int, level: bool
    ) -> list[MemoryItem]:
        parts = self._parts
        check_text(query, "query", parts.settings.ingest.max_content_chars)
        config = self._reading.recall_config()
        config = config.model_copy(
            update={"episode_floor": max(config.episode_floor, FORGET_FLOOR)}
        )
        packet = await self._reading.reader.read(
            ReadArgs(query=query, scope=target),
            target,
            config=config,
            limit=min(limit, 200),
            max_tokens=MAX_READ_TOKENS,
            reference_time=parts.clock(),
            level=level,  # a shared level's forget reads that level alone
        )
        terms = query_terms(query)
        floor = FORGET_MIN_SIMILARITY
        close = {p.id for p in packet.items if p.signals.get("vector", 0.0) >= floor}
        found = await parts.store.get_items(target.tenant_id, [p.id for p in packet.items])
        # the lexical index also holds the message said before each memory: a word of
        # that neighbour must not forget this one
        return [i for i in found if i.id in close or mentions(i.text, terms)]

    async def resolve_conflict(
        self, conflict_id: str, *, winner_fact_id: str | None, note: str, tenant_id: str
    ) -> FactConflict:
        parts = self._parts
        parts.require_open()
        if len(note) > 2_000:
            raise InvalidInput("note is longer than 2000 characters", field="note")
        check_ids(conflict_id=conflict_id, winner_fact_id=winner_fact_id, note=note)
        found = await parts.store.get_conflict(tenant_id, conflict_id)
        if found is None:
            raise NotFound("conflict", conflict_id)
        facts = await parts.store.get_facts(tenant_id, found.fact_ids)
        resolution = conflicts.resolve(found, facts, winner_fact_id, note, parts.clock())
        if resolution is None:
            return found
        await parts.store.resolve_conflict(resolution)
        return resolution.conflict

    async def remove_alias(
        self, entity_id: str, alias: str, options: AliasRemovalKeywords
    ) -> AliasRemoval:
        parts = self._parts
        args = self._alias_args(AliasRemovalArgs, options, entity_id, alias)
        target, split = args.scope, args.split
        entity, name = await self._named(target, entity_id, alias)
        if name == normalize_name(entity.name):
            raise InvalidInput(
                f"{alias!r} is the entity's own name: remove another name, or split that"
                " one off the entity it was merged into",
                field="alias",
            )
        now = parts.clock()
        twin = aliases.split_off(entity, name, target.user_id, now) if split else None

        def then(
            removed: list[Alias],
            items: list[Relinked],
            summaries: list[Resummarised],
            facts: list[Moved],
        ) -> Knowledge:
            return aliases.removal(entity, removed, twin, items, summaries, facts, now)

        deletion = _alias_deletion(entity, name, target.user_id, twin, then, now)
        done = await parts.store.remove_aliases(deletion)
        rebuilt = await self._rebuilt(target, deletion, done, "alias_removed")
        with_aliases = await self._with_aliases(target)
        return AliasRemoval(
            entity=with_aliases(entity),
            removed=done.removed,
            split_into=None if twin is None else with_aliases(twin),
            rebuilt_profiles=rebuilt.profiles,
            degraded=rebuilt.degraded,
        )

    async def add_alias(
        self, entity_id: str, alias: str, options: AliasAdditionKeywords
    ) -> AliasAddition:
        parts = self._parts
        target = self._alias_args(AliasAdditionArgs, options, entity_id, alias).scope
        entity, name = await self._named(target, entity_id, alias)
        view = KnowledgeView(target.tenant_id, target.namespace, target.user_id, True)
        rows = [
            a for a in await parts.store.find_aliases(view, [name]) if a.user_id == target.user_id
        ]
        holders = {a.entity_id for a in rows}
        now = parts.clock()
        twin = None
        rebuilt = Rebuilt()
        if name == normalize_name(entity.name) or entity.id in holders:
            pass  # the entity has the name already
        elif not holders:
            await parts.store.give_alias(await self._given_back(entity, name, target, now))
        else:
            twin = await self._split_of(entity, name, sorted(holders))
            merge = self._merge(entity, twin, name, target.user_id, now)
            done = await parts.store.remove_aliases(merge)
            rebuilt = await self._rebuilt(target, merge, done, "alias_added")
        with_aliases = await self._with_aliases(target)
        now_held = with_aliases(entity)
        return AliasAddition(
            entity=now_held,
            added=[a for a in now_held.aliases if a.alias == name and a not in rows],
            merged_from=None if twin is None else with_aliases(twin),
            rebuilt_profiles=rebuilt.profiles,
            degraded=rebuilt.degraded,
        )

    async def _rebuilt(
        self, target: Scope, deletion: AliasDeletion, done: AliasesRemoved, edit: str
    ) -> Rebuilt:
        """The profiles a committed split or merge (``edit``) archived, built again for
        the entities it touched (``services/lifecycle/profiles.py``). The edit stands
        whatever happens here: a rebuild that fails (the embedder down, or the store
        changing under it each time) is named in ``degraded`` and left to the next
        consolidation pass."""
        if not done.archived:
            return Rebuilt()
        scope = Scope(
            tenant_id=target.tenant_id, namespace=target.namespace, user_id=target.user_id
        )
        try:
            return await self._profiles.rebuild(scope, deletion.profiles, done.archived, edit)
        except (ProviderError, StaleKnowledge) as exc:
            log.warning("alias edit: profiles of %s not rebuilt: %s", deletion.profiles, exc)
            why = f"profiles not rebuilt: {exc}; the next consolidation pass builds them"
            return Rebuilt(degraded=[why])

    async def _given_back(
        self, entity: Entity, name: str, target: Scope, now: datetime
    ) -> AliasGiving:
        """The name no entity holds given to ``entity``, undoing the user's last removal
        of it from ``entity`` when that split nothing off (its item links come back, and
        the entity to the summaries covering them)."""
        store = self._parts.store
        row = Alias(entity_id=entity.id, alias=name, user_id=target.user_id,
                    source=AliasSource.USER_STATED, confidence=1.0)  # fmt: skip
        history = await store.get_history(entity.tenant_id, entity.id)
        removal = aliases.last_removal(history, name, target.user_id)
        ids = sorted({x["item_id"] for x in aliases.taken_links(removal)})
        items = await store.get_items(entity.tenant_id, ids) if ids else []
        links = [ItemLinks.stored(i.id, i.entities, i.metadata) for i in items]
        back = [(i, after) for i in links if (after := aliases.given_back(entity.id, removal, i))]
        restored = frozenset(i.item_id for i, _ in back)

        def then(summaries: list[Resummarised]) -> Knowledge:
            return aliases.added(entity, row, now, removal, links, summaries)

        rule = functools.partial(aliases.resummarised_back, entity.id, restored)
        return AliasGiving(entity, back, rule, then)

    def _alias_args(
        self, cls: Callable[..., A], options: Mapping[str, Any], entity_id: str, alias: str
    ) -> A:
        """An alias call's argument object ``cls``, once the memory is open and the ids
        are checked."""
        self._parts.require_open()
        check_ids(entity_id=entity_id, alias=alias)
        return made(cls, options, entity_id=entity_id, alias=alias)

    async def _named(self, target: Scope, entity_id: str, alias: str) -> tuple[Entity, str]:
        """The entity ``entity_id`` of ``target``'s namespace, and ``alias`` normalised."""
        name = normalize_name(alias)
        if not name:
            raise InvalidInput("alias names nothing once normalised", field="alias")
        found = await self._parts.store.get_entities(target.tenant_id, [entity_id])
        if not found or found[0].namespace != target.namespace:
            raise NotFound("entity", entity_id)
        return found[0], name

    async def _split_of(self, entity: Entity, name: str, holders: list[str]) -> Entity:
        """The entity split off ``entity`` under ``name`` among those holding it
        (``Conflict`` when the name is another entity's)."""
        for other in await self._parts.store.get_entities(entity.tenant_id, holders):
            split_from = other.properties.get("split_from")
            if split_from == entity.id and normalize_name(other.name) == name:
                return other
        raise Conflict(
            f"{name!r} is the name of another entity: remove it there first",
            details={"entities": holders},
        )

    def _merge(
        self, entity: Entity, twin: Entity, name: str, user_id: str | None, now: datetime
    ) -> AliasDeletion:
        """The deletion of ``twin``'s rows of ``name`` that merges it back into ``entity``:
        the split's rules run the other way (``twin`` undone into ``entity``), and ``twin``
        deleted once nothing names it."""
        merger = functools.partial(aliases.merger, entity, twin, now=now)
        deletion = _alias_deletion(twin, name, user_id, entity, merger, now, edit="alias_added")
        return dataclasses.replace(deletion, retire=aliases.retired(twin, entity, now))

    async def _with_aliases(self, target: Scope) -> Callable[[Entity], EntityWithAliases]:
        """An entity with the aliases ``target`` sees now (every user's for a call of
        no user)."""
        everyone = target.user_id is None
        view = KnowledgeView(target.tenant_id, target.namespace, target.user_id, everyone)
        known = await self._parts.store.find_aliases(view, None)

        def with_aliases(e: Entity) -> EntityWithAliases:
            return EntityWithAliases(entity=e, aliases=[a for a in known if a.entity_id == e.id])

        return with_aliases


def _alias_deletion(
    entity: Entity,
    name: str,
    user_id: str | None,
    onto: Entity | None,
    then: Callable[[list[Alias], list[Relinked], list[Resummarised], list[Moved]], Knowledge],
    now: datetime,
    edit: str = "alias_removed",
) -> AliasDeletion:
    """The deletion of ``entity``'s rows of ``name`` (``user_id``'s): the items and
    summaries that read the name follow it ``onto`` the entity it goes to (``None``: a
    removal alone), and so do the facts when there is one, the supersessions across
    the two undone and their profiles archived once one moves (``edit``: the history's
    ``because``, with the entity the name goes to or stays with)."""
    deletion = AliasDeletion(
        entity,
        name,
        user_id,
        then,
        functools.partial(aliases.relinked, entity.id, name, onto),
        functools.partial(aliases.resummarised, entity.id, onto),
    )
    if onto is None:  # a removal alone has no one to move a fact to
        return deletion
    kept = onto if edit == "alias_added" else entity  # whose name it is after the edit
    return dataclasses.replace(
        deletion,
        move=functools.partial(alias_facts.moved, entity.id, name, onto),
        profiles=(entity.id, onto.id),
        archive=functools.partial(aliases.archived, kept, edit, now),
        settle=functools.partial(alias_settle.settled, edit, now),
        unsilence=functools.partial(alias_settle.unsilenced, entity.tenant_id, edit, now),
    )
