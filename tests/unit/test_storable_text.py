"""The one check of text that can be stored, the write funnel's use of it (metadata at
any depth, its size cap, times without an offset), and the API's answer to store errors
(never the database's address)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from cognimem.api.errors import response_for
from cognimem.config import IngestSettings
from cognimem.errors import InvalidInput, SchemaMismatch, StoreError, StoreUnavailable
from cognimem.models import Message
from cognimem.models.admin import ExportRecord
from cognimem.models.text import check_storable, unstorable
from cognimem.text.validate import check_time, validate_messages

DSN = "postgresql://cognimem_owner@db.internal:6543/memories"


@pytest.mark.parametrize(
    ("value", "field", "named"),
    [
        ("a\x00b", "content", "content"),
        ("\ud800", "query", "query"),
        ({"note": "x\udfff"}, "metadata", "metadata.note"),
        ({"a": [1, {"b": "\x00"}]}, "metadata", "metadata.a[1].b"),
        ({"k\x00": 1}, "metadata", "metadata.k\\u0000"),
        (["ok", "\ud800"], "ids", "ids[1]"),
        ({"scope": {"user_id": "\x00"}}, "", "scope.user_id"),
    ],
)
def test_unstorable_text_is_refused_naming_the_field(value: Any, field: str, named: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        check_storable(value, field)
    assert caught.value.details == {"field": named}
    # the error itself can be sent as JSON (no raw NUL or surrogate echoed back)
    json.dumps(caught.value.details, ensure_ascii=False).encode("utf-8")
    assert "\x00" not in caught.value.message


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        "émoji 😀",
        "\ud83d\ude00".encode("utf-16", "surrogatepass").decode("utf-16"),
        {"n": [1, 2.5, None, True]},
    ],
)
def test_storable_text_passes(value: Any) -> None:
    check_storable(value, "metadata")
    assert unstorable("tab\tand newline\n") is None


def _settings(**kw: Any) -> IngestSettings:
    return IngestSettings(**kw)


def test_metadata_over_the_cap_is_refused_and_at_the_cap_accepted() -> None:
    settings = _settings(max_metadata_bytes=100)
    fits = {"n": "x" * (100 - len('{"n": ""}'))}
    assert len(json.dumps(fits).encode()) == 100
    validate_messages([Message(content="hi", metadata=fits)], settings)
    over = {"n": "x" * 200}
    with pytest.raises(InvalidInput) as caught:
        validate_messages([Message(content="hi"), Message(content="yo", metadata=over)], settings)
    assert caught.value.details == {"field": "messages[1].metadata"}
    assert "100" in caught.value.message


def test_the_metadata_cap_defaults_to_16_kib() -> None:
    assert IngestSettings().max_metadata_bytes == 16_384


def test_a_time_without_an_offset_is_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        check_time(datetime(2024, 5, 1, 12, 0), "occurred_at")
    assert caught.value.details == {"field": "occurred_at"}
    assert "offset" in caught.value.message
    check_time(datetime(2024, 5, 1, 12, 0, tzinfo=UTC), "occurred_at")


@pytest.mark.parametrize(
    "error",
    [
        StoreUnavailable(f"PostgreSQL at {DSN} is unavailable: OSError", retry_after=2),
        StoreError(f"PostgreSQL error at {DSN} (22021): invalid byte sequence"),
        SchemaMismatch(f"the database at {DSN} has schema 9"),
        StoreUnavailable("SQLite database /srv/secret/memory.db is unavailable: locked"),
    ],
)
def test_a_store_error_answer_never_names_the_database(error: StoreError) -> None:
    answer = response_for(error)
    assert answer.status_code == error.status_code
    body = bytes(answer.body).decode()
    assert json.loads(body)["error"]["type"] == error.type
    for part in ("cognimem_owner", "db.internal", "6543", "memories", "/srv/secret"):
        assert part not in body, body
    if isinstance(error, StoreUnavailable):
        assert answer.headers["Retry-After"]


def test_an_export_record_that_cannot_be_serialised_becomes_an_error_record() -> None:
    bad = ExportRecord(type="event", data={"id": "evt_1", "metadata": {"note": "\ud800"}})
    line = bad.json_line()
    assert line.endswith("\n")
    record = json.loads(line)
    assert record["type"] == "error"
    assert record["data"]["record_type"] == "event"
    assert record["data"]["id"] == "evt_1"
    assert "surrogate" in record["data"]["message"]
    good = ExportRecord(type="event", data={"id": "evt_2"})
    assert json.loads(good.json_line()) == {"type": "event", "data": {"id": "evt_2"}}
