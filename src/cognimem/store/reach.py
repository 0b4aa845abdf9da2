"""Whose rows a call reaches, its scope rule written once: one level's items and facts
(``level_filter``, ``level_facts``), a read's items (``read_reach``) and the entries of
rows of no user a user's read searches beside its own (``shared_entries``), and the
scope's own ids an item filter matches (``own_ids``)."""

from __future__ import annotations

from typing import Any

from cognimem.models import Scope
from cognimem.models.scope import ORGANISATION_NAMESPACE
from cognimem.store.types import FactQuery, ItemFilter


def shared_entries(scope: Scope) -> tuple[tuple[str, str], ...]:
    """The (tenant, namespace) entries of rows of no user a user's read searches, the
    closer first: the namespace's (its level and its agents') and the organisation's."""
    return (
        (scope.tenant_id, scope.namespace),
        (scope.tenant_id, ORGANISATION_NAMESPACE),
    )


def own_ids(flt: ItemFilter) -> list[tuple[str, str, bool]]:
    """The scope's own ids a filter matches (user, agent, session: each one the scope
    sets), as (column, value, or_unset): ``or_unset`` for the agent with
    ``own_of_no_agent`` and a user, whose rows of no agent match too."""
    s = flt.scope
    no_agent_too = flt.own_of_no_agent and s.user_id is not None
    named = (("user_id", s.user_id), ("agent_id", s.agent_id), ("session_id", s.session_id))
    return [(c, v, no_agent_too and c == "agent_id") for c, v in named if v is not None]


def reaches_organisation(flt: ItemFilter) -> bool:
    """Whether the SQL listings add the organisation's rows (no user, no agent, in
    ``ORGANISATION_NAMESPACE``) to the scope's: a filter reaching the shared levels, of a
    scope in another namespace (the organisation's own scope has them already)."""
    return (flt.with_organisation or flt.shared_only) and (
        flt.scope.namespace != ORGANISATION_NAMESPACE
    )


def level_filter(scope: Scope, **fields: Any) -> ItemFilter:
    """An ``ItemFilter`` of one level's items: a user's (any agent, as a user's
    lifecycle has always run), or with no user the agent's, the namespace's or (in
    ``ORGANISATION_NAMESPACE``) the organisation's alone."""
    return ItemFilter(scope=scope, level_only=scope.user_id is None, **fields)


def read_reach(
    scope: Scope, *, level: bool = False, mandates: bool = False, **fields: Any
) -> ItemFilter:
    """The items a read reaches, its scope rule written once (``fields``: kinds, times).

    One shared level alone (``level``): that level's rows (:func:`level_filter`). A
    user's read not walled to one session: the user's own rows — of the read's agent and
    of no agent (what she said to no particular agent is hers; what she said to another
    agent is not this one's) — and the shared levels' (the read's agent's, the
    namespace's, the organisation's). A read of every user (no agent): the namespace's
    rows (every user's and of no user) and the organisation's. A read walled to one session
    (``session_only``): the scope's rows alone, and for its ``mandates`` the shared
    levels' too."""
    if level:
        return level_filter(scope, **fields)
    mine = scope.user_id is not None and scope.session_id is None
    everyone = scope.user_id is None and scope.session_id is None and scope.agent_id is None
    return ItemFilter(
        scope=scope,
        with_organisation=mine or everyone or mandates,
        own_of_no_agent=mine,
        **fields,
    )


def level_facts(scope: Scope, **fields: Any) -> FactQuery:
    """A ``FactQuery`` of one level's facts, as :func:`level_filter`."""
    return FactQuery(
        scope.tenant_id,
        scope.namespace,
        scope.user_id,
        agent_id=scope.agent_id,
        level_only=scope.user_id is None,
        **fields,
    )
