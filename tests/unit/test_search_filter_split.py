"""The SQLite searches keep the split of their filters (``store/sqlite/items.own_and_shared``):
the kept split is the filter's own, and an equal filter gets the one kept."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from cognimem.models import ItemKind, Scope
from cognimem.store.reach import level_filter, read_reach
from cognimem.store.sqlite.items import own_and_shared
from cognimem.store.types import ItemFilter

_USER = Scope(tenant_id="t", namespace="n", user_id="u", agent_id="a")
_PERIOD = (datetime(2024, 5, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC))


@pytest.mark.parametrize(
    "flt",
    [
        read_reach(_USER),
        read_reach(_USER, kinds=(ItemKind.SUMMARY,), period=_PERIOD),
        read_reach(Scope(tenant_id="t", namespace="n")),
        read_reach(_USER, mandates=True, kinds=(ItemKind.MANDATE, ItemKind.GUARDRAIL)),
        level_filter(Scope(tenant_id="t", namespace="n", agent_id="a")),
        ItemFilter(scope=Scope(tenant_id="t", namespace="n", user_id="u", session_id="s")),
    ],
)
def test_the_kept_split_is_the_filters_own(flt: ItemFilter) -> None:
    own, shared = flt.own_and_shared()
    assert own_and_shared(flt) == (own, tuple(shared))


def test_an_equal_filter_gets_the_kept_split() -> None:
    first = read_reach(_USER, since=datetime(2024, 1, 1, tzinfo=UTC))
    equal = read_reach(
        Scope(tenant_id="t", namespace="n", user_id="u", agent_id="a"),
        since=datetime(2024, 1, 1, tzinfo=UTC),
    )
    assert first is not equal
    assert first == equal
    assert own_and_shared(first) is own_and_shared(equal)
    other = replace(first, since=datetime(2024, 2, 1, tzinfo=UTC))
    assert own_and_shared(other)[0].since == datetime(2024, 2, 1, tzinfo=UTC)
    assert own_and_shared(other) != own_and_shared(first)
