"""The one check of text that can be stored, the write funnel's use of it (metadata at
any depth, its size cap, times without an offset), and the API's answer to store errors
(never the database's address)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize(
    "body",
    [
        b'{"query": "a\\u0000b"}',  # NUL from an escape
        b'{"query": "\\ud800"}',  # a lone surrogate from an escape
        b'{"q\\u0000": 1}',  # in a key
        b'{"query": "\xed\xa0\x80"}',  # a surrogate's bytes, which json.loads lets through
        "\ufeff{}".encode("utf-16"),  # UTF-16: NUL bytes
        '{"query": "a\x00b"}'.encode("utf-32"),
    ],
)
def test_a_body_that_may_hold_unstorable_text_is_not_plain(body: bytes) -> None:
    from cognimem.api.edge import plain_json

    assert not plain_json(body)


@pytest.mark.parametrize(
    "body",
    [
        b'{"query": "where does Sam live?", "scope": {"user_id": "sam"}, "limit": 10}',
        '{"query": "émoji 😀 über"}'.encode(),
        b'{"query": "tab\\tnew line\\n quote\\" slash\\/"}',
        b'\xef\xbb\xbf{"query": "with a BOM"}',
        b'{"query": "not closed',  # invalid JSON: FastAPI answers it, not this check
    ],
)
def test_a_plain_body_holds_only_storable_text(body: bytes) -> None:
    from cognimem.api.edge import plain_json

    assert plain_json(body)
    try:
        parsed = json.loads(body)
    except ValueError:
        return
    assert all(unstorable(s) is None for s in _strings(parsed))


def test_a_body_the_bytes_cannot_clear_is_walked() -> None:
    """Hangul from U+D000 starts with the byte a surrogate does: not plain, yet storable."""
    from cognimem.api.edge import plain_json

    body = '{"query": "퀴즈"}'.encode()
    assert not plain_json(body)
    check_storable(json.loads(body), "")


@given(
    text=st.text(st.characters(codec=None, categories=None), max_size=8),
    ascii_only=st.booleans(),
    raw=st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_plain_json_never_clears_a_body_with_unstorable_text(
    text: str, ascii_only: bool, raw: bool
) -> None:
    """Whatever text a body carries, however it is written (JSON escapes or the raw
    bytes of any code point, surrogates too), a body ``plain_json`` clears parses to
    storable strings only."""
    from cognimem.api.edge import plain_json

    if raw:
        body = ('{"q": "' + text + '"}').encode("utf-8", "surrogatepass")
    else:
        body = json.dumps({"q": text, text: [text]}, ensure_ascii=ascii_only).encode(
            "utf-8", "surrogatepass"
        )
    try:
        parsed = json.loads(body)
    except ValueError:
        return
    if plain_json(body):
        assert all(unstorable(s) is None for s in _strings(parsed))
