"""``collect.admits`` on scopes: whether a search with a filter could have returned an
item that came by id (the graph's and the key lookup's evidence). Checked against the
rule it states, written out here over every combination of the filter's user, agent
and session, its levels' flags and the item's own ids."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from cognimem.models import MemoryItem, Scope
from cognimem.models.scope import ORGANISATION_NAMESPACE
from cognimem.recall.collect import admits
from cognimem.store.types import ItemFilter

AT = datetime(2026, 5, 1, tzinfo=UTC)
USERS, AGENTS, SESSIONS = (None, "u1", "u2"), (None, "a1", "a2"), (None, "s1", "s2")


def _expected(flt: ItemFilter, item: MemoryItem) -> bool:
    """The scope part of ``admits``, field by field: a filter's user, agent and session,
    each when it names one, must be the item's; an item of no agent passes a filter's
    agent when the filter takes the user's own of no agent and names a user."""
    s, i = flt.scope, item.scope
    if i.tenant_id != s.tenant_id:
        return False
    if i.namespace != s.namespace:
        reach = flt.with_organisation or flt.shared_only
        return reach and i.level == "organisation"
    if flt.level_only and s.user_id is None:
        return (i.user_id, i.agent_id) == (None, s.agent_id)
    if flt.with_organisation and s.user_id is not None and i.user_id is None:
        return i.agent_id in (None, s.agent_id)
    for name in ("user_id", "agent_id", "session_id"):
        wanted = getattr(s, name)
        if wanted is not None and getattr(i, name) != wanted:
            mine = name == "agent_id" and flt.own_of_no_agent and i.agent_id is None
            if not (mine and s.user_id is not None):
                return False
    return True


def _item(user: str | None, agent: str | None, session: str | None, ns: str) -> MemoryItem:
    scope = Scope(tenant_id="t", namespace=ns, user_id=user, agent_id=agent, session_id=session)
    return MemoryItem(id="m", scope=scope, text="x", occurred_at=AT, recorded_at=AT)


ITEMS = [
    _item(u, a, s, ns)
    for u, a, s in itertools.product(USERS, AGENTS, SESSIONS)
    for ns in ("default", ORGANISATION_NAMESPACE)
    if not (ns == ORGANISATION_NAMESPACE and (u or a or s))
]


@pytest.mark.parametrize(
    ("user", "agent", "session"), list(itertools.product(USERS, AGENTS, SESSIONS))
)
@pytest.mark.parametrize("flags", list(itertools.product([False, True], repeat=3)))
def test_admits_the_scope_rule(
    user: str | None, agent: str | None, session: str | None, flags: tuple[bool, ...]
) -> None:
    own_of_no_agent, with_organisation, level_only = flags
    scope = Scope(tenant_id="t", user_id=user, agent_id=agent, session_id=session)
    flt = ItemFilter(
        scope=scope,
        own_of_no_agent=own_of_no_agent,
        with_organisation=with_organisation,
        level_only=level_only,
    )
    for item in ITEMS:
        assert admits(flt, item) is _expected(flt, item), (flt, item.scope)


def test_an_item_of_no_agent_passes_an_agent_s_filter_only_as_the_user_s_own() -> None:
    mine = _item("u1", None, None, "default")
    scope = Scope(tenant_id="t", user_id="u1", agent_id="a1")
    assert admits(ItemFilter(scope=scope, own_of_no_agent=True), mine)
    assert not admits(ItemFilter(scope=scope), mine)
    other_user = Scope(tenant_id="t", agent_id="a1")
    assert not admits(ItemFilter(scope=other_user, own_of_no_agent=True), mine)
