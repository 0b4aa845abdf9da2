"""The API's wire types accept what their JSON Schema says and nothing more."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import TypeAdapter, ValidationError

from cognimem.models.wire import IsoTime

TIME = TypeAdapter(IsoTime)


@pytest.mark.parametrize("text", ["0", "1700000000", "12.5", "-1", " 2024-01-01T00:00:00Z"])
def test_a_time_is_never_a_number_of_seconds_even_as_text(text: str) -> None:
    # pydantic alone reads "0" as 1970-01-01: the schema's pattern refuses it
    with pytest.raises(ValidationError, match="ISO 8601"):
        TIME.validate_python(text)
    with pytest.raises(ValidationError, match="ISO 8601"):
        TIME.validate_json(f'"{text}"')


def test_a_time_is_iso_8601_text_or_a_datetime() -> None:
    at = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
    assert TIME.validate_json('"2024-05-01T12:30:00Z"') == at
    assert TIME.validate_python(at) == at
    with pytest.raises(ValidationError):
        TIME.validate_json("1714566600")
