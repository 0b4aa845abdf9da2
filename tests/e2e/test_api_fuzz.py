"""Schemathesis against the served OpenAPI schema, over real HTTP with a valid key:
whatever the generated request, the answer is never a 5xx, every error answer has the
documented shape ``{"error": {"type", "message", "details"}}``, and the schema says what
the routes do: a request valid by the schema is accepted, one that violates it is
refused, and every status code, content type and body is the documented one.

Generation leaves out NUL characters: every string field refuses them (422, see
docs/api.md), which JSON Schema cannot say without a pattern on every string."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, assume, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from cognimem import Memory, Settings
from cognimem.api import create_app
from cognimem.config import AuthSettings
from cognimem.providers.fakes import HashingEmbedder
from tests.doubles import issue_api_key
from tests.e2e.http_server import serving

ERROR_FIELDS = {"type", "message", "details"}
# the import body is JSON lines: generated strings are sent as they are
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'memory.db'}"
    # a limit no run reaches: every generated request is checked, none answered 429
    unlimited = Settings(auth=AuthSettings(rate_limit_per_minute=1_000_000))
    memory = Memory.open(url, embedder=HashingEmbedder(), settings=unlimited)
    key = issue_api_key(url, "fuzz")
    with serving(create_app(memory, max_body_bytes=100_000)) as base:
        yield base, key


def _operations() -> list[Any]:
    """The operations of the app's OpenAPI schema (built without serving it)."""
    with tempfile.TemporaryDirectory() as tmp:  # never opened: the schema needs no data
        app = create_app(Memory.open(f"sqlite:///{tmp}/m.db", embedder=HashingEmbedder()))
    loaded = schemathesis.openapi.from_dict(app.openapi())
    loaded.config.generation.update(allow_x00=False)
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


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    positive_data_acceptance,
    negative_data_rejection,
]


# JSON lines of export records: a JSON Schema for a text body cannot say that, so a
# generated body is only checked for the answer's shape, never expected to import
UNDESCRIBABLE_BODY = {"POST /v1/memory/import"}


def _cross_field_rule_broken(case: Any) -> bool:
    """A time range with ``since`` after ``until``: refused (422, docs/api.md), a rule
    between two fields that JSON Schema cannot state."""
    body = case.body if isinstance(case.body, dict) else {}
    try:
        since, until = (datetime.fromisoformat(body[end]) for end in ("since", "until"))
        return bool(since > until)
    except (KeyError, TypeError, ValueError):  # not both, or not both comparable times
        return False


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_the_schema_says_what_each_route_does(
    operation: Any, mode: GenerationMode, served: tuple[str, str]
) -> None:
    base, key = served
    checks = [*CHECKS, error_shape]
    if operation.label in UNDESCRIBABLE_BODY:
        checks.remove(positive_data_acceptance)

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        if mode is GenerationMode.POSITIVE:
            assume(not _cross_field_rule_broken(case))
        case.call_and_validate(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, checks=checks
        )

    try:
        check()
    except Unsatisfiable:
        # nothing in the operation's schema can be violated (no parameters, or only
        # free-form strings): there is no negative case to send
        assert mode is GenerationMode.NEGATIVE
        pytest.skip(f"{operation.label} has no input that its schema refuses")


def test_the_error_shape_check_can_fail() -> None:
    class Answer:
        status_code = 404

        @staticmethod
        def json() -> dict[str, Any]:
            return {"detail": "Not Found"}

    with pytest.raises(AssertionError):
        error_shape(None, Answer(), None)


def test_a_wrong_method_names_every_method_the_path_takes(served: tuple[str, str]) -> None:
    base, key = served
    answer = httpx.options(f"{base}/v1/admin/keys", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 405
    assert answer.headers["Allow"] == "GET, POST"
    error_shape(None, answer, None)
