"""``Memory``'s knowledge calls (a mixin, so ``memory/_facade.py`` keeps to its wiring
and the read and record surface): the facts, entities, aliases, relations and conflicts
of a scope. The work is ``services.browsing``' (and ``services.editing``' for
``remove_alias``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from cognimem.models.knowledge import (
    Alias,
    AliasAddition,
    AliasRemoval,
    Entity,
    Fact,
    FactConflict,
    Relation,
)
from cognimem.models.knowledge_requests import (
    AliasAdditionKeywords,
    AliasRemovalKeywords,
    ConflictsKeywords,
    FactsKeywords,
)
from cognimem.models.requests import UserScopeKeywords
from cognimem.services.browsing import BrowseService
from cognimem.services.editing import EditService


class KnowledgeCalls:
    """Each call's keywords are a ``TypedDict`` of ``models/knowledge_requests.py``: a
    scope (``scope``, ``user_id``, or ``all_users=True`` for every user's) and the
    call's own options, passed whole to the service that makes them its object."""

    _browsing: BrowseService
    _editing: EditService

    async def facts(self, **options: Unpack[FactsKeywords]) -> list[Fact]:
        """The user's facts, newest first: live ones (active, aging), or every version
        with ``include_history``. ``key`` matches exactly or as a prefix of multi-valued
        keys: ``user:preference:cuisine`` finds ``user:preference:cuisine:italian``.
        ``categories`` keeps those; at most ``limit`` (1,000 unless said).
        ``all_users=True`` lists every user's facts of the tenant, and those of no user."""
        return await self._browsing.facts(options)

    async def get_fact(self, key: str, **options: Unpack[UserScopeKeywords]) -> Fact:
        """The live fact under exactly ``key`` (the most recent if a conflict left two)."""
        return await self._browsing.get_fact(key, options)

    async def entities(
        self, **options: Unpack[UserScopeKeywords]
    ) -> list[tuple[Entity, list[Alias]]]:
        """The entities visible to the user (every user's with ``all_users=True``), each
        with its aliases."""
        return await self._browsing.entities(options)

    async def remove_alias(
        self, entity_id: str, alias: str, **options: Unpack[AliasRemovalKeywords]
    ) -> AliasRemoval:
        """Undo a name merge: take ``alias`` off the entity ``entity_id`` (the rows the
        user's words use; the namespace's shared ones with ``all_users=True``), with an
        ``alias_removed`` history entry keeping what they were; the user's items whose
        pronouns were read as the name lose that link (each with a ``relinked`` entry),
        and the summaries made from them the entity no item they cover still has.
        With ``split`` the name becomes an entity of its own, holding those links, so
        later mentions of it resolve there instead of linking back, and the facts said
        through the name alone move to it (the user's profiles of both entities are
        archived in the edit and built again right after it from the facts as they now
        are, as consolidation builds them: ``rebuilt_profiles``; an LLM gist that failed,
        written extractively, or a rebuild that failed, left to the next consolidation
        pass, is named in ``degraded``). ``NotFound`` for an
        entity or alias the scope does not hold; ``InvalidInput`` for the entity's own
        name."""
        return await self._editing.remove_alias(entity_id, alias, options)

    async def add_alias(
        self, entity_id: str, alias: str, **options: Unpack[AliasAdditionKeywords]
    ) -> AliasAddition:
        """Give ``alias`` to the entity ``entity_id`` as the user's word
        (``user_stated``), with an ``alias_added`` history entry. When the name was
        split off this entity (``remove_alias(..., split=True)``), the split-off entity
        is merged back: the items' links, the summaries' entities and the facts the
        split moved come back (and those written about the name since), the user's
        profiles of both are archived and built again (``rebuilt_profiles``,
        ``degraded`` as for ``remove_alias``), and the
        split-off entity is deleted once nothing names it. A name removed without a
        split and given back has the item links its removal took off come back, and
        the entity to the summaries covering those items.
        Nothing happens
        when the entity has the name already; ``Conflict`` when another entity has it
        (remove it there first); ``NotFound`` for an entity the scope does not hold."""
        return await self._editing.add_alias(entity_id, alias, options)

    async def relations(
        self, entity_ids: Sequence[str], **options: Unpack[UserScopeKeywords]
    ) -> list[Relation]:
        """The active graph edges touching any of ``entity_ids`` (the user's and those of
        no user; every user's with ``all_users=True``)."""
        return await self._browsing.relations(entity_ids, options)

    async def conflicts(self, **options: Unpack[ConflictsKeywords]) -> list[FactConflict]:
        """Contradictions between the user's facts (every user's with ``all_users``),
        the open ones unless ``open_only=False``."""
        return await self._browsing.conflicts(options)
