"""Schemathesis against the served OpenAPI schema, over real HTTP with a valid key:
whatever the generated request, the answer is never a 5xx, and every error answer has
the documented shape ``{"error": {"type", "message", "details"}}``."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from cognimem import Memory
from cognimem.api import create_app
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import serving

ERROR_FIELDS = {"type", "message", "details"}
# the import body is JSON lines: generated strings are sent as they are
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'memory.db'}"
    memory = Memory.open(url, embedder=HashingEmbedder())
    key = issue_api_key(url, "fuzz")
    with serving(create_app(memory, max_body_bytes=100_000)) as base:
        yield base, key


def _operations() -> list[Any]:
    """The operations of the app's OpenAPI schema (built without serving it)."""
    with tempfile.TemporaryDirectory() as tmp:  # never opened: the schema needs no data
        app = create_app(Memory.open(f"sqlite:///{tmp}/m.db", embedder=HashingEmbedder()))
    loaded = schemathesis.openapi.from_dict(app.openapi())
    return [result.ok() for result in loaded.get_all_operations()]


OPERATIONS = _operations()


def error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx/5xx answer carries the error body, whatever the route."""
    if response.status_code < 400:
        return None
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == ERROR_FIELDS, body
    assert isinstance(body["error"]["message"], str), body
    assert body["error"]["message"], body
    assert isinstance(body["error"]["details"], dict), body
    return True


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_no_server_error_and_every_error_has_the_shape(
    operation: Any, served: tuple[str, str]
) -> None:
    base, key = served

    @given(case=operation.as_strategy())
    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        case.call_and_validate(
            base_url=base,
            headers={"Authorization": f"Bearer {key}"},
            checks=[not_a_server_error, response_schema_conformance, error_shape],
        )

    check()


def test_the_error_shape_check_can_fail() -> None:
    class Answer:
        status_code = 404

        @staticmethod
        def json() -> dict[str, Any]:
            return {"detail": "Not Found"}

    with pytest.raises(AssertionError):
        error_shape(None, Answer(), None)
