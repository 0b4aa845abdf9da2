"""The HTTP bodies a route passes to its call by field name (``CallBody.keywords``):
every field of one is a keyword of that call, or the body says it is not
(``NOT_KEYWORDS``), so a field added to a body fails here until the call takes it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from cognimem.api.auth import CreateKeyRequest, issue_key
from cognimem.api.routes.browse import ItemsQuery
from cognimem.api.schemas import (
    CallBody,
    FactsQuery,
    ForgetRequest,
    ReadRequest,
    TurnRequest,
    UpdateRequest,
)
from cognimem.memory import Memory
from tests.unit.signatures import keywords

# each body and the call its route passes it to
CALLS: list[tuple[type[CallBody], Callable[..., Any]]] = [
    (ReadRequest, Memory.read),
    (TurnRequest, Memory.turn),
    (UpdateRequest, Memory.update),
    (ForgetRequest, Memory.forget),
    (FactsQuery, Memory.facts),
    (ItemsQuery, Memory.list_items),
    (CreateKeyRequest, issue_key),
]


@pytest.mark.parametrize(("body", "call"), CALLS, ids=[b.__name__ for b, _ in CALLS])
def test_each_field_a_route_passes_by_name_is_a_keyword_of_its_call(
    body: type[CallBody], call: Callable[..., Any]
) -> None:
    passed = set(body.model_fields) - body.NOT_KEYWORDS

    assert passed <= keywords(call)
    assert set(body.model_fields) >= body.NOT_KEYWORDS


def test_a_body_s_keywords_are_its_fields_but_its_subject_with_the_given_over_them() -> None:
    at = datetime(2025, 3, 1, tzinfo=UTC)
    body = ForgetRequest.model_validate(
        {"scope": {"user_id": "u1"}, "since": at.isoformat(), "mode": "archive"}
    )
    update = UpdateRequest.model_validate({"id": "mem_1", "tier": "high"})

    sent = body.keywords(scope={"tenant_id": "t1", "user_id": "u1"})

    assert sent == {
        "scope": {"tenant_id": "t1", "user_id": "u1"},
        "ids": None,
        "query": None,
        "since": at,
        "until": None,
        "mode": "archive",
        "dry_run": False,
        "limit": 100,
    }
    assert update.keywords(tenant_id="t1") == {
        "text": None,
        "importance": None,
        "tier": update.tier,
        "feedback": None,
        "tenant_id": "t1",
    }
