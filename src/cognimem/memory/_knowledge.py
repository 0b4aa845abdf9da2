"""``Memory``'s knowledge calls (a mixin, so ``memory/_facade.py`` keeps to its wiring
and the read and record surface): the facts, entities, aliases, relations and conflicts
of a scope. The work is ``services.browsing``' (and ``services.editing``' for
``remove_alias``)."""

from __future__ import annotations

from collections.abc import Sequence

from cognimem.models.arguments import ScopeLike
from cognimem.models.knowledge import (
    Alias,
    AliasRemoval,
    Entity,
    Fact,
    FactCategory,
    FactConflict,
    Relation,
)
from cognimem.services.browsing import DEFAULT_FACT_LIMIT, BrowseService
from cognimem.services.editing import EditService


class KnowledgeCalls:
    _browsing: BrowseService
    _editing: EditService

    async def facts(
        self,
        *,
        key: str | Sequence[str] | None = None,
        categories: Sequence[FactCategory | str] | None = None,
        include_history: bool = False,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
        limit: int = DEFAULT_FACT_LIMIT,
    ) -> list[Fact]:
        """The user's facts, newest first: live ones (active, aging), or every version
        with ``include_history``. ``key`` matches exactly or as a prefix of multi-valued
        keys: ``user:preference:cuisine`` finds ``user:preference:cuisine:italian``.
        ``all_users=True`` lists every user's facts of the tenant, and those of no user."""
        return await self._browsing.facts(
            key=key,
            categories=categories,
            include_history=include_history,
            scope=scope,
            user_id=user_id,
            all_users=all_users,
            limit=limit,
        )

    async def get_fact(
        self,
        key: str,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> Fact:
        """The live fact under exactly ``key`` (the most recent if a conflict left two)."""
        return await self._browsing.get_fact(key, scope=scope, user_id=user_id, all_users=all_users)

    async def entities(
        self, *, scope: ScopeLike = None, user_id: str | None = None, all_users: bool = False
    ) -> list[tuple[Entity, list[Alias]]]:
        """The entities visible to the user (every user's with ``all_users=True``), each
        with its aliases."""
        return await self._browsing.entities(scope=scope, user_id=user_id, all_users=all_users)

    async def remove_alias(
        self,
        entity_id: str,
        alias: str,
        *,
        split: bool = False,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> AliasRemoval:
        """Undo a name merge: take ``alias`` off the entity ``entity_id`` (the rows the
        user's words use; the namespace's shared ones with ``all_users=True``), with an
        ``alias_removed`` history entry keeping what they were. With ``split`` the name
        becomes an entity of its own, so later mentions of it resolve there instead of
        linking back. ``NotFound`` for an entity or alias the scope does not hold;
        ``InvalidInput`` for the entity's own name."""
        return await self._editing.remove_alias(
            entity_id, alias, split=split, scope=scope, user_id=user_id, all_users=all_users
        )

    async def relations(
        self,
        entity_ids: Sequence[str],
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> list[Relation]:
        """The active graph edges touching any of ``entity_ids`` (the user's and those of
        no user; every user's with ``all_users=True``)."""
        return await self._browsing.relations(
            entity_ids, scope=scope, user_id=user_id, all_users=all_users
        )

    async def conflicts(
        self,
        *,
        open_only: bool = True,
        scope: ScopeLike = None,
        user_id: str | None = None,
        all_users: bool = False,
    ) -> list[FactConflict]:
        """Contradictions between the user's facts (every user's with ``all_users``)."""
        return await self._browsing.conflicts(
            open_only=open_only, scope=scope, user_id=user_id, all_users=all_users
        )
